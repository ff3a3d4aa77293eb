r"""Adagrad: step sizes that shrink with the sum of all past squared gradients; mirrors `torch.optim.adagrad`. / Adagrad：步长随历史梯度平方之和缩小，对应 `torch.optim.adagrad`。

=== "中文"

    Adagrad 为每个元素累加梯度平方之和 `sum`，更新时用 `sqrt(sum) + eps` 去除梯度。
    与 RMSprop 的滑动平均不同，这个和只增不减，所以每个元素的有效步长单调变小：经常出现大
    梯度的元素很快就几乎不再移动，罕见特征（例如词向量中很少出现的词）保持较大的步长。

    一步的计算（`t` 为加一之后的步数，`g` 为梯度）：

    1. `maximize=True` 时 `g = -g`；有权重衰减（weight decay）时 `g = g + weight_decay * p`；
    2. 衰减后的学习率 `clr = lr / (1 + (t - 1) * lr_decay)`；
    3. `sum = sum + g * g`；
    4. `p = p - clr * g / (sqrt(sum) + eps)`。

    Adagrad 是少数支持**稀疏梯度**的优化器（`nn.Embedding(sparse=True)` 给出的那种）：
    只有梯度里出现的行才被累加和更新，见
    [`_single_tensor_adagrad`][annotated_optim.adagrad._single_tensor_adagrad]。

    它的状态在**构造时**就为构造函数收到的每个参数建好（`sum` 以 `initial_accumulator_value`
    填充），
    而不是像多数优化器那样在第一次 `step()` 时才建；这让
    [`share_memory`][annotated_optim.adagrad.Adagrad.share_memory] 可以在训练开始前把
    `sum` 放进共享内存，供多进程（Hogwild 式）训练共用。

    实现有三种：逐参数循环的
    [`_single_tensor_adagrad`][annotated_optim.adagrad._single_tensor_adagrad]、
    `torch._foreach_*` 批量运算的
    [`_multi_tensor_adagrad`][annotated_optim.adagrad._multi_tensor_adagrad]，以及调用 torch
    融合内核 `torch._fused_adagrad_` 的 [`_fused_adagrad`][annotated_optim.adagrad._fused_adagrad]
    （CPU 上也可用）。函数式接口 [`adagrad`][annotated_optim.adagrad.adagrad] 在它们之间分派。

=== "English"

    Adagrad accumulates, for every element, the sum `sum` of the squared gradients, and an
    update divides the gradient by `sqrt(sum) + eps`. Unlike RMSprop's moving average this sum
    only grows, so every element's effective step size shrinks monotonically: elements that
    often see large gradients soon barely move, while rare features (such as rarely seen
    words in an embedding) keep larger steps.

    One step (`t` the step count after incrementing, `g` the gradient):

    1. With `maximize=True`, `g = -g`; with weight decay, `g = g + weight_decay * p`;
    2. The decayed learning rate `clr = lr / (1 + (t - 1) * lr_decay)`;
    3. `sum = sum + g * g`;
    4. `p = p - clr * g / (sqrt(sum) + eps)`.

    Adagrad is one of the few optimizers that accept **sparse gradients** (the kind
    `nn.Embedding(sparse=True)` produces): only the rows present in the gradient are
    accumulated and updated; see
    [`_single_tensor_adagrad`][annotated_optim.adagrad._single_tensor_adagrad].

    Its state is created **at construction** for every parameter given to the constructor
    (`sum` filled with `initial_accumulator_value`), not at the first `step()` as in most
    optimizers; this lets
    [`share_memory`][annotated_optim.adagrad.Adagrad.share_memory] put `sum` into shared memory
    before training starts, for multi-process (Hogwild-style) training.

    There are three implementations: a loop over parameters,
    [`_single_tensor_adagrad`][annotated_optim.adagrad._single_tensor_adagrad]; batched
    `torch._foreach_*` operations,
    [`_multi_tensor_adagrad`][annotated_optim.adagrad._multi_tensor_adagrad]; and torch's fused
    kernel `torch._fused_adagrad_`, called by
    [`_fused_adagrad`][annotated_optim.adagrad._fused_adagrad] (available on CPU too). The
    functional [`adagrad`][annotated_optim.adagrad.adagrad] dispatches between them.
"""

from typing import Any, TypeAlias

import torch
from torch import Tensor

from annotated_optim.optimizer import (
    Optimizer,
    ParamsT,
    _default_to_fused_or_foreach,
    _device_dtype_check_for_fused,
    _get_scalar_dtype,
    _get_value,
    _to_scalar,
    _use_grad_for_differentiable,
    _view_as_real,
)

__all__ = ["Adagrad", "adagrad"]

# 中: 设备 → 该设备上的张量副本（torch 的 `DeviceDict`，我们的 optimizer.py 里没有）。
# EN: Device → a copy of a tensor on that device (torch's `DeviceDict`, which our
#     optimizer.py lacks).
_DeviceDict: TypeAlias = dict[torch.device | None, Tensor]


def _create_state(
    state: dict[str, Any], p: Tensor, fused: bool | None, initial_accumulator_value: float
) -> None:
    r"""Fill a parameter's empty state with `step` 0 and a constant `sum`. / 为参数的空状态填入值为 0 的 `step` 和常数 `sum`。

    === "中文"

        构造函数为每个参数调用一次，`step()` 为之后才加入、还没有状态的参数再调用。
        `step` 是 0 维张量：fused 时放在参数的设备上、类型 float32（torch 为 fused 定下的
        类型，CPU 上的内核也接受别的类型），否则放在默认设备上（没有用
        `torch.set_default_device` 改过时就是 CPU）。复数参数的 `sum` 以
        `initial_accumulator_value` 同时填充实部和虚部，因为更新是在实数视图上分别进行的。

    === "English"

        The constructor calls it once per parameter, and `step()` again for parameters added
        later that have no state yet. `step` is a 0-d tensor: on the parameter's device with
        dtype float32 when fused (torch's choice for fused; the CPU kernel accepts other
        dtypes too), otherwise on the default device (the CPU unless
        `torch.set_default_device` changed it). A complex
        parameter's `sum` is filled with `initial_accumulator_value` in both the real and the
        imaginary part, because the update works on the real view, part by part.

    Args:
        state: The parameter's (empty) state dict, filled in place. / 参数的（空）状态字典，就地填写。
        p: The parameter. / 参数。
        fused: The group's `fused` option. / 参数组的 `fused` 选项。
        initial_accumulator_value: The value `sum` starts from. / `sum` 的初始值。
    """
    if fused:
        state["step"] = torch.zeros((), dtype=_get_scalar_dtype(is_fused=fused), device=p.device)
    else:
        state["step"] = torch.tensor(0.0, dtype=_get_scalar_dtype())
    # 中: `full_like(..., preserve_format)` 保持参数的内存布局（例如 channels_last）。
    # EN: `full_like(..., preserve_format)` keeps the parameter's memory layout (such as
    #     channels_last).
    fill_value = (
        complex(initial_accumulator_value, initial_accumulator_value)
        if torch.is_complex(p)
        else initial_accumulator_value
    )
    state["sum"] = torch.full_like(p, fill_value, memory_format=torch.preserve_format)


class Adagrad(Optimizer):
    r"""The Adagrad optimizer, with learning-rate decay and sparse-gradient support. / Adagrad 优化器：支持学习率衰减与稀疏梯度。

    === "中文"

        每个参数的状态：`step`（0 维计数张量）与 `sum`（梯度平方之和，初值
        `initial_accumulator_value`）。它们在构造时就为所有参数建好，所以刚构造完的
        状态字典里已经有每个参数的状态。

        注意两个与 torch 一致的细节：`initial_accumulator_value` 只取构造函数的值
        （构造时用参数本身，之后补建状态时用 `defaults` 里的值），参数组里单独给的值
        不起作用；`fused=True` 时构造函数收到的参数不检查设备与类型，检查推迟到第一次
        `step()`，只查第一个有梯度的参数——但之后加入、在 `step()` 里才补建状态的参数，
        补建时各自再检查一次。

        `fused=True` 调用 torch 的融合内核（CPU 与 CUDA 上都有），不支持稀疏梯度与复数参数。
        fused 优化器还带有 `_step_supports_amp_scaling = True`：`GradScaler` 据此把
        `grad_scale` 与 `found_inf` 交给 `step()`，由内核自己反缩放梯度并跳过含 inf 的步。

    === "English"

        Per-parameter state: `step` (a 0-d count tensor) and `sum` (the sum of squared
        gradients, starting at `initial_accumulator_value`). Both are created for every
        parameter at construction, so a freshly built optimizer's state_dict already holds
        each parameter's state.

        Two details, as in torch: `initial_accumulator_value` is taken only from the
        constructor (the argument itself at construction, the value in `defaults` when state
        is created later), and a value given in a param group has no effect; with
        `fused=True` the constructor's parameters are not checked for device and dtype: the
        check waits for the first `step()` and looks only at the first parameter that has a
        gradient — but each parameter added later, whose state `step()` creates, is checked
        when that state is created.

        `fused=True` calls torch's fused kernel (available on CPU and CUDA) and supports
        neither sparse gradients nor complex parameters. A fused optimizer also carries
        `_step_supports_amp_scaling = True`: `GradScaler` then hands `grad_scale` and
        `found_inf` to `step()`, and the kernel unscales the gradients itself and skips a step
        that saw an inf.

    Args:
        params: Tensors, `(name, tensor)` pairs, or dicts defining param groups. / 张量、`(name, tensor)` 对，或定义参数组的字典。
        lr: Learning rate, a float or a tensor of 1 element (default `1e-2`). / 学习率，浮点数或只有 1 个元素的张量（默认 `1e-2`）。
        lr_decay: Learning-rate decay per step (default `0`). / 每步的学习率衰减（默认 `0`）。
        weight_decay: L2 penalty added to the gradient (default `0`). / 加到梯度上的 L2 惩罚（默认 `0`）。
        initial_accumulator_value: The value `sum` starts from (default `0`). / `sum` 的初始值（默认 `0`）。
        eps: Added to the square root of `sum` (default `1e-10`). / 加到 `sum` 的平方根上（默认 `1e-10`）。
        foreach: Use the foreach implementation; `None` picks one by device (default `None`). / 使用 foreach 实现；`None` 按设备选择（默认 `None`）。
        maximize: Maximize the objective instead of minimizing (default `False`). / 最大化而不是最小化目标（默认 `False`）。
        differentiable: Let autograd record the step (default `False`). / 让自动求导记录这一步（默认 `False`）。
        fused: Use the fused kernel (default `None`, meaning no). / 使用融合内核（默认 `None`，即不用）。

    Raises:
        ValueError: A tensor `lr` with more than one element, or a negative hyperparameter. / 张量 `lr` 多于一个元素，或超参数为负。
        RuntimeError: `fused` together with `differentiable` or `foreach`. / `fused` 与 `differentiable` 或 `foreach` 同时打开。

    Examples:
        >>> import torch, annotated_optim as optim
        >>> w = torch.nn.Parameter(torch.ones(2))
        >>> opt = optim.Adagrad([w], lr=0.1, initial_accumulator_value=3.0)
        >>> opt.state[w]["sum"]
        tensor([3., 3.])
        >>> w.sum().backward()
        >>> opt.step()
        >>> opt.state[w]["sum"]
        tensor([4., 4.])
    """

    def __init__(
        self,
        params: ParamsT,
        lr: float | Tensor = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        r"""Check the options, build the groups, then create every parameter's state. / 检查选项、建立参数组，再为每个参数创建状态。

        === "中文"

            步骤：1. 按 torch 的顺序与文本检查超参数（不为负）；2. 由基类建立参数组；
            3. 检查 `fused` 与其他选项是否冲突（在参数组建好**之后**，所以参数本身的错误先报）；
            4. 为所有参数创建状态。

        === "English"

            Steps: 1. check the hyperparameters (not negative) in torch's order with its
            texts; 2. build the param groups through the base class; 3. check `fused` against
            the other options (**after** the groups exist, so errors about the parameters
            themselves come first); 4. create every parameter's state.

        Args:
            params: See the class. / 见类说明。
            lr: See the class. / 见类说明。
            lr_decay: See the class. / 见类说明。
            weight_decay: See the class. / 见类说明。
            initial_accumulator_value: See the class. / 见类说明。
            eps: See the class. / 见类说明。
            foreach: See the class. / 见类说明。
            maximize: See the class. / 见类说明。
            differentiable: See the class. / 见类说明。
            fused: See the class. / 见类说明。

        Raises:
            ValueError: See the class. / 见类说明。
            RuntimeError: See the class. / 见类说明。
        """
        # 中: 第 1 步：张量学习率在运算里充当标量，只能有一个元素；先查这一点，后面的比较
        #     才有意义。
        # EN: Step 1: a tensor learning rate acts as a scalar in the arithmetic and must have
        #     one element; this comes first, so that the comparisons below make sense.
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        # 中: 其余按 torch 的顺序逐个检查，第一个为负的值报错，报错文本与 torch 的逐字相同。
        # EN: The rest are checked one by one in torch's order; the first negative value
        #     raises, with torch's exact text.
        for what, value in (
            ("learning rate", lr),
            ("lr_decay value", lr_decay),
            ("weight_decay value", weight_decay),
            ("initial_accumulator_value value", initial_accumulator_value),
            ("epsilon value", eps),
        ):
            # 中: 写成 `not 0.0 <= x` 而不是 `x < 0`：NaN 也会被拒绝（与 NaN 的比较总是假）。
            # EN: Written `not 0.0 <= x` rather than `x < 0`: NaN is refused too
            #     (comparisons with NaN are always false).
            if not 0.0 <= value:
                raise ValueError(f"Invalid {what}: {value}")

        # 中: 第 2 步：键的顺序决定参数组与状态字典里的键顺序，与 torch 相同。
        # EN: Step 2: the key order decides the key order of the param groups and the
        #     state_dict, as in torch.
        defaults = {
            "lr": lr,
            "lr_decay": lr_decay,
            "eps": eps,
            "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value,
            # 中: 以下四项选择实现与行为；`foreach=None` 表示自动选择，`fused=None` 表示不用
            #     fused（自动选择从不选它）。
            # EN: The next four choose implementation and behavior; `foreach=None` means
            #     choose automatically, `fused=None` means not fused (never chosen
            #     automatically).
            "foreach": foreach,
            "maximize": maximize,
            "differentiable": differentiable,
            "fused": fused,
        }
        super().__init__(params, defaults)

        # 中: 第 3 步：`_need_device_dtype_check_for_fused` 让第一次 `step()` 检查设备与类型；
        #     `_step_supports_amp_scaling` 告诉 `GradScaler` 由内核处理梯度缩放。
        # EN: Step 3: `_need_device_dtype_check_for_fused` makes the first `step()` check
        #     device and dtype; `_step_supports_amp_scaling` tells `GradScaler` that the kernel
        #     handles gradient scaling.
        if fused:
            if differentiable:
                raise RuntimeError("`fused` does not support `differentiable`")
            if foreach:
                raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
            self._need_device_dtype_check_for_fused = True
            self._step_supports_amp_scaling = True

        # 中: 第 4 步：每个参数的状态现在就建好；`step` 的位置由本组的 `fused` 决定。
        # EN: Step 4: every parameter's state is created now; where `step` lives depends on
        #     its group's `fused`.
        for group in self.param_groups:
            for p in group["params"]:
                _create_state(self.state[p], p, group["fused"], initial_accumulator_value)

    def __setstate__(self, state: dict[str, Any]) -> None:
        r"""Restore, giving old pickles the options they lack and tensor step counts. / 恢复状态：为旧的 pickle 补上缺少的选项，并把步数变成张量。

        === "中文"

            `load_state_dict` 也经由这里装入参数组。缺少的 `foreach`、`maximize`、
            `differentiable`、`fused` 补成默认值。旧版本把 `step` 存成 Python 数：先逐个参数
            转换（fused 组放在参数的设备上，否则放在默认设备上，没有用 `torch.set_default_device`
            改过时就是 CPU）；然后，若 `state` 里第一项的
            `step` 仍不是张量（只会出现在不属于任何参数的状态项上），就把所有项的 `step` 都
            转换，类型按**最后一个**参数组的 `fused` 决定，与 torch 相同。

        === "English"

            `load_state_dict` installs param groups through here too. Missing `foreach`,
            `maximize`, `differentiable`, `fused` get their defaults. Older versions stored
            `step` as a Python number: first it is converted parameter by parameter (on the
            parameter's device for a fused group, otherwise on the default device, the CPU
            unless `torch.set_default_device` changed it); then, if the first entry
            of `state` still has a non-tensor `step` (possible only for entries that belong to
            no parameter), every entry's `step` is converted, with the dtype chosen by the
            **last** group's `fused`, as torch does.

        Args:
            state: The attributes to set. / 要设置的属性。
        """
        super().__setstate__(state)
        fused = None
        for group in self.param_groups:
            group.setdefault("foreach", None)
            group.setdefault("maximize", False)
            group.setdefault("differentiable", False)
            fused = group.setdefault("fused", None)
            # 中: 只转换非张量的 `step`；已是张量的（包括它的设备）原样保留。
            # EN: Only a non-tensor `step` is converted; a tensor one is kept, device included.
            for p in group["params"]:
                param_state = self.state.get(p, [])
                if len(param_state) != 0 and not torch.is_tensor(param_state["step"]):
                    step_value = float(param_state["step"])
                    device = p.device if group["fused"] else None
                    param_state["step"] = torch.tensor(
                        step_value, dtype=_get_scalar_dtype(is_fused=fused), device=device
                    )

        # 中: 第二遍只看第一项来决定是否全部转换；`fused` 是上面循环留下的最后一组的值。
        # EN: The second pass looks at the first entry alone to decide whether to convert
        #     them all; `fused` is the last group's value left by the loop above.
        state_values = list(self.state.values())
        step_is_tensor = len(state_values) != 0 and torch.is_tensor(state_values[0]["step"])
        if not step_is_tensor:
            for entry in state_values:
                entry["step"] = torch.tensor(
                    float(entry["step"]), dtype=_get_scalar_dtype(is_fused=fused)
                )

    def share_memory(self) -> None:
        r"""Move every `sum` into shared memory, for multi-process training. / 把每个 `sum` 移入共享内存，供多进程训练使用。

        === "中文"

            对每个参数的 `sum` 调用 `share_memory_()`：之后用 `torch.multiprocessing` 启动的
            子进程看到的是同一块内存，各进程的更新彼此可见。`step` 不共享。参数本身需另外
            共享（通常是 `model.share_memory()`）。只有构造时已有状态的参数才有 `sum`：
            对之后加入、尚未走过一步的参数调用会抛 `KeyError`。

        === "English"

            Calls `share_memory_()` on each parameter's `sum`: child processes started with
            `torch.multiprocessing` then see the same memory, and every process's updates are
            visible to the others. `step` is not shared. The parameters themselves must be
            shared separately (usually `model.share_memory()`). Only parameters that have state
            have a `sum`: for one added later that has not taken a step yet, it raises
            `KeyError`.

        Raises:
            KeyError: A parameter has no `sum` yet. / 某个参数还没有 `sum`。
        """
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p]["sum"].share_memory_()

    def _init_group(
        self,
        group: dict[str, Any],
        params_with_grad: list[Tensor],
        grads: list[Tensor],
        state_sums: list[Tensor],
        state_steps: list[Tensor],
    ) -> tuple[bool, bool]:
        r"""Collect one group's parameters that have a gradient, with their state. / 收集一个参数组中有梯度的参数及其状态。

        === "中文"

            `.grad` 为 `None` 的参数被跳过。fused 组在整个优化器里只检查一次设备与类型
            （第一个有梯度的参数），之后 `_need_device_dtype_check_for_fused` 变为假；
            为没有状态的参数补建状态时再单独检查一次。同时报告是否有稀疏梯度、是否有复数参数，
            供函数式接口选择路径。

        === "English"

            Parameters whose `.grad` is `None` are skipped. A fused group has device and dtype
            checked once for the whole optimizer (on the first parameter with a gradient);
            afterwards `_need_device_dtype_check_for_fused` is false. A parameter without
            state is checked again on its own when its state is created. It also reports
            whether any gradient is sparse and any parameter complex, for the functional
            interface to choose its path.

        Args:
            group: The param group. / 参数组。
            params_with_grad: Receives the parameters to update. / 接收要更新的参数。
            grads: Receives their gradients. / 接收它们的梯度。
            state_sums: Receives their `sum`. / 接收它们的 `sum`。
            state_steps: Receives their `step`. / 接收它们的 `step`。

        Returns:
            `(has_sparse_grad, has_complex)`. / `(是否有稀疏梯度, 是否有复数参数)`。

        Raises:
            RuntimeError: Fused with an unsupported device or dtype. / fused 而设备或类型不受支持。
        """
        has_sparse_grad, has_complex = False, False
        for p in group["params"]:
            if p.grad is None:
                continue
            # 中: `getattr(..., True)`：从 pickle 恢复的优化器没有这个属性，就再查一次。
            # EN: `getattr(..., True)`: an optimizer restored from a pickle lacks the
            #     attribute, and checks once more.
            if group["fused"] and getattr(self, "_need_device_dtype_check_for_fused", True):
                _device_dtype_check_for_fused(p)
                self._need_device_dtype_check_for_fused = False
            has_sparse_grad |= p.grad.is_sparse
            has_complex |= torch.is_complex(p)
            params_with_grad.append(p)
            grads.append(p.grad)

            # 中: 之后加入的参数组没有状态，在这里补建，初值取 `defaults` 里的值。
            # EN: A param group added later has no state; it is created here, starting from
            #     the value in `defaults`.
            state = self.state[p]
            if len(state) == 0:
                if group["fused"]:
                    _device_dtype_check_for_fused(p)
                _create_state(state, p, group["fused"], self.defaults["initial_accumulator_value"])
            state_sums.append(state["sum"])
            state_steps.append(state["step"])

        return has_sparse_grad, has_complex

    @_use_grad_for_differentiable
    def step(self, closure=None):
        r"""Perform one Adagrad step on every param group. / 对每个参数组执行一步 Adagrad。

        === "中文"

            在开启梯度的情况下调用 `closure`（若给出），然后逐组收集参数与状态，交给函数式
            接口 [`adagrad`][annotated_optim.adagrad.adagrad]。`grad_scale` 与 `found_inf`
            属性由 `GradScaler` 在调用 fused 优化器之前设置；没有时传 `None`。

        === "English"

            Calls `closure` with gradients enabled (if given), then collects each group's
            parameters and state and passes them to the functional
            [`adagrad`][annotated_optim.adagrad.adagrad]. The `grad_scale` and `found_inf`
            attributes are set by `GradScaler` before it calls a fused optimizer; without them
            `None` is passed.

        Args:
            closure: Re-evaluates the model and returns the loss. / 重新计算模型并返回损失。

        Returns:
            The closure's loss, or `None`. / 闭包返回的损失，或 `None`。
        """
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()

        # 中: 每组新建四个逐项对应的列表，由 `_init_group` 填满。
        # EN: Four fresh aligned lists per group, filled by `_init_group`.
        for group in self.param_groups:
            params_with_grad: list[Tensor] = []
            grads: list[Tensor] = []
            state_sums: list[Tensor] = []
            state_steps: list[Tensor] = []
            has_sparse_grad, has_complex = self._init_group(
                group, params_with_grad, grads, state_sums, state_steps
            )
            # 中: 四个列表按位置传入，其余一律按关键字。
            # EN: The four lists go by position, everything else by keyword.
            adagrad(
                params_with_grad,
                grads,
                state_sums,
                state_steps,
                # 中: 超参数每步从组里重新读取，所以调度器改写 `group["lr"]` 下一步就生效。
                # EN: Hyperparameters are read from the group at every step, so a scheduler
                #     that rewrites `group["lr"]` takes effect on the next step.
                lr=group["lr"],
                weight_decay=group["weight_decay"],
                lr_decay=group["lr_decay"],
                eps=group["eps"],
                # 中: 开关与 `_init_group` 的发现：有无稀疏梯度、复数参数决定可走的路径。
                # EN: Switches and what `_init_group` found: sparse gradients and complex
                #     parameters decide which paths are possible.
                has_sparse_grad=has_sparse_grad,
                foreach=group["foreach"],
                maximize=group["maximize"],
                differentiable=group["differentiable"],
                has_complex=has_complex,
                fused=group["fused"],
                # 中: 仅当 `GradScaler` 设置过这两个属性时才有值。
                # EN: Set only when `GradScaler` has set these two attributes.
                grad_scale=getattr(self, "grad_scale", None),
                found_inf=getattr(self, "found_inf", None),
            )

        return loss


def adagrad(
    params: list[Tensor],
    grads: list[Tensor],
    state_sums: list[Tensor],
    state_steps: list[Tensor],
    fused: bool | None = None,
    grad_scale: Tensor | None = None,
    found_inf: Tensor | None = None,
    has_sparse_grad: bool = False,
    foreach: bool | None = None,
    differentiable: bool = False,
    has_complex: bool = False,
    *,
    lr: float,
    weight_decay: float,
    lr_decay: float,
    eps: float,
    maximize: bool,
) -> None:
    r"""The functional Adagrad: pick an implementation and run it. / 函数式 Adagrad：选择实现并运行。

    === "中文"

        不持有状态：参数与状态以逐项对应的列表传入并被就地更新。只有 `fused` 与 `foreach`
        **都**没给时才自动选择，而且自动选择从不选 fused（fused 只在用户明确要求时使用）；
        CPU 上自动选择的结果是单张量实现。参数的位置与默认值与 torch 相同。

    === "English"

        Holds no state: parameters and state come as aligned lists and are updated in place.
        The choice is automatic only when **neither** `fused` nor `foreach` is given, and the
        automatic choice never picks fused (fused is used only when asked for); on CPU the
        automatic choice is the single-tensor implementation. Positions and defaults match
        torch's.

    Args:
        params: Parameters to update in place. / 要就地更新的参数。
        grads: Their gradients (dense or sparse). / 它们的梯度（稠密或稀疏）。
        state_sums: Their `sum`. / 它们的 `sum`。
        state_steps: Their step counts, as tensors. / 它们的步数，必须是张量。
        fused: Use the fused kernel. / 使用融合内核。
        grad_scale: Gradient scale from `GradScaler` (fused only). / 来自 `GradScaler` 的梯度缩放（仅 fused）。
        found_inf: Inf flag from `GradScaler` (fused only). / 来自 `GradScaler` 的 inf 标记（仅 fused）。
        has_sparse_grad: Whether any gradient is sparse. / 是否有稀疏梯度。
        foreach: Use foreach. / 使用 foreach。
        differentiable: Keep the step differentiable. / 让这一步可求导。
        has_complex: Whether any parameter is complex. / 是否有复数参数。
        lr: Learning rate. / 学习率。
        weight_decay: L2 penalty. / L2 惩罚。
        lr_decay: Learning-rate decay per step. / 每步的学习率衰减。
        eps: Added to the square root of `sum`. / 加到 `sum` 的平方根上。
        maximize: Maximize the objective. / 最大化目标。

    Raises:
        RuntimeError: A step count is not a tensor, or foreach/fused under TorchScript. / 步数不是张量，或在 TorchScript 中使用 foreach/fused。
    """
    if not all(isinstance(t, torch.Tensor) for t in state_steps):
        raise RuntimeError(
            "API has changed, `state_steps` argument must contain a list of singleton tensors"
        )

    # 中: 用户给出的 True/False 一律照办；两者都是 None 时才按设备选（`use_fused=False`）。
    # EN: A True/False from the user is always obeyed; only when both are None is the choice
    #     made by device (`use_fused=False`).
    if fused is None and foreach is None:
        _, foreach = _default_to_fused_or_foreach(params, differentiable, use_fused=False)
    fused = bool(fused)
    foreach = bool(foreach)
    if foreach and torch.jit.is_scripting():
        raise RuntimeError("torch.jit.script not supported with foreach optimizers")
    if fused and torch.jit.is_scripting():
        raise RuntimeError("torch.jit.script not supported with fused optimizers")

    # 中: fused 优先于 foreach；两者都给 True 的情况在构造函数里已被拒绝。
    # EN: Fused wins over foreach; both set to True was already refused by the constructor.
    if fused:
        implementation = _fused_adagrad
    elif foreach:
        implementation = _multi_tensor_adagrad
    else:
        implementation = _single_tensor_adagrad
    # 中: 三种实现的签名相同，一次调用即可。
    # EN: All three implementations share one signature, so one call serves.
    implementation(
        params,
        grads,
        state_sums,
        state_steps,
        # 中: `lr` 在这里仍可能是张量；单张量与 foreach 实现用 `_to_scalar` 把它压成 0 维。
        # EN: `lr` may still be a tensor here; the single-tensor and foreach implementations
        #     squeeze it to 0-d with `_to_scalar`.
        lr=lr,
        weight_decay=weight_decay,
        lr_decay=lr_decay,
        eps=eps,
        # 中: `grad_scale`/`found_inf` 只有 fused 实现接受；另两种实现遇到它们会报错。
        # EN: Only the fused implementation accepts `grad_scale`/`found_inf`; the other two
        #     raise on them.
        has_sparse_grad=has_sparse_grad,
        maximize=maximize,
        differentiable=differentiable,
        has_complex=has_complex,
        grad_scale=grad_scale,
        found_inf=found_inf,
    )


def _make_sparse(grad: Tensor, grad_indices: Tensor, values: Tensor) -> Tensor:
    r"""A sparse COO tensor with `grad`'s shape and indices and the given values. / 与 `grad` 同形状、同下标、取给定值的稀疏 COO 张量。

    === "中文"

        稀疏更新的每个中间量（梯度平方、更新量）都只在梯度出现的位置上有值，所以复用
        梯度已合并的下标，只换值。

    === "English"

        Every intermediate of the sparse update (squared gradient, update amount) has values
        only where the gradient has entries, so the gradient's coalesced indices are reused
        and only the values change.

    Args:
        grad: The coalesced sparse gradient, for its shape. / 已合并的稀疏梯度，提供形状。
        grad_indices: Its indices. / 它的下标。
        values: The new values, one row per index. / 新的值，每个下标一行。

    Returns:
        The sparse tensor. / 稀疏张量。
    """
    return torch.sparse_coo_tensor(grad_indices, values, grad.size())


def _single_tensor_adagrad(
    params: list[Tensor],
    grads: list[Tensor],
    state_sums: list[Tensor],
    state_steps: list[Tensor],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    lr: float,
    weight_decay: float,
    lr_decay: float,
    eps: float,
    has_sparse_grad: bool,
    maximize: bool,
    differentiable: bool,
    has_complex: bool,
) -> None:
    r"""Adagrad as a loop over parameters; the only path for sparse gradients. / 逐个参数循环的 Adagrad；稀疏梯度只走这条路径。

    === "中文"

        稠密梯度：按模块说明中的四步计算，复数先换成实数视图；`differentiable=True` 时
        `eps` 以非就地的 `+` 加上，保留自动求导需要的开方结果。

        稀疏梯度（如 `nn.Embedding(sparse=True)` 的梯度）：先 `coalesce()` 合并重复下标
        （更新是非线性的，同一行的几份梯度必须先相加再平方）；把梯度平方作为稀疏张量加进
        `sum`；用 `sparse_mask` 只取出出现过的行求 `sqrt(sum) + eps`；再把
        `g / (sqrt(sum) + eps)` 作为稀疏张量乘 `-clr` 加回参数。未出现的行完全不动。
        权重衰减要作用于所有行，与稀疏更新矛盾，所以与稀疏梯度同时使用时报错。

    === "English"

        Dense gradients: the four steps of the module description, complex numbers first
        turned into real views; with `differentiable=True`, `eps` is added out of place with
        `+`, keeping the square root autograd needs.

        Sparse gradients (such as those of `nn.Embedding(sparse=True)`): `coalesce()` first
        merges repeated indices (the update is nonlinear, so several gradients of one row
        must be summed before squaring); the squared gradient is added to `sum` as a sparse
        tensor; `sparse_mask` takes only the rows present to compute `sqrt(sum) + eps`; and
        `g / (sqrt(sum) + eps)`, as a sparse tensor, is added to the parameter scaled by
        `-clr`. Rows not present are not touched at all. Weight decay would have to act on
        every row, which contradicts a sparse update, so combining them raises.

    Args:
        params: Parameters to update in place. / 要就地更新的参数。
        grads: Their gradients. / 它们的梯度。
        state_sums: Their `sum`, updated in place. / 它们的 `sum`，就地更新。
        state_steps: Their step counts, incremented in place. / 它们的步数，就地加一。
        grad_scale: Must be `None`. / 必须为 `None`。
        found_inf: Must be `None`. / 必须为 `None`。
        lr: Learning rate. / 学习率。
        weight_decay: L2 penalty. / L2 惩罚。
        lr_decay: Learning-rate decay per step. / 每步的学习率衰减。
        eps: Added to the square root of `sum`. / 加到 `sum` 的平方根上。
        has_sparse_grad: Unused here; sparsity is checked per gradient. / 此处不用；逐个梯度判断是否稀疏。
        maximize: Maximize the objective. / 最大化目标。
        differentiable: Keep the step differentiable. / 让这一步可求导。
        has_complex: Unused here; complex tensors are detected per parameter. / 此处不用；复数逐参数判断。

    Raises:
        AssertionError: `grad_scale` or `found_inf` given. / 给出了 `grad_scale` 或 `found_inf`。
        RuntimeError: Weight decay with a sparse gradient. / 权重衰减与稀疏梯度同时使用。
    """
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    if not torch.jit.is_scripting():
        lr = _to_scalar(lr)

    for param, grad, state_sum, step_t in zip(params, grads, state_sums, state_steps, strict=True):
        # 中: 第 1 步：步数先加一，`_get_value` 取出 Python 数（编译时保持张量）。
        # EN: Step 1: the step count goes up first; `_get_value` takes out a Python number
        #     (a tensor while compiling).
        step_t += 1
        step = _get_value(step_t)
        grad = grad if not maximize else -grad
        # 中: 权重衰减要作用于每一行，与只动出现行的稀疏更新矛盾，所以遇到稀疏梯度就报错。
        # EN: Weight decay would act on every row, contradicting a sparse update that moves
        #     only the rows present, so a sparse gradient raises.
        if weight_decay != 0:
            if grad.is_sparse:
                raise RuntimeError("weight_decay option is not compatible with sparse gradients")
            grad = grad.add(param, alpha=weight_decay)

        # 中: 第 2 步：衰减后的学习率；`lr_decay=0` 时就是 `lr`。
        # EN: Step 2: the decayed learning rate; with `lr_decay=0` it is `lr`.
        clr = lr / (1 + (step - 1) * lr_decay)

        # 中: 稀疏路径：只有出现的行参与累加与更新。
        # EN: Sparse path: only the rows present are accumulated and updated.
        if grad.is_sparse:
            grad = grad.coalesce()
            grad_indices = grad._indices()
            grad_values = grad._values()
            state_sum.add_(_make_sparse(grad, grad_indices, grad_values.pow(2)))
            # 中: `sparse_mask` 只取出 `sum` 在梯度下标处的值，开方加 `eps` 都在这些值上就地做。
            # EN: `sparse_mask` takes `sum` only at the gradient's indices; the square root
            #     and `eps` are applied in place to those values alone.
            std = state_sum.sparse_mask(grad)
            std_values = std._values().sqrt_().add_(eps)
            param.add_(_make_sparse(grad, grad_indices, grad_values / std_values), alpha=-clr)
            continue

        # 中: 稠密路径，第 3、4 步；复数参数在实数视图上更新，写入的仍是原参数的内存。
        # EN: Dense path, steps 3 and 4; a complex parameter is updated on its real view,
        #     which writes into the parameter's own memory.
        if torch.is_complex(param):
            grad = torch.view_as_real(grad)
            state_sum = torch.view_as_real(state_sum)
            param = torch.view_as_real(param)
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt() + eps if differentiable else state_sum.sqrt().add_(eps)
        param.addcdiv_(grad, std, value=-clr)


def _multi_tensor_adagrad(
    params: list[Tensor],
    grads: list[Tensor],
    state_sums: list[Tensor],
    state_steps: list[Tensor],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    lr: float,
    weight_decay: float,
    lr_decay: float,
    eps: float,
    has_sparse_grad: bool,
    maximize: bool,
    differentiable: bool,
    has_complex: bool,
) -> None:
    r"""Adagrad with `torch._foreach_*` kernels, one call per (device, dtype) group. / 用 `torch._foreach_*` 内核实现的 Adagrad，每个（设备, 类型）组调用一次。

    === "中文"

        与单张量实现的稠密路径做同样的运算。一个（设备, 类型）组里只要有一个稀疏梯度，
        整组就交给单张量实现（foreach 运算不接受稀疏张量）。每个参数的衰减学习率不同
        （各自的步数），所以先算出一个 `-clr` 列表，用“列表乘列表”的 `_foreach_mul_`
        作用在梯度上，再做一次 `_foreach_addcdiv_`。

        梯度列表若已是新分配的（`maximize` 或权重衰减产生的），就在它上面就地乘，省一次
        分配；否则必须另建，不能改动 `.grad`。

    === "English"

        The same operations as the single-tensor dense path. If a (device, dtype) group has
        even one sparse gradient, the whole group goes to the single-tensor implementation
        (foreach operations don't take sparse tensors). Each parameter's decayed learning
        rate differs (its own step count), so a list of `-clr` is computed first and applied
        to the gradients with the list-times-list `_foreach_mul_`, followed by one
        `_foreach_addcdiv_`.

        When the gradient list is already a fresh allocation (made by `maximize` or weight
        decay), the multiplication is done on it in place, saving an allocation; otherwise a
        new list is needed so that `.grad` stays untouched.

    Args:
        params: Parameters to update in place. / 要就地更新的参数。
        grads: Their gradients. / 它们的梯度。
        state_sums: Their `sum`, updated in place. / 它们的 `sum`，就地更新。
        state_steps: Their step counts, incremented in place. / 它们的步数，就地加一。
        grad_scale: Must be `None`. / 必须为 `None`。
        found_inf: Must be `None`. / 必须为 `None`。
        lr: Learning rate. / 学习率。
        weight_decay: L2 penalty. / L2 惩罚。
        lr_decay: Learning-rate decay per step. / 每步的学习率衰减。
        eps: Added to the square root of `sum`. / 加到 `sum` 的平方根上。
        has_sparse_grad: Whether any gradient is sparse. / 是否有稀疏梯度。
        maximize: Maximize the objective. / 最大化目标。
        differentiable: Must be false. / 必须为假。
        has_complex: Whether any parameter is complex. / 是否有复数参数。

    Raises:
        AssertionError: `differentiable=True`, or `grad_scale`/`found_inf` given. / `differentiable=True`，或给出了 `grad_scale`/`found_inf`。
    """
    if differentiable:
        raise AssertionError("_foreach ops don't support autograd")
    if grad_scale is not None or found_inf is not None:
        raise AssertionError("Expected grad_scale and found_inf to be None")
    if len(params) == 0:
        return

    lr = _to_scalar(lr)

    # 中: foreach 内核的快速路径要求同设备、同类型（CPU 上混合类型也能算，只是逐个张量处理），
    #     所以先分组，每组各调用一次内核。
    # EN: The foreach kernels' fast path needs one device and one dtype (on the CPU mixed
    #     dtypes work too, tensor by tensor), so tensors are grouped first and each group
    #     gets its own kernel calls.
    grouped = Optimizer._group_tensors_by_device_and_dtype([params, grads, state_sums, state_steps])
    for (device_params, device_grads, device_sums, device_steps), _ in grouped.values():
        # 中: 含稀疏梯度的组整组退回单张量实现（它会自己给步数加一）。
        # EN: A group with a sparse gradient falls back, whole, to the single-tensor
        #     implementation (which increments the step counts itself).
        if has_sparse_grad and any(grad.is_sparse for grad in device_grads):
            _single_tensor_adagrad(
                device_params,
                device_grads,
                device_sums,
                device_steps,
                # 中: 超参数原样转交（`lr` 已被压成 0 维）。
                # EN: The hyperparameters pass through (`lr` is already squeezed to 0-d).
                lr=lr,
                weight_decay=weight_decay,
                lr_decay=lr_decay,
                eps=eps,
                # 中: `has_sparse_grad=True`：本组确有稀疏梯度；其余开关原样转交。
                # EN: `has_sparse_grad=True`: this group does have a sparse gradient; the other
                #     switches pass through.
                has_sparse_grad=True,
                maximize=maximize,
                differentiable=differentiable,
                has_complex=has_complex,
                grad_scale=grad_scale,
                found_inf=found_inf,
            )
            continue

        # 中: 复数项换成实数视图；`maximize` 生成新的梯度列表。
        # EN: Complex entries become real views; `maximize` makes a new gradient list.
        if has_complex:
            _view_as_real(device_params, device_grads, device_sums)
        if maximize:
            device_grads = torch._foreach_neg(device_grads)

        # 中: CPU 上用同一个张量 `1.0` 给步数加一（`alpha=1.0` 选中张量重载），免得 foreach
        #     的逐张量回退为每个步数各包装一次 Python 数 `1`。
        # EN: On CPU one tensor `1.0` increments the steps (`alpha=1.0` selects the tensor
        #     overload), so foreach's per-tensor fallback doesn't wrap a Python `1` for each.
        if not torch.compiler.is_compiling() and device_steps[0].is_cpu:
            torch._foreach_add_(device_steps, torch.tensor(1.0, device="cpu"), alpha=1.0)
        else:
            torch._foreach_add_(device_steps, 1)

        # 中: 第 1 步的权重衰减：`maximize` 时就地加在已新建的列表上，否则新建列表。
        # EN: Step 1's weight decay: added in place to the list `maximize` already made,
        #     otherwise into a new list.
        if weight_decay != 0:
            if maximize:
                torch._foreach_add_(device_grads, device_params, alpha=weight_decay)
            else:
                device_grads = torch._foreach_add(device_grads, device_params, alpha=weight_decay)

        # 中: 第 2、3 步：每个参数自己的 `-clr`；`sum += g * g`；`std = sqrt(sum) + eps`。
        # EN: Steps 2 and 3: each parameter's own `-clr`; `sum += g * g`;
        #     `std = sqrt(sum) + eps`.
        minus_clr = [-lr / (1 + (_get_value(step) - 1) * lr_decay) for step in device_steps]
        torch._foreach_addcmul_(device_sums, device_grads, device_grads, value=1)
        std = torch._foreach_sqrt(device_sums)
        torch._foreach_add_(std, eps)

        # 中: 第 4 步：分子 `numerator = -clr * g`，再 `p += numerator / std`。
        # EN: Step 4: the numerator `numerator = -clr * g`, then `p += numerator / std`.
        if weight_decay != 0 or maximize:
            torch._foreach_mul_(device_grads, minus_clr)
            numerator = device_grads
        else:
            numerator = torch._foreach_mul(device_grads, minus_clr)
        torch._foreach_addcdiv_(device_params, numerator, std)


def _fused_adagrad(
    params: list[Tensor],
    grads: list[Tensor],
    state_sums: list[Tensor],
    state_steps: list[Tensor],
    grad_scale: Tensor | None,
    found_inf: Tensor | None,
    *,
    lr: float | Tensor,
    weight_decay: float,
    lr_decay: float,
    eps: float,
    has_sparse_grad: bool,
    maximize: bool,
    differentiable: bool,
    has_complex: bool,
) -> None:
    r"""Adagrad through torch's fused kernel `torch._fused_adagrad_`. / 通过 torch 的融合内核 `torch._fused_adagrad_` 执行 Adagrad。

    === "中文"

        每个（设备, 类型）组：先用 foreach 给步数加一，再调用一次融合内核完成整步更新
        （衰减学习率、权重衰减、`maximize`、累加与除法都在内核里）。

        混合精度：`GradScaler` 给出的 `grad_scale` 与 `found_inf` 按设备各复制一份（缓存在
        字典里），内核用它们反缩放梯度，并在 `found_inf` 非零时跳过更新；跳过的那一步事后
        从步数里减掉 `found_inf`，使计数不变。

        学习率若是不在 CPU 上的张量，也按设备复制。注意：复制后 `lr` 这个变量本身被换成
        该设备上的副本，这一点与 torch 相同。

    === "English"

        For each (device, dtype) group: the step counts go up by one with foreach, then one
        call of the fused kernel does the whole update (decayed learning rate, weight decay,
        `maximize`, accumulation and division all inside the kernel).

        Mixed precision: the `grad_scale` and `found_inf` from `GradScaler` are copied once
        per device (cached in dicts); the kernel unscales the gradients with them and skips
        the update when `found_inf` is nonzero; afterwards `found_inf` is subtracted from the
        step counts, so a skipped step is not counted.

        A learning rate that is a tensor not on CPU is copied per device too. Note that after
        the copy the variable `lr` itself becomes that device's copy, as in torch.

    Args:
        params: Parameters to update in place. / 要就地更新的参数。
        grads: Their gradients. / 它们的梯度。
        state_sums: Their `sum`, updated in place. / 它们的 `sum`，就地更新。
        state_steps: Their step counts, incremented in place. / 它们的步数，就地加一。
        grad_scale: Gradient scale from `GradScaler`, or `None`. / 来自 `GradScaler` 的梯度缩放，或 `None`。
        found_inf: Inf flag from `GradScaler`, or `None`. / 来自 `GradScaler` 的 inf 标记，或 `None`。
        lr: Learning rate. / 学习率。
        weight_decay: L2 penalty. / L2 惩罚。
        lr_decay: Learning-rate decay per step. / 每步的学习率衰减。
        eps: Added to the square root of `sum`. / 加到 `sum` 的平方根上。
        has_sparse_grad: Must be false. / 必须为假。
        maximize: Maximize the objective. / 最大化目标。
        differentiable: Must be false. / 必须为假。
        has_complex: Must be false. / 必须为假。

    Raises:
        RuntimeError: Sparse gradients, complex parameters, or `differentiable=True`. / 稀疏梯度、复数参数或 `differentiable=True`。
    """
    if not params:
        return
    if has_sparse_grad or has_complex:
        raise RuntimeError("`fused` does not support sparse grad or complex param")
    if differentiable:
        raise RuntimeError("adagrad with fused=True does not support differentiable=True")

    # 中: 按设备缓存的副本，先放入张量本身（以它自己的设备为键），每个设备至多复制一次。
    #     CPU 上的张量学习率不复制，直接交给内核。
    # EN: Per-device caches of copies, seeded with the tensor itself under its own device,
    #     so each device gets at most one copy. A tensor learning rate on CPU is not copied
    #     and goes to the kernel as is.
    grad_scale_dict: _DeviceDict = {grad_scale.device: grad_scale} if grad_scale is not None else {}
    found_inf_dict: _DeviceDict = {found_inf.device: found_inf} if found_inf is not None else {}
    lr_dict: _DeviceDict | None = (
        {lr.device: lr} if isinstance(lr, Tensor) and str(lr.device) != "cpu" else None
    )

    # 中: 每个（设备, 类型）组调用一次内核；这里要用到组键里的设备。
    # EN: One kernel call per (device, dtype) group; the device from the group's key is
    #     needed here.
    grouped = Optimizer._group_tensors_by_device_and_dtype([params, grads, state_sums, state_steps])
    for (device, _), (
        (device_params, device_grads, device_sums, device_steps),
        _,
    ) in grouped.items():
        # 中: 取（或首次复制出）本设备上的缩放因子、inf 标记和学习率。
        # EN: Fetch (or copy, the first time) this device's scale, inf flag and learning rate.
        device_grad_scale, device_found_inf = None, None
        if grad_scale is not None:
            device_grad_scale = grad_scale_dict.setdefault(
                device, grad_scale.to(device, non_blocking=True)
            )
        # 中: `non_blocking=True`：复制与主机异步进行，不在这里同步等待。
        # EN: `non_blocking=True`: the copy runs asynchronously to the host, with no wait
        #     here.
        if found_inf is not None:
            device_found_inf = found_inf_dict.setdefault(
                device, found_inf.to(device, non_blocking=True)
            )
        if lr_dict is not None and device not in lr_dict:
            lr_dict[device] = lr.to(device=device, non_blocking=True)
            lr = lr_dict[device]

        # 中: 步数在内核之外加一；内核按加一后的步数计算衰减学习率。
        # EN: The step counts go up outside the kernel; the kernel computes the decayed
        #     learning rate from the incremented count.
        torch._foreach_add_(device_steps, 1)
        torch._fused_adagrad_(
            device_params,
            device_grads,
            device_sums,
            device_steps,
            # 中: 内核就地更新参数、`sum`；`grad_scale`/`found_inf` 为 `None` 时不做反缩放。
            # EN: The kernel updates the parameters and `sum` in place; with `grad_scale`
            #     and `found_inf` `None` it does no unscaling.
            lr=lr,
            lr_decay=lr_decay,
            weight_decay=weight_decay,
            eps=eps,
            maximize=maximize,
            grad_scale=device_grad_scale,
            found_inf=device_found_inf,
        )
        # 中: 发现 inf 的那一步不计数：把加上的 1 减回去（`found_inf` 为 1.0 或 0.0）。
        # EN: A step that found an inf does not count: the 1 added is taken back
        #     (`found_inf` is 1.0 or 0.0).
        if device_found_inf is not None:
            torch._foreach_sub_(device_steps, [device_found_inf] * len(device_steps))
