"""annotated_nn.utils.{fusion, memory_format, clip_grad, convert_parameters} vs torch.nn.utils's.

Each scenario runs twice: with torch.nn + torch.nn.utils, and with annotated_nn + our functions,
and what a user observes is compared: values bit for bit, types, strides, errors and warnings.
"""

import inspect
import math
import warnings
from types import SimpleNamespace

import pytest
import torch
import torch.nn as tnn
import torch.nn.utils as tu

import annotated_nn as ann
import annotated_nn.utils.clip_grad as clip_grad
import annotated_nn.utils.convert_parameters as convert_parameters
import annotated_nn.utils.fusion as fusion
import annotated_nn.utils.memory_format as memory_format
from helpers import norm, outcome, record_warnings

OURS = SimpleNamespace(
    fuse_conv_bn_eval=fusion.fuse_conv_bn_eval,
    fuse_conv_bn_weights=fusion.fuse_conv_bn_weights,
    fuse_linear_bn_eval=fusion.fuse_linear_bn_eval,
    fuse_linear_bn_weights=fusion.fuse_linear_bn_weights,
    convert_conv2d_weight_memory_format=memory_format.convert_conv2d_weight_memory_format,
    convert_conv3d_weight_memory_format=memory_format.convert_conv3d_weight_memory_format,
    clip_grad_norm_=clip_grad.clip_grad_norm_,
    clip_grad_norm=clip_grad.clip_grad_norm,
    clip_grad_value_=clip_grad.clip_grad_value_,
    clip_grads_with_norm_=clip_grad._clip_grads_with_norm_,
    get_total_norm=clip_grad._get_total_norm,
    parameters_to_vector=convert_parameters.parameters_to_vector,
    vector_to_parameters=convert_parameters.vector_to_parameters,
)
PAIRS = {"torch": (tnn, tu), "ours": (ann, OURS)}


def both(scenario):
    """Run scenario(nn, utils) for torch and for ours; return (torch's, ours)."""
    return scenario(*PAIRS["torch"]), scenario(*PAIRS["ours"])


def bits_equal(a, b):
    """Same dtype, shape, device type and the same bytes (NaN payloads included)."""
    if a.dtype != b.dtype or a.shape != b.shape or a.device.type != b.device.type:
        return False
    if a.is_meta:
        return True
    return torch.equal(a.reshape(-1).view(torch.uint8), b.reshape(-1).view(torch.uint8))


def assert_bits(theirs, ours):
    """Pairwise bits_equal over two equally long lists (None must match None)."""
    assert len(theirs) == len(ours)
    for t, o in zip(theirs, ours):
        assert (t is None) == (o is None)
        if t is not None:
            assert bits_equal(t, o), (t, o)


# --------------------------------------------------------------------------------------------
# fusion
# --------------------------------------------------------------------------------------------


def randomize_bn(bn):
    """Give a BatchNorm non-trivial running statistics (and affine parameters), from the RNG."""
    with torch.no_grad():
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2.0)
        if bn.weight is not None:
            bn.weight.uniform_(0.5, 1.5)
            bn.bias.uniform_(-0.5, 0.5)
    return bn


CONV_CASES = [
    # (conv class, bn class, input shape, conv kwargs, transpose)
    ("Conv1d", "BatchNorm1d", (2, 3, 7), {}, False),
    ("Conv2d", "BatchNorm2d", (2, 3, 6, 6), {}, False),
    ("Conv2d", "BatchNorm2d", (2, 3, 6, 6), {"bias": False}, False),
    ("Conv2d", "BatchNorm2d", (2, 4, 6, 6), {"groups": 2}, False),
    ("Conv3d", "BatchNorm3d", (1, 3, 4, 4, 4), {}, False),
    ("ConvTranspose2d", "BatchNorm2d", (2, 3, 5, 5), {}, True),
    ("ConvTranspose1d", "BatchNorm1d", (2, 3, 5), {"bias": False}, True),
]


@pytest.mark.parametrize("conv_name,bn_name,in_shape,kwargs,transpose", CONV_CASES)
@pytest.mark.parametrize("affine", [True, False])
def test_fuse_conv_bn_eval_matches_torch(conv_name, bn_name, in_shape, kwargs, transpose, affine):
    def scenario(nn, utils):
        torch.manual_seed(0)
        conv = getattr(nn, conv_name)(in_shape[1], 6, 3, **kwargs).eval()
        bn = randomize_bn(getattr(nn, bn_name)(6, affine=affine)).eval()
        before = [p.detach().clone() for p in conv.parameters()]
        fused = utils.fuse_conv_bn_eval(conv, bn, transpose=transpose)
        x = torch.randn(in_shape)
        after = list(conv.parameters())
        return SimpleNamespace(
            fused=fused,
            out=fused(x),
            reference=bn(conv(x)),
            params=[
                (n, p.detach(), p.requires_grad, p.is_leaf) for n, p in fused.named_parameters()
            ],
            unchanged=len(before) == len(after) and all(map(torch.equal, before, after)),
            distinct=fused is not conv,
        )

    theirs, ours = both(scenario)
    assert bits_equal(theirs.out, ours.out)
    assert torch.allclose(ours.out, ours.reference, atol=1e-5)
    assert [(n, g, leaf) for n, _, g, leaf in theirs.params] == [
        (n, g, leaf) for n, _, g, leaf in ours.params
    ]
    assert_bits([p for _, p, _, _ in theirs.params], [p for _, p, _, _ in ours.params])
    assert ours.unchanged and theirs.unchanged and ours.distinct
    assert type(ours.fused) is getattr(ann, conv_name)
    assert type(ours.fused.weight) is ann.Parameter and type(ours.fused.bias) is ann.Parameter
    assert norm(repr(ours.fused)) == norm(repr(theirs.fused))


@pytest.mark.parametrize(
    "dtypes", [(torch.float64, torch.float32), (torch.bfloat16, torch.float32)]
)
def test_fuse_weights_keep_conv_and_linear_dtypes(dtypes):
    conv_dtype, bn_dtype = dtypes

    def scenario(nn, utils):
        torch.manual_seed(1)
        conv = nn.Conv2d(3, 4, 3).to(conv_dtype).eval()
        linear = nn.Linear(3, 4).to(conv_dtype).eval()
        bn = randomize_bn(nn.BatchNorm2d(4)).to(bn_dtype).eval()
        bn1 = randomize_bn(nn.BatchNorm1d(4)).to(bn_dtype).eval()
        fc = utils.fuse_conv_bn_eval(conv, bn)
        fl = utils.fuse_linear_bn_eval(linear, bn1)
        return [fc.weight, fc.bias, fl.weight, fl.bias]

    theirs, ours = both(scenario)
    assert_bits(theirs, ours)
    assert [t.dtype for t in ours] == [conv_dtype] * 4


@pytest.mark.parametrize("num_features", [4, 1])
@pytest.mark.parametrize("bias", [True, False])
def test_fuse_linear_bn_eval_matches_torch(num_features, bias):
    def scenario(nn, utils):
        torch.manual_seed(2)
        linear = nn.Linear(3, 4, bias=bias).eval()
        bn = randomize_bn(nn.BatchNorm1d(num_features)).eval()
        fused = utils.fuse_linear_bn_eval(linear, bn)
        x = torch.randn(5, 3)
        return fused, fused(x), [(p.detach(), p.requires_grad) for p in fused.parameters()]

    (tf, tout, tparams), (of, oout, oparams) = both(scenario)
    assert bits_equal(tout, oout)
    assert_bits([p for p, _ in tparams], [p for p, _ in oparams])
    assert [g for _, g in tparams] == [g for _, g in oparams]
    assert type(of) is ann.Linear and type(of.weight) is ann.Parameter
    assert norm(repr(of)) == norm(repr(tf))


def test_fuse_weights_functions_return_our_parameters():
    def scenario(nn, utils):
        torch.manual_seed(3)
        w, b = torch.randn(4, 3, 3, 3, requires_grad=True), torch.randn(4)
        rm, rv, bw, bb = torch.randn(4), torch.rand(4) + 0.5, torch.randn(4), torch.randn(4)
        conv = utils.fuse_conv_bn_weights(w, b, rm, rv, 1e-5, bw, bb)
        wt = torch.randn(3, 4, 2, 2, requires_grad=True)
        conv_t = utils.fuse_conv_bn_weights(wt, None, rm, rv, 1e-3, None, None, transpose=True)
        lw, lb = torch.randn(4, 3), torch.randn(4, requires_grad=True)
        lin = utils.fuse_linear_bn_weights(lw, lb, rm, rv, 1e-5, bw, bb)
        lin_nb = utils.fuse_linear_bn_weights(lw, None, rm, rv, 1e-5, bw, bb)
        return [*conv, *conv_t, *lin, *lin_nb]

    theirs, ours = both(scenario)
    assert_bits([t.detach() for t in theirs], [o.detach() for o in ours])
    assert [t.requires_grad for t in theirs] == [o.requires_grad for o in ours]
    assert all(type(t) is tnn.Parameter for t in theirs)
    assert all(type(o) is ann.Parameter for o in ours)
    assert all(o.is_leaf for o in ours)


def fusion_error_cases():
    """(name, scenario(nn, utils)) pairs that raise."""

    def conv_training(nn, utils):
        return utils.fuse_conv_bn_eval(nn.Conv2d(2, 3, 1), nn.BatchNorm2d(3).eval())

    def bn_training(nn, utils):
        return utils.fuse_conv_bn_eval(nn.Conv2d(2, 3, 1).eval(), nn.BatchNorm2d(3))

    def no_stats(nn, utils):
        bn = nn.BatchNorm2d(3, track_running_stats=False).eval()
        return utils.fuse_conv_bn_eval(nn.Conv2d(2, 3, 1).eval(), bn)

    def linear_training(nn, utils):
        return utils.fuse_linear_bn_eval(nn.Linear(2, 3), nn.BatchNorm1d(3).eval())

    def linear_mismatch(nn, utils):
        return utils.fuse_linear_bn_eval(nn.Linear(2, 3).eval(), nn.BatchNorm1d(5).eval())

    def linear_no_stats(nn, utils):
        bn = nn.BatchNorm1d(3, track_running_stats=False).eval()
        return utils.fuse_linear_bn_eval(nn.Linear(2, 3).eval(), bn)

    def linear_no_affine(nn, utils):
        return utils.fuse_linear_bn_eval(
            nn.Linear(2, 3).eval(), nn.BatchNorm1d(3, affine=False).eval()
        )

    def transpose_groups(nn, utils):
        conv = nn.ConvTranspose2d(4, 6, 3, groups=2).eval()
        return utils.fuse_conv_bn_eval(conv, nn.BatchNorm2d(6).eval(), transpose=True)

    return [(f.__name__, f) for f in (conv_training, bn_training, no_stats, linear_training,
            linear_mismatch, linear_no_stats, linear_no_affine, transpose_groups)]  # fmt: skip


@pytest.mark.parametrize("name,scenario", fusion_error_cases())
def test_fusion_errors_match_torch(name, scenario):
    theirs, ours = both(lambda nn, utils: outcome(scenario, nn, utils))
    assert theirs[0] == "raise"
    assert ours == theirs


def test_fuse_torch_modules_gives_our_parameters_on_torch_module():
    # The DIFF marked in fusion.py: torch modules in → torch module out, holding annotated_nn.Parameter.
    torch.manual_seed(4)
    conv = tnn.Conv2d(3, 4, 3).eval()
    bn = randomize_bn(tnn.BatchNorm2d(4)).eval()
    theirs = tu.fuse_conv_bn_eval(conv, bn)
    ours = fusion.fuse_conv_bn_eval(conv, bn)
    assert type(ours) is tnn.Conv2d
    assert type(ours.weight) is ann.Parameter
    assert [n for n, _ in ours.named_parameters()] == ["weight", "bias"]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    x = torch.randn(1, 3, 5, 5)
    assert bits_equal(ours(x), theirs(x))


# --------------------------------------------------------------------------------------------
# memory_format
# --------------------------------------------------------------------------------------------


def nested_conv_model(nn):
    """A model with 2-D and 3-D convs at several depths, in containers and a custom module."""

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.convs = nn.ModuleList([nn.Conv2d(4, 4, 3), nn.ConvTranspose2d(4, 2, 2)])
            self.heads = nn.ModuleDict(
                {"c3": nn.Conv3d(2, 3, 1), "t3": nn.ConvTranspose3d(3, 2, 2)}
            )
            self.bn = nn.BatchNorm2d(2)
            self.register_buffer("table", torch.randn(2, 3, 4, 5))

    torch.manual_seed(5)
    shared = nn.Conv2d(2, 2, 1)
    return nn.Sequential(
        nn.Conv2d(3, 4, 3),
        nn.Sequential(Block(), shared, nn.Sequential(shared)),
        nn.Linear(4, 4),
        nn.Conv1d(4, 4, 1),
    )


def layout(model):
    """Per named tensor: its strides and whether it is channels_last(_3d)-contiguous."""
    out = []
    for name, t in [*model.named_parameters(), *model.named_buffers()]:
        out.append((name, t.stride(), t.is_contiguous()))
        if t.dim() == 4:
            out.append((name, "cl", t.is_contiguous(memory_format=torch.channels_last)))
        if t.dim() == 5:
            out.append((name, "cl3d", t.is_contiguous(memory_format=torch.channels_last_3d)))
    return out


@pytest.mark.parametrize(
    "steps",
    [
        [("2d", torch.channels_last)],
        [("3d", torch.channels_last_3d)],
        [
            ("2d", torch.channels_last),
            ("3d", torch.channels_last_3d),
            ("2d", torch.contiguous_format),
        ],
    ],
    ids=["2d", "3d", "2d-3d-back"],
)
def test_memory_format_conversion_matches_torch(steps):
    def scenario(nn, utils):
        model = nested_conv_model(nn)
        params_before = list(model.parameters())
        values_before = [p.detach().clone() for p in params_before]
        for dims, fmt in steps:
            convert = getattr(utils, f"convert_conv{dims}_weight_memory_format")
            assert convert(model, fmt) is model
        same_objects = all(a is b for a, b in zip(params_before, model.parameters()))
        same_values = all(map(torch.equal, values_before, model.parameters()))
        return layout(model), same_objects, same_values

    theirs, ours = both(scenario)
    assert ours == theirs
    assert ours[1] and ours[2]


def test_memory_format_on_torch_model_and_lazy_conv():
    # A torch.nn model passed to our function is converted as torch's function converts it.
    theirs = tu.convert_conv2d_weight_memory_format(nested_conv_model(tnn), torch.channels_last)
    ours = memory_format.convert_conv2d_weight_memory_format(
        nested_conv_model(tnn), torch.channels_last
    )
    assert layout(ours) == layout(theirs)

    # A materialized lazy conv is a Conv2d subclass and is converted.
    def lazy(nn, utils):
        conv = nn.LazyConv2d(4, 3)
        conv(torch.randn(1, 3, 5, 5))
        return layout(utils.convert_conv2d_weight_memory_format(conv, torch.channels_last))

    theirs, ours = both(lazy)
    assert ours == theirs


def memory_format_error_cases():
    """(name, scenario(nn, utils)) pairs that raise."""

    def uninitialized_lazy(nn, utils):
        return utils.convert_conv2d_weight_memory_format(nn.LazyConv2d(4, 3), torch.channels_last)

    def rank_mismatch(nn, utils):
        conv = nn.Conv2d(2, 2, 1)
        return utils.convert_conv2d_weight_memory_format(conv, torch.channels_last_3d)

    def preserve(nn, utils):
        return utils.convert_conv3d_weight_memory_format(nn.Conv3d(2, 2, 1), torch.preserve_format)

    return [(f.__name__, f) for f in (uninitialized_lazy, rank_mismatch, preserve)]


@pytest.mark.parametrize("name,scenario", memory_format_error_cases())
def test_memory_format_errors_match_torch(name, scenario):
    theirs, ours = both(lambda nn, utils: outcome(scenario, nn, utils))
    assert theirs[0] == "raise"
    assert ours == theirs


# --------------------------------------------------------------------------------------------
# clip_grad
# --------------------------------------------------------------------------------------------


def grad_model(nn, *, scale=1.0, poison=None):
    """A model with grads of mixed dtypes, one frozen and one unused parameter (grad None)."""

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(5, 4)
            self.b = nn.Linear(4, 3)
            self.frozen = nn.Linear(3, 3)
            self.frozen.requires_grad_(False)
            self.unused = nn.Parameter(torch.randn(2))
            self.wide = nn.Parameter(torch.randn(3, dtype=torch.float64))
            self.bag = nn.ParameterList(
                [nn.Parameter(torch.randn(2, 2)), nn.Parameter(torch.randn(1))]
            )

        def forward(self, x):
            y = self.frozen(self.b(torch.relu(self.a(x))))
            extra = (self.wide**2).sum().float() + self.bag[0].sum() * self.bag[1].sum()
            return y.sum() + extra

    torch.manual_seed(6)
    net = Net()
    (net(torch.randn(7, 5)) * scale).backward()
    if poison is not None:
        with torch.no_grad():
            net.a.weight.grad[0, 0] = poison
    return net


def grads_of(model):
    """The .grad of every parameter (None kept), in registration order."""
    return [None if p.grad is None else p.grad.detach().clone() for p in model.parameters()]


NORM_TYPES = [2.0, 1, math.inf, -math.inf, 0.5, 0.0, 3.0, "inf"]


@pytest.mark.parametrize("norm_type", NORM_TYPES)
@pytest.mark.parametrize("foreach", [None, True, False])
@pytest.mark.parametrize("error_if_nonfinite", [False, True])
@pytest.mark.parametrize("max_norm", [0.05, 1e6])
def test_clip_grad_norm_matches_torch(norm_type, foreach, error_if_nonfinite, max_norm):
    def scenario(nn, utils):
        model = grad_model(nn)
        total = utils.clip_grad_norm_(
            model.parameters(), max_norm, norm_type, error_if_nonfinite, foreach
        )
        return total, grads_of(model)

    (t_total, t_grads), (o_total, o_grads) = both(scenario)
    assert bits_equal(t_total, o_total)
    assert_bits(t_grads, o_grads)
    assert any(g is None for g in o_grads)


@pytest.mark.parametrize("poison", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("error_if_nonfinite", [False, True])
@pytest.mark.parametrize("foreach", [None, False])
def test_clip_grad_norm_non_finite_matches_torch(poison, error_if_nonfinite, foreach):
    def scenario(nn, utils):
        model = grad_model(nn, poison=poison)
        result = outcome(
            utils.clip_grad_norm_,
            model.parameters(),
            1.0,
            error_if_nonfinite=error_if_nonfinite,
            foreach=foreach,
        )
        return result, grads_of(model)

    (t_result, t_grads), (o_result, o_grads) = both(scenario)
    assert t_result[0] == o_result[0]
    if t_result[0] == "raise":
        assert o_result == t_result
        assert "is non-finite, so it cannot be clipped" in o_result[2]
    else:
        assert bits_equal(t_result[1], o_result[1])
    assert_bits(t_grads, o_grads)


@pytest.mark.parametrize("foreach", [None, True, False])
def test_get_total_norm_and_clip_grads_with_norm_match_torch(foreach):
    def scenario(nn, utils):
        model = grad_model(nn)
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        on_grads = utils.get_total_norm(grads, 2.0, False, foreach)
        # Parameters are Parameter subclasses: with foreach=None they take the per-tensor path.
        on_params = utils.get_total_norm(model.parameters(), 1.0, foreach=foreach)
        single = utils.get_total_norm(grads[0], math.inf)
        utils.clip_grads_with_norm_(model.parameters(), 0.1, on_grads, foreach)
        return [on_grads, on_params, single, *grads_of(model)]

    theirs, ours = both(scenario)
    assert_bits(theirs, ours)


@pytest.mark.parametrize("foreach", [None, True, False])
@pytest.mark.parametrize("clip_value", [0.01, 0.2, 10])
def test_clip_grad_value_matches_torch(foreach, clip_value):
    def scenario(nn, utils):
        model = grad_model(nn, poison=math.nan)
        assert utils.clip_grad_value_(model.parameters(), clip_value, foreach) is None
        return grads_of(model)

    theirs, ours = both(scenario)
    assert_bits(theirs, ours)


def test_clip_single_tensor_and_empty_inputs():
    def scenario(nn, utils):
        torch.manual_seed(7)
        p = torch.randn(4, requires_grad=True)
        p.grad = torch.randn(4) * 10
        single = utils.clip_grad_norm_(p, 1.0)
        q = torch.randn(3, requires_grad=True)
        q.grad = torch.randn(3)
        utils.clip_grad_value_(q, 0.1)
        no_grads = nn.Linear(2, 2)  # no backward: every .grad is None
        empty_list = utils.clip_grad_norm_([], 1.0)
        all_none = utils.clip_grad_norm_(no_grads.parameters(), 1.0)
        empty_total = utils.get_total_norm([])
        utils.clip_grads_with_norm_([], 1.0, torch.tensor(3.0))
        return [single, p.grad, q.grad, empty_list, all_none, empty_total]

    theirs, ours = both(scenario)
    assert_bits(theirs, ours)


def test_clip_empty_generator_warns_like_torch():
    def scenario(nn, utils):
        def call():
            return utils.clip_grad_norm_((p for p in []), 1.0)  # the warning points here

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            total = call()
        return total, [(w.category, norm(w.message), w.filename, w.lineno) for w in caught]

    (t_total, t_warns), (o_total, o_warns) = both(scenario)
    assert bits_equal(t_total, o_total)
    assert [w[:2] for w in o_warns] == [w[:2] for w in t_warns]
    assert len(o_warns) == 1 and o_warns[0][2] == __file__
    assert o_warns[0][3] == t_warns[0][3]


def test_deprecated_clip_grad_norm_warns_like_torch():
    def scenario(nn, utils):
        model = grad_model(nn)
        total, caught = record_warnings(lambda: utils.clip_grad_norm(model.parameters(), 0.1))
        return total, caught, grads_of(model)

    (t_total, t_warns, t_grads), (o_total, o_warns, o_grads) = both(scenario)
    assert o_warns == t_warns
    assert o_warns[0][0] == "FutureWarning"
    assert bits_equal(t_total, o_total)
    assert_bits(t_grads, o_grads)


def clip_error_cases():
    """(name, scenario(nn, utils)) pairs that raise."""

    def meta_params():
        p = torch.zeros(3, device="meta", requires_grad=True)
        p.grad = torch.zeros(3, device="meta")
        return [p]

    def norm_foreach_on_meta(nn, utils):
        return utils.clip_grad_norm_(meta_params(), 1.0, foreach=True)

    def value_foreach_on_meta(nn, utils):
        return utils.clip_grad_value_(meta_params(), 1.0, foreach=True)

    def scale_foreach_on_meta(nn, utils):
        return utils.clip_grads_with_norm_(meta_params(), 1.0, torch.tensor(2.0), foreach=True)

    def bad_norm_type_on_empty(nn, utils):
        return utils.get_total_norm([], "fro")

    def bad_max_norm_on_empty(nn, utils):
        return utils.clip_grads_with_norm_([], "big", torch.tensor(1.0))

    def bad_clip_value(nn, utils):
        return utils.clip_grad_value_([], None)

    def value_on_empty(nn, utils):
        return utils.clip_grad_value_([], 1.0)

    def value_on_no_grads(nn, utils):
        return utils.clip_grad_value_(nn.Linear(2, 2).parameters(), 1.0)

    def not_tensors(nn, utils):
        return utils.clip_grad_norm_([1.0, 2.0], 1.0)

    return [(f.__name__, f) for f in (norm_foreach_on_meta, value_foreach_on_meta,
            scale_foreach_on_meta, bad_norm_type_on_empty, bad_max_norm_on_empty,
            bad_clip_value, value_on_empty, value_on_no_grads, not_tensors)]  # fmt: skip


@pytest.mark.parametrize("name,scenario", clip_error_cases())
def test_clip_errors_match_torch(name, scenario):
    theirs, ours = both(lambda nn, utils: outcome(scenario, nn, utils))
    assert theirs[0] == "raise"
    assert ours == theirs


def test_clip_meta_grads_without_foreach_match_torch():
    def scenario(nn, utils):
        p = torch.zeros(3, device="meta", requires_grad=True)
        p.grad = torch.zeros(3, device="meta")
        total = utils.clip_grad_norm_([p], 1.0)
        utils.clip_grad_value_([p], 1.0)
        return total, p.grad

    theirs, ours = both(scenario)
    assert_bits(list(theirs), list(ours))


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph")
def test_clipping_is_not_recorded_by_autograd():
    def scenario(nn, utils):
        torch.manual_seed(8)
        p = torch.randn(3, requires_grad=True)
        (p**3).sum().backward(create_graph=True)
        grad_fn_before = type(p.grad.grad_fn).__name__
        utils.clip_grad_norm_([p], 0.1)
        utils.clip_grad_value_([p], 0.01)
        return grad_fn_before, type(p.grad.grad_fn).__name__, p.grad.requires_grad, p.grad.detach()

    theirs, ours = both(scenario)
    assert ours[:3] == theirs[:3]
    assert bits_equal(theirs[3], ours[3])


def test_clip_function_metadata_matches_torch():
    pairs = [
        (tu.clip_grad_norm_, OURS.clip_grad_norm_),
        (tu.clip_grad_norm, OURS.clip_grad_norm),
        (tu.clip_grad_value_, OURS.clip_grad_value_),
        (tu.clip_grads_with_norm_, OURS.clip_grads_with_norm_),
        (tu.get_total_norm, OURS.get_total_norm),
    ]
    for theirs, ours in pairs:
        assert ours.__name__ == theirs.__name__
        assert hasattr(ours, "__wrapped__") == hasattr(theirs, "__wrapped__")
        their_params = inspect.signature(theirs).parameters.values()
        our_params = inspect.signature(ours).parameters.values()
        assert [(p.name, p.kind, p.default) for p in our_params] == [
            (p.name, p.kind, p.default) for p in their_params
        ]
    assert clip_grad.__all__ == torch.nn.utils.clip_grad.__all__
    assert fusion.__all__ == torch.nn.utils.fusion.__all__
    assert memory_format.__all__ == torch.nn.utils.memory_format.__all__


# --------------------------------------------------------------------------------------------
# convert_parameters
# --------------------------------------------------------------------------------------------


def test_parameters_to_vector_round_trip_matches_torch():
    def scenario(nn, utils):
        torch.manual_seed(9)
        model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2, bias=False))
        params = list(model.parameters())
        vec = utils.parameters_to_vector(model.parameters())
        (vec * torch.arange(vec.numel())).sum().backward()
        grads = [p.grad.clone() for p in params]
        new = torch.arange(vec.numel() + 3, dtype=torch.float32)  # 3 extra elements are ignored
        utils.vector_to_parameters(new, model.parameters())
        with torch.no_grad():
            new.mul_(2)  # parameters now share storage with `new`
        same_objects = all(a is b for a, b in zip(params, model.parameters()))
        kept_grads = all(p.grad is not None for p in model.parameters())
        return [vec.detach(), *grads, *[p.detach() for p in model.parameters()]], (
            vec.requires_grad,
            same_objects,
            kept_grads,
        )

    (t_vals, t_flags), (o_vals, o_flags) = both(scenario)
    assert_bits(t_vals, o_vals)
    assert o_flags == t_flags == (True, True, True)


def convert_error_cases():
    """(name, scenario(nn, utils)) pairs that raise."""

    def wrong_vector_type(nn, utils):
        return utils.vector_to_parameters([1.0, 2.0], nn.Linear(1, 1).parameters())

    def vector_too_short(nn, utils):
        return utils.vector_to_parameters(torch.zeros(2), nn.Linear(2, 2).parameters())

    def empty(nn, utils):
        return utils.parameters_to_vector([])

    def cpu_then_meta(nn, utils):
        return utils.parameters_to_vector(
            [nn.Parameter(torch.ones(2)), torch.ones(2, device="meta")]
        )

    def meta_then_cpu(nn, utils):
        return utils.parameters_to_vector(
            [torch.ones(2, device="meta"), nn.Parameter(torch.ones(2))]
        )

    def meta_param_from_cpu_vector(nn, utils):
        lin = nn.Linear(2, 1, device="meta")
        return utils.vector_to_parameters(torch.zeros(3), lin.parameters())

    def non_contiguous(nn, utils):
        return utils.parameters_to_vector([nn.Parameter(torch.ones(3, 2)).t()])

    def not_a_tensor(nn, utils):
        return utils.parameters_to_vector([1.0])

    return [(f.__name__, f) for f in (wrong_vector_type, vector_too_short, empty, cpu_then_meta,
            meta_then_cpu, meta_param_from_cpu_vector, non_contiguous, not_a_tensor)]  # fmt: skip


@pytest.mark.parametrize("name,scenario", convert_error_cases())
def test_convert_parameters_errors_match_torch(name, scenario):
    theirs, ours = both(lambda nn, utils: outcome(scenario, nn, utils))
    assert ours == theirs


@pytest.mark.parametrize("old_device", [None, -1, 0, 1])
def test_check_param_device_matches_torch(old_device):
    # Without an accelerator, pretend one was recorded (0 or 1) to reach the error branch.
    theirs = outcome(tu.convert_parameters._check_param_device, torch.ones(1), old_device)
    ours = outcome(convert_parameters._check_param_device, torch.ones(1), old_device)
    assert ours == theirs
