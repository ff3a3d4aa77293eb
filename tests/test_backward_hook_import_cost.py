"""A module with full backward hooks imports no more on its first call with annotated_nn than with torch.nn.

`BackwardHook._apply_on_tensors` keeps dynamo out only while compiling (see its DIFF note in
annotated_nn/utils/hooks.py): `torch._disable_dynamo` imports `torch._dynamo` on its first call,
several seconds that torch.nn's eager path never spends. Each scenario runs in a fresh interpreter,
since a test process has usually imported dynamo already.
"""

import json
import subprocess
import sys

import pytest

# Builds the module and its input, then records which modules the first forward + backward
# imports. `register` is the hook method; the hook replaces nothing.
SCENARIO = """
import json, sys, torch
import {lib} as nn

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
getattr(model[0], {register!r})(lambda *args: None)
x = torch.randn(5, 3, requires_grad=True)
before = set(sys.modules)
model(x).sum().backward()
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def imported_by_first_call(lib: str, register: str) -> list[str]:
    """The modules imported by the first forward + backward, in a fresh interpreter."""
    done = subprocess.run(
        [sys.executable, "-c", SCENARIO.format(lib=lib, register=register)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    "register", ["register_full_backward_hook", "register_full_backward_pre_hook"]
)
def test_first_hooked_call_imports_no_more_than_torch(register):
    ours = imported_by_first_call("annotated_nn", register)
    theirs = imported_by_first_call("torch.nn", register)
    assert "torch._dynamo" not in theirs
    assert "torch._dynamo" not in ours
    assert set(ours) <= set(theirs), sorted(set(ours) - set(theirs))
