r"""annotated_optim: torch.optim re-implemented and annotated. / 带中英双语注释的 torch.optim 重写。

The public paths mirror `torch.optim`: `import annotated_optim as optim` is meant to replace
`import torch.optim as optim`. Only the numerical kernels (tensor operations, `torch._foreach_*`
and `torch._fused_*`) come from torch; the optimizer base class, SGD, Adam, AdamW, RMSprop,
Adagrad, their state and hooks, the learning-rate schedulers and SWA are written here.

公开路径与 `torch.optim` 一一对应：把 `import torch.optim as optim` 换成
`import annotated_optim as optim` 即可。只有数值内核（张量运算、`torch._foreach_*` 与
`torch._fused_*`）来自 torch；优化器基类、SGD、Adam、AdamW、RMSprop、Adagrad、它们的状态与
钩子、学习率调度器和 SWA 都在这里实现。
"""

# DIFF(torch 2.13): the less common optimizers are torch's own, re-exported
# 中: 以下优化器没有重写，原样转出 torch 的类（`annotated_optim.Adadelta is torch.optim.Adadelta`），
#     这样 `import annotated_optim as optim` 之后 `optim.NAdam(...)` 等写法照常可用。它们是
#     torch.optim.Optimizer 的子类，可以优化 annotated_nn 模型的参数（参数只是张量），也能配合
#     我们的学习率调度器（调度器两种优化器都接受）。
# EN: These optimizers are not rewritten: torch's classes are re-exported as they are
#     (`annotated_optim.Adadelta is torch.optim.Adadelta`), so that after
#     `import annotated_optim as optim`, `optim.NAdam(...)` and the like still work. They are
#     torch.optim.Optimizer subclasses; they optimize annotated_nn models' parameters (parameters
#     are just tensors) and work with our learning-rate schedulers (which accept both kinds).
from torch.optim import (
    ASGD as ASGD,
)
from torch.optim import (
    LBFGS as LBFGS,
)
from torch.optim import (
    Adadelta as Adadelta,
)
from torch.optim import (
    Adafactor as Adafactor,
)
from torch.optim import (
    Adamax as Adamax,
)
from torch.optim import (
    Muon as Muon,
)
from torch.optim import (
    NAdam as NAdam,
)
from torch.optim import (
    RAdam as RAdam,
)
from torch.optim import (
    Rprop as Rprop,
)
from torch.optim import (
    SparseAdam as SparseAdam,
)
from torch.optim import (
    swap_in_optimizer_params_and_state as swap_in_optimizer_params_and_state,
)

from annotated_optim import lr_scheduler as lr_scheduler
from annotated_optim import swa_utils as swa_utils
from annotated_optim.adagrad import Adagrad as Adagrad
from annotated_optim.adam import Adam as Adam
from annotated_optim.adamw import AdamW as AdamW
from annotated_optim.optimizer import Optimizer as Optimizer
from annotated_optim.rmsprop import RMSprop as RMSprop
from annotated_optim.sgd import SGD as SGD

# 中: 与 torch.optim 相同：实现文件的模块名不留在包的命名空间里（`optim.sgd` 不存在，
#     `import annotated_optim.sgd` 仍然可以）；`lr_scheduler` 与 `swa_utils` 保留。
# EN: As in torch.optim, the implementation modules' names are not left in the package namespace
#     (`optim.sgd` does not exist; `import annotated_optim.sgd` still works); `lr_scheduler` and
#     `swa_utils` stay.
del adagrad  # noqa: F821
del adam  # noqa: F821
del adamw  # noqa: F821
del optimizer  # noqa: F821
del rmsprop  # noqa: F821
del sgd  # noqa: F821

# The same names in the same order as torch.optim.__all__.
__all__ = [
    "Adafactor",
    "Adadelta",
    "Adagrad",
    "Adam",
    "Adamax",
    "AdamW",
    "ASGD",
    "LBFGS",
    "lr_scheduler",
    "Muon",
    "NAdam",
    "Optimizer",
    "RAdam",
    "RMSprop",
    "Rprop",
    "SGD",
    "SparseAdam",
    "swap_in_optimizer_params_and_state",
    "swa_utils",
]
