r"""Utilities that mirror `torch.utils.hooks` and `torch.nn.utils`. / 对应 `torch.utils.hooks` 与 `torch.nn.utils` 的工具。"""

from . import (
    hooks,  # noqa: F401
    stateless,  # noqa: F401
)
