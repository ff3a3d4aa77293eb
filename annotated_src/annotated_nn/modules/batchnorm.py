r"""Batch normalization: layers whose state changes during the forward pass. / 批归一化：前向传播会改变自身状态的层。

=== "中文"

    本文件对应 `torch.nn.modules.batchnorm`。类层次与 torch 相同：

    - `_NormBase`：保存超参数、可学习的 `weight`/`bias` 和三个缓冲区（buffer）
      `running_mean`、`running_var`、`num_batches_tracked`，负责重置和旧版状态字典（state_dict）的兼容；
    - `_BatchNorm`：实现 `forward`，决定用批统计量还是滑动统计量，以及是否更新缓冲区；
    - `BatchNorm1d/2d/3d`：只重写 `_check_input_dim`，规定输入维数；
    - `_LazyNormBase` 与 `LazyBatchNorm1d/2d/3d`：惰性模块（lazy module），第一次前向传播时
      才根据输入的通道数创建参数和缓冲区，然后把自己的类换成对应的 `BatchNorm*d`；
    - `SyncBatchNorm`：接受任意 2 维及以上的输入；训练时若已初始化进程组（process group），
      输入必须在 GPU 等加速器上，组内进程多于 1 个时在它们之间同步批统计量；
      其余情况与普通 BatchNorm 的计算相同。

    BatchNorm 是读者最常碰到的“训练/评估两种模式行为不同”的层：训练时用当前批的均值方差并
    更新滑动统计量，评估时改用滑动统计量。`SyncBatchNorm` 的模块部分（状态、何时同步、
    把模型里的 BatchNorm 换成它）在这里重写；跨进程汇总统计量的自动求导函数是数值内核，
    直接用 torch 的 `torch.nn.modules._functions.SyncBatchNorm`。

=== "English"

    This file mirrors `torch.nn.modules.batchnorm`, with the same class hierarchy:

    - `_NormBase` holds the hyper-parameters, the learnable `weight`/`bias` and the three
      buffers `running_mean`, `running_var`, `num_batches_tracked`; it resets them and keeps
      old state_dicts loadable;
    - `_BatchNorm` implements `forward`: it chooses between batch and running statistics
      and decides whether the buffers get updated;
    - `BatchNorm1d/2d/3d` only override `_check_input_dim` to fix the input rank;
    - `_LazyNormBase` and `LazyBatchNorm1d/2d/3d` are lazy modules: the first forward pass
      creates parameters and buffers from the input's channel count, after which the module
      turns into the matching `BatchNorm*d` class;
    - `SyncBatchNorm` accepts any input of 2 or more dimensions; in training, once a process
      group is initialized, the input must be on an accelerator such as a GPU, and with more
      than 1 process in the group the batch statistics are synchronized across them; in all
      other cases it computes what a plain BatchNorm computes.

    BatchNorm is the layer where readers most often meet "training and evaluation behave
    differently": training uses the current batch's mean and variance and updates the
    running statistics, evaluation uses the running statistics. The module side of
    `SyncBatchNorm` (its state, when to synchronize, swapping it into a model) is re-written
    here; the autograd function that gathers statistics across processes is a numerical
    kernel, so torch's own `torch.nn.modules._functions.SyncBatchNorm` is used.
"""

from typing import Any

import torch
from torch import Tensor
from torch.nn.modules._functions import SyncBatchNorm as sync_batch_norm

from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

__all__ = [
    "BatchNorm1d",
    "LazyBatchNorm1d",
    "BatchNorm2d",
    "LazyBatchNorm2d",
    "BatchNorm3d",
    "LazyBatchNorm3d",
    "SyncBatchNorm",
]


class _NormBase(Module):
    r"""Common state of BatchNorm-style layers: affine parameters and running statistics. / BatchNorm 类层的公共状态：仿射参数与滑动统计量。

    === "中文"

        这是“带滑动统计量的归一化层”家族的基类（BatchNorm 以及 torch 中的 InstanceNorm 都继承它）。
        它只管状态，不管计算：

        - 参数（parameter）`weight`、`bias`：按通道各一个，初始化为 1 和 0；`affine=False` 时登记为 `None`。
        - 缓冲区（buffer）`running_mean`（初值 0）、`running_var`（初值 1）、
          `num_batches_tracked`（`long` 型标量，初值 0）：它们会进入状态字典、随 `to()` 迁移，
          但优化器不会更新它们——更新发生在前向传播里。`track_running_stats=False` 时三者都登记为 `None`。
        - `_version = 2`：版本 2 新增了 `num_batches_tracked`。版本号会写进状态字典的元数据，
          加载旧版（或无版本）的状态字典时，
          [`_load_from_state_dict`][annotated_nn.modules.batchnorm._NormBase._load_from_state_dict]
          会补上缺失的 `num_batches_tracked`，于是旧检查点在 `strict=True` 下依然能加载。

        注意 `weight` 和 `bias` 故意没有写成类注解（torch 的 issue #39670）。

    === "English"

        The base of the "normalization with running statistics" family (BatchNorm here, and
        InstanceNorm in torch). It owns state, not computation:

        - parameters `weight` and `bias`: one per channel, initialized to 1 and 0; registered
          as `None` when `affine=False`.
        - buffers `running_mean` (starts at 0), `running_var` (starts at 1) and
          `num_batches_tracked` (a `long` scalar, starts at 0): they enter the state_dict and
          move with `to()`, but no optimizer touches them — the forward pass updates them.
          With `track_running_stats=False` all three are registered as `None`.
        - `_version = 2`: version 2 added `num_batches_tracked`. The version is written into
          the state_dict metadata; when an old (or unversioned) state_dict is loaded,
          [`_load_from_state_dict`][annotated_nn.modules.batchnorm._NormBase._load_from_state_dict]
          fills in the missing `num_batches_tracked`, so old checkpoints still load with
          `strict=True`.

        `weight` and `bias` are deliberately not class annotations (torch issue #39670).
    """

    _version = 2
    __constants__ = ["track_running_stats", "momentum", "eps", "num_features", "affine"]
    num_features: int
    eps: float
    momentum: float | None
    affine: bool
    track_running_stats: bool

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        r"""Register parameters and buffers, then reset them. / 登记参数与缓冲区，然后重置。

        === "中文"

            登记顺序决定了 `state_dict` 的键顺序：`weight`、`bias`、`running_mean`、
            `running_var`、`num_batches_tracked`。`num_batches_tracked` 永远是 `long`，
            即使传入了 `dtype=torch.float64` 也不例外（只取 `device`）。
            1.5.1 → 2.13：新增 `device`/`dtype` 工厂参数和仅限关键字的 `bias`。

        === "English"

            Registration order fixes the `state_dict` key order: `weight`, `bias`,
            `running_mean`, `running_var`, `num_batches_tracked`. `num_batches_tracked` is
            always `long`, even with `dtype=torch.float64` (only `device` is passed on).
            1.5.1 → 2.13: the `device`/`dtype` factory kwargs and keyword-only `bias` were added.

        Args:
            num_features: Number of channels `C`. / 通道数 `C`。
            eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
            momentum: Weight of the new batch in the running average; `None` means a cumulative average. / 新批次在滑动平均中的权重；`None` 表示累计平均。
            affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
            track_running_stats: Whether to keep the three buffers. / 是否维护三个缓冲区。
            device: Device of the new tensors. / 新张量所在设备。
            dtype: Dtype of the floating-point tensors. / 浮点张量的数据类型。
            bias: Whether to learn `bias` (only with affine). / 是否学习 `bias`（仅在仿射时有效）。
        """
        # 中: `Module.__init__` 必须先运行：它创建 `_parameters`/`_buffers`，
        # 中: 在此之前给属性赋 `Parameter` 会抛出 AttributeError。
        # 中: 五个超参数是普通属性，子类的 `forward` 每次都读取它们。
        # EN: `Module.__init__` must run first: it creates `_parameters`/`_buffers`, and assigning a
        # EN: `Parameter` before that raises AttributeError. The five hyper-parameters are plain
        # EN: attributes that subclasses' `forward` reads on every call.
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        # 中: 仿射参数先用 `torch.empty` 占位（值由末尾的 `reset_parameters`
        # 中: 填成 1 和 0）。关掉的参数登记为 `None`：属性照样能访问，
        # 中: `F.batch_norm` 收到 `None` 就跳过那一步，状态字典里也没有这个键。
        # 中: `bias=False` 只去掉 `bias`，`weight` 仍在。
        # EN: The affine parameters start as `torch.empty` (the final `reset_parameters` fills in 1
        # EN: and 0). A disabled one is registered as `None`: the attribute still exists,
        # EN: `F.batch_norm` skips that step when given `None`, and the state_dict has no such key.
        # EN: `bias=False` drops only `bias`; `weight` stays.
        if self.affine:
            self.weight = Parameter(torch.empty(num_features, **factory_kwargs))
            if bias:
                self.bias = Parameter(torch.empty(num_features, **factory_kwargs))
            else:
                self.register_parameter("bias", None)
        else:
            # 中: `affine=False` 时两者都是 None，`bias` 参数此时不起作用。
            # EN: With `affine=False` both are None; the `bias` argument has no effect then.
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        # 中: 滑动统计量从均值 0、方差 1 开始，
        # 中: 所以还没训练过的层在评估模式下只做 `x / sqrt(1 + eps)`。
        # 中: 它们是缓冲区而不是参数：随 `to()` 迁移、
        # 中: 写入状态字典，但只由前向传播更新，优化器碰不到。
        # EN: Running statistics start at mean 0 and variance 1, so an untrained layer in evaluation
        # EN: mode computes just `x / sqrt(1 + eps)`. They are buffers, not parameters: they move
        # EN: with `to()` and enter the state_dict, but only the forward pass updates them, never
        # EN: an optimizer.
        if self.track_running_stats:
            self.register_buffer("running_mean", torch.zeros(num_features, **factory_kwargs))
            self.register_buffer("running_var", torch.ones(num_features, **factory_kwargs))
            # 中: `num_batches_tracked` 数训练模式下跟踪过的批次；
            # 中: `momentum=None` 时它给出累计平均的系数 `1/n`
            # 中: （见 `_BatchNorm.forward`）。计数器是整数，
            # 中: 不能随 dtype 变成浮点，所以只把 device 传下去。
            # EN: `num_batches_tracked` counts the batches tracked in training mode; with
            # EN: `momentum=None` it gives the cumulative-average factor `1/n` (see
            # EN: `_BatchNorm.forward`). The counter is an integer and must not follow `dtype`, so
            # EN: only `device` is passed.
            self.register_buffer(
                "num_batches_tracked",
                torch.tensor(0, dtype=torch.long, device=factory_kwargs["device"]),
            )
        else:
            # 中: 三个缓冲区登记为 `None` 而不是不登记：
            # 中: `_BatchNorm.forward` 正是靠
            # 中: `running_mean is None` 来决定评估模式下也用批统计量。
            # EN: The three buffers are registered as `None` rather than left out:
            # EN: `_BatchNorm.forward` relies on `running_mean is None` to use batch statistics
            # EN: in evaluation mode too.
            self.register_buffer("running_mean", None)
            self.register_buffer("running_var", None)
            self.register_buffer("num_batches_tracked", None)
        # 中: 通过 `self` 调用，所以 `_LazyNormBase` 重写的版本会在这里被调用（并跳过）。
        # EN: Called through `self`, so `_LazyNormBase`'s override runs (and skips) here.
        self.reset_parameters()

    def reset_running_stats(self) -> None:
        r"""Reset the running statistics in place. / 就地重置滑动统计量。

        === "中文"

            均值归 0、方差归 1、计数器归 0。就地修改，所以外部持有的缓冲区引用
            （例如优化器之外的统计工具）仍然有效。不跟踪统计量时什么也不做。

        === "English"

            Mean back to 0, variance to 1, counter to 0. The update is in place, so outside
            references to the buffers stay valid. Does nothing when statistics are not tracked.
        """
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        r"""Reset running statistics, then `weight` to 1 and `bias` to 0. / 先重置滑动统计量，再把 `weight` 置 1、`bias` 置 0。

        === "中文"

            确定性初始化，不消耗随机数。

        === "English"

            Deterministic; draws no random numbers.
        """
        self.reset_running_stats()
        if self.affine:
            init.ones_(self.weight)
            if self.bias is not None:
                init.zeros_(self.bias)

    def _check_input_dim(self, input):
        r"""Validate the input rank; each subclass decides. / 检查输入维数，由子类决定。

        === "中文"

            基类不知道期望几维，所以直接抛出 `NotImplementedError`。

        === "English"

            The base does not know the expected rank, so it raises `NotImplementedError`.

        Args:
            input: The forward input. / 前向传播的输入。

        Raises:
            NotImplementedError: Always, in the base class. / 在基类中总是抛出。
        """
        raise NotImplementedError

    def extra_repr(self):
        r"""Describe the hyper-parameters for `repr`. / 为 `repr` 描述超参数。

        === "中文"

            例如 `3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True`；
            `bias=` 表示 `bias` 参数是否存在。

        === "English"

            E.g. `3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True`;
            `bias=` tells whether a bias parameter exists.

        Returns:
            The text inside the parentheses. / 括号内的文字。
        """
        return (
            "{num_features}, eps={eps}, momentum={momentum}, affine={affine}, "
            "bias={use_bias}, track_running_stats={track_running_stats}".format(
                **self.__dict__, use_bias=self.bias is not None
            )
        )

    def _load_from_state_dict(
        self,
        state_dict,
        prefix,
        local_metadata,
        strict,
        missing_keys,
        unexpected_keys,
        error_msgs,
    ) -> None:
        r"""Fill in `num_batches_tracked` for pre-version-2 state dicts, then load. / 为版本 2 之前的状态字典补上 `num_batches_tracked`，再加载。

        === "中文"

            元数据里的 `version` 缺失或小于 2，说明检查点来自没有计数器的旧版本
            （没有 `_metadata` 的普通 `dict` 也按此处理）。
            此时若状态字典里没有 `prefix + "num_batches_tracked"`，就补一个：优先用模块
            自己当前的计数器；若它是 `None` 或在 `meta` 设备上（没有真实数据），改用
            新建的 `tensor(0)`。键写进传入的 `state_dict`；`load_state_dict` 传入的是它自己
            复制的一份，所以用户的字典不会被改动。
            之后交给 [`Module._load_from_state_dict`][annotated_nn.modules.module.Module._load_from_state_dict]
            完成通常的复制与缺失/多余键检查。

        === "English"

            A missing `version` in the metadata, or one below 2, means the checkpoint predates
            the counter (a plain `dict` without `_metadata` counts as such too). If
            `prefix + "num_batches_tracked"` is then absent, one is added: the
            module's own counter, or a fresh `tensor(0)` when that is `None` or lives on the
            `meta` device (no real data). The key is written into the `state_dict` passed in;
            `load_state_dict` passes its own copy, so the user's dict is left untouched. Then
            [`Module._load_from_state_dict`][annotated_nn.modules.module.Module._load_from_state_dict]
            does the usual copying and missing/unexpected key checks.

        Args:
            state_dict: The full flat state dict being loaded. / 正在加载的完整扁平状态字典。
            prefix: This module's key prefix, e.g. `"bn."`. / 本模块的键前缀，如 `"bn."`。
            local_metadata: This module's metadata (may hold `version`). / 本模块的元数据（可能含 `version`）。
            strict: Whether key mismatches are errors. / 键不匹配是否算错误。
            missing_keys: List collecting missing keys. / 收集缺失键的列表。
            unexpected_keys: List collecting unexpected keys. / 收集多余键的列表。
            error_msgs: List collecting error messages. / 收集错误信息的列表。
        """
        # 中: `local_metadata` 是状态字典 `_metadata` 中本模块的那一项，保存时写入的是类属性
        # 中: `_version`。普通 `dict` 没有 `_metadata`，这里拿到 `{}`，于是 `version` 为 None，
        # 中: 按最旧的版本处理。
        # EN: `local_metadata` is this module's entry in the state_dict's `_metadata`, where saving
        # EN: wrote the class attribute `_version`. A plain `dict` has no `_metadata`, so this is
        # EN: `{}`, `version` is None, and the checkpoint is treated as the oldest kind.
        version = local_metadata.get("version", None)

        # 中: 版本 2 才有计数器。只在本模块跟踪统计量时补键（否则计数器槽位是 None，补了反而成了
        # 中: 多余键）。
        # EN: The counter arrived in version 2. The key is filled in only when this module tracks
        # EN: statistics (otherwise its counter slot is None and the key would be unexpected).
        if (version is None or version < 2) and self.track_running_stats:
            num_batches_tracked_key = prefix + "num_batches_tracked"
            # 中: 补的值就是模块当前的计数器，于是加载旧检查点不会改变计数；
            # 中: `meta` 设备上的计数器没有数据，改用真实的 `tensor(0)`。补上之后，
            # 中: `strict=True` 也不会报缺失键。
            # EN: The value is the module's current counter, so loading an old checkpoint leaves
            # EN: the count as it was; a counter on the `meta` device has no data, so a real
            # EN: `tensor(0)` is used. Once filled in, even `strict=True` reports no missing key.
            if num_batches_tracked_key not in state_dict:
                state_dict[num_batches_tracked_key] = (
                    self.num_batches_tracked
                    if self.num_batches_tracked is not None
                    and self.num_batches_tracked.device != torch.device("meta")
                    else torch.tensor(0, dtype=torch.long)
                )

        # 中: 其余的复制、形状检查和缺失/多余键的记录都交给 `Module` 的通用实现。
        # EN: Copying, shape checks and missing/unexpected key bookkeeping are left to `Module`.
        super()._load_from_state_dict(
            state_dict,
            prefix,
            local_metadata,
            # 中: 这里只把键收集进两个列表；它们是否变成错误，
            # 中: 由 `load_state_dict` 按 `strict` 决定。
            # EN: Keys are only collected into the two lists here; `load_state_dict` decides by
            # EN: `strict` whether they become errors.
            strict,
            missing_keys,
            unexpected_keys,
            error_msgs,
        )


class _BatchNorm(_NormBase):
    r"""The batch-normalization forward pass shared by `BatchNorm1d/2d/3d`. / `BatchNorm1d/2d/3d` 共用的批归一化前向传播。

    === "中文"

        `forward` 回答两个问题：

        1. 归一化用哪组统计量？训练模式用当前批的统计量；评估模式用滑动统计量，
           除非根本没有滑动统计量（`track_running_stats=False`），那就仍用批统计量。
        2. 更新不更新缓冲区？只有“训练模式且跟踪统计量”时才把缓冲区交给 `F.batch_norm`
           让它就地更新；训练模式但不跟踪时传 `None`，保证不会被更新。

        `momentum=None` 时用累计平均：第 n 批的权重是 `1/n`，n 就是 `num_batches_tracked`。

    === "English"

        `forward` answers two questions:

        1. Which statistics normalize? Training mode uses the current batch's; evaluation
           mode uses the running ones — unless there are none
           (`track_running_stats=False`), in which case batch statistics are used again.
        2. Are the buffers updated? Only in training mode with tracking on are the buffers
           handed to `F.batch_norm`, which updates them in place; in training without
           tracking `None` is passed so that nothing can change.

        With `momentum=None` the running statistics are a cumulative average: batch n gets
        weight `1/n`, where n is `num_batches_tracked`.
    """

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        r"""Forward every argument to `_NormBase`. / 把所有参数转交给 `_NormBase`。

        === "中文"

            不新增任何状态，只固定签名。

        === "English"

            Adds no state; it only pins down the signature.

        Args:
            num_features: Number of channels `C`. / 通道数 `C`。
            eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
            momentum: Running-average factor, or `None` for a cumulative average. / 滑动平均系数；`None` 表示累计平均。
            affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
            track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
            device: Device of the new tensors. / 新张量所在设备。
            dtype: Dtype of the floating-point tensors. / 浮点张量的数据类型。
            bias: Whether to learn `bias`. / 是否学习 `bias`。
        """
        # 中: `device`/`dtype` 打包成工厂参数，
        # 中: `_NormBase` 把它们交给每个新建的浮点张量。
        # EN: `device`/`dtype` travel as factory kwargs; `_NormBase` hands them to every new
        # EN: floating-point tensor.
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: 全部状态由 `_NormBase` 创建；
        # 中: 这个重写只是把签名写明（torch 也有同样的一层）。
        # EN: All state is created by `_NormBase`; this override only spells out the signature
        # EN: (torch has the same layer).
        super().__init__(
            num_features,
            eps,
            momentum,
            affine,
            track_running_stats,
            **factory_kwargs,
            # 中: `bias` 在整个家族里都只能按关键字传，与 torch 的签名相同。
            # EN: `bias` is keyword-only throughout the family, matching torch's signature.
            bias=bias,
        )

    def forward(self, input: Tensor) -> Tensor:
        r"""Normalize with batch or running statistics, updating buffers in training. / 用批统计量或滑动统计量归一化，训练时更新缓冲区。

        === "中文"

            步骤：检查维数 → 训练且跟踪时计数器加 1 并算出本次的平均系数 →
            决定 `bn_training` → 调用 `F.batch_norm`。真正的均值方差计算和缓冲区就地更新都在
            `F.batch_norm` 里完成。

        === "English"

            Steps: check the rank → in training with tracking, bump the counter and work out
            this step's averaging factor → decide `bn_training` → call `F.batch_norm`. The
            actual mean/variance computation and the in-place buffer update happen inside
            `F.batch_norm`.

        Args:
            input: Tensor of shape `(N, C, *)`. / 形状为 `(N, C, *)` 的张量。

        Returns:
            Tensor of the same shape. / 同形状的张量。

        Raises:
            ValueError: Wrong input rank (from `_check_input_dim`). / 输入维数不对（来自 `_check_input_dim`）。
        """
        # 中: 维数由子类检查（`BatchNorm1d` 接受 2/3 维，
        # 中: `2d` 接受 4 维……），在碰任何缓冲区之前。
        # EN: The rank is checked by the subclass (2D/3D for `BatchNorm1d`, 4D for `2d`, ...),
        # EN: before any buffer is touched.
        self._check_input_dim(input)

        # 中: 默认系数就是 momentum；
        # 中: momentum 为 None 时先占位为 0.0，下面再按计数器改写。
        # 中: 评估模式或不跟踪时缓冲区不会被更新，这个系数也就用不上。
        # EN: The factor defaults to momentum; a None momentum starts as 0.0 and is set from the
        # EN: counter below. In evaluation mode or without tracking no buffer is updated, so the
        # EN: factor goes unused.
        if self.momentum is None:
            exponential_average_factor = 0.0
        else:
            exponential_average_factor = self.momentum

        # 中: 每次训练模式的前向传播都给计数器加 1，不论 momentum 取何值；
        # 中: 看的是 `track_running_stats` 这个开关，
        # 中: 而不是缓冲区是否存在。计数在 `F.batch_norm` 之前，
        # 中: 所以即使随后报错（例如训练时每个通道只有 1 个值），计数器也已经加过了。
        # EN: Every training-mode forward pass adds 1 to the counter, whatever the momentum; the
        # EN: test is the `track_running_stats` switch, not whether the buffers exist. The count
        # EN: comes before `F.batch_norm`, so it is bumped even if that call then fails (e.g. only
        # EN: one value per channel in training).
        if self.training and self.track_running_stats:
            if self.num_batches_tracked is not None:
                self.num_batches_tracked.add_(1)
                # 中: momentum=None 是累计平均：
                # 中: 第 n 批的系数是 1/n，结果等于所有批统计量的算术平均，
                # 中: 每批等权；否则是指数滑动平均，新批权重为 momentum。
                # EN: momentum=None is a cumulative average: batch n gets factor 1/n, so the result
                # EN: is the plain mean of all batch statistics, each batch weighted equally;
                # EN: otherwise it is an exponential moving average giving the new batch `momentum`.
                if self.momentum is None:
                    exponential_average_factor = 1.0 / float(self.num_batches_tracked)
                else:
                    exponential_average_factor = self.momentum

        # 中: `bn_training` 决定用哪组统计量归一化：训练模式总用批统计量；
        # 中: 评估模式只有在两个滑动缓冲区都是 None 时才用批统计量。
        # 中: 判断依据是缓冲区本身而不是开关：构造后再把 `track_running_stats`
        # 中: 改成 False，评估时仍会用已有的滑动统计量。
        # EN: `bn_training` picks the statistics that normalize: training always uses batch
        # EN: statistics; evaluation does so only when both running buffers are None. The test is
        # EN: the buffers, not the switch: setting `track_running_stats=False` after construction
        # EN: still leaves evaluation on the existing running statistics.
        if self.training:
            bn_training = True
        else:
            bn_training = (self.running_mean is None) and (self.running_var is None)

        # 中: 缓冲区只在两种情况下交给 `F.batch_norm`：
        # 中: 训练且跟踪（它就地更新滑动统计量，方差用无偏估计）
        # 中: 或评估（只读）。训练但不跟踪时传 None，保证什么都不会被更新。
        # EN: The buffers reach `F.batch_norm` only in two cases: training with tracking (it updates
        # EN: the running statistics in place, using the unbiased variance) or evaluation
        # EN: (read-only). Training without tracking passes None, so nothing can be updated.
        return F.batch_norm(
            input,
            self.running_mean if not self.training or self.track_running_stats else None,
            self.running_var if not self.training or self.track_running_stats else None,
            # 中: `weight`/`bias` 为 None（`affine=False` 或 `bias=False`）时跳过相应的仿射步骤。
            # EN: A None `weight`/`bias` (`affine=False` or `bias=False`) skips that affine step.
            self.weight,
            self.bias,
            bn_training,
            exponential_average_factor,
            self.eps,
        )


class _LazyNormBase(LazyModuleMixin, _NormBase):
    r"""Lazy variant: `num_features` is read from the first input. / 惰性版本：`num_features` 从第一次输入中读取。

    === "中文"

        构造时还不知道通道数，于是先用 `num_features=0`、`affine=False`、
        `track_running_stats=False` 调用 `_NormBase.__init__`（避免创建马上就要被替换的张量），
        再按真实的开关放上 `UninitializedParameter` / `UninitializedBuffer` 占位。
        第一次前向传播前，[`LazyModuleMixin`][annotated_nn.modules.lazy.LazyModuleMixin]
        的前向预钩子（hook）调用
        [`initialize_parameters`][annotated_nn.modules.batchnorm._LazyNormBase.initialize_parameters]，
        它用 `input.shape[1]` 物化这些占位并重置，随后模块的类变成 `cls_to_become`。

    === "English"

        The channel count is unknown at construction, so `_NormBase.__init__` runs with
        `num_features=0`, `affine=False` and `track_running_stats=False` (to avoid creating
        tensors that would be replaced at once), and then `UninitializedParameter` /
        `UninitializedBuffer` placeholders are put in according to the real switches.
        Before the first forward pass, the forward pre-hook of
        [`LazyModuleMixin`][annotated_nn.modules.lazy.LazyModuleMixin] calls
        [`initialize_parameters`][annotated_nn.modules.batchnorm._LazyNormBase.initialize_parameters],
        which materializes them from `input.shape[1]` and resets them; the module's class
        then becomes `cls_to_become`.
    """

    weight: UninitializedParameter
    bias: UninitializedParameter

    def __init__(
        self,
        eps=1e-5,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        device=None,
        dtype=None,
        *,
        bias=True,
    ) -> None:
        r"""Build an empty `_NormBase`, then install uninitialized placeholders. / 先构造空的 `_NormBase`，再放上未初始化的占位。

        === "中文"

            `num_batches_tracked` 不需要形状信息，所以直接创建为真正的 `long` 标量；
            它在父类里已被登记为 `None` 缓冲区，这里的赋值会经过 `__setattr__` 填入该槽位。

        === "English"

            `num_batches_tracked` needs no shape, so it is created as a real `long` scalar
            at once; the parent registered a `None` buffer under that name, so this
            assignment goes through `__setattr__` into that slot.

        Args:
            eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
            momentum: Running-average factor, or `None` for a cumulative average. / 滑动平均系数；`None` 表示累计平均。
            affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
            track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
            device: Device of the future tensors. / 将来张量所在设备。
            dtype: Dtype of the future floating-point tensors. / 将来浮点张量的数据类型。
            bias: Whether to learn `bias`. / 是否学习 `bias`。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        # 中: affine、bias、track_running_stats 先一律传 False，`num_features` 传 0，免得创建马上
        # 中: 要被替换的张量。父类因此把五个名字都登记为 None，并在结尾调用（会被跳过的）
        # 中: `reset_parameters`。
        # EN: affine, bias and track_running_stats are passed as False and `num_features` as 0, so
        # EN: no soon-replaced tensors are made. The parent thus registers all five names as None
        # EN: and ends with a call to `reset_parameters`, which is skipped.
        super().__init__(
            # 中: 按位置依次是 num_features=0、eps、momentum、
            # 中: affine=False、track_running_stats=False。
            # EN: Positionally: num_features=0, eps, momentum, affine=False,
            # EN: track_running_stats=False.
            0,
            eps,
            momentum,
            False,
            False,
            **factory_kwargs,
            bias=False,
        )
        # 中: 恢复真实的开关，再往父类留下的 None 槽位里放占位：
        # 中: `UninitializedParameter` 经 `__setattr__` 进入 `_parameters`，
        # 中: `UninitializedBuffer` 进入 `_buffers`。两者都记住 `device`/`dtype`，物化时使用。
        # 中: `bias=False` 时 `bias` 保持 None。
        # EN: Restore the real switches, then put placeholders into the None slots the parent left:
        # EN: an `UninitializedParameter` goes through `__setattr__` into `_parameters`, an
        # EN: `UninitializedBuffer` into `_buffers`. Both remember `device`/`dtype` for
        # EN: materialization. With `bias=False`, `bias` stays None.
        self.affine = affine
        self.track_running_stats = track_running_stats
        if self.affine:
            self.weight = UninitializedParameter(**factory_kwargs)
            if bias:
                self.bias = UninitializedParameter(**factory_kwargs)
        # 中: 两个滑动统计量也先放占位；计数器的形状不依赖通道数，
        # 中: 所以马上创建为真正的 `long` 标量
        # 中: （同样不随 dtype）。
        # EN: The two running statistics get placeholders too; the counter's shape does not depend
        # EN: on the channel count, so it is created at once as a real `long` scalar (again not
        # EN: following dtype).
        if self.track_running_stats:
            self.running_mean = UninitializedBuffer(**factory_kwargs)
            self.running_var = UninitializedBuffer(**factory_kwargs)
            self.num_batches_tracked = torch.tensor(
                0, dtype=torch.long, device=factory_kwargs["device"]
            )

    def reset_parameters(self) -> None:
        r"""Reset only once the placeholders are materialized. / 只有占位物化之后才重置。

        === "中文"

            `_NormBase.__init__` 结尾会调用本方法：那时 `num_features == 0`，五个名字都还是
            `None`（占位要等父类返回后才放上），所以必须跳过。物化之前的调用也会跳过，因为占位
            没有数据可填。真正的重置发生在物化之后。

        === "English"

            `_NormBase.__init__` calls this at its end, when `num_features == 0` and all five
            names are still `None` (the placeholders are put in only after the parent returns),
            so it must be skipped. A call before materialization is skipped too, since
            placeholders hold no data to fill. The real reset happens after materialization.
        """
        # 中: 两个条件各自都能挡住：还有占位，
        # 中: 或者通道数仍是构造时的 0。
        # EN: Either condition blocks the reset: a placeholder remains, or the channel count is
        # EN: still the 0 from construction.
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:
        r"""Materialize parameters and buffers from `input.shape[1]`. / 按 `input.shape[1]` 物化参数与缓冲区。

        === "中文"

            由惰性模块的前向预钩子在第一次调用时触发。先记录 `num_features`，
            再把每个占位物化成形状 `(num_features,)` 的张量，最后重置为 1/0 等初值。

        === "English"

            Triggered by the lazy module's forward pre-hook on the first call. It records
            `num_features`, materializes each placeholder with shape `(num_features,)` and
            finally resets them to their 1/0 starting values.

        Args:
            input: The first forward input, shape `(N, C, *)`. / 第一次前向输入，形状 `(N, C, *)`。

        Raises:
            AssertionError: `weight`/`bias` was replaced by something already initialized. / `weight`/`bias` 已被替换成已初始化的对象。
        """
        # 中: 只有还剩占位时才做事。注意 `affine=False`
        # 中: 且 `track_running_stats=False` 时根本没有占位，
        # 中: `num_features` 就一直是 0（与 torch 相同：`repr` 显示 0，
        # 中: `LazyInstanceNorm*` 每次调用都会警告通道数不匹配）。通道数总取 `input.shape[1]`，
        # 中: 所以无批次输入 `(C, L)` 会把 L 当成通道数（torch 同样如此）。
        # EN: Work happens only while placeholders remain. With `affine=False` and
        # EN: `track_running_stats=False` there are none, so `num_features` stays 0 (as in torch:
        # EN: the repr shows 0, and `LazyInstanceNorm*` warns of a channel mismatch on every call).
        # EN: The channel count is always `input.shape[1]`, so an unbatched `(C, L)` input makes L
        # EN: the channel count (torch does the same).
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            # 中: 物化前先确认仍是占位：用户若已换上真正的参数，
            # 中: `materialize` 无从谈起，报错。
            # EN: Before materializing, confirm each is still a placeholder: if the user swapped
            # EN: in a real parameter there is nothing to materialize, so it is an error.
            if self.affine:
                if not isinstance(self.weight, UninitializedParameter):
                    raise AssertionError("self.weight must be an UninitializedParameter")
                self.weight.materialize((self.num_features,))
                if self.bias is not None:
                    if not isinstance(self.bias, UninitializedParameter):
                        raise AssertionError("self.bias must be an UninitializedParameter")
                    self.bias.materialize((self.num_features,))
            # 中: 物化只分配未初始化的内存；紧接着的
            # 中: `reset_parameters` 此时不再被跳过，
            # 中: 把它们填成 1/0 与均值 0、方差 1，并把计数器清零。
            # EN: Materializing only allocates uninitialized memory; the `reset_parameters` right
            # EN: after is no longer skipped and fills in 1/0, mean 0, variance 1 and a zero
            # EN: counter.
            if self.track_running_stats:
                self.running_mean.materialize((self.num_features,))
                self.running_var.materialize((self.num_features,))
            self.reset_parameters()


class BatchNorm1d(_BatchNorm):
    r"""Batch normalization over 2D `(N, C)` or 3D `(N, C, L)` input. / 对二维 `(N, C)` 或三维 `(N, C, L)` 输入做批归一化。

    === "中文"

        每个通道在批维（以及长度维）上求统计量。全部行为来自
        [`_BatchNorm`][annotated_nn.modules.batchnorm._BatchNorm]，这里只规定输入维数。

    === "English"

        Each channel is normalized with statistics over the batch (and length) dimensions.
        All behavior comes from [`_BatchNorm`][annotated_nn.modules.batchnorm._BatchNorm];
        this class only fixes the input rank.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> bn = nn.BatchNorm1d(3)
        >>> bn
        BatchNorm1d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
        >>> _ = bn(torch.randn(4, 3))
        >>> bn.num_batches_tracked
        tensor(1)
    """

    def _check_input_dim(self, input) -> None:
        r"""Accept 2D or 3D input only. / 只接受二维或三维输入。

        === "中文"

            其他维数抛出 `ValueError`，信息与 torch 相同。

        === "English"

            Any other rank raises `ValueError` with torch's message.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 2 or 3. / 维数不是 2 或 3。
        """
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class LazyBatchNorm1d(_LazyNormBase, _BatchNorm):
    r"""`BatchNorm1d` whose `num_features` is inferred from the first input. / 从第一次输入推断 `num_features` 的 `BatchNorm1d`。

    === "中文"

        第一次前向传播后，模块的类变成 [`BatchNorm1d`][annotated_nn.modules.batchnorm.BatchNorm1d]。

    === "English"

        After the first forward pass the module's class becomes
        [`BatchNorm1d`][annotated_nn.modules.batchnorm.BatchNorm1d].
    """

    cls_to_become = BatchNorm1d

    def _check_input_dim(self, input) -> None:
        r"""Accept 2D or 3D input only. / 只接受二维或三维输入。

        === "中文"

            与 `BatchNorm1d` 相同的检查。

        === "English"

            The same check as `BatchNorm1d`.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 2 or 3. / 维数不是 2 或 3。
        """
        if input.dim() != 2 and input.dim() != 3:
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class BatchNorm2d(_BatchNorm):
    r"""Batch normalization over 4D `(N, C, H, W)` input. / 对四维 `(N, C, H, W)` 输入做批归一化。

    === "中文"

        每个通道在 N、H、W 三个维度上求统计量，是卷积网络中最常见的归一化层。

    === "English"

        Each channel is normalized with statistics over N, H and W; the usual normalization
        layer of convolutional networks.

    Examples:
        >>> import annotated_nn as nn
        >>> list(nn.BatchNorm2d(2).state_dict())
        ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    """

    def _check_input_dim(self, input) -> None:
        r"""Accept 4D input only. / 只接受四维输入。

        === "中文"

            其他维数抛出 `ValueError`，信息与 torch 相同。

        === "English"

            Any other rank raises `ValueError` with torch's message.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 4. / 维数不是 4。
        """
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class LazyBatchNorm2d(_LazyNormBase, _BatchNorm):
    r"""`BatchNorm2d` whose `num_features` is inferred from the first input. / 从第一次输入推断 `num_features` 的 `BatchNorm2d`。

    === "中文"

        第一次前向传播后，模块的类变成 [`BatchNorm2d`][annotated_nn.modules.batchnorm.BatchNorm2d]。

    === "English"

        After the first forward pass the module's class becomes
        [`BatchNorm2d`][annotated_nn.modules.batchnorm.BatchNorm2d].
    """

    cls_to_become = BatchNorm2d

    def _check_input_dim(self, input) -> None:
        r"""Accept 4D input only. / 只接受四维输入。

        === "中文"

            与 `BatchNorm2d` 相同的检查。

        === "English"

            The same check as `BatchNorm2d`.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 4. / 维数不是 4。
        """
        if input.dim() != 4:
            raise ValueError(f"expected 4D input (got {input.dim()}D input)")


class BatchNorm3d(_BatchNorm):
    r"""Batch normalization over 5D `(N, C, D, H, W)` input. / 对五维 `(N, C, D, H, W)` 输入做批归一化。

    === "中文"

        用于三维卷积（视频、体数据）；统计量在 N、D、H、W 上计算。

    === "English"

        For 3D convolutions (video, volumes); statistics are taken over N, D, H and W.
    """

    def _check_input_dim(self, input) -> None:
        r"""Accept 5D input only. / 只接受五维输入。

        === "中文"

            其他维数抛出 `ValueError`，信息与 torch 相同。

        === "English"

            Any other rank raises `ValueError` with torch's message.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 5. / 维数不是 5。
        """
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class LazyBatchNorm3d(_LazyNormBase, _BatchNorm):
    r"""`BatchNorm3d` whose `num_features` is inferred from the first input. / 从第一次输入推断 `num_features` 的 `BatchNorm3d`。

    === "中文"

        第一次前向传播后，模块的类变成 [`BatchNorm3d`][annotated_nn.modules.batchnorm.BatchNorm3d]。

    === "English"

        After the first forward pass the module's class becomes
        [`BatchNorm3d`][annotated_nn.modules.batchnorm.BatchNorm3d].
    """

    cls_to_become = BatchNorm3d

    def _check_input_dim(self, input) -> None:
        r"""Accept 5D input only. / 只接受五维输入。

        === "中文"

            与 `BatchNorm3d` 相同的检查。

        === "English"

            The same check as `BatchNorm3d`.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 5. / 维数不是 5。
        """
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class SyncBatchNorm(_BatchNorm):
    r"""Batch normalization whose training statistics are shared by a process group. / 训练统计量在进程组内共享的批归一化。

    === "中文"

        数据并行训练时每个进程只看到全局批的一部分；每张卡的批很小时，各自求的均值方差噪声很大。
        `SyncBatchNorm` 在训练模式下把组内所有进程的批统计量汇总成一份，再用它归一化，
        效果如同在整个全局批上做 BatchNorm。状态（参数、缓冲区、`repr`、状态字典）与
        [`BatchNorm1d`][annotated_nn.modules.batchnorm.BatchNorm1d] 等完全相同，另外只多一个
        普通属性 `process_group`（`None` 表示全体进程 `WORLD`）。

        它不规定输入维数，只要求至少 2 维、通道数不为 0。
        [`forward`][annotated_nn.modules.batchnorm.SyncBatchNorm.forward] 先判断要不要同步：
        评估模式、没有初始化进程组、组里只有 1 个进程时都不同步，直接走普通 BatchNorm 的计算
        （但已初始化进程组时，训练模式下的 CPU 输入会先报错）。
        真正的同步交给 torch 的自动求导函数 `torch.nn.modules._functions.SyncBatchNorm`（数值内核，
        内部用 all_gather 汇总统计量，反向时用 all_reduce 汇总梯度项）。

        通常不直接构造它，而是用
        [`convert_sync_batchnorm`][annotated_nn.modules.batchnorm.SyncBatchNorm.convert_sync_batchnorm]
        把现成模型里的 BatchNorm 层换掉，再交给 `DistributedDataParallel`（每个进程一张卡）。

    === "English"

        In data-parallel training each process sees only a slice of the global batch; with a
        small per-device batch, each slice's mean and variance are noisy. In training mode
        `SyncBatchNorm` combines the batch statistics of every process in the group into one
        set and normalizes with it, as if BatchNorm ran on the whole global batch. Its state
        (parameters, buffers, `repr`, state_dict) is exactly that of
        [`BatchNorm1d`][annotated_nn.modules.batchnorm.BatchNorm1d] and friends, plus one plain
        attribute, `process_group` (`None` means all processes, `WORLD`).

        It fixes no input rank: at least 2 dimensions and a non-zero channel count are all it
        asks. [`forward`][annotated_nn.modules.batchnorm.SyncBatchNorm.forward] first decides
        whether to synchronize: in evaluation mode, without an initialized process group, or
        with a single process in the group it does not, and computes a plain BatchNorm (but
        with an initialized group, a CPU input in training mode raises first). The
        synchronization itself is torch's autograd function
        `torch.nn.modules._functions.SyncBatchNorm` (a numerical kernel: it gathers the
        statistics with all_gather, and sums the gradient terms with all_reduce in backward).

        It is usually not built by hand: use
        [`convert_sync_batchnorm`][annotated_nn.modules.batchnorm.SyncBatchNorm.convert_sync_batchnorm]
        to swap the BatchNorm layers of an existing model, then wrap it in
        `DistributedDataParallel` (one device per process).

    Examples:
        >>> import torch, annotated_nn as nn
        >>> bn = nn.SyncBatchNorm(3)
        >>> bn
        SyncBatchNorm(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
        >>> bn(torch.randn(2, 3, 4, 4, 4)).shape
        torch.Size([2, 3, 4, 4, 4])
    """

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        process_group: Any | None = None,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        r"""Build the usual BatchNorm state, then remember the process group. / 先建立通常的 BatchNorm 状态，再记下进程组。

        === "中文"

            `process_group` 是第 6 个位置参数，排在 `device`/`dtype` 之前（与 torch 相同，
            所以按位置传 `device` 的代码换成本类时要小心）。它只是普通属性：不进状态字典，
            也不出现在 `repr` 中。

        === "English"

            `process_group` is the 6th positional parameter, before `device`/`dtype` (as in
            torch, so code that passes `device` positionally needs care when switching to this
            class). It is a plain attribute: not in the state_dict, not in the `repr`.

        Args:
            num_features: Number of channels `C`. / 通道数 `C`。
            eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
            momentum: Running-average factor, or `None` for a cumulative average. / 滑动平均系数；`None` 表示累计平均。
            affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
            track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
            process_group: Group to synchronize within; `None` means `WORLD`. / 在其中同步的进程组；`None` 表示 `WORLD`。
            device: Device of the new tensors. / 新张量所在设备。
            dtype: Dtype of the floating-point tensors. / 浮点张量的数据类型。
            bias: Whether to learn `bias`. / 是否学习 `bias`。
        """
        # 中: 参数与缓冲区全部由 `_NormBase` 创建，登记顺序和初值与 `BatchNorm1d` 等完全一样，
        # 中: 因此状态字典可以在两者之间直接互相加载。
        # EN: `_NormBase` creates every parameter and buffer, in the same order and with the
        # EN: same starting values as `BatchNorm1d` and friends, so state_dicts load across them.
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(
            num_features,
            eps,
            momentum,
            affine,
            track_running_stats,
            **factory_kwargs,
            bias=bias,
        )
        # 中: 进程组对象不是张量，也不该保存：存成普通属性，前向传播时才查它的规模。
        # EN: A process group is no tensor and is not saved: it is a plain attribute, whose
        # EN: size is looked up only during the forward pass.
        self.process_group = process_group

    def _check_input_dim(self, input) -> None:
        r"""Accept any input with at least 2 dimensions. / 接受至少 2 维的任意输入。

        === "中文"

            通道总在第 1 维，其后可以有任意多个空间维，所以一个类就覆盖了 1d/2d/3d 三种情形。

        === "English"

            Channels are always dimension 1, followed by any number of spatial dimensions, so
            one class covers the 1d, 2d and 3d cases.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Fewer than 2 dimensions. / 维数少于 2。
        """
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    def _check_non_zero_input_channels(self, input) -> None:
        r"""Reject an input with 0 channels. / 拒绝通道数为 0 的输入。

        === "中文"

            没有通道就没有可以同步的统计量。这个检查在选择路径之前进行，
            所以评估模式和没有进程组时同样报错（而 `BatchNorm*d` 不做这项检查）。

        === "English"

            Without channels there are no statistics to synchronize. The check runs before a
            path is chosen, so evaluation mode and runs without a process group reject such
            input too (`BatchNorm*d` has no such check).

        Args:
            input: The forward input, at least 2D. / 前向输入，至少 2 维。

        Raises:
            ValueError: `input.size(1) == 0`. / `input.size(1) == 0`。
        """
        if input.size(1) == 0:
            raise ValueError("SyncBatchNorm number of input channels should be non-zero")

    def forward(self, input: Tensor) -> Tensor:
        r"""Normalize, synchronizing batch statistics across processes when training. / 归一化；训练时跨进程同步批统计量。

        === "中文"

            步骤：

            1. 检查输入至少 2 维、通道数不为 0；
            2. 训练且跟踪时计数器加 1，算出本次的平均系数（与 `_BatchNorm` 相同）；
            3. 决定 `bn_training` 以及交给内核的缓冲区（与 `_BatchNorm` 相同）；
            4. 决定是否同步：要求用批统计量、处于训练模式、`torch.distributed` 可用且已初始化；
               此时输入必须在 `cuda`、`hpu`、`xpu` 或私有后端设备上，否则抛出 `ValueError`；
               进程组规模大于 1 才真正同步；
            5. 不同步就调用 `F.batch_norm`，同步就调用 torch 的自动求导函数。

            CPU 上没有初始化进程组时（单机调试的常见情形）第 4 步不成立，所以结果与
            `BatchNorm*d` 完全相同；一旦初始化了进程组，CPU 输入在训练模式下就会报错，
            即使组里只有 1 个进程。

        === "English"

            Steps:

            1. check that the input has at least 2 dimensions and a non-zero channel count;
            2. in training with tracking, bump the counter and work out this step's averaging
               factor (as in `_BatchNorm`);
            3. decide `bn_training` and the buffers handed to the kernel (as in `_BatchNorm`);
            4. decide whether to synchronize: batch statistics, training mode, and an available
               and initialized `torch.distributed` are required; the input must then live on a
               `cuda`, `hpu`, `xpu` or private-backend device, else `ValueError`; only a group
               of more than 1 process actually synchronizes;
            5. without synchronization call `F.batch_norm`, with it torch's autograd function.

            On CPU without an initialized process group (the usual single-machine debugging
            case) step 4 does not apply, so the result is exactly that of `BatchNorm*d`; once a
            process group is initialized, a CPU input in training mode is an error, even in a
            group of 1 process.

        Args:
            input: Tensor of shape `(N, C, *)`. / 形状为 `(N, C, *)` 的张量。

        Returns:
            Tensor of the same shape. / 同形状的张量。

        Raises:
            ValueError: Fewer than 2 dimensions, 0 channels, or a non-accelerator input that would be synchronized. / 维数少于 2、通道数为 0，或需要同步的输入不在加速器上。
            AssertionError: Tracking switched on after construction without a counter. / 构造后才打开跟踪、没有计数器。
        """
        # 中: 第 1 步：两项检查都在碰任何缓冲区之前，出错时计数器不变。
        # EN: Step 1: both checks come before any buffer is touched, so an error leaves the
        # EN: counter as it was.
        self._check_input_dim(input)
        self._check_non_zero_input_channels(input)

        # 中: 第 2 步：默认系数就是 momentum；momentum 为 None 时先占位为 0.0。
        # EN: Step 2: the factor defaults to momentum; a None momentum starts as 0.0.
        if self.momentum is None:
            exponential_average_factor = 0.0
        else:
            exponential_average_factor = self.momentum

        # 中: 与 `_BatchNorm` 的一处不同：打开了跟踪开关却没有计数器（构造时
        # 中: `track_running_stats=False`，之后才改成 True）在这里是 AssertionError，
        # 中: 而 `_BatchNorm` 会跳过计数。momentum=None 时系数为 `1/n`（累计平均）。
        # EN: One difference from `_BatchNorm`: the tracking switch on but no counter (built with
        # EN: `track_running_stats=False`, switched to True later) is an AssertionError here,
        # EN: where `_BatchNorm` skips the count. With momentum=None the factor is `1/n` (a
        # EN: cumulative average).
        if self.training and self.track_running_stats:
            if self.num_batches_tracked is None:
                raise AssertionError("num_batches_tracked must not be None")
            self.num_batches_tracked.add_(1)
            if self.momentum is None:
                exponential_average_factor = 1.0 / self.num_batches_tracked.item()
            else:
                exponential_average_factor = self.momentum

        # 中: 第 3 步：训练模式总用批统计量，评估模式只在两个缓冲区都是 None 时才用；
        # 中: 训练但不跟踪时传 None 给内核，保证缓冲区不被更新。
        # EN: Step 3: training always uses batch statistics, evaluation only when both buffers
        # EN: are None; training without tracking hands None to the kernel, so the buffers
        # EN: cannot be updated.
        if self.training:
            bn_training = True
        else:
            bn_training = (self.running_mean is None) and (self.running_var is None)
        running_mean = self.running_mean if not self.training or self.track_running_stats else None
        running_var = self.running_var if not self.training or self.track_running_stats else None

        # 中: 第 4 步：评估模式从不同步（即使缓冲区为 None、用的是批统计量），
        # 中: 没有初始化进程组时也不同步——这就是单进程 CPU 上能直接用的原因。
        # EN: Step 4: evaluation mode never synchronizes (not even when the buffers are None and
        # EN: batch statistics are used), nor does a run without an initialized process group —
        # EN: which is why it works as is in a single CPU process.
        need_sync = (
            bn_training
            and self.training
            and torch.distributed.is_available()
            and torch.distributed.is_initialized()
        )
        if need_sync:
            # 中: 设备检查在查看组规模之前：进程组一旦初始化，CPU 输入在训练模式下总是报错，
            # 中: 1 个进程的组也不例外；此时第 2 步已给计数器加了 1，滑动统计量则未变。
            # 中: 报错文字没有提到 `hpu`，尽管它也被接受（torch 原文如此）。
            # EN: The device check comes before the group size: once a process group is
            # EN: initialized, a CPU input in training mode is always an error, even in a group
            # EN: of 1; by then step 2 has added 1 to the counter, while the running statistics
            # EN: are unchanged. The message does not mention `hpu`, though it is accepted
            # EN: (torch's text).
            accelerator_types = ["cuda", "hpu", "xpu", torch._C._get_privateuse1_backend_name()]
            if input.device.type not in accelerator_types:
                raise ValueError(
                    "SyncBatchNorm expected input tensor to be on GPU or XPU or "
                    f"{torch._C._get_privateuse1_backend_name()}"
                )
            # 中: 没指定进程组（或它为假值）就用全体进程 `WORLD`；
            # 中: 组里只有 1 个进程时没有别人可同步，改走本地路径。
            # EN: No process group (or a falsy one) means all processes, `WORLD`; a group of 1
            # EN: has nobody to synchronize with, so the local path is taken.
            process_group = torch.distributed.group.WORLD
            if self.process_group:
                process_group = self.process_group
            world_size = torch.distributed.get_world_size(process_group)
            need_sync = world_size > 1

        # 中: 第 5 步（本地）：与 `_BatchNorm.forward` 的调用完全相同，结果逐位一致。
        # EN: Step 5 (local): the very call `_BatchNorm.forward` makes, so results are
        # EN: bit-identical.
        if not need_sync:
            return F.batch_norm(
                input,
                running_mean,
                running_var,
                self.weight,
                self.bias,
                bn_training,
                exponential_average_factor,
                self.eps,
            )
        # 中: 第 5 步（同步）：只有训练模式能走到这里，所以 `bn_training` 必为 True。
        # 中: torch 的自动求导函数汇总各进程的均值、方差倒数和计数，就地更新滑动统计量，
        # 中: 反向时再汇总梯度项；`weight`/`bias` 的梯度不在这里同步，交给 DDP 去做。
        # EN: Step 5 (synchronized): only training mode gets here, so `bn_training` must be
        # EN: True. torch's autograd function gathers every process's mean, inverse standard
        # EN: deviation and count, updates the running statistics in place, and in backward
        # EN: sums the gradient terms; `weight`/`bias` gradients are not synchronized here but
        # EN: left to DDP.
        if not bn_training:
            raise AssertionError("bn_training must be True")
        return sync_batch_norm.apply(
            input,
            self.weight,
            self.bias,
            running_mean,
            running_var,
            self.eps,
            exponential_average_factor,
            process_group,
            world_size,
        )

    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None):
        r"""Replace every BatchNorm layer of a model with a `SyncBatchNorm`. / 把模型里的每个 BatchNorm 层换成 `SyncBatchNorm`。

        === "中文"

            递归遍历模块树，凡是 [`_BatchNorm`][annotated_nn.modules.batchnorm._BatchNorm]
            的实例（`BatchNorm1d/2d/3d`、惰性版本、`SyncBatchNorm` 本身）都换成新的
            `SyncBatchNorm`；`InstanceNorm` 不是 `_BatchNorm`，保持不变。新层**共用**原层的
            参数与缓冲区对象（不复制），所以数值、设备、`requires_grad`、优化器里登记的参数
            都保持不变；训练/评估模式和 `qconfig` 属性（若有）也照搬。

            根模块本身若是 BatchNorm，返回新对象；否则返回原模块（子模块已就地替换）。
            新层总是 `SyncBatchNorm`，即使通过它的子类调用（torch 也是如此）。
            还没物化的惰性层会变成 `num_features=0`、带着未初始化参数的 `SyncBatchNorm`，
            之后前向传播会报错（torch 同样如此）：请先用一批数据跑一次前向传播。

            两个库的模块可以混在一棵树里：遇到 torch 的 BatchNorm 层就交给
            `torch.nn.SyncBatchNorm.convert_sync_batchnorm`，得到 torch 的 `SyncBatchNorm`，与直接调用
            torch 相同；torch 的容器照样递归进去。

        === "English"

            Walks the module tree and replaces every instance of
            [`_BatchNorm`][annotated_nn.modules.batchnorm._BatchNorm] (`BatchNorm1d/2d/3d`,
            the lazy ones, `SyncBatchNorm` itself) with a new `SyncBatchNorm`; `InstanceNorm` is
            no `_BatchNorm` and stays. The new layer **shares** the old one's parameter and
            buffer objects (no copy), so values, devices, `requires_grad` and the parameters an
            optimizer holds are all unchanged; the training/evaluation mode and a `qconfig`
            attribute (if any) are carried over too.

            If the root itself is a BatchNorm, a new object is returned; otherwise the original
            module is returned, its submodules replaced in place. The new layers are always
            `SyncBatchNorm`, even when called through a subclass (torch does the same). A lazy
            layer not yet materialized becomes a `SyncBatchNorm` with `num_features=0` and
            uninitialized parameters, whose forward pass then fails (in torch too): run one
            batch through the model first.

            Modules of both libraries may mix in one tree: a torch BatchNorm layer is handed to
            `torch.nn.SyncBatchNorm.convert_sync_batchnorm` and becomes torch's `SyncBatchNorm`,
            as with torch directly; torch's containers are recursed into as usual.

        Args:
            module: The model, or a single BatchNorm layer. / 模型，或单个 BatchNorm 层。
            process_group: Group for the new layers; `None` means `WORLD`. / 新层所用的进程组；`None` 表示 `WORLD`。

        Returns:
            The converted model (a new object if `module` was a BatchNorm). / 转换后的模型（`module` 本身是 BatchNorm 时为新对象）。

        Examples:
            >>> import annotated_nn as nn
            >>> model = nn.Sequential(nn.Conv2d(1, 4, 3), nn.Sequential(nn.BatchNorm2d(4)))
            >>> model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
            >>> model[1][0]
            SyncBatchNorm(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
        """
        # 中: torch 的 BatchNorm 层（混合的树里会遇到）交给 torch 自己转换：得到 `torch.nn.SyncBatchNorm`，
        # 中: 与用户直接调用 torch 时一模一样。其余 torch 模块（容器等）照常往下递归。
        # EN: A torch BatchNorm layer (met in a mixed tree) is converted by torch itself: it gets a
        # EN: `torch.nn.SyncBatchNorm`, exactly as if the user had called torch. Other torch
        # EN: modules (containers and the like) are recursed into as usual.
        if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
            return torch.nn.SyncBatchNorm.convert_sync_batchnorm(module, process_group)
        # 中: 新层写的是 `SyncBatchNorm` 而不是 `cls`，与 torch 一致。超参数照搬；
        # 中: `bias` 按原层是否有 bias 参数决定。
        # EN: The new layer is `SyncBatchNorm`, not `cls`, as in torch. Hyper-parameters are
        # EN: copied; `bias` follows whether the old layer has a bias parameter.
        module_output = module
        if isinstance(module, _BatchNorm):
            module_output = SyncBatchNorm(
                module.num_features,
                module.eps,
                module.momentum,
                module.affine,
                module.track_running_stats,
                process_group,
                bias=module.bias is not None,
            )
            # 中: 直接换上原层的参数对象（不是复制值）：新建的 1/0 参数被丢弃，
            # 中: `requires_grad`、设备、dtype 和优化器里的引用都随原对象保留。
            # 中: torch 在 `no_grad` 下读取它们，这里照做。
            # EN: The old layer's parameter objects go in directly (not copies of their values):
            # EN: the fresh 1/0 parameters are dropped, and `requires_grad`, device, dtype and
            # EN: an optimizer's references all stay with the original objects. torch reads them
            # EN: under `no_grad`, and so does this.
            if module.affine:
                with torch.no_grad():
                    module_output.weight = module.weight
                    module_output.bias = module.bias
            # 中: 缓冲区同样共享对象（不跟踪时都是 None），因此计数器和滑动统计量接着原层继续。
            # 中: `training` 照搬原层，而不是新层默认的 True；`qconfig` 是量化工具挂上的属性。
            # EN: The buffers are shared objects too (all None without tracking), so the counter
            # EN: and running statistics carry on from the old layer. `training` is the old
            # EN: layer's, not the new layer's default True; `qconfig` is what quantization
            # EN: tools attach.
            module_output.running_mean = module.running_mean
            module_output.running_var = module.running_var
            module_output.num_batches_tracked = module.num_batches_tracked
            module_output.training = module.training
            if hasattr(module, "qconfig"):
                module_output.qconfig = module.qconfig
        # 中: 对每个子模块递归，再用同名 `add_module` 挂到 `module_output` 上：名字已存在时
        # 中: 就地替换，所以子模块的顺序不变；被替换的 BatchNorm 若（少见地）带着子模块，
        # 中: 它们就这样搬到新层上。
        # EN: Recurse into every child and attach the result to `module_output` with
        # EN: `add_module` under the same name: an existing name is replaced in place, so the
        # EN: order of children is kept; a replaced BatchNorm's children (rare) move to the new
        # EN: layer this way.
        for name, child in module.named_children():
            module_output.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return module_output
