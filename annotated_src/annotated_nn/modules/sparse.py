r"""Lookup tables: `Embedding` and `EmbeddingBag`. / 查找表：`Embedding` 与 `EmbeddingBag`。

=== "中文"

    嵌入层保存一张 `(num_embeddings, embedding_dim)` 的表，输入是整数下标，输出是对应的行。
    文件名 "sparse" 来自可选的稀疏梯度（`sparse=True`）：反向传播（backward pass）只为
    用到的行产生梯度。

=== "English"

    An embedding layer keeps a `(num_embeddings, embedding_dim)` table; the input is integer
    indices and the output the matching rows. The file name "sparse" refers to the optional
    sparse gradient (`sparse=True`): the backward pass produces gradients only for the rows used.
"""

import torch
import torch.nn.functional as F
from torch import Tensor

from annotated_nn import init
from annotated_nn.parameter import Parameter

from .module import Module

__all__ = ["Embedding", "EmbeddingBag"]


class Embedding(Module):
    r"""A lookup table from indices to learnable vectors. / 从下标到可学习向量的查找表。

    === "中文"

        `weight` 初始化为标准正态分布 `N(0, 1)`。几个选项：

        - `padding_idx`：这一行初始化为 0，且不接收梯度，常用于填充符。负数按
          `num_embeddings + padding_idx` 换算，越界时抛出 `AssertionError`；
        - `max_norm`：前向传播时把被查到的行就地缩放到范数不超过 `max_norm`（会改写 `weight`）；
        - `scale_grad_by_freq`：按该批中各下标出现频率的倒数缩放梯度；
        - `sparse`：产生稀疏梯度；
        - `_weight`/`_freeze`：用已有张量作为表（`from_pretrained` 用到）。

        1.5.1 → 2.13：新增 `_freeze`、`device`、`dtype` 参数；`padding_idx` 那一行在
        `reset_parameters` 中清零的逻辑拆成了 `_fill_padding_idx_with_zero`。

    === "English"

        `weight` is initialized from the standard normal `N(0, 1)`. The options:

        - `padding_idx`: that row starts at 0 and receives no gradient, typically for a padding
          token. A negative value means `num_embeddings + padding_idx`; out of range raises
          `AssertionError`;
        - `max_norm`: in the forward pass, rows looked up are rescaled in place to norm at most
          `max_norm` (this modifies `weight`);
        - `scale_grad_by_freq`: scale gradients by the inverse frequency of each index in the batch;
        - `sparse`: produce sparse gradients;
        - `_weight`/`_freeze`: use an existing tensor as the table (used by `from_pretrained`).

        1.5.1 → 2.13: the `_freeze`, `device` and `dtype` arguments were added; zeroing the
        `padding_idx` row in `reset_parameters` moved into `_fill_padding_idx_with_zero`.

    Args:
        num_embeddings: Number of rows in the table. / 表的行数。
        embedding_dim: Size of each vector. / 每个向量的长度。
        padding_idx: Row that stays zero and gets no gradient. / 保持为零且不接收梯度的行。
        max_norm: Renormalize looked-up rows to at most this norm. / 把查到的行的范数限制在此值以内。
        norm_type: The p of the p-norm for `max_norm`. / `max_norm` 使用的 p 范数的 p。
        scale_grad_by_freq: Scale gradients by inverse index frequency. / 按下标频率的倒数缩放梯度。
        sparse: Produce a sparse gradient for `weight`. / 为 `weight` 产生稀疏梯度。
        _weight: Existing table to use, or None. / 要使用的已有表，或 None。
        _freeze: Whether `weight` should not require grad. / `weight` 是否不需要梯度。
        device: Device for the table. / 表所在设备。
        dtype: Dtype of the table. / 表的数据类型。

    Raises:
        AssertionError: `padding_idx` out of range, or `_weight` has the wrong shape. / `padding_idx` 越界，或 `_weight` 形状不对。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> emb = nn.Embedding(10, 3, padding_idx=0)
        >>> emb
        Embedding(10, 3, padding_idx=0)
        >>> emb(torch.tensor([[0, 2], [4, 0]])).shape
        torch.Size([2, 2, 3])
        >>> emb.weight[0].tolist()
        [0.0, 0.0, 0.0]
    """

    __constants__ = [
        "num_embeddings",
        "embedding_dim",
        "padding_idx",
        "max_norm",
        "norm_type",
        "scale_grad_by_freq",
        "sparse",
    ]

    num_embeddings: int
    embedding_dim: int
    padding_idx: int | None
    max_norm: float | None
    norm_type: float
    scale_grad_by_freq: bool
    weight: Tensor
    freeze: bool
    sparse: bool

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device=None,
        dtype=None,
    ) -> None:
        r"""Check `padding_idx`, then allocate or adopt the table. / 检查 `padding_idx`，再分配或采用查找表。

        === "中文"

            没有 `_weight` 时分配并调用 `reset_parameters`；有 `_weight` 时直接把它包成
            `Parameter`（共享内存，不拷贝），这时不会清零 `padding_idx` 行。
            注意 `sparse` 最后才保存，晚于 `weight`。

        === "English"

            Without `_weight` the table is allocated and `reset_parameters` runs; with `_weight`
            it is wrapped as a `Parameter` directly (sharing memory, no copy), and the
            `padding_idx` row is then not zeroed. Note that `sparse` is stored last, after
            `weight`.

        Args:
            num_embeddings: Number of rows. / 行数。
            embedding_dim: Size of each vector. / 每个向量的长度。
            padding_idx: Padding row, or None. / 填充行，或 None。
            max_norm: Maximum row norm, or None. / 行范数上限，或 None。
            norm_type: The p of the p-norm. / p 范数的 p。
            scale_grad_by_freq: Scale gradients by inverse frequency. / 按频率倒数缩放梯度。
            sparse: Produce a sparse gradient. / 产生稀疏梯度。
            _weight: Existing table, or None. / 已有的表，或 None。
            _freeze: Whether `weight` should not require grad. / `weight` 是否不需要梯度。
            device: Device for the table. / 表所在设备。
            dtype: Dtype of the table. / 表的数据类型。

        Raises:
            AssertionError: `padding_idx` out of range, or `_weight` has the wrong shape. / `padding_idx` 越界，或 `_weight` 形状不对。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        # 中: 负的 padding_idx 换算成非负下标；0 不需要检查。
        # EN: A negative padding_idx becomes a non-negative index; 0 needs no check.
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= self.num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if padding_idx < -self.num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = self.num_embeddings + padding_idx
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if _weight is None:
            self.weight = Parameter(
                torch.empty((num_embeddings, embedding_dim), **factory_kwargs),
                requires_grad=not _freeze,
            )
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError(
                    "Shape of weight does not match num_embeddings and embedding_dim"
                )
            self.weight = Parameter(_weight, requires_grad=not _freeze)

        self.sparse = sparse

    def reset_parameters(self) -> None:
        r"""Re-draw the table from `N(0, 1)` and zero the padding row. / 从 `N(0, 1)` 重新抽取表，并把填充行清零。

        === "中文"

            先抽样再清零：填充行同样消耗随机数，这与 torch 的随机数消耗顺序一致。

        === "English"

            Sample first, then zero: the padding row consumes random numbers too, matching
            torch's order of random draws.
        """
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        r"""Zero the `padding_idx` row, if any. / 若有 `padding_idx`，把那一行清零。

        === "中文"

            在 `torch.no_grad()` 中就地修改，不记录进计算图。

        === "English"

            Modifies in place under `torch.no_grad()`, so autograd records nothing.
        """
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: Tensor) -> Tensor:
        r"""Look up the rows for `input` with `F.embedding`. / 用 `F.embedding` 查出 `input` 对应的行。

        === "中文"

            `max_norm` 不为 None 时会就地改写 `weight` 中被查到的行。

        === "English"

            With `max_norm` set, the rows looked up in `weight` are rewritten in place.

        Args:
            input: Integer tensor of indices, any shape. / 任意形状的整数下标张量。

        Returns:
            Tensor of shape `(*input.shape, embedding_dim)`. / 形状为 `(*input.shape, embedding_dim)` 的张量。
        """
        return F.embedding(
            input,
            self.weight,
            self.padding_idx,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.sparse,
        )

    def extra_repr(self) -> str:
        r"""Describe the table size and the non-default options. / 描述表的尺寸与非默认选项。

        === "中文"

            默认值不出现；`sparse=True` 时固定写成 `sparse=True`。

        === "English"

            Defaults are left out; a true `sparse` is written as `sparse=True`.

        Returns:
            E.g. `"10, 3, padding_idx=0"`. / 例如 `"10, 3, padding_idx=0"`。
        """
        s = "{num_embeddings}, {embedding_dim}"
        if self.padding_idx is not None:
            s += ", padding_idx={padding_idx}"
        if self.max_norm is not None:
            s += ", max_norm={max_norm}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}"
        if self.sparse is not False:
            s += ", sparse=True"
        return s.format(**self.__dict__)

    @classmethod
    def from_pretrained(
        cls,
        embeddings,
        freeze=True,
        padding_idx=None,
        max_norm=None,
        norm_type=2.0,
        scale_grad_by_freq=False,
        sparse=False,
    ):
        r"""Build an `Embedding` around an existing 2D tensor. / 用已有的二维张量构造 `Embedding`。

        === "中文"

            表与 `embeddings` 共享内存。默认 `freeze=True`，即 `weight.requires_grad` 为
            False，训练时不更新。`padding_idx` 行不会被清零（数据来自 `embeddings`）。

        === "English"

            The table shares memory with `embeddings`. By default `freeze=True`, i.e.
            `weight.requires_grad` is False and training leaves it alone. The `padding_idx` row
            is not zeroed (the data comes from `embeddings`).

        Args:
            embeddings: A 2D tensor `(num_embeddings, embedding_dim)`. / 二维张量 `(num_embeddings, embedding_dim)`。
            freeze: Keep the table fixed during training. / 训练时是否固定表。
            padding_idx: Padding row, or None. / 填充行，或 None。
            max_norm: Maximum row norm, or None. / 行范数上限，或 None。
            norm_type: The p of the p-norm. / p 范数的 p。
            scale_grad_by_freq: Scale gradients by inverse frequency. / 按频率倒数缩放梯度。
            sparse: Produce a sparse gradient. / 产生稀疏梯度。

        Returns:
            The new module. / 新模块。

        Raises:
            AssertionError: `embeddings` is not 2D. / `embeddings` 不是二维。

        Examples:
            >>> import torch, annotated_nn as nn
            >>> emb = nn.Embedding.from_pretrained(torch.tensor([[1.0, 2.3], [4.0, 5.1]]))
            >>> emb(torch.tensor([1]))
            tensor([[4.0000, 5.1000]])
        """
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        embedding = cls(
            num_embeddings=rows,
            embedding_dim=cols,
            _weight=embeddings,
            _freeze=freeze,
            padding_idx=padding_idx,
            max_norm=max_norm,
            norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq,
            sparse=sparse,
        )
        return embedding


class EmbeddingBag(Module):
    r"""Sums, averages or maxes bags of embeddings without materializing them. / 对一"袋"嵌入求和、平均或取最大，且不生成中间结果。

    === "中文"

        等价于 `Embedding` 之后再在每个"袋"内做 `sum`/`mean`/`max`，但由一个内核完成，
        省去中间的大张量。输入可以是二维（每行一个等长的袋），也可以是一维下标加
        `offsets`（每个袋的起点）。`per_sample_weights` 只在 `mode='sum'` 时可用。
        与 `Embedding` 不同：没有 `_freeze` 参数（`from_pretrained` 构造后再设
        `requires_grad`），错误信息里的 `padding_idx` 是小写开头。

    === "English"

        Equivalent to an `Embedding` followed by `sum`/`mean`/`max` over each "bag", but done by
        one kernel without the large intermediate tensor. The input is 2D (one equal-length bag
        per row) or 1D indices plus `offsets` (where each bag starts). `per_sample_weights` only
        works with `mode='sum'`. Unlike `Embedding`: there is no `_freeze` argument
        (`from_pretrained` sets `requires_grad` after construction), and the `padding_idx` error
        message starts in lower case.

    Args:
        num_embeddings: Number of rows in the table. / 表的行数。
        embedding_dim: Size of each vector. / 每个向量的长度。
        max_norm: Renormalize looked-up rows to at most this norm. / 把查到的行的范数限制在此值以内。
        norm_type: The p of the p-norm for `max_norm`. / `max_norm` 使用的 p 范数的 p。
        scale_grad_by_freq: Scale gradients by inverse index frequency. / 按下标频率的倒数缩放梯度。
        mode: `'sum'`, `'mean'` or `'max'`. / 归约方式：`'sum'`、`'mean'` 或 `'max'`。
        sparse: Produce a sparse gradient for `weight`. / 为 `weight` 产生稀疏梯度。
        _weight: Existing table to use, or None. / 要使用的已有表，或 None。
        include_last_offset: `offsets` has one extra entry marking the end. / `offsets` 末尾多一个表示结尾的元素。
        padding_idx: Row excluded from the reduction. / 不参与归约的行。
        device: Device for the table. / 表所在设备。
        dtype: Dtype of the table. / 表的数据类型。

    Raises:
        AssertionError: `padding_idx` out of range, or `_weight` has the wrong shape. / `padding_idx` 越界，或 `_weight` 形状不对。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> bag = nn.EmbeddingBag(10, 3, mode="sum")
        >>> bag(torch.tensor([1, 2, 4, 5, 4, 3]), torch.tensor([0, 4])).shape
        torch.Size([2, 3])
    """

    __constants__ = [
        "num_embeddings",
        "embedding_dim",
        "max_norm",
        "norm_type",
        "scale_grad_by_freq",
        "mode",
        "sparse",
        "include_last_offset",
        "padding_idx",
    ]

    num_embeddings: int
    embedding_dim: int
    max_norm: float | None
    norm_type: float
    scale_grad_by_freq: bool
    weight: Tensor
    mode: str
    sparse: bool
    include_last_offset: bool
    padding_idx: int | None

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        _weight: Tensor | None = None,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
        device=None,
        dtype=None,
    ) -> None:
        r"""Check `padding_idx`, then allocate or adopt the table. / 检查 `padding_idx`，再分配或采用查找表。

        === "中文"

            与 `Embedding.__init__` 结构相同，但参数顺序不同，且 `mode`、`sparse`、
            `include_last_offset` 在 `weight` 之后保存。`mode` 在这里不校验，由
            `F.embedding_bag` 在前向传播时检查。

        === "English"

            Structured like `Embedding.__init__`, but with a different argument order, and
            `mode`, `sparse` and `include_last_offset` are stored after `weight`. `mode` is not
            validated here; `F.embedding_bag` checks it in the forward pass.

        Args:
            num_embeddings: Number of rows. / 行数。
            embedding_dim: Size of each vector. / 每个向量的长度。
            max_norm: Maximum row norm, or None. / 行范数上限，或 None。
            norm_type: The p of the p-norm. / p 范数的 p。
            scale_grad_by_freq: Scale gradients by inverse frequency. / 按频率倒数缩放梯度。
            mode: `'sum'`, `'mean'` or `'max'`. / 归约方式。
            sparse: Produce a sparse gradient. / 产生稀疏梯度。
            _weight: Existing table, or None. / 已有的表，或 None。
            include_last_offset: `offsets` has a trailing end entry. / `offsets` 末尾带结尾元素。
            padding_idx: Row excluded from the reduction. / 不参与归约的行。
            device: Device for the table. / 表所在设备。
            dtype: Dtype of the table. / 表的数据类型。

        Raises:
            AssertionError: `padding_idx` out of range, or `_weight` has the wrong shape. / `padding_idx` 越界，或 `_weight` 形状不对。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= self.num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if padding_idx < -self.num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
                padding_idx = self.num_embeddings + padding_idx
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), **factory_kwargs))
            self.reset_parameters()
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError(
                    "Shape of weight does not match num_embeddings and embedding_dim"
                )
            self.weight = Parameter(_weight)
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset

    def reset_parameters(self) -> None:
        r"""Re-draw the table from `N(0, 1)` and zero the padding row. / 从 `N(0, 1)` 重新抽取表，并把填充行清零。

        === "中文"

            与 `Embedding.reset_parameters` 完全相同：先抽样，再清零填充行。

        === "English"

            The same as `Embedding.reset_parameters`.
        """
        init.normal_(self.weight)
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        r"""Zero the `padding_idx` row, if any. / 若有 `padding_idx`，把那一行清零。

        === "中文"

            在 `torch.no_grad()` 中就地修改，不记录进计算图。

        === "English"

            Modifies in place under `torch.no_grad()`.
        """
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(
        self,
        input: Tensor,
        offsets: Tensor | None = None,
        per_sample_weights: Tensor | None = None,
    ) -> Tensor:
        r"""Reduce each bag with `F.embedding_bag`. / 用 `F.embedding_bag` 对每个袋做归约。

        === "中文"

            二维 `input` 时 `offsets` 必须为 None；一维 `input` 时必须给出 `offsets`。

        === "English"

            With a 2D `input`, `offsets` must be None; with a 1D `input`, `offsets` is required.

        Args:
            input: Indices, `(B, N)` or 1D. / 下标，`(B, N)` 或一维。
            offsets: Start of each bag for 1D input. / 一维输入时每个袋的起点。
            per_sample_weights: Weights per index, `mode='sum'` only. / 每个下标的权重，仅限 `mode='sum'`。

        Returns:
            Tensor `(B, embedding_dim)`. / 张量 `(B, embedding_dim)`。
        """
        return F.embedding_bag(
            input,
            self.weight,
            offsets,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.mode,
            self.sparse,
            per_sample_weights,
            self.include_last_offset,
            self.padding_idx,
        )

    def extra_repr(self) -> str:
        r"""Describe the table size, the mode and the non-default options. / 描述表的尺寸、归约方式与非默认选项。

        === "中文"

            与 `Embedding` 不同，这里每个值都经过 `repr()`，所以 `mode` 显示为带引号的 `'mean'`；
            `mode` 总会列出，`sparse` 则从不列出。

        === "English"

            Unlike `Embedding`, every value goes through `repr()`, so `mode` shows quoted as
            `'mean'`; `mode` is always listed, `sparse` never is.

        Returns:
            E.g. `"10, 3, mode='mean'"`. / 例如 `"10, 3, mode='mean'"`。
        """
        s = "{num_embeddings}, {embedding_dim}"
        if self.max_norm is not None:
            s += ", max_norm={max_norm}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}"
        s += ", mode={mode}"
        if self.padding_idx is not None:
            s += ", padding_idx={padding_idx}"
        return s.format(**{k: repr(v) for k, v in self.__dict__.items()})

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
    ) -> "EmbeddingBag":
        r"""Build an `EmbeddingBag` around an existing 2D tensor. / 用已有的二维张量构造 `EmbeddingBag`。

        === "中文"

            与 `Embedding.from_pretrained` 相同，只是 `freeze` 在构造之后通过设置
            `weight.requires_grad` 实现。

        === "English"

            As `Embedding.from_pretrained`, except that `freeze` is applied after construction
            by setting `weight.requires_grad`.

        Args:
            embeddings: A 2D tensor. / 二维张量。
            freeze: Keep the table fixed during training. / 训练时是否固定表。
            max_norm: Maximum row norm, or None. / 行范数上限，或 None。
            norm_type: The p of the p-norm. / p 范数的 p。
            scale_grad_by_freq: Scale gradients by inverse frequency. / 按频率倒数缩放梯度。
            mode: `'sum'`, `'mean'` or `'max'`. / 归约方式。
            sparse: Produce a sparse gradient. / 产生稀疏梯度。
            include_last_offset: `offsets` has a trailing end entry. / `offsets` 末尾带结尾元素。
            padding_idx: Row excluded from the reduction. / 不参与归约的行。

        Returns:
            The new module. / 新模块。

        Raises:
            AssertionError: `embeddings` is not 2D. / `embeddings` 不是二维。
        """
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        embeddingbag = cls(
            num_embeddings=rows,
            embedding_dim=cols,
            _weight=embeddings,
            max_norm=max_norm,
            norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq,
            mode=mode,
            sparse=sparse,
            include_last_offset=include_last_offset,
            padding_idx=padding_idx,
        )
        embeddingbag.weight.requires_grad = not freeze
        return embeddingbag
