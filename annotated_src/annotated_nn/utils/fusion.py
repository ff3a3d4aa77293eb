r"""Fold an eval-mode BatchNorm into the conv or linear layer before it; mirrors `torch.nn.utils.fusion`. / 把评估模式下的 BatchNorm 折叠进它前面的卷积层或线性层，对应 `torch.nn.utils.fusion`。

=== "中文"

    评估模式（evaluation mode）下的 BatchNorm 不再看批次统计量，只做一个固定的逐通道仿射变换：
    `y = (x - running_mean) / sqrt(running_var + eps) * weight + bias`。它前面的卷积或线性层
    本身也是仿射的，两个仿射变换的复合仍是仿射变换，所以可以把 BatchNorm 合并进前一层的
    权重（weight）与偏置（bias），推理时少算一层、少读写一遍激活值。记
    `scale = weight / sqrt(running_var + eps)`（每个输出通道一个数），合并后：

    - 新权重 = 原权重的每个输出通道乘以该通道的 `scale`；
    - 新偏置 = `(原偏置 - running_mean) * scale + bias`（原来没有偏置就当作 0）。

    [`fuse_conv_bn_eval`][annotated_nn.utils.fusion.fuse_conv_bn_eval] 与
    [`fuse_linear_bn_eval`][annotated_nn.utils.fusion.fuse_linear_bn_eval] 深拷贝（deep copy）
    前一层再换上合并后的参数，原模块不变；
    [`fuse_conv_bn_weights`][annotated_nn.utils.fusion.fuse_conv_bn_weights] 与
    [`fuse_linear_bn_weights`][annotated_nn.utils.fusion.fuse_linear_bn_weights] 只对张量做
    同样的计算，返回两个本库的 [`Parameter`][annotated_nn.parameter.Parameter]。

    1.5.1 → 2.13：1.5.1 只有 `fuse_conv_bn_eval` 与 `fuse_conv_bn_weights`，没有
    `transpose` 参数与线性层版本；结果不转换回卷积的数据类型，两个新参数都需要梯度，
    也不检查 `running_mean` 是否为 `None`。

=== "English"

    In evaluation mode a BatchNorm no longer looks at batch statistics; it applies one fixed
    per-channel affine map:
    `y = (x - running_mean) / sqrt(running_var + eps) * weight + bias`. The conv or linear layer
    before it is affine as well, and two affine maps compose into one, so the BatchNorm can be
    merged into the previous layer's weight and bias: at inference time one layer less runs and
    the activations are read and written once less. With
    `scale = weight / sqrt(running_var + eps)` (one number per output channel), the merge gives:

    - new weight = each output channel of the old weight times that channel's `scale`;
    - new bias = `(old bias - running_mean) * scale + bias` (a missing old bias counts as 0).

    [`fuse_conv_bn_eval`][annotated_nn.utils.fusion.fuse_conv_bn_eval] and
    [`fuse_linear_bn_eval`][annotated_nn.utils.fusion.fuse_linear_bn_eval] make a deep copy of
    the previous layer and install the merged parameters on it, leaving the original alone;
    [`fuse_conv_bn_weights`][annotated_nn.utils.fusion.fuse_conv_bn_weights] and
    [`fuse_linear_bn_weights`][annotated_nn.utils.fusion.fuse_linear_bn_weights] run the same
    computation on tensors and return two of this library's
    [`Parameter`][annotated_nn.parameter.Parameter] objects.

    1.5.1 → 2.13: 1.5.1 had `fuse_conv_bn_eval` and `fuse_conv_bn_weights` only, with no
    `transpose` argument and no linear version; results were not cast back to the conv's dtype,
    both new parameters required grad, and a `None` `running_mean` was not checked for.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, TypeVar

import torch

from annotated_nn.parameter import Parameter

# 中: 这些类只用于类型标注。运行时导入会形成循环导入：`annotated_nn.utils` 第一次被加载时，
# 中: `module.py` 还没执行完，此时导入层的模块会找不到 `Module`。
# EN: These classes serve type annotations only. Importing them at run time would be circular:
# EN: `annotated_nn.utils` is first loaded while `module.py` is still running, when importing
# EN: a layer's file cannot find `Module` yet.
if TYPE_CHECKING:
    from annotated_nn.modules.batchnorm import _BatchNorm
    from annotated_nn.modules.conv import _ConvNd
    from annotated_nn.modules.linear import Linear

__all__ = [
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "fuse_linear_bn_eval",
    "fuse_linear_bn_weights",
]

# 中: 返回值与输入同类型（Conv2d 进、Conv2d 出），类型检查器靠这两个类型变量知道这一点。
# EN: The result has the input's type (Conv2d in, Conv2d out); these type variables tell type
# EN: checkers so.
ConvT = TypeVar("ConvT", bound="_ConvNd")
LinearT = TypeVar("LinearT", bound="Linear")


def fuse_conv_bn_eval(
    conv: ConvT,
    bn: _BatchNorm,
    transpose: bool = False,
) -> ConvT:
    r"""Return a copy of `conv` with the eval-mode `bn` folded in. / 返回折叠了评估模式 `bn` 的 `conv` 副本。

    === "中文"

        两个模块都必须处于评估模式：训练模式下 BatchNorm 用的是批次统计量，无法折叠成常数。
        `bn` 还必须有运行统计量（`track_running_stats=False` 时它们是 `None`）。`conv` 被深拷贝，
        所以原来的 `conv` 与它的参数都不变，副本保留 `conv` 的一切设置与钩子（hook），只有
        `weight` 与 `bias` 换成合并后的新参数（原来没有偏置的卷积，副本也会有 `bias`）。

        `transpose=True` 用于转置卷积：它的权重形状是 `(in, out/groups, ...)`，输出通道在第 1 维，
        而不是普通卷积的第 0 维。

    === "English"

        Both modules must be in evaluation mode: in training mode a BatchNorm uses batch
        statistics, which cannot be folded into constants. `bn` must also have running
        statistics (they are `None` with `track_running_stats=False`). `conv` is deep-copied, so
        the original `conv` and its parameters stay as they were; the copy keeps all of `conv`'s
        settings and hooks, and only `weight` and `bias` become the merged new parameters (a conv
        without bias gets a `bias` in the copy).

        `transpose=True` is for transposed convolutions: their weight has shape
        `(in, out/groups, ...)`, with output channels on dimension 1 instead of the plain conv's
        dimension 0.

    Args:
        conv: A convolution module, e.g. `Conv2d`. / 卷积模块，例如 `Conv2d`。
        bn: The BatchNorm module that follows it. / 紧随其后的 BatchNorm 模块。
        transpose: Whether `conv` is a transposed convolution. / `conv` 是否为转置卷积。

    Returns:
        The fused copy of `conv`. / 合并后的 `conv` 副本。

    Raises:
        AssertionError: A module is in training mode, or `bn` has no running statistics. / 有模块处于训练模式，或 `bn` 没有运行统计量。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.fusion import fuse_conv_bn_eval
        >>> conv, bn = nn.Conv2d(3, 4, 3).eval(), nn.BatchNorm2d(4).eval()
        >>> fused = fuse_conv_bn_eval(conv, bn)
        >>> x = torch.randn(1, 3, 5, 5)
        >>> torch.allclose(fused(x), bn(conv(x)), atol=1e-6)
        True
    """
    # 中: 显式 raise 而不是 assert 语句：用 `python -O` 运行时检查也不会被去掉。文字与 torch 相同。
    # EN: An explicit raise rather than an assert statement, so `python -O` cannot strip the
    # EN: check. The texts are torch's.
    if conv.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_conv = copy.deepcopy(conv)

    # 中: 与 torch 相同，先深拷贝再检查运行统计量；两个检查都通过后才开始计算。
    # EN: As in torch, the deep copy comes before the running-statistics check; the computation
    # EN: starts only once both checks pass.
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")
    # DIFF(torch 2.13): given torch.nn modules, the copy holds annotated_nn.Parameter objects
    # 中: 新参数总是本库的 `Parameter`，即使传入的是 torch.nn 的模块；torch 的 `Module` 也把它们
    # 中: 登记为参数（`isinstance(p, torch.nn.Parameter)` 对它们成立），只是 `type(fused.weight)`
    # 中: 与 torch 的结果不同。本库的模块拿到的则正是它们的同类参数。
    # EN: The new parameters are always this library's `Parameter`, even for torch.nn modules;
    # EN: torch's `Module` registers them as parameters too (`isinstance(p, torch.nn.Parameter)`
    # EN: holds for them), only `type(fused.weight)` differs from torch's result. Our modules
    # EN: get exactly their own parameter class.
    fused_conv.weight, fused_conv.bias = fuse_conv_bn_weights(
        fused_conv.weight,
        fused_conv.bias,
        bn.running_mean,
        bn.running_var,
        bn.eps,
        bn.weight,
        bn.bias,
        transpose,
    )
    return fused_conv


def fuse_conv_bn_weights(
    conv_w: torch.Tensor,
    conv_b: torch.Tensor | None,
    bn_rm: torch.Tensor,
    bn_rv: torch.Tensor,
    bn_eps: float,
    bn_w: torch.Tensor | None,
    bn_b: torch.Tensor | None,
    transpose: bool = False,
) -> tuple[Parameter, Parameter]:
    r"""Compute the merged conv weight and bias from the tensors. / 由各张量算出合并后的卷积权重与偏置。

    === "中文"

        按模块说明里的两条公式计算。缺失的张量用中性值代替：没有卷积偏置就是 0，
        没有 BatchNorm 仿射参数（`affine=False`）就是权重 1、偏置 0。

        中间计算可能因类型提升用到更宽的数据类型（例如半精度的卷积配单精度的统计量），
        结果再 `.to()` 回卷积原来的数据类型，所以合并后的模块仍是原来的精度。

        两个返回值都是叶子张量（`Parameter` 不连接计算历史）；权重的 `requires_grad` 沿用
        `conv_w` 的，偏置的沿用 `conv_b` 的，但 `conv_b` 为 `None` 时用的是由 `bn_rm` 生成的零张量，
        它不需要梯度，于是新偏置的 `requires_grad` 为 `False`。

    === "English"

        The two formulas of the module description, computed directly. Missing tensors get
        neutral values: no conv bias means 0, no BatchNorm affine parameters (`affine=False`)
        mean weight 1 and bias 0.

        The intermediate steps may run in a wider dtype through type promotion (e.g. a
        half-precision conv with single-precision statistics); the results are cast back with
        `.to()` to the conv's own dtypes, so the fused module keeps its precision.

        Both results are leaf tensors (a `Parameter` is not linked to any history); the weight's
        `requires_grad` follows `conv_w`, the bias's follows `conv_b`, but when `conv_b` is
        `None` it is a zero tensor made from `bn_rm`, which does not require grad, so the new
        bias has `requires_grad` `False`.

    Args:
        conv_w: The conv weight. / 卷积权重。
        conv_b: The conv bias, or `None`. / 卷积偏置，或 `None`。
        bn_rm: BatchNorm's `running_mean`. / BatchNorm 的 `running_mean`。
        bn_rv: BatchNorm's `running_var`. / BatchNorm 的 `running_var`。
        bn_eps: BatchNorm's `eps`. / BatchNorm 的 `eps`。
        bn_w: BatchNorm's weight, or `None`. / BatchNorm 的权重，或 `None`。
        bn_b: BatchNorm's bias, or `None`. / BatchNorm 的偏置，或 `None`。
        transpose: Whether the weight belongs to a transposed convolution. / 权重是否属于转置卷积。

    Returns:
        The merged weight and bias as `Parameter` objects. / 合并后的权重与偏置（`Parameter`）。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.fusion import fuse_conv_bn_weights
        >>> w, b = fuse_conv_bn_weights(
        ...     torch.ones(2, 1, 1, 1), None, torch.zeros(2), torch.full((2,), 4.0), 0.0, None, None
        ... )
        >>> w.flatten().tolist(), b.tolist(), b.requires_grad
        ([0.5, 0.5], [0.0, 0.0], False)
    """
    # 中: 先记下原来的数据类型，最后转回；没有卷积偏置时偏置沿用权重的数据类型。
    # EN: Note the original dtypes to cast back at the end; without a conv bias the bias takes
    # EN: the weight's dtype.
    conv_weight_dtype = conv_w.dtype
    conv_bias_dtype = conv_b.dtype if conv_b is not None else conv_weight_dtype
    # 中: 缺失的张量换成中性值，形状、设备、数据类型都取自 `bn_rm`（每通道一个数）。
    # EN: Missing tensors become neutral values shaped like `bn_rm` (one number per channel),
    # EN: on its device and in its dtype.
    if conv_b is None:
        conv_b = torch.zeros_like(bn_rm)
    if bn_w is None:
        bn_w = torch.ones_like(bn_rm)
    if bn_b is None:
        bn_b = torch.zeros_like(bn_rm)
    bn_var_rsqrt = torch.rsqrt(bn_rv + bn_eps)

    # 中: 每通道的系数要沿输出通道那一维广播：普通卷积是第 0 维，转置卷积是第 1 维，
    # 中: 其余维都是 1。
    # EN: The per-channel factors must broadcast along the output-channel dimension:
    # EN: dimension 0 for a plain conv, dimension 1 for a transposed one, 1 everywhere else.
    if transpose:
        shape = [1, -1] + [1] * (len(conv_w.shape) - 2)
    else:
        shape = [-1, 1] + [1] * (len(conv_w.shape) - 2)

    # 中: 两条合并公式，各自转回原来的数据类型。
    # EN: The two merge formulas, each cast back to its original dtype.
    fused_conv_w = (conv_w * (bn_w * bn_var_rsqrt).reshape(shape)).to(dtype=conv_weight_dtype)
    fused_conv_b = ((conv_b - bn_rm) * bn_var_rsqrt * bn_w + bn_b).to(dtype=conv_bias_dtype)

    return (
        Parameter(fused_conv_w, conv_w.requires_grad),
        Parameter(fused_conv_b, conv_b.requires_grad),
    )


def fuse_linear_bn_eval(
    linear: LinearT,
    bn: _BatchNorm,
) -> LinearT:
    r"""Return a copy of `linear` with the eval-mode `bn` folded in. / 返回折叠了评估模式 `bn` 的 `linear` 副本。

    === "中文"

        与 [`fuse_conv_bn_eval`][annotated_nn.utils.fusion.fuse_conv_bn_eval] 相同的检查与深拷贝。
        多一个形状条件：BatchNorm 作用在通道维上，线性层作用在最后一维上，要让合并后的权重与偏置
        保持线性层原来的形状，BatchNorm 的通道数必须等于 `linear.out_features`，或者等于 1
        （那时一个系数广播到所有输出特征）。

    === "English"

        The same checks and deep copy as
        [`fuse_conv_bn_eval`][annotated_nn.utils.fusion.fuse_conv_bn_eval], plus one shape
        condition: BatchNorm works on the channel dimension, a linear layer on the last one, and
        for the merged weight and bias to keep the linear layer's shapes the BatchNorm's number
        of channels must equal `linear.out_features`, or be 1 (then one factor broadcasts to
        every output feature).

    Args:
        linear: A `Linear` module. / `Linear` 模块。
        bn: The BatchNorm module that follows it. / 紧随其后的 BatchNorm 模块。

    Returns:
        The fused copy of `linear`. / 合并后的 `linear` 副本。

    Raises:
        AssertionError: A module is in training mode, the feature counts do not fit, or `bn` has no running statistics. / 有模块处于训练模式、特征数不匹配，或 `bn` 没有运行统计量。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.fusion import fuse_linear_bn_eval
        >>> linear, bn = nn.Linear(3, 4).eval(), nn.BatchNorm1d(4).eval()
        >>> fused = fuse_linear_bn_eval(linear, bn)
        >>> x = torch.randn(2, 3)
        >>> torch.allclose(fused(x), bn(linear(x)), atol=1e-6)
        True
    """
    # 中: 与卷积版本相同：先检查模式，再深拷贝。文字与 torch 相同。
    # EN: As in the conv version: check the modes, then deep-copy. The texts are torch's.
    if linear.training or bn.training:
        raise AssertionError("Fusion only for eval!")
    fused_linear = copy.deepcopy(linear)

    # 中: 形状条件在统计量检查之前，与 torch 的顺序相同。
    # EN: The shape condition comes before the statistics check, torch's order.
    if linear.out_features != bn.num_features and bn.num_features != 1:
        raise AssertionError(
            f"To fuse, linear.out_features == bn.num_features or bn.num_features == 1, "
            f"got linear.out_features={linear.out_features} and bn.num_features={bn.num_features}"
        )
    if bn.running_mean is None or bn.running_var is None:
        raise AssertionError("bn.running_mean and bn.running_var must not be None")

    # DIFF(torch 2.13): given torch.nn modules, the copy holds annotated_nn.Parameter objects
    # 中: 与 `fuse_conv_bn_eval` 相同：新参数总是本库的 `Parameter`，torch 的模块也把它们登记为参数。
    # EN: As in `fuse_conv_bn_eval`: the new parameters are always this library's `Parameter`,
    # EN: and torch's modules register them as parameters too.
    fused_linear.weight, fused_linear.bias = fuse_linear_bn_weights(
        fused_linear.weight,
        fused_linear.bias,
        bn.running_mean,
        bn.running_var,
        bn.eps,
        bn.weight,
        bn.bias,
    )
    return fused_linear


def fuse_linear_bn_weights(
    linear_w: torch.Tensor,
    linear_b: torch.Tensor | None,
    bn_rm: torch.Tensor,
    bn_rv: torch.Tensor,
    bn_eps: float,
    bn_w: torch.Tensor,
    bn_b: torch.Tensor,
) -> tuple[Parameter, Parameter]:
    r"""Compute the merged linear weight and bias from the tensors. / 由各张量算出合并后的线性层权重与偏置。

    === "中文"

        与卷积版本的公式相同，但有三处不同。其一，只有缺失的线性层偏置被换成 0；`bn_w` 与
        `bn_b` 必须是张量，`affine=False` 的 BatchNorm 传入 `None` 会在乘法处抛出 `TypeError`。
        其二，系数 `unsqueeze(-1)` 成 `(out, 1)`，沿权重的每一行（每个输出特征）相乘。
        其三，系数在相乘之前就 `.to()` 成权重的数据类型，所以乘法按权重的精度进行；
        卷积版本则是先按提升后的类型相乘、最后再转换。与 torch 逐位相同需要保持这个顺序。

        `requires_grad` 的规则与卷积版本相同：没有线性层偏置时新偏置不需要梯度。

    === "English"

        The formulas of the conv version with three differences. First, only a missing linear
        bias is replaced by 0; `bn_w` and `bn_b` must be tensors, and a BatchNorm with
        `affine=False` passing `None` raises `TypeError` at the multiplication. Second, the
        factors are `unsqueeze(-1)`d to `(out, 1)` and multiply each row of the weight (one per
        output feature). Third, the factors are cast with `.to()` to the weight's dtype before
        the multiplication, so the product runs in the weight's precision; the conv version
        multiplies in the promoted dtype and casts at the end. Being bit-identical to torch
        requires keeping this order.

        `requires_grad` follows the conv version's rule: without a linear bias, the new bias
        does not require grad.

    Args:
        linear_w: The linear weight, shaped `(out, in)`. / 线性层权重，形状 `(out, in)`。
        linear_b: The linear bias, or `None`. / 线性层偏置，或 `None`。
        bn_rm: BatchNorm's `running_mean`. / BatchNorm 的 `running_mean`。
        bn_rv: BatchNorm's `running_var`. / BatchNorm 的 `running_var`。
        bn_eps: BatchNorm's `eps`. / BatchNorm 的 `eps`。
        bn_w: BatchNorm's weight. / BatchNorm 的权重。
        bn_b: BatchNorm's bias. / BatchNorm 的偏置。

    Returns:
        The merged weight and bias as `Parameter` objects. / 合并后的权重与偏置（`Parameter`）。

    Raises:
        TypeError: `bn_w` or `bn_b` is `None`. / `bn_w` 或 `bn_b` 为 `None`。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.fusion import fuse_linear_bn_weights
        >>> ones, zeros = torch.ones(2), torch.zeros(2)
        >>> w, b = fuse_linear_bn_weights(torch.ones(2, 3), None, ones, ones, 0.0, ones, zeros)
        >>> w.tolist(), b.tolist()
        ([[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], [-1.0, -1.0])
    """
    # 中: 记下原来的数据类型；没有线性层偏置时，用一个与 `bn_rm` 同形状的零张量代替。
    # EN: Note the original dtypes; a missing linear bias becomes a zero tensor shaped like
    # EN: `bn_rm`.
    linear_weight_dtype = linear_w.dtype
    linear_bias_dtype = linear_b.dtype if linear_b is not None else linear_weight_dtype
    if linear_b is None:
        linear_b = torch.zeros_like(bn_rm)
    bn_scale = bn_w * torch.rsqrt(bn_rv + bn_eps)

    # 中: 注意 `.to()` 的位置：权重公式在乘法之前转换系数，偏置公式在最后转换结果。
    # EN: Mind where `.to()` sits: the weight formula casts the factors before multiplying, the
    # EN: bias formula casts the result at the end.
    fused_w = linear_w * bn_scale.unsqueeze(-1).to(dtype=linear_weight_dtype)
    fused_b = ((linear_b - bn_rm) * bn_scale + bn_b).to(dtype=linear_bias_dtype)

    return Parameter(fused_w, linear_w.requires_grad), Parameter(fused_b, linear_b.requires_grad)
