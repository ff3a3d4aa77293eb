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

    __constants__ = [
        "size",
        "scale_factor",
        "mode",
        "align_corners",
        "name",
        "recompute_scale_factor",
    ]
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
        super().__init__()
        self.name = type(self).__name__
        self.size = size
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
        if self.scale_factor is not None:
            info = "scale_factor=" + repr(self.scale_factor)
        else:
            info = "size=" + repr(self.size)
        info += ", mode=" + repr(self.mode)
        return info


class UpsamplingNearest2d(Upsample):
    r"""Nearest-neighbour upsampling of 2-D images. / 对二维图像做最近邻上采样。

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
