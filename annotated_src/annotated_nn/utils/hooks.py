r"""Hook handles and the machinery of full backward hooks; mirrors `torch.utils.hooks`. / 钩子句柄与完整反向钩子的实现机制，对应 `torch.utils.hooks`。

=== "中文"

    每个 `register_*_hook` 都返回一个
    [`RemovableHandle`][annotated_nn.utils.hooks.RemovableHandle]：钩子（hook）存在模块的
    字典里，键是句柄的 `id`，调用 `handle.remove()` 就按这个键删除。
    [`BackwardHook`][annotated_nn.utils.hooks.BackwardHook] 则是
    `register_full_backward_hook` 背后的机制：它在前向传播（forward pass）时把模块的输入
    和输出各自穿过一个恒等的自动求导节点，反向传播（backward pass）时在这两个节点上收集
    梯度，凑齐后调用用户的钩子。

    1.5.1 → 2.13：1.5.1 的 `RemovableHandle` 只有一个字典（没有 `extra_dict`），也不支持
    `with` 语句；`BackwardHook` 不存在（完整反向钩子 1.8 才有），1.5.1 的
    `register_backward_hook` 直接挂在输出的 `grad_fn` 上，结果常常不是模块的真实输入梯度。

=== "English"

    Every `register_*_hook` returns a
    [`RemovableHandle`][annotated_nn.utils.hooks.RemovableHandle]: the hook sits in one of the
    module's dictionaries under the handle's `id`, and `handle.remove()` deletes that key.
    [`BackwardHook`][annotated_nn.utils.hooks.BackwardHook] is the machinery behind
    `register_full_backward_hook`: during the forward pass it routes a module's inputs and its
    outputs through an identity autograd node each; during the backward pass it collects the
    gradients at these two nodes and, once both are known, calls the user's hooks.

    1.5.1 → 2.13: 1.5.1's `RemovableHandle` held one dictionary (no `extra_dict`) and was no
    context manager; `BackwardHook` did not exist (full backward hooks came in 1.8), and
    1.5.1's `register_backward_hook` sat on the output's `grad_fn`, which often did not see
    the module's real input gradients.
"""

import warnings
import weakref
from collections import OrderedDict
from typing import Any

import torch

from annotated_nn.modules._functions import BackwardHookFunction

__all__ = ["RemovableHandle", "unserializable_hook", "warn_if_has_hooks", "BackwardHook"]


# DIFF(torch 2.13): RemovableHandle subclasses torch's RemovableHandle
# 中: torch 的句柄类直接继承 object；我们的继承它，只为共用类上的 id 计数器 `next_id`（两个库的句柄会进同一张
# 中: 全局钩子表），它的每个方法这里都重新定义。
# EN: torch's handle class derives from object; ours subclasses it only to share the id counter
# EN: `next_id` on that class (handles of both libraries go into the same global hook tables); every
# EN: method of it is defined again here.
class RemovableHandle(torch.utils.hooks.RemovableHandle):
    r"""A handle whose `remove()` unregisters one hook. / 句柄：调用 `remove()` 即注销一个钩子。

    === "中文"

        句柄只持有钩子字典的弱引用：模块被回收后，留在用户手里的句柄不会让字典继续存活，
        此时 `remove()` 什么也不做。`id` 来自类级计数器 `next_id`，进程内全局递增，
        所以同一字典里键不会重复。字典的顺序是插入顺序，也就是注册顺序，除非注册时用了
        `prepend=True`（那时 `move_to_end(id, last=False)` 把它挪到最前）。

        `extra_dict` 用于一个钩子同时登记在多个字典里的情形，例如 `always_call=True` 的
        前向钩子也记在 `_forward_hooks_always_called`，`with_kwargs=True` 的钩子也记在
        `_forward_hooks_with_kwargs`；`remove()` 会把这些字典里的同一个键一并删掉。

        句柄也是上下文管理器：`with m.register_forward_hook(h): ...` 退出时自动移除。

        它是 `torch.utils.hooks.RemovableHandle` 的子类，覆盖了那个类定义的每个方法；继承下来的只有
        计数器 `next_id`：两个库的句柄从同一个计数器取号，所以 torch 与我们的句柄放进同一张表（例如
        共享的全局钩子表）时键也不会重复。

    === "English"

        The handle holds only weak references to the hook dictionaries: once the module is
        gone, a handle kept by the user does not keep the dictionary alive, and `remove()`
        does nothing. The `id` comes from the class-wide counter `next_id`, increasing for the
        whole process, so keys never clash within a dictionary. The dictionary's order is
        insertion order, that is registration order, unless a hook was registered with
        `prepend=True` (then `move_to_end(id, last=False)` puts it first).

        `extra_dict` covers hooks recorded in more than one dictionary, e.g. a forward hook
        with `always_call=True` is also listed in `_forward_hooks_always_called`, one with
        `with_kwargs=True` in `_forward_hooks_with_kwargs`; `remove()` deletes the same key
        from those too.

        The handle is also a context manager: `with m.register_forward_hook(h): ...` removes
        the hook on exit.

        It subclasses `torch.utils.hooks.RemovableHandle` and overrides every method that class
        defines; only the counter `next_id` is inherited: handles of both libraries draw from the
        one counter, so keys never clash when torch's handles and ours share a table (the shared
        global hook tables, say).

    Args:
        hooks_dict: The dictionary holding the hook, keyed by `id`. / 存放钩子的字典，键为 `id`。
        extra_dict: A dict or list of dicts sharing the key. / 共用同一键的一个字典或字典列表。

    Examples:
        >>> from collections import OrderedDict
        >>> from annotated_nn.utils.hooks import RemovableHandle
        >>> hooks = OrderedDict()
        >>> handle = RemovableHandle(hooks)
        >>> hooks[handle.id] = print
        >>> handle.remove()
        >>> len(hooks)
        0
    """

    # 中: 没有自己的 `next_id`：读写的都是 `torch.utils.hooks.RemovableHandle.next_id`。
    # EN: No `next_id` of its own: reads and writes go to `torch.utils.hooks.RemovableHandle.next_id`.
    id: int

    def __init__(self, hooks_dict: Any, *, extra_dict: Any = None) -> None:
        r"""Take a fresh id and weak references to the dictionaries. / 取一个新 id，并弱引用各字典。

        === "中文"

            `extra_dict` 可以是单个字典、字典列表或 `None`；其他类型被忽略。

        === "English"

            `extra_dict` may be one dict, a list of dicts, or `None`; other types are ignored.

        Args:
            hooks_dict: The dictionary holding the hook. / 存放钩子的字典。
            extra_dict: A dict or list of dicts sharing the key. / 共用同一键的一个字典或字典列表。
        """
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        # 中: 计数器在 torch 的类上（见类说明）；写到子类上会另起一个计数器。
        # EN: The counter lives on torch's class (see the class note); writing it on the subclass
        # EN: would start a second counter.
        counter = torch.utils.hooks.RemovableHandle
        self.id = counter.next_id
        counter.next_id += 1

        self.extra_dict_ref: tuple = ()
        if isinstance(extra_dict, dict):
            self.extra_dict_ref = (weakref.ref(extra_dict),)
        elif isinstance(extra_dict, list):
            self.extra_dict_ref = tuple(weakref.ref(d) for d in extra_dict)

    def remove(self) -> None:
        r"""Delete this hook's key from every dictionary still alive. / 从仍存活的各字典中删除本钩子的键。

        === "中文"

            可重复调用：键已不在或字典已被回收时静默跳过。

        === "English"

            Safe to call again: a missing key or a collected dictionary is skipped silently.
        """
        hooks_dict = self.hooks_dict_ref()
        if hooks_dict is not None and self.id in hooks_dict:
            del hooks_dict[self.id]

        for ref in self.extra_dict_ref:
            extra_dict = ref()
            if extra_dict is not None and self.id in extra_dict:
                del extra_dict[self.id]

    def __getstate__(self):
        r"""Pickle the dictionaries themselves (weak references cannot be pickled). / 序列化字典本身（弱引用无法序列化）。

        === "中文"

            返回 `(hooks_dict, id, extra_dicts)`；已被回收的字典记为 `None`。

        === "English"

            Returns `(hooks_dict, id, extra_dicts)`; a collected dictionary is saved as `None`.

        Returns:
            The state tuple. / 状态 tuple。
        """
        # 中: __init__ 与 __setstate__ 总把 extra_dict_ref 设为 tuple；但它是普通属性，用户可以改成
        #     None，此时与 torch 一样返回两元素的旧格式。
        # EN: __init__ and __setstate__ always make extra_dict_ref a tuple, but it is a plain
        #     attribute a user may set to None; then, as in torch, the old two-element form is returned.
        if self.extra_dict_ref is None:
            return (self.hooks_dict_ref(), self.id)
        return (self.hooks_dict_ref(), self.id, tuple(ref() for ref in self.extra_dict_ref))

    def __setstate__(self, state) -> None:
        r"""Restore from a pickled state and keep ids unique. / 从序列化状态恢复，并保证 id 不重复。

        === "中文"

            恢复的句柄沿用原来的 `id`，于是把 `next_id` 推到它之后，之后新建的句柄不会撞键。
            字典为 `None` 时换成一个立即失效的弱引用（`remove()` 不做任何事）。也接受没有
            第三项的旧格式。

        === "English"

            The restored handle keeps its old `id`, so `next_id` is moved past it and later
            handles cannot clash. A `None` dictionary becomes a weak reference that is dead at
            once (`remove()` then does nothing). The older format without a third item is
            accepted.

        Args:
            state: The tuple from `__getstate__`. / `__getstate__` 返回的 tuple。
        """
        if state[0] is None:
            # 中: 指向一个临时字典的弱引用，字典随即被回收，得到“已失效”的引用。
            # EN: A weak reference to a temporary dict that is collected at once: a dead reference.
            self.hooks_dict_ref = weakref.ref(OrderedDict())
        else:
            self.hooks_dict_ref = weakref.ref(state[0])
        # 中: 沿用旧 id，并把类级计数器推到它之后，
        # 中: 本进程之后新建的句柄不会与它撞键。
        # EN: Keep the old id and push the class-wide counter past it, so handles created later
        # EN: in this process cannot clash with it.
        self.id = state[1]
        counter = torch.utils.hooks.RemovableHandle
        counter.next_id = max(counter.next_id, self.id + 1)

        # 中: 两元素的旧格式（或 extra 为 None）表示没有额外字典。
        # EN: The old two-element form (or a None extra) means no extra dictionaries.
        if len(state) < 3 or state[2] is None:
            self.extra_dict_ref = ()
        else:
            self.extra_dict_ref = tuple(weakref.ref(d) for d in state[2])

    def __enter__(self) -> "RemovableHandle":
        r"""Enter a `with` block; the hook stays registered inside it. / 进入 `with` 块，块内钩子保持注册。

        === "中文"

            返回句柄本身，所以可以写 `with m.register_forward_hook(h) as handle:`。

        === "English"

            Returns the handle itself, so `with m.register_forward_hook(h) as handle:` works.

        Returns:
            This handle. / 句柄本身。
        """
        return self

    def __exit__(self, type: Any, value: Any, tb: Any) -> None:
        r"""Leave the `with` block: remove the hook. / 离开 `with` 块：移除钩子。

        === "中文"

            无论块内是否抛出异常都会移除；异常不会被吞掉（返回 `None`）。

        === "English"

            Removes the hook whether or not the block raised; an exception is not swallowed
            (returns `None`).

        Args:
            type: Exception type, or `None`. / 异常类型或 `None`。
            value: Exception instance, or `None`. / 异常实例或 `None`。
            tb: Traceback, or `None`. / 回溯或 `None`。
        """
        self.remove()


def unserializable_hook(f):
    r"""Decorator: mark a hook as knowingly not serialized. / 装饰器：标明某个钩子有意不被序列化。

    === "中文"

        张量序列化时会丢弃其上的钩子，并通过
        [`warn_if_has_hooks`][annotated_nn.utils.hooks.warn_if_has_hooks] 发出警告；带有这个
        标记（`__torch_unserializable__` 属性）的钩子不再警告。

    === "English"

        Pickling a tensor drops its hooks and warns through
        [`warn_if_has_hooks`][annotated_nn.utils.hooks.warn_if_has_hooks]; a hook carrying this
        mark (the `__torch_unserializable__` attribute) is no longer warned about.

    Args:
        f: The hook function. / 钩子函数。

    Returns:
        `f` itself, marked. / 打上标记的 `f` 本身。
    """
    f.__torch_unserializable__ = True
    return f


def warn_if_has_hooks(tensor) -> None:
    r"""Warn about each backward hook on `tensor` that pickling will drop. / 对 `tensor` 上每个会在序列化时丢失的反向钩子发出警告。

    === "中文"

        用 [`unserializable_hook`][annotated_nn.utils.hooks.unserializable_hook] 标记过的钩子
        被跳过。torch 的 `Tensor.__reduce_ex__` 调用的是 torch 自己的同名函数；这里的版本
        供直接使用，警告文字与 torch 相同。

    === "English"

        Hooks marked by [`unserializable_hook`][annotated_nn.utils.hooks.unserializable_hook]
        are skipped. torch's `Tensor.__reduce_ex__` calls torch's own function of this name;
        this one is for direct use and warns with the same text.

    Args:
        tensor: A tensor whose `_backward_hooks` are checked. / 要检查 `_backward_hooks` 的张量。
    """
    if tensor._backward_hooks:
        for k in tensor._backward_hooks:
            hook = tensor._backward_hooks[k]
            if not hasattr(hook, "__torch_unserializable__"):
                # 中: 文字与 torch 相同，包括它推荐的装饰器路径 torch.utils.hooks.unserializable_hook。
                # EN: The text is torch's, including the decorator path it recommends,
                #     torch.utils.hooks.unserializable_hook.
                warnings.warn(
                    f"backward hook {repr(hook)} on tensor will not be "
                    "serialized.  If this is expected, you can "
                    "decorate the function with @torch.utils.hooks.unserializable_hook "
                    "to suppress this warning",
                    stacklevel=2,
                )


@torch._disable_dynamo
def _outside_dynamo(method, *args):
    r"""Call `method(*args)` where dynamo does not trace. / 在 dynamo 不追踪的地方调用 `method(*args)`。

    === "中文"

        [`BackwardHook._apply_on_tensors`][annotated_nn.utils.hooks.BackwardHook._apply_on_tensors]
        在 dynamo 追踪它时把调用交到这里。`torch._disable_dynamo` 第一次被调用时才导入
        torch._dynamo，此后 dynamo 不追踪本函数及它调用的代码，于是在这里图中断，调用在即时模式下
        执行。只有 dynamo 追踪时才会走到这里，那时 dynamo 早已导入。

    === "English"

        [`BackwardHook._apply_on_tensors`][annotated_nn.utils.hooks.BackwardHook._apply_on_tensors]
        hands its call over here when dynamo traces it. `torch._disable_dynamo` imports
        torch._dynamo only on its first call; from then on dynamo does not trace this function or
        the code it calls, so the graph breaks here and the call runs eagerly. Only a dynamo trace
        comes this way, and by then dynamo has been imported.

    Args:
        method: The bound method to call. / 要调用的绑定方法。
        *args: Its arguments. / 它的参数。

    Returns:
        Whatever `method` returns. / `method` 的返回值。
    """
    return method(*args)


class BackwardHook:
    r"""Runs a module's full backward hooks and pre-hooks. / 执行模块的完整反向钩子与反向预钩子。

    === "中文"

        模块有完整反向钩子或反向预钩子时，`Module._call_impl` 每次调用都新建一个
        `BackwardHook`。前向传播时搭好两个节点，反向传播时依次经过它们，共四步：

        1. 前向之前 `setup_input_hook(args)`：把位置参数中的张量穿过
           [`BackwardHookFunction`][annotated_nn.modules._functions.BackwardHookFunction]，在它的
           `grad_fn`（输入节点）上挂钩子，用来接收对输入的梯度 `grad_input`。
        2. 前向之后 `setup_output_hook(result)`：对输出做同样的事（输出节点），用来接收
           `grad_output`。
        3. 反向传播先到输出节点：记下 `grad_outputs`，运行反向预钩子（可替换 `grad_output`），
           再把它传进模块内部。
        4. 随后到达输入节点，此时两组梯度齐全，依次调用用户钩子
           `hook(module, grad_input, grad_output)`，返回值可替换 `grad_input`。

        非张量的位置用 `None` 占位，所以钩子看到的 tuple 长度与位置参数、输出的个数一致；
        关键字参数根本不经过输入节点，它们的梯度不会出现在 `grad_input` 里。没有任何位置参数
        需要梯度时，输入节点不存在，第 4 步改在第 3 步的输出节点上完成，`grad_input` 全为 `None`。

    === "English"

        When a module has full backward hooks or backward pre-hooks, `Module._call_impl` builds a
        new `BackwardHook` per call. Two nodes are set up during the forward pass and passed in
        turn during the backward pass, in four steps:

        1. Before forward, `setup_input_hook(args)` routes the tensors among the positional
           arguments through
           [`BackwardHookFunction`][annotated_nn.modules._functions.BackwardHookFunction] and
           hooks its `grad_fn` (the input node), where the input gradients `grad_input` will
           arrive.
        2. After forward, `setup_output_hook(result)` does the same for the outputs (the output
           node), to catch `grad_output`.
        3. The backward pass reaches the output node first: it stores `grad_outputs`, runs the
           backward pre-hooks (which may replace `grad_output`), and passes it on into the module.
        4. Then it reaches the input node; with both sets known, the user hooks run as
           `hook(module, grad_input, grad_output)` and may replace `grad_input`.

        Non-tensor positions are filled with `None`, so the tuples a hook sees are as long as the
        positional arguments and the outputs; keyword arguments never pass the input node, and
        their gradients never appear in `grad_input`. When no positional argument requires grad
        there is no input node, and step 4 happens at step 3's output node instead, with
        `grad_input` all `None`.

    Args:
        module: The module passed to the hooks. / 传给钩子的模块。
        user_hooks: Full backward hooks, in call order. / 完整反向钩子，按调用顺序。
        user_pre_hooks: Backward pre-hooks, in call order. / 反向预钩子，按调用顺序。
    """

    def __init__(self, module, user_hooks, user_pre_hooks) -> None:
        r"""Store the hooks; the tensor layout is learnt later. / 保存钩子；张量位置稍后才知道。

        === "中文"

            `n_inputs`/`n_outputs` 为 -1、两个索引为 `None`，表示还没经过 setup；
            `grad_outputs` 在输出节点触发后才有值，用完即清空。

        === "English"

            `n_inputs`/`n_outputs` of -1 and `None` indices mean no setup has run yet;
            `grad_outputs` is set when the output node fires and cleared after use.

        Args:
            module: The module passed to the hooks. / 传给钩子的模块。
            user_hooks: Full backward hooks. / 完整反向钩子。
            user_pre_hooks: Backward pre-hooks. / 反向预钩子。
        """
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.module = module

        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    def _pack_with_none(self, indices, values, size):
        r"""Spread `values` to positions `indices` of a `None`-filled tuple. / 把 `values` 放到全 `None` 的 tuple 的 `indices` 位置。

        === "中文"

            autograd 只给出张量位置的梯度；这里按原参数位置展开，非张量位置为 `None`。

        === "English"

            Autograd gives gradients for tensor positions only; this spreads them back over the
            original argument positions, `None` elsewhere.

        Args:
            indices: Positions of the tensors. / 张量所在位置。
            values: One value per position. / 每个位置一个值。
            size: Length of the result. / 结果长度。

        Returns:
            A tuple of length `size`. / 长度为 `size` 的 tuple。

        Raises:
            ValueError: `indices` and `values` differ in length. / `indices` 与 `values` 长度不同。
        """
        res = [None] * size
        for idx, val in zip(indices, values, strict=True):
            res[idx] = val

        return tuple(res)

    def _unpack_none(self, indices, values):
        r"""Keep only the entries at `indices`. / 只保留 `indices` 位置的元素。

        === "中文"

            `_pack_with_none` 的逆操作：把钩子看到的完整 tuple 收回成 autograd 需要的张量梯度。

        === "English"

            The inverse of `_pack_with_none`: shrinks the full tuple the hooks saw back to the
            tensor gradients autograd expects.

        Args:
            indices: Positions of the tensors. / 张量所在位置。
            values: The full tuple. / 完整的 tuple。

        Returns:
            The selected entries, as a tuple. / 选出的元素组成的 tuple。
        """
        return tuple(values[idx] for idx in indices)

    def _set_user_hook(self, grad_fn) -> None:
        r"""Hook the input node so the user hooks run with `grad_input`. / 在输入节点上挂钩子，让用户钩子拿到 `grad_input`。

        === "中文"

            节点钩子的签名是 `(grad_inputs, grad_outputs)`；对这个恒等节点，前者就是对模块输入
            的梯度。若 `grad_outputs` 还是 `None`，说明梯度没有经过模块输出就到了输入（例如二阶
            反向传播），此时不调用用户钩子。每个用户钩子返回的 tuple 长度必须与输入个数一致。

        === "English"

            A node hook is called as `(grad_inputs, grad_outputs)`; on this identity node the
            former are the gradients of the module's inputs. If `grad_outputs` is still `None`
            the gradient reached the inputs without passing through the module's outputs (e.g.
            double backward), and the user hooks are skipped. Each user hook must return a
            tuple as long as the inputs.

        Args:
            grad_fn: The `BackwardHookFunctionBackward` node of the inputs. / 输入的 `BackwardHookFunctionBackward` 节点。
        """

        def hook(grad_input, _):
            r"""Node hook: call the user hooks with both gradient sets. / 节点钩子：带着两组梯度调用用户钩子。

            === "中文"

                依次调用用户钩子；返回 `None` 表示不修改，否则用返回值替换 `grad_input`，
                后面的钩子看到的是替换后的值。结束时清空 `grad_outputs`。

            === "English"

                Calls the user hooks in turn; `None` means no change, anything else replaces
                `grad_input` for the following hooks. `grad_outputs` is cleared at the end.

            Args:
                grad_input: Gradients for the tensor inputs. / 对张量输入的梯度。
                _: Gradients for the node's outputs (unused). / 对节点输出的梯度（未使用）。

            Returns:
                The possibly replaced tensor gradients, or `None`. / 可能被替换的张量梯度，或 `None`。

            Raises:
                RuntimeError: A hook returned the wrong number of gradients. / 钩子返回的梯度个数不对。
            """
            # 中: 这是节点的后钩子：autograd 算完该节点的 backward 后，
            # 中: 以（节点输入的梯度，节点输出的梯度）调用它。
            # 中: 恒等节点两者数值相同，都是模块各个位置参数张量的梯度，每个张量一项；
            # 中: 不需要梯度的位置参数张量在这里是全零张量而不是 None
            # 中: （恒等的 backward 把零梯度也传过来）。
            # EN: This is a node post-hook: autograd calls it after the node's backward with (the
            # EN: gradients of the node's inputs, those of its outputs). On the identity node both
            # EN: hold the same values, the gradients of the module's positional tensor arguments,
            # EN: one per tensor; a positional tensor that does not require grad shows up as a
            # EN: zero tensor here, not None (the identity backward passes zero gradients through).
            if self.grad_outputs is None:
                # 中: 梯度没有经过模块输出就流到了输入（例如二阶求导），没有 grad_output 可给。
                # EN: The gradient reached the inputs without passing through the outputs (e.g.
                #     double backward): there is no grad_output to give.
                return
            # 中: 第 4 步：第 3 步已记下 grad_outputs，现在两组梯度齐全。
            # 中: 先按参数原来的位置展开成长度为 n_inputs 的 tuple（非张量位置为 None），
            # 中: 这就是用户看到的 grad_input。
            # EN: Step 4: step 3 has stored grad_outputs, so both sets are known. First spread the
            # EN: gradients over the original positions, a tuple of length n_inputs (None at
            # EN: non-tensor positions): this is the grad_input users see.
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)

            # 中: 用户钩子按注册顺序串联：返回 None 表示不改，否则返回值成为下一个钩子看到的
            # 中: grad_input。
            # EN: The user hooks are chained in registration order: None means no change, any other
            # EN: return becomes the grad_input the next hook sees.
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)

                if out is None:
                    continue

                # 中: 替换值的长度必须等于位置参数个数（含非张量位置），
                # 中: 报错文字与 torch 相同。
                # EN: A replacement must be as long as the positional arguments (non-tensor
                # EN: positions included); the error text is torch's.
                if len(out) != len(res):
                    raise RuntimeError(
                        "Backward hook returned an invalid number of grad_input, "
                        f"got {len(out)}, but expected {len(res)}"
                    )

                res = out

            # 中: 这一对梯度只用一次：清空后，
            # 中: 之后若有梯度不经输出节点就到达这里，会被上面的检查跳过，
            # 中: 而不会与过期的 grad_outputs 配对。
            # EN: The pair is used once: once cleared, a later gradient that arrives here without
            # EN: passing the output node is skipped by the check above instead of being paired
            # EN: with stale grad_outputs.
            self.grad_outputs = None

            # 中: 后钩子的返回值替换节点输入的梯度，
            # 中: 于是替换后的 grad_input（只取张量位置）
            # 中: 继续流向模块的输入张量及更前面的层。
            # EN: A post-hook's return replaces the gradients of the node's inputs, so the
            # EN: replaced grad_input (tensor positions only) flows on to the module's input
            # EN: tensors and the layers before them.
            return self._unpack_none(self.input_tensors_index, res)

        # 中: 这是第 1 步挂上的钩子：
        # 中: 反向传播经过输入节点时才会调用上面的 `hook`（第 4 步）。
        # EN: The hooking of step 1: the `hook` above runs only when the backward pass passes the
        # EN: input node (step 4).
        grad_fn.register_hook(hook)

    # DIFF(torch 2.13):
    # 中: torch.compile 的 dynamo 只特殊处理 torch 自己的 BackwardHook；我们的类会被当作普通代码追踪，
    #     而这里的 grad_fn 名称检查在追踪时无法成立。所以 dynamo 追踪到本方法时，把这次调用交给
    #     `_outside_dynamo` 在 dynamo 之外重新执行：钩子的搭建在即时模式下完成（一次图中断），钩子调用
    #     与梯度与 torch 编译后的结果相同。即时模式不经过那个装饰器，因为它第一次被调用时要导入
    #     torch._dynamo（数秒），而 torch 的 BackwardHook 在即时模式下什么也不导入。
    # EN: dynamo (torch.compile) special-cases only torch's own BackwardHook; ours would be traced as
    #     ordinary code, where the grad_fn name check below cannot hold. So when dynamo traces this
    #     method, the call is handed to `_outside_dynamo` and runs again outside dynamo: the hooks
    #     are set up eagerly (one graph break), and hook calls and gradients match torch's compiled
    #     ones. Eager calls skip that decorator, whose first call imports torch._dynamo (seconds),
    #     while torch's BackwardHook imports nothing in eager mode.
    def _apply_on_tensors(self, fn, args):
        r"""Route the tensors of `args` through one identity node and pass its `grad_fn` to `fn`. / 让 `args` 中的张量穿过一个恒等节点，并把其 `grad_fn` 交给 `fn`。

        === "中文"

            只有当至少一个张量需要梯度、且梯度计算开启时才这样做；否则原样返回 `args`，
            索引为 `None`（之后不会有反向传播经过这里）。新张量放回各自原来的位置，保持 `args`
            的容器类型（tuple 或 namedtuple 之类）。

        === "English"

            This happens only when some tensor requires grad and grad mode is on; otherwise
            `args` comes back unchanged with `None` indices (no backward pass will come this
            way). The new tensors go back to their positions, keeping the container type of
            `args` (a tuple, or e.g. a namedtuple).

        Args:
            fn: Called with the node's `grad_fn` to register a hook. / 以节点的 `grad_fn` 调用，用来挂钩子。
            args: The inputs or outputs, as a sequence. / 输入或输出序列。

        Returns:
            `(new_args, tensor_indices)`; indices `None` when nothing was done. / `(新参数, 张量位置)`；未处理时位置为 `None`。

        Raises:
            RuntimeError: No tensor got the node (should not happen). / 没有张量接到节点上（不应发生）。
        """
        # 中: 只有 dynamo 追踪时 is_dynamo_compiling() 才为真（dynamo 把它当作常量），
        # 中: 即时模式下它总是 False；在 dynamo 之外重新执行时也是 False，所以只会转交一次。
        # EN: is_dynamo_compiling() is true only while dynamo traces (dynamo folds it to a
        # EN: constant); in eager mode it is always False, the run outside dynamo included, so
        # EN: the call is handed over only once.
        if torch.compiler.is_dynamo_compiling():
            return _outside_dynamo(self._apply_on_tensors, fn, args)

        # 中: 只看 `args` 的顶层元素：
        # 中: 列表、dict 里嵌套的张量不会被包装，它们的梯度不出现在 grad_input 里，
        # 中: 也不算作“有输入需要梯度”。
        # EN: Only the top level of `args` is scanned: a tensor nested in a list or dict is not
        # EN: wrapped, its gradient never appears in grad_input, and it does not count as "an
        # EN: input requires grad".
        tensors_idx = []
        tensors = []

        requires_grad = False
        for i, arg in enumerate(args):
            if isinstance(arg, torch.Tensor):
                tensors_idx.append(i)
                tensors.append(arg)
                requires_grad |= arg.requires_grad

        # 中: 没有张量需要梯度、或处于 no_grad 之下时，
        # 中: 反向传播不会经过这里，不必建节点。返回的索引 None 就是“没有节点”的信号：
        # 中: 输出节点的钩子据此知道要自己调用用户钩子。
        # EN: With no tensor requiring grad, or under no_grad, no backward pass will come this
        # EN: way, so no node is built. The None indices are the "no node" signal: the output
        # EN: node's hook reads it to know it must call the user hooks itself.
        if not (requires_grad and torch.is_grad_enabled()):
            return args, None

        # DIFF(torch 2.13):
        # 中: 用本库的 BackwardHookFunction，而非 torch.nn.modules._functions 里的；
        #     两者行为相同，节点名都是 "BackwardHookFunctionBackward"。
        # EN: Uses this library's BackwardHookFunction instead of the one in
        #     torch.nn.modules._functions; they behave alike and both nodes are named
        #     "BackwardHookFunctionBackward".
        new_tensors = BackwardHookFunction.apply(*tensors)
        # 中: 走到这里时至少有一个张量需要梯度，所以这个检查实际上不会触发；保留它和 torch 的
        # 中: 报错文字，作为防御。
        # EN: Reaching here means some tensor requires grad, so this check cannot actually fire;
        # EN: it is kept, with torch's error text, as a guard.
        if len(new_tensors) == 0:
            raise RuntimeError(
                "Cannot set Module backward hook for a Module with no input Tensors."
            )

        # 中: 所有需要梯度的新张量共享同一个节点，取第一个即可。
        # 中: 不需要梯度的张量被标为不可微，grad_fn 为 None，
        # 中: 所以被过滤掉；按名字再核对一次，确认是我们插入的节点。
        # EN: Every new tensor that requires grad shares the one node; the first will do. Tensors
        # EN: that do not require grad were marked non-differentiable and have no grad_fn, so they
        # EN: are filtered out; the name check confirms the node is the one just inserted.
        grad_fns = [
            t.grad_fn
            for t in new_tensors
            if t.grad_fn is not None and t.grad_fn.name() == "BackwardHookFunctionBackward"
        ]
        # 中: 梯度开启时，需要梯度的张量本应连到这个节点；找不到时 torch 把它当作自身的缺陷，
        # 中: 请用户报告问题，这里的文字与 torch 相同。
        # EN: Under grad mode a tensor requiring grad should get this node; torch treats finding
        # EN: none as its own bug and asks for an issue report, and the text here is torch's.
        if len(grad_fns) == 0:
            raise RuntimeError(
                "Error while setting up backward hooks. Please open "
                "an issue with a code sample to reproduce this."
            )

        # 中: 由调用方决定挂什么钩子：输入侧挂 `_set_user_hook`，
        # 中: 输出侧挂记录 grad_outputs 的钩子。
        # EN: The caller decides which hook goes on: `_set_user_hook` on the input side, the
        # EN: hook that stores grad_outputs on the output side.
        fn(grad_fns[0])

        # 中: 新张量（原张量的视图，共享存储）
        # 中: 放回各自原来的位置；调用方必须用返回的新参数，
        # 中: 否则计算不经过这个节点，钩子永远不会被调用。
        # EN: The new tensors (views of the originals, sharing storage) go back to their
        # EN: positions; the caller must use the returned args, or the computation bypasses the
        # EN: node and the hooks never run.
        arg_list = list(args)
        for idx, val in zip(tensors_idx, new_tensors, strict=True):
            arg_list[idx] = val

        if type(args) is tuple:
            out = tuple(arg_list)
        else:
            # 中: namedtuple 等按位置参数重建，保持用户看到的类型。
            # EN: A namedtuple and the like are rebuilt from positional arguments, keeping the type.
            out = type(args)(*arg_list)
        return out, tensors_idx

    def setup_input_hook(self, args):
        r"""Wrap the forward inputs; `grad_input` will be caught there. / 包装前向输入，在此接收 `grad_input`。

        === "中文"

            记录输入个数与张量位置，返回替换后的参数，`forward` 应使用它们。

        === "English"

            Records the number of inputs and the tensor positions and returns the replaced
            arguments, which `forward` should receive.

        Args:
            args: The positional inputs of `forward`, a tuple. / `forward` 的位置参数 tuple。

        Returns:
            The inputs, tensors replaced by hooked views. / 张量被替换为挂了钩子的视图的输入。
        """

        def fn(grad_fn) -> None:
            r"""Hook the input node. / 在输入节点上挂钩子。

            === "中文"

                交给 `_set_user_hook`，用户钩子将在这个节点上运行。

            === "English"

                Delegates to `_set_user_hook`; the user hooks will run at this node.

            Args:
                grad_fn: The input node. / 输入节点。
            """
            self._set_user_hook(grad_fn)

        # 中: 第 1 步：输入节点。`_call_impl` 只把位置参数 `args` 交到这里，
        # 中: kwargs 原样传给 `forward`，
        # 中: 所以关键字参数里的张量不经过节点：它们的梯度照常累积到 `.grad`，
        # 中: 但不出现在 grad_input 里，钩子也改不了它们。若只有关键字张量需要梯度，
        # 中: 就不建输入节点，用户钩子改在输出节点触发（带警告），
        # 中: grad_input 全为 None。torch.nn 的行为与此相同。
        # EN: Step 1: the input node. `_call_impl` hands only the positional `args` here and
        # EN: passes kwargs to `forward` untouched, so tensors given by keyword skip the node: their
        # EN: gradients still accumulate in `.grad`, but never appear in grad_input and a hook
        # EN: cannot change them. If only keyword tensors require grad, no input node is built and
        # EN: the user hooks fire at the output node instead (with a warning), grad_input all None.
        # EN: torch.nn behaves the same.
        res, input_idx = self._apply_on_tensors(fn, args)
        # 中: n_inputs 计入非张量位置，是 grad_input tuple 的长度；
        # 中: 索引为 None 表示没有输入节点。
        # EN: n_inputs counts non-tensor positions too and is the length of the grad_input tuple;
        # EN: None indices mean there is no input node.
        self.n_inputs = len(args)
        self.input_tensors_index = input_idx
        return res

    def setup_output_hook(self, args):
        r"""Wrap the forward outputs; `grad_output` will be caught there. / 包装前向输出，在此接收 `grad_output`。

        === "中文"

            单个张量的输出先装进长度为 1 的 tuple，处理后再取出，所以调用方拿回的类型不变。
            反向传播到达输出节点时：记下 `grad_outputs`，运行反向预钩子（返回值可替换它，
            长度必须一致）；若没有输入需要梯度，就在这里直接调用用户钩子（`grad_input` 全为
            `None`，钩子也只能返回 `None`），并发出警告。

        === "English"

            A single-tensor output is put into a 1-tuple and taken out again afterwards, so the
            caller gets the same type back. When the backward pass reaches the output node it
            stores `grad_outputs` and runs the backward pre-hooks (which may replace it, same
            length required); if no input requires grad it calls the user hooks right there
            (`grad_input` all `None`, and they may only return `None`) and warns.

        Args:
            args: The output of `forward`: a tensor or a tuple. / `forward` 的输出：张量或 tuple。

        Returns:
            The output, tensors replaced by hooked views. / 张量被替换为挂了钩子的视图的输出。
        """

        def fn(grad_fn) -> None:
            r"""Hook the output node. / 在输出节点上挂钩子。

            === "中文"

                注册下面的节点钩子 `hook`，它在反向传播到达模块输出时运行。

            === "English"

                Registers the node hook `hook` below, which runs when the backward pass reaches
                the module's outputs.

            Args:
                grad_fn: The output node. / 输出节点。
            """

            def hook(_, grad_output):
                r"""Node hook: store `grad_output`, run the pre-hooks. / 节点钩子：记下 `grad_output`，运行反向预钩子。

                === "中文"

                    返回的是（可能被预钩子替换的）张量梯度，继续向模块内部传播。

                === "English"

                    Returns the tensor gradients (possibly replaced by the pre-hooks), which
                    flow on into the module.

                Args:
                    _: Gradients for the node's inputs (unused). / 对节点输入的梯度（未使用）。
                    grad_output: Gradients for the module's tensor outputs. / 对模块张量输出的梯度。

                Returns:
                    Gradients to propagate, or `None`. / 要继续传播的梯度，或 `None`。

                Raises:
                    RuntimeError: A pre-hook returned the wrong number of gradients, or a hook
                        returned gradients where no input requires grad. / 预钩子返回的个数不对，
                        或在无输入需要梯度时钩子返回了梯度。
                """
                # 中: 第 3 步：反向传播到达输出节点。
                # 中: 节点输出的梯度就是损失对模块各输出的梯度，
                # 中: 按输出原来的位置展开成长度 n_outputs 的 tuple；
                # 中: 非张量输出、以及梯度没有流到的输出都是 None。存到 self 上，
                # 中: 等第 4 步在输入节点与 grad_input 配对。
                # EN: Step 3: the backward pass reaches the output node. The gradients of the node's
                # EN: outputs are those of the loss w.r.t. the module's outputs, spread over a tuple
                # EN: of length n_outputs; non-tensor outputs and outputs the gradient did not reach
                # EN: are None. Stored on self until step 4 pairs them with grad_input at the input
                # EN: node.
                self.grad_outputs = self._pack_with_none(
                    self.output_tensors_index, grad_output, self.n_outputs
                )

                # 中: 反向预钩子按注册顺序串联：返回 None 表示不改，
                # 中: 否则替换 grad_outputs。
                # 中: 替换后的值既是第 4 步用户钩子看到的 grad_output，
                # 中: 也是下面返回给 autograd、流进模块内部的梯度。
                # EN: The backward pre-hooks are chained in registration order: None means no
                # EN: change, anything else replaces grad_outputs. The replacement is both the
                # EN: grad_output the user hooks see in step 4 and the gradient returned to autograd
                # EN: below, which flows into the module.
                if self.user_pre_hooks:
                    expected_len = len(self.grad_outputs)
                    for user_pre_hook in self.user_pre_hooks:
                        hook_grad_outputs = user_pre_hook(self.module, self.grad_outputs)
                        if hook_grad_outputs is None:
                            continue

                        # 中: 替换值的长度必须等于输出个数，
                        # 中: 报错文字与 torch 相同。
                        # EN: A replacement must be as long as the outputs; the error text is
                        # EN: torch's.
                        actual_len = len(hook_grad_outputs)
                        if actual_len != expected_len:
                            raise RuntimeError(
                                "Backward pre hook returned an invalid number of grad_output, "
                                f"got {actual_len}, but expected {expected_len}"
                            )
                        self.grad_outputs = hook_grad_outputs

                # 中: 下面可能清空 self.grad_outputs，但仍要把它返回给 autograd，先留一份。
                # EN: self.grad_outputs may be cleared below but must still be returned to
                #     autograd: keep a local copy.
                local_grad_outputs = self.grad_outputs

                # 中: 没有输入需要梯度时不会有输入节点，
                # 中: 第 4 步只能在这里完成，并先发出与 torch 相同的警告
                # 中: （只有关键字参数需要梯度时也走这里）。
                # EN: With no input requiring grad there is no input node, so step 4 can only be
                # EN: done here, after the same warning as torch's (also the path when only
                # EN: keyword arguments require grad).
                if self.input_tensors_index is None:
                    warnings.warn(
                        "Full backward hook is firing when gradients are computed "
                        "with respect to module outputs since no inputs require gradients. See "
                        "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook "
                        "for more details.",
                        stacklevel=5,
                    )
                    # 中: grad_input 是长度 n_inputs 的全 None tuple，
                    # 中: 按注册顺序交给每个用户钩子。
                    # EN: grad_input is an all-None tuple of length n_inputs, given to each user
                    # EN: hook in registration order.
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        # 中: 没有输入梯度可替换，所以钩子只能返回 None 或全 None 的 tuple，
                        # 中: 否则报错（文字与 torch 相同）。
                        # EN: With no input gradient to replace, a hook may only return None or an
                        # EN: all-None tuple, else it is an error (torch's text).
                        if res is not None and not (
                            isinstance(res, tuple) and all(el is None for el in res)
                        ):
                            raise RuntimeError(
                                "Backward hook for Modules where no input requires "
                                "gradient should always return None or None for all gradients."
                            )
                    # 中: 与输入节点上的第 4 步一样，用过即清空。
                    # EN: Cleared after use, as step 4 at the input node does.
                    self.grad_outputs = None

                # 中: 后钩子的返回值替换节点输入的梯度：
                # 中: 只取张量位置，把（可能被预钩子替换的）梯度交回 autograd，
                # 中: 继续流进模块内部。
                # EN: A post-hook's return replaces the gradients of the node's inputs: the tensor
                # EN: positions of the (possibly pre-hook-replaced) gradients go back to autograd
                # EN: and flow on into the module.
                if local_grad_outputs is not None:
                    if self.output_tensors_index is None:
                        raise AssertionError(
                            "output_tensors_index should not be None when grad_outputs is not None"
                        )
                    return tuple(local_grad_outputs[i] for i in self.output_tensors_index)

            # 中: 这是第 2 步挂上的钩子：
            # 中: 反向传播经过输出节点时才会调用上面的 `hook`（第 3 步）。
            # EN: The hooking of step 2: the `hook` above runs only when the backward pass passes
            # EN: the output node (step 3).
            grad_fn.register_hook(hook)

        # 中: 单个张量先装进长度为 1 的 tuple，统一按序列处理；
        # 中: 其他非 tuple 输出（如 dict）也被当作一个元素，而它不是张量，于是没有输出节点，
        # 中: grad_outputs 永远不会被记下，
        # 中: 输入节点上的用户钩子也就一次都不会调用：`_call_impl` 为此先发出警告。
        # EN: A single tensor goes into a 1-tuple so everything is handled as a sequence; any
        # EN: other non-tuple output (a dict, say) also becomes one element, which is no tensor, so
        # EN: there is no output node, grad_outputs is never stored, and the user hooks at the
        # EN: input node never run at all: `_call_impl` warns about this beforehand.
        is_tuple = True
        if not isinstance(args, tuple):
            args = (args,)
            is_tuple = False

        # 中: 第 2 步：输出节点。`forward` 的输出穿过恒等节点，调用方拿到的是这些新张量，
        # 中: 所以后续计算的梯度一定先经过它。
        # EN: Step 2: the output node. The outputs of `forward` pass through the identity node and
        # EN: the caller receives the new tensors, so every later gradient passes this node first.
        res, output_idx = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = output_idx

        # 中: 拆回原来的形式：单个张量的输出仍以单个张量返回。
        # EN: Unwrap again: a single-tensor output is returned as a single tensor.
        if not is_tuple:
            res = res[0]
        return res
