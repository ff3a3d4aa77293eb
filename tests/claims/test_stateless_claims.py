"""Claims of utils/stateless.py (functional_call) and its section in chapter 15."""

from __future__ import annotations

import inspect

import pytest
import torch
from claim import each_nn, proves

pytestmark = pytest.mark.filterwarnings("ignore:.*functional_call. is deprecated:FutureWarning")


def call(nn, *args, **kwargs):
    """functional_call of the namespace's stateless module."""
    return nn.utils.stateless.functional_call(*args, **kwargs)


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "Note [which functional_call]",
    "the stateless entry point warns with FutureWarning on every call; its second parameter is "
    "parameters_and_buffers",
)
@each_nn()
@pytest.mark.filterwarnings("default")
def test_functional_call_warns_every_call(nn):
    """Two calls, two warnings, pointing to torch.func.functional_call."""
    fn = nn.utils.stateless.functional_call
    assert list(inspect.signature(fn).parameters)[1] == "parameters_and_buffers"
    lin = nn.Linear(2, 1)
    for _ in range(2):
        with pytest.warns(FutureWarning, match="Please use `torch.func.functional_call`"):
            call(nn, lin, {}, torch.ones(1, 2))


@proves(
    "docs/chapters/15-parallel.md",
    "functional-call",
    "the module is unchanged afterwards and gradients land on the borrowed tensors",
)
@each_nn()
def test_borrowed_parameters_get_the_gradients(nn):
    """The chapter's example."""
    lin = nn.Linear(2, 1)
    weight = lin.weight
    x = torch.tensor([[3.0, 4.0]])
    zeros = {"weight": torch.zeros(1, 2), "bias": torch.ones(1)}
    assert torch.equal(call(nn, lin, zeros, (x,)), torch.tensor([[1.0]]))
    assert lin.weight is weight
    params = {k: v.detach().requires_grad_() for k, v in lin.named_parameters()}
    call(nn, lin, params, (x,)).sum().backward()
    assert torch.equal(params["weight"].grad, x)
    assert lin.weight.grad is None


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "functional_call",
    "the originals are restored even when forward raises",
)
@each_nn()
def test_restored_when_forward_raises(nn):
    """The finally block swaps back."""

    class Boom(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(1))

        def forward(self, x):
            raise KeyError("boom")

    m = Boom()
    w = m.w
    with pytest.raises(KeyError):
        call(nn, m, {"w": torch.zeros(1)}, torch.ones(1))
    assert m.w is w and m._parameters["w"] is w


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "_swap_tensor",
    "during the call named_parameters() yields the swapped-in plain tensor; "
    "unknown names exist only during the call",
)
@each_nn()
def test_swapped_tensors_during_call(nn):
    """A plain tensor sits in _parameters; an extra name is deleted afterwards."""

    class Probe(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.ones(1))

        def forward(self, x):
            return type(dict(self.named_parameters())["w"]), hasattr(self, "extra")

    m = Probe()
    seen = call(nn, m, {"w": torch.zeros(1), "extra": torch.ones(1)}, torch.ones(1))
    assert seen == (torch.Tensor, True)
    assert not hasattr(m, "extra")


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "_reparametrize_module",
    "a buffer reassigned in forward is written back into the user's dict",
)
@each_nn()
def test_reassigned_buffer_written_back(nn):
    """The module keeps its own buffer; the dict sees the new value."""

    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("buf", torch.zeros(1))

        def forward(self, x):
            self.buf = self.buf + 1
            return x

    m = Counter()
    given = {"buf": torch.zeros(1)}
    call(nn, m, given, torch.ones(1))
    assert torch.equal(given["buf"], torch.ones(1))
    assert torch.equal(m.buf, torch.zeros(1))


def _tied(nn):
    class Tied(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Linear(2, 2, bias=False)
            self.b = nn.Linear(2, 2, bias=False)
            self.b.weight = self.a.weight

        def forward(self, x):
            return self.a(x), self.b(x)

    return Tied()


@proves(
    "docs/chapters/15-parallel.md",
    "exercises",
    "with tie_weights=True one name of a tied weight sets all its aliases; with False it does not",
)
@each_nn()
def test_tie_weights(nn):
    """Only 'a.weight' is given."""
    m = _tied(nn)
    zeros, x = torch.zeros(2, 2), torch.ones(1, 2)
    a, b = call(nn, m, {"a.weight": zeros}, x)
    assert torch.count_nonzero(a) == 0 and torch.count_nonzero(b) == 0
    a, b = call(nn, m, {"a.weight": zeros}, x, tie_weights=False)
    assert torch.count_nonzero(a) == 0 and torch.count_nonzero(b) > 0


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "_untie_named_tensors_map",
    "different tensors for two aliases of one tied weight raise ValueError",
)
@each_nn()
def test_tied_aliases_with_different_values(nn):
    """The same object twice would be fine."""
    m = _tied(nn)
    x = torch.ones(1, 2)
    with pytest.raises(ValueError, match="which are tied. Consider using tie_weights=False"):
        call(nn, m, {"a.weight": torch.zeros(2, 2), "b.weight": torch.zeros(2, 2)}, x)
    same = torch.zeros(2, 2)
    call(nn, m, {"a.weight": same, "b.weight": same}, x)


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "_reparametrize_module",
    "strict=True reports unexpected keys first, then missing ones, in one RuntimeError",
)
@each_nn()
def test_strict_message(nn):
    """torch's text, tab-indented."""
    with pytest.raises(RuntimeError) as info:
        call(
            nn,
            nn.Linear(2, 1),
            {"weight": torch.zeros(1, 2), "foo": torch.ones(1)},
            torch.ones(1, 2),
            strict=True,
        )
    assert str(info.value) == (
        "Error(s) in reparametrizing for Linear:\n"
        "\tUnexpected key(s): 'foo'.\n\tMissing key(s): 'bias'."
    )


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "_functional_call",
    "a non-tuple args is the single positional argument",
)
@each_nn()
def test_non_tuple_args_single_argument(nn):
    """A list passed as args arrives as one argument."""

    class Echo(nn.Module):
        def forward(self, *args):
            return args

    assert call(nn, Echo(), {}, [1, 2]) == ([1, 2],)
    assert call(nn, Echo(), {}, (1, 2)) == (1, 2)


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "_reparametrize_module",
    "with a shared submodule, the default restore order leaves the swapped-in tensor behind "
    "(pytorch#164759)",
)
@each_nn()
def test_shared_submodule_restore_bug(nn):
    """Two keys reach one slot; restoring in swap-in order keeps the borrowed tensor."""
    shared = nn.Linear(2, 2)
    model = nn.Sequential(shared, shared)
    borrowed = torch.zeros(2, 2)
    call(nn, model, {"0.weight": borrowed}, torch.ones(1, 2))
    assert shared.weight is borrowed
    assert type(shared._parameters["weight"]) is torch.Tensor


@proves(
    "annotated_src/annotated_nn/utils/stateless.py",
    "Note [which functional_call]",
    "torch.func.functional_call accepts annotated_nn modules; both reject a key that "
    "appears in two dicts of a sequence",
)
@each_nn()
def test_torch_func_functional_call_and_dict_sequences(nn):
    """Our stateless version borrows torch.func's sequence rules and error text."""
    import torch.nn as tnn
    from torch.func import functional_call as func_call

    params = {"weight": torch.zeros(1, 2)}
    x = torch.ones(1, 2)
    assert func_call(nn.Linear(2, 1), params, x).shape == (1, 1)
    call_with_dicts = func_call if nn is tnn else nn.utils.stateless.functional_call
    with pytest.raises(ValueError, match="appeared in multiple dictionaries"):
        call_with_dicts(nn.Linear(2, 1), (params, dict(params)), x)
