"""Claims corrected by the second audit of annotated_optim (issue 21, item 3), on both libraries.

Each test proves a sentence as it reads after the correction, with ``torch.optim`` and with
``annotated_optim``.
"""

from __future__ import annotations

import importlib

import pytest
import torch
from claim import OPTIM_NAMESPACES, each_optim, proves


@proves(
    "annotated_src/annotated_optim/adagrad.py",
    "Adagrad",
    "with fused=True only the first parameter with a gradient is checked, except that a "
    "parameter added later is checked when step() creates its state",
)
@each_optim()
def test_fused_adagrad_checks_a_later_parameter(optim):
    p = torch.zeros(2, requires_grad=True)
    p.grad = torch.ones(2)
    q = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
    q.grad = torch.ones(2, dtype=torch.complex64)
    opt = optim.Adagrad([p], fused=True)
    opt.add_param_group({"params": [q]})
    with pytest.raises(RuntimeError, match="requires all the params to be floating point"):
        opt.step()


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer._process_value_according_to_param_policy",
    "a new non-fused, non-capturable step is made on the CPU by Adam/AdamW and on the default "
    "device (torch.set_default_device) by Adagrad and RMSprop",
)
@each_optim()
@pytest.mark.parametrize(
    "name, device", [("Adam", "cpu"), ("AdamW", "cpu"), ("Adagrad", "meta"), ("RMSprop", "meta")]
)
def test_where_a_new_step_is_made(optim, name, device):
    p = torch.zeros(2, requires_grad=True)
    p.grad = torch.ones(2)
    torch.set_default_device("meta")
    try:
        opt = getattr(optim, name)([p])
        if name != "Adagrad":  # Adagrad makes its state at construction
            opt.step()
    finally:
        torch.set_default_device(None)
    assert opt.state[p]["step"].device.type == device


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "_get_scalar_dtype",
    "fused steps are float32 by torch's choice; the CPU fused kernels accept a step of another "
    "dtype and give the same update with a float64 step",
)
@each_optim()
@pytest.mark.parametrize("name", ["Adam", "AdamW", "Adagrad", "SGD"])
def test_cpu_fused_kernels_take_a_float64_step(optim, name):
    def run(step_dtype):
        p = torch.nn.Parameter(torch.ones(3))
        p.grad = torch.full((3,), 0.5)
        kwargs = {"lr": 0.1, "momentum": 0.9} if name == "SGD" else {"lr": 0.1}
        opt = getattr(optim, name)([p], fused=True, **kwargs)
        opt.step()
        for state in opt.state.values():
            if "step" in state:
                assert state["step"].dtype == torch.float32
                state["step"] = state["step"].to(step_dtype)
        p.grad = torch.full((3,), 0.25)
        opt.step()
        return p.detach().clone()

    assert torch.equal(run(torch.float64), run(torch.float32))


@proves(
    "docs/chapters/optim/optimizer.md",
    "param_groups and state",
    "SGD stores momentum_buffer only with momentum (without it no state at all), Adam creates "
    "its state at a parameter's first step with a gradient, Adagrad at construction",
)
@each_optim()
def test_when_state_is_created(optim):
    def param():
        p = torch.nn.Parameter(torch.ones(2))
        p.grad = torch.ones(2)
        return p

    p, q = param(), param()
    q.grad = None
    plain = optim.SGD([p, q], lr=0.1)
    plain.step()
    assert len(plain.state) == 0 and plain.state_dict()["state"] == {}
    p, q = param(), param()
    q.grad = None
    heavy = optim.SGD([p, q], lr=0.1, momentum=0.9)
    heavy.step()
    assert list(heavy.state) == [p] and list(heavy.state[p]) == ["momentum_buffer"]
    p, q = param(), param()
    q.grad = None
    adam = optim.Adam([p, q])
    assert len(adam.state) == 0
    adam.step()
    assert list(adam.state) == [p]
    p, q = param(), param()
    q.grad = None
    adagrad = optim.Adagrad([p, q])
    assert set(adagrad.state) == {p, q} and set(adagrad.state[q]) == {"step", "sum"}


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "ChainedScheduler",
    "a child without optimizer raises TypeError, except the first one when optimizer is not "
    "given: that raises AttributeError",
)
@each_optim()
def test_chained_scheduler_child_without_optimizer(optim):
    opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    good = optim.lr_scheduler.StepLR(opt, 2)
    with pytest.raises(AttributeError, match="has no attribute 'optimizer'"):
        optim.lr_scheduler.ChainedScheduler([object(), good])
    with pytest.raises(TypeError, match="at index 0 should have `optimizer`"):
        optim.lr_scheduler.ChainedScheduler([object(), good], optimizer=opt)
    with pytest.raises(TypeError, match="at index 1 should have `optimizer`"):
        optim.lr_scheduler.ChainedScheduler([good, object()])


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LRScheduler.step",
    "an optimizer step taken before the scheduler was built does not count: the first "
    "scheduler.step() still warns that it came before optimizer.step()",
)
@each_optim()
def test_step_before_the_scheduler_existed_does_not_count(optim):
    p = torch.nn.Parameter(torch.zeros(2))
    p.grad = torch.ones(2)
    opt = optim.SGD([p], lr=0.1)
    opt.step()
    sched = optim.lr_scheduler.StepLR(opt, 2)
    with pytest.warns(UserWarning, match=r"Detected call of `lr_scheduler.step\(\)` before"):
        sched.step()


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "SWALR",
    "the annealing counts _step_count, not last_epoch: built with last_epoch=k it starts the "
    "annealing again; load_state_dict continues it",
)
@each_optim()
def test_swalr_annealing_ignores_last_epoch(optim):
    def lrs_after_building(last_epoch):
        opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
        opt.param_groups[0]["initial_lr"] = 0.1
        sched = optim.swa_utils.SWALR(
            opt, 0.05, anneal_epochs=4, anneal_strategy="linear", last_epoch=last_epoch
        )
        lrs = []
        for _ in range(3):
            opt.step()
            sched.step()
            lrs.append(round(opt.param_groups[0]["lr"], 6))
        return sched, opt, lrs

    fresh, _, fresh_lrs = lrs_after_building(-1)
    resumed, _, resumed_lrs = lrs_after_building(5)
    assert fresh_lrs == resumed_lrs == [0.0875, 0.075, 0.0625]
    assert resumed.last_epoch == fresh.last_epoch + 6
    # load_state_dict restores _step_count, and with it the annealing's progress
    opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.075)
    opt.param_groups[0]["initial_lr"] = 0.1
    sched = optim.swa_utils.SWALR(opt, 0.05, anneal_epochs=4, anneal_strategy="linear")
    first = optim.swa_utils.SWALR(
        optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1), 0.05, 4, "linear"
    )
    for _ in range(2):
        first.optimizer.step()
        first.step()
    sched.load_state_dict(first.state_dict())
    opt.step()
    sched.step()
    assert round(opt.param_groups[0]["lr"], 6) == 0.0625


@proves(
    "docs/chapters/optim/lr-scheduler-adaptive.md",
    "CyclicLR and OneCycleLR momentum",
    "an SGD with momentum=0 gets a momentum at construction: max_momentum on a fresh start, "
    "the schedule's momentum at k+1 when resuming with last_epoch=k",
)
@each_optim()
def test_cycling_schedulers_write_a_momentum(optim):
    fresh = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    optim.lr_scheduler.CyclicLR(fresh, 0.1, 1.0, step_size_up=4)
    assert fresh.param_groups[0]["momentum"] == 0.9
    resumed = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    resumed.param_groups[0]["initial_lr"] = 0.1
    optim.lr_scheduler.CyclicLR(resumed, 0.1, 1.0, step_size_up=4, last_epoch=2)
    # epoch 3 of a 4-step rise: 3/4 of the way from max_momentum 0.9 down to 0.8
    assert resumed.param_groups[0]["momentum"] == pytest.approx(0.825)
    one = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    optim.lr_scheduler.OneCycleLR(one, 1.0, total_steps=10)
    assert one.param_groups[0]["momentum"] == 0.95


@proves(
    "docs/chapters/optim/optimizer.md",
    "Three implementations",
    "RMSprop's update is written only twice: it has no fused implementation",
)
@each_optim()
def test_rmsprop_has_no_fused(optim):
    with pytest.raises(TypeError, match="unexpected keyword argument 'fused'"):
        optim.RMSprop([torch.zeros(1, requires_grad=True)], fused=True)
    functional = importlib.import_module(optim.__name__ + ".rmsprop").rmsprop
    with pytest.raises(TypeError, match="unexpected keyword argument 'fused'"):
        functional([], [], [], [], [], [], fused=True)


@pytest.mark.parametrize(
    "optim",
    [
        pytest.param(list(OPTIM_NAMESPACES.values())[0], id="torch.optim"),
        pytest.param(list(OPTIM_NAMESPACES.values())[1], id="annotated_optim"),
    ],
)
def test_state_dict_numbers_a_repeated_parameter_as_torch(optim):
    a, b, c = (torch.nn.Parameter(torch.ones(1)) for _ in range(3))
    with pytest.warns(UserWarning, match="duplicate parameters"):
        opt = optim.SGD([{"params": [a, a, b]}, {"params": [c]}], lr=0.1, momentum=0.9)
    for p in (a, b, c):
        p.grad = torch.ones(1)
    opt.step()
    sd = opt.state_dict()
    # torch numbers the repeated parameter by its LAST position within the group
    assert [g["params"] for g in sd["param_groups"]] == [[1, 1, 2], [3]]
    assert list(sd["state"]) == [1, 2, 3]
