"""Every public name of torch.nn.utils (and its submodules) and torch.nn.modules exists in annotated_nn.

A name may be absent only if it is listed in ALLOWED_ABSENT below and a `DIFF(torch 2.13)` marker
block somewhere in annotated_src names it, so that the book's ledger of differences records why.
"""

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch.nn.modules
import torch.nn.utils

SOURCE_ROOT = Path(__file__).resolve().parents[1] / "annotated_src"

UTILS_SUBMODULES = [
    "parametrize",
    "parametrizations",
    "prune",
    "rnn",
    "stateless",
    "fusion",
    "memory_format",
    "clip_grad",
    "convert_parameters",
    "weight_norm",
    "spectral_norm",
]

# Deliberately absent names: torch path -> why. Each must be DIFF-marked in annotated_src.
ALLOWED_ABSENT = {}


def public_names(module):
    """A module's `__all__`, or else the public names it defines itself (not imported ones)."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__
    ]


def expected_names():
    """(torch path of the name, our module path, name) for every public name to mirror."""
    rows = [("torch.nn.utils", "annotated_nn.utils", n) for n in torch.nn.utils.__all__]
    for sub in UTILS_SUBMODULES:
        theirs = importlib.import_module(f"torch.nn.utils.{sub}")
        rows += [
            (f"torch.nn.utils.{sub}", f"annotated_nn.utils.{sub}", n) for n in public_names(theirs)
        ]
    for ours in ("annotated_nn.modules", "annotated_nn"):
        rows += [("torch.nn.modules", ours, n) for n in torch.nn.modules.__all__]
    return rows


def our_module(path):
    try:
        return importlib.import_module(path)
    except ImportError:
        return None


def diff_blocks():
    """The text of every `DIFF(torch 2.13)` marker block in annotated_src: the marker line and
    the comment lines that directly follow it."""
    blocks = []
    for file in sorted(SOURCE_ROOT.rglob("*.py")):
        lines = file.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            if "DIFF(torch 2.13)" not in line:
                continue
            block = [line]
            for following in lines[i + 1 :]:
                if not following.strip().startswith("#"):
                    break
                block.append(following)
            blocks.append((file.relative_to(SOURCE_ROOT), "\n".join(block)))
    return blocks


def find_missing():
    """Our paths of the missing names, package attributes checked before any submodule import.

    `import annotated_nn.utils.prune` also sets `annotated_nn.utils.prune`, so importing the
    submodules first would hide a name the package itself fails to provide; this runs in a fresh
    interpreter (see the test) for the same reason.
    """
    rows = [row for row in expected_names() if f"{row[0]}.{row[2]}" not in ALLOWED_ABSENT]
    rows.sort(key=lambda row: row[1].count("."))  # packages before their submodules
    missing_modules, missing_names = set(), []
    for _, our_path, name in rows:
        module = our_module(our_path)
        if module is None:
            missing_modules.add(our_path)
        elif not hasattr(module, name):
            missing_names.append(f"{our_path}.{name}")
    return [f"{path} (module cannot be imported)" for path in sorted(missing_modules)] + sorted(
        missing_names
    )


def test_every_public_name_exists_in_annotated_nn():
    code = "import json, test_public_names as t; print(json.dumps(t.find_missing()))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=Path(__file__).parent,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    assert not report, f"{len(report)} public names of torch.nn missing from annotated_nn:\n" + (
        "\n".join(f"  {line}" for line in report)
    )


@pytest.mark.parametrize("qualified", sorted(ALLOWED_ABSENT))
def test_allowed_absences_are_absent_and_diff_marked(qualified):
    torch_path, name = qualified.rsplit(".", 1)
    assert hasattr(importlib.import_module(torch_path), name), f"torch has no {qualified}"
    ours = [(t, o) for t, o, n in expected_names() if t == torch_path and n == name]
    present = [o for _, o in ours if hasattr(our_module(o), name)]
    assert not present, f"{name} now exists in {present}: remove it from ALLOWED_ABSENT"
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    marked = [str(file) for file, block in diff_blocks() if pattern.search(block)]
    assert marked, f"{name} is absent but no `DIFF(torch 2.13)` block in annotated_src names it"
