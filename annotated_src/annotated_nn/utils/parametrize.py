r"""Parametrizations: a tensor attribute computed from hidden originals; mirrors `torch.nn.utils.parametrize`. / 参数化：由隐藏的原始张量计算出的张量属性，对应 `torch.nn.utils.parametrize`。

=== "中文"

    参数化（parametrization）让 `module.weight` 不再是存起来的张量，而是每次读取时算出来的：
    `module.weight == f(original)`，其中 `f` 是一个模块（例如把矩阵变成对称矩阵），
    `original` 才是真正被训练的参数（parameter）或缓冲区（buffer）。优化器更新 `original`，
    梯度穿过 `f` 回传，于是 `weight` 始终满足 `f` 施加的约束。

    实现分三步，都发生在
    [`register_parametrization`][annotated_nn.utils.parametrize.register_parametrization] 里：

    1. **换类**：模块的类被换成一个新生成的子类 `Parametrized<类名>`（例如
       `ParametrizedLinear`）。每个模块实例都有自己的这个子类，所以下一步往类上加 property
       不会影响同一层类型的其他实例。
    2. **搬走原张量**：原来的 `weight` 从 `_parameters`（或 `_buffers`）中删除，改存到
       `module.parametrizations.weight.original`。`parametrizations` 是一个
       [`ModuleDict`][annotated_nn.modules.container.ModuleDict]，每个值是一个
       [`ParametrizationList`][annotated_nn.utils.parametrize.ParametrizationList]，
       因此状态字典（state_dict）的键变成 `parametrizations.weight.original`。
    3. **装 property**：在新类上放一个名为 `weight` 的 property：读取时运行参数化，
       赋值时调用 `right_inverse` 把新值写回 `original`。

    代码里的实际顺序是先建好 `ParametrizationList`（全部检查都在这时运行）并删除原张量，
    再换类、装 property：检查失败时模块的类和各张表都保持原样——但张量的值未必：
    `right_inverse` 返回一个张量时，它的结果在最后的 dtype 与形状检查之前就已用 `set_()`
    写进了原张量。

    [`remove_parametrizations`][annotated_nn.utils.parametrize.remove_parametrizations]
    把这三步倒过来：删 property、把张量放回原处、最后一个参数化移除后把类换回去。

    1.5.1 → 2.13：1.5.1 没有这个文件；那时的 `weight_norm`、`spectral_norm` 用前向预钩子
    （forward pre-hook）在每次前向传播（forward pass）前重算 `weight`。

=== "English"

    A parametrization makes `module.weight` computed on every read instead of stored:
    `module.weight == f(original)`, where `f` is a module (one that makes a matrix symmetric,
    say) and `original` is the parameter or buffer actually trained. The optimizer updates
    `original`, gradients flow back through `f`, and `weight` always satisfies the constraint
    that `f` imposes.

    [`register_parametrization`][annotated_nn.utils.parametrize.register_parametrization]
    does it in three steps:

    1. **Swap the class**: the module's class is replaced by a freshly generated subclass
       `Parametrized<ClassName>` (e.g. `ParametrizedLinear`). Every module instance gets a
       subclass of its own, so adding a property to it in the next step leaves other instances
       of the same layer type alone.
    2. **Move the tensor out**: the original `weight` is deleted from `_parameters` (or
       `_buffers`) and kept as `module.parametrizations.weight.original` instead.
       `parametrizations` is a [`ModuleDict`][annotated_nn.modules.container.ModuleDict] whose
       values are [`ParametrizationList`][annotated_nn.utils.parametrize.ParametrizationList]s,
       so the state_dict key becomes `parametrizations.weight.original`.
    3. **Install a property**: a property named `weight` goes on the new class: reading it
       runs the parametrization, assigning to it calls `right_inverse` to write the new value
       back into `original`.

    In the code the actual order is: build the `ParametrizationList` first (every check runs
    then) and delete the tensor, then swap the class and install the property; a failed check
    leaves the module's class and tables as they were, but not necessarily the tensor's value:
    when `right_inverse` returns one tensor, its result is written into the tensor with
    `set_()` before the final dtype and shape checks.

    [`remove_parametrizations`][annotated_nn.utils.parametrize.remove_parametrizations] undoes
    the three steps: it deletes the property, puts the tensor back, and restores the class once
    the last parametrization is gone.

    1.5.1 → 2.13: 1.5.1 had no such file; its `weight_norm` and `spectral_norm` recomputed
    `weight` in a forward pre-hook before every forward pass.

Note: Note [Copies share the parametrized class] 副本共用参数化类
    === "中文"

        `copy.deepcopy` 不复制类对象，所以深拷贝（deepcopy）得到的副本与原模块共用同一个
        `Parametrized<类名>` 类，也就共用类上的 property。由此产生三个陷阱（torch 中同样存在）：

        - 在副本上移除参数化会从共用的类上删掉 property，原模块随后读 `weight` 得到
          AttributeError（它的张量还在 `parametrizations` 里，只是没有 property 去读）。
        - 在副本上给新的张量注册参数化，property 也会出现在原模块上；原模块的
          `parametrizations` 里没有这个名字，读取它得到 KeyError。
        - property 在注册时记住了**原模块**：在 [`cached`][annotated_nn.utils.parametrize.cached]
          里，缓存的键是 `(id(原模块), 名字)`，于是副本与原模块共用同一个缓存项：块内谁先被读取，
          另一个随后读到的就是那同一个张量（由先读者的原始张量算出）。

        需要独立的副本时，新建模块并加载状态字典，或在副本上从头注册参数化。

    === "English"

        `copy.deepcopy` does not copy class objects, so a deep copy shares its
        `Parametrized<ClassName>` class, and the properties on it, with the original. Three
        pitfalls follow (the same in torch):

        - Removing a parametrization from the copy deletes the property from the shared class;
          the original's `weight` then raises AttributeError (its tensor is still in
          `parametrizations`, but no property reads it).
        - Registering a parametrization on a new tensor of the copy puts the property on the
          original too; the original's `parametrizations` has no such name, so reading it
          raises KeyError.
        - The property remembers the *original* module from when it was registered: inside
          [`cached`][annotated_nn.utils.parametrize.cached] the cache key is
          `(id(original), name)`, so the copy and the original share one cache entry: whichever
          is read first inside the block, the other then gets that same tensor (computed from
          the first one's originals).

        For an independent copy, build a new module and load the state_dict, or register the
        parametrizations on the copy from scratch.
"""

import collections.abc
import copyreg
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from copy import deepcopy
from typing import Any

import torch
from torch import Tensor
from torch.__future__ import get_swap_module_params_on_conversion
from torch._library.opaque_object import is_opaque_reference_type
from torch._opaque_base import OpaqueBase
from torch.utils._python_dispatch import is_traceable_wrapper_subclass

from annotated_nn.modules.container import ModuleDict, ModuleList
from annotated_nn.modules.module import Module
from annotated_nn.parameter import Parameter

__all__ = [
    "cached",
    "ParametrizationList",
    "register_parametrization",
    "is_parametrized",
    "remove_parametrizations",
    "type_before_parametrizations",
    "transfer_parametrizations_and_params",
]

# 中: 缓存的全局状态：`_cache_enabled` 是 `cached()` 当前嵌套了几层（计数而不是布尔值，
# 中: 这样内层退出不会清掉外层的缓存）；`_cache` 把 `(id(模块), 张量名)` 映射到算好的张量。
# EN: The cache's global state: `_cache_enabled` counts how deeply `cached()` is nested (a
# EN: count, not a bool, so leaving an inner context does not drop the outer one's cache);
# EN: `_cache` maps `(id(module), tensor name)` to the computed tensor.
_cache_enabled = 0
_cache: dict[tuple[int, str], Tensor | None] = {}


@contextmanager
def cached() -> Iterator[None]:
    r"""Compute each parametrized tensor once inside the block. / 在代码块内每个参数化张量只计算一次。

    === "中文"

        默认情况下，每读一次 `module.weight` 就运行一次参数化。若一次前向传播里多次用到
        同一个参数化张量（共享权重、RNN 每个时间步都用循环权重），就会重复计算。
        在这个上下文管理器里，第一次读取的结果被缓存，之后直接返回同一个张量对象；
        离开最外层的 `with` 时缓存被清空。可以嵌套：只有最外层退出才清空。
        缓存的张量保留计算图，所以反向传播（backward pass）照常经过参数化。
        注意：在块内就地修改 `original`（例如 `optimizer.step()`）之后，读到的仍是修改前算出的
        那个张量。

    === "English"

        By default each read of `module.weight` runs the parametrization once more. A forward
        pass that uses the same parametrized tensor several times (shared weights, an RNN's
        recurrent kernel at every step) repeats the work. Inside this context manager the
        first read is cached and later reads return that same tensor object; the cache is
        dropped when the outermost `with` exits. Nesting is allowed: only the outermost exit
        clears. The cached tensor keeps its graph, so the backward pass still goes through the
        parametrization. Beware: after an in-place change of `original` inside the block (an
        `optimizer.step()`, say), reads still return the tensor computed before it.

    Returns:
        A context manager yielding `None`. / 产出 `None` 的上下文管理器。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> import annotated_nn.utils.parametrize as P
        >>> class Double(nn.Module):
        ...     def forward(self, X):
        ...         return 2 * X
        >>> m = P.register_parametrization(nn.Linear(2, 2), "weight", Double())
        >>> with P.cached():
        ...     same = m.weight is m.weight
        >>> same, m.weight is m.weight
        (True, False)
    """
    global _cache
    global _cache_enabled
    # 中: 进入时计数加一；`finally` 保证 with 块里抛出异常时计数也会减回去，
    # 中: 计数回到 0（最外层退出）才换成一个新的空字典，释放缓存的张量和它们的计算图。
    # EN: Entering bumps the count; `finally` brings it back down even when the block raises,
    # EN: and only when it reaches 0 (the outermost exit) is a fresh empty dict put in place,
    # EN: freeing the cached tensors and their graphs.
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, X: Tensor) -> None:
    r"""Register `X` as a parameter if it is one, else as a buffer. / `X` 是参数就登记为参数，否则登记为缓冲区。

    === "中文"

        参数化不改变张量的身份：原来是参数的 `original` 仍是参数，原来是缓冲区的仍是缓冲区。
        缓冲区总是以默认的 `persistent=True` 登记，所以非持久缓冲区经过参数化（以及移除参数化）
        之后会变成持久的，进入状态字典——torch 同样如此。

    === "English"

        Parametrizing does not change what a tensor is: an `original` that was a parameter stays
        a parameter, a buffer stays a buffer. Buffers are always registered with the default
        `persistent=True`, so a non-persistent buffer becomes persistent, and enters the
        state_dict, once parametrized (and after the parametrization is removed), as in torch.

    Args:
        module: Where to register. / 登记到哪个模块。
        name: The attribute name. / 属性名。
        X: The tensor. / 张量。
    """
    if isinstance(X, Parameter):
        module.register_parameter(name, X)
    else:
        module.register_buffer(name, X)


def _maybe_set(dest: Tensor, src: Tensor) -> None:
    r"""Give `dest` the contents of `src`, keeping the object `dest`. / 让 `dest` 拥有 `src` 的内容，但保留 `dest` 这个对象。

    === "中文"

        优化器按对象身份记住参数，所以写回 `original` 时不能换成新对象，而是让原对象改指
        `src` 的存储：默认用 `set_()`。两种情况改用 `torch.utils.swap_tensors` 交换两个
        张量对象的全部内容：打开了 `torch.__future__.set_swap_module_params_on_conversion`，
        或 `dest` 是可追踪的包装子类（内部包着别的张量的张量子类）。交换时若 `dest` 是参数而
        `src` 不是，先把 `src` 包成参数，保证交换后 `dest` 仍是参数。

    === "English"

        Optimizers know parameters by object identity, so writing back into `original` must
        not swap in a new object; instead the existing one is pointed at `src`'s storage with
        `set_()` by default. Two cases use `torch.utils.swap_tensors`, which exchanges all the
        contents of two tensor objects, instead: `torch.__future__.set_swap_module_params_on_conversion`
        is on, or `dest` is a traceable wrapper subclass (a tensor subclass wrapping inner
        tensors).
        When swapping a parameter `dest` with a non-parameter `src`, `src` is first wrapped as
        a parameter so that `dest` is still one afterwards.

    Args:
        dest: The tensor to update. / 要更新的张量。
        src: The new contents. / 新的内容。
    """
    should_swap = get_swap_module_params_on_conversion() or is_traceable_wrapper_subclass(dest)
    if should_swap:
        if isinstance(dest, Parameter) and not isinstance(src, Parameter):
            src = Parameter(src, requires_grad=dest.requires_grad)
        torch.utils.swap_tensors(dest, src)
    else:
        dest.set_(src)  # type: ignore[call-overload]


class ParametrizationList(ModuleList):
    r"""The chain of parametrizations of one tensor, plus its originals. / 一个张量的参数化链，以及它的原始张量。

    === "中文"

        `module.parametrizations[名字]` 就是它。作为 [`ModuleList`][annotated_nn.modules.container.ModuleList]，
        它按注册顺序存放各个参数化模块（`"0"`、`"1"`……）；此外它登记了原始张量：
        第一个参数化的 `right_inverse` 返回一个张量（或没有 `right_inverse`，视为恒等）时，
        名字是 `original`；返回张量序列时，名字是 `original0`、`original1`……
        调用它（`forward`）就得到参数化后的张量：先把原始张量交给第 0 个参数化，
        结果再依次穿过后面的参数化。

        由 [`register_parametrization`][annotated_nn.utils.parametrize.register_parametrization]
        创建，用户不应自己构造。

    === "English"

        This is what `module.parametrizations[name]` holds. As a
        [`ModuleList`][annotated_nn.modules.container.ModuleList] it keeps the parametrization
        modules in registration order (`"0"`, `"1"`, ...); besides, it registers the original
        tensors: `original` when the first parametrization's `right_inverse` returns one tensor
        (or there is no `right_inverse`, taken as the identity), `original0`, `original1`, ...
        when it returns a sequence of tensors. Calling it (`forward`) gives the parametrized
        tensor: the originals go into parametrization 0, and the result through each later one
        in turn.

        Created by
        [`register_parametrization`][annotated_nn.utils.parametrize.register_parametrization];
        users should not build one themselves.

    Args:
        modules: The parametrizations, at least one. / 参数化模块，至少一个。
        original: The parameter or buffer being parametrized. / 被参数化的参数或缓冲区。
        unsafe: Skip the dtype and shape checks. / 跳过 dtype 与形状检查。
    """

    original: Tensor
    unsafe: bool

    def __init__(
        self,
        modules: Sequence[Module],
        original: Tensor | Parameter,
        unsafe: bool = False,
    ) -> None:
        r"""Store the parametrizations and derive the originals from `original`. / 存下参数化模块，并由 `original` 推出原始张量。

        === "中文"

            分四步：

            1. 逆着注册顺序对 `original` 调用各参数化的 `right_inverse`（没有这个方法，或它抛出
               `NotImplementedError`，就当作恒等），得到新的原始值 `new`。
            2. `new` 是一个张量时：它不能改变 dtype 和设备；用 `set_()`（或交换，见 `_maybe_set`）
               把它写进 `original` 这个对象本身，再登记为 `original`——对象不变，
               所以已经创建好的优化器仍然有效。
            3. `new` 是序列时：每个元素登记为 `original{i}`，是参数还是缓冲区、是否需要梯度
               都跟随 `original`。这些是新对象，需要用户自己加进优化器。
            4. 除非 `unsafe=True`，调用一次整条链，检查结果仍是张量，dtype 与形状都没有变。

        === "English"

            Four steps:

            1. Call the parametrizations' `right_inverse` on `original` in reverse registration
               order (a missing method, or one raising `NotImplementedError`, counts as the
               identity), giving the new original value `new`.
            2. If `new` is one tensor: it may not change the dtype or the device; `set_()` (or
               a swap, see `_maybe_set`) writes it into the object `original` itself, which is
               then registered as `original`. The object is the same, so an optimizer built
               earlier still works.
            3. If `new` is a sequence: each element is registered as `original{i}`, parameter or
               buffer and requiring grad or not as `original` was. These are new objects that
               the user must add to the optimizer.
            4. Unless `unsafe=True`, run the whole chain once and check that the result is still
               a tensor of unchanged dtype and shape.

        Args:
            modules: The parametrizations, at least one. / 参数化模块，至少一个。
            original: The parameter or buffer being parametrized. / 被参数化的参数或缓冲区。
            unsafe: Skip the checks of step 4. / 跳过第 4 步的检查。

        Raises:
            ValueError: No module; `right_inverse` returns a wrong type, dtype or device; the
                chain changes dtype or shape. / 没有模块；`right_inverse` 的返回值类型、dtype
                或设备不对；整条链改变了 dtype 或形状。
        """
        # 中: 第一个参数化要特殊对待（只有它接收原始张量），所以至少要有一个；
        # 中: 只有在外部直接构造本类时才会触发。
        # EN: The first parametrization is special (only it receives the originals), so there
        # EN: must be one; this fires only when the class is built directly from outside.
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")

        super().__init__(modules)
        self.unsafe = unsafe

        # 中: 记下参数化之前的形状与 dtype，供第 4 步比较（第 2 步会就地改掉 `original`）。
        # EN: Remember the shape and dtype before parametrizing for step 4 (step 2 changes
        # EN: `original` in place).
        original_shape = original.shape
        original_dtype = original.dtype

        # 中: 第 1 步：从最后一个参数化往前逆推。不记录梯度：这只是初始化原始值。
        # EN: Step 1: invert from the last parametrization back to the first. No grad: this only
        # EN: initializes the original value.
        with torch.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass

        # 中: 结果只能是张量或序列（list、tuple……）；报错文字与 torch 相同。
        # EN: The result must be a tensor or a sequence (list, tuple, ...); the message is
        # EN: torch's.
        if not isinstance(new, Tensor) and not isinstance(new, Sequence):
            raise ValueError(
                "'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                f"Got {type(new).__name__}"
            )

        # 中: 记住原始张量的个数：`forward` 与 `right_inverse` 据此决定读写 `original`
        # 中: 还是 `original0`、`original1`……
        # EN: Remember how many originals there are: `forward` and `right_inverse` use it to
        # EN: choose between `original` and `original0`, `original1`, ...
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)

        # 中: 第 2 步：一个张量。`set_()` 只能接受同 dtype、同设备的数据，所以先检查这两点。
        # EN: Step 2: one tensor. `set_()` only takes data of the same dtype and device, so check
        # EN: those two first.
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                    f"original.dtype: {original.dtype}\n"
                    f"right_inverse(original).dtype: {new.dtype}"
                )
            if original.device != new.device:
                raise ValueError(
                    "When `right_inverse` outputs one tensor, it may not change the device.\n"
                    f"original.device: {original.device}\n"
                    f"right_inverse(original).device: {new.device}"
                )
            # 中: 把值写进原来的对象而不是换一个对象：优化器里登记的仍是这个参数。
            # EN: Write the value into the existing object rather than replacing it: the
            # EN: optimizer still holds this very parameter.
            with torch.no_grad():
                _maybe_set(original, new)
            _register_parameter_or_buffer(self, "original", original)
        # 中: 第 3 步：一个序列。逐个元素检查并登记；引用类型的不透明对象（`OpaqueBase`）作为普通属性
        # 中: 保存，张量按 `original` 的种类登记，其他类型报错（文字里带上元素下标与类型名）。
        # EN: Step 3: a sequence. Each element is checked and registered: a reference-type opaque
        # EN: object (`OpaqueBase`) is kept as a plain attribute, a tensor is registered as the
        # EN: same kind as `original`, anything else raises (naming the element's index and
        # EN: type).
        else:
            for i, originali in enumerate(new):
                if isinstance(originali, OpaqueBase):
                    if not is_opaque_reference_type(type(originali)):
                        raise ValueError(
                            f"'right_inverse' must return a Tensor or a reference-type "
                            f"opaque. Got element {i} of the sequence with type "
                            f"{type(originali).__name__}."
                        )
                    setattr(self, f"original{i}", originali)
                elif isinstance(originali, Tensor):
                    # 中: 原来是参数，新的原始张量也包成参数（我们的 `Parameter`）；
                    # 中: 是否需要梯度与原来一致。它们是新对象，要由用户加进优化器。
                    # EN: If the original was a parameter, the new ones are wrapped as
                    # EN: parameters too (our `Parameter`); requiring grad follows the original.
                    # EN: They are new objects, for the user to add to the optimizer.
                    if isinstance(original, Parameter):
                        originali = Parameter(originali, original.requires_grad)
                    originali.requires_grad_(original.requires_grad)
                    _register_parameter_or_buffer(self, f"original{i}", originali)
                else:
                    raise ValueError(
                        "'right_inverse' must return a Tensor or a Sequence of tensors "
                        "(list, tuple...). "
                        f"Got element {i} of the sequence with type {type(originali).__name__}."
                    )

        # 中: 第 4 步：参数化是从"原始空间"到"`module.weight` 的空间"的映射，所以
        # 中: `forward(right_inverse(original))` 必须与 `original` 同 dtype、同形状，
        # 中: 模块其余代码（例如 `F.linear`）才能照常使用它。`unsafe=True` 跳过这些检查。
        # EN: Step 4: a parametrization maps "original space" into "the space of
        # EN: `module.weight`", so `forward(right_inverse(original))` must keep `original`'s
        # EN: dtype and shape for the rest of the module (`F.linear`, say) to work as before.
        # EN: `unsafe=True` skips these checks.
        if not self.unsafe:
            Z = self()
            if not isinstance(Z, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(Z).__name__}.")
            if Z.dtype != original_dtype:
                raise ValueError(
                    "Registering a parametrization may not change the dtype of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized dtype: {original_dtype}\n"
                    f"parametrized dtype: {Z.dtype}"
                )
            if Z.shape != original_shape:
                raise ValueError(
                    "Registering a parametrization may not change the shape of the tensor, "
                    "unless `unsafe` flag is enabled.\n"
                    f"unparametrized shape: {original_shape}\n"
                    f"parametrized shape: {Z.shape}"
                )

    def right_inverse(self, value: Tensor) -> None:
        r"""Write `value` back into the originals through every `right_inverse`. / 经各个 `right_inverse` 把 `value` 写回原始张量。

        === "中文"

            `module.weight = value` 最终调用这里。逆着注册顺序调用每个参数化的
            `right_inverse`；与注册时不同，缺少这个方法就报 RuntimeError（没有办法把值写回去），
            `right_inverse` 抛出的 `NotImplementedError` 也原样传出，不再当作恒等。
            结果写进已有的原始张量对象（`set_()`），所以优化器无需更新。
            下面的 dtype 与长度检查只有在 `right_inverse` 对不同输入返回不同 dtype 或长度时才会触发，
            那通常是用户代码的 bug。不记录梯度。

        === "English"

            `module.weight = value` ends up here. Each parametrization's `right_inverse` is
            called in reverse registration order; unlike at registration, a missing method
            raises RuntimeError (there is no way to write the value back), and a
            `NotImplementedError` raised by `right_inverse` propagates instead of counting as
            the identity. The result goes into the existing original objects (`set_()`), so
            the optimizer needs no update. The dtype and length checks below fire only when
            `right_inverse` returns a different dtype or length for different inputs, usually
            a bug in user code. No grad is recorded.

        Args:
            value: The new value of the parametrized tensor. / 参数化张量的新值。

        Raises:
            RuntimeError: A parametrization has no `right_inverse`. / 某个参数化没有 `right_inverse`。
            NotImplementedError: A `right_inverse` raises it (passed on). / 某个 `right_inverse` 抛出它（原样传出）。
            ValueError: The result has a wrong type, dtype or length. / 结果的类型、dtype 或长度不对。
        """
        # 中: 整段不记录梯度：写回原始值不是可求导的运算。
        # EN: No grad throughout: writing the original back is not a differentiable step.
        with torch.no_grad():
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError(
                        f"parametrization {type(module).__name__} does not implement right_inverse."
                    )
            # 中: 只有一个原始张量：结果必须是同 dtype 的张量，然后写进 `original`。
            # EN: One original: the result must be a tensor of the same dtype, written into
            # EN: `original`.
            if self.is_tensor:
                if not isinstance(value, Tensor):
                    raise ValueError(
                        f"`right_inverse` should return a tensor. Got {type(value).__name__}"
                    )
                if value.dtype != self.original.dtype:
                    raise ValueError(
                        f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                        f"while `original` has dtype {self.original.dtype}"
                    )
                _maybe_set(self.original, value)
            # 中: 多个原始张量：结果必须是与注册时等长的序列。
            # EN: Several originals: the result must be a sequence as long as at registration.
            else:
                if not isinstance(value, collections.abc.Sequence):
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors. "
                        f"Got {type(value).__name__}."
                    )
                if len(value) != self.ntensors:
                    raise ValueError(
                        "'right_inverse' must return a sequence of tensors of length "
                        f"{self.ntensors}. Got a sequence of length {len(value)}."
                    )
                for i, tensor in enumerate(value):
                    self._write_original(i, tensor)

    def _write_original(self, i: int, tensor: Any) -> None:
        r"""Write element `i` of `right_inverse`'s result into `original{i}`. / 把 `right_inverse` 结果的第 `i` 个元素写进 `original{i}`。

        === "中文"

            引用类型的不透明对象直接替换属性；张量必须与 `original{i}` 同 dtype，
            写进已有对象；其他一切（包括非引用类型的不透明对象）报 ValueError。
            torch 把这段写在 `right_inverse` 的循环体里；这里拆成一个方法，只是为了好读。

        === "English"

            A reference-type opaque object replaces the attribute; a tensor must have the dtype
            of `original{i}` and is written into the existing object; anything else (including
            an opaque object that is not a reference type) raises ValueError. torch writes this
            inside `right_inverse`'s loop; it is a method here only to read better.

        Args:
            i: Index of the original. / 原始张量的下标。
            tensor: The new value. / 新值。

        Raises:
            ValueError: Wrong dtype or type. / dtype 或类型不对。
        """
        # 中: 引用类型的不透明对象没有存储可写，直接换成新对象；
        # 中: 非引用类型的不透明对象落到最后的报错，不再当作张量尝试。
        # EN: A reference-type opaque object has no storage to write into; it is replaced. One
        # EN: of another kind falls through to the final error, never tried as a tensor.
        if isinstance(tensor, OpaqueBase):
            if is_opaque_reference_type(type(tensor)):
                setattr(self, f"original{i}", tensor)
                return
        # 中: 张量：检查 dtype 后写进已有对象，保持对象身份（优化器靠它）。
        # EN: A tensor: check the dtype, then write into the existing object, keeping its
        # EN: identity (the optimizer relies on it).
        elif isinstance(tensor, Tensor):
            original_i = getattr(self, f"original{i}")
            if original_i.dtype != tensor.dtype:
                raise ValueError(
                    f"Tensor {i} returned by `right_inverse` has dtype {tensor.dtype} "
                    f"while `original{i}` has dtype {original_i.dtype}"
                )
            _maybe_set(original_i, tensor)
            return
        raise ValueError(
            f"'right_inverse' must return a sequence of tensors "
            f"or reference-type opaques. Got element {i} of type "
            f"{type(tensor).__name__}."
        )

    def forward(self) -> Tensor:
        r"""Compute the parametrized tensor from the originals. / 由原始张量算出参数化后的张量。

        === "中文"

            第 0 个参数化接收原始张量（一个，或按顺序展开的 `original0`、`original1`……），
            之后每个参数化接收上一个的输出。

        === "English"

            Parametrization 0 receives the originals (one, or `original0`, `original1`, ...
            unpacked in order); each later one receives the previous output.

        Returns:
            The parametrized tensor. / 参数化后的张量。

        Raises:
            RuntimeError: Called while TorchScript scripting. / 在 TorchScript 脚本化中调用。
        """
        if torch.jit.is_scripting():
            raise RuntimeError("Parametrization is not working with scripting.")
        # 中: 第 0 个参数化：把原始张量交给它。多个原始张量时按下标顺序展开成位置参数。
        # EN: Parametrization 0 gets the originals; several of them are unpacked as positional
        # EN: arguments in index order.
        if self.is_tensor:
            x = self[0](self.original)
        else:
            originals = (getattr(self, f"original{i}") for i in range(self.ntensors))
            x = self[0](*originals)
        # 中: 其余参数化按名字 "1"、"2"…… 依次取出，直到某个名字不存在为止（与 torch 相同）。
        # 中: 不能用切片 `self[1:]`：ModuleList 的切片会调用 `self.__class__(模块列表)`，
        # 中: 而本类的构造函数还要求 `original`，于是抛 TypeError。
        # EN: The remaining parametrizations are fetched by the names "1", "2", ... in turn until
        # EN: a name is missing (as torch does). Slicing `self[1:]` cannot work: a ModuleList
        # EN: slice calls `self.__class__(list of modules)`, and this class's constructor also
        # EN: requires `original`, so it raises TypeError.
        curr_idx = 1
        while hasattr(self, str(curr_idx)):
            x = self[curr_idx](x)
            curr_idx += 1
        return x


def _inject_new_class(module: Module) -> None:
    r"""Swap the module's class for a fresh subclass `Parametrized<ClassName>`. / 把模块的类换成新生成的子类 `Parametrized<类名>`。

    === "中文"

        property 只能放在类上，而不能放在实例上；为了不影响同类型的其他模块，每个模块
        在第一次注册参数化时得到一个只属于自己的子类。子类还带两个方法：

        - `__getstate__` 直接报错：生成的类无法按名字导入，pickle（以及 `torch.save(module)`）
          走不通，只能保存状态字典。
        - `__deepcopy__`（原类没有时才加）：不走 `__getstate__`，而是手工做一遍标准的深拷贝，
          因此深拷贝仍然可用。副本与原模块共用这个类，见 Note [Copies share the parametrized class]。

    === "English"

        A property can only live on a class, not on an instance; so that other modules of the
        same type are not affected, each module gets a subclass of its own when its first
        parametrization is registered. The subclass carries two methods:

        - `__getstate__` raises: the generated class cannot be imported by name, so pickle (and
          `torch.save(module)`) cannot work; only the state_dict can be saved.
        - `__deepcopy__` (added only if the class has none): it does a standard deep copy by
          hand instead of going through `__getstate__`, so deepcopy still works. The copy
          shares this class with the original: see Note [Copies share the parametrized class].

    Args:
        module: The module to convert. / 要转换的模块。
    """
    cls = module.__class__

    def default_deepcopy(self: Module, memo: dict) -> Module:
        r"""Deep-copy the instance dict and slots, bypassing `__getstate__`. / 绕过 `__getstate__`，深拷贝实例字典与槽。

        === "中文"

            与 `copy.deepcopy` 对普通对象的做法相同：先查 memo（同一个对象只拷贝一次，
            共享的模块在副本里仍共享），建一个不运行 `__init__` 的空对象并立刻记入 memo
            （处理循环引用），再深拷贝整个 `__dict__`，最后是 `__slots__`（如果有）。
            与 `Module.__getstate__` 不同，`_compiled_call_impl` 不会被去掉。

        === "English"

            The same as `copy.deepcopy` does for a plain object: check the memo (each object is
            copied once, so shared modules stay shared in the copy), make an empty object
            without running `__init__` and record it in the memo right away (for cycles),
            deep-copy the whole `__dict__`, then the `__slots__` if any. Unlike
            `Module.__getstate__`, `_compiled_call_impl` is not dropped.

        Args:
            memo: The deepcopy memo. / 深拷贝的 memo 字典。

        Returns:
            The copy. / 副本。
        """
        # 中: 已经拷贝过（共享或循环引用）就返回那个副本；否则先登记空对象再填内容。
        # EN: Already copied (shared or cyclic) returns that copy; otherwise register the empty
        # EN: object first, then fill it.
        obj = memo.get(id(self), None)
        if obj is not None:
            return obj
        replica = self.__new__(self.__class__)
        memo[id(self)] = replica
        replica.__dict__ = deepcopy(self.__dict__, memo)
        # 中: `copyreg._slotnames` 列出类层级上所有 `__slots__` 名字（并缓存在类的
        # 中: `__slotnames__` 上）；模块类通常没有，循环不执行。
        # EN: `copyreg._slotnames` lists every `__slots__` name of the class hierarchy (and
        # EN: caches it on the class as `__slotnames__`); module classes usually have none.
        slots_to_save = copyreg._slotnames(self.__class__)  # type: ignore[attr-defined]
        for slot in slots_to_save:
            if hasattr(self, slot):
                setattr(replica, slot, deepcopy(getattr(self, slot), memo))
        return replica

    def getstate(self: Module) -> dict:
        r"""Refuse to pickle a parametrized module. / 拒绝 pickle 参数化模块。

        === "中文"

            报错文字与 torch 逐字相同，指向"只保存状态字典"的教程。

        === "English"

            The message is torch's word for word and points at the tutorial on saving only the
            state_dict.

        Returns:
            Never returns. / 不会返回。

        Raises:
            RuntimeError: Always. / 总是抛出。
        """
        raise RuntimeError(
            "Serialization of parametrized modules is only "
            "supported through state_dict(). See:\n"
            "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
            "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"
        )

    # 中: `copy.deepcopy` 优先调用 `__deepcopy__`，存在时就不会去碰报错的 `__getstate__`；
    # 中: 原类自带 `__deepcopy__` 时保留它。`type()` 在本文件里调用，所以新类的 `__module__`
    # 中: 是 `annotated_nn.utils.parametrize`（torch 的是 `torch.nn.utils.parametrize`）。
    # EN: `copy.deepcopy` prefers `__deepcopy__` and, when there is one, never touches the
    # EN: raising `__getstate__`; a class with its own `__deepcopy__` keeps it. `type()` is
    # EN: called in this file, so the new class's `__module__` is `annotated_nn.utils.parametrize`
    # EN: (torch's is `torch.nn.utils.parametrize`).
    class_dict: dict[str, Any] = {"__getstate__": getstate}
    if not hasattr(cls, "__deepcopy__"):
        class_dict["__deepcopy__"] = default_deepcopy
    param_cls = type(f"Parametrized{cls.__name__}", (cls,), class_dict)

    # 中: 换类不经过 Module 的分拣：`__class__` 不在三张表里，落到 `object.__setattr__`。
    # EN: Swapping the class passes Module's routing untouched: `__class__` is in none of the
    # EN: three tables and falls through to `object.__setattr__`.
    module.__class__ = param_cls


def _inject_property(module: Module, tensor_name: str) -> None:
    r"""Put a property `tensor_name` on the module's (already swapped) class. / 在模块（已换过的）类上放一个名为 `tensor_name` 的 property。

    === "中文"

        调用前提：类已由 [`_inject_new_class`][annotated_nn.utils.parametrize._inject_new_class]
        换过，原张量已从模块上删除。property 的 getter 运行
        `self.parametrizations[tensor_name]()`（在 [`cached`][annotated_nn.utils.parametrize.cached]
        里则先查缓存），setter 调用 [`ParametrizationList.right_inverse`][annotated_nn.utils.parametrize.ParametrizationList.right_inverse]。
        property 是数据描述符，优先于实例属性和 `Module.__getattr__`，所以 `module.weight`
        总是走到这里。

    === "English"

        Preconditions: the class was swapped by
        [`_inject_new_class`][annotated_nn.utils.parametrize._inject_new_class] and the tensor
        was deleted from the module. The getter runs `self.parametrizations[tensor_name]()`
        (consulting the cache first inside [`cached`][annotated_nn.utils.parametrize.cached]),
        the setter calls
        [`ParametrizationList.right_inverse`][annotated_nn.utils.parametrize.ParametrizationList.right_inverse].
        A property is a data descriptor, which wins over instance attributes and
        `Module.__getattr__`, so `module.weight` always comes here.

    Args:
        module: The parametrized module. / 被参数化的模块。
        tensor_name: The attribute to turn into a property. / 要变成 property 的属性名。

    Raises:
        AssertionError: The module still has that attribute. / 模块上仍有这个属性。
    """
    # 中: 正确调用时不会触发：`register_parametrization` 已先删除了原张量。
    # EN: Never fires when called correctly: `register_parametrization` has deleted the tensor.
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")

    def get_cached_parametrization(parametrization: ParametrizationList) -> Tensor:
        r"""Return the cached value, computing it on a miss. / 返回缓存的值，未命中时先计算。

        === "中文"

            键是 `(id(module), tensor_name)`，`module` 是注册时闭包记住的那个模块，而不是
            读取时的 `self`（影响见 Note [Copies share the parametrized class]）。

        === "English"

            The key is `(id(module), tensor_name)`, where `module` is the one the closure
            captured at registration, not the `self` of the read (consequences: see
            Note [Copies share the parametrized class]).

        Args:
            parametrization: The list to run on a miss. / 未命中时运行的参数化链。

        Returns:
            The parametrized tensor. / 参数化后的张量。
        """
        # 中: 未命中（或缓存了 None）就计算并存入，之后的读取都返回同一个张量对象。
        # EN: A miss (or a cached None) computes and stores; later reads return that same
        # EN: tensor object.
        key = (id(module), tensor_name)
        tensor = _cache.get(key)
        if tensor is None:
            tensor = parametrization()
            _cache[key] = tensor
        return tensor

    def get_parametrized(self: Module) -> Tensor:
        r"""Getter: run the parametrization, or read the cache. / getter：运行参数化，或读取缓存。

        === "中文"

            不在 `cached()` 里时每次都重新计算。缓存时不支持 TorchScript 脚本化，也不支持
            `torch.jit.trace` 追踪，这两种情况直接报错。

        === "English"

            Outside `cached()` it recomputes on every read. Caching supports neither
            TorchScript scripting nor `torch.jit.trace` tracing; both raise.

        Returns:
            The parametrized tensor. / 参数化后的张量。

        Raises:
            RuntimeError: Scripting, or tracing while caching. / 脚本化，或缓存时追踪。
        """
        if torch.jit.is_scripting():
            raise RuntimeError("Parametrization is not working with scripting.")
        parametrization = self.parametrizations[tensor_name]
        # 中: 检查顺序与 torch 相同：脚本化、追踪，然后才是缓存本身。
        # EN: The checks come in torch's order: scripting, tracing, then the cache itself.
        if _cache_enabled:
            if torch.jit.is_scripting():
                raise RuntimeError(
                    "Caching is not implemented for scripting. "
                    "Either disable caching or avoid scripting."
                )
            elif torch._C._get_tracing_state() is not None:
                raise RuntimeError("Cannot trace a model while caching parametrizations.")
            else:
                return get_cached_parametrization(parametrization)
        else:
            return parametrization()

    def set_original(self: Module, value: Tensor) -> None:
        r"""Setter: store `value` through `right_inverse`. / setter：经 `right_inverse` 存入 `value`。

        === "中文"

            `module.weight = value` 调到这里（`Module.__setattr__` 最后把普通赋值交给
            `object.__setattr__`，于是命中 property）。赋一个 `Parameter` 则不会到这里：
            `Module.__setattr__` 会先尝试把它登记为参数，因为名字已被占用而报 KeyError。

        === "English"

            `module.weight = value` lands here (`Module.__setattr__` finally hands a plain
            assignment to `object.__setattr__`, which finds the property). Assigning a
            `Parameter` does not: `Module.__setattr__` first tries to register it as a
            parameter and raises KeyError because the name is taken.

        Args:
            value: The new value. / 新值。

        Raises:
            RuntimeError: Called while TorchScript scripting. / 在 TorchScript 脚本化中调用。
        """
        if torch.jit.is_scripting():
            raise RuntimeError("Parametrization is not working with scripting.")
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(
    module: Module,
    tensor_name: str,
    parametrization: Module,
    *,
    unsafe: bool = False,
) -> Module:
    r"""Make `module.<tensor_name>` the output of `parametrization`. / 让 `module.<tensor_name>` 成为 `parametrization` 的输出。

    === "中文"

        注册之后，读 `module.weight` 返回 `parametrization(original)`，原始张量存在
        `module.parametrizations.weight.original`（`right_inverse` 返回多个张量时为
        `original0`、`original1`……）。参数化模块的训练模式先被设成与 `module` 一致。

        参数化可以定义 `right_inverse(X)`：第一次注册时用它从当前的 `weight` 算出原始值；
        之后 `module.weight = X` 也用它写回（这要求每个参数化都实现了它）。没有定义时视为恒等。

        同一个张量可以注册多个参数化，后注册的作用在前一个的输出上，都追加在同一个
        [`ParametrizationList`][annotated_nn.utils.parametrize.ParametrizationList] 里。
        对已参数化的张量追加时，除非 `unsafe=True`，先用当前的 `weight` 试算一次新参数化，
        再对其结果试算 `right_inverse`，检查 dtype 与形状不变；列表的 `unsafe` 一旦为真就保持为真。

        只接受 annotated_nn 的模块作为 `parametrization`：它要放进我们的 `ModuleList`，
        `torch.nn.Module` 会被拒绝（TypeError，正如 torch 拒绝 annotated_nn 的模块）。

    === "English"

        Afterwards, reading `module.weight` returns `parametrization(original)`, with the
        original tensor kept at `module.parametrizations.weight.original` (`original0`,
        `original1`, ... when `right_inverse` returns several tensors). The parametrization's
        training mode is first set to match `module`'s.

        A parametrization may define `right_inverse(X)`: the first registration uses it to
        compute the original from the current `weight`, and `module.weight = X` later uses it
        to write back (which needs every parametrization to implement it). Without one it is
        taken as the identity.

        Several parametrizations may be registered on one tensor; each later one acts on the
        previous one's output, and all are appended to the same
        [`ParametrizationList`][annotated_nn.utils.parametrize.ParametrizationList]. When
        appending to a parametrized tensor, unless `unsafe=True`, the new parametrization is
        tried once on the current `weight`, and its `right_inverse` on that result, to check
        that dtype and shape do not change; once the list's `unsafe` is true it stays true.

        Only annotated_nn modules are accepted as `parametrization`: it goes into our
        `ModuleList`, which refuses a `torch.nn.Module` (TypeError, just as torch refuses an
        annotated_nn module).

    Args:
        module: The module owning the tensor. / 持有该张量的模块。
        tensor_name: Name of a parameter, buffer or parametrized tensor. / 参数、缓冲区或已参数化张量的名字。
        parametrization: The parametrization module. / 参数化模块。
        unsafe: Allow dtype and shape changes; skip the checks. / 允许改变 dtype 与形状，跳过检查。

    Returns:
        `module` (its class swapped). / `module`（类已被替换）。

    Raises:
        ValueError: No such tensor, or a check fails. / 没有这个张量，或检查不通过。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> import annotated_nn.utils.parametrize as P
        >>> class Symmetric(nn.Module):
        ...     def forward(self, X):
        ...         return X.triu() + X.triu(1).T
        ...     def right_inverse(self, A):
        ...         return A.triu()
        >>> m = P.register_parametrization(nn.Linear(3, 3), "weight", Symmetric())
        >>> type(m).__name__, torch.equal(m.weight, m.weight.T)
        ('ParametrizedLinear', True)
        >>> list(m.state_dict())
        ['bias', 'parametrizations.weight.original']
    """
    # 中: 参数化模块放进本库的 `ModuleList`；它接受任何 `torch.nn.Module`，所以 torch.nn 写的参数化
    # 中: 也可以用（反过来 torch 的 parametrize 也接受 annotated_nn 的模块）。
    # EN: The parametrization goes into our `ModuleList`, which takes any `torch.nn.Module`, so a
    # EN: parametrization written with torch.nn works too (and torch's parametrize takes
    # EN: annotated_nn modules the other way round).
    parametrization.train(module.training)
    # 中: 情形 1：这个张量已经参数化过，新的参数化追加到链尾。
    # EN: Case 1: the tensor is already parametrized; the new one is appended to the chain.
    if is_parametrized(module, tensor_name):
        # 中: 一致性检查：设 A 是与当前 `weight` 同 dtype、同形状的张量集合，
        # 中: 新参数化的 `forward` 与 `right_inverse` 都必须把 A 映射到 A。
        # EN: Consistency checks: with A the set of tensors of the current `weight`'s dtype and
        # EN: shape, the new parametrization's `forward` and `right_inverse` must map A into A.
        if not unsafe:
            _check_appended_parametrization(module, tensor_name, parametrization)
        # 中: 追加到已有的列表；任何一个参数化要求 unsafe，整条链就保持 unsafe。
        # EN: Append to the existing list; if any parametrization asked for unsafe, the chain
        # EN: stays unsafe.
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    # 中: 情形 2：一个普通的参数或缓冲区，第一次被参数化。
    # EN: Case 2: a plain parameter or buffer, parametrized for the first time.
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        # 中: 先建好 ParametrizationList：它做全部检查，失败时模块的类和各张表尚未被改动
        # 中: （张量的值除外：单张量的 `right_inverse` 结果在检查之前已写进它）。
        # EN: Build the ParametrizationList first: it runs every check, so a failure leaves the
        # EN: module's class and tables untouched (not the tensor's value: a one-tensor
        # EN: `right_inverse` result is written into it before the checks).
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        # 中: 把原张量从模块的表里删掉：它现在登记在列表里，留在原处就会在状态字典和
        # 中: `named_parameters()` 里出现两次；`_inject_property` 也要求这个名字已经空出来。
        # EN: Delete the tensor from the module's tables: the list holds it now, and left in
        # EN: place it would appear twice in the state_dict and `named_parameters()`;
        # EN: `_inject_property` also requires the name to be free.
        delattr(module, tensor_name)
        # 中: 模块上第一个参数化：换类，并挂上空的 `parametrizations`（作为子模块登记，
        # 中: 所以状态字典的键以 `parametrizations.` 开头）。
        # EN: The module's first parametrization: swap the class and attach an empty
        # EN: `parametrizations` (registered as a submodule, hence state_dict keys starting
        # EN: with `parametrizations.`).
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    # 中: 情形 3：既不是参数、缓冲区，也不是已参数化的张量（子模块、普通属性、不存在的名字）。
    # EN: Case 3: neither a parameter, a buffer nor a parametrized tensor (a submodule, a plain
    # EN: attribute, a missing name).
    else:
        raise ValueError(
            f"Module '{module}' does not have a parameter, a buffer, or a "
            f"parametrized element with name '{tensor_name}'"
        )
    return module


def _check_appended_parametrization(
    module: Module, tensor_name: str, parametrization: Module
) -> None:
    r"""Check that a parametrization appended to a chain keeps dtype and shape. / 检查追加到链上的参数化不改变 dtype 与形状。

    === "中文"

        用当前的参数化结果 `Y = module.<tensor_name>` 试算 `X = parametrization(Y)`，
        再试算 `right_inverse(X)`（若有且不抛 `NotImplementedError`），两者都必须是与 `Y`
        同 dtype、同形状的张量。torch 把这段写在 `register_parametrization` 里；
        这里拆出来只是为了好读，检查顺序与报错文字不变。

    === "English"

        Runs `X = parametrization(Y)` on the current parametrized value
        `Y = module.<tensor_name>`, then `right_inverse(X)` (if present and not raising
        `NotImplementedError`); both must be tensors of `Y`'s dtype and shape. torch writes
        this inside `register_parametrization`; it is split out here only to read better, with
        the same order of checks and the same messages.

    Args:
        module: The parametrized module. / 已参数化的模块。
        tensor_name: The parametrized tensor's name. / 已参数化张量的名字。
        parametrization: The parametrization to append. / 要追加的参数化。

    Raises:
        ValueError: A result is not a tensor or changes dtype or shape. / 结果不是张量，或改变了 dtype 或形状。
    """
    # 中: `forward` 一侧：结果必须是与 `Y` 同 dtype、同形状的张量。
    # EN: The `forward` side: the result must be a tensor of `Y`'s dtype and shape.
    Y = getattr(module, tensor_name)
    X = parametrization(Y)
    if not isinstance(X, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(X).__name__}.")
    if X.dtype != Y.dtype:
        raise ValueError(
            "Registering a parametrization may not change the dtype of the tensor, "
            "unless the `unsafe` flag is enabled.\n"
            f"module.{tensor_name}.dtype: {Y.dtype}\n"
            f"parametrization(module.{tensor_name}).dtype: {X.dtype}"
        )
    if X.shape != Y.shape:
        raise ValueError(
            "Registering a parametrization may not change the shape of the tensor, "
            "unless the `unsafe` flag is enabled.\n"
            f"module.{tensor_name}.shape: {Y.shape}\n"
            f"parametrization(module.{tensor_name}).shape: {X.shape}"
        )
    # 中: `right_inverse` 一侧：没有这个方法、或它抛 `NotImplementedError`，就视为恒等，不检查。
    # EN: The `right_inverse` side: a missing method, or one raising `NotImplementedError`, is
    # EN: taken as the identity and not checked.
    if not hasattr(parametrization, "right_inverse"):
        return
    try:
        Z = parametrization.right_inverse(X)
    except NotImplementedError:
        return
    # 中: 追加的参数化只能返回一个张量（不能是序列：原始张量已经定下来了）。
    # EN: An appended parametrization must return one tensor (not a sequence: the originals are
    # EN: already fixed).
    if not isinstance(Z, Tensor):
        raise ValueError(
            f"parametrization.right_inverse must return a tensor. Got: {type(Z).__name__}"
        )
    if Z.dtype != Y.dtype:
        raise ValueError(
            "The tensor returned by parametrization.right_inverse must have the same dtype "
            f"as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
            f"module.{tensor_name}.dtype: {Y.dtype}\n"
            f"returned dtype: {Z.dtype}"
        )
    if Z.shape != Y.shape:
        raise ValueError(
            "The tensor returned by parametrization.right_inverse must have the same shape "
            f"as module.{tensor_name}, unless the `unsafe` flag is enabled.\n"
            f"module.{tensor_name}.shape: {Y.shape}\n"
            f"returned shape: {Z.shape}"
        )


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    r"""Whether `module` (or its tensor `tensor_name`) is parametrized. / `module`（或它的张量 `tensor_name`）是否已参数化。

    === "中文"

        只看模块上是否有一个名为 `parametrizations` 的
        [`ModuleDict`][annotated_nn.modules.container.ModuleDict]：不给 `tensor_name` 时要求它非空，
        给了则要求其中有这个键。同名但类型不同的属性不算。

    === "English"

        Looks only for a [`ModuleDict`][annotated_nn.modules.container.ModuleDict] named
        `parametrizations` on the module: without `tensor_name` it must be non-empty, with one
        it must hold that key. An attribute of that name but another type does not count.

    Args:
        module: The module to query. / 要查询的模块。
        tensor_name: A tensor name, or `None` for any. / 张量名；`None` 表示任意一个。

    Returns:
        Whether it is parametrized. / 是否已参数化。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.parametrize as P
        >>> P.is_parametrized(nn.Linear(2, 2))
        False
    """
    parametrizations = getattr(module, "parametrizations", None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    else:
        return tensor_name in parametrizations


def remove_parametrizations(
    module: Module,
    tensor_name: str,
    leave_parametrized: bool = True,
) -> Module:
    r"""Remove the parametrizations of `tensor_name`, restoring a plain tensor. / 移除 `tensor_name` 上的参数化，恢复成普通张量。

    === "中文"

        - `leave_parametrized=True`：张量保留**当前参数化后的值**。只有一个原始张量时，
          值用 `set_()` 写进 `original` 这个对象，再把它放回原处，于是参数对象不变，
          优化器无需更新。多个原始张量时，放回的是一个新张量：读出的值需要梯度时包成参数，
          需要用户自己加进优化器；不需要梯度时（原始张量都被冻结，或在 `torch.no_grad()` 里
          调用）它是普通张量，于是成了**缓冲区**，哪怕原来是参数（与 torch 相同）。
        - `leave_parametrized=False`：放回未参数化的 `original`，只适用于一个原始张量的情形。

        一个原始张量时，张量回到原来的位置（参数或缓冲区，缓冲区一律是持久的）；多个原始
        张量时，由上面的规则决定是参数还是（持久的）缓冲区。模块上最后一个参数化
        移除后，`parametrizations` 被删除，类换回原来的类。

    === "English"

        - `leave_parametrized=True`: the tensor keeps its *current parametrized value*. With
          one original, `set_()` writes the value into the `original` object, which is then
          put back, so the parameter object is the same and the optimizer needs no update.
          With several originals a new tensor is put back: wrapped as a parameter when the
          value read requires grad, which the user must add to the optimizer; when it does not
          (every original frozen, or the call made under `torch.no_grad()`) it is a plain
          tensor and so becomes a **buffer**, even if it was a parameter (as in torch).
        - `leave_parametrized=False`: the unparametrized `original` is put back; only possible
          with one original.

        With one original the tensor returns to where it was (a parameter, or a buffer, which
        is always persistent); with several, the rule above decides between a parameter and a
        (persistent) buffer. Once the module's last parametrization is removed,
        `parametrizations` is deleted and the class is swapped back to the original class.

    Args:
        module: The parametrized module. / 已参数化的模块。
        tensor_name: The tensor whose parametrizations go. / 要移除参数化的张量名。
        leave_parametrized: Keep the parametrized value. / 是否保留参数化后的值。

    Returns:
        `module`. / `module`。

    Raises:
        ValueError: Not parametrized, or `leave_parametrized=False` with several originals. /
            未参数化，或有多个原始张量时 `leave_parametrized=False`。
        RuntimeError: `leave_parametrized=True` and `set_()` fails: a tensor subclass, or a
            dtype change allowed by `unsafe=True`. / `leave_parametrized=True` 而 `set_()` 失败：
            张量子类，或 `unsafe=True` 放行了 dtype 的改变。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> import annotated_nn.utils.parametrize as P
        >>> class Double(nn.Module):
        ...     def forward(self, X):
        ...         return 2 * X
        >>> m = P.register_parametrization(nn.Linear(2, 2), "weight", Double())
        >>> w = m.weight.detach().clone()
        >>> m = P.remove_parametrizations(m, "weight")
        >>> type(m).__name__, torch.equal(m.weight, w)
        ('Linear', True)
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")

    # 中: `is_parametrized` 已保证 `module.parametrizations` 是 ModuleDict
    # 中: （torch 在这里为类型检查器再断言一次，这里省去）。
    # EN: `is_parametrized` already guarantees that `module.parametrizations` is a ModuleDict
    # EN: (torch asserts it again here for its type checker; omitted).
    parametrizations = module.parametrizations[tensor_name]

    # 中: 一个原始张量。若用户把 `original` 设成了 None，这里的断言会触发（文字同 torch）。
    # EN: One original. The assertion fires if the user set `original` to None (torch's text).
    if parametrizations.is_tensor:
        original = parametrizations.original
        if not isinstance(original, torch.Tensor):
            raise AssertionError(
                f"Expected original to be a Tensor (is_tensor promised us a Tensor), "
                f"got {type(original).__name__}"
            )
        if leave_parametrized:
            _write_parametrized_value(module, tensor_name, original)
    # 中: 多个原始张量：不能"留下未参数化的值"（没有单一的 `original`），只能留下参数化后的值。
    # 中: 读取时记录梯度：由结果的 `requires_grad` 得知是否有原始张量需要梯度。
    # EN: Several originals: there is no single `original` to leave unparametrized, only the
    # EN: parametrized value. The read records grad: the result's `requires_grad` tells whether
    # EN: any original requires grad.
    else:
        if leave_parametrized:
            t = getattr(module, tensor_name)
            original = Parameter(t) if t.requires_grad else t
        else:
            raise ValueError(
                "Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                "that is parametrized in terms of a sequence of tensors."
            )

    # 中: 拆除：删 property，删列表，把张量按原来的种类放回模块。
    # EN: Tear down: delete the property and the list, put the tensor back as the kind it was.
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)

    # 中: 没有别的参数化了：删掉 `parametrizations`，把类换回唯一的基类，即注册前的类。
    # EN: No other parametrization left: drop `parametrizations` and swap the class back to its
    # EN: only base, the class from before registration.
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        orig_cls = module.__class__.__bases__[0]
        module.__class__ = orig_cls
    return module


def _write_parametrized_value(module: Module, tensor_name: str, original: Tensor) -> None:
    r"""Copy the current parametrized value into `original` in place. / 把当前参数化后的值就地写进 `original`。

    === "中文"

        用 `set_()` 写入：参数对象不变，优化器无需更新。`set_()` 要求 dtype 相同；注册时检查过
        参数化不改变 dtype，但 `unsafe=True` 跳过了这项检查，这时改变 dtype 的参数化在这里失败
        （与 torch 相同）：缓冲区得到 `set_()` 自己的 RuntimeError（"Could not set tensor of
        type ..."），参数得到下面那条谈张量子类的 RuntimeError；只能用
        `leave_parametrized=False` 移除。对普通 `torch.Tensor`（缓冲区）直接写；对张量子类
        （包括参数），`set_()` 失败时换成一条说明出路的 RuntimeError（文字与 torch 逐字相同，
        包括几处缺少的空格）。
        torch 把这段写在 `remove_parametrizations` 里；拆出来只是为了好读。

    === "English"

        `set_()` writes the value: the parameter object stays the same and the optimizer needs
        no update. `set_()` needs the same dtype; registration checked that the
        parametrization keeps it, but `unsafe=True` skips that check, and a dtype-changing
        parametrization then fails here (as in torch): a buffer gets `set_()`'s own
        RuntimeError ("Could not set tensor of type ..."), a parameter the RuntimeError about
        tensor subclasses below; only `leave_parametrized=False` removes it. A plain
        `torch.Tensor` (a buffer) is written directly; for a tensor subclass (parameters
        included) a failing `set_()` becomes a RuntimeError naming the ways out (torch's text
        word for word, a few missing spaces included). torch writes this inside
        `remove_parametrizations`; it is split out here only to read better.

    Args:
        module: The parametrized module. / 已参数化的模块。
        tensor_name: The parametrized tensor's name. / 已参数化张量的名字。
        original: The tensor to overwrite. / 要覆盖的张量。

    Raises:
        RuntimeError: `set_()` fails, e.g. after a dtype change allowed by `unsafe=True`. /
            `set_()` 失败，例如 `unsafe=True` 放行了 dtype 的改变。
    """
    # 中: 读取与写入都不记录梯度：留下的是一个值，不是计算图。
    # EN: Neither the read nor the write records grad: what stays is a value, not a graph.
    with torch.no_grad():
        t = getattr(module, tensor_name)
    with torch.no_grad():
        if type(original) is torch.Tensor:
            _maybe_set(original, t)
        else:
            try:
                _maybe_set(original, t)
            except RuntimeError as e:
                raise RuntimeError(
                    "Calling remove_parametrizations() with leave_parametrized=True "
                    "for a parameter that is an instance of a tensor subclass requires "
                    "set_() to be implemented correctly for the tensor subclass."
                    "Alternatively, one can opt into the swap_tensors path"
                    "Either set leave_parametrized=False or provide a working implementation"
                    "for set_() in the tensor subclass or set "
                    "torch.__future__.set_swap_module_params_on_conversion(True)."
                ) from e


def type_before_parametrizations(module: Module) -> type:
    r"""The module's class from before any parametrization. / 模块在参数化之前的类。

    === "中文"

        已参数化的模块的类是生成的 `Parametrized<类名>`，它唯一的基类就是原来的类；
        未参数化时就是 `type(module)`。需要按层类型分派的代码（例如 `type(m) is nn.Linear`）
        应改用它。

    === "English"

        A parametrized module's class is the generated `Parametrized<ClassName>`, whose only
        base is the original class; an unparametrized module gives `type(module)`. Code that
        dispatches on the layer type (`type(m) is nn.Linear`, say) should use this instead.

    Args:
        module: The module. / 模块。

    Returns:
        The class before parametrization. / 参数化之前的类。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.parametrize as P
        >>> class Double(nn.Module):
        ...     def forward(self, X):
        ...         return 2 * X
        >>> m = P.register_parametrization(nn.Linear(2, 2), "weight", Double())
        >>> type(m).__name__, P.type_before_parametrizations(m).__name__
        ('ParametrizedLinear', 'Linear')
    """
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    else:
        return type(module)


def transfer_parametrizations_and_params(
    from_module: Module,
    to_module: Module,
    tensor_name: str | None = None,
) -> Module:
    r"""Copy parametrizations and their originals from one module to another. / 把参数化及其原始张量从一个模块搬到另一个模块。

    === "中文"

        对 `from_module` 的每个已参数化张量（或只对 `tensor_name`）：

        1. `to_module` 上没有这个名字时，先用 `from_module` 当前的参数化值新建一个参数。
        2. 把同一批参数化模块对象（不是副本）依次注册到 `to_module` 上——这会经过全部检查。
        3. 让 `to_module` 的 `original`（或 `original0`、`original1`……）指向 `from_module`
           的**同一个**张量对象，于是两个模块从此共享这些参数。

        `from_module` 未参数化时什么也不做。

    === "English"

        For each parametrized tensor of `from_module` (or only `tensor_name`):

        1. If `to_module` has no such name, a parameter is first created from `from_module`'s
           current parametrized value.
        2. The same parametrization module objects (not copies) are registered on `to_module`
           in order, going through all the checks.
        3. `to_module`'s `original` (or `original0`, `original1`, ...) is set to the *same*
           tensor object as `from_module`'s, so the two modules share those parameters from
           then on.

        Does nothing when `from_module` is not parametrized.

    Args:
        from_module: The parametrized source. / 已参数化的来源模块。
        to_module: The destination. / 目标模块。
        tensor_name: One tensor to transfer, or `None` for all. / 只搬这一个张量；`None` 表示全部。

    Returns:
        `to_module`. / `to_module`。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.parametrize as P
        >>> class Double(nn.Module):
        ...     def forward(self, X):
        ...         return 2 * X
        >>> a = P.register_parametrization(nn.Linear(2, 2), "weight", Double())
        >>> b = P.transfer_parametrizations_and_params(a, nn.Linear(2, 2))
        >>> b.parametrizations.weight.original is a.parametrizations.weight.original
        True
    """
    # 中: `is_parametrized` 保证来源的 `parametrizations` 是 ModuleDict，`register_parametrization`
    # 中: 保证目标的也是；torch 为类型检查器另做的三个断言（含"遍历对象可迭代"）在这里不会失败，故省去。
    # EN: `is_parametrized` guarantees that the source's `parametrizations` is a ModuleDict, and
    # EN: `register_parametrization` that the destination's is; torch's three extra assertions
    # EN: for its type checker (one says the loop target is iterable) never fail here and are
    # EN: left out.
    if is_parametrized(from_module):
        parameters_to_transfer = (
            from_module.parametrizations if tensor_name is None else [tensor_name]
        )
        for parameter_name in parameters_to_transfer:
            # 中: 第 1 步：目标上缺这个名字，就用来源当前的参数化值建一个参数（我们的 `Parameter`）。
            # EN: Step 1: a name missing on the destination is created as a parameter (our
            # EN: `Parameter`) from the source's current parametrized value.
            if not hasattr(to_module, parameter_name):
                setattr(
                    to_module,
                    parameter_name,
                    Parameter(getattr(from_module, parameter_name)),
                )
            # 中: 第 2 步：按原顺序注册同一批参数化对象。
            # EN: Step 2: register the same parametrization objects in their order.
            for param_func in from_module.parametrizations[parameter_name]:
                register_parametrization(to_module, parameter_name, param_func)
            # 中: 第 3 步：目标的原始张量换成来源的同一批对象。
            # EN: Step 3: the destination's originals become the source's very objects.
            _share_originals(from_module, to_module, parameter_name)

    return to_module


def _share_originals(from_module: Module, to_module: Module, parameter_name: str) -> None:
    r"""Make `to_module`'s originals the very tensors of `from_module`. / 让 `to_module` 的原始张量就是 `from_module` 的那些张量。

    === "中文"

        `transfer_parametrizations_and_params` 的第 3 步。来源只有一个原始张量时有
        `original` 属性；否则从 `original0` 开始逐个编号复制，直到某个编号不存在。
        赋值经过 `Module.__setattr__`，按它的分拣规则落到相应的表里。
        torch 把这段写在 `transfer_parametrizations_and_params` 里；拆出来只是为了好读。

    === "English"

        Step 3 of `transfer_parametrizations_and_params`. A source with one original has an
        `original` attribute; otherwise the numbered ones are copied from `original0` on until
        a number is missing. Assignments go through `Module.__setattr__` and land in the table
        its routing picks. torch writes this inside
        `transfer_parametrizations_and_params`; it is split out here only to read better.

    Args:
        from_module: The parametrized source. / 已参数化的来源模块。
        to_module: The destination, parametrized the same way. / 以相同方式参数化后的目标模块。
        parameter_name: The tensor's name. / 张量名。
    """
    source = from_module.parametrizations[parameter_name]
    destination = to_module.parametrizations[parameter_name]
    # 中: 一个原始张量：直接共享 `original`。
    # EN: One original: share `original` directly.
    if hasattr(source, "original"):
        destination.original = source.original
        return
    # 中: 多个原始张量：编号连续，遇到第一个不存在的编号就停。
    # EN: Several originals: numbered without gaps, so stop at the first missing number.
    num = 0
    orig_num = "original" + str(num)
    while hasattr(source, orig_num):
        setattr(destination, orig_num, getattr(source, orig_num))
        num = num + 1
        orig_num = "original" + str(num)
