r"""annotated_nn: torch.nn's module system, re-implemented and annotated. / 带中英双语注释的 torch.nn 模块系统重写。

The public paths mirror `torch.nn`: `import annotated_nn as nn` is meant to be a drop-in
replacement for `import torch.nn as nn`. Only the numerical kernels (`torch.nn.functional`,
tensor operations) come from torch; the module system itself is written here.

公开路径与 `torch.nn` 一一对应：把 `import torch.nn as nn` 换成 `import annotated_nn as nn`
即可。只有数值计算内核（`torch.nn.functional` 与张量运算）来自 torch，模块系统本身都在这里实现。
"""

from annotated_nn import (  # noqa: F401
    functional as functional,
)
from annotated_nn import (
    init as init,
)
from annotated_nn import (
    modules as modules,
)
from annotated_nn import (
    parallel as parallel,
)
from annotated_nn import (
    parameter as parameter,
)
from annotated_nn import (
    utils as utils,
)
from annotated_nn.modules import *  # noqa: F401,F403
from annotated_nn.parallel import DataParallel as DataParallel  # noqa: F401
from annotated_nn.parameter import (  # noqa: F401
    Buffer as Buffer,
)
from annotated_nn.parameter import (
    Parameter as Parameter,
)
from annotated_nn.parameter import (
    UninitializedBuffer as UninitializedBuffer,
)
from annotated_nn.parameter import (
    UninitializedParameter as UninitializedParameter,
)
