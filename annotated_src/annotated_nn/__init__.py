r"""annotated_nn: torch.nn's module system, re-implemented and annotated. / 带中英双语注释的 torch.nn 模块系统重写。

The public paths mirror `torch.nn`: `import annotated_nn as nn` is meant to be a drop-in
replacement for `import torch.nn as nn`. Only the numerical kernels (`torch.nn.functional`,
tensor operations) come from torch; the module system itself is written here.

公开路径与 `torch.nn` 一一对应：把 `import torch.nn as nn` 换成 `import annotated_nn as nn`
即可。只有数值计算内核（`torch.nn.functional` 与张量运算）来自 torch，模块系统本身都在这里实现。
"""

# DIFF(torch 2.13):
# 中: 以下几个 torch.nn 子模块只含计算内核、类型别名或内核选择开关，不属于模块系统，原样转出
#     （因此 `annotated_nn.attention.__name__` 仍是 "torch.nn.attention"，且 `import annotated_nn.grad` 这种写法不可用）。
#     量化相关的 intrinsic/qat/quantizable/quantized 与私有的 _reduction 不提供。
# EN: These torch.nn submodules hold only kernels, type aliases or kernel-selection switches, not module
#     system code, so they are re-exported as they are (hence `annotated_nn.attention.__name__` is still
#     "torch.nn.attention", and `import annotated_nn.grad` as a statement does not work).
#     The quantization namespaces intrinsic/qat/quantizable/quantized and the private _reduction are not provided.
from torch.nn import (
    attention as attention,
)
from torch.nn import (
    common_types as common_types,
)
from torch.nn import (
    grad as grad,
)

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

# isort: split
# 中: 这几个 `utils` 子模块要用容器与层，而 `module.py` 在加载中途就会导入 `annotated_nn.utils`
#     （为了 `utils.hooks`），所以不能在 `utils/__init__.py` 里导入它们（会循环导入）；等模块系统
#     全部就绪后在这里导入，效果与 torch 相同：`annotated_nn.utils.parametrize` 等一开始就可用。
# EN: These `utils` submodules need the containers and layers, and `module.py` imports
#     `annotated_nn.utils` halfway through loading (for `utils.hooks`), so `utils/__init__.py`
#     cannot import them (a circular import); importing them here, once the module system is
#     ready, gives torch's result: `annotated_nn.utils.parametrize` and the others are there
#     from the start.
import annotated_nn.utils.parametrizations  # noqa: E402, F401
import annotated_nn.utils.parametrize  # noqa: E402, F401


def factory_kwargs(kwargs: dict | None) -> dict:
    r"""Collect the tensor-factory keyword arguments from `kwargs`. / 从 `kwargs` 中整理出张量工厂函数的关键字参数。

    === "中文"

        写自定义模块时，构造函数常把 `device`、`dtype`（以及 `memory_format`）原样转交给
        `torch.empty` 这类工厂函数。这个函数先检查 `kwargs` 里只有这些键（外加一个特殊键
        `factory_kwargs`），有别的键立即报错，而不是等到工厂函数里才失败；再把它们合并成一个新字典。
        特殊键 `factory_kwargs` 本身是一个字典，用于签名里已有同名参数（例如 `dtype`）时另外指定
        给工厂函数的值；同一个键在两处都给出则报错。输入字典不会被修改。

    === "English"

        A custom module's constructor often passes `device`, `dtype` (and `memory_format`)
        straight to factory functions such as `torch.empty`. This function first checks that
        `kwargs` holds only those keys (plus the special key `factory_kwargs`), failing at once
        on anything else instead of later inside the factory call, then merges them into a new
        dict. The special `factory_kwargs` entry is itself a dict, for giving the factory a
        value when the signature already has a parameter of that name (say `dtype`); a key given
        in both places is an error. The input dict is not modified.

    Args:
        kwargs: The keyword arguments, or `None`. / 关键字参数字典，或 `None`。

    Returns:
        A new dict with only `device`/`dtype`/`memory_format` keys. / 只含 `device`/`dtype`/`memory_format` 的新字典。

    Raises:
        TypeError: An unexpected key, or a key given twice. / 出现多余的键，或同一个键给了两次。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.factory_kwargs({"dtype": torch.float64, "factory_kwargs": {"device": "cpu"}})
        {'device': 'cpu', 'dtype': torch.float64}
    """
    if kwargs is None:
        return {}
    simple_keys = {"device", "dtype", "memory_format"}
    expected_keys = simple_keys | {"factory_kwargs"}
    # 中: 报错信息里的键集合与 torch 相同，是 dict_keys 与集合相减得到的 set。
    # EN: The key set in the message is, as in torch, the set from subtracting a set from dict_keys.
    if not kwargs.keys() <= expected_keys:
        raise TypeError(f"unexpected kwargs {kwargs.keys() - expected_keys}")

    # 中: 从 factory_kwargs 的副本出发，绝不修改调用者的字典。
    # EN: Start from a copy of factory_kwargs so the caller's dicts are never modified.
    merged = dict(kwargs.get("factory_kwargs", {}))
    for key in simple_keys:
        if key in kwargs:
            if key in merged:
                raise TypeError(f"{key} specified twice, in **kwargs and in factory_kwargs")
            merged[key] = kwargs[key]
    return merged
