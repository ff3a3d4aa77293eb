r"""Weight initialization; mirrors `torch.nn.init`. / 权重初始化，对应 `torch.nn.init`。

=== "中文"

    每个层的 `reset_parameters` 都调用这里的函数给参数（parameter）赋初值，例如 `Linear`
    用 `kaiming_uniform_(weight, a=math.sqrt(5))`。所有函数都就地修改张量并返回它（名字以
    `_` 结尾），在 `torch.no_grad()` 下运行，所以不会在计算图里留下记录。

    同一个随机种子必须得到与 torch 逐位相同的权重：这里调用的随机数函数（`uniform_`、
    `normal_`、`randperm` ……）、调用顺序和参数都与 torch 2.13 一致，只要换掉
    `torch.nn.init` 而种子不变，结果就不变。

    `fan_in`/`fan_out`（扇入/扇出）是理解 xavier 与 kaiming 的关键：对形状为
    `(out, in, *kernel)` 的权重，`fan_in = in × ∏kernel`，`fan_out = out × ∏kernel`，
    见 [`_calculate_fan_in_and_fan_out`][annotated_nn.init._calculate_fan_in_and_fan_out]。

=== "English"

    Every layer's `reset_parameters` calls the functions here to give its parameters their
    first values; `Linear`, for one, uses `kaiming_uniform_(weight, a=math.sqrt(5))`. Each
    function changes the tensor in place and returns it (hence the trailing `_`), running
    under `torch.no_grad()` so that nothing is recorded in the autograd graph.

    One seed must give the very same bits as torch: the random functions called here
    (`uniform_`, `normal_`, `randperm`, ...), their order and their arguments are torch 2.13's,
    so swapping out `torch.nn.init` under the same seed changes nothing.

    `fan_in`/`fan_out` are the key to xavier and kaiming: for a weight of shape
    `(out, in, *kernel)`, `fan_in = in × prod(kernel)` and `fan_out = out × prod(kernel)`; see
    [`_calculate_fan_in_and_fan_out`][annotated_nn.init._calculate_fan_in_and_fan_out].
"""

import math
import warnings
from collections.abc import Callable
from typing import Literal, ParamSpec, TypeVar

import torch
from torch import Tensor

__all__ = [
    "calculate_gain",
    "uniform_",
    "normal_",
    "trunc_normal_",
    "constant_",
    "ones_",
    "zeros_",
    "eye_",
    "dirac_",
    "xavier_uniform_",
    "xavier_normal_",
    "kaiming_uniform_",
    "kaiming_normal_",
    "orthogonal_",
    "sparse_",
    # 中: 旧名字（不带下划线），调用时发出 FutureWarning。
    # EN: Old names (no trailing underscore); calling them warns with FutureWarning.
    "uniform",
    "normal",
    "constant",
    "eye",
    "dirac",
    "xavier_uniform",
    "xavier_normal",
    "kaiming_uniform",
    "kaiming_normal",
    "orthogonal",
    "sparse",
]


_R = TypeVar("_R")
_P = ParamSpec("_P")

_NonlinearityType = Literal[
    "linear",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "sigmoid",
    "tanh",
    "relu",
    "leaky_relu",
    "selu",
]

_FanMode = Literal["fan_in", "fan_out"]


# 中: 下面的 _no_grad_* 小函数把 `with torch.no_grad()` 包起来。torch 这样拆分是因为
#     TorchScript 不支持上下文管理器，需要把它们做成内置函数；这里保留同样的结构。
# EN: The small _no_grad_* helpers below wrap `with torch.no_grad()`. torch splits them out
#     because TorchScript supports no context managers and needs them as builtins; the same
#     structure is kept here.
def _no_grad_uniform_(
    tensor: Tensor, a: float, b: float, generator: torch.Generator | None = None
) -> Tensor:
    r"""Fill with U(a, b) without recording autograd. / 不记录求导地填入 U(a, b)。

    === "中文"

        参数通常是需要梯度的叶子张量，直接就地修改会报错，所以放在 `no_grad` 里。

    === "English"

        Parameters are usually leaf tensors that require grad, which refuse in-place edits
        outside `no_grad`.

    Args:
        tensor: The tensor to fill. / 要填充的张量。
        a: Lower bound. / 下界。
        b: Upper bound. / 上界。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    with torch.no_grad():
        return tensor.uniform_(a, b, generator=generator)


def _no_grad_normal_(
    tensor: Tensor,
    mean: float,
    std: float,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Fill with N(mean, std²) without recording autograd. / 不记录求导地填入 N(mean, std²)。

    === "中文"

        与 [`_no_grad_uniform_`][annotated_nn.init._no_grad_uniform_] 相同，只是换成正态分布。

    === "English"

        Same as [`_no_grad_uniform_`][annotated_nn.init._no_grad_uniform_] with the normal
        distribution.

    Args:
        tensor: The tensor to fill. / 要填充的张量。
        mean: Mean. / 均值。
        std: Standard deviation. / 标准差。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    with torch.no_grad():
        return tensor.normal_(mean, std, generator=generator)


def _no_grad_trunc_normal_(
    tensor: Tensor,
    mean: float,
    std: float,
    a: float,
    b: float,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Fill with N(mean, std²) truncated to [a, b], by rejection sampling. / 用拒绝采样填入截断到 [a, b] 的 N(mean, std²)。

    === "中文"

        按“区间内的概率质量” `p` 选两种拒绝采样之一：

        - `p > 0.3`：直接从正态分布采样，落在区间外的位置重新采样，直到全部落入区间。
          区间够宽时这样最快。
        - 否则（窄区间或远离均值）：在 `[a, b]` 上均匀采样候选值，以
          `exp(log_pdf − log_peak)` 的概率接受，未接受的位置重来。`log_peak` 是区间内
          密度最高点（均值截到区间后的位置）的对数密度，保证接受率不超过 1。

        两种做法的每一次随机调用都与 torch 相同（包括第一次直接写进 `tensor` 的优化），
        因此同种子结果逐位一致。meta 张量没有存储，直接返回。

        1.5.1 → 2.13：1.5.1 没有截断正态初始化；早期版本用逆 CDF（`erfinv_`）实现，2.13
        换成了上面的拒绝采样。

    === "English"

        One of two rejection samplers is chosen by the probability mass `p` inside the
        interval:

        - `p > 0.3`: sample the normal distribution directly and resample every position
          outside the interval until all are inside. Fastest for wide intervals.
        - Otherwise (narrow interval, or far from the mean): draw candidates uniformly on
          `[a, b]` and accept each with probability `exp(log_pdf − log_peak)`, retrying the
          rejected positions. `log_peak` is the log-density at the interval's highest point
          (the mean clamped into the interval), keeping the acceptance ratio at most 1.

        Every random call of both methods is torch's (including writing the first round
        straight into `tensor`), so one seed gives the same bits. Meta tensors have no storage
        and are returned as they are.

        1.5.1 → 2.13: 1.5.1 had no truncated-normal init; earlier versions used the inverse
        CDF (`erfinv_`), 2.13 switched to the rejection sampling above.

    Args:
        tensor: The tensor to fill. / 要填充的张量。
        mean: Mean. / 均值。
        std: Standard deviation. / 标准差。
        a: Lower cutoff. / 下截断点。
        b: Upper cutoff. / 上截断点。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    if tensor.is_meta:
        return tensor

    def norm_cdf(x: float) -> float:
        r"""Standard normal CDF. / 标准正态分布的累积分布函数。

        === "中文"

            用误差函数计算：`Φ(x) = (1 + erf(x / √2)) / 2`。

        === "English"

            Computed through the error function: `Φ(x) = (1 + erf(x / √2)) / 2`.

        Args:
            x: The point. / 自变量。

        Returns:
            `Φ(x)`. / `Φ(x)` 的值。
        """
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
            stacklevel=2,
        )

    with torch.no_grad():
        # 中: p 是正态分布落在 [a, b] 内的概率，决定用哪种采样法。
        # EN: p is the probability that the normal distribution lands in [a, b]; it picks the
        #     sampling method.
        p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)

        if p > 0.3:
            # 中: 先把边界转换成张量的 dtype，这样“是否越界”的判断与张量能表示的值一致
            #     （半精度下 2.0 附近的舍入尤其重要）。
            # EN: Cast the bounds to the tensor's dtype first, so the out-of-range test agrees
            #     with the values the tensor can hold (rounding near the bounds matters in
            #     half precision).
            lo = tensor.new_tensor(a, device="cpu").item()
            hi = tensor.new_tensor(b, device="cpu").item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                # 中: 每轮为整个张量重新采样，只在越界位置采用新值（随机数用量与 torch 一致）。
                # EN: Each round samples a whole new tensor and takes it only where out of range
                #     (the same random draws as torch).
                result = torch.where(
                    mask,
                    torch.empty_like(result).normal_(mean, std, generator=generator),
                    result,
                )
            if tensor is not result:
                tensor.copy_(result)
        else:
            mode = max(a, min(mean, b))
            log_peak = -0.5 * ((mode - mean) / std) ** 2

            candidates = torch.empty_like(tensor)
            accept_buf = torch.empty_like(tensor)

            # 中: 第一轮直接采样到 tensor 里：若全部被接受，就省掉一次 where + copy_。
            # EN: The first round samples straight into tensor: if everything is accepted, a
            #     where() + copy_() is saved.
            tensor.uniform_(a, b, generator=generator)
            candidates.copy_(tensor)
            # 中: 就地算出 log_pdf(c) − log_peak = −0.5·((c − mean)/std)² − log_peak。
            # EN: In place: log_pdf(c) − log_peak = −0.5·((c − mean)/std)² − log_peak.
            candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            # 中: log(u) > log_pdf − log_peak 的位置被拒绝，仍待重采样。
            # EN: Positions where log(u) > log_pdf − log_peak are rejected and still pending.
            pending = accept_buf.uniform_(generator=generator).log_().gt(candidates)
            if pending.any():
                result = tensor
                while True:
                    candidates.uniform_(a, b, generator=generator)
                    result = torch.where(pending, candidates, result)
                    candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                    # 中: 已接受的位置保持不变，只更新仍待定的位置。
                    # EN: Accepted positions stay accepted; only pending ones are re-judged.
                    pending = torch.where(
                        pending,
                        accept_buf.uniform_(generator=generator).log_().gt(candidates),
                        pending,
                    )
                    if not pending.any():
                        break
                tensor.copy_(result)

        return tensor


def _no_grad_fill_(tensor: Tensor, val: float) -> Tensor:
    r"""Fill with one value without recording autograd. / 不记录求导地填入同一个值。

    === "中文"

        `constant_` 与 `ones_` 的共同实现。

    === "English"

        The shared body of `constant_` and `ones_`.

    Args:
        tensor: The tensor to fill. / 要填充的张量。
        val: The value. / 填充值。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    with torch.no_grad():
        return tensor.fill_(val)


def _no_grad_zero_(tensor: Tensor) -> Tensor:
    r"""Fill with zeros without recording autograd. / 不记录求导地填入零。

    === "中文"

        `zeros_` 的实现，用的是 `zero_()` 而不是 `fill_(0)`，与 torch 相同。

    === "English"

        The body of `zeros_`; it calls `zero_()` rather than `fill_(0)`, as torch does.

    Args:
        tensor: The tensor to fill. / 要填充的张量。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    with torch.no_grad():
        return tensor.zero_()


def calculate_gain(nonlinearity: _NonlinearityType, param: int | float | None = None) -> float:
    r"""Recommended gain for a nonlinearity. / 给定非线性函数的推荐增益。

    === "中文"

        增益用来补偿激活函数对方差的改变，xavier 与 kaiming 初始化把它乘到标准差上：

        | 非线性函数 | 增益 |
        | --- | --- |
        | linear、conv*、sigmoid | 1 |
        | tanh | 5/3 |
        | relu | √2 |
        | leaky_relu | √(2 / (1 + negative_slope²))，默认斜率 0.01 |
        | selu | 3/4 |

        注意返回类型：线性类和 sigmoid 返回整数 `1`，其余返回浮点数。`param` 只对
        `leaky_relu` 有用，且不能是 `bool`（`True` 虽然是 `int`，也被拒绝）。
        想要 SELU 论文中的自归一化效果，应使用 `'linear'` 而不是 `'selu'`。

        1.5.1 → 2.13：新增 `'selu'`。

    === "English"

        The gain makes up for the activation's effect on the variance; xavier and kaiming
        multiply it into the standard deviation:

        | nonlinearity | gain |
        | --- | --- |
        | linear, conv*, sigmoid | 1 |
        | tanh | 5/3 |
        | relu | √2 |
        | leaky_relu | √(2 / (1 + negative_slope²)), slope 0.01 by default |
        | selu | 3/4 |

        Mind the type: the linear family and sigmoid give the integer `1`, the rest floats.
        `param` only matters for `leaky_relu` and may not be a `bool` (`True` is an `int`,
        yet refused). For the self-normalizing effect of the SELU paper, use `'linear'`
        rather than `'selu'`.

        1.5.1 → 2.13: `'selu'` was added.

    Args:
        nonlinearity: Name as in `torch.nn.functional`. / `torch.nn.functional` 中的函数名。
        param: The negative slope for `leaky_relu`. / `leaky_relu` 的负半轴斜率。

    Returns:
        The gain. / 增益。

    Raises:
        ValueError: Unknown nonlinearity, or a `param` that is not a number. / 未知的非线性函数，或 `param` 不是数。

    Examples:
        >>> import annotated_nn as nn
        >>> nn.init.calculate_gain("tanh")
        1.6666666666666667
    """
    linear_fns = [
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
    ]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    elif nonlinearity == "tanh":
        return 5.0 / 3
    elif nonlinearity == "relu":
        return math.sqrt(2.0)
    elif nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        # 中: bool 是 int 的子类，要先排除；整数和浮点数都可以。
        # EN: bool subclasses int and is excluded first; ints and floats are accepted.
        elif (not isinstance(param, bool) and isinstance(param, int)) or isinstance(param, float):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    elif nonlinearity == "selu":
        # 中: 经验值（见 PyTorch PR #50664）。
        # EN: An empirical value (see PyTorch PR #50664).
        return 3.0 / 4
    else:
        raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def uniform_(
    tensor: Tensor,
    a: float = 0.0,
    b: float = 1.0,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Fill with values from U(a, b). / 用均匀分布 U(a, b) 填充。

    === "中文"

        若 `tensor` 是定义了 `__torch_function__` 的张量子类，先交给它处理（与 torch 相同，
        收到的 `func` 是本函数）。

        1.5.1 → 2.13：新增 `generator` 参数与 `__torch_function__` 分派。

    === "English"

        If `tensor` is a subclass defining `__torch_function__`, it handles the call first (as
        in torch; the `func` it receives is this function).

        1.5.1 → 2.13: the `generator` argument and the `__torch_function__` dispatch were added.

    Args:
        tensor: An n-dimensional tensor. / n 维张量。
        a: Lower bound. / 下界。
        b: Upper bound. / 上界。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> w = nn.init.uniform_(torch.empty(2, 3), -1.0, 1.0)
        >>> bool(w.abs().max() <= 1)
        True
    """
    if torch.overrides.has_torch_function_variadic(tensor):
        return torch.overrides.handle_torch_function(
            uniform_, (tensor,), tensor=tensor, a=a, b=b, generator=generator
        )
    return _no_grad_uniform_(tensor, a, b, generator)


def normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Fill with values from N(mean, std²). / 用正态分布 N(mean, std²) 填充。

    === "中文"

        与 [`uniform_`][annotated_nn.init.uniform_] 一样支持 `__torch_function__` 分派。

        1.5.1 → 2.13：新增 `generator` 参数与 `__torch_function__` 分派。

    === "English"

        Supports the `__torch_function__` dispatch like [`uniform_`][annotated_nn.init.uniform_].

        1.5.1 → 2.13: the `generator` argument and the `__torch_function__` dispatch were added.

    Args:
        tensor: An n-dimensional tensor. / n 维张量。
        mean: Mean. / 均值。
        std: Standard deviation. / 标准差。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    if torch.overrides.has_torch_function_variadic(tensor):
        return torch.overrides.handle_torch_function(
            normal_, (tensor,), tensor=tensor, mean=mean, std=std, generator=generator
        )
    return _no_grad_normal_(tensor, mean, std, generator)


def trunc_normal_(
    tensor: Tensor,
    mean: float = 0.0,
    std: float = 1.0,
    a: float = -2.0,
    b: float = 2.0,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Fill with N(mean, std²) truncated to [a, b]. / 用截断到 [a, b] 的正态分布填充。

    === "中文"

        区间外的值会被重新采样，而不是截成边界值；采样方法见
        [`_no_grad_trunc_normal_`][annotated_nn.init._no_grad_trunc_normal_]。默认区间
        `[-2, 2]` 是绝对值而非“几个标准差”，`std` 很小时要自己调整 `a`、`b`。均值离区间超过
        两个标准差时会警告分布可能不准。

    === "English"

        Values outside the interval are redrawn, not clipped to the bounds; the sampling is
        described in [`_no_grad_trunc_normal_`][annotated_nn.init._no_grad_trunc_normal_]. The
        default `[-2, 2]` is absolute, not "in standard deviations", so adjust `a` and `b` for
        a small `std`. A mean more than two standard deviations away from the interval warns
        that the distribution may be off.

    Args:
        tensor: An n-dimensional tensor. / n 维张量。
        mean: Mean. / 均值。
        std: Standard deviation. / 标准差。
        a: Lower cutoff. / 下截断点。
        b: Upper cutoff. / 上截断点。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    return _no_grad_trunc_normal_(tensor, mean, std, a, b, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    r"""Fill with the value `val`. / 全部填为 `val`。

    === "中文"

        常用于偏置或归一化层的初始化；支持 `__torch_function__` 分派。

    === "English"

        Common for biases and normalization layers; supports the `__torch_function__` dispatch.

    Args:
        tensor: An n-dimensional tensor. / n 维张量。
        val: The value. / 填充值。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    if torch.overrides.has_torch_function_variadic(tensor):
        return torch.overrides.handle_torch_function(constant_, (tensor,), tensor=tensor, val=val)
    return _no_grad_fill_(tensor, val)


def ones_(tensor: Tensor) -> Tensor:
    r"""Fill with ones. / 全部填为 1。

    === "中文"

        例如 `LayerNorm` 的 `weight`。与 torch 一样不做 `__torch_function__` 分派。

    === "English"

        E.g. the `weight` of `LayerNorm`. Like torch, there is no `__torch_function__` dispatch.

    Args:
        tensor: An n-dimensional tensor. / n 维张量。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    return _no_grad_fill_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    r"""Fill with zeros. / 全部填为 0。

    === "中文"

        例如各层的 `bias`。与 torch 一样不做 `__torch_function__` 分派。

    === "English"

        E.g. the `bias` of many layers. Like torch, there is no `__torch_function__` dispatch.

    Args:
        tensor: An n-dimensional tensor. / n 维张量。

    Returns:
        `tensor`. / `tensor` 本身。
    """
    return _no_grad_zero_(tensor)


def eye_(tensor: Tensor) -> Tensor:
    r"""Fill a 2-D tensor with the identity matrix. / 把二维张量填为单位矩阵。

    === "中文"

        非方阵时对角线上为 1、其余为 0，让 `Linear` 层尽可能多地原样传递输入。

    === "English"

        For a non-square matrix the diagonal is 1 and the rest 0, so a `Linear` layer passes
        through as many inputs as it can.

    Args:
        tensor: A 2-D tensor. / 二维张量。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: `tensor` is not 2-D. / `tensor` 不是二维的。
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")

    with torch.no_grad():
        torch.eye(*tensor.shape, out=tensor, requires_grad=tensor.requires_grad)
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    r"""Fill a 3/4/5-D conv weight with the Dirac delta. / 把 3/4/5 维卷积权重填为狄拉克 δ。

    === "中文"

        让卷积层成为恒等映射：输出通道 `d` 只在卷积核中心、输入通道 `d` 的位置为 1。
        `groups > 1` 时每组各自保持恒等。第 0 维必须能被 `groups` 整除。meta 张量在检查之后
        直接返回。

    === "English"

        Makes a convolution an identity map: output channel `d` is 1 only at the kernel centre
        of input channel `d`. With `groups > 1` each group keeps its own identity. Dim 0 must
        be divisible by `groups`. Meta tensors are returned right after the checks.

    Args:
        tensor: A 3-, 4- or 5-D tensor. / 3、4 或 5 维张量。
        groups: Number of conv groups. / 卷积分组数。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: Wrong number of dims, or dim 0 not divisible by `groups`. / 维数不对，或第 0 维不能被 `groups` 整除。
    """
    dimensions = tensor.ndimension()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")

    sizes = tensor.size()

    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")

    if tensor.is_meta:
        return tensor

    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])

    with torch.no_grad():
        tensor.zero_()
        # 中: 第 g 组的第 d 个输出通道只在输入通道 d、卷积核中心处为 1。
        # EN: Output channel d of group g is 1 only at input channel d, kernel centre.
        for g in range(groups):
            for d in range(min_dim):
                if dimensions == 3:
                    # 中: 一维（时间）卷积。
                    # EN: Temporal (1-D) convolution.
                    tensor[g * out_chans_per_grp + d, d, tensor.size(2) // 2] = 1
                elif dimensions == 4:
                    # 中: 二维（空间）卷积。
                    # EN: Spatial (2-D) convolution.
                    tensor[
                        g * out_chans_per_grp + d,
                        d,
                        tensor.size(2) // 2,
                        tensor.size(3) // 2,
                    ] = 1
                else:
                    # 中: 三维（体积）卷积。
                    # EN: Volumetric (3-D) convolution.
                    tensor[
                        g * out_chans_per_grp + d,
                        d,
                        tensor.size(2) // 2,
                        tensor.size(3) // 2,
                        tensor.size(4) // 2,
                    ] = 1
    return tensor


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    r"""Fan-in and fan-out of a weight of shape `(out, in, *kernel)`. / 形状为 `(out, in, *kernel)` 的权重的扇入与扇出。

    === "中文"

        `fan_in = in × 感受野大小`，`fan_out = out × 感受野大小`，感受野大小是第 2 维起各维
        的乘积（二维权重为 1）。注意约定：`Linear` 的权重是 `(out_features, in_features)`，
        因此第 1 维是输入。张量少于二维时无法计算。

    === "English"

        `fan_in = in × receptive field size` and `fan_out = out × receptive field size`, the
        receptive field size being the product of the dims from dim 2 on (1 for a 2-D weight).
        Mind the convention: `Linear` stores `(out_features, in_features)`, so dim 1 is the
        input. Tensors with fewer than 2 dims have no fans.

    Args:
        tensor: A tensor with at least 2 dims. / 至少二维的张量。

    Returns:
        `(fan_in, fan_out)`. / `(扇入, 扇出)`。

    Raises:
        ValueError: Fewer than 2 dims. / 少于二维。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.init._calculate_fan_in_and_fan_out(torch.empty(16, 6, 3, 3))
        (54, 144)
    """
    dimensions = tensor.dim()
    if dimensions < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )

    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if tensor.dim() > 2:
        # 中: 感受野大小 = 第 2 维起各维之积（torch 为兼容 TorchScript 手写循环，不用 math.prod）。
        # EN: Receptive field size = product of the dims from dim 2 on (a hand-written loop, as
        #     torch keeps for TorchScript, instead of math.prod).
        for s in tensor.shape[2:]:
            receptive_field_size *= s
    fan_in = num_input_fmaps * receptive_field_size
    fan_out = num_output_fmaps * receptive_field_size

    return fan_in, fan_out


def xavier_uniform_(
    tensor: Tensor,
    gain: float = 1.0,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Xavier (Glorot) uniform init: U(−a, a), a = gain·√(6 / (fan_in + fan_out)). / Xavier（Glorot）均匀初始化。

    === "中文"

        来自 Glorot 与 Bengio (2010)：让前向与反向的方差都大致保持不变，标准差取
        `gain·√(2 / (fan_in + fan_out))`，均匀分布的边界是它的 √3 倍。

        1.5.1 → 2.13：新增 `generator` 参数。

    === "English"

        From Glorot & Bengio (2010): keeps the variance roughly constant both forward and
        backward, with standard deviation `gain·√(2 / (fan_in + fan_out))`; the uniform bound
        is √3 times that.

        1.5.1 → 2.13: the `generator` argument was added.

    Args:
        tensor: An n-dimensional tensor, n ≥ 2. / n 维张量，n ≥ 2。
        gain: Scaling factor. / 缩放因子。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: Fewer than 2 dims. / 少于二维。
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    # 中: U(−a, a) 的标准差是 a/√3，反过来由标准差求边界。
    # EN: U(−a, a) has standard deviation a/√3; invert it to get the bound.
    a = math.sqrt(3.0) * std

    return _no_grad_uniform_(tensor, -a, a, generator)


def xavier_normal_(
    tensor: Tensor,
    gain: float = 1.0,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Xavier (Glorot) normal init: N(0, std²), std = gain·√(2 / (fan_in + fan_out)). / Xavier（Glorot）正态初始化。

    === "中文"

        与 [`xavier_uniform_`][annotated_nn.init.xavier_uniform_] 的标准差相同，只是换成正态分布。

        1.5.1 → 2.13：新增 `generator` 参数。

    === "English"

        The same standard deviation as [`xavier_uniform_`][annotated_nn.init.xavier_uniform_],
        drawn from a normal distribution.

        1.5.1 → 2.13: the `generator` argument was added.

    Args:
        tensor: An n-dimensional tensor, n ≥ 2. / n 维张量，n ≥ 2。
        gain: Scaling factor. / 缩放因子。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: Fewer than 2 dims. / 少于二维。
    """
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))

    return _no_grad_normal_(tensor, 0.0, std, generator)


def _calculate_correct_fan(tensor: Tensor, mode: _FanMode) -> int:
    r"""Pick fan-in or fan-out by `mode`. / 按 `mode` 选出扇入或扇出。

    === "中文"

        `mode` 不区分大小写。先检查 `mode`，再计算扇入扇出，所以同时出错时报的是 `mode` 的错。

    === "English"

        `mode` is case-insensitive. It is checked before the fans are computed, so when both
        are wrong the `mode` error is the one raised.

    Args:
        tensor: A tensor with at least 2 dims. / 至少二维的张量。
        mode: `'fan_in'` or `'fan_out'`. / `'fan_in'` 或 `'fan_out'`。

    Returns:
        The chosen fan. / 选出的扇入或扇出。

    Raises:
        ValueError: Unknown mode, or fewer than 2 dims. / 未知的 mode，或少于二维。
    """
    mode = mode.lower()
    valid_modes = ["fan_in", "fan_out"]
    if mode not in valid_modes:
        raise ValueError(f"Mode {mode} not supported, please use one of {valid_modes}")

    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def kaiming_uniform_(
    tensor: Tensor,
    a: float = 0,
    mode: _FanMode = "fan_in",
    nonlinearity: _NonlinearityType = "leaky_relu",
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Kaiming (He) uniform init: U(−b, b), b = gain·√(3 / fan). / Kaiming（He）均匀初始化。

    === "中文"

        来自 He 等 (2015)，为 ReLU 类激活设计：标准差 `gain / √fan`，均匀边界是它的 √3 倍。
        `mode='fan_in'` 保持前向传播的方差，`'fan_out'` 保持反向传播的方差。注意默认的
        非线性是 `'leaky_relu'` 且 `a=0`，增益即 √2。`Linear` 与卷积层的
        `reset_parameters` 用 `a=√5`，得到 U(−1/√fan_in, 1/√fan_in)。

        有零长度维度的张量直接返回并警告（不报错）；支持 `__torch_function__` 分派。
        扇入扇出按 `x @ w.T` 的约定计算；若按 `x @ w` 使用，请传 `w.T`。

        1.5.1 → 2.13：新增 `generator` 参数与 `__torch_function__` 分派。

    === "English"

        From He et al. (2015), made for ReLU-like activations: standard deviation
        `gain / √fan`, uniform bound √3 times that. `mode='fan_in'` preserves the variance in
        the forward pass, `'fan_out'` in the backward pass. The default nonlinearity is
        `'leaky_relu'` with `a=0`, i.e. a gain of √2. The `reset_parameters` of `Linear` and
        the conv layers pass `a=√5`, giving U(−1/√fan_in, 1/√fan_in).

        A tensor with a zero-length dim is returned with a warning (no error); the
        `__torch_function__` dispatch is supported. Fans follow the `x @ w.T` convention; for
        `x @ w` pass `w.T`.

        1.5.1 → 2.13: the `generator` argument and the `__torch_function__` dispatch were
        added.

    Args:
        tensor: An n-dimensional tensor, n ≥ 2. / n 维张量，n ≥ 2。
        a: Negative slope of the rectifier (leaky_relu only). / 整流函数的负斜率（仅 leaky_relu 使用）。
        mode: `'fan_in'` or `'fan_out'`. / `'fan_in'` 或 `'fan_out'`。
        nonlinearity: Name of the nonlinearity. / 非线性函数名。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: Bad mode or nonlinearity, or fewer than 2 dims. / mode 或非线性函数无效，或少于二维。
    """
    if torch.overrides.has_torch_function_variadic(tensor):
        return torch.overrides.handle_torch_function(
            kaiming_uniform_,
            (tensor,),
            tensor=tensor,
            a=a,
            mode=mode,
            nonlinearity=nonlinearity,
            generator=generator,
        )

    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    with torch.no_grad():
        return tensor.uniform_(-bound, bound, generator=generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: _FanMode = "fan_in",
    nonlinearity: _NonlinearityType = "leaky_relu",
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Kaiming (He) normal init: N(0, std²), std = gain / √fan. / Kaiming（He）正态初始化。

    === "中文"

        与 [`kaiming_uniform_`][annotated_nn.init.kaiming_uniform_] 的标准差相同，换成正态
        分布。与 torch 一样，这个函数没有 `__torch_function__` 分派。

        1.5.1 → 2.13：新增 `generator` 参数。

    === "English"

        The same standard deviation as
        [`kaiming_uniform_`][annotated_nn.init.kaiming_uniform_], drawn from a normal
        distribution. As in torch, this one has no `__torch_function__` dispatch.

        1.5.1 → 2.13: the `generator` argument was added.

    Args:
        tensor: An n-dimensional tensor, n ≥ 2. / n 维张量，n ≥ 2。
        a: Negative slope of the rectifier (leaky_relu only). / 整流函数的负斜率（仅 leaky_relu 使用）。
        mode: `'fan_in'` or `'fan_out'`. / `'fan_in'` 或 `'fan_out'`。
        nonlinearity: Name of the nonlinearity. / 非线性函数名。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: Bad mode or nonlinearity, or fewer than 2 dims. / mode 或非线性函数无效，或少于二维。
    """
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    with torch.no_grad():
        return tensor.normal_(0, std, generator=generator)


def orthogonal_(
    tensor: Tensor,
    gain: float = 1,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Fill with a (semi-)orthogonal matrix times `gain`. / 填入（半）正交矩阵再乘以 `gain`。

    === "中文"

        来自 Saxe 等 (2013)。把张量看成 `rows × (numel / rows)` 的矩阵，对标准正态随机矩阵做
        QR 分解取 Q；行少于列时先转置再分解。再按 R 对角线的符号修正 Q 的各列，使结果在
        正交群上均匀分布（Mezzadri 2006）。空张量与 meta 张量直接返回。

        1.5.1 → 2.13：新增 `generator` 参数；QR 分解由 `torch.qr` 换成 `torch.linalg.qr`。

    === "English"

        From Saxe et al. (2013). The tensor is viewed as a `rows × (numel / rows)` matrix; a
        standard normal random matrix is QR-factorized and Q kept, transposing first when there
        are fewer rows than columns. Q's columns are then multiplied by the signs of R's
        diagonal, which makes the result uniform over the orthogonal group (Mezzadri 2006).
        Empty and meta tensors are returned as they are.

        1.5.1 → 2.13: the `generator` argument was added; the QR factorization moved from
        `torch.qr` to `torch.linalg.qr`.

    Args:
        tensor: An n-dimensional tensor, n ≥ 2. / n 维张量，n ≥ 2。
        gain: Scaling factor. / 缩放因子。
        generator: Random generator, or `None` for the default. / 随机数生成器；`None` 用默认的。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: Fewer than 2 dims. / 少于二维。
    """
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")

    if tensor.numel() == 0 or tensor.is_meta:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)

    if rows < cols:
        flattened.t_()

    q, r = torch.linalg.qr(flattened)
    # 中: 用 R 对角线的符号修正 Q，使 Q 服从均匀（Haar）分布。
    # EN: Fix Q with the signs of R's diagonal so that Q is uniformly (Haar) distributed.
    d = torch.diag(r, 0)
    ph = d.sign()
    q *= ph

    if rows < cols:
        q.t_()

    with torch.no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(
    tensor: Tensor,
    sparsity: float,
    std: float = 0.01,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Fill a 2-D tensor as a sparse matrix: N(0, std²) with zeros in each column. / 把二维张量填成稀疏矩阵：N(0, std²)，每列置若干个零。

    === "中文"

        来自 Martens (2010)。先整体填入 N(0, std²)，再对每一列随机选
        `ceil(sparsity × rows)` 个行置零。注意与 torch 相同：选行用的 `torch.randperm`
        不接收 `generator`，走的是全局随机数生成器。

        1.5.1 → 2.13：新增 `generator` 参数（只用于正态采样）。

    === "English"

        From Martens (2010). The whole tensor is filled from N(0, std²), then
        `ceil(sparsity × rows)` random rows of each column are zeroed. As in torch, the
        `torch.randperm` that picks rows ignores `generator` and uses the global generator.

        1.5.1 → 2.13: the `generator` argument was added (used for the normal draw only).

    Args:
        tensor: A 2-D tensor. / 二维张量。
        sparsity: Fraction of each column set to zero. / 每列置零的比例。
        std: Standard deviation of the non-zero values. / 非零值的标准差。
        generator: Random generator for the normal draw. / 正态采样用的随机数生成器。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: `tensor` is not 2-D. / `tensor` 不是二维的。
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")

    if tensor.is_meta:
        return tensor

    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)

    with torch.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col_idx in range(cols):
            row_indices = torch.randperm(rows)
            zero_indices = row_indices[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


def _make_deprecate(meth: Callable[_P, _R]) -> Callable[_P, _R]:
    r"""Build the deprecated alias without the trailing underscore. / 生成去掉末尾下划线的弃用别名。

    === "中文"

        早期版本的初始化函数没有 `_` 后缀（如 `nn.init.uniform`）。为了兼容，保留这些名字，
        调用时发出 `FutureWarning` 再转给新函数。

    === "English"

        Early versions named the init functions without the `_` suffix (e.g.
        `nn.init.uniform`). Those names are kept for compatibility; calling one warns with
        `FutureWarning` and forwards to the new function.

    Args:
        meth: The in-place function, e.g. `uniform_`. / 就地版本的函数，如 `uniform_`。

    Returns:
        The alias, named without the underscore. / 不带下划线命名的别名函数。
    """
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        r"""Deprecated alias: warn, then call the in-place function. / 弃用别名：先警告，再调用就地版本。

        === "中文"

            警告文字与 torch 相同，指向调用者所在行（`stacklevel=2`）。

        === "English"

            The warning text is torch's and points at the caller's line (`stacklevel=2`).

        Args:
            *args: Passed through. / 原样转交。
            **kwargs: Passed through. / 原样转交。

        Returns:
            What the in-place function returns. / 就地版本的返回值。
        """
        warnings.warn(
            f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
            FutureWarning,
            stacklevel=2,
        )
        return meth(*args, **kwargs)

    # DIFF(torch 2.13):
    # 中: 运行时的 __doc__ 写成双语并链接到本库的新函数；torch 写的是 reST。
    # EN: The runtime __doc__ is bilingual and links to this library's new function; torch
    #     writes reST.
    deprecated_init.__doc__ = (
        f"Deprecated alias of `{new_name}`. / `{new_name}` 的弃用别名。\n\n"
        f'    === "中文"\n\n'
        f"        `{old_name}(...)` 已弃用，调用时发出 `FutureWarning`，请改用 "
        f"[`{new_name}`][annotated_nn.init.{new_name}]。\n\n"
        f'    === "English"\n\n'
        f"        `{old_name}(...)` is deprecated and warns with `FutureWarning`; use "
        f"[`{new_name}`][annotated_nn.init.{new_name}] instead.\n"
    )
    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
