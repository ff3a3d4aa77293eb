"""Claims corrected after the final independent review of issue 21, item 3 (seed 20261128; the
draw and its result are in the issue's note).

Each test runs on torch and on ours and asserts what the corrected sentence says.
"""

from __future__ import annotations

import importlib

import pytest
import torch
import torch.distributed as dist
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


@pytest.mark.skipif(not dist.is_available() or not dist.is_gloo_available(), reason="needs gloo")
@proves(
    "annotated_src/annotated_nn/parallel/distributed.py",
    "DistributedDataParallel.forward",
    "with every parameter delayed, an eager forward never reaches `module.forward`: it raises an "
    "AttributeError for `_lazy_init_ran` in `_pre_forward`",
)
@each_nn()
def test_all_delayed_ddp_fails_in_pre_forward(nn, one_process_group):
    model = nn.Sequential(nn.Linear(2, 1))
    delayed = list(model.named_parameters())
    # 中: 一个冻结的参数让设备检查有参数可看；需要梯度的参数全部延后。
    # EN: A frozen parameter gives the device check something to look at; every parameter that
    # EN: requires grad is delayed.
    model.frozen = nn.Parameter(torch.zeros(1), requires_grad=False)
    ddp = nn.parallel.DistributedDataParallel(
        model, delay_all_reduce_named_params=delayed, param_to_hook_all_reduce=delayed[0][1]
    )
    with pytest.raises(AttributeError, match="_lazy_init_ran"):
        ddp(torch.ones(3, 2))


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "_RequiredParameter.__repr__",
    "`<required parameter>` shows in repr(optimizer.defaults), never in the optimizer's own repr",
)
@each_optim()
def test_required_shows_in_defaults_not_in_the_optimizer_repr(optim):
    required = importlib.import_module(f"{optim.__name__}.optimizer").required

    class Plain(optim.Optimizer):
        def __init__(self, params, lr=required):
            super().__init__(params, {"lr": lr})

    # 中: 默认值保持 required，学习率由参数组自己给出。
    # EN: The default stays `required`; the group gives its own learning rate.
    opt = Plain([{"params": [torch.nn.Parameter(torch.zeros(1))], "lr": 0.5}])
    assert "<required parameter>" in repr(opt.defaults)
    assert "<required parameter>" not in repr(opt)


@proves(
    "annotated_src/annotated_optim/rmsprop.py",
    "RMSprop.__setstate__",
    "options missing from an old state_dict take fixed values (momentum 0, centered False), "
    "not the values the optimizer was built with",
)
@each_optim()
def test_rmsprop_old_state_dict_gets_fixed_defaults(optim):
    params = [torch.nn.Parameter(torch.zeros(2))]
    opt = optim.RMSprop(params, lr=0.1, momentum=0.9, centered=True)
    old = opt.state_dict()
    for group in old["param_groups"]:
        del group["momentum"], group["centered"]
    opt.load_state_dict(old)
    assert opt.param_groups[0]["momentum"] == 0
    assert opt.param_groups[0]["centered"] is False
