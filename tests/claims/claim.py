"""The claim tests' marker: which sentence of the commentary a test proves.

Every test in tests/claims/ runs a statement of the commentary (a Note, a "1.5.1 → 2.13" sentence
about today's behavior, a pitfall in a chapter, a line note) on ``torch.nn`` **and** on
``annotated_nn`` and asserts what the statement says, for both. It names the place it proves::

    @proves("annotated_src/annotated_nn/modules/module.py", "Module.__getattr__",
            "an AttributeError inside a @property getter is reported for the property's name")
    @pytest.mark.parametrize("nn", NAMESPACES)
    def test_property_error_is_masked(nn): ...

The book's coverage page counts the claims per file by reading these decorators (their first
argument, a literal path) from the source; a test of the checker keeps every path real.
"""

from __future__ import annotations

import pytest
import torch.nn as tnn
import torch.optim as torch_optim

import annotated_nn as ann
import annotated_optim

# Run every claim with both implementations: the claim is about torch 2.13, and ours must agree.
NAMESPACES = {"torch.nn": tnn, "annotated_nn": ann}


def proves(path: str, obj: str, claim: str):
    """Mark a test as the check of one claim at ``path`` (file), ``obj`` (object, Note or line)."""

    def mark(test):
        test.proves = (path, obj, claim)
        return pytest.mark.claim(test)

    return mark


def each_nn():
    """``pytest.mark.parametrize`` over both namespaces, with readable ids."""
    return pytest.mark.parametrize("nn", list(NAMESPACES.values()), ids=list(NAMESPACES))


# The optimizer claims run with torch.optim and with annotated_optim.
OPTIM_NAMESPACES = {"torch.optim": torch_optim, "annotated_optim": annotated_optim}


def each_optim():
    """``pytest.mark.parametrize`` over both optimizer namespaces (argument ``optim``)."""
    return pytest.mark.parametrize(
        "optim", list(OPTIM_NAMESPACES.values()), ids=list(OPTIM_NAMESPACES)
    )
