r"""Ready-made parametrizations: `orthogonal`, `weight_norm`, `spectral_norm`; mirrors `torch.nn.utils.parametrizations`. / 现成的参数化：`orthogonal`、`weight_norm`、`spectral_norm`，对应 `torch.nn.utils.parametrizations`。

=== "中文"

    这三个函数都只是把一个小模块交给
    [`register_parametrization`][annotated_nn.utils.parametrize.register_parametrization]：

    | 函数 | 参数化模块 | 原始张量 | 读取 `module.weight` 得到 |
    | --- | --- | --- | --- |
    | `orthogonal` | `_Orthogonal` | `original`（默认外加缓冲区 `base`） | 正交（复数时为酉）矩阵 |
    | `weight_norm` | `_WeightNorm` | `original0` = `g`，`original1` = `v` | `g * v / ‖v‖` |
    | `spectral_norm` | `_SpectralNorm` | `original`（外加缓冲区 `_u`、`_v`） | `W / σ(W)` |

    参数化模块都是 annotated_nn 的 [`Module`][annotated_nn.modules.module.Module]，
    类名与 torch 相同，所以参数化后模型的 repr 和状态字典（state_dict）的键与 torch 完全一样，
    例如 `parametrizations.weight.original0`、`parametrizations.weight.0._u`；
    两边的状态字典可以互相加载。

    与旧的 [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm]、
    [`spectral_norm`][annotated_nn.utils.spectral_norm.spectral_norm]（前向预钩子（forward pre-hook）
    在每次前向传播（forward pass）前重算 `weight`）不同，这里的 `weight` 在每次读取时计算，
    于是任何读到它的代码（不只是 `forward`）都看到约束后的值。

    惰性模块（lazy module）没有特殊处理，与 torch 相同：未初始化参数（uninitialized parameter）
    被当成一维张量，`orthogonal` 因此报"不是矩阵"；`weight_norm` 与 `spectral_norm`
    在读取它的形状时报 RuntimeError。先运行一次前向传播把参数物化（materialize）再注册。

    1.5.1 → 2.13：1.5.1 没有这个文件，也没有 `register_parametrization`。

=== "English"

    Each of the three functions just hands a small module to
    [`register_parametrization`][annotated_nn.utils.parametrize.register_parametrization]:

    | function | parametrization | originals | reading `module.weight` gives |
    | --- | --- | --- | --- |
    | `orthogonal` | `_Orthogonal` | `original` (plus a `base` buffer by default) | an orthogonal (unitary) matrix |
    | `weight_norm` | `_WeightNorm` | `original0` = `g`, `original1` = `v` | `g * v / ‖v‖` |
    | `spectral_norm` | `_SpectralNorm` | `original` (plus `_u` and `_v` buffers) | `W / σ(W)` |

    The parametrizations are annotated_nn [`Module`][annotated_nn.modules.module.Module]s with
    torch's class names, so the parametrized model's repr and state_dict keys are exactly
    torch's, e.g. `parametrizations.weight.original0` and `parametrizations.weight.0._u`, and
    either side loads the other's state_dict.

    Unlike the old [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm] and
    [`spectral_norm`][annotated_nn.utils.spectral_norm.spectral_norm] (a forward pre-hook
    recomputing `weight` before every forward pass), here `weight` is computed on every read,
    so any code reading it, not only `forward`, sees the constrained value.

    Lazy modules get no special treatment, as in torch: an uninitialized parameter looks like
    a 1-dim tensor, so `orthogonal` reports "not a matrix", while `weight_norm` and
    `spectral_norm` raise RuntimeError when they read its shape. Run one forward pass to
    materialize the parameters before registering.

    1.5.1 → 2.13: 1.5.1 had neither this file nor `register_parametrization`.
"""

from enum import Enum, auto

import torch
import torch.nn.functional as F
from torch import Tensor

from annotated_nn.modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from annotated_nn.modules.module import Module
from annotated_nn.utils import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _is_orthogonal(Q: Tensor, eps: float | None = None) -> bool:
    r"""Whether the columns of `Q` are orthonormal, up to rounding. / `Q` 的各列在舍入误差内是否标准正交。

    === "中文"

        检查 `Q^H Q ≈ I_k`（`Q` 为 `n × k`，可以是一批矩阵），绝对容差 `10 · n · eps(dtype)`，
        随行数 `n` 增长（`Q^H Q` 的每个元素是 `n` 项之和）；`torch.allclose` 默认的相对容差
        `1e-5` 仍然生效，只作用在对角线上（那里 `I` 的元素为 1）。
        参数 `eps` 与 torch 一样被忽略（函数体直接覆盖它），保留它只为签名一致。

    === "English"

        Checks `Q^H Q ≈ I_k` (`Q` is `n × k`, possibly a batch) with an absolute tolerance of
        `10 · n · eps(dtype)`, growing with the row count `n` (each entry of `Q^H Q` is a sum of
        `n` terms); `torch.allclose`'s default relative tolerance `1e-5` still applies, on the
        diagonal only (where the entries of `I` are 1). The
        `eps` argument is ignored as in torch (the body overwrites it); it is kept only so
        that the signature matches.

    Args:
        Q: A matrix or a batch of matrices. / 一个矩阵或一批矩阵。
        eps: Ignored. / 被忽略。

    Returns:
        Whether every matrix passes. / 是否每个矩阵都通过检查。
    """
    # 中: 单位阵与 `Q` 同 dtype、同设备，这样复数矩阵也能直接与 `Q^H Q` 比较。
    # EN: The identity takes `Q`'s dtype and device, so complex matrices compare with `Q^H Q`
    # EN: directly.
    n, k = Q.size(-2), Q.size(-1)
    Id = torch.eye(k, dtype=Q.dtype, device=Q.device)
    eps = 10.0 * n * torch.finfo(Q.dtype).eps
    return torch.allclose(Q.mH @ Q, Id, atol=eps)


def _make_orthogonal(A: Tensor) -> Tensor:
    r"""The Q factor of `A = QR` with a real, non-negative diagonal of R. / `A = QR` 的 Q 因子，且 R 的对角线为非负实数。

    === "中文"

        `A` 是"高"矩阵（行数 ≥ 列数），可以是复数。`geqrf` 以紧凑形式给出 QR 分解：
        `X` 的对角线及其上方是 R，下方是 Householder 反射向量；`householder_product` 由它们
        组装出 Q。QR 分解只唯一到每列的一个相位（符号），所以把 Q 的每一列乘上 R 对应对角元的
        `sgn`（实数时是 ±1，复数时是单位模的复数），相当于把 R 的对角线变成非负实数，
        这样选出的 Q（`A` 满秩时）是唯一的：同一个 `A` 总是得到同一个 Q。

    === "English"

        `A` is "tall" (rows ≥ columns) and may be complex. `geqrf` gives the QR factorization
        in compact form: `X` holds R on and above its diagonal and the Householder reflectors
        below; `householder_product` assembles Q from them. A QR factorization is unique only
        up to a phase (sign) per column, so each column of Q is multiplied by the `sgn` of R's
        matching diagonal entry (±1 when real, a unit complex number when complex), which
        amounts to making R's diagonal real and non-negative; the Q so chosen is unique (for a
        full-rank `A`): the same `A` always gives the same Q.

    Args:
        A: A tall matrix or a batch of them. / 一个高矩阵或一批高矩阵。

    Returns:
        The orthogonal (unitary) factor Q, shaped like `A`. / 与 `A` 同形的正交（酉）因子 Q。
    """
    # 中: `X` 的对角线就是 R 的对角线（总是实数）；`unsqueeze(-2)` 让它按列广播，
    # 中: 就地乘到 `Q` 上。
    # EN: `X`'s diagonal is R's diagonal (always real); `unsqueeze(-2)` broadcasts it over the
    # EN: columns, multiplied into `Q` in place.
    X, tau = torch.geqrf(A)
    Q = torch.linalg.householder_product(X, tau)
    Q *= X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)
    return Q


class _OrthMaps(Enum):
    r"""The three maps from free parameters to an orthogonal matrix. / 从自由参数到正交矩阵的三种映射。

    === "中文"

        `matrix_exp`：反对称矩阵的矩阵指数；`cayley`：反对称矩阵的 Cayley 变换；
        `householder`：Householder 反射的乘积。
        [`orthogonal`][annotated_nn.utils.parametrizations.orthogonal] 用
        `getattr(_OrthMaps, 字符串)` 把用户给的名字换成成员，取不到就报错。

    === "English"

        `matrix_exp`: the matrix exponential of a skew-symmetric matrix; `cayley`: the Cayley
        transform of one; `householder`: a product of Householder reflections.
        [`orthogonal`][annotated_nn.utils.parametrizations.orthogonal] turns the user's string
        into a member with `getattr(_OrthMaps, string)` and raises when there is none.
    """

    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    r"""The parametrization that makes a matrix orthogonal (unitary). / 让矩阵正交（酉）的参数化。

    === "中文"

        记 `Q` 为 `n × k` 的参数化结果。`n ≥ k` 时 `Q` 的列标准正交（`Q^H Q = I`），
        `n < k` 时行标准正交；多于两维的张量视为一批矩阵。`forward` 先把"宽"矩阵转置成
        "高"矩阵，算完再转回来，所以下文只讨论 `n ≥ k`。

        - `matrix_exp` / `cayley`：取原始张量的下三角部分（含对角线），补零成 `n × n` 方阵 `X`，令 `A = X - X^H`（反对称，复数时反厄米），
          对 `A` 做矩阵指数或 Cayley 变换得到 `n × n` 的正交矩阵，取前 `k` 列。
        - `householder`：严格下三角部分的每一列是一个反射向量（对角元隐含为 1），
          `k` 个反射的乘积取前 `k` 列；原始张量的对角线只提供每列的符号（±1），
          既不参与求导，也不该被更新。

        动态平凡化（dynamic trivialization，`use_trivialization=True`，默认）：另存一个
        `n × n` 的正交矩阵作为缓冲区 `base`，结果是 `base @ Q`。于是原始张量只需描述
        "离 `base` 有多远"，注册时它被设为"恒等"的表示 `-Id`（见 `right_inverse`）。
        把当前的 `module.weight` 赋回给它，就把至今的优化结果并入 `base`，原始张量回到 `-Id`；
        没有别的代码会自动更新 `base`。

        不设 `use_trivialization` 时没有 `base` 这个属性：`forward` 与 `right_inverse`
        都用 `hasattr(self, "base")` 区分两种模式。

    === "English"

        Let `Q` be the `n × k` result. When `n ≥ k` its columns are orthonormal (`Q^H Q = I`),
        when `n < k` its rows are; a tensor of more than two dimensions is a batch of matrices.
        `forward` transposes a "wide" matrix into a "tall" one and back at the end, so what
        follows assumes `n ≥ k`.

        - `matrix_exp` / `cayley`: take the lower triangle of the original (diagonal
          included), pad it with zeros into an `n × n` matrix `X`, set
          `A = X - X^H` (skew-symmetric, skew-Hermitian when complex), apply the matrix
          exponential or the Cayley transform to get an `n × n` orthogonal matrix, and keep
          its first `k` columns.
        - `householder`: each column of the strictly lower triangle is a reflector (with an
          implicit 1 on the diagonal); the product of the `k` reflections, first `k` columns.
          The original's diagonal only supplies a sign (±1) per column; it is not
          differentiated through and should not be updated.

        Dynamic trivialization (`use_trivialization=True`, the default): an extra `n × n`
        orthogonal matrix is kept as the buffer `base`, and the result is `base @ Q`. The
        original then only describes "how far from `base`", and registration sets it to the
        representation of "identity", `-Id` (see `right_inverse`). Assigning the current
        `module.weight` back folds the progress so far into `base` and resets the original to
        `-Id`; nothing else updates `base` automatically.

        Without `use_trivialization` there is no `base` attribute at all: `forward` and
        `right_inverse` tell the two modes apart with `hasattr(self, "base")`.

    Args:
        weight: The tensor to parametrize (for its shape and complexness). / 要参数化的张量（用于取形状与是否复数）。
        orthogonal_map: Which map. / 哪一种映射。
        use_trivialization: Keep a `base` buffer. / 是否保留缓冲区 `base`。
    """

    base: Tensor

    def __init__(
        self, weight: Tensor, orthogonal_map: _OrthMaps, *, use_trivialization: bool = True
    ) -> None:
        r"""Check the map against the dtype and remember the shape. / 按 dtype 检查映射，并记下形状。

        === "中文"

            复数矩阵不能用 `householder`：由反射向量无法恢复出复数情形下所需的 `tau`，
            而把 `tau` 也当作自由参数又不能保证结果总是酉矩阵，所以直接拒绝。
            `base` 先以 `None` 登记为缓冲区占位：此时 `hasattr(self, "base")` 已为真，
            真正的矩阵在 `right_inverse` 里才放进去。

        === "English"

            Complex matrices cannot use `householder`: the `tau` a complex reflection needs
            cannot be recovered from the reflectors, and making `tau` a free parameter as well
            would not keep the result unitary, so it is refused. `base` is registered as a
            `None` buffer placeholder: `hasattr(self, "base")` is already true, and the actual
            matrix goes in during `right_inverse`.

        Args:
            weight: The tensor to parametrize. / 要参数化的张量。
            orthogonal_map: Which map. / 哪一种映射。
            use_trivialization: Keep a `base` buffer. / 是否保留缓冲区 `base`。

        Raises:
            ValueError: `householder` with a complex tensor. / 复数张量配 `householder`。
        """
        super().__init__()

        # 中: 报错文字与 torch 相同。
        # EN: The message is torch's.
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError("The householder parametrization does not support complex tensors.")

        # 中: `shape` 与 `orthogonal_map` 是普通属性，不进状态字典；`shape` 供
        # 中: `right_inverse` 检查赋入的值。
        # EN: `shape` and `orthogonal_map` are plain attributes, not in the state_dict; `shape`
        # EN: lets `right_inverse` check assigned values.
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:
        r"""Map the original `X` to an orthogonal matrix. / 把原始张量 `X` 映射成正交矩阵。

        === "中文"

            步骤见类的说明：转成高矩阵、按映射算出 `Q`、有 `base` 时左乘 `base`、
            必要时转置回去。

        === "English"

            The steps are in the class's description: make it tall, compute `Q` with the map,
            multiply by `base` on the left when there is one, transpose back if needed.

        Args:
            X: The original tensor, `(..., n, k)`. / 原始张量，形状 `(..., n, k)`。

        Returns:
            The orthogonal matrix, shaped like `X`. / 与 `X` 同形的正交矩阵。
        """
        # 中: 宽矩阵先转置：下面只处理 `n ≥ k` 的高矩阵，最后再转置回去。
        # EN: Transpose a wide matrix: what follows handles only tall ones (`n ≥ k`), and the
        # EN: result is transposed back at the end.
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map == _OrthMaps.matrix_exp or self.orthogonal_map == _OrthMaps.cayley:
            # 中: 只用下三角（含对角线）；高矩阵在右边补 `n - k` 列零成为方阵，
            # 中: `expand` 让零块跟随批维度而不复制内存。
            # EN: Only the lower triangle (diagonal included) is used; a tall matrix gets
            # EN: `n - k` zero columns on the right to become square, `expand` making the zero
            # EN: block follow the batch dimensions without copying memory.
            X = X.tril()
            if n != k:
                X = torch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            # 中: `A = X - X^H` 反对称（复数时反厄米），它的指数或 Cayley 变换都是正交（酉）矩阵。
            # 中: Cayley 变换 `(I - A/2)^{-1} (I + A/2)` 用 `solve` 求，而不是显式求逆。
            # EN: `A = X - X^H` is skew-symmetric (skew-Hermitian when complex); both its
            # EN: exponential and its Cayley transform are orthogonal (unitary). The Cayley
            # EN: transform `(I - A/2)^{-1} (I + A/2)` is computed with `solve`, not an explicit
            # EN: inverse.
            A = X - X.mH
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = torch.matrix_exp(A)
            else:
                Id = torch.eye(n, dtype=A.dtype, device=A.device)
                Q = torch.linalg.solve(torch.add(Id, A, alpha=-0.5), torch.add(Id, A, alpha=0.5))
            # 中: `Q` 是 `n × n` 的；高矩阵只要前 `k` 列。
            # EN: `Q` is `n × n`; a tall matrix keeps only the first `k` columns.
            if n != k:
                Q = Q[..., :k]
        else:
            # 中: Householder（只可能是实数）：严格下三角的各列是反射向量，对角元隐含为 1，
            # 中: 所以 `tau = 2 / (1 + ‖列‖²)` 正好让每个 `I - tau v v^T` 是一次反射。
            # EN: Householder (necessarily real): the columns of the strict lower triangle are
            # EN: the reflectors with an implicit 1 on the diagonal, so `tau = 2 / (1 + ‖col‖²)`
            # EN: makes each `I - tau v v^T` exactly a reflection.
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = torch.linalg.householder_product(A, tau)
            # 中: 对角线只给出每列的符号：`.int()` 截断成整数，不可求导，所以对角线得不到梯度。
            # 中: 坑：若优化器仍改动它（例如权重衰减把 -1 缩成 -0.99），截断后变成 0，那一列整列为零。
            # EN: The diagonal only gives each column's sign: `.int()` truncates to integers and
            # EN: is not differentiable, so the diagonal gets no gradient. Pitfall: if the
            # EN: optimizer still changes it (weight decay shrinking -1 to -0.99, say), it
            # EN: truncates to 0 and the whole column becomes zero.
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)

        # 中: 动态平凡化：结果是 `base` 的前 `k` 列经 `Q` 旋转，仍是正交的。
        # EN: Dynamic trivialization: the result is `base` rotated by `Q`, still orthogonal.
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    @torch.no_grad()
    def right_inverse(self, Q: Tensor) -> Tensor:
        r"""Compute an original whose `forward` gives `Q` (orthogonalized). / 求出一个原始张量，使 `forward` 给出（正交化后的）`Q`。

        === "中文"

            注册时，以及每次 `module.weight = Q` 时调用。`Q` 必须与注册时的形状相同。

            - 有 `base`（默认）：`Q` 是正交方阵就复制一份，否则用 QR 分解正交化；
              非方阵先随机补足成 `n × n` 再正交化（这会消耗一次 `torch.randn`）。结果存入
              `base`，返回 `-Id`（对角线为 -1 的零矩阵）：三种映射都把 `-Id` 映射成
              `I`（`matrix_exp`/`cayley` 中 `X - X^H` 的对角线相消为 0，`householder` 中
              `k` 次反射的 -1 与对角线的 -1 相乘为 1），于是参数化结果就是 `base` 的前 `k` 列，
              即正交化后的 `Q`。
            - 没有 `base`：只有 `householder` 可以逆推（由 `geqrf` 的反射向量），
              `matrix_exp` 与 `cayley` 没有已知的逆映射，抛 `NotImplementedError`；注册时
              [`ParametrizationList`][annotated_nn.utils.parametrize.ParametrizationList]
              把它当作恒等，原始张量保留原值。

            整个方法不记录梯度（`torch.no_grad()`）。

        === "English"

            Called at registration and on every `module.weight = Q`. `Q` must have the shape
            seen at registration.

            - With `base` (default): an orthogonal square `Q` is copied, any other is
              orthogonalized by a QR factorization; a non-square one is first completed at
              random to `n × n` (consuming one `torch.randn`). The result is stored in `base`
              and `-Id` (zeros with -1 on the diagonal) is returned: all three maps send `-Id`
              to `I` (in `matrix_exp`/`cayley` the diagonal of `X - X^H` cancels to 0, in
              `householder` the -1 of the `k` reflections times the -1 of the diagonal gives
              1), so the parametrized result is the first `k` columns of `base`, i.e. `Q`
              orthogonalized.
            - Without `base`: only `householder` can be inverted (from `geqrf`'s reflectors);
              `matrix_exp` and `cayley` have no known inverse and raise `NotImplementedError`,
              which [`ParametrizationList`][annotated_nn.utils.parametrize.ParametrizationList]
              takes as the identity at registration, leaving the original as it was.

            The whole method records no gradient (`torch.no_grad()`).

        Args:
            Q: The desired value, shaped as at registration. / 想要的值，形状与注册时相同。

        Returns:
            The new original. / 新的原始张量。

        Raises:
            ValueError: Wrong shape. / 形状不对。
            NotImplementedError: `matrix_exp` or `cayley` without trivialization. / 不用平凡化时的 `matrix_exp` 或 `cayley`。
        """
        # 中: 形状必须与注册时一致；文字与 torch 相同。
        # EN: The shape must be the one seen at registration; the message is torch's.
        if Q.shape != self.shape:
            raise ValueError(
                f"Expected a matrix or batch of matrices of shape {self.shape}. "
                f"Got a tensor of shape {Q.shape}."
            )

        # 中: 与 `forward` 一样转成高矩阵；`Q_init` 留着原来的方向，用来构造返回的 `-Id`。
        # EN: Make it tall as `forward` does; `Q_init` keeps the original orientation for
        # EN: building the `-Id` returned.
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n

        # 中: 每条路径都返回新张量而不是 `Q` 本身：结果会被写进原始张量，不能与调用者的张量共用。
        # EN: Every path returns a new tensor, never `Q` itself: the result is written into
        # EN: the original and must not share memory with the caller's tensor.
        if not hasattr(self, "base"):
            # 中: 不用平凡化时，`matrix_exp` 与 `cayley` 没有已知的逆映射，只能拒绝赋值。
            # EN: Without trivialization, `matrix_exp` and `cayley` have no known inverse, so
            # EN: assigning is refused.
            if (
                self.orthogonal_map == _OrthMaps.cayley
                or self.orthogonal_map == _OrthMaps.matrix_exp
            ):
                raise NotImplementedError(
                    "It is not possible to assign to the matrix exponential "
                    "or the Cayley parametrizations when use_trivialization=False."
                )

            # 中: `geqrf` 的下三角就是反射向量；对角线（R 的对角线）换成它的符号，
            # 中: 使 `forward` 重现 R 对角线为正的那个 Q。
            # EN: `geqrf`'s lower triangle holds the reflectors; the diagonal (R's diagonal) is
            # EN: replaced by its signs so that `forward` reproduces the Q whose R has a
            # EN: positive diagonal.
            A, tau = torch.geqrf(Q)
            A.diagonal(dim1=-2, dim2=-1).sign_()
            # 中: LAPACK 不需要某次反射时令 `tau` 恰为 0，而 `forward` 总会做这次反射
            # 中: （它的 `tau` 不为 0），使那一列变号；把对应的对角符号再翻一次抵消。
            # EN: LAPACK sets `tau` to exactly 0 when it skips a reflection, but `forward`
            # EN: always applies it (its `tau` is never 0), negating that column; flipping the
            # EN: matching diagonal sign once more cancels it.
            A.diagonal(dim1=-2, dim2=-1)[tau == 0.0] *= -1
            return A.mT if transpose else A
        else:
            # 中: 方阵：已正交就复制（保证不共用内存），否则正交化。
            # EN: Square: copy if already orthogonal (so no memory is shared), else
            # EN: orthogonalize.
            if n == k:
                if not _is_orthogonal(Q):
                    Q = _make_orthogonal(Q)
                else:
                    Q = Q.clone()
            # 中: 高矩阵：`base` 必须是 `n × n` 的，所以在右边补 `n - k` 个随机列再正交化；
            # 中: QR 不改变前 `k` 列张成的空间，已正交的 `Q` 的前 `k` 列保持不变（至多差舍入误差）。
            # EN: Tall: `base` must be `n × n`, so `n - k` random columns are appended before
            # EN: orthogonalizing; QR keeps the span of the first `k` columns, so an orthogonal
            # EN: `Q` keeps its first `k` columns (up to rounding).
            else:
                N = torch.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype, device=Q.device)
                Q = torch.cat([Q, N], dim=-1)
                Q = _make_orthogonal(Q)
            self.base = Q

            # 中: 返回 `-Id`（形状同 `Q_init`）：三种映射都把它映射成 `I`，参数化结果因此等于 `base`
            # 中: 的前 `k` 列。
            # EN: Return `-Id` (shaped like `Q_init`): all three maps send it to `I`, so the
            # EN: parametrized result equals the first `k` columns of `base`.
            neg_Id = torch.zeros_like(Q_init)
            neg_Id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return neg_Id


def orthogonal(
    module: Module,
    name: str = "weight",
    orthogonal_map: str | None = None,
    *,
    use_trivialization: bool = True,
) -> Module:
    r"""Make `module.<name>` an orthogonal (unitary) matrix or batch of them. / 让 `module.<name>` 成为正交（酉）矩阵或一批这样的矩阵。

    === "中文"

        注册 [`_Orthogonal`][annotated_nn.utils.parametrizations._Orthogonal] 参数化。
        形状为 `(..., m, n)` 的结果 `Q` 满足：`m ≥ n` 时 `Q^H Q = I_n`（列标准正交），
        `m < n` 时 `Q Q^H = I_m`（行标准正交）；`Q^H` 在实数时就是转置。

        `orthogonal_map` 默认：方阵或复数张量用 `"matrix_exp"`，其余用 `"householder"`。
        `"matrix_exp"`/`"cayley"` 通常收敛更快，但对很瘦或很宽的矩阵计算更慢
        （它们要在 `max(m, n)` 阶的方阵上计算）。

        初始值：张量未被参数化过、且有 `base`（`use_trivialization=True`），或映射是
        `"householder"` 时，`Q` 的初值就是原张量——已正交则不变（至多差舍入误差），
        否则取其 QR 分解的 Q 因子；
        其余情形（`matrix_exp`/`cayley` 不用平凡化，或追加在已有参数化之后）初值是
        参数化链作用在原始张量上的结果。

        注册时传 `unsafe=True`：省掉一次对整条参数化链的检查性计算。

        坑（torch 中同样存在）：把使用平凡化的 `orthogonal` 追加到已参数化的张量上时，
        注册不会调用 `right_inverse`，`base` 仍是 `None`，读取 `weight` 报 TypeError；
        先赋一次值（`module.weight = ...`）才会填好 `base`——这要求链上先前的每个参数化
        都实现了 `right_inverse`，否则赋值报 RuntimeError。

    === "English"

        Registers an [`_Orthogonal`][annotated_nn.utils.parametrizations._Orthogonal]
        parametrization. The result `Q`, shaped `(..., m, n)`, satisfies `Q^H Q = I_n`
        (orthonormal columns) when `m ≥ n` and `Q Q^H = I_m` (orthonormal rows) when `m < n`;
        `Q^H` is the transpose when real.

        `orthogonal_map` defaults to `"matrix_exp"` for a square or complex tensor and to
        `"householder"` otherwise. `"matrix_exp"`/`"cayley"` often converge faster but are
        slower for very thin or very wide matrices (they compute on a square matrix of order
        `max(m, n)`).

        Initial value: when the tensor was not parametrized before and there is a `base`
        (`use_trivialization=True`), or the map is `"householder"`, `Q` starts as the original
        tensor itself if orthogonal (up to rounding) and as the Q factor of its QR
        factorization otherwise; in
        the other cases (`matrix_exp`/`cayley` without trivialization, or appended after
        existing parametrizations) it starts as the chain applied to the original.

        Registration passes `unsafe=True`, which saves one check run of the whole chain.

        A pitfall (the same in torch): appending `orthogonal` with trivialization to a tensor
        that is already parametrized does not call `right_inverse`, so `base` stays `None` and
        reading `weight` raises TypeError; one assignment (`module.weight = ...`) fills `base`,
        provided every earlier parametrization in the chain implements `right_inverse`
        (otherwise the assignment raises RuntimeError).

    Args:
        module: The module owning the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量名。
        orthogonal_map: `"matrix_exp"`, `"cayley"`, `"householder"` or `None` (by shape). / `"matrix_exp"`、`"cayley"`、`"householder"` 或 `None`（按形状选）。
        use_trivialization: Keep a `base` buffer (dynamic trivialization). / 是否保留缓冲区 `base`（动态平凡化）。

    Returns:
        `module`, parametrized. / 参数化后的 `module`。

    Raises:
        ValueError: No such tensor, fewer than 2 dimensions, unknown map, or `householder` with a complex tensor. / 没有这个张量、少于 2 维、未知的映射，或复数张量配 `householder`。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.parametrizations import orthogonal
        >>> m = orthogonal(nn.Linear(20, 40))
        >>> m
        ParametrizedLinear(
          in_features=20, out_features=40, bias=True
          (parametrizations): ModuleDict(
            (weight): ParametrizationList(
              (0): _Orthogonal()
            )
          )
        )
        >>> Q = m.weight
        >>> torch.allclose(Q.T @ Q, torch.eye(20), atol=1e-5)
        True
    """
    # 中: 先确认名字指向一个张量（参数、缓冲区或已参数化的张量）；文字里带模块的 repr，与 torch 相同。
    # EN: First make sure the name is a tensor (a parameter, a buffer or a parametrized
    # EN: tensor); the message carries the module's repr, as torch's does.
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")

    # 中: 一维张量（单位球面上的向量）可以做，但 torch 有意不支持。惰性模块的未初始化参数
    # 中: 也在这里被拒绝：它看起来是一维的。
    # EN: A 1-dim tensor (a vector on the unit sphere) would be possible, but torch
    # EN: deliberately refuses it. A lazy module's uninitialized parameter is refused here too:
    # EN: it looks 1-dim.
    if weight.ndim < 2:
        raise ValueError(
            f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions."
        )

    # 中: 默认映射：方阵或复数用 `matrix_exp`（复数不支持 `householder`），其余用 `householder`。
    # EN: Default map: `matrix_exp` for square or complex (complex cannot use `householder`),
    # EN: `householder` otherwise.
    if orthogonal_map is None:
        orthogonal_map = (
            "matrix_exp"
            if weight.size(-2) == weight.size(-1) or weight.is_complex()
            else "householder"
        )

    # 中: 名字换成枚举成员；未知名字报错，文字与 torch 相同。
    # EN: The name becomes an enum member; an unknown name raises with torch's message.
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError(
            'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
            f"Got: {orthogonal_map}"
        )
    # 中: `unsafe=True`：跳过注册时对整条链的检查性计算（这里的形状与 dtype 本来就不变）。
    # EN: `unsafe=True` skips the check run of the whole chain at registration (shape and
    # EN: dtype do not change here anyway).
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    r"""The parametrization `w = g * v / ‖v‖`. / 参数化 `w = g * v / ‖v‖`。

    === "中文"

        两个原始张量：`original0` 是大小 `g`，`original1` 是方向 `v`（`right_inverse`
        返回 `(g, v)` 的顺序决定了编号）。`dim` 是保留的维度：沿它的每个切片各有一个范数；
        `None` 换成 `-1`，表示整个张量一个范数（注意：`-1` 不是"最后一维"，`dim=-1`
        与 `dim=None` 相同）。

    === "English"

        Two originals: `original0` is the magnitude `g`, `original1` the direction `v` (the
        numbering follows the order `(g, v)` of `right_inverse`'s result). `dim` is the
        dimension kept: each slice along it gets its own norm; `None` becomes `-1`, meaning one
        norm over the whole tensor (beware: `-1` is not "the last dimension", `dim=-1` is the
        same as `dim=None`).

    Args:
        dim: The dimension kept; `None` for the whole tensor. / 保留的维度；`None` 表示整个张量。
    """

    def __init__(self, dim: int | None = 0) -> None:
        r"""Remember the dimension, with `None` as `-1`. / 记下维度，`None` 记作 `-1`。

        === "中文"

            不做检查：维度是否合法，要到 `right_inverse` 第一次计算范数时才知道。

        === "English"

            No check here: whether the dimension is valid only shows when `right_inverse`
            first computes the norm.

        Args:
            dim: The dimension kept; `None` for the whole tensor. / 保留的维度；`None` 表示整个张量。
        """
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        r"""Compute `v * (g / ‖v‖)`. / 计算 `v * (g / ‖v‖)`。

        === "中文"

            `torch._weight_norm` 在 `dim` 为 `0` 或最后一维时用融合内核，
            否则拆成范数、除法与乘法；注意参数顺序是 `(v, g)`。

        === "English"

            `torch._weight_norm` uses a fused kernel when `dim` is `0` or the last dimension,
            otherwise a norm, a division and a product; note its argument order `(v, g)`.

        Args:
            weight_g: The magnitude `g` (`original0`). / 大小 `g`（`original0`）。
            weight_v: The direction `v` (`original1`). / 方向 `v`（`original1`）。

        Returns:
            The normalized weight. / 归一化后的权重。
        """
        return torch._weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        r"""Split `weight` into `(g, v)`. / 把 `weight` 拆成 `(g, v)`。

        === "中文"

            `g` 是沿 `dim` 以外各维的 2-范数（保留 `dim` 为原长，其余维长度为 1；`dim` 为 `-1`
            时是整个张量的范数，一个 0 维标量），`v` 就是 `weight` 本身，所以 `forward(g, v)`
            还原出 `weight`（至多差舍入误差）。
            返回两个张量，于是原始张量叫 `original0`、`original1`。

        === "English"

            `g` is the 2-norm over every dimension but `dim` (`dim` keeps its length, the
            others become 1; with `dim` `-1` it is the norm of the whole tensor, a 0-dim
            scalar), `v` is `weight` itself, so `forward(g, v)` gives `weight` back
            (up to rounding). Two tensors are returned, hence the originals `original0` and
            `original1`.

        Args:
            weight: The weight to split. / 要拆分的权重。

        Returns:
            `(g, v)`. / `(g, v)`。
        """
        weight_g = torch.norm_except_dim(weight, 2, self.dim)
        weight_v = weight
        return weight_g, weight_v


def weight_norm(module: Module, name: str = "weight", dim: int = 0) -> Module:
    r"""Split `module.<name>` into a magnitude and a direction. / 把 `module.<name>` 拆成大小与方向。

    === "中文"

        权重归一化（论文 https://arxiv.org/abs/1602.07868）把权重写成 `w = g * v / ‖v‖`，
        让大小 `g` 与方向 `v` 分开学习。注册
        [`_WeightNorm`][annotated_nn.utils.parametrizations._WeightNorm] 参数化：
        `parametrizations.<name>.original0` 是 `g`，`original1` 是 `v`。`dim=0`（默认）
        时沿第 0 维的每个切片一个范数（`Linear` 与卷积是每个输出通道；转置卷积的权重是
        `(in, out, ...)`，于是是每个输入通道，这里不像 `spectral_norm` 那样改用 `1`）；
        `dim=None` 时整个张量一个范数（`g` 是 0 维标量）。这两个原始张量是新的参数对象，
        优化器要在注册之后创建（或重新加入它们）。

        兼容旧检查点：另外注册一个加载状态字典的预钩子（pre-hook）`_weight_norm_compat_hook`，
        把旧版 [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm] 保存的
        `<name>_g`、`<name>_v` 改名为 `parametrizations.<name>.original0`、`original1`
        后再加载。

    === "English"

        Weight normalization (paper: https://arxiv.org/abs/1602.07868) writes a weight as
        `w = g * v / ‖v‖`, so that the magnitude `g` and the direction `v` are learned
        separately. Registers a [`_WeightNorm`][annotated_nn.utils.parametrizations._WeightNorm]
        parametrization: `parametrizations.<name>.original0` is `g`, `original1` is `v`. With
        `dim=0` (default) each slice along dimension 0 gets its own norm (each output channel
        of `Linear` and convolutions; a transposed convolution's weight is `(in, out, ...)`, so
        there it is each input channel: unlike `spectral_norm`, no switch to `1`); with
        `dim=None` the whole tensor gets one (`g` is a 0-dim scalar). The two originals are new
        parameter objects: build the optimizer after registering (or add them to it).

        Old checkpoints: a load_state_dict pre-hook `_weight_norm_compat_hook` is registered as
        well; it renames the `<name>_g` and `<name>_v` saved by the old
        [`weight_norm`][annotated_nn.utils.weight_norm.weight_norm] to
        `parametrizations.<name>.original0` and `original1` before loading.

    Args:
        module: The module owning the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量名。
        dim: The dimension kept by the norm; `None` for the whole tensor. / 范数保留的维度；`None` 表示整个张量。

    Returns:
        `module`, parametrized. / 参数化后的 `module`。

    Raises:
        ValueError: No such tensor. / 没有这个张量。
        IndexError: `dim` out of range. / `dim` 越界。
        RuntimeError: An uninitialized parameter. / 未初始化参数。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.parametrizations import weight_norm
        >>> m = weight_norm(nn.Linear(20, 40), name="weight")
        >>> m.parametrizations.weight.original0.size()
        torch.Size([40, 1])
        >>> m.parametrizations.weight.original1.size()
        torch.Size([40, 20])
        >>> list(m.state_dict())
        ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
    """
    # 中: 先注册参数化：名字不存在、未初始化或 `dim` 不合法时在这里报错，模块保持原样，
    # 中: 也不会留下兼容钩子。不检查 dtype 与形状（`unsafe=True`）。
    # EN: Register the parametrization first: a missing name, an uninitialized parameter or a
    # EN: bad `dim` raises here, leaving the module untouched and no compatibility hook
    # EN: behind. dtype and shape are not checked (`unsafe=True`).
    _weight_norm = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _weight_norm, unsafe=True)

    def _weight_norm_compat_hook(
        state_dict: dict,
        prefix: str,
        local_metadata: dict,
        strict: bool,
        missing_keys: list,
        unexpected_keys: list,
        error_msgs: list,
    ) -> None:
        r"""Rename an old checkpoint's `<name>_g`/`<name>_v` before loading. / 加载前把旧检查点的 `<name>_g`/`<name>_v` 改名。

        === "中文"

            只有两个键**同时**存在时才改名（就地修改传入的状态字典）；只有一个时不动，
            交给严格加载报告缺失的键与多余的键。`prefix` 是本模块在整个模型里的前缀，
            所以嵌套在别的模型里也能找到对应的键。

        === "English"

            Renames only when **both** keys are present (changing the given state_dict in
            place); with only one it does nothing and lets strict loading report the missing
            and unexpected keys. `prefix` is this module's prefix within the whole model, so
            the keys are found in a nested module too.

        Args:
            state_dict: The state_dict being loaded; modified in place. / 正在加载的状态字典，被就地修改。
            prefix: This module's key prefix. / 本模块键的前缀。
            local_metadata: This module's metadata (unused). / 本模块的元数据（不使用）。
            strict: Whether loading is strict (unused). / 是否严格加载（不使用）。
            missing_keys: The list of missing keys (unused). / 缺失的键列表（不使用）。
            unexpected_keys: The list of unexpected keys (unused). / 多余的键列表（不使用）。
            error_msgs: The list of errors (unused). / 错误信息列表（不使用）。
        """
        # 中: 先删旧键再写新键；新键放在字典末尾，后续加载按键名查找，不受顺序影响。
        # EN: Pop the old keys, then write the new ones; they land at the end of the dict, which
        # EN: does not matter since loading looks keys up by name.
        g_key = f"{prefix}{name}_g"
        v_key = f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            original0 = state_dict.pop(g_key)
            original1 = state_dict.pop(v_key)
            state_dict[f"{prefix}parametrizations.{name}.original0"] = original0
            state_dict[f"{prefix}parametrizations.{name}.original1"] = original1

    # 中: 用私有的 `_register_load_state_dict_pre_hook`（不带模块参数的签名），与 torch 相同；
    # 中: 移除参数化并不会移除这个钩子。
    # EN: Registered with the private `_register_load_state_dict_pre_hook` (the signature
    # EN: without the module argument), as torch does; removing the parametrization does not
    # EN: remove this hook.
    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    r"""The parametrization `W / σ(W)`, `σ` estimated by power iteration. / 参数化 `W / σ(W)`，`σ` 由幂迭代估计。

    === "中文"

        `σ(W)` 是最大奇异值。多维权重先把第 `dim` 维换到最前、其余展平，成为
        `h × w` 矩阵。缓冲区 `_u`（长 `h`）与 `_v`（长 `w`）是对应的左、右奇异向量的估计，
        存在状态字典里（`parametrizations.weight.0._u`）；`σ ≈ u^H W v`。

        - 构造时随机初始化 `_u`、`_v`，先做 15 步幂迭代。
        - 训练模式下每次读取 `weight` 做 `n_power_iterations` 步幂迭代，就地更新 `_u`、`_v`；
          评估模式下不更新，`σ` 由已有的 `_u`、`_v` 算出。
        - 注册时不带 `unsafe`，`ParametrizationList` 会运行一次 `forward` 作检查，
          所以训练模式下注册一共做 `15 + n_power_iterations` 步。
        - 一维权重不需要估计：`σ` 就是 2-范数，直接归一化，也没有 `_u`、`_v`。

    === "English"

        `σ(W)` is the largest singular value. A multi-dimensional weight is made an `h × w`
        matrix by moving dimension `dim` to the front and flattening the rest. The buffers
        `_u` (length `h`) and `_v` (length `w`) estimate the matching left and right singular
        vectors and are kept in the state_dict (`parametrizations.weight.0._u`);
        `σ ≈ u^H W v`.

        - Construction initializes `_u` and `_v` at random and runs 15 power iteration steps.
        - In training mode every read of `weight` runs `n_power_iterations` steps, updating
          `_u` and `_v` in place; in evaluation mode they are not updated and `σ` comes from
          the current `_u` and `_v`.
        - Registration is not `unsafe`, so `ParametrizationList` runs `forward` once as a
          check: in training mode registering runs `15 + n_power_iterations` steps in all.
        - A 1-dim weight needs no estimate: `σ` is its 2-norm, it is normalized directly, and
          there are no `_u` and `_v`.

    Args:
        weight: The tensor to parametrize. / 要参数化的张量。
        n_power_iterations: Steps per read in training mode. / 训练模式下每次读取的迭代步数。
        dim: The output dimension. / 输出所在的维度。
        eps: Lower bound of norms when normalizing. / 归一化时范数的下限。
    """

    def __init__(
        self,
        weight: Tensor,
        n_power_iterations: int = 1,
        dim: int = 0,
        eps: float = 1e-12,
    ) -> None:
        r"""Check the arguments, create `_u`, `_v` and warm them up. / 检查参数，创建 `_u`、`_v` 并预热。

        === "中文"

            先检查 `dim` 的范围、再检查 `n_power_iterations`，报错类型与文字与 torch 相同。
            负的 `dim` 被规范成非负。随机数消耗顺序：先 `_u`（`h` 个），再 `_v`（`w` 个），
            与 torch 一致，所以同一种子下两边得到同样的向量。

        === "English"

            Checks the range of `dim`, then `n_power_iterations`, with torch's exception types
            and messages. A negative `dim` is made non-negative. Random numbers are drawn for
            `_u` first (`h` of them), then `_v` (`w`), as in torch, so both sides get the same
            vectors under the same seed.

        Args:
            weight: The tensor to parametrize. / 要参数化的张量。
            n_power_iterations: Steps per read in training mode. / 训练模式下每次读取的迭代步数。
            dim: The output dimension. / 输出所在的维度。
            eps: Lower bound of norms when normalizing. / 归一化时范数的下限。

        Raises:
            IndexError: `dim` out of range. / `dim` 越界。
            ValueError: `n_power_iterations` not positive. / `n_power_iterations` 不是正数。
        """
        super().__init__()
        # 中: 两项检查的顺序与文字都与 torch 相同（`dim` 越界在前）。
        # EN: Both checks come in torch's order (`dim` out of range first) with its messages.
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                "Dimension out of range (expected to be in range of "
                f"[-{ndim}, {ndim - 1}] but got {dim})"
            )
        # 中: 每次读取的步数必须为正（0 或负数被拒绝，文字与 torch 相同）。
        # EN: The steps per read must be positive (0 or less is refused with torch's message).
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but "
                f"got n_power_iterations={n_power_iterations}"
            )
        # 中: 负的 `dim` 规范成非负，`_reshape_weight_to_matrix` 据此判断要不要换维。
        # EN: A negative `dim` is made non-negative; `_reshape_weight_to_matrix` uses it to
        # EN: decide whether to permute.
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        # 中: 多维权重才需要幂迭代；一维时连 `n_power_iterations` 属性也没有。
        # EN: Only a multi-dimensional weight needs power iteration; a 1-dim one does not even
        # EN: get the `n_power_iterations` attribute.
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()

            # 中: 随机单位向量作起点，登记为缓冲区（持久，进状态字典）；然后 15 步幂迭代，
            # 中: 让第一次读取前 `σ` 已经是个像样的估计。
            # EN: Random unit vectors to start from, registered as (persistent) buffers; then
            # EN: 15 power iteration steps, so that `σ` is a decent estimate before the first
            # EN: read.
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        r"""View `weight` as an `h × w` matrix, dimension `dim` first. / 把 `weight` 看成 `h × w` 矩阵，第 `dim` 维在前。

        === "中文"

            `dim` 不是 0 时用 `permute` 把它换到最前（其余维保持原顺序），然后把其余维
            展平成一维。例如 `ConvTranspose2d` 的权重 `(in, out, kh, kw)` 配 `dim=1`，
            得到 `out × (in·kh·kw)`。

        === "English"

            When `dim` is not 0, `permute` moves it to the front (the others keep their order),
            then the other dimensions are flattened into one. For example a `ConvTranspose2d`
            weight `(in, out, kh, kw)` with `dim=1` gives `out × (in·kh·kw)`.

        Args:
            weight: A tensor of at least 2 dimensions. / 至少 2 维的张量。

        Returns:
            The matrix view. / 矩阵形式。

        Raises:
            AssertionError: `weight` has fewer than 2 dimensions. / `weight` 少于 2 维。
        """
        # 中: 前提条件；正确使用时不会触发（一维权重走 `forward` 的另一条路）。
        # EN: A precondition; never fires in correct use (a 1-dim weight takes `forward`'s other
        # EN: path).
        if weight.ndim <= 1:
            raise AssertionError(
                f"Expected weight to have more than 1 dimension, got {weight.ndim}"
            )
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @torch.no_grad()
    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        r"""Run power iteration steps, updating `_u` and `_v` in place. / 做若干步幂迭代，就地更新 `_u` 与 `_v`。

        === "中文"

            每一步 `u ← normalize(W v)`，`v ← normalize(W^H u)`；`u`、`v` 收敛到最大奇异值
            对应的左、右奇异向量。不记录梯度。

            **必须就地更新**（`out=`）：`DataParallel` 的前向传播里，副本（replica）由
            原模块临时复制而来，位于 `device[0]` 的副本与原模块共用缓冲区的存储；
            只有就地写入，副本做的更新才能留在原模块上，否则下次复制时又从旧向量开始。
            `forward` 随后会先复制（clone）再使用它们，理由见那里。

        === "English"

            Each step sets `u ← normalize(W v)` and `v ← normalize(W^H u)`; `u` and `v`
            converge to the left and right singular vectors of the largest singular value. No
            gradient is recorded.

            **The update must be in place** (`out=`): in a `DataParallel` forward pass the
            replicas are made from the original module on the fly, and the replica on
            `device[0]` shares the buffers' storage with the original; only an in-place write
            leaves the replica's update on the original, otherwise the next replication starts
            from the old vectors again. `forward` then clones them before use; see there why.

        Args:
            weight_mat: The weight as a matrix. / 矩阵形式的权重。
            n_power_iterations: How many steps. / 迭代步数。

        Raises:
            AssertionError: `weight_mat` has fewer than 2 dimensions. / `weight_mat` 少于 2 维。
        """
        # 中: 前提条件；正确使用时不会触发。
        # EN: A precondition; never fires in correct use.
        if weight_mat.ndim <= 1:
            raise AssertionError(
                f"Expected weight_mat to have more than 1 dimension, got {weight_mat.ndim}"
            )

        # 中: `out=` 写进已有的缓冲区对象；再赋值回去，结果是同一个对象，经
        # 中: `Module.__setattr__` 重新登记为同名缓冲区（与 torch 一样，也会触发缓冲区注册钩子）。
        # EN: `out=` writes into the existing buffer objects; assigning the result back (the
        # EN: same object) re-registers it as the same buffer through `Module.__setattr__`
        # EN: (firing buffer registration hooks, as in torch).
        for _ in range(n_power_iterations):
            self._u = F.normalize(torch.mv(weight_mat, self._v), dim=0, eps=self.eps, out=self._u)
            self._v = F.normalize(torch.mv(weight_mat.H, self._u), dim=0, eps=self.eps, out=self._v)

    def forward(self, weight: Tensor) -> Tensor:
        r"""Divide `weight` by its estimated largest singular value. / 用估计出的最大奇异值去除 `weight`。

        === "中文"

            一维权重直接按 2-范数归一化。多维时：训练模式先做幂迭代更新 `_u`、`_v`，
            然后用它们的**副本**算 `σ = u^H (W v)`（`torch.vdot` 对第一个参数取共轭），
            返回 `weight / σ`。梯度经 `σ` 回传到 `weight`，但不回传到 `_u`、`_v`。

            为什么要复制：一个图里可能有两次前向传播（GAN 里常见的 `D(real) - D(fake)`），
            第二次会就地改写 `_u`、`_v`；第一次的反向传播若直接用了它们，自动求导（autograd）
            会发现被保存的张量已被修改而报错。

        === "English"

            A 1-dim weight is normalized by its 2-norm directly. Otherwise: in training mode
            power iteration first updates `_u` and `_v`, then their **clones** give
            `σ = u^H (W v)` (`torch.vdot` conjugates its first argument), and `weight / σ` is
            returned. Gradients flow to `weight` through `σ`, not to `_u` and `_v`.

            Why the clones: one graph may hold two forward passes (the common GAN pattern
            `D(real) - D(fake)`), and the second rewrites `_u` and `_v` in place; had the first
            pass used them directly, autograd would find a saved tensor modified and raise in
            the backward pass.

        Args:
            weight: The original weight. / 原始权重。

        Returns:
            The normalized weight. / 归一化后的权重。
        """
        # 中: 一维：最大奇异值就是 2-范数，既快又精确，无需估计。
        # EN: 1-dim: the largest singular value is the 2-norm, fast and exact, no estimate
        # EN: needed.
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        else:
            weight_mat = self._reshape_weight_to_matrix(weight)
            if self.training:
                self._power_method(weight_mat, self.n_power_iterations)
            # 中: 复制成连续张量，之后的就地更新不会影响本次的计算图。
            # EN: Contiguous clones, so later in-place updates leave this graph alone.
            u = self._u.clone(memory_format=torch.contiguous_format)
            v = self._v.clone(memory_format=torch.contiguous_format)
            sigma = torch.vdot(u, torch.mv(weight_mat, v))
            return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        r"""Store an assigned weight as it is. / 把赋入的权重原样存下。

        === "中文"

            `module.weight = W` 时原始张量直接变成 `W`，不检查、也不先除以 `σ`：
            读回来的是 `W / σ(W)`，不是 `W`。

        === "English"

            On `module.weight = W` the original simply becomes `W`, unchecked and not divided
            by `σ` first: reading it back gives `W / σ(W)`, not `W`.

        Args:
            value: The assigned weight. / 赋入的权重。

        Returns:
            `value` itself. / `value` 本身。
        """
        return value


def spectral_norm(
    module: Module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Module:
    r"""Divide `module.<name>` by its largest singular value on every read. / 每次读取时用最大奇异值去除 `module.<name>`。

    === "中文"

        谱归一化（论文 https://arxiv.org/abs/1802.05957）限制层的 Lipschitz 常数，常用于稳定
        GAN 判别器的训练。注册
        [`_SpectralNorm`][annotated_nn.utils.parametrizations._SpectralNorm] 参数化：
        状态字典里是 `parametrizations.<name>.original`（未归一化的权重）与
        `parametrizations.<name>.0._u`、`._v`（奇异向量的估计）。

        `dim` 默认 `0`；转置卷积（annotated_nn 的 `ConvTranspose1d/2d/3d` 及其子类）默认 `1`，
        因为它们的权重把输出通道放在第 1 维。训练模式下每次读取 `weight` 都做幂迭代；
        在训练模式下移除参数化（`leave_parametrized=True`）读取一次 `weight`，也就多做一次，
        不想要就先切到评估模式。它是旧版基于钩子的
        [`spectral_norm`][annotated_nn.utils.spectral_norm.spectral_norm] 的重新实现。

    === "English"

        Spectral normalization (paper: https://arxiv.org/abs/1802.05957) bounds a layer's
        Lipschitz constant and is commonly used to stabilize the training of GAN
        discriminators. Registers a
        [`_SpectralNorm`][annotated_nn.utils.parametrizations._SpectralNorm] parametrization:
        the state_dict holds `parametrizations.<name>.original` (the unnormalized weight) and
        `parametrizations.<name>.0._u` and `._v` (the singular vector estimates).

        `dim` defaults to `0`, and to `1` for transposed convolutions (annotated_nn's
        `ConvTranspose1d/2d/3d` and their subclasses), whose weights keep the output channels
        in dimension 1. In training mode every read of `weight` runs power iteration; removing
        the parametrization in training mode (`leave_parametrized=True`) reads `weight` once
        and so runs it once more: switch to evaluation mode first to avoid it. It
        re-implements the old hook-based
        [`spectral_norm`][annotated_nn.utils.spectral_norm.spectral_norm].

    Args:
        module: The module owning the tensor. / 持有该张量的模块。
        name: Name of the tensor. / 张量名。
        n_power_iterations: Power iteration steps per read in training mode. / 训练模式下每次读取的幂迭代步数。
        eps: Lower bound of norms when normalizing. / 归一化时范数的下限。
        dim: The output dimension; `None` picks 0 or 1 as above. / 输出所在的维度；`None` 按上文取 0 或 1。

    Returns:
        `module`, parametrized. / 参数化后的 `module`。

    Raises:
        ValueError: No such tensor, or `n_power_iterations` not positive. / 没有这个张量，或 `n_power_iterations` 不是正数。
        IndexError: `dim` out of range. / `dim` 越界。
        RuntimeError: An uninitialized parameter. / 未初始化参数。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> from annotated_nn.utils.parametrizations import spectral_norm
        >>> m = spectral_norm(nn.Linear(20, 40))
        >>> for key in m.state_dict():
        ...     print(key)
        bias
        parametrizations.weight.original
        parametrizations.weight.0._u
        parametrizations.weight.0._v
        >>> m.parametrizations.weight[0]._u.shape, m.parametrizations.weight[0]._v.shape
        (torch.Size([40]), torch.Size([20]))
    """
    # 中: 名字必须指向一个张量；文字与 `orthogonal` 的相同，也与 torch 相同。
    # EN: The name must be a tensor; the message is `orthogonal`'s, and torch's.
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")

    # 中: 用 annotated_nn 的转置卷积类判断（torch 判断的是它自己的类）；惰性转置卷积是子类，
    # 中: 同样得到 `1`，随后因参数未初始化而报错。
    # EN: Checked against annotated_nn's transposed convolutions (torch checks its own
    # EN: classes); lazy transposed convolutions are subclasses, also get `1`, and then fail on
    # EN: their uninitialized parameter.
    if dim is None:
        if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)):
            dim = 1
        else:
            dim = 0
    # 中: 不带 `unsafe`：注册时运行一次整条链作检查，训练模式下这又做 `n_power_iterations` 步幂迭代。
    # EN: Not `unsafe`: registration runs the whole chain once as a check, which in training
    # EN: mode runs `n_power_iterations` more power iteration steps.
    parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps)
    )
    return module
