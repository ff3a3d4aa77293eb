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


# 中: 下面的 `_no_grad_*` 小函数把 `with torch.no_grad()` 包起来。torch 源码注释给出的理由是
# 中: JIT 不支持上下文管理器，所以这几段要做成内置函数：`torch.jit._builtins` 把
# 中: `_no_grad_fill_`、`_no_grad_normal_`、`_no_grad_uniform_`、`_no_grad_zero_` 映射到
# 中: `aten::_no_grad_*` 算子（2.13 的 TorchScript 其实已能编译 `with torch.no_grad()`）。
# 中: 这里保留同样的拆分。
# EN: The small `_no_grad_*` helpers below wrap `with torch.no_grad()`. torch's source comment
# EN: gives the reason: the JIT does not support context managers, so these pieces are builtins;
# EN: `torch.jit._builtins` maps `_no_grad_fill_`, `_no_grad_normal_`, `_no_grad_uniform_` and
# EN: `_no_grad_zero_` to `aten::_no_grad_*` ops (2.13's TorchScript does compile
# EN: `with torch.no_grad()` by now). The same split is kept here.
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
    # 中: 在 `no_grad` 外，对需要梯度的叶子张量就地操作会报 "a leaf Variable that requires
    # 中: grad is being used in an in-place operation"；在 `no_grad` 里写入不进计算图，
    # 中: 参数仍是没有 `grad_fn` 的叶子。
    # EN: Outside `no_grad`, an in-place op on a leaf that requires grad fails with "a leaf
    # EN: Variable that requires grad is being used in an in-place operation"; inside it the
    # EN: write is not recorded and the parameter stays a leaf with no `grad_fn`.
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

        1.5.1 → 2.13：1.5.1 没有截断正态初始化；此后的版本曾用逆 CDF（`erfinv_` 再
        `clamp_`）实现，2.13 用的是上面的拒绝采样。旧做法在 `std` 很小时，`erfinv_` 在 ±1
        附近的输入会产生被截到边界上的离群值（见 PyTorch PR #174997）。

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

        1.5.1 → 2.13: 1.5.1 had no truncated-normal init; later versions used the inverse
        CDF (`erfinv_`, then `clamp_`), and 2.13 uses the rejection sampling above. With a
        small `std`, the old way turned `erfinv_` inputs near ±1 into outliers clamped onto
        the bounds (see PyTorch PR #174997).

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
    # 中: meta 张量没有存储，无处可写：在任何检查和随机数之前返回，不发出警告，
    # 中: 也不消耗随机数。
    # EN: A meta tensor has no storage to write to: return before any check or random draw,
    # EN: so it neither warns nor consumes random numbers.
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

    # 中: 只警告、照样采样。`stacklevel=2` 指向本函数的调用者，也就是 `trunc_normal_` 里
    # 中: 的那一行，而不是用户代码（torch 同样如此）。
    # EN: A warning only; sampling goes on. `stacklevel=2` points at this helper's caller, the
    # EN: line in `trunc_normal_`, not at user code (the same in torch).
    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn(
            "mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
            "The distribution of values may be incorrect.",
            stacklevel=2,
        )

    with torch.no_grad():
        # 中: p 是正态分布落在 [a, b] 内的概率，决定用哪种采样法：第一种方法每个位置每轮
        # 中: 以概率 p 落入区间，p 小时要重来很多轮。
        # EN: p is the probability that the normal distribution lands in [a, b]; it picks the
        # EN: sampling method: the first method lands in range with probability p per position
        # EN: and round, so a small p means many rounds.
        p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)

        if p > 0.3:
            # 中: 先把边界转换成张量的 dtype（torch 注释给出的理由：让拒绝掩码与张量能
            # 中: 表示的值一致）。第 1 轮直接写进 `tensor`，此时 `result is tensor`。
            # EN: Cast the bounds to the tensor's dtype first (torch's comment: so the rejection
            # EN: mask agrees with the values the tensor can represent). Round 1 writes straight
            # EN: into `tensor`, so `result is tensor` at first.
            lo = tensor.new_tensor(a, device="cpu").item()
            hi = tensor.new_tensor(b, device="cpu").item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                # 中: 每轮为整个张量重新采样，只在越界位置采用新值（随机数用量与 torch 一致）。
                # EN: Each round samples a whole new tensor and takes it only where out of range
                # EN: (the same random draws as torch).
                result = torch.where(
                    mask,
                    torch.empty_like(result).normal_(mean, std, generator=generator),
                    result,
                )
            # 中: 只有跑过重采样轮，`result` 才是 `torch.where` 造出的新张量；把它拷回，
            # 中: 调用者的张量（可能是 Parameter）就地得到结果，对象不变。
            # EN: Only after a retry round is `result` a new tensor from `torch.where`; copy it
            # EN: back so the caller's tensor (maybe a Parameter) gets the values in place.
            if tensor is not result:
                tensor.copy_(result)
        else:
            # 中: 提议分布是 [a, b] 上的均匀分布，目标密度 ∝ exp(−½((x − mean)/std)²)。它在
            # 中: [a, b] 上的最大值在“均值截到区间内”的点 `mode`，所以接受概率
            # 中: exp(log_pdf − log_peak) ≤ 1，这是精确的拒绝采样。两个缓冲区在各轮中复用，
            # 中: 占张量两倍的内存；每轮重试的 `torch.where` 与比较还会另建同样大小的临时张量。
            # EN: The proposal is uniform on [a, b]; the target density is
            # EN: ∝ exp(−½((x − mean)/std)²). Its maximum on [a, b] is at the mean clamped into
            # EN: the interval (`mode`), so the acceptance probability exp(log_pdf − log_peak) is
            # EN: ≤ 1: exact rejection sampling. The two buffers are reused by every round,
            # EN: costing twice the tensor's memory; each retry round's `torch.where` and comparisons
            # EN: also build temporaries of the same size.
            mode = max(a, min(mean, b))
            log_peak = -0.5 * ((mode - mean) / std) ** 2

            candidates = torch.empty_like(tensor)
            accept_buf = torch.empty_like(tensor)

            # 中: 第一轮直接采样到 tensor 里：若全部被接受，就省掉一次 where + copy_。
            # EN: The first round samples straight into tensor: if everything is accepted, a
            # EN: where() + copy_() is saved.
            tensor.uniform_(a, b, generator=generator)
            candidates.copy_(tensor)
            # 中: 就地算出 log_pdf(c) − log_peak = −0.5·((c − mean)/std)² − log_peak。
            # EN: In place: log_pdf(c) − log_peak = −0.5·((c − mean)/std)² − log_peak.
            candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            # 中: log(u) > log_pdf − log_peak 的位置被拒绝，仍待重采样。
            # EN: Positions where log(u) > log_pdf − log_peak are rejected and still pending.
            pending = accept_buf.uniform_(generator=generator).log_().gt(candidates)
            # 中: 重采样轮：每轮为所有位置抽新的候选值和 u（随机数用量与 torch 一致），
            # 中: 但只在仍待定的位置采用。
            # EN: Retry rounds: each round draws new candidates and new u for every position
            # EN: (the same random draws as torch), used only where still pending.
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
                # 中: 第一次 `torch.where` 之后 `result` 已是新张量，结束时一次性拷回 `tensor`。
                # EN: After the first `torch.where`, `result` is a new tensor; copy it back into
                # EN: `tensor` once at the end.
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
    # 中: 这里的“非线性”指层后面接的函数。线性层和卷积后面没有压缩变换，恒等映射不改变
    # 中: 方差，增益为 1。名字沿用 `torch.nn.functional` 的函数名。
    # EN: The "nonlinearity" is the function applied after the layer. Linear maps and
    # EN: convolutions are followed by no squashing: the identity keeps the variance, gain 1.
    # EN: The names are those of `torch.nn.functional`.
    linear_fns = [
        "linear",
        "conv1d",
        "conv2d",
        "conv3d",
        # 中: 转置卷积同样是线性映射，增益也是 1；增益并不纠正它们对调的扇入扇出
        # 中: （见 `_calculate_fan_in_and_fan_out`）。
        # EN: Transposed convolutions are linear maps too, gain 1 as well; the gain does not
        # EN: correct their swapped fans (see `_calculate_fan_in_and_fan_out`).
        "conv_transpose1d",
        "conv_transpose2d",
        "conv_transpose3d",
    ]
    # 中: sigmoid 也取 1，torch 的表格没有为它给出推导（它在 0 处的斜率是 1/4）。注意返回的
    # 中: 是整数 `1` 而不是 `1.0`，与 torch 相同。
    # EN: sigmoid gets 1 as well; torch's table gives no derivation for it (its slope at 0 is
    # EN: 1/4). Note the int `1`, not `1.0`, as in torch.
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    # 中: 5/3 是经验值：tanh 会压缩方差，例如 x ~ N(0, 1) 时 tanh(x) 的标准差约 0.63，
    # 中: 而 5/3 × 0.63 ≈ 1.05，大致抵消了这一收缩。
    # EN: 5/3 is a heuristic: tanh shrinks the variance, e.g. for x ~ N(0, 1) the std of
    # EN: tanh(x) is about 0.63, and 5/3 × 0.63 ≈ 1.05 roughly undoes the shrinking.
    elif nonlinearity == "tanh":
        return 5.0 / 3
    # 中: ReLU 把负半轴置零：对零均值的对称输入 x，E[relu(x)²] = E[x²] / 2，乘以 √2
    # 中: 恰好补回二阶矩（He 等 2015）。
    # EN: ReLU zeroes the negative half: for a zero-mean symmetric input x,
    # EN: E[relu(x)²] = E[x²] / 2, and √2 restores the second moment (He et al. 2015).
    elif nonlinearity == "relu":
        return math.sqrt(2.0)
    # 中: 负半轴斜率为 s 时 E[f(x)²] = (1 + s²) / 2 · E[x²]，所以增益是 √(2 / (1 + s²))：
    # 中: s = 0 即 ReLU 的 √2，s = 1 即恒等的 1。`param=None` 时用 0.01，即
    # 中: `F.leaky_relu` 的默认斜率。`kaiming_*` 把自己的 `a` 作为 `param` 传进来，
    # 中: 所以 `a` 只在这一分支起作用。
    # EN: With slope s on the negative half, E[f(x)²] = (1 + s²) / 2 · E[x²], hence the gain
    # EN: √(2 / (1 + s²)): s = 0 gives ReLU's √2, s = 1 the identity's 1. `param=None` means
    # EN: 0.01, the default slope of `F.leaky_relu`. `kaiming_*` pass their `a` as `param`,
    # EN: so `a` matters in this branch only.
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
        # 中: 经验值（见 PyTorch PR #50664）。torch 的文档说明：它为矩形层中更稳定的梯度流
        # 中: 牺牲了自归一化效果；要自归一化请用 `'linear'`（权重方差 1 / N）。
        # EN: An empirical value (see PyTorch PR #50664). torch's docs say it gives up the
        # EN: self-normalizing effect for a more stable gradient flow in rectangular layers; for
        # EN: self-normalization use `'linear'` (weight variance 1 / N).
        return 3.0 / 4
    else:
        # 中: 其余名字一律报错，包括 torch 里确有的函数，如 `'gelu'`、`'elu'`。
        # EN: Any other name is an error, including functions torch does have, like `'gelu'`
        # EN: or `'elu'`.
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
    # 中: 定义了 `__torch_function__` 的张量子类先接手，收到的 `func` 是本函数而不是
    # 中: `Tensor.uniform_`；普通张量直接走 `no_grad` 辅助函数。
    # EN: A tensor subclass with `__torch_function__` takes the call first, receiving this
    # EN: function as `func` rather than `Tensor.uniform_`; plain tensors go straight to the
    # EN: `no_grad` helper.
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
    r"""Fill with the value 1. / 全部填为 1。

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
    r"""Fill with the value 0. / 全部填为 0。

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
    r"""Fill a 2-D tensor with the identity matrix. / 把 2 维张量填为单位矩阵。

    === "中文"

        非方阵时对角线上为 1、其余为 0，让 `Linear` 层尽可能多地原样传递输入。

    === "English"

        For a non-square matrix the diagonal is 1 and the rest 0, so a `Linear` layer passes
        through as many inputs as it can.

    Args:
        tensor: A 2-D tensor. / 2 维张量。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: `tensor` is not 2-D. / `tensor` 不是 2 维的。
    """
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")

    # 中: `out=tensor` 把单位矩阵写进张量自己的存储，Parameter 还是同一个对象；
    # 中: `torch.eye(n, m)` 在非方阵时只在主对角线的 min(n, m) 个位置放 1。
    # EN: `out=tensor` writes the identity into the tensor's own storage, so a Parameter stays
    # EN: the same object; for a non-square `torch.eye(n, m)` only the min(n, m) main-diagonal
    # EN: entries are 1.
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

        Makes a convolution an identity map: output channel `d` is 1 only at the kernel center
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
    # 中: 3/4/5 维对应 Conv1d/2d/3d 的权重 `(out, in / groups, *kernel)`。形状检查在 meta
    # 中: 判断之前，所以形状不对的 meta 张量同样报错。
    # EN: 3/4/5 dims are the Conv1d/2d/3d weights `(out, in / groups, *kernel)`. The shape
    # EN: checks come before the meta test, so a meta tensor of a bad shape raises as well.
    dimensions = tensor.ndimension()
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")

    sizes = tensor.size()

    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")

    if tensor.is_meta:
        return tensor

    # 中: 每组有 `sizes[0] // groups` 个输出通道、`sizes[1]` 个输入通道；两者不等时只有前
    # 中: `min_dim` 个通道得到 1，其余输出通道全为零（“尽可能多地”保持恒等）。
    # EN: Each group has `sizes[0] // groups` output and `sizes[1]` input channels; when they
    # EN: differ only the first `min_dim` channels get a 1 and the other output channels stay
    # EN: all zero (identity for "as many channels as possible").
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])

    with torch.no_grad():
        tensor.zero_()
        # 中: 第 g 组的第 d 个输出通道只在输入通道 d、卷积核中心处为 1。中心取 `size // 2`，
        # 中: 偶数尺寸时落在中间两格中靠后的一格。步长为 1、奇数核 k 配 padding `k // 2` 时，
        # 中: 卷积输出正好等于输入。
        # EN: Output channel d of group g is 1 only at input channel d, kernel center. The
        # EN: center is `size // 2`, the later of the two middle cells for an even size. With
        # EN: stride 1 and padding `k // 2` for an odd kernel k, the conv output equals its input.
        for g in range(groups):
            for d in range(min_dim):
                if dimensions == 3:
                    # 中: 1 维（时间）卷积。
                    # EN: Temporal (1-D) convolution.
                    tensor[g * out_chans_per_grp + d, d, tensor.size(2) // 2] = 1
                elif dimensions == 4:
                    # 中: 2 维（空间）卷积。
                    # EN: Spatial (2-D) convolution.
                    tensor[
                        g * out_chans_per_grp + d,
                        d,
                        tensor.size(2) // 2,
                        tensor.size(3) // 2,
                    ] = 1
                else:
                    # 中: 3 维（体积）卷积。
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

        `fan_in = in × receptive_field_size`，`fan_out = out × receptive_field_size`，
        其中感受野大小 `receptive_field_size` 是第 2 维起各维的乘积（2 维权重为 1）。
        注意约定：`Linear` 的权重是 `(out_features, in_features)`，因此第 1 维是输入。
        张量少于 2 维时无法计算。

    === "English"

        `fan_in = in × receptive_field_size` and `fan_out = out × receptive_field_size`, where
        the receptive field size `receptive_field_size` is the product of the dims from dim 2
        on (1 for a 2-D weight). Mind the convention: `Linear` stores
        `(out_features, in_features)`, so dim 1 is the input. Tensors with fewer than 2 dims
        have no fans.

    Args:
        tensor: A tensor with at least 2 dims. / 至少 2 维的张量。

    Returns:
        `(fan_in, fan_out)`. / `(扇入, 扇出)`。

    Raises:
        ValueError: Fewer than 2 dims. / 少于 2 维。

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

    # 中: 第 1 维是输入、第 0 维是输出：这是 `Linear` `(out_features, in_features)` 与卷积
    # 中: `(out, in / groups, *kernel)` 的布局。转置卷积的权重是 `(in, out / groups, *kernel)`，
    # 中: 两者正好对调，所以它的 "fan_in" 数的其实是输出通道。
    # EN: Dim 1 is the input and dim 0 the output: the layout of `Linear`
    # EN: `(out_features, in_features)` and of convs `(out, in / groups, *kernel)`. A transposed
    # EN: conv stores `(in, out / groups, *kernel)`, the other way round, so its "fan_in"
    # EN: actually counts output channels.
    num_input_fmaps = tensor.size(1)
    num_output_fmaps = tensor.size(0)
    receptive_field_size = 1
    if tensor.dim() > 2:
        # 中: 感受野大小 = 第 2 维起各维之积。torch 的注释说明手写循环的原因：`math.prod`
        # 中: 并非总是可用，而 `functools.reduce` 不被 TorchScript 支持。
        # EN: Receptive field size = product of the dims from dim 2 on. torch's comment explains
        # EN: the hand-written loop: `math.prod` is not always available, and
        # EN: `functools.reduce` is not supported by TorchScript.
        for s in tensor.shape[2:]:
            receptive_field_size *= s
    # 中: 每个输出单元对 fan_in 个乘积求和（输入通道 × 卷积核位置），每个输入单元最多参与
    # 中: fan_out 个输出（步长大于 1 或分组时更少）。
    # EN: Each output unit sums fan_in products (input channels × kernel taps); each input unit
    # EN: feeds at most fan_out outputs (fewer with a stride above 1 or with groups).
    fan_in = num_input_fmaps * receptive_field_size
    fan_out = num_output_fmaps * receptive_field_size

    return fan_in, fan_out


def xavier_uniform_(
    tensor: Tensor,
    gain: float = 1.0,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Xavier (Glorot) uniform init: U(−a, a), a = gain·√(6/(fan_in + fan_out)). / Xavier（Glorot）均匀初始化：U(−a, a)，a = gain·√(6/(fan_in + fan_out))。

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
        ValueError: Fewer than 2 dims. / 少于 2 维。
    """
    # 中: 前向要求 Var(w) = 1/fan_in，反向要求 1/fan_out；Glorot 取两者的调和平均
    # 中: 2/(fan_in + fan_out) 作折中，再乘上增益。
    # EN: The forward pass wants Var(w) = 1/fan_in, the backward pass 1/fan_out; Glorot takes
    # EN: their harmonic mean 2/(fan_in + fan_out) as the compromise, times the gain.
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    # 中: U(−a, a) 的方差是 a²/3（标准差 a/√3），反过来由标准差求边界：
    # 中: a = √3·std = gain·√(6 / (fan_in + fan_out))。
    # EN: U(−a, a) has variance a²/3 (standard deviation a/√3); invert it to get the bound:
    # EN: a = √3·std = gain·√(6 / (fan_in + fan_out)).
    a = math.sqrt(3.0) * std

    return _no_grad_uniform_(tensor, -a, a, generator)


def xavier_normal_(
    tensor: Tensor,
    gain: float = 1.0,
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Xavier (Glorot) normal init: N(0, std²), std = gain·√(2/(fan_in + fan_out)). / Xavier（Glorot）正态初始化：N(0, std²)，std = gain·√(2/(fan_in + fan_out))。

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
        ValueError: Fewer than 2 dims. / 少于 2 维。
    """
    # 中: 与 `xavier_uniform_` 的标准差相同；正态分布直接以标准差为参数，不需要 √3。
    # EN: The same std as `xavier_uniform_`; a normal takes the std directly, no √3 needed.
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
        tensor: A tensor with at least 2 dims. / 至少 2 维的张量。
        mode: `'fan_in'` or `'fan_out'`. / `'fan_in'` 或 `'fan_out'`。

    Returns:
        The chosen fan. / 选出的扇入或扇出。

    Raises:
        ValueError: Unknown mode, or fewer than 2 dims. / 未知的 mode，或少于 2 维。
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
    r"""Kaiming (He) uniform init: U(−b, b), b = gain·√(3/fan). / Kaiming（He）均匀初始化：U(−b, b)，b = gain·√(3/fan)。

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
        ValueError: Bad mode or nonlinearity, or fewer than 2 dims. / mode 或非线性函数无效，或少于 2 维。
    """
    # 中: 张量子类的 `__torch_function__` 在一切检查之前接手（`func` 是本函数）。
    # EN: A tensor subclass's `__torch_function__` takes over before any check (`func` is this
    # EN: function).
    if torch.overrides.has_torch_function_variadic(tensor):
        return torch.overrides.handle_torch_function(
            kaiming_uniform_,
            # 中: `(tensor,)` 只说明在哪些参数里找重载；调用全部按关键字转交，
            # 中: 所以重载收到的是 `args == ()`，所有值都在 `kwargs` 里。
            # EN: `(tensor,)` only says where to look for overrides; the call is forwarded all
            # EN: by keyword, so the override gets `args == ()` and every value in `kwargs`.
            (tensor,),
            tensor=tensor,
            a=a,
            mode=mode,
            nonlinearity=nonlinearity,
            generator=generator,
        )

    # 中: 空张量在检查 `mode` 与 `nonlinearity` 之前就返回：即使两者无效，也只得到一个警告
    # 中: （`stacklevel=2` 指向调用者）。
    # EN: An empty tensor returns before `mode` and `nonlinearity` are checked: even invalid
    # EN: ones only get a warning (`stacklevel=2` points at the caller).
    if 0 in tensor.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", stacklevel=2)
        return tensor
    # 中: std = gain/√fan，即 Var(w) = gain²/fan；ReLU 的 gain² = 2 给出 He 的 2/fan_in。
    # 中: U(−b, b) 的标准差是 b/√3，所以 b = √3·std = gain·√(3/fan)。`Linear` 与卷积层的
    # 中: `a=√5` 给出 gain = √(2/6) = 1/√3，于是 b = 1/√fan_in。
    # EN: std = gain/√fan, i.e. Var(w) = gain²/fan; ReLU's gain² = 2 gives He's 2/fan_in.
    # EN: U(−b, b) has standard deviation b/√3, so b = √3·std = gain·√(3/fan). The `a=√5` of
    # EN: `Linear` and the conv layers gives gain = √(2/6) = 1/√3, hence b = 1/√fan_in.
    fan = _calculate_correct_fan(tensor, mode)
    gain = calculate_gain(nonlinearity, a)
    std = gain / math.sqrt(fan)
    bound = math.sqrt(3.0) * std
    # 中: 这里直接在 `no_grad` 里调用 `tensor.uniform_`，没有经过 `_no_grad_uniform_`；
    # 中: 随机数调用相同。
    # EN: `tensor.uniform_` is called inline under `no_grad` instead of via
    # EN: `_no_grad_uniform_`; the random call is the same.
    with torch.no_grad():
        return tensor.uniform_(-bound, bound, generator=generator)


def kaiming_normal_(
    tensor: Tensor,
    a: float = 0,
    mode: _FanMode = "fan_in",
    nonlinearity: _NonlinearityType = "leaky_relu",
    generator: torch.Generator | None = None,
) -> Tensor:
    r"""Kaiming (He) normal init: N(0, std²), std = gain/√fan. / Kaiming（He）正态初始化：N(0, std²)，std = gain/√fan。

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
        ValueError: Bad mode or nonlinearity, or fewer than 2 dims. / mode 或非线性函数无效，或少于 2 维。
    """
    # 中: 与 `kaiming_uniform_` 相同的顺序与标准差，只是没有 `__torch_function__` 分派，
    # 中: 也不需要 √3：正态分布直接以 std 为参数。
    # EN: The same order and std as `kaiming_uniform_`, minus the `__torch_function__`
    # EN: dispatch, and no √3: a normal takes the std directly.
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
        ValueError: Fewer than 2 dims. / 少于 2 维。
    """
    # 中: 空张量与 meta 张量在抽取任何随机数之前返回。
    # EN: Empty and meta tensors return before any random number is drawn.
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")

    if tensor.numel() == 0 or tensor.is_meta:
        return tensor
    # 中: 把张量看成 rows × (numel / rows)：第 0 维保留，其余维展平。高斯矩阵用 `new_empty`
    # 中: 建（同 dtype、同设备），它是新张量、不需要梯度，所以这些步骤虽在 `no_grad` 外也
    # 中: 不会被记录。
    # EN: View the tensor as rows × (numel / rows): dim 0 stays, the rest is flattened. The
    # EN: Gaussian matrix comes from `new_empty` (same dtype and device); it is a fresh tensor
    # EN: that does not require grad, so these steps record nothing even outside `no_grad`.
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)

    # 中: 约化 QR 给出列正交的 Q（m × min(m, n)）。宽矩阵先转置成高矩阵，分解后再转回，
    # 中: 于是宽矩阵的各行正交（W Wᵀ = I），高矩阵的各列正交（Wᵀ W = I）。
    # EN: The reduced QR gives a Q with orthonormal columns (m × min(m, n)). A wide matrix is
    # EN: transposed to a tall one first and back afterwards, so a wide result has orthonormal
    # EN: rows (W Wᵀ = I) and a tall one orthonormal columns (Wᵀ W = I).
    if rows < cols:
        flattened.t_()

    q, r = torch.linalg.qr(flattened)
    # 中: 用 R 对角线的符号修正 Q，使 Q 服从均匀（Haar）分布：QR 只在 R 对角线的符号上
    # 中: 不唯一，分解例程对符号的固定选择会让 Q 有偏；`ph` 按最后一维广播，逐列乘上符号。
    # EN: Fix Q with the signs of R's diagonal so that Q is uniformly (Haar) distributed: QR is
    # EN: unique only up to those signs, and the routine's fixed sign choice biases Q; `ph`
    # EN: broadcasts over the last dim, multiplying each column by its sign.
    d = torch.diag(r, 0)
    ph = d.sign()
    q *= ph

    if rows < cols:
        q.t_()

    # 中: 只有写进调用者张量这一步需要 `no_grad`（它可能是需要梯度的叶子）。
    # EN: Only the write into the caller's tensor needs `no_grad` (it may be a leaf that
    # EN: requires grad).
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
    r"""Fill a 2-D tensor as a sparse matrix: N(0, std²) with zeros in each column. / 把 2 维张量填成稀疏矩阵：N(0, std²)，每列置若干个零。

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
        tensor: A 2-D tensor. / 2 维张量。
        sparsity: Fraction of each column set to zero. / 每列置零的比例。
        std: Standard deviation of the non-zero values. / 非零值的标准差。
        generator: Random generator for the normal draw. / 正态采样用的随机数生成器。

    Returns:
        `tensor`. / `tensor` 本身。

    Raises:
        ValueError: `tensor` is not 2-D. / `tensor` 不是 2 维的。
    """
    # 中: meta 张量在维数检查之后、任何随机数之前返回。
    # EN: A meta tensor returns after the dim check and before any random draw.
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")

    if tensor.is_meta:
        return tensor

    # 中: 向上取整：任何 `sparsity > 0` 都让每列至少一个零，`sparsity = 0` 则一个也没有。
    # EN: Rounded up: any `sparsity > 0` zeroes at least one entry per column, and
    # EN: `sparsity = 0` none.
    rows, cols = tensor.shape
    num_zeros = math.ceil(sparsity * rows)

    # 中: 正态值用 `generator`，但每列一次的 `randperm(rows)` 用全局生成器：即使传了
    # 中: `generator`，置零的位置仍取决于全局种子，并让全局生成器前进 `cols` 次。
    # 中: 开销是 `cols` 次长度为 `rows` 的排列。
    # EN: The normal values use `generator`, but the per-column `randperm(rows)` uses the
    # EN: global generator: even with a `generator`, where the zeros go depends on the global
    # EN: seed, and the global generator advances `cols` times. The cost is `cols`
    # EN: permutations of length `rows`.
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
        # 中: 用 `FutureWarning` 而不是 `DeprecationWarning`：前者默认对最终用户显示。
        # 中: 参数原样转交，所以别名接受就地版本的全部参数（包括 `generator`）。
        # EN: `FutureWarning`, not `DeprecationWarning`: the former is shown to end users by
        # EN: default. Arguments pass through untouched, so the alias takes every argument of
        # EN: the in-place function (`generator` included).
        warnings.warn(
            f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
            FutureWarning,
            stacklevel=2,
        )
        return meth(*args, **kwargs)

    # DIFF(torch 2.13):
    # 中: 运行时的 __doc__ 写成双语并链接到本库的新函数；torch 写的是 reST。
    # EN: The runtime __doc__ is bilingual and links to this library's new function; torch
    # EN: writes reST.
    deprecated_init.__doc__ = (
        f"Deprecated alias of `{new_name}`. / `{new_name}` 的弃用别名。\n\n"
        f'    === "中文"\n\n'
        f"        `{old_name}(...)` 已弃用，调用时发出 `FutureWarning`，请改用 "
        f"[`{new_name}`][annotated_nn.init.{new_name}]。\n\n"
        # 中: 两个标签页的标题与本库所有文档字符串相同（中文在前、英文在后），
        # 中: 所以 `help()` 显示的格式与其他函数一致。
        # EN: The two tabs carry the same labels as every docstring here (the Chinese one
        # EN: first), so `help()` shows the same layout as for every other function.
        f'    === "English"\n\n'
        f"        `{old_name}(...)` is deprecated and warns with `FutureWarning`; use "
        f"[`{new_name}`][annotated_nn.init.{new_name}] instead.\n"
    )
    # 中: 只改 `__name__`（与 torch 相同，没有用 `functools.wraps`）：`__qualname__` 仍是
    # 中: `_make_deprecate.<locals>.deprecated_init`，`inspect.signature` 只显示
    # 中: `*args, **kwargs`。
    # EN: Only `__name__` changes (as in torch, no `functools.wraps`): `__qualname__` stays
    # EN: `_make_deprecate.<locals>.deprecated_init` and `inspect.signature` shows only
    # EN: `*args, **kwargs`.
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
