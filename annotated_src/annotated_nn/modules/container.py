r"""Containers: modules that hold other modules or parameters. / 容器：装载其他模块或参数的模块。

Mirrors `torch.nn.modules.container` of torch 2.13: the deprecated `Container`, the chained
`Sequential`, the list-like `ModuleList` and `ParameterList`, and the dict-like `ModuleDict` and
`ParameterDict`. None of them stores anything of its own: every element is an ordinary submodule,
parameter or attribute of the container, registered through `Module.__setattr__`/`add_module`, so
`parameters()`, `state_dict()`, `to()` and the hooks see them without any extra code. What the
classes add is the Python list/dict protocol on top of the string keys `"0"`, `"1"`, ...

对应 torch 2.13 的 `torch.nn.modules.container`：已弃用的 `Container`、串联执行的 `Sequential`、
像列表的 `ModuleList` 与 `ParameterList`、像字典的 `ModuleDict` 与 `ParameterDict`。它们自己不另存数据：
每个元素都是容器上普通的子模块（submodule）、参数（parameter）或属性，经 `Module.__setattr__` 或
`add_module` 注册，因此 `parameters()`、`state_dict()`、`to()` 和各种钩子（hook）无需额外代码就能看到它们。
这些类所做的，只是在字符串键 `"0"`、`"1"`…… 之上实现 Python 的列表 / 字典协议。
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from collections import abc as container_abcs
from itertools import chain, islice
from typing import TYPE_CHECKING, Any, TypeVar, overload

import torch

# 中: `_copy_to_script_wrapper` 只给函数挂一个 TorchScript 标记属性，不改变任何行为；
# 中: 照 torch 保留，让每个方法的属性与 torch 的一致。
# EN: `_copy_to_script_wrapper` only tags a function with a TorchScript marker attribute and
# EN: changes no behavior; kept as in torch so each method carries the same attributes as
# EN: torch's.
from torch._jit_internal import _copy_to_script_wrapper
from typing_extensions import Self, deprecated

from annotated_nn.parameter import Parameter

from .module import Module

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping


__all__ = [
    "Container",
    "Sequential",
    "ModuleList",
    "ModuleDict",
    "ParameterList",
    "ParameterDict",
]


def _addindent(s_, numSpaces):
    r"""Indent every line but the first, blank lines included. / 为除首行外的每一行加缩进，空行也不例外。

    === "中文"

        torch 的 `container.py` 保留着一份自己的 `_addindent`，与 `module.py` 里的那份有一处不同：
        这里连空行也加上缩进（得到只有空格的行），而 `Module.__repr__` 用的版本把空行留空。
        `ModuleList.__repr__` 用的是这一份，所以子模块的 repr 里有空行时，两者打印出来不一样；
        为了与 torch 逐字节一致，我们也保留两份。

    === "English"

        torch's `container.py` keeps its own `_addindent`, which differs from `module.py`'s in
        one detail: it indents blank lines too (leaving lines of spaces), while the version
        `Module.__repr__` uses leaves them empty. `ModuleList.__repr__` uses this one, so the
        two print differently when a child's repr holds a blank line; to stay byte-identical
        with torch we keep both as well.

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
    lines = [(numSpaces * " ") + line for line in lines]
    return first + "\n" + "\n".join(lines)


T = TypeVar("T", bound=Module)
_V = TypeVar("_V")


@deprecated(
    "`nn.Container` is deprecated. "
    "All of its functionality is now implemented in `nn.Module`. Subclass that instead.",
    category=FutureWarning,
)
class Container(Module):
    r"""Deprecated: a Module built from keyword submodules. / 已弃用：用关键字参数登记子模块的 Module。

    === "中文"

        早期 PyTorch 用它把子模块按关键字参数登记起来；如今 `Module` 本身就能做到这一切，
        所以它只剩兼容作用。`typing_extensions.deprecated` 装饰器让“创建实例”和“定义子类”
        这两个动作都发出 `FutureWarning`。
        1.5.1 → 2.13：1.5.1 在 `__init__` 里发出普通的 `UserWarning`；2.13 改用 `deprecated`
        装饰器，类别为 `FutureWarning`，定义子类时也会警告。

    === "English"

        Early PyTorch used it to register submodules given as keyword arguments; `Module` itself
        does all of that now, so the class survives only for compatibility. The
        `typing_extensions.deprecated` decorator makes both creating an instance and defining a
        subclass emit a `FutureWarning`.
        1.5.1 → 2.13: 1.5.1 warned with a plain `UserWarning` from `__init__`; 2.13 uses the
        `deprecated` decorator with `FutureWarning`, which also fires on subclassing.

    Examples:
        >>> import warnings, annotated_nn as nn
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     c = nn.Container(body=nn.Module())
        >>> caught[0].category.__name__, list(c._modules)
        ('FutureWarning', ['body'])
    """

    def __init__(self, **kwargs: Any) -> None:
        r"""Register each keyword argument as a submodule. / 把每个关键字参数登记为子模块。

        === "中文"

            按关键字参数的顺序逐个调用 `add_module(key, value)`，所以名字和值要满足
            `add_module` 的所有检查。

        === "English"

            Calls `add_module(key, value)` for each keyword argument in order, so names and values
            go through all of `add_module`'s checks.

        Args:
            **kwargs: Submodules by name. / 以名字为键的子模块。
        """
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


class Sequential(Module):
    r"""A chain of modules: each one's output is the next one's input. / 模块链：前一个的输出是后一个的输入。

    === "中文"

        构造时按顺序传入若干模块，或者传入一个 `OrderedDict`（此时用字典的键作名字，
        否则用 `"0"`、`"1"`……）。前向传播（forward pass）把输入交给第一个模块，
        再把每个模块的输出交给下一个，最后返回末尾模块的输出。与手写一连串调用相比，
        好处在于整条链本身就是一个模块：`to()`、`state_dict()`、`train()` 等会作用到每一环。
        它与 [`ModuleList`][annotated_nn.modules.container.ModuleList] 的区别：后者只是“存放”
        模块的列表，没有 `forward`，怎么调用由使用者决定；而 `Sequential` 自己决定如何调用其中的
        模块。

    === "English"

        Pass modules in order, or one `OrderedDict` (its keys become the names; otherwise the
        names are `"0"`, `"1"`, ...). The forward pass feeds the input to the first module, each
        output to the next module, and returns the last output. Compared with calling the modules
        by hand, the chain is itself a module: `to()`, `state_dict()`, `train()` and friends reach
        every link. Unlike [`ModuleList`][annotated_nn.modules.container.ModuleList], which only
        stores modules and has no `forward` (its user decides how to call them), a `Sequential`
        decides how its modules are called.

    Examples:
        >>> from collections import OrderedDict
        >>> import annotated_nn as nn
        >>> nn.Sequential(OrderedDict([("stem", nn.Module()), ("head", nn.Module())]))
        Sequential(
          (stem): Module()
          (head): Module()
        )
    """

    _modules: dict[str, Module]  # type: ignore[assignment]

    @overload
    def __init__(self, *args: Module) -> None: ...

    @overload
    def __init__(self, arg: OrderedDict[str, Module]) -> None: ...

    def __init__(self, *args):
        r"""Register the given modules in order. / 按顺序登记给定的模块。

        === "中文"

            只有“恰好一个参数且它是 `OrderedDict`”时才按字典的键命名；普通 `dict`
            会被当成一个模块传给 `add_module`，从而报类型错误。

        === "English"

            Only a single `OrderedDict` argument is read as name → module pairs; a plain `dict`
            is treated as a module and rejected by `add_module` with a type error.

        Args:
            *args: Modules, or a single `OrderedDict` of them. / 若干模块，或一个装着模块的 `OrderedDict`。
        """
        # 中: 名字要么来自唯一的 `OrderedDict` 参数，要么是位置 `str(idx)`。每个值都经
        # 中: `add_module` 检查：非模块报 `TypeError`，但 `None` 会被接受并登记为占位
        # 中: （之后前向传播调用它时才失败）。
        # EN: Names come either from the single `OrderedDict` argument or from the positions
        # EN: `str(idx)`. Each value goes through `add_module`: a non-module raises `TypeError`,
        # EN: but `None` is accepted and registered as a placeholder (failing only once the
        # EN: forward pass calls it).
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def _get_item_by_idx(self, iterator: Iterable[_V], idx: int) -> _V:
        r"""Return the idx-th element of an iterator over the modules. / 取出遍历模块时的第 idx 个元素。

        === "中文"

            `Sequential` 的键可以是任意名字（来自 `OrderedDict`），不能像 `ModuleList`
            那样直接拼出 `str(idx)`，所以按位置数过去。先用 `operator.index` 拒绝非整数，
            再检查范围，负数下标按 Python 习惯从末尾计。

        === "English"

            A `Sequential`'s keys may be arbitrary names (from an `OrderedDict`), so the key
            cannot be built as `str(idx)` as in `ModuleList`; the position is counted instead.
            `operator.index` rejects non-integers, the range is checked, and negative indices
            count from the end as usual in Python.

        Args:
            iterator: Keys or values of `_modules`. / `_modules` 的键或值。
            idx: Position, may be negative. / 位置，可为负数。

        Returns:
            The element at that position. / 该位置上的元素。

        Raises:
            IndexError: `idx` outside `[-len, len)`. / `idx` 不在 `[-len, len)` 内。
            TypeError: `idx` is not an integer. / `idx` 不是整数。
        """
        # 中: 先 `operator.index`（非整数报 `TypeError`），再查范围（错误信息与 torch 相同），
        # 中: `%=` 把负数换成正位置。`islice` 要从头走 idx 步，所以每次按位置取值是 O(n)，
        # 中: 而 `ModuleList` 直接查 `str(idx)` 是 O(1)。
        # EN: `operator.index` first (`TypeError` for non-integers), then the range check (torch's
        # EN: message); `%=` turns a negative index into a position. `islice` walks idx steps
        # EN: from the start, so each positional lookup is O(n), where `ModuleList` looks up
        # EN: `str(idx)` in O(1).
        size = len(self)
        idx = operator.index(idx)
        if not -size <= idx < size:
            raise IndexError(f"index {idx} is out of range")
        idx %= size
        return next(islice(iterator, idx, None))

    @_copy_to_script_wrapper
    def __getitem__(self, idx: slice | int) -> Sequential | Module:
        r"""Index a module, or slice a new container. / 按下标取模块，或用切片得到新容器。

        === "中文"

            切片返回同一个类的新实例，用 `OrderedDict` 构造，因此保留原来的名字
            （不会重新编号），而且里面的模块与原容器共享，不是拷贝。

        === "English"

            A slice returns a new instance of the same class built from an `OrderedDict`, so the
            original names are kept (no renumbering) and the modules are shared, not copied.

        Args:
            idx: Integer position or slice. / 整数位置或切片。

        Returns:
            The module, or a new container of the same class. / 模块，或同类的新容器。

        Raises:
            IndexError: Position out of range. / 位置越界。
        """
        # 中: 切片经 `self.__class__(OrderedDict(...))` 重建：名字保留、模块共享。
        # 中: 子类的 `__init__` 若需要别的参数，切片会在这里失败。
        # EN: A slice is rebuilt through `self.__class__(OrderedDict(...))`: names kept, modules
        # EN: shared. A subclass whose `__init__` needs other arguments fails here.
        if isinstance(idx, slice):
            return self.__class__(OrderedDict(list(self._modules.items())[idx]))
        else:
            return self._get_item_by_idx(self._modules.values(), idx)

    def __setitem__(self, idx: int, module: Module) -> None:
        r"""Replace the module at a position, keeping its name. / 替换某位置上的模块，名字不变。

        === "中文"

            先找到该位置对应的名字，再用 `setattr` 赋值，所以非模块的值会被
            `Module.__setattr__` 以 `TypeError` 拒绝。

        === "English"

            Finds the name at that position and assigns through `setattr`, so a non-module value
            is rejected by `Module.__setattr__` with a `TypeError`.

        Args:
            idx: Integer position. / 整数位置。
            module: The new module. / 新模块。

        Raises:
            IndexError: Position out of range. / 位置越界。
        """
        key: str = self._get_item_by_idx(self._modules.keys(), idx)
        return setattr(self, key, module)

    def __delitem__(self, idx: slice | int) -> None:
        r"""Delete modules by position or slice, then renumber. / 按位置或切片删除模块，然后重新编号。

        === "中文"

            删除后把剩下的模块按顺序改名为 `"0"`、`"1"`……，即使原来的名字来自
            `OrderedDict` 也一样；`_modules` 随之换成一个新的 `OrderedDict`。
            1.5.1 → 2.13：1.5.1 删除后不重新编号，留下的名字保持不变。

        === "English"

            The remaining modules are renamed `"0"`, `"1"`, ... in order afterwards, even if their
            names came from an `OrderedDict`; `_modules` is replaced by a new `OrderedDict`.
            1.5.1 → 2.13: 1.5.1 did not renumber; the remaining names were kept.

        Args:
            idx: Integer position or slice. / 整数位置或切片。

        Raises:
            IndexError: Position out of range. / 位置越界。
        """
        # 中: 先把要删的名字取成列表再逐个 `delattr`（经 `Module.__delattr__` 移出
        # 中: `_modules`），避免边遍历边修改字典。
        # EN: The names to delete are listed first, then removed one by one with `delattr`
        # EN: (through `Module.__delattr__`, out of `_modules`), so the dict is not changed
        # EN: while iterated.
        if isinstance(idx, slice):
            for key in list(self._modules.keys())[idx]:
                delattr(self, key)
        else:
            key = self._get_item_by_idx(self._modules.keys(), idx)
            delattr(self, key)
        # 中: 重新编号，让名字与位置再次对应（append 等方法依赖 `str(len(self))` 是新名字）。
        # 中: 代价是来自 `OrderedDict` 的名字在任何一次删除后都会丢失。
        # EN: Renumber so names match positions again (append and friends use `str(len(self))`
        # EN: as the new name). The price: names from an `OrderedDict` are lost after any
        # EN: deletion.
        str_indices = [str(i) for i in range(len(self._modules))]
        self._modules = OrderedDict(zip(str_indices, self._modules.values(), strict=True))

    @_copy_to_script_wrapper
    def __len__(self) -> int:
        r"""Number of modules in the chain. / 链中模块的个数。

        === "中文"

            就是 `_modules` 的长度。

        === "English"

            Simply the length of `_modules`.

        Returns:
            The number of submodules. / 子模块个数。
        """
        return len(self._modules)

    def __add__(self, other) -> Sequential:
        r"""Concatenate two Sequentials into a new one. / 把两个 Sequential 拼接成新的一个。

        === "中文"

            结果总是一个普通的 `Sequential`（即使 `self` 是子类），按 `"0"`、`"1"`……
            重新命名，模块本身是共享的。另一方不是 `Sequential` 时抛出 `ValueError`
            （注意不是 `TypeError`，也不会返回 `NotImplemented`）。

        === "English"

            The result is always a plain `Sequential` (even when `self` is a subclass), renamed
            `"0"`, `"1"`, ..., sharing the modules. A non-`Sequential` operand raises `ValueError`
            (not `TypeError`, and no `NotImplemented` is returned).

        Args:
            other: Another `Sequential`. / 另一个 `Sequential`。

        Returns:
            A new `Sequential`. / 新的 `Sequential`。

        Raises:
            ValueError: `other` is not a `Sequential`. / `other` 不是 `Sequential`。
        """
        # 中: 新建普通的 `Sequential`（不是 `type(self)`），用 `append` 逐个加入，所以名字从
        # 中: `"0"` 重新编号，与两边原来的名字无关；模块对象共享，不拷贝。
        # EN: A fresh plain `Sequential` (not `type(self)`) filled with `append`, so names
        # EN: restart at `"0"` whatever the operands' names were; module objects are shared, not
        # EN: copied.
        if isinstance(other, Sequential):
            ret = Sequential()
            for layer in self:
                ret.append(layer)
            for layer in other:
                ret.append(layer)
            return ret
        # 中: 其他操作数抛出 `ValueError`（torch 的原文）。因为是抛异常而不是返回
        # 中: `NotImplemented`，Python 不会再去尝试 `other.__radd__`。
        # EN: Any other operand raises `ValueError` (torch's text). Raising instead of returning
        # EN: `NotImplemented` means Python never tries `other.__radd__`.
        else:
            raise ValueError(
                "add operator supports only objects "
                f"of Sequential class, but {str(type(other))} is given."
            )

    def pop(self, key: int | slice) -> Module:
        r"""Remove and return the module(s) at a position. / 删除并返回某位置上的模块。

        === "中文"

            先取 `self[key]` 再 `del self[key]`，因此切片返回同类的新容器，
            剩下的模块会重新编号。

        === "English"

            Reads `self[key]`, then runs `del self[key]`: a slice returns a new container of the
            same class, and the remaining modules are renumbered.

        Args:
            key: Integer position or slice. / 整数位置或切片。

        Returns:
            The removed module, or a container for a slice. / 被删除的模块；切片时为容器。

        Raises:
            IndexError: Position out of range. / 位置越界。
        """
        # 中: 先读后删：删除会重新编号，删完再读就会拿到原来下一个位置的模块。
        # EN: Read first, then delete: deletion renumbers, so reading afterwards would return the
        # EN: module that used to come next.
        v = self[key]
        del self[key]
        return v

    def __iadd__(self, other) -> Self:
        r"""Append another Sequential's modules in place. / 就地追加另一个 Sequential 的模块。

        === "中文"

            新模块的名字从 `len(self)` 开始编号。

        === "English"

            The new modules are named from `len(self)` onwards.

        Args:
            other: Another `Sequential`. / 另一个 `Sequential`。

        Returns:
            `self`. / `self` 本身。

        Raises:
            ValueError: `other` is not a `Sequential`. / `other` 不是 `Sequential`。
        """
        # 中: 与 `__add__` 不同，`self` 保留自己的类和已有名字，新模块取名
        # 中: `str(i + offset)`。`s += s` 会边遍历边往同一个 `_modules` 加键，抛出
        # 中: `RuntimeError: dictionary changed size during iteration`，而此前已加入一个模块。
        # EN: Unlike `__add__`, `self` keeps its class and its names; new modules are named
        # EN: `str(i + offset)`. `s += s` adds keys to the `_modules` it is iterating and raises
        # EN: `RuntimeError: dictionary changed size during iteration`, one module already added.
        if isinstance(other, Sequential):
            offset = len(self)
            for i, module in enumerate(other):
                self.add_module(str(i + offset), module)
            return self
        # 中: 错误类型与信息都与 `__add__` 相同。
        # EN: Same error type and message as `__add__`.
        else:
            raise ValueError(
                "add operator supports only objects "
                f"of Sequential class, but {str(type(other))} is given."
            )

    def __mul__(self, other: int) -> Sequential:
        r"""Repeat the chain `other` times into a new Sequential. / 把整条链重复 `other` 次，得到新的 Sequential。

        === "中文"

            重复的是同一批模块对象（共享参数），不是拷贝。因子必须是正整数
            （`bool` 也算整数）。

        === "English"

            The same module objects are repeated (parameters are shared), not copies. The factor
            must be a positive integer (a `bool` counts as an integer too).

        Args:
            other: Repetition factor. / 重复次数。

        Returns:
            A new `Sequential`. / 新的 `Sequential`。

        Raises:
            TypeError: `other` is not an `int`. / `other` 不是 `int`。
            ValueError: `other <= 0`. / `other <= 0`。
        """
        # DIFF(torch 2.13):
        # 中: 错误信息里的 `type(self)` 显示为 `annotated_nn...` 路径，而 torch 显示
        # 中: `torch.nn...`。
        # EN: `type(self)` in the messages shows an `annotated_nn...` path where torch shows
        # EN: `torch.nn...`.
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        elif other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        # 中: 同一批模块对象登记 `other` 次，参数共享：`seq * 3` 把同一组权重用三次，
        # 中: 要独立的层请用 `copy.deepcopy`。`parameters()` 按对象去重，参数个数不变。
        # EN: The same module objects are registered `other` times and share parameters:
        # EN: `seq * 3` applies one set of weights three times; use `copy.deepcopy` for
        # EN: independent layers. `parameters()` dedupes by identity, so the count is unchanged.
        else:
            combined = Sequential()
            offset = 0
            for _ in range(other):
                for module in self:
                    combined.add_module(str(offset), module)
                    offset += 1
            return combined

    def __rmul__(self, other: int) -> Sequential:
        r"""Support `n * seq` the same as `seq * n`. / 让 `n * seq` 与 `seq * n` 相同。

        === "中文"

            直接转给 `__mul__`。

        === "English"

            Simply delegates to `__mul__`.

        Args:
            other: Repetition factor. / 重复次数。

        Returns:
            A new `Sequential`. / 新的 `Sequential`。
        """
        return self.__mul__(other)

    def __imul__(self, other: int) -> Self:
        r"""Repeat the chain `other` times in place. / 就地把整条链重复 `other` 次。

        === "中文"

            通过名字 `"0"` … `str(len - 1)` 读取原有模块，所以名字来自 `OrderedDict`
            （不是数字）的 `Sequential` 在 `other >= 2` 时会抛出 `KeyError`（与 torch 相同）。

        === "English"

            Reads the original modules by the names `"0"` ... `str(len - 1)`, so a `Sequential`
            whose names came from an `OrderedDict` (not digits) raises `KeyError` here when
            `other >= 2`, as in torch.

        Args:
            other: Repetition factor. / 重复次数。

        Returns:
            `self`. / `self` 本身。

        Raises:
            TypeError: `other` is not an `int`. / `other` 不是 `int`。
            ValueError: `other <= 0`. / `other <= 0`。
        """
        # 中: 检查与错误信息同 `__mul__`。
        # EN: The same checks and messages as `__mul__`.
        if not isinstance(other, int):
            raise TypeError(f"unsupported operand type(s) for *: {type(self)} and {type(other)}")
        elif other <= 0:
            raise ValueError(f"Non-positive multiplication factor {other} for {type(self)}")
        # 中: 按名字 `"0"`…`str(len - 1)` 读原有模块，所以名字必须是数字：`OrderedDict`
        # 中: 名字在 `other >= 2` 时抛 `KeyError`；`other == 1` 什么也不做。副本接在后面
        # 中: 编号，是同一批对象。
        # EN: The originals are read by the names `"0"` ... `str(len - 1)`, so the names must be
        # EN: digits: `OrderedDict` names raise `KeyError` when `other >= 2`; `other == 1` does
        # EN: nothing. The copies take the next numbers and are the same objects.
        else:
            len_original = len(self)
            offset = len(self)
            for _ in range(other - 1):
                for i in range(len_original):
                    self.add_module(str(i + offset), self._modules[str(i)])
                offset += len_original
            return self

    @_copy_to_script_wrapper
    def __dir__(self) -> list[str]:
        r"""`dir()` without the digit-only names. / 去掉纯数字名字的 `dir()`。

        === "中文"

            `"0"`、`"1"` 这样的名字不能写成 `seq.0`，放进 `dir()` 只会干扰自动补全。

        === "English"

            Names like `"0"` and `"1"` cannot be written as `seq.0`; listing them in `dir()`
            would only confuse tab completion.

        Returns:
            Attribute names. / 属性名列表。
        """
        keys = super().__dir__()
        keys = [key for key in keys if not key.isdigit()]
        return keys

    @_copy_to_script_wrapper
    def __iter__(self) -> Iterator[Module]:
        r"""Iterate over the modules in order. / 按顺序遍历模块。

        === "中文"

            遍历的是模块（值），不是名字。

        === "English"

            Yields the modules (values), not their names.

        Returns:
            An iterator over the submodules. / 子模块的迭代器。
        """
        return iter(self._modules.values())

    def forward(self, input):
        r"""Run the input through every module in turn. / 让输入依次经过每个模块。

        === "中文"

            每个模块都通过 `module(input)` 调用（不是 `module.forward`），所以各自的钩子
            照常执行。每一步只传一个值；需要多个输入的模块要自己拆包。空链原样返回输入。

        === "English"

            Each module is called as `module(input)` (not `module.forward`), so its hooks run.
            Exactly one value is passed between steps; modules that need several inputs must
            unpack it themselves. An empty chain returns the input unchanged.

        Args:
            input: Input to the first module. / 第一个模块的输入。

        Returns:
            Output of the last module. / 最后一个模块的输出。

        Examples:
            >>> import torch, annotated_nn as nn
            >>> nn.Sequential()(torch.ones(2))
            tensor([1., 1.])
        """
        # 中: `module(input)` 走 `Module.__call__`，每个子模块的钩子照常运行；`input` 被逐步
        # 中: 重新绑定：一个值进、一个值出。
        # EN: `module(input)` goes through `Module.__call__`, so each child's hooks run; `input`
        # EN: is rebound step by step: one value in, one value out.
        for module in self:
            input = module(input)
        return input

    def append(self, module: Module) -> Self:
        r"""Append a module at the end. / 在末尾追加一个模块。

        === "中文"

            新名字是 `str(len(self))`，经 `add_module` 登记。

        === "English"

            The new name is `str(len(self))`; registration goes through `add_module`.

        Args:
            module: Module to append. / 要追加的模块。

        Returns:
            `self`, so calls can be chained. / `self`，便于链式调用。
        """
        # 中: 新名字 `str(len(self))` 只在名字恰为 0…n−1 时不会撞名；若 `OrderedDict` 里已有
        # 中: 名为 `"1"` 的模块而长度为 1，`add_module` 会直接覆盖它，长度不变。
        # EN: The new name `str(len(self))` is collision-free only while the names are 0…n−1; if
        # EN: an `OrderedDict` gave a module the name `"1"` and the length is 1, `add_module`
        # EN: silently overwrites it and the length stays the same.
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Self:
        r"""Insert a module before position `index`. / 在位置 `index` 之前插入一个模块。

        === "中文"

            把位于 `index` 及其之后的模块逐个往后挪一位（按名字 `str(i)` 移动），再把新模块放到
            `str(index)`。直接写 `_modules`，不经过 `add_module`，因此不会触发全局的
            模块注册钩子。允许 `index == len(self)`（相当于追加）。

        === "English"

            Moves the modules at `index` and after it one step back (by the names `str(i)`), then stores the
            new module at `str(index)`. It writes `_modules` directly instead of calling
            `add_module`, so global module registration hooks do not fire. `index == len(self)`
            is allowed (an append).

        Args:
            index: Position, may be negative. / 位置，可为负数。
            module: Module to insert. / 要插入的模块。

        Returns:
            `self`. / `self` 本身。

        Raises:
            AssertionError: `module` is not a `Module`. / `module` 不是 `Module`。
            IndexError: `index` outside `[-len, len]`. / `index` 不在 `[-len, len]` 内。
        """
        # 中: 任何 `torch.nn.Module`（我们的模块也是）都可插入；错误信息里显示的类与 torch 相同。
        # EN: Any `torch.nn.Module` (ours are too) may be inserted; the class shown in the message
        # EN: is the same as torch's.
        if not isinstance(module, torch.nn.Module):
            raise AssertionError(f"module should be of type: {torch.nn.Module}")
        # 中: 允许 `index == n`（即追加）；负数从末尾计。错误信息是 torch 的原文。
        # EN: `index == n` is allowed (an append); negatives count from the end. The message is
        # EN: torch's text.
        n = len(self._modules)
        if not (-n <= index <= n):
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        # 中: 从末尾往前直到 `index`，按数字名字逐个后挪，再放入新模块。直接写 `_modules`：不经
        # 中: `add_module`，也就不触发全局模块注册钩子。名字来自 `OrderedDict` 时，
        # 中: 挪动会碰到不存在的数字键而抛 `KeyError`。
        # EN: Shift back by numeric names from the end down to `index`, then store the new
        # EN: module. `_modules` is written directly: no `add_module`, so no global module
        # EN: registration hook fires. With `OrderedDict` names the shift hits a missing numeric
        # EN: key and raises `KeyError`.
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential: Iterable[Module]) -> Self:
        r"""Append every module of an iterable. / 追加一个可迭代对象中的全部模块。

        === "中文"

            对每个元素调用 `append`；与 `ModuleList.extend` 不同，这里不预先检查参数
            是否可迭代。

        === "English"

            Calls `append` for each element; unlike `ModuleList.extend` there is no upfront
            check that the argument is iterable.

        Args:
            sequential: Modules to append, e.g. another `Sequential`. / 要追加的模块，例如另一个 `Sequential`。

        Returns:
            `self`. / `self` 本身。
        """
        # 中: 每个元素都经 `append` → `add_module`。不可迭代的参数在 `for` 处得到 Python 自己的
        # 中: `TypeError`；`s.extend(s)` 边遍历边加键，抛 `RuntimeError`（此前已加入一个）。
        # EN: Each element goes through `append` → `add_module`. A non-iterable argument gets
        # EN: Python's own `TypeError` at the `for`; `s.extend(s)` adds keys while iterating and
        # EN: raises `RuntimeError` (after one module was added).
        for layer in sequential:
            self.append(layer)
        return self


class ModuleList(Module):
    r"""A list of submodules, registered so Module methods see them. / 子模块列表，且都已登记，Module 的方法都能看到。

    === "中文"

        用法和 Python 列表一样（下标、切片、`append`、`extend`、`insert`），但放进去的模块
        都登记为子模块，名字是 `"0"`、`"1"`……。普通 `list` 里的模块则不会被
        `parameters()` 或 `to()` 看到。它没有 `forward`：遍历与调用方式由使用者的
        `forward` 决定。`repr` 会把连续重复的子模块合并成一行，如 `(0-2): 3 x Linear(...)`。

    === "English"

        Works like a Python list (indexing, slicing, `append`, `extend`, `insert`), but every
        module put in is registered as a submodule named `"0"`, `"1"`, .... Modules kept in a
        plain `list` would be invisible to `parameters()` or `to()`. It has no `forward`: the
        owner's `forward` decides how to loop over and call them. Its `repr` collapses runs of
        identical children into one line such as `(0-2): 3 x Linear(...)`.

    Args:
        modules: Optional iterable of modules to add. / 可选，要加入的模块的可迭代对象。

    Examples:
        >>> import annotated_nn as nn
        >>> nn.ModuleList([nn.Module() for _ in range(3)])
        ModuleList(
          (0-2): 3 x Module()
        )
    """

    _modules: dict[str, Module]  # type: ignore[assignment]

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        r"""Create the list, optionally filled from an iterable. / 创建列表，可选地用可迭代对象填充。

        === "中文"

            实际工作交给 `self += modules`，即 `extend`。

        === "English"

            The work is done by `self += modules`, i.e. `extend`.

        Args:
            modules: Optional iterable of modules. / 可选的模块可迭代对象。

        Raises:
            TypeError: `modules` is not iterable. / `modules` 不可迭代。
        """
        super().__init__()
        if modules is not None:
            self += modules

    def _get_abs_string_index(self, idx):
        r"""Turn a possibly negative index into its key string. / 把可能为负的下标转成对应的键字符串。

        === "中文"

            名字总是 `"0"` 到 `str(len - 1)`，所以把负数下标加上长度后转成字符串即是键。

        === "English"

            The names are always `"0"` to `str(len - 1)`, so adding the length to a negative index
            and converting to a string gives the key.

        Args:
            idx: Integer index. / 整数下标。

        Returns:
            The key, e.g. `"2"`. / 键，例如 `"2"`。

        Raises:
            IndexError: Index out of range. / 下标越界。
            TypeError: `idx` is not an integer. / `idx` 不是整数。
        """
        # 中: 名字总是 `"0"`…`str(n − 1)`（`__delitem__` 维护这一不变量），所以位置可以直接
        # 中: 换成键，查找是 O(1)，不必像 `Sequential` 那样逐个数过去。
        # EN: The names are always `"0"` ... `str(n − 1)` (the invariant `__delitem__` restores),
        # EN: so a position maps straight to a key: an O(1) lookup, no walk as in `Sequential`.
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    @overload
    def __getitem__(self, idx: slice) -> ModuleList: ...

    @overload
    def __getitem__(self, idx: int) -> Module: ...

    @_copy_to_script_wrapper
    def __getitem__(self, idx: int | slice) -> Module | ModuleList:
        r"""Index a module, or slice a new list. / 按下标取模块，或用切片得到新列表。

        === "中文"

            切片返回同一个类的新实例，模块共享，名字从 `"0"` 重新开始。

        === "English"

            A slice returns a new instance of the same class sharing the modules, named from
            `"0"` again.

        Args:
            idx: Integer index or slice. / 整数下标或切片。

        Returns:
            The module, or a new container of the same class. / 模块，或同类的新容器。

        Raises:
            IndexError: Index out of range. / 下标越界。
        """
        # 中: 切片把选中的模块列表交给 `self.__class__`，新容器从 `"0"` 重新编号、模块共享；
        # 中: 与 `Sequential` 保留原名不同。
        # EN: A slice hands the chosen modules to `self.__class__` as a list: the new container
        # EN: numbers from `"0"` and shares the modules, unlike `Sequential`, which keeps names.
        if isinstance(idx, slice):
            return self.__class__(list(self._modules.values())[idx])
        else:
            return self._modules[self._get_abs_string_index(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        r"""Replace the module at an index. / 替换某下标上的模块。

        === "中文"

            经 `setattr` 赋值，非模块的值由 `Module.__setattr__` 拒绝。

        === "English"

            Assigns through `setattr`, so `Module.__setattr__` rejects non-module values.

        Args:
            idx: Integer index. / 整数下标。
            module: The new module. / 新模块。

        Raises:
            IndexError: Index out of range. / 下标越界。
        """
        idx = self._get_abs_string_index(idx)
        return setattr(self, str(idx), module)

    def __delitem__(self, idx: int | slice) -> None:
        r"""Delete modules by index or slice, then renumber. / 按下标或切片删除模块，然后重新编号。

        === "中文"

            删除后剩下的模块重新命名为 `"0"`、`"1"`……，`_modules` 换成新的 `OrderedDict`，
            保证“名字即位置”这一不变量。

        === "English"

            The remaining modules are renamed `"0"`, `"1"`, ... and `_modules` becomes a new
            `OrderedDict`, keeping the invariant that a name is its position.

        Args:
            idx: Integer index or slice. / 整数下标或切片。

        Raises:
            IndexError: Index out of range. / 下标越界。
        """
        # 中: `range(n)[idx]` 在删除前就把切片变成具体位置；此时名字仍是 0…n−1，
        # 中: 所以 `str(k)` 就是键。
        # EN: `range(n)[idx]` turns the slice into concrete positions before anything is
        # EN: deleted; the names are still 0…n−1 then, so `str(k)` is the key.
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._get_abs_string_index(idx))
        # 中: 重新编号，恢复“名字 == 位置”的不变量。
        # EN: Renumber to restore the "name == position" invariant.
        str_indices = [str(i) for i in range(len(self._modules))]
        self._modules = OrderedDict(zip(str_indices, self._modules.values(), strict=True))

    @_copy_to_script_wrapper
    def __len__(self) -> int:
        r"""Number of modules in the list. / 列表中模块的个数。

        === "中文"

            就是 `_modules` 的长度。

        === "English"

            Simply the length of `_modules`.

        Returns:
            The number of submodules. / 子模块个数。
        """
        return len(self._modules)

    @_copy_to_script_wrapper
    def __iter__(self) -> Iterator[Module]:
        r"""Iterate over the modules in order. / 按顺序遍历模块。

        === "中文"

            遍历的是模块本身，与 Python 列表一致。

        === "English"

            Yields the modules themselves, as a Python list would.

        Returns:
            An iterator over the submodules. / 子模块的迭代器。
        """
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> Self:
        r"""`ml += iterable` is `ml.extend(iterable)`. / `ml += iterable` 等于 `ml.extend(iterable)`。

        === "中文"

            与 `Sequential.__iadd__` 不同，这里接受任意可迭代对象。

        === "English"

            Unlike `Sequential.__iadd__`, any iterable is accepted.

        Args:
            modules: Modules to append. / 要追加的模块。

        Returns:
            `self`. / `self` 本身。
        """
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        r"""Concatenate with any iterable into a new ModuleList. / 与任意可迭代对象拼接成新的 ModuleList。

        === "中文"

            结果总是普通的 `ModuleList`，模块共享，名字从 `"0"` 起连续编号。

        === "English"

            The result is always a plain `ModuleList` sharing the modules, named from `"0"`.

        Args:
            other: Iterable of modules. / 模块的可迭代对象。

        Returns:
            A new `ModuleList`. / 新的 `ModuleList`。
        """
        combined = ModuleList()
        for i, module in enumerate(chain(self, other)):
            combined.add_module(str(i), module)
        return combined

    def __repr__(self) -> str:
        r"""Repr that merges runs of identical children. / 合并连续相同子模块的 repr。

        === "中文"

            先算出每个子模块的 `repr`，把相邻且文本完全相同的归为一段；长度大于 1 的段
            写成 `(start-end): n x text`（起止下标、段长、文本）。注意这里比较的是 repr 文本，不是对象身份，
            也不会调用列表自己的 `extra_repr`。空列表显示为 `ModuleList()`。

        === "English"

            Computes every child's `repr`, groups neighbors with exactly the same text, and
            writes a group longer than 1 as `(start-end): n x text`. The comparison is on the
            repr text, not object identity, and the list's own `extra_repr` is not consulted. An
            empty list prints as `ModuleList()`.

        Returns:
            The representation. / 表示字符串。
        """
        # 中: 每个子模块的 repr 只算一次；空列表直接显示为 `ModuleList()`。
        # EN: Each child's repr is computed once; an empty list prints as `ModuleList()`.
        list_of_reprs = [repr(item) for item in self]
        if len(list_of_reprs) == 0:
            return self._get_name() + "()"

        # 中: 两个并行列表：每段的 [起, 止] 下标，以及该段的 repr 文本。这是对相邻元素的
        # 中: 游程编码：与上一段文本相同就延长该段，所以 A、B、A 仍是三行。
        # EN: Two parallel lists: each run's [start, end] indices and that run's repr text. It is
        # EN: run-length encoding over neighbors: a text equal to the last run's extends it, so
        # EN: A, B, A still gives three lines.
        start_end_indices = [[0, 0]]
        repeated_blocks = [list_of_reprs[0]]
        for i, r in enumerate(list_of_reprs[1:], 1):
            if r == repeated_blocks[-1]:
                start_end_indices[-1][1] += 1
                continue

            start_end_indices.append([i, i])
            repeated_blocks.append(r)

        # 中: 单个元素写 `(i): text`，一段重复写 `(start-end): n x text`；本文件的 `_addindent`
        # 中: 给多行 repr 的后续行加两格缩进（空行也加）。
        # EN: A single element is written `(i): text`, a run `(start-end): n x text`; this
        # EN: file's `_addindent` indents the later lines of a multi-line repr by two (blank
        # EN: lines too).
        lines = []
        main_str = self._get_name() + "("
        for (start_id, end_id), b in zip(start_end_indices, repeated_blocks, strict=True):
            local_repr = f"({start_id}): {b}"

            if start_id != end_id:
                n = end_id - start_id + 1
                local_repr = f"({start_id}-{end_id}): {n} x {b}"

            # 中: 缩进只作用于第一行之后的行：第一行由下面的 `"\n  "` 负责。
            # EN: The indent applies to the lines after the first; the first one gets its two
            # EN: spaces from the `"\n  "` join below.
            local_repr = _addindent(local_repr, 2)
            lines.append(local_repr)

        # 中: 与 `Module.__repr__` 相同的外形：每行前两格，右括号独占一行。列表自己的
        # 中: `extra_repr` 不会出现。
        # EN: The same outline as `Module.__repr__`: two spaces before each line, the closing
        # EN: parenthesis on its own line. The list's own `extra_repr` never shows.
        main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str

    @_copy_to_script_wrapper
    def __dir__(self) -> list[str]:
        r"""`dir()` without the digit-only names. / 去掉纯数字名字的 `dir()`。

        === "中文"

            与 `Sequential.__dir__` 相同：数字名字不是合法的属性写法。

        === "English"

            Same as `Sequential.__dir__`: digit names are not valid attribute syntax.

        Returns:
            Attribute names. / 属性名列表。
        """
        keys = super().__dir__()
        keys = [key for key in keys if not key.isdigit()]
        return keys

    def insert(self, index: int, module: Module) -> None:
        r"""Insert a module before an index. / 在某下标之前插入模块。

        === "中文"

            把后面的模块按名字逐个后挪，再写入 `str(index)`。与 `Sequential.insert` 不同，
            它不检查类型、不检查范围、也不处理负数下标，直接写 `_modules`：负数下标会在
            挪动时碰到不存在的键而抛出 `KeyError`，过大的下标会留下不连续的名字。
            这些都与 torch 一致。

        === "English"

            Shifts the later modules back by name, then writes `str(index)`. Unlike
            `Sequential.insert` it checks neither type nor range and does not handle negative
            indices; it writes `_modules` directly. A negative index hits a missing key while
            shifting (`KeyError`) and a too-large index leaves a gap in the names, exactly as in
            torch.

        Args:
            index: Position to insert at. / 插入位置。
            module: Module to insert. / 要插入的模块。
        """
        # 中: 没有任何检查，与 torch 相同：非模块（如 `5`）也会被放进 `_modules`；负数下标
        # 中: 在抛出 `KeyError` 之前已经挪动了元素，列表会多出一项。
        # EN: No checks at all, as in torch: a non-module (say `5`) lands in `_modules` too; a
        # EN: negative index has already shifted elements before its `KeyError`, leaving one
        # EN: extra entry behind.
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module: Module) -> Self:
        r"""Append a module at the end. / 在末尾追加一个模块。

        === "中文"

            名字为 `str(len(self))`，经 `add_module` 登记。

        === "English"

            Named `str(len(self))` and registered through `add_module`.

        Args:
            module: Module to append. / 要追加的模块。

        Returns:
            `self`. / `self` 本身。
        """
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key: int | slice) -> Module:
        r"""Remove and return the module(s) at an index. / 删除并返回某下标上的模块。

        === "中文"

            先取值再删除，剩下的模块重新编号；切片返回同类的新容器。

        === "English"

            Reads, then deletes; the rest is renumbered. A slice returns a new container of the
            same class.

        Args:
            key: Integer index or slice. / 整数下标或切片。

        Returns:
            The removed module, or a container for a slice. / 被删除的模块；切片时为容器。

        Raises:
            IndexError: Index out of range. / 下标越界。
        """
        v = self[key]
        del self[key]
        return v

    def extend(self, modules: Iterable[Module]) -> Self:
        r"""Append every module of an iterable. / 追加一个可迭代对象中的全部模块。

        === "中文"

            先检查参数是否可迭代（`collections.abc.Iterable`），再从 `len(self)` 开始编号、
            逐个 `add_module`。

        === "English"

            Checks that the argument is iterable (`collections.abc.Iterable`), then registers
            each module with `add_module`, numbering from `len(self)`.

        Args:
            modules: Iterable of modules. / 模块的可迭代对象。

        Returns:
            `self`. / `self` 本身。

        Raises:
            TypeError: `modules` is not iterable. / `modules` 不可迭代。
        """
        # 中: 预先检查并给出 torch 的原文。单个模块没有 `__iter__`，会在这里被拒绝；
        # 中: `Sequential`、`ModuleList` 可迭代，可以直接传入。
        # EN: An upfront check with torch's text. A single module has no `__iter__` and is
        # EN: refused here; a `Sequential` or `ModuleList` is iterable and can be passed.
        if not isinstance(modules, container_abcs.Iterable):
            raise TypeError(
                "ModuleList.extend should be called with an "
                "iterable, but got " + type(modules).__name__
            )
        # 中: 从开始时的长度接着编号，每个都经 `add_module`（类型检查，`None` 可以）。
        # 中: `ml.extend(ml)` 边遍历边加键，抛 `RuntimeError`（此前已加入一个）。
        # EN: Numbering continues from the length at the start; each goes through `add_module`
        # EN: (type check, `None` allowed). `ml.extend(ml)` adds keys while iterating and raises
        # EN: `RuntimeError` (after one module was added).
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self

    # 中: 故意不定义 forward：调用时落到 Module 的 `_forward_unimplemented`，报“缺少 forward”。
    # EN: No forward on purpose: a call falls back to Module's `_forward_unimplemented` error.


class ModuleDict(Module):
    r"""An ordered dict of submodules, registered so Module methods see them. / 有序的子模块字典，且都已登记。

    === "中文"

        像 Python 字典一样按名字存取，值都登记为子模块。顺序就是插入顺序；`update`
        传入 `dict`、`OrderedDict`、另一个 `ModuleDict` 或键值对序列时，都按它们自己的
        顺序加入。与 `ModuleList` 一样没有 `forward`。
        1.5.1 → 2.13：1.5.1 的 `update` 会把普通 `dict` 按键排序后再加入；2.13 保留 `dict`
        的插入顺序（而 `ParameterDict.update` 至今仍然排序）。

    === "English"

        Accessed by name like a Python dict; every value is registered as a submodule. The order
        is insertion order; `update` with a `dict`, an `OrderedDict`, another `ModuleDict` or a
        sequence of pairs adds them in their own order. Like `ModuleList`, it has no `forward`.
        1.5.1 → 2.13: 1.5.1's `update` sorted a plain `dict` by key first; 2.13 keeps the dict's
        insertion order (while `ParameterDict.update` still sorts).

    Args:
        modules: Optional mapping or iterable of (name, module) pairs. / 可选，映射或 (名字, 模块) 对的序列。

    Examples:
        >>> import annotated_nn as nn
        >>> d = nn.ModuleDict({"b": nn.Module(), "a": nn.Module()})
        >>> list(d.keys())
        ['b', 'a']
    """

    _modules: dict[str, Module]  # type: ignore[assignment]

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        r"""Create the dict, optionally filled by `update`. / 创建字典，可选地用 `update` 填充。

        === "中文"

            参数规则与 [`update`][annotated_nn.modules.container.ModuleDict.update] 相同。

        === "English"

            The argument follows the rules of
            [`update`][annotated_nn.modules.container.ModuleDict.update].

        Args:
            modules: Optional mapping or iterable of pairs. / 可选，映射或键值对序列。
        """
        super().__init__()
        if modules is not None:
            self.update(modules)

    @_copy_to_script_wrapper
    def __getitem__(self, key: str) -> Module:
        r"""Return the module stored under a name. / 返回某名字下的模块。

        === "中文"

            直接查 `_modules`，不存在时抛出 `KeyError`。

        === "English"

            Looks up `_modules` directly; a missing name raises `KeyError`.

        Args:
            key: Module name. / 模块名。

        Returns:
            The module. / 该模块。

        Raises:
            KeyError: No such name. / 名字不存在。
        """
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        r"""Register a module under a name. / 以某名字登记模块。

        === "中文"

            走 `add_module`，因此名字与类型都会被检查；已有的名字会被覆盖，位置不变。

        === "English"

            Goes through `add_module`, so the name and type are checked; an existing name is
            overwritten in place.

        Args:
            key: Module name. / 模块名。
            module: The module. / 模块。
        """
        # 中: `add_module` 的检查：值须是模块或 `None`，名字须是非空、不含 `.` 的 `str`，
        # 中: 且不能与已有的非子模块属性同名（`KeyError`）。
        # EN: `add_module`'s checks: the value must be a module or `None`, the name a non-empty
        # EN: `str` without `.`, and not the name of an existing non-submodule attribute
        # EN: (`KeyError`).
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        r"""Remove a module by name. / 按名字删除模块。

        === "中文"

            直接从 `_modules` 删除，不存在时抛出 `KeyError`。

        === "English"

            Deletes from `_modules` directly; a missing name raises `KeyError`.

        Args:
            key: Module name. / 模块名。

        Raises:
            KeyError: No such name. / 名字不存在。
        """
        del self._modules[key]

    @_copy_to_script_wrapper
    def __len__(self) -> int:
        r"""Number of modules. / 模块个数。

        === "中文"

            就是 `_modules` 的长度。

        === "English"

            Simply the length of `_modules`.

        Returns:
            The number of submodules. / 子模块个数。
        """
        return len(self._modules)

    @_copy_to_script_wrapper
    def __iter__(self) -> Iterator[str]:
        r"""Iterate over the names. / 遍历名字。

        === "中文"

            与字典一致，遍历的是键（名字），不是模块。

        === "English"

            As for a dict, yields the keys (names), not the modules.

        Returns:
            An iterator over the names. / 名字的迭代器。
        """
        return iter(self._modules)

    @_copy_to_script_wrapper
    def __contains__(self, key: str) -> bool:
        r"""Whether a name is present. / 某名字是否存在。

        === "中文"

            只看名字，不比较模块对象。

        === "English"

            Tests names only, never module objects.

        Args:
            key: Module name. / 模块名。

        Returns:
            `True` if present. / 存在则为 `True`。
        """
        return key in self._modules

    def clear(self) -> None:
        r"""Remove every module. / 删除全部模块。

        === "中文"

            就地清空 `_modules`。

        === "English"

            Empties `_modules` in place.
        """
        self._modules.clear()

    def pop(self, key: str) -> Module:
        r"""Remove a module by name and return it. / 按名字删除模块并返回它。

        === "中文"

            没有默认值参数，名字不存在时抛出 `KeyError`。

        === "English"

            There is no default argument; a missing name raises `KeyError`.

        Args:
            key: Module name. / 模块名。

        Returns:
            The removed module. / 被删除的模块。

        Raises:
            KeyError: No such name. / 名字不存在。
        """
        v = self[key]
        del self[key]
        return v

    @_copy_to_script_wrapper
    def keys(self) -> container_abcs.KeysView[str]:
        r"""A live view of the names. / 名字的实时视图。

        === "中文"

            返回 `_modules` 的 `keys()` 视图，之后的修改会反映在视图里。

        === "English"

            Returns the `keys()` view of `_modules`; later changes show through it.

        Returns:
            The keys view. / 键视图。
        """
        return self._modules.keys()

    @_copy_to_script_wrapper
    def items(self) -> container_abcs.ItemsView[str, Module]:
        r"""A live view of (name, module) pairs. / (名字, 模块) 对的实时视图。

        === "中文"

            返回 `_modules` 的 `items()` 视图。

        === "English"

            Returns the `items()` view of `_modules`.

        Returns:
            The items view. / 键值对视图。
        """
        return self._modules.items()

    @_copy_to_script_wrapper
    def values(self) -> container_abcs.ValuesView[Module]:
        r"""A live view of the modules. / 模块的实时视图。

        === "中文"

            返回 `_modules` 的 `values()` 视图。

        === "English"

            Returns the `values()` view of `_modules`.

        Returns:
            The values view. / 值视图。
        """
        return self._modules.values()

    def update(self, modules: Mapping[str, Module]) -> None:
        r"""Add or overwrite modules from a mapping or pairs. / 从映射或键值对加入或覆盖模块。

        === "中文"

            `OrderedDict`、`ModuleDict` 以及任何 `Mapping`（包括普通 `dict`）按自身的
            `items()` 顺序加入；其他可迭代对象被当作键值对序列，每个元素必须可迭代且
            长度为 2。已有的名字位置不变、只换模块。注意错误信息中的 `is` 与类型名之间
            没有空格，这是 torch 的原文。

        === "English"

            An `OrderedDict`, a `ModuleDict` or any `Mapping` (a plain `dict` included) is added
            in its own `items()` order; any other iterable is read as a sequence of pairs, each
            element iterable and of length 2. Existing names keep their position and only get a
            new module. Note the missing space between `is` and the type name in the error
            message: that is torch's text.

        Args:
            modules: Mapping or iterable of (name, module) pairs. / 映射或 (名字, 模块) 对的序列。

        Raises:
            TypeError: Not iterable, or an element is not iterable. / 参数或某个元素不可迭代。
            ValueError: An element does not have length 2. / 某个元素长度不是 2。
        """
        # 中: 先拒绝不可迭代的参数，错误信息是 torch 的原文。
        # EN: Refuse a non-iterable argument first, with torch's text.
        if not isinstance(modules, container_abcs.Iterable):
            raise TypeError(
                "ModuleDict.update should be called with an "
                "iterable of key/value pairs, but got " + type(modules).__name__
            )

        # 中: ModuleDict 没有注册为 `Mapping`，所以要单独列出（`OrderedDict` 本来就是
        # 中: `Mapping`，照 torch 写出）。普通 `dict` 按插入顺序加入，不排序。
        # EN: ModuleDict is not registered as a `Mapping`, so it is listed explicitly
        # EN: (`OrderedDict` is a `Mapping` already; listed as torch does). A plain `dict` is
        # EN: added in insertion order, unsorted.
        if isinstance(modules, (OrderedDict, ModuleDict, container_abcs.Mapping)):
            for key, module in modules.items():
                self[key] = module
        # 中: 其余按键值对序列处理：元素须可迭代、有 `len()` 且可下标访问。长度为 2 的字符串
        # 中: `"ab"` 也能通过检查，于是 `add_module("a", "b")` 报 `TypeError`。中途出错时，
        # 中: 已加入的键值对不会回滚。
        # EN: Anything else is a sequence of pairs: each element must be iterable, have `len()`
        # EN: and support indexing. A 2-character string `"ab"` passes the checks, and then
        # EN: `add_module("a", "b")` raises `TypeError`. An error midway does not roll back the
        # EN: pairs already added.
        else:
            for j, m in enumerate(modules):
                # 中: 错误信息里 `is` 后面没有空格（`int` 元素显示为 `isint`），这是 torch 的原文。
                # EN: The message lacks a space after `is` (`isint` for an `int`): torch's text.
                if not isinstance(m, container_abcs.Iterable):
                    raise TypeError(
                        "ModuleDict update sequence element "
                        "#" + str(j) + " should be Iterable; is" + type(m).__name__
                    )
                # 中: 长度不是 2 报 `ValueError`；合格的一对经 `self[...] =` 即 `add_module` 登记。
                # EN: A length other than 2 is a `ValueError`; a valid pair is registered with
                # EN: `self[...] =`, i.e. `add_module`.
                if not len(m) == 2:
                    raise ValueError(
                        "ModuleDict update sequence element "
                        "#" + str(j) + " has length " + str(len(m)) + "; 2 is required"
                    )
                self[m[0]] = m[1]

    # 中: 故意不定义 forward，理由同 ModuleList。
    # EN: No forward on purpose, as for ModuleList.


class ParameterList(Module):
    r"""A list of values in which tensors become registered parameters. / 值的列表，其中张量会成为已登记的参数。

    === "中文"

        用法像 Python 列表。经构造函数、下标赋值、`append` 或 `extend` 放入的普通张量
        会被包成 `Parameter` 并登记为参数（名字 `"0"`、`"1"`……）；模块登记为子模块；
        其他对象（字符串、数字……）作为普通属性保存。长度记在 `_size` 里，而不是数
        `_parameters`，因为元素不一定是参数。它不能被调用。
        1.5.1 → 2.13：1.5.1 只接受 `Parameter`，长度取自 `_parameters`，给它设置属性
        会发出警告；2.13 接受任意值、自动包装张量，并改用 `_size` 计数。

    === "English"

        Used like a Python list. Plain tensors put in through the constructor, item assignment,
        `append` or `extend` are wrapped into `Parameter` and registered as parameters (named
        `"0"`, `"1"`, ...); modules become submodules; other objects (strings, numbers, ...) are
        stored as plain attributes. The length lives in `_size` rather than being counted from
        `_parameters`, since not every element is a parameter. It cannot be called.
        1.5.1 → 2.13: 1.5.1 accepted only `Parameter`s, took its length from `_parameters` and
        warned on attribute assignment; 2.13 takes any value, wraps tensors and counts with
        `_size`.

    Args:
        values: Optional iterable of values to add. / 可选，要加入的值的可迭代对象。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> pl = nn.ParameterList([torch.zeros(2), "tag"])
        >>> type(pl[0]).__name__, [name for name, _ in pl.named_parameters()]
        ('Parameter', ['0'])
    """

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        r"""Create the list, optionally filled from an iterable. / 创建列表，可选地用可迭代对象填充。

        === "中文"

            先把 `_size` 设为 0，再经 `self += values`（即 `extend`）加入元素。

        === "English"

            Sets `_size` to 0, then adds the elements with `self += values` (i.e. `extend`).

        Args:
            values: Optional iterable of values. / 可选的值的可迭代对象。

        Raises:
            TypeError: `values` is not iterable, or is a tensor. / `values` 不可迭代或是张量。
        """
        # 中: `_size` 必须先于任何元素存在：`__len__` 读它，`append` 靠它给出新下标。
        # 中: 它是 int，经 `Module.__setattr__` 成为普通属性。
        # EN: `_size` must exist before any element: `__len__` reads it and `append` takes the
        # EN: new index from it. Being an int, it becomes a plain attribute via
        # EN: `Module.__setattr__`.
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx):
        r"""Turn a possibly negative index into its key string. / 把可能为负的下标转成对应的键字符串。

        === "中文"

            与 `ModuleList._get_abs_string_index` 相同，只是长度来自 `_size`。

        === "English"

            Same as `ModuleList._get_abs_string_index`, except that the length comes from `_size`.

        Args:
            idx: Integer index. / 整数下标。

        Returns:
            The key, e.g. `"2"`. / 键，例如 `"2"`。

        Raises:
            IndexError: Index out of range. / 下标越界。
            TypeError: `idx` is not an integer. / `idx` 不是整数。
        """
        idx = operator.index(idx)
        if not (-len(self) <= idx < len(self)):
            raise IndexError(f"index {idx} is out of range")
        if idx < 0:
            idx += len(self)
        return str(idx)

    @overload
    def __getitem__(self, idx: int) -> Any: ...

    @overload
    def __getitem__(self: T, idx: slice) -> T: ...

    def __getitem__(self, idx):
        r"""Index a value, or slice a new list. / 按下标取值，或用切片得到新列表。

        === "中文"

            取值用 `getattr(self, "i")`，因为元素可能在 `_parameters`、`_modules`
            或实例 `__dict__` 里，`getattr` 在哪里都能找到它（每个元素只在其中一处）。切片建一个同类的空列表再逐个
            `append`，参数对象是共享的。

        === "English"

            Reads with `getattr(self, "i")`, because an element may live in `_parameters`,
            `_modules` or the instance `__dict__`, and `getattr` finds it wherever it is (each element
            lives in one place only). A slice
            builds an empty list of the same class and `append`s each element; the parameter
            objects are shared.

        Args:
            idx: Integer index or slice. / 整数下标或切片。

        Returns:
            The value, or a new container of the same class. / 元素值，或同类的新容器。

        Raises:
            IndexError: Index out of range. / 下标越界。
        """
        # 中: `slice.indices(len)` 把切片换成这个长度下具体的 `(start, stop, step)`（越界的端点被截断，
        # 中: 负步长时可能是 -1），`range` 由它逐个取下标；新列表逐个 `append`，从 `"0"` 重新编号。
        # 中: 元素已是 `Parameter`，不会再包一层，对象共享。
        # EN: `slice.indices(len)` turns the slice into concrete `(start, stop, step)` for this
        # EN: length (out-of-range ends clipped; with a negative step an end may be -1), and `range`
        # EN: walks them; the new list `append`s each element, numbering from `"0"`. The elements
        # EN: already are `Parameter`s, so they are not wrapped again: the objects are shared.
        if isinstance(idx, slice):
            start, stop, step = idx.indices(len(self))
            out = self.__class__()
            for i in range(start, stop, step):
                out.append(self[i])
            return out
        # 中: `getattr` 在 `_parameters`、`_modules` 或实例 `__dict__` 中找到元素。
        # EN: `getattr` finds the element in `_parameters`, `_modules` or the instance `__dict__`.
        else:
            idx = self._get_abs_string_index(idx)
            return getattr(self, str(idx))

    def __setitem__(self, idx: int, param: Any) -> None:
        r"""Store a value at an index, wrapping tensors into Parameter. / 在某下标存值，张量包装成 Parameter。

        === "中文"

            这是往“列表部分”写入的唯一入口（`append`、`extend` 都走这里），所以只在这里
            把普通张量包装成 `Parameter`。直接 `setattr` 的属性不在列表里，也不会被包装。

        === "English"

            This is the single entry point for writing into the list part (`append` and `extend`
            come here), so this is the only place where plain tensors get wrapped into
            `Parameter`. Attributes set with `setattr` directly are not list elements and are
            not wrapped.

        Args:
            idx: Integer index. / 整数下标。
            param: Any value; tensors become parameters. / 任意值；张量会成为参数。

        Raises:
            IndexError: Index out of range. / 下标越界。
        """
        # 中: 普通张量包成 `Parameter`（与原张量共享存储，默认需要梯度）；已有的 `Parameter`
        # 中: 保持原对象。`setattr` 再按类型分流：参数进 `_parameters`，模块进 `_modules`，
        # 中: 其余进 `__dict__`。已是参数的位置不能换成非张量：`Module.__setattr__` 报
        # 中: `TypeError`。
        # EN: A plain tensor is wrapped into a `Parameter` (sharing its storage, requiring grad
        # EN: by default); an existing `Parameter` stays the same object. `setattr` then routes
        # EN: by type: parameters to `_parameters`, modules to `_modules`, the rest to
        # EN: `__dict__`. A slot holding a parameter cannot take a non-tensor:
        # EN: `Module.__setattr__` raises `TypeError`.
        idx = self._get_abs_string_index(idx)
        if isinstance(param, torch.Tensor) and not isinstance(param, Parameter):
            param = Parameter(param)
        return setattr(self, str(idx), param)

    def __len__(self) -> int:
        r"""Number of elements. / 元素个数。

        === "中文"

            返回 `_size` 计数器。

        === "English"

            Returns the `_size` counter.

        Returns:
            The number of elements. / 元素个数。
        """
        return self._size

    def __iter__(self) -> Iterator[Any]:
        r"""Iterate over the values in order. / 按顺序遍历元素值。

        === "中文"

            按下标逐个 `self[i]` 取出。

        === "English"

            Reads `self[i]` for each index in turn.

        Returns:
            An iterator over the values. / 元素值的迭代器。
        """
        return iter(self[i] for i in range(len(self)))

    def __iadd__(self, parameters: Iterable[Any]) -> Self:
        r"""`pl += iterable` is `pl.extend(iterable)`. / `pl += iterable` 等于 `pl.extend(iterable)`。

        === "中文"

            直接转给 `extend`。

        === "English"

            Simply delegates to `extend`.

        Args:
            parameters: Values to append. / 要追加的值。

        Returns:
            `self`. / `self` 本身。
        """
        return self.extend(parameters)

    def __dir__(self) -> list[str]:
        r"""`dir()` without the digit-only names. / 去掉纯数字名字的 `dir()`。

        === "中文"

            与 `ModuleList.__dir__` 相同：数字名字不是合法的属性写法，从列表中去掉。

        === "English"

            Same as `ModuleList.__dir__`.

        Returns:
            Attribute names. / 属性名列表。
        """
        keys = super().__dir__()
        keys = [key for key in keys if not key.isdigit()]
        return keys

    def append(self, value: Any) -> Self:
        r"""Append a value at the end. / 在末尾追加一个值。

        === "中文"

            先把 `_size` 加一，让新下标合法，再经 `__setitem__` 写入（张量在那里被包装）。

        === "English"

            Increments `_size` first so that the new index is valid, then writes through
            `__setitem__` (where tensors are wrapped).

        Args:
            value: Value to append. / 要追加的值。

        Returns:
            `self`. / `self` 本身。
        """
        # 中: 先加 `_size` 再写入：`__setitem__` 按当前长度检查下标，新下标此时才合法。
        # EN: Grow `_size` before writing: `__setitem__` checks the index against the current
        # EN: length, and only then is the new index valid.
        new_idx = len(self)
        self._size += 1
        self[new_idx] = value
        return self

    def extend(self, values: Iterable[Any]) -> Self:
        r"""Append every value of an iterable. / 追加一个可迭代对象中的全部值。

        === "中文"

            张量本身也可迭代，但这里绝不按第 0 维拆开它，而是报 `TypeError`。

        === "English"

            A tensor is iterable too, but it is never unpacked along dim 0 here; it raises
            `TypeError` instead.

        Args:
            values: Iterable of values (not a tensor). / 值的可迭代对象（不能是张量）。

        Returns:
            `self`. / `self` 本身。

        Raises:
            TypeError: Not iterable, or a tensor. / 不可迭代，或是张量。
        """
        # 中: 张量有 `__iter__`，算作可迭代，所以要单独排除；否则 `extend(t)` 会把每一行
        # 中: 各自登记成一个参数。
        # EN: A tensor has `__iter__` and counts as iterable, so it is excluded explicitly;
        # EN: otherwise `extend(t)` would register every row as a parameter of its own.
        if not isinstance(values, container_abcs.Iterable) or isinstance(values, torch.Tensor):
            raise TypeError(
                "ParameterList.extend should be called with an "
                "iterable, but got " + type(values).__name__
            )
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        r"""One line per element: kind, dtype, size, device. / 每个元素一行：类别、dtype、形状、设备。

        === "中文"

            张量显示为 `Parameter containing: [torch.float32 of size 2x3]`，只有 CUDA 或
            privateuse1 后端的设备才附上 `(cuda:0)` 之类；其他对象显示为
            `Object of type: TypeName`（TypeName 是类型名）。有多行时，行首的两个空格加上 `__repr__` 的缩进，使这些行
            缩进四格；只有一行且没有子模块时，这一行紧跟在 `(` 之后。注意这里显示 `p.dtype`，
            而 `ParameterDict` 显示 `torch.typename(p)`。

        === "English"

            A tensor shows as `Parameter containing: [torch.float32 of size 2x3]`, with a device
            suffix like `(cuda:0)` only for CUDA or the privateuse1 backend; other objects show
            as `Object of type: TypeName`. With several lines, the two leading spaces plus
            `__repr__`'s indentation indent them by four; a single line with no children goes
            right after the `(`. Note that this shows `p.dtype`, while `ParameterDict` shows
            `torch.typename(p)`.

        Returns:
            The extra representation. / 附加表示字符串。
        """
        # 中: 形状各维用 `x` 连接，0 维张量得到空串（显示为 `of size ]`）。设备只对 CUDA 和
        # 中: privateuse1 后端（默认名 `privateuseone`）显示，CPU 等不显示。
        # EN: The sizes are joined with `x`; a 0-dim tensor gives an empty string (printed
        # EN: `of size ]`). The device shows only for CUDA and the privateuse1 backend (named
        # EN: `privateuseone` by default), not for CPU and others.
        child_lines = []
        for k, p in enumerate(self):
            if isinstance(p, torch.Tensor):
                size_str = "x".join(str(size) for size in p.size())
                if p.device.type in ["cuda", torch._C._get_privateuse1_backend_name()]:
                    device_str = f" ({p.device})"
                else:
                    device_str = ""
                # 中: `__setitem__` 会包装每个普通张量，所以这里几乎总是 "Parameter"。
                # EN: `__setitem__` wraps every plain tensor, so this is almost always
                # EN: "Parameter".
                parastr = "{} containing: [{} of size {}{}]".format(
                    "Parameter" if isinstance(p, Parameter) else "Tensor",
                    p.dtype,
                    size_str,
                    device_str,
                )
                child_lines.append("  (" + str(k) + "): " + parastr)
            # 中: 其他对象只显示类型名；模块元素在这里列一次，又作为子模块被
            # 中: `Module.__repr__` 列一次。
            # EN: Other objects show their type name only; a module element is listed here and
            # EN: again as a child by `Module.__repr__`.
            else:
                child_lines.append("  (" + str(k) + "): Object of type: " + type(p).__name__)

        # 中: 多行时 `Module.__repr__` 每行再加两格（共四格）；只有一行且没有子模块时，
        # 中: 它紧跟在 `(` 之后，两个前导空格也在：`ParameterList(  (0): ...)`。
        # EN: With several lines `Module.__repr__` adds two more spaces to each (four in all);
        # EN: a single line with no children goes right after the `(`, leading spaces
        # EN: included: `ParameterList(  (0): ...)`.
        tmpstr = "\n".join(child_lines)
        return tmpstr

    def __call__(self, *args, **kwargs):
        r"""Refuse to be called. / 拒绝被调用。

        === "中文"

            参数列表只是存放参数的地方，没有前向传播；调用它几乎一定是写错了。

        === "English"

            A parameter list only stores parameters and has no forward pass; calling it is
            almost certainly a mistake.

        Args:
            *args: Ignored. / 忽略。
            **kwargs: Ignored. / 忽略。

        Raises:
            RuntimeError: Always. / 总是抛出。
        """
        raise RuntimeError("ParameterList should not be called.")


class ParameterDict(Module):
    r"""An ordered dict in which tensors become registered parameters. / 有序字典，其中张量会成为已登记的参数。

    === "中文"

        像 Python 字典一样按字符串键存取。普通张量被包装成 `Parameter` 并以键名登记
        （所以 `named_parameters()` 给出的就是键名），其他对象作为普通属性保存。
        键及其顺序记在 `_keys`（值全为 `None` 的 `dict`）里。`update` 对普通 `dict`
        按键排序，对 `OrderedDict`、`ParameterDict` 和键值对序列保留顺序。
        1.5.1 → 2.13：新增 `copy`、`setdefault`、`popitem`、`get`、`fromkeys`、
        `__reversed__` 与 `|`、`|=`；值可以是任意对象，张量自动包装。

    === "English"

        Accessed by string key like a Python dict. Plain tensors are wrapped into `Parameter`
        and registered under the key itself (so `named_parameters()` reports the keys); other
        objects are stored as plain attributes. The keys and their order are kept in `_keys`, a
        `dict` whose values are all `None`. `update` sorts a plain `dict` by key but keeps the
        order of an `OrderedDict`, a `ParameterDict` or a sequence of pairs.
        1.5.1 → 2.13: `copy`, `setdefault`, `popitem`, `get`, `fromkeys`, `__reversed__`, `|`
        and `|=` were added; values may be any object and tensors are wrapped automatically.

    Args:
        parameters: Optional mapping or iterable of (key, value) pairs. / 可选，映射或 (键, 值) 对的序列。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> pd = nn.ParameterDict({"b": torch.zeros(1), "a": torch.ones(1)})
        >>> list(pd), [name for name, _ in pd.named_parameters()]
        (['a', 'b'], ['a', 'b'])
    """

    def __init__(self, parameters: Any = None) -> None:
        r"""Create the dict, optionally filled by `update`. / 创建字典，可选地用 `update` 填充。

        === "中文"

            先建空的 `_keys`，再交给
            [`update`][annotated_nn.modules.container.ParameterDict.update]。

        === "English"

            Creates an empty `_keys`, then hands over to
            [`update`][annotated_nn.modules.container.ParameterDict.update].

        Args:
            parameters: Optional mapping or iterable of pairs. / 可选，映射或键值对序列。
        """
        # 中: `_keys` 是值全为 `None` 的 `dict`，当作有序集合记录键与顺序；值本身作为
        # 中: 属性挂在模块上。它必须先于 `update` 建好。
        # EN: `_keys`, a `dict` of `None` values, serves as an ordered set of the keys; the
        # EN: values themselves hang on the module as attributes. It must exist before `update`.
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key: str) -> str:
        r"""Check that a key is a string and return the attribute name. / 检查键是字符串，并返回属性名。

        === "中文"

            属性名就是键本身，这样 `named_parameters()` 报出的名字与键一致。

        === "English"

            The attribute name is the key itself, so that `named_parameters()` reports the keys.

        Args:
            key: Dictionary key. / 字典键。

        Returns:
            The attribute name. / 属性名。

        Raises:
            TypeError: `key` is not a `str`. / `key` 不是 `str`。
        """
        if not isinstance(key, str):
            raise TypeError(
                "Index given to ParameterDict cannot be used as a key as it is "
                f"not a string (type is '{type(key).__name__}'). Open an issue on "
                "github if you need non-string keys."
            )
        else:
            return key

    def __getitem__(self, key: str) -> Any:
        r"""Return the value under a key. / 返回某键下的值。

        === "中文"

            用 `getattr` 读取，所以不存在的键抛出的是 `AttributeError` 而非 `KeyError`。

        === "English"

            Reads with `getattr`, so a missing key raises `AttributeError`, not `KeyError`.

        Args:
            key: String key. / 字符串键。

        Returns:
            The stored value. / 存储的值。

        Raises:
            AttributeError: No such key. / 键不存在。
            TypeError: `key` is not a `str`. / `key` 不是 `str`。
        """
        attr = self._key_to_attr(key)
        return getattr(self, attr)

    def __setitem__(self, key: str, value: Any) -> None:
        r"""Store a value under a key, wrapping tensors into Parameter. / 以某键存值，张量包装成 Parameter。

        === "中文"

            这是往“字典部分”写入的唯一入口，所以只在这里包装张量。注意键先被记入
            `_keys`、之后才检查类型：非字符串键会抛出 `TypeError`，但已经留在 `_keys`
            里（与 torch 相同）。

        === "English"

            This is the single entry point for writing into the dictionary part, so tensors are
            wrapped only here. Note that the key is recorded in `_keys` before its type is
            checked: a non-string key raises `TypeError` but stays in `_keys` (as in torch).

        Args:
            key: String key. / 字符串键。
            value: Any value; tensors become parameters. / 任意值；张量会成为参数。

        Raises:
            TypeError: `key` is not a `str`. / `key` 不是 `str`。
        """
        # 中: 按 torch 的顺序：先记入 `_keys` 再检查类型，所以非字符串键报错后仍留在 `_keys`。
        # 中: 已有的键在 `_keys` 中的位置不变。包装规则与 `ParameterList.__setitem__` 相同。
        # EN: torch's order: the key goes into `_keys` before its type is checked, so a non-string
        # EN: key stays in `_keys` after the error. An existing key keeps its place in `_keys`.
        # EN: Wrapping follows `ParameterList.__setitem__`.
        self._keys[key] = None
        attr = self._key_to_attr(key)
        if isinstance(value, torch.Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        setattr(self, attr, value)

    def __delitem__(self, key: str) -> None:
        r"""Remove a key and its value. / 删除某键及其值。

        === "中文"

            先从 `_keys` 删除（不存在时抛出 `KeyError`），再删除属性。

        === "English"

            Removes the key from `_keys` first (`KeyError` if missing), then the attribute.

        Args:
            key: String key. / 字符串键。

        Raises:
            KeyError: No such key. / 键不存在。
        """
        del self._keys[key]
        attr = self._key_to_attr(key)
        delattr(self, attr)

    def __len__(self) -> int:
        r"""Number of keys. / 键的个数。

        === "中文"

            就是 `_keys` 的长度。

        === "English"

            Simply the length of `_keys`.

        Returns:
            The number of keys. / 键的个数。
        """
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        r"""Iterate over the keys in order. / 按顺序遍历键。

        === "中文"

            与字典一致，遍历键。

        === "English"

            As for a dict, yields the keys.

        Returns:
            An iterator over the keys. / 键的迭代器。
        """
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        r"""Iterate over the keys in reverse order. / 倒序遍历键。

        === "中文"

            借助 `_keys` 背后那个普通 `dict` 自身的倒序迭代。

        === "English"

            Relies on the reverse iteration of the plain `dict` behind `_keys`.

        Returns:
            A reverse iterator over the keys. / 键的倒序迭代器。
        """
        return reversed(self._keys)

    def copy(self) -> ParameterDict:
        r"""Return a shallow copy. / 返回浅拷贝。

        === "中文"

            新字典与原字典共享参数对象。用 `OrderedDict` 构造，是因为构造函数会把
            普通 `dict` 排序，而拷贝必须保留原顺序。结果总是 `ParameterDict`（即使是子类）。

        === "English"

            The new dict shares the parameter objects. It is built from an `OrderedDict` because
            the constructor sorts a plain `dict`, and a copy must keep the order. The result is
            always a `ParameterDict` (even for a subclass).

        Returns:
            A new `ParameterDict`. / 新的 `ParameterDict`。
        """
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def __contains__(self, key: str) -> bool:
        r"""Whether a key is present. / 某键是否存在。

        === "中文"

            只查 `_keys`，不会读取对应的值。

        === "English"

            Looks at `_keys` only.

        Args:
            key: Key to test. / 要检查的键。

        Returns:
            `True` if present. / 存在则为 `True`。
        """
        return key in self._keys

    def setdefault(self, key: str, default: Any | None = None) -> Any:
        r"""Return a key's value, inserting `default` first if missing. / 返回某键的值；缺失时先插入 `default`。

        === "中文"

            插入走 `__setitem__`，所以张量默认值被包装，返回的是包装后的 `Parameter`。

        === "English"

            Insertion goes through `__setitem__`, so a tensor default is wrapped and the wrapped
            `Parameter` is returned.

        Args:
            key: String key. / 字符串键。
            default: Value to insert if missing. / 缺失时插入的值。

        Returns:
            The value now stored under `key`. / 现在存于 `key` 下的值。
        """
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        r"""Remove every key. / 删除所有键。

        === "中文"

            遍历 `_keys` 的副本逐个删除，避免边遍历边修改。

        === "English"

            Deletes key by key over a copy of `_keys`, so the dict is not changed while being
            iterated.
        """
        for k in self._keys.copy():
            del self[k]

    def pop(self, key: str) -> Any:
        r"""Remove a key and return its value. / 删除某键并返回其值。

        === "中文"

            没有默认值参数；不存在的键在读取时抛出 `AttributeError`。

        === "English"

            There is no default argument; a missing key raises `AttributeError` on the read.

        Args:
            key: String key. / 字符串键。

        Returns:
            The removed value. / 被删除的值。

        Raises:
            AttributeError: No such key. / 键不存在。
        """
        v = self[key]
        del self[key]
        return v

    def popitem(self) -> tuple[str, Any]:
        r"""Remove and return the last inserted pair. / 删除并返回最后插入的键值对。

        === "中文"

            先从 `_keys` 弹出最后一个键以得知是哪个键，再暂时放回去，这样 `self[k]`
            与 `del self[k]` 才能正常工作。空字典时抛出 `KeyError`。

        === "English"

            Pops the last key off `_keys` to learn which one it is, then puts it back briefly so
            that `self[k]` and `del self[k]` work. An empty dict raises `KeyError`.

        Returns:
            The `(key, value)` pair. / `(键, 值)` 对。

        Raises:
            KeyError: The dict is empty. / 字典为空。
        """
        k, _ = self._keys.popitem()
        self._keys[k] = None
        val = self[k]
        del self[k]
        return k, val

    def get(self, key: str, default: Any | None = None) -> Any:
        r"""Return a key's value, or `default` if missing. / 返回某键的值；缺失时返回 `default`。

        === "中文"

            与字典的 `get` 一致，缺失时不插入。

        === "English"

            Like a dict's `get`; nothing is inserted when the key is missing.

        Args:
            key: String key. / 字符串键。
            default: Value returned when missing. / 缺失时返回的值。

        Returns:
            The value or `default`. / 值或 `default`。
        """
        return self[key] if key in self else default

    def fromkeys(self, keys: Iterable[str], default: Any | None = None) -> ParameterDict:
        r"""Build a new ParameterDict with the given keys. / 用给定的键建一个新的 ParameterDict。

        === "中文"

            与 `dict.fromkeys` 不同，这是实例方法，且结果与 `self` 的内容无关。所有键共享
            同一个 `default`；若它是普通张量，则每个键各自包装出一个 `Parameter`，
            但底层存储相同。

        === "English"

            Unlike `dict.fromkeys` this is an instance method, and the result does not depend on
            `self`'s content. All keys share the same `default`; a plain tensor is wrapped into a
            separate `Parameter` per key, over the same storage.

        Args:
            keys: Keys of the new dict. / 新字典的键。
            default: Value for every key. / 每个键的值。

        Returns:
            A new `ParameterDict`. / 新的 `ParameterDict`。
        """
        return ParameterDict((k, default) for k in keys)

    def keys(self) -> container_abcs.KeysView[str]:
        r"""A live view of the keys. / 键的实时视图。

        === "中文"

            返回 `_keys` 的 `keys()` 视图。

        === "English"

            Returns the `keys()` view of `_keys`.

        Returns:
            The keys view. / 键视图。
        """
        return self._keys.keys()

    def items(self) -> Iterable[tuple[str, Any]]:
        r"""A one-shot generator of (key, value) pairs. / (键, 值) 对的一次性生成器。

        === "中文"

            与 `ModuleDict.items` 不同，返回的是生成器，不是视图，只能遍历一次。

        === "English"

            Unlike `ModuleDict.items`, this returns a generator rather than a view, so it can be
            iterated only once.

        Returns:
            A generator of pairs. / 键值对生成器。
        """
        return ((k, self[k]) for k in self._keys)

    def values(self) -> Iterable[Any]:
        r"""A one-shot generator of values. / 值的一次性生成器。

        === "中文"

            同样是生成器，按键的顺序给出值。

        === "English"

            Also a generator, yielding values in key order.

        Returns:
            A generator of values. / 值生成器。
        """
        return (self[k] for k in self._keys)

    def update(self, parameters: Mapping[str, Any] | ParameterDict) -> None:
        r"""Add or overwrite values from a mapping or pairs. / 从映射或键值对加入或覆盖值。

        === "中文"

            三种情形：`OrderedDict` 或 `ParameterDict` 按自身顺序加入；其他 `Mapping`
            （如普通 `dict`）按 `sorted(items())` 排序后加入；其余可迭代对象当作键值对
            序列，每个元素须可迭代且长度为 2。错误信息开头写作 `ParametersDict`（多一个 s），
            元素错误信息中 `is` 后没有空格，都是 torch 的原文。

        === "English"

            Three cases: an `OrderedDict` or a `ParameterDict` is added in its own order; any
            other `Mapping` (e.g. a plain `dict`) is added in `sorted(items())` order; any other
            iterable is read as pairs, each element iterable and of length 2. The first error
            message says `ParametersDict` (with an extra s) and the element message lacks a space
            after `is`: both are torch's text.

        Args:
            parameters: Mapping or iterable of (key, value) pairs. / 映射或 (键, 值) 对的序列。

        Raises:
            TypeError: Not iterable, or an element is not iterable. / 参数或某个元素不可迭代。
            ValueError: An element does not have length 2. / 某个元素长度不是 2。
        """
        # 中: 错误信息开头的 `ParametersDict`（多一个 s）是 torch 的原文。
        # EN: The `ParametersDict` (extra s) opening the message is torch's text.
        if not isinstance(parameters, container_abcs.Iterable):
            raise TypeError(
                "ParametersDict.update should be called with an "
                "iterable of key/value pairs, but got " + type(parameters).__name__
            )

        # 中: 有自身顺序的 `OrderedDict` 与 `ParameterDict` 按原顺序加入（`ParameterDict`
        # 中: 不是 `Mapping`，必须列出）。
        # EN: An `OrderedDict` or a `ParameterDict`, which carry their own order, are added in
        # EN: that order (a `ParameterDict` is no `Mapping` and must be listed).
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            for key, parameter in parameters.items():
                self[key] = parameter
        elif isinstance(parameters, container_abcs.Mapping):
            # 中: 普通映射按键排序，所以键必须可以互相比较：`str` 与 `int` 混用时 `sorted`
            # 中: 在插入任何键之前就抛 `TypeError`。映射中键唯一，所以值永远不会被比较。
            # EN: A plain mapping is added in key order, so its keys must be comparable: mixing
            # EN: `str` and `int` keys makes `sorted` raise `TypeError` before any key is added.
            # EN: Keys in a mapping are unique, so the values are never compared.
            for key, parameter in sorted(parameters.items()):
                self[key] = parameter
        # 中: 键值对序列的规则与 `ModuleDict.update` 相同，按序列顺序加入。
        # EN: Sequences of pairs follow the rules of `ModuleDict.update`, added in their order.
        else:
            for j, p in enumerate(parameters):
                # 中: 同样没有 `is` 后的空格，是 torch 的原文。
                # EN: Again no space after `is`: torch's text.
                if not isinstance(p, container_abcs.Iterable):
                    raise TypeError(
                        "ParameterDict update sequence element "
                        "#" + str(j) + " should be Iterable; is" + type(p).__name__
                    )
                # 中: 合格的一对经 `self[...] =` 写入，张量在那里被包装。
                # EN: A valid pair is written with `self[...] =`, where tensors get wrapped.
                if not len(p) == 2:
                    raise ValueError(
                        "ParameterDict update sequence element "
                        "#" + str(j) + " has length " + str(len(p)) + "; 2 is required"
                    )
                self[p[0]] = p[1]

    def extra_repr(self) -> str:
        r"""One line per entry: kind, tensor type, size, device. / 每项一行：类别、张量类型、形状、设备。

        === "中文"

            格式与 `ParameterList.extra_repr` 相同，但类型一栏用 `torch.typename(p)`，
            显示为 `torch.FloatTensor` 这样的旧式名字，而不是 `torch.float32`。

        === "English"

            Same layout as `ParameterList.extra_repr`, but the type column uses
            `torch.typename(p)`, which prints legacy names like `torch.FloatTensor` rather than
            `torch.float32`.

        Returns:
            The extra representation. / 附加表示字符串。
        """
        # 中: 结构与 `ParameterList.extra_repr` 相同，只是遍历 `(key, value)` 对，行首显示键名。
        # EN: The same structure as `ParameterList.extra_repr`, except that it walks
        # EN: `(key, value)` pairs and each line starts with the key.
        child_lines = []
        for k, p in self.items():
            if isinstance(p, torch.Tensor):
                size_str = "x".join(str(size) for size in p.size())
                if p.device.type in ["cuda", torch._C._get_privateuse1_backend_name()]:
                    device_str = f" ({p.device})"
                else:
                    device_str = ""
                # 中: 类型一栏是 `torch.typename(p)`，即 `p.type()` 的旧式名字，
                # 中: 如 CPU 上 float32 的 `torch.FloatTensor`。
                # EN: The type column is `torch.typename(p)`, the legacy name from `p.type()`,
                # EN: e.g. `torch.FloatTensor` for float32 on the CPU.
                parastr = "{} containing: [{} of size {}{}]".format(
                    "Parameter" if isinstance(p, Parameter) else "Tensor",
                    torch.typename(p),
                    size_str,
                    device_str,
                )
                child_lines.append("  (" + str(k) + "): " + parastr)
            # 中: 非张量的值与 `ParameterList` 一样只显示类型名；多行与单行的排版同样取决于
            # 中: `Module.__repr__`。
            # EN: Non-tensor values show their type name only, as in `ParameterList`; the
            # EN: single- versus multi-line layout is again up to `Module.__repr__`.
            else:
                child_lines.append("  (" + str(k) + "): Object of type: " + type(p).__name__)
        tmpstr = "\n".join(child_lines)
        return tmpstr

    def __call__(self, input):
        r"""Refuse to be called. / 拒绝被调用。

        === "中文"

            参数字典没有前向传播，调用它几乎一定是写错了。

        === "English"

            A parameter dict has no forward pass; calling it is almost certainly a mistake.

        Args:
            input: Ignored. / 忽略。

        Raises:
            RuntimeError: Always. / 总是抛出。
        """
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other: ParameterDict) -> ParameterDict:
        r"""`a | b`: a copy of `a` updated with `b`. / `a | b`：`a` 的拷贝再用 `b` 更新。

        === "中文"

            与字典的合并运算一致：同名键取 `b` 的值，但保留它在 `a` 中的位置。

        === "English"

            As for dict merging: a shared key takes `b`'s value but keeps its place from `a`.

        Args:
            other: Mapping or pairs merged in. / 合并进来的映射或键值对。

        Returns:
            A new `ParameterDict`. / 新的 `ParameterDict`。
        """
        copy = self.copy()
        copy.update(other)
        return copy

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        r"""`other | self` when `other` does not handle it. / 当 `other` 不处理时的 `other | self`。

        === "中文"

            调用 `other.copy()`，所以 `other` 必须有 `copy` 方法（例如 `dict`）。注意：
            若 `other` 是普通 `dict`，`dict.__or__` 会先返回 `NotImplemented`，于是来到这里，
            结果是 `other.copy()` 这个 `dict` 被 `update(self)` 之后的普通 `dict`。

        === "English"

            Calls `other.copy()`, so `other` needs a `copy` method (e.g. a `dict`). If `other` is
            a plain `dict`, `dict.__or__` returns `NotImplemented` first and we end up here; the
            result is then the plain `dict` `other.copy()` after `update(self)`.

        Args:
            other: Left operand. / 左操作数。

        Returns:
            `other.copy()` updated with `self`. / 用 `self` 更新后的 `other.copy()`。
        """
        copy = other.copy()
        copy.update(self)
        return copy

    def __ior__(self, other: ParameterDict) -> Self:
        r"""`a |= b`: update `a` in place. / `a |= b`：就地更新 `a`。

        === "中文"

            即 `self.update(other)` 后返回 `self`。

        === "English"

            That is `self.update(other)`, then `self` is returned.

        Args:
            other: Mapping or pairs merged in. / 合并进来的映射或键值对。

        Returns:
            `self`. / `self` 本身。
        """
        self.update(other)
        return self
