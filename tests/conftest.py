"""Shared pytest configuration: hypothesis profiles and the cleanup of global hooks."""

import os

import pytest
import torch
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def _no_leaked_global_state():
    """Every test starts and ends with no global module hooks and default __future__ flags."""
    yield
    import torch.nn.modules.module as tm

    import annotated_nn.modules.module as am

    for mod in (tm, am):
        for name in dir(mod):
            if name.startswith("_global_") and isinstance(getattr(mod, name), dict):
                getattr(mod, name).clear()
        mod._global_is_full_backward_hook = None
    torch.__future__.set_overwrite_module_params_on_conversion(False)
    torch.__future__.set_swap_module_params_on_conversion(False)
