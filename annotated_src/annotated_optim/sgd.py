r"""Stochastic gradient descent, with momentum, dampening, Nesterov and weight decay; mirrors `torch.optim.sgd`. / 随机梯度下降（含动量、阻尼、Nesterov 与权重衰减），对应 `torch.optim.sgd`。

=== "中文"

    每个优化器文件的结构都一样，SGD 最短，适合先读：

    1. 类 [`SGD`][annotated_optim.sgd.SGD]：`__init__` 检查超参数、放进 `defaults`；
       `_init_group` 收集一个参数组里有梯度的参数、梯度和状态；`step` 对每个组调用函数式入口。
    2. 函数式入口 [`sgd`][annotated_optim.sgd.sgd]：只看张量列表和超参数，决定走哪种实现。
    3. 三种实现：[`_single_tensor_sgd`][annotated_optim.sgd._single_tensor_sgd]（逐个参数），
       [`_multi_tensor_sgd`][annotated_optim.sgd._multi_tensor_sgd]（foreach，按设备和类型
       分组后一次处理一组），[`_fused_sgd`][annotated_optim.sgd._fused_sgd]（调用 torch 的
       融合内核 `torch._fused_sgd_`）。三者算的是同一个公式。

    更新公式（g 是梯度，b 是动量缓冲，μ 是 momentum，τ 是 dampening，λ 是 weight_decay）：
    `g ← -g`（maximize 时）；`g ← g + λθ`；有动量时第一步 `b ← g`，之后
    `b ← μb + (1-τ)g`；Nesterov 时 `g ← g + μb`，否则 `g ← b`；最后 `θ ← θ - lr·g`。
    注意学习率乘在最后，而不是像 Sutskever 等人的写法那样乘进动量缓冲；第一步的缓冲等于
    梯度本身（不乘 1-τ）。

=== "English"

    Every optimizer file has the same structure; SGD's is the shortest, a good one to read first:

    1. The class [`SGD`][annotated_optim.sgd.SGD]: `__init__` checks the hyperparameters and
       puts them in `defaults`; `_init_group` collects a group's parameters that have
       gradients, with their gradients and state; `step` calls the functional entry point for
       each group.
    2. The functional entry point [`sgd`][annotated_optim.sgd.sgd]: sees only lists of tensors
       and hyperparameters, and picks the implementation.
    3. Three implementations: [`_single_tensor_sgd`][annotated_optim.sgd._single_tensor_sgd]
       (one parameter at a time), [`_multi_tensor_sgd`][annotated_optim.sgd._multi_tensor_sgd]
       (foreach: grouped by device and dtype, one call per group) and
       [`_fused_sgd`][annotated_optim.sgd._fused_sgd] (torch's fused kernel
       `torch._fused_sgd_`). All three compute the same formula.

    The update (g the gradient, b the momentum buffer, μ momentum, τ dampening, λ
    weight_decay): `g ← -g` (with maximize); `g ← g + λθ`; with momentum, `b ← g` at the first
    step and `b ← μb + (1-τ)g` afterwards; with Nesterov `g ← g + μb`, otherwise `g ← b`;
    finally `θ ← θ - lr·g`. The learning rate multiplies at the end, not inside the momentum
    buffer as in Sutskever et al.'s form; the first buffer is the gradient itself (not scaled
    by 1-τ).
"""

from typing import Any

import torch
from torch import Tensor

from annotated_optim.optimizer import (
    Optimizer,
    ParamsT,
    _default_to_fused_or_foreach,
    _device_dtype_check_for_fused,
    _to_scalar,
    _use_grad_for_differentiable,
)

__all__ = ["SGD", "sgd"]


class SGD(Optimizer):
    r"""Stochastic gradient descent, optionally with momentum. / 随机梯度下降，可带动量。

    === "中文"

        状态：有动量时每个参数一个 `momentum_buffer`（第一次 `step` 时创建）；无动量时
        `state` 一直为空。

        实现的选择：`foreach` 与 `fused` 都为 `None` 时，CPU 上用单张量实现，CUDA 上默认
        foreach（见
        [`_default_to_fused_or_foreach`][annotated_optim.optimizer._default_to_fused_or_foreach]）；
        `fused=True` 在 CPU 上也可用。

    === "English"

        State: with momentum, one `momentum_buffer` per parameter (created at the first
        `step`); without momentum, `state` stays empty.

        Implementation choice: with `foreach` and `fused` both `None`, the single-tensor
        implementation runs on CPU and foreach is the default on CUDA (see
        [`_default_to_fused_or_foreach`][annotated_optim.optimizer._default_to_fused_or_foreach]);
        `fused=True` works on CPU too.

    Args:
        params: Parameters, named parameters, or parameter groups. / 参数、带名字的参数或参数组。
        lr: Learning rate, a float or a one-element tensor. / 学习率，浮点数或单元素张量。
        momentum: Momentum factor μ. / 动量系数 μ。
        dampening: Dampening τ of the momentum. / 动量的阻尼 τ。
        weight_decay: L2 penalty λ added to the gradient. / 加到梯度上的 L2 惩罚 λ。
        nesterov: Use Nesterov momentum (needs momentum > 0, dampening 0). / 使用 Nesterov 动量（要求 momentum > 0 且 dampening 为 0）。
        maximize: Maximize the objective instead. / 改为最大化目标。
        foreach: Force (True) or forbid (False) the foreach implementation. / 强制（True）或禁止（False）foreach 实现。
        differentiable: Let autograd record the step. / 让自动求导记录这一步。
        fused: Use the fused kernel. / 使用融合内核。

    Raises:
        ValueError: Negative lr/momentum/weight_decay, bad Nesterov settings, a tensor lr with more than one element. / lr/momentum/weight_decay 为负、Nesterov 设置不当、张量 lr 不止一个元素。
        RuntimeError: `fused` together with `differentiable` or `foreach`. / `fused` 与 `differentiable` 或 `foreach` 同时开启。

    Examples:
        >>> import torch, annotated_nn as nn, annotated_optim as optim
        >>> torch.manual_seed(0)  # doctest: +ELLIPSIS
        <torch._C.Generator object at ...>
        >>> model = nn.Linear(3, 1)
        >>> opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        >>> model(torch.ones(2, 3)).sum().backward()
        >>> opt.step(); opt.zero_grad()
        >>> sorted(opt.state[model.weight])
        ['momentum_buffer']
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float | Tensor = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        r"""Check the hyperparameters and build the groups. / 检查超参数并建立参数组。

        === "中文"

            检查顺序与错误文本与 torch 相同：张量 lr 的元素个数、lr、momentum、
            weight_decay 的符号，然后 Nesterov 的前提；参数组建好之后才检查 `fused` 的组合，
            所以这两个 `RuntimeError` 出现在参数检查之后。

        === "English"

            The checks and their texts follow torch's order: a tensor lr's element count, the
            signs of lr, momentum and weight_decay, then Nesterov's preconditions; the `fused`
            combinations are checked only after the groups are built, so those two
            `RuntimeError`s come after the parameter checks.

        Args:
            params: See the class. / 见类说明。
            lr: See the class. / 见类说明。
            momentum: See the class. / 见类说明。
            dampening: See the class. / 见类说明。
            weight_decay: See the class. / 见类说明。
            nesterov: See the class. / 见类说明。
            maximize: See the class. / 见类说明。
            foreach: See the class. / 见类说明。
            differentiable: See the class. / 见类说明。
            fused: See the class. / 见类说明。
        """
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")

        # 中: 键的顺序就是每个参数组里超参数的顺序（状态字典里也是这个顺序）。
        # EN: The key order is the order of hyperparameters in every group (and in the
        #     state_dict).
        defaults = {
            "lr": lr,
            "momentum": momentum,
            "dampening": dampening,
            "weight_decay": weight_decay,
            "nesterov": nesterov,
            "maximize": maximize,
            # 中: 实现的选择也按参数组存放：`step` 从每个组里读 `foreach` 与 `fused`，所以用
            #     `add_param_group` 加入的组可以选不同的实现。
            # EN: The implementation choice is stored per group too: `step` reads `foreach` and
            #     `fused` from each group, so a group added with `add_param_group` may pick a
            #     different implementation.
            "foreach": foreach,
            "differentiable": differentiable,
            "fused": fused,
        }
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

        # 中: fused 步支持混合精度的梯度缩放：GradScaler 看到 `_step_supports_amp_scaling`
        #     就把 `grad_scale`/`found_inf` 交给 step，由内核自己反缩放、跳过非有限步。
        #     设备与类型只检查一次：第一次有梯度的 step 时，只查第一个有梯度的参数。
        # EN: A fused step supports AMP gradient scaling: seeing `_step_supports_amp_scaling`,
        #     GradScaler hands `grad_scale`/`found_inf` to step and the kernel unscales and
        #     skips non-finite steps itself. Device and dtype are checked once: at the first
        #     step with a gradient, on the first parameter that has one, and on no other.
        if fused:
            self._step_supports_amp_scaling = True
            self._need_device_dtype_check_for_fused = True
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")

    def __setstate__(self, state: dict[str, Any]) -> None:
        r"""Unpickle, giving groups saved by older versions the newer options. / 反序列化，并给旧版本保存的参数组补上新选项。

        === "中文"

            旧检查点里的参数组可能没有 `nesterov`、`maximize`、`foreach`、`differentiable`、
            `fused`；补上它们的默认值（`fused` 补 `False`）。

        === "English"

            Groups from old checkpoints may lack `nesterov`, `maximize`, `foreach`,
            `differentiable` and `fused`; they get their defaults (`fused` gets `False`).

        Args:
            state: The pickled attributes. / 序列化保存的属性。
        """
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault("nesterov", False)
            group.setdefault("maximize", False)
            group.setdefault("foreach", None)
            group.setdefault("differentiable", False)
            group.setdefault("fused", False)

    def _init_group(
        self,
        group: dict[str, Any],
        params: list[Tensor],
        grads: list[Tensor],
        momentum_buffer_list: list[Tensor | None],
    ) -> bool:
        r"""Collect a group's parameters that have gradients, with grads and buffers. / 收集参数组里有梯度的参数及其梯度和动量缓冲。

        === "中文"

            `.grad` 为 `None` 的参数被跳过：它不更新，它的状态也不动。三个列表逐项对应；
            还没有缓冲的位置放 `None`，由实现在第一步创建。

        === "English"

            Parameters whose `.grad` is `None` are skipped: they are not updated and their state
            is untouched. The three lists are aligned; a position without a buffer yet holds
            `None`, and the implementation creates it at the first step.

        Args:
            group: The parameter group. / 参数组。
            params: Filled with parameters. / 填入参数。
            grads: Filled with their gradients. / 填入梯度。
            momentum_buffer_list: Filled with buffers or `None` (only with momentum). / 填入缓冲或 `None`（仅在有动量时）。

        Returns:
            Whether any gradient is sparse. / 是否有稀疏梯度。
        """
        has_sparse_grad = False
        for p in group["params"]:
            if p.grad is None:
                continue
            # 中: fused 的设备与类型检查只做一次，之后关掉开关，免得每步都付出代价；所以只有
            #     第一个有梯度的参数被检查，其余参数的问题要到内核里才报错（与 torch 相同）。
            # EN: The fused device/dtype check runs once, then the switch goes off so later
            #     steps don't pay for it; so only the first parameter with a gradient is checked,
            #     and a problem with any other surfaces in the kernel (as in torch).
            if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                _device_dtype_check_for_fused(p)
                self._need_device_dtype_check_for_fused = False
            params.append(p)
            grads.append(p.grad)
            if p.grad.is_sparse:
                has_sparse_grad = True
            # 中: 只有有动量时才收集缓冲；无动量时这个列表保持为空，实现也不会去读它。
            # EN: Buffers are gathered only with momentum; without it the list stays empty and
            #     no implementation reads it.
            if group["momentum"] != 0:
                momentum_buffer_list.append(self.state[p].get("momentum_buffer"))
        return has_sparse_grad

    @_use_grad_for_differentiable
    def step(self, closure=None):
        r"""Take one SGD step for every group. / 对每个参数组走一步 SGD。

        === "中文"

            先在启用梯度的状态下调用 `closure`（若有）。每个组：收集参数、调用
            [`sgd`][annotated_optim.sgd.sgd]，再把（可能新建的）动量缓冲写回 `state`——
            实现只在列表里创建缓冲，写回在这里。`grad_scale`/`found_inf` 是 GradScaler
            临时挂在优化器上的属性（只有 fused 用得上）。

        === "English"

            First calls `closure` (if any) with gradients enabled. For each group: collect the
            parameters, call [`sgd`][annotated_optim.sgd.sgd], then write the (possibly new)
            momentum buffers back to `state`; the implementations create buffers only in the
            list, and this is where they are stored. `grad_scale`/`found_inf` are attributes
            GradScaler sets on the optimizer for the moment (only fused uses them).

        Args:
            closure: Re-evaluates the model and returns the loss. / 重新计算模型并返回损失。

        Returns:
            The closure's loss, or `None`. / closure 返回的损失，或 `None`。
        """
        # 中: `step` 本身在关闭梯度记录的状态下运行（见 `_use_grad_for_differentiable`），
        #     而 `closure` 要做前向与反向传播，所以为它临时打开梯度。
        # EN: `step` itself runs with gradient recording off (see
        #     `_use_grad_for_differentiable`), while `closure` does a forward and backward
        #     pass, so gradients are turned on for it.
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        # 中: 每个参数组单独收集、单独调用一次 `sgd`：列表每步新建，只含这一步有梯度的参数。
        # EN: Each group is gathered and passed to `sgd` on its own: the lists are new at
        #     every step and hold only the parameters that have a gradient this step.
        for group in self.param_groups:
            params: list[Tensor] = []
            grads: list[Tensor] = []
            momentum_buffer_list: list[Tensor | None] = []
            has_sparse_grad = self._init_group(group, params, grads, momentum_buffer_list)

            # 中: 交给函数式入口：它只看张量列表与超参数，不认识优化器对象，实现也在那里选。
            # EN: Hand over to the functional entry point: it sees only tensor lists and
            #     hyperparameters, not the optimizer object, and picks the implementation.
            sgd(
                params,
                grads,
                momentum_buffer_list,
                # 中: 超参数每步都从组里现读，所以调度器改了 `group["lr"]`，下一步就生效。
                # EN: Hyperparameters are read from the group at every step, so a scheduler's
                #     change to `group["lr"]` takes effect at the next step.
                weight_decay=group["weight_decay"],
                momentum=group["momentum"],
                lr=group["lr"],
                dampening=group["dampening"],
                nesterov=group["nesterov"],
                maximize=group["maximize"],
                has_sparse_grad=has_sparse_grad,
                # 中: 实现的选择也从组里读，所以各组可以走不同的实现（见 `__init__` 里 `defaults`
                #     的注释）。
                # EN: The implementation choice is read from the group too, so groups may take
                #     different implementations (see the note on `defaults` in `__init__`).
                foreach=group["foreach"],
                fused=group["fused"],
                # 中: `grad_scale`/`found_inf` 通常只在 GradScaler 为 fused 优化器临时设置时存在；
                #     没有时是 `None`。
                # EN: `grad_scale`/`found_inf` normally exist only while GradScaler has set them
                #     on a fused optimizer; when absent they are `None`.
                grad_scale=getattr(self, "grad_scale", None),
                found_inf=getattr(self, "found_inf", None),
            )

            # 中: 把缓冲写回状态：第一步新建的缓冲只存在于列表里。
            # EN: Store the buffers in the state: ones created at the first step exist only in
            #     the list.
            if group["momentum"] != 0:
                for p, momentum_buffer in zip(params, momentum_buffer_list):
                    self.state[p]["momentum_buffer"] = momentum_buffer

        return loss


def sgd(
    params: list[Tensor],
    d_p_list: list[Tensor],
    momentum_buffer_list: list[Tensor | None],
    has_sparse_grad: bool = False,
    foreach: bool | None = None,
    fused: bool | None = None,
    grad_scale: Tensor | None = None,
    found_inf: Tensor | None = None,
    *,
    weight_decay: float,
    momentum: float,
    lr: float,
    dampening: float,
    nesterov: bool,
    maximize: bool,
) -> None:
    r"""The functional SGD: pick an implementation and run it. / 函数式 SGD：选择实现并运行。

    === "中文"

        用户没选（`foreach` 和 `fused` 都是 `None`）时按设备选（SGD 从不默认 fused）；只选了
        一个时另一个当作 `False`。然后 foreach 优先于 fused，都不是就用单张量实现。

    === "English"

        When the user chose neither (`foreach` and `fused` both `None`) the devices decide
        (SGD never defaults to fused); when only one was chosen, the other counts as `False`.
        Then foreach wins over fused, and with neither the single-tensor implementation runs.

    Args:
        params: Parameters with gradients. / 有梯度的参数。
        d_p_list: Their gradients. / 它们的梯度。
        momentum_buffer_list: Their buffers or `None` (filled in place). / 它们的缓冲或 `None`（就地填入）。
        has_sparse_grad: Whether any gradient is sparse. / 是否有稀疏梯度。
        foreach: Use foreach. / 是否使用 foreach。
        fused: Use the fused kernel. / 是否使用融合内核。
        grad_scale: GradScaler's scale (fused only). / GradScaler 的缩放系数（仅 fused）。
        found_inf: GradScaler's non-finite flag (fused only). / GradScaler 的非有限值标志（仅 fused）。
        weight_decay: λ. / λ。
        momentum: μ. / μ。
        lr: Learning rate. / 学习率。
        dampening: τ. / τ。
        nesterov: Nesterov momentum. / Nesterov 动量。
        maximize: Maximize instead. / 改为最大化。

    Raises:
        RuntimeError: foreach or fused under TorchScript. / 在 TorchScript 中使用 foreach 或 fused。
    """
    # 中: 用户两者都没选时按参数所在的设备决定（`use_fused=False`：SGD 从不默认 fused）；
    #     TorchScript 里两种批量实现都不可用。
    # EN: When the user chose neither, the parameters' devices decide (`use_fused=False`: SGD
    #     never defaults to fused); under TorchScript neither batched implementation is
    #     available.
    if foreach is None and fused is None:
        if not torch.jit.is_scripting():
            fused, foreach = _default_to_fused_or_foreach(
                params, differentiable=False, use_fused=False
            )
        else:
            foreach = fused = False
    # 中: 只选了一个时，另一个仍是 `None`，这里当作 `False`。
    # EN: When only one was chosen, the other is still `None`, which counts as `False` here.
    foreach = bool(foreach)
    fused = bool(fused)

    # 中: 两种批量实现都不能在 TorchScript 里运行；报错文本与 torch 相同。
    # EN: Neither batched implementation runs under TorchScript; torch's error texts.
    if foreach and torch.jit.is_scripting():
        raise RuntimeError("torch.jit.script not supported with foreach optimizers")
    if fused and torch.jit.is_scripting():
        raise RuntimeError("torch.jit.script not supported with fused optimizers")

    # 中: foreach 优先于 fused。构造 `SGD` 时已经拒绝两者同时为真，但函数式入口可以被直接
    #     调用，那时两者都为真就走 foreach。
    # EN: Foreach wins over fused. Constructing `SGD` already refuses both being true, but
    #     the functional entry point can be called directly, and then both true means foreach.
    if foreach and not torch.jit.is_scripting():
        implementation = _multi_tensor_sgd
    elif fused and not torch.jit.is_scripting():
        implementation = _fused_sgd
    else:
        implementation = _single_tensor_sgd
    implementation(
        # 中: 三个逐项对应的列表按位置传；新建的动量缓冲由实现写进第三个列表，
        #     `SGD.step` 再从那里存进 `state`。
        # EN: The three aligned lists go by position; an implementation writes new momentum
        #     buffers into the third, and `SGD.step` stores them in `state` from there.
        params,
        d_p_list,
        momentum_buffer_list,
        weight_decay=weight_decay,
        momentum=momentum,
        lr=lr,
        dampening=dampening,
        nesterov=nesterov,
        # 中: `has_sparse_grad` 让 foreach 实现在含稀疏梯度的组里逐个做最后的参数更新，让
        #     fused 实现报错；`grad_scale` 与 `found_inf` 只有 fused 会用，另外两种要求它们
        #     为 `None`。
        # EN: `has_sparse_grad` makes the foreach implementation do the final parameter update
        #     one by one in groups with sparse gradients, and the fused one raise;
        #     `grad_scale` and `found_inf` are used by fused only, the other two require them
        #     to be `None`.
        has_sparse_grad=has_sparse_grad,
        maximize=maximize,
        grad_scale=grad_scale,
        found_inf=found_inf,
    )


def _single_tensor_sgd(
    params: list[Tensor],
    grads: list[Tensor],
    momentum_buffer_list: list[Tensor | None],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    weight_decay: float,
    momentum: float,
    lr: float,
    dampening: float,
    nesterov: bool,
    maximize: bool,
    has_sparse_grad: bool,
) -> None:
    r"""SGD one parameter at a time. / 逐个参数执行 SGD。

    === "中文"

        最容易读的一版：公式逐行对应。`grad.add(...)` 等不带下划线的运算返回新张量，
        所以 `.grad` 本身不被改写（张量权重衰减且需要梯度时除外，见行内注释）。
        张量学习率需要梯度（`differentiable=True` 时对学习率求导）时改用 `addcmul_`，
        让学习率留在计算图里。

    === "English"

        The easiest version to read: the formula, line by line. Operations without a trailing
        underscore, such as `grad.add(...)`, return new tensors, so `.grad` itself is not
        rewritten (except with a tensor weight decay that requires grad, see the line note). A
        tensor learning rate that requires grad (differentiating with respect to the learning
        rate, with `differentiable=True`) uses `addcmul_` instead, keeping it in the graph.

    Args:
        params: Parameters. / 参数。
        grads: Gradients. / 梯度。
        momentum_buffer_list: Buffers or `None`; new ones are stored here. / 缓冲或 `None`；新建的缓冲存在这里。
        grad_scale: Must be `None`. / 必须为 `None`。
        found_inf: Must be `None`. / 必须为 `None`。
        weight_decay: λ. / λ。
        momentum: μ. / μ。
        lr: Learning rate. / 学习率。
        dampening: τ. / τ。
        nesterov: Nesterov momentum. / Nesterov 动量。
        maximize: Maximize instead. / 改为最大化。
        has_sparse_grad: Unused here (sparse tensors go through the same ops). / 此处不用（稀疏张量走同样的运算）。
    """
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    if not torch.jit.is_scripting():
        lr = _to_scalar(lr)

    for i, param in enumerate(params):
        grad = grads[i] if not maximize else -grads[i]
        # 中: 权重衰减 g ← g + λθ。张量 λ 需要梯度时用 `addcmul_`（会就地改写这个 grad，
        #     maximize 为假时就是 `.grad` 本身——与 torch 相同），这样 λ 留在计算图里。
        # EN: Weight decay g ← g + λθ. A tensor λ that requires grad uses `addcmul_` (which
        #     rewrites this grad in place, `.grad` itself when maximize is off, as torch does),
        #     keeping λ in the graph.
        if weight_decay != 0:
            if isinstance(weight_decay, Tensor) and weight_decay.requires_grad:
                grad = grad.addcmul_(param.clone(), weight_decay)
            else:
                grad = grad.add(param, alpha=weight_decay)

        # 中: 动量：第一步缓冲就是梯度的一份拷贝（与计算图分离），之后 b ← μb + (1-τ)g。
        # EN: Momentum: at the first step the buffer is a copy of the gradient (detached from
        #     any graph), afterwards b ← μb + (1-τ)g.
        if momentum != 0:
            buf = momentum_buffer_list[i]
            if buf is None:
                buf = grad.detach().clone()
                momentum_buffer_list[i] = buf
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - dampening)
            grad = grad.add(buf, alpha=momentum) if nesterov else buf

        # 中: 更新参数 θ ← θ - lr·g；张量学习率需要梯度时用 `addcmul_`，让学习率留在计算图里。
        # EN: Update the parameter, θ ← θ - lr·g; a tensor learning rate that requires grad uses
        #     `addcmul_`, keeping it in the graph.
        if isinstance(lr, Tensor) and lr.requires_grad:
            param.addcmul_(grad, lr, value=-1)
        else:
            param.add_(grad, alpha=-lr)


def _multi_tensor_sgd(
    params: list[Tensor],
    grads: list[Tensor],
    momentum_buffer_list: list[Tensor | None],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    weight_decay: float,
    momentum: float,
    lr: float,
    dampening: float,
    nesterov: bool,
    maximize: bool,
    has_sparse_grad: bool,
) -> None:
    r"""SGD with foreach kernels, one call per (device, dtype) group. / 用 foreach 内核执行 SGD，每个（设备, 类型）组一次调用。

    === "中文"

        同一公式，但每一行都作用于一整组张量。要注意两处：新建的动量缓冲必须同时写进组内
        列表和原始列表（用分组时记下的下标），否则 `step` 写回状态时拿不到；稀疏梯度的组
        最后逐个更新，因为 `_foreach_add_` 不接受稀疏张量。

    === "English"

        The same formula, but each line acts on a whole group of tensors. Two points to watch:
        a new momentum buffer must go into both the group's list and the original list (through
        the indices recorded when grouping), or `step` would not find it when storing state; a
        group with sparse gradients does its final update one tensor at a time, because
        `_foreach_add_` does not take sparse tensors.

    Args:
        params: Parameters. / 参数。
        grads: Gradients. / 梯度。
        momentum_buffer_list: Buffers or `None`; new ones are stored here. / 缓冲或 `None`；新建的缓冲存在这里。
        grad_scale: Must be `None`. / 必须为 `None`。
        found_inf: Must be `None`. / 必须为 `None`。
        weight_decay: λ. / λ。
        momentum: μ. / μ。
        lr: Learning rate. / 学习率。
        dampening: τ. / τ。
        nesterov: Nesterov momentum. / Nesterov 动量。
        maximize: Maximize instead. / 改为最大化。
        has_sparse_grad: Whether any gradient is sparse. / 是否有稀疏梯度。
    """
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    if len(params) == 0:
        return
    lr = _to_scalar(lr)

    # 中: foreach 内核的快速路径要求一次调用里的张量同设备、同类型（CPU 上混合类型也能算，
    #     只是逐个张量处理），所以先分组；`with_indices=True`
    #     记下每项在原列表中的位置，新建的缓冲要靠它写回原列表。
    # EN: The foreach kernels' fast path needs the tensors of one call on one device with one
    #     dtype (on the CPU mixed dtypes work too, tensor by tensor), so group
    #     first; `with_indices=True` records each item's position in the original lists,
    #     which new buffers need to be written back there.
    grouped = Optimizer._group_tensors_by_device_and_dtype(
        [params, grads, momentum_buffer_list], with_indices=True
    )
    for (device_params, device_grads, device_buffers), indices in grouped.values():
        device_has_sparse_grad = has_sparse_grad and any(g.is_sparse for g in device_grads)

        # 中: maximize 先取负得到一份新列表；之后的权重衰减就可以就地加在这份新列表上，
        #     省一次分配（不取负时必须用非就地的 `_foreach_add`，以免改写 `.grad`）。
        # EN: maximize negates first, giving a fresh list; weight decay can then add in place
        #     to that list and save an allocation (without negation it must use the
        #     out-of-place `_foreach_add`, so as not to rewrite `.grad`).
        if maximize:
            device_grads = torch._foreach_neg(device_grads)
        if weight_decay != 0:
            if maximize:
                torch._foreach_add_(device_grads, device_params, alpha=weight_decay)
            else:
                device_grads = torch._foreach_add(device_grads, device_params, alpha=weight_decay)

        # 中: 动量：所有缓冲都已存在时，两次 foreach 调用完成整组的 b ← μb + (1-τ)g。
        # EN: Momentum: when every buffer exists, two foreach calls do b ← μb + (1-τ)g for the
        #     whole group.
        if momentum != 0:
            if all(buf is not None for buf in device_buffers):
                bufs = list(device_buffers)
                torch._foreach_mul_(bufs, momentum)
                torch._foreach_add_(bufs, device_grads, alpha=1 - dampening)
            else:
                # 中: 至少缺一个缓冲（通常是第一步）：逐个处理。新缓冲同时写进组内列表和原始
                #     列表（经由 `indices`），否则 `step` 存状态时拿不到它。
                # EN: At least one buffer is missing (usually at the first step): go one by one.
                #     A new buffer goes into both the group's list and the original list
                #     (through `indices`), or `step` would not find it when storing state.
                bufs = []
                for i, buf in enumerate(device_buffers):
                    if buf is None:
                        buf = device_grads[i].detach().clone()
                        device_buffers[i] = momentum_buffer_list[indices[i]] = buf
                    else:
                        buf.mul_(momentum).add_(device_grads[i], alpha=1 - dampening)
                    bufs.append(buf)
            # 中: Nesterov 的 g + μb 就地算在梯度列表里：既没有 maximize 也没有权重衰减时，
            #     这个列表就是各参数的 `.grad`，于是 `.grad` 被改写（与 torch 相同；单张量实现
            #     用非就地的 `add`，不会这样）。
            # EN: Nesterov's g + μb is computed in place in the gradient list: with neither maximize
            #     nor weight decay that list holds the parameters' `.grad`, which is thus
            #     rewritten (as in torch; the single-tensor implementation uses the out-of-place
            #     `add` and does not do this).
            if nesterov:
                torch._foreach_add_(device_grads, bufs, alpha=momentum)
            else:
                device_grads = bufs

        # 中: θ ← θ - lr·g。编译时张量学习率先乘进梯度：foreach 的 alpha 是标量参数，传入张量
        #     时内部会调用 `.item()` 取出数值，这在编译时会打断计算图。
        # EN: θ ← θ - lr·g. Under compile a tensor learning rate is multiplied into the
        #     gradients first: foreach's alpha is a scalar argument, and a tensor passed there
        #     is turned into a number by an internal `.item()`, which would break the compiled
        #     graph.
        if not device_has_sparse_grad:
            if isinstance(lr, torch.Tensor) and torch.compiler.is_compiling():
                torch._foreach_add_(device_params, torch._foreach_mul(device_grads, -lr))
            else:
                torch._foreach_add_(device_params, device_grads, alpha=-lr)
        else:
            for param, grad in zip(device_params, device_grads):
                param.add_(grad, alpha=-lr)


def _fused_sgd(
    params: list[Tensor],
    grads: list[Tensor],
    momentum_buffer_list: list[Tensor | None],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    weight_decay: float,
    momentum: float,
    lr: float,
    dampening: float,
    nesterov: bool,
    maximize: bool,
    has_sparse_grad: bool,
) -> None:
    r"""SGD through torch's fused kernel `torch._fused_sgd_`. / 通过 torch 的融合内核 `torch._fused_sgd_` 执行 SGD。

    === "中文"

        内核一次完成整步（权重衰减、动量、更新），还能处理 GradScaler 的反缩放：
        `found_inf` 非零时整步跳过。第一步的缓冲先用 `empty_like` 分配，由内核在
        `is_first_step=True` 时写入梯度；“第一步”指**所有**缓冲都还不存在。所以若组里某个参数
        到后来的某一步才第一次有梯度（它的缓冲仍是 `None`，别的参数已有缓冲），内核收到
        `None` 而引发 `TypeError`（与 torch 相同）。`grad_scale` 与
        `found_inf` 按设备各移过去一份（已在该设备上就不复制），同一设备上的各组共用第一次
        得到的那份。

    === "English"

        The kernel does the whole step (weight decay, momentum, update) and also handles
        GradScaler's unscaling: a nonzero `found_inf` skips the step. First-step buffers are
        allocated with `empty_like` and filled with the gradient by the kernel when
        `is_first_step=True`; "first step" means **no** buffer exists yet. So a parameter that
        gets its first gradient at a later step (its buffer still `None` while the others have
        theirs) hands the kernel a `None`, which raises `TypeError` (as in torch). `grad_scale` and
        `found_inf` are moved to each device (no copy where they already are); all groups on
        one device share the first one obtained.

    Args:
        params: Parameters. / 参数。
        grads: Gradients. / 梯度。
        momentum_buffer_list: Buffers or `None`; new ones are stored here. / 缓冲或 `None`；新建的缓冲存在这里。
        grad_scale: GradScaler's scale, or `None`. / GradScaler 的缩放系数或 `None`。
        found_inf: GradScaler's non-finite flag, or `None`. / GradScaler 的非有限值标志或 `None`。
        weight_decay: λ. / λ。
        momentum: μ. / μ。
        lr: Learning rate. / 学习率。
        dampening: τ. / τ。
        nesterov: Nesterov momentum. / Nesterov 动量。
        maximize: Maximize instead. / 改为最大化。
        has_sparse_grad: Must be false. / 必须为假。

    Raises:
        RuntimeError: A sparse gradient. / 出现稀疏梯度。
    """
    if not params:
        return
    if has_sparse_grad:
        raise RuntimeError("`_fused_sgd` does not support sparse gradients")
    grad_scale_by_device = {grad_scale.device: grad_scale} if grad_scale is not None else {}
    found_inf_by_device = {found_inf.device: found_inf} if found_inf is not None else {}

    # 中: 无动量时不传缓冲（空列表）；第一步时先分配未初始化的缓冲，交给内核填写。
    # EN: Without momentum no buffers are passed (empty list); at the first step,
    #     uninitialized buffers are allocated for the kernel to fill.
    no_momentum_buffer = momentum == 0
    is_first_step = not no_momentum_buffer and all(b is None for b in momentum_buffer_list)
    if is_first_step:
        for i, g in enumerate(grads):
            momentum_buffer_list[i] = torch.empty_like(g)

    # 中: 这里不需要下标：第一步的缓冲已在上面放进原始列表，分组后的列表持有同一批张量，
    #     内核就地填写它们。
    # EN: No indices needed here: the first-step buffers are already in the original list,
    #     the grouped lists hold those same tensors, and the kernel fills them in place.
    grouped = Optimizer._group_tensors_by_device_and_dtype(
        [params, grads, momentum_buffer_list], with_indices=False
    )
    for (device, _), ((device_params, device_grads, device_buffers), _) in grouped.items():
        # 中: 每个设备用该设备上的 grad_scale / found_inf。`setdefault` 的第二个参数总会先
        #     求值，所以每组都调用一次 `.to(device)`（已在该设备上时不复制）；字典保证同一设备
        #     上的各组共用第一次得到的那个张量。
        # EN: Each device uses grad_scale / found_inf on that device. `setdefault` evaluates
        #     its second argument every time, so each group calls `.to(device)` once (no copy
        #     when already on that device); the dicts make all groups on one device share the
        #     first tensor obtained.
        device_grad_scale = device_found_inf = None
        if grad_scale is not None:
            device_grad_scale = grad_scale_by_device.setdefault(device, grad_scale.to(device))
        if found_inf is not None:
            device_found_inf = found_inf_by_device.setdefault(device, found_inf.to(device))
        # 中: 每个（设备, 类型）组一次内核调用完成整步；无动量时缓冲传空列表。
        # EN: One kernel call per (device, dtype) group does the whole step; without momentum
        #     the buffers are passed as an empty list.
        torch._fused_sgd_(
            device_params,
            device_grads,
            [] if no_momentum_buffer else device_buffers,
            # 中: 内核签名里 `weight_decay` 等是 float（0 维张量会被转成数）；`lr` 另有一个接受
            #     张量的重载，张量学习率原样传入。
            # EN: In the kernel's signature `weight_decay` and the others are floats (a 0-d
            #     tensor is converted to a number); `lr` has a separate overload taking a
            #     tensor, so a tensor learning rate is passed as it is.
            weight_decay=weight_decay,
            momentum=momentum,
            lr=lr,
            dampening=dampening,
            nesterov=nesterov,
            maximize=maximize,
            # 中: `is_first_step=True` 让内核把梯度写进刚分配的缓冲，而不是做 μb + (1-τ)g；
            #     `found_inf` 非零时内核跳过整步。
            # EN: `is_first_step=True` makes the kernel write the gradient into the freshly
            #     allocated buffers instead of doing μb + (1-τ)g; a nonzero `found_inf` makes
            #     it skip the whole step.
            is_first_step=is_first_step,
            grad_scale=device_grad_scale,
            found_inf=device_found_inf,
        )
