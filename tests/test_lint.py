"""The tree is ruff-clean (lint and format), as the pre-commit hooks require."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    result = subprocess.run(
        [sys.executable, "-m", "ruff", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
