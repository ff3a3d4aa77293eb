r"""Adaptive softmax: a cheap output layer for very many classes; mirrors `torch.nn.modules.adaptive`. / 自适应 softmax：类别极多时的廉价输出层，对应 `torch.nn.modules.adaptive`。

=== "中文"

    语言模型的输出层要给词表里的每个词打分：完整的 softmax 对每个样本都要算 `n_classes` 个
    logits，代价是 `in_features * n_classes` 次乘加，词表有几十万个词时它就是整个模型最贵的一层。
    自适应 softmax（Grave 等人，“Efficient softmax approximation for GPUs”，2016）利用词频极不均匀
    （近似齐普夫定律）这一点：少数高频词占了绝大多数出现次数。

    做法是先把类别按频率排序（下标 0 最常见），再用 `cutoffs` 把它们切成几段：

    - 头部（head）：最常见的 `cutoffs[0]` 个类别，称为短表（shortlist），外加每个尾部簇一个
      “簇代表”；每个样本都要算头部，它只有 `cutoffs[0] + 簇数` 个输出。
    - 尾部簇（tail cluster）：其余的类别按 `cutoffs` 分成若干簇。一个样本的目标落在某个簇里时，
      才为它计算这个簇内部的分布；簇越靠后（越罕见），它的投影越窄，每个类别分到的维度
      （也就是每个类别的乘加次数）越少。

    于是一个类别的对数概率是：短表里的类别直接取头部的对数概率；簇 `i` 里的类别等于
    “头部选中簇 `i` 的对数概率”加上“簇 `i` 内部选中这个类别的对数概率”（概率相乘即对数相加）。
    这样得到的仍是所有类别上和为 1 的分布，而且是精确计算的；所谓“近似”指的是模型的形式
    不同于一个大 softmax 层，而不是数值上的近似。省下的是计算量：大多数样本的目标都在短表里，
    根本不需要碰尾部簇。

    本文件只有一个层 [`AdaptiveLogSoftmaxWithLoss`][annotated_nn.modules.adaptive.AdaptiveLogSoftmaxWithLoss]，
    用本库的 `Linear`、`Sequential` 与 `ModuleList` 搭成，子模块的名字、顺序和初始化顺序都与
    torch 相同，所以同一个随机种子得到完全相同的权重、`repr` 与状态字典（state_dict）键。

=== "English"

    A language model's output layer scores every word of the vocabulary: a full softmax computes
    `n_classes` logits per example, at a cost of `in_features * n_classes` multiply-adds, and with
    a vocabulary of hundreds of thousands of words that is the most expensive layer of the
    whole model. Adaptive softmax (Grave et al., "Efficient softmax approximation for GPUs", 2016)
    exploits how uneven word frequencies are (roughly Zipf's law): a few frequent words account
    for most occurrences.

    The classes are first sorted by frequency (index 0 is the most common), then `cutoffs` splits
    them into ranges:

    - The head: the `cutoffs[0]` most common classes, called the shortlist, plus one "cluster
      token" per tail cluster; the head runs for every example, and it has only
      `cutoffs[0] + number of clusters` outputs.
    - The tail clusters: the remaining classes, split into clusters by `cutoffs`. A cluster's
      inner distribution is computed for an example only when its target falls in that
      cluster; the later (rarer) a cluster, the narrower its projection, so each of its classes
      gets fewer dimensions (and costs fewer multiply-adds).

    A class's log-probability is therefore: for a shortlist class, the head's log-probability;
    for a class in cluster `i`, "the head's log-probability of cluster `i`" plus "the
    log-probability of the class within cluster `i`" (multiplying probabilities is adding logs).
    The result is still a distribution over all classes that sums to 1, and it is computed
    exactly; the "approximation" lies in the model's form, which differs from one big softmax
    layer, not in the numerics. What it saves is computation: most examples have their target
    in the shortlist and never touch a tail cluster.

    The file holds a single layer,
    [`AdaptiveLogSoftmaxWithLoss`][annotated_nn.modules.adaptive.AdaptiveLogSoftmaxWithLoss],
    built from this library's `Linear`, `Sequential` and `ModuleList` with torch's submodule
    names, order and initialization order, so the same seed gives identical weights, `repr` and
    state_dict keys.
"""

import itertools
from collections import namedtuple
from collections.abc import Sequence

import torch
from torch import Tensor

from .. import functional as F
from .container import ModuleList, Sequential
from .linear import Linear
from .module import Module

__all__ = ["AdaptiveLogSoftmaxWithLoss"]

# 中: `forward` 的返回值：`output` 是每个样本目标类别的对数概率，`loss` 是它们取负后的平均。
# 中: 类型名和字段名与 torch 相同，所以 `repr` 一致（`_ASMoutput(output=..., loss=...)`）。
# 中: 1.5.1 → 2.13：这个具名元组的类型名从 `ASMoutput` 改成了 `_ASMoutput`。
# EN: What `forward` returns: `output` holds each example's target log-probability, `loss` the
# EN: mean of their negatives. Type and field names are torch's, so the `repr` matches
# EN: (`_ASMoutput(output=..., loss=...)`).
# EN: 1.5.1 → 2.13: the named tuple's type name changed from `ASMoutput` to `_ASMoutput`.
_ASMoutput = namedtuple("_ASMoutput", ["output", "loss"])


class AdaptiveLogSoftmaxWithLoss(Module):
    r"""Adaptive softmax with its negative log-likelihood loss. / 自适应 softmax 及其负对数似然损失。

    === "中文"

        `cutoffs` 必须是严格递增、互不相同的正整数，每个都在 `1` 到 `n_classes - 1` 之间。
        例如 `n_classes=20, cutoffs=[4, 10]` 把类别分成短表 `0..3`、簇 0（`4..9`）和簇 1（`10..19`）；
        构造函数在末尾补上 `n_classes`，所以 `self.cutoffs` 是 `[4, 10, 20]`。

        子模块：

        - `head`：`Linear(in_features, shortlist_size + n_clusters)`，前 `shortlist_size` 列是短表
          类别的 logits，后面每列代表一个尾部簇；只有它可以带偏置（`head_bias`，默认不带）。
        - `tail`：`ModuleList`，第 `i` 项是 `Sequential(Linear(in_features, hsz), Linear(hsz, osz))`，
          都不带偏置。先把特征投影到更窄的 `hsz = int(in_features // div_value ** (i + 1))` 维，
          再映射到这个簇的 `osz` 个类别：这是一个秩不超过 `hsz` 的低秩分解，罕见词用更少的维度。
          例如 `in_features=16, div_value=4.0` 时两个簇的 `hsz` 是 4 和 1。

        标签应当按频率排序：下标越小越常见。模块本身不检查这一点：任何顺序得到的都是合法的分布，
        但节省计算量靠的正是高频类别落在头部。
        1.5.1 → 2.13：新增 `device`/`dtype` 参数、对空 `cutoffs` 的专门报错，以及不带批次维度的
        输入（0 维目标配 1 维输入）。

    === "English"

        `cutoffs` must be strictly increasing, distinct positive integers, each between `1` and
        `n_classes - 1`. For instance `n_classes=20, cutoffs=[4, 10]` splits the classes into
        the shortlist `0..3`, cluster 0 (`4..9`) and cluster 1 (`10..19`); the constructor
        appends `n_classes`, so `self.cutoffs` is `[4, 10, 20]`.

        Submodules:

        - `head`: `Linear(in_features, shortlist_size + n_clusters)`; its first `shortlist_size`
          columns are the shortlist classes' logits, each further column stands for one tail
          cluster; it is the only part that may have a bias (`head_bias`, off by default).
        - `tail`: a `ModuleList` whose entry `i` is
          `Sequential(Linear(in_features, hsz), Linear(hsz, osz))`, both without bias. It first
          projects the features down to `hsz = int(in_features // div_value ** (i + 1))`
          dimensions, then maps them to the cluster's `osz` classes: a low-rank factorization of
          rank at most `hsz`, so rarer words get fewer dimensions. With `in_features=16,
          div_value=4.0`, for instance, the two clusters have `hsz` 4 and 1.

        Labels should be sorted by frequency, smaller index meaning more frequent. The module
        does not check this: any order gives a valid distribution, but the savings rely on the
        frequent classes being in the head.
        1.5.1 → 2.13: the `device`/`dtype` arguments, a dedicated error for empty `cutoffs`, and
        input without a batch dimension (a 0-dim target with a 1-dim input) were added.

    Args:
        in_features: Number of input features. / 输入特征数。
        n_classes: Number of classes. / 类别数。
        cutoffs: Increasing boundaries between the shortlist and the clusters. / 短表与各簇之间递增的分界点。
        div_value: Base of the shrinking projection sizes; default 4.0. / 投影宽度逐簇缩小的底数，默认 4.0。
        head_bias: Whether `head` has a bias. / `head` 是否带偏置。
        device: Device of the parameters. / 参数所在的设备。
        dtype: Dtype of the parameters. / 参数的数据类型。

    Raises:
        ValueError: `cutoffs` is empty, unsorted, repeated, not integral or out of range. / `cutoffs` 为空、未排序、有重复、不是整数或超出范围。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> asm = nn.AdaptiveLogSoftmaxWithLoss(16, 20, cutoffs=[4, 10])
        >>> asm.head, [len(cluster) for cluster in asm.tail]
        (Linear(in_features=16, out_features=6, bias=False), [2, 2])
        >>> result = asm(torch.randn(3, 16), torch.tensor([0, 7, 19]))
        >>> result.output.shape, result.loss.shape
        (torch.Size([3]), torch.Size([]))
    """

    # 中: 类级注解与 torch 相同（只供类型检查与 TorchScript 使用），`head`/`tail` 的类型是本库的层。
    # EN: Class-level annotations as in torch (for type checkers and TorchScript only); `head`
    # EN: and `tail` are typed with this library's layers.
    in_features: int
    n_classes: int
    cutoffs: list[int]
    div_value: float
    head_bias: bool
    head: Linear
    tail: ModuleList

    def __init__(
        self,
        in_features: int,
        n_classes: int,
        cutoffs: Sequence[int],
        div_value: float = 4.0,
        head_bias: bool = False,
        device=None,
        dtype=None,
    ) -> None:
        r"""Check `cutoffs`, then build `head` and one projection per tail cluster. / 检查 `cutoffs`，再建 `head` 与每个尾部簇的投影。

        === "中文"

            第 1 步：把 `cutoffs` 转成列表并检查；第 2 步：保存配置并算出短表大小、簇数与头部宽度；
            第 3 步：先建 `head`，再依次建各尾部簇的两层投影。参数的初始化顺序就是构造顺序，
            与 torch 相同，所以同一个随机种子给出完全相同的权重。

        === "English"

            Step 1: turn `cutoffs` into a list and check it; step 2: store the configuration and
            derive the shortlist size, the number of clusters and the head's width; step 3:
            build `head` first, then each tail cluster's two-layer projection in turn. Parameters
            are initialized in construction order, torch's order, so the same seed gives
            identical weights.

        Args:
            in_features: Number of input features. / 输入特征数。
            n_classes: Number of classes. / 类别数。
            cutoffs: Increasing boundaries between the shortlist and the clusters. / 短表与各簇之间递增的分界点。
            div_value: Base of the shrinking projection sizes. / 投影宽度逐簇缩小的底数。
            head_bias: Whether `head` has a bias. / `head` 是否带偏置。
            device: Device of the parameters. / 参数所在的设备。
            dtype: Dtype of the parameters. / 参数的数据类型。

        Raises:
            ValueError: Invalid `cutoffs`. / `cutoffs` 不合法。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()

        # 中: 第 1 步：先复制成列表（可以接受任何序列，也不会改动调用者的对象）。空列表单独报错：
        # 中: 否则后面的 `min([])` 会抛出一条看不懂的 Python 内置错误。
        # EN: Step 1: copy into a list first (any sequence is accepted, and the caller's object
        # EN: is never changed). An empty list gets its own error: otherwise `min([])` below would
        # EN: raise an unhelpful built-in Python error.
        cutoffs = list(cutoffs)
        if len(cutoffs) == 0:
            raise ValueError("cutoffs should be a sequence of length larger than 0")

        # 中: 五个条件按 torch 的顺序用 `or` 短路求值，任一成立就报同一条错误（文字与 torch 相同）：
        # 中: 未排序、最小值不是正数、最大值超过 `n_classes - 1`、有重复、有非整数值。顺序也决定了
        # 中: 异常类型：例如元素不可比较时，第一个比较就抛出 TypeError。
        # EN: The five conditions short-circuit with `or` in torch's order, any one of them giving
        # EN: the same error (torch's text): unsorted, a non-positive minimum, a maximum above
        # EN: `n_classes - 1`, duplicates, a non-integral value. The order also decides the
        # EN: exception type: with incomparable elements, for instance, the first comparison
        # EN: raises TypeError.
        if (
            (cutoffs != sorted(cutoffs))
            or (min(cutoffs) <= 0)
            or (max(cutoffs) > (n_classes - 1))
            or (len(set(cutoffs)) != len(cutoffs))
            or any(int(c) != c for c in cutoffs)
        ):
            raise ValueError(
                "cutoffs should be a sequence of unique, positive "
                "integers sorted in an increasing order, where "
                "each value is between 1 and n_classes-1"
            )

        # 中: 第 2 步：末尾补上 `n_classes`，于是相邻两项正好围出每个簇的范围，最后一个簇一直到最后
        # 中: 一个类别。头部的输出数 = 短表大小 + 簇数（每个簇在头部占一列）。
        # EN: Step 2: append `n_classes`, so each pair of neighbors bounds one cluster and the
        # EN: last cluster runs to the last class. The head's width = shortlist size + number of
        # EN: clusters (each cluster owns one column of the head).
        self.in_features = in_features
        self.n_classes = n_classes
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters

        # 中: 第 3 步：先建 `head`（它的 `reset_parameters` 最先消耗随机数），再建空的 `tail`。
        # EN: Step 3: build `head` first (its `reset_parameters` draws random numbers first),
        # EN: then the empty `tail`.
        self.head = Linear(self.in_features, self.head_size, bias=self.head_bias, **factory_kwargs)
        self.tail = ModuleList()

        for i in range(self.n_clusters):
            # 中: 簇 `i` 的中间宽度按 `div_value ** (i + 1)` 缩小：`//` 向下取整，但浮点的
            # 中: `div_value` 让结果仍是浮点数，所以再用 `int` 转成整数；`in_features` 太小时会得到 0
            # 中: （投影的两层于是都没有权重元素，这个簇的 logits 全是 0）。`cluster_size` 是簇内的类别数。
            # EN: Cluster `i`'s middle width shrinks by `div_value ** (i + 1)`: `//` floors, but a
            # EN: float `div_value` keeps the result a float, so `int` converts it; a small
            # EN: `in_features` gives 0 (both layers of the projection then have no weight
            # EN: elements, and the cluster's logits are all 0). `cluster_size` is the number of
            # EN: classes in the cluster.
            hidden_size = int(self.in_features // (self.div_value ** (i + 1)))
            cluster_size = self.cutoffs[i + 1] - self.cutoffs[i]

            # 中: 两层都不带偏置；在 `ModuleList` 里的名字是 `"0"`、`"1"`……，状态字典键因此是
            # 中: `tail.0.0.weight`、`tail.0.1.weight` 等，与 torch 相同。
            # EN: Neither layer has a bias; inside the `ModuleList` they are named `"0"`, `"1"`,
            # EN: ..., giving state_dict keys `tail.0.0.weight`, `tail.0.1.weight` and so on, as
            # EN: in torch.
            projection = Sequential(
                Linear(self.in_features, hidden_size, bias=False, **factory_kwargs),
                Linear(hidden_size, cluster_size, bias=False, **factory_kwargs),
            )
            self.tail.append(projection)

    def reset_parameters(self) -> None:
        r"""Re-initialize every layer as the constructor did. / 按构造时的方式重新初始化每一层。

        === "中文"

            顺序与构造时相同：先 `head`，再每个簇的两层，所以重新设定同一个种子后调用它，
            得到的权重与新建模块时完全一样。

        === "English"

            Same order as in the constructor: `head` first, then each cluster's two layers, so
            calling it after re-seeding with the same seed reproduces a fresh module's weights
            exactly.
        """
        self.head.reset_parameters()
        # 中: 每个簇是一个两层的 `Sequential`，迭代它正好解包出这两层。
        # EN: Each cluster is a two-layer `Sequential`; iterating it unpacks exactly those layers.
        for in_to_hidden, hidden_to_out in self.tail:
            in_to_hidden.reset_parameters()
            hidden_to_out.reset_parameters()

    def forward(self, input_: Tensor, target_: Tensor) -> _ASMoutput:
        r"""Log-probability of each target and the mean negative log-likelihood. / 每个目标的对数概率与平均负对数似然。

        === "中文"

            只算需要的部分，不算完整分布：

            1. 检查形状：1 维目标配 2 维输入且批次大小相同，0 维目标配 1 维输入；
            2. 把不带批次维度的输入补成一行的批次；
            3. 按目标所在的范围给样本分组：短表里的样本记下自己的类别；落在簇 `i` 的样本只让这些行
               通过 `tail[i]`，得到簇内对数概率，并记下头部里簇 `i` 那一列；
            4. 若有样本不属于任何范围（目标越界），报错；
            5. 所有样本都过一遍 `head`，取出第 3 步记下的那一列的对数概率加上去，损失是平均的负值。

            没有任何目标的簇完全不计算。

        === "English"

            Computes only what is needed, never the full distribution:

            1. check shapes: a 1-dim target goes with a 2-dim input of the same batch size, a
               0-dim target with a 1-dim input;
            2. turn unbatched input into a batch of one row;
            3. group the examples by the range their target falls in: shortlist examples record
               their class; for examples in cluster `i` only those rows go through `tail[i]`,
               giving the within-cluster log-probability, and they record cluster `i`'s column
               of the head;
            4. if some example belongs to no range (its target is out of bounds), raise;
            5. run every example through `head`, add the log-probability of the column recorded
               in step 3, and take the mean of the negatives as the loss.

            A cluster without any target is not computed at all.

        Args:
            input_: `(N, in_features)` or `(in_features,)`. / 形状 `(N, in_features)` 或 `(in_features,)`。
            target_: Class indices, `(N,)` or `()`. / 类别下标，形状 `(N,)` 或 `()`。

        Returns:
            `_ASMoutput(output, loss)`: `output` `(N,)` or `()`, `loss` a scalar. / `_ASMoutput(output, loss)`：`output` 形状 `(N,)` 或 `()`，`loss` 为标量。

        Raises:
            RuntimeError: Mismatched shapes, or a target outside `[0, n_classes - 1]`. / 形状不匹配，或目标超出 `[0, n_classes - 1]`。
        """
        # 中: 第 1 步：形状检查，顺序与文字都与 torch 相同。注意 1 维目标时先比批次大小、后查输入
        # 中: 维数，所以批次大小不同的 1 维输入报的是“same size”那条错误。
        # EN: Step 1: shape checks, in torch's order and with its texts. Note that for a 1-dim
        # EN: target the batch sizes are compared before the input's dimensionality is checked,
        # EN: so a 1-dim input of another length gets the "same size" error.
        target_dim = target_.dim()
        if target_dim == 1:
            if input_.size(0) != target_.size(0):
                raise RuntimeError(
                    "Input and target should have the same size in the batch dimension."
                )
            if input_.dim() != 2:
                raise RuntimeError(
                    f"1D target tensor expects 2D input tensors, "
                    f"but found inputs with size {input_.size()}"
                )
        elif target_dim == 0:
            if input_.dim() != 1:
                raise RuntimeError(
                    f"0D target tensor expects 1D input tensors, "
                    f"but found inputs with size {input_.size()}"
                )
        else:
            raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")

        # 中: 第 2 步：不带批次维度时补出长度为 1 的批次，下面只需处理批次的情形，最后再去掉。
        # EN: Step 2: an unbatched call gets a batch of length 1, so the code below handles
        # EN: batches only; the extra dimension is removed at the end.
        is_batched = target_dim > 0
        input = input_ if is_batched else input_.unsqueeze(0)
        target = target_ if is_batched else target_.unsqueeze(0)

        # 中: `output` 先放簇内对数概率（短表样本为 0），第 5 步再加上头部的部分；`head_column`
        # 中: 记录每个样本要从头部取哪一列，与目标同为整数类型。`rows_seen` 数已分组的样本。
        # EN: `output` first holds within-cluster log-probabilities (0 for shortlist examples);
        # EN: step 5 adds the head's part. `head_column` records which head column each example
        # EN: reads, an integer tensor like the target. `rows_seen` counts grouped examples.
        rows_seen = 0
        batch_size = target.size(0)
        output = input.new_zeros(batch_size)
        head_column = target.new_empty(batch_size)

        # 中: 第 3 步：范围 0 是短表 `[0, cutoffs[0])`，范围 `i ≥ 1` 是簇 `i - 1`。
        # EN: Step 3: range 0 is the shortlist `[0, cutoffs[0])`; range `i ≥ 1` is cluster `i - 1`.
        bounds = [0] + self.cutoffs
        for i in range(len(bounds) - 1):
            low, high = bounds[i], bounds[i + 1]
            # 中: 目标落在 `[low, high)` 的行号；只有一行时 `squeeze` 得到 0 维张量，下面的
            # 中: `index_*` 操作同样接受。一行都没有就跳过：这个簇不做任何计算。
            # EN: Row numbers whose target lies in `[low, high)`; with a single row `squeeze`
            # EN: yields a 0-dim tensor, which the `index_*` ops below accept too. No rows at
            # EN: all means skipping: this cluster costs nothing.
            in_range = (target >= low) & (target < high)
            rows = in_range.nonzero().squeeze()
            if rows.numel() == 0:
                continue

            if i == 0:
                # 中: 短表：头部里这个类别自己的那一列就是答案，簇内部分为 0（`output` 保持 0）。
                # EN: Shortlist: the class's own head column is the answer; the within-cluster
                # EN: part is 0 (`output` stays 0).
                head_column.index_copy_(0, rows, target[in_range])
            else:
                # 中: 簇 `i - 1`：只取这些行过它的两层投影，在簇内做 log_softmax，取出目标
                # 中: （减去 `low` 变成簇内下标）的对数概率；头部要取的是这个簇的那一列
                # 中: `shortlist_size + i - 1`。
                # EN: Cluster `i - 1`: only these rows pass its two-layer projection; a
                # EN: log_softmax within the cluster gives the target's log-probability (minus
                # EN: `low`, its index inside the cluster); the head column to read is the
                # EN: cluster's, `shortlist_size + i - 1`.
                relative_target = target[in_range] - low
                cluster_input = input.index_select(0, rows)
                cluster_output = self.tail[i - 1](cluster_input)
                cluster_column = self.shortlist_size + i - 1
                head_column.index_fill_(0, rows, cluster_column)
                cluster_logprob = F.log_softmax(cluster_output, dim=1)
                target_logprob = cluster_logprob.gather(1, relative_target.unsqueeze(1))
                output.index_copy_(0, rows, target_logprob.squeeze(1))

            rows_seen += rows.numel()

        # 中: 第 4 步：各范围互不重叠，所以合起来少于批次大小就说明有目标 < 0 或 ≥ `n_classes`。
        # 中: 报错文字与 torch 相同，末尾带一个空格。
        # EN: Step 4: the ranges do not overlap, so fewer rows than the batch size means some
        # EN: target is < 0 or ≥ `n_classes`. The text is torch's, trailing space included.
        if rows_seen != batch_size:
            raise RuntimeError(
                f"Target values should be in [0, {self.n_classes - 1}], "
                f"but values in range [{target.min().item()}, {target.max().item()}] "
                "were found. "
            )

        # 中: 第 5 步：头部对所有行都要算。`log p(类别) = log p_head(列) + log p_簇内(类别)`，
        # 中: 对短表样本第二项为 0。损失是平均负对数似然，总是标量。
        # EN: Step 5: the head runs on every row. `log p(class) = log p_head(column) +
        # EN: log p_cluster(class)`, whose second term is 0 for shortlist examples. The loss is the
        # EN: mean negative log-likelihood, always a scalar.
        head_output = self.head(input)
        head_logprob = F.log_softmax(head_output, dim=1)
        output += head_logprob.gather(1, head_column.unsqueeze(1)).squeeze()
        loss = (-output).mean()

        # 中: 不带批次维度的调用得到 0 维 `output`。
        # EN: An unbatched call gets a 0-dim `output`.
        if not is_batched:
            output = output.squeeze(0)
        return _ASMoutput(output, loss)

    def _get_full_log_prob(self, input, head_output):
        r"""Assemble the log-probabilities of all classes. / 拼出所有类别的对数概率。

        === "中文"

            短表各列直接取头部的对数概率；簇 `i` 的各列等于簇内 log_softmax 加上头部第
            `shortlist_size + i` 列（按列广播）。每个簇都对所有行计算，所以这里要付出完整的代价。

        === "English"

            The shortlist's columns are the head's log-probabilities; cluster `i`'s columns are
            its within-cluster log_softmax plus the head's column `shortlist_size + i`
            (broadcast across the columns). Every cluster runs on every row, so here the full
            cost is paid.

        Args:
            input: `(N, in_features)`. / 形状 `(N, in_features)`。
            head_output: `self.head(input)`, `(N, head_size)`. / 即 `self.head(input)`，形状 `(N, head_size)`。

        Returns:
            `(N, n_classes)` log-probabilities. / 形状 `(N, n_classes)` 的对数概率。
        """
        # 中: 每一列都会被下面写到，所以用未初始化的 `new_empty`。
        # EN: Every column is written below, hence the uninitialized `new_empty`.
        out = input.new_empty((head_output.size(0), self.n_classes))
        head_logprob = F.log_softmax(head_output, dim=1)
        out[:, : self.shortlist_size] = head_logprob[:, : self.shortlist_size]

        # 中: `self.cutoffs` 的相邻两项 `(start, stop)` 围出簇 `i` 在完整分布里的列范围。
        # EN: Neighboring entries `(start, stop)` of `self.cutoffs` bound cluster `i`'s columns in
        # EN: the full distribution.
        for i, (start, stop) in enumerate(itertools.pairwise(self.cutoffs)):
            cluster_output = self.tail[i](input)
            cluster_logprob = F.log_softmax(cluster_output, dim=1)
            cluster_share = head_logprob[:, self.shortlist_size + i].unsqueeze(1)
            out[:, start:stop] = cluster_logprob + cluster_share
        return out

    def log_prob(self, input: Tensor) -> Tensor:
        r"""Log-probabilities of all `n_classes` classes. / 全部 `n_classes` 个类别的对数概率。

        === "中文"

            与 `forward` 不同，它不需要目标，对每一行都算出完整分布，代价与所有簇的大小成正比。
            每行的指数之和为 1。

        === "English"

            Unlike `forward` it needs no target and computes the full distribution for every
            row, at a cost that grows with every cluster's size. Each row's exponentials sum to 1.

        Args:
            input: `(N, in_features)`. / 形状 `(N, in_features)`。

        Returns:
            `(N, n_classes)` log-probabilities. / 形状 `(N, n_classes)` 的对数概率。

        Examples:
            >>> import torch, annotated_nn as nn
            >>> asm = nn.AdaptiveLogSoftmaxWithLoss(8, 10, cutoffs=[3])
            >>> logp = asm.log_prob(torch.randn(2, 8))
            >>> logp.shape, torch.allclose(logp.exp().sum(1), torch.ones(2))
            (torch.Size([2, 10]), True)
        """
        head_output = self.head(input)
        return self._get_full_log_prob(input, head_output)

    def predict(self, input: Tensor) -> Tensor:
        r"""The most probable class of each row. / 每一行概率最大的类别。

        === "中文"

            结果与 `self.log_prob(input).argmax(dim=1)` 相同（并列最大值除外），但常常更便宜：
            如果头部的最大值落在短表类别 `c` 上，`c` 就是整体最可能的类别，因为每个簇的概率要分给
            簇内所有类别，簇内任何一个类别都不会超过头部中簇那一列的概率。只有头部最大值落在
            某个簇列上的行，才需要算完整分布。

        === "English"

            Gives the same result as `self.log_prob(input).argmax(dim=1)` (barring ties), but is
            often cheaper: when the head's maximum is a shortlist class `c`, `c` is the most
            probable class overall, because a cluster's probability is shared among its classes,
            so none of them exceeds the head's probability of that cluster's column. Only the
            rows whose head maximum is a cluster column need the full distribution.

        Args:
            input: `(N, in_features)`. / 形状 `(N, in_features)`。

        Returns:
            `(N,)` class indices. / 形状 `(N,)` 的类别下标。
        """
        head_output = self.head(input)
        output = torch.argmax(head_output, dim=1)
        # 中: 三种情况：没有行选中簇列时直接返回头部的结果；所有行都选中簇列时对整批算完整分布；
        # 中: 否则只对选中簇列的那些行算完整分布，再就地写回这些行的结果。
        # EN: Three cases: no row picked a cluster column, so the head's answer stands; every
        # EN: row did, so the full distribution is computed for the whole batch; otherwise it is
        # EN: computed only for the rows that did, whose answers are then written back in place.
        not_in_shortlist = output >= self.shortlist_size
        all_in_shortlist = not (not_in_shortlist.any())
        if all_in_shortlist:
            return output
        elif not_in_shortlist.all():
            log_prob = self._get_full_log_prob(input, head_output)
            return torch.argmax(log_prob, dim=1)
        else:
            log_prob = self._get_full_log_prob(
                input[not_in_shortlist], head_output[not_in_shortlist]
            )
            output[not_in_shortlist] = torch.argmax(log_prob, dim=1)
            return output
