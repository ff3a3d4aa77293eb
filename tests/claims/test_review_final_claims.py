"""Claims corrected after the final independent review of issue 21, item 3 (seed 20261128; the
draw and its result are in the issue's note).

Each test runs on torch and on ours and asserts what the corrected sentence says.
"""

from __future__ import annotations

import torch
import torch.nn.modules.module as torch_module
from claim import each_nn, each_optim, proves


@proves(
    "annotated_src/annotated_optim/swa_utils.py",
    "AveragedModel.__init__",
    "the copy is assigned as `self.module` twice when a device is given (before and after the "
    "move), so the global module registration hooks run twice, for an annotated_nn model and "
    "for a torch.nn model alike",
)
@each_nn()
@each_optim()
def test_averaged_model_assigns_its_copy_through_setattr(nn, optim):
    seen = []
    handle = torch_module.register_module_module_registration_hook(
        lambda module, name, child: seen.append((type(module).__name__, name))
    )
    try:
        averaged = optim.swa_utils.AveragedModel(nn.Linear(2, 2), device="cpu")
        plain = optim.swa_utils.AveragedModel(torch.nn.Linear(2, 2))
    finally:
        handle.remove()
    assert seen == [("AveragedModel", "module")] * 3
    assert list(averaged.state_dict()) == ["n_averaged", "module.weight", "module.bias"]
    assert "module" in plain._modules and "module" not in vars(plain)
