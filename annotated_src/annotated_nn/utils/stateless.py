r"""Call a module with borrowed parameters and buffers: `functional_call`. / 用借来的参数与缓冲区调用模块：`functional_call`。

=== "中文"

    对应 `torch.nn.utils.stateless`（以及它的继任者 `torch.func.functional_call`）。
    `functional_call(module, {name: tensor}, args)` 在调用期间把模块里同名的
    参数（parameter）和缓冲区（buffer）临时换成给定的张量，调用结束（哪怕 `forward` 抛出异常）
    再换回原来的对象（一个例外见 `functional_call`）。模块对象本身不被复制，所以这比
    `copy.deepcopy` 便宜得多；`torch.func.grad`、`vmap`、元学习（meta-learning）都靠它把"模型"变成"参数的纯函数"。

    PyTorch 用一个内部类 `NamedMemberAccessor` 完成"按带点路径找到子模块（submodule）并交换张量"；
    那个类只接受 `torch.nn.Module`，因此这里用几个小函数重写了同样的逻辑。

=== "English"

    Mirrors `torch.nn.utils.stateless` (and its successor `torch.func.functional_call`).
    `functional_call(module, {name: tensor}, args)` temporarily swaps the module's parameters and
    buffers of those names for the given tensors, calls the module, and swaps the originals back
    afterwards, even when `forward` raises (one exception: see `functional_call`). The module
    object is not copied, which makes this far cheaper than `copy.deepcopy`; `torch.func.grad`,
    `vmap` and meta-learning rely on it to turn a model into a pure function of its parameters.

    PyTorch does the "find the submodule by a dotted path and swap a tensor" part with an internal
    class, `NamedMemberAccessor`, which only accepts `torch.nn.Module`; the same logic is rewritten
    here as a few small functions.
"""

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import torch
from torch import Tensor
from typing_extensions import deprecated

__all__ = ["functional_call"]

# 中: 哨兵对象：表示"模块上原本没有这个名字"，与"原本是 None"区分开。
# EN: Sentinel meaning "the module had no such name", distinct from "it was None".
_MISSING: Tensor = object()  # type: ignore[assignment]


def _module_class() -> type:
    r"""Return annotated_nn's `Module` class, imported lazily. / 延迟导入并返回 annotated_nn 的 `Module` 类。

    === "中文"

        `module.py` 会导入 `annotated_nn.utils.hooks`，从而执行 `annotated_nn.utils` 包的
        `__init__`，进而导入本文件；若在文件顶部导入 `Module` 就会形成循环导入。
        因此在用到时才导入。

    === "English"

        `module.py` imports `annotated_nn.utils.hooks`, which runs the `annotated_nn.utils`
        package `__init__` and thus this file; importing `Module` at the top would be circular,
        so it is imported when first needed.

    Returns:
        The `annotated_nn.modules.module.Module` class. / `annotated_nn.modules.module.Module` 类。
    """
    from annotated_nn.modules.module import Module

    return Module


def _swap_tensor(module: Any, name: str, tensor: Tensor, allow_missing: bool = False) -> Tensor:
    r"""Put `tensor` under `name` on one module and return what was there. / 把 `tensor` 放到模块的 `name` 上，返回原来的值。

    === "中文"

        `name` 不含点号，只作用于这一个模块。查找顺序与
        [`__getattr__`][annotated_nn.modules.module.Module.__getattr__] 的存储位置一致：
        先 `_parameters`，再 `_buffers`，最后是普通属性。注意写入 `_parameters` 时
        直接改字典而不经过 `__setattr__`：换进去的往往是普通张量（例如带梯度历史的非叶子张量），
        经过 `__setattr__` 会因为"不是 Parameter"而报错。
        `tensor` 为 `_MISSING` 表示删除该名字（用于恢复"原本不存在"的属性）。

    === "English"

        `name` has no dot; this acts on one module only. The lookup follows where
        [`__getattr__`][annotated_nn.modules.module.Module.__getattr__] stores things: first
        `_parameters`, then `_buffers`, then plain attributes. Writes into `_parameters` go to
        the dict directly, not through `__setattr__`: the incoming value is often a plain tensor
        (for instance a non-leaf with autograd history), which `__setattr__` would reject as
        "not a Parameter". `tensor` being `_MISSING` deletes the name (used to restore an
        attribute that did not exist before).

    Args:
        module: The module to modify. / 要修改的模块。
        name: Attribute name without dots. / 不含点号的属性名。
        tensor: New value, `None`, or `_MISSING` to delete. / 新值、`None`，或表示删除的 `_MISSING`。
        allow_missing: Whether an absent name may be created. / 是否允许名字原本不存在。

    Returns:
        The previous value, or `_MISSING` if there was none. / 原来的值；原本不存在时为 `_MISSING`。

    Raises:
        TypeError: `module` is not a module, or a value is not a tensor. / `module` 不是模块，或值不是张量。
        KeyError: `name` is empty or dotted. / `name` 为空或含点号。
        AttributeError: Name absent and `allow_missing` is False. / 名字不存在且不允许缺失。
    """
    # 中: 先做全部检查、再改动模块，所以抛错时模块保持原样。报错文字与 PyTorch 逐字相同
    # 中: （仍写作 torch.nn.Module），以便差分测试比较。
    # EN: Every check runs before anything is changed, so the module is intact when one fails.
    # EN: Messages match PyTorch word for word (still saying torch.nn.Module) for differential
    # EN: tests.
    if not isinstance(module, _module_class()):
        raise TypeError(f"{module} is not an instance of torch.nn.Module")
    if tensor is not _MISSING and not isinstance(tensor, torch.Tensor) and tensor is not None:
        raise TypeError(f"{tensor} is not an instance of torch.Tensor")
    if "." in name:
        raise KeyError('tensor name can\'t contain "."')
    if name == "":
        raise KeyError('tensor name can\'t be empty string ""')

    # 中: 参数槽位：直接改 `_parameters`，于是调用期间 `named_parameters()` 给出的是换进去的
    # 中: 普通张量。`_MISSING` 删除槽位：恢复时用到，对应"原本不存在、但换入的是 Parameter，
    # 中: 于是经 `setattr` 登记成了参数"的情形。
    # EN: A parameter slot: `_parameters` is edited directly, so during the call
    # EN: `named_parameters()` yields the swapped-in plain tensor. `_MISSING` deletes the slot:
    # EN: used on restore, for a name that did not exist but was swapped in as a Parameter and
    # EN: so got registered as one by `setattr`.
    if name in module._parameters:
        previous = module._parameters[name]
        if tensor is _MISSING:
            del module._parameters[name]
        else:
            module._parameters[name] = tensor
        return previous
    # 中: 缓冲区槽位同理，直接改 `_buffers`（持久与否的标记不受影响）。
    # EN: A buffer slot likewise: `_buffers` is edited directly (the persistence mark is left
    # EN: alone).
    if name in module._buffers:
        previous = module._buffers[name]
        if tensor is _MISSING:
            del module._buffers[name]
        else:
            module._buffers[name] = tensor
        return previous

    # 中: 既不是参数也不是缓冲区：当作普通属性。原本不存在时，只有 allow_missing 才允许新建。
    # 中: 已有的属性必须是张量或 None：名字指向子模块、布尔值等时抛 TypeError，模块不被改动。
    # EN: Neither parameter nor buffer: a plain attribute. Creating a new one needs allow_missing.
    # EN: An existing attribute must be a tensor or None: a name that refers to a submodule, a
    # EN: bool and the like raises TypeError, leaving the module unchanged.
    if hasattr(module, name):
        previous = getattr(module, name)
    elif allow_missing:
        previous = _MISSING
    else:
        raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
    if previous is not _MISSING and not isinstance(previous, torch.Tensor) and previous is not None:
        raise TypeError(f"attribute `{name}`: {previous} is not an instance of torch.Tensor")
    # 中: 写入走 `setattr`（Module 的 `__setattr__`：换入 Parameter 会被登记成参数）；
    # 中: `_MISSING` 表示删掉这个名字，恢复"原本不存在"。
    # EN: Writing goes through `setattr` (Module's `__setattr__`: a Parameter gets registered as
    # EN: a parameter); `_MISSING` deletes the name, restoring "did not exist".
    if tensor is not _MISSING:
        setattr(module, name, tensor)
    elif hasattr(module, name):
        delattr(module, name)
    return previous


class _SubmoduleCache:
    r"""Resolve dotted submodule paths once and remember them. / 解析带点的子模块路径并缓存结果。

    === "中文"

        `"layer1.0.conv1.weight"` 要先走到子模块 `layer1.0.conv1`。一次调用里往往要换几十个张量，
        它们共享前缀；把"前缀 → 子模块"记下来，每个前缀只解析一次。
        这对应 PyTorch 的 `NamedMemberAccessor` 中我们真正需要的那一部分。

    === "English"

        `"layer1.0.conv1.weight"` first has to reach submodule `layer1.0.conv1`. A single call
        often swaps dozens of tensors sharing prefixes; remembering "prefix → submodule" resolves
        each prefix once. This is the part of PyTorch's `NamedMemberAccessor` we need.

    Args:
        module: The root module. / 根模块。
    """

    def __init__(self, module: Any) -> None:
        r"""Start with an empty cache for `module`. / 为 `module` 建立空缓存。

        === "中文"

            只记录根模块，缓存在第一次查找时才填充。

        === "English"

            Only the root is stored; the cache fills up on first lookups.

        Args:
            module: The root module. / 根模块。
        """
        self.module = module
        self.memo: dict[str, Any] = {}

    def get_submodule(self, name: str) -> Any:
        r"""Return the submodule at dotted path `name` (`""` is the root). / 返回带点路径 `name` 处的子模块（`""` 为根）。

        === "中文"

            递归地先解析父路径，再取最后一段属性；结果必须是模块。

        === "English"

            Resolves the parent path recursively, then the last attribute; the result must be a
            module.

        Args:
            name: Dotted path such as `"layer1.0"`. / 带点路径，例如 `"layer1.0"`。

        Returns:
            The submodule. / 子模块。

        Raises:
            AttributeError: A path segment does not exist. / 路径中某段不存在。
            TypeError: The path leads to something that is not a module. / 路径指向的不是模块。
        """
        # 中: 空路径是根模块本身；命中缓存就直接返回。
        # EN: The empty path is the root itself; a cache hit returns at once.
        if not name:
            return self.module
        if name in self.memo:
            return self.memo[name]
        # 中: 从右边拆出最后一段，父路径递归解析（也会被缓存），所以 "a.b.c" 顺带缓存了 "a"、"a.b"。
        # 中: 取属性用 `getattr`，于是走模块的 `__getattr__`（子模块在 `_modules` 里）。
        # EN: Split off the last segment from the right and resolve the parent path recursively
        # EN: (also cached), so "a.b.c" caches "a" and "a.b" along the way. `getattr` goes
        # EN: through the module's `__getattr__` (submodules live in `_modules`).
        prefix, dot, attr = name.rpartition(".")
        parent = self.get_submodule(prefix) if dot else self.module
        try:
            submodule = getattr(parent, attr)
        except AttributeError as ex:
            raise AttributeError(f"{parent._get_name()} has no attribute `{attr}`") from ex
        # 中: 中间段必须是模块：例如 "a.weight.x" 会在 "a.weight" 处抛 TypeError（文字同 PyTorch）。
        # EN: Intermediate segments must be modules: e.g. "a.weight.x" raises TypeError at
        # EN: "a.weight" (text as in PyTorch).
        if not isinstance(submodule, _module_class()):
            raise TypeError(
                f"submodule `{name}`: {submodule} is not an instance of torch.nn.Module"
            )
        self.memo[name] = submodule
        return submodule

    def swap_tensor(self, name: str, value: Tensor, allow_missing: bool = False) -> Tensor:
        r"""Swap the tensor at dotted path `name`; return the old one. / 交换带点路径 `name` 处的张量，返回旧值。

        === "中文"

            把路径拆成"子模块前缀 + 属性名"，交给 `_swap_tensor`。

        === "English"

            Splits the path into "submodule prefix + attribute" and hands it to `_swap_tensor`.

        Args:
            name: Dotted path such as `"fc.weight"`. / 带点路径，例如 `"fc.weight"`。
            value: The new tensor (or `_MISSING`). / 新张量（或 `_MISSING`）。
            allow_missing: Whether an absent name may be created. / 是否允许名字原本不存在。

        Returns:
            The previous value or `_MISSING`. / 原来的值或 `_MISSING`。
        """
        prefix, _, attr = name.rpartition(".")
        return _swap_tensor(self.get_submodule(prefix), attr, value, allow_missing=allow_missing)

    def swap_tensors_dict(
        self, named_tensors: dict[str, Tensor], allow_missing: bool = False
    ) -> tuple[dict[str, Tensor], list[str]]:
        r"""Swap many tensors at once, all or nothing. / 一次交换多个张量，要么全部成功要么全部回滚。

        === "中文"

            逐个交换并记下原值；中途出错就把已经换过的全部换回再抛出，
            所以模块绝不会停在"换了一半"的状态。

        === "English"

            Swaps one by one, recording the originals; if anything fails midway, everything
            already swapped is swapped back before re-raising, so the module is never left
            half-swapped.

        Args:
            named_tensors: `{dotted name: tensor}`. / `{带点路径: 张量}`。
            allow_missing: Whether absent names may be created. / 是否允许名字原本不存在。

        Returns:
            `(originals, missing_keys)`: the previous values by name, and the names that did not
            exist. / `(原值字典, 缺失名字列表)`。

        Raises:
            RuntimeError: Missing names while `allow_missing` is False. / 不允许缺失却有名字不存在。
        """
        # 中: 逐个交换，总是先允许缺失，记下原值（原本不存在的记为 `_MISSING`，恢复时据此删除）。
        # EN: Swap one by one, always allowing missing names first, and record each original
        # EN: (`_MISSING` for an absent name, which restoring then deletes).
        originals: dict[str, Tensor] = {}
        missing_keys: list[str] = []
        try:
            for name, tensor in named_tensors.items():
                previous = self.swap_tensor(name, tensor, allow_missing=True)
                if previous is _MISSING:
                    missing_keys.append(name)
                originals[name] = previous
        # 中: 中途出错：把已经换过的按原顺序换回，再原样抛出，模块不会停在换了一半的状态。
        # EN: A failure midway: swap back what was already swapped, in the same order, then
        # EN: re-raise as is; the module is never left half-swapped.
        except Exception:
            for name, previous in originals.items():
                self.swap_tensor(name, previous, allow_missing=True)
            raise
        # 中: 不允许缺失时，等全部换完才检查：同样先全部换回，再报告所有缺失的名字。
        # EN: When missing names are not allowed, the check comes after the whole swap: again
        # EN: everything is swapped back first, then all missing names are reported together.
        if missing_keys and not allow_missing:
            for name, previous in originals.items():
                self.swap_tensor(name, previous, allow_missing=True)
            raise RuntimeError(f"Missing key(s): {', '.join(map(repr, missing_keys))}.")
        return originals, missing_keys


def _untie_named_tensors_map(
    module: Any, parameters_and_buffers: dict[str, Tensor]
) -> dict[str, Tensor]:
    r"""Spread a value given for one tied name to all its aliases. / 把给某个绑定名字的值扩散到它的所有别名。

    === "中文"

        权重绑定（tied weights）指同一个张量对象以两个名字出现在模块树里，例如语言模型里
        `decoder.weight is embedding.weight`。`named_parameters()` 默认去重，只报告其中一个名字；
        这里用 `remove_duplicate=False` 找出每个张量的全部名字。用户只给了其中一个名字的值时，
        返回的新字典把同一个值也填到其他别名上，使绑定在函数式调用里依然成立。
        用户给同一组别名传了**不同**的张量对象则报 ValueError（给的是同一个对象则允许）；
        但三个及以上名字的组里给了其中几个、又漏了别的，检查要读漏掉的名字，于是报 KeyError，
        即使给的是同一个对象（与 torch 相同）。
        原字典不被修改。

    === "English"

        Tied weights are one tensor object appearing under two names in the module tree, e.g. a
        language model's `decoder.weight is embedding.weight`. `named_parameters()` deduplicates
        by default and reports one name only; `remove_duplicate=False` reveals every name of
        each tensor. When the user gives a value for one of the names, the returned new dict
        fills the same value in for the other aliases, so the tie still holds in the functional
        call. Giving *different* tensor objects for aliases of one tensor raises ValueError
        (the same object twice is fine), but giving some names of a group of three or more and
        leaving another out raises KeyError, since the check reads the missing name, even when
        the given ones are one object (as in torch). The input dict is not modified.

    Args:
        module: The module whose ties are looked up. / 从中查找绑定关系的模块。
        parameters_and_buffers: The user's `{name: tensor}`. / 用户给出的 `{名字: 张量}`。

    Returns:
        A new dict with the aliases filled in. / 补全别名后的新字典。

    Raises:
        ValueError: Different values given for tied names. / 给绑定的名字传了不同的值。
        KeyError: Some, not all, names of a tied group of three or more given. / 三个及以上名字的绑定组只给了部分名字（多于一个）。
    """
    # 中: 模块里每个名字 → 张量（含重复出现的），再反过来得到 张量 → 它的全部名字。张量按对象
    # 中: 身份做键。注意共享子模块（同一个子模块挂在两条路径下）也会在这里表现为绑定。
    # EN: Every name in the module → tensor (duplicates kept), then inverted to tensor → all its
    # EN: names, keyed by tensor identity. Note that a shared submodule (one submodule under two
    # EN: paths) also shows up here as a tie.
    all_named_tensors: dict[str, Tensor] = {}
    all_named_tensors.update(module.named_parameters(remove_duplicate=False))
    all_named_tensors.update(module.named_buffers(remove_duplicate=False))
    names_of_tensor: dict[Tensor, set[str]] = {}
    for name, tensor in all_named_tensors.items():
        names_of_tensor.setdefault(tensor, set()).add(name)

    # 中: 只保留真正被绑定（名字多于一个）的组：名字 → 同组全部名字。
    # EN: Keep only real ties (more than one name): name → every name in its group.
    tied_group_of: dict[str, set[str]] = {}
    for names in names_of_tensor.values():
        if len(names) > 1:
            for name in names:
                tied_group_of[name] = names

    # 中: 用户给出的名字里，属于某个绑定组的那些。
    # EN: The user's names that belong to a tied group.
    given_tied_names = {name for name in parameters_and_buffers if name in tied_group_of}
    for given_name in given_tied_names:
        group = tied_group_of[given_name]
        # 中: 同一组里给了不止一个名字、且它们不是同一个张量对象，才算歧义（集合按对象身份去重）。
        # 中: 与 PyTorch 相同，第二个条件要读组里每个名字的值：三个及以上名字的组里给了两个、
        # 中: 漏了别的，就抛 KeyError（即使给的两个是同一个对象）。
        # EN: Ambiguous only when more than one name of a group is given with different tensor
        # EN: objects (the set dedups by identity). As in PyTorch, the second condition reads the
        # EN: value of every name in the group: giving two names of a group of three or more and
        # EN: leaving another out raises KeyError (even if the two are the same object).
        if (
            len(group & given_tied_names) > 1
            and len({parameters_and_buffers[name] for name in group}) != 1
        ):
            raise ValueError(
                f"functional_call got multiple values for keys {sorted(group)}, "
                f"which are tied. Consider using tie_weights=False"
            )

    # 中: 在副本上补别名：组里每个名字都指向用户给的那个值，原字典不动。
    # EN: Fill aliases on a copy: every name in the group gets the user's value; the input dict
    # EN: is left alone.
    untied = parameters_and_buffers.copy()
    for given_name in given_tied_names:
        for alias in tied_group_of[given_name]:
            untied[alias] = parameters_and_buffers[given_name]
    return untied


@contextlib.contextmanager
def _reparametrize_module(
    module: Any,
    parameters_and_buffers: dict[str, Tensor],
    tie_weights: bool = False,
    strict: bool = False,
    stack_weights: bool = False,
) -> Iterator[None]:
    r"""Context manager: swap tensors in on entry, swap them back on exit. / 上下文管理器：进入时换入张量，退出时换回。

    === "中文"

        `functional_call` 的核心。进入时按 `tie_weights` 补全别名，按 `strict` 检查键，
        然后把张量换进模块；`finally` 里无论是否异常都把原来的对象换回去。
        换回时拿到的"调用期间模块里的值"会写回用户的字典：如果 `forward` 给某个缓冲区
        重新赋值（例如 `self.buf = self.buf + 1`），用户能在自己的字典里看到新值。
        `stack_weights=True` 时按后进先出的顺序恢复；当几个键指向同一个槽位（例如同一个子模块
        挂在两条路径下）时，只有这样才能恢复出最初的对象。

    === "English"

        The heart of `functional_call`. On entry it fills aliases (`tie_weights`), checks keys
        (`strict`), then swaps the tensors in; the `finally` block swaps the originals back
        whether or not an exception happened. Swapping back yields "the values the module held
        during the call", which are written back into the user's dict: if `forward` reassigned
        a buffer (say `self.buf = self.buf + 1`), the user sees the new value in their dict.
        With `stack_weights=True` the restore runs in last-in-first-out order; when several keys
        reach the same slot (e.g. one submodule under two paths), only that order restores the
        very first object.

    Args:
        module: The module to reparametrize. / 要临时替换参数的模块。
        parameters_and_buffers: `{dotted name: tensor}`. / `{带点路径: 张量}`。
        tie_weights: Fill tied aliases. / 是否补全绑定的别名。
        strict: Require exactly the module's names. / 是否要求名字与模块完全一致。
        stack_weights: Restore in reverse order. / 是否按逆序恢复。

    Yields:
        Nothing; the module is reparametrized inside the block. / 无；块内模块处于替换状态。

    Raises:
        RuntimeError: `strict` and keys are missing or unexpected. / `strict` 且有缺失或多余的键。
    """
    # 中: `tie_weights` 时得到一个补全了别名的新字典；否则直接用用户的字典（不复制）。
    # 中: 一个缓存对象服务于整次调用：换入与换回共用同一份"路径 → 子模块"缓存。
    # EN: With `tie_weights`, a new dict with the aliases filled in; otherwise the user's dict
    # EN: itself (no copy). One cache serves the whole call: swapping in and swapping back share
    # EN: its "path → submodule" entries.
    if tie_weights:
        untied = _untie_named_tensors_map(module, parameters_and_buffers)
    else:
        untied = parameters_and_buffers

    accessor = _SubmoduleCache(module)
    # 中: strict：在改动模块之前检查，报错时模块原样未动。合法名字取自
    # 中: named_parameters/named_buffers(remove_duplicate=False)，绑定的别名都算；检查的是补全后的
    # 中: 字典，所以 `tie_weights=True` 时绑定组只给一个名字也不算缺失。
    # EN: strict: checked before the module is touched, so an error leaves it as it was. Valid
    # EN: names come from named_parameters/named_buffers(remove_duplicate=False), aliases
    # EN: included; the filled-in dict is checked, so with `tie_weights=True` one name per tied
    # EN: group is enough.
    if strict:
        valid_keys = {name for name, _ in module.named_parameters(remove_duplicate=False)}
        valid_keys |= {name for name, _ in module.named_buffers(remove_duplicate=False)}
        given_keys = set(untied)
        missing_keys = sorted(valid_keys - given_keys)
        unexpected_keys = sorted(given_keys - valid_keys)
        # 中: 报错文字与 PyTorch 相同：先列多余的键、再列缺失的键，各自排序，用 repr 引号。
        # EN: The error text matches PyTorch's: unexpected keys first, then missing ones, each
        # EN: sorted and quoted with repr.
        error_msgs = []
        if unexpected_keys:
            error_msgs.append(f"Unexpected key(s): {', '.join(map(repr, unexpected_keys))}.")
        if missing_keys:
            error_msgs.append(f"Missing key(s): {', '.join(map(repr, missing_keys))}.")
        # 中: 两类问题合在一条 RuntimeError 里，每类一行、以制表符缩进，模块名取 `_get_name()`。
        # EN: Both kinds go into one RuntimeError, one tab-indented line each, naming the module
        # EN: by `_get_name()`.
        if error_msgs:
            raise RuntimeError(
                "Error(s) in reparametrizing for {}:\n\t{}".format(
                    module._get_name(), "\n\t".join(error_msgs)
                )
            )

    # 中: 换入时允许缺失：非 strict 时名字的最后一段未知不报错，而是在调用期间作为新属性存在、
    # 中: 之后删除；子模块路径未知（如 `"nope.weight"`）仍抛 `AttributeError`。
    # 中: 换入本身失败时，`swap_tensors_dict` 已自行回滚，`originals` 仍为空，finally 什么也不换。
    # EN: Swapping in allows missing names: without strict, an unknown last part of a name is no
    # EN: error; it exists as a new attribute during the call and is deleted afterwards. An
    # EN: unknown submodule path (e.g. `"nope.weight"`) still raises `AttributeError`. If the
    # EN: swap-in itself fails, `swap_tensors_dict` has rolled back, `originals` is still empty,
    # EN: and the finally block swaps nothing.
    originals: dict[str, Tensor] = {}
    try:
        originals, _ = accessor.swap_tensors_dict(untied, allow_missing=True)
        yield
    # 中: 无论 `forward` 是否抛出都恢复。默认按换入顺序恢复：若两个键指向同一槽位（共享子模块，
    # 中: `tie_weights=True` 正会这样补全），第二个键记下的"原值"其实是第一个换入的张量，按此顺序
    # 中: 恢复后模块里留下的是它而不是原参数——PyTorch 同样如此（issue #164759）。
    # 中: `stack_weights=True` 改为后进先出，才恢复出最初的对象。
    # EN: Restore whether or not `forward` raised. By default in swap-in order: if two keys reach
    # EN: one slot (a shared submodule, which `tie_weights=True` fills in exactly so), the second
    # EN: key's "original" is really the first swapped-in tensor, and restoring in this order
    # EN: leaves that tensor in the module instead of the parameter; PyTorch does the same
    # EN: (issue #164759). `stack_weights=True` restores last-in-first-out, which gets the
    # EN: very first object back.
    finally:
        if stack_weights:
            originals = dict(reversed(originals.items()))
        # 中: 换回原值；交换的返回值正是调用期间模块持有的张量，只写回用户字典中已有的键
        # 中: （补全的别名不写回）。就地修改本来就可见；这一步让 `forward` 里的重新赋值也传回用户。
        # EN: Swap the originals back; what comes out is what the module held during the call,
        # EN: written back only to keys the user's dict already has (filled-in aliases are not).
        # EN: In-place changes are visible anyway; this carries reassignments in `forward` back too.
        during_call, _ = accessor.swap_tensors_dict(originals, allow_missing=True)
        parameters_and_buffers.update(
            {k: during_call[k] for k in parameters_and_buffers if k in during_call}
        )


@deprecated(
    "`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
    "and will be removed in a future version of PyTorch. "
    "Please use `torch.func.functional_call` instead which is a drop-in replacement.",
    category=FutureWarning,
)
def functional_call(
    module: Any,
    parameters_and_buffers: dict[str, Tensor] | Sequence[dict[str, Tensor]],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    r"""Call `module` with the given tensors in place of its own. / 用给定张量代替模块自身的参数与缓冲区来调用它。

    === "中文"

        `parameters_and_buffers` 的键是 `named_parameters()` / `named_buffers()` 风格的带点路径。
        调用期间这些名字指向给定张量，调用后恢复原对象（`forward` 抛出异常时也恢复）。
        例外：两个键指向同一个槽位时，例如同一个子模块挂在两条路径下（`tie_weights=True`（默认）
        会自动补上第二个键），恢复之后模块里留下的是换入的张量而不是原参数（torch 同样如此，
        issue #164759）。
        没有给出的名字保持模块原来的值（除非 `strict=True`，那时必须一个不多一个不少）。
        `tie_weights=True`（默认）时，绑定在一起的权重只需给其中一个名字；要么给一个，要么给全：
        三个及以上名字的组里给两个、漏一个会报 KeyError（即使给的是同一个张量，与 torch 相同）。
        `args` 不是 tuple 时被当作唯一的位置参数。

        与 PyTorch 相同，每次调用都发出 `FutureWarning`（这个入口自 PyTorch 2.0 起已弃用），
        警告文字也逐字相同。但要注意：警告推荐的 `torch.func.functional_call` 只接受
        `torch.nn.Module`：对 annotated_nn 的模块，只要真的要换入一个张量，它就抛出 `TypeError`
        （空字典时它只是直接调用模块），所以在本项目里这个函数仍是唯一可用的入口。它也接受若干字典组成的 tuple/list（例如 `(params, buffers)`，
        同一个键不能出现在两个字典里），这一点按 `torch.func.functional_call` 的规则处理。

    === "English"

        Keys of `parameters_and_buffers` are dotted paths as produced by `named_parameters()` /
        `named_buffers()`. During the call those names refer to the given tensors; afterwards
        the original objects are restored (also when `forward` raises). The exception: when two
        keys reach one slot, as for one submodule under two paths (`tie_weights=True`, the
        default, adds the second key by itself), the swapped-in tensor stays in the module
        instead of the parameter (the same in torch, issue #164759). Names not given keep the
        module's own values (unless `strict=True`, which then requires exactly the module's
        names). With `tie_weights=True` (the default), tied weights need a value under
        one of their names only; give one or all of them: giving two names of a group of three
        or more and leaving one out raises KeyError (even with the same tensor, as in torch). An `args` that is not a tuple is taken as the single
        positional argument.

        As in PyTorch, every call emits a `FutureWarning` (this entry point is deprecated
        since PyTorch 2.0) with the very same text. Note, however, that the recommended
        `torch.func.functional_call` accepts `torch.nn.Module` only: on an annotated_nn module it
        raises `TypeError` as soon as it has a tensor to swap in (with an empty dict it just calls
        the module), so within this project this function remains the entry point to use. It also accepts a tuple/list of dicts such as `(params, buffers)` (a key may not
        appear in two of them), following `torch.func.functional_call`'s rules.

    Args:
        module: The module to call. / 要调用的模块。
        parameters_and_buffers: A dict, or a sequence of dicts, `{name: tensor}`. / 一个或一组 `{名字: 张量}` 字典。
        args: Positional argument(s); a non-tuple is one argument. / 位置参数；非 tuple 视为单个参数。
        kwargs: Keyword arguments for the call. / 调用的关键字参数。
        tie_weights: Treat tied weights as tied. / 是否保持权重绑定。
        strict: Require exactly the module's names. / 是否要求名字与模块完全一致。

    Returns:
        Whatever `module(*args, **kwargs)` returns. / `module(*args, **kwargs)` 的返回值。

    Raises:
        ValueError: Bad container, non-dict element, duplicate keys across dicts, or different tensors for tied names. / 容器类型不对、元素不是字典、跨字典重复键，或给绑定的名字传了不同的张量。
        RuntimeError: Jitted or DataParallel module; or `strict` key mismatch. / 模块是 JIT 或 DataParallel；或 `strict` 下键不匹配。
        KeyError: With `tie_weights`, some but not all names of a tied group of three or more. / `tie_weights` 时，三个及以上名字的绑定组只给了部分名字（多于一个）。

    Note: Note [which functional_call] 对应哪个 functional_call
        === "中文"

            PyTorch 2.13 有两个入口：`torch.nn.utils.stateless.functional_call`（已弃用，发出
            FutureWarning，第二个参数名为 `parameters_and_buffers`，只接受单个字典）与
            `torch.func.functional_call`（不发警告，第二个参数名为 `parameter_and_buffer_dicts`，
            接受字典序列）。本文件的路径对应前者，所以签名与警告都跟前者一致；
            只有"接受字典序列"这一点借自后者。本项目的模块是 `torch.nn.Module` 的子类，所以后者也可以
            直接用在它们上面。
            1.5.1 → 2.13：1.5.1 还没有这个模块（它在 1.12 加入）。

        === "English"

            PyTorch 2.13 has two entry points: `torch.nn.utils.stateless.functional_call`
            (deprecated, emits a FutureWarning, second parameter named
            `parameters_and_buffers`, a single dict only) and `torch.func.functional_call` (no
            warning, second parameter named `parameter_and_buffer_dicts`, sequences of dicts
            accepted). This file's path mirrors the former, so the signature and the warning
            follow it; only "sequences of dicts accepted" is borrowed from the latter. This
            project's modules subclass `torch.nn.Module`, so the latter works on them too.
            1.5.1 → 2.13: 1.5.1 had no such module yet (it arrived in 1.12).

    Examples:
        >>> import warnings, torch, annotated_nn as nn
        >>> from annotated_nn.utils.stateless import functional_call
        >>> lin = nn.Linear(2, 1)
        >>> zeros = {"weight": torch.zeros(1, 2), "bias": torch.ones(1)}
        >>> with warnings.catch_warnings(record=True):
        ...     functional_call(lin, zeros, torch.randn(3, 2))
        tensor([[1.],
                [1.],
                [1.]])
        >>> lin.weight is zeros["weight"]
        False
    """
    # DIFF(torch 2.13):
    # 中: 除单个字典外还接受字典序列（按 torch.func.functional_call 的规则）；其它类型抛
    # 中: ValueError，而 torch 在这里抛 AttributeError。
    # EN: Besides a single dict, sequences of dicts are accepted (by torch.func.functional_call's
    # EN: rules); other types raise ValueError where torch raises AttributeError.
    # 中: 单个字典原样传下去（不复制），所以 `forward` 里的重新赋值能写回这个字典。
    # EN: A single dict is passed on as is (no copy), so reassignments in `forward` are written
    # EN: back into it.
    if isinstance(parameters_and_buffers, dict):
        merged = parameters_and_buffers
    # 中: 字典序列：每个元素都必须是 dict（报错文字与 torch.func 相同，连参数名也照搬）。
    # EN: A sequence of dicts: every element must be a dict (error texts as in torch.func, down
    # EN: to its parameter name).
    elif isinstance(parameters_and_buffers, Sequence):
        if not all(isinstance(d, dict) for d in parameters_and_buffers):
            raise ValueError(
                "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
            )
        # 中: 统计每个键出现在几个字典里；重复的键意味着不知道该用哪个值。
        # EN: Count in how many dicts each key appears; a repeated key leaves the value ambiguous.
        key_counts: dict[str, int] = {}
        for d in parameters_and_buffers:
            for k in d:
                key_counts[k] = key_counts.get(k, 0) + 1
        # 中: 出现在多个字典里的键一次全部报出（按首次出现的顺序），文字与 torch.func 相同。
        # EN: Keys found in several dicts are reported all at once (in first-seen order), with
        # EN: torch.func's text.
        repeated_keys = [k for k, n in key_counts.items() if n > 1]
        if repeated_keys:
            raise ValueError(
                f"{repeated_keys} appeared in multiple dictionaries; behavior of functional call is ambiguous"
            )
        # 中: 合并成一个新字典。代价：写回只到达这个新字典，用户的各个字典看不到 `forward`
        # 中: 里的重新赋值（torch.func.functional_call 同样如此）。
        # EN: Merge into a new dict. The price: the write-back only reaches this new dict, and the
        # EN: user's dicts do not see reassignments made in `forward` (as with
        # EN: torch.func.functional_call).
        merged = {k: v for d in parameters_and_buffers for k, v in d.items()}
    else:
        raise ValueError(
            f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, "
            f"but got {type(parameters_and_buffers)}"
        )
    return _functional_call(module, merged, args, kwargs, tie_weights=tie_weights, strict=strict)


def _functional_call(
    module: Any,
    parameters_and_buffers: dict[str, Tensor],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    r"""Single-dict functional call: validate, reparametrize, call. / 单字典版函数式调用：检查、替换、调用。

    === "中文"

        与 PyTorch 一样拒绝 JIT（追踪或脚本化中、或脚本对象）和 `DataParallel`，报错文字相同
        （PyTorch 的源码没有说明理由）。然后把 `args` 规整成 tuple，在 `_reparametrize_module`
        的保护下调用模块。

    === "English"

        Like PyTorch it refuses JIT (while tracing or scripting, or script objects) and
        `DataParallel`, with the same error texts (PyTorch's source states no reason). Then it
        normalizes `args` to a tuple and calls the module under `_reparametrize_module`.

    Args:
        module: The module to call. / 要调用的模块。
        parameters_and_buffers: `{dotted name: tensor}`. / `{带点路径: 张量}`。
        args: Positional argument(s); a non-tuple is one argument. / 位置参数；非 tuple 视为单个参数。
        kwargs: Keyword arguments for the call. / 调用的关键字参数。
        tie_weights: Treat tied weights as tied. / 是否保持权重绑定。
        strict: Require exactly the module's names. / 是否要求名字与模块完全一致。

    Returns:
        Whatever the module returns. / 模块的返回值。

    Raises:
        RuntimeError: Jitted or DataParallel module. / 模块是 JIT 或 DataParallel。
    """
    # 中: 在函数内导入：`annotated_nn.parallel` 依赖模块系统，在文件顶部导入会形成循环导入
    # 中: （同 `_module_class`）。
    # EN: Imported inside the function: `annotated_nn.parallel` depends on the module system, and
    # EN: importing it at the top would be circular (as with `_module_class`).
    from annotated_nn.parallel import DataParallel

    # 中: JIT 检查与报错文字照搬 PyTorch：正在追踪或脚本化时拒绝。
    # EN: The JIT checks and error text are PyTorch's: refuse while tracing or scripting.
    if (
        torch.jit.is_tracing()
        or torch.jit.is_scripting()
        # 中: 或对象本身是脚本类型。annotated_nn 的模块类不是这几种；`torch.jit.script(我们的模块)`
        # 中: 得到的是 torch 的 RecursiveScriptModule，在这里被拒绝，与 torch 相同。
        # EN: Or the object itself is a script type. annotated_nn's module classes are none of
        # EN: these; `torch.jit.script(our_module)` gives torch's RecursiveScriptModule, refused
        # EN: here as in torch.
        or isinstance(
            module,
            (torch.jit.RecursiveScriptModule, torch.jit.ScriptModule, torch.jit.ScriptFunction),
        )
    ):
        raise RuntimeError("The stateless API can't be used with Jitted modules")
    # 中: 检查的是本项目的 DataParallel（torch 检查 torch.nn.DataParallel），报错文字相同。
    # EN: This checks our DataParallel (torch checks torch.nn.DataParallel); same error text.
    if isinstance(module, DataParallel):
        raise RuntimeError("The stateless API can't be used with nn.DataParallel module")
    # 中: 规整参数：`args` 为 None 表示没有位置参数，非 tuple 是唯一的位置参数（要把一个 tuple
    # 中: 当作单个参数传，得写成 `(t,)`）。
    # EN: Normalize arguments: `args` None means no positional argument, a non-tuple is the only
    # EN: one (to pass one tuple as a single argument, write `(t,)`).
    if kwargs is None:
        kwargs = {}
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    # 中: 在替换状态下调用模块（钩子照常运行，看到的也是换入的张量）；退出 with 时恢复，
    # 中: `forward` 抛出时也一样。`stack_weights` 保持默认的 False。
    # EN: Call the module while reparametrized (hooks run as usual and see the swapped-in
    # EN: tensors too); leaving the with block restores, also when `forward` raises.
    # EN: `stack_weights` stays at its default, False.
    with _reparametrize_module(
        module, parameters_and_buffers, tie_weights=tie_weights, strict=strict
    ):
        return module(*args, **kwargs)
