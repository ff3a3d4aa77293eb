r"""Learning-rate schedulers; mirrors `torch.optim.lr_scheduler`. / 学习率调度器，对应 `torch.optim.lr_scheduler`。

=== "中文"

    调度器（scheduler）不更新参数，它只改写优化器（optimizer）每个参数组（param group）里的
    `group["lr"]`（有的还改 `momentum` 或 `betas`）。训练循环在每个 epoch（或每个 batch）
    的 `optimizer.step()` 之后调用一次 `scheduler.step()`：计数器 `last_epoch` 加一，
    调度器算出新的学习率（learning rate）写回参数组，并把写回后的值复制一份存进
    `_last_lr`，供 `get_last_lr()` 返回。构造调度器时就已经走了一步（`last_epoch` 从 `-1`
    变成 `0`），所以刚构造好时参数组里已经是第 0 步的学习率。

    学习率有两种算法：

    - 可链式（chainable）形式 `get_lr()`：由参数组里**当前**的学习率推出下一步的学习率，
      例如 `StepLR` 在到达边界时把当前值乘以 `gamma`，其余时候原样返回。这样几个调度器可以
      依次作用在同一个优化器上（见 `ChainedScheduler`），每个都只乘上自己的那一份因子。
      并非每个 `get_lr()` 都是可链式的：`LambdaLR`、`CyclicLR`、`CosineAnnealingWarmRestarts`、
      `OneCycleLR` 每一步都由基础值（`base_lrs` 或参数组里记下的端点）重新算，别处对 `lr`
      的改动在下一步就被覆盖。
    - 闭式（closed form）`_get_closed_form_lr()`：只由 `base_lrs` 和 `last_epoch` 算出学习率，
      与当前值无关。只有 `StepLR`、`MultiStepLR`、`ConstantLR`、`LinearLR`、`ExponentialLR`、
      `PolynomialLR`、`CosineAnnealingLR` 提供它；仅在已弃用的 `step(epoch)` 跳到任意 epoch
      时（以及 `SequentialLR` 到达里程碑时）使用。

    两种形式在数学上相同，但浮点运算顺序不同，结果不一定逐位相等；本模块在每个调度器里
    都按 torch 的运算顺序计算，使学习率序列与 torch 逐位一致。

=== "English"

    A scheduler updates no parameter: it rewrites `group["lr"]` (for some also `momentum` or
    `betas`) in each param group of an optimizer. A training loop calls `scheduler.step()` once
    per epoch (or per batch), after `optimizer.step()`: the counter `last_epoch` goes up by one,
    the scheduler computes the new learning rates, writes them into the param groups, and keeps
    a copy of the written values in `_last_lr`, which `get_last_lr()` returns. Building a
    scheduler already takes one step (`last_epoch` goes from `-1` to `0`), so right after
    construction the param groups hold the learning rates of step 0.

    There are two ways to compute a learning rate:

    - The chainable form `get_lr()` derives the next learning rate from the **current** one in
      the param group; `StepLR`, for example, multiplies the current value by `gamma` at a
      boundary and returns it unchanged otherwise. This lets several schedulers act on the same
      optimizer one after another (see `ChainedScheduler`), each multiplying in its own factor.
      Not every `get_lr()` is chainable: `LambdaLR`, `CyclicLR`, `CosineAnnealingWarmRestarts`
      and `OneCycleLR` recompute from base values (`base_lrs`, or end points recorded in the
      param groups) at every step, so a change made to `lr` elsewhere is overwritten at the
      next step.
    - The closed form `_get_closed_form_lr()` computes the learning rate from `base_lrs` and
      `last_epoch` alone, whatever the current value. Only `StepLR`, `MultiStepLR`,
      `ConstantLR`, `LinearLR`, `ExponentialLR`, `PolynomialLR` and `CosineAnnealingLR` have
      it; it is used only when the deprecated `step(epoch)` jumps to an arbitrary epoch (and
      when `SequentialLR` reaches a milestone).

    Both forms are equal in exact arithmetic but order their floating-point operations
    differently, so their results may differ in the last bits; every scheduler here computes in
    torch's order, so that the learning-rate sequences are identical to torch's bit for bit.
"""

from __future__ import annotations

import math
import types
import warnings
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import partial, wraps
from typing import Any, Literal, SupportsFloat, TypedDict
from weakref import ref

import torch
from torch import Tensor, inf

from annotated_optim.optimizer import Optimizer, _to_scalar

__all__ = [
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ConstantLR",
    "LinearLR",
    "ExponentialLR",
    "SequentialLR",
    "CosineAnnealingLR",
    "ChainedScheduler",
    "ReduceLROnPlateau",
    "CyclicLR",
    "CosineAnnealingWarmRestarts",
    "OneCycleLR",
    "PolynomialLR",
    "LRScheduler",
]

# 中: `step(epoch)` 传入 epoch 时发出的弃用警告全文；与 torch 逐字相同，
# 中: `ReduceLROnPlateau.step` 也用它。
# EN: The full text of the deprecation warning for `step(epoch)` with an epoch; word for word
# EN: torch's, and `ReduceLROnPlateau.step` uses it too.
EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being "
    "deprecated where possible. Please use `scheduler.step()` to step the "
    "scheduler. During the deprecation, if epoch is different from None, the "
    "closed form is used instead of the new chainable form, where available. "
    "Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose."
)

# 中: 两条步序警告的全文（与 torch 逐字相同），由 `LRScheduler.step` 在第二次调用时发出。
# EN: The full texts of the two step-order warnings (word for word torch's), issued by
# EN: `LRScheduler.step` on its second call.
_STEP_REPLACED_WARNING = (
    "Seems like `optimizer.step()` has been overridden after learning rate scheduler "
    "initialization. Please, make sure to call `optimizer.step()` before "
    "`lr_scheduler.step()`. See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)
_STEP_ORDER_WARNING = (
    "Detected call of `lr_scheduler.step()` before `optimizer.step()`. "
    "In PyTorch 1.1.0 and later, you should call them in the opposite order: "
    "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this "
    "will result in PyTorch skipping the first value of the learning rate schedule. "
    "See more details at "
    "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"
)


# 中: 以 `last_epoch >= 0` 恢复而参数组缺少 `initial_lr` 时的错误信息（与 torch 逐字相同）。
# EN: The error text when resuming with `last_epoch >= 0` and a param group lacks `initial_lr`
# EN: (word for word torch's).
_MISSING_INITIAL_LR = (
    "param 'initial_lr' is not specified in param_groups[{index}] when resuming scheduler "
    "with last_epoch >= 0.\n"
    "This typically happens when:\n"
    "1. You're trying to resume training from a checkpoint but haven't properly loaded the "
    "optimizer state\n"
    "2. You're using last_epoch >= 0 for a fresh training run (not recommended)"
)


def _format_param(name: str, optimizer: Optimizer, param: Any) -> list[Any]:
    r"""Spread one value, or check a per-group list, into one value per param group. / 把单个值展开为每个参数组一个值，或检查逐组列表的长度。

    === "中文"

        `CyclicLR`、`OneCycleLR` 的 `max_lr`、`base_lr`、`max_momentum` 等参数可以给一个值，
        也可以给一个与参数组一一对应的列表或元组。张量元素被 `clone()`，使调度器保存的值
        不与用户的张量共享存储。

    === "English"

        Arguments such as `max_lr`, `base_lr` or `max_momentum` of `CyclicLR` and `OneCycleLR`
        take either one value or a list or tuple with one value per param group. Tensor items
        are `clone()`d, so that the values the scheduler keeps share no storage with the user's
        tensors.

    Args:
        name: Argument name, used in the error message. / 参数名，用于错误信息。
        optimizer: The optimizer whose groups are counted. / 按其参数组计数的优化器。
        param: One value, or a list or tuple of them. / 单个值，或由值组成的列表或元组。

    Returns:
        A new list with one value per param group. / 新列表，每个参数组一个值。

    Raises:
        ValueError: A list or tuple of the wrong length. / 列表或元组长度不对。
    """
    # 中: 列表或元组必须与参数组等长；其他任何值（含张量）都视为"所有组同一个值"。
    # EN: A list or tuple must match the number of param groups; any other value (tensors
    # EN: included) means "the same value for every group".
    if isinstance(param, (list, tuple)):
        if len(param) != len(optimizer.param_groups):
            raise ValueError(
                f"{name} must have the same length as optimizer.param_groups. "
                f"{name} has {len(param)} values, param_groups has "
                f"{len(optimizer.param_groups)}."
            )
    else:
        # 中: 单个值：每个参数组先引用同一个对象，张量在下面各自复制，互不共享。
        # EN: One value: every param group refers to the same object first; tensors are cloned
        # EN: below, so that no two groups share one.
        param = [param] * len(optimizer.param_groups)
    return [value.clone() if isinstance(value, Tensor) else value for value in param]


def _param_groups_val_list(optimizer: Optimizer, key: str) -> list[Any]:
    r"""Copy `group[key]` of every param group into a new list. / 把每个参数组的 `group[key]` 复制进新列表。

    === "中文"

        学习率可以是张量（例如为 `torch.compile` 准备的 `lr=torch.tensor(0.1)`）。
        张量值被 `clone()`：调度器保存的 `base_lrs`、`_last_lr` 与参数组里的张量互不共享存储，
        用户就地修改 `get_last_lr()` 的结果不会改坏优化器的学习率，反之亦然。
        缺少该键的参数组引发 `KeyError`。

    === "English"

        A learning rate may be a tensor (e.g. `lr=torch.tensor(0.1)`, meant for
        `torch.compile`). Tensor values are `clone()`d: the scheduler's `base_lrs` and
        `_last_lr` share no storage with the tensors in the param groups, so a user who edits
        the result of `get_last_lr()` in place cannot corrupt the optimizer's learning rates,
        nor the other way round. A param group missing the key raises `KeyError`.

    Args:
        optimizer: The optimizer to read. / 要读取的优化器。
        key: The param group entry, e.g. `"lr"`. / 参数组的键，例如 `"lr"`。

    Returns:
        One value per param group, tensors cloned. / 每个参数组一个值，张量已复制。
    """
    return [
        group[key].clone() if isinstance(group[key], Tensor) else group[key]
        for group in optimizer.param_groups
    ]


def _update_param_group_val(param_group: dict[str, Any], key: str, val: float | Tensor) -> None:
    r"""Write a value into `param_group[key]`, in place when the entry is a tensor. / 把值写入 `param_group[key]`；该项是张量时就地写入。

    === "中文"

        若参数组里现有的值是张量，就用 `fill_` 就地写入，而不是换成新对象：张量学习率的
        身份保持不变（被编译的 `step` 可能捕获了它），也不会与 `val` 共享存储。
        `val` 若是多维的单元素张量，先经 `_to_scalar` 压成零维，`fill_` 才接受。
        现有值不是张量时直接赋值。缺少该键时引发 `KeyError`。

    === "English"

        If the value already in the param group is a tensor, it is written in place with
        `fill_` instead of being replaced: a tensor learning rate keeps its identity (a
        compiled `step` may have captured it) and shares no storage with `val`. A
        one-element `val` with dimensions is first squeezed to zero dimensions by `_to_scalar`,
        as `fill_` requires. A non-tensor entry is simply assigned. A missing key raises
        `KeyError`.

    Args:
        param_group: The param group to change. / 要修改的参数组。
        key: The entry, e.g. `"lr"`. / 要写的键，例如 `"lr"`。
        val: The new value. / 新值。
    """
    if isinstance(param_group[key], Tensor):
        param_group[key].fill_(_to_scalar(val))
    else:
        param_group[key] = val


class LRScheduler:
    r"""Base class of the learning-rate schedulers. / 学习率调度器的基类。

    === "中文"

        构造时做四件事：

        1. 检查 `optimizer` 确实是优化器。
        2. `last_epoch == -1`（全新开始）时，把每个参数组当前的 `lr` 记为 `initial_lr`
           （已有的不覆盖）；否则（从检查点恢复）要求每个组都已有 `initial_lr`。
           `base_lrs` 是这些 `initial_lr` 的副本。
        3. 包装优化器实例的 `step`，使它被调用时记下 `optimizer._opt_called = True`，
           以便检测"先调 `scheduler.step()` 后调 `optimizer.step()`"的错误顺序。
        4. 调用一次 `step()`（`_initial_step`），`last_epoch` 加一并写入第一个学习率。

        子类实现 `get_lr()`（大多是可链式形式，见模块文档），可另外提供 `_get_closed_form_lr()`
        （闭式）。
        `get_lr()` 应只在 `step()` 内部调用；在外部调用会收到提示改用 `get_last_lr()` 的警告，
        因为链式形式的结果取决于当前学习率，在 `step()` 之外调用得到的不是"当前"学习率。

        注意：构造调度器会改写参数组的 `lr`。从检查点恢复时，应先构造调度器，再调用优化器的
        `load_state_dict`，否则载入的学习率会被覆盖。

    === "English"

        Construction does four things:

        1. Check that `optimizer` really is an optimizer.
        2. With `last_epoch == -1` (a fresh start), record each param group's current `lr` as
           `initial_lr` (an existing one is kept); otherwise (resuming from a checkpoint),
           require every group to have `initial_lr` already. `base_lrs` is a copy of these
           `initial_lr`s.
        3. Wrap the optimizer instance's `step` so that calling it records
           `optimizer._opt_called = True`, which lets the scheduler detect the wrong order
           "`scheduler.step()` before `optimizer.step()`".
        4. Call `step()` once (`_initial_step`): `last_epoch` goes up by one and the first
           learning rates are written.

        Subclasses implement `get_lr()` (for most of them the chainable form; see the module
        docstring) and may also provide `_get_closed_form_lr()` (the closed form). `get_lr()`
        is meant to be called only inside `step()`; a call from outside warns and points to
        `get_last_lr()`, since the chainable result depends on the current learning rate and
        so is not "the current learning rate" when called outside `step()`.

        Note that building a scheduler rewrites the param groups' `lr`. When resuming from a
        checkpoint, build the scheduler first and call the optimizer's `load_state_dict`
        afterwards, or the loaded learning rates are overwritten.

    Args:
        optimizer: The optimizer whose learning rates are scheduled. / 被调度学习率的优化器。
        last_epoch: Index of the last epoch seen; `-1` starts afresh, other values only to
            resume from a checkpoint. / 已经过的最后一个 epoch 的序号；`-1` 表示从头开始，
            其他值只用于从检查点恢复。

    Raises:
        TypeError: `optimizer` is not an optimizer. / `optimizer` 不是优化器。
        KeyError: Resuming (`last_epoch != -1`) with a group lacking `initial_lr`. /
            恢复（`last_epoch != -1`）时某个参数组没有 `initial_lr`。
    """

    # 中: 两个类级默认值，由 `_enable_get_lr_call`、`_initial_mode` 在实例上临时改为 True。
    # 中: 第一次进入这些上下文后它们就成了实例属性，因而出现在 `state_dict()` 里（与 torch 同）。
    # EN: Two class-level defaults, set to True on the instance for a while by
    # EN: `_enable_get_lr_call` and `_initial_mode`. Once those contexts have run they are
    # EN: instance attributes, and so appear in `state_dict()` (as in torch).
    _get_lr_called_within_step: bool = False
    _is_initial: bool = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        r"""Record base learning rates, watch `optimizer.step`, take the first step. / 记录基础学习率，监视 `optimizer.step`，走第一步。

        === "中文"

            步骤编号与类文档相同。

        === "English"

            The steps are numbered as in the class docstring.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        # 中: 与 torch 相同只接受 `torch.optim.Optimizer`；本项目的优化器是它的子类，也被接受。
        # EN: As in torch only a `torch.optim.Optimizer` is accepted; our optimizers subclass it and
        # EN: pass too.
        if not isinstance(optimizer, torch.optim.Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        # 中: 第 2 步：全新开始时用 `setdefault` 记下 `initial_lr`——同一优化器上的第二个调度器
        # 中: （如 `SequentialLR` 的子调度器）看到的是第一个调度器记下的原始学习率，
        # 中: 而不是被它改过的当前值。张量学习率先复制，`initial_lr` 不与 `lr` 共享存储。
        # EN: Step 2: on a fresh start, `setdefault` records `initial_lr`, so a second scheduler
        # EN: on the same optimizer (e.g. a child of `SequentialLR`) sees the original learning
        # EN: rate the first one recorded, not the value it has since changed. A tensor learning
        # EN: rate is cloned first, so that `initial_lr` shares no storage with `lr`.
        if last_epoch == -1:
            for group in optimizer.param_groups:
                initial_lr = group["lr"]
                if isinstance(initial_lr, Tensor):
                    initial_lr = initial_lr.clone()
                group.setdefault("initial_lr", initial_lr)
        else:
            # 中: 恢复时 `initial_lr` 应已随优化器的 `load_state_dict` 回来；缺少就报错，
            # 中: 文本与 torch 相同。
            # EN: When resuming, `initial_lr` should have come back with the optimizer's
            # EN: `load_state_dict`; if it is missing that is an error, with torch's text.
            for index, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(_MISSING_INITIAL_LR.format(index=index))
        # 中: 属性的赋值顺序决定 `state_dict()` 的键顺序，与 torch 相同。
        # EN: The order of these assignments is the key order of `state_dict()`, as in torch.
        self.base_lrs: list[float | Tensor] = _param_groups_val_list(optimizer, "initial_lr")
        self.last_epoch = last_epoch

        # 中: 第 3、4 步。
        # EN: Steps 3 and 4.
        _watch_optimizer_step(optimizer)
        self._initial_step()

    def _initial_step(self) -> None:
        r"""Reset the step count and take the step made at construction. / 重置步数并走构造时的那一步。

        === "中文"

            `_initial_mode` 让 `get_lr()` 知道这是构造时的一步：检查它的调度器
            （`MultiplicativeLR`、`ExponentialLR`、`PolynomialLR`、`CosineAnnealingLR`，以及
            epoch 0 之后的 `LinearLR`）此时直接返回参数组里的当前学习率，不乘任何因子。
            `SequentialLR` 也调用它，让负责 epoch 0 的子调度器重新走第一步。

        === "English"

            `_initial_mode` tells `get_lr()` that this is the step of construction: the
            schedulers that check it (`MultiplicativeLR`, `ExponentialLR`, `PolynomialLR`,
            `CosineAnnealingLR`, and `LinearLR` past epoch 0) then return the current learning
            rates of the param groups without applying any factor. `SequentialLR` also calls
            it, to redo the first step of the child in charge of epoch 0.
        """
        self._step_count = 0
        with _initial_mode(self):
            self.step()

    def state_dict(self) -> dict[str, Any]:
        r"""Return the scheduler's attributes, except the optimizer. / 返回调度器的属性（不含优化器）。

        === "中文"

            状态就是实例的 `__dict__` 里除 `optimizer` 之外的全部条目（新字典，值不复制）。
            优化器不放进来：它有自己的 `state_dict`，且恢复时调度器会重新绑定到新的优化器上。

        === "English"

            The state is every entry of the instance's `__dict__` except `optimizer` (a new
            dict; the values are not copied). The optimizer is left out: it has its own
            `state_dict`, and on resuming the scheduler is bound to the new optimizer anew.

        Returns:
            The scheduler's state. / 调度器的状态。
        """
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Restore attributes from a dict made by `state_dict`. / 用 `state_dict` 生成的字典恢复属性。

        === "中文"

            直接用 `state_dict` 更新实例的 `__dict__`，不做任何检查；不改写参数组里的学习率，
            学习率由优化器自己的 `load_state_dict` 恢复。

        === "English"

            Updates the instance's `__dict__` with `state_dict` as is, without any check; the
            learning rates in the param groups are not touched: the optimizer's own
            `load_state_dict` restores them.

        Args:
            state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。
        """
        self.__dict__.update(state_dict)

    def get_last_lr(self) -> list[float | Tensor]:
        r"""Return the learning rates written by the latest step. / 返回最近一步写入的学习率。

        === "中文"

            每个参数组一个值，类型与其 `group["lr"]` 相同；张量是副本，不与参数组共享存储。
            返回的是调度器保存的同一个列表对象（不是每次新建）。

        === "English"

            One value per param group, of the same type as its `group["lr"]`; tensors are
            copies that share no storage with the param groups. The list returned is the one
            the scheduler keeps (not a new one per call).

        Returns:
            The latest learning rates. / 最近的学习率。

        Examples:
            >>> import torch, annotated_optim as optim
            >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
            >>> optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5).get_last_lr()
            [0.1]
        """
        return self._last_lr

    def get_lr(self) -> list[float | Tensor]:
        r"""Compute the next learning rates (the chainable form). / 计算下一步的学习率（可链式形式）。

        === "中文"

            由子类实现；基类引发 `NotImplementedError`。只应在 `step()` 内调用，
            查看当前学习率请用 `get_last_lr()`。

        === "English"

            Implemented by subclasses; the base class raises `NotImplementedError`. Meant to be
            called only from `step()`; to see the current learning rates use `get_last_lr()`.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。

        Raises:
            NotImplementedError: Always, in the base class. / 在基类中总是引发。
        """
        raise NotImplementedError

    def step(self, epoch: int | None = None) -> None:
        r"""Advance the schedule by one step and write the new learning rates. / 把调度推进一步并写入新学习率。

        === "中文"

            第二次调用 `step()`（构造时那一次之后的第一次）时检查调用顺序：

            - 优化器的 `step` 已不是调度器装上的包装（被用户换掉了），警告无法检测顺序；
            - 否则，若优化器的 `step` 从未经这个包装被调用过，警告"先调了
              `lr_scheduler.step()`"，这样会跳过调度表的第一个值。包装装上之前（构造调度器
              之前）调用的 `step` 不算：那时还没有记录，所以照样警告。

            传入 `epoch` 已弃用：发出 `EPOCH_DEPRECATION_WARNING`，把 `last_epoch` 设为 `epoch`，
            并在子类有闭式时用闭式计算。

        === "English"

            The second call of `step()` (the first after the one at construction) checks the
            call order:

            - if the optimizer's `step` is no longer the wrapper the scheduler installed (the
              user replaced it), warn that the order cannot be checked;
            - otherwise, if the optimizer's `step` was never called through that wrapper,
              warn that `lr_scheduler.step()` came first, which skips the first value of the
              schedule. A `step` called before the wrapper was installed (before the scheduler
              was built) does not count: nothing recorded it, so the warning still comes.

            Passing `epoch` is deprecated: it issues `EPOCH_DEPRECATION_WARNING`, sets
            `last_epoch` to `epoch`, and uses the closed form where the subclass has one.

        Args:
            epoch: Deprecated; the epoch to jump to. / 已弃用；要跳到的 epoch。
        """
        # 中: 只在 `_step_count == 1` 时检查一次。`stacklevel=2` 让警告指向调用 `step()` 的那一行。
        # EN: Checked once only, at `_step_count == 1`. `stacklevel=2` makes the warning point at
        # EN: the line that called `step()`.
        if self._step_count == 1:
            if not hasattr(self.optimizer.step, "_wrapped_by_lr_sched"):
                warnings.warn(_STEP_REPLACED_WARNING, UserWarning, stacklevel=2)
            elif not getattr(self.optimizer, "_opt_called", False):
                warnings.warn(_STEP_ORDER_WARNING, UserWarning, stacklevel=2)

        # 中: 先计数、再发弃用警告、最后计算并写入学习率。
        # EN: Count first, then the deprecation warning, then compute and write the rates.
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        r"""Move `last_epoch`, compute the learning rates, write them and keep a copy. / 推进 `last_epoch`，计算学习率，写回并留存副本。

        === "中文"

            没有 `epoch` 时 `last_epoch` 加一并调用 `get_lr()`；有 `epoch` 时把 `last_epoch`
            设为它，子类有 `_get_closed_form_lr` 就用闭式，否则仍用 `get_lr()`。计算在
            `_enable_get_lr_call` 内进行，因此 `get_lr()` 不会发出"请用 `get_last_lr()`"的警告。

        === "English"

            Without `epoch`, `last_epoch` goes up by one and `get_lr()` is called; with `epoch`,
            `last_epoch` is set to it and the closed form `_get_closed_form_lr` is used if the
            subclass has one, `get_lr()` otherwise. The computation runs inside
            `_enable_get_lr_call`, so `get_lr()` does not warn "use `get_last_lr()`".

        Args:
            epoch: The epoch to jump to, or `None` for the next one. / 要跳到的 epoch；`None` 表示下一个。
        """
        with _enable_get_lr_call(self):
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                # 中: 没有闭式的调度器（如 `LambdaLR`）跳到指定 epoch 时也用 `get_lr()`。
                # EN: A scheduler without a closed form (e.g. `LambdaLR`) uses `get_lr()` for a
                # EN: jump too.
                self.last_epoch = epoch
                if hasattr(self, "_get_closed_form_lr"):
                    values = self._get_closed_form_lr()
                else:
                    values = self.get_lr()

        # 中: `strict=True`：`get_lr()` 给出的个数与参数组数不符时引发 `ValueError`，而不是静默截断。
        # 中: `_last_lr` 从参数组重新读出（张量复制一份），与写入的值一致且不共享存储。
        # EN: `strict=True`: if `get_lr()` returns a different count than there are param
        # EN: groups, `ValueError` is raised instead of silently truncating. `_last_lr` is read
        # EN: back from the param groups (tensors cloned): equal to what was written, unshared.
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            _update_param_group_val(group, "lr", lr)
        self._last_lr: list[float | Tensor] = _param_groups_val_list(self.optimizer, "lr")


def _watch_optimizer_step(optimizer: Optimizer) -> None:
    r"""Wrap the optimizer instance's `step` to record that it was called. / 包装优化器实例的 `step`，记录它已被调用。

    === "中文"

        新的 `step` 存在实例上（遮住类上的方法），每次调用先设 `optimizer._opt_called = True`，
        再以原来的函数执行真正的一步。包装带有标记 `_wrapped_by_lr_sched`：同一优化器上的
        第二个调度器看到标记就不再包一层；`LRScheduler.step` 看不到标记时，就知道用户在
        构造调度器后替换了 `step`。

        包装只通过弱引用找到优化器：否则实例属性 `step` 会经闭包引用优化器自身，形成
        引用环，优化器要等到循环垃圾回收才能释放。

    === "English"

        The new `step` is stored on the instance (shadowing the class's method); each call first
        sets `optimizer._opt_called = True`, then runs the real step with the original function.
        The wrapper carries the mark `_wrapped_by_lr_sched`: a second scheduler on the same
        optimizer sees it and does not wrap again; when `LRScheduler.step` does not find it, it
        knows the user replaced `step` after building the scheduler.

        The wrapper finds the optimizer through a weak reference only: otherwise the instance
        attribute `step` would refer to the optimizer itself through its closure, a reference
        cycle that keeps the optimizer alive until cyclic garbage collection.

    Args:
        optimizer: The optimizer to watch. / 要监视的优化器。
    """
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return

    # 中: `__func__` 是绑定方法背后的函数（类级的、已带优化器钩子的 `step`）；每次调用时
    # 中: 重新绑定到弱引用取回的优化器上。`wraps` 保留原函数的名字和文档。
    # EN: `__func__` is the function behind the bound method (the class-level `step`, already
    # EN: carrying the optimizer's hooks); each call binds it afresh to the optimizer fetched
    # EN: from the weak reference. `wraps` keeps the original function's name and docstring.
    optimizer_ref = ref(optimizer)
    step_function = optimizer.step.__func__

    @wraps(step_function)
    def step_and_record(*args: Any, **kwargs: Any) -> Any:
        r"""Mark the optimizer as stepped, then run its real step. / 标记优化器已走过一步，再执行真正的一步。

        === "中文"

            标记先于真正的一步设置：即使这一步抛出异常，也算调用过。

        === "English"

            The mark is set before the real step: even a step that raises counts as called.

        Args:
            *args: Passed to the optimizer's `step`. / 传给优化器的 `step`。
            **kwargs: Passed to the optimizer's `step`. / 传给优化器的 `step`。

        Returns:
            What the optimizer's `step` returns. / 优化器的 `step` 的返回值。
        """
        stepped = optimizer_ref()
        stepped._opt_called = True
        return step_function.__get__(stepped, stepped.__class__)(*args, **kwargs)

    step_and_record._wrapped_by_lr_sched = True
    optimizer.step = step_and_record


def _warn_get_lr_called_within_step(lr_scheduler: LRScheduler) -> None:
    r"""Warn when `get_lr()` is called outside `step()`. / `get_lr()` 在 `step()` 之外被调用时发出警告。

    === "中文"

        每个 `get_lr()` 开头都调用它。`stacklevel=2` 使警告指向 `get_lr()` 内的调用处
        （与 torch 相同）。

    === "English"

        Every `get_lr()` calls it first. `stacklevel=2` makes the warning point at the call
        inside `get_lr()` (as in torch).

    Args:
        lr_scheduler: The scheduler whose `get_lr()` runs. / 正在执行 `get_lr()` 的调度器。
    """
    if not lr_scheduler._get_lr_called_within_step:
        warnings.warn(
            "To get the last learning rate computed by the scheduler, please use `get_last_lr()`.",
            UserWarning,
            stacklevel=2,
        )


class _LRScheduler(LRScheduler):
    r"""The old name of `LRScheduler`, kept for old code. / `LRScheduler` 的旧名字，为旧代码保留。

    === "中文"

        用子类而不是赋值 `_LRScheduler = LRScheduler`：这样它的 `__name__` 是 `_LRScheduler`，
        而 `isinstance(s, LRScheduler)` 仍对所有调度器成立。

    === "English"

        A subclass rather than the assignment `_LRScheduler = LRScheduler`: so its `__name__` is
        `_LRScheduler`, while `isinstance(s, LRScheduler)` still holds for every scheduler.
    """


class _enable_get_lr_call:
    r"""Context in which `get_lr()` is being called by `step()`. / 表示 `get_lr()` 正由 `step()` 调用的上下文。

    === "中文"

        进入时把调度器的 `_get_lr_called_within_step` 设为 True，退出时（含异常退出）设回 False。

    === "English"

        On entry sets the scheduler's `_get_lr_called_within_step` to True; on exit (an
        exception included) sets it back to False.

    Args:
        o: The scheduler. / 调度器。
    """

    def __init__(self, o: LRScheduler) -> None:
        r"""Remember the scheduler. / 记下调度器。

        === "中文"

            只保存引用，进入时才修改调度器。

        === "English"

            Only keeps a reference; the scheduler changes on entry.

        Args:
            o: The scheduler. / 调度器。
        """
        self.o = o

    def __enter__(self) -> _enable_get_lr_call:
        r"""Mark the scheduler as inside `step()`. / 标记调度器处于 `step()` 之内。

        === "中文"

            此后 `_warn_get_lr_called_within_step` 不再警告。

        === "English"

            From now on `_warn_get_lr_called_within_step` does not warn.

        Returns:
            This context. / 本上下文对象。
        """
        self.o._get_lr_called_within_step = True
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        r"""Clear the mark. / 清除标记。

        === "中文"

            返回 `None`，所以异常照常传播。

        === "English"

            Returns `None`, so an exception propagates as usual.

        Args:
            exc_type: Exception type, if any. / 异常类型（若有）。
            exc_value: Exception, if any. / 异常（若有）。
            traceback: Traceback, if any. / 回溯（若有）。
        """
        self.o._get_lr_called_within_step = False


class _initial_mode:
    r"""Context of the step taken at construction. / 构造时那一步的上下文。

    === "中文"

        进入时把调度器的 `_is_initial` 设为 True，退出时设回 False；`get_lr()` 据此区分
        构造时的一步与以后的各步。

    === "English"

        On entry sets the scheduler's `_is_initial` to True, on exit back to False; `get_lr()`
        tells the step of construction from later steps by it.

    Args:
        o: The scheduler. / 调度器。
    """

    def __init__(self, o: LRScheduler) -> None:
        r"""Remember the scheduler. / 记下调度器。

        === "中文"

            只保存引用，进入时才修改调度器。

        === "English"

            Only keeps a reference; the scheduler changes on entry.

        Args:
            o: The scheduler. / 调度器。
        """
        self.o = o

    def __enter__(self) -> None:
        r"""Mark the scheduler's initial step. / 标记调度器的初始步。

        === "中文"

            与 torch 相同，`with` 得到的是 `None`。

        === "English"

            As in torch, `with` binds `None`.
        """
        self.o._is_initial = True

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        r"""Clear the mark. / 清除标记。

        === "中文"

            返回 `None`，所以异常照常传播。

        === "English"

            Returns `None`, so an exception propagates as usual.

        Args:
            exc_type: Exception type, if any. / 异常类型（若有）。
            exc_value: Exception, if any. / 异常（若有）。
            traceback: Traceback, if any. / 回溯（若有）。
        """
        self.o._is_initial = False


def _lambdas_per_group(optimizer: Optimizer, lr_lambda: Any) -> list[Any]:
    r"""One multiplier function per param group, from one function or a list. / 由单个函数或列表得到每个参数组一个乘数函数。

    === "中文"

        `LambdaLR` 与 `MultiplicativeLR` 共用。不是列表或元组的值被重复给每个参数组
        （同一个对象重复多次）；列表或元组必须与参数组等长。这里不检查可调用性。

    === "English"

        Shared by `LambdaLR` and `MultiplicativeLR`. A value that is not a list or tuple is
        repeated for every param group (the same object several times); a list or tuple must
        have one item per param group. Callability is not checked here.

    Args:
        optimizer: The optimizer whose groups are counted. / 按其参数组计数的优化器。
        lr_lambda: A function, or a list or tuple of them. / 一个函数，或函数的列表或元组。

    Returns:
        A new list with one function per param group. / 新列表，每个参数组一个函数。

    Raises:
        ValueError: A list or tuple of the wrong length. / 列表或元组长度不对。
    """
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * len(optimizer.param_groups)
    if len(lr_lambda) != len(optimizer.param_groups):
        raise ValueError(
            f"Expected {len(optimizer.param_groups)} lr_lambdas, but got {len(lr_lambda)}"
        )
    return list(lr_lambda)


def _state_dict_with_lambdas(scheduler: LambdaLR | MultiplicativeLR) -> dict[str, Any]:
    r"""The state of a scheduler holding `lr_lambdas`, with what of them can be saved. / 含 `lr_lambdas` 的调度器的状态，只保存其中能保存的部分。

    === "中文"

        普通函数和 lambda（`types.FunctionType`）只记为 `None`（lambda 和嵌套函数无法被
        `torch.save` 所用的 pickle 序列化）；
        其他可调用对象（带 `__call__` 的类实例、`functools.partial` 等）保存其 `__dict__` 的
        浅拷贝，即对象自己的属性；没有 `__dict__` 的可调用对象（如内置函数 `math.cos`）使
        `state_dict()` 引发 `AttributeError`（与 torch 同）。`lr_lambdas` 放在字典最后。

    === "English"

        Plain functions and lambdas (`types.FunctionType`) are recorded as `None` (lambdas and
        nested functions cannot be pickled, which `torch.save` relies on); any other callable
        (an instance of a class with `__call__`, a `functools.partial`, ...) is saved as a
        shallow copy of its `__dict__`, i.e. the object's own attributes; a callable without a
        `__dict__` (a builtin such as `math.cos`) makes `state_dict()` raise `AttributeError`
        (as in torch). `lr_lambdas` comes last in the dict.

    Args:
        scheduler: A `LambdaLR` or `MultiplicativeLR`. / `LambdaLR` 或 `MultiplicativeLR`。

    Returns:
        The scheduler's state. / 调度器的状态。
    """
    state = {
        key: value
        for key, value in scheduler.__dict__.items()
        if key not in ("optimizer", "lr_lambdas")
    }
    # 中: 每个参数组一项，顺序与 `lr_lambdas` 相同。
    # EN: One item per param group, in the order of `lr_lambdas`.
    state["lr_lambdas"] = [
        None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
        for fn in scheduler.lr_lambdas
    ]
    return state


def _load_state_dict_with_lambdas(
    scheduler: LambdaLR | MultiplicativeLR, state_dict: dict[str, Any]
) -> None:
    r"""Restore a scheduler holding `lr_lambdas`, and the attributes of its callable objects. / 恢复含 `lr_lambdas` 的调度器及其可调用对象的属性。

    === "中文"

        `lr_lambdas` 一项不能直接写进 `__dict__`（那会用属性字典替换掉函数），所以先从
        `state_dict` 里暂时取出，其余项更新 `__dict__`，再把它放回 `state_dict`——调用者的
        字典仍保持原样（包括键的顺序变为 `lr_lambdas` 在最后）。保存过的属性字典被合并进
        现有函数对象的 `__dict__`；`None` 项（普通函数）保持调度器现有的函数。

    === "English"

        The `lr_lambdas` entry cannot go into `__dict__` as is (it would replace the functions
        with attribute dicts), so it is taken out of `state_dict` for a moment, the other
        entries update `__dict__`, and it is put back into `state_dict`: the caller's dict is
        left with the same contents (its key order now ends with `lr_lambdas`). Each saved
        attribute dict is merged into the `__dict__` of the existing function object; a
        `None` item (a plain function) keeps the scheduler's current function.

    Args:
        scheduler: A `LambdaLR` or `MultiplicativeLR`. / `LambdaLR` 或 `MultiplicativeLR`。
        state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。
    """
    saved_lambdas = state_dict.pop("lr_lambdas")
    scheduler.__dict__.update(state_dict)
    state_dict["lr_lambdas"] = saved_lambdas
    # 中: 按位置对应：第 i 个保存项属于调度器现有的第 i 个函数；保存项多于现有函数时
    # 中: 引发 `IndexError`（与 torch 同）。
    # EN: Matched by position: the i-th saved item belongs to the scheduler's i-th function;
    # EN: more saved items than functions raise `IndexError` (as in torch).
    for index, attributes in enumerate(saved_lambdas):
        if attributes is not None:
            scheduler.lr_lambdas[index].__dict__.update(attributes)


class LambdaLR(LRScheduler):
    r"""Learning rate = initial learning rate × a function of the epoch. / 学习率 = 初始学习率 × 关于 epoch 的函数值。

    === "中文"

        第 `last_epoch` 步每个参数组的学习率是 `base_lr * lr_lambda(last_epoch)`：只由
        `base_lrs` 和 epoch 决定，与当前学习率无关，因此它不能与其他调度器链式叠加（最后一个
        写入的调度器胜出）。`lr_lambda` 可以是一个函数（所有组共用），也可以是每组一个的列表。

        `state_dict()` 只保存可调用对象的属性，普通函数与 lambda 记为 `None`（见
        `_state_dict_with_lambdas`）；恢复时函数本身须由构造调度器的代码再次提供。

    === "English"

        At step `last_epoch` each param group's learning rate is
        `base_lr * lr_lambda(last_epoch)`: it depends on `base_lrs` and the epoch only, not on
        the current learning rate, so it does not chain with other schedulers (the last one to
        write wins). `lr_lambda` is one function (shared by all groups) or a list with one per
        group.

        `state_dict()` keeps only the attributes of callable objects; plain functions and
        lambdas are recorded as `None` (see `_state_dict_with_lambdas`), so on resuming the
        code that builds the scheduler must supply the functions again.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        lr_lambda: Function of the epoch giving a factor, or a list of them, one per param
            group. / 由 epoch 给出乘数的函数，或每个参数组一个的函数列表。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Raises:
        ValueError: A list of `lr_lambda` of the wrong length. / `lr_lambda` 列表长度不对。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.LambdaLR(opt, lr_lambda=lambda epoch: 1 / (epoch + 1))
        >>> for _ in range(3):
        ...     opt.step()
        ...     sched.step()
        >>> sched.get_last_lr()
        [0.25]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        r"""Store one function per param group, then initialize the base class. / 为每个参数组存一个函数，再初始化基类。

        === "中文"

            不检查函数是否可调用：不可调用的值要到第一次 `get_lr()` 时才出错——那就是构造时的
            那一步，所以构造本身引发 `TypeError`（如 `'int' object is not callable`）。

        === "English"

            Callability is not checked: a value that cannot be called fails at the first
            `get_lr()`, which is the step of construction, so the constructor itself raises
            `TypeError` (e.g. `'int' object is not callable`).

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            lr_lambda: A function or a list of them. / 一个函数或函数列表。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        # 中: 与 torch 一样先设 `optimizer` 再设 `lr_lambdas`，实例 `__dict__` 的键序因此与 torch
        # 中: 相同（`optimizer`、`lr_lambdas`、`base_lrs`……）；`state_dict()` 去掉 `optimizer`，
        # 中: 并把 `lr_lambdas` 挪到最后。
        # EN: As in torch, `optimizer` is set before `lr_lambdas`, so the instance `__dict__` has
        # EN: torch's key order (`optimizer`, `lr_lambdas`, `base_lrs`, ...); `state_dict()`
        # EN: leaves `optimizer` out and moves `lr_lambdas` to the end.
        self.optimizer = optimizer
        self.lr_lambdas: list[Callable[[int], float]] = _lambdas_per_group(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        r"""Return the state; of `lr_lambdas` only callable objects' attributes. / 返回状态；`lr_lambdas` 只保存可调用对象的属性。

        === "中文"

            做法见 `_state_dict_with_lambdas`。优化器的状态须另行保存。

        === "English"

            See `_state_dict_with_lambdas`. The optimizer's state must be saved separately.

        Returns:
            The scheduler's state. / 调度器的状态。
        """
        return _state_dict_with_lambdas(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Restore the state made by `state_dict`. / 恢复 `state_dict` 生成的状态。

        === "中文"

            做法见 `_load_state_dict_with_lambdas`。优化器的状态须另行恢复。

        === "English"

            See `_load_state_dict_with_lambdas`. The optimizer's state must be restored separately.

        Args:
            state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。
        """
        _load_state_dict_with_lambdas(self, state_dict)

    def get_lr(self) -> list[float | Tensor]:
        r"""`base_lr * lr_lambda(last_epoch)` for each param group. / 每个参数组的 `base_lr * lr_lambda(last_epoch)`。

        === "中文"

            没有单独的闭式：这个公式本身就只依赖 `base_lrs` 和 epoch，`step(epoch)` 也用它。

        === "English"

            There is no separate closed form: this formula already depends on `base_lrs` and
            the epoch alone, and `step(epoch)` uses it too.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        return [
            base_lr * lr_lambda(self.last_epoch)
            for lr_lambda, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)
        ]


class MultiplicativeLR(LRScheduler):
    r"""Multiply the learning rate by a function of the epoch at each step. / 每一步把学习率乘以关于 epoch 的函数值。

    === "中文"

        每次 `step()` 把参数组当前的学习率乘以 `lr_lambda(last_epoch)`，因此第 n 步的学习率是
        初始学习率乘以第 1 到 n 步所有因子的积；构造时那一步不乘。它作用于当前值，可以与其他
        调度器链式叠加。与 `LambdaLR` 不同，这里在构造时检查每个函数都可调用；`state_dict` 的
        处理与 `LambdaLR` 相同。

    === "English"

        Each `step()` multiplies the param group's current learning rate by
        `lr_lambda(last_epoch)`, so at step n the learning rate is the initial one times the
        product of the factors of steps 1 to n; the step at construction multiplies nothing. It
        acts on the current value and so chains with other schedulers. Unlike `LambdaLR`, the
        constructor checks that every function is callable; `state_dict` is handled as in
        `LambdaLR`.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        lr_lambda: Function of the epoch giving a factor, or a list of them, one per param
            group. / 由 epoch 给出乘数的函数，或每个参数组一个的函数列表。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Raises:
        ValueError: A list of `lr_lambda` of the wrong length. / `lr_lambda` 列表长度不对。
        TypeError: An `lr_lambda` that is not callable. / 某个 `lr_lambda` 不可调用。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.MultiplicativeLR(opt, lr_lambda=lambda epoch: 0.5)
        >>> for _ in range(3):
        ...     opt.step()
        ...     sched.step()
        >>> sched.get_last_lr()
        [0.125]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        lr_lambda: Callable[[int], float] | list[Callable[[int], float]],
        last_epoch: int = -1,
    ) -> None:
        r"""Store and check one function per param group, then initialize the base class. / 为每个参数组存一个函数并检查，再初始化基类。

        === "中文"

            可调用检查发生在基类初始化之前，出错时优化器不会被改动。

        === "English"

            The callability check runs before the base class, so on error the optimizer is
            untouched.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            lr_lambda: A function or a list of them. / 一个函数或函数列表。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        # 中: 与 `LambdaLR` 相同的展开，另加可调用检查（长度错误先于类型错误报告）。
        # EN: The same spreading as `LambdaLR`, plus a callability check (a wrong length is
        # EN: reported before a wrong type).
        self.optimizer = optimizer
        self.lr_lambdas: list[Callable[[int], float]] = _lambdas_per_group(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict[str, Any]:
        r"""Return the state; of `lr_lambdas` only callable objects' attributes. / 返回状态；`lr_lambdas` 只保存可调用对象的属性。

        === "中文"

            做法见 `_state_dict_with_lambdas`。优化器的状态须另行保存。

        === "English"

            See `_state_dict_with_lambdas`. The optimizer's state must be saved separately.

        Returns:
            The scheduler's state. / 调度器的状态。
        """
        return _state_dict_with_lambdas(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Restore the state made by `state_dict`. / 恢复 `state_dict` 生成的状态。

        === "中文"

            做法见 `_load_state_dict_with_lambdas`。优化器的状态须另行恢复。

        === "English"

            See `_load_state_dict_with_lambdas`. The optimizer's state must be restored separately.

        Args:
            state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。
        """
        _load_state_dict_with_lambdas(self, state_dict)

    def get_lr(self) -> list[float | Tensor]:
        r"""Current learning rate × `lr_lambda(last_epoch)`; unchanged at construction. / 当前学习率 × `lr_lambda(last_epoch)`；构造时不变。

        === "中文"

            构造时那一步不调用 `lr_lambda`；每个参数组用自己的函数。

        === "English"

            The step at construction does not call `lr_lambda`; each param group uses its own
            function.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        return [
            group["lr"] * lr_lambda(self.last_epoch)
            for lr_lambda, group in zip(self.lr_lambdas, self.optimizer.param_groups, strict=True)
        ]


class StepLR(LRScheduler):
    r"""Multiply the learning rate by `gamma` every `step_size` epochs. / 每 `step_size` 个 epoch 把学习率乘以 `gamma`。

    === "中文"

        闭式：`base_lr * gamma ** (last_epoch // step_size)`。可链式形式只在 `last_epoch` 是
        `step_size` 的非零倍数时把当前学习率乘以 `gamma`，其余时候原样返回，所以其他来源对
        学习率的改动会被保留。

    === "English"

        Closed form: `base_lr * gamma ** (last_epoch // step_size)`. The chainable form
        multiplies the current learning rate by `gamma` only when `last_epoch` is a non-zero
        multiple of `step_size` and returns it unchanged otherwise, so changes made to the
        learning rate by anything else are kept.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        step_size: Number of epochs between two decays. / 两次衰减之间的 epoch 数。
        gamma: Factor of each decay. / 每次衰减的乘数。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(sched.get_last_lr()[0])
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [1.0, 1.0, 0.5, 0.5, 0.25]
    """

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ) -> None:
        r"""Store the period and the factor, then initialize the base class. / 存下周期与乘数，再初始化基类。

        === "中文"

            参数不做任何检查（与 torch 相同）；`step_size=0` 要到取模时才出错。

        === "English"

            No argument is checked (as in torch); `step_size=0` fails only when the modulo runs.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            step_size: Epochs between decays. / 两次衰减之间的 epoch 数。
            gamma: Factor of each decay. / 每次衰减的乘数。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float | Tensor]:
        r"""Current learning rate × `gamma` at non-zero multiples of `step_size`. / 在 `step_size` 的非零倍数处，当前学习率 × `gamma`。

        === "中文"

            构造时那一步不特殊处理：以 `last_epoch=k` 恢复时，构造将 `last_epoch` 推进到 `k+1`，
            若它是 `step_size` 的倍数，学习率在构造时就乘以 `gamma`。

        === "English"

            The step at construction is not special-cased: when resuming with `last_epoch=k`,
            construction moves `last_epoch` to `k+1`, and if that is a multiple of `step_size`
            the learning rate is multiplied by `gamma` right at construction.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _param_groups_val_list(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float | Tensor]:
        r"""Closed form of `StepLR` from `base_lrs`. / `StepLR` 由 `base_lrs` 算出的闭式。

        === "中文"

            `base_lr * gamma ** (last_epoch // step_size)`，用于 `step(epoch)`，以及 `SequentialLR` 在里程碑处交给本调度器时（`_update_lr(0)`）。

        === "English"

            `base_lr * gamma ** (last_epoch // step_size)`, used by `step(epoch)` and when
            `SequentialLR` hands over to this scheduler at a milestone (`_update_lr(0)`).

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        return [
            base_lr * self.gamma ** (self.last_epoch // self.step_size) for base_lr in self.base_lrs
        ]


class MultiStepLR(LRScheduler):
    r"""Multiply the learning rate by `gamma` at each milestone epoch. / 在每个里程碑 epoch 把学习率乘以 `gamma`。

    === "中文"

        `milestones` 存成 `collections.Counter`（epoch → 出现次数）：同一个 epoch 出现 n 次，
        到达时就乘以 `gamma ** n`。可链式形式在 `last_epoch` 是里程碑时乘当前学习率；闭式是
        `base_lr * gamma ** bisect_right(sorted_milestones, last_epoch)`，即已越过的里程碑个数
        （含重复）。里程碑不需要排好序。

    === "English"

        `milestones` is kept as a `collections.Counter` (epoch → count): an epoch listed n
        times multiplies by `gamma ** n` when reached. The chainable form multiplies the current
        learning rate when `last_epoch` is a milestone; the closed form is
        `base_lr * gamma ** bisect_right(sorted_milestones, last_epoch)`, i.e. the number of
        milestones passed (repeats included). The milestones need not be sorted.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        milestones: Epoch indices at which to decay. / 发生衰减的 epoch 序号。
        gamma: Factor of each decay. / 每次衰减的乘数。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 3, 3], gamma=0.5)
        >>> lrs = []
        >>> for _ in range(4):
        ...     lrs.append(sched.get_last_lr()[0])
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [1.0, 0.5, 0.5, 0.125]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        milestones: Iterable[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
    ) -> None:
        r"""Count the milestones, store the factor, then initialize the base class. / 统计里程碑、存下乘数，再初始化基类。

        === "中文"

            `Counter` 接受任何可迭代对象，包括生成器，只遍历一次。

        === "English"

            `Counter` accepts any iterable, generators included, and walks it once.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            milestones: Epoch indices at which to decay. / 发生衰减的 epoch 序号。
            gamma: Factor of each decay. / 每次衰减的乘数。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float | Tensor]:
        r"""Decay the current learning rate at a milestone. / 在里程碑处衰减当前学习率。

        === "中文"

            `last_epoch` 是里程碑时乘以 `gamma ** milestones[last_epoch]`，否则不变。

        === "English"

            At a milestone `last_epoch` multiplies by `gamma ** milestones[last_epoch]`, else
            no change.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        if self.last_epoch not in self.milestones:
            return _param_groups_val_list(self.optimizer, "lr")
        return [
            group["lr"] * self.gamma ** self.milestones[self.last_epoch]
            for group in self.optimizer.param_groups
        ]

    def _get_closed_form_lr(self) -> list[float | Tensor]:
        r"""Closed form of `MultiStepLR` from `base_lrs`. / `MultiStepLR` 由 `base_lrs` 算出的闭式。

        === "中文"

            `base_lr` 乘以 `gamma` 的已越过里程碑数次幂，用于 `step(epoch)`，以及 `SequentialLR` 在里程碑处交给本调度器时（`_update_lr(0)`）。

        === "English"

            `base_lr` times `gamma` to the number of milestones passed, used by `step(epoch)` and
            when `SequentialLR` hands over to this scheduler at a milestone (`_update_lr(0)`).

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        # 中: `elements()` 把计数展开成重复项，排序后 `bisect_right` 数出 ≤ `last_epoch` 的个数。
        # EN: `elements()` expands the counts into repeats; after sorting, `bisect_right`
        # EN: counts those ≤ `last_epoch`.
        sorted_milestones = sorted(self.milestones.elements())
        return [
            base_lr * self.gamma ** bisect_right(sorted_milestones, self.last_epoch)
            for base_lr in self.base_lrs
        ]


class ConstantLR(LRScheduler):
    r"""Scale the learning rate by `factor` until epoch `total_iters`. / 在 epoch `total_iters` 之前把学习率乘以 `factor`。

    === "中文"

        常用于预热（warm-up）：epoch 0 把当前学习率乘以 `factor`，epoch `total_iters` 再乘以
        `1.0 / factor` 恢复，其余时候不变。闭式是
        `base_lr * (factor + (last_epoch >= total_iters) * (1 - factor))`。
        注意链式形式的恢复是乘以 `1.0 / factor`，浮点结果不一定逐位等于原学习率。

    === "English"

        Often used for warm-up: epoch 0 multiplies the current learning rate by `factor`,
        epoch `total_iters` multiplies it by `1.0 / factor` to restore it, and other epochs
        leave it alone. The closed form is
        `base_lr * (factor + (last_epoch >= total_iters) * (1 - factor))`. Note that the
        chainable restore multiplies by `1.0 / factor`, so in floating point the result is not
        always the original learning rate bit for bit.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        factor: Multiplier before `total_iters`, in [0, 1]. / `total_iters` 之前的乘数，在 [0, 1] 内。
        total_iters: Epoch at which the factor is removed. / 撤去乘数的 epoch。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Raises:
        ValueError: `factor` outside [0, 1]. / `factor` 不在 [0, 1] 内。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
        >>> lrs = []
        >>> for _ in range(4):
        ...     lrs.append(sched.get_last_lr()[0])
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [0.5, 0.5, 1.0, 1.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        factor: float = 1.0 / 3,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        r"""Check and store the factor and the length, then initialize the base class. / 检查并存下乘数与长度，再初始化基类。

        === "中文"

            `total_iters` 不做检查。

        === "English"

            `total_iters` is not checked.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            factor: Multiplier in [0, 1]. / [0, 1] 内的乘数。
            total_iters: Epoch at which the factor is removed. / 撤去乘数的 epoch。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float | Tensor]:
        r"""Apply the factor at epoch 0 and remove it at `total_iters`. / 在 epoch 0 施加乘数，在 `total_iters` 撤去。

        === "中文"

            epoch 0 乘以 `factor`，epoch `total_iters` 乘以 `1.0 / factor`，其余不变。
            `factor == 0` 时到达 `total_iters` 会引发 `ZeroDivisionError`（与 torch 相同）。

        === "English"

            Epoch 0 multiplies by `factor`, epoch `total_iters` by `1.0 / factor`, others
            change nothing. With `factor == 0`, reaching `total_iters` raises
            `ZeroDivisionError` (as in torch).

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0:
            return [group["lr"] * self.factor for group in self.optimizer.param_groups]
        if self.last_epoch != self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        return [group["lr"] * (1.0 / self.factor) for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float | Tensor]:
        r"""Closed form of `ConstantLR` from `base_lrs`. / `ConstantLR` 由 `base_lrs` 算出的闭式。

        === "中文"

            `total_iters` 之前是 `base_lr * factor`，从 `total_iters` 起是 `base_lr`（按类文档里的公式计算）。

        === "English"

            `base_lr * factor` before `total_iters`, `base_lr` from `total_iters` on (computed
            by the formula in the class docstring).

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        return [
            base_lr * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
            for base_lr in self.base_lrs
        ]


class LinearLR(LRScheduler):
    r"""Move the learning-rate factor linearly from `start_factor` to `end_factor`. / 把学习率乘数从 `start_factor` 线性变到 `end_factor`。

    === "中文"

        第 e 个 epoch 的乘数是 `f(e) = start_factor + (end_factor - start_factor) * min(e, T) / T`，
        `T = total_iters`；闭式即 `base_lr * f(e)`。可链式形式在 epoch 0 乘以 `start_factor`，
        之后每步乘以相邻两个乘数之比 `f(e) / f(e-1)`，化简为
        `1 + d / (T * start_factor + (e - 1) * d)`，其中 `d = end_factor - start_factor`；
        超过 `T` 后不变。

    === "English"

        At epoch e the factor is
        `f(e) = start_factor + (end_factor - start_factor) * min(e, T) / T` with
        `T = total_iters`; the closed form is `base_lr * f(e)`. The chainable form multiplies by
        `start_factor` at epoch 0 and then at each step by the ratio of consecutive factors,
        `f(e) / f(e-1)`, which simplifies to
        `1 + d / (T * start_factor + (e - 1) * d)` with `d = end_factor - start_factor`;
        after `T` it leaves the learning rate alone.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        start_factor: Factor at epoch 0, in (0, 1]. / epoch 0 的乘数，在 (0, 1] 内。
        end_factor: Factor from `total_iters` on, in [0, 1]. / 从 `total_iters` 起的乘数，在 [0, 1] 内。
        total_iters: Number of epochs of the ramp. / 线性变化持续的 epoch 数。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Raises:
        ValueError: A factor out of its range. / 乘数超出范围。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(sched.get_last_lr()[0])
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [0.25, 0.5, 0.75, 1.0, 1.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ) -> None:
        r"""Check and store the two factors and the length, then initialize the base class. / 检查并存下两个乘数与长度，再初始化基类。

        === "中文"

            先检查 `start_factor`，再检查 `end_factor`；`total_iters` 不做检查。

        === "English"

            `start_factor` is checked first, then `end_factor`; `total_iters` is not checked.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            start_factor: Factor at epoch 0. / epoch 0 的乘数。
            end_factor: Factor at the end. / 结束时的乘数。
            total_iters: Number of epochs of the ramp. / 线性变化持续的 epoch 数。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        # 中: `start_factor` 不能为 0：否则链式形式在 epoch 1 的分母 `total_iters * start_factor`
        # 中: 为 0；`end_factor` 可以为 0。
        # EN: `start_factor` cannot be 0, or the chainable form's denominator at epoch 1,
        # EN: `total_iters * start_factor`, would be 0; `end_factor` may be 0.
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(
                "Starting multiplicative factor expected to be greater than 0 and less or "
                "equal to 1."
            )
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        # 中: 检查通过后才保存，再由基类走构造时的一步。
        # EN: Stored only once the checks pass; then the base class takes the first step.
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float | Tensor]:
        r"""Apply `start_factor`, then the ratio of consecutive factors. / 先施加 `start_factor`，再乘相邻乘数之比。

        === "中文"

            epoch 0 乘以 `start_factor`，之后直到 `total_iters` 每步乘以比值 `f(e) / f(e-1)`。
            `last_epoch == 0` 的判断在 `_is_initial` 之前：全新构造时乘数照样生效；以
            `last_epoch=k` 恢复时构造那一步不改学习率。

        === "English"

            Epoch 0 multiplies by `start_factor`; then up to `total_iters` each step multiplies
            by the ratio `f(e) / f(e-1)`. The `last_epoch == 0` test comes before
            `_is_initial`: a fresh construction does apply the factor, while the step of
            construction when resuming with `last_epoch=k` leaves the learning rate alone.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        if self.last_epoch == 0:
            return [group["lr"] * self.start_factor for group in self.optimizer.param_groups]
        # 中: 构造时（恢复的情形）与线性段结束之后都保持当前值。
        # EN: At construction (when resuming) and after the ramp, the current value stays.
        if self._is_initial or self.last_epoch > self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        # 中: 运算顺序与 torch 相同（先算比值再乘当前学习率），结果才逐位一致；
        # 中: 比值对所有参数组相同，只算一次。
        # EN: The operations are ordered as in torch (ratio first, then times the current
        # EN: learning rate), which keeps the results identical bit for bit; the ratio is the
        # EN: same for every param group, so it is computed once.
        slope = self.end_factor - self.start_factor
        ratio = 1.0 + slope / (self.total_iters * self.start_factor + (self.last_epoch - 1) * slope)
        return [group["lr"] * ratio for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float | Tensor]:
        r"""Closed form of `LinearLR` from `base_lrs`. / `LinearLR` 由 `base_lrs` 算出的闭式。

        === "中文"

            `base_lr * f(last_epoch)`，`f` 见类文档；用于 `step(epoch)`，以及 `SequentialLR` 在里程碑处交给本调度器时（`_update_lr(0)`）。

        === "English"

            `base_lr * f(last_epoch)`, with `f` as in the class docstring; used by `step(epoch)`
            and when `SequentialLR` hands over to this scheduler at a milestone (`_update_lr(0)`).

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        # 中: `min` 使超过 `total_iters` 的 epoch 停在 `end_factor`。
        # EN: `min` keeps epochs past `total_iters` at `end_factor`.
        slope = self.end_factor - self.start_factor
        factor = (
            self.start_factor + slope * min(self.total_iters, self.last_epoch) / self.total_iters
        )
        return [base_lr * factor for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    r"""Multiply the learning rate by `gamma` at every step. / 每一步把学习率乘以 `gamma`。

    === "中文"

        闭式：`base_lr * gamma ** last_epoch`。可链式形式每步乘一次 `gamma`；构造时那一步不乘，
        这样以 `last_epoch=k` 恢复时学习率不会比检查点多衰减一次。

    === "English"

        Closed form: `base_lr * gamma ** last_epoch`. The chainable form multiplies by `gamma`
        once per step; the step at construction does not, so that resuming with
        `last_epoch=k` does not decay the learning rate once more than the checkpoint had.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        gamma: Factor of each step. / 每步的乘数。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> opt.step()
        >>> sched.step()
        >>> sched.get_last_lr()
        [0.5]
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        r"""Store the factor, then initialize the base class. / 存下乘数，再初始化基类。

        === "中文"

            `gamma` 没有默认值，也不做检查。

        === "English"

            `gamma` has no default and is not checked.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            gamma: Factor of each step. / 每步的乘数。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float | Tensor]:
        r"""Current learning rate × `gamma`; unchanged at construction. / 当前学习率 × `gamma`；构造时不变。

        === "中文"

            所有参数组乘同一个 `gamma`。

        === "English"

            Every param group is multiplied by the same `gamma`.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float | Tensor]:
        r"""Closed form of `ExponentialLR` from `base_lrs`. / `ExponentialLR` 由 `base_lrs` 算出的闭式。

        === "中文"

            `base_lr * gamma ** last_epoch`，用于 `step(epoch)`，以及 `SequentialLR` 在里程碑处交给本调度器时（`_update_lr(0)`）。

        === "English"

            `base_lr * gamma ** last_epoch`, used by `step(epoch)` and when `SequentialLR` hands
            over to this scheduler at a milestone (`_update_lr(0)`).

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        return [base_lr * self.gamma**self.last_epoch for base_lr in self.base_lrs]


def _check_child_schedulers(
    owner: str, optimizer: Optimizer, schedulers: Sequence[LRScheduler]
) -> None:
    r"""Check the schedulers given to `SequentialLR` or `ChainedScheduler`. / 检查交给 `SequentialLR` 或 `ChainedScheduler` 的子调度器。

    === "中文"

        逐个检查，报告第一个问题：没有 `optimizer` 属性（`TypeError`）；是 `ReduceLROnPlateau`
        （它的 `step` 需要指标参数，`ValueError`）；绑定的不是同一个优化器（用 `!=` 比较，
        `ValueError`）。

    === "English"

        Checks them in order and reports the first problem: no `optimizer` attribute
        (`TypeError`); a `ReduceLROnPlateau` (its `step` needs a metric, `ValueError`); bound to
        another optimizer (compared with `!=`, `ValueError`).

    Args:
        owner: Class name used in the messages. / 错误信息中使用的类名。
        optimizer: The optimizer all of them must share. / 它们必须共用的优化器。
        schedulers: The child schedulers. / 子调度器。

    Raises:
        TypeError: A scheduler without `optimizer`. / 某个调度器没有 `optimizer`。
        ValueError: A `ReduceLROnPlateau`, or another optimizer. / 出现 `ReduceLROnPlateau`，或优化器不同。
    """
    for index, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{owner} at index {index} should have `optimizer` as its attribute.")
        # 中: 只拒绝本模块的 `ReduceLROnPlateau`（torch 也只查它自己的）。
        # EN: Only this module's `ReduceLROnPlateau` is refused (torch checks only its own too).
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{owner} does not support `ReduceLROnPlateau` scheduler as it "
                "requires additional kwargs to be specified when calling `step`, "
                f"but got one at index {index} in the given schedulers sequence."
            )
        # 中: 信息里嵌入子调度器优化器的 `repr`（列出全部参数组）。
        # EN: The message embeds the `repr` of the child's optimizer (all its param groups).
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{owner} expects all schedulers to belong to the same optimizer, but "
                f"got scheduler {scheduler.__class__.__name__} at index {index} has "
                f"{scheduler.optimizer}, which is different from {optimizer.__class__.__name__}."
            )


def _state_dict_with_children(scheduler: SequentialLR | ChainedScheduler) -> dict[str, Any]:
    r"""The state of a composite scheduler, with its children's states nested. / 组合调度器的状态，内嵌各子调度器的状态。

    === "中文"

        子调度器对象本身不放进来（它们引用优化器），换成各自 `state_dict()` 的列表，放在字典最后。

    === "English"

        The child scheduler objects themselves are left out (they refer to the optimizer);
        instead a list of their `state_dict()`s comes last in the dict.

    Args:
        scheduler: A `SequentialLR` or `ChainedScheduler`. / `SequentialLR` 或 `ChainedScheduler`。

    Returns:
        The scheduler's state. / 调度器的状态。
    """
    state = {
        key: value
        for key, value in scheduler.__dict__.items()
        if key not in ("optimizer", "_schedulers")
    }
    state["_schedulers"] = [child.state_dict() for child in scheduler._schedulers]
    return state


def _load_state_dict_with_children(
    scheduler: SequentialLR | ChainedScheduler, state_dict: dict[str, Any]
) -> None:
    r"""Restore a composite scheduler and, by position, each child. / 恢复组合调度器，并按位置恢复每个子调度器。

    === "中文"

        与 `_load_state_dict_with_lambdas` 同样的做法：暂时取出 `_schedulers` 项，用其余项更新
        `__dict__`，再放回去，使调用者的字典顶层内容不变；然后把第 i 个子状态交给现有的第 i 个
        子调度器的 `load_state_dict`。嵌套的子状态字典却可能被子调度器自己的
        `load_state_dict` 改动：`CyclicLR` 的会从中弹出 `_scale_fn_custom`，所以含 `CyclicLR`
        的组合调度器的同一个状态字典不能再加载第二次（`KeyError`，与 torch 相同）。

    === "English"

        The same approach as `_load_state_dict_with_lambdas`: the `_schedulers` entry is taken
        out for a moment, the other entries update `__dict__`, and it is put back so that the
        caller's dict keeps its top-level contents; then the i-th child state goes to the
        `load_state_dict` of the existing i-th child. The nested child states, though, may be
        changed by a child's own `load_state_dict`: `CyclicLR`'s pops `_scale_fn_custom` from
        its dict, so the same state dict of a composite holding a `CyclicLR` cannot be loaded a
        second time (`KeyError`, as in torch).

    Args:
        scheduler: A `SequentialLR` or `ChainedScheduler`. / `SequentialLR` 或 `ChainedScheduler`。
        state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。
    """
    child_states = state_dict.pop("_schedulers")
    scheduler.__dict__.update(state_dict)
    state_dict["_schedulers"] = child_states
    for index, child_state in enumerate(child_states):
        scheduler._schedulers[index].load_state_dict(child_state)


class SequentialLR(LRScheduler):
    r"""Hand the schedule from one scheduler to the next at milestone epochs. / 在里程碑 epoch 把调度从一个调度器交给下一个。

    === "中文"

        `schedulers[i]` 负责 `[milestones[i-1], milestones[i])` 这段 epoch。子调度器在交给它之前
        已各自构造过（每个都走过了构造时那一步，改过学习率），所以构造 `SequentialLR` 时：

        1. 检查子调度器（见 `_check_child_schedulers`）与里程碑个数（比调度器少一个）。
        2. 把每个参数组的 `lr` 重置为 `initial_lr`。
        3. `recursive_undo`：把每个子调度器（包括嵌套的组合调度器里的）的 `last_epoch` 减一，
           撤销它们构造时的那一步。
        4. 只让负责 epoch 0 的子调度器重新走构造时的一步（`_initial_step`）。

        之后每次 `step()`：`last_epoch` 加一，选出负责当前 epoch 的子调度器；恰好到达里程碑时
        调用它的 `_update_lr(0)`——把它的 `last_epoch` 设为 0，有闭式时用闭式，这相当于从头开始
        这段调度，而且不发出弃用警告、不增加它的 `_step_count`；否则调用它的 `step()`。

        它不调用基类的 `__init__`，因此没有 `base_lrs`、`_step_count`，也不检查优化器类型；
        `step()` 不接受 `epoch`。

    === "English"

        `schedulers[i]` covers the epochs `[milestones[i-1], milestones[i])`. The children
        were built before being handed over (each took its step of construction and changed the
        learning rates), so building a `SequentialLR`:

        1. Checks the children (see `_check_child_schedulers`) and the number of milestones
           (one fewer than schedulers).
        2. Resets each param group's `lr` to its `initial_lr`.
        3. `recursive_undo`: lowers `last_epoch` by one in every child (including those inside
           nested composite schedulers), undoing their step of construction.
        4. Lets only the child in charge of epoch 0 take its step of construction again
           (`_initial_step`).

        Then each `step()` raises `last_epoch` by one and picks the child in charge of that
        epoch; exactly at a milestone it calls that child's `_update_lr(0)`, which sets its
        `last_epoch` to 0 and uses the closed form where there is one, i.e. starts that stretch
        of the schedule afresh, without a deprecation warning and without raising its
        `_step_count`; otherwise it calls the child's `step()`.

        It does not call the base class's `__init__`, so it has no `base_lrs` nor
        `_step_count`, and checks no optimizer type; `step()` takes no `epoch`.

    Args:
        optimizer: The optimizer shared by all children. / 所有子调度器共用的优化器。
        schedulers: The children, in order of use. / 按使用顺序排列的子调度器。
        milestones: Epochs at which the next child takes over. / 下一个子调度器接手的 epoch。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Raises:
        ValueError: No scheduler, a bad child, or a wrong number of milestones. /
            没有调度器、子调度器不合要求，或里程碑个数不对。
        TypeError: A child without `optimizer`. / 某个子调度器没有 `optimizer`。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> warmup = optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
        >>> decay = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> sched = optim.lr_scheduler.SequentialLR(opt, [warmup, decay], milestones=[2])
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(sched.get_last_lr()[0])
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [0.5, 0.5, 1.0, 0.5, 0.25]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        schedulers: list[LRScheduler],
        milestones: list[int],
        last_epoch: int = -1,
    ) -> None:
        r"""Check the children, undo their first steps, restart the first one. / 检查子调度器，撤销它们的第一步，重启第一个。

        === "中文"

            步骤编号与类文档相同。

        === "English"

            The steps are numbered as in the class docstring.

        Args:
            optimizer: The shared optimizer. / 共用的优化器。
            schedulers: The children. / 子调度器。
            milestones: Hand-over epochs. / 交接的 epoch。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        # 中: 第 1 步。错误信息用 `type(self).__name__`，子类名会出现在信息里。
        # EN: Step 1. The messages use `type(self).__name__`, so a subclass's name shows.
        owner = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{owner} expects at least one scheduler, but got no scheduler.")
        _check_child_schedulers(owner, optimizer, schedulers)
        # 中: 里程碑不检查是否有序；`bisect_right` 假定它们已升序。
        # EN: The milestones are not checked for order; `bisect_right` assumes them ascending.
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                f"than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to {len(milestones)}"
            )
        # 中: `last_epoch + 1`：自己不走构造时的一步，直接记下那一步之后的计数。
        # EN: `last_epoch + 1`: this scheduler takes no step of construction itself and records
        # EN: the count as it is after that step.
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer

        # 中: 第 2–4 步。参数组没有 `initial_lr` 时第 2 步引发 `KeyError`。
        # EN: Steps 2 to 4. A param group without `initial_lr` raises `KeyError` in step 2.
        for group in self.optimizer.param_groups:
            _update_param_group_val(group, "lr", group["initial_lr"])
        self.recursive_undo()
        first = bisect_right(self._milestones, 0)
        self._schedulers[first]._initial_step()
        self._last_lr = schedulers[first].get_last_lr()

    def recursive_undo(self, sched: Any = None) -> None:
        r"""Lower `last_epoch` by one in every child, recursing into composites. / 把每个子调度器的 `last_epoch` 减一，遇到组合调度器就递归。

        === "中文"

            有 `_schedulers` 的对象（组合调度器，起点是 `self`）只递归进入，不改它自己的
            `last_epoch`；其他有 `last_epoch` 的对象减一。

        === "English"

            An object with `_schedulers` (a composite, starting with `self`) is only recursed
            into, its own `last_epoch` untouched; any other object with `last_epoch` gets it
            lowered by one.

        Args:
            sched: The scheduler to undo; `None` means `self`. / 要撤销的调度器；`None` 表示 `self`。
        """
        target = self if sched is None else sched
        if hasattr(target, "_schedulers"):
            for child in target._schedulers:
                self.recursive_undo(child)
        elif hasattr(target, "last_epoch"):
            target.last_epoch -= 1

    def step(self) -> None:
        r"""Advance one epoch with the child in charge of it. / 用负责该 epoch 的子调度器前进一个 epoch。

        === "中文"

            `bisect_right(milestones, last_epoch)` 是负责者的下标：到达某个里程碑时它正好是
            新接手的子调度器，这时以 `_update_lr(0)` 重新开始它的调度。

        === "English"

            `bisect_right(milestones, last_epoch)` is the index of the child in charge: at a
            milestone it is exactly the child taking over, which then restarts its schedule
            with `_update_lr(0)`.
        """
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self) -> dict[str, Any]:
        r"""Return the state with each child's state nested. / 返回内嵌各子调度器状态的状态。

        === "中文"

            做法见 `_state_dict_with_children`。优化器的状态须另行保存。

        === "English"

            See `_state_dict_with_children`. The optimizer's state must be saved separately.

        Returns:
            The scheduler's state. / 调度器的状态。
        """
        return _state_dict_with_children(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Restore the state and each child's state. / 恢复自身及各子调度器的状态。

        === "中文"

            做法见 `_load_state_dict_with_children`。优化器的状态须另行恢复。

        === "English"

            See `_load_state_dict_with_children`. The optimizer's state must be restored separately.

        Args:
            state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。
        """
        _load_state_dict_with_children(self, state_dict)


class PolynomialLR(LRScheduler):
    r"""Decay the learning rate polynomially to 0 over `total_iters` epochs. / 在 `total_iters` 个 epoch 内把学习率按多项式衰减到 0。

    === "中文"

        闭式：`base_lr * (1 - min(last_epoch, total_iters) / total_iters) ** power`。可链式形式
        每步乘以相邻两个因子之比 `((1 - e/T) / (1 - (e-1)/T)) ** power`（`T = total_iters`）；
        到 `e == T` 时比值为 0（`power > 0` 时），学习率变为 0；之后不变。构造时那一步不改学习率。

    === "English"

        Closed form: `base_lr * (1 - min(last_epoch, total_iters) / total_iters) ** power`. The
        chainable form multiplies at each step by the ratio of consecutive factors,
        `((1 - e/T) / (1 - (e-1)/T)) ** power` (`T = total_iters`); at `e == T` the ratio is 0
        (when `power > 0`) and the learning rate becomes 0; afterwards it stays. The step at
        construction leaves the learning rate alone.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        total_iters: Number of epochs of the decay. / 衰减持续的 epoch 数。
        power: Power of the polynomial. / 多项式的幂次。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.PolynomialLR(opt, total_iters=4, power=1.0)
        >>> lrs = []
        >>> for _ in range(6):
        ...     lrs.append(sched.get_last_lr()[0])
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [1.0, 0.75, 0.5, 0.25, 0.0, 0.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        total_iters: int = 5,
        power: float = 1.0,
        last_epoch: int = -1,
    ) -> None:
        r"""Store the length and the power, then initialize the base class. / 存下长度与幂次，再初始化基类。

        === "中文"

            参数不做检查；`total_iters=0` 只在闭式里引发除零错误。

        === "English"

            No argument is checked; `total_iters=0` divides by zero only in the closed form.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            total_iters: Number of epochs of the decay. / 衰减持续的 epoch 数。
            power: Power of the polynomial. / 多项式的幂次。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float | Tensor]:
        r"""Current learning rate × ratio of consecutive polynomial factors. / 当前学习率 × 相邻两个多项式因子之比。

        === "中文"

            构造时那一步以及 `last_epoch > total_iters` 之后保持当前值。

        === "English"

            The step at construction and every step after `last_epoch > total_iters` keep the
            current value.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        if self._is_initial or self.last_epoch > self.total_iters:
            return _param_groups_val_list(self.optimizer, "lr")
        # 中: 比值对所有参数组相同，只算一次。
        # EN: The ratio is the same for every param group, so it is computed once.
        decay_factor = (
            (1.0 - self.last_epoch / self.total_iters)
            / (1.0 - (self.last_epoch - 1) / self.total_iters)
        ) ** self.power
        return [group["lr"] * decay_factor for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self) -> list[float | Tensor]:
        r"""Closed form of `PolynomialLR` from `base_lrs`. / `PolynomialLR` 由 `base_lrs` 算出的闭式。

        === "中文"

            即类文档中的闭式公式，用于 `step(epoch)`，以及 `SequentialLR` 在里程碑处交给本调度器时（`_update_lr(0)`）。

        === "English"

            The closed-form formula of the class docstring, used by `step(epoch)` and when
            `SequentialLR` hands over to this scheduler at a milestone (`_update_lr(0)`).

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        return [
            base_lr
            * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters) ** self.power
            for base_lr in self.base_lrs
        ]


class CosineAnnealingLR(LRScheduler):
    r"""Anneal the learning rate from `base_lr` to `eta_min` along a cosine. / 沿余弦曲线把学习率从 `base_lr` 退火到 `eta_min`。

    === "中文"

        闭式（SGDR 论文的余弦退火，但没有重启）：
        `eta_min + (base_lr - eta_min) * (1 + cos(pi * last_epoch / T_max)) / 2`。
        超过 `T_max` 后不停止，而是沿余弦回升，周期为 `2 * T_max`。

        可链式形式把与 `eta_min` 的距离乘以相邻两个余弦因子之比：
        `(1 + cos(pi * e / T_max)) / (1 + cos(pi * (e - 1) / T_max)) * (lr - eta_min) + eta_min`。
        在最低点之后的那一步（`(e - 1 - T_max) % (2 * T_max) == 0`）分母为 0，改为加上增量
        `(base_lr - eta_min) * (1 - cos(pi / T_max)) / 2`。

    === "English"

        Closed form (the cosine annealing of the SGDR paper, without restarts):
        `eta_min + (base_lr - eta_min) * (1 + cos(pi * last_epoch / T_max)) / 2`.
        Past `T_max` it does not stop but climbs back along the cosine, with period `2 * T_max`.

        The chainable form multiplies the distance to `eta_min` by the ratio of consecutive
        cosine factors:
        `(1 + cos(pi * e / T_max)) / (1 + cos(pi * (e - 1) / T_max)) * (lr - eta_min) + eta_min`.
        At the step right after a minimum (`(e - 1 - T_max) % (2 * T_max) == 0`) the
        denominator is 0, so it adds the increment
        `(base_lr - eta_min) * (1 - cos(pi / T_max)) / 2` instead.

    Args:
        optimizer: The optimizer to schedule. / 要调度的优化器。
        T_max: Epochs from `base_lr` down to `eta_min`. / 从 `base_lr` 降到 `eta_min` 的 epoch 数。
        eta_min: The minimum learning rate. / 最小学习率。
        last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.CosineAnnealingLR(opt, T_max=2)
        >>> lrs = []
        >>> for _ in range(5):
        ...     lrs.append(round(sched.get_last_lr()[0], 6))
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [1.0, 0.5, 0.0, 0.5, 1.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        T_max: int,
        eta_min: float = 0.0,
        last_epoch: int = -1,
    ) -> None:
        r"""Store the half period and the minimum, then initialize the base class. / 存下半周期与最小值，再初始化基类。

        === "中文"

            参数不做检查；`T_max=0` 在第一次真正的 `step()` 时引发除零错误。

        === "English"

            No argument is checked; `T_max=0` divides by zero at the first real `step()`.

        Args:
            optimizer: The optimizer to schedule. / 要调度的优化器。
            T_max: Number of epochs of the descent. / 下降段的 epoch 数。
            eta_min: The minimum learning rate. / 最小学习率。
            last_epoch: `-1`, or the last epoch seen, to resume. / `-1`，或已过的最后一个 epoch（用于恢复）。
        """
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float | Tensor]:
        r"""Next learning rate of the cosine, from the current one. / 由当前学习率得到余弦曲线上的下一个学习率。

        === "中文"

            四种情形，按顺序判断：构造时那一步不变；`_step_count == 1`（构造后还没调用过
            `step()`）且 `last_epoch > 0` 时用闭式的公式；最低点之后的一步加增量；其余用比值。
            第二种情形在 `step()` 里走不到：构造时那一步已被第一种情形接住，而之后每次
            `step()` 都先把 `_step_count` 加到 2 以上再调用 `get_lr()`；只有恢复后直接调用
            `get_lr()`（会发出警告）才会落到这里。

        === "English"

            Four cases, tested in order: the step at construction changes nothing; with
            `_step_count == 1` (no `step()` since construction) and `last_epoch > 0`, the
            closed-form formula is used; the step after a minimum adds the increment; all
            others use the ratio. The second case is never reached from `step()`: the first
            case catches the step of construction, and every later `step()` raises
            `_step_count` to 2 or more before it calls `get_lr()`; only a direct `get_lr()`
            call after resuming (which warns) lands there.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        if self._is_initial:
            return _param_groups_val_list(self.optimizer, "lr")
        # 中: 构造后还没有调用过 `step()`：直接按闭式公式由 `base_lrs` 计算。
        # EN: No `step()` since construction: computed by the closed-form formula from `base_lrs`.
        if self._step_count == 1 and self.last_epoch > 0:
            cosine = 1 + math.cos(self.last_epoch * math.pi / self.T_max)
            return [
                self.eta_min + (base_lr - self.eta_min) * cosine / 2 for base_lr in self.base_lrs
            ]
        # 中: 比值的分母 `1 + cos(pi * (e - 1) / T_max)` 在 `e - 1` 落在最低点时为 0，
        # 中: 这一步改用加法。
        # EN: The ratio's denominator `1 + cos(pi * (e - 1) / T_max)` is 0 when `e - 1` sits at
        # EN: a minimum, so that step adds instead.
        if (self.last_epoch - 1 - self.T_max) % (2 * self.T_max) == 0:
            increment = 1 - math.cos(math.pi / self.T_max)
            return [
                group["lr"] + (base_lr - self.eta_min) * increment / 2
                for base_lr, group in zip(self.base_lrs, self.optimizer.param_groups, strict=True)
            ]
        # 中: 一般情形：与 `eta_min` 的距离乘以相邻两个余弦因子之比（torch 的运算顺序）。
        # EN: The general case: the distance to `eta_min` times the ratio of consecutive cosine
        # EN: factors (in torch's order of operations).
        return [
            (1 + math.cos(math.pi * self.last_epoch / self.T_max))
            / (1 + math.cos(math.pi * (self.last_epoch - 1) / self.T_max))
            * (group["lr"] - self.eta_min)
            + self.eta_min
            for group in self.optimizer.param_groups
        ]

    def _get_closed_form_lr(self) -> list[float | Tensor]:
        r"""Closed form of `CosineAnnealingLR` from `base_lrs`. / `CosineAnnealingLR` 由 `base_lrs` 算出的闭式。

        === "中文"

            即类文档中的闭式公式，用于 `step(epoch)`，以及 `SequentialLR` 在里程碑处交给本调度器时（`_update_lr(0)`）。

        === "English"

            The closed-form formula of the class docstring, used by `step(epoch)` and when
            `SequentialLR` hands over to this scheduler at a milestone (`_update_lr(0)`).

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        return [
            self.eta_min
            + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
            for base_lr in self.base_lrs
        ]


class ChainedScheduler(LRScheduler):
    r"""Step several chainable schedulers together, in order. / 按顺序同时推进几个可链式调度器。

    === "中文"

        每次 `step()` 依次调用每个子调度器的 `step()`；它们都作用于同一组参数组的当前学习率，
        因此各自的因子相乘。`optimizer` 缺省（或为假值）时取第一个子调度器的优化器。
        它不调用基类的 `__init__`，也不走构造时的一步：构造时各子调度器早已走过。
        `step()` 不接受 `epoch`。

    === "English"

        Each `step()` calls every child's `step()` in order; they all act on the current
        learning rates of the same param groups, so their factors multiply. When `optimizer`
        is omitted (or falsy), the first child's optimizer is used. It does not call the base
        class's `__init__` and takes no step of construction: the children took theirs when
        they were built. `step()` takes no `epoch`.

    Args:
        schedulers: The chained schedulers. / 被链接的调度器。
        optimizer: The shared optimizer; by default the first child's. /
            共用的优化器；默认取第一个子调度器的。

    Raises:
        ValueError: No scheduler, or a bad child. / 没有调度器，或子调度器不合要求。
        TypeError: A child without `optimizer` (except the first one when `optimizer` is not given). / 某个子调度器没有 `optimizer`（没给 `optimizer` 时的第一个子调度器除外）。
        AttributeError: `optimizer` not given and the first child has no `optimizer`. / 没给 `optimizer`，而第一个子调度器没有 `optimizer`。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> warmup = optim.lr_scheduler.ConstantLR(opt, factor=0.5, total_iters=2)
        >>> decay = optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
        >>> sched = optim.lr_scheduler.ChainedScheduler([warmup, decay])
        >>> lrs = []
        >>> for _ in range(4):
        ...     lrs.append(sched.get_last_lr()[0])
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [0.5, 0.25, 0.25, 0.125]
    """

    def __init__(
        self, schedulers: Sequence[LRScheduler], optimizer: Optimizer | None = None
    ) -> None:
        r"""Check the children and record the current learning rates. / 检查子调度器并记下当前学习率。

        === "中文"

            `_last_lr` 取自最后一个子调度器的优化器（已检查它与 `optimizer` 相等）。

        === "English"

            `_last_lr` is read from the last child's optimizer (checked to equal `optimizer`).

        Args:
            schedulers: The chained schedulers. / 被链接的调度器。
            optimizer: The shared optimizer, or `None`. / 共用的优化器，或 `None`。
        """
        owner = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(
                f"{owner} expects at least one scheduler to be chained, but got no scheduler."
            )
        # 中: 默认优化器在检查之前取得：第一个子调度器没有 `optimizer` 时这里就引发
        # 中: `AttributeError`，而不是检查里的 `TypeError`（与 torch 同）。
        # EN: The default optimizer is fetched before the checks: a first child without
        # EN: `optimizer` raises `AttributeError` here rather than the checks' `TypeError`
        # EN: (as in torch).
        optimizer = optimizer or schedulers[0].optimizer
        _check_child_schedulers(owner, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _param_groups_val_list(self._schedulers[-1].optimizer, "lr")

    def step(self) -> None:
        r"""Step every child in order, then record the learning rates. / 依次推进每个子调度器，再记下学习率。

        === "中文"

            每个子调度器照常检查调用顺序并发出自己的警告。

        === "English"

            Each child checks the call order as usual and issues its own warnings.
        """
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _param_groups_val_list(self._schedulers[-1].optimizer, "lr")

    def state_dict(self) -> dict[str, Any]:
        r"""Return the state with each child's state nested. / 返回内嵌各子调度器状态的状态。

        === "中文"

            做法见 `_state_dict_with_children`。优化器的状态须另行保存。

        === "English"

            See `_state_dict_with_children`. The optimizer's state must be saved separately.

        Returns:
            The scheduler's state. / 调度器的状态。
        """
        return _state_dict_with_children(self)

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Restore the state and each child's state. / 恢复自身及各子调度器的状态。

        === "中文"

            做法见 `_load_state_dict_with_children`。优化器的状态须另行恢复。

        === "English"

            See `_load_state_dict_with_children`. The optimizer's state must be restored separately.

        Args:
            state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。
        """
        _load_state_dict_with_children(self, state_dict)


# ---- SCHED-B: ReduceLROnPlateau, CyclicLR, CosineAnnealingWarmRestarts, OneCycleLR ----


def _set_group_momentum(group: dict[str, Any], momentum: Any, use_beta1: bool) -> None:
    r"""Write a cycled momentum into one param group. / 把循环得到的动量写进一个参数组。

    === "中文"

        `CyclicLR` 与 `OneCycleLR` 共用。`use_beta1` 为真时替换 `betas` 的第一项（得到新的
        tuple，其余项不变），否则写 `momentum`。与学习率不同（见 `_update_param_group_val`），
        这里总是整个替换该项而不是就地填入，与 torch 相同：原来是张量的 `momentum` 也会被
        换成新算出的值。

    === "English"

        Shared by `CyclicLR` and `OneCycleLR`. With `use_beta1` it replaces the first item of
        `betas` (a new tuple, the other items kept), otherwise it writes `momentum`. Unlike the
        learning rate (see `_update_param_group_val`), the entry is always replaced, never filled
        in-place, as in torch: a `momentum` that was a tensor is replaced by the computed value
        too.

    Args:
        group: The param group. / 参数组。
        momentum: The new momentum or beta1. / 新的动量或 beta1。
        use_beta1: Whether the optimizer uses `betas`. / 优化器是否使用 `betas`。
    """
    if use_beta1:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


class ReduceLROnPlateau(LRScheduler):
    r"""Cut the learning rate when a watched metric stops improving. / 被监视的指标不再改善时降低学习率。

    === "中文"

        其他调度器（scheduler）按步数算出学习率（learning rate），这个调度器则看结果：每次
        `step(metrics)` 传入一个指标（例如验证集损失），连续超过 `patience` 次没有“明显变好”，
        就把每个参数组（param group）的学习率乘以 `factor`，并且不低于该组的 `min_lr`。

        “明显变好”由 `mode` 与 `threshold_mode` 决定（`best` 是迄今最好的值）：

        | `mode` | `threshold_mode="rel"` | `threshold_mode="abs"` |
        | --- | --- | --- |
        | `"min"` | `a < best * (1 - threshold)` | `a < best - threshold` |
        | `"max"` | `a > best * (1 + threshold)` | `a > best + threshold` |

        降低之后进入 `cooldown` 次的冷却期，期间的坏结果不计数。若新旧学习率之差不超过
        `eps`，就不改动该组（例如学习率已经降到 `min_lr` 时）。

        它继承 [`LRScheduler`][annotated_optim.lr_scheduler.LRScheduler]，却不调用基类的
        `__init__`：它没有按步数计算的调度，所以不写 `initial_lr`、没有 `base_lrs`、
        不包装 `optimizer.step`，构造时也不走一步；`get_last_lr()` 与状态字典（state_dict）
        仍沿用基类的实现。

    === "English"

        Other schedulers compute the learning rate from the step count; this one looks at
        results: each `step(metrics)` passes a metric (a validation loss, say), and after more
        than `patience` calls in a row without a "clear improvement" it multiplies the learning
        rate of every param group by `factor`, never going below that group's `min_lr`.

        A "clear improvement" depends on `mode` and `threshold_mode` (`best` is the best value
        so far):

        | `mode` | `threshold_mode="rel"` | `threshold_mode="abs"` |
        | --- | --- | --- |
        | `"min"` | `a < best * (1 - threshold)` | `a < best - threshold` |
        | `"max"` | `a > best * (1 + threshold)` | `a > best + threshold` |

        After a cut, `cooldown` calls follow during which bad results are not counted. A group
        whose new and old learning rates differ by no more than `eps` is left alone (e.g. once
        its rate has reached `min_lr`).

        It subclasses [`LRScheduler`][annotated_optim.lr_scheduler.LRScheduler] but never calls
        the base `__init__`: having no step-count schedule, it writes no `initial_lr`, has no
        `base_lrs`, does not wrap `optimizer.step`, and takes no step on construction;
        `get_last_lr()` and the state_dict still come from the base class.

    Args:
        optimizer: The optimizer whose learning rates are cut. / 要降低其学习率的优化器。
        mode: `"min"` or `"max"`: which direction is better. / `"min"` 或 `"max"`：哪个方向算更好。
        factor: Multiplier of a cut, below `1.0`. / 每次降低的乘数，须小于 `1.0`。
        patience: Bad calls tolerated before a cut. / 降低之前可容忍的坏结果次数。
        threshold: Margin of a clear improvement. / “明显变好”的幅度。
        threshold_mode: `"rel"` or `"abs"`: relative or absolute margin. /
            `"rel"` 或 `"abs"`：相对或绝对幅度。
        cooldown: Calls after a cut in which bad results are ignored. / 降低后忽略坏结果的次数。
        min_lr: Lower bound, one number or one per group. / 学习率下限，一个数或每组一个。
        eps: Smallest change of learning rate worth applying. / 值得执行的最小学习率变化。

    Raises:
        ValueError: `factor >= 1.0`, a `min_lr` list of the wrong length, or an unknown mode. /
            `factor >= 1.0`、`min_lr` 列表长度不对或模式未知。
        TypeError: `optimizer` is not an optimizer. / `optimizer` 不是优化器。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.ReduceLROnPlateau(opt, patience=1)
        >>> for loss in [1.0, 1.0, 1.0]:
        ...     sched.step(loss)
        >>> sched.get_last_lr()
        [0.1]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        mode: Literal["min", "max"] = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: Literal["rel", "abs"] = "rel",
        cooldown: int = 0,
        min_lr: list[float] | float = 0,
        eps: float = 1e-8,
    ) -> None:
        r"""Check the options and start with no best value yet. / 检查选项，从“尚无最好值”开始。

        === "中文"

            检查顺序与 torch 相同：先 `factor`，再优化器，再 `min_lr` 的长度，最后两个模式，
            所以同时有几处错误时报出的是同一个。属性的赋值顺序也与 torch 相同，状态字典的
            键序因此一致。

        === "English"

            The checks run in torch's order: `factor`, then the optimizer, then the length of
            `min_lr`, then the two modes, so with several mistakes at once the same one is
            reported. Attributes are assigned in torch's order too, so the state_dict keys come
            in the same order.

        Args:
            optimizer: The optimizer whose learning rates are cut. / 要降低其学习率的优化器。
            mode: `"min"` or `"max"`. / `"min"` 或 `"max"`。
            factor: Multiplier of a cut. / 每次降低的乘数。
            patience: Bad calls tolerated before a cut. / 降低之前可容忍的坏结果次数。
            threshold: Margin of a clear improvement. / “明显变好”的幅度。
            threshold_mode: `"rel"` or `"abs"`. / `"rel"` 或 `"abs"`。
            cooldown: Calls after a cut that ignore bad results. / 降低后忽略坏结果的次数。
            min_lr: Lower bound, one number or one per group. / 学习率下限，一个数或每组一个。
            eps: Smallest change worth applying. / 值得执行的最小变化。

        Raises:
            ValueError: A bad `factor`, `min_lr` length or mode. / `factor`、`min_lr` 长度或模式不合法。
            TypeError: `optimizer` is not an optimizer. / `optimizer` 不是优化器。
        """
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor

        # 中: 与 torch 相同只接受 `torch.optim.Optimizer`；本项目的优化器是它的子类，也被接受。
        # EN: As in torch only a `torch.optim.Optimizer` is accepted; our optimizers subclass it and
        # EN: pass too.
        if not isinstance(optimizer, torch.optim.Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        # 中: 每组一个下限。给的是列表时记下 `default_min_lr = None`：以后参数组数目变了，
        # 中: `_reduce_lr` 无法为新组补出下限，只能报错。
        # EN: One lower bound per group. A list leaves `default_min_lr = None`: if the number of
        # EN: param groups changes later, `_reduce_lr` has no bound for the new groups and raises.
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(optimizer.param_groups):
                raise ValueError(
                    f"expected {len(optimizer.param_groups)} min_lrs, got {len(min_lr)}"
                )
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        # 中: 给的是单个数时记下它，组数变了可以按新的组数重新展开。
        # EN: A single number is kept, so that it can be spread again over a new number of groups.
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * len(optimizer.param_groups)

        # 中: `last_epoch` 从 0 开始（不是基类的 -1），因为构造时不走一步；`_last_lr` 直接取
        # 中: 当前学习率的副本，供 `get_last_lr()` 在第一次 `step` 之前使用。
        # EN: `last_epoch` starts at 0 (not the base class's -1) since no step is taken on
        # EN: construction; `_last_lr` is a copy of the current learning rates, for
        # EN: `get_last_lr()` before the first `step`.
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = _param_groups_val_list(self.optimizer, "lr")
        # 中: 最后检查两个模式并设好比较方式，再从“尚无最好值”开始。
        # EN: The two modes are checked last, setting up the comparison, then the state starts
        # EN: with no best value yet.
        self._init_is_better(mode=mode, threshold=threshold, threshold_mode=threshold_mode)
        self._reset()

    def _reset(self) -> None:
        r"""Forget the best value and both counters. / 忘掉最好值与两个计数器。

        === "中文"

            `best` 设为该模式下最差的值（`"min"` 时为正无穷，`"max"` 时为负无穷），
            于是任何有限的第一个指标都算作变好。

        === "English"

            `best` becomes the worst value for the mode (plus infinity for `"min"`, minus
            infinity for `"max"`), so any finite first metric counts as an improvement.
        """
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    def step(self, metrics: SupportsFloat, epoch: int | None = None) -> None:
        r"""Record one metric and cut the learning rates if patience ran out. / 记录一个指标，耐心耗尽时降低学习率。

        === "中文"

            1. 指标先转成 `float`（0 维张量也可以）。没给 `epoch` 时 `last_epoch` 加一；给了则
               发出与其他调度器相同的弃用警告 `EPOCH_DEPRECATION_WARNING`（`UserWarning`），
               并把 `last_epoch` 设为 `epoch`。
            2. 明显变好则更新 `best` 并清零 `num_bad_epochs`，否则加一。
            3. 冷却期内倒数一次，并把坏结果清零。
            4. 坏结果超过 `patience` 次：降低学习率，重新进入冷却期，坏结果清零。
            5. 记下当前学习率，供 `get_last_lr()` 返回。

        === "English"

            1. The metric is turned into a `float` (a 0-dim tensor works too). Without
               `epoch`, `last_epoch` grows by one; with it, the deprecation warning the other
               schedulers give, `EPOCH_DEPRECATION_WARNING` (a `UserWarning`), is issued and
               `last_epoch` is set to `epoch`.
            2. A clear improvement updates `best` and zeroes `num_bad_epochs`, otherwise it
               grows by one.
            3. During a cooldown, count one down and zero the bad results.
            4. More than `patience` bad results: cut the learning rates, start a cooldown,
               zero the bad results.
            5. Keep the current learning rates for `get_last_lr()`.

        Args:
            metrics: The watched quantity, a number or 0-dim tensor. / 被监视的量，数或 0 维张量。
            epoch: Deprecated explicit epoch number. / 已弃用的显式 epoch 编号。
        """
        # 中: 第 1 步：先转换再处理 epoch，所以 `float()` 转换不了的指标在发出警告之前就报错。
        # EN: Step 1: the conversion comes first, so a metric `float()` cannot convert raises
        # EN: before any warning is issued.
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = epoch

        # 中: 第 2 步：只有“明显变好”才刷新 `best`；持平或小幅变好都算坏结果。
        # EN: Step 2: only a clear improvement refreshes `best`; a tie or a tiny gain counts as
        # EN: a bad result.
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1

        # 中: 第 3 步：冷却期内的坏结果一律作废，所以冷却结束后要重新攒满 `patience`。
        # EN: Step 3: bad results during a cooldown are discarded, so after it ends `patience`
        # EN: must be used up again from zero.
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0

        # 中: 第 4 步：严格大于 `patience`，即 `patience=0` 时第一个坏结果就触发降低。
        # EN: Step 4: strictly more than `patience`, i.e. with `patience=0` the first bad result
        # EN: already triggers a cut.
        if self.num_bad_epochs > self.patience:
            self._reduce_lr(epoch)
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0

        # 中: 第 5 步：取副本而不是引用，用户改动返回的列表或张量不会碰到优化器。
        # EN: Step 5: copies, not references, so editing the returned list or tensors cannot
        # EN: touch the optimizer.
        self._last_lr = _param_groups_val_list(self.optimizer, "lr")

    def _reduce_lr(self, epoch: int) -> None:
        r"""Multiply each group's rate by `factor`, within bounds. / 把每组学习率乘以 `factor`，不越界。

        === "中文"

            新学习率为 `max(old_lr * factor, min_lr)`；只有降幅大于 `eps` 时才写回，
            张量形式的学习率就地（in-place）填入新值。`epoch` 不参与计算。

        === "English"

            The new rate is `max(old_lr * factor, min_lr)`; it is written back only when the
            drop exceeds `eps`, and a tensor learning rate is filled in-place. `epoch` plays no
            part in the computation.

        Args:
            epoch: The current epoch, unused. / 当前 epoch，未使用。

        Raises:
            RuntimeError: Groups were added and `min_lr` was a list. / 新增了参数组而 `min_lr` 是列表。
        """
        # 中: 构造之后又 `add_param_group` 时，组数与 `min_lrs` 不再相符。
        # EN: After an `add_param_group` the groups no longer match `min_lrs`.
        if len(self.optimizer.param_groups) != len(self.min_lrs):
            # 中: 列表形式的下限无从推断新组的值，报错（文字与 torch 相同）。
            # EN: A list gives no value for the new groups, so it raises (with torch's text).
            if self.default_min_lr is None:
                now, then = len(self.optimizer.param_groups), len(self.min_lrs)
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({now}) differs from when "
                    f"`ReduceLROnPlateau` was initialized ({then}), usually due to a new param "
                    "group being added to the optimizer. Please modify the `min_lrs` field to "
                    "match the length of the `optimizer` param groups."
                )
            # 中: 单个数的下限按新的组数重新展开。
            # EN: A single-number bound is spread again over the new number of groups.
            else:
                self.min_lrs = [self.default_min_lr] * len(self.optimizer.param_groups)

        # 中: 在 Python float 上计算（张量学习率先 `float()`），与 torch 的运算相同，结果逐位一致。
        # EN: The arithmetic is on Python floats (a tensor rate goes through `float()` first),
        # EN: the same operations as torch's, so the result is bit for bit the same.
        for i, param_group in enumerate(self.optimizer.param_groups):
            old_lr = float(param_group["lr"])
            new_lr = max(old_lr * self.factor, self.min_lrs[i])
            if old_lr - new_lr > self.eps:
                _update_param_group_val(param_group, "lr", new_lr)

    @property
    def in_cooldown(self) -> bool:
        r"""Whether a cooldown is running. / 是否处于冷却期。

        === "中文"

            冷却计数器大于 0 时为真；冷却期内的坏结果不计数。

        === "English"

            True while the cooldown counter is above 0; bad results are not counted then.

        Returns:
            True during a cooldown. / 冷却期内为 True。
        """
        return self.cooldown_counter > 0

    def _is_better(self, a: float, best: float) -> bool:
        r"""Whether `a` clearly improves on `best`. / `a` 是否明显优于 `best`。

        === "中文"

            按类文档中的表格比较。`"rel"` 模式先算出 `1 - threshold` 或 `threshold + 1`
            再乘以 `best`，与 torch 的运算顺序相同，边界上的判断因此一致。

        === "English"

            Compares as in the table of the class docstring. In `"rel"` mode the factor
            `1 - threshold` or `threshold + 1` is computed first and then multiplied by `best`,
            torch's order of operations, so decisions at the boundary agree.

        Args:
            a: The new metric. / 新的指标。
            best: The best metric so far. / 迄今最好的指标。

        Returns:
            True for a clear improvement. / 明显变好时为 True。
        """
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        elif self.mode == "min" and self.threshold_mode == "abs":
            return a < best - self.threshold
        elif self.mode == "max" and self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        else:
            return a > best + self.threshold

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        r"""Check and store the comparison settings. / 检查并保存比较方式。

        === "中文"

            未知的模式报 `ValueError`，文字与 torch 相同。`mode_worse` 是该模式下最差的值，
            `_reset` 用它作为 `best` 的起点。

        === "English"

            An unknown mode raises `ValueError` with torch's text. `mode_worse` is the worst
            value for the mode, the starting `best` that `_reset` uses.

        Args:
            mode: `"min"` or `"max"`. / `"min"` 或 `"max"`。
            threshold: Margin of a clear improvement. / “明显变好”的幅度。
            threshold_mode: `"rel"` or `"abs"`. / `"rel"` 或 `"abs"`。

        Raises:
            ValueError: An unknown `mode` or `threshold_mode`. / 未知的 `mode` 或 `threshold_mode`。
        """
        # 中: 用字符串拼接而不是 f-string：与 torch 一样，非字符串的模式在这里报 TypeError。
        # EN: String concatenation, not an f-string: as in torch, a mode that is no string raises
        # EN: a TypeError here.
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")

        self.mode_worse = inf if mode == "min" else -inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Load the state, then re-check the comparison settings. / 加载状态，再重新检查比较方式。

        === "中文"

            先整体写入属性，再用载入的 `mode`、`threshold`、`threshold_mode` 调用
            `_init_is_better`：被篡改的模式会报错，`mode_worse` 也与模式保持一致。

        === "English"

            The attributes are written first, then `_init_is_better` runs with the loaded
            `mode`, `threshold` and `threshold_mode`: a corrupted mode raises, and
            `mode_worse` is made to match the mode.

        Args:
            state_dict: A dict from `state_dict()`. / `state_dict()` 返回的字典。

        Raises:
            ValueError: The loaded state holds an unknown mode. / 载入的状态含未知模式。
        """
        self.__dict__.update(state_dict)
        self._init_is_better(
            mode=self.mode, threshold=self.threshold, threshold_mode=self.threshold_mode
        )


class CyclicLR(LRScheduler):
    r"""Move the learning rate back and forth between two bounds. / 让学习率在两个边界之间往返。

    === "中文"

        循环学习率（Smith，arXiv:1506.01186）：每个周期长 `step_size_up + step_size_down`
        步，先在 `step_size_up` 步内从 `base_lr` 线性升到 `max_lr`，再在 `step_size_down`
        步内降回来。它按 batch 调度：每训练一个 batch 调用一次 `step()`。

        振幅 `max_lr - base_lr` 还乘以一个缩放系数 `scale_fn`：

        - `"triangular"`：恒为 1，每个周期一样高。
        - `"triangular2"`：第 `c` 个周期为 `1 / 2**(c - 1)`，每个周期减半。
        - `"exp_range"`：第 `n` 步为 `gamma**n`，按步数指数衰减。
        - 自定义 `scale_fn`：此时忽略 `mode`；`scale_mode` 决定它的参数是周期编号
          （`"cycle"`）还是总步数（`"iterations"`）。

        `cycle_momentum=True` 时动量（momentum）反向同步：学习率在 `base_lr` 时动量为
        `max_momentum`，学习率到 `max_lr` 时动量为 `base_momentum`。对带 `betas` 的优化器
        （如 Adam）改的是 `betas[0]`。

        构造时（`last_epoch=-1`）会把每组的 `lr` 改成 `base_lr`；这之后，基类照常写入
        `initial_lr` 并走第一步，但 `base_lrs` 最后被换成 `base_lr`，而不是 `initial_lr`。

    === "English"

        Cyclical learning rates (Smith, arXiv:1506.01186): each cycle lasts
        `step_size_up + step_size_down` steps; the rate rises linearly from `base_lr` to
        `max_lr` over `step_size_up` steps, then comes back over `step_size_down` steps. It
        schedules per batch: call `step()` once per trained batch.

        The amplitude `max_lr - base_lr` is also multiplied by a scale factor `scale_fn`:

        - `"triangular"`: always 1, every cycle equally high.
        - `"triangular2"`: `1 / 2**(c - 1)` in cycle `c`, halving each cycle.
        - `"exp_range"`: `gamma**n` at step `n`, decaying exponentially with the step count.
        - A custom `scale_fn`: then `mode` is ignored; `scale_mode` says whether its argument
          is the cycle number (`"cycle"`) or the total step count (`"iterations"`).

        With `cycle_momentum=True` the momentum moves the opposite way: `max_momentum` while
        the rate is at `base_lr`, `base_momentum` when it reaches `max_lr`. For optimizers with
        `betas` (such as Adam) it is `betas[0]` that moves.

        On construction (`last_epoch=-1`) each group's `lr` is set to `base_lr`; after that
        the base class writes `initial_lr` and takes the first step as usual, but `base_lrs`
        is finally replaced by `base_lr`, not `initial_lr`.

    Args:
        optimizer: The optimizer to schedule. / 被调度的优化器。
        base_lr: Lower bound, one number or one per group. / 下界，一个数或每组一个。
        max_lr: Upper bound, one number or one per group. / 上界，一个数或每组一个。
        step_size_up: Steps of the rising half. / 上升段的步数。
        step_size_down: Steps of the falling half; `None` means `step_size_up`. /
            下降段的步数；`None` 表示等于 `step_size_up`。
        mode: `"triangular"`, `"triangular2"` or `"exp_range"`. /
            `"triangular"`、`"triangular2"` 或 `"exp_range"`。
        gamma: Base of the `"exp_range"` decay. / `"exp_range"` 衰减的底数。
        scale_fn: Custom scale factor; overrides `mode`. / 自定义缩放系数，优先于 `mode`。
        scale_mode: `"cycle"` or `"iterations"`, the argument of `scale_fn`. /
            `"cycle"` 或 `"iterations"`，即 `scale_fn` 的参数。
        cycle_momentum: Whether momentum cycles too. / 是否同时循环动量。
        base_momentum: Momentum at the peak learning rate. / 学习率最高时的动量。
        max_momentum: Momentum at the lowest learning rate. / 学习率最低时的动量。
        last_epoch: Index of the last batch; `-1` starts afresh. / 上一个 batch 的编号；`-1` 表示从头开始。

    Raises:
        TypeError: `optimizer` is not an optimizer. / `optimizer` 不是优化器。
        ValueError: A list of the wrong length, an unknown `mode` without `scale_fn`, or
            momentum cycling on an optimizer without `momentum`/`betas`. /
            列表长度不对、未知 `mode` 且没有 `scale_fn`，或对没有 `momentum`/`betas` 的优化器循环动量。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
        >>> sched = optim.lr_scheduler.CyclicLR(opt, base_lr=0.0, max_lr=1.0, step_size_up=2)
        >>> lrs = []
        >>> for _ in range(4):
        ...     opt.step()
        ...     sched.step()
        ...     lrs.append(sched.get_last_lr()[0])
        >>> lrs
        [0.5, 1.0, 0.5, 0.0]
    """

    def __init__(
        self,
        optimizer: Optimizer,
        base_lr: float | list[float],
        max_lr: float | list[float],
        step_size_up: int = 2000,
        step_size_down: int | None = None,
        mode: Literal["triangular", "triangular2", "exp_range"] = "triangular",
        gamma: float = 1.0,
        scale_fn: Callable[[float], float] | None = None,
        scale_mode: Literal["cycle", "iterations"] = "cycle",
        cycle_momentum: bool = True,
        base_momentum: float = 0.8,
        max_momentum: float = 0.9,
        last_epoch: int = -1,
    ) -> None:
        r"""Check the options, set the cycle's start, take a step. / 检查选项、设定周期起点，再走第一步。

        === "中文"

            检查与赋值的顺序与 torch 相同（错误信息相同、状态字典的键序相同）。
            `cycle_momentum=True` 时，若优化器的 `defaults` 里既没有 `momentum` 也没有
            `betas`（例如 Adagrad），就报错，这时须传 `cycle_momentum=False`。

        === "English"

            Checks and assignments follow torch's order (same errors, same state_dict key
            order). With `cycle_momentum=True`, an optimizer whose `defaults` hold neither
            `momentum` nor `betas` (Adagrad, say) is an error; pass `cycle_momentum=False`
            then.

        Args:
            optimizer: The optimizer to schedule. / 被调度的优化器。
            base_lr: Lower bound(s). / 下界。
            max_lr: Upper bound(s). / 上界。
            step_size_up: Steps of the rising half. / 上升段的步数。
            step_size_down: Steps of the falling half, or `None`. / 下降段的步数，或 `None`。
            mode: Built-in policy name. / 内置策略名。
            gamma: Base of the `"exp_range"` decay. / `"exp_range"` 衰减的底数。
            scale_fn: Custom scale factor, or `None`. / 自定义缩放系数，或 `None`。
            scale_mode: `"cycle"` or `"iterations"`. / `"cycle"` 或 `"iterations"`。
            cycle_momentum: Whether momentum cycles too. / 是否同时循环动量。
            base_momentum: Momentum at the peak learning rate. / 学习率最高时的动量。
            max_momentum: Momentum at the lowest learning rate. / 学习率最低时的动量。
            last_epoch: Index of the last batch. / 上一个 batch 的编号。

        Raises:
            TypeError: `optimizer` is not an optimizer. / `optimizer` 不是优化器。
            ValueError: Bad lengths, mode or momentum support. / 长度、模式或动量支持不合要求。
        """
        # 中: 与 torch 相同只接受 `torch.optim.Optimizer`；本项目的优化器是它的子类，也被接受。
        # EN: As in torch only a `torch.optim.Optimizer` is accepted; our optimizers subclass it and
        # EN: pass too.
        if not isinstance(optimizer, torch.optim.Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        # 中: 从头开始时，周期从 `base_lr` 出发，所以先把它写进各组的 `lr`；基类稍后据此写入
        # 中: `initial_lr`（若该组还没有）。续训（`last_epoch >= 0`）时保留优化器里已有的值。
        # EN: A fresh start begins the cycle at `base_lr`, so it is written into each group's
        # EN: `lr` first; the base class later derives `initial_lr` from it (where the group has
        # EN: none). Resuming (`last_epoch >= 0`) keeps what the optimizer already holds.
        base_lrs = _format_param("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                _update_param_group_val(group, "lr", lr)
        self.max_lrs = _format_param("max_lr", optimizer, max_lr)

        # 中: 与 torch 一样用 `float()` 转换步长，所以 `total_size` 是 float（状态字典里也是）；
        # 中: `step_ratio` 是上升段在一个周期中所占的比例。
        # EN: The step sizes go through `float()` as in torch, so `total_size` is a float (in the
        # EN: state_dict too); `step_ratio` is the share of the rising half in one cycle.
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size

        # 中: 有自定义 `scale_fn` 时 `mode` 不必合法（它被忽略），只有两者都不可用才报错。
        # EN: With a custom `scale_fn`, `mode` need not be valid (it is ignored); only when
        # EN: neither is usable is it an error.
        if mode not in ["triangular", "triangular2", "exp_range"] and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()

        # 中: 动量循环只认优化器的 `defaults`：其中有 `momentum` 就改 `momentum`，有 `betas`
        # 中: 就改 `betas[0]`（两者都有时用 `betas`）；都没有则报错，文字与 torch 相同。
        # EN: Momentum cycling looks only at the optimizer's `defaults`: `momentum` there means
        # EN: `momentum` is cycled, `betas` means `betas[0]` (with both, `betas` wins); with
        # EN: neither it raises, with torch's text.
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError(
                    "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
                )
            self.use_beta1 = "betas" in self.optimizer.defaults
            # 中: 两个边界各展开为每组一个值（列表先查长度）。
            # EN: Both bounds are spread to one value per group (lists have their length checked).
            self.base_momentums = _format_param("base_momentum", optimizer, base_momentum)
            self.max_momentums = _format_param("max_momentum", optimizer, max_momentum)
            # 中: 从头开始时，动量从 `max_momentum` 出发，两个边界也记进每个参数组。
            # EN: A fresh start begins at `max_momentum` and records both bounds in each param
            # EN: group.
            if last_epoch == -1:
                for m_momentum, b_momentum, group in zip(
                    self.max_momentums, self.base_momentums, optimizer.param_groups, strict=True
                ):
                    _set_group_momentum(group, m_momentum, self.use_beta1)
                    group["max_momentum"] = m_momentum
                    group["base_momentum"] = b_momentum

        # 中: 基类的初始化用它从 `initial_lr` 取得的 `base_lrs` 走第一步；之后才换成 `base_lr`，
        # 中: 以后各步的下界都是这次给出的 `base_lr`。所以若某组事先已有 `initial_lr`（例如
        # 中: 另一个调度器留下的），第一步的学习率是那个值，而不是 `base_lr`，与 torch 相同。
        # EN: The base initialization takes the first step with the `base_lrs` it took from
        # EN: `initial_lr`; only then are they replaced by `base_lr`, the lower bound of every
        # EN: later step. So if a group already had an `initial_lr` (left by another scheduler,
        # EN: say), the first step's rate is that value, not `base_lr`, as in torch.
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self) -> None:
        r"""Pick the built-in scale function for `mode`. / 按 `mode` 选定内置缩放函数。

        === "中文"

            有自定义 `scale_fn` 时什么也不做。否则把函数存进 `_scale_fn_ref`，并把
            `scale_mode` 改成该策略固有的取值：`"triangular"`、`"triangular2"` 按周期，
            `"exp_range"` 按步数（用户传入的 `scale_mode` 被覆盖）。`load_state_dict` 之后
            也调用它，因为状态字典里不保存 `_scale_fn_ref`。

        === "English"

            Does nothing when a custom `scale_fn` is set. Otherwise it stores the function in
            `_scale_fn_ref` and sets `scale_mode` to the policy's own value: per cycle for
            `"triangular"` and `"triangular2"`, per step for `"exp_range"` (the user's
            `scale_mode` is overridden). `load_state_dict` calls it again, since the state_dict
            does not hold `_scale_fn_ref`.
        """
        if self._scale_fn_custom is not None:
            return
        # 中: 两种三角策略按周期编号缩放。
        # EN: The two triangular policies scale by the cycle number.
        if self.mode == "triangular":
            self._scale_fn_ref = self._triangular_scale_fn
            self.scale_mode = "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref = self._triangular2_scale_fn
            self.scale_mode = "cycle"
        # 中: `"exp_range"` 按总步数缩放；`partial` 把当前的 `gamma` 固定进函数，所以载入状态后
        # 中: 重建它，用的就是载入的 `gamma`。
        # EN: `"exp_range"` scales by the step count; `partial` fixes the current `gamma` into
        # EN: the function, so rebuilding it after loading a state picks up the loaded `gamma`.
        elif self.mode == "exp_range":
            self._scale_fn_ref = partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x: float) -> float:
        r"""The amplitude's scale factor at `x`. / 振幅在 `x` 处的缩放系数。

        === "中文"

            有自定义 `scale_fn` 就调用它，否则调用内置的 `_scale_fn_ref`。`x` 是周期编号
            还是总步数由 `scale_mode` 决定。

        === "English"

            Calls the custom `scale_fn` if there is one, else the built-in `_scale_fn_ref`.
            Whether `x` is the cycle number or the step count depends on `scale_mode`.

        Args:
            x: Cycle number or step count. / 周期编号或总步数。

        Returns:
            The scale factor. / 缩放系数。
        """
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x: float) -> float:
        r"""Scale factor of `"triangular"`: always 1. / `"triangular"` 的缩放系数：恒为 1。

        === "中文"

            每个周期的振幅都相同。

        === "English"

            Every cycle has the same amplitude.

        Args:
            x: Cycle number, ignored. / 周期编号，被忽略。

        Returns:
            `1.0`. / `1.0`。
        """
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x: float) -> float:
        r"""Scale factor of `"triangular2"`: halves each cycle. / `"triangular2"` 的缩放系数：每个周期减半。

        === "中文"

            第 1 个周期为 1，第 2 个为 0.5，依此类推。

        === "English"

            1 in cycle 1, 0.5 in cycle 2, and so on.

        Args:
            x: Cycle number, from 1. / 周期编号，从 1 开始。

        Returns:
            `1 / 2.0 ** (x - 1)`. / `1 / 2.0 ** (x - 1)`。
        """
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma: float, x: float) -> float:
        r"""Scale factor of `"exp_range"`: `gamma**x`. / `"exp_range"` 的缩放系数：`gamma**x`。

        === "中文"

            `gamma` 在前，便于 `_init_scale_fn` 用 `partial` 把它固定下来。

        === "English"

            `gamma` comes first so that `_init_scale_fn` can fix it with `partial`.

        Args:
            gamma: Decay base. / 衰减的底数。
            x: Step count. / 总步数。

        Returns:
            `gamma**x`. / `gamma**x`。
        """
        return gamma**x

    def get_lr(self) -> list[float | Tensor]:
        r"""Learning rates at step `last_epoch`; moves the momentum. / 第 `last_epoch` 步的学习率；同时移动动量。

        === "中文"

            `cycle` 是从 1 开始的周期编号，`x` 是本周期内的位置（0 到 1）。上升段中
            `scale_factor` 从 0 升到 1，下降段从 1 降到 0；学习率为
            `base_lr + (max_lr - base_lr) * scale_factor * scale_fn(...)`。
            `cycle_momentum=True` 时，动量按同样的系数从 `max_momentum` 往下减，并直接写进
            参数组（这是它的副作用）。

            须在 `step()` 内部调用，否则警告改用 `get_last_lr()`。

        === "English"

            `cycle` is the cycle number from 1, `x` the position in the cycle (0 to 1). In the
            rising half `scale_factor` goes from 0 to 1, in the falling half from 1 to 0; the
            rate is `base_lr + (max_lr - base_lr) * scale_factor * scale_fn(...)`. With
            `cycle_momentum=True` the momentum goes down from `max_momentum` by the same factor
            and is written straight into the param groups (a side effect).

            Meant to be called inside `step()`; otherwise it warns to use `get_last_lr()`.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)

        # 中: 位置的算法与 torch 相同（同样的浮点运算顺序），周期边界上的取值逐位一致。
        # EN: The position is computed as torch does (same floating-point operations in the same
        # EN: order), so values at cycle boundaries agree bit for bit.
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)

        # 中: `scale_fn` 每组调用一次（动量再每组一次），与 torch 次数相同，带状态的自定义
        # 中: 函数看到的调用序列也相同。
        # EN: `scale_fn` is called once per group (and once more per group for momentum), as
        # EN: many times as torch calls it, so a stateful custom function sees the same calls.
        scale_arg = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = []
        for base_lr, max_lr in zip(self.base_lrs, self.max_lrs, strict=True):
            base_height = (max_lr - base_lr) * scale_factor
            lrs.append(base_lr + base_height * self.scale_fn(scale_arg))

        # 中: 动量与学习率反向：从 `max_momentum` 往下减去同样比例的振幅。
        # EN: Momentum moves against the rate: the same share of its amplitude is taken off
        # EN: `max_momentum`.
        if self.cycle_momentum:
            momentums = []
            for base_momentum, max_momentum in zip(
                self.base_momentums, self.max_momentums, strict=True
            ):
                base_height = (max_momentum - base_momentum) * scale_factor
                momentums.append(max_momentum - base_height * self.scale_fn(scale_arg))
            # 中: 全部算完之后才逐组写入 `momentum` 或 `betas[0]`。
            # EN: Only once all are computed are they written into each group's `momentum` or
            # EN: `betas[0]`.
            for param_group, momentum in zip(self.optimizer.param_groups, momentums, strict=True):
                _set_group_momentum(param_group, momentum, self.use_beta1)

        return lrs

    def state_dict(self) -> dict[str, Any]:
        r"""The state, without the functions that cannot be saved. / 状态，去掉无法保存的函数。

        === "中文"

            在基类结果（除优化器外的全部属性）上：

            - 去掉 `_scale_fn_ref`：它由 `mode` 和 `gamma` 决定，加载时重建。
            - `_scale_fn_custom` 换成可保存的形式并挪到末尾：普通函数和 lambda 记为 `None`
              （lambda 无法被 pickle）；可调用对象只保存其 `__dict__` 的副本，即它的属性。

        === "English"

            On top of the base result (every attribute but the optimizer):

            - `_scale_fn_ref` is dropped: `mode` and `gamma` determine it, and loading
              rebuilds it.
            - `_scale_fn_custom` is replaced by a savable form and moved to the end: plain
              functions and lambdas become `None` (a lambda cannot be pickled); a callable
              object keeps only a copy of its `__dict__`, that is, its attributes.

        Returns:
            A dict that `torch.save` can pickle. / `torch.save` 可以序列化的字典。
        """
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        # 中: 先弹出再写回，所以这个键总在末尾，与 torch 的键序相同。
        # EN: Popped and then written back, so the key always comes last, as in torch.
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        r"""Load the state and rebuild the scale function. / 加载状态并重建缩放函数。

        === "中文"

            与 torch 一样会从传入的字典里弹出 `_scale_fn_custom`（调用者的字典因此少了这个键）。
            保存过的属性被写回本调度器自己的自定义函数：可调用对象本身不在状态字典里，须在
            构造新调度器时再次传入。最后 `_init_scale_fn` 按 `mode` 重建内置函数。

        === "English"

            As in torch, `_scale_fn_custom` is popped from the given dict (so the caller's
            dict loses that key). Saved attributes are written back into this scheduler's own
            custom function: the callable itself is not in the state_dict and must be passed
            again when the new scheduler is built. Finally `_init_scale_fn` rebuilds the
            built-in function from `mode`.

        Args:
            state_dict: A dict from `state_dict()`. / `state_dict()` 返回的字典。
        """
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class CosineAnnealingWarmRestarts(LRScheduler):
    r"""Cosine annealing with restarts, periods growing by `T_mult`. / 会重启、周期按 `T_mult` 增长的余弦退火。

    === "中文"

        SGDR（Loshchilov 与 Hutter，arXiv:1608.03983）：在一个周期内学习率按余弦从
        `base_lr` 降到 `eta_min`，

        `lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2`，

        其中 `T_cur` 是本周期已走的 epoch 数，`T_i` 是本周期的长度；周期结束时“热重启”回到
        `base_lr`，下一个周期长度变为 `T_i * T_mult`（第一个周期长 `T_0`）。

        `step(epoch)` 可以传小数 epoch（例如 `epoch + i / iters`，在一个 epoch 内逐 batch 调度），
        也可以与不带参数的 `step()` 交替使用；它不发出弃用警告。

    === "English"

        SGDR (Loshchilov and Hutter, arXiv:1608.03983): within one period the rate falls from
        `base_lr` to `eta_min` along a cosine,

        `lr = eta_min + (base_lr - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2`,

        where `T_cur` counts the epochs since the last restart and `T_i` is the period's
        length; at the end of a period a "warm restart" returns to `base_lr`, and the next
        period lasts `T_i * T_mult` (the first lasts `T_0`).

        `step(epoch)` accepts fractional epochs (e.g. `epoch + i / iters`, to schedule per
        batch within an epoch) and may be mixed with plain `step()` calls; it raises no
        deprecation warning.

    Args:
        optimizer: The optimizer to schedule. / 被调度的优化器。
        T_0: Length of the first period, a positive int. / 第一个周期的长度，正整数。
        T_mult: Growth factor of the period, an int >= 1. / 周期的增长倍数，不小于 1 的整数。
        eta_min: Lowest learning rate. / 最低学习率。
        last_epoch: Index of the last epoch; `-1` starts afresh. / 上一个 epoch 的编号；`-1` 表示从头开始。

    Raises:
        ValueError: A bad `T_0`, `T_mult` or `eta_min`. / `T_0`、`T_mult` 或 `eta_min` 不合法。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=2)
        >>> for epoch in [0.5, 1.0, 2.0]:
        ...     sched.step(epoch)
        ...     print(round(sched.get_last_lr()[0], 4))
        0.8536
        0.5
        1.0
    """

    def __init__(
        self,
        optimizer: Optimizer,
        T_0: int,
        T_mult: int = 1,
        eta_min: float = 0.0,
        last_epoch: int = -1,
    ) -> None:
        r"""Check the options, then take the first step. / 检查选项，然后走第一步。

        === "中文"

            `T_cur` 先取 `last_epoch`。基类初始化时的第一步：全新开始（`last_epoch=-1`）时当作
            跳到 epoch 0，得到 `T_cur = 0`、`T_i = T_0`；以 `last_epoch=k` 恢复时则把 `T_cur`
            加一，并至多按 `T_i` 取余一次（`T_i` 也只乘一次 `T_mult`）。所以只有周期等长
            （`T_mult == 1`）或 `k + 1 < 2 * T_0` 时，恢复后才处在第 `k + 1` 个 epoch 的位置；
            否则 `T_cur` 与 `T_i` 都不对（例如 `T_0=3, T_mult=2, last_epoch=7` 得到
            `T_cur=2, T_i=6`，而连续训练到第 8 个 epoch 时是 `T_cur=5`），与 torch 相同。
            这时接着调用 `step(k + 1)` 可由 epoch 直接算出正确的位置。

        === "English"

            `T_cur` starts as `last_epoch`. The first step, taken by the base initialization:
            on a fresh start (`last_epoch=-1`) it is a jump to epoch 0, giving `T_cur = 0` and
            `T_i = T_0`; when resuming with `last_epoch=k` it adds one to `T_cur` and, if that
            reaches `T_i`, takes it modulo `T_i` and multiplies `T_i` by `T_mult`, once. So only with
            equal periods (`T_mult == 1`) or `k + 1 < 2 * T_0` does a resumed scheduler sit at
            the position of epoch `k + 1`; otherwise `T_cur` and `T_i` are both wrong (e.g.
            `T_0=3, T_mult=2, last_epoch=7` gives `T_cur=2, T_i=6`, where uninterrupted training
            has `T_cur=5` at epoch 8), as in torch. Calling `step(k + 1)` next computes the
            right position from the epoch.

        Args:
            optimizer: The optimizer to schedule. / 被调度的优化器。
            T_0: Length of the first period. / 第一个周期的长度。
            T_mult: Growth factor of the period. / 周期的增长倍数。
            eta_min: Lowest learning rate. / 最低学习率。
            last_epoch: Index of the last epoch. / 上一个 epoch 的编号。

        Raises:
            ValueError: A bad `T_0`, `T_mult` or `eta_min`. / `T_0`、`T_mult` 或 `eta_min` 不合法。
        """
        # 中: 先比较大小再检查类型，与 torch 相同：`T_0=2.0` 得到 ValueError，而无法与 0 比较
        # 中: 的对象（如字符串）先在比较处报 TypeError。
        # EN: The comparison comes before the type check, as in torch: `T_0=2.0` gets a
        # EN: ValueError, while an object that cannot be compared with 0 (a string, say) raises
        # EN: a TypeError at the comparison first.
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        # 中: `eta_min` 只查类型，不查大小：负数或大于初始学习率的值都被接受。
        # EN: `eta_min` is checked for its type only, not its size: a negative value, or one
        # EN: above the initial learning rate, is accepted.
        if not isinstance(eta_min, (float, int)):
            raise ValueError(
                f"Expected float or int eta_min, but got {eta_min} of type {type(eta_min)}"
            )
        # 中: 第一个周期长 `T_0`；`T_cur` 先取 `last_epoch`，再由基类初始化时的第一步移动
        # 中: （恢复时只加一，并至多按 `T_i` 取余一次，见上面的文档）。
        # EN: The first period lasts `T_0`; `T_cur` starts as `last_epoch` and is then moved by
        # EN: the first step of the base initialization (when resuming: plus one, and one
        # EN: modulo `T_i` at most; see the docstring above).
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float | Tensor]:
        r"""Learning rates at position `T_cur` of period `T_i`. / 周期 `T_i` 中位置 `T_cur` 处的学习率。

        === "中文"

            即类文档中的余弦公式，`T_cur`、`T_i` 由 `step` 事先算好。须在 `step()` 内部调用，
            否则警告改用 `get_last_lr()`。

        === "English"

            The cosine formula of the class docstring, with `T_cur` and `T_i` prepared by
            `step`. Meant to be called inside `step()`; otherwise it warns to use
            `get_last_lr()`.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。
        """
        _warn_get_lr_called_within_step(self)
        # 中: 运算顺序与 torch 相同（先乘差值、后除以 2），结果逐位一致。
        # EN: Same order of operations as torch (multiply by the difference, then divide by 2),
        # EN: so results agree bit for bit.
        return [
            self.eta_min
            + (base_lr - self.eta_min) * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2
            for base_lr in self.base_lrs
        ]

    def step(self, epoch: float | None = None) -> None:
        r"""Advance one epoch, or jump to a (fractional) `epoch`. / 前进一个 epoch 或跳到 `epoch`（可为小数）。

        === "中文"

            不带参数时 `T_cur` 加一，走满 `T_i` 就取余并把 `T_i` 乘以 `T_mult`。带参数时由
            `epoch` 直接算出所在周期：

            - `epoch < T_0`：仍在第一个周期，`T_cur = epoch`。
            - `T_mult == 1`：周期等长，`T_cur = epoch % T_0`。
            - 否则前 `n` 个周期共 `T_0 * (T_mult**n - 1) / (T_mult - 1)` 个 epoch，由对数求出
              `n`，再得到 `T_cur` 与 `T_i = T_0 * T_mult**n`。

            `last_epoch` 记为 `math.floor(epoch)`，所以之后不带参数的 `step()` 让 `last_epoch`
            从下一个整数继续；但 `T_cur` 只是加一，保留小数部分（`step(6.5)` 之后的 `step()`
            使 `T_cur` 增加 1，小数 0.5 仍在）。

            它整个替换了基类的 `step`：既不更新 `_step_count`，也不检查调用顺序，传入
            `epoch` 也不发出弃用警告——这些都与 torch 相同。

        === "English"

            Without an argument, `T_cur` grows by one; when it reaches `T_i` it wraps around
            and `T_i` is multiplied by `T_mult`. With an argument, the period is derived from
            `epoch` directly:

            - `epoch < T_0`: still in the first period, `T_cur = epoch`.
            - `T_mult == 1`: equal periods, `T_cur = epoch % T_0`.
            - Otherwise the first `n` periods span `T_0 * (T_mult**n - 1) / (T_mult - 1)`
              epochs; a logarithm gives `n`, and from it `T_cur` and `T_i = T_0 * T_mult**n`.

            `last_epoch` becomes `math.floor(epoch)`, so a later plain `step()` moves
            `last_epoch` on to the next whole number; `T_cur`, however, just grows by one and
            keeps its fraction (a `step()` after `step(6.5)` raises `T_cur` by 1, the 0.5
            still there).

            It replaces the base `step` entirely: it neither updates `_step_count` nor checks
            the call order, and an `epoch` argument raises no deprecation warning, all as in
            torch.

        Args:
            epoch: Epoch to jump to, or `None` for the next one. / 要跳到的 epoch，`None` 表示下一个。

        Raises:
            ValueError: A negative `epoch`. / `epoch` 为负。
        """
        # 中: 构造时的第一步（`last_epoch` 仍为 -1）当作跳到第 0 个 epoch 处理。
        # EN: The first step, on construction (`last_epoch` still -1), is treated as a jump to
        # EN: epoch 0.
        if epoch is None and self.last_epoch < 0:
            epoch = 0

        # 中: 逐个 epoch 前进：只在走满一个周期时重启并拉长周期。
        # EN: Advance by one: restart and lengthen the period only when a period is complete.
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            # 中: 直接跳转：负的 epoch 报错。
            # EN: A direct jump: a negative epoch is an error.
            if epoch < 0:
                raise ValueError(f"Expected non-negative epoch, but got {epoch}")
            # 中: 几何级数求出已完成的周期数 `n`，与 torch 的浮点运算相同，
            # 中: 小数 epoch 下 `T_cur` 的值逐位一致。
            # EN: The geometric series gives the number `n` of complete periods,
            # EN: with torch's floating-point operations, so `T_cur` for fractional epochs
            # EN: agrees bit for bit.
            if epoch >= self.T_0:
                if self.T_mult == 1:
                    self.T_cur = epoch % self.T_0
                else:
                    n = int(math.log((epoch / self.T_0 * (self.T_mult - 1) + 1), self.T_mult))
                    self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
                    self.T_i = self.T_0 * self.T_mult ** (n)
            # 中: 还在第一个周期内：周期长度也恢复为 `T_0`（之前可能已经拉长过）。
            # EN: Still within the first period: the period length goes back to `T_0` too (it may
            # EN: have grown before).
            else:
                self.T_i = self.T_0
                self.T_cur = epoch
        # 中: 小数 epoch 向下取整后记入 `last_epoch`；`T_cur` 保留小数部分。
        # EN: A fractional epoch is floored into `last_epoch`; `T_cur` keeps the fraction.
        self.last_epoch = math.floor(epoch)

        # 中: 与基类相同的收尾：在允许调用 `get_lr` 的上下文里算出学习率、写入各组，再留副本。
        # EN: The same ending as the base class: compute the rates where `get_lr` is allowed,
        # EN: write them into the groups, then keep copies.
        with _enable_get_lr_call(self):
            for param_group, lr in zip(self.optimizer.param_groups, self.get_lr(), strict=True):
                _update_param_group_val(param_group, "lr", lr)
        self._last_lr = _param_groups_val_list(self.optimizer, "lr")


class _SchedulePhase(TypedDict):
    r"""One phase of `OneCycleLR`: its end and the values it joins. / `OneCycleLR` 的一段：终点与所连接的值。

    === "中文"

        `end_step` 是本段最后一步的编号（可以不是整数）。其余四项是参数组里的键名，例如
        `"initial_lr"`、`"max_lr"`：本段从 `group[start_lr]` 插值到 `group[end_lr]`，
        动量同理。存键名而不存数值，各参数组就能共用同一份分段表。

    === "English"

        `end_step` is the index of the phase's last step (not necessarily whole). The other
        four items are keys of the param groups, such as `"initial_lr"` or `"max_lr"`: the
        phase interpolates from `group[start_lr]` to `group[end_lr]`, and likewise for
        momentum. Storing keys rather than values lets all param groups share one phase table.
    """

    end_step: float
    start_lr: str
    end_lr: str
    start_momentum: str
    end_momentum: str


class OneCycleLR(LRScheduler):
    r"""The 1cycle policy: up to `max_lr`, then far below the start. / 1cycle：先升到 `max_lr`，再降到远低于起点。

    === "中文"

        1cycle（Smith 与 Topin，arXiv:1708.07120）：总共 `total_steps` 步（或
        `epochs * steps_per_epoch` 步），按 batch 调度。默认两段（fastai 的做法）：

        1. 前 `pct_start` 的步数里，学习率从 `max_lr / div_factor` 升到 `max_lr`；
        2. 剩下的步数里，从 `max_lr` 降到 `initial_lr / final_div_factor`。

        `three_phase=True` 时为论文原版的三段：升到 `max_lr`、对称地降回 `initial_lr`，
        最后一段再降到最小值。每段内按 `anneal_strategy` 做余弦（`"cos"`）或线性
        （`"linear"`）插值。动量与学习率反向变化（与
        [`CyclicLR`][annotated_optim.lr_scheduler.CyclicLR] 相同，带 `betas` 的优化器改
        `betas[0]`）。

        每段的起止值按名字（`"initial_lr"`、`"max_lr"`、`"min_lr"`、`"max_momentum"`、
        `"base_momentum"`）存放在 `_schedule_phases` 里；从头开始构造时把这些键写进每个参数组
        （两个动量键只在 `cycle_momentum=True` 时写）。
        步数超过 `total_steps` 后再 `step()` 会报错。

    === "English"

        1cycle (Smith and Topin, arXiv:1708.07120): `total_steps` steps in all (or
        `epochs * steps_per_epoch`), scheduled per batch. By default two phases (fastai's way):

        1. over the first `pct_start` of the steps, the rate rises from
           `max_lr / div_factor` to `max_lr`;
        2. over the rest, it falls from `max_lr` to `initial_lr / final_div_factor`.

        `three_phase=True` gives the paper's three phases: up to `max_lr`, symmetrically back
        to `initial_lr`, then down to the minimum in a last phase. Within a phase the values
        are interpolated by cosine (`"cos"`) or linearly (`"linear"`), per `anneal_strategy`.
        Momentum moves against the rate (as in
        [`CyclicLR`][annotated_optim.lr_scheduler.CyclicLR]; for optimizers with `betas` it
        is `betas[0]`).

        Each phase's start and end values are named (`"initial_lr"`, `"max_lr"`, `"min_lr"`,
        `"max_momentum"`, `"base_momentum"`) in `_schedule_phases`; a fresh construction writes
        these keys into each param group (the two momentum keys only with
        `cycle_momentum=True`). Calling `step()` past `total_steps` raises an error.

    Args:
        optimizer: The optimizer to schedule. / 被调度的优化器。
        max_lr: Peak learning rate, one number or one per group. / 最高学习率，一个数或每组一个。
        total_steps: Steps of the whole cycle. / 整个周期的步数。
        epochs: Epochs, used with `steps_per_epoch` when `total_steps` is `None`. /
            epoch 数，`total_steps` 为 `None` 时与 `steps_per_epoch` 一起使用。
        steps_per_epoch: Steps per epoch. / 每个 epoch 的步数。
        pct_start: Share of the steps spent rising, a float in [0, 1]. / 上升段所占比例，[0, 1] 内的 float。
        anneal_strategy: `"cos"` or `"linear"`. / `"cos"` 或 `"linear"`。
        cycle_momentum: Whether momentum cycles too. / 是否同时循环动量。
        base_momentum: Momentum at the peak learning rate. / 学习率最高时的动量。
        max_momentum: Momentum at the lowest learning rate. / 学习率最低时的动量。
        div_factor: Divisor of `max_lr` giving `initial_lr`. / 除 `max_lr` 得到 `initial_lr` 的除数。
        final_div_factor: Divisor of `initial_lr` giving `min_lr`. /
            除 `initial_lr` 得到 `min_lr` 的除数。
        three_phase: Use the paper's three phases. / 使用论文的三段式。
        last_epoch: Index of the last batch; `-1` starts afresh. / 上一个 batch 的编号；`-1` 表示从头开始。

    Raises:
        TypeError: `optimizer` is not an optimizer. / `optimizer` 不是优化器。
        ValueError: Bad step counts, `pct_start`, `anneal_strategy`, list lengths, or momentum
            cycling on an optimizer without `momentum`/`betas`. /
            步数、`pct_start`、`anneal_strategy`、列表长度不合法，或对没有 `momentum`/`betas`
            的优化器循环动量。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1, momentum=0.9)
        >>> sched = optim.lr_scheduler.OneCycleLR(
        ...     opt, max_lr=1.0, total_steps=10, anneal_strategy="linear"
        ... )
        >>> sched.get_last_lr()
        [0.04]
        >>> for _ in range(2):
        ...     opt.step()
        ...     sched.step()
        >>> sched.get_last_lr(), opt.param_groups[0]["momentum"]
        ([1.0], 0.85)
    """

    def __init__(
        self,
        optimizer: Optimizer,
        max_lr: float | list[float],
        total_steps: int | None = None,
        epochs: int | None = None,
        steps_per_epoch: int | None = None,
        pct_start: float = 0.3,
        anneal_strategy: Literal["cos", "linear"] = "cos",
        cycle_momentum: bool = True,
        base_momentum: float | list[float] = 0.85,
        max_momentum: float | list[float] = 0.95,
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
        last_epoch: int = -1,
    ) -> None:
        r"""Check the options, lay out the phases, then take the first step. / 检查选项、排好各段，再走第一步。

        === "中文"

            检查顺序与 torch 相同：优化器、步数、（排好各段后）`pct_start`、
            `anneal_strategy`、`max_lr` 的长度、动量支持与动量列表的长度。

        === "English"

            Checks run in torch's order: the optimizer, the step counts, (after laying out the
            phases) `pct_start`, `anneal_strategy`, the length of `max_lr`, momentum support
            and the lengths of the momentum lists.

        Args:
            optimizer: The optimizer to schedule. / 被调度的优化器。
            max_lr: Peak learning rate(s). / 最高学习率。
            total_steps: Steps of the whole cycle, or `None`. / 整个周期的步数，或 `None`。
            epochs: Epochs, or `None`. / epoch 数，或 `None`。
            steps_per_epoch: Steps per epoch, or `None`. / 每个 epoch 的步数，或 `None`。
            pct_start: Share of the steps spent rising. / 上升段所占比例。
            anneal_strategy: `"cos"` or `"linear"`. / `"cos"` 或 `"linear"`。
            cycle_momentum: Whether momentum cycles too. / 是否同时循环动量。
            base_momentum: Momentum at the peak learning rate. / 学习率最高时的动量。
            max_momentum: Momentum at the lowest learning rate. / 学习率最低时的动量。
            div_factor: Divisor giving `initial_lr`. / 得出 `initial_lr` 的除数。
            final_div_factor: Divisor giving `min_lr`. / 得出 `min_lr` 的除数。
            three_phase: Use three phases. / 使用三段式。
            last_epoch: Index of the last batch. / 上一个 batch 的编号。

        Raises:
            TypeError: `optimizer` is not an optimizer. / `optimizer` 不是优化器。
            ValueError: A bad option, as in the class docstring. / 选项不合法，见类文档。
        """
        # 中: 与 torch 相同只接受 `torch.optim.Optimizer`；本项目的优化器是它的子类，也被接受。
        # EN: As in torch only a `torch.optim.Optimizer` is accepted; our optimizers subclass it and
        # EN: pass too.
        if not isinstance(optimizer, torch.optim.Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer

        # 中: `total_steps` 优先。它先比较大小再查类型，与 torch 相同（这决定了传入怪值时报哪种
        # 中: 错：字符串在比较处报 TypeError）。
        # EN: `total_steps` takes precedence. It is compared before its type is checked, as in
        # EN: torch (this decides which error odd values get: a string raises a TypeError at the
        # EN: comparison).
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        # 中: 否则须同时给出 `epochs` 与 `steps_per_epoch`，两者都先查类型再比较大小。
        # EN: Otherwise both `epochs` and `steps_per_epoch` are needed; both have their type
        # EN: checked before their size.
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError(
                    f"Expected positive integer steps_per_epoch, but got {steps_per_epoch}"
                )
            self.total_steps = epochs * steps_per_epoch
        # 中: 两种给法都不完整（例如只给了 `epochs`）。
        # EN: Neither way is complete (e.g. only `epochs` was given).
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")

        # 中: 分段表：每行是 (本段最后一步的编号, 学习率起点键, 终点键, 动量起点键, 终点键)，
        # 中: 值本身存在参数组里。`end_step` 的算法与 torch 相同（如
        # 中: `float(pct_start * total_steps) - 1`），不一定是整数；最后一段总在第
        # 中: `total_steps - 1` 步结束。各列依次以 `_SchedulePhase` 的键命名。
        # EN: The phase table: each row is (index of the phase's last step, learning-rate start
        # EN: key, end key, momentum start key, end key); the values live in the param groups.
        # EN: Each `end_step` is computed as torch does (e.g.
        # EN: `float(pct_start * total_steps) - 1`) and need not be whole; the last phase always
        # EN: ends at step `total_steps - 1`. The columns are named after the keys of
        # EN: `_SchedulePhase`, in order.
        rise_end = float(pct_start * self.total_steps) - 1
        last_end = self.total_steps - 1
        # 中: 三段：升到 `max_lr`，到 `2 * pct_start` 处对称地降回 `initial_lr`，最后一段降到
        # 中: `min_lr`，动量停在 `max_momentum`。
        # EN: Three phases: up to `max_lr`, symmetrically back to `initial_lr` at
        # EN: `2 * pct_start`, then down to `min_lr` with the momentum held at `max_momentum`.
        if three_phase:
            fall_end = float(2 * pct_start * self.total_steps) - 2
            rows = [
                (rise_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                (fall_end, "max_lr", "initial_lr", "base_momentum", "max_momentum"),
                (last_end, "initial_lr", "min_lr", "max_momentum", "max_momentum"),
            ]
        # 中: 两段：升到 `max_lr`，再一路降到 `min_lr`。
        # EN: Two phases: up to `max_lr`, then all the way down to `min_lr`.
        else:
            rows = [
                (rise_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                (last_end, "max_lr", "min_lr", "base_momentum", "max_momentum"),
            ]
        self._schedule_phases: list[_SchedulePhase] = [
            dict(zip(_SchedulePhase.__annotations__, row)) for row in rows
        ]

        # 中: `pct_start` 必须是 float（`pct_start=1` 也报错）。它在排好各段之后才检查，与
        # 中: torch 相同。
        # EN: `pct_start` must be a float (`pct_start=1` is an error too). It is checked only
        # EN: after the phases are laid out, as in torch.
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(
                f"anneal_strategy must be one of 'cos' or 'linear', instead got {anneal_strategy}"
            )
        self._anneal_func_type = anneal_strategy

        # 中: 从头开始时写入三个学习率锚点；`initial_lr` 直接赋值（不是 `setdefault`），
        # 中: 所以会覆盖其他调度器留下的值，基类随后的 `setdefault` 不再改动它。
        # EN: A fresh start writes the three learning-rate anchors; `initial_lr` is assigned
        # EN: (not `setdefault`), so it overwrites what another scheduler left, and the base
        # EN: class's later `setdefault` leaves it alone.
        max_lrs = _format_param("max_lr", self.optimizer, max_lr)
        if last_epoch == -1:
            for idx, group in enumerate(self.optimizer.param_groups):
                group["initial_lr"] = max_lrs[idx] / div_factor
                group["max_lr"] = max_lrs[idx]
                group["min_lr"] = group["initial_lr"] / final_div_factor

        # 中: 动量的检查与写入与 `CyclicLR` 相同，只是边界只存在参数组里，调度器上不另存。
        # EN: Momentum is checked and written as in `CyclicLR`, except that the bounds are kept
        # EN: only in the param groups, not also on the scheduler.
        self.cycle_momentum = cycle_momentum
        if self.cycle_momentum:
            if "momentum" not in self.optimizer.defaults and "betas" not in self.optimizer.defaults:
                raise ValueError(
                    "optimizer must support momentum or beta1 with `cycle_momentum` option enabled"
                )
            self.use_beta1 = "betas" in self.optimizer.defaults
            # 中: 注意先展开 `max_momentum` 再展开 `base_momentum`（`CyclicLR` 相反），两者长度都
            # 中: 不对时报的是 `max_momentum`。
            # EN: Note that `max_momentum` is spread before `base_momentum` (the reverse of
            # EN: `CyclicLR`), so when both have the wrong length the error names `max_momentum`.
            max_momentums = _format_param("max_momentum", optimizer, max_momentum)
            base_momentums = _format_param("base_momentum", optimizer, base_momentum)
            # 中: 从头开始时，动量从 `max_momentum` 出发，两个边界记进每个参数组。
            # EN: A fresh start begins at `max_momentum` and records both bounds in each param
            # EN: group.
            if last_epoch == -1:
                for m_momentum, b_momentum, group in zip(
                    max_momentums, base_momentums, optimizer.param_groups, strict=True
                ):
                    _set_group_momentum(group, m_momentum, self.use_beta1)
                    group["max_momentum"] = m_momentum
                    group["base_momentum"] = b_momentum

        # 中: 基类初始化走第一步；从头开始时 `last_epoch` 变为 0，即第一段的起点。
        # EN: The base initialization takes the first step; on a fresh start `last_epoch` becomes
        # EN: 0, the start of the first phase.
        super().__init__(optimizer, last_epoch)

    def _anneal_func(self, *args: Any, **kwargs: Any) -> Any:
        r"""Interpolate with the chosen strategy. / 按所选策略插值。

        === "中文"

            按 `_anneal_func_type` 转给 `_annealing_cos` 或 `_annealing_linear`。存的是名字
            而不是函数，状态字典里因此没有函数对象。没有 `_anneal_func_type` 的对象退回调用
            它的 `anneal_func` 属性，这是 torch 为向后兼容保留的路径，这里照样保留。

        === "English"

            Dispatches on `_anneal_func_type` to `_annealing_cos` or `_annealing_linear`.
            Storing a name rather than a function keeps function objects out of the
            state_dict. An object without `_anneal_func_type` falls back to its `anneal_func`
            attribute, a path torch keeps for backward compatibility and kept here as well.

        Args:
            *args: `start, end, pct`. / `start, end, pct`。
            **kwargs: The same, by name. / 同上，按名字传入。

        Returns:
            The interpolated value. / 插值结果。

        Raises:
            ValueError: An unknown `_anneal_func_type`. / 未知的 `_anneal_func_type`。
        """
        if hasattr(self, "_anneal_func_type"):
            if self._anneal_func_type == "cos":
                return self._annealing_cos(*args, **kwargs)
            elif self._anneal_func_type == "linear":
                return self._annealing_linear(*args, **kwargs)
            else:
                raise ValueError(f"Unknown _anneal_func_type: {self._anneal_func_type}")
        # 中: torch 为向后兼容保留的路径：没有 `_anneal_func_type` 时调用 `anneal_func` 属性。
        # EN: The path torch keeps for backward compatibility: without `_anneal_func_type`, the
        # EN: `anneal_func` attribute is called.
        else:
            return self.anneal_func(*args, **kwargs)

    @staticmethod
    def _annealing_cos(start: float, end: float, pct: float) -> float:
        r"""Cosine interpolation from `start` to `end`. / 从 `start` 到 `end` 的余弦插值。

        === "中文"

            `end + (start - end) / 2.0 * (cos(pi * pct) + 1)`，运算顺序与 torch 相同。

        === "English"

            `end + (start - end) / 2.0 * (cos(pi * pct) + 1)`, in torch's order of operations.

        Args:
            start: Value at the phase start. / 本段起点的值。
            end: Value at the phase end. / 本段终点的值。
            pct: Progress in the phase. / 在本段中的进度。

        Returns:
            The interpolated value. / 插值结果。
        """
        cos_out = math.cos(math.pi * pct) + 1
        return end + (start - end) / 2.0 * cos_out

    @staticmethod
    def _annealing_linear(start: float, end: float, pct: float) -> float:
        r"""Linear interpolation from `start` to `end`. / 从 `start` 到 `end` 的线性插值。

        === "中文"

            `(end - start) * pct + start`，运算顺序与 torch 相同。

        === "English"

            `(end - start) * pct + start`, in torch's order of operations.

        Args:
            start: Value at the phase start. / 本段起点的值。
            end: Value at the phase end. / 本段终点的值。
            pct: Progress in the phase. / 在本段中的进度。

        Returns:
            The interpolated value. / 插值结果。
        """
        return (end - start) * pct + start

    def get_lr(self) -> list[float | Tensor]:
        r"""Learning rates at step `last_epoch`; moves the momentum. / 第 `last_epoch` 步的学习率；同时移动动量。

        === "中文"

            找到 `last_epoch` 所在的段（最后一段兜底），算出段内进度
            `pct = (step - start) / (end - start)`，在该段的起止值之间插值。
            `cycle_momentum=True` 时把动量写进参数组（副作用）。须在 `step()` 内部调用，
            否则警告改用 `get_last_lr()`。

        === "English"

            Finds the phase holding `last_epoch` (the last phase catches the rest), computes the
            progress `pct = (step - start) / (end - start)` and interpolates between the
            phase's start and end values. With `cycle_momentum=True` the momentum is written
            into the param groups (a side effect). Meant to be called inside `step()`;
            otherwise it warns to use `get_last_lr()`.

        Returns:
            One learning rate per param group. / 每个参数组一个学习率。

        Raises:
            ValueError: `last_epoch` is past `total_steps`. / `last_epoch` 超过了 `total_steps`。
        """
        _warn_get_lr_called_within_step(self)

        # 中: 第 `total_steps` 步本身仍被接受（最后一段的 pct 略大于 1），再往后才报错；报错时
        # 中: 基类已经把 `last_epoch` 加过一，与 torch 相同。
        # EN: Step `total_steps` itself is still accepted (the last phase's pct is a little
        # EN: above 1); only beyond it is an error, raised after the base class has already
        # EN: advanced `last_epoch`, as in torch.
        lrs = []
        step_num = self.last_epoch
        if step_num > self.total_steps:
            raise ValueError(
                f"Tried to step {step_num} times. "
                f"The specified number of total steps is {self.total_steps}"
            )

        # 中: 每组各自查找所在的段：值存在参数组里，各组可以有不同的 `max_lr` 与动量。
        # 中: 段的起点是上一段的 `end_step`，所以在交界处两段的公式给出同一个值。
        # EN: Each group looks up its phase: the values live in the param group, so groups may
        # EN: have different `max_lr` and momentum. A phase starts at the previous phase's
        # EN: `end_step`, so at a junction both phases' formulas give the same value.
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                # 中: 第一个满足 `step_num <= end_step` 的段；都不满足时用最后一段。`pct` 是段内
                # 中: 进度，与 torch 同样地计算，插值结果逐位一致。
                # EN: The first phase with `step_num <= end_step`, else the last one. `pct` is
                # EN: the progress within the phase, computed as torch does, so the interpolated
                # EN: values agree bit for bit.
                if step_num <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step_num - start_step) / (end_step - start_step)
                    computed_lr = self._anneal_func(
                        group[phase["start_lr"]], group[phase["end_lr"]], pct
                    )
                    # 中: 动量用同一个 `pct` 在本段的两个动量值之间插值。
                    # EN: Momentum is interpolated with the same `pct` between the phase's two
                    # EN: momentum values.
                    if self.cycle_momentum:
                        computed_momentum = self._anneal_func(
                            group[phase["start_momentum"]], group[phase["end_momentum"]], pct
                        )
                    break
                start_step = phase["end_step"]

            # 中: 学习率交给基类写入；动量在这里直接写进参数组。
            # EN: The learning rate goes back to the base class to be written; the momentum is
            # EN: written into the group right here.
            lrs.append(computed_lr)
            if self.cycle_momentum:
                _set_group_momentum(group, computed_momentum, self.use_beta1)

        return lrs
