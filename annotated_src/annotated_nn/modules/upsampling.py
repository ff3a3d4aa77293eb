r"""Upsampling layers: resize by interpolation. / 上采样层：通过插值改变尺寸。

=== "中文"

    `Upsample` 是 `F.interpolate` 的模块外壳：用 `size`（目标尺寸）或 `scale_factor`
    （倍数）二选一描述输出大小，`mode` 选择插值方式（`nearest`、`linear`、`bilinear`、
    `bicubic`、`trilinear` 等）。没有参数（parameter）。`UpsamplingNearest2d` 与
    `UpsamplingBilinear2d` 是固定了 `mode` 的旧写法，torch 的文档建议改用 `Upsample`
    （2.13 中它们在运行时并不发出弃用警告）；注意后者固定 `align_corners=True`。

=== "English"

    `Upsample` is the module shell around `F.interpolate`: the output size is given either as
    `size` (the target size) or as `scale_factor` (a multiplier), and `mode` picks the
    interpolation (`nearest`, `linear`, `bilinear`, `bicubic`, `trilinear`, ...). There are no
    parameters. `UpsamplingNearest2d` and `UpsamplingBilinear2d` are older spellings with a
    fixed `mode`; torch's documentation recommends `Upsample` instead (in 2.13 they emit no
    deprecation warning at run time). Note that the latter fixes `align_corners=True`.
"""

import torch.nn.functional as F
from torch import Tensor
from torch.nn.common_types import _ratio_2_t, _ratio_any_t, _size_2_t, _size_any_t

from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]


class Upsample(Module):
    r"""Resize `(N, C, *)` input with `F.interpolate`. / 用 `F.interpolate` 改变 `(N, C, *)` 输入的尺寸。

    === "中文"

        构造时把 `scale_factor` 转成浮点数（tuple 则逐项转换），所以 `repr` 里显示
        `2.0` 而不是 `2`。`size` 与 `scale_factor` 是否只给了一个，要到前向传播（forward pass）
        时才由 `F.interpolate` 检查。`repr` 只显示 `scale_factor`（若有）或 `size`，再加 `mode`。

    === "English"

        The constructor converts `scale_factor` to float (item by item for a tuple), so the
        `repr` shows `2.0` rather than `2`. Whether exactly one of `size` and `scale_factor`
        was given is only checked by `F.interpolate` during the forward pass. The `repr`
        shows `scale_factor` (if set) or else `size`, followed by `mode`.

    Args:
        size: Target spatial size. / 目标空间尺寸。
        scale_factor: Multiplier of the spatial size. / 空间尺寸的倍数。
        mode: Interpolation algorithm. / 插值算法。
        align_corners: Align the corner pixels (linear modes only). / 是否对齐角点像素（仅线性类模式）。
        recompute_scale_factor: Recompute the scale from the output size. / 是否按输出尺寸重新计算倍数。

    Examples:
        >>> import torch, annotated_nn as nn
        >>> m = nn.Upsample(scale_factor=2)
        >>> m
        Upsample(scale_factor=2.0, mode='nearest')
        >>> m(torch.tensor([[[1.0, 2.0]]]))
        tensor([[[1., 1., 2., 2.]]])
    """

    # 中: `__constants__` 与下面的类型注解都是给 TorchScript 的：脚本化时这些属性成为常量。
    # EN: `__constants__` and the annotations below are for TorchScript: scripting makes these
    # EN: attributes constants.
    __constants__ = [
        "size",
        "scale_factor",
        "mode",
        "align_corners",
        "name",
        "recompute_scale_factor",
    ]
    # 中: 尺寸与倍数都可能是 None（二者通常只给一个）。
    # EN: Both size and factor may be None (usually only one of them is given).
    name: str
    size: _size_any_t | None
    scale_factor: _ratio_any_t | None
    mode: str
    align_corners: bool | None
    recompute_scale_factor: bool | None

    def __init__(
        self,
        size: _size_any_t | None = None,
        scale_factor: _ratio_any_t | None = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None:
        r"""Store the settings, converting `scale_factor` to float. / 保存设置，并把 `scale_factor` 转成浮点数。

        === "中文"

            `name` 记录实际的类名。`scale_factor` 为 0 或 `None` 时都存成 `None`。

        === "English"

            `name` records the actual class name. A `scale_factor` of 0 or `None` is stored
            as `None`.

        Args:
            size: Target spatial size. / 目标空间尺寸。
            scale_factor: Multiplier of the spatial size. / 空间尺寸的倍数。
            mode: Interpolation algorithm. / 插值算法。
            align_corners: Align the corner pixels. / 是否对齐角点像素。
            recompute_scale_factor: Recompute the scale from the output size. / 是否按输出尺寸重新计算倍数。
        """
        # 中: `name` 记下实际的类名（子类如 `UpsamplingNearest2d` 得到自己的名字）；`forward` 与 `repr`
        # 中: 都不用它。`size` 原样保存，这里不检查 `size` 与 `scale_factor` 是否只给了一个。
        # EN: `name` records the actual class name (a subclass such as `UpsamplingNearest2d` gets
        # EN: its own); neither `forward` nor `repr` uses it. `size` is stored as given; whether
        # EN: only one of `size` and `scale_factor` was given is not checked here.
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        # 中: tuple 形式的倍数逐项转成 float，因此 `repr` 显示 `(2.0, 2.0)`。
        # EN: A tuple of factors is converted item by item to float, so `repr` shows `(2.0, 2.0)`.
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            # 中: 用真值判断：0 与 None 一样被当作“没有给倍数”。
            # EN: A truthiness test: 0 counts as "no factor given", just like None.
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        r"""Interpolate via `F.interpolate`. / 通过 `F.interpolate` 插值。

        === "中文"

            所有设置原样传给 `F.interpolate`，参数组合的错误也由它报告。

        === "English"

            All settings go to `F.interpolate` unchanged, which also reports invalid
            combinations.

        Args:
            input: Tensor `(N, C, *)`. / 张量 `(N, C, *)`。

        Returns:
            The resized tensor. / 改变尺寸后的张量。
        """
        # 中: 全部设置原样交给 `F.interpolate`，组合是否合法也由它检查：`size` 与 `scale_factor` 必须
        # 中: 恰好给一个；`nearest`、`area`、`nearest-exact` 不能带 `align_corners`（插值类模式可以）；
        # 中: `recompute_scale_factor=True` 不能与 `size` 同用。
        # EN: All settings go to `F.interpolate` as they are, and it checks the combination:
        # EN: exactly one of `size` and `scale_factor`; no `align_corners` with `nearest`, `area`
        # EN: or `nearest-exact` (the interpolating modes take it); `recompute_scale_factor=True`
        # EN: not together with `size`.
        return F.interpolate(
            input,
            self.size,
            self.scale_factor,
            self.mode,
            self.align_corners,
            recompute_scale_factor=self.recompute_scale_factor,
        )

    def __setstate__(self, state):
        r"""Unpickle, defaulting `recompute_scale_factor` for old pickles. / 反序列化，并为旧 pickle 补上 `recompute_scale_factor`。

        === "中文"

            早期版本没有 `recompute_scale_factor` 属性，旧 pickle 里缺失时补为 True，
            其余交给 [`Module.__setstate__`][annotated_nn.modules.module.Module.__setstate__]。

        === "English"

            Early versions had no `recompute_scale_factor` attribute; when an old pickle
            lacks it, it is set to True, and the rest goes to
            [`Module.__setstate__`][annotated_nn.modules.module.Module.__setstate__].

        Args:
            state: The pickled `__dict__`. / 被 pickle 的 `__dict__`。
        """
        # 中: 在交给 `Module.__setstate__` 之前改 `state`，缺失的键补为 True（torch 的选择）：
        # 中: `F.interpolate` 于是先由 `scale_factor` 算出输出尺寸，再按这个尺寸插值，而不直接用倍数；
        # 中: 整数倍数下两种做法结果相同。陷阱（torch 同样如此，已实测）：按 `size` 构造的旧 pickle
        # 中: 也被补成 True，前向传播时报 "recompute_scale_factor is not meaningful with an explicit size."
        # EN: `state` is patched before `Module.__setstate__` sees it; the missing key becomes True
        # EN: (torch's choice): `F.interpolate` then computes the output size from `scale_factor`
        # EN: and interpolates to that size instead of using the factor directly; for integer
        # EN: factors both give the same result. Pitfall (torch too; checked by running it): an old
        # EN: pickle built with `size` also gets True, and its forward pass then fails with
        # EN: "recompute_scale_factor is not meaningful with an explicit size."
        if "recompute_scale_factor" not in state:
            state["recompute_scale_factor"] = True

        super().__setstate__(state)

    def extra_repr(self) -> str:
        r"""Describe `scale_factor` or `size`, then `mode`. / 描述 `scale_factor` 或 `size`，再加 `mode`。

        === "中文"

            两者都用 `repr` 格式化，例如 `scale_factor=2.0, mode='nearest'`。

        === "English"

            Both use `repr`, for example `scale_factor=2.0, mode='nearest'`.

        Returns:
            The description string. / 描述字符串。
        """
        # 中: `scale_factor` 优先：两者都给了时（前向传播会报错）`repr` 只显示 `scale_factor`。
        # EN: `scale_factor` wins: when both were given (the forward pass will fail), the `repr`
        # EN: shows only `scale_factor`.
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        info += ", mode=" + repr(self.mode)
        return info


class UpsamplingNearest2d(Upsample):
    r"""Nearest-neighbor upsampling of 2-D images. / 对二维图像做最近邻上采样。

    === "中文"

        等价于 `Upsample(size, scale_factor, mode="nearest")`；torch 文档建议直接用 `Upsample`。

    === "English"

        Equivalent to `Upsample(size, scale_factor, mode="nearest")`; torch's documentation
        recommends using `Upsample` directly.

    Args:
        size: Target `(H, W)`. / 目标 `(H, W)`。
        scale_factor: Multiplier of `H` and `W`. / `H` 与 `W` 的倍数。
    """

    def __init__(
        self, size: _size_2_t | None = None, scale_factor: _ratio_2_t | None = None
    ) -> None:
        r"""Build an `Upsample` with `mode="nearest"`. / 构造 `mode="nearest"` 的 `Upsample`。

        === "中文"

            其余设置保持 `Upsample` 的默认值。

        === "English"

            The other settings keep `Upsample`'s defaults.

        Args:
            size: Target `(H, W)`. / 目标 `(H, W)`。
            scale_factor: Multiplier of `H` and `W`. / `H` 与 `W` 的倍数。
        """
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    r"""Bilinear upsampling of 2-D images with aligned corners. / 对二维图像做对齐角点的双线性上采样。

    === "中文"

        等价于 `Upsample(size, scale_factor, mode="bilinear", align_corners=True)`；
        注意 `Upsample` 的默认 `align_corners` 是 `None`（效果同 False），两者结果不同。

    === "English"

        Equivalent to `Upsample(size, scale_factor, mode="bilinear", align_corners=True)`;
        note that `Upsample` defaults to `align_corners=None` (acting as False), which gives
        different results.

    Args:
        size: Target `(H, W)`. / 目标 `(H, W)`。
        scale_factor: Multiplier of `H` and `W`. / `H` 与 `W` 的倍数。
    """

    def __init__(
        self, size: _size_2_t | None = None, scale_factor: _ratio_2_t | None = None
    ) -> None:
        r"""Build an `Upsample` with `mode="bilinear"` and `align_corners=True`. / 构造 `mode="bilinear"`、`align_corners=True` 的 `Upsample`。

        === "中文"

            `recompute_scale_factor` 保持默认的 `None`。

        === "English"

            `recompute_scale_factor` keeps its default `None`.

        Args:
            size: Target `(H, W)`. / 目标 `(H, W)`。
            scale_factor: Multiplier of `H` and `W`. / `H` 与 `W` 的倍数。
        """
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
