"""Proof that no torch.nn.Module / torch.optim.Optimizer code runs for our objects (issue 22).

annotated_nn.Module subclasses torch.nn.Module and annotated_optim.Optimizer subclasses
torch.optim.Optimizer, so that torch's isinstance checks accept them; every line that runs for
them must still be ours. Two checks:

1. Static: every name of torch's class body is defined again by ours, so attribute lookup on our
   classes never reaches torch's functions.
2. Dynamic: while each test of the module-system and optimizer files runs, every function of
   `vars(torch.nn.Module)` and `vars(torch.optim.Optimizer)` is a wrapper that records and raises
   when its first argument is one of our objects (and calls through for torch's own objects,
   which the differential tests use); the test fails if anything was recorded
   (tests/torch_code_guard.py, installed by tests/conftest.py). The tests below check the guard.

No torch function is exempted. (Our `_wrapped_call_impl` / `__getattr__` hand a call to
`torch.nn.Module.__call__` / `__getattr__` only while torch.fx traces, which the guarded files
do not do: fx calls torch's saved originals on purpose, see their DIFF notes.)
"""

import inspect
from pathlib import Path

import pytest
import torch

import annotated_nn
import annotated_optim
import torch_code_guard

ROOT = Path(__file__).resolve().parents[1]


def test_every_name_of_torchs_class_bodies_is_ours():
    for cls, ours in (
        (torch.nn.Module, annotated_nn.Module),
        (torch.optim.Optimizer, annotated_optim.Optimizer),
        (torch.utils.hooks.RemovableHandle, annotated_nn.utils.hooks.RemovableHandle),
    ):
        # descriptors Python creates, and the marker torch.compile sets on torch.nn.Module
        inherited = {"__dict__", "__weakref__", "___needs_generation_tag_patch"}
        if cls is torch.utils.hooks.RemovableHandle:
            inherited.add("next_id")  # the one shared id counter, read and written on torch's class
        for name, value in vars(cls).items():
            if name in inherited:
                continue
            assert name in vars(ours), f"{ours.__name__}.{name} is inherited from torch"
            if callable(value) and not isinstance(value, type):
                assert vars(ours)[name] is not value, name


def test_the_guard_covers_every_function_of_torchs_classes():
    expected = sum(
        inspect.isfunction(v) or isinstance(v, staticmethod)
        for cls in (torch.nn.Module, torch.optim.Optimizer)
        for v in vars(cls).values()
    )
    assert len(torch_code_guard.REPLACEMENTS) == expected > 90


def test_the_guarded_files_are_the_module_system_and_optimizer_tests():
    module_files = {
        p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").glob("test_module_*.py")
    }
    assert module_files <= torch_code_guard.GUARDED_FILES
    for path in torch_code_guard.GUARDED_FILES:
        assert (ROOT / path).is_file(), path


def test_the_guard_refuses_our_objects_and_lets_torchs_through():
    ours, theirs = annotated_nn.Linear(2, 2), torch.nn.Linear(2, 2)
    params = list(ours.parameters())
    torch_code_guard.ran.clear()
    torch_code_guard.install()
    try:
        assert set(torch.nn.Module.state_dict(theirs)) == {"weight", "bias"}
        with pytest.raises(AssertionError, match="torch's Module.state_dict ran"):
            torch.nn.Module.state_dict(ours)
        with pytest.raises(AssertionError, match="torch's Optimizer.zero_grad ran"):
            torch.optim.Optimizer.zero_grad(annotated_optim.SGD(params, lr=0.1))
        # 中: 我们自己的方法不经过 torch 的函数，所以守卫装着也照常工作。
        # EN: Our own methods never reach torch's functions, so they work with the guard on.
        assert set(ours.state_dict()) == {"weight", "bias"}
    finally:
        torch_code_guard.uninstall()
    assert torch_code_guard.ran == [
        "Module.state_dict for Linear",
        "Optimizer.zero_grad for SGD",
    ]
    torch_code_guard.ran.clear()
    for cls, name, original, _ in torch_code_guard.REPLACEMENTS:
        assert vars(cls)[name] is original, f"{cls.__name__}.{name} was not put back"
