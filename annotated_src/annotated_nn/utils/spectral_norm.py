r"""Spectral normalization kept up to date by a forward pre-hook: `spectral_norm`. / 由前向预钩子维护的谱归一化：`spectral_norm`。

=== "中文"

    对应 `torch.nn.utils.spectral_norm`（论文 https://arxiv.org/abs/1802.05957）。谱归一化把
    权重（看成矩阵）除以它的谱范数（最大奇异值）`sigma`，使归一化后的矩阵最大奇异值约为 1，
    限制层把输入放大的程度；常用于稳定 GAN 判别器的训练。`sigma` 不做完整的奇异值分解，而是用
    幂迭代（power iteration）估计：模块上保存两个向量 `u`、`v`（近似的左、右奇异向量），
    训练模式下每次前向传播迭代 `n_power_iterations` 步（默认 1 步），`sigma = u · W · v`。

    与 [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm] 一样，这是第一代实现，
    完全建立在模块系统的公开机制上：原参数改名为 `weight_orig`，`u`、`v` 是缓冲区（buffer）
    `weight_u`、`weight_v`，归一化后的 `weight` 是普通属性，由前向预钩子
    [`SpectralNorm`][annotated_nn.utils.spectral_norm.SpectralNorm] 在每次调用前重算。

    状态字典（state_dict）的格式有过一次变化，于是它还在 `_metadata` 里记一个版本号
    （`spectral_norm` → `weight.version` = 1），并装了两个状态字典钩子：
    [`SpectralNormStateDictHook`][annotated_nn.utils.spectral_norm.SpectralNormStateDictHook]
    在保存时写版本号，
    [`SpectralNormLoadStateDictPreHook`][annotated_nn.utils.spectral_norm.SpectralNormLoadStateDictPreHook]
    在加载时把没有版本号的旧格式（有 `weight` 缓冲区、没有 `weight_v`）换算成新格式。

    1.5.1 → 2.13：算法与状态字典格式未变；新增了两项检查，拒绝惰性模块（lazy module）
    未初始化的参数和值为 `None` 的参数（都报 `ValueError`）。

=== "English"

    Mirrors `torch.nn.utils.spectral_norm` (paper: https://arxiv.org/abs/1802.05957). Spectral
    normalization divides a weight (viewed as a matrix) by its spectral norm (largest singular
    value) `sigma`, so the normalized matrix has a largest singular value of about 1, limiting
    how much the layer can stretch its input; it is commonly used to stabilize the training of
    GAN discriminators. `sigma` is not computed by a full singular value decomposition but
    estimated by power iteration: the module keeps two vectors `u` and `v` (approximate left and
    right singular vectors), advanced by `n_power_iterations` steps (default 1) per forward pass
    in training mode, and `sigma = u · W · v`.

    Like [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm] this is the
    first-generation implementation, built entirely on the module system's public mechanisms:
    the parameter is renamed `weight_orig`, `u` and `v` are the buffers `weight_u` and
    `weight_v`, and the normalized `weight` is a plain attribute recomputed before every call
    by the forward pre-hook [`SpectralNorm`][annotated_nn.utils.spectral_norm.SpectralNorm].

    The state_dict format changed once, so a version number is also recorded in `_metadata`
    (`spectral_norm` → `weight.version` = 1), and two state_dict hooks are installed:
    [`SpectralNormStateDictHook`][annotated_nn.utils.spectral_norm.SpectralNormStateDictHook]
    writes the version on saving, and
    [`SpectralNormLoadStateDictPreHook`][annotated_nn.utils.spectral_norm.SpectralNormLoadStateDictPreHook]
    converts the old format without a version (a `weight` buffer, no `weight_v`) on loading.

    1.5.1 → 2.13: the algorithm and the state_dict format are unchanged; two checks were
    added, refusing the uninitialized parameters of lazy modules and a parameter that is
    `None` (both with `ValueError`).
"""

from typing import TYPE_CHECKING, Any, TypeVar

import torch
import torch.nn.functional as F

from annotated_nn.parameter import Parameter, UninitializedParameter

# 中: 只为类型标注导入 `Module`：运行时导入会与 `module.py` 形成循环导入（原因见
# 中: `weight_norm.py` 的同一处）。
# EN: `Module` is imported for annotations only: a runtime import would be circular with
# EN: `module.py` (the reason is the same as in `weight_norm.py`).
if TYPE_CHECKING:
    from annotated_nn.modules.module import Module

__all__ = [
    "SpectralNorm",
    "SpectralNormLoadStateDictPreHook",
    "SpectralNormStateDictHook",
    "spectral_norm",
    "remove_spectral_norm",
]


class SpectralNorm:
    r"""The forward pre-hook that divides a weight by its estimated spectral norm. / 把权重除以估计出的谱范数的前向预钩子。

    === "中文"

        一个对象负责一个参数名 `name`，模块上对应 `name_orig`（参数）、`name_u`、`name_v`
        （缓冲区）与 `name`（算出的普通属性）。权重先被看成矩阵：把第 `dim` 维挪到最前，
        其余各维压平，形状 `(h, w)`；`u` 长 `h`，`v` 长 `w`。

        每次训练模式的前向传播之后成立的不变式是 `u = normalize(W_orig @ v)`；刚创建时 `u`、`v`
        是随机的单位向量，不满足它；优化器改过 `W_orig` 之后它也不成立，而评估模式的前向传播
        不迭代，不会恢复它。

        类属性 `_version` 是状态字典格式的版本。版本 1 相对于无版本号的旧格式：`weight`
        不再是缓冲区；`v` 成为缓冲区；评估模式改为由 `u`、`W_orig`、`v` 现算权重，而不是读
        保存下来的 `weight`。

    === "English"

        One object serves one parameter name `name`; the module then holds `name_orig` (a
        parameter), `name_u` and `name_v` (buffers) and `name` (a computed plain attribute).
        The weight is viewed as a matrix: dimension `dim` moved to the front and the others
        flattened, shape `(h, w)`; `u` has length `h`, `v` length `w`.

        The invariant after every training-mode forward pass is `u = normalize(W_orig @ v)`;
        right after creation `u` and `v` are random unit vectors and do not satisfy it; nor
        does it hold after an optimizer has changed `W_orig`, and an evaluation-mode forward
        pass, which does not iterate, does not restore it.

        The class attribute `_version` is the state_dict format's version. Version 1, compared
        with the old unversioned format: `weight` is no longer a buffer; `v` became a buffer;
        evaluation mode recomputes the weight from `u`, `W_orig` and `v` instead of reading a
        saved `weight`.

    Args:
        name: Name of the parameter. / 参数名。
        n_power_iterations: Power iteration steps per training forward pass. / 每次训练模式前向传播的幂迭代步数。
        dim: Dimension of the outputs, moved to the matrix's rows. / 输出所在的维度，作为矩阵的行。
        eps: Lower bound on norms when normalizing. / 归一化时范数的下限。
    """

    _version: int = 1
    name: str
    dim: int
    n_power_iterations: int
    eps: float

    def __init__(
        self,
        name: str = "weight",
        n_power_iterations: int = 1,
        dim: int = 0,
        eps: float = 1e-12,
    ) -> None:
        r"""Store the settings, refusing a non-positive step count. / 保存设置，拒绝非正的迭代步数。

        === "中文"

            只检查 `n_power_iterations`：至少要迭代一步，`u`、`v` 才会更新。

        === "English"

            Only `n_power_iterations` is checked: at least one step is needed for `u` and `v`
            to be updated at all.

        Args:
            name: Name of the parameter. / 参数名。
            n_power_iterations: Power iteration steps per training forward pass. / 每次训练模式前向传播的幂迭代步数。
            dim: Dimension of the outputs. / 输出所在的维度。
            eps: Lower bound on norms when normalizing. / 归一化时范数的下限。

        Raises:
            ValueError: `n_power_iterations` is not positive. / `n_power_iterations` 不是正数。
        """
        # 中: `name` 与 `dim` 先存下，再检查步数；报错文字与 torch 相同。
        # EN: `name` and `dim` are stored first, then the step count is checked; the message is
        # EN: torch's.
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}"
            )
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight: torch.Tensor) -> torch.Tensor:
        r"""View a weight of any rank as an `(h, w)` matrix. / 把任意维数的权重看成 `(h, w)` 矩阵。

        === "中文"

            第 `dim` 维成为行（`h` 为它的长度），其余各维按原顺序压平成列。卷积权重
            `(out, in, kh, kw)` 在 `dim=0` 时得到 `(out, in*kh*kw)`；转置卷积的权重是
            `(in, out, ...)`，所以它用 `dim=1`。

        === "English"

            Dimension `dim` becomes the rows (`h` is its length), the other dimensions are
            flattened in order into columns. A convolution weight `(out, in, kh, kw)` with
            `dim=0` gives `(out, in*kh*kw)`; a transposed convolution's weight is
            `(in, out, ...)`, hence `dim=1` for it.

        Args:
            weight: The weight tensor. / 权重张量。

        Returns:
            A 2-D tensor (a view where possible). / 二维张量（能共用存储时是视图）。
        """
        # 中: `permute` 之后张量不再连续，所以用 `reshape`（必要时复制）而不是 `view`。
        # EN: After `permute` the tensor is not contiguous, hence `reshape` (copying if needed)
        # EN: rather than `view`.
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(
                self.dim, *[d for d in range(weight_mat.dim()) if d != self.dim]
            )
        height = weight_mat.size(0)
        return weight_mat.reshape(height, -1)

    def compute_weight(self, module: "Module", do_power_iteration: bool) -> torch.Tensor:
        r"""Return `W_orig / sigma`, optionally advancing `u` and `v` first. / 返回 `W_orig / sigma`，可选地先推进 `u` 与 `v`。

        === "中文"

            步骤：

            1. （仅当 `do_power_iteration`）在 `torch.no_grad()` 下做 `n_power_iterations` 步
               幂迭代：`v = normalize(W^T u)`，`u = normalize(W v)`，结果**就地**写回缓冲区；
               然后复制一份 `u`、`v` 供下一步使用；
            2. `sigma = u · (W v)`，返回 `W_orig / sigma`。梯度经 `sigma` 与除法流回
               `W_orig`，`u`、`v` 被当作常数。

            为什么就地写：在 `DataParallel` 中，第一个设备上的副本（replica）与原模块共用
            缓冲区的存储，就地更新才能传回原模块；若只是给属性重新赋值，更新只落在临时副本上，
            下一次复制时又从旧的随机向量开始。

            为什么之后还要复制：就地修改会让前一次前向传播为反向传播保存的 `u`、`v` 失效。
            GAN 训练里常见 `loss = D(real) - D(fake)`，两次前向传播共用一次反向传播；
            用复制出来的 `u`、`v` 计算 `sigma`，第二次前向传播的就地更新就不会破坏第一次的计算图。

        === "English"

            Steps:

            1. (only if `do_power_iteration`) under `torch.no_grad()`, `n_power_iterations`
               steps of power iteration: `v = normalize(W^T u)`, `u = normalize(W v)`, written
               **in-place** into the buffers; then `u` and `v` are cloned for the next step;
            2. `sigma = u · (W v)`, and `W_orig / sigma` is returned. Gradients reach `W_orig`
               through `sigma` and the division; `u` and `v` act as constants.

            Why in-place: in `DataParallel` the replica on the first device shares the
            buffers' storage with the original module, so only an in-place update makes it
            back; rebinding the attribute would update a throwaway replica, and the next
            replication would start from the old random vectors again.

            Why the clone afterwards: the in-place write would invalidate the `u` and `v` an
            earlier forward pass saved for its backward pass. GAN training often does
            `loss = D(real) - D(fake)`, two forward passes and one backward pass; computing
            `sigma` from clones keeps the second pass's in-place update from breaking the
            first pass's graph.

        Args:
            module: The module holding `name_orig`, `name_u`, `name_v`. / 持有 `name_orig`、`name_u`、`name_v` 的模块。
            do_power_iteration: Whether to advance `u` and `v`. / 是否推进 `u` 与 `v`。

        Returns:
            The normalized weight. / 归一化后的权重。
        """
        # 中: 三个张量每次经 `getattr` 现取：`load_state_dict(assign=True)` 或 `_apply`
        # 中: （如 `.to()`）可能已换掉缓冲区对象。`weight_mat` 是 `W_orig` 的矩阵形式，
        # 中: 梯度经它流回 `W_orig`。
        # EN: The three tensors are fetched with `getattr` on every call:
        # EN: `load_state_dict(assign=True)` or `_apply` (as in `.to()`) may have replaced the
        # EN: buffer objects. `weight_mat` is the matrix form of `W_orig`, through which gradients
        # EN: flow back to `W_orig`.
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)

        # 中: 第 1 步：`out=` 让 `F.normalize` 把结果写进缓冲区已有的存储（形状一致时只填值），
        # 中: 返回的正是缓冲区本身。先 `v` 后 `u`，顺序决定数值，必须与 torch 一致。
        # EN: Step 1: `out=` makes `F.normalize` write into the buffer's existing storage (with a
        # EN: matching shape it only fills in values) and return that very buffer. `v` first,
        # EN: then `u`: the order decides the numbers and must be torch's.
        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    v = F.normalize(torch.mv(weight_mat.t(), u), dim=0, eps=self.eps, out=v)
                    u = F.normalize(torch.mv(weight_mat, v), dim=0, eps=self.eps, out=u)
                # 中: 复制出独立的 `u`、`v` 给第 2 步用（原因见文档字符串）。`__init__` 拒绝非正的
                # 中: 步数，但属性事后仍可改成 0：那时缓冲区没被改写，也就不必复制。
                # EN: Independent clones of `u` and `v` for step 2 (see the docstring for why).
                # EN: `__init__` refuses a non-positive count, but the attribute can be set to 0
                # EN: later: then the buffers were not written and need no clone.
                if self.n_power_iterations > 0:
                    u = u.clone(memory_format=torch.contiguous_format)
                    v = v.clone(memory_format=torch.contiguous_format)

        # 中: 第 2 步：在 `no_grad` 之外计算，`sigma` 对 `weight` 可导。
        # EN: Step 2: computed outside `no_grad`, so `sigma` is differentiable in `weight`.
        sigma = torch.dot(u, torch.mv(weight_mat, v))
        weight = weight / sigma
        return weight

    def remove(self, module: "Module") -> None:
        r"""Turn the normalized weight back into a plain parameter. / 把归一化后的权重变回普通参数。

        === "中文"

            用当前的 `u`、`v` 算一次权重（不迭代、不记录计算图），删掉普通属性 `name`、两个
            缓冲区与 `name_orig`，再把结果作为新的 [`Parameter`][annotated_nn.parameter.Parameter]
            登记为 `name`。注意：得到的是除以 `sigma` 之后的值，而不是 `name_orig`。

        === "English"

            Computes the weight once from the current `u` and `v` (no iteration, no graph),
            deletes the plain attribute `name`, the two buffers and `name_orig`, then registers
            the result as a new [`Parameter`][annotated_nn.parameter.Parameter] under `name`.
            Mind that the value is the one divided by `sigma`, not `name_orig`.

        Args:
            module: The module to restore. / 要复原的模块。
        """
        # 中: 登记之前必须先删掉普通属性 `name`：`register_parameter` 遇到已存在的非参数属性
        # 中: `name` 会报 KeyError。新参数是新对象，优化器里的 `name_orig` 就此失效，需要重建优化器。
        # EN: The plain attribute `name` must be gone before registering: `register_parameter`
        # EN: raises KeyError for an existing non-parameter attribute `name`. The new parameter
        # EN: is a new object, so an optimizer holding `name_orig` must be rebuilt.
        with torch.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module: "Module", inputs: Any) -> None:
        r"""Forward pre-hook: refresh `name`, iterating only in training mode. / 前向预钩子：刷新 `name`，只在训练模式下迭代。

        === "中文"

            训练模式下推进 `u`、`v` 再算权重；评估模式下用保存的 `u`、`v` 直接算，
            所以评估时 `weight_u`、`weight_v` 保持不变，同一输入的输出也不变。

        === "English"

            In training mode `u` and `v` are advanced before computing the weight; in
            evaluation mode the saved `u` and `v` are used as they are, so `weight_u` and
            `weight_v` stay unchanged and the same input gives the same output.

        Args:
            module: The module about to run. / 即将运行的模块。
            inputs: Its positional inputs (unused). / 它的位置参数输入（未使用）。
        """
        setattr(
            module,
            self.name,
            self.compute_weight(module, do_power_iteration=module.training),
        )

    def _solve_v_and_rescale(
        self, weight_mat: torch.Tensor, u: torch.Tensor, target_sigma: torch.Tensor
    ) -> torch.Tensor:
        r"""Find `v` with `u = normalize(W @ v)` and `u @ W @ v = target_sigma`. / 求 `v`，使 `u = normalize(W @ v)` 且 `u @ W @ v = target_sigma`。

        === "中文"

            只在加载旧格式的状态字典时使用：旧格式没有保存 `v`。先取 `W v = u` 的最小二乘解
            `v = (W^T W)^+ W^T u`（用伪逆，`W^T W` 不可逆时也能算），再整体缩放，使
            `u · W v` 等于旧格式隐含的 `sigma`。

        === "English"

            Used only when loading an old-format state_dict, which saved no `v`. It takes the
            least-squares solution of `W v = u`, `v = (W^T W)^+ W^T u` (a pseudo-inverse, so a
            singular `W^T W` is fine), then scales it so that `u · W v` equals the `sigma`
            implied by the old format.

        Args:
            weight_mat: `W_orig` as a matrix. / 矩阵形式的 `W_orig`。
            u: The saved `u` vector. / 保存下来的 `u` 向量。
            target_sigma: The `sigma` to reproduce. / 要重现的 `sigma`。

        Returns:
            The vector `v` (scaled in place). / 向量 `v`（就地缩放）。
        """
        v = torch.linalg.multi_dot(
            [weight_mat.t().mm(weight_mat).pinverse(), weight_mat.t(), u.unsqueeze(1)]
        ).squeeze(1)
        return v.mul_(target_sigma / torch.dot(u, torch.mv(weight_mat, v)))

    @staticmethod
    def apply(
        module: "Module", name: str, n_power_iterations: int, dim: int, eps: float
    ) -> "SpectralNorm":
        r"""Rename the parameter, add `u` and `v`, and install the three hooks. / 改名参数、添加 `u` 与 `v`，并装上三个钩子。

        === "中文"

            步骤：

            1. 拒绝同一参数名上的第二个 `SpectralNorm` 钩子；
            2. 取参数（必须在 `_parameters` 里），拒绝 `None` 与惰性模块未物化（materialize）的参数；
            3. 用随机正态向量归一化得到初始 `u`、`v`（先 `u` 后 `v`，消耗随机数的顺序与 torch 一致）；
            4. 原参数对象改名为 `name_orig`，`name` 成为普通属性 `weight.data`，
               `u`、`v` 登记为缓冲区；
            5. 注册前向预钩子、状态字典钩子与加载预钩子。

            原参数对象没有换：优化器里登记的参数就是现在的 `name_orig`，不必重建优化器。

        === "English"

            Steps:

            1. refuse a second `SpectralNorm` hook on the same parameter name;
            2. fetch the parameter (it must be in `_parameters`) and refuse `None` and a lazy
               module's parameter that is not materialized yet;
            3. draw the initial `u` and `v` as normalized random normal vectors (`u` first, then
               `v`: random numbers are consumed in torch's order);
            4. rename the original parameter object to `name_orig`, make `name` the plain
               attribute `weight.data`, register `u` and `v` as buffers;
            5. register the forward pre-hook, the state_dict hook and the load pre-hook.

            The parameter object itself is kept: what an optimizer holds is now `name_orig`,
            so the optimizer need not be rebuilt.

        Args:
            module: The module to modify. / 要修改的模块。
            name: Name of the parameter. / 参数名。
            n_power_iterations: Power iteration steps per training forward pass. / 每次训练模式前向传播的幂迭代步数。
            dim: Dimension of the outputs. / 输出所在的维度。
            eps: Lower bound on norms when normalizing. / 归一化时范数的下限。

        Returns:
            The installed hook. / 装上的钩子。

        Raises:
            RuntimeError: A spectral_norm hook already exists for `name`, or `dim` out of range (from `permute`). / `name` 上已有 spectral_norm 钩子，或 `dim` 越界（由 `permute` 报出）。
            ValueError: Bad step count, a `None` or uninitialized parameter. / 迭代步数不合法，或参数为 `None`、未初始化。
            KeyError: `name` is not a parameter. / `name` 不是参数。
        """
        # 中: 第 1 步：在改动模块之前检查；按名字比较，不同参数可以各自归一化。
        # EN: Step 1: checked before the module is touched; names are compared, so different
        # EN: parameters may each be normalized.
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two spectral_norm hooks on the same parameter {name}"
                )

        # 中: 第 2 步：步数检查在构造 `SpectralNorm` 时发生，早于参数检查。直接读 `_parameters`
        # 中: （不是 `getattr`），所以缓冲区或普通属性的名字报 KeyError。未初始化参数的检查认的是
        # 中: annotated_nn 的 `UninitializedParameter`，报错文字与 torch 相同。
        # EN: Step 2: the step count is checked when `SpectralNorm` is built, before the
        # EN: parameter. `_parameters` is read directly (not `getattr`), so the name of a buffer
        # EN: or plain attribute raises KeyError. The uninitialized check recognizes annotated_nn's
        # EN: `UninitializedParameter`; the message is torch's.
        hook = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        if weight is None:
            raise ValueError(f"`SpectralNorm` cannot be applied as parameter `{name}` is None")
        if isinstance(weight, UninitializedParameter):
            raise ValueError(
                "The module passed to `SpectralNorm` can't have uninitialized parameters. "
                "Make sure to run the dummy forward before applying spectral normalization"
            )

        # 中: 第 3 步：`new_empty` 让 `u`、`v` 与权重同设备同 dtype。
        # EN: Step 3: `new_empty` puts `u` and `v` on the weight's device and dtype.
        with torch.no_grad():
            weight_mat = hook.reshape_weight_to_matrix(weight)
            height, width = weight_mat.size()
            u = F.normalize(weight.new_empty(height).normal_(0, 1), dim=0, eps=hook.eps)
            v = F.normalize(weight.new_empty(width).normal_(0, 1), dim=0, eps=hook.eps)

        # 中: 第 4 步：`name` 仍要存在，因为别的代码（例如初始化函数）会读 `module.weight`。
        # 中: 但不能赋 Parameter（那会再登记成参数），所以赋 `weight.data`：普通张量，成为
        # 中: 普通属性，与 `name_orig` 共用存储，直到第一次前向传播把它换成算出的权重。
        # EN: Step 4: `name` must still exist, since other code (initializers, say) reads
        # EN: `module.weight`. A Parameter cannot be assigned (it would be registered again), so
        # EN: `weight.data` is: a plain tensor, hence a plain attribute, sharing storage with
        # EN: `name_orig` until the first forward pass replaces it by the computed weight.
        delattr(module, hook.name)
        module.register_parameter(hook.name + "_orig", weight)
        setattr(module, hook.name, weight.data)
        module.register_buffer(hook.name + "_u", u)
        module.register_buffer(hook.name + "_v", v)

        # 中: 第 5 步：三个钩子共享同一个 `hook`（从中读 `name` 与 `_version`）。
        # EN: Step 5: the three hooks share the same `hook` (reading `name` and `_version` from it).
        module.register_forward_pre_hook(hook)
        module._register_state_dict_hook(SpectralNormStateDictHook(hook))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(hook))
        return hook


class SpectralNormLoadStateDictPreHook:
    r"""Load pre-hook converting unversioned state_dicts to version 1. / 把无版本号的状态字典换算成版本 1 的加载预钩子。

    === "中文"

        旧格式（版本 `None`）保存的是 `weight_orig`、`weight_u` 与缓冲区 `weight`
        （`= W_orig / sigma`），没有 `weight_v`。假定它至少经过一次训练模式的前向传播，就有
        `u = normalize(W_orig @ v)` 且 `W = W_orig / sigma`，其中 `sigma = u @ W_orig @ v`。
        于是：

        1. `sigma` 取 `W_orig / W` 各元素的平均；
        2. 解 `W_orig @ x = u` 得方向，再缩放到 `u @ W_orig @ v = sigma`，作为 `weight_v`；
        3. 从状态字典里去掉 `weight`，写入 `weight_v`。

        换算在本模块的 `_load_from_state_dict` 检查键之前就地完成，之后按版本 1 正常加载。

        解出的是 `W_orig @ v = sigma * u`，所以评估模式下 `W_orig / (u @ W_orig @ v)` 在舍入误差内
        重现保存的 `weight`。`v` 本身只有在矩阵 `W_orig` 的列数不多于行数时才被还原；列数更多时
        `W_orig^T @ W_orig` 奇异，解出的 `v` 一般不是单位向量（float32 下范数可能远大于 1），
        直到下一次训练模式的前向传播把它归一化。保存的 `weight` 里只要有一个 0（`W_orig`
        对应元素也是 0），`0 / 0` 就让 `sigma` 与 `weight_v` 全是 NaN。

    === "English"

        The old format (version `None`) saved `weight_orig`, `weight_u` and a `weight` buffer
        (`= W_orig / sigma`), but no `weight_v`. Assuming it went through at least one forward
        pass in training mode, `u = normalize(W_orig @ v)` and `W = W_orig / sigma` with
        `sigma = u @ W_orig @ v`. Hence:

        1. `sigma` is the mean of `W_orig / W` over all elements;
        2. solve `W_orig @ x = u` for the direction and scale it so that
           `u @ W_orig @ v = sigma`: that is `weight_v`;
        3. drop `weight` from the state_dict and put `weight_v` in.

        The conversion happens in place before this module's `_load_from_state_dict` checks
        the keys; loading then proceeds as for version 1.

        What gets solved is `W_orig @ v = sigma * u`, so in evaluation mode
        `W_orig / (u @ W_orig @ v)` reproduces the saved `weight` up to rounding. `v` itself is
        recovered only when the matrix `W_orig` has no more columns than rows; with more
        columns `W_orig^T @ W_orig` is singular and the `v` found is generally no unit vector
        (in float32 its norm can be far above 1) until the next training-mode forward pass
        normalizes it. A single 0 in the saved `weight` (its `W_orig` element is 0 too) makes
        `0 / 0`, and `sigma` and `weight_v` come out all NaN.

    Args:
        fn: The `SpectralNorm` hook of the parameter. / 该参数的 `SpectralNorm` 钩子。
    """

    def __init__(self, fn: SpectralNorm) -> None:
        r"""Keep the `SpectralNorm` whose name and helpers are used. / 保存要用到其名字与辅助方法的 `SpectralNorm`。

        === "中文"

            参数名与矩阵变形、求解 `v` 的方法都从 `fn` 取。

        === "English"

            The parameter name and the reshaping and `v`-solving methods all come from `fn`.

        Args:
            fn: The `SpectralNorm` hook. / `SpectralNorm` 钩子。
        """
        self.fn = fn

    def __call__(
        self,
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
        strict: bool,
        missing_keys: list[str],
        unexpected_keys: list[str],
        error_msgs: list[str],
    ) -> None:
        r"""Convert `state_dict` in place if it is of version `None` or 0. / 若 `state_dict` 为版本 `None` 或 0，就地换算。

        === "中文"

            判断顺序：

            1. 版本号取自本模块的 `local_metadata["spectral_norm"]["<name>.version"]`；
               版本 ≥ 1 时什么也不做；
            2. 没有版本号，但已有 `_orig`、`_u`、`_v` 三个键且没有 `<name>` 键：这是新格式，
               只是缺了元数据（例如用户自己拼出来的状态字典），按新格式处理；
            3. 换算要用的 `_orig`、`<name>`、`_u` 缺了任何一个就放弃换算，`strict` 为真时把缺的键
               加进 `missing_keys`。`load_state_dict` 总是传 `strict=True` 给各模块（用户的
               `strict` 只在最后决定报不报错），所以经由它加载时这些键总会被记录：
               `strict=False` 时它们出现在返回值的 `missing_keys` 里；
            4. 否则按类文档字符串的步骤换算。

        === "English"

            Decision order:

            1. the version comes from this module's
               `local_metadata["spectral_norm"]["<name>.version"]`; at version ≥ 1 nothing
               happens;
            2. no version, but the three keys `_orig`, `_u`, `_v` present and no `<name>` key:
               the new format merely missing its metadata (a state_dict crafted by hand, say),
               taken as new;
            3. if any of `_orig`, `<name>`, `_u`, needed by the conversion, is missing, the
               conversion is given up, and with `strict` true the missing keys are added to
               `missing_keys`. `load_state_dict` always passes `strict=True` to each module (the
               user's `strict` only decides at the end whether to raise), so through it these
               keys are always recorded: with `strict=False` they show up in the returned
               `missing_keys`;
            4. otherwise the conversion of the class docstring runs.

        Args:
            state_dict: The whole state_dict being loaded. / 正在加载的完整状态字典。
            prefix: This module's key prefix. / 本模块键的前缀。
            local_metadata: This module's `_metadata` entry. / 本模块的 `_metadata` 项。
            strict: Whether loading is strict. / 是否严格加载。
            missing_keys: List collecting missing keys. / 收集缺失的键的列表。
            unexpected_keys: List collecting unexpected keys (unused). / 收集多余的键的列表（未使用）。
            error_msgs: List collecting error messages (unused). / 收集错误信息的列表（未使用）。
        """
        fn = self.fn
        # 中: 第 1 步：元数据里没有 `spectral_norm` 项时版本为 `None`。
        # EN: Step 1: without a `spectral_norm` entry in the metadata the version is `None`.
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is None or version < 1:
            weight_key = prefix + fn.name
            # 中: 第 2 步：只对版本 `None` 这样宽容；明确写着版本 0 的状态字典总要换算。
            # EN: Step 2: only version `None` gets this leniency; an explicit version 0 is always
            # EN: converted.
            if (
                version is None
                and all(weight_key + s in state_dict for s in ("_orig", "_u", "_v"))
                and weight_key not in state_dict
            ):
                return
            # 中: 第 3 步：缺键时不报错，只在 `strict` 为真时记录（经 `load_state_dict` 调用时总是如此），
            # 中: 由 `load_state_dict` 最后统一报告或返回。只有直接以 `strict=False` 调用才不记录。
            # EN: Step 3: a missing key raises nothing here; it is recorded when `strict` is true
            # EN: (always so when called through `load_state_dict`), which reports or returns
            # EN: them at the end. Only a direct call with `strict=False` records nothing.
            has_missing_keys = False
            for suffix in ("_orig", "", "_u"):
                key = weight_key + suffix
                if key not in state_dict:
                    has_missing_keys = True
                    if strict:
                        missing_keys.append(key)
            if has_missing_keys:
                return
            # 中: 第 4 步：`pop` 去掉旧的 `weight` 键，否则它会被报告为多余的键。
            # EN: Step 4: `pop` removes the old `weight` key, which would otherwise be reported as
            # EN: unexpected.
            with torch.no_grad():
                weight_orig = state_dict[weight_key + "_orig"]
                weight = state_dict.pop(weight_key)
                sigma = (weight_orig / weight).mean()
                weight_mat = fn.reshape_weight_to_matrix(weight_orig)
                u = state_dict[weight_key + "_u"]
                v = fn._solve_v_and_rescale(weight_mat, u, sigma)
                state_dict[weight_key + "_v"] = v


class SpectralNormStateDictHook:
    r"""State_dict hook recording the format version in `_metadata`. / 在 `_metadata` 中记录格式版本的状态字典钩子。

    === "中文"

        保存时在本模块的元数据里写 `local_metadata["spectral_norm"]["<name>.version"] =
        SpectralNorm._version`（即 1）。同一模块的多个参数各占一个键。加载时
        [`SpectralNormLoadStateDictPreHook`][annotated_nn.utils.spectral_norm.SpectralNormLoadStateDictPreHook]
        读这个版本号决定要不要换算。

    === "English"

        On saving it writes `local_metadata["spectral_norm"]["<name>.version"] =
        SpectralNorm._version` (that is 1) into this module's metadata. Several parameters of
        one module get one key each. On loading,
        [`SpectralNormLoadStateDictPreHook`][annotated_nn.utils.spectral_norm.SpectralNormLoadStateDictPreHook]
        reads the version to decide whether to convert.

    Args:
        fn: The `SpectralNorm` hook of the parameter. / 该参数的 `SpectralNorm` 钩子。
    """

    def __init__(self, fn: SpectralNorm) -> None:
        r"""Keep the `SpectralNorm` whose name and version are recorded. / 保存要记录其名字与版本的 `SpectralNorm`。

        === "中文"

            名字与版本号都从 `fn` 读取。

        === "English"

            Both the name and the version are read from `fn`.

        Args:
            fn: The `SpectralNorm` hook. / `SpectralNorm` 钩子。
        """
        self.fn = fn

    def __call__(
        self,
        module: "Module",
        state_dict: dict[str, Any],
        prefix: str,
        local_metadata: dict[str, Any],
    ) -> None:
        r"""Write `<name>.version` into `local_metadata["spectral_norm"]`. / 把 `<name>.version` 写进 `local_metadata["spectral_norm"]`。

        === "中文"

            作为私有的状态字典后钩子运行，返回 `None`，不替换结果。若同一个键已经存在
            （同一参数名的钩子被装了两次），报 RuntimeError。

        === "English"

            Runs as a private state_dict post-hook and returns `None`, replacing nothing. If the
            key is already there (a hook for the same name installed twice), RuntimeError.

        Args:
            module: The module being saved. / 正在保存的模块。
            state_dict: The destination dict (unused). / 目标字典（未使用）。
            prefix: This module's key prefix (unused). / 本模块键的前缀（未使用）。
            local_metadata: This module's `_metadata` entry. / 本模块的 `_metadata` 项。

        Raises:
            RuntimeError: The version key was already written. / 版本键已被写过。
        """
        # 中: 同一模块上每个被归一化的参数共用一个 `spectral_norm` 字典，第一个钩子负责创建它。
        # EN: All normalized parameters of one module share one `spectral_norm` dict; the first
        # EN: hook creates it.
        if "spectral_norm" not in local_metadata:
            local_metadata["spectral_norm"] = {}
        key = self.fn.name + ".version"
        if key in local_metadata["spectral_norm"]:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        local_metadata["spectral_norm"][key] = self.fn._version


# 中: 返回类型与传入的模块类型相同；`bound` 写成字符串，运行时不必导入 `Module`。
# EN: The return type is the module type passed in; the `bound` is a string, so `Module` need
# EN: not be imported at runtime.
T_module = TypeVar("T_module", bound="Module")


def spectral_norm(
    module: T_module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> T_module:
    r"""Apply spectral normalization to a parameter of `module`. / 对 `module` 的一个参数施加谱归一化。

    === "中文"

        把参数 `name` 改名为 `name_orig`，添加缓冲区 `name_u`、`name_v`，并装上在每次前向传播前
        重算 `name = name_orig / sigma` 的 [`SpectralNorm`][annotated_nn.utils.spectral_norm.SpectralNorm]
        前向预钩子。训练模式下每次前向传播做 `n_power_iterations` 步幂迭代更新 `u`、`v`；
        评估模式下不迭代。

        `dim` 默认为 `0`，只有转置卷积（`ConvTranspose1d/2d/3d`，按 annotated_nn 的类判断）
        默认为 `1`，因为它们的权重把输出通道放在第 1 维。状态字典的键是 `name_orig`、
        `name_u`、`name_v`，`_metadata` 里多一项 `spectral_norm` 版本号。

        注意它没有像 [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm] 那样弃用，
        不发出警告。

    === "English"

        Renames the parameter `name` to `name_orig`, adds the buffers `name_u` and `name_v`, and
        installs the [`SpectralNorm`][annotated_nn.utils.spectral_norm.SpectralNorm] forward
        pre-hook that recomputes `name = name_orig / sigma` before every forward pass. In
        training mode each forward pass runs `n_power_iterations` power iteration steps
        updating `u` and `v`; in evaluation mode there is no iteration.

        `dim` defaults to `0`, except for transposed convolutions (`ConvTranspose1d/2d/3d`,
        checked against annotated_nn's classes), where it is `1` because their weights keep
        the output channels in dimension 1. The state_dict keys are `name_orig`, `name_u` and
        `name_v`, and `_metadata` gains a `spectral_norm` version entry.

        Unlike [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm] it is not
        deprecated and emits no warning.

    Args:
        module: The module to modify. / 要修改的模块。
        name: Name of the parameter. / 参数名。
        n_power_iterations: Power iteration steps per training forward pass. / 每次训练模式前向传播的幂迭代步数。
        eps: Lower bound on norms when normalizing. / 归一化时范数的下限。
        dim: Dimension of the outputs; `None` picks 0 or 1 as above. / 输出所在的维度；`None` 按上文取 0 或 1。

    Returns:
        The same module, modified in place. / 就地修改后的同一个模块。

    Raises:
        RuntimeError: `name` already has a spectral_norm hook, or `dim` out of range (from `permute`). / `name` 上已有 spectral_norm 钩子，或 `dim` 越界（由 `permute` 报出）。
        ValueError: Bad step count, a `None` or uninitialized parameter. / 迭代步数不合法，或参数为 `None`、未初始化。
        KeyError: `name` is not a parameter. / `name` 不是参数。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.spectral_norm import spectral_norm
        >>> m = spectral_norm(nn.Linear(20, 40))
        >>> m.weight_u.size(), m.weight_v.size()
        (torch.Size([40]), torch.Size([20]))
        >>> list(m.state_dict())
        ['bias', 'weight_orig', 'weight_u', 'weight_v']
        >>> m.state_dict()._metadata[""]["spectral_norm"]
        {'weight.version': 1}
    """
    # 中: 延迟导入：`conv.py` 依赖 `module.py`，而本文件会在 `module.py` 导入期间被导入。
    # 中: 惰性转置卷积是这些类的子类，同样得到 `1`（随后因参数未初始化而报错）。
    # EN: Imported lazily: `conv.py` depends on `module.py`, and this file is imported while
    # EN: `module.py` is. Lazy transposed convolutions subclass these classes and also get `1`
    # EN: (then fail on their uninitialized parameter).
    from annotated_nn.modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d

    if dim is None:
        if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)):
            dim = 1
        else:
            dim = 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module: T_module, name: str = "weight") -> T_module:
    r"""Undo [`spectral_norm`][annotated_nn.utils.spectral_norm.spectral_norm] on `name`. / 撤销 `name` 上的谱归一化。

    === "中文"

        找到 `name` 对应的 [`SpectralNorm`][annotated_nn.utils.spectral_norm.SpectralNorm]
        前向预钩子，把当前归一化后的权重变回普通参数 `name`，删掉这个钩子和它的状态字典钩子。

        与 torch 2.13 相同的一个坑：**加载预钩子留在模块上**（原因见代码注释）。于是之后对
        这个模块严格加载它自己的状态字典会失败，报告 `name_orig`、`name_u` 缺失；
        `strict=False` 可以加载（返回值的 `missing_keys` 里仍列着这两个键），或者重新套上
        `spectral_norm`。

    === "English"

        Finds the [`SpectralNorm`][annotated_nn.utils.spectral_norm.SpectralNorm] forward
        pre-hook of `name`, turns the current normalized weight back into a plain parameter
        `name`, and deletes this hook and its state_dict hook.

        A pitfall shared with torch 2.13: **the load pre-hook stays on the module** (the code's
        notes say why). A strict load of the module's own state_dict then fails, reporting
        `name_orig` and `name_u` missing; `strict=False` loads (still listing those two keys in
        the returned `missing_keys`), or apply `spectral_norm` again.

    Args:
        module: The module to restore. / 要复原的模块。
        name: Name of the parameter. / 参数名。

    Returns:
        The same module. / 同一个模块。

    Raises:
        ValueError: No spectral_norm hook for `name`. / `name` 上没有 spectral_norm 钩子。

    Examples:
        >>> import annotated_nn as nn
        >>> from annotated_nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
        >>> m = remove_spectral_norm(spectral_norm(nn.Linear(40, 10)))
        >>> list(m.state_dict())
        ['bias', 'weight']
    """
    # 中: 先找前向预钩子：找不到就报错，模块保持原样。
    # EN: The forward pre-hook first: if none is found the error leaves the module untouched.
    for hook_id, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[hook_id]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")

    # 中: 再删保存版本号的状态字典钩子：私有接口注册的钩子原样存在表里，`isinstance` 认得出。
    # EN: Then the state_dict hook writing the version: hooks of the private interface are
    # EN: stored as they are, so `isinstance` recognizes it.
    for hook_id, hook in module._state_dict_hooks.items():
        if isinstance(hook, SpectralNormStateDictHook) and hook.fn.name == name:
            del module._state_dict_hooks[hook_id]
            break

    # 中: 加载预钩子不删。torch 的这个函数在这里还会在 `_load_state_dict_pre_hooks` 中找
    # 中: `SpectralNormLoadStateDictPreHook`，但模块把每个加载预钩子都包在 `_WrappedHook` 里存放，
    # 中: `isinstance` 永远不成立，那次查找从不生效。我们省去这段不起作用的查找，结果相同：
    # 中: 钩子留下，且它看不到版本号（状态字典钩子已删），会把只有 `name` 的状态字典当旧格式。
    # EN: The load pre-hook is not deleted. torch's function also searches
    # EN: `_load_state_dict_pre_hooks` for a `SpectralNormLoadStateDictPreHook` here, but the
    # EN: module stores every load pre-hook wrapped in a `_WrappedHook`, so `isinstance` never
    # EN: holds and that search never takes effect. We leave out the search that does nothing;
    # EN: the result is the same: the hook stays and, seeing no version (the state_dict hook is
    # EN: gone), takes a state_dict holding only `name` for the old format.
    return module
