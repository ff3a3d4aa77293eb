r"""Small argument helpers shared by the layer files. / 各层文件共用的小型参数工具。

=== "中文"

    卷积层、池化层等接受 `kernel_size=3` 也接受 `kernel_size=(3, 5)`。本文件把这类
    "一个数或一组数" 的参数统一成定长 tuple（`_single`、`_pair`、`_triple`、`_quadruple`），
    把 `padding` 变成 `F.pad` 需要的倒序成对格式（`_reverse_repeat_tuple`），
    并提供自适应池化用的 `_list_with_default` 和整理状态字典（state_dict）键名的
    `consume_prefix_in_state_dict_if_present`。

=== "English"

    Convolution and pooling layers accept `kernel_size=3` as well as `kernel_size=(3, 5)`.
    This file turns such "one number or several" arguments into fixed-length tuples
    (`_single`, `_pair`, `_triple`, `_quadruple`), turns `padding` into the reversed, paired
    layout that `F.pad` expects (`_reverse_repeat_tuple`), and offers `_list_with_default`
    for adaptive pooling and `consume_prefix_in_state_dict_if_present` for tidying state_dict keys.
"""

import collections
from itertools import repeat
from typing import Any

__all__ = ["consume_prefix_in_state_dict_if_present"]


def _ntuple(n, name="parse"):
    r"""Build a converter that turns a scalar or an iterable into a tuple. / 生成把标量或可迭代对象转成 tuple 的函数。

    === "中文"

        返回的函数收到可迭代对象时原样转成 tuple（不检查长度，`_pair((1, 2, 3))`
        仍得到三个元素）；收到标量时重复 `n` 次。`name` 只设定返回函数的 `__name__`；
        `repr` 与回溯信息用的是 `__qualname__` 和代码对象的名字，仍显示 `parse`。

    === "English"

        The returned function turns an iterable into a tuple as is (its length is not checked:
        `_pair((1, 2, 3))` still gives three items) and repeats a scalar `n` times. `name` only
        sets the returned function's `__name__`; `repr` and tracebacks use `__qualname__` and the
        code object's name, and still show `parse`.

    Args:
        n: How many times a scalar is repeated. / 标量被重复的次数。
        name: `__name__` of the returned function. / 返回函数的 `__name__`。

    Returns:
        The converter function. / 转换函数。

    Examples:
        >>> from annotated_nn.modules.utils import _pair
        >>> _pair(3), _pair((3, 5)), _pair.__name__
        ((3, 3), (3, 5), '_pair')
    """

    def parse(x):
        r"""Return `x` as a tuple, repeating a scalar. / 把 `x` 变成 tuple，标量会被重复。

        === "中文"

            字符串也是可迭代对象，会被拆成字符；调用方（例如卷积层）在调用前已经
            把 `padding='same'` 这类字符串单独处理掉了。

        === "English"

            A string is iterable too and would be split into characters; callers such as
            the convolution layers deal with `padding='same'`-style strings before calling.

        Args:
            x: A scalar or an iterable. / 标量或可迭代对象。

        Returns:
            A tuple. / 一个 tuple。
        """
        # 中: 判断依据是"可迭代"，而不是"是 tuple/list"：list、`torch.Size` 也原样转换，长度不查。
        # 中: 陷阱：0 维张量也算可迭代，`_pair(torch.tensor(3))` 会抛 `TypeError`（已实测）。
        # EN: The test is "iterable", not "a tuple or list": lists and `torch.Size` convert as is,
        # EN: length unchecked. Pitfall: a 0-d tensor counts as iterable too, and
        # EN: `_pair(torch.tensor(3))` raises `TypeError` (checked by running it).
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(repeat(x, n))

    # 中: 只改 `__name__`（于是 `_pair.__name__ == "_pair"`）；`__qualname__` 与代码对象的名字不变，
    # 中: 所以 `repr` 仍显示 `_ntuple.<locals>.parse`，回溯信息里仍是 `parse`（已实测）。
    # EN: Only `__name__` changes (so `_pair.__name__ == "_pair"`); `__qualname__` and the code
    # EN: object's name stay, so `repr` still shows `_ntuple.<locals>.parse` and tracebacks still
    # EN: say `parse` (checked by running it).
    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t, n):
    r"""Reverse a tuple and repeat each item `n` times. / 把 tuple 倒序，并把每个元素重复 `n` 次。

    === "中文"

        卷积层的 `padding` 按维度从前到后给出，例如 `(pad_h, pad_w)`；而 `F.pad`
        要求从最后一维开始、每维给出 (左, 右) 两个数。`_reverse_repeat_tuple((1, 2), 2)`
        得到 `(2, 2, 1, 1)`，正是 `F.pad` 需要的格式。

    === "English"

        A convolution's `padding` lists dimensions first to last, e.g. `(pad_h, pad_w)`, while
        `F.pad` wants the last dimension first, with a (left, right) pair per dimension.
        `_reverse_repeat_tuple((1, 2), 2)` gives `(2, 2, 1, 1)`, exactly what `F.pad` takes.

    Args:
        t: The tuple to reverse. / 要倒序的 tuple。
        n: How many times each item is repeated. / 每个元素重复的次数。

    Returns:
        The reversed, repeated tuple. / 倒序并重复后的 tuple。

    Examples:
        >>> from annotated_nn.modules.utils import _reverse_repeat_tuple
        >>> _reverse_repeat_tuple((1, 2), 2)
        (2, 2, 1, 1)
    """
    return tuple(x for x in reversed(t) for _ in range(n))


def _list_with_default(out_size: list[int], defaults: list[int]) -> list[int]:
    r"""Fill `None` entries of an output size from the input's trailing sizes. / 用输入末尾几维的大小填补输出尺寸中的 `None`。

    === "中文"

        自适应池化允许 `output_size=(None, 7)`，意思是"这一维保持输入的大小"。
        `defaults` 是输入的完整形状，取其最后 `len(out_size)` 维来替换 `None`。
        整数（或 `SymInt`）直接原样返回。输入维数必须比 `out_size` 多（至少要有一个
        通道维），否则抛出 `ValueError`。

    === "English"

        Adaptive pooling accepts `output_size=(None, 7)`, meaning "keep the input's size in this
        dimension". `defaults` is the input's full shape; its last `len(out_size)` entries replace
        the `None`s. A plain int (or `SymInt`) is returned unchanged. The input must have more
        dimensions than `out_size` (at least one channel dimension), else `ValueError`.

    Args:
        out_size: Requested size, an int or a list that may hold `None`. / 期望尺寸，整数或可含 `None` 的列表。
        defaults: The input's shape. / 输入的形状。

    Returns:
        The output size with every `None` replaced. / 替换掉所有 `None` 之后的输出尺寸。

    Raises:
        ValueError: The input has too few dimensions. / 输入维数不够。

    Examples:
        >>> from annotated_nn.modules.utils import _list_with_default
        >>> _list_with_default([None, 7], [1, 3, 10, 20])
        [10, 7]
    """
    # 中: 延迟导入 torch，与 torch 的写法一致：本文件在导入期不依赖 torch。
    # EN: torch is imported lazily, as torch does: this file needs nothing of torch at import time.
    import torch

    # 中: 单个整数（或符号整数 `SymInt`）里不会有 None，原样返回；算子的参数解析会把它扩展到每一维。
    # EN: A single int (or symbolic `SymInt`) cannot hold a None; it is returned as is, and the
    # EN: operator's argument parsing expands it to every dimension.
    if isinstance(out_size, (int, torch.SymInt)):
        return out_size
    # 中: 输入至少要比 `out_size` 多一维（通道维），否则取不出对应的末尾几维；报错文本与 torch 相同。
    # EN: The input needs at least one dimension more than `out_size` (the channels), else the
    # EN: matching trailing sizes do not exist; torch's message.
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    # 中: 与输入的最后 `len(out_size)` 维逐一配对：None 取输入大小，其余保持请求值。
    # EN: Pair with the input's last `len(out_size)` sizes: None takes the input's size, anything
    # EN: else keeps the requested value.
    return [
        v if v is not None else d
        for v, d in zip(out_size, defaults[-len(out_size) :], strict=False)
    ]


def consume_prefix_in_state_dict_if_present(state_dict: dict[str, Any], prefix: str) -> None:
    r"""Strip `prefix` from the state_dict's keys, in place. / 就地去掉状态字典键名中的前缀 `prefix`。

    === "中文"

        典型用途：用 `DataParallel` 保存的状态字典（state_dict）键名都以 `"module."` 开头，
        直接加载到普通模型会对不上。本函数就地把以 `prefix` 开头的键改名；若状态字典带有
        `_metadata`（`state_dict()` 会附上每个子模块的版本信息），其中的键也一并改名；
        空键（包装器自身的记录）不改名，但会被改名为空键的 `"module"` 记录覆盖。

    === "English"

        Typical use: a state_dict saved from a `DataParallel` model has keys starting with
        `"module."`, which do not match a plain model. This renames, in place, every key that
        starts with `prefix`; when the state_dict carries `_metadata` (the per-submodule version
        records that `state_dict()` attaches), those keys are renamed too; the empty key (the
        wrapper's own record) is not renamed, but the `"module"` record renamed to the empty key
        overwrites it.

    Args:
        state_dict: The state dict to edit in place. / 要就地修改的状态字典。
        prefix: The prefix to remove. / 要去掉的前缀。

    Examples:
        >>> from collections import OrderedDict
        >>> from annotated_nn.modules.utils import consume_prefix_in_state_dict_if_present
        >>> sd = OrderedDict([("module.weight", 1), ("bias", 2)])
        >>> consume_prefix_in_state_dict_if_present(sd, "module.")
        >>> list(sd)
        ['bias', 'weight']
    """
    # 中: 先复制键列表再遍历，因为循环里会增删字典的键；被改名的键移到字典末尾。
    # EN: Iterate over a copy of the keys since the loop adds and removes keys; renamed keys move
    # EN: to the end.
    keys = list(state_dict.keys())
    for key in keys:
        if key.startswith(prefix):
            newkey = key[len(prefix) :]
            state_dict[newkey] = state_dict.pop(key)

    # 中: `state_dict()` 返回的字典带有 `_metadata` 属性（普通 dict 没有），其中的键同样要去掉前缀。
    # EN: A dict from `state_dict()` carries a `_metadata` attribute (a plain dict has none); its
    # EN: keys lose the prefix too.
    if hasattr(state_dict, "_metadata"):
        keys = list(state_dict._metadata.keys())
        for key in keys:
            # 中: `_metadata` 的键是子模块路径，不带末尾的点。空键是包装器（如 DDP）自己的记录，不改名，
            # 中: 但下面把 "module" 改名为空键时，它会被被包装模块的记录覆盖（已对 torch 实测）。
            # EN: `_metadata` keys are submodule paths without the trailing dot. The empty key is
            # EN: the wrapper's own record (e.g. DDP's); it is not renamed, but renaming "module"
            # EN: to the empty key below overwrites it with the wrapped module's record (checked
            # EN: with torch).
            if len(key) == 0:
                continue
            # 中: 前缀去掉点后恰好等于某个键（如 "module"），那就是被包装的模块本身：
            # 中: `key[len(prefix):]` 越过末尾，得到空键。
            # EN: A key equal to the prefix without dots (e.g. "module") is the wrapped module
            # EN: itself: `key[len(prefix):]` slices past its end and gives the empty key.
            if key == prefix.replace(".", "") or key.startswith(prefix):
                newkey = key[len(prefix) :]
                state_dict._metadata[newkey] = state_dict._metadata.pop(key)
