r"""Gradient clipping by total norm or by value; mirrors `torch.nn.utils.clip_grad`. / 按总范数或按数值裁剪梯度，对应 `torch.nn.utils.clip_grad`。

=== "中文"

    反向传播（backward pass）偶尔会产生极大的梯度（gradient），例如 RNN 的梯度爆炸；一步走得太远，
    训练就会发散。梯度裁剪在 `loss.backward()` 之后、`optimizer.step()` 之前就地（in-place）
    修改各参数的 `.grad`，有两种做法：

    - [`clip_grad_norm_`][annotated_nn.utils.clip_grad.clip_grad_norm_]：把所有梯度看成拼在一起的
      一个长向量，求它的 p-范数（总范数）；总范数超过 `max_norm` 时把每个梯度乘以同一个系数
      `max_norm / (total_norm + 1e-6)`，方向不变，只是整体缩短。它由两步组成，也可以分开调用：
      [`_get_total_norm`][annotated_nn.utils.clip_grad._get_total_norm]（公开名 `get_total_norm`）
      求总范数，[`_clip_grads_with_norm_`][annotated_nn.utils.clip_grad._clip_grads_with_norm_]
      （公开名 `clip_grads_with_norm_`）按给定的总范数缩放。分开调用的用处是：总范数可以先在
      多个进程之间汇总（例如模型被切分到多张卡上时），再用汇总后的值来缩放。
    - [`clip_grad_value_`][annotated_nn.utils.clip_grad.clip_grad_value_]：把每个梯度元素截断到
      `[-clip_value, clip_value]`，会改变梯度的方向。

    这些函数只处理张量的可迭代对象，从不接触模块本身，因此对 annotated_nn 与 torch.nn 的模型都适用；
    这里重写它们，是为了把每一步讲清楚。运算与 torch 相同、顺序相同，所以结果逐位相同。

    1.5.1 → 2.13：1.5.1 的 `clip_grad_norm_` 已经是“先逐个求范数、再求范数的范数”，但用 Python 的
    `if clip_coef < 1` 决定是否缩放（梯度在 GPU 上时要等设备同步），没有 `error_if_nonfinite` 与
    `foreach` 参数；`get_total_norm` 与 `clip_grads_with_norm_` 还不存在；弃用的 `clip_grad_norm`
    当时发出的是 `UserWarning`，现在是 `FutureWarning`。

=== "English"

    A backward pass now and then produces huge gradients, e.g. exploding gradients in an RNN;
    one step too far and training diverges. Gradient clipping modifies each parameter's `.grad`
    in place after `loss.backward()` and before `optimizer.step()`, in one of two ways:

    - [`clip_grad_norm_`][annotated_nn.utils.clip_grad.clip_grad_norm_] treats all gradients as
      one long concatenated vector and takes its p-norm (the total norm); when that exceeds
      `max_norm`, every gradient is multiplied by the same factor
      `max_norm / (total_norm + 1e-6)`, which keeps the direction and only shortens the whole.
      It consists of two steps that can also be called separately:
      [`_get_total_norm`][annotated_nn.utils.clip_grad._get_total_norm] (public name
      `get_total_norm`) computes the total norm, and
      [`_clip_grads_with_norm_`][annotated_nn.utils.clip_grad._clip_grads_with_norm_] (public
      name `clip_grads_with_norm_`) scales by a given total norm. Calling them separately lets
      the total norm be combined across processes first (e.g. when a model is sharded over
      several GPUs) and then used for scaling.
    - [`clip_grad_value_`][annotated_nn.utils.clip_grad.clip_grad_value_] clamps every gradient
      element into `[-clip_value, clip_value]`, which can change the gradient's direction.

    These functions handle iterables of tensors only and never touch a module, so they work on
    annotated_nn and torch.nn models alike; they are rewritten here so that every step can be
    explained. They run torch's operations in torch's order, so results are bit-identical.

    1.5.1 → 2.13: 1.5.1's `clip_grad_norm_` already took each tensor's norm and then the norm
    of those norms, but decided with a Python `if clip_coef < 1` whether to scale (waiting for
    the device when gradients live on a GPU), and had no `error_if_nonfinite` or `foreach`
    argument; `get_total_norm` and `clip_grads_with_norm_` did not exist yet; the deprecated
    `clip_grad_norm` warned with `UserWarning` then, `FutureWarning` now.
"""

import functools
import types
import typing
import warnings
from collections.abc import Callable
from typing import TypeAlias, TypeVar

import torch
from torch import Tensor
from torch.utils._foreach_utils import (
    _device_has_foreach_support,
    _group_tensors_by_device_and_dtype,
    _has_foreach_support,
)
from typing_extensions import ParamSpec, deprecated

__all__: list[str] = [
    "clip_grad_norm",
    "clip_grad_norm_",
    "clip_grad_value_",
]

# 中: 每个函数都接受单个张量或张量的可迭代对象（通常是 `model.parameters()`）。
# EN: Every function takes one tensor or an iterable of tensors (usually `model.parameters()`).
_tensor_or_tensors: TypeAlias = Tensor | typing.Iterable[Tensor]

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _no_grad(func: Callable[_P, _R]) -> Callable[_P, _R]:
    r"""Wrap `func` to run under `torch.no_grad()`. / 包装 `func`，使它在 `torch.no_grad()` 下运行。

    === "中文"

        裁剪是对 `.grad` 的就地修改，不应被自动求导（autograd）记录：用
        `backward(create_graph=True)` 得到的梯度本身带有计算图，不关掉梯度记录，
        这些乘法和截断就会接进图里。

        PyTorch 写这个小包装而不直接用 `@torch.no_grad()`，是为了避开它自己导入时的循环导入；
        本库沿用同样的结构，于是各函数与 torch 的一样带有 `__wrapped__`，并保留自己的 `__name__`
        与 `__doc__`。

    === "English"

        Clipping modifies `.grad` in place and must not be recorded by autograd: gradients from
        `backward(create_graph=True)` carry a graph themselves, and unless gradient recording is
        off, these multiplications and clamps would join that graph.

        PyTorch wrote this small wrapper instead of using `@torch.no_grad()` to avoid a circular
        import while torch itself is imported; the same structure is kept here, so each
        function carries `__wrapped__` and keeps its own `__name__` and `__doc__`, as torch's
        do.

    Args:
        func: The function to wrap. / 要包装的函数。

    Returns:
        The wrapper, carrying `func`'s metadata. / 带有 `func` 元数据的包装函数。
    """

    def _no_grad_wrapper(*args, **kwargs):
        r"""Call the wrapped function with gradient recording off. / 关闭梯度记录后调用被包装的函数。

        === "中文"

            参数原样转交，返回值原样返回。

        === "English"

            Arguments and the return value pass through unchanged.

        Args:
            *args: Positional arguments for `func`. / 传给 `func` 的位置参数。
            **kwargs: Keyword arguments for `func`. / 传给 `func` 的关键字参数。

        Returns:
            What `func` returns. / `func` 的返回值。
        """
        with torch.no_grad():
            return func(*args, **kwargs)

    # 中: 复制 `__name__`、`__doc__` 等并设置 `__wrapped__`，帮助文档与 `inspect` 看到的是原函数。
    # EN: Copy `__name__`, `__doc__` and friends and set `__wrapped__`, so help and `inspect` see
    # EN: the original function.
    functools.update_wrapper(_no_grad_wrapper, func)
    return _no_grad_wrapper


@_no_grad
def _get_total_norm(
    tensors: _tensor_or_tensors,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> torch.Tensor:
    r"""Compute the p-norm of all tensors viewed as one vector; public as `get_total_norm`. / 求所有张量拼成一个向量后的 p-范数；公开名为 `get_total_norm`。

    === "中文"

        不真的拼接（那要复制全部梯度），而是分两遍：先求每个张量自己的范数，再求这些范数组成的
        向量的范数。对 `p ≠ 0` 这在数学上等于拼接后的范数（`inf` 取最大值、`-inf` 取最小值同理），
        但舍入不同，所以要与 torch 逐位相同就必须同样分两遍。`norm_type=0` 是例外：第二遍数的
        是“含非零元素的张量个数”，而不是非零元素的个数。

        第一遍按（设备，数据类型）分组：同一组的张量能交给一个 foreach 内核
        `torch._foreach_norm` 一次算完，而不是每个张量调用一次 `torch.linalg.vector_norm`。
        `foreach=None` 时，只有设备支持 foreach 且张量的类型恰好是 `torch.Tensor` 才走 foreach
        （`Parameter` 等子类不算，所以直接传 `model.parameters()` 走的是逐个路径）；`foreach=True`
        只看设备，设备不支持就报错；`foreach=False` 总是逐个计算。

        各组的范数先搬到第一个张量所在的设备，再 `stack` 起来求第二遍；不同数据类型按类型提升规则
        合并。没有任何张量时返回 `torch.tensor(0.0)`（默认数据类型、默认设备）。

        名字以下划线开头是沿用 torch：`torch.nn.utils.get_total_norm` 就是这个函数换了个名字转出。

    === "English"

        It does not really concatenate (that would copy every gradient) but makes two passes:
        first the norm of each tensor, then the norm of the vector of those norms. For `p ≠ 0`
        this equals the norm of the concatenation mathematically (`inf` takes the maximum,
        `-inf` the minimum, alike), but the rounding differs, so being bit-identical to torch
        requires the same two passes. `norm_type=0` is the exception: the second pass counts
        the tensors holding a nonzero element, not the nonzero elements.

        The first pass groups tensors by (device, dtype): one group can go to one foreach kernel,
        `torch._foreach_norm`, in a single call instead of one `torch.linalg.vector_norm` call
        per tensor. With `foreach=None`, foreach is used only when the device supports it and
        every tensor's type is exactly `torch.Tensor` (subclasses such as `Parameter` do not
        qualify, so passing `model.parameters()` directly takes the per-tensor path);
        `foreach=True` looks at the device only and raises when it lacks support;
        `foreach=False` always goes tensor by tensor.

        Each group's norms are moved to the first tensor's device and `stack`ed for the second
        pass; different dtypes merge by type promotion. With no tensors at all the result is
        `torch.tensor(0.0)` (default dtype, default device).

        The leading underscore follows torch: `torch.nn.utils.get_total_norm` is this function
        exported under another name.

    Args:
        tensors: One tensor or an iterable of tensors (usually gradients). / 单个张量或张量的可迭代对象（通常是梯度）。
        norm_type: The p of the p-norm; `'inf'` is accepted. / p-范数的 p；也接受 `'inf'`。
        error_if_nonfinite: Raise when the total norm is `nan` or infinite. / 总范数为 `nan` 或无穷时报错。
        foreach: `None` decides per group, `True` forces foreach, `False` avoids it. / `None` 按组自动选择，`True` 强制 foreach，`False` 不用。

    Returns:
        The total norm, a 0-dimensional tensor. / 总范数，0 维张量。

    Raises:
        RuntimeError: Non-finite total norm with `error_if_nonfinite=True`, or `foreach=True` on a device without foreach support. / `error_if_nonfinite=True` 时总范数非有限，或 `foreach=True` 但设备不支持 foreach。
        ValueError: `norm_type` cannot be converted to `float`. / `norm_type` 不能转换为 `float`。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.clip_grad import _get_total_norm
        >>> _get_total_norm([torch.tensor([3.0]), torch.tensor([4.0])])
        tensor(5.)
    """
    # 中: 统一成列表：单个张量包成一元列表，生成器只能遍历一次，先取完。
    # 中: `float()` 让字符串 `'inf'` 也能用；它在检查空列表之前，所以非法的 `norm_type` 总会报错。
    # EN: Normalize to a list: one tensor becomes a one-item list, and a generator, which can be
    # EN: iterated once only, is drained. `float()` lets the string `'inf'` work; it runs before
    # EN: the empty check, so an invalid `norm_type` always raises.
    if isinstance(tensors, torch.Tensor):
        tensors = [tensors]
    else:
        tensors = list(tensors)
    norm_type = float(norm_type)
    if len(tensors) == 0:
        return torch.tensor(0.0)
    first_device = tensors[0].device
    # 中: 分组结果的键是（设备，数据类型），值是（列表的列表，下标）；这里只传入一个列表，
    # 中: 所以每组的值形如 `([该组张量], 下标)`。
    # EN: The groups are keyed by (device, dtype); each value is (list of lists, indices). Only
    # EN: one list goes in here, so each value looks like `([the group's tensors], indices)`.
    grouped_tensors = _group_tensors_by_device_and_dtype([tensors])

    # 中: 第一遍：每个张量自己的范数，能用 foreach 的组一次算完。报错文字与 torch 相同。
    # EN: First pass: each tensor's own norm, a whole group at once where foreach is usable.
    # EN: The error text is torch's.
    norms: list[Tensor] = []
    for (device, _), ([device_tensors], _) in grouped_tensors.items():
        if (foreach is None and _has_foreach_support(device_tensors, device)) or (
            foreach and _device_has_foreach_support(device)
        ):
            norms.extend(torch._foreach_norm(device_tensors, norm_type))
        elif foreach:
            raise RuntimeError(
                f"foreach=True was passed, but can't use the foreach API on {device.type} tensors"
            )
        else:
            norms.extend([torch.linalg.vector_norm(g, norm_type) for g in device_tensors])

    # 中: 第二遍：把各组的范数集中到第一个张量的设备上，对它们再求一次同阶范数。
    # EN: Second pass: gather the groups' norms on the first tensor's device and take the
    # EN: norm of the same order over them.
    total_norm = torch.linalg.vector_norm(
        torch.stack([norm.to(first_device) for norm in norms]), norm_type
    )

    # 中: 只有要求报错时才检查：把张量转成 Python 布尔值需要等设备算完（GPU 上是一次同步）。
    # EN: Checked only when asked for: turning a tensor into a Python bool waits for the device
    # EN: to finish (a synchronization on a GPU).
    if error_if_nonfinite and torch.logical_or(total_norm.isnan(), total_norm.isinf()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from "
            "`parameters` is non-finite, so it cannot be clipped. To disable "
            "this error and scale the gradients by the non-finite norm anyway, "
            "set `error_if_nonfinite=False`"
        )
    return total_norm


@_no_grad
def _clip_grads_with_norm_(
    parameters: _tensor_or_tensors,
    max_norm: float,
    total_norm: torch.Tensor,
    foreach: bool | None = None,
) -> None:
    r"""Scale the gradients in place by a given total norm; public as `clip_grads_with_norm_`. / 按给定总范数就地缩放梯度；公开名为 `clip_grads_with_norm_`。

    === "中文"

        每个梯度都乘以 `min(max_norm / (total_norm + 1e-6), 1)`：只会缩小，从不放大。总范数比
        `max_norm` 小出 `1e-6` 以上时系数是 1，梯度不变；但总范数恰好等于（或只略小于）`max_norm`
        时系数仍略小于 1，梯度会被轻微缩小。分母加 `1e-6` 让全零梯度（总范数为 0）时不至于
        除以零。`.grad` 为 `None` 的参数被跳过。

        `total_norm` 通常来自 [`_get_total_norm`][annotated_nn.utils.clip_grad._get_total_norm]，
        也可以是调用者自己算的（例如在多个进程间汇总过的），这正是把两步拆开的原因。

    === "English"

        Every gradient is multiplied by `min(max_norm / (total_norm + 1e-6), 1)`: gradients
        are only ever shrunk, never enlarged. When the total norm is more than `1e-6` below
        `max_norm` the factor is 1 and the gradients stay; but a total norm equal to (or just
        below) `max_norm` still gives a factor slightly under 1 and shrinks them a little. The
        `1e-6` in the denominator avoids a division by zero when all gradients are zero (total
        norm 0). Parameters whose `.grad` is `None` are
        skipped.

        `total_norm` usually comes from
        [`_get_total_norm`][annotated_nn.utils.clip_grad._get_total_norm], but the caller may
        compute it some other way (e.g. combined across processes), which is why the two steps
        are separate.

    Args:
        parameters: One tensor or an iterable of tensors whose `.grad` is scaled. / 单个张量或张量的可迭代对象，缩放它们的 `.grad`。
        max_norm: The largest total norm allowed. / 允许的最大总范数。
        total_norm: The total norm of the gradients, a tensor. / 梯度的总范数（张量）。
        foreach: `None` decides per group, `True` forces foreach, `False` avoids it. / `None` 按组自动选择，`True` 强制 foreach，`False` 不用。

    Raises:
        RuntimeError: `foreach=True` on a device without foreach support. / `foreach=True` 但设备不支持 foreach。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.clip_grad import _clip_grads_with_norm_
        >>> p = torch.zeros(2, requires_grad=True)
        >>> p.grad = torch.tensor([3.0, 4.0])
        >>> _clip_grads_with_norm_([p], 1.0, torch.tensor(5.0))
        >>> p.grad
        tensor([0.6000, 0.8000])
    """
    # 中: 只取存在的梯度。`float(max_norm)` 在检查空列表之前，与 torch 的报错顺序相同。
    # EN: Keep the gradients that exist. `float(max_norm)` comes before the empty check, the
    # EN: same order of errors as torch.
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    if len(grads) == 0:
        return
    grouped_grads = _group_tensors_by_device_and_dtype([grads])

    # 中: `clip_coef_clamped` 是最终的缩放系数，一个留在设备上的 0 维张量。不写
    # 中: `if clip_coef < 1:` 而总是相乘（系数为 1 时乘了等于没乘）：比较的结果要回到 CPU 上的
    # 中: Python，梯度在 GPU 上时就得等设备算完，总是相乘则不必同步。
    # EN: `clip_coef_clamped` is the final scale factor, a 0-dimensional tensor kept on the
    # EN: device. Rather than `if clip_coef < 1:`, it always multiplies (a factor of 1 changes
    # EN: nothing): the comparison would have to reach Python on the CPU, and with gradients on
    # EN: a GPU that means waiting for the device; always multiplying needs no synchronization.
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    # 中: 就地乘在 `.grad` 上（`_foreach_mul_` 与 `mul_`），不分配新梯度：参数的 `.grad` 仍是原来
    # 中: 那个张量，它的别名也跟着变，例如 DDP 在 `gradient_as_bucket_view=True` 时让 `.grad`
    # 中: 成为一块扁平缓冲的视图。系数先 `.to(device)` 搬到每组的设备上。报错文字与 torch 相同。
    # EN: Multiply `.grad` in place (`_foreach_mul_` and `mul_`), allocating no new gradients:
    # EN: each parameter's `.grad` stays the same tensor and its aliases follow, e.g. DDP with
    # EN: `gradient_as_bucket_view=True` makes `.grad` a view into a flat buffer. The factor is
    # EN: first moved with `.to(device)` to each group's device. The error text is torch's.
    for (device, _), ([device_grads], _) in grouped_grads.items():
        if (foreach is None and _has_foreach_support(device_grads, device)) or (
            foreach and _device_has_foreach_support(device)
        ):
            torch._foreach_mul_(device_grads, clip_coef_clamped.to(device))
        elif foreach:
            raise RuntimeError(
                f"foreach=True was passed, but can't use the foreach API on {device.type} tensors"
            )
        else:
            clip_coef_clamped_device = clip_coef_clamped.to(device)
            for g in device_grads:
                g.mul_(clip_coef_clamped_device)


@_no_grad
def clip_grad_norm_(
    parameters: _tensor_or_tensors,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> torch.Tensor:
    r"""Clip the gradients' total norm to `max_norm`, in place. / 把梯度的总范数就地裁剪到 `max_norm`。

    === "中文"

        等于先调用 [`_get_total_norm`][annotated_nn.utils.clip_grad._get_total_norm] 求出全部
        现有梯度的总范数，再把它交给
        [`_clip_grads_with_norm_`][annotated_nn.utils.clip_grad._clip_grads_with_norm_] 缩放。
        返回的是裁剪之前的总范数，常被记进日志，用来观察训练是否稳定。

        `parameters` 若是生成器（如 `model.parameters()`），先被取成列表，因为两步都要遍历它；
        空的生成器会发出 `UserWarning`（通常说明传错了对象），空列表则不会。

    === "English"

        Equivalent to calling [`_get_total_norm`][annotated_nn.utils.clip_grad._get_total_norm]
        on all existing gradients and handing the result to
        [`_clip_grads_with_norm_`][annotated_nn.utils.clip_grad._clip_grads_with_norm_] for the
        scaling. It returns the total norm from before clipping, often logged to watch whether
        training is stable.

        A generator `parameters` (such as `model.parameters()`) is first drained into a list,
        since both steps iterate over it; an empty generator warns with `UserWarning` (usually
        a sign that the wrong object was passed), an empty list does not.

    Args:
        parameters: One tensor or an iterable of tensors whose `.grad` is clipped. / 单个张量或张量的可迭代对象，裁剪它们的 `.grad`。
        max_norm: The largest total norm allowed. / 允许的最大总范数。
        norm_type: The p of the p-norm; `'inf'` is accepted. / p-范数的 p；也接受 `'inf'`。
        error_if_nonfinite: Raise when the total norm is `nan` or infinite. / 总范数为 `nan` 或无穷时报错。
        foreach: `None` decides per group, `True` forces foreach, `False` avoids it. / `None` 按组自动选择，`True` 强制 foreach，`False` 不用。

    Returns:
        The total norm of the gradients before clipping. / 裁剪之前梯度的总范数。

    Raises:
        RuntimeError: Non-finite total norm with `error_if_nonfinite=True`, or `foreach=True` on a device without foreach support. / `error_if_nonfinite=True` 时总范数非有限，或 `foreach=True` 但设备不支持 foreach。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.clip_grad import clip_grad_norm_
        >>> lin = nn.Linear(2, 1, bias=False)
        >>> lin.weight.grad = torch.tensor([[3.0, 4.0]])
        >>> clip_grad_norm_(lin.parameters(), max_norm=1.0)
        tensor(5.)
        >>> lin.weight.grad
        tensor([[0.6000, 0.8000]])
    """
    # 中: 取成列表，以免生成器在第一步里被耗尽、第二步什么也看不到。`stacklevel=3` 越过
    # 中: 本函数与 `_no_grad` 的包装函数，让警告指向调用者那一行。警告文字与 torch 相同。
    # EN: Drain into a list so that a generator is not used up by the first step, leaving
    # EN: nothing for the second. `stacklevel=3` skips this function and the `_no_grad`
    # EN: wrapper, pointing the warning at the caller's line. The text is torch's.
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    else:
        is_generator = isinstance(parameters, types.GeneratorType)
        parameters = list(parameters)
        if is_generator and len(parameters) == 0:
            warnings.warn(
                "`parameters` is an empty generator, no gradient clipping will occur.",
                stacklevel=3,
            )
    # 中: 两步：总范数只看存在的梯度；缩放再从参数出发（它自己跳过 `.grad` 为 `None` 的）。
    # EN: Two steps: the total norm sees the existing gradients only; the scaling starts from
    # EN: the parameters again (and skips those whose `.grad` is `None` itself).
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = _get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    _clip_grads_with_norm_(parameters, max_norm, total_norm, foreach)
    return total_norm


@deprecated(
    "`torch.nn.utils.clip_grad_norm` is now deprecated "
    "in favor of `torch.nn.utils.clip_grad_norm_`.",
    category=FutureWarning,
)
def clip_grad_norm(
    parameters: _tensor_or_tensors,
    max_norm: float,
    norm_type: float = 2.0,
    error_if_nonfinite: bool = False,
    foreach: bool | None = None,
) -> torch.Tensor:
    r"""Deprecated alias of `clip_grad_norm_`. / `clip_grad_norm_` 的弃用别名。

    === "中文"

        每次调用先发出 `FutureWarning`（由 `typing_extensions.deprecated` 装饰器发出，
        文字与 torch 逐字相同，所以提到的是 `torch.nn.utils` 的名字），再转交给
        [`clip_grad_norm_`][annotated_nn.utils.clip_grad.clip_grad_norm_]。按 PyTorch 的惯例，
        就地修改输入的函数名以下划线结尾；旧名字没有下划线，于是改名为带下划线的版本，旧名字保留为别名。

    === "English"

        Each call first warns with `FutureWarning` (emitted by the `typing_extensions.deprecated`
        decorator, in torch's exact words, so it names `torch.nn.utils`), then hands over to
        [`clip_grad_norm_`][annotated_nn.utils.clip_grad.clip_grad_norm_]. By PyTorch's
        convention a function that modifies its input in place has a name ending in an
        underscore; the old name lacked it, so the function was renamed and the old name kept as
        an alias.

    Args:
        parameters: One tensor or an iterable of tensors whose `.grad` is clipped. / 单个张量或张量的可迭代对象，裁剪它们的 `.grad`。
        max_norm: The largest total norm allowed. / 允许的最大总范数。
        norm_type: The p of the p-norm; `'inf'` is accepted. / p-范数的 p；也接受 `'inf'`。
        error_if_nonfinite: Raise when the total norm is `nan` or infinite. / 总范数为 `nan` 或无穷时报错。
        foreach: `None` decides per group, `True` forces foreach, `False` avoids it. / `None` 按组自动选择，`True` 强制 foreach，`False` 不用。

    Returns:
        The total norm of the gradients before clipping. / 裁剪之前梯度的总范数。
    """
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


@_no_grad
def clip_grad_value_(
    parameters: _tensor_or_tensors,
    clip_value: float,
    foreach: bool | None = None,
) -> None:
    r"""Clamp every gradient element into `[-clip_value, clip_value]`, in place. / 把每个梯度元素就地截断到 `[-clip_value, clip_value]`。

    === "中文"

        与按范数裁剪不同，每个元素各自截断，梯度的方向可能改变；不求范数，也就没有
        `error_if_nonfinite`，返回 `None`。`.grad` 为 `None` 的参数被跳过；但与按范数裁剪不同，
        这里不先检查列表是否为空：输入为空或所有 `.grad` 都是 `None` 时，分组例程
        `_group_tensors_by_device_and_dtype` 抛出 `RuntimeError`（与 torch 相同）。分组与
        foreach 的选择规则与 [`_get_total_norm`][annotated_nn.utils.clip_grad._get_total_norm] 相同。

    === "English"

        Unlike clipping by norm, each element is clamped on its own, so the gradient's direction
        may change; no norm is computed, hence no `error_if_nonfinite`, and `None` is returned.
        Parameters whose `.grad` is `None` are skipped; but unlike clipping by norm, there is no
        check for an empty list first: with no input, or with every `.grad` `None`, the grouping
        routine `_group_tensors_by_device_and_dtype` raises `RuntimeError` (as in torch).
        Grouping and the foreach choice follow the rules of
        [`_get_total_norm`][annotated_nn.utils.clip_grad._get_total_norm].

    Args:
        parameters: One tensor or an iterable of tensors whose `.grad` is clamped. / 单个张量或张量的可迭代对象，截断它们的 `.grad`。
        clip_value: The largest absolute value allowed. / 允许的最大绝对值。
        foreach: `None` decides per group, `True` forces foreach, `False` avoids it. / `None` 按组自动选择，`True` 强制 foreach，`False` 不用。

    Raises:
        RuntimeError: No gradient at all, or `foreach=True` on a device without foreach support. / 一个梯度也没有，或 `foreach=True` 但设备不支持 foreach。

    Examples:
        >>> import torch
        >>> from annotated_nn.utils.clip_grad import clip_grad_value_
        >>> p = torch.zeros(3, requires_grad=True)
        >>> p.grad = torch.tensor([-2.0, 0.5, 3.0])
        >>> clip_grad_value_(p, 1.0)
        >>> p.grad
        tensor([-1.0000,  0.5000,  1.0000])
    """
    # 中: 与按范数裁剪相同的准备：单个张量包成列表，只取存在的梯度，按（设备，数据类型）分组。
    # 中: 没有空列表检查，所以一个梯度也没有时由分组例程报错。
    # EN: The same preparation as for clipping by norm: one tensor becomes a list, only
    # EN: existing gradients are kept, and they are grouped by (device, dtype). There is no
    # EN: empty-list check, so with no gradient at all the grouping routine raises.
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    grads = [p.grad for p in parameters if p.grad is not None]
    grouped_grads = _group_tensors_by_device_and_dtype([grads])

    # 中: foreach 路径分两次就地截断（先下界、后上界）；逐个路径用一次 `clamp_` 同时给出两端。
    # 中: 报错文字与 torch 相同。
    # EN: The foreach path clamps in place twice (lower bound, then upper bound); the
    # EN: per-tensor path gives both bounds to one `clamp_`. The error text is torch's.
    for (device, _), ([device_grads], _) in grouped_grads.items():
        if (foreach is None and _has_foreach_support(device_grads, device=device)) or (
            foreach and _device_has_foreach_support(device)
        ):
            torch._foreach_clamp_min_(device_grads, -clip_value)
            torch._foreach_clamp_max_(device_grads, clip_value)
        elif foreach:
            raise RuntimeError(
                f"foreach=True was passed, but can't use the foreach API on {device.type} tensors"
            )
        else:
            for grad in device_grads:
                grad.clamp_(min=-clip_value, max=clip_value)
