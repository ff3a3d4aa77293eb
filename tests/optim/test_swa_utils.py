"""annotated_optim.swa_utils against torch.optim.swa_utils: averaging, update_bn, SWALR.

torch's objects get a torch.nn model; ours get the same model (a deep copy of it) and an
annotated_nn twin loaded with the same state_dict. What a user observes must be equal: averaged
tensors bit for bit, state_dicts, reprs, forward outputs, running statistics, learning-rate
sequences, errors and warnings.
"""

import copy

import pytest
import torch
import torch.nn as tnn
import torch.optim as toptim
import torch.optim.swa_utils as tswa

import annotated_nn as ann
import annotated_nn.modules.module as ann_module
import annotated_optim as aoptim
import annotated_optim.swa_utils as aswa
from helpers import norm, outcome, record_warnings

# --- models ---------------------------------------------------------------------------------


def build(nn):
    """Linear → BatchNorm → ReLU → Linear, plus a complex parameter and a float64 buffer.

    The extra tensors give `update_parameters` several (device, dtype) groups and an integer
    buffer (`num_batches_tracked`).
    """
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))
    model.register_parameter("c", nn.Parameter(torch.randn(2, dtype=torch.cfloat)))
    model.register_buffer("d", torch.randn(3, dtype=torch.float64))
    return model


def twin_models():
    """A torch.nn model and an annotated_nn model with the same state."""
    torch.manual_seed(0)
    theirs = build(tnn)
    ours = build(ann)
    ours.load_state_dict(theirs.state_dict())
    return theirs, ours


def train_a_little(model, step):
    """Change weights and BatchNorm buffers deterministically (the same for both twins)."""
    g = torch.Generator().manual_seed(100 + step)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn(p.shape, dtype=p.dtype, generator=g))
        model.d.mul_(1.5)
    model.train()
    model(torch.randn(6, 3, generator=g))


def same_tensor(a, b):
    return a.dtype == b.dtype and a.device == b.device and torch.equal(a, b)


def assert_same_state(theirs, ours):
    """state_dicts equal: keys in order, dtypes, values bit for bit."""
    t_sd, o_sd = theirs.state_dict(), ours.state_dict()
    assert list(o_sd) == list(t_sd)
    for key in t_sd:
        assert same_tensor(o_sd[key], t_sd[key]), key


# (torch's kwargs, our kwargs) for every averaging option
AVERAGING = {
    "swa": (lambda: {}, lambda: {}),
    "ema_avg_fn": (
        lambda: {"avg_fn": tswa.get_ema_avg_fn(0.9)},
        lambda: {"avg_fn": aswa.get_ema_avg_fn(0.9)},
    ),
    "ema_multi": (
        lambda: {"multi_avg_fn": tswa.get_ema_multi_avg_fn(0.9)},
        lambda: {"multi_avg_fn": aswa.get_ema_multi_avg_fn(0.9)},
    ),
    "swa_avg_fn": (
        lambda: {"avg_fn": tswa.get_swa_avg_fn()},
        lambda: {"avg_fn": aswa.get_swa_avg_fn()},
    ),
    "swa_multi": (
        lambda: {"multi_avg_fn": tswa.get_swa_multi_avg_fn()},
        lambda: {"multi_avg_fn": aswa.get_swa_multi_avg_fn()},
    ),
    "custom_avg_fn": (
        lambda: {"avg_fn": lambda a, c, n: 0.25 * a + 0.75 * c + n},
        lambda: {"avg_fn": lambda a, c, n: 0.25 * a + 0.75 * c + n},
    ),
    "custom_multi": (
        lambda: {"multi_avg_fn": lambda a, c, n: torch._foreach_lerp_(a, c, 0.3)},
        lambda: {"multi_avg_fn": lambda a, c, n: torch._foreach_lerp_(a, c, 0.3)},
    ),
}


def run_averaging(make, model, kwargs, use_buffers, steps=4):
    """Build an averaged model and update it `steps` times while `model` trains.

    Returns the averaged model and a list of outcomes (one per update: ok or the error).
    """
    swa = make(model, use_buffers=use_buffers, **kwargs)
    results = []
    for step in range(steps):
        train_a_little(model, step)
        results.append(outcome(swa.update_parameters, model))
    return swa, results


@pytest.mark.parametrize("use_buffers", [False, True])
@pytest.mark.parametrize("averaging", list(AVERAGING))
@pytest.mark.parametrize("our_model_kind", ["annotated_nn", "torch.nn"])
def test_update_parameters_matches_torch(averaging, use_buffers, our_model_kind):
    torch_kwargs, our_kwargs = AVERAGING[averaging]
    torch_model, ann_model = twin_models()
    our_model = ann_model if our_model_kind == "annotated_nn" else copy.deepcopy(torch_model)

    t_swa, t_results = run_averaging(tswa.AveragedModel, torch_model, torch_kwargs(), use_buffers)
    o_swa, o_results = run_averaging(aswa.AveragedModel, our_model, our_kwargs(), use_buffers)

    # errors (the integer addcdiv of swa_multi with use_buffers) are the same, at the same call
    assert o_results == t_results
    assert isinstance(o_swa, ann.Module)
    assert same_tensor(o_swa.n_averaged, t_swa.n_averaged)
    assert_same_state(t_swa, o_swa)
    named = [(n, tuple(p.shape)) for n, p in o_swa.named_parameters()]
    assert named == [(n, tuple(p.shape)) for n, p in t_swa.named_parameters()]
    # forward outputs of the averaged copies, in evaluation mode (no buffer changes)
    x = torch.randn(5, 3, generator=torch.Generator().manual_seed(7))
    assert torch.equal(o_swa.eval()(x), t_swa.eval()(x))


@pytest.mark.parametrize("use_buffers", [False, True])
def test_default_swa_on_a_foreach_device(monkeypatch, use_buffers):
    """Default SWA where the device has foreach kernels (simulated: the CPU counts as one).

    This is the path CUDA takes: `get_swa_multi_avg_fn` per group; with `use_buffers=True` the
    integer `num_batches_tracked` group raises, in torch and in ours.
    """
    for module in (tswa, aswa):
        monkeypatch.setattr(module, "_get_foreach_kernels_supported_devices", lambda: ["cpu"])
    torch_model, ann_model = twin_models()
    t_swa, t_results = run_averaging(tswa.AveragedModel, torch_model, {}, use_buffers)
    o_swa, o_results = run_averaging(aswa.AveragedModel, ann_model, {}, use_buffers)
    assert o_results == t_results
    assert (o_results[-1][0] == "raise") is use_buffers
    assert_same_state(t_swa, o_swa)
    # the foreach path (lerp) rounds differently from the per-tensor formula of the CPU path
    monkeypatch.undo()
    _, cpu_model = twin_models()
    cpu_swa, _ = run_averaging(aswa.AveragedModel, cpu_model, {}, use_buffers=False)
    if not use_buffers:
        pairs = zip(cpu_swa.parameters(), o_swa.parameters(), strict=True)
        assert not all(torch.equal(a, b) for a, b in pairs)


def test_averaging_path_runs_for_sure():
    """The scenario above really averages (values differ from a plain copy) and keeps buffers."""
    torch_model, ann_model = twin_models()
    swa, results = run_averaging(aswa.AveragedModel, ann_model, {}, use_buffers=False)
    assert all(r[0] == "ok" for r in results)
    assert not torch.equal(swa.module[0].weight, ann_model[0].weight)
    assert torch.equal(swa.module[1].running_mean, ann_model[1].running_mean)
    assert swa.n_averaged.item() == 4


def test_swa_is_the_mean():
    """Default SWA on the CPU is the running mean of the models seen."""
    model = ann.Linear(2, 2)
    swa = aswa.AveragedModel(model)
    seen = []
    for step in range(5):
        with torch.no_grad():
            model.weight.fill_(float(step * step))
        seen.append(model.weight.detach().clone())
        swa.update_parameters(model)
    torch.testing.assert_close(swa.module.weight, torch.stack(seen).mean(0))


@pytest.mark.parametrize("our_model_kind", ["annotated_nn", "torch.nn"])
def test_repr_keys_and_structure(our_model_kind):
    torch_model, ann_model = twin_models()
    our_model = ann_model if our_model_kind == "annotated_nn" else torch_model
    t_swa = tswa.AveragedModel(torch_model)
    o_swa = aswa.AveragedModel(our_model)
    assert norm(repr(o_swa)) == repr(t_swa)
    assert list(o_swa.state_dict()) == list(t_swa.state_dict())
    assert list(o_swa.state_dict())[:3] == ["n_averaged", "module.c", "module.d"]
    assert [n for n, _ in o_swa.named_modules()] == [n for n, _ in t_swa.named_modules()]
    assert [n for n, _ in o_swa.named_buffers()] == [n for n, _ in t_swa.named_buffers()]
    assert o_swa.module is not our_model  # a deep copy
    assert same_tensor(o_swa.n_averaged, t_swa.n_averaged)
    # the options are plain attributes, not saved
    assert (o_swa.avg_fn, o_swa.multi_avg_fn, o_swa.use_buffers) == (None, None, False)


@pytest.mark.parametrize("our_model_kind", ["annotated_nn", "torch.nn"])
def test_state_dict_round_trip(our_model_kind):
    """torch's averaged state loads into ours; both continue identically."""
    torch_model, ann_model = twin_models()
    t_swa, _ = run_averaging(tswa.AveragedModel, torch_model, {}, use_buffers=True, steps=3)
    our_model = ann_model if our_model_kind == "annotated_nn" else copy.deepcopy(torch_model)
    o_swa = aswa.AveragedModel(our_model, use_buffers=True)
    assert str(o_swa.load_state_dict(t_swa.state_dict())) == "<All keys matched successfully>"
    assert o_swa.n_averaged.item() == 3
    if our_model_kind == "annotated_nn":
        our_model.load_state_dict(torch_model.state_dict())
    for step in range(3, 6):
        train_a_little(torch_model, step)
        train_a_little(our_model, step)
        t_swa.update_parameters(torch_model)
        o_swa.update_parameters(our_model)
    assert_same_state(t_swa, o_swa)
    # and ours loads into torch's
    fresh = tswa.AveragedModel(build(tnn), use_buffers=True)
    fresh.load_state_dict(o_swa.state_dict())
    assert_same_state(fresh, o_swa)


def test_cross_library_updates():
    """An averaged annotated_nn copy is updated from a torch.nn model, and the other way round."""
    torch_model, ann_model = twin_models()
    reference = tswa.AveragedModel(torch_model)
    ours_from_torch = aswa.AveragedModel(ann_model)
    torch_copy_from_ours = aswa.AveragedModel(torch_model)
    for step in range(3):
        train_a_little(torch_model, step)
        train_a_little(ann_model, step)
        reference.update_parameters(torch_model)
        ours_from_torch.update_parameters(torch_model)
        torch_copy_from_ours.update_parameters(ann_model)
    assert_same_state(reference, ours_from_torch)
    assert_same_state(reference, torch_copy_from_ours)


@pytest.mark.parametrize("device", ["cpu", torch.device("cpu"), None])
def test_device_argument(device):
    torch_model, ann_model = twin_models()
    t_swa = tswa.AveragedModel(torch_model, device=device)
    for model in (ann_model, torch_model):
        o_swa = aswa.AveragedModel(model, device=device)
        assert o_swa.n_averaged.device == t_swa.n_averaged.device
        assert_same_state(t_swa, o_swa)


def test_to_moves_the_copy():
    for model in (ann.Sequential(ann.Linear(2, 2)), tnn.Sequential(tnn.Linear(2, 2))):
        swa = aswa.AveragedModel(model).to(torch.float64)
        assert swa.module[0].weight.dtype == torch.float64
        assert swa.n_averaged.dtype == torch.long


def test_registration_hooks_run_as_in_torch():
    """torch's AveragedModel assigns `self.module` twice when `device` is given."""
    calls = []
    # 中: 全局钩子只有一套（torch 的），所以一个钩子就能看到两边的构造。
    # EN: There is one set of global hooks (torch's), so one hook sees both constructions.
    handle = ann_module.register_module_module_registration_hook(
        lambda m, name, child: calls.append((type(m).__name__, name))
    )
    torch_model, ann_model = twin_models()
    try:
        calls.clear()
        tswa.AveragedModel(torch_model, device="cpu")
        torch_calls = list(calls)
        calls.clear()
        aswa.AveragedModel(ann_model, device="cpu")
        our_calls = list(calls)
    finally:
        handle.remove()
    assert our_calls == torch_calls == [("AveragedModel", "module")] * 2


def test_errors_match_torch():
    def both_fn(make):
        return outcome(make, tswa), outcome(make, aswa)

    cases = [
        lambda swa: swa.AveragedModel(
            build(tnn), avg_fn=swa.get_swa_avg_fn(), multi_avg_fn=swa.get_swa_multi_avg_fn()
        ),
        lambda swa: swa.get_ema_avg_fn(1.5),
        lambda swa: swa.get_ema_multi_avg_fn(-0.1),
    ]
    for make in cases:
        theirs, ours = both_fn(make)
        assert ours[0] == theirs[0] == "raise"
        assert ours == theirs
    # a source model with an extra buffer: the strict zip of the buffer copy fails
    other = build(tnn)
    other.register_buffer("extra", torch.zeros(1))

    def update(swa, model):
        averaged = swa.AveragedModel(model)
        return outcome(averaged.update_parameters, other)

    torch_model, ann_model = twin_models()
    assert update(aswa, ann_model) == update(tswa, torch_model)
    assert update(aswa, ann_model)[0] == "raise"


@pytest.mark.parametrize("dtype", [torch.float32, torch.cfloat, torch.float64, torch.long])
@pytest.mark.parametrize("n", [2, torch.tensor(2)])
def test_factories_match_torch(dtype, n):
    g = torch.Generator().manual_seed(3)

    def tensors():
        if dtype == torch.long:
            return [torch.randint(-50, 50, (4,), generator=g) for _ in range(3)]
        return [torch.randn(4, dtype=dtype, generator=g) for _ in range(3)]

    averaged, current = tensors(), tensors()
    for t_factory, o_factory in [
        (tswa.get_ema_multi_avg_fn, aswa.get_ema_multi_avg_fn),
        (tswa.get_swa_multi_avg_fn, aswa.get_swa_multi_avg_fn),
    ]:
        t_avg = [a.clone() for a in averaged]
        o_avg = [a.clone() for a in averaged]
        t_out = outcome(t_factory(), t_avg, current, n)
        o_out = outcome(o_factory(), o_avg, current, n)
        assert o_out == t_out
        assert all(same_tensor(a, b) for a, b in zip(o_avg, t_avg, strict=True))
    for t_factory, o_factory in [
        (tswa.get_ema_avg_fn, aswa.get_ema_avg_fn),
        (tswa.get_swa_avg_fn, aswa.get_swa_avg_fn),
    ]:
        t_new = t_factory()(averaged[0], current[0], n)
        o_new = o_factory()(averaged[0], current[0], n)
        assert same_tensor(o_new, t_new)


def test_factory_names_and_signatures():
    import inspect

    for name in tswa.__all__:
        assert name in aswa.__all__
    assert aswa.__all__ == tswa.__all__
    for name in [
        "get_ema_multi_avg_fn",
        "get_swa_multi_avg_fn",
        "get_ema_avg_fn",
        "get_swa_avg_fn",
    ]:
        t_fn, o_fn = getattr(tswa, name)(), getattr(aswa, name)()
        assert o_fn.__name__ == t_fn.__name__
        assert list(inspect.signature(o_fn).parameters) == list(inspect.signature(t_fn).parameters)
    for name in ["AveragedModel", "update_bn", "SWALR"]:
        t_sig = inspect.signature(getattr(tswa, name))
        o_sig = inspect.signature(getattr(aswa, name))
        assert [(p.name, p.default, p.kind) for p in o_sig.parameters.values()] == [
            (p.name, p.default, p.kind) for p in t_sig.parameters.values()
        ]


# --- update_bn ------------------------------------------------------------------------------


def loaders():
    g = torch.Generator().manual_seed(11)
    x, y = torch.randn(20, 3, generator=g) * 3 + 1, torch.randn(20, 2, generator=g)
    return {
        "tensors": lambda: torch.utils.data.DataLoader(x, batch_size=6),
        "pairs": lambda: torch.utils.data.DataLoader(
            torch.utils.data.TensorDataset(x, y), batch_size=6
        ),
        "list_of_tuples": lambda: [(x[i : i + 5], y[i : i + 5]) for i in range(0, 20, 5)],
    }


@pytest.mark.parametrize("loader", list(loaders()))
@pytest.mark.parametrize("target", ["annotated_nn", "torch.nn", "averaged_ann", "averaged_torch"])
@pytest.mark.parametrize("was_training", [True, False])
def test_update_bn_matches_torch(loader, target, was_training):
    torch_model, ann_model = twin_models()
    for step in range(2):
        train_a_little(torch_model, step)
        train_a_little(ann_model, step)
    reference = torch_model
    ours = {
        "annotated_nn": ann_model,
        "torch.nn": copy.deepcopy(torch_model),
        "averaged_ann": aswa.AveragedModel(ann_model),
        "averaged_torch": aswa.AveragedModel(torch_model),
    }[target]
    if target.startswith("averaged"):
        reference = tswa.AveragedModel(torch_model)
    reference.train(was_training)
    ours.train(was_training)
    make_loader = loaders()[loader]
    tswa.update_bn(make_loader(), reference, device="cpu")
    aswa.update_bn(make_loader(), ours, device="cpu")
    assert_same_state(reference, ours)
    assert ours.training == reference.training == was_training
    bn = [m for m in ours.modules() if "BatchNorm" in type(m).__name__]
    assert [m.momentum for m in bn] == [0.1]
    assert bn[0].num_batches_tracked.item() == 4


def test_update_bn_without_batchnorm_leaves_mode():
    for swa, nn in [(tswa, tnn), (aswa, ann)]:
        model = nn.Sequential(nn.Linear(3, 2)).eval()
        swa.update_bn([torch.ones(2, 3)], model)
        assert model.training is False


def test_update_bn_momentum_none_and_lazy():
    """Layers with momentum=None keep it; lazy BatchNorm (a _BatchNorm subclass) is found."""
    for swa, nn in [(tswa, tnn), (aswa, ann)]:
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4, momentum=None))
        model(torch.randn(5, 3))
        swa.update_bn([torch.ones(2, 3) * 2, torch.ones(2, 3) * 4], model)
        assert model[1].momentum is None
    lazy = ann.Sequential(ann.LazyBatchNorm1d())
    lazy(torch.randn(4, 3))
    aswa.update_bn([torch.ones(2, 3)], lazy)
    assert lazy[0].num_batches_tracked.item() == 1


# --- SWALR ----------------------------------------------------------------------------------


def make_optimizer(optim, lrs=(0.1, 0.03), tensor_lr=False):
    g = torch.Generator().manual_seed(5)
    groups = [{"params": [torch.randn(2, generator=g, requires_grad=True)], "lr": lr} for lr in lrs]
    if tensor_lr:
        for group in groups:
            group["lr"] = torch.tensor(group["lr"])
    return optim.SGD(groups, lr=0.5)


def describe(values):
    """Exact, comparable description of a list of learning rates (floats or tensors)."""
    return [
        ("tensor", v.dtype, v.item().hex()) if isinstance(v, torch.Tensor) else repr(v)
        for v in values
    ]


def lr_run(swa, optim, steps=100, poke_at=None, **kwargs):
    opt = make_optimizer(optim, tensor_lr=kwargs.pop("tensor_lr", False))
    sched = swa.SWALR(opt, **kwargs)
    seq = [describe(sched.get_last_lr())]
    for step in range(steps):
        opt.step()
        if step == poke_at:  # somebody else changes the learning rate: SWALR is chainable
            opt.param_groups[0]["lr"] = 0.2
        sched.step()
        seq.append(describe(sched.get_last_lr()))
        seq.append(describe([g["lr"] for g in opt.param_groups]))
    return seq, sched, opt


SWALR_CASES = [
    {"swa_lr": 0.05},
    {"swa_lr": 0.05, "anneal_strategy": "linear"},
    {"swa_lr": [0.05, 0.01], "anneal_epochs": 37},
    {"swa_lr": (0.05, 0.2), "anneal_epochs": 37, "anneal_strategy": "linear"},
    {"swa_lr": 0.05, "anneal_epochs": 0},
    {"swa_lr": 0.05, "anneal_epochs": 1, "anneal_strategy": "linear"},
    {"swa_lr": 0.05, "anneal_epochs": 5, "poke_at": 2},
    {"swa_lr": 0.05, "anneal_epochs": 5, "poke_at": 20, "anneal_strategy": "linear"},
    {"swa_lr": 0.05, "anneal_epochs": 7, "tensor_lr": True},
]


@pytest.mark.parametrize("our_optim", ["torch", "ours"])
@pytest.mark.parametrize("case", SWALR_CASES, ids=str)
def test_swalr_sequence_matches_torch(case, our_optim):
    optim = toptim if our_optim == "torch" else aoptim
    (t_seq, t_sched, t_opt), t_warn = record_warnings(lambda: lr_run(tswa, toptim, **case))
    (o_seq, o_sched, o_opt), o_warn = record_warnings(lambda: lr_run(aswa, optim, **case))
    assert o_seq == t_seq
    assert o_warn == t_warn
    assert [g["swa_lr"] for g in o_opt.param_groups] == [g["swa_lr"] for g in t_opt.param_groups]
    assert repr(o_sched.state_dict()) == repr(t_sched.state_dict())
    assert o_sched.anneal_func.__name__ == t_sched.anneal_func.__name__


@pytest.mark.parametrize("our_optim", ["torch", "ours"])
@pytest.mark.parametrize("strategy", ["cos", "linear"])
def test_swalr_state_dict_round_trip(strategy, our_optim):
    optim = toptim if our_optim == "torch" else aoptim
    kwargs = {"swa_lr": [0.05, 0.01], "anneal_epochs": 20, "anneal_strategy": strategy}
    t_full, _, _ = lr_run(tswa, toptim, steps=60, **kwargs)

    # ours, interrupted at step 25: a new optimizer and scheduler (with the other strategy) load
    # the saved states, from torch's scheduler and from ours
    for source in (tswa, aswa):
        src_optim = toptim if source is tswa else optim
        opt = make_optimizer(src_optim)
        sched = source.SWALR(opt, **kwargs)
        for _ in range(25):
            opt.step()
            sched.step()
        saved_sched, saved_opt = copy.deepcopy(sched.state_dict()), opt.state_dict()
        assert "anneal_func" not in saved_sched and "optimizer" not in saved_sched
        other = "linear" if strategy == "cos" else "cos"
        new_opt = make_optimizer(optim)
        new_sched = aswa.SWALR(new_opt, swa_lr=0.3, anneal_strategy=other)
        new_opt.load_state_dict(saved_opt)
        new_sched.load_state_dict(saved_sched)
        assert new_sched._anneal_strategy == strategy
        assert (
            new_sched.anneal_func.__name__
            == f"_{'cosine' if strategy == 'cos' else 'linear'}_anneal"
        )
        rest = []
        for _ in range(35):
            new_opt.step()
            new_sched.step()
            rest.append(describe(new_sched.get_last_lr()))
            rest.append(describe([g["lr"] for g in new_opt.param_groups]))
        assert rest == t_full[-70:]


BAD_SWALR = [
    {"swa_lr": 0.05, "anneal_strategy": "exp"},
    {"swa_lr": 0.05, "anneal_epochs": -1},
    {"swa_lr": 0.05, "anneal_epochs": 2.0},
    {"swa_lr": 0.05, "anneal_epochs": True},
    {"swa_lr": [0.05]},
    {"swa_lr": [0.05, 0.1, 0.2]},
    {"swa_lr": 0.05, "last_epoch": 3},
]


@pytest.mark.parametrize("our_optim", ["torch", "ours"])
@pytest.mark.parametrize("case", BAD_SWALR, ids=str)
def test_swalr_errors_match_torch(case, our_optim):
    optim = toptim if our_optim == "torch" else aoptim

    def run(swa, optim):
        opt = make_optimizer(optim)
        result = outcome(lambda: swa.SWALR(opt, **case).get_last_lr())
        # swa_lr is written into the groups before the options are checked
        return result, [sorted(k for k in g if k != "params") for g in opt.param_groups]

    theirs, ours = run(tswa, toptim), run(aswa, optim)
    assert ours == theirs


def test_swalr_rejects_a_non_optimizer():
    assert outcome(aswa.SWALR, object(), 0.1) == outcome(tswa.SWALR, object(), 0.1)


@pytest.mark.parametrize("our_optim", ["torch", "ours"])
def test_swalr_get_lr_outside_step_warns(our_optim):
    optim = toptim if our_optim == "torch" else aoptim

    def run(swa, optim):
        opt = make_optimizer(optim)
        sched = swa.SWALR(opt, swa_lr=0.05, anneal_epochs=3)
        return record_warnings(sched.get_lr)

    theirs, ours = run(tswa, toptim), run(aswa, optim)
    assert ours == theirs
    assert ours[1][0][0] == "UserWarning"


def test_swa_end_to_end():
    """SGD + SWALR + AveragedModel + update_bn, torch's stack against ours, bit for bit."""

    def train(optim, swa, nn, model):
        g = torch.Generator().manual_seed(9)
        data = [(torch.randn(8, 3, generator=g), torch.randn(8, 2, generator=g)) for _ in range(4)]
        opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        averaged = swa.AveragedModel(model)
        sched = swa.SWALR(opt, swa_lr=0.02, anneal_epochs=3)
        for epoch in range(6):
            for x, y in data:
                opt.zero_grad()
                torch.nn.functional.mse_loss(model(x), y).backward()
                opt.step()
            if epoch >= 2:
                averaged.update_parameters(model)
                sched.step()
        swa.update_bn(data, averaged)
        return averaged

    torch_model, ann_model = twin_models()
    theirs = train(toptim, tswa, tnn, torch_model)
    ours = train(aoptim, aswa, ann, ann_model)
    assert_same_state(theirs, ours)
