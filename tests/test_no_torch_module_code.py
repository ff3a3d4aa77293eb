"""Proof that no torch.nn.Module / torch.optim.Optimizer code runs for our objects (issue 22).

annotated_nn.Module subclasses torch.nn.Module and annotated_optim.Optimizer subclasses
torch.optim.Optimizer, so that torch's isinstance checks accept them; every line that runs for
them must still be ours. Two checks:

1. Static: every name of torch's class body is defined again by ours, so attribute lookup on our
   classes never reaches torch's functions.
2. Dynamic: a subprocess replaces every function of `vars(torch.nn.Module)` and
   `vars(torch.optim.Optimizer)` by a wrapper that records and raises when its first argument is
   one of our objects (and calls through for torch's own objects, which the differential tests
   use), then runs the module-system and optimizer test files. Nothing may be recorded.

No torch function is exempted. (Our `_wrapped_call_impl` / `__getattr__` hand a call to
`torch.nn.Module.__call__` / `__getattr__` only while torch.fx traces, which these test files do
not do: fx calls torch's saved originals on purpose, see their DIFF notes.)
"""

import inspect
import os
import subprocess
import sys
from pathlib import Path

import torch

import annotated_nn
import annotated_optim

ROOT = Path(__file__).resolve().parents[1]

FILES = [
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_module_*.py")),
    "tests/test_container.py",
    "tests/test_lazy.py",
    "tests/test_interop_tree.py",
    "tests/optim/test_optimizer_base.py",
    "tests/optim/test_sgd.py",
    "tests/optim/test_optim_api.py",
]

BOOT = r"""
import functools, inspect, sys
import pytest, torch
import annotated_nn, annotated_optim

ran = []

def guard(cls, ours, name, fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if args and isinstance(args[0], ours):
            ran.append(f"{cls.__name__}.{name} for {type(args[0]).__name__}")
            raise AssertionError(f"torch's {cls.__name__}.{name} ran for one of our objects")
        return fn(*args, **kwargs)
    return wrapper

wrapped = 0
for cls, ours in (
    (torch.nn.Module, annotated_nn.Module),
    (torch.optim.Optimizer, annotated_optim.Optimizer),
):
    for name, value in list(vars(cls).items()):
        if inspect.isfunction(value):
            setattr(cls, name, guard(cls, ours, name, value))
            wrapped += 1
        elif isinstance(value, staticmethod):
            setattr(cls, name, staticmethod(guard(cls, ours, name, value.__func__)))
            wrapped += 1


code = pytest.main(sys.argv[1:])
print(f"WRAPPED {wrapped}")
print(f"TORCH CODE RAN FOR OURS: {ran}")
sys.exit(int(code) or (1 if ran else 0))
"""


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


def test_no_torch_module_or_optimizer_function_runs_for_our_objects():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "annotated_src"), str(ROOT), str(ROOT / "tests"), env.get("PYTHONPATH", "")]
    )
    proc = subprocess.run(
        [sys.executable, "-c", BOOT, *FILES, "-q", "-p", "no:cacheprovider", "-x", "--tb=short"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )
    tail = proc.stdout[-4000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    assert "TORCH CODE RAN FOR OURS: []" in proc.stdout, tail
    wrapped = int(proc.stdout.split("WRAPPED ")[1].split()[0])
    expected = sum(
        inspect.isfunction(v) or isinstance(v, staticmethod)
        for cls in (torch.nn.Module, torch.optim.Optimizer)
        for v in vars(cls).values()
    )
    assert wrapped == expected > 90, tail
