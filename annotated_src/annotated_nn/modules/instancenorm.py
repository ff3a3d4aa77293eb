r"""Instance normalization: per-sample, per-channel statistics. / 实例归一化：按样本、按通道计算统计量。

=== "中文"

    本文件对应 `torch.nn.modules.instancenorm`。实例归一化对每个样本的每个通道单独求均值和方差，
    常用于风格迁移等生成任务。它复用
    [`_NormBase`][annotated_nn.modules.batchnorm._NormBase] 的参数（parameter）与缓冲区（buffer），
    但默认值不同：`affine=False`、`track_running_stats=False`，所以默认既没有参数也没有缓冲区。
    打开 `track_running_stats` 后，训练时更新滑动统计量，评估时改用它们——和 BatchNorm 一样。
    惰性版本 `LazyInstanceNorm*` 继承 `_LazyNormBase` 的默认值（`affine=True`、
    `track_running_stats=True`），这是 torch 的一个不太显眼的差别。

=== "English"

    This file mirrors `torch.nn.modules.instancenorm`. Instance normalization computes the mean
    and variance of every channel of every sample separately; it is common in generative
    tasks such as style transfer. It reuses the parameters and buffers of
    [`_NormBase`][annotated_nn.modules.batchnorm._NormBase] with different defaults:
    `affine=False` and `track_running_stats=False`, so by default there are neither parameters
    nor buffers. With `track_running_stats` on, training updates running statistics and
    evaluation uses them, just like BatchNorm. The lazy `LazyInstanceNorm*` classes inherit
    `_LazyNormBase`'s defaults (`affine=True`, `track_running_stats=True`), a quiet difference
    in torch.
"""

import warnings

from torch import Tensor

from .. import functional as F
from .batchnorm import _LazyNormBase, _NormBase

__all__ = [
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]


class _InstanceNorm(_NormBase):
    r"""The instance-normalization forward pass shared by `InstanceNorm1d/2d/3d`. / `InstanceNorm1d/2d/3d` 共用的实例归一化前向传播。
    === "中文"

        子类只规定两件事：合法的输入维数（`_check_input_dim`）和“无批次维时的维数”
        （`_get_no_batch_dim`）。无批次的输入先补一个批次维，算完再去掉。
        `num_features` 只决定参数和缓冲区的长度；通道数不匹配时 `affine=True` 直接报错，否则只警告
        （但若 `track_running_stats=True`，随后内核仍会因缓冲区长度不对而报错）。

    === "English"

        Subclasses fix only two things: the allowed input ranks (`_check_input_dim`) and the
        rank of an unbatched input (`_get_no_batch_dim`). Unbatched input gets a batch
        dimension added before the kernel and removed after it. `num_features` only sets
        the length of the parameters and buffers; a channel mismatch raises with
        `affine=True` and only warns otherwise (but with `track_running_stats=True` the
        kernel then fails anyway on the buffers' length).

    Args:
        num_features: Number of channels `C`. / 通道数 `C`。
        eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
        momentum: Running-average factor, or `None` for a cumulative average. / 滑动平均系数；`None` 表示累计平均。
        affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
        track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
        device: Device of the tensors. / 张量所在设备。
        dtype: Dtype of the floating-point tensors. / 浮点张量的数据类型。
        bias: Whether to learn `bias`. / 是否学习 `bias`。
    """

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None:
        r"""Pass everything to `_NormBase` with instance-norm defaults. / 以实例归一化的默认值把参数全部交给 `_NormBase`。
        === "中文"

            与 BatchNorm 的唯一区别是 `affine` 与 `track_running_stats` 默认都是 False。

        === "English"

            The only difference from BatchNorm is that `affine` and `track_running_stats`
            both default to False.

        Args:
            num_features: Number of channels `C`. / 通道数 `C`。
            eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
            momentum: Running-average factor, or `None` for a cumulative average. / 滑动平均系数；`None` 表示累计平均。
            affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
            track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
            device: Device of the tensors. / 张量所在设备。
            dtype: Dtype of the floating-point tensors. / 浮点张量的数据类型。
            bias: Whether to learn `bias`. / 是否学习 `bias`。
        """
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__(
            num_features, eps, momentum, affine, track_running_stats, **factory_kwargs, bias=bias
        )

    def _check_input_dim(self, input):
        r"""Check the input rank; subclasses implement it. / 检查输入维数；由子类实现。
        === "中文"

            基类不知道合法的维数，直接抛出 `NotImplementedError`。

        === "English"

            The base does not know the allowed ranks, so it raises `NotImplementedError`.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            NotImplementedError: Always, in the base. / 在基类中总是抛出。
        """
        raise NotImplementedError

    def _get_no_batch_dim(self):
        r"""Rank of an unbatched input; subclasses implement it. / 无批次输入的维数；由子类实现。
        === "中文"

            例如 `InstanceNorm2d` 的无批次输入是 `(C, H, W)`，返回 3。

        === "English"

            For example `InstanceNorm2d`'s unbatched input is `(C, H, W)`, so it returns 3.

        Raises:
            NotImplementedError: Always, in the base. / 在基类中总是抛出。
        """
        raise NotImplementedError

    def _handle_no_batch_input(self, input):
        r"""Normalize an unbatched input by adding and removing a batch dimension. / 通过临时加上批次维来归一化无批次输入。
        === "中文"

            内核需要批次维，所以先 `unsqueeze(0)`，算完再 `squeeze(0)`。

        === "English"

            The kernel needs a batch dimension, so the input is unsqueezed at 0 and the
            result squeezed back.

        Args:
            input: Unbatched input. / 无批次的输入。

        Returns:
            The normalized tensor, unbatched. / 归一化后的张量（无批次维）。
        """
        return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)

    def _apply_instance_norm(self, input):
        r"""Call `F.instance_norm` with this module's state. / 用本模块的状态调用 `F.instance_norm`。
        === "中文"

            `use_input_stats` 在训练模式或不维护滑动统计量时为 True，也就是只有“评估模式且
            `track_running_stats=True`”才使用缓冲区里的统计量。`momentum=None` 传为 0.0，
            于是滑动统计量永远停在初值：这里没有 BatchNorm 那样的累计平均，实例归一化也从不
            增加 `num_batches_tracked`。

        === "English"

            `use_input_stats` is True in training mode or when no running statistics are
            kept, so only evaluation mode with `track_running_stats=True` uses the buffers'
            statistics. `momentum=None` is passed as 0.0, so the running statistics stay at
            their initial values forever: there is no cumulative average like BatchNorm's, and
            instance norm never increments `num_batches_tracked`.

        Args:
            input: Batched input. / 带批次维的输入。

        Returns:
            The normalized tensor. / 归一化后的张量。
        """
        # 中: 与 BatchNorm 不同，缓冲区总是原样传入
        # 中: （以 `track_running_stats=False` 构造时它们就是 None）；
        # 中: 训练模式且有缓冲区时，内核按 momentum 就地更新它们。
        # EN: Unlike BatchNorm, the buffers are always passed as they are (None when built with
        # EN: `track_running_stats=False`); in training mode with buffers, the kernel updates them
        # EN: in place by momentum.
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            # 中: `use_input_stats`：只有“评估且跟踪”才改用缓冲区里的统计量。
            # EN: `use_input_stats`: only "evaluation with tracking" switches to the buffers.
            self.training or not self.track_running_stats,
            # 中: None 变成 0.0：滑动统计量不再变化，也没有累计平均。
            # EN: None becomes 0.0: the running statistics stop changing; no cumulative average.
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
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
        r"""Reject running-stat keys from pre-0.4 checkpoints when they are not tracked, then load. / 不维护滑动统计量时拒绝 0.4 之前检查点里的相应键，再加载。
        === "中文"

            没有 `version` 元数据的检查点被当作 0.4.0 之前的（没有 `_metadata` 的普通 `dict`
            也算），那时实例归一化默认保存 `running_mean`/
            `running_var`。若本模块 `track_running_stats=False`，这些键会先被记成一条错误信息
            （说明原因和两种解决办法；它进入 `error_msgs`，所以 `strict=False` 也会报错），
            再从传入的 `state_dict`（`load_state_dict` 自己的副本）中删除，剩下的交给
            [`_NormBase._load_from_state_dict`][annotated_nn.modules.batchnorm._NormBase._load_from_state_dict]。

        === "English"

            A checkpoint without `version` metadata is taken to predate 0.4.0 (a plain `dict`
            without `_metadata` counts too), when instance norm saved
            `running_mean`/`running_var` by default. If this module has
            `track_running_stats=False`, those keys are first recorded in one error message
            (explaining why and the two ways out; it goes into `error_msgs`, so even
            `strict=False` fails) and then deleted from the `state_dict` passed in
            (`load_state_dict`'s own copy); the rest goes to
            [`_NormBase._load_from_state_dict`][annotated_nn.modules.batchnorm._NormBase._load_from_state_dict].

        Args:
            state_dict: The full flat state dict being loaded. / 正在加载的完整扁平状态字典。
            prefix: This module's key prefix. / 本模块的键前缀。
            local_metadata: This module's metadata (may hold `version`). / 本模块的元数据（可能含 `version`）。
            strict: Whether key mismatches are errors. / 键不匹配是否算错误。
            missing_keys: List collecting missing keys. / 收集缺失键的列表。
            unexpected_keys: List collecting unexpected keys. / 收集多余键的列表。
            error_msgs: List collecting error messages. / 收集错误信息的列表。
        """
        # 中: 只检查没有版本号的状态字典：带版本号的状态字典若来自不跟踪的实例归一化，
        # 中: 本来就没有这些键（值为 None 的缓冲区不会被保存）。
        # 中: 跟踪统计量的模块需要这些键，不做处理。
        # EN: Only a state_dict without a version is checked: a versioned one saved from an
        # EN: untracked instance norm cannot hold these keys (None buffers are not saved). A module
        # EN: that tracks statistics needs the keys, so it is left alone.
        version = local_metadata.get("version", None)
        if version is None and not self.track_running_stats:
            found = [
                prefix + name
                for name in ("running_mean", "running_var")
                if prefix + name in state_dict
            ]
            # 中: 找到的键加上引号、用 " and " 连接，
            # 中: 类名取实际的子类名（如 `InstanceNorm2d`）。
            # EN: The keys found are quoted and joined by " and "; the class name is the actual
            # EN: subclass (e.g. `InstanceNorm2d`).
            if found:
                names = " and ".join(f'"{key}"' for key in found)
                klass = self.__class__.__name__
                # 中: 错误信息逐字与 torch 相同：
                # 中: 先说明 0.4.0 起默认不跟踪统计量。
                # EN: The error text is torch's word for word: first, that tracking is off by
                # EN: default since 0.4.0.
                error_msgs.append(
                    f"Unexpected running stats buffer(s) {names} for {klass} with "
                    "track_running_stats=False. If state_dict is a checkpoint saved before 0.4.0, "
                    f"this may be expected because {klass} does not track running stats by default "
                    # 中: 然后给出两种解决办法：删掉这些键，或打开 `track_running_stats`。
                    # EN: Then the two ways out: drop the keys, or turn on `track_running_stats`.
                    "since 0.4.0. Please remove these keys from state_dict. If the running stats are "
                    f"actually needed, instead set track_running_stats=True in {klass} to enable "
                    f"them. See the documentation of {klass} for details."
                )
                # 中: 删掉这些键，`Module` 就不会在 `strict=True` 时再把它们报成多余键：
                # 中: 用户只看到上面这一条说明原因的信息。
                # EN: With the keys removed, `Module` does not report them again as unexpected
                # EN: under `strict=True`: the user sees only the explanatory message above.
                for key in found:
                    state_dict.pop(key)
        # 中: 接着是 `_NormBase` 的计数器迁移（只在跟踪时起作用）
        # 中: 和通常的加载。
        # EN: Next come `_NormBase`'s counter migration (active only when tracking) and the usual
        # EN: load.
        super()._load_from_state_dict(
            state_dict,
            prefix,
            local_metadata,
            strict,
            missing_keys,
            unexpected_keys,
            # 中: `error_msgs` 里可能已有上面那条信息；只要它非空，`load_state_dict` 就会抛出
            # 中: RuntimeError，与 `strict` 无关。
            # EN: `error_msgs` may already hold the message above; whenever it is non-empty,
            # EN: `load_state_dict` raises RuntimeError, whatever `strict` says.
            error_msgs,
        )

    def forward(self, input: Tensor) -> Tensor:
        r"""Check the input, compare its channels with `num_features`, then normalize. / 检查输入，核对通道数与 `num_features`，再归一化。
        === "中文"

            通道维是倒数第 `_get_no_batch_dim()` 维，因此有无批次维都能找对。通道数不等于
            `num_features` 时：`affine=True` 会抛出 `ValueError`（参数形状对不上）；
            `affine=False` 只发出 `UserWarning`，因为没有参数需要对上——但若
            `track_running_stats=True`，缓冲区的长度对不上，随后 `F.instance_norm` 会抛出
            `RuntimeError`。

        === "English"

            The channel dimension is found counting `_get_no_batch_dim()` from the end, so
            it is right with or without a batch dimension. When the channel count differs
            from `num_features`, `affine=True` raises `ValueError` (the parameter shapes
            would not fit) while `affine=False` only warns with `UserWarning`, as there is no
            parameter to fit — but with `track_running_stats=True` the buffers' length does
            not fit, and `F.instance_norm` then raises `RuntimeError`.

        Args:
            input: Batched or unbatched input. / 有或无批次维的输入。

        Returns:
            The normalized tensor, same shape as `input`. / 归一化后的张量，形状与 `input` 相同。

        Raises:
            ValueError: Wrong rank, or channel mismatch with `affine=True`. / 维数不对，或 `affine=True` 时通道数不匹配。
        """
        # 中: 先查维数：每个子类接受“无批次”和“有批次”
        # 中: 两种维数（例如 1d 接受 2 维和 3 维）。
        # EN: Rank first: each subclass accepts an unbatched and a batched rank (e.g. 2D and 3D for
        # EN: 1d).
        self._check_input_dim(input)

        # 中: 通道维 = 总维数 − 无批次维数：有批次时是第 1 维，无批次时是第 0 维。
        # EN: Channel dim = rank − unbatched rank: dimension 1 when batched, 0 when unbatched.
        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.size(feature_dim) != self.num_features:
            # 中: 有仿射参数时形状必然对不上，
            # 中: 立刻报错，信息与 torch 相同。
            # EN: With affine parameters the shapes cannot fit, so it raises at once with torch's
            # EN: message.
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features"
                    f" ({self.num_features}), but got: {input.size(feature_dim)}."
                )
            # 中: 否则只警告，文字照搬 torch（尽管 `num_features`
            # 中: 是必填参数，“不传”其实做不到）。`stacklevel=2` 与 torch 相同，
            # 中: 指向的是 `Module` 的调用包装而不是用户代码。
            # EN: Otherwise only a warning, with torch's text (though `num_features` is required,
            # EN: so "not passing" it is not possible). `stacklevel=2`, as in torch, points at
            # EN: `Module`'s call wrapper, not at user code.
            else:
                warnings.warn(
                    f"input's size at dim={feature_dim} does not match num_features. "
                    "You can silence this warning by not passing in num_features, "
                    "which is not used because affine=False",
                    stacklevel=2,
                )

        # 中: 无批次输入临时补一个批次维，
        # 中: 因为内核总把第 0 维当作批次维 `(N, C, *)`。
        # EN: Unbatched input gets a temporary batch dimension, since the kernel always reads
        # EN: dimension 0 as the batch, `(N, C, *)`.
        if input.dim() == self._get_no_batch_dim():
            return self._handle_no_batch_input(input)

        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    r"""Instance normalization over `(N, C, L)` or unbatched `(C, L)` input. / 对 `(N, C, L)` 或无批次的 `(C, L)` 输入做实例归一化。
    === "中文"

        每个样本的每个通道在其余 1 个空间维上单独求统计量。全部行为来自
        [`_InstanceNorm`][annotated_nn.modules.instancenorm._InstanceNorm]，这里只规定输入维数。

    === "English"

        Each channel of each sample is normalized with statistics over the remaining 1
        spatial dimension. All behavior comes from
        [`_InstanceNorm`][annotated_nn.modules.instancenorm._InstanceNorm]; this class only
        fixes the input ranks.

    Args:
        num_features: Number of channels `C`. / 通道数 `C`。
        eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
        momentum: Running-average factor. / 滑动平均系数。
        affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
        track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
        device: Device of the tensors. / 张量所在设备。
        dtype: Dtype of the floating-point tensors. / 浮点张量的数据类型。
        bias: Whether to learn `bias`. / 是否学习 `bias`。
    """

    def _get_no_batch_dim(self) -> int:
        r"""An unbatched input has 2 dimensions. / 无批次输入有 2 个维度。
        === "中文"

            即 `(C, L)`；通道维因此总是倒数第 2 维。

        === "English"

            That is `(C, L)`; the channel dimension is therefore always dimension 2 from the
            end.

        Returns:
            `2`. / `2`。
        """
        return 2

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
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    r"""`InstanceNorm1d` whose `num_features` is inferred from the first input. / 从第一次输入推断 `num_features` 的 `InstanceNorm1d`。
    === "中文"

        第一次前向传播后，模块的类变成 [`InstanceNorm1d`][annotated_nn.modules.instancenorm.InstanceNorm1d]。
        注意构造函数来自 `_LazyNormBase`，默认 `affine=True`、`track_running_stats=True`。

    === "English"

        After the first forward pass the module's class becomes
        [`InstanceNorm1d`][annotated_nn.modules.instancenorm.InstanceNorm1d]. Note that the
        constructor comes from `_LazyNormBase`, so it defaults to `affine=True` and
        `track_running_stats=True`.

    Args:
        eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
        momentum: Running-average factor. / 滑动平均系数。
        affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
        track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
        device: Device of the future tensors. / 将来张量所在设备。
        dtype: Dtype of the future floating-point tensors. / 将来浮点张量的数据类型。
        bias: Whether to learn `bias`. / 是否学习 `bias`。
    """

    cls_to_become = InstanceNorm1d  # type: ignore[assignment]

    def _get_no_batch_dim(self) -> int:
        r"""An unbatched input has 2 dimensions. / 无批次输入有 2 个维度。
        === "中文"

            即 `(C, L)`；通道维因此总是倒数第 2 维。

        === "English"

            That is `(C, L)`; the channel dimension is therefore always dimension 2 from the
            end.

        Returns:
            `2`. / `2`。
        """
        return 2

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
        if input.dim() not in (2, 3):
            raise ValueError(f"expected 2D or 3D input (got {input.dim()}D input)")


class InstanceNorm2d(_InstanceNorm):
    r"""Instance normalization over `(N, C, H, W)` or unbatched `(C, H, W)` input. / 对 `(N, C, H, W)` 或无批次的 `(C, H, W)` 输入做实例归一化。
    === "中文"

        每个样本的每个通道在其余 2 个空间维上单独求统计量。全部行为来自
        [`_InstanceNorm`][annotated_nn.modules.instancenorm._InstanceNorm]，这里只规定输入维数。

    === "English"

        Each channel of each sample is normalized with statistics over the remaining 2
        spatial dimensions. All behavior comes from
        [`_InstanceNorm`][annotated_nn.modules.instancenorm._InstanceNorm]; this class only
        fixes the input ranks.

    Args:
        num_features: Number of channels `C`. / 通道数 `C`。
        eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
        momentum: Running-average factor. / 滑动平均系数。
        affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
        track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
        device: Device of the tensors. / 张量所在设备。
        dtype: Dtype of the floating-point tensors. / 浮点张量的数据类型。
        bias: Whether to learn `bias`. / 是否学习 `bias`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.InstanceNorm2d(3)
        >>> m
        InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)
        >>> y = m(torch.randn(2, 3, 4, 4))
        >>> bool(y.mean(dim=(2, 3)).abs().max() < 1e-5)
        True
    """

    def _get_no_batch_dim(self) -> int:
        r"""An unbatched input has 3 dimensions. / 无批次输入有 3 个维度。
        === "中文"

            即 `(C, H, W)`；通道维因此总是倒数第 3 维。

        === "English"

            That is `(C, H, W)`; the channel dimension is therefore always dimension 3 from
            the end.

        Returns:
            `3`. / `3`。
        """
        return 3

    def _check_input_dim(self, input) -> None:
        r"""Accept 3D or 4D input only. / 只接受三维或四维输入。
        === "中文"

            其他维数抛出 `ValueError`，信息与 torch 相同。

        === "English"

            Any other rank raises `ValueError` with torch's message.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 3 or 4. / 维数不是 3 或 4。
        """
        if input.dim() not in (3, 4):
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    r"""`InstanceNorm2d` whose `num_features` is inferred from the first input. / 从第一次输入推断 `num_features` 的 `InstanceNorm2d`。
    === "中文"

        第一次前向传播后，模块的类变成 [`InstanceNorm2d`][annotated_nn.modules.instancenorm.InstanceNorm2d]。
        注意构造函数来自 `_LazyNormBase`，默认 `affine=True`、`track_running_stats=True`。

    === "English"

        After the first forward pass the module's class becomes
        [`InstanceNorm2d`][annotated_nn.modules.instancenorm.InstanceNorm2d]. Note that the
        constructor comes from `_LazyNormBase`, so it defaults to `affine=True` and
        `track_running_stats=True`.

    Args:
        eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
        momentum: Running-average factor. / 滑动平均系数。
        affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
        track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
        device: Device of the future tensors. / 将来张量所在设备。
        dtype: Dtype of the future floating-point tensors. / 将来浮点张量的数据类型。
        bias: Whether to learn `bias`. / 是否学习 `bias`。
    """

    cls_to_become = InstanceNorm2d  # type: ignore[assignment]

    def _get_no_batch_dim(self) -> int:
        r"""An unbatched input has 3 dimensions. / 无批次输入有 3 个维度。
        === "中文"

            即 `(C, H, W)`；通道维因此总是倒数第 3 维。

        === "English"

            That is `(C, H, W)`; the channel dimension is therefore always dimension 3 from
            the end.

        Returns:
            `3`. / `3`。
        """
        return 3

    def _check_input_dim(self, input) -> None:
        r"""Accept 3D or 4D input only. / 只接受三维或四维输入。
        === "中文"

            其他维数抛出 `ValueError`，信息与 torch 相同。

        === "English"

            Any other rank raises `ValueError` with torch's message.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 3 or 4. / 维数不是 3 或 4。
        """
        if input.dim() not in (3, 4):
            raise ValueError(f"expected 3D or 4D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    r"""Instance normalization over `(N, C, D, H, W)` or unbatched `(C, D, H, W)` input. / 对 `(N, C, D, H, W)` 或无批次的 `(C, D, H, W)` 输入做实例归一化。
    === "中文"

        每个样本的每个通道在其余 3 个空间维上单独求统计量。全部行为来自
        [`_InstanceNorm`][annotated_nn.modules.instancenorm._InstanceNorm]，这里只规定输入维数。

    === "English"

        Each channel of each sample is normalized with statistics over the remaining 3
        spatial dimensions. All behavior comes from
        [`_InstanceNorm`][annotated_nn.modules.instancenorm._InstanceNorm]; this class only
        fixes the input ranks.

    Args:
        num_features: Number of channels `C`. / 通道数 `C`。
        eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
        momentum: Running-average factor. / 滑动平均系数。
        affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
        track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
        device: Device of the tensors. / 张量所在设备。
        dtype: Dtype of the floating-point tensors. / 浮点张量的数据类型。
        bias: Whether to learn `bias`. / 是否学习 `bias`。
    """

    def _get_no_batch_dim(self) -> int:
        r"""An unbatched input has 4 dimensions. / 无批次输入有 4 个维度。
        === "中文"

            即 `(C, D, H, W)`；通道维因此总是倒数第 4 维。

        === "English"

            That is `(C, D, H, W)`; the channel dimension is therefore always dimension 4
            from the end.

        Returns:
            `4`. / `4`。
        """
        return 4

    def _check_input_dim(self, input) -> None:
        r"""Accept 4D or 5D input only. / 只接受四维或五维输入。
        === "中文"

            其他维数抛出 `ValueError`，信息与 torch 相同。

        === "English"

            Any other rank raises `ValueError` with torch's message.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 4 or 5. / 维数不是 4 或 5。
        """
        if input.dim() not in (4, 5):
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    r"""`InstanceNorm3d` whose `num_features` is inferred from the first input. / 从第一次输入推断 `num_features` 的 `InstanceNorm3d`。
    === "中文"

        第一次前向传播后，模块的类变成 [`InstanceNorm3d`][annotated_nn.modules.instancenorm.InstanceNorm3d]。
        注意构造函数来自 `_LazyNormBase`，默认 `affine=True`、`track_running_stats=True`。

    === "English"

        After the first forward pass the module's class becomes
        [`InstanceNorm3d`][annotated_nn.modules.instancenorm.InstanceNorm3d]. Note that the
        constructor comes from `_LazyNormBase`, so it defaults to `affine=True` and
        `track_running_stats=True`.

    Args:
        eps: Added to the variance for stability. / 加到方差上以保证数值稳定。
        momentum: Running-average factor. / 滑动平均系数。
        affine: Whether to learn `weight` (and `bias`). / 是否学习 `weight`（及 `bias`）。
        track_running_stats: Whether to keep running statistics. / 是否维护滑动统计量。
        device: Device of the future tensors. / 将来张量所在设备。
        dtype: Dtype of the future floating-point tensors. / 将来浮点张量的数据类型。
        bias: Whether to learn `bias`. / 是否学习 `bias`。
    """

    cls_to_become = InstanceNorm3d  # type: ignore[assignment]

    def _get_no_batch_dim(self) -> int:
        r"""An unbatched input has 4 dimensions. / 无批次输入有 4 个维度。
        === "中文"

            即 `(C, D, H, W)`；通道维因此总是倒数第 4 维。

        === "English"

            That is `(C, D, H, W)`; the channel dimension is therefore always dimension 4
            from the end.

        Returns:
            `4`. / `4`。
        """
        return 4

    def _check_input_dim(self, input) -> None:
        r"""Accept 4D or 5D input only. / 只接受四维或五维输入。
        === "中文"

            其他维数抛出 `ValueError`，信息与 torch 相同。

        === "English"

            Any other rank raises `ValueError` with torch's message.

        Args:
            input: The forward input. / 前向输入。

        Raises:
            ValueError: Rank not 4 or 5. / 维数不是 4 或 5。
        """
        if input.dim() not in (4, 5):
            raise ValueError(f"expected 4D or 5D input (got {input.dim()}D input)")
