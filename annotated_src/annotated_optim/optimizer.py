r"""The base class of every optimizer, and the helpers the optimizers share; mirrors `torch.optim.optimizer`. / 所有优化器的基类及它们共用的辅助函数，对应 `torch.optim.optimizer`。

=== "中文"

    这个文件里有三样东西：`Optimizer` 基类；对进程里所有优化器生效的两个全局 step 钩子的
    注册函数 [`register_optimizer_step_pre_hook`][annotated_optim.optimizer.register_optimizer_step_pre_hook]
    与 [`register_optimizer_step_post_hook`][annotated_optim.optimizer.register_optimizer_step_post_hook]；
    以及各个具体优化器（SGD、Adam……）共用的私有小工具，例如选择 foreach/fused 实现的
    [`_default_to_fused_or_foreach`][annotated_optim.optimizer._default_to_fused_or_foreach]、
    决定 `step()` 内是否记录梯度的
    [`_use_grad_for_differentiable`][annotated_optim.optimizer._use_grad_for_differentiable]。
    参数组、`state` 与状态字典（state_dict）的整数编号，书中“优化器基类”一页的开头有讲解。

=== "English"

    This file holds three things: the `Optimizer` base class; the registration functions of the
    two global step hooks that act on every optimizer in the process,
    [`register_optimizer_step_pre_hook`][annotated_optim.optimizer.register_optimizer_step_pre_hook]
    and [`register_optimizer_step_post_hook`][annotated_optim.optimizer.register_optimizer_step_post_hook];
    and the private tools the concrete optimizers (SGD, Adam, ...) share, such as
    [`_default_to_fused_or_foreach`][annotated_optim.optimizer._default_to_fused_or_foreach],
    which picks the foreach or fused implementation, and
    [`_use_grad_for_differentiable`][annotated_optim.optimizer._use_grad_for_differentiable],
    which decides whether `step()` records gradients. Parameter groups, `state` and the
    integers of the state_dict are explained at the start of the book's page "The Optimizer
    base class".
"""

import functools
import inspect
import sys
import types
import warnings
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from copy import deepcopy
from itertools import chain
from typing import Any, TypeAlias

import torch
from torch.utils._foreach_utils import (
    _get_foreach_kernels_supported_devices,
    _get_fused_kernels_supported_devices,
)
from torch.utils._foreach_utils import (
    _group_tensors_by_device_and_dtype as _group_by_device_and_dtype_kernel,
)
from typing_extensions import Self, deprecated

import annotated_nn
from annotated_nn.modules.module import _SharedGlobalHooks, _TorchGlobal
from annotated_nn.utils.hooks import RemovableHandle

__all__ = [
    "Optimizer",
    "register_optimizer_step_pre_hook",
    "register_optimizer_step_post_hook",
]

Args: TypeAlias = tuple[Any, ...]
Kwargs: TypeAlias = dict[str, Any]
StateDict: TypeAlias = dict[str, Any]
ParamsT: TypeAlias = (
    Iterable[torch.Tensor] | Iterable[dict[str, Any]] | Iterable[tuple[str, torch.Tensor]]
)

# DIFF(torch 2.13): one set of global step hooks, torch's
# 中: 全局的 step 预钩子与后钩子：对进程里的每个优化器（包括之后创建的）都生效。两张表只有一套，就是
#     `torch.optim.optimizer` 里的 `_global_optimizer_pre_hooks` 与 `_global_optimizer_post_hooks`：
#     本文件每次用到时按属性名从 torch 的模块上读，本模块上的同名属性是它们的读写别名（做法与
#     `annotated_nn.modules.module` 的全局模块钩子相同，见那里的 `_SharedGlobalHooks`）。于是经任一个库
#     注册的全局钩子对两个库的优化器都生效。`torch.optim` 删掉了自己的 `optimizer` 属性，所以用 import 取得
#     torch 的这个模块。
# EN: Global step pre-hooks and post-hooks: they apply to every optimizer in the process,
#     including ones created later. There is one pair of tables, torch's
#     `_global_optimizer_pre_hooks` and `_global_optimizer_post_hooks` in `torch.optim.optimizer`:
#     this file reads them by attribute name from torch's module on every use, and the same
#     names on this module are read/write aliases of them (done as for the global module hooks
#     of `annotated_nn.modules.module`, see `_SharedGlobalHooks` there). So a global hook
#     registered through either library runs for the optimizers of both. `torch.optim` deletes
#     its `optimizer` attribute, so torch's module is reached by import.
from torch.optim import optimizer as _torch_optimizer_py  # noqa: E402


class _SharedOptimizerHooks(types.ModuleType):
    r"""The type of this module: its two global hook tables are torch's. / 本模块的类型：两张全局钩子表就是 torch 的。

    === "中文"

        与 `annotated_nn.modules.module._SharedGlobalHooks` 相同的做法：两个名字是读写
        `torch.optim.optimizer` 同名变量的描述符，`dir()` 也列出它们。

    === "English"

        Done as `annotated_nn.modules.module._SharedGlobalHooks`: the two names are descriptors
        reading and writing the variables of the same names in `torch.optim.optimizer`, and
        `dir()` lists them.
    """

    _global_optimizer_pre_hooks = _TorchGlobal(_torch_optimizer_py)
    _global_optimizer_post_hooks = _TorchGlobal(_torch_optimizer_py)
    __dir__ = _SharedGlobalHooks.__dir__


# 中: 把本模块对象的类换掉：从此 `annotated_optim.optimizer._global_optimizer_*` 就是 torch 的两张表。
# EN: Swap this module object's class: from now on `annotated_optim.optimizer._global_optimizer_*`
#     are torch's two tables.
sys.modules[__name__].__class__ = _SharedOptimizerHooks

# DIFF(torch 2.13): our Parameter counts as a plain tensor for foreach and fused
# 中: torch 只在参数的类型恰好是 `torch.Tensor` 或 `torch.nn.Parameter` 时才默认选 foreach/fused
#     （子类可能改写了运算，批量内核会绕过它）。annotated_nn 的 `Parameter` 也在名单上，这样
#     annotated_nn 模型和 torch.nn 模型在同一设备上走同一条实现路径，结果逐位相同。
# EN: torch defaults to foreach or fused only when a parameter's type is exactly `torch.Tensor` or
#     `torch.nn.Parameter` (a subclass may override operations that a batched kernel would
#     bypass). annotated_nn's `Parameter` is on the list too, so an annotated_nn model and a
#     torch.nn model on the same device take the same implementation and get the same bits.
_foreach_supported_types = [torch.Tensor, torch.nn.Parameter, annotated_nn.Parameter]


class _RequiredParameter:
    r"""The marker for a hyperparameter with no default. / 标记“没有默认值、必须给出”的超参数。

    === "中文"

        放在 `defaults` 里：某个参数组既没有自己给这个超参数、默认值又是
        `required` 时，
        [`add_param_group`][annotated_optim.optimizer.Optimizer.add_param_group] 报 `ValueError`。

    === "English"

        Placed in `defaults`: when a parameter group does not give the hyperparameter itself and
        the default is `required`,
        [`add_param_group`][annotated_optim.optimizer.Optimizer.add_param_group] raises
        `ValueError`.
    """

    def __repr__(self) -> str:
        r"""Show as `<required parameter>`. / 显示为 `<required parameter>`。

        === "中文"

            这段文字出现在 `repr(optimizer.defaults)` 里：某个超参数的默认值是 `required` 时，
            `defaults` 中显示的就是它。优化器自己的 repr 只列参数组，不会出现它：参数组里若还是
            `required`，`add_param_group` 已经报了 `ValueError`。

        === "English"

            This text shows in `repr(optimizer.defaults)`: when a hyperparameter's default is
            `required`, this is how `defaults` displays it. The optimizer's own repr lists only
            the param groups and never shows it: a group still holding `required` was refused by
            `add_param_group` with a `ValueError`.

        Returns:
            The fixed text `<required parameter>`. / 固定文字 `<required parameter>`。
        """
        return "<required parameter>"


# The one instance optimizers compare against with `is`. / 优化器用 `is` 比较的唯一实例。
required = _RequiredParameter()


def _use_grad_for_differentiable(func: Callable) -> Callable:
    r"""Run `step` with autograd on only when the optimizer is differentiable. / 仅当优化器可微时才在开启自动求导的情况下运行 `step`。

    === "中文"

        `step()` 默认在关闭梯度记录的状态下运行：参数更新是就地修改叶子张量，记录它既没用
        又会报错。`differentiable=True` 的优化器例外（用于对更新过程本身求导，如元学习）。
        包装后的函数在调用前后各插入一次 `torch._dynamo.graph_break()`：在
        `torch.compile` 下，这让 AOT 把 `step` 看成不需要梯度的图，从而把就地更新留在图内，
        不为每个参数多分配一份输出。无论成功或异常，原来的梯度开关都会恢复。

    === "English"

        `step()` runs with gradient recording off by default: the update modifies leaf tensors
        in place, which autograd would refuse and has no use for. A `differentiable=True`
        optimizer is the exception (for differentiating through the update itself, as in
        meta-learning). The wrapper puts a `torch._dynamo.graph_break()` before and after the
        call: under `torch.compile` this lets AOT see `step` as a graph that needs no
        gradients, so the in-place updates stay inside the graph instead of costing an extra
        output per parameter. The previous grad mode is restored on success and on error.

    Args:
        func: An optimizer's `step` (first positional argument `self`). / 优化器的 `step`（第一个位置参数是 `self`）。

    Returns:
        The wrapped function. / 包装后的函数。
    """

    def _use_grad(*args, **kwargs):
        r"""Set grad mode from `defaults["differentiable"]`, call, restore. / 按 `defaults["differentiable"]` 设置梯度开关，调用，再恢复。

        === "中文"

            第一个位置参数就是优化器本身（`step` 的 `self`），梯度开关取自它的
            `defaults["differentiable"]`，而不是某个参数组的设置。

        === "English"

            The first positional argument is the optimizer itself (`step`'s `self`); the grad
            mode comes from its `defaults["differentiable"]`, not from any group's setting.

        Args:
            *args: Positional arguments of `step`, `self` first. / `step` 的位置参数，首个是 `self`。
            **kwargs: Keyword arguments of `step`. / `step` 的关键字参数。

        Returns:
            Whatever `step` returns. / `step` 的返回值。
        """
        import torch._dynamo

        optimizer = args[0]
        previous_grad_mode = torch.is_grad_enabled()
        # 中: graph_break 夹住真正的更新：编译时它单独成图，梯度开关在图外就已确定。
        # EN: The graph breaks bracket the real update: when compiled it becomes a graph of its
        #     own, with the grad mode settled outside it.
        try:
            torch.set_grad_enabled(optimizer.defaults["differentiable"])
            torch._dynamo.graph_break()
            result = func(*args, **kwargs)
        finally:
            torch._dynamo.graph_break()
            torch.set_grad_enabled(previous_grad_mode)
        return result

    functools.update_wrapper(_use_grad, func)
    return _use_grad


def _get_value(x):
    r"""A Python number from a step counter, except while compiling. / 把步数计数器变成 Python 数（编译时除外）。

    === "中文"

        步数（`state["step"]`）存成张量；即时执行时 `.item()` 取出 Python 数，后续的标量
        运算比在 CPU 张量上做快得多。`torch.compile` 追踪时则原样返回张量，避免 `.item()`
        造成图断开。

    === "English"

        The step count (`state["step"]`) is stored as a tensor; in eager mode `.item()` turns
        it into a Python number, and the scalar arithmetic that follows is much faster than on
        a CPU tensor. While `torch.compile` traces, the tensor is returned as is, because
        `.item()` would break the graph.

    Args:
        x: A tensor or a number. / 张量或数。

    Returns:
        A Python number in eager mode, else `x`. / 即时执行时为 Python 数，否则为 `x`。
    """
    if not torch.jit.is_scripting() and torch.compiler.is_compiling():
        return x
    return x.item() if isinstance(x, torch.Tensor) else x


def _stack_if_compiling(x):
    r"""Stack a list of tensors while compiling; leave it alone in eager mode. / 编译时把张量列表堆叠成一个张量，即时执行时原样返回。

    === "中文"

        foreach 实现在编译时要把每个参数的标量（如偏差校正系数）合成一个张量再参与运算。

    === "English"

        The foreach implementations, when compiled, combine the per-parameter scalars (such as
        bias corrections) into one tensor before using them.

    Args:
        x: A list of tensors or numbers. / 张量或数的列表。

    Returns:
        `torch.stack(x)` while compiling, else `x`. / 编译时为 `torch.stack(x)`，否则为 `x`。
    """
    if not torch.jit.is_scripting() and torch.compiler.is_compiling():
        return torch.stack(x)
    return x


def _disable_dynamo_if_unsupported(single_tensor_fn: Callable | None = None) -> Callable:
    r"""Make an implementation fall back to eager when compiling can't handle its inputs. / 编译无法处理输入时，让实现函数退回即时执行。

    === "中文"

        用来装饰各优化器的函数式入口（如 `sgd`、`adam`）。编译时若步数张量在 CUDA/XPU 上
        而又没有开 `capturable`，foreach 路径会把步数当作标量参数传给 foreach 运算，这在
        即时模式下不被支持；此时改为调用一个关闭了 dynamo 的版本。其余情况原样调用。
        `single_tensor_fn` 参数只为与 torch 的签名一致而保留（torch 用它兼容 TorchScript）。

    === "English"

        Decorates each optimizer's functional entry point (such as `sgd`, `adam`). When
        compiling with step tensors on CUDA/XPU and `capturable` off, the foreach path would pass
        the steps as the scalar argument of foreach ops, which eager mode does not support; then
        a dynamo-disabled version is called instead. Otherwise the function is called as is.
        `single_tensor_fn` is kept only so the signature matches torch's (torch uses it for
        TorchScript compatibility).

    Args:
        single_tensor_fn: Unused here; see above. / 此处不用，见上。

    Returns:
        A decorator. / 一个装饰器。
    """
    del single_tensor_fn

    def wrapper(func: Callable) -> Callable:
        r"""Build the dispatching wrapper around `func`. / 为 `func` 构造分派包装。

        === "中文"

            关闭 dynamo 的版本和 `state_steps` 在签名里的位置都只在装饰时算一次，
            之后每次调用只做判断，不再检查签名。

        === "English"

            The dynamo-disabled version and the position of `state_steps` in the signature
            are worked out once, at decoration time; each call then only tests, without
            inspecting the signature again.

        Args:
            func: An optimizer's functional entry point, such as `sgd`. / 优化器的函数式入口，如 `sgd`。

        Returns:
            `maybe_fallback`, carrying `func`'s name and docstring. / `maybe_fallback`，带着 `func` 的名字与文档字符串。
        """
        disabled_func = torch._disable_dynamo(func)
        parameter_names = list(inspect.signature(func).parameters)
        state_steps_index = (
            parameter_names.index("state_steps") if "state_steps" in parameter_names else None
        )

        @functools.wraps(func)
        def maybe_fallback(*args, **kwargs):
            r"""Call `func`, or its dynamo-disabled twin in the unsupported case. / 调用 `func`；不支持的情形下调用关闭 dynamo 的版本。

            === "中文"

                即时执行时 `torch.compiler.is_compiling()` 为假，判断到此为止，直接调用
                `func`；只有编译追踪时才会看步数张量所在的设备。

            === "English"

                In eager mode `torch.compiler.is_compiling()` is false, the test stops there
                and `func` is called directly; only while compiling does it look at the device
                of the step tensors.

            Args:
                *args: Positional arguments of `func`. / `func` 的位置参数。
                **kwargs: Keyword arguments of `func`. / `func` 的关键字参数。

            Returns:
                Whatever `func` returns. / `func` 的返回值。
            """
            if not torch.compiler.is_compiling():
                return func(*args, **kwargs)

            def first_on_accelerator(steps) -> bool:
                r"""Whether a non-empty list of steps starts on CUDA/XPU. / 非空的步数列表的第一项是否在 CUDA/XPU 上。

                === "中文"

                    判断的顺序与 torch 相同：先看真值（空列表为假），再看类型，最后看设备。

                === "English"

                    Tested in torch's order: truthiness first (an empty list is false), then
                    the type, then the device.

                Args:
                    steps: The `state_steps` argument. / `state_steps` 参数。

                Returns:
                    Whether to fall back. / 是否需要退回。
                """
                return bool(
                    steps
                    and isinstance(steps, Sequence)
                    and steps[0].device.type in {"cuda", "xpu"}
                )

            # 中: 退回的条件与 torch 一字不差，包括它的不对称：按位置传入的步数只在没开
            #     `capturable` 时才看（`capturable=True` 的实现全程用张量运算处理步数，不把它们当
            #     foreach 运算的标量参数）；按关键字传入的步数则不管 `capturable` 都看。位置参数
            #     不够长时，`args[state_steps_index]` 与 torch 一样引发 `IndexError`。
            # EN: The fallback condition is torch's word for word, asymmetry included: steps
            #     passed positionally count only with `capturable` off (a `capturable=True`
            #     implementation handles the steps with tensor ops throughout and never passes
            #     them as a foreach op's scalar argument); steps passed by keyword count
            #     whatever `capturable` is. With too few positional arguments,
            #     `args[state_steps_index]` raises `IndexError`, as in torch.
            unsupported = (
                not kwargs.get("capturable", False)
                and state_steps_index is not None
                and first_on_accelerator(args[state_steps_index])
            ) or ("state_steps" in kwargs and first_on_accelerator(kwargs["state_steps"]))
            return disabled_func(*args, **kwargs) if unsupported else func(*args, **kwargs)

        return maybe_fallback

    return wrapper


def _default_to_fused_or_foreach(
    params: list[torch.Tensor], differentiable: bool, use_fused: bool = False
) -> tuple[bool, bool]:
    r"""Pick the implementation when the user chose none: `(fused, foreach)`. / 用户未指定时选择实现：返回 `(fused, foreach)`。

    === "中文"

        三种实现：单张量（逐个参数的 for 循环）、foreach（一次调用处理一组张量）、fused
        （把整步更新融合成一个内核）。用户把 `foreach` 和 `fused` 都留作 `None` 时：
        `differentiable=True` 一律用单张量实现（批量内核不支持对更新求导）；`use_fused`
        为真且所有参数都是受支持设备上的浮点张量时选 fused；否则所有参数都在 foreach 支持的
        设备上（CUDA、XPU、MTIA 等，**不含 CPU**）时选 foreach。所以在 CPU 上，默认总是单张量
        实现。类型必须恰好在支持名单上，张量子类不行。`None` 项一律放行。

    === "English"

        Three implementations exist: single-tensor (a for loop over parameters), foreach (one
        call per group of tensors) and fused (the whole update in one kernel). When the user
        leaves both `foreach` and `fused` as `None`: `differentiable=True` always gets the
        single-tensor implementation (batched kernels can't be differentiated through); with
        `use_fused` true and every parameter a floating-point tensor on a supported device,
        fused; otherwise foreach when every parameter is on a device with foreach kernels (CUDA,
        XPU, MTIA and so on, **not CPU**). So on CPU the default is always the single-tensor
        implementation. The type must be exactly on the supported list; tensor subclasses are
        not. `None` entries always pass.

    Args:
        params: The tensors to update. / 要更新的张量。
        differentiable: The optimizer's `differentiable` flag. / 优化器的 `differentiable` 开关。
        use_fused: Whether the optimizer would consider fused at all. / 该优化器是否考虑 fused。

    Returns:
        `(fused, foreach)`, never both true. / `(fused, foreach)`，不会同时为真。
    """
    # 中: 两种批量实现都不支持 TorchScript，也不支持对更新求导：这两种情形直接用单张量实现。
    # EN: Neither batched implementation supports TorchScript or differentiating through the
    #     update: in those cases the single-tensor implementation is used straight away.
    if torch.jit.is_scripting() or differentiable:
        return False, False

    # 中: fused 的设备名单包括 CPU（还有 MPS 等），foreach 的不包括。不过 torch 2.13 的各个
    #     优化器调用这里时都传 `use_fused=False`，所以默认从不选 fused，CPU 上落到单张量实现。
    #     `None` 项一律放行。
    # EN: The fused device list includes CPU (and MPS, among others), the foreach list does
    #     not. But every optimizer of torch 2.13 calls this with `use_fused=False`, so the
    #     default is never fused, and on CPU it falls through to the single-tensor
    #     implementation. `None` entries always pass.
    fused_devices = _get_fused_kernels_supported_devices()
    foreach_devices = _get_foreach_kernels_supported_devices()
    fused = use_fused and all(
        p is None
        or (
            # 中: 用 `type(p) in` 而不是 `isinstance`：类型必须恰好在名单上，张量子类不算。
            # EN: `type(p) in` rather than `isinstance`: the type must be exactly on the list, a
            #     tensor subclass does not count.
            type(p) in _foreach_supported_types
            and p.device.type in fused_devices
            and torch.is_floating_point(p)
        )
        for p in params
    )
    # 中: 只有没选 fused 时才考虑 foreach，所以返回值不会两者同时为真。
    # EN: Foreach is considered only when fused was not picked, so the result never has both
    #     true.
    foreach = not fused and all(
        p is None or (type(p) in _foreach_supported_types and p.device.type in foreach_devices)
        for p in params
    )
    return fused, foreach


def _device_dtype_check_for_fused(p: torch.Tensor, cuda_unsupported: bool = False) -> None:
    r"""Refuse a parameter the fused kernels can't take. / 拒绝 fused 内核无法处理的参数。

    === "中文"

        fused 要求浮点张量、位于受支持的设备上；`cuda_unsupported=True` 表示该优化器的 fused
        内核没有 CUDA 版本。报错文本与 torch 相同，列出受支持的设备。

    === "English"

        Fused needs a floating-point tensor on a supported device; `cuda_unsupported=True`
        means this optimizer's fused kernel has no CUDA version. The error text is torch's and
        lists the supported devices.

    Args:
        p: A parameter. / 一个参数。
        cuda_unsupported: Drop CUDA from the supported devices. / 从支持的设备中去掉 CUDA。

    Raises:
        RuntimeError: The dtype or device is not supported. / 类型或设备不受支持。
    """
    fused_devices = _get_fused_kernels_supported_devices()
    if cuda_unsupported:
        fused_devices.remove("cuda")
    if not (p.device.type in fused_devices and torch.is_floating_point(p)):
        raise RuntimeError(
            "`fused=True` requires all the params to be floating point Tensors of "
            f"supported devices: {fused_devices} but {p.dtype} and {p.device.type}"
        )


def _view_as_real(params: list, *state_and_grads: list) -> None:
    r"""Replace complex tensors by their real views, in the lists given. / 在给定的列表里把复数张量换成它们的实数视图。

    === "中文"

        复数参数按“实部、虚部两个独立实数”来优化：`view_as_real` 把形状 `(..)` 的复数张量
        看成形状 `(.., 2)` 的实数张量，不复制数据，所以对视图的就地更新直接写回参数。
        同一位置的状态与梯度列表项一起替换，保持各列表逐项对应。

    === "English"

        A complex parameter is optimized as two independent real numbers, real and imaginary
        part: `view_as_real` sees a complex tensor of shape `(..)` as a real one of shape
        `(.., 2)` without copying, so in-place updates of the view land in the parameter. The
        state and gradient entries at the same position are replaced too, keeping the lists
        aligned.

    Args:
        params: The parameters (modified in place). / 参数列表（就地修改）。
        *state_and_grads: Lists aligned with `params` (modified in place). / 与 `params` 逐项对应的列表（就地修改）。
    """
    for i, p in enumerate(params):
        if torch.is_complex(p):
            params[i] = torch.view_as_real(params[i])
            for tensors in state_and_grads:
                tensors[i] = torch.view_as_real(tensors[i])


def _get_scalar_dtype(is_fused: bool | None = None) -> torch.dtype:
    r"""The dtype of a step counter tensor. / 步数计数器张量的类型。

    === "中文"

        fused 实现总用 float32（torch 为 fused 定下的类型；CPU 上的 fused 内核其实也接受别的
        类型的步数）；否则跟随默认类型：默认类型是 float64 时用 float64，其余用 float32。

    === "English"

        The fused implementations always get float32 (torch's choice for fused; the CPU fused
        kernels in fact accept a step of another dtype too); otherwise it follows the default
        dtype: float64 when the default is float64, float32 in every other case.

    Args:
        is_fused: Whether the fused implementation is used. / 是否使用 fused 实现。

    Returns:
        `torch.float32` or `torch.float64`. / `torch.float32` 或 `torch.float64`。
    """
    if is_fused:
        return torch.float32
    return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32


def _get_capturable_supported_devices(supports_xla: bool = True) -> list[str]:
    r"""Device types on which `capturable=True` is allowed. / 允许 `capturable=True` 的设备类型。

    === "中文"

        可捕获（capturable）指一步更新能被录进 CUDA 图之类的图：步数等标量都留在设备上，
        不做主机同步。

    === "English"

        Capturable means one update can be recorded into a graph such as a CUDA graph: the
        step count and other scalars stay on the device, with no host synchronization.

    Args:
        supports_xla: Whether to include `"xla"`. / 是否包含 `"xla"`。

    Returns:
        The device type names. / 设备类型名列表。
    """
    devices = ["cuda", "xpu", "hpu"]
    if not torch.jit.is_scripting():
        devices.append(torch._C._get_privateuse1_backend_name())
    if supports_xla:
        devices.append("xla")
    return devices


def _to_scalar(x: float | torch.Tensor) -> float | torch.Tensor:
    r"""Squeeze a one-element tensor hyperparameter to 0-d; leave numbers alone. / 把单元素张量超参数压成 0 维；数保持不变。

    === "中文"

        学习率等超参数可以是张量（配合 `capturable` 或编译）；形状 `(1,)` 的张量先变成
        0 维，才能当作运算里的标量。

    === "English"

        Hyperparameters such as the learning rate may be tensors (with `capturable` or under
        compile); a tensor of shape `(1,)` is first made 0-d so it can act as a scalar.

    Args:
        x: A number or a one-element tensor. / 数或单元素张量。

    Returns:
        A 0-d tensor, or `x` itself. / 0 维张量，或 `x` 本身。
    """
    if isinstance(x, torch.Tensor) and x.dim() != 0:
        return x.squeeze()
    return x


def register_optimizer_step_pre_hook(hook: Callable) -> RemovableHandle:
    r"""Register a step pre-hook run before every optimizer's `step`. / 注册在所有优化器 `step` 之前运行的预钩子。

    === "中文"

        钩子签名为 `hook(optimizer, args, kwargs)`，返回 `None` 或 `(new_args, new_kwargs)`
        （后者替换传给 `step` 的参数）。全局预钩子先于每个优化器自己的预钩子运行。

    === "English"

        Signature `hook(optimizer, args, kwargs)`, returning `None` or `(new_args, new_kwargs)`
        (the latter replaces the arguments passed to `step`). Global pre-hooks run before each
        optimizer's own pre-hooks.

    Args:
        hook: The hook. / 钩子。

    Returns:
        A handle whose `remove()` unregisters it. / 句柄，`remove()` 注销钩子。
    """
    handle = RemovableHandle(_torch_optimizer_py._global_optimizer_pre_hooks)
    _torch_optimizer_py._global_optimizer_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook: Callable) -> RemovableHandle:
    r"""Register a step post-hook run after every optimizer's `step`. / 注册在所有优化器 `step` 之后运行的后钩子。

    === "中文"

        钩子签名 `hook(optimizer, args, kwargs) -> None`。全局后钩子在每个优化器自己的后钩子
        **之后**运行（与预钩子相反，像一层包在外面的壳）。

    === "English"

        Signature `hook(optimizer, args, kwargs) -> None`. Global post-hooks run **after** each
        optimizer's own post-hooks (the reverse of the pre-hooks, like an outer shell).

    Args:
        hook: The hook. / 钩子。

    Returns:
        A handle whose `remove()` unregisters it. / 句柄，`remove()` 注销钩子。
    """
    handle = RemovableHandle(_torch_optimizer_py._global_optimizer_post_hooks)
    _torch_optimizer_py._global_optimizer_post_hooks[handle.id] = hook
    return handle


# DIFF(torch 2.13): Optimizer subclasses torch.optim.Optimizer
# 中: torch 的 Optimizer 直接继承 object；我们的继承它，使 torch 的调度器、GradScaler 等的 `isinstance` 检查接受
# 中: 我们的优化器，同时重新定义它类体里的每个名字，torch 的实现一行也不运行。
# EN: torch's Optimizer derives from object; ours subclasses it so that the `isinstance` checks of
# EN: torch's schedulers, GradScaler and the like accept our optimizers, and defines every name of
# EN: its class body again, so no line of torch's implementation runs.
class Optimizer(torch.optim.Optimizer):
    r"""Base class of all optimizers: parameter groups, per-parameter state, hooks. / 所有优化器的基类：参数组、逐参数状态与钩子。

    === "中文"

        子类在 `__init__` 里把超参数默认值放进 `defaults` 再调用本类的 `__init__`，并实现
        `step()`。本类负责其余一切：把 `params` 整理成参数组并检查，`state` 的存放，
        `zero_grad`，状态字典的保存和加载，四种钩子（step 前后、state_dict 前后、
        load_state_dict 前后），以及 repr 与序列化。

        参数必须以**有确定顺序**的集合给出（列表、`model.parameters()` 生成器）：状态字典
        靠顺序对应参数，而 `set` 的顺序每次运行都可能不同。参数组的 `params` 是 `set` 时会被
        拒绝；但直接把 `set` 传给构造函数不会被发现，它按当时的迭代顺序变成列表。

        `step` 在类一级被包装一次（见
        [`_patch_step_function`][annotated_optim.optimizer.Optimizer._patch_step_function]），
        包装负责 profiler 记录和 step 钩子；子类的 `step` 只写更新本身。

        1.5.1 → 2.13：1.5.1 的 `Optimizer` 完全没有钩子，没有 `foreach`/`fused`/`capturable`
        选项，参数组里也不能带参数名；`zero_grad()` 总是把梯度清零，而不是设为 `None`。

    === "English"

        A subclass puts its hyperparameter defaults in `defaults`, calls this class's
        `__init__`, and implements `step()`. This class does the rest: arranging `params` into
        checked parameter groups, keeping `state`, `zero_grad`, saving and loading the
        state_dict, four kinds of hooks (around step, state_dict and load_state_dict), repr and
        pickling.

        Parameters must come in a collection **with a deterministic order** (a list, the
        `model.parameters()` generator): the state_dict matches parameters by order, and a
        `set`'s order may change from run to run. A group whose `params` is a `set` is refused;
        but a `set` passed straight to the constructor is not caught: it becomes a list in
        whatever order it iterates.

        `step` is wrapped once at class level (see
        [`_patch_step_function`][annotated_optim.optimizer.Optimizer._patch_step_function]); the
        wrapper records the profiler range and runs the step hooks, so a subclass's `step`
        holds only the update.

        1.5.1 → 2.13: 1.5.1's `Optimizer` had no hooks at all, no `foreach`/`fused`/`capturable`
        options and no named parameters in groups; `zero_grad()` zeroed the gradients instead
        of setting them to `None`.

    Args:
        params: Tensors, `(name, tensor)` pairs, or dicts defining parameter groups. / 张量、`(name, tensor)` 对，或定义参数组的字典。
        defaults: Default hyperparameters for groups that don't set them. / 参数组未指定时使用的超参数默认值。

    Raises:
        TypeError: `params` is a single tensor. / `params` 是单个张量。
        ValueError: `params` is empty. / `params` 为空。

    Examples:
        >>> import torch, annotated_nn as nn, annotated_optim as optim
        >>> model = nn.Linear(2, 1)
        >>> opt = optim.SGD(
        ...     [{"params": [model.weight]}, {"params": [model.bias], "lr": 0.5}], lr=0.1
        ... )
        >>> [g["lr"] for g in opt.param_groups]
        [0.1, 0.5]
    """

    # 中: 本类继承 `torch.optim.Optimizer`（`isinstance(opt, torch.optim.Optimizer)` 为真，torch 的调度器、
    #     GradScaler 等都接受它），但 torch 类体里的每个名字这里都重新定义，torch 的实现一行也不运行。
    #     下面两个类型别名是 step 钩子的签名：`hook(optimizer, args, kwargs)`，预钩子可返回新的
    #     `(args, kwargs)`。
    # EN: This class subclasses `torch.optim.Optimizer` (`isinstance(opt, torch.optim.Optimizer)` is
    #     true, so torch's schedulers, GradScaler and the like accept it), yet every name of torch's
    #     class body is defined again here and no line of torch's implementation runs. The two
    #     type aliases below are the step hooks' signatures: `hook(optimizer, args, kwargs)`, where
    #     a pre-hook may return new `(args, kwargs)`.
    OptimizerPreHook: TypeAlias = Callable[[Self, Args, Kwargs], tuple[Args, Kwargs] | None]
    OptimizerPostHook: TypeAlias = Callable[[Self, Args, Kwargs], None]

    # 中: 实例上六张钩子表的类型标注（值由 `__init__` 写入）。
    # EN: Type annotations of the instance's six hook tables (`__init__` writes the values).
    _optimizer_step_pre_hooks: dict[int, OptimizerPreHook]
    _optimizer_step_post_hooks: dict[int, OptimizerPostHook]
    # 中: state_dict 与 load_state_dict 的前后钩子表。
    # EN: The pre- and post-hook tables of state_dict and load_state_dict.
    _optimizer_state_dict_pre_hooks: "OrderedDict[int, Callable[[Optimizer], None]]"
    _optimizer_state_dict_post_hooks: (
        "OrderedDict[int, Callable[[Optimizer, StateDict], StateDict | None]]"
    )
    _optimizer_load_state_dict_pre_hooks: (
        "OrderedDict[int, Callable[[Optimizer, StateDict], StateDict | None]]"
    )
    _optimizer_load_state_dict_post_hooks: "OrderedDict[int, Callable[[Optimizer], None]]"

    def __init__(self, params: ParamsT, defaults: dict[str, Any]) -> None:
        r"""Store defaults, create the hook dicts, and add the parameter groups. / 保存默认值，建好钩子字典，加入各参数组。

        === "中文"

            步骤：1. 六个钩子字典；2. 在类上包装 `step`（只做一次）；3. 检查 `params` 并把
            一串张量变成单个参数组；4. 逐组调用 `add_param_group`。

        === "English"

            Steps: 1. the six hook dicts; 2. wrap `step` on the class (once); 3. check `params`
            and turn a plain sequence of tensors into a single group; 4. call
            `add_param_group` for each group.

        Args:
            params: See the class. / 见类说明。
            defaults: See the class. / 见类说明。
        """
        torch._C._log_api_usage_once("python.optimizer")
        self.defaults = defaults
        # 中: 第 1 步：钩子字典都是 OrderedDict，键是句柄 id；prepend 靠 move_to_end 实现。
        # EN: Step 1: the hook dicts are OrderedDicts keyed by handle id; prepend uses
        #     move_to_end.
        self._optimizer_step_pre_hooks: dict[int, Callable] = OrderedDict()
        self._optimizer_step_post_hooks: dict[int, Callable] = OrderedDict()
        self._optimizer_state_dict_pre_hooks: dict[int, Callable] = OrderedDict()
        self._optimizer_state_dict_post_hooks: dict[int, Callable] = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: dict[int, Callable] = OrderedDict()
        self._optimizer_load_state_dict_post_hooks: dict[int, Callable] = OrderedDict()
        # 中: 第 2 步：包装 `step`，见 `_patch_step_function`。
        # EN: Step 2: wrap `step`; see `_patch_step_function`.
        self._patch_step_function()

        # 中: 第 3 步：单个张量也是可迭代的（按第 0 维迭代出切片），不拦下就会把切片当参数，
        #     所以先拒绝它。
        # EN: Step 3: a single tensor is iterable too (over slices of dim 0), and would turn
        #     into slices posing as parameters, so it is refused first.
        if isinstance(params, torch.Tensor):
            raise TypeError(
                "params argument given to the optimizer should be "
                "an iterable of Tensors or dicts, but got " + torch.typename(params)
            )
        # 中: `list(params)` 把生成器一次取尽；结果为空多半是模型没有参数或生成器已被用完。
        #     只看第一项决定“张量列表”还是“字典列表”：一串张量成为唯一的参数组。
        # EN: `list(params)` drains a generator once; an empty result usually means a model
        #     without parameters or an exhausted generator. The first item alone decides
        #     "list of tensors" or "list of dicts": a plain sequence of tensors becomes the
        #     only group.
        self.state: defaultdict[torch.Tensor, Any] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]

        # 中: 第 4 步：逐组交给 `add_param_group`，检查与补齐默认值都在那里完成。
        # EN: Step 4: each group goes to `add_param_group`, which does the checks and fills in
        #     the defaults.
        for param_group in param_groups:
            self.add_param_group(param_group)

        # 中: capturable 检查的“已经警告过”开关。初值就是真，所以新建的优化器从不发这条警告
        #     （与 torch 相同）；只有从 pickle 恢复或经 `copy.deepcopy` 复制、因而没有这个属性的
        #     对象会警告一次（两者都经过 `__getstate__`，它不保存这个属性）。
        # EN: The "already warned" switch of the capturable check. It starts true, so a newly
        #     built optimizer never gives that warning (as in torch); only an object restored
        #     from a pickle or copied with `copy.deepcopy`, and so lacking the attribute, warns
        #     once (both go through `__getstate__`, which does not save it).
        self._warned_capturable_if_run_uncaptured = True

    def __getstate__(self) -> dict[str, Any]:
        r"""Pickle only `defaults`, `state` and `param_groups`. / 序列化时只保存 `defaults`、`state` 与 `param_groups`。

        === "中文"

            钩子不随 pickle 保存（它们常是闭包或绑定方法）；反序列化后钩子字典为空。

        === "English"

            Hooks are not pickled (they are often closures or bound methods); after unpickling
            the hook dicts are empty.

        Returns:
            The three entries. / 这三项。
        """
        return {
            "defaults": self.defaults,
            "state": self.state,
            "param_groups": self.param_groups,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        r"""Restore from pickle (or from `load_state_dict`), filling in what is missing. / 从 pickle（或 `load_state_dict`）恢复，并补齐缺少的部分。

        === "中文"

            缺少的钩子字典补成空的；重新包装 `step`（在新进程里类还没有被包装过）；旧版本
            保存的 `defaults` 可能没有 `differentiable`，补成 `False`。
            `load_state_dict` 也经由这里写入 `state` 与 `param_groups`，所以现有的钩子保留。

        === "English"

            Missing hook dicts are created empty; `step` is wrapped again (in a new process the
            class has not been wrapped yet); `defaults` saved by an older version may lack
            `differentiable`, which becomes `False`. `load_state_dict` also writes `state` and
            `param_groups` through here, so existing hooks are kept.

        Args:
            state: The attributes to set. / 要设置的属性。
        """
        # 中: 写入传来的属性：pickle 时是 `__getstate__` 的三项；`load_state_dict` 时只有
        #     `state` 与 `param_groups`，`defaults` 与钩子都不动。
        # EN: Write the attributes given: from a pickle, the three entries of `__getstate__`;
        #     from `load_state_dict`, only `state` and `param_groups`, leaving `defaults` and
        #     the hooks alone.
        self.__dict__.update(state)
        # 中: pickle 不带钩子字典（见 `__getstate__`），反序列化后这六个都缺失。
        # EN: A pickle carries no hook dicts (see `__getstate__`), so after unpickling all six
        #     are missing.
        for name in (
            "_optimizer_step_pre_hooks",
            "_optimizer_step_post_hooks",
            "_optimizer_state_dict_pre_hooks",
            "_optimizer_state_dict_post_hooks",
            "_optimizer_load_state_dict_pre_hooks",
            "_optimizer_load_state_dict_post_hooks",
        ):
            # 中: 只补缺的，所以经由 `load_state_dict` 进来时，已注册的钩子保持不变。
            # EN: Only missing ones are created, so coming from `load_state_dict` the registered
            #     hooks stay as they are.
            if name not in self.__dict__:
                setattr(self, name, OrderedDict())
        # 中: 在新进程里反序列化时类的 `step` 还没包装过，这里补上（已包装则什么也不做）。
        # EN: When unpickled in a new process the class's `step` is not wrapped yet; wrap it
        #     here (nothing happens if it already is).
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)

    def __repr__(self) -> str:
        r"""One block per group, options sorted by name, parameters left out. / 每个参数组一段，选项按名字排序，不列参数。

        === "中文"

            每组以 `Parameter Group` 加组号开头，其后每个选项一行（缩进四格）；`params`
            不显示，因为张量会把输出撑得很长。`param_names` 等其余键都照常列出。

        === "English"

            Each group starts with `Parameter Group` and its number, then one line per option
            (indented four spaces); `params` is left out because tensors would swamp the
            output. Every other key, `param_names` included, is listed.

        Returns:
            E.g. `SGD (\nParameter Group 0\n    dampening: 0\n ...)`. / 例如 `SGD (\nParameter Group 0\n    dampening: 0\n ...)`。
        """
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            text += "".join(
                f"    {key}: {group[key]}\n" for key in sorted(group) if key != "params"
            )
        return text + ")"

    def _accelerator_graph_capture_health_check(self) -> None:
        r"""Check that `capturable` agrees with CUDA/XPU graph capture. / 检查 `capturable` 与 CUDA/XPU 图捕获是否一致。

        === "中文"

            支持 `capturable` 的优化器（Adam、AdamW、RMSprop 等）在 `step` 开头调用。正在
            捕获图而某个参数组的 `capturable` 为假时报错（非可捕获的实现会做主机同步，录不进
            图）；全都可捕获却没有在捕获时，按“已经警告过”开关警告一次（可捕获实现更慢）——
            但 `__init__` 已把开关设为真，所以实际上只有从 pickle 恢复或经 `copy.deepcopy`
            复制的优化器会发这条警告。
            编译时跳过检查，交给 inductor。没有 CUDA/XPU 时什么也不做。

        === "English"

            Optimizers that support `capturable` (Adam, AdamW, RMSprop and others) call this
            at the start of `step`. While a graph is being captured and some group's
            `capturable` is false, it raises (a non-capturable implementation synchronizes
            with the host and can't be recorded); when all are capturable but no
            capture is running, it warns once, guarded by an "already warned" switch (the
            capturable implementation is slower), but `__init__` already sets that switch to
            true, so in practice only an optimizer restored from a pickle or copied with
            `copy.deepcopy` gives the warning.
            Under compile it skips the check and leaves it to inductor. Without CUDA/XPU it
            does nothing.

        Raises:
            RuntimeError: Capturing with a non-capturable group. / 捕获图时存在不可捕获的参数组。
        """
        if torch.compiler.is_compiling():
            return
        accelerator = torch.accelerator.current_accelerator(check_available=True)
        if not (accelerator and accelerator.type in {"cuda", "xpu"}):
            return
        # 中: 先判断是否正在捕获；错误与警告文本与 torch 相同，设备名大写（CUDA/XPU）。
        # EN: First whether a capture is running; the error and warning texts are torch's, with
        #     the device name upper-cased (CUDA/XPU).
        capturing = torch.accelerator.current_stream().is_capturing()
        all_capturable = all(group["capturable"] for group in self.param_groups)
        if capturing and not all_capturable:
            raise RuntimeError(
                f"Attempting {accelerator.type.upper()} graph capture of step() for an instance of "
                + self.__class__.__name__
                + " but param_groups' capturable is False."
            )
        # 中: 只警告一次：`__init__` 把开关设为真，所以构造后不会警告；开关为假或缺失（例如
        #     从 pickle 恢复：`__getstate__` 不保存它）时才警告，警告后设为真。
        # EN: Warn once: `__init__` sets the switch to true, so a freshly built optimizer does
        #     not warn; only with the switch false or missing (e.g. restored from a pickle:
        #     `__getstate__` does not save it) does it warn, and then it is set true.
        if (
            not getattr(self, "_warned_capturable_if_run_uncaptured", False)
            and all_capturable
            and not capturing
        ):
            # 中: 文本与 torch 逐字相同（包括它不通顺的 “some of all the”），设备名大写。
            # EN: The text is torch's word for word (its awkward "some of all the" included),
            #     with the device name upper-cased.
            warnings.warn(
                "This instance was constructed with capturable=True or some of all the "
                "param_groups came with capturable=True, but step() is running without "
                f"{accelerator.type.upper()} graph capture. If you never intend to graph-capture "
                "this instance, capturable=True can impair performance, and you should set "
                "capturable=False.",
                # 中: `stacklevel=2` 让警告指向调用本方法的 `step`，而不是这里。
                # EN: `stacklevel=2` makes the warning point at the `step` calling this method,
                #     not here.
                stacklevel=2,
            )
            self._warned_capturable_if_run_uncaptured = True

    # 中: 旧名字，留给仍用它的调用者：调用时发出 DeprecationWarning（文本与 torch 相同），再做同样的检查。
    # EN: The old name, kept for callers still using it: a call gives a DeprecationWarning (torch's
    #     text) and then runs the same check.
    _cuda_graph_capture_health_check = deprecated(
        "Use _accelerator_graph_capture_health_check instead",
    )(_accelerator_graph_capture_health_check)

    def _optimizer_step_code(self) -> None:
        r"""An empty function the profiler watches, called after each `step`. / 一个空函数，供 profiler 观察，每次 `step` 后调用。

        === "中文"

            打开 Python 追踪的 `torch.profiler` 会在 CPython 层拦截这个函数的调用，借机读取
            优化器的参数与参数组；放在 `step` 之后，是因为许多优化器在第一次 `step` 时才创建
            状态。

        === "English"

            `torch.profiler` with Python tracing intercepts calls to this function at the
            CPython level to read the optimizer's parameters and groups; it comes after `step`
            because many optimizers create their state at the first `step`.
        """

    @staticmethod
    def profile_hook_step(func: Callable) -> Callable:
        r"""Wrap a `step`: profiler range, step pre-hooks, the step, post-hooks. / 包装 `step`：profiler 区间、step 预钩子、更新本身、后钩子。

        === "中文"

            顺序：全局预钩子 → 本优化器的预钩子 → `step` → `_optimizer_step_code` →
            本优化器的后钩子 → 全局后钩子。预钩子返回 `(new_args, new_kwargs)` 时替换参数，
            返回其他非 `None` 值报 `RuntimeError`。整个过程处在一个以类名命名的 profiler
            区间里，例如 SGD 的是 `Optimizer.step#SGD.step`。

        === "English"

            Order: global pre-hooks → this optimizer's pre-hooks → `step` →
            `_optimizer_step_code` → this optimizer's post-hooks → global post-hooks. A
            pre-hook returning `(new_args, new_kwargs)` replaces the arguments; any other
            non-`None` value raises `RuntimeError`. The whole run sits in a profiler range named
            after the class, for SGD `Optimizer.step#SGD.step`.

        Args:
            func: The unwrapped `step`. / 未包装的 `step`。

        Returns:
            The wrapped `step`. / 包装后的 `step`。
        """

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            r"""Run the hooks around one call of `step`. / 在一次 `step` 调用前后运行钩子。

            === "中文"

                钩子收到的 `args` 含有优化器本身（`args[0]`），而优化器又另外作为第一个参数
                `optimizer` 传给钩子。区间名按实例的实际类取，所以子类的 `step` 记在子类名下。

            === "English"

                The `args` the hooks receive include the optimizer itself (`args[0]`), which is
                also passed to them separately as their first argument `optimizer`. The range
                name comes from the instance's actual class, so a subclass's `step` is recorded
                under its own name.

            Args:
                *args: Positional arguments of `step`, the optimizer first. / `step` 的位置参数，首个是优化器。
                **kwargs: Keyword arguments of `step`, such as `closure`. / `step` 的关键字参数，如 `closure`。

            Returns:
                Whatever `step` returns. / `step` 的返回值。
            """
            self = args[0]
            profile_name = f"Optimizer.step#{self.__class__.__name__}.step"
            with torch.autograd.profiler.record_function(profile_name):
                # 中: 预钩子可以改写参数：返回值必须是二元组，否则报错（文本与 torch 相同）。
                # EN: Pre-hooks may rewrite the arguments: the result must be a pair,
                #     otherwise it raises (torch's text).
                for pre_hook in chain(
                    _torch_optimizer_py._global_optimizer_pre_hooks.values(),
                    self._optimizer_step_pre_hooks.values(),
                ):
                    result = pre_hook(self, args, kwargs)
                    if result is None:
                        continue
                    # 中: 二元组替换 `args` 与 `kwargs`，后面的预钩子和 `step` 都看到新值；报错文本
                    #     里的 `func` 是未包装的 `step` 函数。
                    # EN: A pair replaces `args` and `kwargs`, and later pre-hooks and `step` see
                    #     the new values; the `func` in the error text is the unwrapped `step`
                    #     function.
                    if isinstance(result, tuple) and len(result) == 2:
                        args, kwargs = result
                    else:
                        raise RuntimeError(
                            f"{func} must return None or a tuple of (new_args, new_kwargs), "
                            f"but got {result}."
                        )
                # 中: 更新本身，然后是供 profiler 观察的空函数，再按“本地先、全局后”跑后钩子。
                # EN: The update itself, then the empty function the profiler watches, then the
                #     post-hooks, local ones first and global ones last.
                out = func(*args, **kwargs)
                self._optimizer_step_code()
                for post_hook in chain(
                    self._optimizer_step_post_hooks.values(),
                    _torch_optimizer_py._global_optimizer_post_hooks.values(),
                ):
                    post_hook(self, args, kwargs)
                return out

        return wrapper

    @staticmethod
    def _group_tensors_by_device_and_dtype(tensorlistlist: list[list], with_indices: bool = False):
        r"""Split aligned tensor lists into groups with one device and dtype each. / 把逐项对应的张量列表按设备与类型分组。

        === "中文"

            foreach 与 fused 内核的快速路径要求一次调用里的张量同设备、同类型（CPU 上的内核也
            接受混合类型，只是逐个张量处理），所以 foreach 与 fused 实现先分组。
            分组由 torch 的 C++ 函数完成；编译时跳过（交给 inductor），整体当作一组返回。
            `with_indices=True` 时每组还带着各张量在原列表中的下标。

        === "English"

            The fast paths of foreach and fused kernels need the tensors of one call on one
            device with one dtype (the CPU kernels also accept mixed dtypes, handling them tensor
            by tensor), so foreach and fused implementations group first. torch's C++ function does the
            grouping; under compile it is skipped (inductor handles it) and everything is one
            group. With `with_indices=True` each group carries its tensors' positions in the
            original lists.

        Args:
            tensorlistlist: Lists aligned position by position. / 逐项对应的若干列表。
            with_indices: Also return positions. / 是否同时返回下标。

        Returns:
            `{(device, dtype): (lists, indices)}`. / `{(设备, 类型): (列表, 下标)}`。
        """
        if torch.compiler.is_compiling():
            return {(None, None): (tensorlistlist, list(range(len(tensorlistlist[0]))))}
        return _group_by_device_and_dtype_kernel(tensorlistlist, with_indices)

    def _patch_step_function(self) -> None:
        r"""Wrap the class's `step` with `profile_hook_step`, once per class. / 用 `profile_hook_step` 包装类的 `step`，每个类只做一次。

        === "中文"

            包装装在**类**上而不是实例上：`type(opt).step` 就是包装后的函数，带着
            `hooked = True` 标记，所以同类的第二个优化器不会再包一层。子类若重写了 `step`，
            它自己的 `step` 在第一次创建实例时被包装。同时记下 `zero_grad` 的 profiler 区间名。

        === "English"

            The wrapper goes on the **class**, not the instance: `type(opt).step` is the wrapped
            function, marked `hooked = True`, so a second optimizer of the same class does not
            wrap it again. A subclass that overrides `step` gets its own `step` wrapped when its
            first instance is created. Also records the profiler range name of `zero_grad`.
        """
        self._zero_grad_profile_name = f"Optimizer.zero_grad#{self.__class__.__name__}.zero_grad"
        if not getattr(self.__class__.step, "hooked", None):
            self.__class__.step = self.profile_hook_step(self.__class__.step)
            self.__class__.step.hooked = True

    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        r"""Register a pre-hook run before this optimizer's `step`. / 注册在本优化器 `step` 之前运行的预钩子。

        === "中文"

            签名为 `hook(optimizer, args, kwargs)`，返回 `None` 或 `(new_args, new_kwargs)`
            （后者替换传给 `step` 的参数）；在全局预钩子之后运行。

        === "English"

            Signature `hook(optimizer, args, kwargs)`, returning `None` or
            `(new_args, new_kwargs)` (the latter replaces the arguments passed to `step`); runs
            after the global pre-hooks.

        Args:
            hook: The hook. / 钩子。

        Returns:
            A handle whose `remove()` unregisters it. / 句柄，`remove()` 注销钩子。
        """
        handle = RemovableHandle(self._optimizer_step_pre_hooks)
        self._optimizer_step_pre_hooks[handle.id] = hook
        return handle

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        r"""Register a post-hook run after this optimizer's `step`. / 注册在本优化器 `step` 之后运行的后钩子。

        === "中文"

            签名 `hook(optimizer, args, kwargs) -> None`；在全局后钩子之前运行。

        === "English"

            Signature `hook(optimizer, args, kwargs) -> None`; runs before the global post-hooks.

        Args:
            hook: The hook. / 钩子。

        Returns:
            A handle whose `remove()` unregisters it. / 句柄，`remove()` 注销钩子。
        """
        handle = RemovableHandle(self._optimizer_step_post_hooks)
        self._optimizer_step_post_hooks[handle.id] = hook
        return handle

    @staticmethod
    def _register_hook(hooks: OrderedDict, hook: Callable, prepend: bool) -> RemovableHandle:
        r"""Add a hook to an ordered hook dict, first or last. / 把钩子加到有序钩子字典的最前或最后。

        === "中文"

            state_dict 与 load_state_dict 的四种钩子共用它。句柄 id 全局递增，所以追加的钩子
            天然排在最后；`prepend=True` 时用 `move_to_end(..., last=False)` 把它移到最前。

        === "English"

            Shared by the four state_dict and load_state_dict hook kinds. Handle ids increase
            globally, so an appended hook naturally comes last; with `prepend=True`,
            `move_to_end(..., last=False)` moves it to the front.

        Args:
            hooks: One of the state_dict / load_state_dict hook dicts. / 某个 state_dict / load_state_dict 钩子字典。
            hook: The hook. / 钩子。
            prepend: Put it before the hooks already there. / 放在已有钩子之前。

        Returns:
            Its handle. / 它的句柄。
        """
        handle = RemovableHandle(hooks)
        hooks[handle.id] = hook
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    def register_state_dict_pre_hook(
        self, hook: Callable[["Optimizer"], None], prepend: bool = False
    ) -> RemovableHandle:
        r"""Register a hook run at the start of `state_dict()`. / 注册在 `state_dict()` 开始时运行的钩子。

        === "中文"

            签名 `hook(optimizer) -> None`，可用来在打包前整理状态。

        === "English"

            Signature `hook(optimizer) -> None`; useful to tidy the state before it is packed.

        Args:
            hook: The hook. / 钩子。
            prepend: Run before the pre-hooks already registered. / 在已注册的预钩子之前运行。

        Returns:
            A handle whose `remove()` unregisters it. / 句柄，`remove()` 注销钩子。
        """
        return self._register_hook(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(
        self, hook: Callable[["Optimizer", StateDict], StateDict | None], prepend: bool = False
    ) -> RemovableHandle:
        r"""Register a hook run on the state_dict before `state_dict()` returns it. / 注册在 `state_dict()` 返回前处理结果的钩子。

        === "中文"

            签名为 `hook(optimizer, state_dict)`，返回 `None` 或新的 `state_dict`：可以就地
            修改传入的字典，也可以返回一个新的字典代替它。

        === "English"

            Signature `hook(optimizer, state_dict)`, returning `None` or a new `state_dict`: it
            may modify the dict it gets in place or return a new one to replace it.

        Args:
            hook: The hook. / 钩子。
            prepend: Run before the post-hooks already registered. / 在已注册的后钩子之前运行。

        Returns:
            A handle whose `remove()` unregisters it. / 句柄，`remove()` 注销钩子。
        """
        return self._register_hook(self._optimizer_state_dict_post_hooks, hook, prepend)

    @torch._disable_dynamo
    def state_dict(self) -> StateDict:
        r"""The optimizer's state with parameters replaced by integers. / 优化器的状态，参数换成了整数编号。

        === "中文"

            结果有两项：`state` 把编号映射到该参数的状态字典（动量缓冲等，张量**不复制**，
            是同一对象）；`param_groups` 是各参数组的浅拷贝，`params` 换成编号列表，若参数组
            带名字则也有 `param_names`。

            编号就是参数在所有组中依次出现的位置：第 0 组的参数是 0..n0-1，第 1 组接着编。
            它们看着像下标，其实只是把 `state` 与 `param_groups` 连起来的标识：加载时按顺序
            一一配对，除了各组的参数个数**不做任何校验**——模型的参数顺序变了，状态就会错配。

        === "English"

            Two entries: `state` maps an integer to that parameter's state dict (momentum buffer
            and so on; the tensors are **not copied**, they are the same objects);
            `param_groups` holds shallow copies of the groups with `params` replaced by lists of
            integers, and `param_names` too if the group has names.

            The integers are the parameters' positions across all groups in order: group 0's
            parameters are 0..n0-1, group 1 continues from there. They look like indices but
            are only labels tying `state` to `param_groups`: loading pairs them up by order
            **with no check** beyond the groups' sizes, so if the model's parameter order
            changed, the state goes to the wrong parameters.

        Returns:
            `{"state": {int: dict}, "param_groups": [dict]}`. / `{"state": {整数: 字典}, "param_groups": [字典]}`。

        Examples:
            >>> import torch, annotated_optim as optim
            >>> w = torch.zeros(2, requires_grad=True)
            >>> opt = optim.SGD([w], lr=0.1, momentum=0.9)
            >>> w.grad = torch.ones(2); opt.step()
            >>> sd = opt.state_dict()
            >>> list(sd["state"]), sd["param_groups"][0]["params"]
            ([0], [0])
        """
        for pre_hook in self._optimizer_state_dict_pre_hooks.values():
            pre_hook(self)

        # 中: 按出现顺序给参数编号（按 `id`）。在前面的组里已有编号的参数沿用那个编号；
        #     同一组内重复出现的参数取它在组内最后一次出现的位置（torch 用字典推导式，后写的覆盖先写的）。
        # EN: Number the parameters in order of appearance (by `id`). A parameter numbered in an
        #     earlier group keeps that number; one repeated within a group gets its last
        #     position in the group (torch builds them with a dict comprehension: later wins).
        index_of: dict[int, int] = {}
        next_index = 0

        def pack_group(group: dict[str, Any]) -> dict[str, Any]:
            r"""Copy a group with its params replaced by their integers. / 复制一个参数组，把参数换成编号。

            === "中文"

                除 `params` 外的键原样浅拷贝（值是同一对象）。编号从 `next_index` 接着上一组
                往下数，组内每个位置都占一个编号，即使这个参数在前面的组出现过而沿用了旧编号。

            === "English"

                Keys other than `params` are copied shallowly (the values are the same objects).
                Numbering continues from `next_index` where the previous group stopped, and every
                position in the group uses up a number, even when that parameter was numbered
                in an earlier group and keeps that number.

            Args:
                group: One of `self.param_groups`. / `self.param_groups` 中的一个参数组。

            Returns:
                The packed copy. / 打包后的副本。
            """
            nonlocal next_index
            packed = {k: v for k, v in group.items() if k != "params"}
            # 中: 只有前面的组编过号的参数保留旧编号；本组内重复的，后一个位置覆盖前一个。
            # EN: Only numbers from earlier groups are kept; within this group a later
            #     position overwrites an earlier one.
            numbered_before = set(index_of)
            for i, p in enumerate(group["params"], next_index):
                if id(p) not in numbered_before:
                    index_of[id(p)] = i
            packed["params"] = [index_of[id(p)] for p in group["params"]]
            next_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        # 中: `state` 的张量键换成编号；非张量键（罕见，例如子类存的全局状态）原样保留。
        # EN: `state`'s tensor keys become integers; non-tensor keys (rare, e.g. global state a
        #     subclass stores) are kept as they are.
        packed_state = {
            (index_of[id(k)] if isinstance(k, torch.Tensor) else k): v
            for k, v in self.state.items()
        }
        state_dict = {"state": packed_state, "param_groups": param_groups}

        # 中: 后钩子依次处理结果；返回非 `None` 的字典会替换结果，交给下一个钩子。
        # EN: Post-hooks process the result in turn; a non-`None` return replaces it and goes to
        #     the next hook.
        for post_hook in self._optimizer_state_dict_post_hooks.values():
            hook_result = post_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(
        param: torch.Tensor,
        value: torch.Tensor,
        param_id: int,
        param_groups: list[dict[Any, Any]],
        key: Hashable = None,
    ) -> torch.Tensor:
        r"""Move (and maybe cast) one loaded state tensor to its parameter. / 把加载来的一个状态张量移到（并可能转换为）其参数的设备与类型。

        === "中文"

            规则：浮点参数的状态张量转成参数的设备**和**类型（混合精度训练保存的状态也能
            加载）；非浮点参数只移设备。`step` 例外：通常保持原样——优化器特意不按参数的设备
            建它（Adam 明确放在 CPU 上，Adagrad 与 RMSprop 放在默认设备上，没有用
            `torch.set_default_device` 改过时就是 CPU），因为其他实现每一步都把它读成
            Python 数，移到 GPU 或 XLA 设备上每次读取都要同步设备，训练变慢（在 XLA 上
            慢得明显，见 torch 的 issue 74424）；它也不跟着参数转类型，所以 float16 的模型
            不会让步数被舍入。只有所在参数组（在保存的参数组里查）是
            `fused` 或 `capturable` 时，才转成 float32 并放到参数的设备上（这两种实现要求步数
            在设备上）。

        === "English"

            Rule: a floating-point parameter's state tensors get the parameter's device **and**
            dtype (so state saved in mixed precision still loads); for other parameters only
            the device changes. `step` is the exception: usually kept as it is. Optimizers create
            it regardless of the parameter's device on purpose (Adam on the CPU explicitly, Adagrad and
            RMSprop on the default device, the CPU unless `torch.set_default_device` changed
            it): the other implementations read it as a Python number at
            every step, and moved to a GPU or XLA device each read would synchronize with the
            device and slow training (markedly on XLA, see torch issue 74424); nor does it
            follow the parameter's dtype, so a float16 model does not round the count. Only when
            the parameter's group (looked up in the saved groups) is `fused` or `capturable`,
            which need it on the device, is it made float32 on the parameter's device.

        Args:
            param: The parameter the state belongs to. / 状态所属的参数。
            value: A tensor of its loaded state. / 加载来的状态张量。
            param_id: The parameter's integer in the state_dict. / 参数在状态字典里的编号。
            param_groups: The state_dict's groups. / 状态字典里的参数组。
            key: The state entry's name. / 状态项的名字。

        Returns:
            The tensor to store. / 要存入的张量。
        """
        if param_groups is None:
            raise AssertionError("Expected param_groups to be set")
        # 中: 在保存的参数组里找这个编号所在的组，读它的 fused/capturable。
        # EN: Find the saved group holding this integer and read its fused/capturable.
        fused = capturable = False
        for group in param_groups:
            if param_id in group["params"]:
                fused = group.get("fused", False)
                capturable = group.get("capturable", False)
                break
        # 中: 先处理 `step`（只有 fused/capturable 才移动并转成 float32），再按参数是否为浮点
        #     决定是否跟着转类型；整数等非浮点参数的状态只移设备。
        # EN: `step` first (moved and made float32 only for fused/capturable), then whether the
        #     dtype follows depends on the parameter being floating point; the state of an
        #     integer or other non-float parameter only changes device.
        if key == "step":
            if capturable or fused:
                return value.to(dtype=torch.float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def register_load_state_dict_pre_hook(
        self, hook: Callable[["Optimizer", StateDict], StateDict | None], prepend: bool = False
    ) -> RemovableHandle:
        r"""Register a hook run on the incoming dict at the start of `load_state_dict`. / 注册在 `load_state_dict` 开始时处理传入字典的钩子。

        === "中文"

            签名为 `hook(optimizer, state_dict)`，返回 `None` 或新的 `state_dict`。钩子拿到的
            是用户所传字典的浅拷贝；返回新字典则改为加载它。适合按 `param_names` 重排等
            自定义匹配。

        === "English"

            Signature `hook(optimizer, state_dict)`, returning `None` or a new `state_dict`. The
            hook gets a shallow copy of the dict the user passed; returning a new dict loads
            that instead. Useful for custom matching, such as reordering by `param_names`.

        Args:
            hook: The hook. / 钩子。
            prepend: Run before the pre-hooks already registered. / 在已注册的预钩子之前运行。

        Returns:
            A handle whose `remove()` unregisters it. / 句柄，`remove()` 注销钩子。
        """
        return self._register_hook(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(
        self, hook: Callable[["Optimizer"], None], prepend: bool = False
    ) -> RemovableHandle:
        r"""Register a hook run at the end of `load_state_dict`. / 注册在 `load_state_dict` 结束时运行的钩子。

        === "中文"

            签名 `hook(optimizer) -> None`。运行时新的状态和参数组都已装入，可以在这里
            检查或调整加载结果。

        === "English"

            Signature `hook(optimizer) -> None`. When it runs the new state and groups are
            already installed, so it can check or adjust what was loaded.

        Args:
            hook: The hook. / 钩子。
            prepend: Run before the post-hooks already registered. / 在已注册的后钩子之前运行。

        Returns:
            A handle whose `remove()` unregisters it. / 句柄，`remove()` 注销钩子。
        """
        return self._register_hook(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    @torch._disable_dynamo
    def load_state_dict(self, state_dict: StateDict) -> None:
        r"""Load a state_dict: pair integers with parameters by order, cast, install. / 加载状态字典：按顺序把编号与参数配对，转换，装入。

        === "中文"

            步骤：1. 浅拷贝传入的字典，跑预钩子；2. 检查组数和每组的参数个数与当前优化器
            相同（只查个数，不查形状和名字）；3. 把保存的编号依次配给当前参数；4. 重建每个
            参数的状态（容器是新的），张量移到参数的设备并按规则转换类型——设备与类型已经
            合适的张量不复制，与传入的状态字典共用；5. 用保存的参数组（超参数）
            替换当前的，只保留当前的 `params`（以及保存的组没有名字时当前的 `param_names`）；
            6. 跑后钩子。

            学习率也在参数组里，所以会被覆盖：学习率调度器要在加载**之前**创建，否则它在
            构造时写入的学习率会盖掉加载来的值。

        === "English"

            Steps: 1. shallow-copy the incoming dict and run the pre-hooks; 2. check that the
            number of groups and each group's number of parameters match this optimizer (only
            counts, not shapes or names); 3. pair the saved integers with the current
            parameters in order; 4. rebuild each parameter's state (new containers), moving
            tensors to the parameter's device and casting them by the rule; a tensor already on
            the right device with the right dtype is not copied but shared with the state_dict
            passed in; 5. replace the current groups by
            the saved ones (the hyperparameters), keeping only the current `params` (and the
            current `param_names` when the saved group has none); 6. run the post-hooks.

            The learning rate lives in the groups too, so it is overwritten: create the
            learning-rate scheduler **before** loading, or the rate it writes at construction
            overwrites the loaded one.

        Args:
            state_dict: A dict returned by `state_dict()`. / `state_dict()` 返回的字典。

        Raises:
            ValueError: The groups or their sizes don't match. / 参数组个数或大小不一致。
        """
        # 中: 第 1 步：浅拷贝，让预钩子可以增删顶层键而不改动用户的字典。
        # EN: Step 1: a shallow copy, so pre-hooks may add or remove top-level keys without
        #     touching the user's dict.
        state_dict = state_dict.copy()
        for pre_hook in self._optimizer_load_state_dict_pre_hooks.values():
            hook_result = pre_hook(self, state_dict)
            if hook_result is not None:
                state_dict = hook_result

        # 中: 第 2 步：后面要往保存的参数组里写 `params`，所以先深拷贝，不改动传入的数据。
        # EN: Step 2: the saved groups get `params` written into them below, so they are deep-
        #     copied first, leaving the incoming data untouched.
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        # 中: 只核对组数与每组的参数个数，不看形状与名字；错误文本与 torch 相同。
        # EN: Only the number of groups and each group's size are checked, not shapes or names;
        #     the error texts are torch's.
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError(
                "loaded state dict contains a parameter group "
                "that doesn't match the size of optimizer's group"
            )

        # 中: 第 3 步：保存的编号与当前参数按顺序一一配对——这就是“编号只是标识”的含义。
        # EN: Step 3: saved integers and current parameters pair up in order; this is what
        #     "the integers are only labels" means.
        param_of = dict(
            zip(
                chain.from_iterable(g["params"] for g in saved_groups),
                chain.from_iterable(g["params"] for g in groups),
            )
        )

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            r"""Rebuild a state value, moving its tensors to `param`'s device. / 重建状态值，并把其中的张量移到 `param` 的设备。

            === "中文"

                张量交给 `_process_value_according_to_param_policy` 处理。`.to()` 在设备和
                类型都不变时返回同一个张量而不复制，所以加载来的张量可能与传入的状态字典
                共用，是同一个对象。

            === "English"

                Tensors go to `_process_value_according_to_param_policy`. `.to()` returns the
                same tensor without copying when neither device nor dtype changes, so a loaded
                tensor may be the very object held by the state_dict passed in.

            Args:
                param: The parameter the value belongs to. / 该值所属的参数。
                value: A state value: tensor, container or anything else. / 状态值：张量、容器或其他。
                param_id: The parameter's integer in the state_dict. / 参数在状态字典里的编号。
                param_groups: The saved groups, to read `fused`/`capturable`. / 保存的参数组，用来读 `fused`/`capturable`。
                key: The state entry's name, set only directly under a dict. / 状态项的名字，只在字典的直接下层才有。

            Returns:
                The converted value. / 转换后的值。
            """
            # 中: 张量按规则移动或转换类型，规则在 `_process_value_according_to_param_policy`。
            # EN: A tensor is moved or cast by the rule in
            #     `_process_value_according_to_param_policy`.
            if isinstance(value, torch.Tensor):
                return Optimizer._process_value_according_to_param_policy(
                    param, value, param_id, param_groups, key
                )
            # 中: 字典逐项递归，每一项带上自己的键名，`step` 项才能被认出来特殊处理。
            # EN: A dict recurses item by item, each item with its own key name, which is how
            #     a `step` entry is recognized for its special treatment.
            if isinstance(value, dict):
                return {
                    k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                    for k, v in value.items()
                }
            # 中: 列表、元组等按原类型重建；元素不再带键名，所以嵌在里面的 `step` 不受特殊
            #     对待。字符串也算可迭代：`type(value)(...)` 对它得到的是生成器的 repr 文本，
            #     而不是原字符串（torch 同样如此）。
            # EN: Lists, tuples and the like are rebuilt with their own type; their items carry
            #     no key name, so a `step` nested inside gets no special treatment. A string is
            #     iterable too: `type(value)(...)` turns it into the repr text of a generator,
            #     not the original string (torch does the same).
            if isinstance(value, Iterable):
                return type(value)(
                    _cast(param, v, param_id=param_id, param_groups=param_groups) for v in value
                )
            return value

        # 中: 第 4 步：新建状态字典；能配上参数的项转换后以当前的参数张量为键装入。
        # EN: Step 4: a new state dict; an entry that matches a parameter is cast and installed
        #     under the current parameter tensor.
        state: defaultdict[torch.Tensor, dict[Any, Any]] = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in param_of:
                param = param_of[key]
                state[param] = _cast(
                    param, value, param_id=key, param_groups=state_dict["param_groups"]
                )
            # 中: 配不上参数的项（如子类存的非张量键，`state_dict` 原样保存了它）连键带值原样保留。
            # EN: An entry matching no parameter (such as a non-tensor key a subclass stored,
            #     which `state_dict` saved as it was) is kept, key and value, as it is.
            else:
                state[key] = value

        # 中: 第 5 步：保存的组带着超参数，换上当前的参数张量；装入经由 `__setstate__`。
        # EN: Step 5: the saved groups carry the hyperparameters and get the current parameter
        #     tensors; installing goes through `__setstate__`.
        def update_group(group: dict[str, Any], new_group: dict[str, Any]) -> dict[str, Any]:
            r"""Give a saved group the current group's params (and names if it has none). / 让保存的参数组用上当前组的参数（没有名字时也用当前的名字）。

            === "中文"

                保存的组若带 `param_names`，它们覆盖当前的名字；名字只被保存下来，不参与配对。

            === "English"

                When the saved group has `param_names`, they override the current names; names
                are only kept, they play no part in the pairing.

            Args:
                group: The current group. / 当前的参数组。
                new_group: The saved group (already a deep copy), modified in place. / 保存的参数组（已是深拷贝），就地修改。

            Returns:
                `new_group`. / `new_group`。
            """
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})

        # 中: 第 6 步：后钩子看到的是已装入的状态。
        # EN: Step 6: post-hooks see the installed state.
        for post_hook in self._optimizer_load_state_dict_post_hooks.values():
            post_hook(self)

    @torch._disable_dynamo
    def zero_grad(self, set_to_none: bool = True) -> None:
        r"""Reset the gradients of all optimized tensors: `None` by default, or zeros. / 重置所有被优化张量的梯度：默认设为 `None`，也可置零。

        === "中文"

            `set_to_none=True`（默认）把 `.grad` 设为 `None`：省内存，下一次反向传播直接写入
            新梯度而不是累加。注意行为差别：没有收到梯度的参数 `.grad` 会保持 `None`，而
            优化器**跳过** `.grad` 为 `None` 的参数（不更新，也不衰减），梯度全零的参数却会
            照常走一步（动量、权重衰减仍起作用）。

            `set_to_none=False` 时就地清零：梯度若带计算图（`create_graph=True` 反向得到）先
            `detach_()` 切断，否则关掉它的 `requires_grad`；优化器构造时给了 `foreach=True` 或
            `fused=True`（看的是 `defaults`，不是各组；默认的 `None` 不算，所以即使 step 在 CUDA
            上默认走 foreach，这里也逐个清零）时按设备和类型分组，每组用一次
            `torch._foreach_zero_` 清零（稀疏梯度仍逐个清零）。

            1.5.1 → 2.13：1.5.1 没有 `set_to_none` 参数，梯度总是被清零。

        === "English"

            `set_to_none=True` (the default) sets `.grad` to `None`: it saves memory, and the
            next backward pass writes the new gradient instead of accumulating. Mind the
            difference in behavior: a parameter that receives no gradient keeps `.grad` as
            `None`, and optimizers **skip** parameters whose `.grad` is `None` (no update, no
            decay), while a parameter with an all-zero gradient still takes a step (momentum and
            weight decay still act).

            With `set_to_none=False` it zeroes in place: a gradient that carries a graph (from a
            backward with `create_graph=True`) is first cut off with `detach_()`, otherwise its
            `requires_grad` is turned off; when the optimizer was built with `foreach=True` or
            `fused=True` (its `defaults` count, not the groups; the default `None` does not, so
            even when step defaults to foreach on CUDA this zeroes one by one), the gradients
            are grouped by device and dtype and zeroed with one `torch._foreach_zero_` per group
            (sparse gradients are still zeroed one by one).

            1.5.1 → 2.13: in 1.5.1 there was no `set_to_none`; gradients were always zeroed.

        Args:
            set_to_none: Set to `None` instead of zeroing. / 设为 `None` 而不是置零。
        """
        use_foreach = self.defaults.get("foreach", False) or self.defaults.get("fused", False)
        # 中: 由旧版本 pickle 来的对象可能还没有 profiler 区间名，此时补上。
        # EN: An object unpickled from an older version may lack the profiler range name; add it.
        if not hasattr(self, "_zero_grad_profile_name"):
            self._patch_step_function()
        grads_by_device_and_dtype: defaultdict = defaultdict(lambda: defaultdict(list))

        # 中: 逐组逐参数处理：没有梯度的跳过；`set_to_none` 时直接丢掉梯度张量，不做任何运算。
        # EN: Group by group, parameter by parameter: those without a gradient are skipped;
        #     with `set_to_none` the gradient tensor is simply dropped, with no tensor op.
        with torch.autograd.profiler.record_function(self._zero_grad_profile_name):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if set_to_none:
                        p.grad = None
                        continue
                    # 中: 清零前先让梯度脱离计算图，否则就地清零会被记进图里。
                    # EN: Detach the gradient from any graph first, or zeroing it in place
                    #     would be recorded.
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    if not use_foreach or p.grad.is_sparse:
                        p.grad.zero_()
                    else:
                        grads_by_device_and_dtype[p.grad.device][p.grad.dtype].append(p.grad)
            # 中: foreach 清零：每个（设备, 类型）组一次内核调用。
            # EN: Foreach zeroing: one kernel call per (device, dtype) group.
            for grads_by_dtype in grads_by_device_and_dtype.values():
                for grads in grads_by_dtype.values():
                    torch._foreach_zero_(grads)

    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        r"""Perform one optimization step; every optimizer implements it. / 执行一步优化；每个具体优化器都要实现。

        === "中文"

            `closure` 是重新计算模型并返回损失的函数；大多数优化器可以不给，LBFGS 之类需要
            多次求值的优化器要求给出。给了 `closure` 时，`step` 在启用梯度的状态下调用它一次，
            并返回它的结果。

        === "English"

            `closure` re-evaluates the model and returns the loss; most optimizers don't need
            it, ones that evaluate several times (such as LBFGS) require it. When given, `step`
            calls it once with gradients enabled and returns its result.

        Args:
            closure: Re-evaluates the model, returns the loss. / 重新计算模型并返回损失。

        Raises:
            NotImplementedError: Always, in the base class. / 基类中总是抛出。
        """
        raise NotImplementedError

    @torch._disable_dynamo
    def add_param_group(self, param_group: dict[str, Any]) -> None:
        r"""Add a parameter group, checked, with defaults filled in. / 加入一个参数组：检查后补齐默认值。

        === "中文"

            微调时常用：先冻结的层解冻后，把它的参数作为新组加入（可以有自己的学习率）。

            步骤：1. `params` 规整成列表（单个张量包成列表；`set` 被拒绝，因为顺序不确定）；
            2. 拆出 `(name, tensor)` 对里的名字，存为 `param_names`（要么全有名字，要么全没有）；
            3. 每项必须是张量，且是叶子张量或保留梯度的张量（后一条在 `differentiable=True` 时
            不查）；
            4. 从 `defaults` 补齐本组没给的超参数，`required` 的必须给出；5. 组内重复参数只
            警告；6. 与已有组的参数不得重叠，且各组要么都有名字、要么都没有。

        === "English"

            Common in fine-tuning: when frozen layers are unfrozen, their parameters are added
            as a new group (possibly with their own learning rate).

            Steps: 1. normalize `params` to a list (a single tensor is wrapped; a `set` is
            refused because its order is not deterministic); 2. split the names off
            `(name, tensor)` pairs into `param_names` (all named or none); 3. each item must be a
            tensor that is a leaf or retains its gradient (the latter not checked with
            `differentiable=True`); 4. fill in the hyperparameters the group does not give from
            `defaults`; `required` ones must be given; 5. duplicates within the group only warn;
            6. no parameter may already be in another group, and either every group has names
            or none has.

        Args:
            param_group: A dict with `params` and optional hyperparameters. / 含 `params` 及可选超参数的字典。

        Raises:
            TypeError: Not a dict, a set of params, or a non-tensor. / 不是字典、参数是集合，或含非张量。
            ValueError: Non-leaf tensor, missing required value, overlap, mixed names. / 非叶子张量、缺少必需值、参数重叠、名字有无混用。
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")

        # 中: 第 1 步：组字典被就地修改（`params` 换成列表），之后它就是 `param_groups` 里的那个。
        # EN: Step 1: the group dict is modified in place (`params` becomes a list); it is the
        #     very dict that ends up in `param_groups`.
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        # 中: 张量按 `id`（内存地址）哈希，`set` 的迭代顺序每次运行都可能不同，而状态字典靠
        #     顺序配对，所以拒绝；其他可迭代对象（包括生成器）都变成列表。
        # EN: Tensors hash by `id` (a memory address), so a `set`'s iteration order may change
        #     from run to run, while the state_dict pairs by order: refused. Any other iterable
        #     (generators included) becomes a list.
        elif isinstance(params, set):
            raise TypeError(
                "optimizer parameters need to be organized in ordered collections, but "
                "the ordering of tensors in sets will change between runs. "
                "Please use a list instead."
            )
        else:
            param_group["params"] = list(params)

        # 中: 第 2 步：`model.named_parameters()` 给出的是 (名字, 参数) 对；名字另存，便于按名
        #     匹配的加载钩子使用。
        # EN: Step 2: `model.named_parameters()` yields (name, parameter) pairs; the names are
        #     stored separately, for load hooks that match by name.
        tensors: list = []
        names: list = []
        for item in param_group["params"]:
            if isinstance(item, tuple):
                names.append(item[0])
                tensors.append(item[1])
            else:
                tensors.append(item)
        # 中: 名字要么全有要么全无：只要有一项带名字，名字个数就必须等于张量个数。
        # EN: Names are all or nothing: once any item has a name, the number of names must equal
        #     the number of tensors.
        param_group["params"] = tensors
        if names:
            if len(names) != len(tensors):
                raise ValueError(
                    "all optimizer params should be with/without names. "
                    "Some param names are missing"
                )
            param_group["param_names"] = names

        # 中: 第 3 步：每一项都必须是张量；名字已在第 2 步拆掉，剩下的非张量项报 `TypeError`。
        # EN: Step 3: every item must be a tensor; names were split off in step 2, so any
        #     non-tensor left raises `TypeError`.
        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError(
                    "optimizer can only optimize Tensors, "
                    "but one of the params is " + torch.typename(param)
                )
            # 中: 非叶子张量的 `.grad` 默认不会被填（除非 `retain_grad()`），而且就地更新它会
            #     破坏计算图，所以拒绝；`differentiable=True` 时不查。
            # EN: A non-leaf tensor's `.grad` is not filled by default (unless `retain_grad()`),
            #     and updating it in place would corrupt the graph, so it is refused; not checked
            #     with `differentiable=True`.
            if not self.defaults.get("differentiable", None) and not (
                param.is_leaf or param.retains_grad
            ):
                raise ValueError("can't optimize a non-leaf Tensor")

        # 中: 第 4 步：按 `defaults` 的顺序补齐；所以各组的键顺序一致（repr 里另行排序）。
        # EN: Step 4: filled in `defaults`' order, so every group has its keys in the same
        #     order (the repr sorts them anyway).
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(
                    "parameter group didn't specify a value of required optimization parameter "
                    + name
                )
            param_group.setdefault(name, default)

        # 中: 第 5 步：组内重复只是警告。`stacklevel=3` 与 torch 相同，但本方法外面还包着
        #     `torch._disable_dynamo` 的包装层，所以警告报出的位置在 torch 的 `_compile.py` 里，
        #     而不是用户代码（torch 也是如此）。
        # EN: Step 5: duplicates within a group only warn. `stacklevel=3` is torch's, but this
        #     method is wrapped by `torch._disable_dynamo`, so the warning is reported inside
        #     torch's `_compile.py`, not at the user's code (in torch too).
        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn(
                "optimizer contains a parameter group with duplicate parameters; "
                "in future, this will cause an error; "
                "see github.com/pytorch/pytorch/issues/40967 for more information",
                stacklevel=3,
            )

        # 中: 第 6 步：与已有各组比较。先收集它们的全部参数，供下面的重叠检查。
        # EN: Step 6: compare with the existing groups. First gather all their parameters, for
        #     the overlap check below.
        seen: set[torch.Tensor] = set()
        for group in self.param_groups:
            seen.update(group["params"])
            # 中: 名字的有无必须与每个已有组一致；这项检查在重叠检查之前，两种错误都有时先报它。
            # EN: Having names must agree with every existing group; this check comes before
            #     the overlap check, so with both errors present it is the one raised.
            if ("param_names" in param_group) != ("param_names" in group):
                which = "with names" if "param_names" in param_group else "without names"
                raise ValueError(
                    "all optimizer param groups should be with/without names. "
                    f"cannot add param group {which} to the optimizer"
                )
        # 中: 跨组重复是错误：一个参数只能有一套超参数。张量按身份（`id`）哈希，比较的是
        #     同一个张量对象，而不是数值。
        # EN: A parameter in two groups is an error: one parameter, one set of
        #     hyperparameters. Tensors hash by identity (`id`), so this compares tensor
        #     objects, not values.
        if not seen.isdisjoint(param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")

        self.param_groups.append(param_group)
