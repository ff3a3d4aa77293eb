"""The public surface of annotated_optim against torch.optim: names, signatures, module layout, interop."""

import importlib
import inspect

import pytest
import torch
import torch.nn as tnn
import torch.optim as toptim

import annotated_nn as ann
import annotated_optim as aoptim
from helpers import outcome

REWRITTEN = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad"]
SUBMODULES = [
    "optimizer",
    "sgd",
    "adam",
    "adamw",
    "rmsprop",
    "adagrad",
    "lr_scheduler",
    "swa_utils",
]


def test_all_is_torch_all_in_the_same_order():
    assert aoptim.__all__ == toptim.__all__
    for name in toptim.__all__:
        assert hasattr(aoptim, name), name


def test_the_rest_is_torch_own_and_ours_is_ours():
    for name in toptim.__all__:
        ours, theirs = getattr(aoptim, name), getattr(toptim, name)
        if name in REWRITTEN:
            assert ours is not theirs and ours.__module__.startswith("annotated_optim"), name
        elif name in ("lr_scheduler", "swa_utils"):
            assert ours.__name__ == f"annotated_optim.{name}"
        else:
            assert ours is theirs, name


@pytest.mark.parametrize("submodule", SUBMODULES)
def test_each_submodule_has_torch_all_and_signatures(submodule):
    ours = importlib.import_module(f"annotated_optim.{submodule}")
    theirs = importlib.import_module(f"torch.optim.{submodule}")
    assert ours.__all__ == theirs.__all__
    for name in theirs.__all__:
        ours_obj, theirs_obj = getattr(ours, name), getattr(theirs, name)
        if callable(theirs_obj):
            ours_params = list(inspect.signature(ours_obj).parameters.values())
            theirs_params = list(inspect.signature(theirs_obj).parameters.values())
            assert [(p.name, p.kind, repr(p.default)) for p in ours_params] == [
                (p.name, p.kind, repr(p.default)) for p in theirs_params
            ], name


def test_implementation_modules_are_not_package_attributes():
    for name in ("sgd", "adam", "adamw", "rmsprop", "adagrad", "optimizer"):
        assert hasattr(aoptim, name) == hasattr(toptim, name), name


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("SGD", dict(lr=0.1, momentum=0.9)),
        ("Adam", dict(lr=0.01, amsgrad=True)),
        ("AdamW", dict(lr=0.01)),
        ("RMSprop", dict(lr=0.01, momentum=0.5, centered=True)),
        ("Adagrad", dict(lr=0.1, lr_decay=0.01)),
    ],
)
def test_state_dicts_load_both_ways_and_continue_identically(name, kwargs):
    """A state_dict saved by either library loads into the other; training then agrees bit for bit."""

    def model_and_opt(optim, nn):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 2))
        return model, getattr(optim, name)(model.parameters(), **kwargs)

    def train(model, opt, steps, start):
        for step in range(start, start + steps):
            opt.zero_grad()
            x = torch.randn(5, 4, generator=torch.Generator().manual_seed(step))
            model(x).pow(2).mean().backward()
            opt.step()

    ref_model, ref_opt = model_and_opt(toptim, tnn)
    train(ref_model, ref_opt, 20, 0)
    for source, target in ((toptim, aoptim), (aoptim, toptim)):
        src_model, src_opt = model_and_opt(source, tnn if source is toptim else ann)
        train(src_model, src_opt, 10, 0)
        dst_model, dst_opt = model_and_opt(target, tnn if target is toptim else ann)
        dst_model.load_state_dict(src_model.state_dict())
        dst_opt.load_state_dict(src_opt.state_dict())
        train(dst_model, dst_opt, 10, 10)
        for p, q in zip(dst_model.parameters(), ref_model.parameters()):
            assert torch.equal(p, q), (source.__name__, target.__name__)


def test_schedulers_across_libraries():
    """Ours accept torch's optimizers; torch's accept ours (they subclass torch.optim.Optimizer
    since issue 22) and schedule them as torch's own."""
    w = torch.zeros(1, requires_grad=True)
    ours_on_torch = aoptim.lr_scheduler.StepLR(toptim.SGD([w], lr=1.0), step_size=1)
    assert ours_on_torch.get_last_lr() == [1.0]
    lrs = []
    for opt in (toptim.SGD([w], lr=1.0), aoptim.SGD([w], lr=1.0)):
        sched = toptim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
        opt.step()
        sched.step()
        lrs.append((sched.get_last_lr(), opt.param_groups[0]["lr"]))
    assert lrs[0] == lrs[1] == ([0.5], 0.5)
    for bad in (object(), tnn.Linear(1, 1)):
        assert outcome(lambda: aoptim.lr_scheduler.StepLR(bad, 1)) == outcome(
            lambda: toptim.lr_scheduler.StepLR(bad, 1)
        )


def test_torch_reexports_work_with_our_schedulers_and_annotated_models():
    model = ann.Linear(3, 1)
    opt = aoptim.NAdam(model.parameters(), lr=0.01)
    sched = aoptim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    model(torch.ones(2, 3)).sum().backward()
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] == 0.005
