r"""annotated_optim: torch.optim re-implemented and annotated. / 带中英双语注释的 torch.optim 重写。

The public paths mirror `torch.optim`: `import annotated_optim as optim` is meant to replace
`import torch.optim as optim`. Only the numerical kernels (tensor operations, `torch._foreach_*`
and `torch._fused_*`) come from torch; the optimizers, their state and hooks, the learning-rate
schedulers and SWA are written here.

公开路径与 `torch.optim` 一一对应：把 `import torch.optim as optim` 换成
`import annotated_optim as optim` 即可。只有数值内核（张量运算、`torch._foreach_*` 与
`torch._fused_*`）来自 torch；优化器、它们的状态与钩子、学习率调度器和 SWA 都在这里实现。
"""

from annotated_optim.optimizer import Optimizer as Optimizer
from annotated_optim.sgd import SGD as SGD

__all__ = ["Optimizer", "SGD"]
