r"""Weight averaging: SWA and EMA copies of a model, BatchNorm refresh, the SWA learning rate. / 权重平均：模型的 SWA 与 EMA 平均副本、BatchNorm 统计量重算、SWA 学习率。

=== "中文"

    本文件对应 `torch.optim.swa_utils`，提供两种权重平均：随机权重平均（SWA，对训练后期
    各次取到的权重求等权平均）和指数滑动平均（EMA，越新的权重占比越大）。

    - [`AveragedModel`][annotated_optim.swa_utils.AveragedModel]：持有模型的一份深拷贝，
      每调用一次 `update_parameters(model)`，就把 `model` 当前的权重并入平均。它本身是
      annotated_nn 的 `Module`：可以前向传播，可以保存、加载状态字典（state_dict）。
    - 四个工厂函数生成平均函数：`get_swa_avg_fn`、`get_ema_avg_fn` 一次处理一个张量；
      `get_swa_multi_avg_fn`、`get_ema_multi_avg_fn` 一次处理一组张量，用 `torch._foreach_*`
      就地更新。
    - [`update_bn`][annotated_optim.swa_utils.update_bn]：平均出来的权重从未与 BatchNorm 的
      滑动统计量一起训练过；它用数据把模型完整跑一遍，重新累计这些统计量。
    - [`SWALR`][annotated_optim.swa_utils.SWALR]：SWA 阶段的学习率调度器，在 `anneal_epochs`
      步内把每个参数组的学习率退火到固定的 `swa_lr`，之后保持不变。

    `AveragedModel` 和 `update_bn` 既接受 annotated_nn 的模型，也接受 `torch.nn` 的模型。

=== "English"

    This file mirrors `torch.optim.swa_utils`. It offers two kinds of weight averaging:
    Stochastic Weight Averaging (SWA, an equal-weight average of the weights seen late in
    training) and the Exponential Moving Average (EMA, where newer weights weigh more).

    - [`AveragedModel`][annotated_optim.swa_utils.AveragedModel] holds a deep copy of a model;
      each call of `update_parameters(model)` folds the current weights of `model` into the
      average. It is an annotated_nn `Module` itself: it runs a forward pass and saves and loads
      a state_dict.
    - Four factories make the averaging functions: `get_swa_avg_fn` and `get_ema_avg_fn` work
      on one tensor at a time; `get_swa_multi_avg_fn` and `get_ema_multi_avg_fn` work on a list
      of tensors, in place, with `torch._foreach_*` kernels.
    - [`update_bn`][annotated_optim.swa_utils.update_bn]: the averaged weights were never
      trained together with BatchNorm's running statistics; it runs the data through the model
      once to accumulate those statistics anew.
    - [`SWALR`][annotated_optim.swa_utils.SWALR], the scheduler of the SWA phase, anneals each
      param group's learning rate to a fixed `swa_lr` within `anneal_epochs` steps and then
      keeps it there.

    `AveragedModel` and `update_bn` accept annotated_nn models and `torch.nn` models alike.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any, Literal

import torch
from torch import Tensor
from torch.utils._foreach_utils import (
    _get_foreach_kernels_supported_devices,
    _group_tensors_by_device_and_dtype,
)

import annotated_nn as nn
from annotated_nn.modules.batchnorm import _BatchNorm
from annotated_optim.lr_scheduler import LRScheduler, _format_param
from annotated_optim.optimizer import Optimizer

__all__ = [
    "AveragedModel",
    "update_bn",
    "SWALR",
    "get_ema_multi_avg_fn",
    "get_swa_multi_avg_fn",
    "get_ema_avg_fn",
    "get_swa_avg_fn",
]

# 中: 一组张量的类型（`multi_avg_fn` 收到的两个参数）；名字与 torch 模块里的同名别名相同。
# EN: The type of a list of tensors (the two lists a `multi_avg_fn` receives); the name is that
# EN: of the alias in torch's module.
PARAM_LIST = tuple[Tensor, ...] | list[Tensor]

# 中: `update_bn` 认得的 BatchNorm：torch 的和我们的（两者互不继承）。`_BatchNorm` 的子类
# 中: （`BatchNorm1d/2d/3d`、惰性版本，以及 torch 的 `SyncBatchNorm`）都算；`InstanceNorm` 不算。
# EN: The BatchNorm layers `update_bn` recognizes: torch's and ours (neither derives from the
# EN: other). Subclasses of `_BatchNorm` count (`BatchNorm1d/2d/3d`, the lazy ones, torch's
# EN: `SyncBatchNorm`); `InstanceNorm` does not.
_BATCH_NORM_TYPES = (torch.nn.modules.batchnorm._BatchNorm, _BatchNorm)


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[[PARAM_LIST, PARAM_LIST, Any], None]:
    r"""Make an in-place EMA update over lists of tensors. / 生成对一组张量就地做 EMA 更新的函数。

    === "中文"

        返回的函数把每个平均张量 `W_ema` 就地改为 `decay * W_ema + (1 - decay) * W_model`，
        第三个参数（已平均次数）不用。浮点与复数张量用一次 `torch._foreach_lerp_` 算完；
        lerp 在 `decay > 0.5`（权重 `1 - decay < 0.5`）时算 `W_ema + (1 - decay) * (W_model - W_ema)`，
        否则算 `W_model - decay * (W_model - W_ema)`：数学上相等，但舍入不同，所以与
        [`get_ema_avg_fn`][annotated_optim.swa_utils.get_ema_avg_fn] 的结果在末位上可能不一样。
        整数张量（例如 `use_buffers=True` 时的计数器缓冲区）逐个计算，结果写回时截断为整数。

    === "English"

        The returned function sets each averaged tensor `W_ema`, in place, to
        `decay * W_ema + (1 - decay) * W_model`; the third argument (the number averaged so far)
        is unused. Floating and complex tensors take one `torch._foreach_lerp_` call; with
        `decay > 0.5` (a weight `1 - decay < 0.5`) lerp computes
        `W_ema + (1 - decay) * (W_model - W_ema)`, otherwise `W_model - decay * (W_model - W_ema)`:
        equal in exact arithmetic but rounded differently, so results may differ in the last
        bits from those of
        [`get_ema_avg_fn`][annotated_optim.swa_utils.get_ema_avg_fn]. Integer tensors (a counter
        buffer under `use_buffers=True`, say) go one by one, truncated to integers on write.

    Args:
        decay: Weight of the old average, in `[0, 1]`. / 旧平均值的权重，取值在 `[0, 1]`。

    Returns:
        `ema_update`, run under `torch.no_grad()`. / `ema_update`，在 `torch.no_grad()` 下运行。

    Raises:
        ValueError: `decay` outside `[0, 1]`. / `decay` 不在 `[0, 1]` 内。

    Examples:
        >>> import torch
        >>> from annotated_optim import swa_utils
        >>> ema, new = [torch.zeros(2)], [torch.ones(2)]
        >>> swa_utils.get_ema_multi_avg_fn(0.75)(ema, new, 1)
        >>> ema
        [tensor([0.2500, 0.2500])]
    """
    # 中: 在工厂里就检查，而不是等到第一次平均；NaN 通不过比较，所以不会被拒绝（与 torch 同）。
    # EN: Checked in the factory, not at the first average; NaN fails both comparisons and so
    # EN: is not refused (as in torch).
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )

    @torch.no_grad()
    def ema_update(ema_param_list: PARAM_LIST, current_param_list: PARAM_LIST, _: Any) -> None:
        r"""Move every EMA tensor toward the model's, in place. / 把每个 EMA 张量就地拉向模型的张量。

        === "中文"

            同一次调用的张量来自 `AveragedModel` 的同一个（设备, 数据类型）分组，所以看第一个
            张量就能决定整组走哪条路。

        === "English"

            The tensors of one call come from one (device, dtype) group of `AveragedModel`,
            so the first tensor decides the path for the whole list.

        Args:
            ema_param_list: The averages, updated in place. / 平均值，就地更新。
            current_param_list: The model's current tensors. / 模型当前的张量。
            _: Number averaged so far (unused). / 已平均的次数（不使用）。
        """
        # 中: `_foreach_lerp_` 只支持浮点与复数；整数张量逐个计算后 `copy_` 回去。
        # EN: `_foreach_lerp_` supports floating and complex dtypes only; integer tensors are
        # EN: computed one by one and written back with `copy_`.
        first = ema_param_list[0]
        if torch.is_floating_point(first) or torch.is_complex(first):
            torch._foreach_lerp_(ema_param_list, current_param_list, 1 - decay)
        else:
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[[PARAM_LIST, PARAM_LIST, Tensor | int], None]:
    r"""Make an in-place equal-weight (SWA) update over lists of tensors. / 生成对一组张量就地做等权（SWA）平均的函数。

    === "中文"

        已平均了 `n` 个模型时，第 `n + 1` 个模型的权重是 `1 / (n + 1)`：
        `W_avg += (W_model - W_avg) / (n + 1)`，这样 `W_avg` 始终是所有模型的等权平均。
        浮点与复数张量用 `torch._foreach_lerp_`，`n` 是张量时权重也是张量（留在设备上）。
        整数张量先求差，再按 `n` 的类型二选一：张量 `n` 用 `torch._foreach_addcdiv_`，
        Python 整数 `n` 用 `torch._foreach_add_(alpha=1 / (n + 1))`。但在 torch 2.13 中两者
        对整数张量都抛出 `RuntimeError`（前者拒绝整数除法，后者拒绝浮点的 `alpha`），这里照样
        如此。所以无论 `n` 是哪种类型（`AveragedModel` 传入的是张量），带整数缓冲区（如 BatchNorm 的
        `num_batches_tracked`）的模型在 `use_buffers=True` 下都不能用这个函数。

    === "English"

        With `n` models averaged already, model `n + 1` gets the weight `1 / (n + 1)`:
        `W_avg += (W_model - W_avg) / (n + 1)`, which keeps `W_avg` the equal-weight average of
        all of them. Floating and complex tensors use `torch._foreach_lerp_`; when `n` is a
        tensor the weight is a tensor too (it stays on the device). Integer tensors take the
        difference first, then one of two calls by the type of `n`: `torch._foreach_addcdiv_`
        for a tensor `n`, `torch._foreach_add_(alpha=1 / (n + 1))` for a Python int `n`. In
        torch 2.13 both raise a `RuntimeError` for integer tensors (the former refuses integer
        division, the latter a floating `alpha`), and so they do here. So whatever the type of
        `n` (`AveragedModel` passes a tensor), a model with integer buffers (BatchNorm's
        `num_batches_tracked`, say) cannot use this function under `use_buffers=True`.

    Returns:
        `swa_update`, run under `torch.no_grad()`. / `swa_update`，在 `torch.no_grad()` 下运行。

    Examples:
        >>> import torch
        >>> from annotated_optim import swa_utils
        >>> avg, new = [torch.zeros(2)], [torch.ones(2)]
        >>> swa_utils.get_swa_multi_avg_fn()(avg, new, 3)
        >>> avg
        [tensor([0.2500, 0.2500])]
    """

    @torch.no_grad()
    def swa_update(
        averaged_param_list: PARAM_LIST,
        current_param_list: PARAM_LIST,
        num_averaged: Tensor | int,
    ) -> None:
        r"""Fold the model's tensors into the running means, in place. / 把模型的张量就地并入累计平均。

        === "中文"

            与 EMA 版本一样，由第一个张量决定整组的路径。

        === "English"

            As in the EMA version, the first tensor decides the path of the whole list.

        Args:
            averaged_param_list: The averages, updated in place. / 平均值，就地更新。
            current_param_list: The model's current tensors. / 模型当前的张量。
            num_averaged: Models averaged so far, a tensor or an int. / 已平均的模型数，张量或整数。
        """
        # 中: 浮点与复数：一次 lerp，权重 `1 / (n + 1)`。
        # EN: Floating and complex: one lerp with the weight `1 / (n + 1)`.
        first = averaged_param_list[0]
        if torch.is_floating_point(first) or torch.is_complex(first):
            torch._foreach_lerp_(averaged_param_list, current_param_list, 1 / (num_averaged + 1))
            return
        # 中: 整数：先求差，再按 `n` 的类型选调用；两者在 torch 2.13 中都会报错（见上），
        # 中: 保留它们是为了抛出与 torch 相同的异常。
        # EN: Integers: take the differences, then pick the call by the type of `n`; both raise
        # EN: in torch 2.13 (see above), and are kept so that the errors are torch's.
        diffs = torch._foreach_sub(current_param_list, averaged_param_list)
        if isinstance(num_averaged, Tensor):
            torch._foreach_addcdiv_(
                averaged_param_list, diffs, [num_averaged + 1] * len(averaged_param_list)
            )
        else:
            torch._foreach_add_(averaged_param_list, diffs, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[[Tensor, Tensor, Any], Tensor]:
    r"""Make an EMA update for one tensor. / 生成对单个张量做 EMA 更新的函数。

    === "中文"

        返回的函数计算并**返回** `decay * W_ema + (1 - decay) * W_model`（新张量，不就地修改），
        由 `AveragedModel` 把结果 `copy_` 回平均张量。第三个参数不用。

    === "English"

        The returned function computes and **returns** `decay * W_ema + (1 - decay) * W_model`
        (a new tensor, nothing in place); `AveragedModel` `copy_`s the result into the averaged
        tensor. The third argument is unused.

    Args:
        decay: Weight of the old average, in `[0, 1]`. / 旧平均值的权重，取值在 `[0, 1]`。

    Returns:
        `ema_update`, run under `torch.no_grad()`. / `ema_update`，在 `torch.no_grad()` 下运行。

    Raises:
        ValueError: `decay` outside `[0, 1]`. / `decay` 不在 `[0, 1]` 内。

    Examples:
        >>> import torch
        >>> from annotated_optim import swa_utils
        >>> swa_utils.get_ema_avg_fn(0.75)(torch.zeros(2), torch.ones(2), 1)
        tensor([0.2500, 0.2500])
    """
    # 中: 与 multi 版本相同的检查与报错文本。
    # EN: The same check and message as in the multi version.
    if decay < 0.0 or decay > 1.0:
        raise ValueError(
            f"Invalid decay value {decay} provided. Please provide a value in [0,1] range."
        )

    @torch.no_grad()
    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged: Any) -> Tensor:
        r"""Return the new EMA value of one tensor. / 返回单个张量新的 EMA 值。

        === "中文"

            按 `decay * ema_param + (1 - decay) * current_param` 的顺序计算，
            舍入与 torch 完全相同。

        === "English"

            Computed as `decay * ema_param + (1 - decay) * current_param`, in this order, so
            that the rounding is exactly torch's.

        Args:
            ema_param: The current average. / 当前的平均值。
            current_param: The model's current tensor. / 模型当前的张量。
            num_averaged: Models averaged so far (unused). / 已平均的模型数（不使用）。

        Returns:
            The new average. / 新的平均值。
        """
        return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable[[Tensor, Tensor, Tensor | int], Tensor]:
    r"""Make an equal-weight (SWA) update for one tensor. / 生成对单个张量做等权（SWA）平均的函数。

    === "中文"

        返回的函数计算并返回 `W_avg + (W_model - W_avg) / (n + 1)`。`AveragedModel` 不给任何
        平均函数、而设备又没有 foreach 内核（例如 CPU）时，用的就是它。

    === "English"

        The returned function computes and returns `W_avg + (W_model - W_avg) / (n + 1)`.
        `AveragedModel` uses it when no averaging function is given and the device has no
        foreach kernels (the CPU, for one).

    Returns:
        `swa_update`, run under `torch.no_grad()`. / `swa_update`，在 `torch.no_grad()` 下运行。

    Examples:
        >>> import torch
        >>> from annotated_optim import swa_utils
        >>> swa_utils.get_swa_avg_fn()(torch.zeros(2), torch.ones(2), 3)
        tensor([0.2500, 0.2500])
    """

    @torch.no_grad()
    def swa_update(
        averaged_param: Tensor, current_param: Tensor, num_averaged: Tensor | int
    ) -> Tensor:
        r"""Return the new running mean of one tensor. / 返回单个张量新的累计平均。

        === "中文"

            `num_averaged` 是整型张量时，除法是真除法，结果是浮点。

        === "English"

            With an integer tensor `num_averaged` the division is a true division and the
            result is floating point.

        Args:
            averaged_param: The current average. / 当前的平均值。
            current_param: The model's current tensor. / 模型当前的张量。
            num_averaged: Models averaged so far. / 已平均的模型数。

        Returns:
            The new average. / 新的平均值。
        """
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(nn.Module):
    r"""A copy of a model that keeps a running average of its weights (SWA or EMA). / 保存模型权重滑动平均（SWA 或 EMA）的模型副本。

    === "中文"

        构造时对 `model` 做深拷贝（给了 `device` 就移到该设备上），登记为子模块 `module`，
        并登记一个 `int64` 缓冲区 `n_averaged`（已平均的模型数，从 0 开始）。于是状态字典的
        键是 `n_averaged` 加上带 `module.` 前缀的模型的键；`avg_fn`、`multi_avg_fn` 是普通属性，
        不保存。前向传播直接交给 `module`。

        每次 [`update_parameters(model)`][annotated_optim.swa_utils.AveragedModel.update_parameters]：
        第一次把 `model` 的参数（`use_buffers=True` 时连同缓冲区）原样复制过来，以后按平均函数合并；默认是等权平均（SWA），
        `avg_fn`（逐张量）或 `multi_avg_fn`（逐组、就地）可以换成别的，例如
        [`get_ema_multi_avg_fn`][annotated_optim.swa_utils.get_ema_multi_avg_fn] 给出 EMA。
        两者不能同时给。

        缓冲区（如 BatchNorm 的滑动统计量）有两种处理：`use_buffers=False`（默认）时每次直接
        复制 `model` 的缓冲区，事后可用 [`update_bn`][annotated_optim.swa_utils.update_bn]
        按平均后的权重重算；`use_buffers=True` 时缓冲区与参数一起参与平均。

        `model` 可以是 annotated_nn 的模型，也可以是 `torch.nn` 的模型；后者的副本照样是子模块
        `module`（见 `__init__` 里的 DIFF 说明）。

    === "English"

        Construction deep-copies `model` (moved to `device` if given), registers the copy as the
        child `module`, and registers an `int64` buffer `n_averaged` (models averaged so far,
        starting at 0). The state_dict keys are therefore `n_averaged` followed by the model's
        keys under the prefix `module.`; `avg_fn` and `multi_avg_fn` are plain attributes and are
        not saved. The forward pass is handed to `module`.

        On each [`update_parameters(model)`][annotated_optim.swa_utils.AveragedModel.update_parameters]
        call, the first one copies the parameters of `model` (and, under `use_buffers=True`, its
        buffers) as they are, later ones merge them
        with an averaging function: an equal-weight average (SWA) by default, replaced by
        `avg_fn` (per tensor) or `multi_avg_fn` (per list, in place), e.g.
        [`get_ema_multi_avg_fn`][annotated_optim.swa_utils.get_ema_multi_avg_fn] for an EMA. The
        two cannot be given together.

        Buffers (BatchNorm's running statistics, say) are handled one of two ways: with
        `use_buffers=False` (the default) each call copies the buffers of `model`, and
        [`update_bn`][annotated_optim.swa_utils.update_bn] can recompute them for the averaged
        weights afterwards; with `use_buffers=True` buffers are averaged along with parameters.

        `model` may be an annotated_nn model or a `torch.nn` model; the copy of the latter is the
        child `module` all the same (see the DIFF note in `__init__`).

    Args:
        model: The model to average (annotated_nn or `torch.nn`). / 要平均的模型
            （annotated_nn 或 `torch.nn` 的）。
        device: Where the copy and `n_averaged` live; with `None` the copy stays on the
            model's devices and `n_averaged` is on the default device. / 副本与 `n_averaged`
            所在的设备；为 `None` 时副本留在模型原来的设备上，`n_averaged` 在默认设备上。
        avg_fn: `avg_fn(averaged, current, n_averaged)` returning the new average of one
            tensor. / `avg_fn(averaged, current, n_averaged)`，返回单个张量的新平均值。
        multi_avg_fn: `multi_avg_fn(averaged_list, current_list, n_averaged)` updating a list
            in place. / `multi_avg_fn(averaged_list, current_list, n_averaged)`，就地更新一组张量。
        use_buffers: Average buffers too, instead of copying them. / 缓冲区也参与平均，而不是直接复制。

    Raises:
        AssertionError: Both `avg_fn` and `multi_avg_fn` are given. / 同时给了 `avg_fn` 和 `multi_avg_fn`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_optim import swa_utils
        >>> model = nn.Linear(1, 1, bias=False)
        >>> swa = swa_utils.AveragedModel(model)
        >>> for value in (1.0, 2.0, 6.0):
        ...     _ = model.weight.data.fill_(value)
        ...     swa.update_parameters(model)
        >>> swa.module.weight.item(), swa.n_averaged.item()
        (3.0, 3)
        >>> list(swa.state_dict())
        ['n_averaged', 'module.weight']
    """

    n_averaged: Tensor

    def __init__(
        self,
        model: nn.Module | torch.nn.Module,
        device: int | torch.device | None = None,
        avg_fn: Callable[[Tensor, Tensor, Tensor | int], Tensor] | None = None,
        multi_avg_fn: Callable[[PARAM_LIST, PARAM_LIST, Tensor | int], None] | None = None,
        use_buffers: bool = False,
    ) -> None:
        r"""Copy the model, register `n_averaged`, keep the options. / 复制模型、登记 `n_averaged`、保存选项。

        === "中文"

            顺序与 torch 相同：先 `Module.__init__`，再检查两个平均函数，再复制模型。

        === "English"

            The order is torch's: `Module.__init__` first, then the check of the two averaging
            functions, then the copy of the model.

        Args:
            model: The model to average. / 要平均的模型。
            device: Device of the copy, or `None`. / 副本所在的设备，或 `None`。
            avg_fn: Per-tensor averaging function, or `None`. / 逐张量的平均函数，或 `None`。
            multi_avg_fn: Per-list averaging function, or `None`. / 逐组的平均函数，或 `None`。
            use_buffers: Average buffers too. / 缓冲区也参与平均。
        """
        super().__init__()
        # 中: torch 用的是 AssertionError（不是 ValueError），这里照样抛出，文本相同。
        # EN: torch raises an AssertionError (not a ValueError); so do we, with the same text.
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        # 中: 两次赋值与 torch 相同：先赋深拷贝，移动设备后再赋一次（`to()` 返回同一个对象）。
        # 中: 两次都经过 `Module.__setattr__`，全局模块注册钩子各运行一次；torch 的模型也一样，
        # 中: 因为我们的 `Module` 是 `torch.nn.Module` 的子类，任何 torch 模块都会登记为子模块。
        # EN: Two assignments, as in torch: the deep copy, then again after the move (`to()` returns
        # EN: the same object). Both go through `Module.__setattr__`, so the global module
        # EN: registration hooks run once each; a torch model's copy too, since our `Module`
        # EN: subclasses `torch.nn.Module` and any torch module is registered as a child.
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        # 中: 计数器是缓冲区：随 `to()` 迁移、写进状态字典，恢复检查点后平均能接着做。
        # EN: The counter is a buffer: it moves with `to()` and is saved in the state_dict, so
        # EN: averaging continues correctly after a checkpoint is loaded.
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        r"""Run the averaged copy. / 运行平均后的副本。

        === "中文"

            原样转发所有参数给 `module`，返回它的输出。

        === "English"

            Forwards every argument to `module` unchanged and returns its output.

        Args:
            *args: Positional inputs. / 位置参数输入。
            **kwargs: Keyword inputs. / 关键字参数输入。

        Returns:
            The output of `module`. / `module` 的输出。
        """
        return self.module(*args, **kwargs)

    def update_parameters(self, model: nn.Module | torch.nn.Module) -> None:
        r"""Fold the current weights of `model` into the average. / 把 `model` 当前的权重并入平均。

        === "中文"

            1. 把两边的张量按顺序配对：`use_buffers=True` 时是参数再接缓冲区，否则只有参数；
               模型的张量先 `detach()` 并移到平均张量所在的设备。配对用不严格的 `zip`，
               张量个数不同时多出来的被静默忽略。`n_averaged == 0`（第一次）时直接复制。
            2. `n_averaged > 0` 时按平均函数合并（见 Note [Which averaging path runs]）。
            3. `use_buffers=False` 时，把 `model` 的缓冲区复制过来（这里用严格的 `zip`，
               缓冲区个数不同会抛出 `ValueError`）。
            4. `n_averaged` 加一。

        === "English"

            1. Pair the tensors of both sides in order: parameters followed by buffers under
               `use_buffers=True`, parameters only otherwise; the model's tensors are
               `detach()`ed and moved to the device of the averaged tensor. The pairing uses a
               non-strict `zip`: extra tensors on either side are silently ignored. With
               `n_averaged == 0` (the first call) they are simply copied.
            2. With `n_averaged > 0`, merge them with the averaging function (see
               Note [Which averaging path runs]).
            3. With `use_buffers=False`, copy the buffers of `model` over (a strict `zip`
               here: different buffer counts raise a `ValueError`).
            4. Add one to `n_averaged`.

        Note: Note [Which averaging path runs] 走哪条平均路径
            === "中文"

                - 给了 `multi_avg_fn`：张量按（设备, 数据类型）分组，每组调用一次，
                  `n_averaged` 先移到该组的设备上。
                - 两个都没给：同样分组；设备类型在 foreach 内核支持列表里（torch 2.13 中是
                  `cuda`、`xpu`、`mtia`、`privateuseone`）时用
                  [`get_swa_multi_avg_fn`][annotated_optim.swa_utils.get_swa_multi_avg_fn]，
                  否则（例如 CPU）逐个张量用
                  [`get_swa_avg_fn`][annotated_optim.swa_utils.get_swa_avg_fn]。前者用 lerp，
                  后者用加减除，舍入不同，所以同一训练在 GPU 与 CPU 上的平均值末位可能不同。
                  在前一类设备上，`use_buffers=True` 且模型有整数缓冲区时，那一组会抛出
                  `RuntimeError`（见 `get_swa_multi_avg_fn`）；CPU 上不会，整数的平均值在写回时被截断。
                - 只给了 `avg_fn`：不分组，逐个张量调用，返回值 `copy_` 回平均张量。

            === "English"

                - `multi_avg_fn` given: the tensors are grouped by (device, dtype) and it is
                  called once per group, with `n_averaged` moved to the group's device first.
                - Neither given: the same grouping; on a device type in the foreach-kernel list
                  (`cuda`, `xpu`, `mtia`, `privateuseone` in torch 2.13)
                  [`get_swa_multi_avg_fn`][annotated_optim.swa_utils.get_swa_multi_avg_fn] is
                  used, otherwise (the CPU, for one)
                  [`get_swa_avg_fn`][annotated_optim.swa_utils.get_swa_avg_fn] tensor by tensor.
                  The former uses lerp, the latter add, subtract and divide; they round
                  differently, so the same training may give averages that differ in the last
                  bits on a GPU and on the CPU. On a device of the first kind, `use_buffers=True`
                  with an integer buffer in the model raises a `RuntimeError` for that group
                  (see `get_swa_multi_avg_fn`); on the CPU it does not, and the integer average
                  is truncated on write.
                - Only `avg_fn` given: no grouping; it is called tensor by tensor and its result
                  is `copy_`ed into the averaged tensor.

        Args:
            model: The model whose weights are folded in (annotated_nn or `torch.nn`). /
                要并入平均的模型（annotated_nn 或 `torch.nn` 的）。
        """
        # 中: 第 1 步。两边都是惰性的生成器，按同样的顺序产出（参数在前，缓冲区在后）。
        # 中: 不带缓冲区时用 `self.parameters()`——本对象自己没有参数，所以就是 `module` 的参数。
        # EN: Step 1. Both sides are lazy generators yielding in the same order (parameters, then
        # EN: buffers). Without buffers it is `self.parameters()`: this object has no parameters
        # EN: of its own, so these are those of `module`.
        if self.use_buffers:
            averaged_tensors = itertools.chain(self.module.parameters(), self.module.buffers())
            model_tensors = itertools.chain(model.parameters(), model.buffers())
        else:
            averaged_tensors = self.parameters()
            model_tensors = model.parameters()
        # 中: 配好的张量收进两张表，供第 2 步使用；`copy_param` 只读一次计数器，整个循环共用。
        # EN: The paired tensors are collected into two lists for step 2; `copy_param` reads the
        # EN: counter once for the whole loop.
        averaged_detached: list[Tensor] = []
        model_detached: list[Tensor] = []
        copy_param = bool(self.n_averaged == 0)
        # 中: 平均张量也 `detach()`：需要梯度的叶子参数在 `torch.no_grad()` 之外拒绝就地修改，
        # 中: 而本方法并不在 `torch.no_grad()` 下运行（用户的平均函数也未必）。
        # EN: The averaged tensors are `detach()`ed too: a leaf parameter that requires grad
        # EN: refuses in-place changes outside `torch.no_grad()`, and this method does not run
        # EN: under it (nor, perhaps, does the user's averaging function).
        for p_averaged, p_model in zip(averaged_tensors, model_tensors, strict=False):
            p_model_here = p_model.detach().to(p_averaged.device)
            averaged_detached.append(p_averaged.detach())
            model_detached.append(p_model_here)
            if copy_param:
                p_averaged.detach().copy_(p_model_here)

        # 中: 第 2 步，只在至少已有一个模型时；三条路径见 Note [Which averaging path runs]。
        # EN: Step 2, only once at least one model is in; the three paths are described in
        # EN: Note [Which averaging path runs].
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                self._average_grouped(averaged_detached, model_detached)
            else:
                # 中: 逐张量的 `avg_fn`：计数器移到每个张量自己的设备上。
                # EN: Per-tensor `avg_fn`: the counter goes to each tensor's own device.
                for p_averaged, p_model in zip(averaged_detached, model_detached, strict=True):
                    n_averaged = self.n_averaged.to(p_averaged.device)
                    p_averaged.detach().copy_(self.avg_fn(p_averaged.detach(), p_model, n_averaged))

        # 中: 第 3 步：缓冲区不参与平均时与 `model` 保持一致。
        # EN: Step 3: buffers that are not averaged are kept equal to those of `model`.
        if not self.use_buffers:
            for b_averaged, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_averaged.detach().copy_(b_model.detach().to(b_averaged.device))
        # 中: 第 4 步：就地加一，缓冲区还是同一个张量。
        # EN: Step 4: an in-place increment; the buffer stays the same tensor.
        self.n_averaged += 1

    def _average_grouped(self, averaged: list[Tensor], current: list[Tensor]) -> None:
        r"""Average per (device, dtype) group: `multi_avg_fn` or the default SWA. / 按（设备, 数据类型）分组平均：`multi_avg_fn` 或默认的 SWA。

        === "中文"

            `_group_tensors_by_device_and_dtype`（torch 的分组工具）按两张表的第一张分组，
            配对关系保持不变。路径的选择见 Note [Which averaging path runs]。

        === "English"

            `_group_tensors_by_device_and_dtype` (torch's grouping utility) groups by the first
            list and keeps the pairs together. For the choice of path see
            Note [Which averaging path runs].

        Args:
            averaged: Detached averaged tensors, updated in place. / 已 detach 的平均张量，就地更新。
            current: The model's tensors, on the matching devices. / 模型的张量，已在对应设备上。
        """
        grouped = _group_tensors_by_device_and_dtype([averaged, current])
        for (device, _), ([averaged_group, current_group], _) in grouped.items():
            # 中: 用户的 `multi_avg_fn` 按真值判断（与 torch 同）；计数器先移到该组的设备上。
            # EN: The user's `multi_avg_fn` is tested for truth (as in torch); the counter is
            # EN: moved to the group's device first.
            if self.multi_avg_fn:
                self.multi_avg_fn(averaged_group, current_group, self.n_averaged.to(device))
            elif device is not None and device.type in _get_foreach_kernels_supported_devices():
                swa_multi = get_swa_multi_avg_fn()
                swa_multi(averaged_group, current_group, self.n_averaged.to(device))
            # 中: 没有 foreach 内核的设备（如 CPU）：逐个张量套用单张量的 SWA 公式。
            # EN: A device without foreach kernels (the CPU, say): the one-tensor SWA formula,
            # EN: tensor by tensor.
            else:
                swa_one = get_swa_avg_fn()
                n_averaged = self.n_averaged.to(device)
                for p_averaged, p_model in zip(averaged_group, current_group, strict=True):
                    p_averaged.copy_(swa_one(p_averaged, p_model, n_averaged))


@torch.no_grad()
def update_bn(
    loader: Iterable[Any],
    model: nn.Module | torch.nn.Module,
    device: int | torch.device | None = None,
) -> None:
    r"""Recompute the BatchNorm running statistics with one pass over the data. / 用数据跑一遍，重算 BatchNorm 的滑动统计量。

    === "中文"

        1. 找出模型里所有 BatchNorm 层（torch 的或 annotated_nn 的 `_BatchNorm` 子类），
           重置它们的滑动统计量，并记下各自的 `momentum`。一个都没有就直接返回，
           连训练模式都不改。
        2. 把模型切到训练模式，`momentum` 设为 `None`：这样 BatchNorm 求的是累计平均，
           跑完后统计量是所有批次的等权平均，而不偏向最后几批。
        3. 逐批前向传播；批次是列表或元组时只取第一个元素（通常是 `(input, target)`）；
           给了 `device` 就先移过去。输出丢弃，整个函数在 `torch.no_grad()` 下运行。
        4. 恢复各层的 `momentum`，并用 `model.train(was_training)` 恢复模式：这会把**所有**子模块
           设成顶层模块原来的模式，所以原本与顶层模式不同的子模块（例如训练中被设为 `eval()`
           的 BatchNorm）不会回到原来的模式（与 torch 同）。

        对 `AveragedModel` 用时，它的 `module` 里的 BatchNorm 都会被找到，不论是哪一边的。

    === "English"

        1. Find every BatchNorm layer of the model (a `_BatchNorm` subclass, torch's or
           annotated_nn's), reset its running statistics and remember its `momentum`. With none
           found it returns at once, without even touching the training mode.
        2. Put the model in training mode and set `momentum` to `None`: BatchNorm then keeps a
           cumulative average, so that after the pass the statistics weigh every batch equally
           instead of favoring the last ones.
        3. Run the forward pass batch by batch; a list or tuple batch contributes its first
           item only (usually `(input, target)`); with `device` given it is moved there first.
           The outputs are dropped, and the whole function runs under `torch.no_grad()`.
        4. Restore each layer's `momentum`, and the mode with `model.train(was_training)`: this
           sets **every** submodule to the top module's previous mode, so a submodule whose mode
           differed from the top one (a BatchNorm put in `eval()` during training, say) does not
           get its own mode back (as in torch).

        On an `AveragedModel` it finds every BatchNorm of its `module`, whichever library's.

    Args:
        loader: Batches: tensors, or lists/tuples whose first item is the input. / 批次：张量，
            或第一个元素是输入的列表/元组。
        model: The model whose BatchNorm statistics are recomputed. / 要重算 BatchNorm 统计量的模型。
        device: Where to move each input first, or `None`. / 输入先移到的设备，或 `None`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_optim import swa_utils
        >>> bn = nn.BatchNorm1d(1)
        >>> swa_utils.update_bn([torch.tensor([[1.0], [3.0]]), torch.tensor([[5.0], [7.0]])], bn)
        >>> bn.running_mean, bn.momentum, bn.training
        (tensor([4.]), 0.1, True)
    """
    # 中: 第 1 步。字典以层为键、按遍历顺序记下原来的 `momentum`。
    # EN: Step 1. The dict maps each layer, in traversal order, to its original `momentum`.
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BATCH_NORM_TYPES):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return

    # 中: 第 2 步：训练模式下 BatchNorm 才更新统计量；`momentum=None` 使它做累计平均。
    # EN: Step 2: BatchNorm updates its statistics only in training mode; `momentum=None` makes
    # EN: it keep a cumulative average.
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None

    # 中: 第 3 步：只要输入；`(input, target)` 这样的批次取第一个元素。
    # EN: Step 3: only the input matters; a batch such as `(input, target)` gives its first item.
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)

    # 中: 第 4 步：恢复原来的 `momentum` 与模式。`train()` 是递归的，所有子模块都取顶层模块的
    # 中: 模式；只要各子模块原本与顶层同一模式，模型除统计量外就与调用前相同。
    # EN: Step 4: the original `momentum`s and mode come back. `train()` is recursive, so every
    # EN: submodule takes the top module's mode; as long as the submodules shared that mode,
    # EN: the model is, apart from the statistics, as it was before the call.
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    r"""Anneal each param group's learning rate to a fixed SWA value. / 把每个参数组的学习率退火到固定的 SWA 值。

    === "中文"

        构造时把 `swa_lr`（一个值，或每个参数组一个值）写进各参数组的 `"swa_lr"` 键。之后第
        `t` 步（`t` 从 0 数起，构造时那一步是 `t = 0`）的学习率在当时的学习率与 `swa_lr` 之间
        插值，插值系数 `alpha = f(min(1, t / anneal_epochs))`，`f` 为：

        - `"cos"`：`(1 - cos(pi * x)) / 2`，先慢、后快、再慢；
        - `"linear"`：`x`。

        `anneal_epochs` 步后学习率停在 `swa_lr`；`anneal_epochs=0` 时构造时那一步就已到达。
        `t` 由 `_step_count` 数出，而不是 `last_epoch`：构造总是把 `_step_count` 从头数起，
        所以以 `last_epoch=k` 构造并不能让退火从第 `k` 步接着走（退火照样从构造时的学习率
        重新开始，只有 `last_epoch` 本身不同）；要接着退火，须用 `load_state_dict` 恢复
        调度器的状态（其中有 `_step_count`）。
        它是可链式的：每一步先从参数组的当前学习率反推出“起点”学习率，再按新的 `alpha` 插值，
        所以别的调度器先改过的学习率也会被接着退火。

        状态字典里不含 `optimizer` 与 `anneal_func`（函数对象），但含有 `_anneal_strategy`，
        加载后据此重新选出退火函数。

    === "English"

        Construction writes `swa_lr` (one value, or one per param group) into each group's
        `"swa_lr"` key. From then on, step `t` (counted from 0, the step at construction being
        `t = 0`) interpolates between the learning rate of the moment and `swa_lr`, with the
        factor `alpha = f(min(1, t / anneal_epochs))`, where `f` is:

        - `"cos"`: `(1 - cos(pi * x)) / 2`, slow, then fast, then slow;
        - `"linear"`: `x`.

        After `anneal_epochs` steps the learning rate rests at `swa_lr`; with
        `anneal_epochs=0` it is there already at the step of construction. `t` is counted by
        `_step_count`, not `last_epoch`: construction always starts `_step_count` afresh, so
        building with `last_epoch=k` does not make the annealing continue from step `k` (it
        starts again from the learning rate at construction; only `last_epoch` itself differs);
        to continue the annealing, restore the scheduler's state (which holds `_step_count`)
        with `load_state_dict`. It is chainable: each step first works back from the group's current learning rate to the "starting" learning rate, then
        interpolates with the new `alpha`, so a learning rate another scheduler changed first
        keeps being annealed from there.

        The state_dict leaves out `optimizer` and `anneal_func` (a function object) but holds
        `_anneal_strategy`, from which loading picks the annealing function again.

    Args:
        optimizer: The optimizer, torch's or annotated_optim's. / 优化器，torch 的或
            annotated_optim 的。
        swa_lr: The target learning rate, one value or one per param group. / 目标学习率，
            一个值或每个参数组一个值。
        anneal_epochs: Steps of the annealing phase, an int `>= 0`. / 退火阶段的步数，
            `>= 0` 的整数。
        anneal_strategy: `"cos"` or `"linear"`. / `"cos"` 或 `"linear"`。
        last_epoch: Index of the last epoch, `-1` to start afresh; it does not move the
            annealing, which counts `_step_count` (see above). / 最后一个 epoch 的序号，
            `-1` 表示从头开始；它不影响退火的进度，退火按 `_step_count` 计数（见上）。

    Raises:
        ValueError: A bad `anneal_strategy` or `anneal_epochs`, or a `swa_lr` list of the wrong
            length. / `anneal_strategy` 或 `anneal_epochs` 不合法，或 `swa_lr` 列表长度不对。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> from annotated_optim import swa_utils
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = swa_utils.SWALR(opt, swa_lr=0.5, anneal_epochs=2, anneal_strategy="linear")
        >>> for _ in range(3):
        ...     opt.step()
        ...     sched.step()
        ...     print(sched.get_last_lr())
        [0.75]
        [0.5]
        [0.5]
    """

    def __init__(
        self,
        optimizer: Optimizer | torch.optim.Optimizer,
        swa_lr: float | list[float] | tuple[float, ...],
        anneal_epochs: int = 10,
        anneal_strategy: Literal["cos", "linear"] = "cos",
        last_epoch: int = -1,
    ) -> None:
        r"""Store `swa_lr` in the groups, check the options, take the first step. / 把 `swa_lr` 写入参数组、检查选项、走第一步。

        === "中文"

            顺序与 torch 相同：`swa_lr` 在检查选项之前就已写进参数组，所以选项不合法时
            参数组里也已经有了 `"swa_lr"`。属性的设置顺序决定 `state_dict()` 的键序，同样照 torch。

        === "English"

            The order is torch's: `swa_lr` is written into the groups before the options are
            checked, so a group holds `"swa_lr"` even when an option is then refused. The order
            in which attributes are set decides the key order of `state_dict()`, also as in
            torch.

        Args:
            optimizer: The optimizer. / 优化器。
            swa_lr: Target learning rate(s). / 目标学习率。
            anneal_epochs: Length of the annealing phase. / 退火阶段的步数。
            anneal_strategy: `"cos"` or `"linear"`. / `"cos"` 或 `"linear"`。
            last_epoch: `-1`, or the last epoch seen; the annealing does not follow it (see the class). / `-1`，或已过的最后一个 epoch；退火进度不随它变（见类说明）。
        """
        # 中: `_format_param` 检查列表长度、把单个值展开，并复制张量值。
        # EN: `_format_param` checks a list's length, spreads a single value and clones tensors.
        swa_lrs = _format_param("swa_lr", optimizer, swa_lr)
        for group_swa_lr, group in zip(swa_lrs, optimizer.param_groups, strict=True):
            group["swa_lr"] = group_swa_lr
        # 中: 两项检查，文本与 torch 相同；`anneal_epochs` 必须是真正的 `int`（`2.0` 也被拒绝，
        # 中: `True` 作为 `int` 的子类则能通过）。
        # EN: Two checks with torch's texts; `anneal_epochs` must be a real `int` (`2.0` is
        # EN: refused, while `True`, a subclass of `int`, passes).
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        # 中: 策略合法后立即选出退火函数，再检查 `anneal_epochs`（torch 的顺序，决定属性的先后）。
        # EN: A valid strategy picks its annealing function at once; `anneal_epochs` is checked
        # EN: after that (torch's order, which fixes the order of the attributes).
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        r"""Linear annealing: the factor is the progress itself. / 线性退火：系数就是进度本身。

        === "中文"

            `anneal_strategy="linear"` 时的 `anneal_func`：插值系数随进度匀速增长。

        === "English"

            The `anneal_func` of `anneal_strategy="linear"`: the factor grows at a constant
            rate with the progress.

        Args:
            t: Progress in `[0, 1]`. / 进度，取值在 `[0, 1]`。

        Returns:
            `t`. / `t`。
        """
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        r"""Cosine annealing: a half cosine from 0 to 1. / 余弦退火：从 0 到 1 的半个余弦。

        === "中文"

            `anneal_strategy="cos"` 时的 `anneal_func`：两端斜率为 0，中点 `t = 0.5` 处取值 0.5。

        === "English"

            The `anneal_func` of `anneal_strategy="cos"`: slope 0 at both ends, value 0.5 at
            the middle `t = 0.5`.

        Args:
            t: Progress in `[0, 1]`. / 进度，取值在 `[0, 1]`。

        Returns:
            `(1 - cos(pi * t)) / 2`. / `(1 - cos(pi * t)) / 2`。
        """
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float | Tensor, swa_lr: float | Tensor, alpha: float) -> Any:
        r"""Work back from an interpolated learning rate to its start. / 从插值后的学习率反推起点。

        === "中文"

            `lr = alpha * swa_lr + (1 - alpha) * start`，解出 `start`。`alpha == 1` 时方程
            不定，直接返回 `swa_lr`。

        === "English"

            Solves `lr = alpha * swa_lr + (1 - alpha) * start` for `start`. With `alpha == 1`
            the equation has no unique solution, and `swa_lr` is returned.

        Args:
            lr: The current learning rate. / 当前学习率。
            swa_lr: The target learning rate. / 目标学习率。
            alpha: The factor used to reach `lr`. / 得到 `lr` 时用的插值系数。

        Returns:
            The starting learning rate. / 起点学习率。
        """
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list[float | Tensor]:
        r"""Compute the next learning rate of each param group. / 计算每个参数组下一步的学习率。

        === "中文"

            设 `step = _step_count - 1`（`anneal_epochs == 0` 时至少取 1）。先用上一步的系数
            `prev_alpha` 从当前学习率反推出起点，再用本步的系数 `alpha` 在起点与 `swa_lr`
            之间插值。在 `step()` 之外调用会发出提示改用 `get_last_lr()` 的 `UserWarning`。

        === "English"

            Let `step = _step_count - 1` (at least 1 when `anneal_epochs == 0`). The previous
            factor `prev_alpha` works back from the current learning rate to the start; the
            factor `alpha` of this step then interpolates between that start and `swa_lr`.
            Called outside `step()` it issues a `UserWarning` pointing to `get_last_lr()`.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        # 中: 警告文本与 `stacklevel=2` 与 torch 相同，指向调用 `get_lr()` 的那一行。
        # EN: torch's warning text and `stacklevel=2`, pointing at the line that called `get_lr()`.
        if not self._get_lr_called_within_step:
            warnings.warn(
                "To get the last learning rate computed by the scheduler, "
                "please use `get_last_lr()`.",
                UserWarning,
                stacklevel=2,
            )
        # 中: `_step_count` 已被 `step()` 加过一，减一得到本步的序号（构造时为 0）。
        # 中: `anneal_epochs == 0` 时从 1 算起，构造时那一步就用上 `alpha = 1`。
        # EN: `step()` has already incremented `_step_count`; minus one is this step's index
        # EN: (0 at construction). With `anneal_epochs == 0` it counts from 1, so the step of
        # EN: construction already uses `alpha = 1`.
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        # 中: 上一步的系数：反推出每组的起点学习率。
        # EN: The previous step's factor: work back to each group's starting learning rate.
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        start_lrs = [
            self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
            for group in self.optimizer.param_groups
        ]
        # 中: 本步的系数：在起点与 `swa_lr` 之间插值（运算顺序照 torch，结果逐位相同）。
        # EN: This step's factor: interpolate between the start and `swa_lr` (torch's order of
        # EN: operations, so the results match bit for bit).
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [
            group["swa_lr"] * alpha + start_lr * (1 - alpha)
            for group, start_lr in zip(self.optimizer.param_groups, start_lrs, strict=True)
        ]

    def _set_anneal_func(self, anneal_strategy: Literal["cos", "linear"]) -> None:
        r"""Remember the strategy's name and pick its function. / 记下策略名并选出对应的函数。

        === "中文"

            名字 `_anneal_strategy` 进入状态字典，函数 `anneal_func` 不进；
            [`load_state_dict`][annotated_optim.swa_utils.SWALR.load_state_dict] 借此重新选出函数。

        === "English"

            The name `_anneal_strategy` goes into the state_dict, the function `anneal_func`
            does not; [`load_state_dict`][annotated_optim.swa_utils.SWALR.load_state_dict]
            uses the name to pick the function again.

        Args:
            anneal_strategy: `"cos"` or `"linear"`. / `"cos"` 或 `"linear"`。
        """
        self._anneal_strategy = anneal_strategy
        if anneal_strategy == "cos":
            self.anneal_func = self._cosine_anneal
        else:
            self.anneal_func = self._linear_anneal

    def state_dict(self) -> dict[str, Any]:
        r"""Return the scheduler's attributes except the optimizer and the function. / 返回除优化器与退火函数以外的属性。

        === "中文"

            实例 `__dict__` 中除 `optimizer`、`anneal_func` 之外的全部条目（新字典，值不复制）。

        === "English"

            Every entry of the instance's `__dict__` except `optimizer` and `anneal_func` (a new
            dict; the values are not copied).

        Returns:
            The scheduler's state. / 调度器的状态。
        """
        return {
            key: value
            for key, value in self.__dict__.items()
            if key not in ("optimizer", "anneal_func")
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Restore the attributes, then pick the annealing function again. / 恢复属性，再重新选出退火函数。

        === "中文"

            与基类一样直接更新 `__dict__`，之后按 `_anneal_strategy` 重设 `anneal_func`。

        === "English"

            Updates `__dict__` as the base class does, then sets `anneal_func` again from
            `_anneal_strategy`.

        Args:
            state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。
        """
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
