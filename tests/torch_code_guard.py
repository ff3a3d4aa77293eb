"""The guard that proves no torch.nn.Module / torch.optim.Optimizer code runs for our objects.

While a test of the module-system and optimizer files (``GUARDED_FILES``) runs, every function of
``vars(torch.nn.Module)`` and ``vars(torch.optim.Optimizer)`` is replaced by a wrapper that records
and raises ``AssertionError`` when its first argument is one of our objects, and calls through for
torch's own objects (which the differential tests use). tests/conftest.py installs it around each
such test and fails the test if anything was recorded (also when the test swallowed the error).
tests/test_no_torch_module_code.py checks the guard itself.
"""

from __future__ import annotations

import functools
import inspect

import torch

import annotated_nn
import annotated_optim

GUARDED_FILES = frozenset(
    {
        "tests/test_module_api.py",
        "tests/test_module_apply.py",
        "tests/test_module_attributes.py",
        "tests/test_module_backward_hooks.py",
        "tests/test_module_hooks.py",
        "tests/test_module_repr_pickle.py",
        "tests/test_module_state_dict.py",
        "tests/test_module_stateful.py",
        "tests/test_module_tree.py",
        "tests/test_container.py",
        "tests/test_lazy.py",
        "tests/test_interop_tree.py",
        "tests/optim/test_optimizer_base.py",
        "tests/optim/test_sgd.py",
        "tests/optim/test_optim_api.py",
    }
)

# The classes whose functions are guarded, each with the base class of our objects.
PAIRS = ((torch.nn.Module, annotated_nn.Module), (torch.optim.Optimizer, annotated_optim.Optimizer))

ran: list[str] = []


def _guard(cls: type, ours: type, name: str, fn):
    """``fn`` that records and raises when called for one of ``ours``."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if args and isinstance(args[0], ours):
            ran.append(f"{cls.__name__}.{name} for {type(args[0]).__name__}")
            raise AssertionError(f"torch's {cls.__name__}.{name} ran for one of our objects")
        return fn(*args, **kwargs)

    return wrapper


def _replacements() -> list[tuple[type, str, object, object]]:
    """(class, name, original, guarded) for every function and staticmethod of the classes."""
    found = []
    for cls, ours in PAIRS:
        for name, value in list(vars(cls).items()):
            if inspect.isfunction(value):
                found.append((cls, name, value, _guard(cls, ours, name, value)))
            elif isinstance(value, staticmethod):
                guarded = staticmethod(_guard(cls, ours, name, value.__func__))
                found.append((cls, name, value, guarded))
    return found


REPLACEMENTS = _replacements()


def install() -> None:
    """Put the guarded functions on torch's classes."""
    for cls, name, _, guarded in REPLACEMENTS:
        setattr(cls, name, guarded)


def uninstall() -> None:
    """Put torch's own functions back."""
    for cls, name, original, _ in REPLACEMENTS:
        setattr(cls, name, original)
