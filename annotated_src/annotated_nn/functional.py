r"""`torch.nn.functional`, re-exported: the kernels are torch's. / 原样转出 `torch.nn.functional`：计算内核来自 torch。

This project re-implements the module system, not the numerics. `annotated_nn.functional` is
`torch.nn.functional` under another name, so `import annotated_nn.functional as F` keeps working
after swapping `torch.nn` for `annotated_nn`.

本项目重写的是模块系统而不是数值计算。`annotated_nn.functional` 就是换了名字的
`torch.nn.functional`，因此把 `torch.nn` 换成 `annotated_nn` 之后 `import annotated_nn.functional as F`
依然可用。
"""

import sys

import torch.nn.functional as _torch_functional

# 中: 让 `annotated_nn.functional` 与 `torch.nn.functional` 成为同一个模块对象，所有函数（含私有的）都一致。
# EN: Make `annotated_nn.functional` the very same module object as `torch.nn.functional`, private names included.
sys.modules[__name__] = _torch_functional
