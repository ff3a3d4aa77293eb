r"""Distance layers: pairwise p-norm distance and cosine similarity. / 距离层：成对 p 范数距离与余弦相似度。

=== "中文"

    两个层都没有参数（parameter），`forward` 接收两个张量 `x1`、`x2`，直接调用
    `F.pairwise_distance` 或 `F.cosine_similarity`。`PairwiseDistance` 也是
    [`TripletMarginWithDistanceLoss`][annotated_nn.modules.loss.TripletMarginWithDistanceLoss]
    的默认距离函数。

=== "English"

    Neither layer has parameters; `forward` takes two tensors `x1` and `x2` and calls
    `F.pairwise_distance` or `F.cosine_similarity` directly. `PairwiseDistance` is also the
    default distance function of
    [`TripletMarginWithDistanceLoss`][annotated_nn.modules.loss.TripletMarginWithDistanceLoss].
"""

import torch.nn.functional as F
from torch import Tensor

from .module import Module

__all__ = ["PairwiseDistance", "CosineSimilarity"]


class PairwiseDistance(Module):
    r"""Row-wise p-norm distance `‖x1 − x2 + eps‖_p`. / 逐行的 p 范数距离 `‖x1 − x2 + eps‖_p`。

    === "中文"

        沿最后一维计算范数。注意构造参数叫 `p`，却保存为属性 `norm`（torch 如此）；
        `eps` 加在差值上，避免范数在零处不可导。本类没有 `extra_repr`，所以 `repr` 只有类名。

    === "English"

        The norm is taken over the last dimension. Note that the constructor argument is
        called `p` but is stored as the attribute `norm` (as in torch); `eps` is added to the
        difference so the norm stays differentiable at zero. There is no `extra_repr`, so the
        `repr` is just the class name.

    Args:
        p: Order of the norm. / 范数的阶。
        eps: Small value added to the difference. / 加到差值上的小数。
        keepdim: Keep the reduced last dimension. / 是否保留被归约的最后一维。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> nn.PairwiseDistance(p=1.0, eps=0.0)(torch.tensor([[1.0, 2.0]]), torch.tensor([[0.0, 0.0]]))
        tensor([3.])
    """

    __constants__ = ["norm", "eps", "keepdim"]
    norm: float
    eps: float
    keepdim: bool

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        r"""Store the norm order, `eps` and `keepdim`. / 保存范数阶、`eps` 与 `keepdim`。

        === "中文"

            参数 `p` 保存为属性 `self.norm`。

        === "English"

            `p` is stored as `self.norm`.

        Args:
            p: Order of the norm. / 范数的阶。
            eps: Small value added to the difference. / 加到差值上的小数。
            keepdim: Keep the reduced last dimension. / 是否保留被归约的最后一维。
        """
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        r"""Compute the distance via `F.pairwise_distance`. / 通过 `F.pairwise_distance` 计算距离。

        === "中文"

            `x1` 与 `x2` 需要能够广播到同一形状。

        === "English"

            `x1` and `x2` must broadcast to one shape.

        Args:
            x1: First tensor `(N, D)` or `(D,)`. / 第一个张量 `(N, D)` 或 `(D,)`。
            x2: Second tensor, same shape as `x1`. / 第二个张量，形状与 `x1` 相同。

        Returns:
            The distances, shape `(N,)` (or `(N, 1)` with `keepdim`). / 距离，形状 `(N,)`（`keepdim` 时为 `(N, 1)`）。
        """
        # 中: 属性 `self.norm` 就是构造参数 `p`。`eps` 先加到差值上再求范数，所以两个相同的输入得到的
        # 中: 距离不是 0，而是 `eps` 全向量的范数（p=2、D 维时为 `eps·sqrt(D)`，已实测）。
        # EN: The attribute `self.norm` is the constructor's `p`. `eps` is added to the difference
        # EN: before the norm, so two equal inputs are not at distance 0 but at the norm of an
        # EN: all-`eps` vector (`eps·sqrt(D)` for p=2 in D dimensions; checked by running it).
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    r"""Cosine similarity of `x1` and `x2` along `dim`. / `x1` 与 `x2` 沿 `dim` 的余弦相似度。

    === "中文"

        结果是点积除以两个范数之积，以免除以零，2.13 中每个范数各自至少取 `eps`：
        `x1·x2 / (max(‖x1‖, eps) · max(‖x2‖, eps))`（已实测；torch 文档里的公式写的是
        对乘积取下限）。与 `PairwiseDistance` 一样没有 `extra_repr`。

    === "English"

        The result is the dot product divided by the product of both norms; to avoid division
        by zero, in 2.13 each norm is clamped to at least `eps` on its own:
        `x1·x2 / (max(‖x1‖, eps) · max(‖x2‖, eps))` (checked by running it; the formula in
        torch's documentation clamps the product instead). Like `PairwiseDistance` it has no
        `extra_repr`.

    Args:
        dim: Dimension along which to compare. / 沿哪一维比较。
        eps: Lower bound of each norm. / 每个范数的下限。
    """

    __constants__ = ["dim", "eps"]
    dim: int
    eps: float

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        r"""Store `dim` and `eps`. / 保存 `dim` 与 `eps`。

        === "中文"

            构造时不做检查，错误在前向传播（forward pass）时才出现。

        === "English"

            Nothing is checked here; errors only appear during the forward pass.

        Args:
            dim: Dimension along which to compare. / 沿哪一维比较。
            eps: Lower bound of each norm. / 每个范数的下限。
        """
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        r"""Compute the similarity via `F.cosine_similarity`. / 通过 `F.cosine_similarity` 计算相似度。

        === "中文"

            `x1` 与 `x2` 需要能够广播到同一形状，`dim` 这一维被归约掉。

        === "English"

            `x1` and `x2` must broadcast to one shape; dimension `dim` is reduced away.

        Args:
            x1: First tensor. / 第一个张量。
            x2: Second tensor. / 第二个张量。

        Returns:
            The similarities, without dimension `dim`. / 相似度，不含 `dim` 这一维。
        """
        # 中: 两个范数各自先与 `eps` 取较大值再相乘（见类文档），所以接近零的向量得到的相似度会被压小，
        # 中: 而不是 NaN。
        # EN: Each norm is first raised to at least `eps` and then multiplied (see the class docs),
        # EN: so a near-zero vector gets a shrunken similarity rather than NaN.
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
