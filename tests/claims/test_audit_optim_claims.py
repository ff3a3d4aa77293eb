"""Claims checked by the audit of annotated_optim (issue 21): schedulers when resuming, what
`load_state_dict` restores, when a closed form is used, what `update_bn` puts back; on both
libraries."""

from __future__ import annotations

import copy
import math
import warnings

import pytest
import torch
import torch.nn as tnn
import torch.optim as torch_optim
from claim import each_optim, proves

import annotated_nn as ann
import annotated_optim

# The module library that goes with each optimizer library.
NN_OF = {torch_optim: tnn, annotated_optim: ann}


def sgd(optim, lr=0.1, momentum=0.9):
    """A one-parameter SGD."""
    return optim.SGD([torch.zeros(1, requires_grad=True)], lr=lr, momentum=momentum)


def lr_of(opt):
    return opt.param_groups[0]["lr"]


# One constructor per step-count scheduler, with and without `last_epoch`.
SCHEDULERS = {
    "LambdaLR": lambda L, o, **k: L.LambdaLR(o, lambda e: 0.9**e, **k),
    "MultiplicativeLR": lambda L, o, **k: L.MultiplicativeLR(o, lambda e: 0.9, **k),
    "StepLR": lambda L, o, **k: L.StepLR(o, 3, 0.5, **k),
    "MultiStepLR": lambda L, o, **k: L.MultiStepLR(o, [2, 4, 5], 0.5, **k),
    "ConstantLR": lambda L, o, **k: L.ConstantLR(o, 0.5, 4, **k),
    "LinearLR": lambda L, o, **k: L.LinearLR(o, 0.25, 1.0, 4, **k),
    "ExponentialLR": lambda L, o, **k: L.ExponentialLR(o, 0.9, **k),
    "PolynomialLR": lambda L, o, **k: L.PolynomialLR(o, 6, 2.0, **k),
    "CosineAnnealingLR": lambda L, o, **k: L.CosineAnnealingLR(o, 5, 0.01, **k),
    "CyclicLR": lambda L, o, **k: L.CyclicLR(o, 0.01, 0.1, 2, **k),
    "CosineAnnealingWarmRestarts": lambda L, o, **k: L.CosineAnnealingWarmRestarts(o, 3, **k),
    "OneCycleLR": lambda L, o, **k: L.OneCycleLR(o, 0.1, total_steps=12, **k),
}


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LRScheduler",
    "resuming: build the scheduler, load the optimizer, load the scheduler: the schedule "
    "continues exactly",
)
@each_optim()
@pytest.mark.parametrize("name", list(SCHEDULERS))
def test_scheduler_first_then_both_state_dicts_resume_exactly(optim, name):
    make = SCHEDULERS[name]
    opt = sgd(optim)
    sched = make(optim.lr_scheduler, opt)
    for _ in range(3):
        opt.step()
        sched.step()
    saved_opt, saved_sched = copy.deepcopy(opt.state_dict()), copy.deepcopy(sched.state_dict())
    uninterrupted = []
    for _ in range(4):
        opt.step()
        sched.step()
        uninterrupted.append(lr_of(opt))

    resumed_opt = sgd(optim)
    resumed = make(optim.lr_scheduler, resumed_opt)
    resumed_opt.load_state_dict(saved_opt)
    resumed.load_state_dict(saved_sched)
    continued = []
    for _ in range(4):
        resumed_opt.step()
        resumed.step()
        continued.append(lr_of(resumed_opt))
    assert continued == uninterrupted


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LRScheduler.load_state_dict",
    "the learning rates in the param groups are not touched",
)
@each_optim()
def test_scheduler_load_state_dict_leaves_lr_alone(optim):
    opt = sgd(optim)
    sched = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    for _ in range(3):
        opt.step()
        sched.step()
    saved = sched.state_dict()
    fresh_opt = sgd(optim)
    fresh = optim.lr_scheduler.ExponentialLR(fresh_opt, gamma=0.5)
    fresh.load_state_dict(saved)
    assert lr_of(fresh_opt) == 0.1 and fresh.last_epoch == 3
    # the chainable form then goes on from the group's (unloaded) rate
    fresh_opt.step()
    fresh.step()
    assert lr_of(fresh_opt) == 0.05


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LRScheduler._initial_step",
    "with last_epoch=k the step of construction moves last_epoch to k+1; the schedulers that "
    "check _is_initial leave the loaded rate alone",
)
@each_optim()
@pytest.mark.parametrize(
    "name", ["MultiplicativeLR", "ExponentialLR", "PolynomialLR", "CosineAnnealingLR", "LinearLR"]
)
def test_resume_with_last_epoch_keeps_the_rate_for_initial_mode_schedulers(optim, name):
    opt = sgd(optim)
    opt.param_groups[0]["initial_lr"] = 0.5
    sched = SCHEDULERS[name](optim.lr_scheduler, opt, last_epoch=2)
    assert sched.last_epoch == 3
    assert lr_of(opt) == 0.1
    assert sched.base_lrs == [0.5]


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "StepLR.get_lr",
    "resuming with last_epoch=k: if k+1 is a multiple of step_size the rate is multiplied by "
    "gamma right at construction",
)
@each_optim()
def test_steplr_resume_multiplies_at_construction(optim):
    opt = sgd(optim, lr=1.0)
    opt.param_groups[0]["initial_lr"] = 1.0
    optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5, last_epoch=2)
    assert lr_of(opt) == 0.5
    other = sgd(optim, lr=1.0)
    other.param_groups[0]["initial_lr"] = 1.0
    optim.lr_scheduler.StepLR(other, step_size=3, gamma=0.5, last_epoch=3)
    assert lr_of(other) == 1.0


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LinearLR.get_lr",
    "a fresh construction applies start_factor; the step of construction when resuming leaves "
    "the rate alone",
)
@each_optim()
def test_linearlr_fresh_applies_factor_resume_does_not(optim):
    fresh = sgd(optim, lr=1.0)
    optim.lr_scheduler.LinearLR(fresh, start_factor=0.25, total_iters=4)
    assert lr_of(fresh) == 0.25
    resumed = sgd(optim, lr=0.5)
    resumed.param_groups[0]["initial_lr"] = 1.0
    optim.lr_scheduler.LinearLR(resumed, start_factor=0.25, total_iters=4, last_epoch=1)
    assert lr_of(resumed) == 0.5


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LRScheduler",
    "resuming (last_epoch != -1) with a group lacking initial_lr raises KeyError",
)
@each_optim()
def test_resume_without_initial_lr_raises(optim):
    with pytest.raises(KeyError, match="initial_lr"):
        optim.lr_scheduler.StepLR(sgd(optim), step_size=2, last_epoch=4)


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LRScheduler.__init__",
    "a second scheduler on the same optimizer sees the initial_lr the first one recorded",
)
@each_optim()
def test_initial_lr_is_set_once(optim):
    opt = sgd(optim, lr=1.0)
    optim.lr_scheduler.LinearLR(opt, start_factor=0.5, total_iters=2)
    assert lr_of(opt) == 0.5
    second = optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
    assert second.base_lrs == [1.0] and opt.param_groups[0]["initial_lr"] == 1.0


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "ExponentialLR._get_closed_form_lr",
    "the closed form is used by step(epoch) and when SequentialLR hands over at a milestone",
)
@each_optim()
def test_closed_form_used_at_sequential_milestone_without_warning(optim):
    opt = sgd(optim, lr=1.0)
    warmup = optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
    decay = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    calls = []
    closed_form = decay._get_closed_form_lr

    def recording():
        calls.append(decay.last_epoch)
        return closed_form()

    decay._get_closed_form_lr = recording
    sched = optim.lr_scheduler.SequentialLR(opt, [warmup, decay], milestones=[2])
    rates, counts = [], []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(4):
            opt.step()
            sched.step()
            rates.append(lr_of(opt))
            counts.append(decay._step_count)
    assert calls == [0]  # once, at the milestone, with last_epoch set to 0
    assert rates == [0.5, 1.0, 0.5, 0.25]
    assert counts == [1, 1, 2, 3]  # the hand-over does not count as a step()
    assert caught == []
    # and step(epoch) uses it too, with the deprecation warning
    with pytest.warns(UserWarning, match="epoch parameter"):
        decay.step(5)
    assert calls == [0, 5] and lr_of(opt) == 1.0 * 0.5**5


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "CosineAnnealingLR.get_lr",
    "the closed-form branch (_step_count == 1) is reached only by a direct get_lr() after "
    "resuming, which warns",
)
@each_optim()
def test_cosine_second_branch_only_by_direct_call(optim):
    opt = sgd(optim, lr=0.3)
    opt.param_groups[0]["initial_lr"] = 1.0
    sched = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4, last_epoch=1)
    assert sched._step_count == 1 and sched.last_epoch == 2 and lr_of(opt) == 0.3
    with pytest.warns(UserWarning, match="get_last_lr"):
        direct = sched.get_lr()
    # the closed form at epoch 2 from base_lr 1.0 (cos(pi/2) = 0), not derived from the rate 0.3
    assert direct == pytest.approx([0.5]) and sched.base_lrs == [1.0]
    opt.step()
    sched.step()  # a real step goes through the ratio form from the current rate
    assert sched._step_count == 2 and sched.last_epoch == 3


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "CosineAnnealingWarmRestarts.step",
    "it replaces the base step entirely: _step_count is never updated",
)
@each_optim()
def test_warm_restarts_never_counts_steps(optim):
    opt = sgd(optim)
    sched = optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(3):
            sched.step()  # before any optimizer step: no order warning either
    assert sched._step_count == 0


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "ReduceLROnPlateau",
    "no initial_lr, no base_lrs, optimizer.step not wrapped, no step on construction",
)
@each_optim()
def test_plateau_takes_no_step_on_construction(optim):
    opt = sgd(optim)
    sched = optim.lr_scheduler.ReduceLROnPlateau(opt)
    assert "initial_lr" not in opt.param_groups[0]
    assert not hasattr(sched, "base_lrs") and not hasattr(sched, "_step_count")
    assert not hasattr(opt.step, "_wrapped_by_lr_sched")
    assert sched.last_epoch == 0 and sched.get_last_lr() == [0.1]


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "CyclicLR.__init__",
    "a group that already had initial_lr gets that value at the first step, not base_lr",
)
@each_optim()
def test_cycliclr_first_step_uses_existing_initial_lr(optim):
    opt = sgd(optim, lr=0.5)
    opt.param_groups[0]["initial_lr"] = 0.3
    sched = optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=2)
    assert lr_of(opt) == 0.3 and sched.base_lrs == [0.01]
    opt.step()
    sched.step()
    assert lr_of(opt) == pytest.approx(0.055)


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "CyclicLR.load_state_dict",
    "_scale_fn_custom is popped from the caller's dict",
)
@each_optim()
def test_cycliclr_load_pops_the_callers_key(optim):
    opt = sgd(optim)
    saved = optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, 2).state_dict()
    assert "_scale_fn_custom" in saved
    optim.lr_scheduler.CyclicLR(sgd(optim), 0.01, 0.1, 2).load_state_dict(saved)
    assert "_scale_fn_custom" not in saved
    with pytest.raises(KeyError):
        optim.lr_scheduler.CyclicLR(sgd(optim), 0.01, 0.1, 2).load_state_dict(saved)


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "_load_state_dict_with_lambdas",
    "the caller's dict keeps its contents, with lr_lambdas moved to the end",
)
@each_optim()
def test_lambda_load_keeps_callers_dict(optim):
    opt = sgd(optim)
    saved = optim.lr_scheduler.LambdaLR(opt, lambda e: 1.0).state_dict()
    saved = {"lr_lambdas": saved.pop("lr_lambdas"), **saved}
    before = dict(saved)
    optim.lr_scheduler.LambdaLR(sgd(optim), lambda e: 1.0).load_state_dict(saved)
    assert saved == before and list(saved)[-1] == "lr_lambdas"


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "OneCycleLR",
    "step total_steps itself is accepted; one more step() raises",
)
@each_optim()
def test_onecycle_step_limit(optim):
    opt = sgd(optim)
    sched = optim.lr_scheduler.OneCycleLR(opt, max_lr=1.0, total_steps=3)
    for _ in range(3):
        opt.step()
        sched.step()
    assert sched.last_epoch == 3
    with pytest.raises(ValueError, match="Tried to step 4 times"):
        sched.step()


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "_watch_optimizer_step",
    "the mark is set before the real step: a step that raises still counts as called",
)
@each_optim()
def test_raising_step_counts_as_called(optim):
    opt = sgd(optim)
    sched = optim.lr_scheduler.StepLR(opt, step_size=1)

    def failing_closure():
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        opt.step(failing_closure)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sched.step()  # no "lr_scheduler.step() before optimizer.step()" warning


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LRScheduler.get_last_lr",
    "the same list object each call; tensor rates are copies sharing no storage",
)
@each_optim()
def test_get_last_lr_same_list_tensor_copies(optim):
    opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=torch.tensor(0.1))
    sched = optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
    assert sched.get_last_lr() is sched.get_last_lr()
    last = sched.get_last_lr()[0]
    assert isinstance(last, torch.Tensor)
    assert last.data_ptr() != lr_of(opt).data_ptr()
    last.fill_(7.0)
    assert lr_of(opt).item() == pytest.approx(0.1)


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "update_bn",
    "momenta restored; model.train(was_training) sets every submodule to the top module's mode",
)
@each_optim()
def test_update_bn_restores_momentum_and_top_mode(optim):
    nn = NN_OF[optim]
    model = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2, momentum=0.3))
    model.train()
    model[1].eval()  # a BatchNorm put in eval() during training
    data = [torch.randn(4, 2, generator=torch.Generator().manual_seed(i)) for i in range(3)]
    optim.swa_utils.update_bn(data, model)
    assert model[1].momentum == 0.3
    assert model.training and model[1].training  # not back to eval()
    # the statistics are the equal-weight average over the batches (momentum None meanwhile)
    with torch.no_grad():
        means = [model[0](x).mean(0) for x in data]
    assert torch.allclose(model[1].running_mean, torch.stack(means).mean(0), atol=1e-6)
    assert model[1].num_batches_tracked.item() == 3


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "update_bn",
    "with no BatchNorm it returns at once, the training mode untouched",
)
@each_optim()
def test_update_bn_without_batchnorm_touches_nothing(optim):
    nn = NN_OF[optim]
    model = nn.Sequential(nn.Linear(2, 2))
    model.eval()
    seen = []
    model.register_forward_hook(lambda *args: seen.append(1))
    optim.swa_utils.update_bn([torch.randn(3, 2)], model)
    assert not model.training and seen == []


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "update_bn",
    "only the first item of a list/tuple batch is passed; runs under torch.no_grad()",
)
@each_optim()
def test_update_bn_first_item_no_grad(optim):
    nn = NN_OF[optim]
    model = nn.Sequential(nn.BatchNorm1d(2))
    seen = []
    model.register_forward_hook(lambda m, args, out: seen.append((args, torch.is_grad_enabled())))
    x, y = torch.randn(4, 2), torch.randn(4)
    optim.swa_utils.update_bn([(x, y)], model)
    assert len(seen) == 1 and seen[0][0][0] is x and len(seen[0][0]) == 1
    assert seen[0][1] is False


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "AveragedModel.update_parameters",
    "the first call copies; buffers are copied at every call when use_buffers=False",
)
@each_optim()
def test_averaged_model_first_copy_then_average_buffers_copied(optim):
    nn = NN_OF[optim]
    model = nn.BatchNorm1d(1)
    swa = optim.swa_utils.AveragedModel(model)
    with torch.no_grad():
        model.weight.fill_(4.0)
        model.running_mean.fill_(10.0)
    swa.update_parameters(model)
    assert swa.module.weight.item() == 4.0 and swa.n_averaged.item() == 1
    with torch.no_grad():
        model.weight.fill_(8.0)
        model.running_mean.fill_(20.0)
    swa.update_parameters(model)
    assert swa.module.weight.item() == 6.0
    assert swa.module.running_mean.item() == 20.0  # copied, not averaged


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "AveragedModel.update_parameters",
    "use_buffers=True averages the buffers with the parameters",
)
@each_optim()
def test_averaged_model_use_buffers_averages(optim):
    nn = NN_OF[optim]
    model = nn.BatchNorm1d(1)
    ema = optim.swa_utils.AveragedModel(
        model, multi_avg_fn=optim.swa_utils.get_ema_multi_avg_fn(0.5), use_buffers=True
    )
    with torch.no_grad():
        model.running_mean.fill_(2.0)
    ema.update_parameters(model)
    with torch.no_grad():
        model.running_mean.fill_(6.0)
    ema.update_parameters(model)
    assert ema.module.running_mean.item() == 4.0


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "SWALR",
    "the step at construction is t = 0 (rate unchanged); anneal_epochs=0 reaches swa_lr there",
)
@each_optim()
def test_swalr_construction_step(optim):
    opt = sgd(optim, lr=1.0)
    sched = optim.swa_utils.SWALR(opt, swa_lr=0.5, anneal_epochs=2, anneal_strategy="linear")
    assert lr_of(opt) == 1.0 and opt.param_groups[0]["swa_lr"] == 0.5
    opt.step()
    sched.step()
    assert lr_of(opt) == 0.75
    instant = sgd(optim, lr=1.0)
    optim.swa_utils.SWALR(instant, swa_lr=0.5, anneal_epochs=0)
    assert lr_of(instant) == 0.5


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer.load_state_dict",
    "a state tensor already on the right device and dtype is not copied but shared",
)
@each_optim()
def test_load_state_dict_shares_fitting_tensors(optim):
    w = torch.zeros(2, requires_grad=True)
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    w.grad = torch.ones(2)
    opt.step()
    saved = opt.state_dict()
    other = optim.SGD([w], lr=0.1, momentum=0.9)
    other.load_state_dict(saved)
    assert other.state[w]["momentum_buffer"] is saved["state"][0]["momentum_buffer"]
    other.step()  # so stepping changes the saved dict's tensor too
    assert saved["state"][0]["momentum_buffer"].tolist() == pytest.approx([1.9, 1.9])
    # a float16 parameter gets a converted copy instead
    h = torch.zeros(2, dtype=torch.float16, requires_grad=True)
    half = optim.SGD([h], lr=0.1, momentum=0.9)
    half.load_state_dict(saved)
    assert half.state[h]["momentum_buffer"].dtype == torch.float16


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer.load_state_dict",
    "the saved group's options replace the current ones; current params kept; param_names "
    "kept only when the saved group has none",
)
@each_optim()
def test_load_state_dict_group_options_and_names(optim):
    a = torch.zeros(1, requires_grad=True)
    saved = optim.SGD([a], lr=0.5, momentum=0.1).state_dict()
    b = torch.zeros(1, requires_grad=True)
    opt = optim.SGD([("b", b)], lr=0.1)
    opt.load_state_dict(saved)
    group = opt.param_groups[0]
    assert group["lr"] == 0.5 and group["momentum"] == 0.1
    assert group["params"][0] is b and group["param_names"] == ["b"]


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer.zero_grad",
    "set_to_none=False zeroes in place and turns requires_grad off; True drops .grad",
)
@each_optim()
def test_zero_grad_modes(optim):
    w = torch.zeros(2, requires_grad=True)
    opt = optim.SGD([w], lr=0.1)
    w.grad = torch.ones(2).requires_grad_()
    grad = w.grad
    opt.zero_grad(set_to_none=False)
    assert w.grad is grad and w.grad.tolist() == [0.0, 0.0] and not w.grad.requires_grad
    opt.zero_grad()
    assert w.grad is None


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "_load_state_dict_with_children",
    "top level kept, but a CyclicLR child pops _scale_fn_custom: a second load raises KeyError",
)
@each_optim()
def test_composite_with_cyclic_child_cannot_load_twice(optim):
    def build():
        opt = sgd(optim)
        return optim.lr_scheduler.ChainedScheduler(
            [
                optim.lr_scheduler.CyclicLR(opt, 0.01, 0.1, 2),
                optim.lr_scheduler.ExponentialLR(opt, 0.9),
            ]
        )

    saved = build().state_dict()
    top_level = set(saved)
    build().load_state_dict(saved)
    assert set(saved) == top_level and list(saved)[-1] == "_schedulers"
    assert "_scale_fn_custom" not in saved["_schedulers"][0]
    with pytest.raises(KeyError, match="_scale_fn_custom"):
        build().load_state_dict(saved)


def warm_restarts_position(optim, t_mult, last_epoch):
    """(T_cur, T_i, lr) of a CosineAnnealingWarmRestarts built with `last_epoch`, and the same
    after `last_epoch + 1` uninterrupted steps."""
    opt = sgd(optim, lr=1.0)
    opt.param_groups[0]["initial_lr"] = 1.0
    resumed = optim.lr_scheduler.CosineAnnealingWarmRestarts(
        opt, T_0=3, T_mult=t_mult, last_epoch=last_epoch
    )
    other = sgd(optim, lr=1.0)
    straight = optim.lr_scheduler.CosineAnnealingWarmRestarts(other, T_0=3, T_mult=t_mult)
    for _ in range(last_epoch + 1):
        other.step()
        straight.step()
    return resumed, opt, (straight.T_cur, straight.T_i, lr_of(other))


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "CosineAnnealingWarmRestarts.__init__",
    "resuming lands on epoch k+1 only if T_mult == 1 or k + 1 < 2 * T_0; step(k + 1) fixes it",
)
@each_optim()
def test_warm_restarts_resume_position(optim):
    for t_mult, k in ((1, 7), (2, 3)):
        resumed, opt, expected = warm_restarts_position(optim, t_mult, k)
        assert (resumed.T_cur, resumed.T_i, lr_of(opt)) == expected
    resumed, opt, expected = warm_restarts_position(optim, 2, 7)
    assert (resumed.T_cur, resumed.T_i) == (2, 6) and expected[:2] == (5, 6)
    resumed.step(8)
    assert (resumed.T_cur, resumed.T_i, lr_of(opt)) == expected


@proves(
    "annotated_src/annotated_optim/sgd.py",
    "_fused_sgd",
    "a parameter whose first gradient comes after the first step makes the fused kernel raise",
)
@each_optim()
def test_fused_sgd_late_first_gradient_raises(optim):
    early, late = torch.zeros(2, requires_grad=True), torch.zeros(2, requires_grad=True)
    opt = optim.SGD([early, late], lr=0.1, momentum=0.9, fused=True)
    early.grad = torch.ones(2)
    opt.step()
    assert list(opt.state[early]) == ["momentum_buffer"] and late not in opt.state
    late.grad = torch.ones(2)
    with pytest.raises(TypeError, match="NoneType"):
        opt.step()
    # the single-tensor implementation simply starts the late buffer
    single = optim.SGD([early, late], lr=0.1, momentum=0.9, foreach=False)
    late.grad = None
    single.step()
    late.grad = torch.ones(2)
    single.step()
    assert single.state[late]["momentum_buffer"].tolist() == [1.0, 1.0]


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer.state_dict",
    "the state tensors are not copied: a later step changes the dict already taken",
)
@each_optim()
def test_state_dict_holds_the_live_state_tensors(optim):
    w = torch.zeros(2, requires_grad=True)
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    w.grad = torch.ones(2)
    opt.step()
    saved = opt.state_dict()
    assert saved["state"][0]["momentum_buffer"] is opt.state[w]["momentum_buffer"]
    assert saved["param_groups"][0] is not opt.param_groups[0]
    opt.step()
    assert saved["state"][0]["momentum_buffer"].tolist() == pytest.approx([1.9, 1.9])


@proves(
    "annotated_src/annotated_optim/lr_scheduler.py",
    "LRScheduler.state_dict",
    "a new dict whose values are not copied",
)
@each_optim()
def test_scheduler_state_dict_values_not_copied(optim):
    sched = optim.lr_scheduler.StepLR(sgd(optim), step_size=1)
    saved = sched.state_dict()
    assert saved is not sched.__dict__ and "optimizer" not in saved
    assert saved["base_lrs"] is sched.base_lrs and saved["_last_lr"] is sched._last_lr


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "SWALR",
    "the state_dict holds _anneal_strategy, not anneal_func; loading picks the function again",
)
@each_optim()
def test_swalr_state_dict_restores_the_strategy(optim):
    saved = optim.swa_utils.SWALR(sgd(optim), swa_lr=0.05, anneal_strategy="cos").state_dict()
    assert "anneal_func" not in saved and "optimizer" not in saved
    assert saved["_anneal_strategy"] == "cos"
    other = optim.swa_utils.SWALR(sgd(optim), swa_lr=0.05, anneal_strategy="linear")
    other.load_state_dict(saved)
    assert other._anneal_strategy == "cos" and other.anneal_func(0.5) == pytest.approx(0.5)
    assert other.anneal_func(0.25) == pytest.approx((1 - math.cos(math.pi * 0.25)) / 2)
