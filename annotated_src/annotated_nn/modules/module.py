r"""`Module`, the base class of every layer, and the global hooks. / 所有层的基类 `Module`，以及全局钩子。

This file mirrors `torch/nn/modules/module.py` of torch 2.13 name for name. Read it top to bottom:
first the module-level registries of *global* hooks (they fire for every `Module` in the process),
then `Module` itself, whose methods fall into the groups of the book's chapters — registration,
the module tree, transforming (`_apply`), hooks and `__call__`, attribute routing, `state_dict`
and `load_state_dict`, traversal, modes, repr.

本文件与 torch 2.13 的 `torch/nn/modules/module.py` 逐名对应。建议自上而下阅读：先是模块级的
*全局*钩子（hook）登记表（对进程里的每个 `Module` 都生效），然后是 `Module` 本身；它的方法按本书
章节分组——注册、模块树、变换（`_apply`）、钩子与 `__call__`、属性路由、`state_dict` 与
`load_state_dict`、遍历、模式、repr。
"""

import functools
import inspect
import itertools
import sys
import types
import warnings
import weakref
from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Optional, TypeVar, Union, overload

import torch
from torch import Tensor, device, dtype
from torch._prims_common import DeviceLikeType

# DIFF(torch 2.13):
# 中: torch 在 `_apply` 函数体内才导入 FakeTensor（`import torch` 时 torch.nn 比 torch._subclasses
# 中: 先加载）。annotated_nn 被导入时 `import torch` 已经加载了 fake_tensor，所以在模块顶层导入
# 中: 没有额外代价，还省掉每次 `_apply` 调用里的一条导入语句；行为不变。
# EN: torch imports FakeTensor inside the body of `_apply` (during `import torch`, torch.nn is
# EN: loaded before torch._subclasses). When annotated_nn is imported, `import torch` has already
# EN: loaded fake_tensor, so a top-level import costs nothing extra and saves an import statement
# EN: in every `_apply` call; behavior is unchanged.
from torch._subclasses.fake_tensor import FakeTensor
from torch.utils._python_dispatch import is_traceable_wrapper_subclass
from typing_extensions import Self

from annotated_nn.parameter import Buffer, Parameter, is_lazy
from annotated_nn.utils.hooks import BackwardHook, RemovableHandle

__all__ = [
    "register_module_forward_pre_hook",
    "register_module_forward_hook",
    "register_module_full_backward_pre_hook",
    "register_module_backward_hook",
    "register_module_full_backward_hook",
    "register_module_buffer_registration_hook",
    "register_module_module_registration_hook",
    "register_module_parameter_registration_hook",
    "Module",
]

_grad_t = tuple[Tensor, ...] | Tensor
# 中: 类型变量 T 让钩子的类型标注里 "module" 参数保持调用者自己的子类类型。
# EN: The type variable T keeps a hook's "module" argument typed as the caller's own subclass.
T = TypeVar("T", bound="Module")


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    r"""What `load_state_dict` returns: missing and unexpected keys. / `load_state_dict` 的返回值：缺失键与多余键。

    === "中文"

        一个具名元组（namedtuple），字段是 `missing_keys` 与 `unexpected_keys`。两者都为空时，
        它的 repr 是友好的 `<All keys matched successfully>`，所以在交互环境里加载成功会
        直接看到这句话。`__slots__ = ()` 保证它不比普通元组多占内存。

    === "English"

        A namedtuple with the fields `missing_keys` and `unexpected_keys`. When both are empty
        its repr is the friendly `<All keys matched successfully>`, which is what an interactive
        session prints after a clean load. `__slots__ = ()` keeps it as small as a plain tuple.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        r"""Say "all matched", or show both lists. / 全部匹配时给出提示，否则列出两个列表。

        === "中文"

            两个列表都为空时返回 `<All keys matched successfully>`，否则沿用 namedtuple 的
            默认 repr，例如 `IncompatibleKeys(missing_keys=[...], unexpected_keys=[...])`。
            `__str__` 是同一个函数，`print` 的结果也一样。

        === "English"

            Returns `<All keys matched successfully>` when both lists are empty, otherwise the
            namedtuple's default repr, e.g. `IncompatibleKeys(missing_keys=[...], unexpected_keys=[...])`.
            `__str__` is the same function, so `print` shows the same text.

        Returns:
            The text described above. / 上述文本。
        """
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s_, numSpaces):
    r"""Indent every line but the first of a multi-line string. / 为多行字符串除首行外的每一行加缩进。

    === "中文"

        `Module.__repr__` 用它把子模块的 repr 嵌进父模块：首行紧跟在 `(name): ` 之后，
        其余行缩进 `numSpaces` 个空格。单行字符串原样返回；空白行变成空行（不留尾随空格）。

    === "English"

        `Module.__repr__` uses it to nest a child's repr inside its parent's: the first line
        follows `(name): `, every other line is indented by `numSpaces` spaces. A one-line
        string comes back unchanged; blank lines become empty (no trailing spaces).

    Args:
        s_: The text to indent. / 要缩进的文本。
        numSpaces: How many spaces to add. / 增加的空格数。

    Returns:
        The indented text. / 缩进后的文本。
    """
    lines = s_.split("\n")
    if len(lines) == 1:
        return s_
    first = lines.pop(0)
    lines = [(numSpaces * " ") + line if line.strip() else "" for line in lines]
    return first + "\n" + "\n".join(lines)


# DIFF(torch 2.13):
# 中: 全局钩子的登记表只有一套，就是 torch 的：它们是 `torch.nn.modules.module` 的模块级变量，torch 自己的
# 中: 工具（FlopCounterMode、ModuleTracker、torch.compile）都从那里读。本文件不另建这些表，每次用到时都按
# 中: 属性名从 torch 的模块对象上读（`_torch_module_py._global_forward_hooks`），所以 PyTorch 测试里
# 中: `torch.nn.modules.module._global_forward_hooks = OrderedDict()` 这样整张换掉，下一次调用就看到新表。
# 中: 本模块上的同名属性（`annotated_nn.modules.module._global_forward_hooks`）是 torch 那一份的读写
# 中: 别名，见下面的 `_SharedGlobalHooks`。于是两边注册的全局钩子对两边的模块都生效，顺序与 torch 相同。
# EN: There is one set of global hook registries, torch's: they are module-level variables of
# EN: `torch.nn.modules.module`, where torch's own tools (FlopCounterMode, ModuleTracker,
# EN: torch.compile) read them. This file keeps no tables of its own and reads them by attribute
# EN: name from torch's module object on every use (`_torch_module_py._global_forward_hooks`), so
# EN: when a PyTorch test replaces one
# EN: (`torch.nn.modules.module._global_forward_hooks = OrderedDict()`) the next call sees the new
# EN: table. The same names on this module
# EN: (`annotated_nn.modules.module._global_forward_hooks`) are read/write aliases of torch's, see
# EN: `_SharedGlobalHooks` below. So a global hook registered through either library fires on
# EN: the modules of both, in torch's order.
_torch_module_py = torch.nn.modules.module

# 中: `_TorchModule` 就是 `torch.nn.Module`：每次调用都要读它，一个全局名字比 `torch.nn.Module` 少两次属性查找。
# EN: `_TorchModule` is `torch.nn.Module`: it is read on every call, and one global name saves two
# EN: attribute lookups over `torch.nn.Module`.
_TorchModule = torch.nn.Module

# 中: torch 的 `Module.__call__` 与 `Module.__getattr__` 原本的函数。`torch.fx.symbolic_trace` 在追踪期间把
# 中: torch 类上的这两个名字换成自己的包装（记录 call_module / get_attr 节点）；我们的类覆盖了这两个名字，
# 中: 看不到那次替换，所以 `_wrapped_call_impl` 与 `__getattr__` 每次比较：torch 类上的已不是原函数时，
# 中: 改走 torch 类上的那一个（见两处的 DIFF）。
# EN: torch's original `Module.__call__` and `Module.__getattr__`. While tracing,
# EN: `torch.fx.symbolic_trace` replaces these two names on torch's class with wrappers of its own
# EN: (they record call_module / get_attr nodes); our class overrides both names and would not see
# EN: the swap, so `_wrapped_call_impl` and `__getattr__` compare on every use: when torch's class
# EN: no longer holds the original, they go through what it holds (see the DIFF at each).
_torch_module_call = _TorchModule.__call__
_torch_module_getattr = _TorchModule.__getattr__
# 中: fx 的追踪函数在打补丁之前把这个模块的 `_is_fx_tracing_flag` 设为 True，追踪结束后复原。
# EN: fx's tracing function sets `_is_fx_tracing_flag` of this module True before patching and
# EN: restores it when tracing ends.
_fx_symbolic_trace = torch.fx._symbolic_trace


class _TorchGlobal:
    r"""A name of our module that reads and writes torch's variable. / 我们模块上读写 torch 同名变量的名字。

    === "中文"

        数据描述符：`annotated_nn.modules.module.X` 读到的是 `torch.nn.modules.module.X` 此刻的值，
        给它赋值就是给 torch 的那个变量赋值。描述符放在模块的类型上（见 `_SharedGlobalHooks`），
        因为 Python 只在类型上查找描述符。`annotated_optim.optimizer` 用它共享优化器的全局钩子表。

    === "English"

        A data descriptor: `annotated_nn.modules.module.X` reads the current value of
        `torch.nn.modules.module.X`, and assigning to it assigns torch's variable. It lives on the
        module's type (see `_SharedGlobalHooks`) because Python looks descriptors up on types only.
        `annotated_optim.optimizer` shares the optimizer's global hook tables with it.

    Args:
        home: torch's module object holding the variable. / 持有该变量的 torch 模块对象。
    """

    def __init__(self, home: types.ModuleType) -> None:
        r"""Remember torch's module that holds the variable. / 记下持有该变量的 torch 模块。

        === "中文"

            名字在类体执行完时由 `__set_name__` 记下。

        === "English"

            The name is recorded by `__set_name__` when the class body is done.

        Args:
            home: torch's module object. / torch 的模块对象。
        """
        self.home = home

    def __set_name__(self, owner, name: str) -> None:
        r"""Remember the attribute name it was bound to. / 记下它被绑定到的属性名。

        === "中文"

            类体执行完时 Python 自动调用；同一个名字也用来在 torch 的模块上查找。

        === "English"

            Python calls it when the class body is done; the same name is looked up on torch's
            module.

        Args:
            owner: The class defining the name. / 定义这个名字的类。
            name: The attribute name. / 属性名。
        """
        self.name = name

    def __get__(self, module, owner=None) -> Any:
        r"""Return torch's current value. / 返回 torch 那个变量此刻的值。

        === "中文"

            每次读取都重新查找，所以 torch 那边整张换掉的表也立即可见。

        === "English"

            Looked up on every read, so a table torch's side replaced wholesale is seen at once.

        Args:
            module: The module object read from (unused). / 被读取的模块对象（不使用）。
            owner: Its type (unused). / 它的类型（不使用）。

        Returns:
            torch's variable of that name. / torch 的同名变量。
        """
        return getattr(self.home, self.name)

    def __set__(self, module, value) -> None:
        r"""Assign torch's variable. / 给 torch 的那个变量赋值。

        === "中文"

            `annotated_nn.modules.module._global_forward_hooks = OrderedDict()` 因此替换的是唯一的那张表。

        === "English"

            So `annotated_nn.modules.module._global_forward_hooks = OrderedDict()` replaces the
            one and only table.

        Args:
            module: The module object assigned on (unused). / 被赋值的模块对象（不使用）。
            value: The new value. / 新值。
        """
        setattr(self.home, self.name, value)


class _SharedGlobalHooks(types.ModuleType):
    r"""The type of this module: its `_global_*` names are torch's. / 本模块的类型：其 `_global_*` 名字就是 torch 的。

    === "中文"

        模块对象的类换成这个 `ModuleType` 子类之后，下面每个名字都是 `_TorchGlobal` 描述符。
        另一种做法是 PEP 562 的模块级 `__getattr__`，但它只管读取：赋值会在本模块上新建一个变量，
        从此两边各有一张表。本文件自己的代码不经过这些描述符，而是直接写 `_torch_module_py.X`。

    === "English"

        Once the module object's class is this `ModuleType` subclass, each name below is a
        `_TorchGlobal` descriptor. The alternative, a PEP 562 module-level `__getattr__`, covers
        reads only: an assignment would create a variable on this module, and from then on there
        would be two tables. This file's own code does not go through the descriptors; it writes
        `_torch_module_py.X` directly.
    """

    # 中: 共享的名字。前三张是注册类全局钩子：任何 Module 注册缓冲区 / 子模块 / 参数之前调用，可以替换
    # 中: 被注册的值。其余是前向 / 反向全局钩子：对进程中每个 Module 的每次调用都生效，调用时先于模块自己
    # 中: 的钩子执行。`_global_is_full_backward_hook` 说明反向表里是哪一种钩子：None 表示还没注册过，
    # 中: False 为旧式，True 为 full；一经设定就不再复位。最后两张是按钩子 id 的标记表，只当集合用（值恒为
    # 中: True）。表都是 OrderedDict 而不是 dict：句柄（RemovableHandle）只弱引用这张表，而普通 dict 不支持
    # 中: 弱引用。
    # EN: The shared names. The first three are registration-time global hooks: called before any
    # EN: Module registers a buffer / submodule / parameter; a hook may replace the value being
    # EN: registered. The rest are forward / backward global hooks: they fire on every call of
    # EN: every Module, before the module's own hooks. `_global_is_full_backward_hook` says which
    # EN: kind fills the backward table: None before any registration, False for legacy, True for
    # EN: full; once set it is never reset. The last two are marker tables keyed by hook id, used
    # EN: as sets (the value is always True). The tables are OrderedDicts, not dicts: the handle
    # EN: (RemovableHandle) keeps only a weak reference, which a plain dict refuses.
    _global_buffer_registration_hooks = _TorchGlobal(_torch_module_py)
    _global_module_registration_hooks = _TorchGlobal(_torch_module_py)
    _global_parameter_registration_hooks = _TorchGlobal(_torch_module_py)
    # 中: 前向 / 反向全局钩子表、反向钩子种类标记和两张前向标记表。
    # EN: The forward / backward global hook tables, the backward kind flag and the two forward
    # EN: marker tables.
    _global_backward_pre_hooks = _TorchGlobal(_torch_module_py)
    _global_backward_hooks = _TorchGlobal(_torch_module_py)
    _global_is_full_backward_hook = _TorchGlobal(_torch_module_py)
    _global_forward_pre_hooks = _TorchGlobal(_torch_module_py)
    _global_forward_hooks = _TorchGlobal(_torch_module_py)
    _global_forward_hooks_always_called = _TorchGlobal(_torch_module_py)
    _global_forward_hooks_with_kwargs = _TorchGlobal(_torch_module_py)

    def __dir__(self) -> list[str]:
        r"""The module's names plus the shared ones. / 模块自己的名字加上共享的名字。

        === "中文"

            模块默认的 `dir()` 只列出 `__dict__` 里的名字；共享的名字在类型上，所以补上，
            `dir(annotated_nn.modules.module)` 与 `dir(torch.nn.modules.module)` 一样列出它们。

        === "English"

            A module's default `dir()` lists only the names in its `__dict__`; the shared names live
            on the type, so they are added: `dir(annotated_nn.modules.module)` lists them, as
            `dir(torch.nn.modules.module)` does.

        Returns:
            The sorted names. / 排好序的名字。
        """
        shared = [name for name, v in vars(type(self)).items() if isinstance(v, _TorchGlobal)]
        return sorted({*self.__dict__, *shared})


# 中: 把本模块对象的类换掉：从此 `annotated_nn.modules.module._global_*` 就是 torch 的那些变量。
# EN: Swap this module object's class: from now on `annotated_nn.modules.module._global_*` are
# EN: torch's variables.
sys.modules[__name__].__class__ = _SharedGlobalHooks


class _WrappedHook:
    r"""A hook that may carry a weak reference to its module. / 可以弱引用其所属模块的钩子包装。

    === "中文"

        `load_state_dict` 的预钩子有两种：旧式的私有钩子不接收模块，公开的
        [`register_load_state_dict_pre_hook`][annotated_nn.modules.module.Module.register_load_state_dict_pre_hook]
        需要把模块作为第一个参数。`_WrappedHook` 统一二者：带模块时只保存**弱引用**，
        这样钩子不会让模块无法被回收；`functools.update_wrapper` 让它看起来像原函数
        （`__name__`、`__doc__` 等）。它也用于旧式（非 full）反向钩子。

    === "English"

        `load_state_dict` pre-hooks come in two kinds: the old private ones get no module, the
        public [`register_load_state_dict_pre_hook`][annotated_nn.modules.module.Module.register_load_state_dict_pre_hook]
        passes the module first. `_WrappedHook` serves both: with a module it keeps only a
        **weak reference**, so the hook never keeps the module alive; `functools.update_wrapper`
        makes it look like the wrapped function (`__name__`, `__doc__`, ...). The legacy
        (non-full) backward hooks are wrapped the same way.
    """

    def __init__(self, hook: Callable, module: Optional["Module"] = None) -> None:
        r"""Wrap `hook`, remembering `module` weakly. / 包装 `hook`，以弱引用记住 `module`。

        === "中文"

            `module` 为 `None` 时，调用时原样转发参数；否则调用时把模块作为第一个参数传入。

        === "English"

            When `module` is `None` a call forwards its arguments unchanged; otherwise the module
            is passed as the first argument.

        Args:
            hook: The function to wrap. / 被包装的函数。
            module: The owner to pass first, or `None`. / 调用时放在首位的模块，或 `None`。
        """
        self.hook: Callable = hook
        functools.update_wrapper(self, hook)

        self.with_module: bool = False

        if module is not None:
            self.module: weakref.ReferenceType[Module] = weakref.ref(module)
            self.with_module = True

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        r"""Call the hook, with the module first when one was given. / 调用钩子；若有模块则放在首位。

        === "中文"

            若弱引用指向的模块已被回收，说明有人在模块死后还持有钩子，抛出 `RuntimeError`。

        === "English"

            If the weakly referenced module has been collected, someone kept the hook beyond
            its module's life: a `RuntimeError` is raised.

        Args:
            *args: Forwarded to the hook. / 转发给钩子。
            **kwargs: Forwarded to the hook. / 转发给钩子。

        Returns:
            Whatever the hook returns. / 钩子的返回值。

        Raises:
            RuntimeError: The module is dead. / 模块已被回收。
        """
        if self.with_module:
            module = self.module()
            if module is None:
                raise RuntimeError("You are trying to call the hook of a dead Module!")
            return self.hook(module, *args, **kwargs)
        return self.hook(*args, **kwargs)

    def __getstate__(self) -> dict:
        r"""Pickle the hook with a strong reference to the module. / 序列化时以强引用保存模块。

        === "中文"

            弱引用不能被 pickle，所以序列化时把模块本身（强引用）放进状态；反序列化时再变回弱引用。
            深拷贝一个模块时它的钩子表也跟着被拷贝，就走这条路。

        === "English"

            A weak reference cannot be pickled, so the state holds the module itself (a strong
            reference); unpickling turns it back into a weak one. Deep-copying a module copies
            its hook tables through this path.

        Returns:
            The state dict. / 状态字典。
        """
        result = {"hook": self.hook, "with_module": self.with_module}
        if self.with_module:
            result["module"] = self.module()

        return result

    def __setstate__(self, state: dict):
        r"""Restore the hook and re-weaken the module reference. / 恢复钩子，并重新改为弱引用。

        === "中文"

            与 `__getstate__` 对称。保存时模块已死（`None`）则无法恢复，抛出 `RuntimeError`。

        === "English"

            The mirror of `__getstate__`. If the module was already dead (`None`) when saved,
            it cannot be revived and a `RuntimeError` is raised.

        Args:
            state: What `__getstate__` returned. / `__getstate__` 的返回值。

        Raises:
            RuntimeError: The saved module was dead. / 保存时模块已被回收。
        """
        self.hook = state["hook"]
        self.with_module = state["with_module"]

        if self.with_module:
            if state["module"] is None:
                raise RuntimeError("You are trying to revive the hook of a dead Module!")
            self.module = weakref.ref(state["module"])


def _has_any_global_hook():
    r"""Whether any global forward/backward hook is registered. / 是否注册了任何全局前向/反向钩子。

    === "中文"

        返回第一个非空的全局登记表（或最后一个空表），用作真假值。torch 的文件里也有这个函数，
        torch 中唯一的调用者是 `torch._dynamo` 的 `OptimizedModule.__call__`：存在全局钩子时它警告
        `torch.compile(module)` 会让全局钩子多触发一次。登记表只有一套（torch 的），所以两个函数答案相同。

    === "English"

        Returns the first non-empty global registry (or the last, empty one), used for its
        truth value. torch's file has this helper too; its only caller in torch is
        `OptimizedModule.__call__` in `torch._dynamo`, which warns that with global hooks
        `torch.compile(module)` fires them an extra time. There is one set of registries
        (torch's), so both functions give the same answer.

    Returns:
        A registry whose truthiness answers the question. / 一个登记表，其真假值即答案。
    """
    return (
        _torch_module_py._global_backward_pre_hooks
        or _torch_module_py._global_backward_hooks
        or _torch_module_py._global_forward_pre_hooks
        or _torch_module_py._global_forward_hooks
        or _torch_module_py._global_forward_hooks_always_called
        or _torch_module_py._global_forward_hooks_with_kwargs
    )


_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


def register_module_buffer_registration_hook(hook: Callable[..., None]) -> RemovableHandle:
    r"""Register a global hook run before any module registers a buffer. / 注册全局钩子：任何模块注册缓冲区前调用。

    === "中文"

        钩子签名为 `hook(module, name, buffer) -> None or Tensor`；返回非 `None` 的值会替换
        将要注册的缓冲区（buffer）。它在 `register_buffer` 与 `__setattr__` 的缓冲区分支里调用。
        1.5.1 中没有这类全局注册钩子（2.0 新增）。

    === "English"

        The hook has the signature `hook(module, name, buffer) -> None or Tensor`; a non-`None`
        return replaces the buffer being registered. It runs inside `register_buffer` and the
        buffer branch of `__setattr__`. PyTorch 1.5.1 had no registration hooks (added in 2.0).

    Args:
        hook: The global hook. / 全局钩子。

    Returns:
        A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
    """
    handle = RemovableHandle(_torch_module_py._global_buffer_registration_hooks)
    _torch_module_py._global_buffer_registration_hooks[handle.id] = hook
    return handle


def register_module_module_registration_hook(hook: Callable[..., None]) -> RemovableHandle:
    r"""Register a global hook run before any module registers a submodule. / 注册全局钩子：任何模块注册子模块前调用。

    === "中文"

        钩子签名为 `hook(module, name, submodule) -> None or Module`；返回非 `None` 的值会替换
        将要注册的子模块（submodule）。`add_module` 与 `__setattr__` 的模块分支都会调用它。

    === "English"

        The hook has the signature `hook(module, name, submodule) -> None or Module`; a
        non-`None` return replaces the submodule being registered. Both `add_module` and the
        module branch of `__setattr__` call it.

    Args:
        hook: The global hook. / 全局钩子。

    Returns:
        A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
    """
    handle = RemovableHandle(_torch_module_py._global_module_registration_hooks)
    _torch_module_py._global_module_registration_hooks[handle.id] = hook
    return handle


def register_module_parameter_registration_hook(hook: Callable[..., None]) -> RemovableHandle:
    r"""Register a global hook run before any module registers a parameter. / 注册全局钩子：任何模块注册参数前调用。

    === "中文"

        钩子签名为 `hook(module, name, param) -> None or Parameter`；返回非 `None` 的值会替换
        将要注册的参数（parameter）。只在注册一个真正的 `Parameter` 时调用，注册 `None` 时不调用。

    === "English"

        The hook has the signature `hook(module, name, param) -> None or Parameter`; a
        non-`None` return replaces the parameter being registered. It runs only when a real
        `Parameter` is registered, not for `None`.

    Args:
        hook: The global hook. / 全局钩子。

    Returns:
        A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
    """
    handle = RemovableHandle(_torch_module_py._global_parameter_registration_hooks)
    _torch_module_py._global_parameter_registration_hooks[handle.id] = hook
    return handle


def register_module_forward_pre_hook(hook: Callable[..., None]) -> RemovableHandle:
    r"""Register a forward pre-hook common to all modules. / 注册对所有模块生效的前向预钩子。

    === "中文"

        签名 `hook(module, args) -> None or modified args`，在每个模块的 `forward` 之前、
        模块自己的前向预钩子之前调用。它是全局状态，只适合调试与分析。
        注意：模块的 `with_kwargs` 标记只看模块自己的表，所以全局预钩子总是以 `(module, args)` 调用。

    === "English"

        Signature `hook(module, args) -> None or modified args`; it runs before every module's
        `forward`, ahead of that module's own pre-hooks. Global state: meant for debugging and
        profiling. Note that only the module's own `with_kwargs` table is consulted, so a global
        pre-hook is always called as `(module, args)`.

    Args:
        hook: The global pre-hook. / 全局预钩子。

    Returns:
        A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
    """
    handle = RemovableHandle(_torch_module_py._global_forward_pre_hooks)
    _torch_module_py._global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(
    hook: Callable[..., None],
    *,
    with_kwargs: bool = False,
    always_call: bool = False,
) -> RemovableHandle:
    r"""Register a forward hook common to all modules. / 注册对所有模块生效的前向钩子。

    === "中文"

        签名 `hook(module, args, output) -> None or modified output`（`with_kwargs=True` 时为
        `hook(module, args, kwargs, output)`），在每个模块的 `forward` 之后、模块自己的前向钩子
        之前调用。`always_call=True` 时，即使这次调用中途抛出异常（`forward` 或某个预钩子）
        也会补跑（此时不传 kwargs），已经运行过的不会再跑一次；`torch.compile` 追踪期间没有这层补跑。

    === "English"

        Signature `hook(module, args, output) -> None or modified output` (or
        `hook(module, args, kwargs, output)` with `with_kwargs=True`); it runs after every
        module's `forward`, ahead of the module's own forward hooks. With `always_call=True` it
        also runs when the call raises part-way (in `forward` or in a pre-hook), then without
        kwargs, and not a second time if it already ran; while `torch.compile` traces there is no
        such catch-up.

    Args:
        hook: The global forward hook. / 全局前向钩子。
        with_kwargs: Pass the forward's kwargs too. / 是否同时传入 forward 的关键字参数。
        always_call: Run even if forward raises. / forward 抛异常时也调用。

    Returns:
        A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
    """
    # 中: 与 torch 相同，句柄的 `extra_dict` 只有 always_call 表：注销后 with_kwargs 表里的条目会残留。
    # 中: 调用路径只对主表里仍在的 id 查标记，所以钩子不会被再次调用；但残留条目让
    # 中: `_has_any_global_hook()` 一直为真（在 torch 里，这会让 `torch.compile(module)` 一直发出警告）。
    # EN: As in torch, the handle's `extra_dict` is only the always_call table, so after removal the
    # EN: entry in the with_kwargs table stays. Calls only look up markers for ids still in the main
    # EN: table, so the hook never runs again; but the leftover keeps `_has_any_global_hook()` true
    # EN: (in torch that keeps `torch.compile(module)` warning).
    handle = RemovableHandle(
        _torch_module_py._global_forward_hooks,
        extra_dict=_torch_module_py._global_forward_hooks_always_called,
    )
    # 中: 钩子进主表；两个开关各在对应的标记表里记下它的 id。
    # EN: The hook goes into the main table; each switch records its id in its marker table.
    _torch_module_py._global_forward_hooks[handle.id] = hook
    if with_kwargs:
        _torch_module_py._global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _torch_module_py._global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_backward_hook(
    hook: Callable[["Module", _grad_t, _grad_t], _grad_t | None],
) -> RemovableHandle:
    r"""Register a legacy backward hook common to all modules (deprecated). / 注册对所有模块生效的旧式反向钩子（已弃用）。

    === "中文"

        旧式（非 full）反向钩子挂在模块输出的 `grad_fn` 上，在模块由多个自动求导节点组成时
        拿到的梯度并不完整，所以已被 [`register_module_full_backward_hook`][annotated_nn.modules.module.register_module_full_backward_hook]
        取代。全局范围内两种不能混用。

    === "English"

        A legacy (non-full) backward hook sits on the `grad_fn` of the module's output and sees
        incomplete gradients when the module spans several autograd nodes, so it is superseded
        by [`register_module_full_backward_hook`][annotated_nn.modules.module.register_module_full_backward_hook].
        The two kinds cannot be mixed globally.

    Args:
        hook: The global legacy backward hook. / 全局旧式反向钩子。

    Returns:
        A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。

    Raises:
        RuntimeError: A global full backward hook was registered before. / 之前已注册过全局完整反向钩子。
    """
    # 中: 两种全局反向钩子共用一张表，靠标记区分；已有 full 钩子（哪怕已经注销，标记不复位）就拒绝。
    # 中: 报错文本与 torch 逐字相同。
    # EN: Both kinds of global backward hook share one table and are told apart by the flag; once a
    # EN: full hook was registered (even if removed since: the flag is never reset) this is refused.
    # EN: The message is torch's, word for word.
    if _torch_module_py._global_is_full_backward_hook is True:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward "
            "hooks as a global Module hook. Please use only one of them."
        )

    # 中: 标记为旧式，之后 `_get_backward_hooks` 把整张全局表当作旧式钩子，挂到输出的 `grad_fn` 上。
    # EN: Mark the table legacy: from now on `_get_backward_hooks` treats the whole global table as
    # EN: legacy hooks, attached to the output's `grad_fn`.
    _torch_module_py._global_is_full_backward_hook = False

    handle = RemovableHandle(_torch_module_py._global_backward_hooks)
    _torch_module_py._global_backward_hooks[handle.id] = hook
    return handle


def register_module_full_backward_pre_hook(
    hook: Callable[["Module", _grad_t], _grad_t | None],
) -> RemovableHandle:
    r"""Register a backward pre-hook common to all modules. / 注册对所有模块生效的反向预钩子。

    === "中文"

        签名 `hook(module, grad_output) -> tuple[Tensor] or None`：在模块输出的梯度算出后、
        梯度流入模块内部之前调用，返回值可替换 `grad_output`。全局预钩子先于模块自己的预钩子执行。

    === "English"

        Signature `hook(module, grad_output) -> tuple[Tensor] or None`: called once the
        gradients w.r.t. the module's outputs are known, before they flow into the module; a
        return value replaces `grad_output`. Global pre-hooks run before the module's own.

    Args:
        hook: The global backward pre-hook. / 全局反向预钩子。

    Returns:
        A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
    """
    handle = RemovableHandle(_torch_module_py._global_backward_pre_hooks)
    _torch_module_py._global_backward_pre_hooks[handle.id] = hook
    return handle


def register_module_full_backward_hook(
    hook: Callable[["Module", _grad_t, _grad_t], _grad_t | None],
) -> RemovableHandle:
    r"""Register a full backward hook common to all modules. / 注册对所有模块生效的完整反向钩子。

    === "中文"

        签名 `hook(module, grad_input, grad_output) -> tuple[Tensor] or None`：在模块输入的梯度
        算出后调用，返回值可替换 `grad_input`。它通过 [`BackwardHook`][annotated_nn.utils.hooks.BackwardHook]
        包住模块的输入与输出，因此无论模块内部有多少个自动求导节点，拿到的梯度都是完整的。

    === "English"

        Signature `hook(module, grad_input, grad_output) -> tuple[Tensor] or None`: called once
        the gradients w.r.t. the module's inputs are computed; a return value replaces
        `grad_input`. It works through [`BackwardHook`][annotated_nn.utils.hooks.BackwardHook],
        which wraps the module's inputs and outputs, so the gradients are complete however many
        autograd nodes the module uses.

    Args:
        hook: The global full backward hook. / 全局完整反向钩子。

    Returns:
        A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。

    Raises:
        RuntimeError: A global legacy backward hook was registered before. / 之前已注册过全局旧式反向钩子。
    """
    # 中: 与旧式版本对称：只要注册过旧式全局钩子（标记为 False，注销后也不复位）就拒绝；报错文本同 torch。
    # EN: The mirror of the legacy version: refused once a legacy global hook was ever registered
    # EN: (flag False, not reset by removal); the message is torch's.
    if _torch_module_py._global_is_full_backward_hook is False:
        raise RuntimeError(
            "Cannot use both regular backward hooks and full backward "
            "hooks as a global Module hook. Please use only one of them."
        )

    # 中: 标记为 full：`_call_impl` 会用 BackwardHook 包住每个模块的输入与输出，把这些钩子交给它。
    # EN: Mark the table full: `_call_impl` wraps every module's inputs and outputs in a
    # EN: BackwardHook and hands these hooks to it.
    _torch_module_py._global_is_full_backward_hook = True

    handle = RemovableHandle(_torch_module_py._global_backward_hooks)
    _torch_module_py._global_backward_hooks[handle.id] = hook
    return handle


def _remove_from(name, *dicts_or_sets) -> None:
    r"""Drop `name` from each given dict or set. / 从给定的每个字典或集合里删掉 `name`。

    === "中文"

        `Module.__setattr__` 用它保证一个名字只存在于一处：例如把原本的普通属性改赋为参数时，
        先把它从实例字典删掉。torch 把它写成 `__setattr__` 里的嵌套函数，于是每次赋值（包括普通属性）
        都要新建一个闭包；写在模块级别就省掉了这一步，行为相同。

    === "English"

        `Module.__setattr__` uses it to keep a name in one place only: when a plain attribute is
        re-assigned as a parameter, say, it is first removed from the instance dict. torch nests
        it inside `__setattr__`, which builds a closure on every assignment (plain attributes
        included); at module level that step is saved, with the same behavior.

    Args:
        name: The attribute name. / 属性名。
        *dicts_or_sets: The containers to clean. / 需要清理的容器。
    """
    for d in dicts_or_sets:
        if name in d:
            if isinstance(d, dict):
                del d[name]
            else:
                d.discard(name)


def _group_keys_by_child(state_dict, prefix):
    r"""Group the keys under `prefix` by the child name that follows it. / 按 `prefix` 之后的子模块名给键分组。

    === "中文"

        `"layer1.0.conv.weight"` 在前缀 `"layer1."` 下属于子模块 `"0"`。返回子模块名到 `{key: value}` 的映射，
        每组保持原字典中的顺序；不以 `prefix` 开头的键、以及前缀之后没有点号的键（属于模块自己）
        都不进入任何组。`load_state_dict` 用它一次性切分父模块的字典，而不是为每个子模块各扫描一遍。

    === "English"

        Under the prefix `"layer1."`, `"layer1.0.conv.weight"` belongs to the child `"0"`. The
        result maps child name to `{key: value}`, each group in the original order; keys outside
        `prefix`, and keys with no dot after it (the module's own), join no group.
        `load_state_dict` uses it to split a parent's dict in one pass instead of one scan per child.

    Args:
        state_dict: The parent's keys and values. / 父模块的键值。
        prefix: The parent's key prefix. / 父模块的键前缀。

    Returns:
        The groups by child name. / 按子模块名分好的组。
    """
    # 中: 一趟扫描：对每个键，在前缀之后找第一个点号，点号之前的那一段就是子模块名。
    # 中: 前缀之后没有点号的键属于模块自己（如 `"layer1.bias"`），不以前缀开头的键不归它管。
    # EN: One pass: for each key, find the first dot after the prefix; the atom before that dot is
    # EN: the child's name. A key with no dot after the prefix is the module's own
    # EN: (`"layer1.bias"`); a key not starting with the prefix is not its business.
    start = len(prefix)
    groups: dict[str, dict[str, Any]] = {}
    for key, value in state_dict.items():
        dot = key.find(".", start)
        if dot >= 0 and key.startswith(prefix):
            # 中: 组在第一次遇到该子模块时创建；dict 保持插入顺序，所以组内顺序与原字典一致。
            # EN: A group is created at its child's first key; dicts keep insertion order, so each
            # EN: group keeps the original order.
            child_name = key[start:dot]
            group = groups.get(child_name)
            if group is None:
                group = groups[child_name] = {}
            group[key] = value
    return groups


def _forward_unimplemented(self, *input: Any) -> None:
    r"""The default `forward`: every subclass must override it. / 默认的 `forward`：子类必须覆盖。

    === "中文"

        `Module.forward` 被设为这个函数而不是一个普通方法，这样类型检查器（mypy）不会要求子类的
        `forward` 与基类签名一致。调用它说明子类忘了写 `forward`，错误信息会带上子类的名字。
        1.5.1 → 2.13：错误信息从无内容的 `NotImplementedError` 变为说明缺少 `forward` 的模块名。

    === "English"

        `Module.forward` is bound to this function rather than defined as a method so that type
        checkers (mypy) do not force every subclass's `forward` to match a base signature.
        Reaching it means the subclass forgot `forward`; the message names the subclass.
        1.5.1 → 2.13: the bare `NotImplementedError` gained a message naming the module.

    Args:
        *input: Ignored. / 忽略。

    Raises:
        NotImplementedError: Always. / 总是抛出。
    """
    raise NotImplementedError(
        f'Module [{type(self).__name__}] is missing the required "forward" function'
    )


# DIFF(torch 2.13): Module subclasses torch.nn.Module
# 中: torch 的 Module 直接继承 object；我们的继承 torch 的 Module，使 torch 的 `isinstance` 检查接受我们的模块，
# 中: 同时重新定义 torch 类体里的每个名字，torch 的实现一行也不运行（见类说明里的 Note [Living with torch.nn]）。
# EN: torch's Module derives from object; ours subclasses torch's Module so that torch's
# EN: `isinstance` checks accept our modules, and defines every name of torch's class body again,
# EN: so no line of torch's implementation runs (see Note [Living with torch.nn] in the class
# EN: docstring).
class Module(torch.nn.Module):
    r"""Base class for all neural network modules. / 所有神经网络模块的基类。

    === "中文"

        你的模型应当继承这个类。一个 `Module` 持有三张有序表——参数（parameter）`_parameters`、
        缓冲区（buffer）`_buffers`、子模块（submodule）`_modules`——以及一组钩子（hook）表。
        在 `__init__` 里像普通属性一样赋值（`self.conv = nn.Conv2d(...)`），
        [`__setattr__`][annotated_nn.modules.module.Module.__setattr__] 就会把值分拣进对应的表；
        读取时 [`__getattr__`][annotated_nn.modules.module.Module.__getattr__] 再从这些表里找回。
        几乎所有其它方法（`to`、`state_dict`、`parameters`……）都是在这棵模块树上的遍历。

        子类必须先调用 `super().__init__()` 再给属性赋值，否则这些表还不存在。
        `training` 表示训练还是评估模式，由 [`train`][annotated_nn.modules.module.Module.train] /
        [`eval`][annotated_nn.modules.module.Module.eval] 切换。

        1.5.1 → 2.13：三张表从 `OrderedDict` 变成普通 `dict`（Python 3.7 起 dict 有序）；
        新增非持久缓冲区集合、完整反向钩子、带 kwargs 的前向钩子、`always_call`、state_dict
        前置 / 加载后钩子、`call_super_init` 与 `compile()`。

    === "English"

        Your models should subclass this class. A `Module` owns three ordered tables —
        parameters `_parameters`, buffers `_buffers`, submodules `_modules` — plus a set of hook
        tables. Assign things in `__init__` as plain attributes (`self.conv = nn.Conv2d(...)`)
        and [`__setattr__`][annotated_nn.modules.module.Module.__setattr__] sorts each value
        into the right table; [`__getattr__`][annotated_nn.modules.module.Module.__getattr__]
        finds it there again. Nearly every other method (`to`, `state_dict`, `parameters`, ...)
        is a walk over this tree of modules.

        A subclass must call `super().__init__()` before assigning attributes: the tables do
        not exist until then. `training` tells training from evaluation mode and is switched by
        [`train`][annotated_nn.modules.module.Module.train] / [`eval`][annotated_nn.modules.module.Module.eval].

        1.5.1 → 2.13: the three tables went from `OrderedDict` to plain `dict` (ordered since
        Python 3.7); new are the non-persistent buffer set, full backward hooks, forward hooks
        with kwargs, `always_call`, state_dict pre-hooks and load post-hooks,
        `call_super_init` and `compile()`.

    Note: Note [Living with torch.nn] 与 torch.nn 共存
        === "中文"

            本类继承 `torch.nn.Module`（DIFF：torch 的 Module 直接继承 `object`）。原因：torch 的代码——
            它的容器和 `Module.__setattr__`、fx、`torch.export`、`torch.jit`、`torch.func`、DDP、
            `parametrize`、`AveragedModel`——都用 `isinstance(x, torch.nn.Module)` 判断“这是不是模块”。
            继承之后，我们的模块在 torch 眼里就是模块；本项目的这类判断也都改查 `torch.nn.Module`，
            于是 torch 的模块在我们的树里同样是子模块，两个库的模块可以混在一棵树里。

            运行的仍是本文件的代码：torch 类体里的每个名字（73 个函数和全部类属性）本类都重新定义，
            对我们的模块做的任何调用都不会落到 torch 的实现上。`tests/test_no_torch_module_code.py`
            把 torch 类上的这些函数换成“遇到我们的对象就报错”的版本再运行模块系统的测试，没有一处报错。
            需要“跳过”torch 的类时（`__init__`、`__setattr__` 里把值写进实例字典）写
            `super(torch.nn.Module, self)`。唯一由 torch 的代码处理我们的模块的情形是 torch.fx 追踪：
            fx 临时替换 torch 类上的 `__call__`/`__getattr__`，我们的这两个方法发现后交给它（见那两处的
            DIFF）。全局钩子只有一套，就是 torch 的（见文件开头）。

        === "English"

            This class subclasses `torch.nn.Module` (a DIFF: torch's Module derives from `object`).
            Why: torch's code (its containers and `Module.__setattr__`, fx, `torch.export`,
            `torch.jit`, `torch.func`, DDP, `parametrize`, `AveragedModel`) decides "is this a
            module?" with `isinstance(x, torch.nn.Module)`. As a subclass, our module is a module
            to torch; and this project's own such checks ask for `torch.nn.Module` too, so a torch
            module in our tree is a child as well: modules of both libraries mix in one tree.

            The code that runs is still this file's: every name of torch's class body (73
            functions and all class attributes) is defined again here, so no call on our module
            lands in torch's implementation. `tests/test_no_torch_module_code.py` replaces those
            functions on torch's class by versions that raise for our objects and runs the
            module-system tests: nothing raises. Where torch's class must be skipped (writing
            into the instance dict in `__init__` and `__setattr__`) the code says
            `super(torch.nn.Module, self)`. The one case where torch's code handles our modules
            is torch.fx tracing: fx temporarily replaces `__call__`/`__getattr__` on torch's
            class, and ours notice and hand over to it (see the DIFF at each). There is one set of
            global hooks, torch's (see the top of the file).

    Attributes:
        training: Whether the module is in training mode. / 是否处于训练模式。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> class Net(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.fc = nn.Module()
        ...         self.scale = nn.Parameter(torch.ones(1))
        >>> net = Net()
        >>> [name for name, _ in net.named_parameters()]
        ['scale']
        >>> list(net._modules)
        ['fc']
    """

    # 中: 只有 torch.load 读取旧的非 zip 格式时才看它：整个被 pickle 的模块，其类的源码自保存后
    # 中: 改变了，为 True 时写出一个反向 `.patch` 文件，而不只是警告。torch 只为 `torch.nn.Module`
    # 中: 的子类保存源码；本项目的 Module 是它的子类，所以它对我们的模型同样起作用。
    # EN: Read only by torch.load of the old non-zip format: when a whole pickled module's class
    # EN: source changed since saving, True writes a reverse `.patch` file instead of only warning.
    # EN: torch saves source only for `torch.nn.Module` subclasses; this Module is one, so the
    # EN: attribute works for our models too.
    dump_patches: bool = False

    # 中: 模块格式的版本号。state_dict() 把它写进 `_metadata`；_load_from_state_dict 可据此把旧格式的
    # 中: 状态字典转成新格式（例如 BatchNorm 在 version 2 增加了 num_batches_tracked）。
    # 中: 参数或缓冲区有增删时就应当加一。
    # EN: The version of this module's format. state_dict() saves it in `_metadata`, and
    # EN: _load_from_state_dict can compare it to upgrade an old state dict (BatchNorm added
    # EN: num_batches_tracked in version 2, for instance). Bump it when parameters/buffers change.
    _version: int = 1

    # 中: 下面不带值的声明只是实例属性的类型标注（类上并没有这些值）：它们由 `__init__` 写进每个
    # 中: 实例的 `__dict__`，在这里声明是为了让类型检查器认识它们。
    # EN: The bare annotations below only declare the types of instance attributes (the class holds
    # EN: no values): `__init__` writes them into each instance's `__dict__`; declaring them here
    # EN: informs type checkers.
    training: bool
    _parameters: dict[str, Parameter | None]
    _buffers: dict[str, Tensor | None]
    _non_persistent_buffers_set: set[str]
    _backward_pre_hooks: dict[int, Callable]
    _backward_hooks: dict[int, Callable]
    _is_full_backward_hook: bool | None
    _forward_hooks: dict[int, Callable]
    # 中: 标记哪些前向钩子要接收 kwargs；只用作集合，值恒为 True。
    # EN: Marks the forward hooks that want kwargs; used as a set, the value is always True.
    _forward_hooks_with_kwargs: dict[int, bool]
    # 中: 标记哪些前向钩子在 forward 抛出异常时也要调用。
    # EN: Marks the forward hooks that must run even when forward raises.
    _forward_hooks_always_called: dict[int, bool]
    _forward_pre_hooks: dict[int, Callable]
    # 中: 标记哪些前向预钩子要接收 kwargs。
    # EN: Marks the forward pre-hooks that want kwargs.
    _forward_pre_hooks_with_kwargs: dict[int, bool]
    _state_dict_hooks: dict[int, Callable]
    _load_state_dict_pre_hooks: dict[int, Callable]
    _state_dict_pre_hooks: dict[int, Callable]
    _load_state_dict_post_hooks: dict[int, Callable]
    _modules: dict[str, Optional["Module"]]
    # 中: 为 False（默认）时 `Module.__init__` 根本不调用 `super().__init__()`，MRO 中排在 Module 之后的
    # 中: 类（多重继承里的 mixin）的 `__init__` 不会运行；子类设为 True 时，`__init__` 把收到的参数原样
    # 中: 交给 `super().__init__(*args, **kwargs)`。
    # EN: When False (the default), `Module.__init__` never calls `super().__init__()`, so the
    # EN: `__init__` of a class after Module in the MRO (a mixin, with multiple inheritance) does
    # EN: not run; a subclass that sets it True has `__init__` pass its arguments on unchanged to
    # EN: `super().__init__(*args, **kwargs)`.
    call_super_init: bool = False
    # 中: compile() 存放编译后的 _call_impl；为 None 时 __call__ 走普通路径。
    # EN: compile() stores the compiled _call_impl here; None means __call__ takes the plain path.
    _compiled_call_impl: Callable | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        r"""Create the empty tables every module needs. / 创建每个模块都需要的空表。

        === "中文"

            这里用 `super().__setattr__`（通常就是 `object.__setattr__`）直接写入实例字典，绕过
            我们自己的 [`__setattr__`][annotated_nn.modules.module.Module.__setattr__]：
            后者对每次赋值都要先查这几张表（此时它们还不存在），直接写入更快。
            默认不接受任何参数；若类属性 `call_super_init` 为 True，则把参数转给下一个基类。
            1.5.1 → 2.13：表从 `OrderedDict` 改为 `dict`，新增了多张钩子表和非持久缓冲区集合，
            并加入了 `*args, **kwargs` 与 `call_super_init`。

        === "English"

            It writes through `super().__setattr__` (normally `object.__setattr__`) straight into
            the instance dict, bypassing our own [`__setattr__`][annotated_nn.modules.module.Module.__setattr__],
            which looks these tables up on every assignment (here they do not exist yet); writing
            directly is faster.
            No arguments are accepted unless the class attribute `call_super_init` is True, in
            which case they go to the next base class.
            1.5.1 → 2.13: the tables went from `OrderedDict` to `dict`, several hook tables and
            the non-persistent buffer set were added, and so were `*args, **kwargs` and
            `call_super_init`.

        Args:
            *args: Only allowed with `call_super_init=True`. / 仅在 `call_super_init=True` 时允许。
            **kwargs: Only allowed with `call_super_init=True`. / 仅在 `call_super_init=True` 时允许。

        Raises:
            TypeError: Arguments given while `call_super_init` is False. / `call_super_init` 为 False 却传了参数。
        """
        # 中: torch 的 API 使用统计，键与 torch 相同；每个进程只记录一次，默认什么也不输出
        # 中: （设置环境变量 PYTORCH_API_USAGE_STDERR 后会打印到 stderr）。
        # EN: torch's API-usage logging, with torch's own key; logged once per process and silent by
        # EN: default (with the PYTORCH_API_USAGE_STDERR environment variable set it prints to
        # EN: stderr).
        torch._C._log_api_usage_once("python.nn_module")

        # 中: `call_super_init` 为 False 时不接受任何参数。报错文本与 torch 逐字相同，而 torch 的文本
        # 中: 模仿 Python 自己对多余参数的报错
        # 中: （`X.__init__() takes 1 positional argument but 2 were given`），
        # 中: 所以用户看到的是熟悉的信息；位置参数个数要加上 self 这一个。
        # EN: With `call_super_init` False no argument is accepted. The messages are torch's word
        # EN: for word, and torch's imitate Python's own errors for extra arguments
        # EN: (`X.__init__() takes 1 positional argument but 2 were given`), so users see familiar
        # EN: text; the positional count includes self.
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(
                f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                f"'{next(iter(kwargs))}'"
            )

        # 中: 关键字参数先查，所以两种都传时报的是关键字参数的错误，与 torch 相同。
        # EN: Keyword arguments are checked first, so when both kinds are given the keyword error is
        # EN: the one raised, as in torch.
        if self.call_super_init is False and bool(args):
            raise TypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument but "
                f"{len(args) + 1} were given"
            )

        # 中: `super().__setattr__` 是 MRO 中 Module 之后的下一个 `__setattr__`（通常是 object 的），
        # 中: 直接写进实例的 `__dict__`，绕过 `Module.__setattr__`：后者每次赋值都要查三张表，而这些值
        # 中: 都是普通对象，最终也只会落到同一处，绕过它只是省时间。写入顺序与 torch 相同，新建模块的
        # 中: `vars()` 与 torch 的键和顺序一致。参数与缓冲区用普通 dict（本身有序，又用不到下面钩子表
        # 中: 需要的两种能力）；新模块处于训练模式。
        # EN: `super().__setattr__` is the next `__setattr__` after Module in the MRO (normally
        # EN: object's); it writes straight into the instance `__dict__`, bypassing
        # EN: `Module.__setattr__`, which checks three tables on each assignment: these values are
        # EN: plain objects that would land in the same place anyway, so bypassing it only saves
        # EN: time. The order is torch's, so a new module's `vars()` has the same keys in the same
        # EN: order. Parameters and buffers live in plain dicts (ordered already, and needing
        # EN: neither ability the hook tables below need); a new module starts in training mode.
        # 中: DIFF 见下：`super(torch.nn.Module, self)` 跳过 torch 的 Module。
        # EN: See the DIFF below: `super(torch.nn.Module, self)` skips torch's Module.
        set_ = super(torch.nn.Module, self).__setattr__
        set_("training", True)
        set_("_parameters", {})
        set_("_buffers", {})
        set_("_non_persistent_buffers_set", set())
        # 中: 钩子表（包括 state_dict 钩子表和标记表）必须是 OrderedDict，原因有二：
        # 中: (1) 句柄（RemovableHandle）用 `weakref.ref` 指向主表，经 `extra_dict` 也指向
        # 中: `*_with_kwargs`、`_always_called` 标记表，而普通 `dict` 不能被弱引用（`TypeError`）；
        # 中: (2) `prepend=True` 要用 `move_to_end(last=False)`，普通 `dict` 没有这个方法（只有前向
        # 中: 预钩子、前向钩子、反向预钩子、反向钩子这 4 张表用到）。`_parameters`、`_buffers`、
        # 中: `_modules` 没有句柄指向、也不必插到最前，所以用普通 `dict`。
        # 中: `_is_full_backward_hook` 为 None 表示本模块还没有
        # 中: 注册过反向钩子，第一次注册时定为旧式（False）或 full（True）。
        # EN: Hook tables (the state_dict hook tables and the marker tables too) must be
        # EN: OrderedDicts, for two reasons: (1) the handle (RemovableHandle) points at a main table
        # EN: with `weakref.ref`, and through `extra_dict` at the `*_with_kwargs` and
        # EN: `_always_called` marker tables, and a plain `dict` cannot be weakly referenced
        # EN: (`TypeError`); (2) `prepend=True` needs `move_to_end(last=False)`, which a plain
        # EN: `dict` lacks (only the 4 tables of forward pre-hooks, forward hooks, backward
        # EN: pre-hooks and backward hooks use it). No handle points at `_parameters`, `_buffers`
        # EN: or `_modules` and nothing is put at their front, so they are plain `dict`s.
        # EN: `_is_full_backward_hook` None means no backward hook was registered here yet; the
        # EN: first registration fixes it to legacy (False) or full (True).
        set_("_backward_pre_hooks", OrderedDict())
        set_("_backward_hooks", OrderedDict())
        set_("_is_full_backward_hook", None)
        # 中: 前向钩子与前向预钩子各有一张主表；`*_with_kwargs` 与 `_always_called` 是按钩子 id 的标记表。
        # EN: Forward hooks and forward pre-hooks each have a main table; `*_with_kwargs` and
        # EN: `_always_called` are marker tables keyed by hook id.
        set_("_forward_hooks", OrderedDict())
        set_("_forward_hooks_with_kwargs", OrderedDict())
        set_("_forward_hooks_always_called", OrderedDict())
        set_("_forward_pre_hooks", OrderedDict())
        set_("_forward_pre_hooks_with_kwargs", OrderedDict())
        # 中: 状态字典的四类钩子：保存后、保存前、加载前、加载后；子模块表最后创建，与 torch 相同。
        # EN: The four kinds of state_dict hook: after saving, before saving, before loading, after
        # EN: loading; the submodule table comes last, as in torch.
        set_("_state_dict_hooks", OrderedDict())
        set_("_state_dict_pre_hooks", OrderedDict())
        set_("_load_state_dict_pre_hooks", OrderedDict())
        set_("_load_state_dict_post_hooks", OrderedDict())
        set_("_modules", {})

        # 中: 合作式多重继承：只有子类把 `call_super_init` 设为 True，才继续调用 MRO 中下一个类的
        # 中: `__init__`；这一步在所有表建好之后，所以那个 `__init__` 可以给本模块注册参数或子模块。
        # 中: 与上面相同，“下一个类”是 torch 的 Module 之后的那个（torch 自己的 `__init__` 会把各表重置）。
        # EN: Cooperative multiple inheritance: only when a subclass sets `call_super_init` True is
        # EN: the next `__init__` in the MRO called; it runs after every table exists, so that
        # EN: `__init__` may register parameters or submodules on this module. As above, "next" is
        # EN: the class after torch's Module (torch's own `__init__` would reset every table).
        if self.call_super_init:
            super(torch.nn.Module, self).__init__(*args, **kwargs)

    # 中: forward 是一个类属性而不是 def，原因见 _forward_unimplemented 的说明。
    # EN: forward is a class attribute rather than a def; _forward_unimplemented explains why.
    forward: Callable[..., Any] = _forward_unimplemented

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        r"""Register a buffer: state that is not a parameter. / 注册缓冲区：不是参数的模块状态。

        === "中文"

            缓冲区（buffer）和参数一样挂在模块上、随 `to()` 迁移，但优化器不会更新它，
            例如 BatchNorm 的 `running_mean`。`persistent=False` 的缓冲区不写入
            [`state_dict`][annotated_nn.modules.module.Module.state_dict]。
            检查顺序决定了报错：先确认 `__init__` 已运行，再检查名字的类型、点号、空串、
            是否与已有属性冲突，最后检查值的类型；通过后先让全局注册钩子有机会替换张量。
            1.5.1 → 2.13：新增 `persistent` 参数与全局缓冲区注册钩子。

        === "English"

            A buffer lives on the module and moves with `to()` like a parameter, but no
            optimizer updates it, e.g. BatchNorm's `running_mean`. Buffers with
            `persistent=False` are left out of
            [`state_dict`][annotated_nn.modules.module.Module.state_dict].
            The order of the checks decides which error you see: `__init__` must have run,
            then the name's type, a dot, the empty string, a clash with an existing attribute,
            and last the value's type; then the global registration hooks may swap the tensor.
            1.5.1 → 2.13: the `persistent` argument and global buffer registration hooks were added.

        Args:
            name: Attribute name; not empty, no `"."`. / 属性名，不能为空或含 `"."`。
            tensor: A tensor, or `None` to reserve the slot. / 张量；`None` 表示占位。
            persistent: Whether `state_dict` includes it. / 是否写入 `state_dict`。

        Raises:
            AttributeError: Called before `Module.__init__()`. / 在 `Module.__init__()` 之前调用。
            TypeError: Name not a string, or value not a tensor. / 名字不是字符串或值不是张量。
            KeyError: Empty, dotted or clashing name. / 名字为空、含点号或与已有属性冲突。

        Examples:
            >>> import torch, annotated_nn as nn
            >>> m = nn.Module()
            >>> m.register_buffer("running_mean", torch.zeros(3))
            >>> list(m.state_dict())
            ['running_mean']
        """
        # 中: 与 torch 一致保留的检查。`torch.jit.ScriptModule` 派生自 `torch.nn.Module` 而不是这里的
        # 中: Module，所以对普通的 annotated_nn 模块它总为假。
        # EN: Kept as in torch. `torch.jit.ScriptModule` derives from `torch.nn.Module`, not from
        # EN: this Module, so for an ordinary annotated_nn module the test is always false.
        if persistent is False and isinstance(self, torch.jit.ScriptModule):
            raise RuntimeError("ScriptModule does not support non-persistent buffers")

        # 中: 直接查 `__dict__`：`__init__` 之前读 `self._buffers` 只会得到一个看不出原因的
        # 中: AttributeError，这里给出明确的提示。点号被禁止，因为状态字典的键和 `get_submodule` 的路径
        # 中: 都用点号分隔层级。报错文本与 torch 逐字相同。
        # EN: Look in `__dict__` directly: before `__init__`, reading `self._buffers` would only
        # EN: give an AttributeError that hides the cause; this says it. Dots are banned because
        # EN: state_dict keys and `get_submodule` paths use them between levels. The messages are
        # EN: torch's.
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        elif not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {torch.typename(name)}")
        elif "." in name:
            raise KeyError('buffer name can\'t contain "."')
        elif name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        # 中: hasattr 会看实例字典、类属性（包括方法）以及三张表，所以 `"training"`、`"forward"`、
        # 中: 已注册的参数名（哪怕值是 None）都算冲突；重新注册同名缓冲区是允许的。
        # EN: hasattr sees the instance dict, class attributes (methods too) and the three tables,
        # EN: so `"training"`, `"forward"` or a registered parameter name (even one holding None)
        # EN: clash; re-registering an existing buffer name is allowed.
        elif hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        # 中: 实现了 __torch_function__ 的“类张量”对象也被接受。
        # EN: Tensor-like objects that implement __torch_function__ are accepted too.
        elif tensor is not None and not (
            isinstance(tensor, torch.Tensor) or hasattr(tensor, "__torch_function__")
        ):
            raise TypeError(
                f"cannot assign '{torch.typename(tensor)}' object to buffer '{name}' "
                "(torch Tensor or None required)"
            )
        else:
            # 中: 全部检查通过后才调用全局注册钩子，按注册顺序依次调用；返回非 None 的值替换张量，
            # 中: 下一个钩子看到的是替换后的值。钩子的返回值不再经过上面的类型检查。
            # EN: Global registration hooks run only after every check passed, in registration
            # EN: order; a non-None return replaces the tensor, and the next hook sees the
            # EN: replacement. What a hook returns is not type-checked again.
            for hook in _torch_module_py._global_buffer_registration_hooks.values():
                output = hook(self, name, tensor)
                if output is not None:
                    tensor = output
            # 中: 持久与否记在 `_non_persistent_buffers_set` 里，而不是缓冲区本身上；重新注册会按新的
            # 中: `persistent` 更新这个集合。
            # EN: Persistence is recorded in `_non_persistent_buffers_set`, not on the buffer
            # EN: itself; re-registering updates the set to the new `persistent`.
            self._buffers[name] = tensor
            if persistent:
                self._non_persistent_buffers_set.discard(name)
            else:
                self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        r"""Add a parameter to the module. / 向模块添加一个参数。

        === "中文"

            参数（parameter）会出现在 [`parameters`][annotated_nn.modules.module.Module.parameters]
            与状态字典里，并由优化器更新。值必须是 `Parameter` 或 `None`（占位，例如 `bias=False`
            的层）。非叶子张量（由计算得到、带 `grad_fn`）被拒绝：参数必须由用户显式创建，
            “参数是另一个张量的函数”应当写在 `forward` 里。
            1.5.1 → 2.13：新增全局参数注册钩子；检查与报错措辞基本不变。

        === "English"

            A parameter shows up in [`parameters`][annotated_nn.modules.module.Module.parameters]
            and in the state dict, and optimizers update it. The value must be a `Parameter` or
            `None` (a placeholder, e.g. a layer with `bias=False`). A non-leaf tensor (computed,
            with a `grad_fn`) is refused: parameters are created explicitly, and "a parameter as
            a function of another tensor" belongs in `forward`.
            1.5.1 → 2.13: global parameter registration hooks were added; the checks and
            messages are essentially unchanged.

        Args:
            name: Attribute name; not empty, no `"."`. / 属性名，不能为空或含 `"."`。
            param: The parameter, or `None`. / 参数，或 `None`。

        Raises:
            AttributeError: Called before `Module.__init__()`. / 在 `Module.__init__()` 之前调用。
            TypeError: Bad name type or value type. / 名字或值的类型不对。
            KeyError: Empty, dotted or clashing name. / 名字为空、含点号或冲突。
            ValueError: A non-leaf tensor. / 非叶子张量。
        """
        # 中: 名字检查与 `register_buffer` 同序、同文本（只把 buffer 换成 parameter），都与 torch 相同：
        # 中: 先确认 `__init__` 已运行，再查名字类型、点号、空串，最后查与已有属性（非参数）的冲突。
        # EN: The name checks follow `register_buffer`'s order and wording (parameter for buffer),
        # EN: as torch does: `__init__` must have run, then the name's type, a dot, the empty
        # EN: string, and last a clash with an existing attribute that is not a parameter.
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")

        elif not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {torch.typename(name)}")
        elif "." in name:
            raise KeyError('parameter name can\'t contain "."')
        elif name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        # 中: 已登记的参数名可以重新注册（覆盖）；缓冲区、子模块、普通属性或方法的名字都算冲突。
        # EN: A registered parameter name may be registered again (replaced); the name of a buffer,
        # EN: submodule, plain attribute or method clashes.
        elif hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")

        # 中: None 直接占位，不经过全局注册钩子；`_apply`、`parameters()` 与状态字典都会跳过它。
        # EN: None just reserves the slot, without the global registration hooks; `_apply`,
        # EN: `parameters()` and the state_dict all skip it.
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            # 中: 报错文本与 torch 逐字相同（提到 torch.nn.Parameter），换用本库后报错不变。
            # 中: torch 自己的 `torch.nn.Parameter` 也能通过这里的 isinstance（见 Parameter 的说明）。
            # EN: The text is torch's word for word (it names torch.nn.Parameter), so errors do not
            # EN: change after switching libraries. torch's own `torch.nn.Parameter` also passes
            # EN: this isinstance (see Parameter).
            raise TypeError(
                f"cannot assign '{torch.typename(param)}' object to parameter '{name}' "
                "(torch.nn.Parameter or None required)"
            )
        # 中: 参数必须是计算图的叶子，梯度才会累加到它的 `.grad` 上、优化器才能更新它；带 `grad_fn`
        # 中: 的张量是某次运算的结果。`Parameter(t)` 即使 `t` 是非叶子张量也会得到新的叶子（不带 grad_fn），
        # 中: 所以照常构造的参数都能通过。
        # EN: A parameter must be a leaf of the graph, so that gradients accumulate in its `.grad`
        # EN: and an optimizer can update it; a tensor with a `grad_fn` is the result of an
        # EN: operation. `Parameter(t)` gives a new leaf (no grad_fn) even from a non-leaf `t`, so
        # EN: parameters built the usual way pass.
        elif param.grad_fn:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model "
                f"parameters must be created explicitly. To express '{name}' "
                "as a function of another Tensor, compute the value in "
                "the forward() method."
            )
        else:
            # 中: 与缓冲区相同：全局钩子按注册顺序调用，返回非 None 的值替换参数，且不再检查类型。
            # EN: As for buffers: global hooks run in registration order, a non-None return replaces
            # EN: the parameter, and its type is not checked again.
            for hook in _torch_module_py._global_parameter_registration_hooks.values():
                output = hook(self, name, param)
                if output is not None:
                    param = output
            self._parameters[name] = param

    def add_module(self, name: str, module: Optional["Module"]) -> None:
        r"""Add a child module. / 添加一个子模块。

        === "中文"

            把 `module` 以 `name` 登记为子模块（submodule），之后可以用 `self.name` 访问。
            与 `register_buffer` 不同，这里**先**检查值的类型，再检查名字；并且“已存在的属性”
            检查排在点号检查之前——这些顺序决定报错，因此原样保留。
            1.5.1 → 2.13：点号报错里加上了名字；新增全局模块注册钩子。

        === "English"

            Registers `module` as a child under `name`, reachable afterwards as `self.name`.
            Unlike `register_buffer`, the value's type is checked *first*, then the name; and
            the "already exists" check comes before the dot check — the order decides which
            error you get, so it is kept.
            1.5.1 → 2.13: the dot error now includes the name; global module registration hooks were added.

        Args:
            name: Name of the child. / 子模块的名字。
            module: The child module, or `None`. / 子模块，或 `None`。

        Raises:
            TypeError: Not a Module, or name not a string. / 不是 Module，或名字不是字符串。
            KeyError: Clashing, dotted or empty name. / 名字冲突、含点号或为空。
        """
        # 中: 检查顺序与报错文本照抄 torch（与 `register_buffer` 不同：先查值、冲突在点号之前），
        # 中: 同一个错误输入因此得到与 torch 相同的异常。没有“`__init__` 是否已运行”的专门检查：
        # 中: 那时读取 `self._modules` 会抛出普通的 AttributeError。检查的是 `torch.nn.Module`：
        # 中: 我们的 Module 是它的子类，torch 的层也是，所以两边的模块都能成为子模块。
        # EN: The order of checks and the messages copy torch's (unlike `register_buffer`: the value
        # EN: first, the clash before the dot), so a bad input raises what torch raises. There is no
        # EN: dedicated "before `__init__`" check: reading `self._modules` then raises a plain
        # EN: AttributeError. The check is against `torch.nn.Module`: our Module subclasses it and
        # EN: so do torch's layers, so modules of either library become children.
        if not isinstance(module, torch.nn.Module) and module is not None:
            raise TypeError(f"{torch.typename(module)} is not a Module subclass")
        elif not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {torch.typename(name)}")
        # 中: 冲突检查排在点号之前：像 `"a.b"` 这样的名字通常不是已有属性，仍由随后的点号检查拒绝。
        # EN: The clash check comes before the dot check: a name like `"a.b"` is normally not an
        # EN: existing attribute, and the dot check that follows refuses it.
        elif hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        elif "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        elif name == "":
            raise KeyError('module name can\'t be empty string ""')
        # 中: 全局模块注册钩子可以替换子模块；`None`（占位）也会交给钩子，这一点与参数不同。
        # EN: Global module registration hooks may replace the child; `None` (a placeholder) is
        # EN: passed to them too, unlike parameters.
        for hook in _torch_module_py._global_module_registration_hooks.values():
            output = hook(self, name, module)
            if output is not None:
                module = output
        self._modules[name] = module

    def register_module(self, name: str, module: Optional["Module"]) -> None:
        r"""Alias of `add_module`. / `add_module` 的别名。

        === "中文"

            与 [`register_parameter`][annotated_nn.modules.module.Module.register_parameter]、
            [`register_buffer`][annotated_nn.modules.module.Module.register_buffer] 命名一致的别名，
            行为与 [`add_module`][annotated_nn.modules.module.Module.add_module] 完全相同。1.5.1 中没有它。

        === "English"

            An alias named like [`register_parameter`][annotated_nn.modules.module.Module.register_parameter]
            and [`register_buffer`][annotated_nn.modules.module.Module.register_buffer]; it behaves
            exactly as [`add_module`][annotated_nn.modules.module.Module.add_module]. Not in 1.5.1.

        Args:
            name: Name of the child. / 子模块的名字。
            module: The child module, or `None`. / 子模块，或 `None`。
        """
        self.add_module(name, module)

    def get_submodule(self, target: str) -> "Module":
        r"""Return the submodule at a dotted path. / 按点号路径返回子模块。

        === "中文"

            `target` 形如 `"net_b.linear"`，从 `self` 出发逐段 `getattr`。空串返回 `self`。
            每一段都必须存在并且是 `Module`，否则抛出 `AttributeError`，信息指出是哪一段出错。
            复杂度与路径长度成正比，而不是像遍历 `named_modules` 那样与模块总数成正比。

        === "English"

            `target` looks like `"net_b.linear"`; starting from `self`, each atom is fetched with
            `getattr`. The empty string returns `self`. Every atom must exist and be a `Module`,
            else an `AttributeError` names the failing atom. The cost is linear in the path's
            length, not in the number of modules as a `named_modules` scan would be.

        Args:
            target: Dotted path of the submodule. / 子模块的点号路径。

        Returns:
            The submodule. / 子模块。

        Raises:
            AttributeError: A step is missing or is not a Module. / 某一段不存在或不是 Module。
        """
        # 中: 空路径指模块自身：`named_modules()` 给根模块的名字就是 `""`。
        # EN: The empty path is the module itself: `named_modules()` names the root `""`.
        if target == "":
            return self

        atoms: list[str] = target.split(".")
        mod: Module = self

        # 中: 每一段用 getattr 取（先走普通属性查找，再由 `__getattr__` 查三张表），而不是直接查
        # 中: `_modules`，所以返回 Module 的 property 也算数；取到的必须是 Module，参数、`None` 占位
        # 中: 都会以 “is not an nn.Module” 报错。两条报错文本都与 torch 相同。
        # EN: Each atom is fetched with getattr (ordinary lookup first, then `__getattr__` for the
        # EN: three tables), not looked up in `_modules`, so a property returning a Module counts
        # EN: too; the result must be a Module, so a parameter or a `None` placeholder fails with
        # EN: "is not an nn.Module". Both messages are torch's.
        for item in atoms:
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")

            mod = getattr(mod, item)

            if not isinstance(mod, torch.nn.Module):
                raise AttributeError("`" + item + "` is not an nn.Module")

        return mod

    def set_submodule(self, target: str, module: "Module", strict: bool = False) -> None:
        r"""Set the submodule at a dotted path. / 按点号路径设置子模块。

        === "中文"

            先用 [`get_submodule`][annotated_nn.modules.module.Module.get_submodule] 找到父模块，
            再对最后一段 `setattr`。`strict=False` 时最后一段可以是新名字（相当于添加）；
            `strict=True` 时它必须已经存在。若最后一段已存在但不是 Module，报错而不覆盖。
            1.5.1 中没有此方法。

        === "English"

            Finds the parent with [`get_submodule`][annotated_nn.modules.module.Module.get_submodule]
            and `setattr`s the last atom. With `strict=False` the last atom may be new (an
            addition); with `strict=True` it must already exist. If it exists but is not a
            Module, an error is raised instead of overwriting. Not in 1.5.1.

        Args:
            target: Dotted path of the submodule. / 子模块的点号路径。
            module: The module to set. / 要设置的模块。
            strict: Require the last atom to exist. / 是否要求最后一段已存在。

        Raises:
            ValueError: Empty target, or `module` not a Module. / 路径为空，或 `module` 不是 Module。
            AttributeError: A path step is missing or not a Module. / 路径某一段不存在或不是 Module。
        """
        # 中: 与 `get_submodule` 不同，空路径是错误（不能把模块自身换掉）；`module` 不能是 None。
        # 中: 两处都抛 ValueError，文本与 torch 相同。
        # EN: Unlike `get_submodule`, an empty path is an error (a module cannot replace itself),
        # EN: and `module` may not be None. Both raise ValueError with torch's text.
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")

        atoms: list[str] = target.split(".")
        if not isinstance(module, torch.nn.Module):
            raise ValueError("`" + "module" + f"` is not an nn.Module, found {type(module)}")
        # 中: 父模块由除最后一段之外的路径决定；中间缺失的一段会由 `get_submodule` 报错，不会自动创建。
        # EN: The parent is the path minus its last atom; a missing atom on the way makes
        # EN: `get_submodule` raise; nothing is created on the way.
        if len(atoms) == 1:
            parent: Module = self
        else:
            parent_key = ".".join(atoms[:-1])
            parent = self.get_submodule(parent_key)

        # 中: 最后一段：`strict` 时必须已存在；已存在的非 Module 属性（参数、普通属性）不会被覆盖。
        # 中: 最终用 setattr，于是走 `Module.__setattr__`，全局模块注册钩子照常生效。
        # EN: The last atom: with `strict` it must exist; an existing attribute that is not a Module
        # EN: (a parameter, a plain attribute) is never overwritten. The final setattr goes through
        # EN: `Module.__setattr__`, so global module registration hooks run as usual.
        if strict and not hasattr(parent, atoms[-1]):
            raise AttributeError(parent._get_name() + " has no attribute `" + atoms[-1] + "`")
        if hasattr(parent, atoms[-1]):
            mod = getattr(parent, atoms[-1])
            if not isinstance(mod, torch.nn.Module):
                raise AttributeError("`" + atoms[-1] + "` is not an nn.Module")
        setattr(parent, atoms[-1], module)

    def get_parameter(self, target: str) -> Parameter:
        r"""Return the parameter at a dotted path. / 按点号路径返回参数。

        === "中文"

            把 `target` 在最后一个点处拆开：前半段交给 `get_submodule`，后半段必须是该模块上的
            `Parameter`。1.5.1 中没有此方法。

        === "English"

            Splits `target` at its last dot: the head goes to `get_submodule`, the tail must be
            a `Parameter` on that module. Not in 1.5.1.

        Args:
            target: Dotted path, e.g. `"net_b.linear.weight"`. / 点号路径，如 `"net_b.linear.weight"`。

        Returns:
            The parameter. / 参数。

        Raises:
            AttributeError: Missing, or not a Parameter. / 不存在或不是 Parameter。
        """
        # 中: rpartition 在最后一个点处拆开；没有点时前半段是 `""`，`get_submodule("")` 返回自身。
        # 中: 之后的判断看类型（是不是 Parameter），而 `get_buffer` 看的是 `_buffers` 登记。
        # EN: rpartition splits at the last dot; without a dot the head is `""`, and
        # EN: `get_submodule("")` returns self. The test then is by type (a Parameter), whereas
        # EN: `get_buffer` tests registration in `_buffers`.
        module_path, _, param_name = target.rpartition(".")

        mod: Module = self.get_submodule(module_path)

        if not hasattr(mod, param_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + param_name + "`")

        param: Parameter = getattr(mod, param_name)

        if not isinstance(param, Parameter):
            raise AttributeError("`" + param_name + "` is not an nn.Parameter")

        return param

    def get_buffer(self, target: str) -> Tensor:
        r"""Return the buffer at a dotted path. / 按点号路径返回缓冲区。

        === "中文"

            与 [`get_parameter`][annotated_nn.modules.module.Module.get_parameter] 相同的拆分方式；
            最后一段必须登记在该模块的 `_buffers` 里（仅仅是张量属性不算）。1.5.1 中没有此方法。

        === "English"

            Splits the path like [`get_parameter`][annotated_nn.modules.module.Module.get_parameter];
            the last atom must be registered in that module's `_buffers` (a plain tensor
            attribute does not count). Not in 1.5.1.

        Args:
            target: Dotted path of the buffer. / 缓冲区的点号路径。

        Returns:
            The buffer. / 缓冲区。

        Raises:
            AttributeError: Missing, or not a buffer. / 不存在或不是缓冲区。
        """
        module_path, _, buffer_name = target.rpartition(".")

        mod: Module = self.get_submodule(module_path)

        if not hasattr(mod, buffer_name):
            raise AttributeError(mod._get_name() + " has no attribute `" + buffer_name + "`")

        # 中: 先取值再查登记（顺序同 torch）：张量类型不够，名字必须在 `_buffers` 里，
        # 中: 所以普通的张量属性会以 “is not a buffer” 报错。
        # EN: Fetch first, then check registration (torch's order): being a tensor is not enough,
        # EN: the name must be in `_buffers`, so a plain tensor attribute fails with "is not a
        # EN: buffer".
        buffer: torch.Tensor = getattr(mod, buffer_name)

        if buffer_name not in mod._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")

        return buffer

    def get_extra_state(self) -> Any:
        r"""Return extra state to put in the state dict (override it). / 返回要放进状态字典的额外状态（需覆盖）。

        === "中文"

            模块若有不是参数或缓冲区、却需要保存的状态，就覆盖这个方法与
            [`set_extra_state`][annotated_nn.modules.module.Module.set_extra_state]；
            `state_dict` 会把返回值存到键 `prefix + "_extra_state"`。基类实现永远不会被调用：
            `state_dict` 先检查子类是否覆盖了它。1.5.1 中没有此机制。

        === "English"

            A module with state that is neither a parameter nor a buffer but must be saved
            overrides this and [`set_extra_state`][annotated_nn.modules.module.Module.set_extra_state];
            `state_dict` stores the return value under `prefix + "_extra_state"`. The base
            implementation is never reached: `state_dict` first checks whether the subclass
            overrides it. Not in 1.5.1.

        Returns:
            Any picklable object. / 任意可序列化对象。

        Raises:
            RuntimeError: Always, in the base class. / 基类中总是抛出。
        """
        raise RuntimeError(
            "Reached a code path in Module.get_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug."
        )

    def set_extra_state(self, state: Any) -> None:
        r"""Restore the extra state from the state dict (override it). / 从状态字典恢复额外状态（需覆盖）。

        === "中文"

            与 [`get_extra_state`][annotated_nn.modules.module.Module.get_extra_state] 配对，
            在 `load_state_dict` 找到 `_extra_state` 键时调用。基类实现同样永远不会被调用。

        === "English"

            The partner of [`get_extra_state`][annotated_nn.modules.module.Module.get_extra_state],
            called when `load_state_dict` finds the `_extra_state` key. The base implementation
            is never reached either.

        Args:
            state: What `get_extra_state` returned. / `get_extra_state` 的返回值。

        Raises:
            RuntimeError: Always, in the base class. / 基类中总是抛出。
        """
        raise RuntimeError(
            "Reached a code path in Module.set_extra_state() that should never be called. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
            "to report this bug."
        )

    def _apply(self, fn, recurse=True):
        r"""Apply `fn` to every parameter, gradient and buffer. / 对每个参数、梯度和缓冲区应用 `fn`。

        === "中文"

            `to`、`cuda`、`cpu`、`float`、`half`、`to_empty`、`share_memory` 全都建立在它之上：
            它们只是提供不同的 `fn`。先递归处理子模块，再处理自己的参数与缓冲区。

            参数的更新有三条路，取决于两个 `torch.__future__` 开关（代码注释用同样的编号标出）：

            1. **交换（swap）**：`get_swap_module_params_on_conversion()` 为真，或新张量是可追踪的
               包装子类，或原参数是 FakeTensor 时，用 `torch.utils.swap_tensors` 交换两个张量
               对象的全部内容——参数对象的身份不变，别处（优化器）持有的引用依然有效。
            2. **就地设置 `.data`**：两个张量“浅拷贝类型兼容”（都是稠密张量——CPU、CUDA 等稠密
               后端之间也算兼容——或都是稀疏张量等；`meta` 张量不算稠密）且
               `get_overwrite_module_params_on_conversion()` 为假（默认）时，`param.data = new`。
            3. **覆盖**：其余情况新建一个 `Parameter` 放进 `_parameters`，旧对象被替换。

            梯度 `.grad` 走同样的三条路：参数被交换时梯度也交换，否则对梯度单独判断能否设置 `.data`。
            缓冲区总是直接替换为 `fn(buf)`。
            1.5.1 → 2.13：新增 `recurse` 参数、swap 路径（以及失败时恢复 `.grad` 并报错），
            以及对 FakeTensor 与张量子类的处理。

        === "English"

            `to`, `cuda`, `cpu`, `float`, `half`, `to_empty` and `share_memory` are all built on
            it: each only supplies a different `fn`. Children are processed first (recursively),
            then this module's own parameters and buffers.

            A parameter is updated along one of three paths, chosen by two `torch.__future__` flags
            (the code notes carry the same numbers):

            1. **swap**: when `get_swap_module_params_on_conversion()` is true, or the new tensor
               is a traceable wrapper subclass, or the old one is a FakeTensor,
               `torch.utils.swap_tensors` swaps the whole contents of the two tensor objects —
               the parameter object keeps its identity, so references held elsewhere (by an
               optimizer) stay valid.
            2. **set `.data` in place**: when both tensors have compatible shallow-copy types
               (both dense — CPU, CUDA and the other dense backends are compatible with each
               other — or both sparse, ...; a `meta` tensor is not dense) and
               `get_overwrite_module_params_on_conversion()` is false (the default),
               `param.data = new`.
            3. **overwrite**: otherwise a new `Parameter` replaces the old object in `_parameters`.

            The gradient `.grad` takes the same three paths: swapped when the parameter was,
            otherwise with its own test of whether `.data` can be set. Buffers are always
            replaced by `fn(buf)`.
            1.5.1 → 2.13: the `recurse` argument, the swap path (restoring `.grad` and raising
            on failure), and the handling of FakeTensor and tensor subclasses were added.

        Note: Note [Optimizers and _apply] 优化器与 _apply
            === "中文"

                优化器保存的是构建时拿到的参数对象。在它之后调用 `.to()` / `.cuda()` / `.double()`，
                它还能不能训练这个模型，取决于 `_apply` 对每个参数走哪条路：

                - 设置 `.data`（默认；CPU 上的 `.to(torch.float64)`、从 CPU 到 CUDA 的 `.cuda()`
                  都是稠密到稠密）：`p is model.weight` 仍然成立，优化器照常训练模型。
                - 覆盖（打开 `set_overwrite_module_params_on_conversion(True)`，或实现种类改变，
                  如 `.to("meta")`）：模块里换成了新的 `Parameter`，`p is model.weight` 为 False，
                  `step()` 只更新那个孤儿对象，模型悄无声息地不再学习。
                - 交换（`set_swap_module_params_on_conversion(True)`，优先于前两条）：即使
                  `.to("meta")`，`p is model.weight` 也成立；但对象的类与 `__dict__` 也被交换，
                  参数上的自定义属性会丢失。

                无论哪条路，优化器自己的状态都不会被转换：已经走过一步的 `Adam` 在
                `.to(torch.float64)` 之后仍持有 float32 的动量，下一次 `step()` 抛出 `RuntimeError`；
                `opt.load_state_dict(opt.state_dict())` 会把状态转换成参数的 dtype 与设备。
                稳妥的顺序：先转换模型，再构建优化器。

            === "English"

                An optimizer keeps the parameter objects it was built with. Whether it still
                trains the model after `.to()` / `.cuda()` / `.double()` depends on the path
                `_apply` takes for each parameter:

                - set `.data` (the default; `.to(torch.float64)` on CPU and `.cuda()` from CPU
                  are both dense to dense): `p is model.weight` still holds and the optimizer
                  trains the model as before.
                - overwrite (`set_overwrite_module_params_on_conversion(True)`, or a change of
                  implementation kind such as `.to("meta")`): a new `Parameter` enters the
                  module, `p is model.weight` is False, and `step()` updates only the orphan: the
                  model silently stops learning.
                - swap (`set_swap_module_params_on_conversion(True)`, which wins over both):
                  `p is model.weight` holds even for `.to("meta")`; but the object's class and
                  `__dict__` are swapped too, so custom attributes on the parameter are lost.

                On every path the optimizer's own state is left unconverted: an `Adam` that has
                already stepped keeps float32 moments after `.to(torch.float64)`, and its next
                `step()` raises a `RuntimeError`; `opt.load_state_dict(opt.state_dict())` casts
                the state to the parameters' dtype and device. The safe order: convert the
                model first, build the optimizer after.

        Args:
            fn: Function applied to each tensor. / 作用于每个张量的函数。
            recurse: Also apply to submodules. / 是否递归处理子模块。

        Returns:
            self. / 自身。

        Raises:
            RuntimeError: A swap failed. / 交换失败。
        """
        # 中: 后序：先让每个直接子模块（以默认的 recurse=True）处理整棵子树，再处理自己的张量。
        # 中: 没有回滚：`fn` 中途抛出异常时，已经转换的子模块和张量保持转换后的状态。
        # EN: Post-order: each child (with the default recurse=True) handles its whole subtree
        # EN: first, then this module's own tensors. There is no rollback: if `fn` raises halfway,
        # EN: the children and tensors already converted stay converted.
        if recurse:
            for module in self.children():
                module._apply(fn)

        def compute_should_use_set_data(tensor, tensor_applied) -> bool:
            r"""Decide between "set .data" and "overwrite". / 决定用“设置 .data”还是“覆盖”。

            === "中文"

                只有当新旧张量的实现类型允许浅拷贝（例如都是稠密 CPU 张量）且不是 FakeTensor 时，
                才可能就地设置 `.data`；此时再看“转换时覆盖参数”开关，开关为假（默认）才就地设置。

            === "English"

                Setting `.data` in place is only possible when the two tensors' implementation
                types allow a shallow copy (both dense CPU tensors, say) and the new one is not a
                FakeTensor; then the "overwrite on conversion" flag decides: in place while it is
                false (the default).

            Args:
                tensor: The existing tensor. / 原张量。
                tensor_applied: The result of `fn`. / `fn` 的结果。

            Returns:
                Whether to set `.data`. / 是否设置 `.data`。
            """
            # 中: “浅拷贝类型兼容”比较的是张量实现的种类，不是设备：CPU 与 CUDA 的稠密张量兼容，
            # 中: 稠密与 meta、稠密与稀疏不兼容（后两种情况只能走覆盖或交换）。
            # EN: "Compatible shallow-copy type" compares the kind of tensor implementation, not the
            # EN: device: dense CPU and dense CUDA tensors are compatible; dense and meta, or dense
            # EN: and sparse, are not (those cases can only overwrite or swap).
            if torch._has_compatible_shallow_copy_type(tensor, tensor_applied) and not isinstance(
                tensor_applied, FakeTensor
            ):
                # 中: 开关的默认值为 False，即默认就地修改，保持参数对象的身份。
                # EN: The flag defaults to False: by default the update is in place and the
                # EN: parameter object keeps its identity.
                return not torch.__future__.get_overwrite_module_params_on_conversion()
            else:
                return False

        # 中: 交换开关在整个调用开始时读一次，对本模块的所有参数一致。
        # EN: The swap flag is read once per call, the same for every parameter of this module.
        should_use_swap_tensors = torch.__future__.get_swap_module_params_on_conversion()
        # DIFF(torch 2.13):
        # 中: 整个调用共用一个 no_grad 对象：它只在进入时记下梯度开关、退出时恢复，可以依次重复进入；
        # 中: torch 为每个张量新建一个，多出的对象构造比一次无事可做的转换（如对 float32 张量调用
        # 中: `float()`）还贵。行为不变。
        # EN: One no_grad object for the whole call: it only saves the grad mode on entry and
        # EN: restores it on exit, so it can be entered again and again. torch builds a new one per
        # EN: tensor, an object construction that costs more than a conversion with nothing to do
        # EN: (`float()` on a float32 tensor, say). Behavior is unchanged.
        no_grad = torch.no_grad()

        # 中: `None` 占位的参数没有张量可转换，原样保留。
        # EN: A `None` placeholder has no tensor to convert and stays as it is.
        for key, param in self._parameters.items():
            if param is None:
                continue
            # 中: 在 no_grad 下计算新张量，避免这次转换被记进计算图（参数是叶子，
            # 中: 否则 fn(param) 会带 grad_fn）。`fn` 无事可做时（如移到参数已在的设备）`Tensor.to`
            # 中: 返回原张量本身，后面的 `.data` 赋值也几乎不花时间。
            # EN: Compute the new tensor under no_grad so the conversion is not recorded
            # EN: (parameters are leaves; otherwise fn(param) would get a grad_fn). When `fn` has
            # EN: nothing to do (moving to the device the parameter is on), `Tensor.to` returns the
            # EN: tensor itself, and the `.data` assignment below costs next to nothing.
            with no_grad:
                param_applied = fn(param)
            p_should_use_set_data = compute_should_use_set_data(param, param_applied)

            # 中: 选路：交换优先于设置 `.data`。可追踪的包装子类（如 DTensor）内部可能有多个张量，
            # 中: torch 的注释说明它们因此必须交换；原参数是 FakeTensor 时同样交换。
            # EN: Choosing the path: swap beats setting `.data`. A traceable wrapper subclass
            # EN: (DTensor, say) may hold several inner tensors, which torch's comment gives as the
            # EN: reason it must be swapped; an old parameter that is a FakeTensor is swapped too.
            p_should_use_swap_tensors = (
                should_use_swap_tensors
                or is_traceable_wrapper_subclass(param_applied)
                or isinstance(param, FakeTensor)
            )

            param_grad = param.grad
            if p_should_use_swap_tensors:
                # 中: 第 1 条路（交换）：先把 `fn` 的结果包成 `Parameter`，再与原参数交换 `__class__`、
                # 中: `__dict__` 和底层张量。Python 对象还是原来那个，所以此前建好的优化器仍然指向模型里
                # 中: 的参数；但原对象上的自定义属性和子类类型会被换掉（得到的是一个普通 `Parameter`）。
                # EN: Path 1 (swap): wrap `fn`'s result in a `Parameter`, then swap `__class__`,
                # EN: `__dict__` and the underlying tensor with the old parameter. The Python object
                # EN: is the same, so an optimizer built earlier still points at the model's
                # EN: parameter; but custom attributes and the subclass of the old object are
                # EN: swapped away (it becomes a plain `Parameter`).
                try:
                    # 中: 先摘下 `.grad`：它还挂在参数上时，梯度张量有两个引用，下面对梯度本身的交换会
                    # 中: 失败；失败时再装回去，让参数保持原样。
                    # EN: Take `.grad` off first: while the parameter still holds it, the gradient
                    # EN: tensor has two references and the swap of the gradient below would fail;
                    # EN: on failure it is put back so the parameter is left as it was.
                    if param_grad is not None:
                        param.grad = None
                    param_applied = Parameter(param_applied, requires_grad=param.requires_grad)
                    torch.utils.swap_tensors(param, param_applied)
                # 中: 交换失败（例如有人持有参数的弱引用）时，用 torch 的报错文本说明是哪个参数，原因链在后。
                # EN: When the swap fails (someone holds a weak reference to the parameter, say),
                # EN: torch's message names the parameter, with the cause chained.
                except Exception as e:
                    if param_grad is not None:
                        param.grad = param_grad
                    raise RuntimeError(f"_apply(): Couldn't swap {self._get_name()}.{key}") from e
                out_param = param
            elif p_should_use_set_data:
                # 中: 第 2 条路（就地设置 `.data`，默认）：参数对象不变，只是换了底层张量，
                # 中: 子类类型与自定义属性都保留。所以先建优化器、再 `.to()` 依然有效——但优化器自己的
                # 中: 状态（如 Adam 的动量）不归模块管，`to()` 不会移动它。
                # EN: Path 2 (set `.data` in place, the default): the parameter object stays, only
                # EN: its underlying tensor changes; its subclass and custom attributes are kept. So
                # EN: an optimizer built before `.to()` still works — but the optimizer's own state
                # EN: (Adam's moments, say) is not the module's, and `to()` does not move it.
                param.data = param_applied
                out_param = param
            else:
                # 中: 第 3 条路（覆盖）：新建一个 `Parameter` 放进 `_parameters`。此前建好的优化器仍持有
                # 中: 旧对象，之后它更新的张量已不在模型里，训练会悄无声息地失效；子类与自定义属性也丢失。
                # 中: 打开“覆盖”开关，或转换改变了实现种类（如 `.to("meta")`、从 meta 出来的 `to_empty`）
                # 中: 时走这里（见 Note [Optimizers and _apply]）。两条断言与 torch 相同。
                # EN: Path 3 (overwrite): a new `Parameter` goes into `_parameters`. An optimizer
                # EN: built earlier still holds the old object and from then on updates a tensor
                # EN: that is no longer in the model: training silently stops working. Subclass and
                # EN: custom attributes are lost too. This path is taken with the overwrite flag on,
                # EN: or when the conversion changes the kind of implementation (`.to("meta")`,
                # EN: `to_empty` out of meta; see Note [Optimizers and _apply]). Both assertions
                # EN: are torch's.
                if not isinstance(param, Parameter):
                    raise AssertionError("param must be a Parameter")
                if not param.is_leaf:
                    raise AssertionError("param must be a leaf tensor")
                out_param = Parameter(param_applied, param.requires_grad)
                self._parameters[key] = out_param

            # 中: 梯度同样转换（同样在 no_grad 下），这样 `.grad` 与参数始终在同一设备、同一类型上。
            # 中: 是否交换跟随参数；能否设置 `.data` 则对梯度单独判断。
            # EN: The gradient is converted too (under no_grad as well), so `.grad` stays on the
            # EN: parameter's device and dtype. Whether to swap follows the parameter; whether
            # EN: `.data` can be set is decided for the gradient on its own.
            if param_grad is not None:
                with no_grad:
                    grad_applied = fn(param_grad)
                g_should_use_set_data = compute_should_use_set_data(param_grad, grad_applied)
                if p_should_use_swap_tensors:
                    # 中: 第 1 条路：梯度对象也被交换，保持身份，再挂回参数上。此处失败不会把梯度装回：
                    # 中: 参数已经换好，只是没有梯度。
                    # EN: Path 1: the gradient object is swapped too, keeping its identity, then put
                    # EN: back on the parameter. A failure here does not restore it: the parameter
                    # EN: is already converted and just has no gradient.
                    grad_applied.requires_grad_(param_grad.requires_grad)
                    try:
                        torch.utils.swap_tensors(param_grad, grad_applied)
                    # 中: 报错文本与 torch 相同，以 `.grad` 结尾，与参数本身的交换失败区分开。
                    # EN: torch's message, ending in `.grad` to tell it from a failed parameter
                    # EN: swap.
                    except Exception as e:
                        raise RuntimeError(
                            f"_apply(): Couldn't swap {self._get_name()}.{key}.grad"
                        ) from e
                    out_param.grad = param_grad
                elif g_should_use_set_data:
                    # 中: 第 2 条路：就地替换梯度的 `.data`，`.grad` 仍是原来的对象。断言（与 torch 相同）
                    # 中: 表明这里的 `out_param` 应当是仍挂着梯度的原参数。
                    # EN: Path 2: the gradient's `.data` is replaced in place; `.grad` stays the
                    # EN: same object. The assertion (torch's) states that `out_param` here should
                    # EN: be the old parameter, still holding its gradient.
                    if out_param.grad is None:
                        raise AssertionError("out_param.grad must not be None")
                    out_param.grad.data = grad_applied
                else:
                    # 中: 第 3 条路：新梯度对象挂到 `out_param` 上（沿用原梯度的 requires_grad）；
                    # 中: 参数也被覆盖时，旧参数对象仍挂着旧梯度。
                    # EN: Path 3: a new gradient object goes on `out_param` (keeping the old one's
                    # EN: requires_grad); when the parameter was overwritten too, the old parameter
                    # EN: object still holds the old gradient.
                    if not param_grad.is_leaf:
                        raise AssertionError("param_grad must be a leaf tensor")
                    out_param.grad = grad_applied.requires_grad_(param_grad.requires_grad)

        # 中: 缓冲区没有三条路：总是直接换成 `fn(buf)`（无事可做时就是同一个对象）。它不在 no_grad 下
        # 中: 计算，与 torch 相同；`None` 占位跳过。
        # EN: Buffers have no three paths: always replaced by `fn(buf)` (the same object when there
        # EN: is nothing to do). This is not under no_grad, as in torch; `None` placeholders are
        # EN: skipped.
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)

        return self

    def apply(self, fn: Callable[["Module"], None]) -> Self:
        r"""Call `fn` on every submodule, then on self. / 对每个子模块调用 `fn`，最后对自身调用。

        === "中文"

            后序遍历：先递归进入每个子模块，再调用 `fn(self)`。常用于初始化权重，例如
            `net.apply(init_weights)`。它作用于模块，而 [`_apply`][annotated_nn.modules.module.Module._apply]
            作用于张量。自 1.5.1 起行为不变。

        === "English"

            A post-order walk: recurse into every child first, then call `fn(self)`. Typical
            use is weight initialization, `net.apply(init_weights)`. It works on modules, while
            [`_apply`][annotated_nn.modules.module.Module._apply] works on tensors. Unchanged since 1.5.1.

        Args:
            fn: Function applied to each module. / 作用于每个模块的函数。

        Returns:
            self. / 自身。

        Examples:
            >>> import annotated_nn as nn
            >>> root = nn.Module(); root.child = nn.Module()
            >>> seen = []
            >>> _ = root.apply(lambda m: seen.append(m is root))
            >>> seen
            [False, True]
        """
        # 中: 后序遍历：每个直接子模块递归处理自己的子树，最后才轮到自身；`fn` 的返回值被忽略，
        # 中: 它只能通过修改模块起作用。`None` 占位的子模块不会被 `children()` 产出。
        # EN: Post-order: each child handles its own subtree recursively, self comes last; `fn`'s
        # EN: return value is ignored, it acts only by changing the module. `children()` yields no
        # EN: `None` placeholders.
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def cuda(self, device: int | device | None = None) -> Self:
        r"""Move all parameters and buffers to a GPU. / 把所有参数和缓冲区移到 GPU。

        === "中文"

            等价于 `_apply(lambda t: t.cuda(device))`。它会让参数变成不同的对象吗？默认不会：
            `.data` 就地替换（见 [`_apply`][annotated_nn.modules.module.Module._apply]）；
            不过历来的建议仍是在构建优化器**之前**调用它：优化器已有的状态不会跟着移动
            （见 Note [Optimizers and _apply]）。1.5.1 → 2.13：只增加了类型标注。

        === "English"

            Equivalent to `_apply(lambda t: t.cuda(device))`. Does it make the parameters new
            objects? Not by default: `.data` is replaced in place (see
            [`_apply`][annotated_nn.modules.module.Module._apply]); still, the long-standing
            advice is to call it *before* building the optimizer: the optimizer's existing state
            does not move with it (see Note [Optimizers and _apply]).
            1.5.1 → 2.13: only type hints added.

        Args:
            device: Target GPU index or device. / 目标 GPU 序号或设备。

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.cuda(device))

    def ipu(self, device: int | device | None = None) -> Self:
        r"""Move all parameters and buffers to an IPU. / 把所有参数和缓冲区移到 IPU。

        === "中文"

            Graphcore IPU 版本的 [`cuda`][annotated_nn.modules.module.Module.cuda]，同样就地进行。1.5.1 中没有。

        === "English"

            The Graphcore IPU version of [`cuda`][annotated_nn.modules.module.Module.cuda], in place too. Not in 1.5.1.

        Args:
            device: Target IPU index or device. / 目标 IPU 序号或设备。

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.ipu(device))

    def xpu(self, device: int | device | None = None) -> Self:
        r"""Move all parameters and buffers to an XPU. / 把所有参数和缓冲区移到 XPU。

        === "中文"

            Intel XPU 版本的 [`cuda`][annotated_nn.modules.module.Module.cuda]。1.5.1 中没有。

        === "English"

            The Intel XPU version of [`cuda`][annotated_nn.modules.module.Module.cuda]. Not in 1.5.1.

        Args:
            device: Target XPU index or device. / 目标 XPU 序号或设备。

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.xpu(device))

    def mtia(self, device: int | device | None = None) -> Self:
        r"""Move all parameters and buffers to an MTIA device. / 把所有参数和缓冲区移到 MTIA 设备。

        === "中文"

            Meta 训练推理加速器（MTIA）版本的 [`cuda`][annotated_nn.modules.module.Module.cuda]。1.5.1 中没有。

        === "English"

            The MTIA (Meta Training and Inference Accelerator) version of
            [`cuda`][annotated_nn.modules.module.Module.cuda]. Not in 1.5.1.

        Args:
            device: Target MTIA index or device. / 目标 MTIA 序号或设备。

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.mtia(device))

    def cpu(self) -> Self:
        r"""Move all parameters and buffers to the CPU. / 把所有参数和缓冲区移到 CPU。

        === "中文"

            等价于 `_apply(lambda t: t.cpu())`。自 1.5.1 起行为不变。

        === "English"

            Equivalent to `_apply(lambda t: t.cpu())`. Unchanged since 1.5.1.

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type: dtype | str) -> Self:
        r"""Cast all parameters and buffers to `dst_type`. / 把所有参数和缓冲区转换为 `dst_type`。

        === "中文"

            与 `float()` 等不同，它对**所有**张量生效，包括整数缓冲区（如 `num_batches_tracked`）。
            自 1.5.1 起行为不变。

        === "English"

            Unlike `float()` and friends it converts *every* tensor, integer buffers
            (`num_batches_tracked`) included. Unchanged since 1.5.1.

        Args:
            dst_type: The desired type. / 目标类型。

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.type(dst_type))

    def float(self) -> Self:
        r"""Cast floating-point parameters and buffers to `float32`. / 把浮点参数和缓冲区转换为 `float32`。

        === "中文"

            只转换浮点张量，整数缓冲区保持不变。`double`、`half`、`bfloat16` 同理。自 1.5.1 起不变。

        === "English"

            Only floating-point tensors are converted; integer buffers stay as they are. The same
            holds for `double`, `half` and `bfloat16`. Unchanged since 1.5.1.

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Self:
        r"""Cast floating-point parameters and buffers to `float64`. / 把浮点参数和缓冲区转换为 `float64`。

        === "中文"

            见 [`float`][annotated_nn.modules.module.Module.float]：只转换浮点张量。自 1.5.1 起不变。

        === "English"

            See [`float`][annotated_nn.modules.module.Module.float]: only floating-point tensors change. Unchanged since 1.5.1.

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Self:
        r"""Cast floating-point parameters and buffers to `float16`. / 把浮点参数和缓冲区转换为 `float16`。

        === "中文"

            见 [`float`][annotated_nn.modules.module.Module.float]：只转换浮点张量。自 1.5.1 起不变。

        === "English"

            See [`float`][annotated_nn.modules.module.Module.float]: only floating-point tensors change. Unchanged since 1.5.1.

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self) -> Self:
        r"""Cast floating-point parameters and buffers to `bfloat16`. / 把浮点参数和缓冲区转换为 `bfloat16`。

        === "中文"

            见 [`float`][annotated_nn.modules.module.Module.float]：只转换浮点张量。自 1.5.1 起不变。

        === "English"

            See [`float`][annotated_nn.modules.module.Module.float]: only floating-point tensors change. Unchanged since 1.5.1.

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def to_empty(self, *, device: DeviceLikeType | None, recurse: bool = True) -> Self:
        r"""Move to `device` without copying data. / 移到 `device`，但不复制数据。

        === "中文"

            每个张量被替换为目标设备上形状、类型相同但**未初始化**的张量。典型用法：先在 `meta`
            设备上构建大模型（不占内存），再 `to_empty(device="cuda")` 分配真实存储，最后加载权重或
            重新初始化。`meta` 张量没有数据，`to()` 无法从中复制，所以需要这个方法。1.5.1 中没有。

        === "English"

            Every tensor is replaced by an *uninitialised* one of the same shape and dtype on
            the target device. The typical use: build a large model on the `meta` device (no
            memory), `to_empty(device="cuda")` to allocate real storage, then load weights or
            re-initialize. A `meta` tensor has no data for `to()` to copy, hence this method.
            Not in 1.5.1.

        Args:
            device: Target device. / 目标设备。
            recurse: Also move submodules. / 是否递归处理子模块。

        Returns:
            self. / 自身。
        """
        # 中: 从 meta 移到真实设备时，meta 与稠密张量的实现种类不同，`_apply` 走第 3 条路（覆盖）：
        # 中: 参数变成新对象，所以优化器要在 `to_empty` 之后再建。`recurse=False` 只处理本模块自己的张量。
        # EN: Moving from meta to a real device changes the kind of implementation, so `_apply`
        # EN: takes path 3 (overwrite): the parameters become new objects, and the optimizer must be
        # EN: built after `to_empty`. `recurse=False` handles only this module's own tensors.
        return self._apply(lambda t: torch.empty_like(t, device=device), recurse=recurse)

    @overload
    def to(
        self,
        device: DeviceLikeType | None = ...,
        dtype: dtype | None = ...,
        non_blocking: bool = ...,
    ) -> Self: ...

    @overload
    def to(self, dtype: dtype, non_blocking: bool = ...) -> Self: ...

    @overload
    def to(self, tensor: Tensor, non_blocking: bool = ...) -> Self: ...

    def to(self, *args, **kwargs):
        r"""Move and/or cast parameters and buffers. / 移动和/或转换参数与缓冲区。

        === "中文"

            与 `Tensor.to` 接受同样的参数形式：`to(device, dtype, non_blocking)`、`to(dtype)`、
            `to(tensor)`、`to(memory_format=...)`，由 torch 的 C++ 解析器 `torch._C._nn._parse_to`
            统一解析（我们借用的是“内核”，解析规则与 `Tensor.to` 完全一致）。
            `dtype` 只作用于浮点与复数张量（整数缓冲区只移动设备），且必须是浮点或复数类型；
            `memory_format` 只作用于 4 维或 5 维张量。从 `meta` 设备移出会得到指向
            [`to_empty`][annotated_nn.modules.module.Module.to_empty] 的提示。
            1.5.1 → 2.13：允许复数类型（并给出“新功能”警告），新增对 meta 张量的提示。

        === "English"

            Takes the same argument forms as `Tensor.to`: `to(device, dtype, non_blocking)`,
            `to(dtype)`, `to(tensor)`, `to(memory_format=...)`, parsed by torch's C++ parser
            `torch._C._nn._parse_to` (a borrowed kernel, so the rules are exactly those of
            `Tensor.to`). `dtype` only affects floating-point and complex tensors (integer buffers
            just move) and must itself be floating-point or complex; `memory_format` only affects
            4-D and 5-D tensors. Moving off the `meta` device gives a hint to use
            [`to_empty`][annotated_nn.modules.module.Module.to_empty].
            1.5.1 → 2.13: complex dtypes are allowed (with a "new feature" warning), and the meta
            tensor hint was added.

        Args:
            *args: `device`, `dtype`, `tensor`, `non_blocking` as for `Tensor.to`. / `device`、`dtype`、`tensor`、`non_blocking`，与 `Tensor.to` 相同。
            **kwargs: The same by keyword, plus `memory_format`. / 同上的关键字形式，另有 `memory_format`。

        Returns:
            self. / 自身。

        Raises:
            TypeError: A non-floating, non-complex dtype. / dtype 既不是浮点也不是复数。

        Examples:
            >>> import torch, annotated_nn as nn
            >>> m = nn.Module(); m.w = nn.Parameter(torch.ones(2))
            >>> m.to(torch.float64).w.dtype
            torch.float64
        """
        # 中: 所有调用形式都归一成 4 元组 (device, dtype, non_blocking, memory_format)，没给的项为
        # 中: None/False；`to(tensor)` 取该张量的设备与数据类型。
        # EN: Every call form is normalized to a 4-tuple (device, dtype, non_blocking,
        # EN: memory_format), missing items being None/False; `to(tensor)` takes that tensor's
        # EN: device and dtype.
        device, dtype, non_blocking, convert_to_format = torch._C._nn._parse_to(*args, **kwargs)

        # 中: 在碰任何张量之前先检查 dtype，所以非法的 dtype 不会留下转换了一半的模块。
        # 中: 报错与警告文本都与 torch 相同；警告的 stacklevel=2 指向调用 `to()` 的那一行。
        # EN: The dtype is checked before any tensor is touched, so a bad dtype leaves no
        # EN: half-converted module. Error and warning texts are torch's; the warning's stacklevel=2
        # EN: points at the line that called `to()`.
        if dtype is not None:
            if not (dtype.is_floating_point or dtype.is_complex):
                raise TypeError(
                    "nn.Module.to only accepts floating point or complex "
                    f"dtypes, but got desired dtype={dtype}"
                )
            # 中: 复数类型可以用，但每次调用都先发出一条 UserWarning，然后照常转换。
            # EN: Complex dtypes are allowed, but each call first issues a UserWarning and then
            # EN: converts as usual.
            if dtype.is_complex:
                warnings.warn(
                    "Complex modules are a new feature under active development whose design may change, "
                    "and some modules might not work as expected when using complex tensors as parameters or buffers. "
                    "Please file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
                    "if a complex module does not work as expected.",
                    stacklevel=2,
                )

        def convert(t):
            r"""Move/cast one tensor as `to` was asked. / 按 `to` 的要求移动/转换一个张量。

            === "中文"

                非浮点、非复数张量只改设备不改类型；4/5 维张量额外应用 `memory_format`。
                meta 张量无法复制数据，此时把错误改写成指向 `to_empty()` 的提示。

            === "English"

                Tensors that are neither floating nor complex change device only; 4-D/5-D tensors
                also get `memory_format`. A meta tensor has no data to copy, and that error is
                rewritten into a hint pointing at `to_empty()`.

            Args:
                t: The tensor. / 张量。

            Returns:
                The converted tensor. / 转换后的张量。

            Raises:
                NotImplementedError: Copying out of a meta tensor. / 从 meta 张量复制数据。
            """
            # 中: `memory_format`（如 channels_last）只对 4 维（NCHW）和 5 维（NCDHW）张量有意义，
            # 中: 只有这样的张量才带上它转换。
            # EN: `memory_format` (channels_last, say) only means something for 4-D (NCHW) and 5-D
            # EN: (NCDHW) tensors; only those are converted with it.
            try:
                if convert_to_format is not None and t.dim() in (4, 5):
                    return t.to(
                        device,
                        dtype if t.is_floating_point() or t.is_complex() else None,
                        non_blocking,
                        memory_format=convert_to_format,
                    )
                # 中: 整数与布尔张量（如 `num_batches_tracked`）传 dtype=None，只换设备。
                # EN: Integer and bool tensors (`num_batches_tracked`, say) get dtype=None and only
                # EN: change device.
                return t.to(
                    device,
                    dtype if t.is_floating_point() or t.is_complex() else None,
                    non_blocking,
                )
            # 中: 从 meta 复制数据的报错按完整文本识别，追加指向 `to_empty()` 的提示（文本与 torch 相同，
            # 中: 所以提到的是 torch.nn.Module）；`from None` 隐去原异常。其它 NotImplementedError 原样抛出。
            # EN: The copy-out-of-meta error is recognized by its full text and gets a hint pointing
            # EN: at `to_empty()` (torch's text, hence it names torch.nn.Module); `from None` hides
            # EN: the original exception. Any other NotImplementedError propagates unchanged.
            except NotImplementedError as e:
                if str(e) == "Cannot copy out of meta tensor; no data!":
                    raise NotImplementedError(
                        f"{e} Please use torch.nn.Module.to_empty() instead of torch.nn.Module.to() "
                        f"when moving module from meta to a different device."
                    ) from None
                else:
                    raise

        # 中: 默认开关下，换数据类型或在稠密设备间移动（CPU ↔ CUDA）走 `_apply` 的第 2 条路，参数对象
        # 中: 不变；`.to("meta")` 走第 3 条路，参数变成新对象。
        # EN: With the default flags, a dtype change or a move between dense devices (CPU ↔ CUDA)
        # EN: takes path 2 of `_apply` and the parameter objects stay; `.to("meta")` takes path 3,
        # EN: and the parameters become new objects.
        return self._apply(convert)

    def register_full_backward_pre_hook(
        self,
        hook: Callable[["Module", _grad_t], _grad_t | None],
        prepend: bool = False,
    ) -> RemovableHandle:
        r"""Register a backward pre-hook on this module. / 在本模块上注册反向预钩子。

        === "中文"

            签名 `hook(module, grad_output) -> tuple[Tensor] or None`。每当关于模块输出的梯度
            算出后调用，可返回新的 `grad_output` 代替原值，但不应就地修改参数。非张量的位置是 `None`。
            `prepend=True` 把钩子放在本模块已有反向预钩子的最前面（全局预钩子仍在更前）。
            1.5.1 中没有此方法（2.0 新增）。

        === "English"

            Signature `hook(module, grad_output) -> tuple[Tensor] or None`. Called whenever the
            gradients w.r.t. the module's outputs are computed; it may return a new
            `grad_output` to use instead, but should not modify its arguments in place.
            Non-tensor positions hold `None`. `prepend=True` puts it before this module's other
            backward pre-hooks (global pre-hooks still come first). Not in 1.5.1 (added in 2.0).

        Args:
            hook: The hook. / 钩子。
            prepend: Run before the existing ones. / 是否排在已有钩子之前。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
        """
        # 中: 所有钩子注册都是同一套路：句柄先从进程级计数器取一个新 id，再以它为键放进表里；表的
        # 中: 插入顺序就是调用顺序。句柄只弱引用这张表，`handle.remove()` 按 id 删除。
        # EN: Every hook registration follows one pattern: the handle first takes a fresh id from a
        # EN: process-wide counter, then the hook goes into the table under that key; the table's
        # EN: insertion order is the call order. The handle keeps only a weak reference to the
        # EN: table; `handle.remove()` deletes by id.
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        # 中: `prepend=True`：OrderedDict 的 `move_to_end(last=False)` 把刚插入的键移到最前，
        # 中: 不改动其它钩子的相对顺序。
        # EN: `prepend=True`: OrderedDict's `move_to_end(last=False)` moves the new key to the
        # EN: front, leaving the other hooks' relative order alone.
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)  # type: ignore[attr-defined]
        return handle

    def register_backward_hook(
        self, hook: Callable[["Module", _grad_t, _grad_t], _grad_t | None]
    ) -> RemovableHandle:
        r"""Register a legacy backward hook (deprecated). / 注册旧式反向钩子（已弃用）。

        === "中文"

            旧式钩子在前向结束后挂到输出张量的 `grad_fn` 上。它只在模块恰好是**一个**自动求导节点时
            才拿到正确的 `grad_input`/`grad_output`，否则拿到的是最后一个节点的梯度，所以运行时
            会发出 `FutureWarning`（见 [`_maybe_warn_non_full_backward_hook`][annotated_nn.modules.module.Module._maybe_warn_non_full_backward_hook]）。
            同一模块上不能与完整反向钩子混用。`Linear` 上的具体情形见下面的 Note。
            1.5.1 → 2.13：1.5.1 只有这一种反向钩子；如今已弃用，并禁止与 full 钩子混用。

        === "English"

            The legacy hook is attached to the output's `grad_fn` after forward. It only gets the
            right `grad_input`/`grad_output` when the module is exactly *one* autograd node;
            otherwise it sees the last node's gradients, so a `FutureWarning` is issued at run
            time (see [`_maybe_warn_non_full_backward_hook`][annotated_nn.modules.module.Module._maybe_warn_non_full_backward_hook]).
            It cannot be mixed with full backward hooks on one module. The concrete case of
            `Linear` is in the Note below.
            1.5.1 → 2.13: in 1.5.1 this was the only backward hook; it is now deprecated and
            refuses to mix with full hooks.

        Note: Note [Legacy backward hook on Linear] Linear 上的旧式反向钩子
            === "中文"

                `Linear` 是旧式钩子出错的典型。二维输入、带偏置时，输出的 `grad_fn` 是
                `AddmmBackward0`，它的输入是 `(bias, input, weight.t())`，所以 `grad_input`
                有 3 个张量：偏置的梯度（形状 `(out,)`）、输入的梯度（输入不需要梯度时为
                `None`）、`weight.t()` 的梯度（形状 `(in, out)`，是 `weight.grad` 的转置）。
                三维输入时最后一个节点是 `ViewBackward0`，`grad_input` 只有 1 个形状为
                `(N*L, out)` 的张量，是展平后输出的梯度，根本不是输入的梯度。同一模块上的
                完整反向钩子总是拿到 `(输入的梯度,)`，形状与输入相同。`Linear` 每次记录计算图的
                前向传播都会发出 “the forward contains multiple autograd Nodes” 这条 `FutureWarning`
                （`torch.no_grad()` 下输出没有 `grad_fn`，钩子不挂，也不警告）。

            === "English"

                `Linear` is the textbook case of a wrong legacy hook. For a 2-D input with a
                bias, the output's `grad_fn` is `AddmmBackward0`, whose inputs are
                `(bias, input, weight.t())`, so `grad_input` holds 3 tensors: the bias's
                gradient (shape `(out,)`), the input's (`None` when the input does not require
                grad) and that of `weight.t()` (shape `(in, out)`, the transpose of
                `weight.grad`). For a 3-D input the last node is `ViewBackward0` and `grad_input`
                is 1 tensor of shape `(N*L, out)`, the gradient of the flattened output, not the
                input's at all. A full backward hook on the same module always gets
                `(grad of the input,)`, shaped like the input. Every forward pass of `Linear`
                that records a graph issues the "the forward contains multiple autograd Nodes"
                `FutureWarning` (under `torch.no_grad()` the output has no `grad_fn`: no hook is
                attached and nothing is warned).

        Args:
            hook: The hook. / 钩子。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。

        Raises:
            RuntimeError: A full backward hook is already registered. / 已注册过完整反向钩子。
        """
        # 中: 旧式与 full 钩子共用 `_backward_hooks`，由 `_is_full_backward_hook` 区分；它一经设定就不再
        # 中: 复位，所以注册过 full 钩子的模块（即使已注销）永远拒绝旧式钩子。报错文本与 torch 相同。
        # EN: Legacy and full hooks share `_backward_hooks`, told apart by `_is_full_backward_hook`;
        # EN: once set it is never reset, so a module that ever had a full hook (even one removed
        # EN: since) refuses legacy hooks for good. The message is torch's.
        if self._is_full_backward_hook is True:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a "
                "single Module. Please use only one of them."
            )

        # 中: 标记为旧式后登记；旧式钩子没有 `prepend` 参数，只能追加到末尾。
        # EN: Mark the module legacy, then register; legacy hooks have no `prepend` and are always
        # EN: appended.
        self._is_full_backward_hook = False

        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def register_full_backward_hook(
        self,
        hook: Callable[["Module", _grad_t, _grad_t], _grad_t | None],
        prepend: bool = False,
    ) -> RemovableHandle:
        r"""Register a full backward hook on this module. / 在本模块上注册完整反向钩子。

        === "中文"

            签名 `hook(module, grad_input, grad_output) -> tuple[Tensor] or None`，在关于模块
            **输入**的梯度算出后调用，可返回新的 `grad_input`。实现上，`__call__` 用
            [`BackwardHook`][annotated_nn.utils.hooks.BackwardHook] 把输入和输出各包一层恒等的
            自动求导函数，于是无论模块内部有多少节点，钩子看到的都是完整的梯度。
            但“输入”只指位置参数里的张量：以关键字传入的张量（如 `forward(x, *, y)` 的 `y`）
            照常得到梯度，却不在 `grad_input` 里，钩子也无法替换它；若所有张量都以关键字传入，
            `grad_input` 是 `()`，钩子照样被调用，并伴随一条“no inputs require gradients”的
            `UserWarning`。
            注意：使用 full 钩子时，模块的输入/输出不能被就地修改（会被视图检查拒绝）。
            第一次注册会把 `_is_full_backward_hook` 设为 True，之后不能再注册旧式钩子。1.5.1 中没有。

        === "English"

            Signature `hook(module, grad_input, grad_output) -> tuple[Tensor] or None`, called
            once the gradients w.r.t. the module's *inputs* are computed; it may return a new
            `grad_input`. Under the hood `__call__` wraps inputs and outputs in an identity
            autograd function ([`BackwardHook`][annotated_nn.utils.hooks.BackwardHook]), so the
            hook sees complete gradients however many nodes the module contains.
            But "inputs" means the tensors among the positional arguments only: a tensor passed
            by keyword (`y` of `forward(x, *, y)`) gets its gradient as usual, yet is not in
            `grad_input` and the hook cannot replace it; when every tensor comes by keyword,
            `grad_input` is `()` and the hook is still called, with a "no inputs require
            gradients" `UserWarning`.
            Note: with full hooks, inputs/outputs must not be modified in place (view checks
            refuse it). The first registration sets `_is_full_backward_hook` to True, after
            which legacy hooks are refused. Not in 1.5.1.

        Args:
            hook: The hook. / 钩子。
            prepend: Run before the existing ones. / 是否排在已有钩子之前。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。

        Raises:
            RuntimeError: A legacy backward hook is already registered. / 已注册过旧式反向钩子。
        """
        # 中: 与 `register_backward_hook` 对称：注册过旧式钩子（标记为 False，注销后也不复位）就拒绝。
        # EN: The mirror of `register_backward_hook`: refused once a legacy hook was registered
        # EN: (flag False, not reset by removal).
        if self._is_full_backward_hook is False:
            raise RuntimeError(
                "Cannot use both regular backward hooks and full backward hooks on a "
                "single Module. Please use only one of them."
            )

        # 中: 标记为 full 后登记；`prepend` 同样用 `move_to_end` 实现，只在本模块的表内排到最前，
        # 中: 全局 full 钩子仍先调用。
        # EN: Mark the module full, then register; `prepend` again uses `move_to_end`, putting the
        # EN: hook first within this module's table only; global full hooks are still called first.
        self._is_full_backward_hook = True

        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)  # type: ignore[attr-defined]
        return handle

    def _get_backward_hooks(self):
        r"""Split global and local backward hooks into full and legacy. / 把全局与本地反向钩子分成 full 与旧式两组。

        === "中文"

            全局表与本模块表各有一个“是否 full”的标记，据此把两张表的钩子分别放进两个列表，
            全局的在前。`__call__` 把 full 组交给 `BackwardHook`，旧式组挂到 `grad_fn` 上。

        === "English"

            The global table and this module's table each carry an "is full" flag; the hooks
            of each go to one of two lists accordingly, global ones first. `__call__` hands
            the full list to `BackwardHook` and attaches the legacy list to `grad_fn`.

        Returns:
            `(full_backward_hooks, non_full_backward_hooks)`. / `(full 钩子列表, 旧式钩子列表)`。
        """
        # 中: 全局表与本模块表各自整体归入一组（标记为 None 的表是空的，哪组都不进）；每组里全局的
        # 中: 在前。两个标记彼此独立，所以全局 full 钩子与本模块的旧式钩子可以同时存在。
        # EN: The global table and this module's table each go whole into one list (a table whose
        # EN: flag is None is empty and joins neither); global hooks come first in each list. The
        # EN: two flags are independent, so global full hooks and this module's legacy hooks can
        # EN: coexist.
        full_backward_hooks: list[Callable] = []
        if _torch_module_py._global_is_full_backward_hook is True:
            full_backward_hooks += _torch_module_py._global_backward_hooks.values()
        if self._is_full_backward_hook is True:
            full_backward_hooks += self._backward_hooks.values()

        # 中: 旧式组同理；`_call_impl` 会把它们挂到输出的 `grad_fn` 上，并检查是否需要发出弃用警告。
        # EN: The same for the legacy list; `_call_impl` attaches these to the output's `grad_fn`
        # EN: and checks whether a deprecation warning is due.
        non_full_backward_hooks: list[Callable] = []
        if _torch_module_py._global_is_full_backward_hook is False:
            non_full_backward_hooks += _torch_module_py._global_backward_hooks.values()
        if self._is_full_backward_hook is False:
            non_full_backward_hooks += self._backward_hooks.values()

        return full_backward_hooks, non_full_backward_hooks

    def _get_backward_pre_hooks(self):
        r"""Global then local backward pre-hooks, in order. / 依次返回全局与本地的反向预钩子。

        === "中文"

            全局反向预钩子在前，本模块的在后，这就是它们被调用的顺序。

        === "English"

            Global backward pre-hooks first, then this module's: the order they are called in.

        Returns:
            A list of hooks. / 钩子列表。
        """
        backward_pre_hooks: list[Callable] = []
        backward_pre_hooks += _torch_module_py._global_backward_pre_hooks.values()
        backward_pre_hooks += self._backward_pre_hooks.values()

        return backward_pre_hooks

    def _maybe_warn_non_full_backward_hook(self, inputs, result, grad_fn) -> None:
        r"""Warn when a legacy backward hook will see partial gradients. / 旧式反向钩子将拿到不完整梯度时发出警告。

        === "中文"

            旧式钩子挂在输出的 `grad_fn` 上，只有以下条件都满足时它看到的梯度才正确：输出是张量
            或张量元组、输入也是、所有输出来自同一个 `grad_fn`、并且这个节点的直接输入恰好就是
            模块输入的 `grad_fn`。任一条件不满足就发出一条具体说明原因的 `FutureWarning`。

        === "English"

            A legacy hook sits on the output's `grad_fn`; its gradients are only right when the
            output is a tensor or tuple of tensors, the input likewise, all outputs come from
            one `grad_fn`, and that node's direct inputs are exactly the `grad_fn`s of the
            module's inputs. Whichever condition fails, a `FutureWarning` says which.

        Args:
            inputs: The forward's positional inputs. / 前向的位置参数。
            result: The forward's output. / 前向的输出。
            grad_fn: The node the hooks were attached to. / 挂钩子的节点。
        """
        # 中: 条件 1：输出必须是张量或全是张量的元组（列表、字典等嵌套结构不行）。不满足就警告并返回，
        # 中: 后面的检查无从谈起。警告文本均与 torch 相同。
        # EN: Condition 1: the output must be a tensor or a tuple of tensors only (no list, dict or
        # EN: nesting). Otherwise warn and return: the later checks cannot apply. All warning texts
        # EN: are torch's.
        if not isinstance(result, torch.Tensor):
            if not (isinstance(result, tuple) and all(isinstance(r, torch.Tensor) for r in result)):
                # 中: stacklevel=2 指向 `_call_impl` 里调用本函数的那一行，而不是用户代码。
                # EN: stacklevel=2 points at the line inside `_call_impl` that calls this function,
                # EN: not at user code.
                warnings.warn(
                    "Using non-full backward hooks on a Module that does not return a "
                    "single Tensor or a tuple of Tensors is deprecated and will be removed "
                    "in future versions. This hook will be missing some of the grad_output. "
                    "Please use register_full_backward_hook to get the documented behavior.",
                    FutureWarning,
                    stacklevel=2,
                )
                # 中: 每次调用最多发出一条警告：发出后立即返回。
                # EN: At most one warning per call: return right after it.
                return
        # 中: 单个张量包成 1 元组，以便下面统一处理。
        # EN: A single tensor is wrapped into a 1-tuple for uniform handling below.
        else:
            result = (result,)

        # 中: 条件 2：位置参数同样必须全是张量（`inputs` 是 `args` 元组，所以实际检查的是每个位置参数）。
        # EN: Condition 2: the positional inputs must be tensors too (`inputs` is the `args` tuple,
        # EN: so in practice each positional argument is checked).
        if not isinstance(inputs, torch.Tensor):
            if not (isinstance(inputs, tuple) and all(isinstance(i, torch.Tensor) for i in inputs)):
                # 中: 这条警告说的是缺少部分 grad_input（条件 1 说的是 grad_output）。
                # EN: This warning is about missing grad_input (condition 1's is about grad_output).
                warnings.warn(
                    "Using non-full backward hooks on a Module that does not take as input a "
                    "single Tensor or a tuple of Tensors is deprecated and will be removed "
                    "in future versions. This hook will be missing some of the grad_input. "
                    "Please use register_full_backward_hook to get the documented behavior.",
                    FutureWarning,
                    stacklevel=2,
                )
                # 中: 与条件 1 相同：发出一条警告后立即返回。
                # EN: As for condition 1: one warning, then return at once.
                return
        # 中: 同样把单个张量包成 1 元组；此后输出与输入都是张量元组。
        # EN: Again a single tensor becomes a 1-tuple; from here on outputs and inputs are tuples
        # EN: of tensors.
        else:
            inputs = (inputs,)

        # 中: 条件 3：所有输出都应来自同一个节点，并且钩子挂在这个节点上。
        # EN: Condition 3: all outputs should come from one node, and the hooks must sit on that
        # EN: node.
        out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
        if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
            # 中: 没有任何输出带 grad_fn，或唯一的节点不是挂钩子的那个：torch 用“输出嵌套在 Python
            # 中: 数据结构里”这条文本警告。
            # EN: No output has a grad_fn, or the single node is not the one holding the hooks:
            # EN: torch warns with its "outputs are nested in python data structure" text.
            warnings.warn(
                "Using a non-full backward hook when outputs are nested in python data structure "
                "is deprecated and will be removed in future versions. This hook will be missing "
                "some grad_output.",
                FutureWarning,
                stacklevel=2,
            )
        elif len(out_grad_fn) > 1:
            # 中: 输出来自多个节点：钩子只挂在其中一个上，其余输出的梯度它看不到。
            # EN: Outputs from several nodes: the hooks sit on one of them and miss the other
            # EN: outputs' gradients.
            warnings.warn(
                "Using a non-full backward hook when outputs are generated by different autograd Nodes "
                "is deprecated and will be removed in future versions. This hook will be missing "
                "some grad_output. Please use register_full_backward_hook to get the documented behavior.",
                FutureWarning,
                stacklevel=2,
            )
        else:
            # 中: 条件 4：节点的直接上游必须正好是输入的 grad_fn，否则模块内部不止一个节点。
            # 中: 注意叶子输入的 grad_fn 是 None，而节点上游对应的是它的 AccumulateGrad，两边集合不等：
            # 中: 输入是需要梯度的叶子时，即使 ReLU 这样只有一个节点的模块也会收到这条警告（torch 亦然）。
            # EN: Condition 4: the node's direct inputs must be exactly the inputs' grad_fns;
            # EN: otherwise the module holds more than one node. Note that a leaf input's grad_fn is
            # EN: None while the node's upstream holds its AccumulateGrad, so the sets differ: with
            # EN: a leaf input that requires grad, even a one-node module such as ReLU gets this
            # EN: warning (torch too).
            inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}

            # 中: `next_functions` 的元素是 (节点, 输入序号) 对，只取节点，按集合比较。
            # EN: `next_functions` holds (node, input number) pairs; only the nodes are taken and
            # EN: compared as sets.
            next_functions = {n[0] for n in grad_fn.next_functions}

            if inputs_grad_fn != next_functions:
                # 中: 与条件 2 一样，这条警告说的是缺少部分 grad_input；条件 1、3 说的是 grad_output。
                # EN: Like condition 2's, this warning is about missing grad_input; conditions 1
                # EN: and 3 are about grad_output.
                warnings.warn(
                    "Using a non-full backward hook when the forward contains multiple autograd Nodes "
                    "is deprecated and will be removed in future versions. This hook will be missing "
                    "some grad_input. Please use register_full_backward_hook to get the documented "
                    "behavior.",
                    FutureWarning,
                    stacklevel=2,
                )

    def register_forward_pre_hook(
        self,
        hook: Callable[[T, tuple[Any, ...]], Any | None]
        | Callable[[T, tuple[Any, ...], dict[str, Any]], tuple[Any, dict[str, Any]] | None],
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
    ) -> RemovableHandle:
        r"""Register a hook run before `forward`. / 注册在 `forward` 之前运行的钩子。

        === "中文"

            默认签名 `hook(module, args) -> None or modified input`：`args` 只含位置参数
            （关键字参数不传给钩子）；返回单个值时会被包成 1 元组。`with_kwargs=True` 时签名为
            `hook(module, args, kwargs) -> None or (new_args, new_kwargs)`，返回值必须是 2 元组。
            `prepend=True` 使它排在本模块已有前向预钩子之前（全局预钩子永远更早）。
            1.5.1 → 2.13：新增 `prepend` 与 `with_kwargs`（均为仅限关键字参数）。

        === "English"

            By default the signature is `hook(module, args) -> None or modified input`: `args`
            holds the positional arguments only (keyword arguments are not passed); a single
            returned value is wrapped into a 1-tuple. With `with_kwargs=True` the signature is
            `hook(module, args, kwargs) -> None or (new_args, new_kwargs)` and a return value
            must be a 2-tuple. `prepend=True` puts it before this module's other forward
            pre-hooks (global pre-hooks always come earlier).
            1.5.1 → 2.13: `prepend` and `with_kwargs` (keyword-only) were added.

        Args:
            hook: The pre-hook. / 前向预钩子。
            prepend: Run before the existing ones. / 是否排在已有钩子之前。
            with_kwargs: Also pass and accept kwargs. / 是否同时传入并接受关键字参数。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。

        Examples:
            >>> import torch, annotated_nn as nn
            >>> class Double(nn.Module):
            ...     def forward(self, x):
            ...         return 2 * x
            >>> m = Double()
            >>> h = m.register_forward_pre_hook(lambda mod, args: args[0] + 1)
            >>> m(torch.tensor(1.0))
            tensor(4.)
            >>> h.remove()
        """
        # 中: `with_kwargs` 不存进钩子本身，而是记在按 id 索引的标记表里；`_call_impl` 调用时用
        # 中: `hook_id in ...` 查它决定调用签名。把标记表作为 `extra_dict` 交给句柄，`remove()` 时标记
        # 中: 随钩子一起删掉，表之间不会残留。
        # EN: `with_kwargs` is not stored on the hook but in a marker table keyed by id; at call
        # EN: time `_call_impl` checks `hook_id in ...` to pick the call signature. Passing the
        # EN: marker table to the handle as `extra_dict` makes `remove()` delete the marker with the
        # EN: hook, so no leftover stays behind.
        handle = RemovableHandle(
            self._forward_pre_hooks, extra_dict=self._forward_pre_hooks_with_kwargs
        )
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True

        # 中: 只移动主表里的键：标记表只用来查成员，顺序无关紧要。
        # EN: Only the main table's key moves: marker tables are only tested for membership, their
        # EN: order does not matter.
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)  # type: ignore[attr-defined]
        return handle

    def register_forward_hook(
        self,
        hook: Callable[[T, tuple[Any, ...], Any], Any | None]
        | Callable[[T, tuple[Any, ...], dict[str, Any], Any], Any | None],
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ) -> RemovableHandle:
        r"""Register a hook run after `forward`. / 注册在 `forward` 之后运行的钩子。

        === "中文"

            默认签名 `hook(module, args, output) -> None or modified output`；`with_kwargs=True`
            时为 `hook(module, args, kwargs, output)`。返回非 `None` 的值会替换输出，并传给下一个钩子。
            钩子看到的 `args` 是前向预钩子修改之后的版本。`always_call=True` 时即使 `forward`
            抛出异常也会调用它（此时 `output` 为 `None`，钩子自身的异常会被降级为警告）。
            `prepend=True` 使它排在本模块已有前向钩子之前。
            1.5.1 → 2.13：新增 `prepend`、`with_kwargs`、`always_call`。

        === "English"

            By default the signature is `hook(module, args, output) -> None or modified output`;
            with `with_kwargs=True` it is `hook(module, args, kwargs, output)`. A non-`None`
            return replaces the output and is what the next hook sees. The `args` a hook sees are
            those after the forward pre-hooks. With `always_call=True` it runs even when
            `forward` raises (then `output` is `None`, and an exception from the hook itself is
            turned into a warning). `prepend=True` puts it before this module's other forward hooks.
            1.5.1 → 2.13: `prepend`, `with_kwargs` and `always_call` were added.

        Args:
            hook: The forward hook. / 前向钩子。
            prepend: Run before the existing ones. / 是否排在已有钩子之前。
            with_kwargs: Also pass kwargs. / 是否同时传入关键字参数。
            always_call: Run even if forward raises. / forward 抛异常时也调用。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
        """
        # 中: 两张标记表（with_kwargs、always_call）以列表形式交给 `extra_dict`，注销时一并清理。
        # 中: 与全局版本不同，这里两张表都交给了句柄，不会留下残留条目。
        # EN: Both marker tables (with_kwargs, always_call) go to `extra_dict` as a list and are
        # EN: cleaned on removal. Unlike the global version, both are given to the handle here, so
        # EN: no entry is left behind.
        handle = RemovableHandle(
            self._forward_hooks,
            extra_dict=[
                self._forward_hooks_with_kwargs,
                self._forward_hooks_always_called,
            ],
        )
        # 中: 标记只在需要时写入：不在标记表里就表示 False。always_call 标记让 `_call_impl` 在
        # 中: forward 抛出异常时仍调用这个钩子。
        # EN: Markers are written only when asked for: absence from a marker table means False. The
        # EN: always_call marker makes `_call_impl` still call this hook when forward raises.
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        # 中: 与预钩子相同，`prepend` 只移动主表里的键，标记表的顺序无关紧要。
        # EN: As for pre-hooks, `prepend` moves only the main table's key; marker order is
        # EN: irrelevant.
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)  # type: ignore[attr-defined]
        return handle

    def _slow_forward(self, *input, **kwargs):
        r"""Call `forward` while the JIT tracer is recording. / 在 JIT 追踪器记录时调用 `forward`。

        === "中文"

            只在 `torch.jit.trace` 正在追踪时由 `_call_impl` 选用：它在调用 `forward` 前后
            压入/弹出以模块名命名的作用域，使追踪出的图带有层次化的名字。没有追踪时等同于直接调用
            `forward`。自 1.5.1 起基本不变。

        === "English"

            Chosen by `_call_impl` only while `torch.jit.trace` is tracing: it pushes and pops a
            scope named after the module around `forward`, so the traced graph gets
            hierarchical names. Without tracing it is a plain `forward` call. Essentially
            unchanged since 1.5.1.

        Args:
            *input: Positional arguments of forward. / forward 的位置参数。
            **kwargs: Keyword arguments of forward. / forward 的关键字参数。

        Returns:
            The output of forward. / forward 的输出。
        """
        # 中: 再查一次追踪状态：不在追踪中，或 forward 已是 TorchScript 编译的方法（ScriptMethod）时，
        # 中: 直接调用，不压作用域。
        # EN: Check the tracing state again: when not tracing, or when forward is a compiled
        # EN: TorchScript method (ScriptMethod), call it directly without a scope.
        tracing_state = torch._C._get_tracing_state()
        if not tracing_state or isinstance(self.forward, torch._C.ScriptMethod):
            return self.forward(*input, **kwargs)
        # 中: 映射表只在 `torch.jit.trace_module`（追踪 torch.nn.Module 时由 `torch.jit.trace` 调用）
        # 中: 运行期间存在，把被追踪模块的每个子模块映射到 `__module.xxx` 这样的限定名；追踪普通函数时为 None。
        # EN: The map exists only while `torch.jit.trace_module` runs (which `torch.jit.trace` calls
        # EN: for a torch.nn.Module); it maps each submodule of the traced module to a qualified
        # EN: name such as `__module.xxx`. Tracing a plain function leaves it None.
        recording_scopes = torch.jit._trace._trace_module_map is not None
        if recording_scopes:
            # 中: 只有被追踪的模块才在映射表里有名字；没有名字就不记录作用域。annotated_nn 的模块不是
            # 中: torch.nn.Module 的子模块（torch 的 `add_module` 拒绝它们），所以通常在表里没有名字。
            # EN: Only traced modules have a name in the map; without one, no scope is recorded.
            # EN: annotated_nn modules are not children of a torch.nn.Module (torch's `add_module`
            # EN: refuses them), so they usually have no name there.
            name = torch.jit._trace._trace_module_map.get(self, None)
            if name:
                tracing_state.push_scope(name)
            else:
                recording_scopes = False
        # 中: finally 保证 forward 抛出异常时作用域也会弹出，追踪器的作用域栈不会错位。
        # EN: finally pops the scope even when forward raises, so the tracer's scope stack stays
        # EN: balanced.
        try:
            result = self.forward(*input, **kwargs)
        finally:
            if recording_scopes:
                tracing_state.pop_scope()
        return result

    def _wrapped_call_impl(self, *args, **kwargs):
        r"""What `module(...)` runs: compiled or plain `_call_impl`. / `module(...)` 实际执行的函数：编译版或普通版 `_call_impl`。

        === "中文"

            `__call__` 就是这个函数。若调用过 [`compile`][annotated_nn.modules.module.Module.compile]，
            走编译后的 `_call_impl`；否则走普通的 [`_call_impl`][annotated_nn.modules.module.Module._call_impl]。
            多这一层是为了让 `compile()` 替换的是“调用过程”而不是模块对象本身。

        === "English"

            `__call__` is this function. After [`compile`][annotated_nn.modules.module.Module.compile]
            it runs the compiled `_call_impl`; otherwise the plain
            [`_call_impl`][annotated_nn.modules.module.Module._call_impl]. The extra layer lets
            `compile()` replace the calling procedure instead of the module object.

        Args:
            *args: Positional arguments of forward. / forward 的位置参数。
            **kwargs: Keyword arguments of forward. / forward 的关键字参数。

        Returns:
            The (possibly hook-modified) output. / （可能被钩子修改过的）输出。
        """
        if self._compiled_call_impl is not None:
            return self._compiled_call_impl(*args, **kwargs)  # type: ignore[misc]
        # DIFF(torch 2.13):
        # 中: torch 没有这一步。fx 追踪期间 `torch.nn.Module.__call__` 是 fx 的包装：交给它，它记录一个
        # 中: call_module 节点，或者（不是叶子模块时）经 torch 原来的 `__call__` 回到我们的 `_call_impl`。
        # 中: 这是 torch 的代码在我们的模块上运行的唯一一处：fx 明确调用它保存的原函数。
        # EN: torch has no such step. While fx traces, `torch.nn.Module.__call__` is fx's wrapper: it
        # EN: gets the call and records a call_module node or (for a module that is not a leaf)
        # EN: comes back to our `_call_impl` through torch's original `__call__`. That is the one
        # EN: place where torch's code runs on our modules: fx calls the original it saved.
        # 中: 先看 fx 的“正在追踪”标记（读一个模块变量），平时就只多这一次读取。
        # EN: fx's "tracing" flag (one module variable) is read first, so that is all it costs
        # EN: otherwise.
        if _fx_symbolic_trace._is_fx_tracing_flag:
            torch_call = _TorchModule.__call__
            if torch_call is not _torch_module_call:
                return torch_call(self, *args, **kwargs)
        return self._call_impl(*args, **kwargs)

    def _call_impl(self, *args, **kwargs):
        r"""Run forward with all hooks around it. / 在所有钩子的包围下运行 forward。

        === "中文"

            一次调用的完整顺序：

            1. 没有任何钩子（本地或全局）时走**快速路径**：直接 `forward(*args, **kwargs)`。
            2. 收集反向预钩子与反向钩子（full / 旧式）。
            3. 依次运行全局、本地前向预钩子，它们可以替换 `args`（以及 `kwargs`）。
            4. 若有完整反向钩子或反向预钩子，用 `BackwardHook` 包装输入。
            5. 调用 `forward`（JIT 追踪时改用 `_slow_forward`）。
            6. 依次运行全局、本地前向钩子，它们可以替换输出。
            7. 用 `BackwardHook` 包装输出；旧式反向钩子挂到输出的 `grad_fn` 上。

            若第 2–7 步抛出异常，尚未运行的 `always_call` 前向钩子会被补跑（全局的先），
            然后原异常继续抛出。在 `torch.compile` 追踪期间不做这层 try/except。
            1.5.1 → 2.13：1.5.1 的 `__call__` 没有全局钩子、kwargs 钩子、完整反向钩子、
            `always_call` 和快速路径；如今 `__call__` 是 `_wrapped_call_impl`，真正的逻辑在这里。

        === "English"

            The full order of one call:

            1. With no hook at all (local or global), the **fast path**: `forward(*args, **kwargs)`.
            2. Gather the backward pre-hooks and backward hooks (full / legacy).
            3. Run the global, then local forward pre-hooks; they may replace `args` (and `kwargs`).
            4. With full backward hooks or backward pre-hooks, wrap the inputs in a `BackwardHook`.
            5. Call `forward` (`_slow_forward` while the JIT traces).
            6. Run the global, then local forward hooks; they may replace the output.
            7. Wrap the output in the `BackwardHook`; attach legacy backward hooks to its `grad_fn`.

            If steps 2–7 raise, the `always_call` forward hooks that have not run yet are run
            (global ones first), then the original exception propagates. While `torch.compile`
            traces, this try/except layer is skipped.
            1.5.1 → 2.13: 1.5.1's `__call__` had no global hooks, kwargs hooks, full backward
            hooks, `always_call` or fast path; today `__call__` is `_wrapped_call_impl` and the
            logic lives here.

        Args:
            *args: Positional arguments of forward. / forward 的位置参数。
            **kwargs: Keyword arguments of forward. / forward 的关键字参数。

        Returns:
            The (possibly hook-modified) output. / （可能被钩子修改过的）输出。
        """
        # 中: 先选好第 5 步要调用的函数：JIT 追踪时用 `_slow_forward`
        # 中: （它把模块名压入追踪作用域），否则直接用 `forward`。快速路径也用这个选择，
        # 中: 所以追踪没有钩子的模块时同样会记下作用域。
        # EN: Pick step 5's callee first: `_slow_forward` while the JIT traces (it pushes the module
        # EN: name as a trace scope), else `forward`. The fast path uses it too, so tracing a
        # EN: module without hooks records the scope as well.
        forward_call = self._slow_forward if torch._C._get_tracing_state() else self.forward
        # 中: 第 1 步：快速路径。只查 8 张表：本模块的反向钩子、反向预钩子、
        # 中: 前向钩子、前向预钩子，以及对应的 4 张全局表。with_kwargs / always_call 表
        # 中: 只给这些表里已有的钩子 id 做标记，不必另查；state_dict 钩子与调用无关。
        # 中: 绝大多数调用没有钩子，于是省掉闭包、try/except 和逐表遍历——
        # 中: 实测挂一个什么都不做的前向钩子，
        # 中: 小模块的调用开销就变成约 2.5 倍（见 Note [Cost of attribute access]）。
        # EN: Step 1: the fast path. Only 8 tables are checked: this module's backward hooks,
        # EN: backward pre-hooks, forward hooks and forward pre-hooks, and the 4 matching global
        # EN: tables. The with_kwargs / always_call tables only flag ids already in those, so they
        # EN: need no check; state_dict hooks play no part in a call. Most calls have no hook, so
        # EN: this skips the closure, the try/except and the table walks — measured, one no-op
        # EN: forward hook makes calling a small module about 2.5 times as costly (see
        # EN: Note [Cost of attribute access]).
        if not (
            self._backward_hooks
            or self._backward_pre_hooks
            or self._forward_hooks
            or self._forward_pre_hooks
            # 中: 全局的 4 张表由 `register_module_*` 函数填写，
            # 中: 对所有模块生效，所以每次调用都要查。
            # EN: The 4 global tables, filled by the `register_module_*` functions, apply to every
            # EN: module, so each call checks them too.
            or _torch_module_py._global_backward_pre_hooks
            or _torch_module_py._global_backward_hooks
            or _torch_module_py._global_forward_hooks
            or _torch_module_py._global_forward_pre_hooks
        ):
            return forward_call(*args, **kwargs)

        # 中: `result` 先设为 None：若 forward 本身抛出，
        # 中: 异常路径里的 always_call 钩子收到的输出就是 None。
        # 中: 集合记下正常路径里已经轮到的 always_call 钩子 id，异常路径只补跑其余的。
        # EN: `result` starts as None: if forward itself raises, the error path's always_call
        # EN: hooks get None as the output. The set records the always_call hook ids reached on
        # EN: the normal path; the error path runs only the rest.
        result = None
        called_always_called_hooks = set()

        # 中: 第 2–7 步写在闭包里，下面的 try/except 才能整体包住它们；
        # 中: `args`、`kwargs`、`result` 经 `nonlocal` 共享，
        # 中: 钩子替换过的值在异常路径里也看得到。
        # EN: Steps 2–7 live in a closure so that the try/except below can wrap them whole; `args`,
        # EN: `kwargs` and `result` are shared through `nonlocal`, so the error path sees what hooks
        # EN: replaced.
        def inner():
            r"""Steps 2–7 of a hooked call. / 带钩子调用的第 2–7 步。

            === "中文"

                按顺序做：收集反向钩子（第 2 步）、前向预钩子（第 3 步）、在输入上接好
                `BackwardHook`（第 4 步）、`forward` 本身（第 5 步）、前向钩子（第 6 步）、
                把反向钩子接到输出上（第 7 步）。

            === "English"

                In order: gather the backward hooks (step 2), the forward pre-hooks (step 3),
                `BackwardHook` on the inputs (step 4), `forward` itself (step 5), the forward
                hooks (step 6), the backward hooks on the output (step 7).

            Returns:
                The output after all hooks. / 经过所有钩子后的输出。

            Raises:
                RuntimeError: A with_kwargs pre-hook returned something other than None or a 2-tuple. / with_kwargs 预钩子返回的既不是 None 也不是长度为 2 的元组。
            """
            nonlocal result, args, kwargs

            # 中: 第 2 步：收集反向预钩子和反向钩子，两种都是全局的排在本模块的前面。
            # 中: `_get_backward_hooks` 按注册方式分成完整反向钩子与旧式钩子两个列表；
            # 中: 表为空时连这次方法调用也省掉。
            # 中: 这里只是收集，第 4、7 步才把它们接到计算图上。
            # EN: Step 2: gather the backward pre-hooks and backward hooks, global ones before this
            # EN: module's in both. `_get_backward_hooks` splits them into full and legacy lists by
            # EN: how they were registered; empty tables skip even that call. This only gathers;
            # EN: steps 4 and 7 attach them to the graph.
            full_backward_hooks, non_full_backward_hooks = [], []
            backward_pre_hooks = []
            if self._backward_pre_hooks or _torch_module_py._global_backward_pre_hooks:
                backward_pre_hooks = self._get_backward_pre_hooks()

            if self._backward_hooks or _torch_module_py._global_backward_hooks:
                full_backward_hooks, non_full_backward_hooks = self._get_backward_hooks()

            # 中: 第 3 步：前向预钩子，先全局、后本模块
            # 中: （prepend=True 也只排在本模块表的最前，越不过全局钩子）。
            # 中: 每个钩子看到的是前一个替换后的 `args`。
            # EN: Step 3: forward pre-hooks, global first, then this module's (prepend=True only
            # EN: puts a hook at the front of this module's table, never before global ones). Each
            # EN: hook sees the `args` left by the one before.
            if _torch_module_py._global_forward_pre_hooks or self._forward_pre_hooks:
                for hook_id, hook in (
                    *_torch_module_py._global_forward_pre_hooks.items(),
                    *self._forward_pre_hooks.items(),
                ):
                    # 中: 只查本模块的 with_kwargs 表：`register_module_forward_pre_hook` 没有
                    # 中: with_kwargs 选项，钩子 id 又全局唯一，
                    # 中: 所以全局预钩子总以 (module, args) 调用。
                    # 中: with_kwargs 钩子的返回值必须是 None 或 (args, kwargs) 二元组，否则报错，
                    # 中: 报错文本与 torch 相同。
                    # EN: Only this module's with_kwargs table is consulted: the global
                    # EN: `register_module_forward_pre_hook` has no with_kwargs option and hook ids
                    # EN: are globally unique, so global pre-hooks are always called as
                    # EN: (module, args). A with_kwargs hook must return None or an (args, kwargs)
                    # EN: pair, else it raises torch's error text.
                    if hook_id in self._forward_pre_hooks_with_kwargs:
                        args_kwargs_result = hook(self, args, kwargs)  # type: ignore[misc]
                        # 中: 约定：None 表示不改；
                        # 中: 否则必须是二元组，整体替换 args 与 kwargs。
                        # EN: The contract: None changes nothing; anything else must be a pair,
                        # EN: replacing args and kwargs together.
                        if args_kwargs_result is not None:
                            if (
                                isinstance(args_kwargs_result, tuple)
                                and len(args_kwargs_result) == 2
                            ):
                                args, kwargs = args_kwargs_result
                            else:
                                # 中: 不合约定：报错并带上返回值本身，措辞与 torch 相同。
                                # EN: Off contract: an error quoting the returned value (torch's).
                                raise RuntimeError(
                                    "forward pre-hook must return None or a tuple "
                                    f"of (new_args, new_kwargs), but got {args_kwargs_result}."
                                )
                    else:
                        # 中: 普通预钩子只能换位置参数；返回非 tuple 的值时包成长度为 1 的元组，
                        # 中: 所以 `return x` 就是 `return (x,)`。
                        # EN: A plain pre-hook can only replace the positional args; a non-tuple
                        # EN: return is wrapped in a 1-tuple, so `return x` means `return (x,)`.
                        args_result = hook(self, args)
                        if args_result is not None:
                            if not isinstance(args_result, tuple):
                                args_result = (args_result,)
                            args = args_result

            # 中: 第 4 步：有完整反向钩子或反向预钩子时，用 `BackwardHook` 把位置参数里的张量
            # 中: 换成经过一个恒等 autograd 函数的版本，反向时才拿得到 `grad_input`。
            # 中: 包装发生在预钩子之后，所以包到的是预钩子替换后的输入；kwargs 里的张量不包，
            # 中: 不会出现在 `grad_input` 里。
            # EN: Step 4: with full backward hooks or backward pre-hooks, `BackwardHook` routes the
            # EN: tensors among the positional args through an identity autograd function, so
            # EN: `grad_input` can be caught in backward. It runs after the pre-hooks and wraps
            # EN: their replacements; tensors in kwargs are left alone and never reach `grad_input`.
            bw_hook = None
            if full_backward_hooks or backward_pre_hooks:
                bw_hook = BackwardHook(self, full_backward_hooks, backward_pre_hooks)
                args = bw_hook.setup_input_hook(args)

            # 中: 第 5 步：真正的前向传播。
            # EN: Step 5: the forward pass itself.
            result = forward_call(*args, **kwargs)
            # 中: 第 6 步：前向钩子，同样先全局、后本模块；非 None 的返回值替换输出，
            # 中: 后面的钩子看到的是替换后的输出。
            # 中: 全局前向钩子可以带 with_kwargs，所以两张 kwargs 表都要查。
            # EN: Step 6: forward hooks, again global first, then this module's; a non-None return
            # EN: replaces the output, and later hooks see the replacement. Global forward hooks may
            # EN: be with_kwargs, so both kwargs tables are consulted.
            if _torch_module_py._global_forward_hooks or self._forward_hooks:
                for hook_id, hook in (
                    *_torch_module_py._global_forward_hooks.items(),
                    *self._forward_hooks.items(),
                ):
                    # 中: 先登记“已调用”再调用：
                    # 中: 即使钩子本身抛异常，异常路径也不会再调它一次。
                    # EN: Mark it as called before calling it: even if the hook itself raises, the
                    # EN: error path will not call it a second time.
                    if (
                        hook_id in self._forward_hooks_always_called
                        or hook_id in _torch_module_py._global_forward_hooks_always_called
                    ):
                        called_always_called_hooks.add(hook_id)

                    # 中: with_kwargs 钩子（本模块的或全局的）多收一个 `kwargs`。
                    # EN: A with_kwargs hook (this module's or a global one) also gets `kwargs`.
                    if (
                        hook_id in self._forward_hooks_with_kwargs
                        or hook_id in _torch_module_py._global_forward_hooks_with_kwargs
                    ):
                        hook_result = hook(self, args, kwargs, result)
                    else:
                        hook_result = hook(self, args, result)

                    # 中: 与预钩子不同，这里没有二元组约定：
                    # 中: 无论哪种钩子，非 None 的返回值都整个替换输出。
                    # EN: Unlike pre-hooks there is no pair contract: for either kind, a non-None
                    # EN: return replaces the whole output.
                    if hook_result is not None:
                        result = hook_result

            # 中: 第 7 步（完整反向钩子部分）：输出既不是张量也不是 tuple（例如 dict）时，
            # 中: 里面的张量包不到，钩子不会触发，所以先给出警告。
            # EN: Step 7 (full-hook part): in an output that is neither a tensor nor a tuple (a
            # EN: dict, say) no tensor can be wrapped and the hooks never fire, hence a warning.
            if bw_hook:
                if not isinstance(result, (torch.Tensor, tuple)):
                    warnings.warn(
                        "For backward hooks to be called,"
                        " module output should be a Tensor or a tuple of Tensors"
                        f" but received {type(result)}",
                        stacklevel=2,
                    )
                # 中: 把输出也包一层：反向时先拿到 `grad_output`（供反向预钩子），
                # 中: 再等输入的梯度算完交给完整反向钩子。
                # 中: 它在前向钩子之后，所以包的是钩子替换后的输出。
                # EN: Wrap the output too: backward first yields `grad_output` (for the backward
                # EN: pre-hooks), then the inputs' gradients for the full hooks. It runs after the
                # EN: forward hooks, so it wraps their replacement.
                result = bw_hook.setup_output_hook(result)

            # 中: 第 7 步（旧式钩子部分）：顺着嵌套结构找到第一个张量：
            # 中: dict 取第一个张量值，其余取 [0]。
            # EN: Step 7 (legacy part): dig through the nesting to the first tensor: the first
            # EN: tensor value of a dict, else [0].
            if non_full_backward_hooks:
                var = result
                while not isinstance(var, torch.Tensor):
                    if isinstance(var, dict):
                        var = next(v for v in var.values() if isinstance(v, torch.Tensor))
                    else:
                        var = var[0]
                # 中: 把钩子挂在它的 grad_fn 上（经 `_WrappedHook` 弱引用本模块）。钩子看到的只是
                # 中: 这一个节点的梯度，而不是模块的输入输出梯度，所以它已被弃用；
                # 中: 输出不需要梯度（grad_fn 为 None）时什么也不挂；
                # 中: 输入或输出的结构不合适时给出 FutureWarning。
                # EN: Hang the hooks on its grad_fn (via `_WrappedHook`, weakly holding the module).
                # EN: They see that one node's gradients, not the module's input and output
                # EN: gradients, hence the deprecation; with no grad_fn nothing is attached, and
                # EN: unsuitable input or output structures get a FutureWarning.
                grad_fn = var.grad_fn
                if grad_fn is not None:
                    for hook in non_full_backward_hooks:
                        grad_fn.register_hook(_WrappedHook(hook, self))
                    self._maybe_warn_non_full_backward_hook(args, result, grad_fn)

            return result

        # 中: torch.compile 追踪时不包 try/except：torch 有意如此
        # 中: （在编译的帧里捕获再重抛只会把异常处理搅乱），
        # 中: 代价是编译时出错不会补跑 always_call 钩子。
        # EN: Under torch.compile tracing there is no try/except: torch skips it on purpose
        # EN: (catching and re-raising in a compiled frame only muddles exception handling), so
        # EN: always_call hooks are not run on an error while compiling.
        if torch.compiler.is_compiling():
            return inner()

        # 中: 只捕获 `Exception`：KeyboardInterrupt、SystemExit 直接穿过，
        # 中: 不补跑任何钩子。
        # EN: Only `Exception` is caught: KeyboardInterrupt and SystemExit pass straight through,
        # EN: with no hook run.
        try:
            return inner()
        except Exception:
            # 中: 第 2–7 步中 forward 或某个钩子失败：先补跑尚未轮到的全局 always_call 钩子。
            # 中: 补跑的钩子自己抛出的异常只变成警告，不掩盖原异常。
            # EN: forward or a hook failed in steps 2–7: first run the global always_call hooks not
            # EN: reached yet; their own errors only become warnings, never masking the original.
            for hook_id, hook in _torch_module_py._global_forward_hooks.items():
                if (
                    hook_id in _torch_module_py._global_forward_hooks_always_called
                    and hook_id not in called_always_called_hooks
                ):
                    # 中: 注意这里总以 (module, args, result) 调用，即使它注册时带了 with_kwargs
                    # 中: （torch 同样如此），4 个参数的钩子会因此抛 TypeError，变成下面的警告。
                    # EN: Always called as (module, args, result) here, even if registered
                    # EN: with_kwargs (as in torch): a 4-argument hook hits a TypeError, warned of.
                    try:
                        hook_result = hook(self, args, result)
                        if hook_result is not None:
                            result = hook_result
                    # 中: 补跑钩子自己的异常：发一条警告（措辞与 torch 相同），继续下一个钩子。
                    # EN: A catch-up hook's own error: one warning (torch's wording), then the next.
                    except Exception as e:
                        warnings.warn(
                            "global module forward hook with ``always_call=True`` raised an exception "
                            f"that was silenced as another error was raised in forward: {str(e)}",
                            stacklevel=2,
                        )
                        continue

            # 中: 再补跑本模块尚未轮到的 always_call 钩子；本模块的 with_kwargs 钩子照常收到
            # 中: `kwargs`。每个钩子拿到的 `result` 是出错前最后的输出（forward 就失败时为 None）。
            # 中: 返回值仍会替换 `result`，但最终还是重新抛出原异常，
            # 中: 这个值不会返回给调用者。
            # EN: Then this module's always_call hooks not reached yet; its with_kwargs ones do get
            # EN: `kwargs`. Each sees the last output before the error (None if forward itself
            # EN: failed); a return still replaces `result`, but the original exception is re-raised
            # EN: anyway, so that value never reaches the caller.
            for hook_id, hook in self._forward_hooks.items():
                if (
                    hook_id in self._forward_hooks_always_called
                    and hook_id not in called_always_called_hooks
                ):
                    # 中: 只查本模块的 with_kwargs 表：这里的钩子都是本模块的。
                    # EN: Only this module's with_kwargs table matters: these hooks are all its own.
                    try:
                        if hook_id in self._forward_hooks_with_kwargs:
                            hook_result = hook(self, args, kwargs, result)  # type: ignore[misc]
                        else:
                            hook_result = hook(self, args, result)
                        if hook_result is not None:
                            result = hook_result
                    # 中: 同上：钩子自己的异常只变成警告，措辞里没有 “global”。
                    # EN: As above: the hook's own error becomes a warning, here without "global".
                    except Exception as e:
                        warnings.warn(
                            "module forward hook with ``always_call=True`` raised an exception "
                            f"that was silenced as another error was raised in forward: {str(e)}",
                            stacklevel=2,
                        )
                        continue
            # 中: 重新抛出原来的异常（带着原来的回溯）。
            # EN: Re-raise the original exception (with its original traceback).
            raise

    # 中: 调用模块即调用 `_wrapped_call_impl`。与 torch 一样是类体里的赋值，
    # 中: `__call__` 在建类时就绑定到基类的这个函数：
    # 中: 子类覆盖 `_wrapped_call_impl` 不影响 `m(...)`，
    # 中: 覆盖 `_call_impl` 或 `__call__` 本身才生效。
    # EN: Calling a module calls `_wrapped_call_impl`. As in torch it is an assignment in the class
    # EN: body, binding `__call__` to this base-class function when the class is built: a subclass
    # EN: overriding `_wrapped_call_impl` does not change `m(...)`; overriding `_call_impl` or
    # EN: `__call__` itself does.
    __call__: Callable[..., Any] = _wrapped_call_impl

    def __getstate__(self):
        r"""State for pickle/deepcopy: the instance dict minus the compiled call. / pickle 与深拷贝用的状态：去掉编译结果后的实例字典。

        === "中文"

            模块就是它的 `__dict__`（训练标志、三张表、各种钩子表）。编译得到的
            `_compiled_call_impl` 无法序列化，所以去掉；反序列化后模块回到未编译状态。
            1.5.1 中没有定义 `__getstate__`（直接用默认行为）。

        === "English"

            A module is its `__dict__` (training flag, the three tables, the hook tables). The
            compiled `_compiled_call_impl` cannot be pickled, so it is dropped; an unpickled
            module is uncompiled. 1.5.1 did not define `__getstate__` (the default was used).

        Note: Note [Deep-copying a module] 深拷贝模块
            === "中文"

                `Module` 没有定义 `__deepcopy__`，所以 `copy.deepcopy(m)` 退回到
                `object.__reduce_ex__(4)`：用 `copyreg.__newobj__` 建一个同类的空对象（不运行
                `__init__`），取 `m.__getstate__()`（`__dict__` 的浅拷贝，去掉
                `_compiled_call_impl`），用同一个 memo 深拷贝这个字典，再交给 `__setstate__`。
                子模块递归地走同一条路。由此：

                - 每个张量只拷贝一次：两个子模块共享的参数在副本里仍然共享（彼此绑定，
                  而不与原模型绑定），绑定权重保持绑定。
                - 钩子跟着过去：每张钩子表是新的 `OrderedDict`，但里面是**同一个**函数对象
                  （`deepcopy` 把函数当作原子），闭包捕获的仍是原来的对象；模块自己的绑定方法
                  会重新绑定到副本上，`_WrappedHook` 指向副本。
                - 为原模块返回的句柄只管原模块的表：`handle.remove()` 不会移除副本上的钩子。

            === "English"

                `Module` defines no `__deepcopy__`, so `copy.deepcopy(m)` falls back to
                `object.__reduce_ex__(4)`: `copyreg.__newobj__` makes an empty object of the same
                class (no `__init__` runs), `m.__getstate__()` gives a shallow copy of
                `__dict__` without `_compiled_call_impl`, that dict is deep-copied with one memo
                and handed to `__setstate__`. Submodules take the same path recursively. Hence:

                - Each tensor is copied once: a parameter shared by two submodules is shared in
                  the copy as well (tied to each other, not to the original), so tied weights
                  stay tied.
                - Hooks come along: each hook table is a new `OrderedDict` holding the *same*
                  function objects (`deepcopy` treats functions as atomic), so a closure still
                  captures the original's objects; a bound method of the module is rebound to
                  the copy, and a `_WrappedHook` points at the copy.
                - The handles returned for the original reach only the original's tables:
                  `handle.remove()` leaves the copy's hook in place.

        Returns:
            A shallow copy of `__dict__`. / `__dict__` 的浅拷贝。
        """
        # 中: 浅拷贝：张量与子模块由 pickle / deepcopy 自己处理（deepcopy 的路径见
        # 中: Note [Deep-copying a module]）。
        # 中: `_compiled_call_impl` 只在 `compile()` 之后才出现在实例字典里；
        # 中: 去掉后，类属性 `None` 让新对象走未编译的路径。
        # EN: A shallow copy: pickle / deepcopy handle the tensors and submodules themselves (the
        # EN: path deepcopy takes: see Note [Deep-copying a module]).
        # EN: `_compiled_call_impl` is in the instance dict only after `compile()`; once dropped,
        # EN: the class attribute `None` makes the new object take the uncompiled path.
        state = self.__dict__.copy()
        state.pop("_compiled_call_impl", None)
        return state

    def __setstate__(self, state):
        r"""Restore from pickle, filling tables that old pickles lack. / 从 pickle 恢复，并补齐旧 pickle 缺少的表。

        === "中文"

            先把状态写回 `__dict__`，再为旧版本保存的模块补上后来才加入的表（前向钩子的 kwargs 表、
            always_call 表、state_dict 钩子表、非持久缓冲区集合、反向预钩子表等），
            于是用旧版 PyTorch pickle 的模型在新版本里照样能调用。
            1.5.1 → 2.13：需要补齐的表更多了。

        === "English"

            Writes the state back into `__dict__`, then adds the tables that modules pickled by
            older versions lack (forward-hook kwargs and always_call tables, state_dict hook
            tables, the non-persistent buffer set, backward pre-hooks, ...), so a model pickled
            by an old PyTorch still works. 1.5.1 → 2.13: more tables need filling.

        Args:
            state: What `__getstate__` returned. / `__getstate__` 的返回值。
        """
        # 中: 先整体写回；下面只补缺失的表，已有的绝不覆盖。
        # EN: Write everything back first; below, only missing tables are added, never overwritten.
        self.__dict__.update(state)

        # 中: 前向钩子相关的表：快速路径每次调用都读 `_forward_pre_hooks`，
        # 中: 另外几张有钩子时才读。缺了它们，读取会落到 `__getattr__`，
        # 中: 调用模块时报 AttributeError。
        # EN: Forward-hook tables: the fast path reads `_forward_pre_hooks` on every call, the
        # EN: others are read once hooks exist. Missing, a read falls to `__getattr__` and calling
        # EN: the module raises AttributeError.
        if "_forward_pre_hooks" not in self.__dict__:
            self._forward_pre_hooks = OrderedDict()
        if "_forward_pre_hooks_with_kwargs" not in self.__dict__:
            self._forward_pre_hooks_with_kwargs = OrderedDict()
        if "_forward_hooks_with_kwargs" not in self.__dict__:
            self._forward_hooks_with_kwargs = OrderedDict()
        if "_forward_hooks_always_called" not in self.__dict__:
            self._forward_hooks_always_called = OrderedDict()
        # 中: 状态字典的四张钩子表：`state_dict()`、`_load_from_state_dict` 与
        # 中: `load_state_dict` 每次都会读它们。
        # EN: The four state_dict hook tables: `state_dict()`, `_load_from_state_dict` and
        # EN: `load_state_dict` read them every time.
        if "_state_dict_hooks" not in self.__dict__:
            self._state_dict_hooks = OrderedDict()
        if "_state_dict_pre_hooks" not in self.__dict__:
            self._state_dict_pre_hooks = OrderedDict()
        if "_load_state_dict_pre_hooks" not in self.__dict__:
            self._load_state_dict_pre_hooks = OrderedDict()
        if "_load_state_dict_post_hooks" not in self.__dict__:
            self._load_state_dict_post_hooks = OrderedDict()
        # 中: 空集合表示旧模块的缓冲区全是持久的；
        # 中: `_is_full_backward_hook = None` 表示还没注册过反向钩子（注册时据此禁止新旧两种混用）；
        # 中: `_backward_pre_hooks` 快速路径每次都读。
        # EN: An empty set means every buffer of the old module is persistent;
        # EN: `_is_full_backward_hook = None` means no backward hook yet (registration uses it to
        # EN: forbid mixing the two kinds); the fast path reads `_backward_pre_hooks` on every call.
        if "_non_persistent_buffers_set" not in self.__dict__:
            self._non_persistent_buffers_set = set()
        if "_is_full_backward_hook" not in self.__dict__:
            self._is_full_backward_hook = None
        if "_backward_pre_hooks" not in self.__dict__:
            self._backward_pre_hooks = OrderedDict()

    # 中: Python 只在常规查找（实例字典、类及其基类、描述符）失败后才调用 `__getattr__`：
    # 中: `self.training`、方法和普通属性都到不了这里。
    # 中: 参数、缓冲区、子模块存放在三张表里而不在实例字典里，所以每次读它们都先失败一次
    # 中: 再落到这里（代价见 Note [Cost of attribute access]）。
    # 中: 陷阱：@property 的 getter 里抛出的 AttributeError 也算常规查找失败，Python 于是调用本方法，
    # 中: 最后的报错说的是这个 property 不存在，真正缺失的那个属性名被掩盖了（torch 同样如此）。
    # 中: 原来的异常被 Python 清除：它不在回溯里（`__context__` 为 None），`hasattr(m, "prop")`
    # 中: 也只返回 False。要看到真正的原因，在 getter 里捕获它并改抛别的异常（如 `RuntimeError`）。
    # EN: Python calls `__getattr__` only after the normal lookup (instance dict, class and its
    # EN: bases, descriptors) fails: `self.training`, methods and plain attributes never come here.
    # EN: Parameters, buffers and submodules live in the three tables, not in the instance dict, so
    # EN: every read of one fails once and then lands here (the cost:
    # EN: see Note [Cost of attribute access]). Pitfall: an AttributeError raised inside a @property
    # EN: getter also counts as a failed lookup, so Python calls this method, and the error names
    # EN: the property, not the attribute that was really missing (the same in torch). Python
    # EN: clears the original exception: it is not in the traceback (`__context__` is None), and
    # EN: `hasattr(m, "prop")` just returns False. To see the real cause, catch it in the getter
    # EN: and raise another exception (a `RuntimeError`, say).
    def __getattr__(self, name: str) -> Union[Tensor, "Module"]:
        r"""Find a parameter, buffer or submodule by name. / 按名字查找参数、缓冲区或子模块。

        === "中文"

            依次查 `_parameters`、`_buffers`、`_modules`，都没有就抛出与 Python 相同格式的
            `AttributeError`。每张表都先确认存在于 `__dict__`：在 `__init__` 之前（或反序列化途中）
            访问属性时，表可能还不存在，直接写 `self._parameters` 会无限递归。
            自 1.5.1 起逻辑不变。

        === "English"

            Looks in `_parameters`, `_buffers`, `_modules` in turn, and raises an
            `AttributeError` worded like Python's own when none has the name. Each table is
            first checked for in `__dict__`: before `__init__` (or mid-unpickling) the tables
            may not exist yet, and writing `self._parameters` would recurse forever.
            The logic is unchanged since 1.5.1.

        Note: Note [Cost of attribute access] 属性访问的代价
            === "中文"

                模块付出的代价由 Python 的属性机制决定（比值是在同一进程里用 `timeit` 测得的，
                CPython 3.11；绝对时间取决于机器）：

                - 读：常规查找（实例 `__dict__`、类、描述符）直接找到 `training`、方法、
                  property 和普通属性，代价与普通对象相同；只有查找失败时才调用 `__getattr__`，
                  也就是读参数、缓冲区、子模块时。每次这样的读取都先失败一次、再运行这个 Python
                  方法，约是读普通属性的 20 倍。`Linear.forward` 读 `self.weight` 和 `self.bias`，
                  每次调用 2 趟；热循环里可以先绑定到局部变量（`w = self.weight`）。
                - 写：`__setattr__` 是 Python 方法，每次赋值都运行，`self.n = 0` 也不例外：它查
                  三张表，并对 `Parameter` 和 `Buffer` 做 `isinstance` 检查，而这两个类的元类用
                  Python 实现了 `__instancecheck__`，所以一个普通值要多付 2 次 Python 调用。实测
                  一次普通赋值约是普通对象赋值的 100 倍，其中约一半花在这 2 次检查上。
                - 调用：`_call_impl` 先查 8 张钩子表，全空时直接调用 `forward`，省掉闭包、
                  try/except 与逐表遍历；挂一个什么都不做的前向钩子，小模块的调用开销约变成
                  2.5 倍。

            === "English"

                Python's attribute machinery sets what a module pays (ratios measured with
                `timeit` in one process on CPython 3.11; absolute times depend on the machine):

                - Reads: the normal lookup (instance `__dict__`, class, descriptors) finds
                  `training`, methods, properties and plain attributes at a plain object's cost;
                  `__getattr__` runs only when it fails, that is, for parameters, buffers and
                  submodules. Each such read fails once and then runs this Python method: about
                  20 times a plain attribute read. `Linear.forward` reads `self.weight` and
                  `self.bias`, 2 trips per call; in a hot loop, bind once (`w = self.weight`).
                - Writes: `__setattr__` is a Python method that runs on every assignment,
                  `self.n = 0` included: it checks the three tables and calls `isinstance`
                  against `Parameter` and `Buffer`, whose metaclasses implement
                  `__instancecheck__` in Python, so a plain value pays 2 Python calls there.
                  Measured, a plain assignment costs about 100 times one on a plain object, about
                  half of it in those 2 checks.
                - Calls: `_call_impl` checks 8 hook tables and, when all are empty, calls
                  `forward` directly, skipping the closure, the try/except and the table walks;
                  one no-op forward hook makes calling a small module about 2.5 times as costly.

        Args:
            name: The attribute name. / 属性名。

        Returns:
            The parameter, buffer or submodule. / 参数、缓冲区或子模块。

        Raises:
            AttributeError: No such attribute. / 没有这个属性。
        """
        # 中: 只取一次实例字典（torch 每查一张表都读一次 `self.__dict__`）：
        # 中: 每次读参数、缓冲区或子模块都会走到这里。
        # EN: Fetch the instance dict once (torch reads `self.__dict__` for each table): this runs
        # EN: on every read of a parameter, buffer or submodule.
        instance_dict = self.__dict__
        # DIFF(torch 2.13):
        # 中: torch 没有这一步。fx 追踪期间 `torch.nn.Module.__getattr__` 是 fx 的包装：交给它，它调用
        # 中: torch 原来的 `__getattr__` 取值，对参数返回一个 get_attr 代理。
        # EN: torch has no such step. While fx traces, `torch.nn.Module.__getattr__` is fx's wrapper:
        # EN: it gets the read, fetches the value with torch's original `__getattr__` and returns a
        # EN: get_attr proxy for a parameter.
        if _fx_symbolic_trace._is_fx_tracing_flag:
            torch_getattr = _TorchModule.__getattr__
            if torch_getattr is not _torch_module_getattr:
                return torch_getattr(self, name)
        # 中: 按参数、缓冲区、子模块的顺序查。
        # 中: 每张表都经实例字典取，从不写 `self._parameters`：
        # 中: 在 `__init__` 之前那样读会再次落到这里，无限递归。
        # EN: Look in parameters, buffers, submodules, in that order. Each table is taken through
        # EN: the dict, never as `self._parameters`: before `__init__` that read would come back
        # EN: here and recurse forever.
        if "_parameters" in instance_dict:
            _parameters = instance_dict["_parameters"]
            if name in _parameters:
                return _parameters[name]
        if "_buffers" in instance_dict:
            _buffers = instance_dict["_buffers"]
            if name in _buffers:
                return _buffers[name]
        # 中: 最后查子模块。都没有时抛出与 Python 自己措辞相同的 AttributeError，
        # 中: 所以 `hasattr` 和 `getattr(m, name, default)` 照常工作。
        # EN: Submodules last. Failing all, raise an AttributeError worded like Python's own, so
        # EN: `hasattr` and `getattr(m, name, default)` work as usual.
        if "_modules" in instance_dict:
            modules = instance_dict["_modules"]
            if name in modules:
                return modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Union[Tensor, "Module"]) -> None:
        r"""Route an assignment into the right table. / 把一次赋值分拣到正确的表里。

        === "中文"

            `self.x = value` 的分拣顺序（先匹配者胜）：

            1. `value` 是 `Parameter` → 从其它位置删除同名项，调用 `register_parameter`。
            2. `name` 已是参数 → 只能赋 `None`（清空），否则 `TypeError`。
            3. `value` 是 `Module` → 从其它位置删除同名项，经全局模块注册钩子后放进 `_modules`。
            4. `name` 已是子模块 → 只能赋 `None`。
            5. `value` 是 `Buffer`，或 `name` 已是缓冲区 → 必须是张量或 `None`；保持（或采用 `Buffer`
               自带的）持久性，经 `register_buffer` 登记。
            6. 其它一切 → 普通属性，写入实例字典。

            注意第 5 步：给已注册的缓冲区赋普通张量仍然是缓冲区；而给一个**新**名字赋普通张量
            只是普通属性，不会进入 `state_dict`——这是常见误解。若子类覆盖了 `register_buffer`
            且不接受 `persistent` 参数，非持久缓冲区的赋值会被拒绝。
            1.5.1 → 2.13：新增 `Buffer` 分支、全局注册钩子、持久性保持与覆盖 `register_buffer` 的处理。

        === "English"

            The routing of `self.x = value` (first match wins):

            1. `value` is a `Parameter` → remove the name from elsewhere, `register_parameter`.
            2. `name` is already a parameter → only `None` (clear) is allowed, else `TypeError`.
            3. `value` is a `Module` → remove the name from elsewhere, pass the global module
               registration hooks, store in `_modules`.
            4. `name` is already a submodule → only `None` is allowed.
            5. `value` is a `Buffer`, or `name` is already a buffer → must be a tensor or `None`;
               keep the persistence (or take the `Buffer`'s own), register through `register_buffer`.
            6. Anything else → a plain attribute in the instance dict.

            Mind step 5: assigning a plain tensor to a registered buffer keeps it a buffer, but a
            plain tensor under a *new* name is just an attribute and never reaches `state_dict` —
            a common misunderstanding. If a subclass overrides `register_buffer` without a
            `persistent` argument, assigning a non-persistent buffer is refused.
            1.5.1 → 2.13: the `Buffer` branch, global registration hooks, kept persistence and
            the overridden-`register_buffer` handling were added.

        Args:
            name: The attribute name. / 属性名。
            value: The value. / 值。

        Raises:
            AttributeError: Assigning a parameter/module before `__init__`. / 在 `__init__` 之前赋参数或模块。
            TypeError: A wrong type for an existing parameter, module or buffer. / 给已有参数、模块或缓冲区赋了错误类型。
            RuntimeError: Non-persistent buffer with an overridden `register_buffer`. / 覆盖的 `register_buffer` 不支持非持久缓冲区。
        """

        # 中: 表用 `__dict__.get` 取：在 `Module.__init__` 之前赋值时表还不存在，得到 None，
        # 中: 而不会落到 `__getattr__`；所以那时赋普通属性照样可以。每次赋值（包括普通属性）
        # 中: 都要走完下面的判断，代价见 Note [Cost of attribute access]。
        # EN: The tables are fetched with `__dict__.get`: before `Module.__init__` they do not exist
        # EN: yet, giving None instead of a trip to `__getattr__`; plain attributes still work then.
        # EN: Every assignment, plain attributes included, runs the checks below; for the cost see
        # EN: Note [Cost of attribute access].
        params = self.__dict__.get("_parameters")
        # 中: 第 1 步：值是 `Parameter`（每一类都先按值的类型判断，再按名字已在哪张表里判断）。
        # 中: `__init__` 之前没有参数表，报 AttributeError，
        # 中: 措辞与 torch 相同。
        # EN: Step 1: the value is a `Parameter` (each kind is matched by the value's type first,
        # EN: then by the table already holding the name). Before `__init__` there is no table: an
        # EN: AttributeError worded as in torch.
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            # 中: 先从其它位置删掉同名项，再注册，顺序不能反：
            # 中: `register_parameter` 见到名字已是别处的属性会抛 KeyError
            # 中: （"attribute 'x' already exists"）；而留在实例字典里的旧值
            # 中: 会被常规查找先找到，把参数遮住。删完后“一个名字只在一处”成立。
            # 中: 非持久集合也要清掉，
            # 中: 免得以后同名缓冲区继承这个标记。
            # EN: Remove the name from every other place first, then register; not the other way
            # EN: round: `register_parameter` raises KeyError ("attribute 'x' already exists") for a
            # EN: name held elsewhere, and an old value left in the instance dict would be found
            # EN: first by the normal lookup, hiding the parameter. After this a name lives in one
            # EN: place only. The non-persistent set is cleared too, so a later buffer of that name
            # EN: does not inherit the mark.
            _remove_from(
                name,
                self.__dict__,
                self._buffers,
                self._modules,
                self._non_persistent_buffers_set,
            )
            self.register_parameter(name, value)
        # 中: 第 2 步：名字已是参数，值却不是 `Parameter`：只接受 None（留下空槽位）。
        # 中: 所以 `self.weight = self.weight * 2` 会报 TypeError，子模块或 `Buffer`
        # 中: 也不能直接顶替参数，要先 `del`。
        # EN: Step 2: the name is a parameter but the value is not a `Parameter`: only None is
        # EN: accepted (an empty slot). So `self.weight = self.weight * 2` raises TypeError, and a
        # EN: module or a `Buffer` cannot replace a parameter either without a `del` first.
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign '{torch.typename(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            self.register_parameter(name, value)
        else:
            # 中: 第 3 步：值是 `torch.nn.Module`（我们的模块或 torch 的）。
            # 中: `__init__` 之前还没有子模块表，同样报错。
            # EN: Step 3: the value is a `torch.nn.Module` (ours or torch's). Before `__init__`
            # EN: there is no module table: an error as well.
            modules = self.__dict__.get("_modules")
            if isinstance(value, torch.nn.Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                # 中: 与第 1 步同理，先删掉其它位置的同名项
                # 中: （一个名字只在一处）。
                # EN: As in step 1, the name is first removed from every other place (one name,
                # EN: one place).
                _remove_from(
                    name,
                    self.__dict__,
                    self._parameters,
                    self._buffers,
                    self._non_persistent_buffers_set,
                )
                # 中: 全局模块注册钩子依次运行，返回非 None 就替换要存的模块。
                # 中: 然后直接写入 `_modules`，不经 `add_module`，所以不检查名字：
                # 中: `setattr(m, "a.b", child)` 会留下含点的名字，
                # 中: 而 `add_module` 会拒绝它（torch 同样如此）。
                # EN: The global module registration hooks run in turn; a non-None return replaces
                # EN: the module to store. It then goes straight into `_modules`, not through
                # EN: `add_module`, so the name is not checked: `setattr(m, "a.b", child)` leaves a
                # EN: dotted name that `add_module` would refuse (the same in torch).
                for hook in _torch_module_py._global_module_registration_hooks.values():
                    output = hook(self, name, value)
                    if output is not None:
                        value = output
                modules[name] = value
            # 中: 第 4 步：名字已是子模块，值却不是 `Module`：只接受 None，
            # 中: 否则 TypeError（例如给子模块名赋张量）。
            # EN: Step 4: the name is a submodule but the value is not a `Module`: only None is
            # EN: accepted, else TypeError (assigning a tensor to a submodule name, say).
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(
                        f"cannot assign '{torch.typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)"
                    )
                # 中: None 也要经过全局注册钩子；最后留下值为 None 的槽位，
                # 中: `repr` 显示为 `(name): None`，遍历时跳过。
                # EN: None passes the global registration hooks too; what stays is a slot holding
                # EN: None, shown by `repr` as `(name): None` and skipped by the iterators.
                for hook in _torch_module_py._global_module_registration_hooks.values():
                    output = hook(self, name, value)
                    if output is not None:
                        value = output
                modules[name] = value
            else:
                # 中: 第 5 步：值是 `Buffer`，或名字已是缓冲区。
                # 中: 与第 1、3 步不同，这里不先删别处的同名项：把 `Buffer` 赋给已有的普通属性名
                # 中: 会被 `register_buffer` 以 KeyError 拒绝（torch 同样如此）。
                # 中: 而给新名字赋普通张量不进这一步，落到第 6 步。
                # EN: Step 5: the value is a `Buffer`, or the name is already a buffer. Unlike
                # EN: steps 1 and 3, nothing is removed first: a `Buffer` assigned to an existing
                # EN: plain attribute is refused by `register_buffer` with a KeyError (as in torch).
                # EN: A plain tensor under a new name skips this step and falls to step 6.
                buffers = self.__dict__.get("_buffers")
                if isinstance(value, Buffer) or buffers is not None and name in buffers:
                    # 中: 接受张量、实现了 `__torch_function__` 的类张量对象或 None；
                    # 中: 其它类型报 TypeError，措辞与 torch 相同。
                    # EN: Tensors, tensor-likes implementing `__torch_function__`, or None; any
                    # EN: other type raises a TypeError worded as in torch.
                    if value is not None and not (
                        isinstance(value, torch.Tensor) or hasattr(value, "__torch_function__")
                    ):
                        raise TypeError(
                            f"cannot assign '{torch.typename(value)}' as buffer '{name}' "
                            "(torch.nn.Buffer, torch.Tensor or None expected)"
                        )
                    # 中: 持久性：`Buffer` 自带的 `persistent` 优先（可以改变原来的持久性）；
                    # 中: 普通张量沿用这个名字原来的持久性。
                    # EN: Persistence: a `Buffer`'s own `persistent` wins (it may change the old
                    # EN: one); a plain tensor keeps the persistence the name already had.
                    if isinstance(value, Buffer):
                        persistent = value.persistent
                    else:
                        persistent = name not in self._non_persistent_buffers_set
                    # 中: 子类可能覆盖了 `register_buffer` 而签名里没有 `persistent`（旧代码）。
                    # 中: 先用一次身份比较判断最常见的情况（没有覆盖），
                    # 中: 再退回到较慢的签名检查。
                    # EN: A subclass may override `register_buffer` without a `persistent` argument
                    # EN: (old code). One identity check settles the common case (no override);
                    # EN: only then comes the slower signature inspection.
                    if getattr(self.register_buffer, "__func__", None) is Module.register_buffer:
                        self.register_buffer(name, value, persistent)
                    else:
                        sign = inspect.signature(self.register_buffer)
                        if "persistent" in sign.parameters:
                            self.register_buffer(name, value, persistent)
                        else:
                            # 中: 旧式覆盖表达不了“非持久”：与其悄悄存成持久缓冲区，
                            # 中: 不如报 RuntimeError（措辞与 torch 相同）。
                            # EN: An old-style override cannot express "non-persistent": instead of
                            # EN: a silent persistent buffer, a RuntimeError (torch's wording).
                            if not persistent:
                                raise RuntimeError(
                                    "Registering a non-persistent buffer "
                                    "on a Module subclass that implements "
                                    "register_buffer() without the persistent "
                                    "argument is not allowed."
                                )
                            # 中: 假定旧实现注册的都是持久缓冲区。
                            # EN: Assume the old implementation registers persistent buffers.
                            self.register_buffer(name, value)
                # 中: 第 6 步：其余一切是普通属性，交给 `object.__setattr__`（写成
                # 中: `super(torch.nn.Module, self)`，跳过 torch 的类，见 `__init__`）：
                # 中: 类上的数据描述符（如带 setter 的 property）照常生效。
                # 中: 新名字下的普通张量也落在这里：它不是缓冲区，
                # 中: 不随 `to()` 迁移，也不进状态字典。
                # EN: Step 6: anything else is a plain attribute, left to `object.__setattr__`
                # EN: (spelled `super(torch.nn.Module, self)` to skip torch's class, see `__init__`); data
                # EN: descriptors on the class (a property with a setter) work as usual. A plain
                # EN: tensor under a new name ends up here: no buffer, not moved by `to()`, not
                # EN: saved.
                else:
                    super(torch.nn.Module, self).__setattr__(name, value)

    def __delattr__(self, name) -> None:
        r"""Delete a parameter, buffer, submodule or plain attribute. / 删除参数、缓冲区、子模块或普通属性。

        === "中文"

            按参数、缓冲区、子模块的顺序查找并删除；删除缓冲区时一并清除它的“非持久”标记，
            避免以后同名的新缓冲区意外继承它。都不是就交给 `object.__delattr__`。
            1.5.1 → 2.13：新增清除非持久标记。

        === "English"

            Looks in parameters, buffers, submodules in that order and deletes; deleting a
            buffer also clears its non-persistent mark, so a later buffer of the same name does
            not inherit it by accident. Otherwise `object.__delattr__` takes over.
            1.5.1 → 2.13: clearing the non-persistent mark was added.

        Args:
            name: The attribute name. / 属性名。

        Raises:
            AttributeError: No such attribute. / 没有这个属性。
        """
        # 中: 与 `__getattr__` 同样的顺序：参数、缓冲区、子模块。
        # EN: The same order as `__getattr__`: parameters, buffers, submodules.
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            # 中: 删缓冲区时连同非持久标记一起清掉，
            # 中: 否则以后同名的新缓冲区会意外继承“非持久”。
            # EN: Deleting a buffer also drops its non-persistent mark, or a later buffer of that
            # EN: name would inherit it.
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        # 中: 都不是就交给 `object.__delattr__`（跳过 torch 的类，同 `__setattr__`），名字不存在时由它抛
        # 中: AttributeError。
        # EN: Otherwise `object.__delattr__` takes over (torch's class skipped, as in `__setattr__`);
        # EN: a missing name raises AttributeError there.
        else:
            super(torch.nn.Module, self).__delattr__(name)

    def _register_state_dict_hook(self, hook):
        r"""Register a private state_dict post-hook (may return a new dict). / 注册私有的 state_dict 后钩子（可以返回新字典）。

        === "中文"

            签名 `hook(module, state_dict, prefix, local_metadata) -> None or state_dict`。
            与公开的 [`register_state_dict_post_hook`][annotated_nn.modules.module.Module.register_state_dict_post_hook]
            不同，这个旧接口允许返回一个新字典替换结果。同一个函数不能先经公开接口注册再经这里注册。
            1.5.1 中已有此方法；此后增加了与公开接口的冲突检查。

        === "English"

            Signature `hook(module, state_dict, prefix, local_metadata) -> None or state_dict`.
            Unlike the public [`register_state_dict_post_hook`][annotated_nn.modules.module.Module.register_state_dict_post_hook],
            this old interface lets a hook return a new dict to replace the result. A function
            registered through the public interface cannot be registered here too.
            Present in 1.5.1; the clash check with the public interface came later.

        Args:
            hook: The hook. / 钩子。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。

        Raises:
            RuntimeError: The function was registered through the public API. / 该函数已通过公开接口注册。
        """
        if getattr(hook, "_from_public_api", False):
            raise RuntimeError(
                "Cannot register the same function as the state dict post hook that was "
                "previously registered via register_state_dict_post_hook"
            )
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def register_state_dict_post_hook(self, hook):
        r"""Register a hook run after `state_dict` of this module. / 注册在本模块 `state_dict` 之后运行的钩子。

        === "中文"

            签名 `hook(module, state_dict, prefix, local_metadata) -> None`，可以就地修改
            `state_dict`，但必须返回 `None`（否则 `state_dict` 抛错）。注册时给函数打上
            `_from_public_api` 标记，用以与旧的私有接口区分。1.5.1 中没有。

        === "English"

            Signature `hook(module, state_dict, prefix, local_metadata) -> None`; it may edit
            `state_dict` in place but must return `None` (`state_dict` raises otherwise).
            Registration marks the function `_from_public_api` to tell it from the old private
            interface. Not in 1.5.1.

        Args:
            hook: The hook. / 钩子。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
        """
        # 中: 标记放在函数对象上，因此 bound method 这类不能设属性的对象
        # 中: 会在这里抛 AttributeError（与 torch 相同）。
        # EN: The mark lives on the function object, so objects that refuse attributes (bound
        # EN: methods) raise AttributeError here, as in torch.
        hook._from_public_api = True
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    def register_state_dict_pre_hook(self, hook):
        r"""Register a hook run before `state_dict` of this module. / 注册在本模块 `state_dict` 之前运行的钩子。

        === "中文"

            签名 `hook(module, prefix, keep_vars) -> None`，在保存本模块的张量之前调用，
            常用于保存前的准备工作（例如把分片的参数聚合起来）。1.5.1 中没有。

        === "English"

            Signature `hook(module, prefix, keep_vars) -> None`, called before this module's
            tensors are saved; useful for preparation (gathering sharded parameters, say).
            Not in 1.5.1.

        Args:
            hook: The hook. / 钩子。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
        """
        handle = RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.id] = hook
        return handle

    def _save_to_state_dict(self, destination, prefix, keep_vars) -> None:
        r"""Save this module's own tensors (not its children's). / 保存本模块自己的张量（不含子模块）。

        === "中文"

            依次写入参数、持久缓冲区（跳过 `None` 与非持久的），`keep_vars=False` 时存
            `detach()` 后的张量（与原张量共享存储，但脱离计算图）。若子类覆盖了
            `get_extra_state`，再写入 `prefix + "_extra_state"`。子类可覆盖本方法以定制保存格式。
            1.5.1 → 2.13：跳过非持久缓冲区，新增额外状态。

        === "English"

            Writes the parameters, then the persistent buffers (skipping `None` and
            non-persistent ones); with `keep_vars=False` it stores `detach()`ed tensors (sharing
            storage, cut off from autograd). If the subclass overrides `get_extra_state`, it
            also writes `prefix + "_extra_state"`. Subclasses may override this to customize
            the format. 1.5.1 → 2.13: non-persistent buffers are skipped; extra state is new.

        Args:
            destination: The dict being filled. / 正在填写的字典。
            prefix: The key prefix of this module. / 本模块的键前缀。
            keep_vars: Keep autograd attachment. / 是否保留与计算图的联系。
        """
        # 中: 先参数后持久缓冲区，各按登记顺序；值为 None 的槽位不写。
        # 中: `detach()` 得到的是新的张量对象，但与参数共享存储：
        # 中: 它是活的别名，之后对参数的就地更新（如优化器的一步）
        # 中: 会出现在已经取得的状态字典里，反之亦然。`keep_vars=True` 则存参数对象本身。
        # EN: Parameters, then persistent buffers, each in registration order; slots holding None
        # EN: are skipped. `detach()` gives a new tensor object sharing the parameter's storage: a
        # EN: live alias, so later in-place updates (an optimizer step) show in a state dict taken
        # EN: earlier, and the other way round. `keep_vars=True` stores the parameter object itself.
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        non_persistent = self._non_persistent_buffers_set
        for name, buf in self._buffers.items():
            if buf is not None and name not in non_persistent:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        # 中: 看的是类有没有覆盖 get_extra_state，而不是实例属性。
        # EN: What counts is whether the class overrides get_extra_state, not an instance attribute.
        if (
            getattr(self.__class__, "get_extra_state", Module.get_extra_state)
            is not Module.get_extra_state
        ):
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    # 中: 与 torch 相同，把类型变量放在类体里，供 state_dict 的重载标注使用。
    # EN: As in torch, the type variable lives in the class body, for state_dict's overloads.
    T_destination = TypeVar("T_destination", bound=dict[str, Any])

    @overload
    def state_dict(
        self, *, destination: T_destination, prefix: str = ..., keep_vars: bool = ...
    ) -> T_destination: ...

    @overload
    def state_dict(self, *, prefix: str = ..., keep_vars: bool = ...) -> dict[str, Any]: ...

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        r"""Return a dict of the module's whole state. / 返回包含模块全部状态的字典。

        === "中文"

            键是点号路径（`"conv1.weight"`），值是参数与持久缓冲区（默认 `detach()`，与模块共享
            存储）。顺序：先本模块的参数、缓冲区、额外状态，再按登记顺序递归子模块（深度优先）。
            共享的张量在每个路径下各出现一次。返回的 `OrderedDict` 带有 `_metadata` 属性：每个
            模块前缀（去掉末尾的点，根是 `""`）对应 `{"version": _version}`，加载时用于格式迁移。

            一次调用的步骤（递归的每一层都一样）：

            1. 接受已弃用的位置参数 `(destination, prefix, keep_vars)`，但发出 `FutureWarning`；
               请只用关键字。
            2. 没有传入 `destination` 时新建带 `_metadata` 的 `OrderedDict`；记下本模块的版本。
            3. 运行本模块的 state_dict 预钩子。
            4. `_save_to_state_dict` 写入本模块自己的参数、持久缓冲区与额外状态。
            5. 按登记顺序递归每个直接子模块，前缀加上 `name.`（子模块名加一个点）。
            6. 运行后钩子：私有的可以返回新字典替换结果（子模块的返回值会被父模块丢弃，
               所以只在根模块上有效），公开的必须返回 `None`。

            1.5.1 → 2.13：新增预钩子与公开后钩子；位置参数弃用；非持久缓冲区与额外状态。

        === "English"

            Keys are dotted paths (`"conv1.weight"`); values are the parameters and persistent
            buffers (`detach()`ed by default, sharing storage with the module). Order: this
            module's parameters, buffers, extra state, then each child recursively in
            registration order (depth first). A shared tensor appears once under each path.
            The returned `OrderedDict` carries a `_metadata` attribute mapping each module prefix
            (without the trailing dot; the root is `""`) to `{"version": _version}`, used to
            migrate formats when loading.

            The steps of one call (the same at every level of the recursion):

            1. Accept the deprecated positional `(destination, prefix, keep_vars)`, with a
               `FutureWarning`; use keywords.
            2. Without a `destination`, create an `OrderedDict` with `_metadata`; record this
               module's version.
            3. Run this module's state_dict pre-hooks.
            4. `_save_to_state_dict` writes this module's own parameters, persistent buffers and
               extra state.
            5. Recurse into each child in registration order, the prefix extended by `name.`.
            6. Run the post-hooks: a private one may return a new dict to replace the result (a
               child's return value is dropped by its parent, so this only works at the root);
               a public one must return `None`.

            1.5.1 → 2.13: pre-hooks and public post-hooks were added; positional arguments
            deprecated; non-persistent buffers and extra state.

        Note: Note [state_dict aliases] 状态字典是别名
            === "中文"

                默认的值是 `detach()` 的结果：新的张量对象，`requires_grad=False`，但与参数和
                缓冲区共享存储。所以状态字典是模型的活视图：优化器的一步或任何就地更新都会
                出现在先前取得的字典里，`load_state_dict`（就地复制）也会改变它。反过来，一旦
                `_apply` 换掉了参数的存储（如 `.to(torch.float64)`），旧字典就不再跟随模型。
                需要快照（最佳检查点、与“之前”比较）时，用 `{k: v.clone() for k, v in sd.items()}`
                或 `copy.deepcopy(sd)`。`keep_vars=True` 存的则是 `Parameter` 对象本身。

            === "English"

                By default the values are `detach()`ed: new tensor objects with
                `requires_grad=False`, sharing storage with the parameters and buffers. A state
                dict is thus a live view of the model: an optimizer step or any in-place update
                shows in a dict taken earlier, and so does `load_state_dict` (which copies in
                place). Conversely, once `_apply` replaces a parameter's storage
                (`.to(torch.float64)`, say), the old dict stops following the model. A snapshot
                (a best checkpoint, a "before" to compare with) needs
                `{k: v.clone() for k, v in sd.items()}` or `copy.deepcopy(sd)`. With
                `keep_vars=True` the values are the `Parameter` objects themselves.

        Args:
            *args: Deprecated positional `destination, prefix, keep_vars`. / 已弃用的位置参数形式 `destination, prefix, keep_vars`。
            destination: A dict to fill instead of a new `OrderedDict`. / 要填写的字典（默认新建 `OrderedDict`）。
            prefix: Prefix for every key. / 每个键的前缀。
            keep_vars: Keep tensors attached to autograd. / 是否保留与计算图的联系。

        Returns:
            The state dict. / 状态字典。

        Raises:
            RuntimeError: A public post-hook returned a value. / 公开后钩子返回了值。

        Examples:
            >>> import torch, annotated_nn as nn
            >>> m = nn.Module(); m.w = nn.Parameter(torch.zeros(1)); m.sub = nn.Module()
            >>> m.sub.register_buffer("b", torch.ones(1))
            >>> sd = m.state_dict()
            >>> list(sd), dict(sd._metadata)
            (['w', 'sub.b'], {'': {'version': 1}, 'sub': {'version': 1}})
        """
        # 中: 第 1 步：兼容旧的位置参数写法 `state_dict(destination, prefix, keep_vars)`，
        # 中: 但发出 FutureWarning（措辞与 torch 相同，附文档链接）。
        # EN: Step 1: accept the old positional form `state_dict(destination, prefix, keep_vars)`,
        # EN: with a FutureWarning (torch's wording, with the link to the docs).
        if args:
            warnings.warn(
                "Positional args are being deprecated, use kwargs instead. Refer to "
                "https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict"
                " for details.",
                FutureWarning,
                stacklevel=2,
            )
            # 中: 关键字参数优先：只有它们仍是默认值时才取位置参数。
            # EN: Keywords win: a positional value is used only where the keyword has its default.
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]

        # 中: 第 2 步：只有根调用会新建字典；
        # 中: 子模块收到的是同一个 `destination`，全树写进一个字典。
        # 中: 版本以前缀（去掉末尾的点）为键记入 `_metadata`；用户传入的普通 dict 没有 `_metadata`，
        # 中: 这时就不记录版本。
        # EN: Step 2: only the root call creates the dict; children get the same `destination`, so
        # EN: the whole tree writes into one dict. The version goes into `_metadata` under the
        # EN: prefix without its trailing dot; a plain dict passed in by the user has no
        # EN: `_metadata`, and then no version is recorded.
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()

        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata

        # 中: 第 3、4 步：预钩子在保存本模块之前运行（例如先把分片的参数聚合起来），
        # 中: 然后写入本模块自己的张量：
        # 中: 默认是与模块共享存储的 `detach()` 别名，不是副本，
        # 中: 之后对参数的就地更新会出现在这个字典里（要快照请自行 `clone()`；
        # 中: 见 Note [state_dict aliases]）。
        # EN: Steps 3 and 4: pre-hooks run before this module is saved (to gather sharded
        # EN: parameters, say), then this module's own tensors are written: by default `detach()`
        # EN: aliases sharing the module's storage, not copies, so later in-place updates to the
        # EN: parameters show in this dict (`clone()` them for a snapshot; see
        # EN: Note [state_dict aliases]).
        if self._state_dict_pre_hooks:
            for hook in self._state_dict_pre_hooks.values():
                hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        # 中: 第 5 步：深度优先递归直接子模块，跳过 None 槽位。
        # 中: 子模块的返回值被丢弃：
        # 中: 它们写的是同一个字典，所以子模块私有后钩子返回的新字典不会出现在结果里。
        # 中: 没有环检测：模块树里有环时这里会无限递归（torch 同样如此）。
        # EN: Step 5: recurse depth first into the children, skipping None slots. Their return value
        # EN: is dropped: they write into the same dict, so a new dict returned by a child's private
        # EN: post-hook never reaches the result. No cycle check: a module tree with a cycle
        # EN: recurses here without end (the same in torch).
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination,
                    prefix=prefix + name + ".",
                    keep_vars=keep_vars,
                )
        # 中: 第 6 步：后钩子在整个子树保存之后运行，看得到子模块的键。
        # 中: 私有钩子（旧接口）可返回新字典替换结果，
        # 中: 后面的钩子拿到的就是它。
        # EN: Step 6: post-hooks run after the whole subtree is saved and see the children's keys.
        # EN: A private hook (the old interface) may return a new dict to replace the result,
        # EN: which the later hooks then receive.
        if self._state_dict_hooks:
            for hook in self._state_dict_hooks.values():
                hook_result = hook(self, destination, prefix, local_metadata)
                if not getattr(hook, "_from_public_api", False):
                    if hook_result is not None:
                        destination = hook_result
                # 中: 公开钩子带 `_from_public_api` 标记，只能就地修改，
                # 中: 返回非 None 就报错。
                # EN: A public hook carries the `_from_public_api` mark: in-place edits only, and a
                # EN: non-None return is an error.
                else:
                    if hook_result is not None:
                        raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        r"""Register a private load_state_dict pre-hook. / 注册私有的 load_state_dict 预钩子。

        === "中文"

            签名 `hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)`；
            `with_module=True` 时模块作为第一个参数（通过弱引用的 `_WrappedHook`）。钩子在本模块
            `_load_from_state_dict` 开头运行，可以就地改写 `state_dict`（例如重命名旧键）。
            1.5.1 → 2.13：新增 `with_module`。

        === "English"

            Signature `hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)`;
            with `with_module=True` the module comes first (through a weakly referencing
            `_WrappedHook`). It runs at the start of this module's `_load_from_state_dict` and
            may rewrite `state_dict` in place (renaming old keys, say).
            1.5.1 → 2.13: `with_module` was added.

        Args:
            hook: The hook. / 钩子。
            with_module: Pass the module first. / 是否把模块作为第一个参数。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
        """
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = _WrappedHook(
            hook, self if with_module else None
        )
        return handle

    def register_load_state_dict_pre_hook(self, hook):
        r"""Register a hook run before this module loads its state. / 注册在本模块加载状态之前运行的钩子。

        === "中文"

            公开接口，签名 `hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs) -> None`，
            即带模块的私有预钩子。1.5.1 中没有。

        === "English"

            The public interface, signature
            `hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs) -> None`:
            the private pre-hook with the module passed first. Not in 1.5.1.

        Args:
            hook: The hook. / 钩子。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
        """
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook):
        r"""Register a hook run after `load_state_dict` of this module. / 注册在本模块 `load_state_dict` 之后运行的钩子。

        === "中文"

            签名 `hook(module, incompatible_keys) -> None`。`incompatible_keys` 的两个列表可以
            就地修改（例如忽略某些缺失键）；钩子返回非 `None` 会触发 `AssertionError`。
            钩子对列表的修改决定严格加载最终是否报错；`strict=False` 时它们只改变返回的列表。
            1.5.1 中没有。

        === "English"

            Signature `hook(module, incompatible_keys) -> None`. The two lists of
            `incompatible_keys` may be edited in place (to ignore some missing keys, say); a
            non-`None` return raises `AssertionError`. The edits decide whether strict loading
            finally fails; with `strict=False` they only change the returned lists.
            Not in 1.5.1.

        Args:
            hook: The hook. / 钩子。

        Returns:
            A handle whose `remove()` unregisters the hook. / 句柄，调用 `remove()` 即可注销。
        """
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

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
        r"""Load this module's own tensors from `state_dict`. / 从 `state_dict` 加载本模块自己的张量。

        === "中文"

            步骤：

            1. 运行本模块的加载预钩子，它们可以就地改写 `state_dict`（例如重命名旧键）。
            2. 收集本模块的参数与持久缓冲区（跳过 `None`），读出 `assign` 标志与 swap 开关。
            3. 逐个检查：键不在字典里 → 记入 `missing_keys`（`load_state_dict` 总是以
               `strict=True` 调用本方法）；值不是张量 → 记一条错误；形状不同 → 记
               “size mismatch” 错误并跳过（即使最终 `strict=False`，这也会报错）。唯一的宽容：
               模型中是 0 维、检查点中是形状 `[1]` 时自动取出其中的元素。
            4. 在 `no_grad` 下写入：默认 `param.copy_(input)`（就地，保持对象身份）；
               `assign=True` 时直接用检查点的张量替换（参数仍包成 `Parameter` 并保留
               `requires_grad`）；swap 开关打开时用 `module_load` + `swap_tensors`。
               复制失败记为错误而不抛出。
            5. 处理额外状态（子类覆盖了 `set_extra_state` 时）。
            6. strict 时找出本模块前缀下的多余键：子模块名不存在的路径，或本模块没有的本地名字。

            `state_dict` 只含本模块前缀下的键（由 `load_state_dict` 过滤）。
            1.5.1 → 2.13：新增 `assign`、swap 路径、惰性参数、非张量报错、meta 警告与额外状态。

        === "English"

            Steps:

            1. Run this module's load pre-hooks; they may rewrite `state_dict` in place (renaming
               old keys, say).
            2. Gather this module's parameters and persistent buffers (skipping `None`); read the
               `assign` flag and the swap flag.
            3. Check each: key absent → recorded in `missing_keys` (`load_state_dict` always
               calls this with `strict=True`); value not a tensor → an error message; shape
               differs → a "size mismatch" error and skip (so it fails even when the final
               `strict=False`). The one leniency: a 0-d tensor in the model and a `[1]`-shaped
               one in the checkpoint, whose element is taken.
            4. Write under `no_grad`: by default `param.copy_(input)` (in place, keeping
               identity); with `assign=True` the checkpoint's tensor replaces it (a parameter is
               still wrapped as `Parameter`, keeping `requires_grad`); with the swap flag on,
               `module_load` + `swap_tensors`. A failed copy becomes an error message, not an
               exception.
            5. The extra state (when the subclass overrides `set_extra_state`).
            6. When strict, the unexpected keys under this module's prefix: paths through a child
               name that does not exist, or local names this module lacks.

            `state_dict` holds only keys under this prefix (`load_state_dict` filters it).
            1.5.1 → 2.13: `assign`, the swap path, lazy parameters, the non-tensor error, the
            meta warning and extra state were added.

        Args:
            state_dict: Keys under this module's prefix. / 本模块前缀下的键值。
            prefix: This module's key prefix. / 本模块的键前缀。
            local_metadata: This module's metadata (version, assign flag). / 本模块的元数据（版本、assign 标志）。
            strict: Record missing and unexpected keys. / 是否记录缺失与多余的键。
            missing_keys: List to append missing keys to. / 追加缺失键的列表。
            unexpected_keys: List to append unexpected keys to. / 追加多余键的列表。
            error_msgs: List to append error messages to. / 追加错误信息的列表。
        """
        # 中: 第 1 步：预钩子先于一切检查运行，可以就地改写本模块的字典（例如把旧键改名）。
        # 中: `load_state_dict` 之后才从这个字典切出子模块的字典，所以改动也会传到子模块；
        # 中: 调用者自己的字典不受影响（`load_state_dict` 已经复制过）。
        # EN: Step 1: pre-hooks run before any check and may rewrite this module's dict in place
        # EN: (renaming old keys, say). `load_state_dict` cuts the children's dicts from it only
        # EN: afterwards, so edits reach the children too; the caller's own dict is safe (copied).
        for hook in self._load_state_dict_pre_hooks.values():
            hook(
                state_dict,
                prefix,
                local_metadata,
                # 中: 经 `load_state_dict` 调用时，钩子看到的 `strict` 总是 True，
                # 中: 与调用者传的无关。
                # EN: Called from `load_state_dict`, the hook always sees `strict` True, whatever
                # EN: the caller passed.
                strict,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )

        # 中: 第 2 步：要加载的是参数与持久缓冲区，跳过 None 槽位；非持久缓冲区的键
        # 中: 若出现在检查点里，第 6 步会把它算作多余键。
        # 中: `assign` 由 `load_state_dict` 经元数据传下来；
        # 中: swap 开关是全局的 `torch.__future__` 设置。
        # EN: Step 2: what gets loaded is the parameters and persistent buffers, skipping None
        # EN: slots; a non-persistent buffer's key found in the checkpoint counts as unexpected in
        # EN: step 6. `assign` comes down from `load_state_dict` through the metadata; the swap flag
        # EN: is the global `torch.__future__` setting.
        persistent_buffers = {
            k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set
        }
        local_name_params = itertools.chain(self._parameters.items(), persistent_buffers.items())
        local_state = {k: v for k, v in local_name_params if v is not None}
        assign_to_params_buffers = local_metadata.get("assign_to_params_buffers", False)
        use_swap_tensors = torch.__future__.get_swap_module_params_on_conversion()
        # DIFF(torch 2.13):
        # 中: 整个调用共用一个 no_grad 对象，依次进入（torch 每个键新建一个）。
        # 中: 它只在进入时记下梯度开关、退出时恢复，所以依次重复进入结果相同。
        # EN: One no_grad object for the whole call, entered in turn (torch builds one per key). It
        # EN: only saves the grad mode on entry and restores it on exit, so reuse gives the same.
        no_grad = torch.no_grad()

        # 中: 第 3 步：逐个检查。问题只追加到三张列表里，不立即抛出：一次加载把所有问题都报出来，
        # 中: 由 `load_state_dict` 在最后决定是否报错。代价：已经写入的张量不会回滚，
        # 中: 加载失败时模型可能已被部分改写。
        # EN: Step 3: check each in turn. Problems are only appended to the three lists, not raised:
        # EN: one load reports every problem, and `load_state_dict` decides at the end. The price:
        # EN: tensors already written stay written: a failed load can leave the model half loaded.
        for name, param in local_state.items():
            key = prefix + name
            if key in state_dict:
                input_param = state_dict[key]
                # 中: 值不是张量（也不是类张量对象）：记一条错误并跳过这个键，
                # 中: 措辞与 torch 相同。
                # EN: A value that is no tensor (nor tensor-like): one error message, skip the key;
                # EN: torch's wording.
                if not torch.overrides.is_tensor_like(input_param):
                    error_msgs.append(
                        f'While copying the parameter named "{key}", '
                        "expected torch.Tensor or Tensor-like object from checkpoint but "
                        f"received {type(input_param)}"
                    )
                    continue

                # 中: 未初始化的（惰性）参数没有形状，跳过两项形状检查：
                # 中: 惰性模块的预钩子（第 1 步）通常已把它物化；
                # 中: 普通模块里的未初始化参数会在第 4 步复制失败，记为错误。
                # 中: 唯一的形状宽容来自旧检查点：torch 自己的注释说，0.3.x 把 0 维张量存成形状 [1]，
                # 中: 0.4 起才有 0 维张量，所以这时取出其中的元素。
                # EN: An uninitialized (lazy) parameter has no shape, so both shape checks are
                # EN: skipped: a lazy module's pre-hook (step 1) has usually materialized it; one in
                # EN: a plain module fails to copy in step 4 and becomes an error. The one shape
                # EN: leniency is for old checkpoints: per torch's own comment, 0.3.x saved 0-d
                # EN: tensors with shape [1] (0-d tensors arrived in 0.4), so the element is taken.
                is_param_lazy = is_lazy(param)
                if (
                    not is_param_lazy
                    and len(param.shape) == 0
                    and len(input_param.shape) == 1
                    and input_param.shape[0] == 1
                ):
                    input_param = input_param[0]

                # 中: 形状不同：记 “size mismatch” 并跳过。`strict` 只管缺失与多余的键，
                # 中: 所以这条错误在 `strict=False` 时同样让 `load_state_dict` 报错。
                # EN: Size mismatch: one message, skip. `strict` only governs missing and unexpected
                # EN: keys, so this error fails `load_state_dict` under `strict=False` too.
                if not is_param_lazy and input_param.shape != param.shape:
                    error_msgs.append(
                        f"size mismatch for {key}: copying a param with shape {input_param.shape} from checkpoint, "
                        f"the shape in current model is {param.shape}."
                    )
                    continue

                # 中: 模型参数在 meta 设备上、检查点不是、又没有 `assign`：
                # 中: 向 meta 张量 `copy_` 什么也不做，参数仍然没有数据，
                # 中: 所以先警告并提示 `assign=True`。
                # EN: A meta parameter, a non-meta checkpoint tensor and no `assign`: `copy_` into a
                # EN: meta tensor does nothing and the parameter stays dataless, so warn and hint at
                # EN: `assign=True`.
                if param.is_meta and not input_param.is_meta and not assign_to_params_buffers:
                    warnings.warn(
                        f"for {key}: copying from a non-meta parameter in the checkpoint to a meta "
                        "parameter in the current model, which is a no-op. (Did you mean to "
                        "pass `assign=True` to assign items in the state dictionary to their "
                        "corresponding key in the module instead of copying them in place?)",
                        stacklevel=2,
                    )

                # 中: 第 4 步：在 `no_grad` 下写入：否则对需要梯度的叶子张量做就地复制会报错，
                # 中: 加载本身也不该被记进计算图。途中任何异常都变成一条带双方形状的错误信息，
                # 中: 接着加载下一个键。
                # 中: （以下三条路径：swap、assign、默认的就地复制。）
                # EN: Step 4: write under `no_grad`: an in-place copy into a leaf that requires grad
                # EN: would be an error otherwise, and loading must not be recorded. Any exception
                # EN: on the way becomes one error message with both shapes, and loading goes on
                # EN: with the next key (three paths follow: swap, assign, the default copy).
                try:
                    with no_grad:
                        # 中: swap 路径（全局 swap 开关打开时）：由 `module_load` 造出新张量
                        # 中: （张量子类可以借它定制加载）。
                        # EN: Swap path (the global swap flag on): `module_load` builds the new
                        # EN: tensor (tensor subclasses may customize loading through it).
                        if use_swap_tensors:
                            new_input_param = param.module_load(
                                input_param, assign=assign_to_params_buffers
                            )
                            # 中: 新张量不能是两个输入之一：否则交换会把检查点里的张量
                            # 中: 或参数自身卷进去，所以报错（措辞与 torch 相同）。
                            # EN: It must be neither input, or the swap would drag in the
                            # EN: checkpoint's tensor or the parameter itself; hence torch's error.
                            if id(new_input_param) == id(input_param) or id(new_input_param) == id(
                                param
                            ):
                                raise RuntimeError(
                                    "module_load returned one of self or other, please .detach() "
                                    "the result if returning one of the inputs in module_load"
                                )
                            # 中: 参数交换后仍要是 `Parameter`，
                            # 中: 并沿用原来的 `requires_grad`。
                            # EN: A parameter must still be a `Parameter` after the swap, with its
                            # EN: old `requires_grad`.
                            if isinstance(param, Parameter):
                                if not isinstance(new_input_param, Parameter):
                                    new_input_param = Parameter(
                                        new_input_param,
                                        requires_grad=param.requires_grad,
                                    )
                                else:
                                    new_input_param.requires_grad_(param.requires_grad)
                            # 中: `swap_tensors` 交换两个对象的内容：
                            # 中: 参数对象身份不变，装的是新数据。
                            # EN: `swap_tensors` swaps the two objects' contents: the parameter
                            # EN: object keeps its identity, now holding the new data.
                            torch.utils.swap_tensors(param, new_input_param)
                            del new_input_param
                        elif assign_to_params_buffers:
                            # 中: `assign=True`：参数要保持为 `Parameter`
                            # 中: 并沿用原来的 `requires_grad`（包装不复制数据）。
                            # EN: `assign=True`: a parameter stays a `Parameter` and keeps its
                            # EN: `requires_grad` (wrapping copies no data).
                            if isinstance(param, Parameter):
                                if not isinstance(input_param, Parameter):
                                    input_param = Parameter(
                                        input_param, requires_grad=param.requires_grad
                                    )
                                else:
                                    input_param.requires_grad_(param.requires_grad)
                            # 中: 检查点里的张量本身顶替旧张量，经 `setattr` 由 `__setattr__`
                            # 中: 归入参数或缓冲区。模块此后持有的是新对象：
                            # 中: 之前建好的优化器仍指向旧对象
                            # 中: （所以优化器应在加载之后再建）。
                            # EN: The checkpoint's tensor itself takes the old one's place, through
                            # EN: `setattr`, so `__setattr__` files it as a parameter or buffer. The
                            # EN: module now holds a new object: an optimizer built before still
                            # EN: points at the old one (so build it after).
                            setattr(self, name, input_param)
                        else:
                            # 中: 默认：就地 `copy_`，参数对象与存储都不变，别处持有的引用
                            # 中: （例如优化器）看到的就是加载后的值；
                            # 中: `copy_` 会按需转换数据类型与设备。
                            # EN: Default: an in-place `copy_`: the parameter object and its storage
                            # EN: stay, so references held elsewhere (an optimizer) see the loaded
                            # EN: values; `copy_` converts dtype and device as needed.
                            param.copy_(input_param)
                except Exception as ex:
                    # 中: `module_load`、`copy_` 或 `setattr` 抛出的异常都落到这里：信息写明动作
                    # 中: （swapping 或 copying）、双方形状和异常的 args，
                    # 中: 措辞与 torch 相同。
                    # EN: Exceptions from `module_load`, `copy_` or `setattr` land here; the message
                    # EN: (torch's wording) names the action (swapping or copying), both shapes and
                    # EN: the exception's args.
                    action = "swapping" if use_swap_tensors else "copying"
                    error_msgs.append(
                        f'While {action} the parameter named "{key}", '
                        f"whose dimensions in the model are {param.size()} and "
                        f"whose dimensions in the checkpoint are {input_param.size()}, "
                        f"an exception occurred : {ex.args}."
                    )
            # 中: 键不在字典里：strict 时记为缺失的键（`load_state_dict` 总是传 True）。
            # EN: Key absent: a missing key when strict (`load_state_dict` always passes True).
            elif strict:
                missing_keys.append(key)

        # 中: 第 5 步：额外状态。看的是类有没有覆盖 `set_extra_state`：
        # 中: 覆盖了而字典里没有 → 缺失的键（strict 时）。
        # EN: Step 5: the extra state. What counts is whether the class overrides `set_extra_state`:
        # EN: overridden but absent from the dict, a missing key (when strict).
        extra_state_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if (
            getattr(self.__class__, "set_extra_state", Module.set_extra_state)
            is not Module.set_extra_state
        ):
            # 中: 值原样交给 `set_extra_state`：额外状态可以是任意对象，不必是张量。
            # EN: The value goes to `set_extra_state` as is: extra state may be any object.
            if extra_state_key in state_dict:
                self.set_extra_state(state_dict[extra_state_key])
            elif strict:
                missing_keys.append(extra_state_key)
        # 中: 没覆盖而字典里有 → 多余的键（strict 时）。
        # EN: Not overridden but present, an unexpected key (when strict).
        elif strict and (extra_state_key in state_dict):
            unexpected_keys.append(extra_state_key)

        # 中: 第 6 步：strict 时找出本前缀下的多余键，额外状态键除外（第 5 步已处理）。
        # 中: 每一层只判断自己这一层。陷阱：值为 None 的子模块槽位仍算“存在的子模块”，
        # 中: 它下面的键既不加载也不报告
        # 中: （torch 同样如此）。
        # EN: Step 6: when strict, look for unexpected keys under this prefix, the extra-state key
        # EN: aside (step 5 handled it). Each level judges only its own layer. Pitfall: a child slot
        # EN: holding None still counts as an existing child, so keys under it are neither loaded
        # EN: nor reported (the same in torch).
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_state_key:
                    input_name = key[len(prefix) :].split(".", 1)
                    # 中: 带点的键属于某个子模块：只有子模块名不存在时才算多余，
                    # 中: 子模块内部的多余键由子模块自己判断。
                    # EN: A dotted key belongs to a child: it is unexpected here only if no such
                    # EN: child exists; the child judges keys inside itself.
                    if len(input_name) > 1:
                        if input_name[0] not in self._modules:
                            unexpected_keys.append(key)
                    elif input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(
        self, state_dict: Mapping[str, Any], strict: bool = True, assign: bool = False
    ):
        r"""Copy parameters and buffers from `state_dict` into the module tree. / 把 `state_dict` 中的参数与缓冲区复制进模块树。

        === "中文"

            步骤：

            1. `state_dict` 不是 Mapping 时抛出 `TypeError`。
            2. 复制一份字典（带上 `_metadata`），钩子可以改它而不影响调用者的字典。
            3. 从根开始深度优先，每个模块用 `_load_from_state_dict` 加载自己的张量（总是以
               `strict=True` 调用，所以每一层都收集缺失键与多余键）；传给子模块的字典先按前缀
               过滤，只含属于它的键；子树加载完后运行该模块的加载后钩子。
            4. `strict=True` 时缺失键与多余键作为错误信息放在最前（先“Missing”再“Unexpected”）。
            5. 有任何错误（包括 `strict=False` 时的尺寸不匹配）就合并成一个 `RuntimeError`：
               `Error(s) in loading state_dict for ClassName:`（ClassName 为根模块的类名）
               后接以换行加制表符分隔的各条信息；
               否则返回缺失键与多余键。出错时已写入的张量不会回滚。

            `assign=True` 时不复制而是直接使用检查点中的张量（保留模块原参数的 `requires_grad`），
            常与 `meta` 设备上构建的模型配合使用。
            1.5.1 → 2.13：新增 `assign`、后钩子、非 Mapping 的 `TypeError`，子模块只收到过滤后的字典。

        === "English"

            Steps:

            1. A `state_dict` that is not a Mapping raises `TypeError`.
            2. Copy the dict (carrying `_metadata` over), so hooks may edit it without touching
               the caller's dict.
            3. Depth first from the root, each module loads its own tensors with
               `_load_from_state_dict` (always called with `strict=True`, so every level
               collects missing and unexpected keys); the dict passed to a child is first
               filtered by prefix to the keys that belong to it; after its subtree, each module
               runs its load post-hooks.
            4. With `strict=True`, missing and unexpected keys lead the messages ("Missing"
               first, then "Unexpected").
            5. Any error (size mismatches included, even with `strict=False`) becomes one
               `RuntimeError`: `Error(s) in loading state_dict for ClassName:` (the root
               module's class name) followed by the messages, each after a newline and a tab; otherwise the missing and unexpected
               keys are returned. Tensors already written are not rolled back on an error.

            With `assign=True` the checkpoint's tensors are used instead of copied (keeping the
            module's `requires_grad`), typically for a model built on the `meta` device.
            1.5.1 → 2.13: `assign`, post-hooks and the `TypeError` for a non-Mapping were
            added; children receive filtered dicts.

        Note: Note [Load errors are decided at the top] 加载错误在顶层裁决
            === "中文"

                递归的每一层都往同一组三张列表（缺失键、多余键、错误信息）里追加，从不抛出；
                每个 `_load_from_state_dict` 都以 `strict=True` 调用，只是为了让它记下键。
                整棵树走完之后，才由最顶层的 `load_state_dict` 决定是否报错。这样做有三个好处：
                一个 `RuntimeError` 用完整的点号键列出整棵树的全部问题，而不只是第一个；
                `strict=False` 时返回的两张列表是完整的；加载后钩子可以在裁决之前就地修改列表
                （从 `missing_keys` 里删掉一个键，严格加载就能通过）。
                代价是加载不是事务性的：报错时，所有匹配上的张量已经复制进模型，模型处于
                加载了一半的状态。需要“全有或全无”时，先加载到 `copy.deepcopy` 得到的副本里，
                成功后再换上；或者事先保存一份模型状态的副本（每个张量都用 `clone()` 复制，因为
                `state_dict()` 里的张量与模型共享存储），失败时再把它加载回去。

            === "English"

                Every level of the recursion appends to the same three lists (missing keys,
                unexpected keys, error messages) and never raises; each `_load_from_state_dict`
                is called with `strict=True` only so that it records keys. Only after the whole
                tree does the top-level `load_state_dict` decide whether to raise. This buys
                three things: one `RuntimeError` lists every problem of the tree under full
                dotted keys, not just the first; with `strict=False` both returned lists are
                complete; and load post-hooks can edit the lists in place before the decision
                (remove a key from `missing_keys` and a strict load passes).
                The price: loading is not transactional. When it raises, every tensor that
                matched has already been copied in, and the model is half loaded. For
                all-or-nothing, load into a `copy.deepcopy` of the model and swap it in on
                success, or beforehand keep a copy of the model's state, each tensor copied with
                `clone()` (the tensors of `state_dict()` share storage with the model), and load
                it back on failure.

        Args:
            state_dict: Maps dotted names to tensors. / 点号名字到张量的映射。
            strict: Require keys to match exactly. / 是否要求键完全匹配。
            assign: Use the given tensors instead of copying. / 是否直接使用给定张量而不复制。

        Returns:
            `_IncompatibleKeys(missing_keys, unexpected_keys)`. / 缺失键与多余键。

        Raises:
            TypeError: `state_dict` is not a Mapping. / `state_dict` 不是 Mapping。
            RuntimeError: Any mismatch or copy error. / 任何不匹配或复制错误。

        Examples:
            >>> import torch, annotated_nn as nn
            >>> m = nn.Module(); m.w = nn.Parameter(torch.zeros(2))
            >>> m.load_state_dict({"w": torch.ones(2)})
            <All keys matched successfully>
            >>> m.load_state_dict({"v": torch.ones(2)}, strict=False)
            _IncompatibleKeys(missing_keys=['w'], unexpected_keys=['v'])
        """
        # 中: 第 1 步：只接受 Mapping（键值对列表会被拒绝），报错措辞与 torch 相同。
        # EN: Step 1: only a Mapping is accepted (a list of pairs is refused), with torch's message.
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")

        # 中: 三张列表由整个递归共享：每一层都往同一组列表里追加，
        # 中: 只有这最顶层才把它们变成报错或返回值。
        # EN: The three lists are shared by the whole recursion: every level appends to the same
        # EN: lists, and only this top level turns them into an error or a return value.
        missing_keys: list[str] = []
        unexpected_keys: list[str] = []
        error_msgs: list[str] = []

        # 中: 第 2 步：浅拷贝，钩子和 `_load_from_state_dict` 可以改它而不影响调用者的字典；
        # 中: 张量仍是调用者的（`assign=True` 时模型最终与它共享这些张量）。
        # 中: `_metadata` 不复制，手动带上的就是调用者的那个对象。陷阱：`assign=True` 会把
        # 中: `assign_to_params_buffers` 写进它的条目里，之后用同一个字典以 `assign=False` 加载，
        # 中: 照样按 assign 方式替换
        # 中: （torch 同样如此）。
        # EN: Step 2: a shallow copy, so hooks and `_load_from_state_dict` may edit it without
        # EN: touching the caller's dict; the tensors are the caller's own (with `assign=True` the
        # EN: model ends up sharing them). `_metadata` is not copied: carried over by hand, it is
        # EN: the caller's object, and pitfall: `assign=True` writes `assign_to_params_buffers` into
        # EN: its entries, so a later load of the same dict with `assign=False` still assigns (the
        # EN: same in torch).
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata  # type: ignore[attr-defined]

        def load(module, local_state_dict, prefix="") -> None:
            r"""Load one module, then recurse into its children. / 加载一个模块，再递归进入子模块。

            === "中文"

                每个模块取自己前缀对应的元数据；`assign` 通过元数据中的 `assign_to_params_buffers`
                传下去。子模块拿到的是按前缀过滤后的字典，这样多余键的检查只在相关的键上进行。
                子树加载完毕后运行本模块的加载后钩子，它们看到的是到目前为止累积的键列表。

            === "English"

                Each module takes the metadata of its own prefix; `assign` travels down as
                `assign_to_params_buffers` in the metadata. A child gets the dict filtered to its
                prefix, so unexpected-key checks only look at relevant keys. After the subtree,
                the module's load post-hooks run and see the key lists accumulated so far.

            Args:
                module: The module to load. / 要加载的模块。
                local_state_dict: Keys under `prefix`. / `prefix` 下的键值。
                prefix: The module's key prefix. / 模块的键前缀。

            Raises:
                AssertionError: A post-hook returned a value. / 后钩子返回了值。
            """
            # 中: 每个模块取自己前缀下的元数据（其中的版本号让子类的 `_load_from_state_dict`
            # 中: 迁移旧格式，BatchNorm 就这样补上 `num_batches_tracked`）；
            # 中: `assign` 也放在里面传下去。
            # EN: Each module takes the metadata under its own prefix (its version lets a subclass's
            # EN: `_load_from_state_dict` migrate old formats; BatchNorm does so for
            # EN: `num_batches_tracked`); `assign` travels down inside it.
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(
                local_state_dict,
                prefix,
                local_metadata,
                # 中: `strict` 总是传 True：每一层都收集缺失键与多余键，是否据此报错只在最顶层决定。
                # 中: 这样 `strict=False` 时也能返回完整的两张列表，后钩子总能看到它们，
                # 中: 子类覆盖的 `_load_from_state_dict`
                # 中: 也不必知道调用者的 `strict`。
                # EN: `strict` is always passed as True: every level collects missing and unexpected
                # EN: keys, and whether they are an error is decided only at the top. So
                # EN: `strict=False` still returns both full lists, post-hooks always see them, and
                # EN: an overriding `_load_from_state_dict` need not know the caller's `strict`.
                True,
                missing_keys,
                unexpected_keys,
                error_msgs,
            )
            # DIFF(torch 2.13):
            # 中: torch 为每个子模块把父模块的键整体扫描一遍（键数 × 子模块数次 startswith）；
            # 中: 这里只扫描一遍，按前缀后的第一段分组，每个子模块得到的字典与 torch 的逐键相同、
            # 中: 顺序相同。名字含点的子模块（`add_module` 会拒绝这种名字，
            # 中: 但 `setattr` 和直接写 `_modules` 都不检查）
            # 中: 仍按 torch 的方式过滤。
            # EN: torch scans all of the parent's keys once per child (keys × children startswith
            # EN: calls); here one pass groups them by the first atom after the prefix, and each
            # EN: child gets the same keys in the same order as with torch. A child whose name holds
            # EN: a dot (`add_module` refuses one, but `setattr` and direct writes to `_modules` do
            # EN: not check) is still filtered torch's way.
            groups = None
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    if "." in name:
                        child_state_dict = {
                            k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)
                        }
                    # 中: 普通名字：第一次用到时分组一次，之后的子模块直接取自己的组。
                    # EN: A plain name: group once, on first need; later children take their group.
                    else:
                        if groups is None:
                            groups = _group_keys_by_child(local_state_dict, prefix)
                        child_state_dict = groups.get(name, {})
                    load(child, child_state_dict, child_prefix)  # noqa: F821

            # 中: 后钩子在子树之后运行，所以子模块的先于父模块（自底向上）。它们看到的是共享
            # 中: 列表此刻的内容（包括父模块和前面兄弟追加的条目），可以就地修改，
            # 中: 从而改变最终的严格检查；
            # 中: 返回非 None 会抛 AssertionError。
            # EN: Post-hooks run after the subtree, so children's hooks run before their parent's
            # EN: (bottom up). They see the shared lists as they stand, entries from parents and
            # EN: earlier siblings included, and may edit them in place to change the final strict
            # EN: check; returning non-None raises AssertionError.
            incompatible_keys = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                out = hook(module, incompatible_keys)
                # 中: 返回值不会被采用，所以干脆报错，
                # 中: 提示改为就地修改（措辞与 torch 相同）。
                # EN: A return value would be ignored, so it is an error pointing to in-place edits
                # EN: (torch's wording).
                if out is not None:
                    raise AssertionError(
                        "Hooks registered with ``register_load_state_dict_post_hook`` are not "
                        "expected to return new values, if incompatible_keys need to be modified, "
                        "it should be done inplace."
                    )

        # 中: 第 3 步：从根开始递归加载整棵树（`load` 见上）。`load` 是引用自身的闭包，
        # 中: 形成引用环；用完显式删除，不必等垃圾回收。
        # EN: Step 3: load the whole tree recursively from the root (`load` above). `load` is a
        # EN: self-referencing closure (a reference cycle); delete it to free it without the GC.
        load(self, state_dict)
        del load

        # 中: 第 4 步：strict 时先把 Unexpected 插到最前，再把 Missing 插到它前面，
        # 中: 所以信息的顺序是 Missing、Unexpected，然后是其余错误（按发生顺序）。
        # 中: strict=False 时两张列表只作为返回值。
        # EN: Step 4: when strict, Unexpected is inserted at the front, then Missing before it, so
        # EN: the message reads Missing, Unexpected, then the other errors in the order they
        # EN: occurred. Under strict=False the two lists are only returned.
        if strict:
            if len(unexpected_keys) > 0:
                error_msgs.insert(
                    0,
                    "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected_keys)
                    ),
                )
            # 中: 后插入的 Missing 排到最前。
            # EN: Missing, inserted last, ends up first.
            if len(missing_keys) > 0:
                error_msgs.insert(
                    0,
                    "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing_keys)
                    ),
                )

        # 中: 第 5 步：只要有一条信息就合并成一个 RuntimeError（类名取根模块的）；
        # 中: 否则返回两张列表，`strict=False` 时也一样。此时匹配上的张量都已写入，
        # 中: 报错并不回滚（见 Note [Load errors are decided at the top]）。
        # EN: Step 5: any message at all makes one RuntimeError (named after the root's class);
        # EN: otherwise both lists are returned, under `strict=False` as well. Every matching
        # EN: tensor is already written by now: raising rolls nothing back
        # EN: (see Note [Load errors are decided at the top]).
        if len(error_msgs) > 0:
            raise RuntimeError(
                "Error(s) in loading state_dict for {}:\n\t{}".format(
                    self.__class__.__name__, "\n\t".join(error_msgs)
                )
            )
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    def _named_members(
        self, get_members_fn, prefix="", recurse=True, remove_duplicate: bool = True
    ):
        r"""Yield `(dotted name, member)` over the tree. / 在模块树上逐个产出 `(dotted name, member)`（点号名与成员）。

        === "中文"

            `named_parameters` 与 `named_buffers` 的共同实现：遍历 `named_modules`（`recurse=False`
            时只看自身 `self`），对每个模块调用 `get_members_fn` 取出 `(name, tensor)` 对，
            跳过 `None`。
            `remove_duplicate=True` 时用一个集合记住已产出的张量，被多个模块共享的参数只产出一次
            （以第一次遇到的名字）；同时 `named_modules` 也会去掉重复的模块。
            1.5.1 → 2.13：新增 `remove_duplicate`。

        === "English"

            The shared implementation of `named_parameters` and `named_buffers`: walk
            `named_modules` (only `self` with `recurse=False`), ask `get_members_fn` for each
            module's `(name, tensor)` pairs, skip `None`. With `remove_duplicate=True` a set
            remembers what was yielded, so a parameter shared by several modules comes out once
            (under the first name met), and `named_modules` drops repeated modules too.
            1.5.1 → 2.13: `remove_duplicate` was added.

        Args:
            get_members_fn: Module → iterable of `(name, tensor)`. / 模块 → `(name, tensor)` 的可迭代对象。
            prefix: Prefix for every name. / 每个名字的前缀。
            recurse: Include submodules. / 是否包含子模块。
            remove_duplicate: Yield each tensor once. / 每个张量是否只产出一次。

        Yields:
            `(name, member)` pairs. / `(name, member)` 对。
        """
        # 中: `memo` 按对象身份记住已产出的张量（张量的哈希就是 `id`）。要遍历的模块：
        # 中: `recurse` 时用 `named_modules`（同一个 `remove_duplicate` 也去掉重复的模块），
        # 中: 否则只有自身 `self`，名字就是 `prefix`。
        # EN: `memo` remembers the tensors yielded, by identity (a tensor's hash is its `id`). The
        # EN: modules to walk: `named_modules` when `recurse` (the same `remove_duplicate` drops
        # EN: repeated modules as well), else `self` alone, named `prefix`.
        memo = set()
        modules = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        # 中: 跳过 None 槽位；`remove_duplicate` 时共享的张量只以先序遍历中第一次遇到的名字产出
        # 中: （例如 `a.p` 与 `b.q` 是同一个参数时只产出 `a.p`）。
        # 中: 生成器是惰性的：边遍历边产出。
        # EN: None slots are skipped; with `remove_duplicate` a shared tensor comes out once, under
        # EN: the first name met in pre-order (`a.p`, not `b.q`, for one parameter under both). It
        # EN: is a lazy generator, yielding as it walks.
        for module_prefix, module in modules:
            members = get_members_fn(module)
            for k, v in members:
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                # 中: 点号路径：根的前缀为空时不加点。
                # EN: The dotted path: no dot after an empty root prefix.
                name = module_prefix + ("." if module_prefix else "") + k
                yield name, v

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        r"""Iterate over the parameters. / 遍历参数。

        === "中文"

            `named_parameters` 去掉名字后的结果，通常直接交给优化器：`SGD(model.parameters(), lr=0.1)`。
            共享的参数只出现一次。它是生成器，只能遍历一次。自 1.5.1 起接口不变。

        === "English"

            `named_parameters` without the names, usually handed straight to an optimizer:
            `SGD(model.parameters(), lr=0.1)`. A shared parameter appears once. It is a
            generator: it can be iterated once. Interface unchanged since 1.5.1.

        Args:
            recurse: Include submodules' parameters. / 是否包含子模块的参数。

        Yields:
            Parameters. / 参数。
        """
        for _name, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Parameter]]:
        r"""Iterate over `(dotted name, parameter)`. / 遍历 `(dotted name, parameter)`（点号名与参数）。

        === "中文"

            顺序：深度优先、先父后子，每个模块内按登记顺序。与 `state_dict` 的键顺序一致（后者还
            穿插缓冲区）。1.5.1 → 2.13：新增 `remove_duplicate`。

        === "English"

            Order: depth first, parents before children, registration order within a module —
            the same order as `state_dict`'s keys (which interleave buffers).
            1.5.1 → 2.13: `remove_duplicate` was added.

        Args:
            prefix: Prefix for every name. / 每个名字的前缀。
            recurse: Include submodules. / 是否包含子模块。
            remove_duplicate: Yield a shared parameter once. / 共享参数是否只产出一次。

        Yields:
            `(name, parameter)` pairs. / `(名字, 参数)` 对。
        """
        gen = self._named_members(
            lambda module: module._parameters.items(),
            prefix=prefix,
            recurse=recurse,
            remove_duplicate=remove_duplicate,
        )
        yield from gen

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        r"""Iterate over the buffers. / 遍历缓冲区。

        === "中文"

            包括非持久缓冲区（它们只是不进 `state_dict`）。自 1.5.1 起接口不变。

        === "English"

            Non-persistent buffers are included (they only stay out of `state_dict`).
            Interface unchanged since 1.5.1.

        Args:
            recurse: Include submodules' buffers. / 是否包含子模块的缓冲区。

        Yields:
            Buffers. / 缓冲区。
        """
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(
        self, prefix: str = "", recurse: bool = True, remove_duplicate: bool = True
    ) -> Iterator[tuple[str, Tensor]]:
        r"""Iterate over `(dotted name, buffer)`. / 遍历 `(dotted name, buffer)`（点号名与缓冲区）。

        === "中文"

            与 [`named_parameters`][annotated_nn.modules.module.Module.named_parameters] 顺序规则相同。
            1.5.1 → 2.13：新增 `remove_duplicate`。

        === "English"

            The same ordering rules as [`named_parameters`][annotated_nn.modules.module.Module.named_parameters].
            1.5.1 → 2.13: `remove_duplicate` was added.

        Args:
            prefix: Prefix for every name. / 每个名字的前缀。
            recurse: Include submodules. / 是否包含子模块。
            remove_duplicate: Yield a shared buffer once. / 共享缓冲区是否只产出一次。

        Yields:
            `(name, buffer)` pairs. / `(名字, 缓冲区)` 对。
        """
        gen = self._named_members(
            lambda module: module._buffers.items(),
            prefix=prefix,
            recurse=recurse,
            remove_duplicate=remove_duplicate,
        )
        yield from gen

    def children(self) -> Iterator["Module"]:
        r"""Iterate over the direct children. / 遍历直接子模块。

        === "中文"

            只有一层，不递归；同一个子模块登记在两个名字下时只出现一次。自 1.5.1 起不变。

        === "English"

            One level only, no recursion; a child registered under two names appears once.
            Unchanged since 1.5.1.

        Yields:
            Child modules. / 子模块。
        """
        for _name, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[tuple[str, "Module"]]:
        r"""Iterate over `(name, direct child)`. / 遍历 `(name, direct child)`（名字与直接子模块）。

        === "中文"

            跳过值为 `None` 的槽位；用集合去掉重复的子模块（以第一个名字为准）。自 1.5.1 起不变。

        === "English"

            Skips slots holding `None`; a set removes repeated children (the first name wins).
            Unchanged since 1.5.1.

        Yields:
            `(name, module)` pairs. / `(名字, 模块)` 对。
        """
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self, remove_duplicate: bool = True) -> Iterator["Module"]:
        r"""Iterate over every module of the tree, self first. / 遍历树中每个模块，自身最先。

        === "中文"

            `named_modules` 去掉名字。1.5.1 → 2.13：新增 `remove_duplicate`。

        === "English"

            `named_modules` without the names. 1.5.1 → 2.13: `remove_duplicate` was added.

        Args:
            remove_duplicate: Yield a shared module once. / 共享模块是否只产出一次。

        Yields:
            Modules. / 模块。

        Examples:
            >>> import annotated_nn as nn
            >>> root = nn.Module(); root.a = nn.Module(); root.b = root.a
            >>> len(list(root.modules())), len(list(root.modules(remove_duplicate=False)))
            (2, 3)
        """
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_modules(
        self,
        memo: set["Module"] | None = None,
        prefix: str = "",
        remove_duplicate: bool = True,
    ):
        r"""Iterate over `(dotted name, module)` of the whole tree. / 遍历整棵树的 `(dotted name, module)`（点号名与模块）。

        === "中文"

            前序深度优先，步骤：

            1. 第一次调用时新建 `memo` 集合，之后整个递归共享它。
            2. 已在 `memo` 里的模块连同它的子树一起跳过。
            3. `remove_duplicate=True` 时把自身 `self` 登记进 `memo`，然后产出
               `(prefix, self)`（`prefix` 默认为 `""`）。
            4. 按登记顺序递归每个直接子模块（跳过 `None` 槽位），名字用点号连接。

            于是 `remove_duplicate=True` 时共享的子模块只出现一次，环状引用也不会无限递归；
            `remove_duplicate=False` 时不登记，重复的模块会以各自的路径出现，而环会一直递归到
            `RecursionError`。1.5.1 → 2.13：新增 `remove_duplicate`。

        === "English"

            Pre-order depth first, in steps:

            1. The first call creates the `memo` set; the whole recursion then shares it.
            2. A module already in `memo` is skipped, subtree and all.
            3. With `remove_duplicate=True`, `self` is recorded in `memo`; then
               `(prefix, self)` is yielded (`prefix` is `""` by default).
            4. Recurse into each child in registration order (skipping `None` slots), the names
               joined with dots.

            So with `remove_duplicate=True` a shared child appears once and a cycle does not
            recurse forever; with `remove_duplicate=False` nothing is recorded, a repeated module
            appears under each of its paths, and a cycle recurses until `RecursionError`.
            1.5.1 → 2.13: `remove_duplicate` was added.

        Args:
            memo: Modules already seen (internal). / 已经见过的模块（内部使用）。
            prefix: Name of `self`, prefixed to every name. / `self` 的名字，也是所有名字的前缀。
            remove_duplicate: Yield a shared module once. / 共享模块是否只产出一次。

        Yields:
            `(name, module)` pairs. / `(名字, 模块)` 对。
        """
        # 中: 第 1 步：只有最外层调用新建集合；递归时把同一个 `memo` 传下去。
        # EN: Step 1: only the outermost call creates the set; the recursion passes the same `memo`.
        if memo is None:
            memo = set()
        # 中: 第 2、3 步：见过的模块（共享或成环）整棵子树都跳过；否则先登记
        # 中: （仅 `remove_duplicate` 时）再产出自身，先序：父模块总在子模块之前。
        # EN: Steps 2 and 3: a module seen before (shared, or in a cycle) is skipped with its
        # EN: subtree; else record it (with `remove_duplicate` only), then yield it, parents first.
        if self not in memo:
            if remove_duplicate:
                memo.add(self)
            yield prefix, self
            # 中: 第 4 步：按登记顺序递归直接子模块，跳过 None 槽位；名字用点号连接，
            # 中: 根的前缀为空时不加点。
            # EN: Step 4: recurse into the children in registration order, skipping None slots;
            # EN: names joined with dots, with no dot after an empty root prefix.
            for name, module in self._modules.items():
                if module is None:
                    continue
                submodule_prefix = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, submodule_prefix, remove_duplicate)

    def train(self, mode: bool = True) -> Self:
        r"""Set training mode on self and every descendant. / 为自身及所有后代设置训练模式。

        === "中文"

            只改变 `training` 标志，对 Dropout、BatchNorm 这类在训练与评估时行为不同的层才有影响；
            它与 `requires_grad` 无关，也不会关闭梯度计算（那是 `torch.no_grad()` 的事）。
            通过 `children()` 递归。1.5.1 → 2.13：`mode` 不是 bool 时抛出 `ValueError`。

        === "English"

            Only flips the `training` flag, which matters to layers that behave differently in
            training and evaluation (Dropout, BatchNorm); it is unrelated to `requires_grad` and
            does not turn gradients off (that is `torch.no_grad()`'s job). Recurses through
            `children()`. 1.5.1 → 2.13: a non-bool `mode` raises `ValueError`.

        Args:
            mode: `True` for training, `False` for evaluation. / `True` 训练，`False` 评估。

        Returns:
            self. / 自身。

        Raises:
            ValueError: `mode` is not a bool. / `mode` 不是 bool。
        """
        # 中: 先查类型再改动，所以非 bool 不会留下改了一半的树。
        # 中: 经 `children()` 递归：跳过 None 槽位，共享的子模块只设一次；
        # 中: 但没有环检测，模块树成环时会无限递归。
        # EN: The type is checked before any change, so a non-bool leaves no half-set tree. The
        # EN: recursion goes through `children()`: None slots skipped, a shared child set once; no
        # EN: cycle check, though, so a module tree with a cycle recurses without end.
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Self:
        r"""Set evaluation mode: `train(False)`. / 设置评估模式：即 `train(False)`。

        === "中文"

            与 `torch.no_grad()` 不同：它只改变层的行为，不影响梯度记录。自 1.5.1 起不变。

        === "English"

            Not the same as `torch.no_grad()`: it changes layer behavior only, not gradient
            recording. Unchanged since 1.5.1.

        Returns:
            self. / 自身。
        """
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Self:
        r"""Set `requires_grad` on every parameter. / 为每个参数设置 `requires_grad`。

        === "中文"

            常用于冻结一部分网络（微调）。只影响参数，不影响缓冲区。自 1.5.1 起不变。

        === "English"

            Typically used to freeze part of a network (fine-tuning). Parameters only, not
            buffers. Unchanged since 1.5.1.

        Args:
            requires_grad: The new flag. / 新的标志。

        Returns:
            self. / 自身。
        """
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        r"""Reset the gradients of all parameters. / 重置所有参数的梯度。

        === "中文"

            默认把 `.grad` 设为 `None`：省内存，下次反向传播直接写入而不是累加，优化器也会跳过
            `grad is None` 的参数。`set_to_none=False` 时就地清零（先让梯度脱离计算图）。
            在 DataParallel 的副本上调用没有意义，会发出警告。
            1.5.1 → 2.13：新增 `set_to_none`，其默认值自 2.0 起为 True（1.5.1 总是就地清零）。

        === "English"

            By default `.grad` becomes `None`: it saves memory, the next backward pass writes
            instead of accumulating, and optimizers skip parameters whose `grad is None`. With
            `set_to_none=False` the gradients are zeroed in place (first detached from any graph).
            On a DataParallel replica it is pointless and warns.
            1.5.1 → 2.13: `set_to_none` was added, defaulting to True since 2.0 (1.5.1 always zeroed in place).

        Args:
            set_to_none: Set grads to `None` instead of zero. / 将梯度设为 `None` 而不是清零。
        """
        # 中: DataParallel 副本的参数是从原模块可微地复制来的非叶子张量，不累积梯度，
        # 中: 而且只是普通属性，副本的参数表是空的：
        # 中: 下面的循环什么也不做，所以只发警告。
        # EN: A DataParallel replica's parameters are differentiable copies of the original's,
        # EN: non-leaf tensors that accumulate no gradient, held as plain attributes with an empty
        # EN: parameter table: the loop below does nothing, hence only a warning.
        if getattr(self, "_is_replica", False):
            warnings.warn(
                "Calling .zero_grad() from a module created with nn.DataParallel() has no effect. "
                "The parameters are copied (in a differentiable manner) from the original module. "
                "This means they are not leaf nodes in autograd and so don't accumulate gradients. "
                "If you need gradients in your forward method, consider using autograd.grad instead.",
                stacklevel=2,
            )

        # 中: 默认 `set_to_none`：直接丢掉梯度张量，省内存；
        # 中: 下一次反向传播重新分配并直接写入，不必先在零上累加。
        # 中: 共享参数只出现一次（`parameters()` 已去重）。
        # EN: By default (`set_to_none`) the gradient tensor is dropped, saving memory; the next
        # EN: backward allocates and writes afresh instead of accumulating onto zeros. A shared
        # EN: parameter comes once (`parameters()` removes duplicates).
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                # 中: 就地清零，梯度对象不变（别处持有的引用仍有效）。
                # 中: 梯度若带 grad_fn（`create_graph=True` 的反向传播产生的），
                # 中: 先 `detach_()` 让它脱离计算图，
                # 中: 否则只关掉它的 `requires_grad`；然后 `zero_()`。
                # EN: Zero in place, keeping the gradient object (references held elsewhere stay
                # EN: valid). A gradient with a grad_fn (from a `create_graph=True` backward) is
                # EN: first cut from the graph with `detach_()`, else only its `requires_grad` is
                # EN: turned off; then `zero_()`.
                else:
                    if p.grad.grad_fn is not None:
                        p.grad.detach_()
                    else:
                        p.grad.requires_grad_(False)
                    p.grad.zero_()

    def share_memory(self) -> Self:
        r"""Move every tensor into shared memory. / 把每个张量移入共享内存。

        === "中文"

            为 `torch.multiprocessing` 的多进程训练（如 Hogwild）准备：等价于对每个张量调用
            `share_memory_()`。自 1.5.1 起不变。

        === "English"

            Prepares for multi-process training with `torch.multiprocessing` (Hogwild, say):
            `share_memory_()` on every tensor. Unchanged since 1.5.1.

        Returns:
            self. / 自身。
        """
        return self._apply(lambda t: t.share_memory_())

    def _get_name(self):
        r"""The name shown by `repr`: the class name. / `repr` 中显示的名字：类名。

        === "中文"

            子类可以覆盖它来改变 `repr` 与报错信息里显示的名字。自 1.5.1 起不变。

        === "English"

            Subclasses may override it to change the name shown in `repr` and error messages.
            Unchanged since 1.5.1.

        Returns:
            The class name. / 类名。
        """
        return self.__class__.__name__

    def extra_repr(self) -> str:
        r"""Extra text inside this module's `repr` (override it). / 本模块 `repr` 括号内的额外文本（由子类覆盖）。

        === "中文"

            层通常在这里返回构造参数，例如 `Linear` 返回 `in_features=3, out_features=4, bias=True`。
            单行文本会与类名写在同一行；多行文本每行单独缩进。基类返回空串。自 1.5.1 起不变。

        === "English"

            Layers usually return their constructor arguments here, e.g. `Linear` returns
            `in_features=3, out_features=4, bias=True`. One line goes on the class name's line;
            several lines are indented one by one. The base class returns the empty string.
            Unchanged since 1.5.1.

        Returns:
            The extra text. / 额外文本。
        """
        return ""

    def __repr__(self) -> str:
        r"""Print the module tree. / 打印模块树。

        === "中文"

            格式：`ClassName(` + 内容 + `)`（ClassName 即类名）。内容由 `extra_repr()` 的各行与
            每个子模块的 `(name): child repr`（名字与子模块的 repr）组成，子模块 repr 用
            `_addindent` 缩进两格。只有一行 extra 且没有子模块时写在同一行，否则每行单独缩进。
            值为 `None` 的子模块槽位打印为 `(name): None`。
            自 1.5.1 起格式不变。

        === "English"

            Format: `ClassName(` + body + `)`. The body is the lines of `extra_repr()` plus, for
            each child, `(name): child repr`, indented two spaces by `_addindent`. A single extra
            line with no children stays on one line; otherwise each line is indented on its own.
            A child slot holding `None` prints as `(name): None`. The format is unchanged since 1.5.1.

        Returns:
            The text. / 文本。
        """
        extra_lines = []
        extra_repr = self.extra_repr()
        # 中: 空串会 split 成 ['']，所以先判断是否为空。
        # EN: An empty string would split into [''], hence the check.
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        # 中: 每个子模块槽位递归取 repr（值为 None 的槽位显示为 `None`）；
        # 中: `_addindent` 把除第一行外的各行再缩进 2 格，
        # 中: 于是嵌套几层就缩进几层。extra 的各行排在子模块之前。
        # EN: Each child slot's repr, recursively (a slot holding None shows `None`); `_addindent`
        # EN: indents every line but the first by 2 more spaces, so each nesting level adds one
        # EN: indent. The extra lines come before the children.
        child_lines = []
        for key, module in self._modules.items():
            mod_str = repr(module)
            mod_str = _addindent(mod_str, 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines

        main_str = self._get_name() + "("
        if lines:
            # 中: 只有一行 extra、没有子模块时，写在同一行。
            # EN: A single extra line and no children: keep it on one line.
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"

        main_str += ")"
        return main_str

    def __dir__(self):
        r"""List attributes, including parameters, buffers and submodules. / 列出属性，包括参数、缓冲区和子模块。

        === "中文"

            在类属性与实例字典之外，再加上三张表的键，这样交互环境的自动补全能看到 `self.conv1`
            这类“虚拟”属性。以数字开头的名字（如 `Sequential` 的 `"0"`）不是合法标识符，被去掉。
            结果排序。自 1.5.1 起不变。

        === "English"

            Besides class attributes and the instance dict, adds the keys of the three tables,
            so interactive completion sees "virtual" attributes such as `self.conv1`. Names
            starting with a digit (`Sequential`'s `"0"`) are not identifiers and are dropped.
            The result is sorted. Unchanged since 1.5.1.

        Returns:
            A sorted list of names. / 排好序的名字列表。
        """
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        parameters = list(self._parameters.keys())
        modules = list(self._modules.keys())
        buffers = list(self._buffers.keys())
        keys = module_attrs + attrs + parameters + modules + buffers

        # 中: 去掉以数字开头的名字（如 `Sequential` 的 "0"），它们不能用点号访问。
        # 中: 只看首字符，所以其它非法名字（例如经 `setattr` 留下的含点名字 "a.b"）
        # 中: 仍会列出，与 torch 相同。
        # EN: Drop names starting with a digit (`Sequential`'s "0"), unreachable with a dot. Only
        # EN: the first character is checked, so other invalid names (a dotted "a.b" left by
        # EN: `setattr`) are still listed, as in torch.
        keys = [key for key in keys if not key[0].isdigit()]

        return sorted(keys)

    def _replicate_for_data_parallel(self):
        r"""A shallow copy for one DataParallel replica. / 为 DataParallel 的一个副本做浅拷贝。

        === "中文"

            绕过 `__init__` 直接创建同类对象，复制实例字典；参数表清空（复制过程随后把在目标 GPU 上
            可微地复制出的参数作为普通属性写入实例字典，不放回参数表），缓冲区与子模块表复制为
            新字典，并标记 `_is_replica`（`zero_grad` 据此警告）。
            1.5.1 → 2.13：三张表变为普通 dict；新增 `_is_replica` 标记。

        === "English"

            Creates an object of the same class without `__init__` and copies the instance
            dict; the parameter table is emptied (the replication then writes the parameters,
            copied differentiably onto the target GPU, into the instance dict as plain
            attributes, not back into the table), the buffer and module tables become new dicts,
            and `_is_replica` is set (`zero_grad` warns because of it).
            1.5.1 → 2.13: the tables are plain dicts; the `_is_replica` mark is new.

        Returns:
            The replica. / 副本。
        """
        # 中: 不经 `__init__`，实例字典是浅拷贝：
        # 中: 钩子表等其余条目与原模块共用同一个对象。
        # EN: No `__init__`; the instance dict is a shallow copy: the hook tables and other
        # EN: entries are the very objects of the original module.
        replica = self.__new__(type(self))
        replica.__dict__ = self.__dict__.copy()

        # 中: 副本的参数是广播得到的非叶子张量，不是 `Parameter`。参数表清空后，复制过程
        # 中: 用 `setattr` 写它们时，`__setattr__` 会把它们当普通属性放进实例字典；名字若还在
        # 中: 参数表里，赋非 `Parameter` 会抛 TypeError。
        # 中: 三张表必须是新对象，否则会改到原模块。
        # EN: A replica's parameters are broadcast non-leaf tensors, not `Parameter`s. With the
        # EN: table emptied, the replication's `setattr` makes `__setattr__` file them as plain
        # EN: attributes; a name still in the table would reject a non-`Parameter` with a
        # EN: TypeError. The three tables must be new objects, or edits would reach the original.
        replica._parameters = {}
        replica._buffers = replica._buffers.copy()
        replica._modules = replica._modules.copy()
        replica._is_replica = True  # type: ignore[assignment]

        return replica

    def compile(self, *args, **kwargs) -> None:
        r"""Compile this module's calls with `torch.compile`. / 用 `torch.compile` 编译本模块的调用。

        === "中文"

            编译的是 `_call_impl`（含钩子逻辑），结果存在 `_compiled_call_impl`，之后
            `__call__` 就走编译版本；模块对象本身不变，`state_dict` 的键也不变。对比：
            `torch.compile(model)` 返回一个包装模块 `OptimizedModule`（键带 `_orig_mod.` 前缀）；
            我们的 `Module` 是 `torch.nn.Module` 的子类，所以对它也是如此。
            参数原样转给 `torch.compile`。1.5.1 中没有。

        === "English"

            What gets compiled is `_call_impl` (hook logic included); the result is stored in
            `_compiled_call_impl` and `__call__` takes it from then on. The module object itself
            stays the same, as do its `state_dict` keys. Compare: `torch.compile(model)` returns
            a wrapper module, an `OptimizedModule` (keys prefixed `_orig_mod.`); our `Module`
            subclasses `torch.nn.Module`, so this holds for ours too. Arguments go straight to `torch.compile`. Not in 1.5.1.

        Args:
            *args: Passed to `torch.compile`. / 传给 `torch.compile`。
            **kwargs: Passed to `torch.compile`. / 传给 `torch.compile`。
        """
        self._compiled_call_impl = torch.compile(self._call_impl, *args, **kwargs)
