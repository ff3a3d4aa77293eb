r"""Settings of the chunked `linear_cross_entropy`; mirrors `torch.nn.modules.linear_cross_entropy_options`. / 分块 `linear_cross_entropy` 的设置，对应 `torch.nn.modules.linear_cross_entropy_options`。

=== "中文"

    [`LinearCrossEntropyLoss`][annotated_nn.modules.loss.LinearCrossEntropyLoss] 把最后一个线性层
    和交叉熵合成一步。默认（`options=None`）走参考实现：先算出完整的 `(N, C)` logits 张量，再做
    交叉熵。传入一个 [`LinearCrossEntropyOptions`][annotated_nn.modules.linear_cross_entropy_options.LinearCrossEntropyOptions]
    就改走 torch 的分块实现：沿批次维每次只处理 `batch_chunk_size` 行，logits 缓冲区只有
    `(batch_chunk_size, C)` 那么大；汇总方式为 `"mean"`/`"sum"` 时，它在前向传播（forward pass）
    里就把梯度算好。类别数 `C` 远大于 `in_features`（例如大语言模型的词表输出层）、且批次至少有
    `in_features` 行时，`(N, C)` 的 logits 比输入和权重都大，分块后同一时刻只存在其中一块。

    这个类只是一份不可变的配置（冻结的 dataclass，带 `__slots__`）：构造时检查各字段，
    计算本身在 torch 的 `F.linear_cross_entropy` 里。那个函数会调用这里的 `_adjust`，
    按这次调用的形状、数据类型和设备把 `"auto"` 与 `None` 换成具体的值，所以本库的这个类
    可以直接交给 torch 的内核使用。

=== "English"

    [`LinearCrossEntropyLoss`][annotated_nn.modules.loss.LinearCrossEntropyLoss] fuses the last
    linear layer with cross entropy. By default (`options=None`) it takes the reference path:
    compute the full `(N, C)` logits tensor, then the cross entropy. Passing a
    [`LinearCrossEntropyOptions`][annotated_nn.modules.linear_cross_entropy_options.LinearCrossEntropyOptions]
    switches to torch's chunked implementation: it walks the batch dimension
    `batch_chunk_size` rows at a time, and its logits buffer is only `(batch_chunk_size, C)`;
    for the `"mean"`/`"sum"` reductions it computes the gradients already in the forward pass.
    When the number of classes `C` is much larger than `in_features` (say the vocabulary head of
    a large language model) and the batch has at least `in_features` rows, the `(N, C)` logits
    outgrow both the input and the weight; after chunking only one chunk of them exists at a
    time.

    The class is just an immutable configuration (a frozen dataclass with `__slots__`): the
    constructor checks the fields; the computation itself lives in torch's
    `F.linear_cross_entropy`. That function calls `_adjust` here to turn `"auto"` and `None`
    into concrete values for the call's shapes, dtype and device, which is why this library's
    class can be handed to torch's kernel directly.
"""

import dataclasses
from typing import Literal, NamedTuple

import torch

__all__ = ["LinearCrossEntropyOptions"]


class _AutoDefault(NamedTuple):
    r"""What `"auto"` resolves to for one device and dtype. / `"auto"` 对某个设备与数据类型解析成什么。

    === "中文"

        一对取值：`acc_policy`（精度与内存的取舍）和 `chunking_method`（怎样决定每块的行数）。

    === "English"

        A pair of values: `acc_policy` (the precision/memory trade-off) and `chunking_method`
        (how the rows per chunk are decided).

    Attributes:
        acc_policy: `"accurate"`, `"balanced"` or `"compact"`. / `"accurate"`、`"balanced"` 或 `"compact"`。
        chunking_method: `"aspect_ratio"` or `"aspect_ratio:N"`. / `"aspect_ratio"` 或 `"aspect_ratio:N"`。
    """

    acc_policy: str
    chunking_method: str


# 中: `"auto"` 的取值表，按 `(设备类型, 输入数据类型)` 查；这些值与 torch 2.13 的表相同。CPU 上的
# 中: 半精度输入用 `"accurate"`：torch 的说明是，只有这个策略在 CPU 上用 fp32 做权重梯度的矩阵乘，
# 中: 其它策略会走 CPU 上模拟的低精度矩阵乘，慢很多。
# EN: The table for `"auto"`, keyed by `(device type, input dtype)`; the values are torch 2.13's.
# EN: Half-precision input on CPU gets `"accurate"`: as torch documents, it is the only policy
# EN: whose weight-gradient matmul runs in fp32 on CPU, the others take CPU's emulated
# EN: low-precision matmul, which is much slower.
_AUTO_DEFAULTS: dict[tuple[str, torch.dtype], _AutoDefault] = {
    ("cuda", torch.bfloat16): _AutoDefault("compact", "aspect_ratio:2"),
    ("cuda", torch.float16): _AutoDefault("compact", "aspect_ratio:2"),
    ("cpu", torch.bfloat16): _AutoDefault("accurate", "aspect_ratio"),
    ("cpu", torch.float16): _AutoDefault("accurate", "aspect_ratio"),
}
# 中: 表里没有的组合（包括 CPU 上的 fp32 输入）一律用这一对。
# EN: Any pair missing from the table (fp32 input on CPU included) gets this one.
_AUTO_FALLBACK: _AutoDefault = _AutoDefault("compact", "aspect_ratio:2")


@dataclasses.dataclass(slots=True, frozen=True)
class LinearCrossEntropyOptions:
    r"""Opt-in settings for the chunked `linear_cross_entropy`. / 启用分块 `linear_cross_entropy` 的设置。

    === "中文"

        五个字段都有默认值，所以 `LinearCrossEntropyOptions()` 就表示“用分块实现，其余自动选”。
        各字段：

        - `allow_retain_graph`：只影响 `"mean"`/`"sum"` 两种汇总。分块实现在前向传播里预先算好梯度，
          反向传播时就地缩放这些缓冲区；默认 `False` 时第二次 `.backward()` 会报 `RuntimeError`，
          设为 `True` 则保留缓冲区，代价是每次调用多一份梯度大小的内存。
        - `batch_chunk_size`：每块的行数。`None` 时由 `chunking_method` 决定（默认的 `"auto"`
          规则通常分成多块），只有 `chunking_method` 也是 `None` 才整批一块；给出它时，
          `"auto"` 的分块规则自动关闭。
        - `chunking_method`：由形状推出每块行数的启发式规则。`"aspect_ratio"` 让每块 logits
          `(行数, C)` 与输入 `(N, in_features)` 大致一样大：行数取
          `ceil(N / ceil(C / in_features))` 向上取到 2 的幂；`"aspect_ratio:K"` 再除以 `K`；
          `None` 关掉规则，只看 `batch_chunk_size`；默认 `"auto"` 按设备与数据类型查表。
        - `acc_policy`：`"accurate"`、`"balanced"`、`"compact"` 或 `"auto"`，决定哪些中间结果用
          `acc_dtype` 累加、是否为权重梯度另开一块暂存区，即精度与内存之间的取舍。
        - `acc_dtype`：内部累加的数据类型；`None` 表示调用时再定（见 `_adjust`）。

        分块实现只支持 `reduction` 为 `"mean"`/`"sum"`/`"none"`、`label_smoothing == 0`、int64
        类别下标目标、没有 `out_features`，且不在 `torch.jit.trace` 中；否则 torch 发出警告并改走参考实现。
        它也不支持高阶求导与前向模式求导。

    === "English"

        All five fields have defaults, so `LinearCrossEntropyOptions()` means "use the chunked
        implementation, choose the rest automatically". The fields:

        - `allow_retain_graph`: matters for the `"mean"`/`"sum"` reductions only. The chunked
          path precomputes the gradients in the forward pass and scales those buffers in place
          during the backward pass; with the default `False` a second `.backward()` raises
          `RuntimeError`, while `True` keeps the buffers at the cost of one extra gradient-sized
          allocation per call.
        - `batch_chunk_size`: rows per chunk. With `None` the `chunking_method` decides (the
          default `"auto"` rule usually makes several chunks); only when `chunking_method` is
          `None` too is the whole batch one chunk. Giving it turns the `"auto"` rule off.
        - `chunking_method`: a heuristic that derives the rows per chunk from the shapes.
          `"aspect_ratio"` makes each chunk's logits `(rows, C)` about as large as the input
          `(N, in_features)`: the rows are `ceil(N / ceil(C / in_features))` rounded up to a
          power of 2; `"aspect_ratio:K"` divides that by `K`; `None` turns the heuristic off and
          uses `batch_chunk_size` alone; the default `"auto"` looks the choice up by device and
          dtype.
        - `acc_policy`: `"accurate"`, `"balanced"`, `"compact"` or `"auto"`; it decides which
          intermediates accumulate in `acc_dtype` and whether the weight gradient gets a
          separate scratch buffer: the trade-off between precision and memory.
        - `acc_dtype`: the dtype of internal accumulation; `None` means decided at call time
          (see `_adjust`).

        The chunked path supports only `reduction` `"mean"`/`"sum"`/`"none"`,
        `label_smoothing == 0`, int64 class-index targets, no `out_features`, and no
        `torch.jit.trace`; otherwise torch warns and takes the reference path. It does not
        support higher-order or forward-mode differentiation either.

    Args:
        allow_retain_graph: Keep the precomputed gradients for a second backward. / 为第二次反向传播保留预先算好的梯度。
        batch_chunk_size: Rows per chunk, or `None`. / 每块的行数，或 `None`。
        chunking_method: `"auto"`, `"aspect_ratio"`, `"aspect_ratio:N"` or `None`. / `"auto"`、`"aspect_ratio"`、`"aspect_ratio:N"` 或 `None`。
        acc_policy: `"auto"`, `"accurate"`, `"balanced"` or `"compact"`. / `"auto"`、`"accurate"`、`"balanced"` 或 `"compact"`。
        acc_dtype: Accumulation dtype, or `None`. / 累加用的数据类型，或 `None`。

    Raises:
        ValueError: A field has an invalid value. / 某个字段的取值不合法。

    Examples:
        >>> import annotated_nn as nn
        >>> nn.LinearCrossEntropyOptions(batch_chunk_size=64)
        LinearCrossEntropyOptions(allow_retain_graph=False, batch_chunk_size=64, chunking_method='auto', acc_policy='auto', acc_dtype=None)
    """

    # 中: 字段的顺序就是构造函数位置参数的顺序，也是 `repr` 里的顺序，都与 torch 相同。
    # EN: The field order is the constructor's positional order and the `repr`'s order, both
    # EN: torch's.
    allow_retain_graph: bool = False
    batch_chunk_size: int | None = None
    chunking_method: str | None = "auto"
    acc_policy: Literal[
        "accurate",
        "balanced",
        "compact",
        "auto",
    ] = "auto"
    acc_dtype: torch.dtype | None = None

    def __post_init__(self):
        r"""Validate the fields right after construction. / 构造后立即检查各字段。

        === "中文"

            依次检查 `acc_policy`、`chunking_method`、`batch_chunk_size`、`acc_dtype`，第一个不合法的
            字段抛出 `ValueError`，文字与 torch 相同。这样错误在构造时就暴露，而不是等到前向传播。

        === "English"

            Checks `acc_policy`, `chunking_method`, `batch_chunk_size` and `acc_dtype` in turn;
            the first invalid field raises `ValueError` with torch's text. Mistakes thus surface
            at construction, not in the forward pass.

        Raises:
            ValueError: A field has an invalid value. / 某个字段的取值不合法。
        """
        if self.acc_policy not in {"auto", "accurate", "balanced", "compact"}:
            raise ValueError(f"invalid acc_policy: {self.acc_policy!r}")
        # 中: 合法的写法只有 `"aspect_ratio"`（倍数默认为 1）和 `"aspect_ratio:N"`，`N` 是正的十进制整数。
        # EN: The only valid spellings are `"aspect_ratio"` (factor 1 by default) and
        # EN: `"aspect_ratio:N"` with `N` a positive decimal integer.
        if self.chunking_method is not None and self.chunking_method != "auto":
            name, sep, factor = self.chunking_method.partition(":")
            if not sep:
                factor = "1"
            if not (name == "aspect_ratio" and factor.isdigit() and int(factor) > 0):
                raise ValueError(f"invalid chunking_method: {self.chunking_method!r}")
        # 中: `isinstance(..., int)` 对 `True` 也成立，所以 `batch_chunk_size=True` 能通过（与 torch 相同）。
        # EN: `isinstance(..., int)` holds for `True` as well, so `batch_chunk_size=True` passes
        # EN: (as in torch).
        if not (
            self.batch_chunk_size is None
            or (isinstance(self.batch_chunk_size, int) and self.batch_chunk_size > 0)
        ):
            raise ValueError(
                f"batch_chunk_size must be positive int or None, got {self.batch_chunk_size!r}"
            )
        # 中: fp64 也在允许之列：fp64 输入经 `_adjust` 解析后，`acc_dtype` 就是 fp64。
        # EN: fp64 is allowed too: for fp64 input, `_adjust` resolves `acc_dtype` to fp64.
        supported_acc_dtypes = {torch.float16, torch.bfloat16, torch.float32, torch.float64}
        if self.acc_dtype is not None and self.acc_dtype not in supported_acc_dtypes:
            raise ValueError(
                f"acc_dtype must be one of {{None, torch.float16, torch.bfloat16, "
                f"torch.float32, torch.float64}}, got {self.acc_dtype!r}. Pass "
                "acc_dtype=None to let the op pick automatically."
            )

    @staticmethod
    def _ceil_div(a: int, b: int) -> int:
        r"""Integer division rounded up. / 向上取整的整数除法。

        === "中文"

            对非负整数计算 `ceil(a / b)`：把向下取整的 `//` 用在相反数上，全程是整数运算，没有浮点误差。

        === "English"

            `ceil(a / b)` for non-negative integers: floor division `//` applied to the negated
            numerator, in integer arithmetic throughout, so no floating-point error.

        Args:
            a: The dividend. / 被除数。
            b: The divisor. / 除数。

        Returns:
            `ceil(a / b)`. / `ceil(a / b)`。
        """
        return -(-a // b)

    @staticmethod
    def _resolve_auto_acc_dtype(
        dtype: torch.dtype, device: torch.device | None
    ) -> torch.dtype | None:
        r"""fp32 when the hardware can accumulate half-precision input in fp32. / 硬件能以 fp32 累加半精度输入时返回 fp32。

        === "中文"

            只对 fp16/bf16 输入有意义。CUDA 要求计算能力 7.0 及以上（fp16）或 8.0 及以上（bf16），
            CPU 总可以；其余情况返回 `None`，调用者就用输入本身的数据类型。

        === "English"

            Meaningful only for fp16/bf16 input. CUDA needs compute capability 7.0 or above
            (fp16) or 8.0 or above (bf16); CPU always qualifies; in every other case it returns
            `None` and the caller uses the input's own dtype.

        Args:
            dtype: The input's dtype. / 输入的数据类型。
            device: The input's device, or `None`. / 输入所在的设备，或 `None`。

        Returns:
            `torch.float32` or `None`. / `torch.float32` 或 `None`。
        """
        if device is None or dtype not in (torch.float16, torch.bfloat16):
            return None
        # 中: CUDA 上按主版本号判断混合精度矩阵乘是否可用；没有可用的 CUDA 时返回 `None`。
        # EN: On CUDA the major compute capability decides whether mixed-precision matmul is
        # EN: available; without a usable CUDA the answer is `None`.
        if device.type == "cuda":
            if not torch.cuda.is_available():
                return None
            major, _ = torch.cuda.get_device_capability(device)
            if dtype == torch.bfloat16 and major < 8:
                return None
            if dtype == torch.float16 and major < 7:
                return None
            return torch.float32
        if device.type == "cpu":
            return torch.float32
        return None

    def _compute_batch_chunk_size(
        self,
        num_batches: int,
        in_features: int,
        num_classes: int,
        method: str | None = None,
    ) -> int:
        r"""Rows per chunk from the `"aspect_ratio"` rule. / 按 `"aspect_ratio"` 规则算每块的行数。

        === "中文"

            `C / in_features` 向上取整得到“logits 一行比输入一行大几倍”，用它去除 `N`，再向上取到
            2 的幂，使一块 logits 与整个输入差不多大；`"aspect_ratio:K"` 再除以 `K`，结果不超过 `N`。
            例如 `N=1024, in_features=64, C=32000` 时倍数是 500，行数是 `ceil(1024 / 500) = 3`，
            取到 2 的幂是 4。

        === "English"

            `C / in_features` rounded up says how many times larger a logits row is than an
            input row; `N` divided by it, rounded up to a power of 2, makes one chunk of logits
            about as large as the whole input; `"aspect_ratio:K"` divides by `K`, and the result
            never exceeds `N`. With `N=1024, in_features=64, C=32000`, for instance, the ratio is
            500, the rows `ceil(1024 / 500) = 3`, rounded up to the power of 2 4.

        Args:
            num_batches: Rows of the input, `N`. / 输入的行数 `N`。
            in_features: Features per row. / 每行的特征数。
            num_classes: Number of classes, `C`. / 类别数 `C`。
            method: A resolved method, or `None` for `self.chunking_method`. / 已解析的方法；`None` 表示用 `self.chunking_method`。

        Returns:
            The rows per chunk. / 每块的行数。

        Raises:
            AssertionError: The method is not an `"aspect_ratio"` one. / 方法不是 `"aspect_ratio"` 类。
        """
        method = str(method if method is not None else self.chunking_method)

        # 中: `(target - 1).bit_length()` 位的 1 左移，得到不小于 `target` 的最小 2 的幂；
        # 中: 除以倍数后可能得到 0，`_adjust` 最后会把它提到 1。
        # EN: Shifting 1 left by `(target - 1).bit_length()` bits gives the smallest power of 2
        # EN: not below `target`; dividing by the factor may give 0, which `_adjust` finally
        # EN: raises to 1.
        if method.startswith("aspect_ratio"):
            factor = int(method.split(":", 1)[1]) if ":" in method else 1
            rows_ratio = self._ceil_div(num_classes, in_features)
            target = self._ceil_div(num_batches, rows_ratio)
            chunk_size = 1 << (target - 1).bit_length()
            return min(chunk_size // factor, num_batches)

        # 中: `__post_init__` 已经挡住了其它写法，所以这里正常情况下到不了。
        # EN: `__post_init__` already rejects other spellings, so normally this is unreachable.
        raise AssertionError(f"unhandled chunking_method: {method!r}")

    def _adjust(self, num_batches, in_features, num_classes, dtype, device=None):
        r"""Resolve every `"auto"` and `None` for one call. / 为一次调用解析所有 `"auto"` 与 `None`。

        === "中文"

            torch 的 `F.linear_cross_entropy` 在走分块实现前调用它，返回一个所有字段都具体的新实例
            （原实例不可变，不被修改）：

            1. `"auto"` 的 `acc_policy`/`chunking_method` 按 `(设备类型, 数据类型)` 查表，`device`
               为 `None` 时直接用后备值；显式给了 `batch_chunk_size` 时 `"auto"` 的分块规则被关掉；
            2. 定出每块的行数：`batch_chunk_size`（不超过 `N`），或由分块规则算出；两者同时给出且不一致就报错；
            3. 定出 `acc_dtype`：`None` 时，只有 `acc_policy` 原本是 `"auto"` 才可能选 fp32，否则用输入的数据类型。

        === "English"

            torch's `F.linear_cross_entropy` calls it before taking the chunked path; it returns
            a new instance with every field concrete (the original is immutable and unchanged):

            1. an `"auto"` `acc_policy`/`chunking_method` is looked up by `(device type, dtype)`,
               with the fallback pair when `device` is `None`; an explicit `batch_chunk_size`
               turns the `"auto"` chunking rule off;
            2. decide the rows per chunk: `batch_chunk_size` (at most `N`), or what the chunking
               rule computes; both given and disagreeing is an error;
            3. decide `acc_dtype`: when `None`, fp32 is possible only if `acc_policy` was
               originally `"auto"`; otherwise the input's dtype.

        Args:
            num_batches: Rows of the input, `N`. / 输入的行数 `N`。
            in_features: Features per row. / 每行的特征数。
            num_classes: Number of classes, `C`. / 类别数 `C`。
            dtype: The input's dtype. / 输入的数据类型。
            device: The input's device, or `None`. / 输入所在的设备，或 `None`。

        Returns:
            A concrete `LinearCrossEntropyOptions`. / 所有字段都具体的 `LinearCrossEntropyOptions`。

        Raises:
            ValueError: `batch_chunk_size` and `chunking_method` disagree. / `batch_chunk_size` 与 `chunking_method` 不一致。
        """
        # 中: 第 1 步：用户给了具体的行数，就不让 `"auto"` 的分块规则与它冲突；`acc_policy` 不受影响。
        # EN: Step 1: an explicit row count is not overridden by the `"auto"` chunking rule;
        # EN: `acc_policy` is unaffected.
        acc_policy = self.acc_policy
        chunking_method = self.chunking_method
        if chunking_method == "auto" and self.batch_chunk_size is not None:
            chunking_method = None
        if acc_policy == "auto" or chunking_method == "auto":
            if device is not None:
                auto_policy, auto_method = _AUTO_DEFAULTS.get((device.type, dtype), _AUTO_FALLBACK)
            else:
                auto_policy, auto_method = _AUTO_FALLBACK
            if acc_policy == "auto":
                acc_policy = auto_policy
            if chunking_method == "auto":
                chunking_method = auto_method

        # 中: 第 2 步：先取用户的行数（不超过 `N`），有分块规则时以规则为准；两者都给出却算得不同就报错，
        # 中: 文字与 torch 相同。
        # EN: Step 2: start from the user's row count (at most `N`); a chunking rule, if any,
        # EN: decides; both given yet different is an error, with torch's text.
        if self.batch_chunk_size is None:
            batch_chunk_size = num_batches
        else:
            batch_chunk_size = min(self.batch_chunk_size, num_batches)
        if chunking_method is not None:
            batch_chunk_size = self._compute_batch_chunk_size(
                num_batches, in_features, num_classes, chunking_method
            )
            if self.batch_chunk_size is not None and self.batch_chunk_size != batch_chunk_size:
                raise ValueError(
                    f"batch_chunk_size (={self.batch_chunk_size}) and "
                    f"chunking_method ('{chunking_method}') give different "
                    f"chunk sizes ({self.batch_chunk_size} vs {batch_chunk_size}); "
                    f"pass only one."
                )

        # 中: 第 3 步：注意判断的是原来的 `self.acc_policy`，不是上面解析后的值。
        # EN: Step 3: note that the test reads the original `self.acc_policy`, not the value
        # EN: resolved above.
        if self.acc_dtype is None:
            auto_acc = (
                self._resolve_auto_acc_dtype(dtype, device) if self.acc_policy == "auto" else None
            )
            acc_dtype = auto_acc if auto_acc is not None else dtype
        else:
            acc_dtype = self.acc_dtype
        # 中: 冻结的 dataclass 不能改字段，所以用 `dataclasses.replace` 造一个新实例；行数至少为 1。
        # EN: A frozen dataclass cannot change its fields, so `dataclasses.replace` builds a new
        # EN: instance; the row count is at least 1.
        return dataclasses.replace(
            self,
            acc_policy=acc_policy,
            chunking_method=chunking_method,
            batch_chunk_size=max(1, batch_chunk_size),
            acc_dtype=acc_dtype,
        )
