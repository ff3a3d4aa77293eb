"""Learning-rate schedulers (LRScheduler to ChainedScheduler) against torch.optim.lr_scheduler.

Each scenario builds torch's scheduler on a torch optimizer (the reference) and ours on a twin
optimizer, which is torch's or ours (parametrized as `source`). What a user observes must be
equal: learning rates (`get_last_lr()` and the param groups, floats compared with ==, tensors
bit for bit), state dicts, errors and warnings.
"""

import functools
import inspect
import math

import pytest
import torch
import torch.optim as toptim
import torch.optim.lr_scheduler as tsched

import annotated_optim as aoptim
import annotated_optim.lr_scheduler as asched
from helpers import norm, outcome, record_warnings

SOURCES = ["torch", "ours"]
STEPS = 200
RESUME_AT = 100


# --- helpers ----------------------------------------------------------------------------------


def make_optimizer(source, kind="sgd", lr=0.1):
    """An optimizer with two param groups (lrs `lr` and `lr / 2`) from torch or from ours."""
    g = torch.Generator().manual_seed(0)
    lr = lr.clone() if isinstance(lr, torch.Tensor) else lr  # schedulers write tensors in place
    weights = [torch.randn(3, generator=g).requires_grad_() for _ in range(2)]
    groups = [{"params": [weights[0]]}, {"params": [weights[1]], "lr": lr / 2}]
    if kind == "adam":
        return toptim.Adam(groups, lr=lr)
    optim = toptim if source == "torch" else aoptim
    return optim.SGD(groups, lr=lr, momentum=0.9)


def canon(value):
    """A comparable form of a state-dict value: tensors to (dtype, list), dicts to item lists."""
    if isinstance(value, torch.Tensor):
        return ("tensor", str(value.dtype), tuple(value.shape), value.tolist())
    if isinstance(value, dict):
        return (type(value).__name__, [(k, canon(v)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [canon(v) for v in value])
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return norm(repr(value)) if callable(value) else value


def lr_snapshot(scheduler, optimizer):
    """What a user reads after a step: get_last_lr() and every group's lr and momentum."""
    groups = [(g["lr"], g.get("momentum"), g.get("initial_lr")) for g in optimizer.param_groups]
    return canon(scheduler.get_last_lr()), canon(groups)


def run(lib, source, build, steps=STEPS, kind="sgd", lr=0.1):
    """Step a scheduler `steps` times; at RESUME_AT checkpoint it and go on with a new one.

    Returns the uninterrupted snapshots, the resumed ones, the state dict at RESUME_AT and the
    warnings seen (construction included).
    """
    snaps, resumed = [], []
    saved = None

    def body():
        nonlocal saved
        opt = make_optimizer(source, kind, lr)
        sched = build(lib, opt)
        snaps.append(lr_snapshot(sched, opt))
        for step in range(1, steps + 1):
            opt.step()
            sched.step()
            snaps.append(lr_snapshot(sched, opt))
            if step == RESUME_AT:
                saved = sched.state_dict()
                opt_state = opt.state_dict()
                # A new optimizer and scheduler, restored as torch's docs advise: scheduler
                # built first, then the optimizer's state, then the scheduler's.
                new_opt = make_optimizer(source, kind, lr)
                new_sched = build(lib, new_opt)
                new_opt.load_state_dict(opt_state)
                new_sched.load_state_dict(saved)
                resumed.append(lr_snapshot(new_sched, new_opt))
                for _ in range(steps - step):
                    new_opt.step()
                    new_sched.step()
                    resumed.append(lr_snapshot(new_sched, new_opt))

    _, warns = record_warnings(body)
    return snaps, resumed, canon(saved), warns


def assert_same_run(build, source, **kwargs):
    """torch's scheduler on torch's optimizer vs ours on a twin from `source`."""
    theirs = run(tsched, "torch", build, **kwargs)
    ours = run(asched, source, build, **kwargs)
    for name, t, o in zip(("sequence", "resumed", "state_dict", "warnings"), theirs, ours):
        assert o == t, f"{name} differs\n torch: {t!r}\n ours:  {o!r}"
    return ours


class Halving:
    """A callable object whose attributes LambdaLR saves in its state dict."""

    def __init__(self, base=0.5):
        self.base = base
        self.calls = 0

    def __call__(self, epoch):
        self.calls += 1
        return self.base ** (epoch // 7)


def decay(epoch):
    """A plain function: LambdaLR saves None for it."""
    return 0.97**epoch


# --- every scheduler over 200 steps, with a checkpoint in the middle --------------------------

BUILDERS = {
    "lambda": lambda lib, o: lib.LambdaLR(o, lr_lambda=lambda e: 1 / (e + 1)),
    "lambda-list": lambda lib, o: lib.LambdaLR(o, lr_lambda=[decay, Halving()]),
    "lambda-tuple-partial": lambda lib, o: lib.LambdaLR(
        o, lr_lambda=(functools.partial(pow, 0.99), decay)
    ),
    "multiplicative": lambda lib, o: lib.MultiplicativeLR(o, lr_lambda=lambda e: 0.98),
    "multiplicative-list": lambda lib, o: lib.MultiplicativeLR(
        o, lr_lambda=[Halving(0.9), lambda e: 1.0 - 1e-3 * e]
    ),
    "step": lambda lib, o: lib.StepLR(o, step_size=30),
    "step-gamma": lambda lib, o: lib.StepLR(o, step_size=7, gamma=0.77),
    "multistep": lambda lib, o: lib.MultiStepLR(o, milestones=[10, 50, 50, 120]),
    "multistep-unsorted": lambda lib, o: lib.MultiStepLR(o, milestones=(90, 3, 40), gamma=0.3),
    "constant": lambda lib, o: lib.ConstantLR(o),
    "constant-long": lambda lib, o: lib.ConstantLR(o, factor=0.37, total_iters=150),
    "constant-one": lambda lib, o: lib.ConstantLR(o, factor=1.0, total_iters=0),
    "linear": lambda lib, o: lib.LinearLR(o),
    "linear-down": lambda lib, o: lib.LinearLR(
        o, start_factor=1.0, end_factor=0.013, total_iters=170
    ),
    "linear-to-zero": lambda lib, o: lib.LinearLR(
        o, start_factor=0.3, end_factor=0.0, total_iters=33
    ),
    "exponential": lambda lib, o: lib.ExponentialLR(o, gamma=0.977),
    "polynomial": lambda lib, o: lib.PolynomialLR(o),
    "polynomial-power": lambda lib, o: lib.PolynomialLR(o, total_iters=150, power=2.7),
    "cosine": lambda lib, o: lib.CosineAnnealingLR(o, T_max=200),
    "cosine-cycles": lambda lib, o: lib.CosineAnnealingLR(o, T_max=23, eta_min=0.003),
    "cosine-short": lambda lib, o: lib.CosineAnnealingLR(o, T_max=1, eta_min=1e-4),
    "sequential": lambda lib, o: lib.SequentialLR(
        o,
        schedulers=[
            lib.LinearLR(o, start_factor=0.1, total_iters=10),
            lib.CosineAnnealingLR(o, 50),
        ],
        milestones=[10],
    ),
    "sequential-three": lambda lib, o: lib.SequentialLR(
        o,
        schedulers=[
            lib.ConstantLR(o, factor=0.5, total_iters=5),
            lib.ExponentialLR(o, gamma=0.9),
            lib.StepLR(o, step_size=11, gamma=0.6),
        ],
        milestones=[20, 90],
    ),
    "sequential-nested": lambda lib, o: lib.SequentialLR(
        o,
        schedulers=[
            lib.ChainedScheduler(
                [lib.ConstantLR(o, factor=0.2, total_iters=8), lib.ExponentialLR(o, gamma=0.99)]
            ),
            lib.PolynomialLR(o, total_iters=120, power=0.8),
        ],
        milestones=[40],
    ),
    "chained": lambda lib, o: lib.ChainedScheduler(
        [lib.ConstantLR(o, factor=0.1, total_iters=20), lib.ExponentialLR(o, gamma=0.95)]
    ),
    "chained-explicit": lambda lib, o: lib.ChainedScheduler(
        [
            lib.LinearLR(o, start_factor=0.2, total_iters=15),
            lib.MultiStepLR(o, milestones=[60, 130], gamma=0.5),
            lib.CosineAnnealingLR(o, T_max=37, eta_min=0.001),
        ],
        optimizer=o,
    ),
}


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("name", list(BUILDERS))
def test_sequence_and_resume(name, source):
    """200 steps, state_dict at step 100, a restored scheduler going on identically."""
    snaps, resumed, _, _ = assert_same_run(BUILDERS[name], source)
    # The resumed run continues the uninterrupted one (plain functions are rebuilt by `build`).
    assert resumed == snaps[RESUME_AT:]


@pytest.mark.parametrize(
    "name",
    [
        "lambda",
        "multiplicative",
        "step-gamma",
        "multistep",
        "constant-long",
        "linear",
        "exponential",
        "polynomial-power",
        "cosine-cycles",
        "sequential",
        "chained",
    ],
)
def test_tensor_learning_rate(name):
    """With `lr` a tensor, the values stay tensors, written in place, equal bit for bit."""
    assert_same_run(BUILDERS[name], "torch", kind="adam", lr=torch.tensor(0.01), steps=120)

    opt = make_optimizer("torch", "adam", lr=torch.tensor(0.01))
    lr_tensor = opt.param_groups[0]["lr"]
    sched = BUILDERS[name](asched, opt)
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] is lr_tensor
    assert sched.get_last_lr()[0] is not lr_tensor
    assert opt.param_groups[0]["initial_lr"] is not lr_tensor


# --- the state dict itself -------------------------------------------------------------------


@pytest.mark.parametrize("name", list(BUILDERS))
def test_state_dict_contents_and_key_order(name):
    """Same keys in the same order, same values; loading leaves the caller's dict as it was."""

    def scenario(lib, source):
        opt = make_optimizer(source)
        sched = BUILDERS[name](lib, opt)
        for _ in range(13):
            opt.step()
            sched.step()
        state = sched.state_dict()
        keys_before = list(state)
        sched.load_state_dict(state)
        return canon(state), keys_before, list(state)

    theirs = record_warnings(lambda: scenario(tsched, "torch"))
    for source in SOURCES:
        assert record_warnings(lambda: scenario(asched, source)) == theirs


def test_lambda_state_dict_restores_callable_object_attributes():
    """A callable object's attributes come back; a plain function stays the current one."""

    def scenario(lib):
        opt = make_optimizer("torch")
        first, second = Halving(0.5), Halving(0.25)
        sched = lib.LambdaLR(opt, lr_lambda=[decay, first])
        for _ in range(5):
            opt.step()
            sched.step()
        state = sched.state_dict()
        other = lib.LambdaLR(make_optimizer("torch"), lr_lambda=[decay, second])
        other.load_state_dict(state)
        return canon(state), second.base, second.calls, other.lr_lambdas[0] is decay

    assert scenario(asched) == scenario(tsched)


# --- warnings -------------------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
def test_step_order_warning(source):
    """scheduler.step() before any optimizer.step() warns once, with torch's text."""

    def scenario(lib, src):
        opt = make_optimizer(src)
        sched = lib.StepLR(opt, step_size=2)

        def steps():
            sched.step()
            sched.step()
            opt.step()
            sched.step()

        return record_warnings(steps)[1], sched.get_last_lr()

    assert scenario(asched, source) == scenario(tsched, "torch")
    assert "before `optimizer.step()`" in scenario(asched, source)[0][0][1]


@pytest.mark.parametrize("source", SOURCES)
def test_replaced_optimizer_step_warning(source):
    """Replacing optimizer.step after the scheduler was built gives torch's other warning."""

    def scenario(lib, src):
        opt = make_optimizer(src)
        sched = lib.ExponentialLR(opt, gamma=0.5)
        opt.step = lambda closure=None: None
        return record_warnings(lambda: (opt.step(), sched.step(), sched.step()))[1]

    ours, theirs = scenario(asched, source), scenario(tsched, "torch")
    assert ours == theirs and len(ours) == 1


@pytest.mark.parametrize("source", SOURCES)
def test_optimizer_step_wrapper(source):
    """The wrapper: marked, named like the real step, sets _opt_called, installed only once."""

    def scenario(lib, src):
        opt = make_optimizer(src)
        lib.StepLR(opt, step_size=2)
        first = opt.step
        lib.ExponentialLR(opt, gamma=0.9)
        called_before = getattr(opt, "_opt_called", None)
        opt.step()
        return (
            opt.step is first,
            first._wrapped_by_lr_sched,
            first.__name__,
            "step" in type(opt).__dict__ and "step" in vars(opt),
            called_before,
            opt._opt_called,
        )

    assert scenario(asched, source) == scenario(tsched, "torch")


def test_wrapper_holds_the_optimizer_weakly():
    """The wrapped step keeps no strong reference: the optimizer dies with its last reference."""
    import gc
    import weakref

    opt = make_optimizer("ours")
    asched.StepLR(opt, step_size=3)
    gc.disable()
    try:
        alive = weakref.ref(opt)
        del opt
        assert alive() is None
    finally:
        gc.enable()


EPOCH_BUILDERS = [n for n in BUILDERS if not n.startswith(("sequential", "chained"))]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("name", EPOCH_BUILDERS)
def test_step_with_epoch_uses_closed_form_and_warns(name, source):
    """step(epoch): the deprecation warning, then the closed form where there is one."""

    def scenario(lib, src):
        opt = make_optimizer(src)
        sched = BUILDERS[name](lib, opt)

        def steps():
            out = []
            for epoch in (3, 3, 40, 7, 0, 160, 23, 24):
                opt.step()
                sched.step(epoch)
                out.append(lr_snapshot(sched, opt))
            opt.step()
            sched.step()
            out.append(lr_snapshot(sched, opt))
            return out, sched.last_epoch, sched._step_count

        return record_warnings(steps)

    theirs = scenario(tsched, "torch")
    assert scenario(asched, source) == theirs
    assert theirs[1][0] == ("UserWarning", asched.EPOCH_DEPRECATION_WARNING)


@pytest.mark.parametrize("name", list(BUILDERS))
def test_get_lr_outside_step_warns(name):
    """get_lr() called by the user: torch's warning, and the same (chainable) values."""

    def scenario(lib):
        opt = make_optimizer("torch")
        sched, built_warnings = record_warnings(lambda: BUILDERS[name](lib, opt))
        opt.step()
        sched.step()
        return built_warnings, record_warnings(lambda: outcome(lambda: canon(sched.get_lr())))

    assert scenario(asched) == scenario(tsched)


def test_cosine_get_lr_right_after_resuming_construction():
    """CosineAnnealingLR's branch for `_step_count == 1` and `last_epoch > 0`."""

    def scenario(lib):
        opt = make_optimizer("torch")
        for group in opt.param_groups:
            group["initial_lr"] = group["lr"] * 3
        sched = lib.CosineAnnealingLR(opt, T_max=17, eta_min=0.01, last_epoch=5)
        return record_warnings(lambda: canon(sched.get_lr()))

    assert scenario(asched) == scenario(tsched)


# --- last_epoch restarts ----------------------------------------------------------------------


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("name", EPOCH_BUILDERS)
@pytest.mark.parametrize("last_epoch", [0, 29, 150])
def test_restart_with_initial_lr(name, source, last_epoch):
    """`last_epoch=k` with `initial_lr` in the groups: same construction and next 60 steps."""

    def scenario(lib, src):
        opt = make_optimizer(src)
        for index, group in enumerate(opt.param_groups):
            group["initial_lr"] = 0.3 / (index + 1)
        sched = _with_last_epoch(lib, opt, name, last_epoch)
        out = [lr_snapshot(sched, opt), sched.last_epoch, canon(sched.base_lrs)]
        for _ in range(60):
            opt.step()
            sched.step()
            out.append(lr_snapshot(sched, opt))
        return out

    assert scenario(asched, source) == scenario(tsched, "torch")


def _with_last_epoch(lib, opt, name, last_epoch):
    """Build scheduler `name` again with a `last_epoch` argument (by keyword)."""
    original = BUILDERS[name]

    class Patched:
        def __getattr__(self, attr):
            cls = getattr(lib, attr)
            return functools.partial(cls, last_epoch=last_epoch)

    return original(Patched(), opt)


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("name", EPOCH_BUILDERS)
def test_restart_without_initial_lr(name, source):
    """`last_epoch=k` without `initial_lr` in group 1: torch's KeyError text."""

    def scenario(lib, src):
        opt = make_optimizer(src)
        opt.param_groups[0]["initial_lr"] = 0.2
        return outcome(_with_last_epoch, lib, opt, name, 10)

    theirs = scenario(tsched, "torch")
    assert theirs[0:2] == ("raise", "KeyError")
    assert scenario(asched, source) == theirs


def test_initial_lr_kept_when_present():
    """A fresh start keeps an existing `initial_lr` (setdefault) and base_lrs follow it."""

    def scenario(lib):
        opt = make_optimizer("torch")
        opt.param_groups[1]["initial_lr"] = 0.7
        sched = lib.StepLR(opt, step_size=1, gamma=0.5)
        return canon(sched.base_lrs), [g["initial_lr"] for g in opt.param_groups]

    assert scenario(asched) == scenario(tsched)


# --- errors -----------------------------------------------------------------------------------


class NotAnOptimizer:
    """Has param_groups but is no optimizer."""

    param_groups = [{"lr": 0.1, "params": []}]


def _opt():
    return make_optimizer("torch")


ERRORS = {
    "not-optimizer": lambda lib: lib.StepLR(NotAnOptimizer(), step_size=1),
    "not-optimizer-none": lambda lib: lib.ExponentialLR(None, gamma=0.1),
    "lambda-not-optimizer": lambda lib: lib.LambdaLR(NotAnOptimizer(), lr_lambda=decay),
    "lambda-length": lambda lib: lib.LambdaLR(_opt(), lr_lambda=[decay]),
    "lambda-not-callable": lambda lib: lib.LambdaLR(_opt(), lr_lambda=3),
    "multiplicative-length": lambda lib: lib.MultiplicativeLR(_opt(), lr_lambda=(decay,) * 3),
    "multiplicative-not-callable": lambda lib: lib.MultiplicativeLR(_opt(), lr_lambda=[decay, 0.5]),
    "constant-factor-high": lambda lib: lib.ConstantLR(_opt(), factor=1.5),
    "constant-factor-negative": lambda lib: lib.ConstantLR(_opt(), factor=-0.1),
    "linear-start-zero": lambda lib: lib.LinearLR(_opt(), start_factor=0.0),
    "linear-start-high": lambda lib: lib.LinearLR(_opt(), start_factor=1.1),
    "linear-end-high": lambda lib: lib.LinearLR(_opt(), end_factor=1.1),
    "linear-end-negative": lambda lib: lib.LinearLR(_opt(), end_factor=-1.0),
    "get-lr-base": lambda lib: lib.LRScheduler(_opt()),
    "constant-factor-zero-reaches-total": lambda lib: _steps(
        lib.ConstantLR(_opt(), factor=0.0, total_iters=2), 3
    ),
    "polynomial-total-zero-closed-form": lambda lib: lib.PolynomialLR(_opt(), total_iters=0).step(
        2
    ),
    "cosine-tmax-zero": lambda lib: _steps(lib.CosineAnnealingLR(_opt(), T_max=0), 1),
    "sequential-empty": lambda lib: lib.SequentialLR(_opt(), schedulers=[], milestones=[]),
    "sequential-milestones": lambda lib: _sequential(lib, milestones=[3, 5]),
    "sequential-no-optimizer": lambda lib: lib.SequentialLR(
        _opt(), schedulers=[object()], milestones=[]
    ),
    "sequential-other-optimizer": lambda lib: _sequential(lib, other=True),
    "sequential-no-initial-lr": lambda lib: _sequential_without_initial_lr(lib),
    "chained-empty": lambda lib: lib.ChainedScheduler([]),
    "chained-no-optimizer": lambda lib: lib.ChainedScheduler([object()]),
    "chained-no-optimizer-explicit": lambda lib: lib.ChainedScheduler([object()], optimizer=_opt()),
    "chained-other-optimizer": lambda lib: _chained_other(lib),
    "sequential-step-epoch": lambda lib: _sequential(lib).step(3),
    "chained-step-epoch": lambda lib: lib.ChainedScheduler([lib.StepLR(_opt(), 2)]).step(3),
    "lambda-load-too-many": lambda lib: _load_lambdas(lib, [{"base": 0.1}] * 3),
    "sequential-load-too-many": lambda lib: _sequential(lib).load_state_dict(
        {"_schedulers": [{}, {}, {}]}
    ),
    "get-lr-wrong-count": lambda lib: _WrongCount(lib)(_opt()),
}


def _load_lambdas(lib, saved):
    sched = lib.LambdaLR(_opt(), lr_lambda=[Halving(), Halving()])
    sched.load_state_dict({"lr_lambdas": saved})
    return [fn.base for fn in sched.lr_lambdas]


def _WrongCount(lib):
    """A user subclass whose get_lr returns one value too few (zip strict=True)."""

    class WrongCount(lib.LRScheduler):
        def get_lr(self):
            return [0.1]

    return WrongCount


def _steps(sched, n):
    for _ in range(n):
        sched.optimizer.step()
        sched.step()
    return sched.get_last_lr()


def _sequential(lib, milestones=(4,), other=False):
    opt = _opt()
    second_opt = _opt() if other else opt
    return lib.SequentialLR(
        opt,
        schedulers=[lib.StepLR(opt, 2), lib.ExponentialLR(second_opt, 0.5)],
        milestones=list(milestones),
    )


def _sequential_without_initial_lr(lib):
    opt = _opt()
    child = lib.StepLR(opt, 2)
    del opt.param_groups[0]["initial_lr"]
    return lib.SequentialLR(opt, schedulers=[child], milestones=[])


def _chained_other(lib):
    opt = _opt()
    return lib.ChainedScheduler([lib.StepLR(opt, 2), lib.StepLR(_opt(), 3)])


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors(name):
    """Same exception type and text (the optimizer's repr included) as torch."""
    theirs = record_warnings(lambda: outcome(ERRORS[name], tsched))
    assert theirs[0][0] == "raise"
    assert record_warnings(lambda: outcome(ERRORS[name], asched)) == theirs


def test_errors_with_our_optimizer_name_the_same_classes():
    """With our optimizer the messages read as with torch's once module paths are normalized."""

    def scenario(lib, src):
        opt = make_optimizer(src)
        other = make_optimizer(src)
        return outcome(
            lambda: lib.SequentialLR(
                opt, schedulers=[lib.StepLR(opt, 2), lib.StepLR(other, 2)], milestones=[3]
            )
        )

    assert scenario(asched, "ours") == scenario(tsched, "torch")


# --- module surface ---------------------------------------------------------------------------


MINE = [
    "LRScheduler",
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "SequentialLR",
    "PolynomialLR",
    "CosineAnnealingLR",
    "ChainedScheduler",
]


def test_module_surface():
    """__all__, the deprecation text, the _LRScheduler alias, hierarchies and signatures."""
    assert asched.__all__ == tsched.__all__
    assert asched.EPOCH_DEPRECATION_WARNING == tsched.EPOCH_DEPRECATION_WARNING
    assert asched._LRScheduler.__name__ == "_LRScheduler"
    assert issubclass(asched._LRScheduler, asched.LRScheduler)
    for name in MINE:
        ours, theirs = getattr(asched, name), getattr(tsched, name)
        assert [c.__name__ for c in ours.__mro__] == [c.__name__ for c in theirs.__mro__]
        for method in (
            "__init__",
            "step",
            "get_lr",
            "get_last_lr",
            "state_dict",
            "load_state_dict",
            "_get_closed_form_lr",
            "recursive_undo",
        ):
            if hasattr(theirs, method) or hasattr(ours, method):
                sig_ours = inspect.signature(getattr(ours, method))
                sig_theirs = inspect.signature(getattr(theirs, method))
                assert [(p.name, p.kind, p.default) for p in sig_ours.parameters.values()] == [
                    (p.name, p.kind, p.default) for p in sig_theirs.parameters.values()
                ], (name, method)


def test_schedulers_of_both_libraries_accept_both_optimizers_and_reject_others():
    """Ours and torch's schedulers take torch's and our optimizers (ours subclass
    torch.optim.Optimizer since issue 22); anything else gets torch's error from both."""
    for source in SOURCES:
        assert asched.StepLR(make_optimizer(source), 3).get_last_lr() == [0.1, 0.05]
        assert tsched.StepLR(make_optimizer(source), 3).get_last_lr() == [0.1, 0.05]
    for sched in (tsched, asched):
        assert outcome(sched.StepLR, object(), 3) == (
            "raise",
            "TypeError",
            "object is not an Optimizer",
        )
