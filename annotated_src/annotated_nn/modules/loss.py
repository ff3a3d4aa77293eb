r"""Loss layers. / 损失函数层。

=== "中文"

    本文件对应 `torch.nn.modules.loss`。损失层也是模块，但通常没有参数（parameter）：
    构造函数保存“怎么汇总”（`reduction`：`"none"`、`"mean"`、`"sum"`）等选项，
    `forward(input, target)` 把它们交给 `torch.nn.functional` 里的损失函数。

    家族结构：

    - [`_Loss`][annotated_nn.modules.loss._Loss]：所有损失的基类，负责把旧式参数
      `size_average`/`reduce` 换算成 `reduction`；
    - [`_WeightedLoss`][annotated_nn.modules.loss._WeightedLoss]：再多一个按类别的权重
      `weight`，登记为缓冲区（buffer），所以会进入状态字典（state_dict）并随 `.to()` 迁移；
    - 具体的损失类通常只重写 `__init__`（新增选项）和 `forward`（`LinearCrossEntropyLoss` 例外：
      它还自带一个 `linear` 子模块并重写 `extra_repr`）。

=== "English"

    This file mirrors `torch.nn.modules.loss`. Loss layers are modules too, but usually
    without parameters: the constructor stores options such as how to reduce
    (`reduction`: `"none"`, `"mean"`, `"sum"`), and `forward(input, target)` hands them to
    the loss function in `torch.nn.functional`.

    The family:

    - [`_Loss`][annotated_nn.modules.loss._Loss], base of every loss, converts the legacy
      `size_average`/`reduce` arguments into `reduction`;
    - [`_WeightedLoss`][annotated_nn.modules.loss._WeightedLoss] adds a per-class `weight`,
      registered as a buffer, so it enters the state_dict and moves with `.to()`;
    - concrete losses usually override only `__init__` (extra options) and `forward`
      (`LinearCrossEntropyLoss` is the exception: it owns a `linear` submodule and overrides
      `extra_repr`).
"""

import math
from collections.abc import Callable

from torch import Tensor
from torch.nn import _reduction as _Reduction
from typing_extensions import deprecated

from .. import functional as F
from .distance import PairwiseDistance
from .linear import Linear
from .linear_cross_entropy_options import LinearCrossEntropyOptions
from .module import Module

__all__ = [
    "L1Loss",
    "NLLLoss",
    "NLLLoss2d",
    "PoissonNLLLoss",
    "GaussianNLLLoss",
    "KLDivLoss",
    "MSELoss",
    "BCELoss",
    "BCEWithLogitsLoss",
    "HingeEmbeddingLoss",
    "MultiLabelMarginLoss",
    "SmoothL1Loss",
    "HuberLoss",
    "SoftMarginLoss",
    "CrossEntropyLoss",
    "LinearCrossEntropyLoss",
    "MultiLabelSoftMarginLoss",
    "CosineEmbeddingLoss",
    "MarginRankingLoss",
    "MultiMarginLoss",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
    "CTCLoss",
]


class _Loss(Module):
    r"""Base of all losses: owns `reduction`. / 所有损失的基类：持有 `reduction`。

    === "中文"

        早期 PyTorch 用两个布尔参数描述汇总方式：`size_average`（求平均还是求和）和
        `reduce`（是否汇总）。现在统一用字符串 `reduction`。只要传了任一旧参数，
        就用 torch 自己的 `_Reduction.legacy_get_string` 换算（它发出一条说明这两个参数已弃用的 `UserWarning`），
        并且忽略 `reduction`。换算规则：`reduce=False` → `"none"`；否则
        `size_average=False` → `"sum"`；否则 `"mean"`（未给出的旧参数按 `True` 处理）。

    === "English"

        Early PyTorch described reduction with two booleans: `size_average` (mean or sum)
        and `reduce` (reduce at all). Today a single string `reduction` does it. If either
        legacy argument is given, torch's own `_Reduction.legacy_get_string` converts them
        (emitting a `UserWarning` that says they are deprecated) and `reduction` is ignored. The rule:
        `reduce=False` → `"none"`; else `size_average=False` → `"sum"`; else `"mean"`
        (a missing legacy argument counts as `True`).

    Examples:
        >>> import warnings, annotated_nn as nn
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     nn.L1Loss(size_average=False).reduction
        'sum'
    """

    reduction: str

    def __init__(self, size_average=None, reduce=None, reduction: str = "mean") -> None:
        r"""Resolve the reduction mode. / 确定汇总方式。

        === "中文"

            这里不检查 `reduction` 是否合法；非法值在 `forward` 调用损失函数时才报错。

        === "English"

            `reduction` is not validated here; an invalid value fails only when `forward`
            calls the loss function.

        Args:
            size_average: Deprecated; mean (True) or sum (False). / 已弃用；求平均（True）或求和（False）。
            reduce: Deprecated; whether to reduce at all. / 已弃用；是否汇总。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        super().__init__()
        # 中: 旧式路径：只要给了 `size_average` 或 `reduce` 之一（哪怕是 False），就交给 torch 的
        # 中: `_Reduction.legacy_get_string` 换算，此时 `reduction` 参数被忽略，即使显式传了。
        # 中: 它发出的是 UserWarning（“size_average and reduce args will be deprecated, please use
        # 中: reduction='...' instead.”），`stacklevel=2` 指向这一行而不是用户代码。
        # EN: Legacy path: once either `size_average` or `reduce` is given (even False), torch's
        # EN: `_Reduction.legacy_get_string` converts them and the `reduction` argument is ignored,
        # EN: even if passed explicitly. It emits a UserWarning ("size_average and reduce args
        # EN: will be deprecated, please use reduction='...' instead."); `stacklevel=2` points at
        # EN: this line, not at user code.
        if size_average is not None or reduce is not None:
            self.reduction: str = _Reduction.legacy_get_string(size_average, reduce)
        else:
            # 中: 正常路径：原样保存、不做校验；非法字符串要到 `forward` 里的函数式接口才报
            # 中: “... is not a valid value for reduction”。
            # EN: Normal path: stored as is, unvalidated; an invalid string fails only in the
            # EN: functional call inside `forward`, with "... is not a valid value for reduction".
            self.reduction = reduction


class _WeightedLoss(_Loss):
    r"""A loss with an optional per-class `weight` buffer. / 带可选按类别权重缓冲区 `weight` 的损失。

    === "中文"

        `weight` 用 [`register_buffer`][annotated_nn.modules.module.Module.register_buffer]
        登记：它不是要学习的参数，但属于模块状态。传 `None` 时也会登记一个空槽位，
        这样 `loss.weight` 总能访问，之后赋张量会自动进入缓冲区。

    === "English"

        `weight` is registered with
        [`register_buffer`][annotated_nn.modules.module.Module.register_buffer]: not a
        learnable parameter, but part of the module's state. `None` still registers an
        empty slot, so `loss.weight` always exists and a tensor assigned later becomes a
        buffer.
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Resolve the reduction and register `weight`. / 确定汇总方式并登记 `weight`。

        === "中文"

            先交给 `_Loss`，再登记缓冲区。

        === "English"

            Defers to `_Loss`, then registers the buffer.

        Args:
            weight: Per-class rescaling weights, or `None`. / 每个类别的缩放权重，或 `None`。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        super().__init__(size_average, reduce, reduction)
        # 中: 即使 `weight` 为 None 也登记：名字在 `_buffers` 里占好位置，`loss.weight` 读出 None，
        # 中: 状态字典不包含它；之后赋一个张量就成为持久的缓冲区，随 `.to()` 迁移。登记的是用户传入
        # 中: 的那个张量对象本身，不做拷贝。torch 在这里还写了仅供类型检查的注解
        # 中: `self.weight: Tensor | None`，本库省略。
        # EN: Registered even when `weight` is None: the name holds its slot in `_buffers`,
        # EN: `loss.weight` reads None and the state_dict leaves it out; a tensor assigned later
        # EN: becomes a persistent buffer that moves with `.to()`. The user's tensor object itself
        # EN: is registered, not a copy. torch adds a typing-only annotation
        # EN: `self.weight: Tensor | None` here, which this library leaves out.
        self.register_buffer("weight", weight)


class L1Loss(_Loss):
    r"""Mean absolute error. / 平均绝对误差。

    === "中文"

        `|input - target|`，再按 `reduction` 汇总。

    === "English"

        `|input - target|`, reduced according to `reduction`.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.L1Loss()(torch.tensor([1.0, 3.0]), torch.tensor([2.0, 1.0]))
        tensor(1.5000)
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the L1 loss. / 计算 L1 损失。

        === "中文"

            直接把输入交给 `F.l1_loss` 计算。

        === "English"

            Hands the input straight to `F.l1_loss`.

        Args:
            input: Predictions. / 预测值。
            target: Targets of the same shape. / 同形状的目标值。

        Returns:
            A scalar, or elementwise losses for `"none"`. / 标量；`"none"` 时为逐元素损失。
        """
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    r"""Negative log-likelihood for log-probabilities. / 针对对数概率的负对数似然。

    === "中文"

        输入应是对数概率（通常来自 `LogSoftmax`），目标是类别下标。等于
        `ignore_index` 的目标不参与损失，也不计入平均的分母。

    === "English"

        The input should hold log-probabilities (usually from `LogSoftmax`), the target
        class indices. Targets equal to `ignore_index` contribute nothing, not even to the
        mean's denominator.
    """

    __constants__ = ["ignore_index", "reduction"]
    ignore_index: int

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Store the weight buffer, reduction and `ignore_index`. / 保存权重缓冲区、汇总方式和 `ignore_index`。

        === "中文"

            注意位置参数的顺序：`ignore_index` 位于 `size_average` 和 `reduce` 之间。

        === "English"

            Mind the positional order: `ignore_index` sits between `size_average` and `reduce`.

        Args:
            weight: Per-class weights of shape `(C,)`, or `None`. / 形状 `(C,)` 的类别权重，或 `None`。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            ignore_index: Target value to ignore. / 要忽略的目标值。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the NLL loss. / 计算负对数似然损失。

        === "中文"

            直接把输入交给 `F.nll_loss` 计算。

        === "English"

            Hands the input straight to `F.nll_loss`.

        Args:
            input: Log-probabilities `(N, C)` or `(N, C, d1, ...)`. / 对数概率 `(N, C)` 或 `(N, C, d1, ...)`。
            target: Class indices `(N)` or `(N, d1, ...)`. / 类别下标 `(N)` 或 `(N, d1, ...)`。

        Returns:
            The loss. / 损失值。
        """
        # 中: `weight=None` 时各类别权重为 1。`"mean"` 除以的是未被忽略目标的权重之和，
        # 中: 而不是样本个数。
        # EN: With `weight=None` every class weighs 1. `"mean"` divides by the summed weights of
        # EN: the targets not ignored, not by the number of samples.
        return F.nll_loss(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
        )


@deprecated(
    "`NLLLoss2d` has been deprecated. "
    "Please use `NLLLoss` instead as a drop-in replacement and see "
    "https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more details.",
    category=FutureWarning,
)
class NLLLoss2d(NLLLoss):
    r"""Deprecated alias of `NLLLoss` for image-shaped input. / 针对图像形状输入的 `NLLLoss` 旧别名，已弃用。

    === "中文"

        `NLLLoss` 早已支持 `(N, C, H, W)` 输入，这个类只为兼容旧代码保留。
        `typing_extensions.deprecated` 装饰器让每次实例化都发出 `FutureWarning`。

    === "English"

        `NLLLoss` has long accepted `(N, C, H, W)` input; this class remains for old code.
        The `typing_extensions.deprecated` decorator makes every instantiation emit a
        `FutureWarning`.
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Forward every argument to `NLLLoss`. / 把所有参数转交给 `NLLLoss`。

        === "中文"

            签名与 `NLLLoss` 完全相同。

        === "English"

            The signature is exactly `NLLLoss`'s.

        Args:
            weight: Per-class weights of shape `(C,)`, or `None`. / 形状 `(C,)` 的类别权重，或 `None`。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            ignore_index: Target value to ignore. / 要忽略的目标值。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        # 中: `FutureWarning` 由类上的 `deprecated` 装饰器在 `__new__` 里发出，早于这里；这里只按
        # 中: `NLLLoss` 的位置顺序原样转交五个参数。
        # EN: The `FutureWarning` comes from the class's `deprecated` decorator, in `__new__`,
        # EN: before this runs; here the five arguments are just passed on in `NLLLoss`'s
        # EN: positional order.
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class PoissonNLLLoss(_Loss):
    r"""Negative log-likelihood of a Poisson-distributed target. / 目标服从泊松分布时的负对数似然。

    === "中文"

        `log_input=True` 时输入是对数率，损失为 `exp(input) - target * input`；否则输入是率本身，
        损失为 `input - target * log(input + eps)`。`full=True` 时再加 Stirling 近似项。

    === "English"

        With `log_input=True` the input is a log-rate and the loss is
        `exp(input) - target * input`; otherwise the input is the rate and the loss is
        `input - target * log(input + eps)`. `full=True` adds the Stirling term.
    """

    __constants__ = ["log_input", "full", "eps", "reduction"]
    log_input: bool
    full: bool
    eps: float

    def __init__(
        self,
        log_input: bool = True,
        full: bool = False,
        size_average=None,
        eps: float = 1e-8,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Store the options. / 保存各选项。

        === "中文"

            注意位置参数顺序：`eps` 位于 `size_average` 与 `reduce` 之间。

        === "English"

            Mind the positional order: `eps` sits between `size_average` and `reduce`.

        Args:
            log_input: Whether the input is a log-rate. / 输入是否为对数率。
            full: Whether to add the Stirling term. / 是否加上 Stirling 近似项。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            eps: Keeps `log` away from zero. / 防止对 0 取对数的小量。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        super().__init__(size_average, reduce, reduction)
        self.log_input = log_input
        self.full = full
        self.eps = eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the Poisson NLL loss. / 计算泊松负对数似然。

        === "中文"

            直接把输入交给 `F.poisson_nll_loss` 计算；参数名 `log_input` 与 torch 相同。

        === "English"

            Hands the input straight to `F.poisson_nll_loss`; the argument is named
            `log_input` as in torch.

        Args:
            log_input: Predicted (log-)rates. / 预测的（对数）率。
            target: Observed counts. / 观测到的计数。

        Returns:
            The loss. / 损失值。
        """
        # 中: 注意同名：位置参数 `log_input` 是预测值张量，关键字 `log_input=self.log_input`
        # 中: 是“输入是否取了对数”的开关。
        # EN: Mind the shared name: the positional `log_input` is the prediction tensor, while
        # EN: the keyword `log_input=self.log_input` is the "is the input a log?" switch.
        return F.poisson_nll_loss(
            log_input,
            target,
            log_input=self.log_input,
            full=self.full,
            eps=self.eps,
            reduction=self.reduction,
        )


class GaussianNLLLoss(_Loss):
    r"""Negative log-likelihood of a Gaussian with predicted variance. / 预测方差的高斯负对数似然。

    === "中文"

        `0.5 * (log(var) + (input - target)**2 / var)`，`var` 会被截断到不小于 `eps`。
        这是较新的损失，没有旧式 `size_average`/`reduce` 参数，所有选项都是仅限关键字的。

    === "English"

        `0.5 * (log(var) + (input - target)**2 / var)`, with `var` clamped to at least
        `eps`. A newer loss: no legacy `size_average`/`reduce`, and every option is
        keyword-only.
    """

    __constants__ = ["full", "eps", "reduction"]
    full: bool
    eps: float

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        r"""Store the options. / 保存各选项。

        === "中文"

            显式向 `_Loss` 传入两个 `None`，因此不会触发旧参数的换算。

        === "English"

            Passes two explicit `None`s to `_Loss`, so no legacy conversion happens.

        Args:
            full: Whether to add the constant term. / 是否加上常数项。
            eps: Lower clamp for the variance. / 方差的下限。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        super().__init__(None, None, reduction)
        self.full = full
        self.eps = eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:
        r"""Compute the Gaussian NLL loss. / 计算高斯负对数似然。

        === "中文"

            直接把输入交给 `F.gaussian_nll_loss` 计算，形状检查也在那里进行。

        === "English"

            Hands the input straight to `F.gaussian_nll_loss`, which also checks the shapes.

        Args:
            input: Predicted means. / 预测的均值。
            target: Samples. / 样本。
            var: Predicted variances (tensor or float). / 预测的方差（张量或浮点数）。

        Returns:
            The loss. / 损失值。
        """
        return F.gaussian_nll_loss(
            input, target, var, full=self.full, eps=self.eps, reduction=self.reduction
        )


class KLDivLoss(_Loss):
    r"""Kullback–Leibler divergence with log-probability input. / 输入为对数概率的 KL 散度。

    === "中文"

        输入必须是对数概率；目标默认是概率，`log_target=True` 时也是对数概率。
        `reduction="mean"` 对所有元素取平均，数学上正确的是 `"batchmean"`（按批大小平均）。

    === "English"

        The input must be log-probabilities; the target is probabilities, or
        log-probabilities with `log_target=True`. `reduction="mean"` averages over all
        elements; the mathematically correct choice is `"batchmean"` (divide by batch size).
    """

    __constants__ = ["reduction"]

    def __init__(
        self,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
        log_target: bool = False,
    ) -> None:
        r"""Store the reduction and `log_target`. / 保存汇总方式与 `log_target`。

        === "中文"

            `log_target` 不在 `__constants__` 中，与 torch 一致。1.5.1 → 2.13：新增 `log_target`。

        === "English"

            `log_target` is not in `__constants__`, as in torch. 1.5.1 → 2.13: `log_target` was added.

        Args:
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"batchmean"`, `"mean"` or `"sum"`. / `"none"`、`"batchmean"`、`"mean"` 或 `"sum"`。
            log_target: Whether the target is given as log-probabilities. / 目标是否以对数概率给出。
        """
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the KL divergence. / 计算 KL 散度。

        === "中文"

            直接把输入交给 `F.kl_div` 计算。

        === "English"

            Hands the input straight to `F.kl_div`.

        Args:
            input: Log-probabilities. / 对数概率。
            target: Probabilities or log-probabilities. / 概率或对数概率。

        Returns:
            The loss. / 损失值。
        """
        # 中: `reduction="mean"` 时 `F.kl_div` 会发出警告，建议改用 `"batchmean"`。
        # EN: With `reduction="mean"`, `F.kl_div` warns and suggests `"batchmean"`.
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class MSELoss(_Loss):
    r"""Mean squared error. / 均方误差。

    === "中文"

        `(input - target) ** 2`，再按 `reduction` 汇总。

    === "English"

        `(input - target) ** 2`, reduced according to `reduction`.
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the MSE loss. / 计算均方误差。

        === "中文"

            直接把输入交给 `F.mse_loss` 计算。

        === "English"

            Hands the input straight to `F.mse_loss`.

        Args:
            input: Predictions. / 预测值。
            target: Targets of the same shape. / 同形状的目标值。

        Returns:
            The loss. / 损失值。
        """
        return F.mse_loss(input, target, reduction=self.reduction)


class BCELoss(_WeightedLoss):
    r"""Binary cross-entropy on probabilities. / 针对概率的二元交叉熵。

    === "中文"

        输入必须已经是 [0, 1] 内的概率（端点 0 和 1 也可以，对数被截断在 -100）；
        `weight` 按元素缩放（可广播），不是按类别。
        数值上更稳定的做法是用 `BCEWithLogitsLoss` 直接接收 logits。

    === "English"

        The input must already be probabilities in [0, 1] (the end points 0 and 1 are
        allowed; the logs are clamped at -100); `weight` rescales elementwise (broadcastable),
        not per class. `BCEWithLogitsLoss`, taking logits, is the
        numerically safer choice.
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the BCE loss. / 计算二元交叉熵。

        === "中文"

            直接把输入交给 `F.binary_cross_entropy` 计算。

        === "English"

            Hands the input straight to `F.binary_cross_entropy`.

        Args:
            input: Probabilities. / 概率。
            target: Targets in [0, 1], same shape. / 取值在 [0, 1] 的同形状目标。

        Returns:
            The loss. / 损失值。
        """
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    r"""Sigmoid plus binary cross-entropy, fused for stability. / sigmoid 与二元交叉熵合并计算，更稳定。

    === "中文"

        直接接收 logits。除逐元素的 `weight` 外还有 `pos_weight`，只缩放正样本项，
        用来平衡正负样本。两者都登记为缓冲区。它继承的是 `_Loss` 而不是 `_WeightedLoss`，
        自己登记这两个缓冲区；而且（与 torch 相同）没有 `__constants__`。

    === "English"

        Takes logits directly. Besides the elementwise `weight` there is `pos_weight`,
        scaling only the positive term to balance positives and negatives. Both are
        registered as buffers. It derives from `_Loss`, not `_WeightedLoss`, and registers
        both buffers itself; like torch's, it has no `__constants__`.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> list(nn.BCEWithLogitsLoss(pos_weight=torch.ones(3)).state_dict())
        ['pos_weight']
    """

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
        pos_weight: Tensor | None = None,
    ) -> None:
        r"""Register `weight` and `pos_weight` as buffers. / 把 `weight` 和 `pos_weight` 登记为缓冲区。

        === "中文"

            `None` 的缓冲区不会写入状态字典，之后给它赋张量即可启用。

        === "English"

            `None` buffers are not written to the state_dict; assigning a tensor later enables them.

        Args:
            weight: Elementwise rescaling weight, or `None`. / 逐元素缩放权重，或 `None`。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
            pos_weight: Weight of positive examples, broadcast over the class dim. / 正样本权重，沿类别维广播。
        """
        # 中: 继承 `_Loss` 而非 `_WeightedLoss`，两个缓冲区自己登记，None 时同样占位。登记顺序
        # 中: `weight`、`pos_weight` 决定状态字典的键顺序。
        # EN: Derived from `_Loss`, not `_WeightedLoss`, so it registers both buffers itself,
        # EN: with None placeholders as well. The order `weight`, `pos_weight` fixes the
        # EN: state_dict key order.
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the loss from logits. / 由 logits 计算损失。

        === "中文"

            直接把输入交给 `F.binary_cross_entropy_with_logits` 计算。

        === "English"

            Hands the input straight to `F.binary_cross_entropy_with_logits`.

        Args:
            input: Logits (raw scores). / 未经 sigmoid 的原始得分（logits）。
            target: Targets in [0, 1], same shape. / 取值在 [0, 1] 的同形状目标。

        Returns:
            The loss. / 损失值。
        """
        # 中: `weight` 按位置传（它是函数的第三个参数）；`pos_weight` 与 `target` 广播，
        # 中: 只乘在正样本项上。
        # EN: `weight` goes positionally (it is the function's third parameter); `pos_weight`
        # EN: broadcasts with `target` and multiplies only the positive term.
        return F.binary_cross_entropy_with_logits(
            input,
            target,
            self.weight,
            pos_weight=self.pos_weight,
            reduction=self.reduction,
        )


class HingeEmbeddingLoss(_Loss):
    r"""Hinge loss for similarity learning with targets ±1. / 目标为 ±1 的相似度学习铰链损失。

    === "中文"

        目标为 1 时损失是输入本身（通常是距离），为 -1 时是 `max(0, margin - input)`。

    === "English"

        For target 1 the loss is the input itself (usually a distance); for -1 it is
        `max(0, margin - input)`.
    """

    __constants__ = ["margin", "reduction"]
    margin: float

    def __init__(
        self,
        margin: float = 1.0,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Store `margin` and the reduction. / 保存 `margin` 与汇总方式。

        === "中文"

            `margin` 排在第一个位置参数。

        === "English"

            `margin` is the first positional argument.

        Args:
            margin: The hinge margin. / 铰链间隔。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the hinge embedding loss. / 计算铰链嵌入损失。

        === "中文"

            直接把输入交给 `F.hinge_embedding_loss` 计算。

        === "English"

            Hands the input straight to `F.hinge_embedding_loss`.

        Args:
            input: Distances or scores. / 距离或得分。
            target: Labels of 1 or -1. / 取值 1 或 -1 的标签。

        Returns:
            The loss. / 损失值。
        """
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    r"""Multi-label hinge loss with index targets. / 以类别下标为目标的多标签铰链损失。

    === "中文"

        目标每行列出正类的下标，遇到第一个 -1 就结束；每个正类的得分都要比每个负类高出 1。

    === "English"

        Each target row lists the positive class indices, ending at the first -1; every
        positive score should beat every negative score by 1.
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the multi-label margin loss. / 计算多标签间隔损失。

        === "中文"

            直接把输入交给 `F.multilabel_margin_loss` 计算。

        === "English"

            Hands the input straight to `F.multilabel_margin_loss`.

        Args:
            input: Scores `(C)` or `(N, C)`. / 得分 `(C)` 或 `(N, C)`。
            target: Index targets of the same shape, padded with -1. / 同形状、以 -1 结尾填充的下标目标。

        Returns:
            The loss. / 损失值。
        """
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class SmoothL1Loss(_Loss):
    r"""L1 loss that turns quadratic below `beta`. / 在 `beta` 以内变为二次的 L1 损失。

    === "中文"

        `|d| < beta` 时为 `0.5 * d**2 / beta`，否则为 `|d| - 0.5 * beta`；`beta=0` 时就是 L1。
        注意 `beta` 不在 `__constants__` 中。

    === "English"

        `0.5 * d**2 / beta` for `|d| < beta`, otherwise `|d| - 0.5 * beta`; `beta=0` gives L1.
        `beta` is not in `__constants__`.
    """

    __constants__ = ["reduction"]

    def __init__(
        self, size_average=None, reduce=None, reduction: str = "mean", beta: float = 1.0
    ) -> None:
        r"""Store the reduction and `beta`. / 保存汇总方式与 `beta`。

        === "中文"

            `beta` 排在最后。

        === "English"

            `beta` comes last.

        Args:
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
            beta: Where the quadratic zone ends. / 二次区间的边界。
        """
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the smooth L1 loss. / 计算平滑 L1 损失。

        === "中文"

            直接把输入交给 `F.smooth_l1_loss` 计算。

        === "English"

            Hands the input straight to `F.smooth_l1_loss`.

        Args:
            input: Predictions. / 预测值。
            target: Targets of the same shape. / 同形状的目标值。

        Returns:
            The loss. / 损失值。
        """
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    r"""Huber loss: quadratic within `delta`, linear outside. / Huber 损失：`delta` 以内为二次，之外为线性。

    === "中文"

        等于 `delta * SmoothL1Loss(beta=delta)`。构造时先检查 `delta` 的类型，
        而且是在 `Module.__init__` 之前检查（与 torch 相同）。没有旧式参数。

    === "English"

        Equals `delta * SmoothL1Loss(beta=delta)`. The type of `delta` is checked first,
        before `Module.__init__` (as in torch). No legacy arguments.
    """

    __constants__ = ["reduction", "delta"]

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        r"""Check `delta`, then store it with the reduction. / 检查 `delta`，再与汇总方式一起保存。

        === "中文"

            `delta` 必须是 `float` 或 `int`（`bool` 也算 `int`）。

        === "English"

            `delta` must be a `float` or an `int` (a `bool` counts as an `int`).

        Args:
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
            delta: Where the loss turns linear. / 由二次转为线性的位置。

        Raises:
            TypeError: `delta` is not a float or int. / `delta` 不是浮点数或整数。
        """
        # 中: 类型检查在 `Module.__init__` 之前：此时对象还没有任何模块状态。没有旧式参数，
        # 中: 只把 `reduction` 交给 `_Loss`。`delta` 是否为正不在这里检查，要到 `forward` 里由内核
        # 中: 报 “huber_loss does not support non-positive values for delta.”。
        # EN: The type check comes before `Module.__init__`, when the object has no module
        # EN: state yet. No legacy arguments: only `reduction` goes to `_Loss`. Whether `delta` is
        # EN: positive is not checked here; the kernel reports "huber_loss does not support
        # EN: non-positive values for delta." in `forward`.
        if not isinstance(delta, (float, int)):
            raise TypeError(f"delta must be a float or int, got: {type(delta)}")
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the Huber loss. / 计算 Huber 损失。

        === "中文"

            直接把输入交给 `F.huber_loss` 计算。

        === "English"

            Hands the input straight to `F.huber_loss`.

        Args:
            input: Predictions. / 预测值。
            target: Targets of the same shape. / 同形状的目标值。

        Returns:
            The loss. / 损失值。
        """
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class SoftMarginLoss(_Loss):
    r"""Two-class logistic loss with targets ±1. / 目标为 ±1 的二分类逻辑斯蒂损失。

    === "中文"

        `log(1 + exp(-y * x))` 对所有元素求平均（或按 `reduction` 汇总）。

    === "English"

        `log(1 + exp(-y * x))`, averaged over all elements (or reduced per `reduction`).
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the soft margin loss. / 计算软间隔损失。

        === "中文"

            直接把输入交给 `F.soft_margin_loss` 计算。

        === "English"

            Hands the input straight to `F.soft_margin_loss`.

        Args:
            input: Scores. / 得分。
            target: Labels of 1 or -1, same shape. / 取值 1 或 -1 的同形状标签。

        Returns:
            The loss. / 损失值。
        """
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class CrossEntropyLoss(_WeightedLoss):
    r"""Cross-entropy between logits and class indices or probabilities. / logits 与类别下标或概率之间的交叉熵。

    === "中文"

        等价于 `LogSoftmax` 加 `NLLLoss`，但一步算完。目标可以是类别下标，也可以是
        每类的概率。`label_smoothing` 把一部分概率质量均匀分给所有类别；
        `ignore_index` 只对下标形式的目标有效。1.5.1 → 2.13：新增 `label_smoothing` 和概率目标。

    === "English"

        Equivalent to `LogSoftmax` followed by `NLLLoss`, in one step. The target may be
        class indices or per-class probabilities. `label_smoothing` spreads part of the
        probability mass uniformly over all classes; `ignore_index` applies to index
        targets only. 1.5.1 → 2.13: `label_smoothing` and probability targets were added.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.CrossEntropyLoss()(torch.zeros(1, 4), torch.tensor([2]))
        tensor(1.3863)
    """

    __constants__ = ["ignore_index", "reduction", "label_smoothing"]
    ignore_index: int
    label_smoothing: float

    def __init__(
        self,
        weight: Tensor | None = None,
        size_average=None,
        ignore_index: int = -100,
        reduce=None,
        reduction: str = "mean",
        label_smoothing: float = 0.0,
    ) -> None:
        r"""Store weight, reduction, `ignore_index` and `label_smoothing`. / 保存权重、汇总方式、`ignore_index` 与 `label_smoothing`。

        === "中文"

            位置参数顺序与 `NLLLoss` 相同，末尾多一个 `label_smoothing`。

        === "English"

            Same positional order as `NLLLoss`, plus `label_smoothing` at the end.

        Args:
            weight: Per-class weights of shape `(C,)`, or `None`. / 形状 `(C,)` 的类别权重，或 `None`。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            ignore_index: Target value to ignore. / 要忽略的目标值。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
            label_smoothing: Smoothing amount in [0, 1]. / 平滑量，取值 [0, 1]。
        """
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the cross-entropy loss. / 计算交叉熵损失。

        === "中文"

            调用 `F.cross_entropy`；`label_smoothing` 的合法性在那里检查。

        === "English"

            Calls `F.cross_entropy`, which also validates `label_smoothing`.

        Args:
            input: Logits `(N, C)`, `(C,)` or `(N, C, d1, ...)`. / logits，形状 `(N, C)`、`(C,)` 或 `(N, C, d1, ...)`。
            target: Class indices or probabilities. / 类别下标或概率。

        Returns:
            The loss. / 损失值。
        """
        # 中: 目标是下标还是概率由 `F.cross_entropy` 按 dtype 与形状判断；`ignore_index` 只对下标
        # 中: 目标起作用，`label_smoothing` 的取值也在那里检查。
        # EN: Whether the target holds indices or probabilities, `F.cross_entropy` decides from its
        # EN: dtype and shape; `ignore_index` only affects index targets, and `label_smoothing` is
        # EN: validated there as well.
        return F.cross_entropy(
            input,
            target,
            weight=self.weight,
            ignore_index=self.ignore_index,
            reduction=self.reduction,
            label_smoothing=self.label_smoothing,
        )


class MultiLabelSoftMarginLoss(_WeightedLoss):
    r"""Multi-label one-versus-all logistic loss. / 多标签“一对其余”逻辑斯蒂损失。

    === "中文"

        目标是 0/1 矩阵；每个类别做一次二分类逻辑斯蒂损失，再在类别上平均。`weight` 按类别缩放。

    === "English"

        The target is a 0/1 matrix; each class gets a binary logistic loss, averaged over
        classes. `weight` rescales per class.
    """

    __constants__ = ["reduction"]

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the multi-label soft margin loss. / 计算多标签软间隔损失。

        === "中文"

            直接把输入交给 `F.multilabel_soft_margin_loss` 计算。

        === "English"

            Hands the input straight to `F.multilabel_soft_margin_loss`.

        Args:
            input: Scores `(N, C)`. / 得分 `(N, C)`。
            target: 0/1 labels `(N, C)`. / 0/1 标签 `(N, C)`。

        Returns:
            The loss. / 损失值。
        """
        return F.multilabel_soft_margin_loss(
            input, target, weight=self.weight, reduction=self.reduction
        )


class CosineEmbeddingLoss(_Loss):
    r"""Pull pairs together or push them apart by cosine similarity. / 按余弦相似度拉近或推远样本对。

    === "中文"

        目标为 1 时损失是 `1 - cos(x1, x2)`；为 -1 时是 `max(0, cos(x1, x2) - margin)`。

    === "English"

        For target 1 the loss is `1 - cos(x1, x2)`; for -1 it is
        `max(0, cos(x1, x2) - margin)`.
    """

    __constants__ = ["margin", "reduction"]
    margin: float

    def __init__(
        self,
        margin: float = 0.0,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Store `margin` and the reduction. / 保存 `margin` 与汇总方式。

        === "中文"

            `margin` 建议取 `[-1, 1]` 之间的值，这里不做检查。

        === "English"

            `margin` should lie in `[-1, 1]`; it is not checked here.

        Args:
            margin: The margin for dissimilar pairs. / 不相似样本对的间隔。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        r"""Compute the cosine embedding loss. / 计算余弦嵌入损失。

        === "中文"

            直接把输入交给 `F.cosine_embedding_loss` 计算。

        === "English"

            Hands the inputs straight to `F.cosine_embedding_loss`.

        Args:
            input1: First embeddings `(N, D)`. / 第一组嵌入 `(N, D)`。
            input2: Second embeddings `(N, D)`. / 第二组嵌入 `(N, D)`。
            target: Labels of 1 or -1, shape `(N)`. / 取值 1 或 -1 的标签，形状 `(N)`。

        Returns:
            The loss. / 损失值。
        """
        return F.cosine_embedding_loss(
            input1, input2, target, margin=self.margin, reduction=self.reduction
        )


class MarginRankingLoss(_Loss):
    r"""Ranking hinge loss: `max(0, -y * (x1 - x2) + margin)`. / 排序铰链损失：`max(0, -y * (x1 - x2) + margin)`。

    === "中文"

        目标 1 表示 `x1` 应排在 `x2` 前面，-1 表示相反。

    === "English"

        Target 1 means `x1` should rank above `x2`, -1 the opposite.
    """

    __constants__ = ["margin", "reduction"]
    margin: float

    def __init__(
        self,
        margin: float = 0.0,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Store `margin` and the reduction. / 保存 `margin` 与汇总方式。

        === "中文"

            只记录数值，不做检查。

        === "English"

            Only records the values, without checks.

        Args:
            margin: Required score gap. / 要求的得分差距。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
        """
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        r"""Compute the margin ranking loss. / 计算间隔排序损失。

        === "中文"

            直接把输入交给 `F.margin_ranking_loss` 计算。

        === "English"

            Hands the inputs straight to `F.margin_ranking_loss`.

        Args:
            input1: First scores. / 第一组得分。
            input2: Second scores. / 第二组得分。
            target: Labels of 1 or -1. / 取值 1 或 -1 的标签。

        Returns:
            The loss. / 损失值。
        """
        return F.margin_ranking_loss(
            input1, input2, target, margin=self.margin, reduction=self.reduction
        )


class MultiMarginLoss(_WeightedLoss):
    r"""Multi-class hinge loss (the SVM loss). / 多分类铰链损失（SVM 损失）。

    === "中文"

        每个错误类别的得分都应比正确类别低 `margin`；`p` 取 1 或 2（是否平方）。
        注意位置参数顺序：`p`、`margin` 在 `weight` 之前。参数检查发生在
        `weight` 缓冲区登记之后（与 torch 相同）。

    === "English"

        Every wrong class should score `margin` below the right one; `p` is 1 or 2
        (squared or not). Mind the positional order: `p` and `margin` precede `weight`.
        The checks run after the `weight` buffer is registered (as in torch).
    """

    __constants__ = ["p", "margin", "reduction"]
    margin: float
    p: int

    def __init__(
        self,
        p: int = 1,
        margin: float = 1.0,
        weight: Tensor | None = None,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Register `weight`, then check `p` and the weight's rank. / 登记 `weight`，再检查 `p` 与权重维数。

        === "中文"

            `p` 只能是 1 或 2；`weight` 必须是 `None` 或一维张量。

        === "English"

            `p` must be 1 or 2; `weight` must be `None` or a 1D tensor.

        Args:
            p: 1 or 2. / 1 或 2。
            margin: Required score gap. / 要求的得分差距。
            weight: Per-class weights `(C,)`, or `None`. / 类别权重 `(C,)`，或 `None`。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。

        Raises:
            ValueError: Bad `p` or a weight that is not 1D. / `p` 不合法或权重不是一维。
        """
        # 中: 先登记 `weight` 缓冲区、再检查（torch 的顺序）：`p` 只能是 1 或 2，`weight` 必须是
        # 中: None 或 1 维（每类一个权重）。报错文字与 torch 相同；`F.multi_margin_loss` 调用时还会
        # 中: 再查一次 `p`。
        # EN: Register the `weight` buffer first, then check (torch's order): `p` must be 1 or 2,
        # EN: and `weight` None or 1-D (one weight per class). The messages match torch's;
        # EN: `F.multi_margin_loss` checks `p` again at call time.
        super().__init__(weight, size_average, reduce, reduction)
        if p != 1 and p != 2:
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(
                f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D instead"
            )
        # 中: 检查通过后才保存 `p` 与 `margin`；`margin` 不做检查。
        # EN: `p` and `margin` are stored only after the checks pass; `margin` is not checked.
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Compute the multi-class margin loss. / 计算多分类间隔损失。

        === "中文"

            直接把输入交给 `F.multi_margin_loss` 计算。

        === "English"

            Hands the input straight to `F.multi_margin_loss`.

        Args:
            input: Scores `(N, C)` or `(C)`. / 得分 `(N, C)` 或 `(C)`。
            target: Class indices. / 类别下标。

        Returns:
            The loss. / 损失值。
        """
        # 中: 所有选项按关键字传入；`weight` 缓冲区为 None 时各类权重相同。
        # EN: Every option goes by keyword; a None `weight` buffer weighs all classes equally.
        return F.multi_margin_loss(
            input,
            target,
            p=self.p,
            margin=self.margin,
            weight=self.weight,
            reduction=self.reduction,
        )


class TripletMarginLoss(_Loss):
    r"""Triplet loss: anchor closer to positive than to negative by `margin`. / 三元组损失：锚点离正样本比离负样本近 `margin`。

    === "中文"

        `max(d(a, p) - d(a, n) + margin, 0)`，`d` 是 `p` 范数距离。`swap=True` 时还会用
        正样本到负样本的距离（取较小者）。`margin` 必须大于 0。

    === "English"

        `max(d(a, p) - d(a, n) + margin, 0)` with `d` the `p`-norm distance. `swap=True`
        also uses the positive-to-negative distance (taking the smaller). `margin` must be
        positive.
    """

    __constants__ = ["margin", "p", "eps", "swap", "reduction"]
    margin: float
    p: float
    eps: float
    swap: bool

    def __init__(
        self,
        margin: float = 1.0,
        p: float = 2.0,
        eps: float = 1e-6,
        swap: bool = False,
        size_average=None,
        reduce=None,
        reduction: str = "mean",
    ) -> None:
        r"""Check `margin`, then store the options. / 检查 `margin`，再保存各选项。

        === "中文"

            检查发生在 `_Loss.__init__` 之后。

        === "English"

            The check runs after `_Loss.__init__`.

        Args:
            margin: Required distance gap, > 0. / 要求的距离差，必须大于 0。
            p: Norm degree. / 范数的阶。
            eps: Small constant for numerical stability. / 数值稳定用的小常数。
            swap: Whether to use the distance swap. / 是否使用距离交换。
            size_average: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduce: Deprecated; see `_Loss`. / 已弃用；见 `_Loss`。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。

        Raises:
            ValueError: `margin <= 0`. / `margin <= 0`。
        """
        # 中: 先处理汇总方式（可能走旧式换算并警告），再检查 `margin > 0`，报错文字与 torch 相同。
        # EN: Resolve the reduction first (possibly converting legacy arguments, with a warning),
        # EN: then check `margin > 0`, with torch's message.
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead"
            )
        # 中: 其余选项原样保存：`p` 是范数阶数，`eps` 是为数值稳定加在差值上的小常数
        # 中: （`‖a - b + eps‖`），`swap` 开启“距离交换”。
        # EN: The other options are stored as given: `p` is the norm degree, `eps` a small
        # EN: constant added to the difference for numerical stability (`‖a - b + eps‖`), `swap`
        # EN: enables the "distance swap".
        self.margin = margin
        self.p = p
        self.eps = eps
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        r"""Compute the triplet margin loss. / 计算三元组间隔损失。

        === "中文"

            直接把输入交给 `F.triplet_margin_loss` 计算。

        === "English"

            Hands the inputs straight to `F.triplet_margin_loss`.

        Args:
            anchor: Anchor embeddings. / 锚点嵌入。
            positive: Positive embeddings. / 正样本嵌入。
            negative: Negative embeddings. / 负样本嵌入。

        Returns:
            The loss. / 损失值。
        """
        # 中: 三组嵌入按位置传入；`F.triplet_margin_loss` 调用时会再检查一次 `margin > 0`，
        # 中: 所以构造后改成非正值也会被拦下（信息不同）。
        # EN: The three embeddings go positionally; `F.triplet_margin_loss` checks `margin > 0`
        # EN: again at call time, so a non-positive value set after construction is caught too
        # EN: (with a different message).
        return F.triplet_margin_loss(
            anchor,
            positive,
            negative,
            margin=self.margin,
            p=self.p,
            eps=self.eps,
            # 中: `swap=True` 时负样本距离取 `min(d(a, n), d(p, n))`，即 Balntas 等人论文中的
            # 中: “距离交换”。
            # EN: With `swap=True` the negative distance is `min(d(a, n), d(p, n))`, the
            # EN: "distance swap" of Balntas et al.
            swap=self.swap,
            reduction=self.reduction,
        )


class TripletMarginWithDistanceLoss(_Loss):
    r"""Triplet loss with any distance function. / 可用任意距离函数的三元组损失。

    === "中文"

        与 [`TripletMarginLoss`][annotated_nn.modules.loss.TripletMarginLoss] 相同的
        `max(d(a, p) - d(a, n) + margin, 0)`，但距离 `d` 可以是任何接受两个张量、返回距离的
        可调用对象（例如余弦距离的 lambda）。不传时使用一个新建的
        [`PairwiseDistance`][annotated_nn.modules.distance.PairwiseDistance]；它是模块，所以会
        作为子模块（submodule）出现在 `repr` 里。构造参数全部只能按关键字传入，也没有旧式的
        `size_average`/`reduce`。

    === "English"

        The same `max(d(a, p) - d(a, n) + margin, 0)` as
        [`TripletMarginLoss`][annotated_nn.modules.loss.TripletMarginLoss], but the distance
        `d` may be any callable taking two tensors and returning distances (for example a
        lambda for cosine distance). When none is given a fresh
        [`PairwiseDistance`][annotated_nn.modules.distance.PairwiseDistance] is used; being a
        module, it shows up as a submodule in the `repr`. All constructor arguments are
        keyword-only, and there are no legacy `size_average`/`reduce` arguments.

    Args:
        distance_function: Callable `(x1, x2) -> distances`, or `None`. / 可调用对象 `(x1, x2) -> 距离`，或 `None`。
        margin: Required distance gap, > 0. / 要求的距离差，必须大于 0。
        swap: Whether to use the distance swap. / 是否使用距离交换。
        reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。

    Examples:
        >>> import annotated_nn as nn
        >>> nn.TripletMarginWithDistanceLoss()
        TripletMarginWithDistanceLoss(
          (distance_function): PairwiseDistance()
        )
    """

    __constants__ = ["margin", "swap", "reduction"]
    margin: float
    swap: bool

    def __init__(
        self,
        *,
        distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
        margin: float = 1.0,
        swap: bool = False,
        reduction: str = "mean",
    ) -> None:
        r"""Check `margin`, then store the distance and options. / 检查 `margin`，再保存距离函数与各选项。

        === "中文"

            检查发生在 `_Loss.__init__` 之后。默认的 `PairwiseDistance()` 赋值给属性时经过
            `Module.__setattr__`，因而注册为子模块；普通函数则只是普通属性。

        === "English"

            The check runs after `_Loss.__init__`. The default `PairwiseDistance()` goes
            through `Module.__setattr__` when assigned and is thus registered as a submodule;
            a plain function stays a plain attribute.

        Args:
            distance_function: Callable `(x1, x2) -> distances`, or `None`. / 可调用对象 `(x1, x2) -> 距离`，或 `None`。
            margin: Required distance gap, > 0. / 要求的距离差，必须大于 0。
            swap: Whether to use the distance swap. / 是否使用距离交换。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。

        Raises:
            ValueError: `margin <= 0`. / `margin <= 0`。
        """
        # 中: 显式传两个 None，不走旧式换算；然后检查 `margin > 0`，报错文字与 torch 相同。
        # EN: Two explicit Nones, so no legacy conversion; then check `margin > 0`, with torch's
        # EN: message.
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(
                f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} instead"
            )
        # 中: 默认的 `PairwiseDistance()`（p=2、eps=1e-6）是模块，经 `Module.__setattr__` 登记为
        # 中: 子模块；普通函数只是普通属性。若传的是 lambda，整个损失模块就无法 pickle。
        # EN: The default `PairwiseDistance()` (p=2, eps=1e-6) is a module and is registered as a
        # EN: submodule by `Module.__setattr__`; a plain function stays a plain attribute. With a
        # EN: lambda, the whole loss module cannot be pickled.
        self.distance_function: Callable[[Tensor, Tensor], Tensor] | None = (
            distance_function if distance_function is not None else PairwiseDistance()
        )
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        r"""Compute the loss via `F.triplet_margin_with_distance_loss`. / 通过 `F.triplet_margin_with_distance_loss` 计算损失。

        === "中文"

            距离函数、`margin`、`swap` 与 `reduction` 都按关键字传入。

        === "English"

            The distance function, `margin`, `swap` and `reduction` are all passed by keyword.

        Args:
            anchor: Anchor embeddings. / 锚点嵌入。
            positive: Positive embeddings. / 正样本嵌入。
            negative: Negative embeddings. / 负样本嵌入。

        Returns:
            The loss. / 损失值。
        """
        # 中: 距离函数被调用两次（开 `swap` 时三次：再算 `d(p, n)`）；若用户把
        # 中: `distance_function` 改成 None，`F.*` 退回 `torch.pairwise_distance`。
        # EN: The distance function is called twice (three times with `swap`, adding
        # EN: `d(p, n)`); if the user sets `distance_function` to None, `F.*` falls back to
        # EN: `torch.pairwise_distance`.
        return F.triplet_margin_with_distance_loss(
            anchor,
            positive,
            negative,
            distance_function=self.distance_function,
            # 中: `F.*` 调用时会再检查一次 `margin > 0`。
            # EN: `F.*` checks `margin > 0` again at call time.
            margin=self.margin,
            swap=self.swap,
            reduction=self.reduction,
        )


class CTCLoss(_Loss):
    r"""Connectionist temporal classification loss. / 联结主义时间分类（CTC）损失。

    === "中文"

        对所有能塌缩成目标序列的对齐方式求和，用于语音识别等输入输出长度不等的任务。
        没有旧式参数；`zero_infinity=True` 时把无穷大的损失（输入太短）置零。

    === "English"

        Sums over every alignment that collapses to the target sequence; used where input
        and output lengths differ, as in speech recognition. No legacy arguments;
        `zero_infinity=True` zeroes infinite losses (inputs too short).
    """

    __constants__ = ["blank", "reduction"]
    blank: int
    zero_infinity: bool

    def __init__(
        self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False
    ) -> None:
        r"""Store the blank index, reduction and `zero_infinity`. / 保存空白符下标、汇总方式与 `zero_infinity`。

        === "中文"

            只通过关键字把 `reduction` 交给 `_Loss`。

        === "English"

            Only `reduction` is passed, by keyword, to `_Loss`.

        Args:
            blank: Index of the blank label. / 空白标签的下标。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
            zero_infinity: Whether to zero infinite losses. / 是否把无穷大的损失置零。
        """
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(
        self,
        log_probs: Tensor,
        targets: Tensor,
        input_lengths: Tensor,
        target_lengths: Tensor,
    ) -> Tensor:
        r"""Compute the CTC loss. / 计算 CTC 损失。

        === "中文"

            直接把输入交给 `F.ctc_loss` 计算（参数按位置传递）。

        === "English"

            Hands the inputs straight to `F.ctc_loss` (positionally).

        Args:
            log_probs: `(T, N, C)` log-probabilities. / 形状 `(T, N, C)` 的对数概率。
            targets: Target sequences, padded or concatenated. / 目标序列（填充或拼接形式）。
            input_lengths: Length of each input. / 每个输入的长度。
            target_lengths: Length of each target. / 每个目标的长度。

        Returns:
            The loss. / 损失值。
        """
        # 中: 全部按 `F.ctc_loss` 的参数顺序按位置传入。`log_probs` 应是 `log_softmax` 的输出，
        # 中: 形状 `(T, N, C)`（时间在前）。
        # EN: Everything goes positionally, in `F.ctc_loss`'s parameter order. `log_probs`
        # EN: should come from `log_softmax`, shaped `(T, N, C)` (time first).
        return F.ctc_loss(
            log_probs,
            targets,
            input_lengths,
            target_lengths,
            # 中: 四个张量之后依次是 `blank`、`reduction`、`zero_infinity`。
            # EN: After the four tensors come `blank`, `reduction`, `zero_infinity`.
            self.blank,
            self.reduction,
            self.zero_infinity,
        )


class LinearCrossEntropyLoss(_WeightedLoss):
    r"""The last linear layer and cross entropy in one module. / 把最后的线性层与交叉熵合在一个模块里。

    === "中文"

        分类模型通常以 `Linear` 把特征变成 `C` 个类别的 logits，再交给
        [`CrossEntropyLoss`][annotated_nn.modules.loss.CrossEntropyLoss]。这个损失把两步合成一步：
        它自己持有那个线性层（子模块 `linear`，默认不带偏置），`forward(input, target)` 接收的是
        特征而不是 logits。`options=None`（默认）时结果与下面的写法相同：

            logits = F.linear(input, W, b).reshape(*input.shape[:-1], C, *out_features)
            loss = F.cross_entropy(logits, target, weight, ...)

        合在一起的好处在于可以不把 logits 整个算出来：传入
        [`LinearCrossEntropyOptions`][annotated_nn.modules.linear_cross_entropy_options.LinearCrossEntropyOptions]
        后，torch 的 `F.linear_cross_entropy` 按批次分块计算，同一时刻只有一块 `(行数, C)` 的
        logits；不满足分块条件时（例如 `label_smoothing != 0` 或给了 `out_features`）torch 发出
        警告并改走上面的参考实现。

        `out_features=(d1, ..., dK)` 给出 K 维损失：每个样本在每个位置都有 `C` 个 logits，目标形状为
        `(N, d1, ..., dK)`。`Linear` 的权重只能是二维，所以参数按扁平形状
        `(C * d1 * ... * dK, in_features)` 存放，`forward` 里再重塑。`ignore_index` 默认是 `None`：
        类别下标目标按 `-100` 处理，概率目标则不许给 `ignore_index`。
        1.5.1 → 2.13：新增了这个损失（1.5.1 里没有）。

    === "English"

        A classifier usually ends with a `Linear` that turns features into logits for `C`
        classes, followed by
        [`CrossEntropyLoss`][annotated_nn.modules.loss.CrossEntropyLoss]. This loss fuses the
        two: it owns that linear layer itself (the submodule `linear`, without bias by default),
        and `forward(input, target)` takes features, not logits. With `options=None` (the
        default) the result equals:

            logits = F.linear(input, W, b).reshape(*input.shape[:-1], C, *out_features)
            loss = F.cross_entropy(logits, target, weight, ...)

        Fusing pays off because the logits need not be computed all at once: given a
        [`LinearCrossEntropyOptions`][annotated_nn.modules.linear_cross_entropy_options.LinearCrossEntropyOptions],
        torch's `F.linear_cross_entropy` works through the batch in chunks, with one
        `(rows, C)` chunk of logits at a time; when a call does not qualify for chunking (for
        instance `label_smoothing != 0`, or `out_features` given) torch warns and takes the
        reference path above.

        `out_features=(d1, ..., dK)` gives a K-dimensional loss: every example has `C` logits
        at each position, and the target has shape `(N, d1, ..., dK)`. A `Linear` weight can
        only be 2-dim, so the parameters are stored flat, `(C * d1 * ... * dK, in_features)`,
        and reshaped in `forward`. `ignore_index` defaults to `None`: class-index targets treat
        it as `-100`, and probability targets do not allow an `ignore_index` at all.
        1.5.1 → 2.13: this loss was added (1.5.1 did not have it).

    Examples:
        >>> import torch, annotated_nn as nn
        >>> loss = nn.LinearCrossEntropyLoss(5, 10)
        >>> loss.linear
        Linear(in_features=5, out_features=10, bias=False)
        >>> loss(torch.randn(3, 5), torch.tensor([1, 0, 9])).shape
        torch.Size([])
    """

    # 中: 与 torch 相同，`options` 不在 `__constants__` 里：它是 dataclass，TorchScript 不能编译它。
    # EN: As in torch, `options` is not in `__constants__`: it is a dataclass TorchScript cannot
    # EN: compile.
    __constants__ = [
        "num_classes",
        "out_features",
        "reduction",
        "ignore_index",
        "label_smoothing",
    ]
    num_classes: int
    out_features: tuple[int, ...]
    reduction: str
    ignore_index: int | None
    label_smoothing: float
    options: LinearCrossEntropyOptions | None

    def __init__(
        self,
        in_features: int,
        num_classes: int,
        *,
        out_features: tuple[int, ...] = (),
        bias: bool = False,
        device=None,
        dtype=None,
        reduction: str = "mean",
        weight: Tensor | None = None,
        ignore_index: int | None = None,
        label_smoothing: float = 0.0,
        options: LinearCrossEntropyOptions | None = None,
    ) -> None:
        r"""Check the class weights and smoothing, then build the flat linear layer. / 检查类别权重与平滑量，再建扁平的线性层。

        === "中文"

            `in_features`、`num_classes` 之后的参数都只能按关键字传。`device`/`dtype` 只作用于
            线性层的参数，不作用于 `weight`。

        === "English"

            Everything after `in_features` and `num_classes` is keyword-only. `device`/`dtype`
            apply to the linear layer's parameters only, not to `weight`.

        Args:
            in_features: Features per input row. / 每行输入的特征数。
            num_classes: Number of classes, `C`. / 类别数 `C`。
            out_features: Extra dimensions `(d1, ..., dK)` of a K-dim loss. / K 维损失的额外维度 `(d1, ..., dK)`。
            bias: Whether `linear` has a bias. / `linear` 是否带偏置。
            device: Device of the linear layer's parameters. / 线性层参数所在的设备。
            dtype: Dtype of the linear layer's parameters. / 线性层参数的数据类型。
            reduction: `"none"`, `"mean"` or `"sum"`. / `"none"`、`"mean"` 或 `"sum"`。
            weight: Per-class weights of shape `(C,)`, or `None`. / 形状 `(C,)` 的类别权重，或 `None`。
            ignore_index: Target value to ignore, or `None`. / 要忽略的目标值，或 `None`。
            label_smoothing: Smoothing amount in [0, 1]. / 平滑量，取值 [0, 1]。
            options: Chunking settings, or `None` for the reference path. / 分块设置；`None` 表示参考实现。

        Raises:
            RuntimeError: `weight` is not `(C,)`, or `label_smoothing` is outside [0, 1]. / `weight` 形状不是 `(C,)`，或 `label_smoothing` 不在 [0, 1] 内。
        """
        # 中: 两项检查都在 `Module` 初始化之前，文字与 torch 相同（都是 RuntimeError）。与
        # 中: `CrossEntropyLoss` 不同，这里在构造时就检查 `label_smoothing`，而不是等到前向传播。
        # EN: Both checks come before `Module` is initialized, with torch's texts (both
        # EN: RuntimeError). Unlike `CrossEntropyLoss`, `label_smoothing` is checked here at
        # EN: construction rather than in the forward pass.
        if weight is not None and weight.shape != (num_classes,):
            raise RuntimeError(
                f"expected weight shape to be {(num_classes,)}, got {tuple(weight.shape)}"
            )
        if label_smoothing < 0 or label_smoothing > 1.0:
            raise RuntimeError(
                f"expected label_smoothing to be in range [0, 1], got {label_smoothing}"
            )
        # 中: 没有旧式的 `size_average`/`reduce`；`weight` 登记为本模块自己的缓冲区。状态字典先列
        # 中: 模块自己的缓冲区、再列子模块的条目，所以给出 `weight` 时它排在 `linear.weight` 前面
        # 中: （`weight` 为 `None` 时不进状态字典）。
        # EN: No legacy `size_average`/`reduce`; `weight` becomes this module's own buffer. The
        # EN: state_dict lists a module's own buffers before its submodules' entries, so a given
        # EN: `weight` comes before `linear.weight` (a `None` `weight` is left out of it).
        super().__init__(weight=weight, size_average=None, reduce=None, reduction=reduction)
        self.num_classes = num_classes
        self.out_features = out_features
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing
        # 中: `Linear` 只支持二维权重，所以输出数取 `C * d1 * ... * dK`（`math.prod` 以
        # 中: `num_classes` 为初值），`forward` 里再把权重重塑成 `(C, d1, ..., dK, in_features)`。
        # EN: `Linear` supports 2-dim weights only, so its output count is `C * d1 * ... * dK`
        # EN: (`math.prod` starting from `num_classes`); `forward` reshapes the weight to
        # EN: `(C, d1, ..., dK, in_features)`.
        self.linear = Linear(
            in_features,
            math.prod(out_features, start=num_classes),
            bias=bias,
            device=device,
            dtype=dtype,
        )
        self.options = options

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        r"""Project to logits and compute the cross entropy. / 投影成 logits 并计算交叉熵。

        === "中文"

            把扁平的权重与偏置重塑成多维形状，连同所有选项交给 `F.linear_cross_entropy`；
            输入维数、形状以及概率目标与 `ignore_index` 的冲突都在那里检查。

        === "English"

            Reshapes the flat weight and bias to their multi-dimensional shapes and hands them,
            with every option, to `F.linear_cross_entropy`, which checks the input's
            dimensionality, the shapes, and a probability target clashing with `ignore_index`.

        Args:
            input: Features, `(in_features,)` or `(N, in_features)`. / 特征，形状 `(in_features,)` 或 `(N, in_features)`。
            target: Class indices or class probabilities. / 类别下标或类别概率。

        Returns:
            The loss. / 损失值。
        """
        # 中: `reshape` 对连续的参数返回视图，梯度经它流回扁平的 `linear.weight`/`linear.bias`。
        # EN: `reshape` of a contiguous parameter returns a view, through which gradients flow back
        # EN: to the flat `linear.weight`/`linear.bias`.
        linear_weight = self.linear.weight.reshape(
            (self.num_classes, *self.out_features, self.linear.in_features)
        )
        linear_bias = (
            self.linear.bias.reshape((self.num_classes, *self.out_features))
            if self.linear.bias is not None
            else None
        )
        # 中: 是否分块由 `F.linear_cross_entropy` 按 `options` 与这次调用的条件决定。
        # EN: Whether to chunk is decided by `F.linear_cross_entropy` from `options` and this
        # EN: call's conditions.
        return F.linear_cross_entropy(
            input,
            linear_weight,
            target,
            linear_bias=linear_bias,
            weight=self.weight,
            reduction=self.reduction,
            ignore_index=self.ignore_index,
            label_smoothing=self.label_smoothing,
            options=self.options,
        )

    def extra_repr(self) -> str:
        r"""Every setting, on one line. / 把所有设置写成一行。

        === "中文"

            与 torch 相同，`reduction` 不带引号，`options` 用它自己的 `repr`；子模块 `linear` 另起一行显示。

        === "English"

            As in torch, `reduction` is unquoted and `options` shows its own `repr`; the
            submodule `linear` is shown on its own line.

        Returns:
            The settings string. / 设置字符串。
        """
        return (
            f"in_features={self.linear.in_features},"
            f" num_classes={self.num_classes},"
            f" out_features={self.out_features},"
            f" bias={self.linear.bias is not None},"
            f" reduction={self.reduction},"
            f" ignore_index={self.ignore_index},"
            f" label_smoothing={self.label_smoothing},"
            f" options={self.options}"
        )
