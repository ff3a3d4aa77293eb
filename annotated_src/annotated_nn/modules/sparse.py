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

    # 中: `__constants__` 告诉 TorchScript 哪些属性是常量；即时执行（eager）的代码从不读取它，
    # 中: 这里照抄 torch 以保持类属性一致。
    # EN: `__constants__` tells TorchScript which attributes are constants; eager code never reads
    # EN: it, and it is copied from torch to keep the class attributes equal.
    __constants__ = [
        "num_embeddings",
        "embedding_dim",
        # 中: 两个尺寸之后的选项，顺序正是 `F.embedding` 的参数顺序。
        # EN: After the two sizes, the options come in `F.embedding`'s argument order.
        "padding_idx",
        "max_norm",
        "norm_type",
        "scale_grad_by_freq",
        "sparse",
    ]

    # 中: 这些只是类型注解，不创建任何属性。
    # EN: These are type annotations only and create no attribute.
    num_embeddings: int
    embedding_dim: int
    padding_idx: int | None
    max_norm: float | None
    norm_type: float
    scale_grad_by_freq: bool
    weight: Tensor
    # 中: `freeze` 与 torch 一样只被声明、从未赋值：`Embedding` 实例没有 `freeze` 属性，
    # 中: 冻结状态体现在 `weight.requires_grad` 上。
    # EN: `freeze`, as in torch, is declared but never assigned: an `Embedding` has no `freeze`
    # EN: attribute; freezing shows in `weight.requires_grad`.
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
        # 中: 越界检查抛出 `AssertionError`（不是 ValueError），文字与 torch 相同，连大写的
        # 中: "Padding_idx" 也一样。负数从末尾数：`-1` 换算成 `num_embeddings - 1`，之后保存的
        # 中: 总是非负下标；0 不需要检查。
        # EN: Out of range raises `AssertionError` (not ValueError) with torch's text, capital
        # EN: "Padding_idx" included. A negative value counts from the end: `-1` becomes
        # EN: `num_embeddings - 1`, so the stored index is always non-negative; 0 needs no check.
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= self.num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if padding_idx < -self.num_embeddings:
                    raise AssertionError("Padding_idx must be within num_embeddings")
                padding_idx = self.num_embeddings + padding_idx
        # 中: 这些选项只是保存下来，每次前向传播原样交给 `F.embedding`。
        # EN: These options are only stored; every forward pass hands them to `F.embedding`.
        self.padding_idx = padding_idx
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        # 中: 没有现成的表：分配后由 `reset_parameters` 从 N(0, 1) 抽样并把填充行清零。
        # 中: `_freeze` 在创建时就决定 `requires_grad`。
        # EN: No table given: allocate it, and `reset_parameters` samples N(0, 1) and zeroes the
        # EN: padding row. `_freeze` sets `requires_grad` at creation.
        if _weight is None:
            self.weight = Parameter(
                torch.empty((num_embeddings, embedding_dim), **factory_kwargs),
                requires_grad=not _freeze,
            )
            self.reset_parameters()
        # 中: 给了现成的表：先核对形状（`AssertionError`，文字同 torch）。
        # 中: `Parameter(_weight)` 与原张量共享存储、不拷贝，
        # 中: 所以之后改动原张量也会反映到模块里；不调用 `reset_parameters`，
        # 中: 填充行保持原值（但前向传播中它依然拿不到梯度）。
        # EN: A table given: check its shape first (`AssertionError`, torch's text).
        # EN: `Parameter(_weight)` shares storage with the original, no copy, so later changes to
        # EN: that tensor show in the module; `reset_parameters` is not called, so the padding row
        # EN: keeps its values (though it still gets no gradient in the forward pass).
        else:
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError(
                    "Shape of weight does not match num_embeddings and embedding_dim"
                )
            self.weight = Parameter(_weight, requires_grad=not _freeze)

        # 中: `sparse` 与 torch 一样最后才保存，
        # 中: 所以实例 `__dict__` 中的属性顺序与 torch 相同。
        # EN: `sparse` is stored last, as in torch, so the instance `__dict__` has torch's
        # EN: attribute order.
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
        # 中: 查表本身是 `weight[input]`；`padding_idx` 那一行照样被查出（默认是零向量），
        # 中: 只是反向传播时它的梯度恒为 0。
        # EN: The lookup itself is `weight[input]`; the `padding_idx` row is returned like any
        # EN: other (a zero vector by default), but its gradient is always 0 in the backward pass.
        return F.embedding(
            input,
            self.weight,
            self.padding_idx,
            # 中: 设了 `max_norm` 时，`F.embedding` 先在 `no_grad` 下
            # 中: 就地缩放这次被查到、且范数超过 `max_norm` 的行，再查表。
            # 中: 这会改写 `weight`（版本号加 1），所以此前已把 `weight`
            # 中: 存进计算图的运算在反向传播时会报“被就地修改”的错误——需要先 `clone()`。
            # EN: With `max_norm` set, `F.embedding` first rescales in place, under `no_grad`, the
            # EN: rows this input touches whose norm exceeds `max_norm`, then looks up. This
            # EN: rewrites `weight` (its version goes up by 1), so an earlier op that saved `weight`
            # EN: in the graph fails at backward with an in-place error — `clone()` it first.
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
        # 中: 先拼出带 `{名字}` 占位的模板，只追加与默认值不同的选项（`norm_type` 的默认 2.0
        # 中: 与 `2` 相等，所以不显示）。
        # EN: Build a template with `{name}` fields, appending only options that differ from their
        # EN: defaults (the default `norm_type` 2.0 equals `2`, so it is not shown).
        s = "{num_embeddings}, {embedding_dim}"
        if self.padding_idx is not None:
            s += ", padding_idx={padding_idx}"
        if self.max_norm is not None:
            s += ", max_norm={max_norm}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        # 中: 最后用实例的 `__dict__` 一次填入，值按 `str()` 显示；`padding_idx` 显示的是换算后的
        # 中: 非负下标。
        # EN: Finally the instance `__dict__` fills every field at once, values shown by `str()`;
        # EN: `padding_idx` shows the converted non-negative index.
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
        # 中: 表的两维就是 `num_embeddings` 和 `embedding_dim`，所以只需检查它是二维的
        # 中: （`AssertionError`，文字同 torch）。
        # EN: The table's two sizes are `num_embeddings` and `embedding_dim`, so it only has to be
        # EN: 2D (`AssertionError`, torch's text).
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        # 中: 经 `_weight` 共享 `embeddings` 的存储，经 `_freeze` 在创建参数时就定下
        # 中: `requires_grad=not freeze`。
        # EN: `_weight` shares the storage of `embeddings`, and `_freeze` fixes
        # EN: `requires_grad=not freeze` as the parameter is created.
        embedding = cls(
            num_embeddings=rows,
            embedding_dim=cols,
            _weight=embeddings,
            _freeze=freeze,
            # 中: 填充行保留预训练的值（不清零），
            # 中: 但前向传播中依然拿不到梯度。
            # EN: The padding row keeps its pretrained values (not zeroed) but still gets no
            # EN: gradient in the forward pass.
            padding_idx=padding_idx,
            # 中: 冻结只挡住梯度：设了 `max_norm` 时，前向传播仍会就地缩放行，连调用者传入的
            # 中: `embeddings` 也一起被改写。
            # EN: Freezing only stops gradients: with `max_norm` set, the forward pass still
            # EN: rescales rows in place, and the caller's `embeddings` is rewritten with them.
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

    # 中: 与 `Embedding` 一样照抄 torch：
    # 中: 供 TorchScript 使用的常量列表，即时执行时无人读取。
    # EN: Copied from torch as for `Embedding`: the constants list for TorchScript, unread in
    # EN: eager execution.
    __constants__ = [
        "num_embeddings",
        "embedding_dim",
        # 中: 两个尺寸之后的选项，顺序正是 `F.embedding_bag` 的参数顺序（跳过
        # 中: `per_sample_weights`），所以 `padding_idx` 排在最后。
        # EN: After the two sizes, the options come in `F.embedding_bag`'s argument order
        # EN: (skipping `per_sample_weights`), hence `padding_idx` last.
        "max_norm",
        "norm_type",
        "scale_grad_by_freq",
        "mode",
        "sparse",
        "include_last_offset",
        "padding_idx",
    ]

    # 中: 只是类型注解；与 `Embedding` 不同，这里没有 `freeze`。
    # EN: Type annotations only; unlike `Embedding`, there is no `freeze` here.
    num_embeddings: int
    embedding_dim: int
    max_norm: float | None
    norm_type: float
    scale_grad_by_freq: bool
    weight: Tensor
    # 中: `mode` 是字符串 `'sum'`/`'mean'`/`'max'` 之一，只有 `F.embedding_bag` 会检查它。
    # EN: `mode` is one of the strings `'sum'`/`'mean'`/`'max'`; only `F.embedding_bag` checks it.
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
            mode: The reduction: `'sum'`, `'mean'` or `'max'`. / 归约方式：`'sum'`、`'mean'` 或 `'max'`。
            sparse: Produce a sparse gradient. / 产生稀疏梯度。
            _weight: Existing table, or None. / 已有的表，或 None。
            include_last_offset: `offsets` has a trailing end entry. / `offsets` 末尾带结尾元素。
            padding_idx: Row excluded from the reduction. / 不参与归约的行。
            device: Device for the table. / 表所在设备。
            dtype: Dtype of the table. / 表的数据类型。

        Raises:
            AssertionError: `padding_idx` out of range, or `_weight` has the wrong shape. / `padding_idx` 越界，或 `_weight` 形状不对。
        """
        # 中: 属性顺序与 torch 相同：与 `Embedding` 不同，三个 `max_norm` 相关选项在
        # 中: `padding_idx` 之前保存。
        # EN: Attribute order follows torch: unlike `Embedding`, the three `max_norm`-related
        # EN: options are stored before `padding_idx`.
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        # 中: 与 `Embedding` 相同的换算（负数从末尾数），只是错误信息以小写 "padding_idx" 开头，
        # 中: 照搬 torch。
        # EN: The same conversion as in `Embedding` (negatives count from the end), except that
        # EN: the message starts with a lower-case "padding_idx", as in torch.
        if padding_idx is not None:
            if padding_idx > 0:
                if padding_idx >= self.num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
            elif padding_idx < 0:
                if padding_idx < -self.num_embeddings:
                    raise AssertionError("padding_idx must be within num_embeddings")
                padding_idx = self.num_embeddings + padding_idx
        # 中: 在这里 `padding_idx` 那一行不参与归约：
        # 中: `mean` 的分母不计它，只含填充的袋得到零向量。
        # EN: Here the padding row is left out of the reduction: `mean` does not count it, and a
        # EN: bag holding only padding gives a zero vector.
        self.padding_idx = padding_idx
        # 中: 分配或采用表，同 `Embedding`；但没有 `_freeze`，新参数总是需要梯度
        # 中: （`from_pretrained` 事后再改）。
        # EN: Allocate or adopt the table as in `Embedding`, but with no `_freeze`: the new
        # EN: parameter always requires grad (`from_pretrained` changes that afterwards).
        if _weight is None:
            self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), **factory_kwargs))
            self.reset_parameters()
        else:
            # 中: 给定的 `_weight` 先核对形状（文字同 torch），
            # 中: 然后同样共享存储、不清零填充行。
            # EN: A given `_weight` has its shape checked first (torch's text), then likewise
            # EN: shares storage and keeps its padding row.
            if list(_weight.shape) != [num_embeddings, embedding_dim]:
                raise AssertionError(
                    "Shape of weight does not match num_embeddings and embedding_dim"
                )
            self.weight = Parameter(_weight)
        # 中: `mode` 在这里不校验：`F.embedding_bag` 每次调用时才检查，
        # 中: 非法值抛出 ValueError；它也拒绝 `'max'` 与 `sparse=True`
        # 中: 或 `scale_grad_by_freq=True` 的组合。
        # EN: `mode` is not validated here: `F.embedding_bag` checks it on every call and raises
        # EN: ValueError for a bad value; it also rejects `'max'` combined with `sparse=True` or
        # EN: `scale_grad_by_freq=True`.
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
        # 中: 全部检查都在 `F.embedding_bag` 里：
        # 中: 二维 `input` 配 `offsets` 或一维 `input` 缺 `offsets` 都抛出 ValueError；
        # 中: 相邻 `offsets` 相等表示空袋，结果为零向量。
        # EN: Every check lives in `F.embedding_bag`: a 2D `input` with `offsets`, or a 1D `input`
        # EN: without, raises ValueError; equal neighboring `offsets` mean an empty bag, which
        # EN: yields a zero vector.
        return F.embedding_bag(
            input,
            self.weight,
            offsets,
            # 中: `max_norm` 与 `Embedding` 一样会就地改写 `weight` 中被查到的行。
            # EN: `max_norm` rewrites the rows looked up in `weight` in place, as in `Embedding`.
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.mode,
            self.sparse,
            # 中: 逐下标的权重只支持 `mode='sum'`，其他模式抛出 NotImplementedError。
            # 中: `include_last_offset=True` 时 `offsets` 多一个结尾元素，
            # 中: B 个袋需要 B+1 个数。
            # EN: Per-index weights work only with `mode='sum'`; other modes raise
            # EN: NotImplementedError. With `include_last_offset=True`, `offsets` carries an extra
            # EN: end entry: B bags take B+1 numbers.
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
        # 中: 与 `Embedding` 相同，只追加非默认选项——但 `mode` 总被追加，`sparse` 与
        # 中: `include_last_offset` 从不出现，`padding_idx` 排在 `mode` 之后。
        # EN: As in `Embedding`, only non-default options are appended — but `mode` always is,
        # EN: `sparse` and `include_last_offset` never appear, and `padding_idx` comes after `mode`.
        s = "{num_embeddings}, {embedding_dim}"
        if self.max_norm is not None:
            s += ", max_norm={max_norm}"
        if self.norm_type != 2:
            s += ", norm_type={norm_type}"
        if self.scale_grad_by_freq is not False:
            s += ", scale_grad_by_freq={scale_grad_by_freq}"
        s += ", mode={mode}"
        # 中: 每个值先经过 `repr()`，所以字符串 `mode`
        # 中: 带引号，例如 `mode='mean'`。
        # EN: Every value goes through `repr()` first, so the string `mode` is quoted, e.g.
        # EN: `mode='mean'`.
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
            mode: The reduction: `'sum'`, `'mean'` or `'max'`. / 归约方式：`'sum'`、`'mean'` 或 `'max'`。
            sparse: Produce a sparse gradient. / 产生稀疏梯度。
            include_last_offset: `offsets` has a trailing end entry. / `offsets` 末尾带结尾元素。
            padding_idx: Row excluded from the reduction. / 不参与归约的行。

        Returns:
            The new module. / 新模块。

        Raises:
            AssertionError: `embeddings` is not 2D. / `embeddings` 不是二维。
        """
        # 中: 与 `Embedding.from_pretrained` 相同的二维检查和同样的错误文字。
        # EN: The same 2D check and the same error text as `Embedding.from_pretrained`.
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        # 中: 经 `_weight` 共享 `embeddings` 的存储；
        # 中: `padding_idx` 行保留 `embeddings` 中的值。
        # EN: `_weight` shares the storage of `embeddings`; the `padding_idx` row keeps the value
        # EN: it has in `embeddings`.
        embeddingbag = cls(
            num_embeddings=rows,
            embedding_dim=cols,
            _weight=embeddings,
            # 中: 与 `Embedding` 一样，
            # 中: `max_norm` 的就地缩放也会改写调用者的 `embeddings`。
            # EN: As with `Embedding`, `max_norm`'s in-place rescaling rewrites the caller's
            # EN: `embeddings` too.
            max_norm=max_norm,
            norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq,
            mode=mode,
            sparse=sparse,
            include_last_offset=include_last_offset,
            padding_idx=padding_idx,
        )
        # 中: 构造函数没有 `_freeze`，所以冻结在事后设置：结果与 `Embedding` 的做法相同，
        # 中: `freeze=True` 时 `weight.requires_grad` 为 False。
        # EN: The constructor has no `_freeze`, so freezing is set afterwards: the result is the
        # EN: same as `Embedding`'s, `weight.requires_grad` is False with `freeze=True`.
        embeddingbag.weight.requires_grad = not freeze
        return embeddingbag
