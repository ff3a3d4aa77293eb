"""Differential tests of ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts and OneCycleLR.

Each scenario runs with torch's scheduler on a torch optimizer (the reference) and with our
scheduler on a torch optimizer and on one of ours; the learning rates, momentum/betas, what
`get_last_lr()` returns, the state_dict contents, warnings and errors must be identical (floats
compared through `repr`, i.e. bit for bit). Long runs include a state_dict round trip mid-way into
a fresh optimizer and a fresh scheduler.
"""

import inspect
import io
import pickle

import pytest
import torch
import torch.optim.lr_scheduler as torch_lr

import annotated_optim
import annotated_optim.lr_scheduler as our_lr
from helpers import outcome, record_warnings

STEPS = 200
SPLIT = 100

# ------------------------------------------------------------------------------------------------
# Optimizers: two param groups with their own learning rates


def _groups(seed=0):
    """Two param groups of a small model, the second with its own learning rate."""
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.Linear(3, 2))
    return [
        {"params": list(model[0].parameters())},
        {"params": list(model[1].parameters()), "lr": 0.05},
    ]


OPTIMIZERS = {
    "sgd": ("SGD", dict(lr=0.1, momentum=0.9)),
    "sgd_plain": ("SGD", dict(lr=0.1)),
    "adam": ("Adam", dict(lr=0.01, betas=(0.9, 0.99))),
    "adagrad": ("Adagrad", dict(lr=0.1)),
    "sgd_tensor_lr": ("SGD", dict(lr=torch.tensor(0.1), momentum=0.9)),
}


def make_opt(lib, kind):
    """An optimizer of `kind` from torch.optim (`lib="torch"`) or annotated_optim (`"ours"`)."""
    name, kwargs = OPTIMIZERS[kind]
    namespace = torch.optim if lib == "torch" else annotated_optim
    cls = getattr(namespace, name, None)
    if cls is None:
        pytest.skip(f"annotated_optim.{name} does not exist yet")
    kwargs = {k: (v.clone() if isinstance(v, torch.Tensor) else v) for k, v in kwargs.items()}
    return cls(_groups(), **kwargs)


def plain(value):
    """A comparable form: tensors become ('tensor', dtype, list), containers recurse."""
    if isinstance(value, torch.Tensor):
        return ("tensor", str(value.dtype), value.tolist())
    if isinstance(value, (list, tuple)):
        return type(value).__name__, [plain(v) for v in value]
    if isinstance(value, dict):
        return "dict", [(k, plain(v)) for k, v in value.items()]
    return repr(value)


def snapshot(opt, sched):
    """What a user can read after a step: group values, get_last_lr(), last_epoch."""
    groups = [
        {k: plain(g[k]) for k in ("lr", "momentum", "betas", "initial_lr") if k in g}
        for g in opt.param_groups
    ]
    return groups, plain(sched.get_last_lr()), repr(sched.last_epoch)


def state_summary(sd):
    """The state_dict in key order, values made comparable."""
    return [(k, plain(v)) for k, v in sd.items()]


def run(lr_module, lib, kind, build, drive=None, steps=STEPS, split=SPLIT):
    """Build opt + scheduler, step `steps` times with a round trip at `split`; return the record.

    `build(lr_module, opt)` makes the scheduler; `drive(sched, i)` does one scheduler step
    (default `sched.step()`). The record holds snapshots, the state_dict at the split, and the
    warnings raised along the way.
    """

    def body():
        opt = make_opt(lib, kind)
        sched = build(lr_module, opt)
        record = [snapshot(opt, sched)]
        saved = None
        for i in range(steps):
            if i == split:
                sd = sched.state_dict()
                saved = state_summary(sd)
                new_opt = make_opt(lib, kind)
                new_sched = build(lr_module, new_opt)
                new_opt.load_state_dict(opt.state_dict())
                new_sched.load_state_dict(dict(sd))
                opt, sched = new_opt, new_sched
                record.append(("after load", snapshot(opt, sched)))
            opt.step()
            if drive is None:
                sched.step()
            else:
                drive(sched, i)
            record.append(snapshot(opt, sched))
        final = state_summary(sched.state_dict())
        return record, saved, final

    return record_warnings(body)


def assert_same_run(lib, kind, build, drive=None, steps=STEPS, split=SPLIT):
    """Our scheduler on a `lib` optimizer behaves exactly as torch's on a torch optimizer."""
    theirs = run(torch_lr, "torch", kind, build, drive, steps, split)
    ours = run(our_lr, lib, kind, build, drive, steps, split)
    (t_record, t_saved, t_final), t_warn = theirs
    (o_record, o_saved, o_final), o_warn = ours
    for i, (t, o) in enumerate(zip(t_record, o_record, strict=True)):
        assert o == t, f"step {i}:\n torch: {t}\n ours:  {o}"
    assert o_saved == t_saved
    assert o_final == t_final
    assert o_warn == t_warn


LIBS = ["torch", "ours"]


# ------------------------------------------------------------------------------------------------
# CyclicLR


class CountingScale:
    """A stateful callable scale_fn: its __dict__ is what CyclicLR.state_dict saves."""

    def __init__(self):
        self.calls = 0

    def __call__(self, x):
        self.calls += 1
        return 1.0 / (1.0 + 0.1 * x)


CYCLIC_CASES = {
    "triangular": dict(base_lr=0.01, max_lr=0.1, step_size_up=7),
    "triangular_updown": dict(base_lr=0.01, max_lr=0.1, step_size_up=7, step_size_down=13),
    "triangular2": dict(
        base_lr=[0.01, 0.02], max_lr=[0.1, 0.3], step_size_up=5, mode="triangular2"
    ),
    "exp_range": dict(base_lr=0.001, max_lr=0.1, step_size_up=6, mode="exp_range", gamma=0.99),
    "exp_range_momentum_lists": dict(
        base_lr=0.001,
        max_lr=0.1,
        step_size_up=9,
        step_size_down=4,
        mode="exp_range",
        gamma=0.995,
        base_momentum=[0.7, 0.75],
        max_momentum=(0.95, 0.9),
    ),
    "lambda_cycle": dict(
        base_lr=0.01, max_lr=0.1, step_size_up=8, scale_fn=lambda x: 0.5**x, scale_mode="cycle"
    ),
    "lambda_iterations": dict(
        base_lr=0.01,
        max_lr=0.1,
        step_size_up=8,
        mode="not-a-mode",
        scale_fn=lambda x: 1 / (1 + x),
        scale_mode="iterations",
    ),
    "callable_object": dict(base_lr=0.01, max_lr=0.1, step_size_up=3, scale_mode="iterations"),
    "scale_mode_overridden": dict(
        base_lr=0.01, max_lr=0.1, step_size_up=3, mode="triangular2", scale_mode="iterations"
    ),
}


def _cyclic_builder(case, cycle_momentum=True):
    def build(lr_module, opt):
        kwargs = dict(CYCLIC_CASES[case])
        if case == "callable_object":
            kwargs["scale_fn"] = CountingScale()
        return lr_module.CyclicLR(opt, cycle_momentum=cycle_momentum, **kwargs)

    return build


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("kind", ["sgd", "adam"])
@pytest.mark.parametrize("case", sorted(CYCLIC_CASES))
def test_cyclic_lr_sequence(lib, kind, case):
    assert_same_run(lib, kind, _cyclic_builder(case))


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("kind", ["sgd_plain", "adam", "sgd_tensor_lr"])
def test_cyclic_lr_without_momentum_cycling(lib, kind):
    assert_same_run(lib, kind, _cyclic_builder("triangular2", cycle_momentum=False), steps=60)


def _state_of(lr_module, lib, **kwargs):
    opt = make_opt(lib, "sgd")
    sched = lr_module.CyclicLR(opt, **kwargs)
    opt.step()
    sched.step()
    return sched, sched.state_dict()


@pytest.mark.parametrize("lib", LIBS)
def test_cyclic_lr_state_dict_of_functions(lib):
    """Lambdas become None, callable objects their __dict__, `_scale_fn_ref` is dropped."""
    for make_kwargs in (
        lambda: dict(base_lr=0.01, max_lr=0.1, scale_fn=lambda x: 1.0),
        lambda: dict(base_lr=0.01, max_lr=0.1, scale_fn=CountingScale()),
        lambda: dict(base_lr=0.01, max_lr=0.1, mode="exp_range", gamma=0.9),
    ):
        _, theirs = _state_of(torch_lr, "torch", **make_kwargs())
        _, ours = _state_of(our_lr, lib, **make_kwargs())
        assert state_summary(ours) == state_summary(theirs)
        assert "_scale_fn_ref" not in ours
        assert list(ours)[-1] == "_scale_fn_custom"
        assert outcome(lambda: type(pickle.dumps(ours)).__name__) == outcome(
            lambda: type(pickle.dumps(theirs)).__name__
        )


@pytest.mark.parametrize("lib", LIBS)
def test_cyclic_lr_load_state_dict_details(lib):
    """load_state_dict pops `_scale_fn_custom` from the caller's dict and restores callables."""

    def scenario(lr_module, opt_lib):
        source, sd = _state_of(
            lr_module, opt_lib, base_lr=0.01, max_lr=0.1, scale_fn=CountingScale()
        )
        target = lr_module.CyclicLR(
            make_opt(opt_lib, "sgd"), base_lr=0.0, max_lr=1.0, scale_fn=CountingScale()
        )
        target.load_state_dict(sd)
        popped = "_scale_fn_custom" in sd
        # a lambda-saved state loaded into a scheduler without custom fn; a dict into None fails
        _, lam_sd = _state_of(lr_module, opt_lib, base_lr=0.01, max_lr=0.1, mode="exp_range")
        plain_target = lr_module.CyclicLR(make_opt(opt_lib, "sgd"), base_lr=0.0, max_lr=1.0)
        plain_target.load_state_dict(lam_sd)
        _, obj_sd = _state_of(
            lr_module, opt_lib, base_lr=0.01, max_lr=0.1, scale_fn=CountingScale()
        )
        fail = outcome(
            lr_module.CyclicLR(make_opt(opt_lib, "sgd"), base_lr=0.0, max_lr=1.0).load_state_dict,
            obj_sd,
        )
        missing = outcome(plain_target.load_state_dict, {})
        return (
            popped,
            target._scale_fn_custom.calls,
            repr(target.scale_mode),
            plain(target.base_lrs),
            repr(plain_target.scale_mode),
            repr(plain_target._scale_fn_ref(3)),
            fail,
            missing,
        )

    assert scenario(our_lr, lib) == scenario(torch_lr, "torch")


# ------------------------------------------------------------------------------------------------
# OneCycleLR

ONE_CYCLE_CASES = {
    "cos": dict(max_lr=0.1, total_steps=STEPS),
    "linear": dict(max_lr=0.1, total_steps=STEPS, anneal_strategy="linear"),
    "three_phase_cos": dict(max_lr=[0.1, 0.2], total_steps=STEPS, three_phase=True),
    "three_phase_linear": dict(
        max_lr=0.3, total_steps=STEPS, three_phase=True, anneal_strategy="linear", pct_start=0.27
    ),
    "epochs": dict(max_lr=0.1, epochs=20, steps_per_epoch=10, pct_start=0.25),
    "momentum_lists": dict(
        max_lr=(0.1, 0.05),
        total_steps=STEPS,
        base_momentum=[0.8, 0.82],
        max_momentum=(0.97, 0.93),
        div_factor=10.0,
        final_div_factor=100.0,
    ),
    "odd_pct": dict(max_lr=0.1, total_steps=STEPS, pct_start=0.333, three_phase=True),
}


def _one_cycle_builder(case, cycle_momentum=True):
    def build(lr_module, opt):
        return lr_module.OneCycleLR(opt, cycle_momentum=cycle_momentum, **ONE_CYCLE_CASES[case])

    return build


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("kind", ["sgd", "adam"])
@pytest.mark.parametrize("case", sorted(ONE_CYCLE_CASES))
def test_one_cycle_sequence(lib, kind, case):
    assert_same_run(lib, kind, _one_cycle_builder(case))


@pytest.mark.parametrize(
    "lib, kind",
    [(lib, kind) for lib in LIBS for kind in ("sgd_plain", "sgd_tensor_lr")]
    + [("torch", "adagrad")],
)
def test_one_cycle_without_momentum_cycling(lib, kind):
    assert_same_run(lib, kind, _one_cycle_builder("three_phase_cos", cycle_momentum=False))


@pytest.mark.parametrize("lib", LIBS)
def test_one_cycle_steps_past_the_end(lib):
    """Step `total_steps` is allowed; the next one raises, with last_epoch already moved."""

    def scenario(lr_module, opt_lib):
        opt = make_opt(opt_lib, "sgd")
        sched = lr_module.OneCycleLR(opt, max_lr=0.1, total_steps=10)
        results = []
        for _ in range(12):
            opt.step()
            results.append(outcome(sched.step))
        return results, sched.last_epoch, plain(sched.get_last_lr()), sched._step_count

    assert scenario(our_lr, lib) == scenario(torch_lr, "torch")


@pytest.mark.parametrize("lib", LIBS)
def test_one_cycle_anneal_func_fallback(lib):
    """Without `_anneal_func_type`, `anneal_func` is used; an unknown type raises."""

    def scenario(lr_module, opt_lib):
        sched = lr_module.OneCycleLR(make_opt(opt_lib, "sgd"), max_lr=0.1, total_steps=10)
        sched._anneal_func_type = "cubic"
        unknown = outcome(sched._anneal_func, 1.0, 0.0, 0.5)
        del sched._anneal_func_type
        sched.anneal_func = lambda start, end, pct: start * 10 + end + pct
        fallback = outcome(sched._anneal_func, 1.0, 0.0, 0.5)
        del sched.anneal_func
        missing = outcome(sched._anneal_func, 1.0, 0.0, 0.5)
        return unknown, fallback, missing[:2]

    assert scenario(our_lr, lib) == scenario(torch_lr, "torch")


# ------------------------------------------------------------------------------------------------
# CosineAnnealingWarmRestarts


CAWR_CASES = {
    "T_mult_1": dict(T_0=10),
    "T_mult_2": dict(T_0=3, T_mult=2, eta_min=0.001),
    "T_mult_3": dict(T_0=2, T_mult=3, eta_min=1e-4),
}


def _cawr_builder(case):
    def build(lr_module, opt):
        return lr_module.CosineAnnealingWarmRestarts(opt, **CAWR_CASES[case])

    return build


def _fractional(sched, i):
    """Per-batch stepping with fractional epochs: 10 batches per epoch."""
    sched.step(i // 10 + (i % 10) / 10)


def _interleaved(sched, i):
    """Plain steps mixed with jumps to whole and fractional epochs."""
    if i % 17 == 5:
        sched.step(i * 0.75)
    elif i % 23 == 0:
        sched.step(i + 0.3)
    else:
        sched.step()


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("case", sorted(CAWR_CASES))
@pytest.mark.parametrize("drive", [None, _fractional, _interleaved], ids=["plain", "frac", "mix"])
def test_cawr_sequence(lib, case, drive):
    kind = "sgd_tensor_lr" if case == "T_mult_2" else "sgd"
    assert_same_run(lib, kind, _cawr_builder(case), drive)


@pytest.mark.parametrize("lib", LIBS)
def test_cawr_errors_and_no_warnings(lib):
    def scenario(lr_module, opt_lib):
        opt = make_opt(opt_lib, "sgd")
        sched = lr_module.CosineAnnealingWarmRestarts(opt, T_0=5, T_mult=2)
        # scheduler stepped before the optimizer, and with an epoch: torch warns about neither
        _, warns = record_warnings(lambda: (sched.step(), sched.step(3.5), sched.step()))
        negative = outcome(sched.step, -1)
        outside, get_lr_warns = record_warnings(lambda: plain(sched.get_lr()))
        return warns, negative, outside, get_lr_warns, sched._step_count, plain(sched.T_cur)

    assert scenario(our_lr, lib) == scenario(torch_lr, "torch")


# ------------------------------------------------------------------------------------------------
# ReduceLROnPlateau

# plateaus, improvements, tiny gains under the threshold, a long decline to reach min_lr
METRICS = (
    [1.0, 0.9, 0.9, 0.9, 0.9, 0.8999, 0.85, 0.85, 0.85, 0.85, 0.85, 0.84]
    + [0.84 - 1e-6 * k for k in range(20)]
    + [0.5, 0.6, 0.7, 0.7, 0.7, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3]
    + [float(k % 4) for k in range(40)]
)

PLATEAU_CASES = {
    "default": dict(patience=2),
    "patience0": dict(patience=0, factor=0.5),
    "cooldown": dict(patience=1, cooldown=3, factor=0.5),
    "max_abs": dict(mode="max", threshold_mode="abs", threshold=0.05, patience=2),
    "max_rel": dict(mode="max", threshold=0.01, patience=1, cooldown=1),
    "min_abs": dict(threshold_mode="abs", threshold=0.01, patience=1, factor=0.3),
    "min_lr_scalar": dict(patience=0, factor=0.5, min_lr=0.004),
    "min_lr_list": dict(patience=0, factor=0.5, min_lr=[0.02, 0.001]),
    "eps": dict(patience=0, factor=0.9, eps=0.004, min_lr=(0.0, 0.01)),
}


def _plateau_builder(case):
    def build(lr_module, opt):
        return lr_module.ReduceLROnPlateau(opt, **PLATEAU_CASES[case])

    return build


def _metric_driver(as_tensor):
    def drive(sched, i):
        value = METRICS[i % len(METRICS)]
        sched.step(torch.tensor(value) if as_tensor else value)

    return drive


@pytest.mark.parametrize("lib", LIBS)
@pytest.mark.parametrize("case", sorted(PLATEAU_CASES))
def test_plateau_sequence(lib, case):
    kind = "sgd_tensor_lr" if case in ("cooldown", "eps", "min_lr_list", "max_abs") else "sgd"
    assert_same_run(
        lib, kind, _plateau_builder(case), _metric_driver(as_tensor=False), steps=len(METRICS)
    )


@pytest.mark.parametrize("lib", LIBS)
def test_plateau_tensor_metrics(lib):
    assert_same_run(lib, "sgd", _plateau_builder("cooldown"), _metric_driver(as_tensor=True))


@pytest.mark.parametrize("lib", LIBS)
def test_plateau_epoch_warning_and_state(lib):
    def scenario(lr_module, opt_lib):
        opt = make_opt(opt_lib, "sgd")
        sched = lr_module.ReduceLROnPlateau(opt, patience=0, cooldown=2)
        before = (plain(sched.get_last_lr()), sched.last_epoch, sched.in_cooldown)
        _, warns = record_warnings(lambda: sched.step(1.0, epoch=7))
        steps = []
        for metric in (2.0, 2.0, 2.0, 2.0, 0.5):
            sched.step(metric)
            steps.append((sched.last_epoch, sched.in_cooldown, sched.num_bad_epochs))
        no_get_lr = outcome(sched.get_lr)[:2]
        bad_metric = outcome(sched.step, "x")
        return before, warns, steps, no_get_lr, bad_metric, state_summary(sched.state_dict())

    assert scenario(our_lr, lib) == scenario(torch_lr, "torch")


@pytest.mark.parametrize("lib", LIBS)
def test_plateau_new_param_group(lib):
    """A scalar min_lr is spread over a new group; a list min_lr raises RuntimeError."""

    def scenario(lr_module, opt_lib):
        results = []
        for min_lr in (0.001, [0.001, 0.002]):
            opt = make_opt(opt_lib, "sgd")
            sched = lr_module.ReduceLROnPlateau(opt, patience=0, min_lr=min_lr)
            opt.add_param_group({"params": [torch.zeros(2, requires_grad=True)], "lr": 1.0})
            sched.step(1.0)
            results.append(outcome(sched.step, 2.0))
            results.append((plain(sched.min_lrs), plain(sched.get_last_lr())))
        return results

    assert scenario(our_lr, lib) == scenario(torch_lr, "torch")


@pytest.mark.parametrize("lib", LIBS)
def test_plateau_load_state_dict_checks_mode(lib):
    def scenario(lr_module, opt_lib):
        sched = lr_module.ReduceLROnPlateau(make_opt(opt_lib, "sgd"), mode="max")
        good = sched.state_dict()
        fresh = lr_module.ReduceLROnPlateau(make_opt(opt_lib, "sgd"))
        fresh.load_state_dict(good)
        loaded = (fresh.mode, fresh.mode_worse, fresh.best)
        bad = outcome(fresh.load_state_dict, {"threshold_mode": "relative"})
        return loaded, bad, fresh.threshold_mode

    assert scenario(our_lr, lib) == scenario(torch_lr, "torch")


# ------------------------------------------------------------------------------------------------
# Construction errors, warnings and signatures


def _errors(lr_module, opt_lib):
    sgd = make_opt(opt_lib, "sgd")
    adagrad = make_opt("torch", "adagrad")
    P, C, O, W = (
        lr_module.ReduceLROnPlateau,
        lr_module.CyclicLR,
        lr_module.OneCycleLR,
        lr_module.CosineAnnealingWarmRestarts,
    )
    cases = [
        lambda: P(sgd, factor=1.0),
        lambda: P(object(), factor=1.0),
        lambda: P(object()),
        lambda: P(sgd, min_lr=[0.1]),
        lambda: P(sgd, mode="avg"),
        lambda: P(sgd, threshold_mode="percent"),
        lambda: P(sgd, mode=3),
        lambda: C(object(), 0.1, 1.0),
        lambda: C(sgd, [0.1], 1.0),
        lambda: C(sgd, 0.1, [1.0, 2.0, 3.0]),
        lambda: C(sgd, 0.1, 1.0, mode="square"),
        lambda: C(sgd, 0.1, 1.0, step_size_up=0),
        lambda: C(sgd, 0.1, 1.0, step_size_up="x"),
        lambda: C(adagrad, 0.1, 1.0),
        lambda: C(sgd, 0.1, 1.0, base_momentum=[0.8]),
        lambda: C(sgd, 0.1, 1.0, max_momentum=(0.9, 0.9, 0.9)),
        lambda: O(object(), 0.1, 10),
        lambda: O(sgd, 0.1),
        lambda: O(sgd, 0.1, epochs=3),
        lambda: O(sgd, 0.1, total_steps=0),
        lambda: O(sgd, 0.1, total_steps=10.0),
        lambda: O(sgd, 0.1, total_steps="10"),
        lambda: O(sgd, 0.1, epochs=0, steps_per_epoch=3),
        lambda: O(sgd, 0.1, epochs=2.0, steps_per_epoch=3),
        lambda: O(sgd, 0.1, epochs=2, steps_per_epoch=-3),
        lambda: O(sgd, 0.1, 10, pct_start=1),
        lambda: O(sgd, 0.1, 10, pct_start=1.5),
        lambda: O(sgd, 0.1, 10, pct_start="0.3"),
        lambda: O(sgd, 0.1, 10, anneal_strategy="cosine"),
        lambda: O(sgd, [0.1], 10),
        lambda: O(adagrad, 0.1, 10),
        lambda: O(sgd, 0.1, 10, max_momentum=[0.9]),
        lambda: W(sgd, T_0=0),
        lambda: W(sgd, T_0=2.0),
        lambda: W(sgd, T_0="2"),
        lambda: W(sgd, T_0=2, T_mult=0),
        lambda: W(sgd, T_0=2, T_mult=1.5),
        lambda: W(sgd, T_0=2, eta_min="0"),
        lambda: W(sgd, T_0=2, eta_min=None),
        lambda: W(object(), T_0=2),
        lambda: W(sgd, T_0=2, last_epoch=3),
    ]
    return [outcome(case)[:3] if outcome(case)[0] == "raise" else "ok" for case in cases]


@pytest.mark.parametrize("lib", LIBS)
def test_construction_errors(lib):
    theirs = _errors(torch_lr, "torch")
    ours = _errors(our_lr, lib)
    for i, (t, o) in enumerate(zip(theirs, ours, strict=True)):
        assert o == t, f"case {i}:\n torch: {t}\n ours:  {o}"


def _order_warnings(lr_module, opt_lib):
    results = []
    for build in (
        lambda opt: lr_module.CyclicLR(opt, 0.01, 0.1, step_size_up=3),
        lambda opt: lr_module.OneCycleLR(opt, 0.1, total_steps=10),
        lambda opt: lr_module.CosineAnnealingWarmRestarts(opt, T_0=3),
    ):
        opt = make_opt(opt_lib, "sgd")
        sched = build(opt)
        # scheduler stepped before the optimizer
        _, early = record_warnings(sched.step)
        # get_lr() outside step(): warns, and moves the momentum as a side effect
        lrs, outside = record_warnings(lambda s=sched: plain(s.get_lr()))
        results.append((early, lrs, outside, plain(opt.param_groups[0].get("momentum"))))
        # optimizer.step replaced after construction
        opt2 = make_opt(opt_lib, "sgd")
        sched2 = build(opt2)
        opt2.step = lambda: None
        _, replaced = record_warnings(sched2.step)
        results.append(replaced)
    return results


@pytest.mark.parametrize("lib", LIBS)
def test_step_order_and_get_lr_warnings(lib):
    assert _order_warnings(our_lr, lib) == _order_warnings(torch_lr, "torch")


@pytest.mark.parametrize(
    "name", ["ReduceLROnPlateau", "CyclicLR", "CosineAnnealingWarmRestarts", "OneCycleLR"]
)
def test_signatures_and_methods(name):
    theirs, ours = getattr(torch_lr, name), getattr(our_lr, name)
    assert ours.__mro__[1].__name__ == theirs.__mro__[1].__name__ == "LRScheduler"
    public = {n for n in dir(theirs) if not n.startswith("__")}
    assert public <= set(dir(ours)), public - set(dir(ours))
    for attr in sorted(public):
        t, o = inspect.getattr_static(theirs, attr), inspect.getattr_static(ours, attr)
        assert type(o) is type(t), attr
        if callable(t) and not isinstance(t, property):
            fn_t = t.__func__ if isinstance(t, staticmethod) else t
            fn_o = o.__func__ if isinstance(o, staticmethod) else o
            params = lambda f: [  # noqa: E731
                (p.name, p.kind, repr(p.default)) for p in inspect.signature(f).parameters.values()
            ]
            assert params(fn_o) == params(fn_t), attr


def test_builtin_scale_functions():
    """The static scale functions and scale_fn() agree, including at unusual arguments."""
    xs = [0, 1, 2, 3.5, 10, 100]
    for name in ("_triangular_scale_fn", "_triangular2_scale_fn"):
        assert [repr(getattr(our_lr.CyclicLR, name)(x)) for x in xs] == [
            repr(getattr(torch_lr.CyclicLR, name)(x)) for x in xs
        ]
    assert [repr(our_lr.CyclicLR._exp_range_scale_fn(0.97, x)) for x in xs] == [
        repr(torch_lr.CyclicLR._exp_range_scale_fn(0.97, x)) for x in xs
    ]
    pct = [0.0, 0.1, 0.5, 1 / 3, 1.0, 1.0 + 1 / 199]
    for name in ("_annealing_cos", "_annealing_linear"):
        ours = [repr(getattr(our_lr.OneCycleLR, name)(0.004, 0.1, p)) for p in pct]
        assert ours == [repr(getattr(torch_lr.OneCycleLR, name)(0.004, 0.1, p)) for p in pct]


@pytest.mark.parametrize("lib", LIBS)
def test_state_dicts_save_and_load_with_weights_only(lib):
    """Each state_dict goes through torch.save / torch.load(weights_only=True) as torch's does."""

    def scenario(lr_module, opt_lib):
        results = []
        for build in (
            lambda opt: lr_module.ReduceLROnPlateau(opt, min_lr=[0.0, 0.01]),
            lambda opt: lr_module.CyclicLR(opt, 0.01, 0.1, mode="exp_range", gamma=0.9),
            lambda opt: lr_module.CyclicLR(opt, 0.01, 0.1, scale_fn=CountingScale()),
            lambda opt: lr_module.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2),
            lambda opt: lr_module.OneCycleLR(opt, 0.1, total_steps=20, three_phase=True),
        ):
            sched = build(make_opt(opt_lib, "adam"))
            buffer = io.BytesIO()
            torch.save(sched.state_dict(), buffer)
            buffer.seek(0)
            loaded = outcome(lambda b=buffer: state_summary(torch.load(b, weights_only=True)))
            results.append(loaded)
        return results

    assert scenario(our_lr, lib) == scenario(torch_lr, "torch")
