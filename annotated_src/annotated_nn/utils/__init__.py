r"""Utilities that mirror `torch.utils.hooks` and `torch.nn.utils`. / 对应 `torch.utils.hooks` 与 `torch.nn.utils` 的工具。

=== "中文"

    `hooks`、`stateless` 与 `skip_init` 在这里重写，因为它们要操作模块本身。
    梯度裁剪（`clip_grad_norm_` 等）和参数与向量互转（`parameters_to_vector` 等）只处理张量的可迭代对象，
    不接触模块系统，所以原样转出 PyTorch 的函数，可直接用于 annotated_nn 模型的 `parameters()`。

=== "English"

    `hooks`, `stateless` and `skip_init` are rewritten here because they operate on modules
    themselves. Gradient clipping (`clip_grad_norm_` and friends) and the parameter/vector
    conversions (`parameters_to_vector` and friends) only handle iterables of tensors and never
    touch the module system, so PyTorch's functions are re-exported unchanged; they work on an
    annotated_nn model's `parameters()` directly.
"""

# DIFF(torch 2.13):
# 中: 未提供 parametrize、parametrizations、weight_norm、spectral_norm、rnn、fusion（fuse_*）与
#     convert_conv*_weight_memory_format：它们要么注入 torch.nn.Module 子类、要么检查 torch 的层类型、
#     要么创建 torch.nn.Parameter，不能直接用于 annotated_nn 的模块。
# EN: parametrize, parametrizations, weight_norm, spectral_norm, rnn, fusion (fuse_*) and
#     convert_conv*_weight_memory_format are not provided: they inject torch.nn.Module subclasses,
#     check for torch's layer types, or create torch.nn.Parameter, so they do not apply to
#     annotated_nn modules as they are.
from torch.nn.utils import (
    clip_grad_norm,
    clip_grad_norm_,
    clip_grad_value_,
    clip_grads_with_norm_,
    get_total_norm,
    parameters_to_vector,
    vector_to_parameters,
)

from . import (
    hooks,  # noqa: F401
    stateless,
)
from .init import skip_init

__all__ = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grads_with_norm_",
    "clip_grad_value_",
    "get_total_norm",
    "parameters_to_vector",
    "skip_init",
    "stateless",
    "vector_to_parameters",
]
