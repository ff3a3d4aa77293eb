r"""Small tools built on module hooks. / 基于模块钩子的小工具。

=== "中文"

    四个常见需求，每个都只用公开的钩子（hook）API，因此对 `annotated_nn` 与 `torch.nn` 的模型同样适用：

    - `summary`：逐层列出输出形状与参数（parameter）数（前向钩子）；
    - `recorder`：记录激活值与梯度，退出时移除全部钩子（上下文管理器）；
    - `memory`：逐层的 CUDA 显存变化（前向预钩子 + 前向钩子）；
    - `gradflow`：把每层梯度的平均绝对值画成 PNG。

=== "English"

    Four common needs, each using only the public hook API, so they work the same on
    `annotated_nn` and `torch.nn` models:

    - `summary`: output shape and parameter count per layer (forward hooks);
    - `recorder`: record activations and gradients, removing every hook on exit (a context
      manager);
    - `memory`: CUDA memory change per layer (forward pre-hooks + forward hooks);
    - `gradflow`: plot each layer's mean absolute gradient to a PNG.
"""

from annotated_examples.recipes.gradflow import grad_flow, plot_grad_flow
from annotated_examples.recipes.memory import MemoryProfile, cuda_memory_profile
from annotated_examples.recipes.recorder import Recorder
from annotated_examples.recipes.summary import ModelSummary, summary

__all__ = [
    "ModelSummary",
    "summary",
    "Recorder",
    "MemoryProfile",
    "cuda_memory_profile",
    "grad_flow",
    "plot_grad_flow",
]
