r"""Batch normalization: layers whose state changes during the forward pass. / 批归一化：前向传播会改变自身状态的层。

=== "中文"

    本文件对应 `torch.nn.modules.batchnorm`。类层次与 torch 相同：

    - `_NormBase`：保存超参数、可学习的 `weight`/`bias` 和三个缓冲区（buffer）
      `running_mean`、`running_var`、`num_batches_tracked`，负责重置和旧版状态字典（state_dict）的兼容；
    - `_BatchNorm`：实现 `forward`，决定用批统计量还是滑动统计量，以及是否更新缓冲区；
    - `BatchNorm1d/2d/3d`：只重写 `_check_input_dim`，规定输入维数；
    - `_LazyNormBase` 与 `LazyBatchNorm1d/2d/3d`：惰性模块（lazy module），第一次前向传播时
      才根据输入的通道数创建参数和缓冲区，然后把自己的类换成对应的 `BatchNorm*d`。

    BatchNorm 是读者最常碰到的“训练/评估两种模式行为不同”的层：训练时用当前批的均值方差并
    更新滑动统计量，评估时改用滑动统计量。`SyncBatchNorm`（跨进程同步统计量）不在本项目范围内：
    它依赖 `torch.distributed` 和 GPU，与模块系统本身无关。

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
      turns into the matching `BatchNorm*d` class.

    BatchNorm is the layer where readers most often meet "training and evaluation behave
    differently": training uses the current batch's mean and variance and updates the
    running statistics, evaluation uses the running statistics. `SyncBatchNorm` (statistics
    synchronized across processes) is out of scope here: it depends on `torch.distributed`
    and GPUs, not on the module system.
"""

import torch
from torch import Tensor

from .. import functional as F
from .. import init
from ..parameter import Parameter, UninitializedBuffer, UninitializedParameter
from .lazy import LazyModuleMixin
from .module import Module

# DIFF(torch 2.13): 中: 没有 SyncBatchNorm（依赖 torch.distributed，不属于模块系统）。
# DIFF(torch 2.13): EN: SyncBatchNorm is left out (it depends on torch.distributed, not on the module system).
__all__ = [
    "BatchNorm1d",
    "LazyBatchNorm1d",
    "BatchNorm2d",
    "LazyBatchNorm2d",
    "BatchNorm3d",
    "LazyBatchNorm3d",
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
