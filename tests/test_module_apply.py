"""Transforming: _apply (both torch.__future__ flags, .grad), to() parsing and errors, to_empty, dtype helpers, zero_grad."""

import pytest
import torch

from helpers import assert_same, norm, outcome, record_warnings


def build(nn):
    m = nn.Module()
    m.w = nn.Parameter(torch.arange(4.0).reshape(2, 2))
    m.register_buffer("count", torch.tensor(3))
    m.register_buffer("stat", torch.ones(2))
    m.register_buffer("nothing", None)
    m.child = nn.Module()
    m.child.v = nn.Parameter(torch.ones(1, 2, 3, 4))
    m.child.register_parameter("absent", None)
    return m


def state(m):
    out = []
    for name, t in list(m.named_parameters()) + list(m.named_buffers()):
        g = t.grad if isinstance(t, torch.Tensor) and t.requires_grad else None
        out.append(
            (
                name,
                type(t).__name__,
                str(t.dtype),
                t.device.type,
                tuple(t.shape),
                t.requires_grad,
                t.is_contiguous(memory_format=torch.channels_last) if t.dim() == 4 else None,
                None if g is None else (str(g.dtype), g.device.type),
            )
        )
    return out


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.float(),
        lambda m: m.double(),
        lambda m: m.half(),
        lambda m: m.bfloat16(),
        lambda m: m.cpu(),
        lambda m: m.type(torch.float64),
        lambda m: m.to(torch.float64),
        lambda m: m.to("meta"),
        lambda m: m.to(device="meta", dtype=torch.float16),
        lambda m: m.to(torch.empty(1, dtype=torch.float64)),
        lambda m: m.to("cpu", torch.float64, True),
        lambda m: m.to(memory_format=torch.channels_last),
        lambda m: m.to(torch.complex64),
        lambda m: m.to(torch.int32),
        lambda m: m.to("cpu", dtype=torch.long),
        lambda m: m.to(),
        lambda m: m.to("nonsense"),
        lambda m: m.to(1, 2, 3, 4),
        lambda m: m.to_empty(device="meta"),
        lambda m: m.to_empty(device="meta", recurse=False),
        lambda m: m.to_empty(device="cpu"),
        lambda m: m.share_memory(),
        lambda m: m.to("meta").to("cpu"),
    ],
)
@pytest.mark.parametrize("flags", ["default", "overwrite", "swap"])
@pytest.mark.parametrize("with_grad", [False, True])
def test_conversions(call, flags, with_grad):
    def scenario(nn):
        torch.__future__.set_overwrite_module_params_on_conversion(flags == "overwrite")
        torch.__future__.set_swap_module_params_on_conversion(flags == "swap")
        m = build(nn)
        if with_grad:
            m.w.grad = torch.ones(2, 2)
        w_before = m.w
        result, warns = record_warnings(lambda: norm(outcome(lambda: call(m) is m)))
        same_object = m.w is w_before
        return result, warns, state(m), same_object

    assert_same(scenario)


def test_to_meta_error_mentions_to_empty():
    def scenario(nn):
        m = build(nn).to("meta")
        return norm(outcome(m.to, "cpu"))

    assert_same(scenario)


def test_apply_values_are_converted():
    def scenario(nn):
        m = build(nn).double()
        return m.w.tolist(), m.count.dtype, m.child.v.dtype, m.stat.dtype

    assert_same(scenario)


def test_swap_keeps_identity_and_moves_grad():
    def scenario(nn):
        torch.__future__.set_swap_module_params_on_conversion(True)
        m = build(nn)
        m.w.grad = torch.full((2, 2), 7.0)
        w = m.w
        m.double()
        return w is m.w, str(w.dtype), str(w.grad.dtype), w.grad.tolist(), type(w).__name__

    assert_same(scenario)


def test_overwrite_replaces_parameter_objects():
    def scenario(nn):
        torch.__future__.set_overwrite_module_params_on_conversion(True)
        m = build(nn)
        m.w.grad = torch.ones(2, 2)
        w = m.w
        m.double()
        return w is m.w, type(m.w).__name__, m.w.is_leaf, str(m.w.grad.dtype), m.w.requires_grad

    assert_same(scenario)


def test_apply_non_recursive():
    def scenario(nn):
        m = build(nn)
        m._apply(lambda t: t.double(), recurse=False)
        return state(m)

    assert_same(scenario)


@pytest.mark.parametrize("set_to_none", [True, False])
def test_zero_grad(set_to_none):
    def scenario(nn):
        m = build(nn)
        m.w.grad = torch.ones(2, 2)
        y = torch.ones(1, requires_grad=True)
        m.child.v.grad = y * torch.ones(1, 2, 3, 4)  # a grad with grad_fn
        m.zero_grad(set_to_none)
        g = m.w.grad
        gv = m.child.v.grad
        return (
            None if g is None else (g.tolist(), g.requires_grad),
            None if gv is None else (gv.sum().item(), gv.grad_fn is None, gv.requires_grad),
        )

    assert_same(scenario)


def test_zero_grad_on_replica_warns():
    def scenario(nn):
        r = build(nn)._replicate_for_data_parallel()
        return record_warnings(lambda: r.zero_grad())[1]

    assert_same(scenario)


def test_train_eval_requires_grad():
    def scenario(nn):
        m = build(nn)
        seq = [m.eval() is m, [x.training for x in m.modules()]]
        seq.append(norm(outcome(m.train, 1)))
        seq.append(norm(outcome(m.train, "yes")))
        seq += [m.train() is m, [x.training for x in m.modules()]]
        seq += [m.requires_grad_(False) is m, [p.requires_grad for p in m.parameters()]]
        m.requires_grad_()
        seq.append([p.requires_grad for p in m.parameters()])
        return seq

    assert_same(scenario)


def test_apply_fn_error_leaves_earlier_tensors_converted():
    def scenario(nn):
        m = build(nn)
        calls = []

        def fn(t):
            calls.append(tuple(t.shape))
            if len(calls) == 2:
                raise ValueError("stop")
            return t.double()

        return norm(outcome(m._apply, fn)), state(m)

    assert_same(scenario)


def test_cuda_unavailable_error():
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")

    def scenario(nn):
        return norm(outcome(build(nn).cuda))[:2]

    assert_same(scenario)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_moves_and_hooks_and_state_dict():
    def scenario(nn):
        m = build(nn).cuda()
        log = []
        m.register_forward_hook(lambda mod, a, o: log.append(o.device.type))
        m.forward = lambda x: x * 2
        out = m(torch.ones(1, device="cuda"))
        sd = m.state_dict()
        m2 = build(nn).to("cuda:0")
        m2.load_state_dict(sd)
        back = m2.cpu()
        return state(m), log, out.device.type, [v.device.type for v in sd.values()], state(back)

    assert_same(scenario)
