r"""Dropout layers: random zeroing during training, identity during evaluation. / Dropout 层：训练时随机置零，评估时原样输出。

=== "中文"

    这一族层是 `training` 标志最直接的使用者：`forward` 把 `self.training` 传给
    `F.dropout*`，`model.eval()` 把它设为 False 后输出就等于输入。没有参数（parameter），
    随机掩码来自全局随机数生成器，所以同一随机种子得到同一掩码。

=== "English"

    This family is the most direct user of the `training` flag: `forward` passes
    `self.training` to `F.dropout*`, and once `model.eval()` sets it False the output equals the
    input. There are no parameters; masks come from the global random generator, so one seed
    gives one mask.
"""

import torch.nn.functional as F
from torch import Tensor

from .module import Module

__all__ = [
    "Dropout",
    "Dropout1d",
    "Dropout2d",
    "Dropout3d",
    "AlphaDropout",
    "FeatureAlphaDropout",
]


class _DropoutNd(Module):
    r"""Family base of dropout: holds and checks `p` and `inplace`. / Dropout 的家族基类：保存并校验 `p` 与 `inplace`。

    === "中文"

        基类只负责两个超参数：丢弃概率 `p`（必须在 [0, 1] 内）和 `inplace`
        （是否直接改写输入以省内存）。子类只写 `forward`，区别在于调用哪个函数：
        逐元素（`Dropout`）、整通道（`Dropout1d/2d/3d`），以及保持自归一化网络
        均值方差的 alpha 版本（`AlphaDropout`、`FeatureAlphaDropout`，它们不使用 `inplace`）。
        非 alpha 版本在训练时把保留下来的元素乘以 `1/(1-p)`，使期望不变，因此评估时无需缩放。

    === "English"

        The base handles just two hyper-parameters: the drop probability `p` (which must lie in
        [0, 1]) and `inplace` (overwrite the input to save memory). Subclasses only write
        `forward`, differing in which function they call: element-wise (`Dropout`), whole
        channels (`Dropout1d/2d/3d`), and the alpha versions that keep the mean and variance of
        self-normalizing networks (`AlphaDropout`, `FeatureAlphaDropout`, which ignore
        `inplace`). In training the non-alpha versions scale the kept elements by `1/(1-p)`,
        keeping the expectation, so evaluation needs no scaling.

    Args:
        p: Probability of zeroing an element (or channel). / 元素（或通道）被置零的概率。
        inplace: Modify the input in place. / 是否就地修改输入。

    Raises:
        ValueError: `p` outside [0, 1]. / `p` 不在 [0, 1] 内。
    """

    __constants__ = ["p", "inplace"]
    p: float
    inplace: bool

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        r"""Check `p` and store both settings. / 检查 `p` 并保存两项设置。

        === "中文"

            `p` 恰好为 0 或 1 都是合法的。

        === "English"

            `p` of exactly 0 or 1 is allowed.

        Args:
            p: Probability of zeroing. / 置零概率。
            inplace: Modify the input in place. / 是否就地修改输入。

        Raises:
            ValueError: `p` outside [0, 1]. / `p` 不在 [0, 1] 内。
        """
        super().__init__()
        # 中: 构造时就检查，错误信息与 `F.dropout` 自己的检查相同，这样非法的 `p` 不必等到第一次
        # 中: 前向传播才暴露。
        # EN: Checked at construction, with the same message as `F.dropout`'s own check, so a bad
        # EN: `p` does not wait for the first forward pass to surface.
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        r"""Describe `p` and `inplace`. / 描述 `p` 与 `inplace`。

        === "中文"

            两项设置都列出，例如 `p=0.5, inplace=False`。

        === "English"

            Both settings are always listed, e.g. `p=0.5, inplace=False`.

        Returns:
            The description string. / 描述字符串。
        """
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    r"""Zero each element with probability `p` while training. / 训练时以概率 `p` 把每个元素置零。

    === "中文"

        最常用的正则化层。评估模式下原样返回输入。

    === "English"

        The most common regularization layer. In evaluation mode it returns the input unchanged.

    Args:
        p: Probability of zeroing an element. / 元素被置零的概率。
        inplace: Modify the input in place. / 是否就地修改输入。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.Dropout(p=0.5)
        >>> x = torch.ones(4)
        >>> torch.equal(m.eval()(x), x)
        True
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.dropout` with this module's `training` flag. / 以本模块的 `training` 标志调用 `F.dropout`。

        === "中文"

            `self.training` 由 `train()`/`eval()` 设置；评估模式下返回的就是输入张量本身。

        === "English"

            `self.training` is set by `train()`/`eval()`; in evaluation mode the input tensor
            itself is returned.

        Args:
            input: Any tensor. / 任意张量。

        Returns:
            The tensor with dropout applied. / 应用 dropout 后的张量。
        """
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    r"""Zero whole channels of `(N, C, L)` inputs while training. / 训练时把 `(N, C, L)` 输入的整个通道置零。

    === "中文"

        相邻元素高度相关时（如卷积特征图），逐元素 dropout 几乎不起作用，改为整通道丢弃。
        也接受 `(C, L)` 输入。

    === "English"

        When neighboring elements are strongly correlated (as in convolution feature maps),
        element-wise dropout does little; whole channels are dropped instead. A `(C, L)` input
        is accepted too.

    Args:
        p: Probability of zeroing a channel. / 通道被置零的概率。
        inplace: Modify the input in place. / 是否就地修改输入。
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.dropout1d`. / 调用 `F.dropout1d`。

        === "中文"

            输入维数不对时由 `F.dropout1d` 报错。

        === "English"

            `F.dropout1d` raises on a wrong number of dimensions.

        Args:
            input: Input `(N, C, L)` or `(C, L)`. / 输入 `(N, C, L)` 或 `(C, L)`。

        Returns:
            The tensor with channel dropout applied. / 应用通道 dropout 后的张量。
        """
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    r"""Zero whole channels of `(N, C, H, W)` inputs while training. / 训练时把 `(N, C, H, W)` 输入的整个通道置零。

    === "中文"

        与 `Dropout1d` 同理，作用于二维特征图。

    === "English"

        As `Dropout1d`, for 2D feature maps.

    Args:
        p: Probability of zeroing a channel. / 通道被置零的概率。
        inplace: Modify the input in place. / 是否就地修改输入。
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.dropout2d`. / 调用 `F.dropout2d`。

        === "中文"

            3 维输入会得到一个警告，并且（历史行为）被当作 `(N, C, L)` 做一维的整通道
            dropout，而不是当作无批次的 `(C, H, W)`；3、4 以外的维数发出“已弃用”警告后照常计算。
            见 `F.dropout2d`。

        === "English"

            A 3D input triggers a warning and is (historically) treated as `(N, C, L)` with
            1D channel dropout, not as an unbatched `(C, H, W)`; ranks other than 3 or 4 get a
            deprecation warning and are processed anyway. See `F.dropout2d`.

        Args:
            input: Input `(N, C, H, W)`; a 3D input is read as `(N, C, L)`. / 输入 `(N, C, H, W)`；三维输入被当作 `(N, C, L)`。

        Returns:
            The tensor with channel dropout applied. / 应用通道 dropout 后的张量。
        """
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    r"""Zero whole channels of `(N, C, D, H, W)` inputs while training. / 训练时把 `(N, C, D, H, W)` 输入的整个通道置零。

    === "中文"

        与 `Dropout1d` 同理，作用于三维特征图。

    === "English"

        As `Dropout1d`, for 3D feature maps.

    Args:
        p: Probability of zeroing a channel. / 通道被置零的概率。
        inplace: Modify the input in place. / 是否就地修改输入。
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.dropout3d`. / 调用 `F.dropout3d`。

        === "中文"

            维数不是 4 或 5 时，`F.dropout3d` 发出“已弃用”警告，但不报错，照常计算。

        === "English"

            For a rank other than 4 or 5, `F.dropout3d` gives a deprecation warning but does
            not raise; it goes on computing.

        Args:
            input: Input `(N, C, D, H, W)` or `(C, D, H, W)`. / 输入 `(N, C, D, H, W)` 或 `(C, D, H, W)`。

        Returns:
            The tensor with channel dropout applied. / 应用通道 dropout 后的张量。
        """
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    r"""Dropout that keeps zero mean and unit variance, for SELU networks. / 保持零均值、单位方差的 dropout，用于 SELU 网络。

    === "中文"

        被丢弃的元素不是置 0，而是置为 SELU 的负饱和值，再做仿射修正，使零均值、单位方差的
        输入在输出中保持这一均值与方差。`inplace` 被保存但不使用。

    === "English"

        Dropped elements are set to SELU's negative saturation value instead of 0, followed by
        an affine correction, so an input with zero mean and unit variance keeps that mean and
        variance. `inplace` is stored but not used.

    Args:
        p: Probability of dropping an element. / 元素被丢弃的概率。
        inplace: Stored only; not used. / 只保存，不使用。
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.alpha_dropout`. / 调用 `F.alpha_dropout`。

        === "中文"

            与 torch 相同，不把 `inplace` 传下去——尽管 `F.alpha_dropout` 本身有 `inplace`
            参数。所以 `AlphaDropout(inplace=True)` 也从不改写输入。

        === "English"

            As in torch, `inplace` is not passed on — although `F.alpha_dropout` itself has
            an `inplace` argument. So `AlphaDropout(inplace=True)` never overwrites its input.

        Args:
            input: Any tensor. / 任意张量。

        Returns:
            The tensor with alpha dropout applied. / 应用 alpha dropout 后的张量。
        """
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    r"""Alpha dropout of whole channels. / 整通道的 alpha dropout。

    === "中文"

        `AlphaDropout` 的整通道版本。`inplace` 被保存但不使用。

    === "English"

        The whole-channel version of `AlphaDropout`. `inplace` is stored but not used.

    Args:
        p: Probability of dropping a channel. / 通道被丢弃的概率。
        inplace: Stored only; not used. / 只保存，不使用。
    """

    def forward(self, input: Tensor) -> Tensor:
        r"""Apply `F.feature_alpha_dropout`. / 调用 `F.feature_alpha_dropout`。

        === "中文"

            与 torch 相同，不把 `inplace` 传下去——尽管 `F.feature_alpha_dropout` 本身有
            `inplace` 参数。所以 `FeatureAlphaDropout(inplace=True)` 也从不改写输入。

        === "English"

            As in torch, `inplace` is not passed on — although `F.feature_alpha_dropout`
            itself has an `inplace` argument. So `FeatureAlphaDropout(inplace=True)` never
            overwrites its input.

        Args:
            input: Input `(N, C, *)`. / 输入 `(N, C, *)`。

        Returns:
            The tensor with channel alpha dropout applied. / 应用通道 alpha dropout 后的张量。
        """
        return F.feature_alpha_dropout(input, self.p, self.training)
