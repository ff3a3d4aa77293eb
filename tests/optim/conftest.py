"""Shared set-up of the optimizer tests: import path and the cleanup of global optimizer hooks."""

import sys
from pathlib import Path

import pytest

# tests/helpers.py is imported as `helpers`, as in the tests one level up.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@pytest.fixture(autouse=True)
def _no_leaked_optimizer_hooks():
    """Every test ends with no global optimizer step hooks, in torch.optim and in ours."""
    yield
    import torch.optim.optimizer as torch_optimizer

    import annotated_optim.optimizer as our_optimizer

    for module in (torch_optimizer, our_optimizer):
        module._global_optimizer_pre_hooks.clear()
        module._global_optimizer_post_hooks.clear()
