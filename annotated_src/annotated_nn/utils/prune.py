r"""Pruning: zero out parts of a tensor through a mask; mirrors `torch.nn.utils.prune`. / 剪枝：用掩码把张量的一部分置零，对应 `torch.nn.utils.prune`。

=== "中文"

    剪枝（pruning）不删除任何张量元素，而是把它们乘以 0。对模块 `m` 的参数 `weight`
    剪枝之后，模块上有三样东西：

    - 参数 `weight_orig`：原来那个 `Parameter` 对象本身（不是拷贝），优化器继续训练它；
    - 缓冲区 `weight_mask`：与它形状相同的 0/1 掩码（mask），会写入状态字典（state_dict）；
    - 普通属性 `weight`：`weight_mask * weight_orig` 的结果，既不是参数也不是缓冲区。

    掩码由剪枝方法对象计算，这个对象随后被注册成模块的前向预钩子（forward pre-hook）：
    每次前向传播（forward pass）之前它重新计算 `weight`，所以对 `weight_orig` 的更新
    总是以剪过的形式进入计算，梯度也经由乘法只流到未被剪掉的元素上。
    对同一个张量再剪一次，旧钩子会被取下，新旧方法装进一个
    [`PruningContainer`][annotated_nn.utils.prune.PruningContainer]，新的方法只在尚未剪掉的部分上挑选。
    [`remove`][annotated_nn.utils.prune.remove] 把剪过的值写回 `weight_orig` 这个对象，
    再把它以 `weight` 的名字重新注册为参数：剪枝变成永久的，重参数化（reparametrization）消失。

    这个文件在 PyTorch 里只用到模块的几个方法和字典（`register_parameter`、`register_buffer`、
    `register_forward_pre_hook`、`named_modules`、`_parameters`、`_buffers`、`_forward_pre_hooks`），
    所以这里的重写只需对 annotated_nn 的模块做同样的调用，并逐步保持运算顺序：
    同一个随机种子得到逐位相同的掩码。

    1.5.1 → 2.13：新增 `importance_scores`（按另一组分数而不是参数本身挑选要剪的元素）；
    `remove` 改用 `setattr` 重新挂回参数；各处 `assert` 语句改成显式的 `raise AssertionError`
    （于是在 `python -O` 下也会检查）。

=== "English"

    Pruning deletes no tensor element; it multiplies them by 0. After pruning parameter
    `weight` of module `m`, the module holds three things:

    - parameter `weight_orig`: the original `Parameter` object itself (not a copy), which the
      optimizer keeps training;
    - buffer `weight_mask`: a 0/1 mask of the same shape, saved in the state_dict;
    - plain attribute `weight`: the product `weight_mask * weight_orig`, neither a parameter
      nor a buffer.

    A pruning method object computes the mask and is then registered as the module's forward
    pre-hook: before every forward pass it recomputes `weight`, so updates of `weight_orig`
    always enter the computation in pruned form, and through the product gradients reach only
    the elements left unpruned. Pruning the same tensor again takes the old hook off and puts
    old and new methods into a [`PruningContainer`][annotated_nn.utils.prune.PruningContainer];
    the new method only chooses among the parts not pruned yet.
    [`remove`][annotated_nn.utils.prune.remove] writes the pruned values back into the
    `weight_orig` object and registers it again as parameter `weight`: the pruning becomes
    permanent and the reparametrization is gone.

    In PyTorch this file uses only a few methods and dictionaries of the module
    (`register_parameter`, `register_buffer`, `register_forward_pre_hook`, `named_modules`,
    `_parameters`, `_buffers`, `_forward_pre_hooks`), so this rewrite makes the same calls on
    annotated_nn modules and keeps the order of operations step by step: the same random seed
    gives bit-identical masks.

    1.5.1 → 2.13: `importance_scores` was added (choose what to prune by other scores than the
    parameter itself); `remove` re-attaches the parameter with `setattr`; the `assert`
    statements became explicit `raise AssertionError` (so they also run under `python -O`).
"""

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable

import torch

# 中: 与 PyTorch 的 prune.py 一样不定义 `__all__`：`from ... import *` 导出所有不以下划线开头的名字，
# 中: 包括上面导入的 `numbers`、`ABC`、`abstractmethod`、`Iterable`、`torch`，两边的公开名字集合相同。
# EN: Like PyTorch's prune.py there is no `__all__`: `from ... import *` exports every name not
# EN: starting with an underscore, including the imported `numbers`, `ABC`, `abstractmethod`,
# EN: `Iterable` and `torch`, so both modules expose the same set of public names.


class BasePruningMethod(ABC):
    r"""Base class of pruning methods: the mask recipe plus the reparametrization. / 剪枝方法的基类：掩码规则加上重参数化。

    === "中文"

        子类只需实现 [`compute_mask`][annotated_nn.utils.prune.BasePruningMethod.compute_mask]
        （怎样挑出要剪的元素），通常再给 `apply` 一个明确的签名；把张量换成
        `name_orig` + `name_mask` + 普通属性 `name` 的工作全部由基类的
        [`apply`][annotated_nn.utils.prune.BasePruningMethod.apply] 完成。
        实例本身可调用，签名 `(module, inputs)` 正是前向预钩子的签名，于是实例直接注册为钩子。
        子类用类属性 `PRUNING_TYPE`（`"unstructured"`、`"structured"` 或 `"global"`）告诉
        [`PruningContainer`][annotated_nn.utils.prune.PruningContainer] 如何与以前的掩码组合。
        `_tensor_name` 只在类上声明类型、没有默认值，由 `apply` 赋值；没经过 `apply` 的实例
        调用 `apply_mask` 会得到 `AttributeError`。

    === "English"

        A subclass implements only
        [`compute_mask`][annotated_nn.utils.prune.BasePruningMethod.compute_mask] (how to choose
        the elements to prune), usually with an explicit signature for `apply`; replacing the
        tensor by `name_orig` + `name_mask` + a plain attribute `name` is all done by the base
        class's [`apply`][annotated_nn.utils.prune.BasePruningMethod.apply]. Instances are
        callable with `(module, inputs)`, exactly a forward pre-hook's signature, so an instance
        is registered as the hook directly. The class attribute `PRUNING_TYPE`
        (`"unstructured"`, `"structured"` or `"global"`) tells
        [`PruningContainer`][annotated_nn.utils.prune.PruningContainer] how to combine with
        earlier masks. `_tensor_name` is only declared on the class, with no default; `apply`
        sets it, and `apply_mask` on an instance that never went through `apply` raises
        `AttributeError`.

    Examples:
        >>> import torch, annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> class KeepPositive(prune.BasePruningMethod):
        ...     PRUNING_TYPE = "unstructured"
        ...     def compute_mask(self, t, default_mask):
        ...         return default_mask * (t > 0)
        >>> m = nn.Linear(2, 2)
        >>> with torch.no_grad():
        ...     _ = m.weight.copy_(torch.tensor([[1.0, -1.0], [-2.0, 2.0]]))
        ...     _ = KeepPositive.apply(m, "weight")
        >>> m.weight_mask
        tensor([[1., 0.],
                [0., 1.]])
    """

    _tensor_name: str

    def __call__(self, module, inputs):
        r"""Forward pre-hook: recompute the pruned tensor before `forward`. / 前向预钩子：在 `forward` 前重新计算剪过的张量。

        === "中文"

            把 `name_mask * name_orig` 的结果存成模块的普通属性 `name`。每次前向传播都重算，
            所以优化器对 `name_orig` 的更新会立即以剪过的形式生效。返回 `None`，输入不变。

        === "English"

            Stores `name_mask * name_orig` as the module's plain attribute `name`. It is
            recomputed on every forward pass, so the optimizer's updates of `name_orig` take
            effect at once, in pruned form. Returns `None`: the inputs are left unchanged.

        Args:
            module: The module being called. / 正在被调用的模块。
            inputs: Its positional inputs, unused. / 它的位置输入，不使用。
        """
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        r"""Return the new mask for `t`, on top of `default_mask`. / 在 `default_mask` 基础上返回 `t` 的新掩码。

        === "中文"

            子类必须实现。`t` 是用来排序的分数（通常就是参数本身，也可以是
            `importance_scores`），`default_mask` 是以前剪枝留下的掩码（没剪过时全为 1），
            返回与 `t` 形状相同的掩码；以前剪掉的位置必须仍为 0。

        === "English"

            Subclasses must implement it. `t` holds the scores to rank by (usually the
            parameter itself, or `importance_scores`), `default_mask` the mask left by earlier
            pruning (all ones if none), and the result is a mask of `t`'s shape in which
            previously pruned positions stay 0.

        Args:
            t: Scores of the tensor to prune. / 待剪张量的分数。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

        Returns:
            The mask, same shape as `t`. / 与 `t` 同形状的掩码。
        """

    def apply_mask(self, module):
        r"""Return `name_mask * name_orig` for this method's tensor. / 返回本方法所管张量的 `name_mask * name_orig`。

        === "中文"

            掩码先转换成 `name_orig` 的数据类型再相乘，结果是带自动求导（autograd）历史的
            普通张量（不是 `Parameter`），梯度经乘法流回 `name_orig`。

        === "English"

            The mask is cast to `name_orig`'s dtype before the product; the result is a plain
            tensor (not a `Parameter`) with autograd history, so gradients flow back to
            `name_orig` through the product.

        Args:
            module: Module holding `name_orig` and `name_mask`. / 持有 `name_orig` 与 `name_mask` 的模块。

        Returns:
            The pruned tensor. / 剪过的张量。

        Raises:
            AssertionError: `_tensor_name` was set to `None`. / `_tensor_name` 被设为 `None`。
        """
        # 中: 只有 `_tensor_name` 被显式设成 None 时才走到这条 AssertionError；从没赋值时
        # 中: 读取它本身就抛 AttributeError。文字与 PyTorch 相同。
        # EN: This AssertionError is reached only when `_tensor_name` was set to None
        # EN: explicitly; if it was never set, reading it raises AttributeError. The text is
        # EN: PyTorch's.
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        # 中: 乘法顺序（掩码在左）与 PyTorch 相同，结果逐位一致。
        # EN: The product's order (mask on the left) is PyTorch's, so results are bit-identical.
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        r"""Prune `module.<name>` with a new `cls(*args, **kwargs)` and set up the hook. / 用新的 `cls(*args, **kwargs)` 剪枝 `module.<name>`，并装上钩子。

        === "中文"

            步骤：

            1. 取下这个张量上已有的剪枝钩子；有的话把它与新方法合并进
               [`PruningContainer`][annotated_nn.utils.prune.PruningContainer]。
            2. 第一次剪枝时把参数改名：注册为 `name_orig`，并从 `_parameters` 删掉 `name`，
               起始掩码全为 1；再次剪枝时起始掩码是现有 `name_mask` 的拷贝。
            3. 计算掩码，注册缓冲区 `name_mask`，设置普通属性 `name`，把方法注册为前向预钩子。
               这一步出错时，第一次剪枝的改名会被撤销（参数以 `name` 重新注册，排到参数顺序的最后），
               然后重新抛出异常。

            注意：第 1 步取下的旧钩子在出错时不会放回去，PyTorch 也是如此。
            另外，第 3 步设置的普通属性 `name` 带着计算图（不是叶子张量），所以刚剪过的模块不能
            `copy.deepcopy`，要先在 `torch.no_grad()` 下前向传播一次；之后每次开着梯度的
            前向传播又会让它不能拷贝。

        === "English"

            Steps:

            1. Take off this tensor's existing pruning hook; if there is one, merge it with the
               new method into a [`PruningContainer`][annotated_nn.utils.prune.PruningContainer].
            2. On first pruning, rename the parameter: register it as `name_orig` and delete
               `name` from `_parameters`, starting from a mask of ones; on later pruning, start
               from a copy of the existing `name_mask`.
            3. Compute the mask, register buffer `name_mask`, set plain attribute `name`, and
               register the method as a forward pre-hook. If this step fails, a first pruning's
               renaming is undone (the parameter is registered again as `name`, last in the
               parameter order) and the exception is raised again.

            An old hook taken off in step 1 is not put back on failure, as in PyTorch.
            Also, the plain attribute `name` set in step 3 carries a graph (it is no leaf), so a
            freshly pruned module cannot be `copy.deepcopy`-ed until a forward pass under
            `torch.no_grad()`; every forward pass with gradients on makes it uncopyable again.

        Args:
            module: Module holding the tensor. / 持有该张量的模块。
            name: Name of the tensor to prune. / 待剪张量的名字。
            *args: Positional arguments of `cls`. / 传给 `cls` 的位置参数。
            importance_scores: Scores to rank by instead of the tensor. / 代替张量本身用于排序的分数。
            **kwargs: Keyword arguments of `cls`. / 传给 `cls` 的关键字参数。

        Returns:
            The hook now registered: the method or a container. / 现在注册着的钩子：方法本身或容器。

        Raises:
            AssertionError: Scores of another shape, or two hooks on one tensor. / 分数形状不同，或同一张量上有两个钩子。
            AttributeError: No tensor called `name`. / 没有名为 `name` 的张量。
        """

        def _get_composite_method(module, name, *args, **kwargs):
            r"""Build the new method, merged with any existing one for `name`. / 构造新方法，并与 `name` 上已有的方法合并。

            === "中文"

                新方法的类取自外层的 `cls`。在 `_forward_pre_hooks` 里找管着 `name` 的剪枝钩子
                并把它删掉；已有容器就把新方法追加进去，已有单个方法就新建容器装下新旧两个。

            === "English"

                The new method's class is the enclosing `cls`. Finds the pruning hook in
                `_forward_pre_hooks` that handles `name` and deletes it; an existing container
                gets the new method appended, an existing single method is put with the new one
                into a new container.

            Args:
                module: Module holding the tensor. / 持有该张量的模块。
                name: Name of the tensor to prune. / 待剪张量的名字。
                *args: Positional arguments of `cls`. / 传给 `cls` 的位置参数。
                **kwargs: Keyword arguments of `cls`. / 传给 `cls` 的关键字参数。

            Returns:
                The method or container to register. / 要注册的方法或容器。

            Raises:
                AssertionError: More than one hook prunes `name`. / 有不止一个钩子在剪 `name`。
            """
            # 中: 第 1 步：先收集再删除（遍历字典时不能删它）。正常情况下至多一个；
            # 中: 多于一个说明有人手工注册了钩子，报错而不去猜该合并哪个。
            # EN: Step 1: collect first, delete afterwards (a dict cannot shrink while iterated).
            # EN: Normally there is at most one; more means hooks were registered by hand, and
            # EN: it is an error rather than a guess at which one to merge.
            old_method = None
            hook_ids = []
            for hook_id, hook in module._forward_pre_hooks.items():
                if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                    old_method = hook
                    hook_ids.append(hook_id)
            if len(hook_ids) > 1:
                raise AssertionError(
                    f"Avoid adding multiple pruning hooks to the "
                    f"same tensor {name} of module {module}. Use a PruningContainer."
                )
            for hook_id in hook_ids:
                del module._forward_pre_hooks[hook_id]

            # 中: 新方法在这里构造，所以 `amount` 之类的参数错误在改动模块之前就抛出
            # 中: （但旧钩子此时已被删掉）。方法记住自己管哪个张量。
            # EN: The new method is built here, so argument errors such as a bad `amount` are
            # EN: raised before the module is touched (though the old hook is already gone).
            # EN: The method remembers which tensor it handles.
            method = cls(*args, **kwargs)
            method._tensor_name = name

            # 中: 已有容器：新方法追加到末尾，容器对象沿用；已有单个方法：新建容器装下新旧两个。
            # EN: An existing container gets the new method appended and is reused; an existing
            # EN: single method goes with the new one into a new container.
            if isinstance(old_method, PruningContainer):
                old_method.add_pruning_method(method)
                method = old_method
            elif isinstance(old_method, BasePruningMethod):
                container = PruningContainer(old_method)
                container.add_pruning_method(method)
                method = container
            return method

        method = _get_composite_method(module, name, *args, **kwargs)
        # 中: 此时这个张量上已没有剪枝钩子。不存在的名字在这里抛 AttributeError。
        # 中: 分数默认就是张量本身；给了分数就必须与张量同形状。
        # EN: By now the tensor has no pruning hook. A name that does not exist raises
        # EN: AttributeError here. Scores default to the tensor itself; given scores must have
        # EN: its shape.
        orig = getattr(module, name)
        if importance_scores is not None:
            if importance_scores.shape != orig.shape:
                raise AssertionError(
                    f"importance_scores should have the same shape as parameter "
                    f"{name} of {module}, got {importance_scores.shape} vs {orig.shape}"
                )
        else:
            importance_scores = orig

        # 中: 第 2 步。第一次剪枝（方法不是容器）：同一个 Parameter 对象改名为 `name_orig`
        # 中: （排到 `_parameters` 末尾），并删掉 `name`，让后面的 `setattr` 落到普通属性上。
        # 中: 再次剪枝时这些已经做过，起始掩码是现有掩码的连续（contiguous）拷贝，不连着计算图。
        # EN: Step 2. First pruning (method is no container): the same Parameter object is
        # EN: renamed `name_orig` (going last in `_parameters`) and `name` is deleted, so the
        # EN: `setattr` below lands on a plain attribute. On later pruning that is done already;
        # EN: the starting mask is a contiguous copy of the current one, cut from the graph.
        if not isinstance(method, PruningContainer):
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = torch.ones_like(orig)
        else:
            default_mask = (
                getattr(module, name + "_mask")
                .detach()
                .clone(memory_format=torch.contiguous_format)
            )

        # 中: 第 3 步。再次剪枝时 `register_buffer` 替换旧掩码，它在 `_buffers` 里的位置不变。
        # 中: 钩子注册在最后，所以它排在模块已有的其他前向预钩子之后。
        # EN: Step 3. On later pruning `register_buffer` replaces the old mask, which keeps its
        # EN: position in `_buffers`. The hook is registered last, so it comes after the
        # EN: module's other forward pre-hooks.
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        # 中: 出错时只撤销第一次剪枝的改名：参数重新以 `name` 注册（排到参数顺序末尾），
        # 中: `name_orig` 删掉。已注册的掩码和被删掉的旧钩子都不恢复，与 PyTorch 相同。
        # EN: On failure only a first pruning's renaming is undone: the parameter is registered
        # EN: as `name` again (last in the parameter order) and `name_orig` is deleted. A mask
        # EN: already registered and an old hook already deleted stay so, as in PyTorch.
        except Exception:
            if not isinstance(method, PruningContainer):
                orig = getattr(module, name + "_orig")
                module.register_parameter(name, orig)
                del module._parameters[name + "_orig"]
            raise

        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        r"""Return `t` times this method's mask, without touching any module. / 返回 `t` 乘以本方法的掩码，不涉及任何模块。

        === "中文"

            纯函数式的用法：不改名、不注册缓冲区、不装钩子。`default_mask` 默认全为 1，
            `importance_scores` 默认就是 `t`。

        === "English"

            The functional use: no renaming, no buffer, no hook. `default_mask` defaults to
            ones, `importance_scores` to `t` itself.

        Args:
            t: Tensor to prune. / 待剪的张量。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。
            importance_scores: Scores to rank by, shaped like `t`. / 用于排序的分数，与 `t` 同形状。

        Returns:
            The pruned tensor `t * mask`. / 剪过的张量 `t * mask`。

        Raises:
            AssertionError: Scores of another shape. / 分数的形状与 `t` 不同。

        Examples:
            >>> import torch
            >>> import annotated_nn.utils.prune as prune
            >>> prune.L1Unstructured(amount=2).prune(torch.tensor([3.0, -1.0, 0.5, 2.0]))
            tensor([3., -0., 0., 2.])
        """
        # 中: 先检查分数形状，再补默认值；乘法顺序（`t` 在左）与 PyTorch 相同。
        # EN: Scores are checked before defaults are filled in; the product's order (`t` on the
        # EN: left) is PyTorch's.
        if importance_scores is not None:
            if importance_scores.shape != t.shape:
                raise AssertionError(
                    f"importance_scores should have the same shape as tensor t, "
                    f"got {importance_scores.shape} vs {t.shape}"
                )
        else:
            importance_scores = t
        default_mask = default_mask if default_mask is not None else torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module) -> None:
        r"""Make the pruning permanent and undo the reparametrization. / 让剪枝成为永久的，并撤销重参数化。

        === "中文"

            把 `name_mask * name_orig` 的值写进 `name_orig` 这个 Parameter 对象（`.data`
            赋值，对象身份不变，优化器里的引用仍然有效），删掉 `name_orig` 与 `name_mask`，
            再用 `setattr` 把它以 `name` 注册回去；它排到参数顺序的末尾，所以 `Linear` 剪过
            `weight` 再移除后，参数顺序是 `bias`、`weight`。被剪掉的元素仍然是 0，不会恢复。
            本方法不会把自己从 `_forward_pre_hooks` 里取下，那是函数
            [`remove`][annotated_nn.utils.prune.remove] 的事。
            1.5.1 → 2.13：最后一步从 `register_parameter` 改成 `setattr`，
            删除普通属性之前也先检查它是否存在。

        === "English"

            Writes `name_mask * name_orig` into the `name_orig` Parameter object (assigning
            `.data`, so the object's identity, and an optimizer's reference to it, survive),
            deletes `name_orig` and `name_mask`, then registers it back as `name` with
            `setattr`; it goes last in the parameter order, so a `Linear` whose `weight` was
            pruned and removed lists `bias`, `weight`. Pruned elements stay 0: nothing is
            restored. This method does not take itself off `_forward_pre_hooks`; the function
            [`remove`][annotated_nn.utils.prune.remove] does.
            1.5.1 → 2.13: the last step changed from `register_parameter` to `setattr`, and
            the plain attribute is checked for existence before being deleted.

        Args:
            module: Module holding the pruned tensor. / 持有剪过张量的模块。

        Raises:
            AssertionError: `_tensor_name` was set to `None`. / `_tensor_name` 被设为 `None`。
        """
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be removed")

        # 中: 先按当前的 `name_orig`（可能已被训练过）算出剪过的值，再拆掉重参数化。
        # EN: Compute the pruned values from the current `name_orig` (maybe trained since) before
        # EN: dismantling the reparametrization.
        weight = self.apply_mask(module)

        # 中: 删掉普通属性 `name`，把剪过的值装进原来的 Parameter 对象，删除 `_orig` 与 `_mask`，
        # 中: 最后经 `setattr` 注册为参数（Module.__setattr__ 见到 Parameter 就调用
        # 中: `register_parameter`，排在 `_parameters` 末尾）。
        # EN: Delete plain attribute `name`, put the pruned values into the original Parameter
        # EN: object, delete `_orig` and `_mask`, and register it through `setattr`
        # EN: (Module.__setattr__ calls `register_parameter` on a Parameter, last in
        # EN: `_parameters`).
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


class PruningContainer(BasePruningMethod):
    r"""The hook of a tensor pruned more than once: its methods in order. / 被多次剪枝的张量的钩子：按顺序保存各次的方法。

    === "中文"

        对同一个张量第二次调用剪枝函数时，[`apply`][annotated_nn.utils.prune.BasePruningMethod.apply]
        会建一个容器替换原来的钩子；之后的每一次都追加到它末尾。容器的
        [`compute_mask`][annotated_nn.utils.prune.PruningContainer.compute_mask] 只运行最后加入的方法，
        并且只让它在以前没剪掉的部分上挑选；以前的方法不会重跑，它们的效果已经在 `name_mask` 里。
        容器可以取长度、迭代、下标访问。

    === "English"

        The second time a tensor is pruned,
        [`apply`][annotated_nn.utils.prune.BasePruningMethod.apply] builds a container to replace
        the old hook; every later pruning is appended to it. The container's
        [`compute_mask`][annotated_nn.utils.prune.PruningContainer.compute_mask] runs only the
        method added last, letting it choose only among what earlier pruning left; earlier
        methods are not run again, their effect is already in `name_mask`. A container
        supports `len`, iteration and indexing.

    Args:
        *args: One pruning method, or several. / 一个或多个剪枝方法。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> m = nn.Linear(4, 2)
        >>> _ = prune.l1_unstructured(m, "weight", amount=2)
        >>> _ = prune.l1_unstructured(m, "weight", amount=2)
        >>> hook = next(iter(m._forward_pre_hooks.values()))
        >>> type(hook).__name__, len(hook), int((m.weight_mask == 0).sum())
        ('PruningContainer', 2, 4)
    """

    def __init__(self, *args) -> None:
        r"""Hold the given methods; with exactly one, take its tensor name. / 保存给定的方法；恰好一个时沿用它的张量名。

        === "中文"

            恰好一个方法时（`apply` 就是这么用的），容器先沿用它的 `_tensor_name` 再把它加入。
            不给参数得到一个还没有 `_tensor_name` 的空容器（`global_unstructured` 随后手工设置）；
            给两个以上时，逐个加入会在读 `_tensor_name` 时抛 `AttributeError`，PyTorch 也是如此。

        === "English"

            With exactly one method (how `apply` uses it), the container takes its
            `_tensor_name` first and then adds it. No argument gives an empty container without
            a `_tensor_name` (`global_unstructured` sets it by hand afterwards); with two or
            more, adding them one by one raises `AttributeError` on reading `_tensor_name`, as in
            PyTorch.

        Args:
            *args: One pruning method, or several. / 一个或多个剪枝方法。
        """
        self._pruning_methods: tuple[BasePruningMethod, ...] = ()
        # 中: PyTorch 在这之前还有一个 `not isinstance(args, Iterable)` 分支，但 `*args` 总是 tuple，
        # 中: 那个分支永远不会执行，这里省略，行为不变。
        # EN: PyTorch has one more branch before this, `not isinstance(args, Iterable)`, but
        # EN: `*args` is always a tuple, so it can never run; it is left out with no change in
        # EN: behavior.
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method) -> None:
        r"""Append a method that prunes the same tensor. / 追加一个剪同一张量的方法。

        === "中文"

            方法必须是 [`BasePruningMethod`][annotated_nn.utils.prune.BasePruningMethod] 的实例且
            `_tensor_name` 相同。与 PyTorch 一样，`None` 两项检查都通过，会被原样追加。

        === "English"

            The method must be a
            [`BasePruningMethod`][annotated_nn.utils.prune.BasePruningMethod] with the same
            `_tensor_name`. As in PyTorch, `None` passes both checks and is appended as is.

        Args:
            method: The pruning method to add. / 要加入的剪枝方法。

        Raises:
            TypeError: Not a pruning method. / 不是剪枝方法。
            ValueError: It prunes another tensor. / 它剪的是另一个张量。
        """
        # 中: 两条报错文字与 PyTorch 相同；第二条里的 `{self}` 是容器对象的默认 repr。
        # EN: Both messages are PyTorch's; `{self}` in the second is the container's default repr.
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        elif method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(
                "Can only add pruning methods acting on "
                f"the parameter named '{self._tensor_name}' to PruningContainer {self}."
                + f" Found '{method._tensor_name}'"
            )
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        r"""Number of methods held. / 保存的方法个数。

        === "中文"

            即这个张量被剪过的次数。

        === "English"

            That is, how many times the tensor was pruned.

        Returns:
            The count. / 个数。
        """
        return len(self._pruning_methods)

    def __iter__(self):
        r"""Iterate over the methods, oldest first. / 按加入顺序迭代各方法，最早的在前。

        === "中文"

            遍历的是内部的 tuple，顺序就是剪枝的先后。

        === "English"

            Iterates over the internal tuple, in the order the pruning happened.

        Returns:
            An iterator over the methods. / 各方法的迭代器。
        """
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        r"""The method at `idx` (a slice gives a tuple). / 下标 `idx` 处的方法（切片得到 tuple）。

        === "中文"

            直接对内部 tuple 取下标，所以负数下标与切片都可用。

        === "English"

            Indexes the internal tuple, so negative indices and slices work.

        Args:
            idx: Index or slice. / 下标或切片。

        Returns:
            A method, or a tuple of them. / 一个方法，或方法组成的 tuple。
        """
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        r"""Run the newest method on what is left and merge into `default_mask`. / 让最新的方法只在剩余部分上计算，并合入 `default_mask`。

        === "中文"

            最新方法的 `PRUNING_TYPE` 决定它看到 `t` 的哪一部分：

            - `"unstructured"`：`default_mask` 为 1 的元素，展平成一维；
            - `"structured"`：沿 `dim` 还没被整体剪光的通道（channel）；
            - `"global"`：整个张量。

            新方法只在这部分上计算掩码，结果写回这部分的位置，其余位置保持 `default_mask` 的值。
            例如第二次 `amount=2` 的 L1 剪枝剪的是剩余元素中最小的 2 个，而不是全体中最小的 2 个
            （那两个可能已经剪掉了）。比例也按剩余部分计算：`amount=0.5` 剪两次，剪掉的是 75%，
            不是 50%；结构化剪枝的比例按尚未整体剪光的通道数计算。

        === "English"

            The newest method's `PRUNING_TYPE` decides which part of `t` it sees:

            - `"unstructured"`: the elements where `default_mask` is 1, flattened to 1-D;
            - `"structured"`: the channels along `dim` not entirely pruned yet;
            - `"global"`: the whole tensor.

            The new method computes a mask on that part only, the result is written back to
            those positions, and all other positions keep `default_mask`'s values. For example,
            a second L1 pruning with `amount=2` prunes the 2 smallest of the remaining elements,
            not the 2 smallest overall (those may be pruned already). A fraction is likewise
            taken of what remains: `amount=0.5` twice prunes 75%, not 50%; a structured fraction
            counts the channels not yet entirely pruned.

        Args:
            t: Scores of the tensor to prune. / 待剪张量的分数。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

        Returns:
            The combined mask. / 合并后的掩码。

        Raises:
            AttributeError: A structured method without `dim`. / 结构化方法没有 `dim` 属性。
            IndexError: `dim` below `-t.dim()`. / `dim` 小于 `-t.dim()`。
            ValueError: Unknown `PRUNING_TYPE`. / 未知的 `PRUNING_TYPE`。
        """

        def _combine_masks(method, t, mask):
            r"""Compute `method`'s mask on the unpruned part of `t` and merge it into `mask`. / 在 `t` 未被剪掉的部分上计算 `method` 的掩码，并合入 `mask`。

            === "中文"

                先求出一个下标 `slc` 选出 `method` 可以看到的部分，再把
                `method.compute_mask(t[slc], mask[slc])` 写回 `new_mask[slc]`。
                当 `mask` 的数据类型已经与 `t` 相同时，`.to` 不拷贝，写回的就是 `mask` 本身
                （`apply` 传进来的是一份拷贝，所以无碍）。

            === "English"

                First finds an index `slc` selecting the part `method` may see, then writes
                `method.compute_mask(t[slc], mask[slc])` back into `new_mask[slc]`. When `mask`
                already has `t`'s dtype, `.to` does not copy, so the write goes into `mask`
                itself (`apply` passes a copy, so no harm is done).

            Args:
                method: The method being applied. / 正在应用的方法。
                t: Scores of the tensor to prune. / 待剪张量的分数。
                mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

            Returns:
                The combined mask. / 合并后的掩码。

            Raises:
                AttributeError: A structured method without `dim`. / 结构化方法没有 `dim` 属性。
                IndexError: `dim` below `-t.dim()`. / `dim` 小于 `-t.dim()`。
                ValueError: Unknown `PRUNING_TYPE`. / 未知的 `PRUNING_TYPE`。
            """
            new_mask = mask.to(dtype=t.dtype)

            # 中: 非结构化：布尔下标选出掩码仍为 1 的元素，`t[slc]` 是它们的一维拷贝。
            # EN: Unstructured: a boolean index selects the elements whose mask is still 1;
            # EN: `t[slc]` is a 1-D copy of them.
            if method.PRUNING_TYPE == "unstructured":
                slc = mask == 1

            # 中: 结构化：先把负的 `dim` 换成正的，仍为负就报 IndexError；
            # 中: 沿其余各维求和为 0 的通道已被整体剪光，只保留其余通道。
            # EN: Structured: a negative `dim` is made positive first, and IndexError is raised
            # EN: if it stays negative; channels whose sum over the other dims is 0 are pruned
            # EN: entirely, so only the others are kept.
            elif method.PRUNING_TYPE == "structured":
                if not hasattr(method, "dim"):
                    raise AttributeError(
                        "Pruning methods of PRUNING_TYPE "
                        '"structured" need to have the attribute `dim` defined.'
                    )
                n_dims = t.dim()
                dim = method.dim
                if dim < 0:
                    dim = n_dims + dim
                if dim < 0:
                    raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
                # 中: 通道仍有非零掩码就保留；下标在 `dim` 处放布尔向量，其余维全取。
                # EN: A channel with any nonzero mask entry is kept; the index holds the boolean
                # EN: vector at `dim` and takes every position of the other dims.
                keep_channel = mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
                slc = [slice(None)] * n_dims
                slc[dim] = keep_channel

            # 中: 全局：整个张量都参与。
            # EN: Global: the whole tensor takes part.
            elif method.PRUNING_TYPE == "global":
                n_dims = len(t.shape)
                slc = [slice(None)] * n_dims

            else:
                raise ValueError(f"Unrecognized PRUNING_TYPE {method.PRUNING_TYPE}")

            # 中: 列表形式的下标要转成 tuple 才表示"逐维下标"；新掩码只写回被选中的部分。
            # EN: A list index must become a tuple to mean "one index per dim"; the new mask is
            # EN: written back into the selected part only.
            if isinstance(slc, list):
                slc = tuple(slc)
            partial_mask = method.compute_mask(t[slc], default_mask=mask[slc])
            new_mask[slc] = partial_mask.to(dtype=new_mask.dtype)

            return new_mask

        # 中: 只运行最后加入的方法；更早的方法的效果已经体现在 `default_mask` 里。
        # EN: Only the method added last runs; earlier methods are already in `default_mask`.
        method = self._pruning_methods[-1]
        return _combine_masks(method, t, default_mask)


class Identity(BasePruningMethod):
    r"""Set up the reparametrization without pruning anything. / 只建立重参数化，不剪任何元素。

    === "中文"

        掩码就是 `default_mask`（第一次剪枝时全为 1）。用来先把张量变成
        `name_orig` + `name_mask` 的形式，之后再手工改掩码或接着剪。

    === "English"

        The mask is `default_mask` (all ones on first pruning). Useful to put a tensor into
        the `name_orig` + `name_mask` form first, to edit the mask by hand or prune later.
    """

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        r"""Return `default_mask` unchanged. / 原样返回 `default_mask`。

        === "中文"

            不拷贝，返回的就是传入的对象。

        === "English"

            No copy: the very object passed in is returned.

        Args:
            t: Scores of the tensor, unused. / 张量的分数，不使用。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

        Returns:
            `default_mask`. / `default_mask`。
        """
        return default_mask

    @classmethod
    def apply(cls, module, name):
        r"""Reparametrize `module.<name>` with a mask of ones. / 用全 1 掩码重参数化 `module.<name>`。

        === "中文"

            不带任何额外参数，转交给
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply]。

        === "English"

            Delegates to
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply] with no
            further argument.

        Args:
            module: Module holding the tensor. / 持有该张量的模块。
            name: Name of the tensor. / 张量的名字。

        Returns:
            The hook now registered. / 现在注册着的钩子。
        """
        return super().apply(module, name)


class RandomUnstructured(BasePruningMethod):
    r"""Prune `amount` of the unpruned elements, chosen at random. / 随机剪掉未剪元素中的 `amount` 个。

    === "中文"

        `amount` 为整数时是个数，为浮点数时是比例（乘以元素数后用 Python 的 `round`
        取整，即"四舍六入五成双"：`0.5 * 5` 得 2）。

    === "English"

        An integer `amount` is a count, a float a fraction (times the number of elements,
        rounded with Python's `round`, which rounds halves to even: `0.5 * 5` gives 2).

    Args:
        amount: Count (int) or fraction (float) to prune. / 要剪的个数（int）或比例（float）。
    """

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount) -> None:
        r"""Check and store `amount`. / 检查并保存 `amount`。

        === "中文"

            此时还不知道张量大小，只检查类型与范围。

        === "English"

            The tensor's size is not known yet; only type and range are checked.

        Args:
            amount: Count (int) or fraction (float) to prune. / 要剪的个数（int）或比例（float）。
        """
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        r"""Zero the `k` elements that draw the largest random numbers. / 把抽到最大随机数的 `k` 个元素置零。

        === "中文"

            给 `t` 的每个元素抽一个 `rand_like(t)` 随机数，取最大的 `k` 个（`topk`）剪掉；
            这一次随机抽取消耗默认生成器，所以同一种子下两边的掩码逐位相同。`k` 为 0 时不抽随机数。

        === "English"

            Draws one `rand_like(t)` number per element of `t` and prunes the `k` largest
            (`topk`); this single draw uses the default generator, so with the same seed both
            libraries produce the same mask. With `k` equal to 0 no random number is drawn.

        Args:
            t: Scores of the tensor to prune. / 待剪张量的分数。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

        Returns:
            The new mask. / 新掩码。

        Raises:
            ValueError: An integer `amount` above the element count. / 整数 `amount` 超过元素个数。
        """
        # 中: 把 `amount` 换成个数并对照张量大小检查；掩码从 `default_mask` 的连续拷贝开始。
        # EN: Turn `amount` into a count and check it against the tensor's size; the mask
        # EN: starts as a contiguous copy of `default_mask`.
        tensor_size = t.nelement()
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_pruning_amount(nparams_toprune, tensor_size)
        mask = default_mask.clone(memory_format=torch.contiguous_format)

        # 中: `k=0` 时跳过：既省一次抽取，也不改变随机数生成器的状态。
        # EN: Skipped for `k=0`: this saves a draw and leaves the random generator's state alone.
        if nparams_toprune != 0:
            prob = torch.rand_like(t)
            topk = torch.topk(prob.view(-1), k=nparams_toprune)
            mask.view(-1)[topk.indices] = 0

        return mask

    @classmethod
    def apply(cls, module, name, amount):
        r"""Prune `module.<name>` at random. / 随机剪枝 `module.<name>`。

        === "中文"

            以关键字参数 `amount=amount` 转交给
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply]。

        === "English"

            Delegates to
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply] with
            the keyword argument `amount=amount`.

        Args:
            module: Module holding the tensor. / 持有该张量的模块。
            name: Name of the tensor. / 张量的名字。
            amount: Count (int) or fraction (float) to prune. / 要剪的个数（int）或比例（float）。

        Returns:
            The hook now registered. / 现在注册着的钩子。
        """
        return super().apply(module, name, amount=amount)


class L1Unstructured(BasePruningMethod):
    r"""Prune `amount` of the unpruned elements with the smallest absolute value. / 剪掉未剪元素中绝对值最小的 `amount` 个。

    === "中文"

        `amount` 的含义同 [`RandomUnstructured`][annotated_nn.utils.prune.RandomUnstructured]。
        绝对值相等时选哪一个由 `torch.topk` 决定；两边调用同一个内核，所以结果相同。

    === "English"

        `amount` means what it does in
        [`RandomUnstructured`][annotated_nn.utils.prune.RandomUnstructured]. Among equal
        absolute values `torch.topk` decides; both libraries call the same kernel, so the
        results agree.

    Args:
        amount: Count (int) or fraction (float) to prune. / 要剪的个数（int）或比例（float）。
    """

    PRUNING_TYPE = "unstructured"

    def __init__(self, amount) -> None:
        r"""Check and store `amount`. / 检查并保存 `amount`。

        === "中文"

            此时还不知道张量大小，只检查类型与范围。

        === "English"

            The tensor's size is not known yet; only type and range are checked.

        Args:
            amount: Count (int) or fraction (float) to prune. / 要剪的个数（int）或比例（float）。
        """
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        r"""Zero the `k` elements of smallest `abs(t)`. / 把 `abs(t)` 最小的 `k` 个元素置零。

        === "中文"

            用 `torch.topk(..., largest=False)` 在展平的 `abs(t)` 上取最小的 `k` 个。

        === "English"

            Takes the `k` smallest of the flattened `abs(t)` with
            `torch.topk(..., largest=False)`.

        Args:
            t: Scores of the tensor to prune. / 待剪张量的分数。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

        Returns:
            The new mask. / 新掩码。

        Raises:
            ValueError: An integer `amount` above the element count. / 整数 `amount` 超过元素个数。
        """
        # 中: 同 RandomUnstructured：先换算并检查个数，掩码从 `default_mask` 的连续拷贝开始。
        # EN: As in RandomUnstructured: convert and check the count first; the mask starts as a
        # EN: contiguous copy of `default_mask`.
        tensor_size = t.nelement()
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_pruning_amount(nparams_toprune, tensor_size)
        mask = default_mask.clone(memory_format=torch.contiguous_format)

        # 中: `k=0` 时跳过；否则把绝对值最小的 `k` 个位置置零。
        # EN: Skipped for `k=0`; otherwise the `k` positions of smallest magnitude become 0.
        if nparams_toprune != 0:
            topk = torch.topk(torch.abs(t).view(-1), k=nparams_toprune, largest=False)
            mask.view(-1)[topk.indices] = 0

        return mask

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        r"""Prune `module.<name>` by magnitude. / 按绝对值大小剪枝 `module.<name>`。

        === "中文"

            以关键字参数转交给
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply]。
            给出 `importance_scores` 时按它的绝对值排序。

        === "English"

            Delegates to
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply] with
            keyword arguments. With `importance_scores`, their magnitudes are ranked instead.

        Args:
            module: Module holding the tensor. / 持有该张量的模块。
            name: Name of the tensor. / 张量的名字。
            amount: Count (int) or fraction (float) to prune. / 要剪的个数（int）或比例（float）。
            importance_scores: Scores to rank by instead of the tensor. / 代替张量本身用于排序的分数。

        Returns:
            The hook now registered. / 现在注册着的钩子。
        """
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    r"""Prune `amount` whole channels along `dim`, chosen at random. / 沿 `dim` 随机剪掉 `amount` 个完整通道。

    === "中文"

        通道（channel）指沿 `dim` 的一个切片，例如 `Conv2d` 权重在 `dim=0` 上的一个输出通道。
        `amount` 按 `dim` 方向的通道数计算。

    === "English"

        A channel is one slice along `dim`, e.g. one output channel of a `Conv2d` weight at
        `dim=0`. `amount` counts channels along `dim`.

    Args:
        amount: Count (int) or fraction (float) of channels. / 要剪的通道个数（int）或比例（float）。
        dim: Dimension that defines the channels. / 定义通道的维度。
    """

    PRUNING_TYPE = "structured"

    def __init__(self, amount, dim=-1) -> None:
        r"""Check `amount`; store it and `dim`. / 检查 `amount`，保存它与 `dim`。

        === "中文"

            `dim` 此时不检查，要到 `compute_mask` 看见张量时才检查。

        === "English"

            `dim` is not checked here; `compute_mask` checks it once it sees the tensor.

        Args:
            amount: Count (int) or fraction (float) of channels. / 要剪的通道个数（int）或比例（float）。
            dim: Dimension that defines the channels. / 定义通道的维度。
        """
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        r"""Zero the `k` channels that draw the smallest random numbers. / 把抽到最小随机数的 `k` 个通道置零。

        === "中文"

            每个通道抽一个 `torch.rand(nchannels)` 随机数；以第 `k` 小的值为阈值，
            大于阈值的通道保留。新掩码再乘以 `default_mask`，以前剪掉的位置仍为 0。
            `k` 为 0 时直接返回 `default_mask` 本身，不抽随机数。

        === "English"

            Draws one `torch.rand(nchannels)` number per channel; with the `k`-th smallest as
            threshold, channels above it are kept. The new mask is then multiplied by
            `default_mask`, so earlier pruned positions stay 0. With `k` equal to 0 it returns
            `default_mask` itself and draws nothing.

        Args:
            t: Scores of the tensor to prune. / 待剪张量的分数。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

        Returns:
            The new mask. / 新掩码。

        Raises:
            ValueError: `t` has fewer than 2 dims, or `amount` is too large. / `t` 少于 2 维，或 `amount` 过大。
            IndexError: `dim >= t.dim()` (the check), or `dim < -t.dim()` (indexing `t.shape`). / `dim >= t.dim()`（检查报错），或 `dim < -t.dim()`（索引 `t.shape` 时报错）。
        """
        # 中: 检查顺序与 PyTorch 相同：维数、`dim`、个数；因此同一个错误输入两边抛出同一个异常。
        # EN: Checks run in PyTorch's order: number of dims, `dim`, count; so a bad input raises
        # EN: the same exception in both libraries.
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        tensor_size = t.shape[self.dim]
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_pruning_amount(nparams_toprune, tensor_size)

        def make_mask(t, dim, nchannels, nchannels_toprune):
            r"""Build a 0/1 mask keeping the channels above a random threshold. / 构造 0/1 掩码，保留随机数高于阈值的通道。

            === "中文"

                `kthvalue` 取第 `k` 小的随机数作阈值；严格大于它的通道置 1，其余为 0。

            === "English"

                `kthvalue` gives the `k`-th smallest random number as threshold; channels
                strictly above it get 1, the rest 0.

            Args:
                t: Tensor whose shape the mask takes. / 掩码沿用其形状的张量。
                dim: Dimension of the channels. / 通道所在的维度。
                nchannels: Number of channels. / 通道个数。
                nchannels_toprune: Number of channels to prune. / 要剪的通道个数。

            Returns:
                The mask. / 掩码。
            """
            # 中: 随机数用 `torch.rand`（默认数据类型、CPU、默认生成器），与 PyTorch 相同。
            # EN: The numbers come from `torch.rand` (default dtype, CPU, default generator), as
            # EN: in PyTorch.
            prob = torch.rand(nchannels)
            threshold = torch.kthvalue(prob, k=nchannels_toprune).values
            channel_mask = prob > threshold

            # 中: 在 `dim` 处用布尔向量、其余维全取，把保留的通道整体写成 1。
            # EN: A boolean vector at `dim`, every position elsewhere: kept channels become 1.
            mask = torch.zeros_like(t)
            slc = [slice(None)] * len(t.shape)
            slc[dim] = channel_mask
            mask[tuple(slc)] = 1
            return mask

        # 中: `kthvalue` 不接受 `k=0`，所以不剪时直接沿用 `default_mask`；否则新掩码就地乘上旧掩码。
        # EN: `kthvalue` rejects `k=0`, so pruning nothing reuses `default_mask`; otherwise the
        # EN: new mask is multiplied in place by the old one.
        if nparams_toprune == 0:
            mask = default_mask
        else:
            mask = make_mask(t, self.dim, tensor_size, nparams_toprune)
            mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        r"""Prune random channels of `module.<name>`. / 随机剪掉 `module.<name>` 的通道。

        === "中文"

            以关键字参数转交给
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply]。

        === "English"

            Delegates to
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply] with
            keyword arguments.

        Args:
            module: Module holding the tensor. / 持有该张量的模块。
            name: Name of the tensor. / 张量的名字。
            amount: Count (int) or fraction (float) of channels. / 要剪的通道个数（int）或比例（float）。
            dim: Dimension that defines the channels. / 定义通道的维度。

        Returns:
            The hook now registered. / 现在注册着的钩子。
        """
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    r"""Prune `amount` whole channels along `dim` with the smallest L`n` norm. / 沿 `dim` 剪掉 L`n` 范数最小的 `amount` 个完整通道。

    === "中文"

        每个通道的范数由 `torch.norm(t, p=n, dim=<其余各维>)` 计算，`n` 可取 `torch.norm`
        的 `p` 所接受的值，例如 1、2、`float("inf")`、`float("-inf")`。`"fro"` 与 `"nuc"` 是矩阵
        范数，受“其余各维”的个数限制：`"fro"` 最多 2 个（`Conv2d` 权重剩 3 个，报 `RuntimeError`），
        `"nuc"` 恰好 2 个（只有 3 维权重，如 `Conv1d`）。保留范数最大的 `通道数 - k` 个通道。

    === "English"

        Each channel's norm is `torch.norm(t, p=n, dim=<all other dims>)`; `n` takes what
        `torch.norm`'s `p` accepts, e.g. 1, 2, `float("inf")`, `float("-inf")`. `"fro"` and
        `"nuc"` are matrix norms, limited by the number of other dims: `"fro"` allows at most 2
        (a `Conv2d` weight leaves 3 and raises `RuntimeError`), `"nuc"` exactly 2 (only 3-dim
        weights such as `Conv1d`'s). The `channels - k` channels of largest norm are kept.

    Args:
        amount: Count (int) or fraction (float) of channels. / 要剪的通道个数（int）或比例（float）。
        n: Order of the norm. / 范数的阶。
        dim: Dimension that defines the channels. / 定义通道的维度。
    """

    PRUNING_TYPE = "structured"

    def __init__(self, amount, n, dim=-1) -> None:
        r"""Check `amount`; store it, `n` and `dim`. / 检查 `amount`，保存它、`n` 与 `dim`。

        === "中文"

            `n` 与 `dim` 此时不检查，要到计算掩码时才由 `torch.norm` 与维度检查把关。

        === "English"

            `n` and `dim` are not checked here; `torch.norm` and the dim check do it when the
            mask is computed.

        Args:
            amount: Count (int) or fraction (float) of channels. / 要剪的通道个数（int）或比例（float）。
            n: Order of the norm. / 范数的阶。
            dim: Dimension that defines the channels. / 定义通道的维度。
        """
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        r"""Keep the channels of largest norm, zero the `k` others. / 保留范数最大的通道，其余 `k` 个置零。

        === "中文"

            用 `torch.topk(norm, k=通道数 - k, largest=True)` 选出要保留的通道，在这些通道上写 1，
            再乘以 `default_mask`。`k` 为 0 时直接返回 `default_mask` 本身。

        === "English"

            Picks the channels to keep with `torch.topk(norm, k=channels - k, largest=True)`,
            writes 1 on them, then multiplies by `default_mask`. With `k` equal to 0 it returns
            `default_mask` itself.

        Args:
            t: Scores of the tensor to prune. / 待剪张量的分数。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

        Returns:
            The new mask. / 新掩码。

        Raises:
            ValueError: `t` has fewer than 2 dims, or `amount` is too large. / `t` 少于 2 维，或 `amount` 过大。
            IndexError: `dim >= t.dim()` (the check), or `dim < -t.dim()` (indexing `t.shape`). / `dim >= t.dim()`（检查报错），或 `dim < -t.dim()`（索引 `t.shape` 时报错）。
        """
        # 中: 检查顺序与 RandomStructured 相同；要保留的通道数在检查个数之前就算好（此时可能为负，
        # 中: 但紧接着的检查会先报错）。
        # EN: Same order of checks as RandomStructured; the number of channels to keep is
        # EN: computed before the count is checked (it may be negative then, but the check
        # EN: right after raises first).
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        tensor_size = t.shape[self.dim]
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        nparams_tokeep = tensor_size - nparams_toprune
        _validate_pruning_amount(nparams_toprune, tensor_size)

        # 中: 每个通道一个范数，保留最大的 `nparams_tokeep` 个。即使最后不剪（k 为 0），
        # 中: 范数与 topk 也照样计算，与 PyTorch 相同。
        # EN: One norm per channel; the `nparams_tokeep` largest are kept. Even when nothing is
        # EN: pruned (k equal to 0), the norm and topk are still computed, as in PyTorch.
        norm = _compute_norm(t, self.n, self.dim)
        topk = torch.topk(norm, k=nparams_tokeep, largest=True)

        def make_mask(t, dim, indices):
            r"""Build a 0/1 mask with 1 on the channels at `indices`. / 构造 0/1 掩码，`indices` 处的通道为 1。

            === "中文"

                在 `dim` 处用整数下标、其余维全取，把这些通道整体写成 1。

            === "English"

                With the integer indices at `dim` and every position elsewhere, those
                channels are set to 1.

            Args:
                t: Tensor whose shape the mask takes. / 掩码沿用其形状的张量。
                dim: Dimension of the channels. / 通道所在的维度。
                indices: Channels to keep. / 要保留的通道。

            Returns:
                The mask. / 掩码。
            """
            mask = torch.zeros_like(t)
            slc = [slice(None)] * len(t.shape)
            slc[dim] = indices
            mask[tuple(slc)] = 1
            return mask

        # 中: 不剪时沿用 `default_mask` 本身；否则新掩码就地乘上旧掩码。
        # EN: Pruning nothing reuses `default_mask` itself; otherwise the new mask is multiplied
        # EN: in place by the old one.
        if nparams_toprune == 0:
            mask = default_mask
        else:
            mask = make_mask(t, self.dim, topk.indices)
            mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        r"""Prune the channels of `module.<name>` with the smallest norm. / 剪掉 `module.<name>` 中范数最小的通道。

        === "中文"

            以关键字参数转交给
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply]。
            注意这里 `dim` 没有默认值（构造函数里有）。

        === "English"

            Delegates to
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply] with
            keyword arguments. Note that `dim` has no default here (the constructor has one).

        Args:
            module: Module holding the tensor. / 持有该张量的模块。
            name: Name of the tensor. / 张量的名字。
            amount: Count (int) or fraction (float) of channels. / 要剪的通道个数（int）或比例（float）。
            n: Order of the norm. / 范数的阶。
            dim: Dimension that defines the channels. / 定义通道的维度。
            importance_scores: Scores to rank by instead of the tensor. / 代替张量本身用于排序的分数。

        Returns:
            The hook now registered. / 现在注册着的钩子。
        """
        return super().apply(
            module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores
        )


class CustomFromMask(BasePruningMethod):
    r"""Prune with a mask given by the user. / 用用户给定的掩码剪枝。

    === "中文"

        `PRUNING_TYPE` 是 `"global"`：在容器里它看到整个张量，新掩码是
        `default_mask * mask`。[`global_unstructured`][annotated_nn.utils.prune.global_unstructured]
        算好全局掩码后，就是通过它把每一段装到各自的模块上。

    === "English"

        Its `PRUNING_TYPE` is `"global"`: inside a container it sees the whole tensor, and the
        new mask is `default_mask * mask`.
        [`global_unstructured`][annotated_nn.utils.prune.global_unstructured] uses it to put
        each slice of its global mask on the right module.

    Args:
        mask: The mask, shaped like the tensor. / 掩码，与张量同形状。
    """

    PRUNING_TYPE = "global"

    def __init__(self, mask) -> None:
        r"""Store `mask`. / 保存 `mask`。

        === "中文"

            只保存引用，不拷贝也不检查形状。

        === "English"

            Only the reference is kept; no copy, no shape check.

        Args:
            mask: The mask, shaped like the tensor. / 掩码，与张量同形状。
        """
        self.mask = mask

    def compute_mask(self, t, default_mask):
        r"""Return `default_mask * mask`. / 返回 `default_mask * mask`。

        === "中文"

            给定的掩码先转换成 `default_mask` 的数据类型，所以整数或布尔掩码也可以用。

        === "English"

            The given mask is cast to `default_mask`'s dtype first, so integer or boolean
            masks work too.

        Args:
            t: Scores of the tensor, unused. / 张量的分数，不使用。
            default_mask: Mask from earlier pruning. / 以前剪枝留下的掩码。

        Returns:
            The new mask. / 新掩码。

        Raises:
            AssertionError: The shapes differ. / 形状不同。
        """
        if default_mask.shape != self.mask.shape:
            raise AssertionError(
                f"default_mask shape {default_mask.shape} must match "
                f"self.mask shape {self.mask.shape}"
            )
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        r"""Prune `module.<name>` with `mask`. / 用 `mask` 剪枝 `module.<name>`。

        === "中文"

            以关键字参数 `mask=mask` 转交给
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply]。

        === "English"

            Delegates to
            [`BasePruningMethod.apply`][annotated_nn.utils.prune.BasePruningMethod.apply] with
            the keyword argument `mask=mask`.

        Args:
            module: Module holding the tensor. / 持有该张量的模块。
            name: Name of the tensor. / 张量的名字。
            mask: The mask, shaped like the tensor. / 掩码，与张量同形状。

        Returns:
            The hook now registered. / 现在注册着的钩子。
        """
        return super().apply(module, name, mask=mask)


def identity(module, name):
    r"""Reparametrize `module.<name>` without pruning; return `module`. / 不剪枝，只重参数化 `module.<name>`；返回 `module`。

    === "中文"

        之后模块上有 `name_orig`、全 1 的 `name_mask` 和由钩子计算的 `name`。

    === "English"

        Afterwards the module holds `name_orig`, an all-ones `name_mask`, and `name` computed
        by the hook.

    Args:
        module: Module holding the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量的名字。

    Returns:
        `module`, modified in place. / 就地修改后的 `module`。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> prune.identity(nn.Linear(2, 3), "bias").bias_mask
        tensor([1., 1., 1.])
    """
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    r"""Prune `amount` random unpruned elements of `module.<name>`; return `module`. / 随机剪掉 `module.<name>` 中 `amount` 个未剪元素；返回 `module`。

    === "中文"

        随机选取，同一种子下与 PyTorch 逐位相同。
        见 [`RandomUnstructured`][annotated_nn.utils.prune.RandomUnstructured]。

    === "English"

        The choice is random; with the same seed it is bit-identical to PyTorch's.
        See [`RandomUnstructured`][annotated_nn.utils.prune.RandomUnstructured].

    Args:
        module: Module holding the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量的名字。
        amount: Count (int) or fraction (float) to prune. / 要剪的个数（int）或比例（float）。

    Returns:
        `module`, modified in place. / 就地修改后的 `module`。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> m = prune.random_unstructured(nn.Linear(2, 3), "weight", amount=1)
        >>> int((m.weight_mask == 0).sum())
        1
    """
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    r"""Prune the `amount` smallest-magnitude elements of `module.<name>`; return `module`. / 剪掉 `module.<name>` 中绝对值最小的 `amount` 个元素；返回 `module`。

    === "中文"

        见 [`L1Unstructured`][annotated_nn.utils.prune.L1Unstructured]。注意状态字典里的键：
        参数 `weight` 变成了 `weight_orig` 与 `weight_mask`。

    === "English"

        See [`L1Unstructured`][annotated_nn.utils.prune.L1Unstructured]. Note the state_dict
        keys: parameter `weight` has become `weight_orig` and `weight_mask`.

    Args:
        module: Module holding the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量的名字。
        amount: Count (int) or fraction (float) to prune. / 要剪的个数（int）或比例（float）。
        importance_scores: Scores to rank by instead of the tensor. / 代替张量本身用于排序的分数。

    Returns:
        `module`, modified in place. / 就地修改后的 `module`。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> m = prune.l1_unstructured(nn.Linear(2, 3), "weight", amount=0.2)
        >>> list(m.state_dict())
        ['bias', 'weight_orig', 'weight_mask']
    """
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    r"""Prune `amount` random channels of `module.<name>` along `dim`; return `module`. / 沿 `dim` 随机剪掉 `module.<name>` 的 `amount` 个通道；返回 `module`。

    === "中文"

        整条通道一起剪掉，同一种子下与 PyTorch 逐位相同。
        见 [`RandomStructured`][annotated_nn.utils.prune.RandomStructured]。

    === "English"

        Whole channels go at once; with the same seed the result is bit-identical to
        PyTorch's. See [`RandomStructured`][annotated_nn.utils.prune.RandomStructured].

    Args:
        module: Module holding the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量的名字。
        amount: Count (int) or fraction (float) of channels. / 要剪的通道个数（int）或比例（float）。
        dim: Dimension that defines the channels. / 定义通道的维度。

    Returns:
        `module`, modified in place. / 就地修改后的 `module`。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> m = prune.random_structured(nn.Linear(5, 3), "weight", amount=3, dim=1)
        >>> int((m.weight.sum(dim=0) == 0).sum())
        3
    """
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    r"""Prune the `amount` channels of `module.<name>` with the smallest L`n` norm; return `module`. / 剪掉 `module.<name>` 中 L`n` 范数最小的 `amount` 个通道；返回 `module`。

    === "中文"

        整条通道一起剪掉，按范数从小到大挑选。
        见 [`LnStructured`][annotated_nn.utils.prune.LnStructured]。

    === "English"

        Whole channels go at once, the ones of smallest norm first.
        See [`LnStructured`][annotated_nn.utils.prune.LnStructured].

    Args:
        module: Module holding the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量的名字。
        amount: Count (int) or fraction (float) of channels. / 要剪的通道个数（int）或比例（float）。
        n: Order of the norm. / 范数的阶。
        dim: Dimension that defines the channels. / 定义通道的维度。
        importance_scores: Scores to rank by instead of the tensor. / 代替张量本身用于排序的分数。

    Returns:
        `module`, modified in place. / 就地修改后的 `module`。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> m = prune.ln_structured(nn.Conv2d(5, 3, 2), "weight", amount=2, n=2, dim=0)
        >>> sorted(m.weight_mask.sum(dim=(1, 2, 3)).tolist())
        [0.0, 0.0, 20.0]
    """
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs) -> None:
    r"""Prune several tensors together, ranking all their elements at once. / 把多个张量放在一起剪枝，对全部元素统一排序。

    === "中文"

        步骤：把各张量（或 `importance_scores` 里对应的分数）用 `parameters_to_vector`
        拼成一个长向量，已有掩码（没有的用全 1）也拼成一个；用一个临时的
        [`PruningContainer`][annotated_nn.utils.prune.PruningContainer]（张量名 `"temp"`）
        让 `pruning_method(**kwargs)` 在这个长向量上计算掩码；最后按各张量的元素个数切开，
        逐个用 [`custom_from_mask`][annotated_nn.utils.prune.custom_from_mask] 装上。
        所以 `amount=10` 是所有张量合计剪 10 个，各张量分到几个取决于数值。
        只接受 `PRUNING_TYPE == "unstructured"` 的方法。
        `parameters` 会被遍历多次：传生成器时第二次遍历得到空序列，`torch.cat` 随之抛出
        `ValueError`，PyTorch 也是如此。

    === "English"

        Steps: the tensors (or their scores from `importance_scores`) are joined into one long
        vector with `parameters_to_vector`, and so are their existing masks (ones where
        there is none); a temporary
        [`PruningContainer`][annotated_nn.utils.prune.PruningContainer] (tensor name `"temp"`)
        lets `pruning_method(**kwargs)` compute the mask on that vector; it is then cut by
        each tensor's element count and put on with
        [`custom_from_mask`][annotated_nn.utils.prune.custom_from_mask]. So `amount=10` prunes
        10 elements across all tensors together, the split depending on the values. Only
        methods with `PRUNING_TYPE == "unstructured"` are accepted. `parameters` is iterated
        several times: a generator yields nothing the second time and `torch.cat` then raises
        `ValueError`, as in PyTorch.

    Args:
        parameters: Iterable of `(module, name)` pairs. / `(module, name)` 二元组的可迭代对象。
        pruning_method: An unstructured pruning method class. / 非结构化剪枝方法类。
        importance_scores: Dict from `(module, name)` to scores. / 从 `(module, name)` 到分数的字典。
        **kwargs: Arguments of `pruning_method`, e.g. `amount`. / 传给 `pruning_method` 的参数，如 `amount`。

    Raises:
        TypeError: Bad `parameters`, `importance_scores` or method type. / `parameters`、`importance_scores` 或方法类型不对。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> net = nn.Sequential(nn.Linear(10, 4), nn.Linear(4, 1))
        >>> pairs = ((net[0], "weight"), (net[1], "weight"))
        >>> prune.global_unstructured(pairs, pruning_method=prune.L1Unstructured, amount=10)
        >>> int((net[0].weight_mask == 0).sum() + (net[1].weight_mask == 0).sum())
        10
    """
    # 中: 先检查两个参数的类型，报错文字与 PyTorch 相同。
    # EN: The two arguments' types are checked first, with PyTorch's messages.
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")

    # 中: 按 `parameters` 的顺序拼接分数与已有掩码（用本包的 `parameters_to_vector`；在函数里
    # 中: 导入，模块的名字集合才与 torch 的 prune.py 完全相同）。
    # 中: `dict.get` 的默认值参数总会被求值，所以每个名字都必须在模块上存在，即使给了分数。
    # EN: Join scores and existing masks in the order of `parameters` (with this package's
    # EN: `parameters_to_vector`, imported inside the function so that the module's names stay
    # EN: exactly those of torch's prune.py). The default argument of `dict.get` is always evaluated, so
    # EN: every name must exist on its module even when scores are given.
    from annotated_nn.utils.convert_parameters import parameters_to_vector

    relevant_importance_scores = parameters_to_vector(
        [
            importance_scores.get((module, name), getattr(module, name))
            for (module, name) in parameters
        ]
    )
    default_mask = parameters_to_vector(
        [
            getattr(module, name + "_mask", torch.ones_like(getattr(module, name)))
            for (module, name) in parameters
        ]
    )

    # 中: 临时容器与方法都叫 "temp"，名字一致才能加入容器。方法先构造再检查类型，
    # 中: 所以 `amount` 有误时先报 `amount` 的错。
    # EN: The temporary container and the method are both named "temp": names must agree to
    # EN: join a container. The method is built before its type is checked, so a bad `amount`
    # EN: is reported first.
    container = PruningContainer()
    container._tensor_name = "temp"
    method = pruning_method(**kwargs)
    method._tensor_name = "temp"
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError(
            'Only "unstructured" PRUNING_TYPE supported for '
            f"the `pruning_method`. Found method {pruning_method} of type {method.PRUNING_TYPE}"
        )
    container.add_pruning_method(method)

    # 中: 容器只让新方法在已有掩码为 1 的元素上挑选，所以以前剪掉的元素不占 `amount` 名额；
    # 中: 浮点数 `amount` 也是这些尚未剪掉的元素的比例。
    # EN: The container lets the new method choose only where the existing mask is 1, so
    # EN: elements pruned earlier do not count toward `amount`; a float `amount` is likewise a
    # EN: fraction of those still unpruned elements.
    final_mask = container.compute_mask(relevant_importance_scores, default_mask)

    # 中: 按顺序切出每个张量的那一段，变回它的形状，经 `custom_from_mask` 装上
    # 中: （已剪过的张量会得到一个容器，新段再乘上它的旧掩码，结果不变）。
    # EN: Cut each tensor's slice in order, reshape it to the tensor, and put it on with
    # EN: `custom_from_mask` (a tensor pruned before gets a container; the slice is multiplied
    # EN: by its old mask, which changes nothing).
    pointer = 0
    for module, name in parameters:
        param = getattr(module, name)
        num_param = param.numel()
        param_mask = final_mask[pointer : pointer + num_param].view_as(param)
        custom_from_mask(module, name, mask=param_mask)
        pointer += num_param


def custom_from_mask(module, name, mask):
    r"""Prune `module.<name>` with a given mask; return `module`. / 用给定掩码剪枝 `module.<name>`；返回 `module`。

    === "中文"

        见 [`CustomFromMask`][annotated_nn.utils.prune.CustomFromMask]。缓冲区 `name_mask`
        的数据类型取张量的数据类型，不取 `mask` 的。

    === "English"

        See [`CustomFromMask`][annotated_nn.utils.prune.CustomFromMask]. The buffer
        `name_mask` takes the tensor's dtype, not `mask`'s.

    Args:
        module: Module holding the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量的名字。
        mask: The mask, shaped like the tensor. / 掩码，与张量同形状。

    Returns:
        `module`, modified in place. / 就地修改后的 `module`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> m = prune.custom_from_mask(nn.Linear(5, 3), "bias", mask=torch.tensor([0, 1, 0]))
        >>> m.bias_mask
        tensor([0., 1., 0.])
    """
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module, name):
    r"""Make the pruning of `module.<name>` permanent and drop its hook; return `module`. / 让 `module.<name>` 的剪枝永久生效并去掉钩子；返回 `module`。

    === "中文"

        找到管着 `name` 的剪枝钩子，调用它的
        [`remove`][annotated_nn.utils.prune.BasePruningMethod.remove] 方法，
        再把它从 `_forward_pre_hooks` 删掉。之后 `name` 又是普通参数（排在参数顺序末尾），
        被剪掉的值仍为 0。

    === "English"

        Finds the pruning hook that handles `name`, calls its
        [`remove`][annotated_nn.utils.prune.BasePruningMethod.remove] method and deletes it
        from `_forward_pre_hooks`. Afterwards `name` is an ordinary parameter again (last in
        the parameter order) and pruned values stay 0.

    Args:
        module: Module holding the pruned tensor. / 持有剪过张量的模块。
        name: Name of the tensor. / 张量的名字。

    Returns:
        `module`, modified in place. / 就地修改后的 `module`。

    Raises:
        ValueError: `name` is not pruned. / `name` 没有被剪枝。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> m = prune.random_unstructured(nn.Linear(5, 7), "weight", amount=0.2)
        >>> m = prune.remove(m, "weight")
        >>> [name for name, _ in m.named_parameters()]
        ['bias', 'weight']
    """
    # 中: 删除后立即返回，所以在遍历中改字典不会出问题。
    # EN: The loop returns right after deleting, so changing the dict while iterating is safe.
    for hook_id, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[hook_id]
            return module

    raise ValueError(
        f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed"
    )


def is_pruned(module) -> bool:
    r"""Whether `module` or any submodule carries a pruning hook. / `module` 或其任何子模块是否带有剪枝钩子。

    === "中文"

        遍历 `named_modules()`，检查每个模块的 `_forward_pre_hooks` 里有没有
        [`BasePruningMethod`][annotated_nn.utils.prune.BasePruningMethod] 的实例。
        只看钩子，不看名字：手工删掉钩子而保留 `weight_orig` 的模块算作未剪枝。

    === "English"

        Walks `named_modules()` and looks for an instance of
        [`BasePruningMethod`][annotated_nn.utils.prune.BasePruningMethod] in each module's
        `_forward_pre_hooks`. Only hooks count, not names: a module whose hook was deleted by
        hand while `weight_orig` remains counts as not pruned.

    Args:
        module: The root module. / 根模块。

    Returns:
        `True` if some pruning hook is found. / 找到剪枝钩子时为 `True`。

    Examples:
        >>> import annotated_nn as nn
        >>> import annotated_nn.utils.prune as prune
        >>> m = nn.Sequential(nn.Linear(5, 7))
        >>> prune.is_pruned(m)
        False
        >>> _ = prune.random_unstructured(m[0], "weight", amount=0.2)
        >>> prune.is_pruned(m)
        True
    """
    for _, submodule in module.named_modules():
        for hook in submodule._forward_pre_hooks.values():
            if isinstance(hook, BasePruningMethod):
                return True
    return False


def _validate_pruning_amount_init(amount) -> None:
    r"""Check `amount`'s type and range before the tensor is known. / 在知道张量之前检查 `amount` 的类型与范围。

    === "中文"

        必须是实数（`numbers.Real`，张量不行）；整数不能为负，其他实数要在 `[0, 1]` 内。
        `True` 在这里算作整数 1 而通过检查，但之后 `torch.topk`、`torch.kthvalue` 拒绝布尔型的
        `k`（`TypeError`），所以只有 `LnStructured` 能把它当 1 用。

    === "English"

        It must be a real number (`numbers.Real`; a tensor does not pass); an integer must not
        be negative, any other real must lie in `[0, 1]`. `True` passes here as the integer 1,
        but `torch.topk` and `torch.kthvalue` later refuse a bool `k` (`TypeError`), so only
        `LnStructured` gets to use it as 1.

    Args:
        amount: Count (int) or fraction (float). / 个数（int）或比例（float）。

    Raises:
        TypeError: Not a real number. / 不是实数。
        ValueError: Out of range. / 超出范围。
    """
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")

    # 中: 非整数的实数（如 0.3、`numpy.float32`）先转成 float 再比较；报错文字与 PyTorch 相同。
    # EN: A non-integral real (e.g. 0.3, `numpy.float32`) is compared as a float; the message is
    # EN: PyTorch's.
    if (isinstance(amount, numbers.Integral) and amount < 0) or (
        not isinstance(amount, numbers.Integral) and (float(amount) > 1.0 or float(amount) < 0.0)
    ):
        raise ValueError(
            f"amount={amount} should either be a float in the range [0, 1] or a non-negative integer"
        )


def _validate_pruning_amount(amount, tensor_size) -> None:
    r"""Check that an integer `amount` does not exceed `tensor_size`. / 检查整数 `amount` 不超过 `tensor_size`。

    === "中文"

        只检查整数：调用处传入的已经是换算后的个数，比例换算出的个数不会超过总数。

    === "English"

        Only integers are checked: callers pass the converted count, and a count converted
        from a fraction cannot exceed the total.

    Args:
        amount: Number of units to prune. / 要剪的单元个数。
        tensor_size: Number of units available. / 可剪的单元总数。

    Raises:
        ValueError: `amount` larger than `tensor_size`. / `amount` 大于 `tensor_size`。
    """
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError(
            f"amount={amount} should be smaller than the number of parameters to prune={tensor_size}"
        )


def _validate_structured_pruning(t) -> None:
    r"""Check that `t` has at least 2 dims, so channels make sense. / 检查 `t` 至少 2 维，通道才有意义。

    === "中文"

        一维张量（例如偏置）沿唯一的维度切出的"通道"只是单个元素，结构化剪枝拒绝它。

    === "English"

        A 1-D tensor (a bias, say) has single elements as its only "channels"; structured
        pruning rejects it.

    Args:
        t: Tensor to prune. / 待剪的张量。

    Raises:
        ValueError: `t` has fewer than 2 dims. / `t` 少于 2 维。
    """
    shape = t.shape
    if len(shape) <= 1:
        raise ValueError(
            "Structured pruning can only be applied to "
            "multidimensional tensors. Found tensor of shape "
            f"{shape} with {len(shape)} dims"
        )


def _compute_nparams_toprune(amount, tensor_size):
    r"""Turn `amount` into a number of units. / 把 `amount` 换算成单元个数。

    === "中文"

        整数原样返回；比例乘以 `tensor_size` 后用 Python 的 `round` 取整（五成双）。

    === "English"

        An integer is returned as is; a fraction times `tensor_size` is rounded with Python's
        `round` (halves to even).

    Args:
        amount: Count (int) or fraction (float). / 个数（int）或比例（float）。
        tensor_size: Number of units available. / 可剪的单元总数。

    Returns:
        The number of units to prune. / 要剪的单元个数。
    """
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


def _validate_pruning_dim(t, dim) -> None:
    r"""Check that `dim` is below `t.dim()`. / 检查 `dim` 小于 `t.dim()`。

    === "中文"

        只检查上界；过小的负数 `dim` 在这里通过，之后由取形状或容器报错。

    === "English"

        Only the upper bound is checked; a too negative `dim` passes here and fails later, when
        the shape is read or in the container.

    Args:
        t: Tensor to prune. / 待剪的张量。
        dim: Dimension of the channels. / 通道所在的维度。

    Raises:
        IndexError: `dim >= t.dim()`. / `dim >= t.dim()`。
    """
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")


def _compute_norm(t, n, dim):
    r"""The L`n` norm of each channel along `dim`. / 沿 `dim` 每个通道的 L`n` 范数。

    === "中文"

        在除 `dim` 之外的所有维上调用 `torch.norm(t, p=n, dim=...)`，结果长度为 `t.shape[dim]`。
        负的 `dim` 先换成正的，才能从维度列表里去掉。

    === "English"

        Calls `torch.norm(t, p=n, dim=...)` over every dim except `dim`; the result has length
        `t.shape[dim]`. A negative `dim` is made positive first so that it can be removed from
        the list of dims.

    Args:
        t: Tensor to measure. / 要计算的张量。
        n: Order of the norm. / 范数的阶。
        dim: Dimension of the channels. / 通道所在的维度。

    Returns:
        One norm per channel. / 每个通道一个范数。
    """
    dims = list(range(t.dim()))
    if dim < 0:
        dim = dims[dim]
    dims.remove(dim)
    return torch.norm(t, p=n, dim=dims)
