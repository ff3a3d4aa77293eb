r"""Utilities that mirror `torch.utils.hooks` and `torch.nn.utils`. / 对应 `torch.utils.hooks` 与 `torch.nn.utils` 的工具。

=== "中文"

    本包的结构与 `torch.nn.utils` 相同，各文件都在这里重写（它们都要操作模块或参数本身）：
    重参数化的 `parametrize` 与 `parametrizations`（由 `annotated_nn/__init__.py` 在模块系统
    就绪后导入）；变长序列的打包与填充（`rnn`）；`stateless` 与 `skip_init`；梯度裁剪
    （`clip_grad`）与参数、向量互转（`convert_parameters`）；卷积与 BatchNorm 的融合（`fusion`）
    和卷积权重的内存格式（`memory_format`）；第一代重参数化 `weight_norm` 与 `spectral_norm`
    （前向预钩子加状态字典钩子）。`hooks` 对应 `torch.utils.hooks`。

=== "English"

    The package is laid out like `torch.nn.utils`, and each file is rewritten here (they all
    work on modules or parameters themselves): `parametrize` and `parametrizations` for
    reparametrizations (imported by `annotated_nn/__init__.py` once the module system is
    ready); packing and padding of variable-length sequences (`rnn`); `stateless` and
    `skip_init`; gradient clipping (`clip_grad`) and the parameter/vector conversions
    (`convert_parameters`); the fusion of
    convolutions with BatchNorm (`fusion`) and the memory format of convolution weights
    (`memory_format`); the first-generation reparametrizations `weight_norm` and `spectral_norm`
    (a forward pre-hook plus state_dict hooks). `hooks` mirrors `torch.utils.hooks`.
"""

from . import (
    hooks,  # noqa: F401
    rnn,
    stateless,
)
from .clip_grad import (
    _clip_grads_with_norm_ as clip_grads_with_norm_,
)
from .clip_grad import (
    _get_total_norm as get_total_norm,
)
from .clip_grad import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import (
    fuse_conv_bn_eval,
    fuse_conv_bn_weights,
    fuse_linear_bn_eval,
    fuse_linear_bn_weights,
)
from .init import skip_init
from .memory_format import (
    convert_conv2d_weight_memory_format,
    convert_conv3d_weight_memory_format,
)
from .spectral_norm import remove_spectral_norm, spectral_norm
from .weight_norm import remove_weight_norm, weight_norm

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grads_with_norm_",
    "clip_grad_value_",
    "convert_conv2d_weight_memory_format",
    "convert_conv3d_weight_memory_format",
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
    "get_total_norm",
    "parameters_to_vector",
    "parametrizations",
    "parametrize",
    "remove_spectral_norm",
    "remove_weight_norm",
    "rnn",
    "skip_init",
    "spectral_norm",
    "stateless",
    "vector_to_parameters",
    "weight_norm",
]
