"""Recurrent layers and cells (rnn.py) against torch.nn, observable by observable."""

import copy
import io
import pickle
import warnings

import pytest
import torch
import torch.nn as tnn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

import annotated_nn
from annotated_nn.modules import rnn as our_rnn
from helpers import describe_state_dict, norm, our_mro_as_torch, outcome, record_warnings

NS = {"torch": tnn, "ours": annotated_nn}


def build(nn, name, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    return getattr(nn, name)(*args, **kwargs)


def pair(name, *args, **kwargs):
    return build(tnn, name, *args, **kwargs), build(annotated_nn, name, *args, **kwargs)


def observe(module):
    return (
        norm(repr(module)),
        type(module).__name__,
        [(n, tuple(p.shape), p.dtype) for n, p in module.named_parameters()],
        describe_state_dict(module.state_dict()),
    )


def flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, tnn.utils.rnn.PackedSequence):
        return [out.data, out.batch_sizes] + [
            t for t in (out.sorted_indices, out.unsorted_indices) if t is not None
        ]
    return [t for o in out for t in flatten(o)]


def run(module, inputs):
    """Forward + weighted backward; return outputs, input grads, parameter grads."""
    out = module(*inputs)
    flat = [t for t in flatten(out) if t.is_floating_point()]
    loss = sum((t * torch.linspace(-1, 1, t.numel(), dtype=t.dtype).view_as(t)).sum() for t in flat)
    loss.backward()
    return (
        [t.detach() for t in flatten(out)],
        [x.grad for x in inputs if isinstance(x, torch.Tensor) and x.requires_grad],
        [(n, p.grad) for n, p in module.named_parameters()],
    )


def assert_runs_match(name, args, kwargs, make_inputs, train=False):
    theirs, ours = pair(name, *args, **kwargs)
    theirs.train(train)
    ours.train(train)
    a = run(theirs, make_inputs())
    b = run(ours, make_inputs())
    assert len(a[0]) == len(b[0])
    for u, v in zip(a[0], b[0]):
        torch.testing.assert_close(v, u, rtol=0, atol=0)
    for u, v in zip(a[1], b[1]):
        torch.testing.assert_close(v, u, rtol=0, atol=0)
    assert [n for n, _ in a[2]] == [n for n, _ in b[2]]
    for (_, u), (_, v) in zip(a[2], b[2]):
        torch.testing.assert_close(v, u, rtol=0, atol=0)


def leaf(*shape, seed, dtype=torch.float32):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(*shape, generator=g, dtype=dtype).requires_grad_()


def test_all_and_helpers():
    assert our_rnn.__all__ == tnn.modules.rnn.__all__
    for name in ("_apply_permutation", "apply_permutation", "_rnn_impls"):
        assert hasattr(our_rnn, name)
    assert set(our_rnn._rnn_impls) == set(tnn.modules.rnn._rnn_impls)
    t = torch.arange(12.0).view(3, 4)
    p = torch.tensor([2, 0, 1, 3])
    assert torch.equal(our_rnn._apply_permutation(t, p), tnn.modules.rnn._apply_permutation(t, p))
    (r1, w1), (r2, w2) = (
        record_warnings(lambda: mod.apply_permutation(t, p, 1))
        for mod in (tnn.modules.rnn, our_rnn)
    )
    assert torch.equal(r1, r2) and w1 == w2 and w1[0][0] == "FutureWarning"


def test_hierarchy_and_constants():
    for name in our_rnn.__all__:
        ours, theirs = getattr(our_rnn, name), getattr(tnn.modules.rnn, name)
        assert our_mro_as_torch(ours) == [b.__name__ for b in theirs.__mro__]
        assert getattr(ours, "__constants__", None) == getattr(theirs, "__constants__", None)


CONFIGS = [
    ("RNN", (3, 5), {}),
    ("RNN", (3, 5, 2, "relu"), {}),
    ("RNN", (3, 5), {"nonlinearity": "relu", "bias": False}),
    ("LSTM", (3, 5), {}),
    ("LSTM", (3, 5, 2), {"bidirectional": True, "proj_size": 2}),
    ("LSTM", (3, 5), {"bias": False, "proj_size": 4, "batch_first": True}),
    ("GRU", (3, 5, 3), {"dropout": 0.25, "bidirectional": True}),
    ("GRU", (3, 5), {"batch_first": True, "bias": False}),
    ("RNNCell", (3, 5), {}),
    ("RNNCell", (3, 5, False, "relu"), {}),
    ("LSTMCell", (3, 5), {"bias": False}),
    ("GRUCell", (3, 5), {}),
]


@pytest.mark.parametrize("name,args,kwargs", CONFIGS)
def test_construction_repr_state_dict_seed(name, args, kwargs):
    theirs, ours = pair(name, *args, **kwargs)
    assert observe(ours) == observe(theirs)
    if name in ("RNN", "LSTM", "GRU"):
        assert ours._flat_weights_names == theirs._flat_weights_names
        assert ours._all_weights == theirs._all_weights
        assert [w is p for w, p in zip(ours._flat_weights, ours.parameters())] == [
            w is p for w, p in zip(theirs._flat_weights, theirs.parameters())
        ]
        assert [[tuple(w.shape) for w in g] for g in ours.all_weights] == [
            [tuple(w.shape) for w in g] for g in theirs.all_weights
        ]


BAD_CONSTRUCTIONS = [
    ("RNN", (3, 5), {"dropout": 1.5}),
    ("RNN", (3, 5), {"dropout": True}),
    ("RNN", (3, 5), {"dropout": "x"}),
    ("RNN", (3, 5), {"nonlinearity": "sigmoid"}),
    ("RNN", (3, 5, 1, "gelu"), {}),
    ("RNN", (3, 5), {"proj_size": 2}),
    ("GRU", (3, 5), {"proj_size": 2}),
    ("LSTM", (3, 5), {"proj_size": 5}),
    ("LSTM", (3, 5), {"proj_size": -1}),
    ("LSTM", (3, 5), {"bias": 1}),
    ("LSTM", (3, 5), {"batch_first": None}),
    ("LSTM", (3.0, 5), {}),
    ("LSTM", (0, 5), {}),
    ("LSTM", (3, "5"), {}),
    ("LSTM", (3, 0), {}),
    ("GRU", (3, 5, 0), {}),
]


@pytest.mark.parametrize("name,args,kwargs", BAD_CONSTRUCTIONS)
def test_constructor_errors(name, args, kwargs):
    assert outcome(build, annotated_nn, name, *args, **kwargs) == outcome(
        build, tnn, name, *args, **kwargs
    )
    assert outcome(build, tnn, name, *args, **kwargs)[0] == "raise"


def test_base_mode_error_and_dropout_warning():
    assert outcome(annotated_nn.RNNBase, "FOO", 3, 5) == outcome(tnn.RNNBase, "FOO", 3, 5)
    (m1, w1) = record_warnings(lambda: build(tnn, "LSTM", 3, 5, dropout=0.5))
    (m2, w2) = record_warnings(lambda: build(annotated_nn, "LSTM", 3, 5, dropout=0.5))
    assert w1 == w2 and len(w1) == 1
    assert norm(repr(m1)) == norm(repr(m2))


FORWARD_CASES = [
    # name, ctor args, ctor kwargs, input shape, hidden shapes (None = default zeros)
    ("RNN", (3, 5), {}, (4, 2, 3), None),
    ("RNN", (3, 5, 2, "relu"), {"bidirectional": True}, (4, 2, 3), [(4, 2, 5)]),
    ("RNN", (3, 5), {"batch_first": True}, (2, 4, 3), [(1, 2, 5)]),
    ("RNN", (3, 5), {}, (4, 3), [(1, 5)]),
    ("GRU", (3, 5, 2), {"dropout": 0.5}, (4, 2, 3), None),
    ("GRU", (3, 5), {"bidirectional": True, "batch_first": True}, (2, 4, 3), [(2, 2, 5)]),
    ("GRU", (3, 5), {}, (4, 3), None),
    ("LSTM", (3, 5), {}, (4, 2, 3), None),
    ("LSTM", (3, 5, 2), {"bidirectional": True, "dropout": 0.3}, (4, 2, 3), [(4, 2, 5), (4, 2, 5)]),
    ("LSTM", (3, 5, 2), {"proj_size": 2, "batch_first": True}, (2, 4, 3), [(2, 2, 2), (2, 2, 5)]),
    ("LSTM", (3, 5), {"proj_size": 3}, (4, 3), [(1, 3), (1, 5)]),
    ("LSTM", (3, 5), {"bias": False}, (4, 3), None),
]


@pytest.mark.parametrize("name,args,kwargs,shape,hshapes", FORWARD_CASES)
def test_forward_backward_eval(name, args, kwargs, shape, hshapes):
    def inputs():
        x = leaf(*shape, seed=1)
        if hshapes is None:
            return [x]
        hs = [leaf(*s, seed=2 + i) for i, s in enumerate(hshapes)]
        return [x, hs[0] if name != "LSTM" else tuple(hs)]

    assert_runs_match(name, args, kwargs, inputs)


def test_training_dropout_same_seed():
    def inputs():
        torch.manual_seed(7)
        return [leaf(4, 2, 3, seed=1)]

    assert_runs_match("LSTM", (3, 5, 3), {"dropout": 0.5}, inputs, train=True)


@pytest.mark.parametrize("name", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("with_hidden", [False, True])
def test_packed_sequences(name, enforce_sorted, with_hidden):
    lengths = [5, 3, 2] if enforce_sorted else [2, 5, 3]
    kwargs = {"bidirectional": True, "num_layers": 2}

    def inputs():
        x = leaf(5, 3, 4, seed=1)
        packed = pack_padded_sequence(x, lengths, enforce_sorted=enforce_sorted)
        if not with_hidden:
            return [packed]
        h = leaf(4, 3, 6, seed=2)
        return [packed, (h, leaf(4, 3, 6, seed=3)) if name == "LSTM" else h]

    theirs, ours = pair(name, 4, 6, **kwargs)
    a, b = theirs(*inputs()), ours(*inputs())
    assert type(b[0]) is type(a[0])
    for u, v in zip(flatten(a), flatten(b)):
        torch.testing.assert_close(v, u, rtol=0, atol=0)
    pa, pb = pad_packed_sequence(a[0]), pad_packed_sequence(b[0])
    torch.testing.assert_close(pb[0], pa[0], rtol=0, atol=0)


FORWARD_ERRORS = [
    ("RNN", (3, 5), [(2, 2, 2, 3)], None),
    ("RNN", (3, 5), [(4, 2, 3)], [(2, 5)]),
    ("RNN", (3, 5), [(4, 3)], [(1, 1, 5)]),
    ("RNN", (3, 5), [(4, 2, 3)], [(2, 2, 5)]),
    ("RNN", (3, 5), [(4, 2, 4)], None),
    ("GRU", (3, 5), [(4,)], None),
    ("GRU", (3, 5), [(4, 2, 3)], [(1, 3, 5)]),
    ("GRU", (3, 5), [(4, 3)], [(1, 1, 5)]),
    ("LSTM", (3, 5), [(4,)], None),
    ("LSTM", (3, 5), [(4, 2, 3)], [(1, 2, 5), (2, 5)]),
    ("LSTM", (3, 5), [(4, 3)], [(1, 5), (1, 1, 5)]),
    ("LSTM", (3, 5), [(4, 2, 3)], [(1, 3, 5), (1, 2, 5)]),
    ("LSTM", (3, 5), [(4, 2, 3)], [(1, 2, 5), (1, 2, 4)]),
    ("RNNCell", (3, 5), [(2, 2, 3)], None),
    ("RNNCell", (3, 5), [(2, 3)], [(1, 2, 5)]),
    ("GRUCell", (3, 5), [(2, 2, 3)], None),
    ("GRUCell", (3, 5), [(3,)], [(1, 1, 5)]),
    ("LSTMCell", (3, 5), [(2, 2, 3)], None),
    ("LSTMCell", (3, 5), [(2, 3)], [(2, 5), (1, 2, 5)]),
]


@pytest.mark.parametrize("name,args,xshape,hshapes", FORWARD_ERRORS)
def test_forward_errors(name, args, xshape, hshapes):
    def attempt(nn):
        m = build(nn, name, *args)
        x = torch.zeros(*xshape[0])
        if hshapes is None:
            return outcome(m, x)
        hs = [torch.zeros(*s) for s in hshapes]
        return outcome(m, x, hs[0] if len(hs) == 1 else tuple(hs))

    theirs, ours = attempt(tnn), attempt(annotated_nn)
    assert theirs[0] == "raise"
    assert ours == theirs


def test_dtype_mismatch_and_unknown_cell_nonlinearity():
    def attempt(nn):
        m = build(nn, "GRU", 3, 5)
        r1 = outcome(m, torch.zeros(4, 2, 3, dtype=torch.float64))
        c = build(nn, "RNNCell", 3, 5, nonlinearity="gelu")
        return r1, norm(repr(c)), outcome(c, torch.zeros(2, 3))

    assert attempt(annotated_nn) == attempt(tnn)


@pytest.mark.parametrize(
    "name,kwargs,shapes",
    [
        ("RNNCell", {"nonlinearity": "relu"}, [(2, 3), (2, 5)]),
        ("RNNCell", {}, [(3,), (5,)]),
        ("RNNCell", {"bias": False}, [(2, 3)]),
        ("GRUCell", {}, [(2, 3), (2, 5)]),
        ("GRUCell", {}, [(3,)]),
        ("LSTMCell", {}, [(2, 3), (2, 5), (2, 5)]),
        ("LSTMCell", {}, [(3,), (5,), (5,)]),
        ("LSTMCell", {}, [(2, 3)]),
    ],
)
def test_cells_forward_backward(name, kwargs, shapes):
    def inputs():
        ts = [leaf(*s, seed=i + 1) for i, s in enumerate(shapes)]
        if len(ts) == 3:
            return [ts[0], (ts[1], ts[2])]
        return ts

    assert_runs_match(name, (3, 5), kwargs, inputs)


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU", "LSTMCell"])
def test_float64_and_meta(name):
    theirs, ours = pair(name, 3, 5)
    theirs.double()
    ours.double()
    assert observe(ours) == observe(theirs)
    if name != "LSTMCell":
        assert all(w is p for w, p in zip(ours._flat_weights, ours.parameters()))
        assert all(w.dtype == torch.float64 for w in ours._flat_weights)
    x = (
        torch.randn(4, 2, 3, dtype=torch.float64)
        if name != "LSTMCell"
        else torch.randn(2, 3, dtype=torch.float64)
    )
    for u, v in zip(flatten(theirs(x)), flatten(ours(x))):
        torch.testing.assert_close(v, u, rtol=0, atol=0)
    theirs.to("meta")
    ours.to("meta")
    assert [(n, p.device.type) for n, p in ours.named_parameters()] == [
        (n, p.device.type) for n, p in theirs.named_parameters()
    ]
    if name != "LSTMCell":
        assert all(w.is_meta for w in ours._flat_weights)
    dev = build(annotated_nn, name, 3, 5, device="meta", dtype=torch.float16)
    ref = build(tnn, name, 3, 5, device="meta", dtype=torch.float16)
    assert [(n, p.dtype, p.is_meta) for n, p in dev.named_parameters()] == [
        (n, p.dtype, p.is_meta) for n, p in ref.named_parameters()
    ]


def test_setattr_keeps_flat_weights_in_sync():
    outs = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "GRU", 3, 5)
        torch.manual_seed(3)
        m.weight_hh_l0 = nn.Parameter(torch.randn(15, 5))
        outs.append((m._flat_weights[1] is m.weight_hh_l0, m(torch.ones(2, 1, 3))[0]))
    assert outs[0][0] and outs[1][0]
    torch.testing.assert_close(outs[1][1], outs[0][1], rtol=0, atol=0)


@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_functional_call_updates_flat_weights():
    theirs, ours = pair("LSTM", 3, 5)
    x = torch.randn(4, 2, 3)
    new = {k: torch.ones_like(v) * 0.1 for k, v in theirs.state_dict().items()}
    a = tnn.utils.stateless.functional_call(theirs, new, (x,))
    b = annotated_nn.utils.stateless.functional_call(ours, new, (x,))
    assert (ours._flat_weights[0] is ours.weight_ih_l0) == (
        theirs._flat_weights[0] is theirs.weight_ih_l0
    )
    for u, v in zip(flatten(a), flatten(b)):
        torch.testing.assert_close(v, u, rtol=0, atol=0)


@pytest.mark.parametrize("name", ["LSTM", "GRU", "RNNCell"])
def test_deepcopy_pickle_and_state_dict(name):
    kwargs = {"num_layers": 2, "bidirectional": True} if name != "RNNCell" else {}
    theirs, ours = pair(name, 3, 5, **kwargs)
    dup = copy.deepcopy(ours)
    assert observe(dup) == observe(ours)
    loaded = pickle.loads(pickle.dumps(ours))
    assert observe(loaded) == observe(ours)
    if name != "RNNCell":
        assert "_flat_weight_refs" not in ours.__getstate__()
        assert all(w is p for w, p in zip(loaded._flat_weights, loaded.parameters()))
        assert all(w is p for w, p in zip(dup._flat_weights, dup.parameters()))
    buf = io.BytesIO()
    torch.save(theirs.state_dict(), buf)
    buf.seek(0)
    fresh = build(annotated_nn, name, 3, 5, seed=9, **kwargs)
    result = fresh.load_state_dict(torch.load(buf))
    assert tuple(result) == ([], [])
    assert describe_state_dict(fresh.state_dict()) == describe_state_dict(theirs.state_dict())
    x = torch.randn(4, 2, 3) if name != "RNNCell" else torch.randn(2, 3)
    for u, v in zip(flatten(theirs(x)), flatten(fresh(x))):
        torch.testing.assert_close(v, u, rtol=0, atol=0)


def test_setstate_old_pickle_without_proj_size():
    outs = []
    for nn in (tnn, annotated_nn):
        m = build(nn, "LSTM", 3, 5)
        state = m.__getstate__()
        del state["proj_size"]
        fresh = object.__new__(type(m))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fresh.__setstate__(state)
        outs.append((fresh.proj_size, norm(repr(fresh)), len(fresh._flat_weight_refs)))
    assert outs[0] == outs[1]


def test_reset_parameters_and_replicate():
    theirs, ours = pair("GRU", 3, 5, 2)
    torch.manual_seed(4)
    theirs.reset_parameters()
    torch.manual_seed(4)
    ours.reset_parameters()
    assert describe_state_dict(ours.state_dict()) == describe_state_dict(theirs.state_dict())
    replica = ours._replicate_for_data_parallel()
    assert replica._flat_weights is not ours._flat_weights
    assert replica._flat_weights_names is not ours._flat_weights_names
    assert replica._flat_weights_names == ours._flat_weights_names


def test_flatten_parameters_cpu_noop():
    theirs, ours = pair("LSTM", 3, 5)
    before = [w.data_ptr() for w in ours._flat_weights]
    assert ours.flatten_parameters() is None and theirs.flatten_parameters() is None
    assert [w.data_ptr() for w in ours._flat_weights] == before


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_forward():
    theirs, ours = pair("LSTM", 3, 5, 2)
    theirs.cuda()
    ours.cuda()
    x = torch.randn(4, 2, 3, device="cuda")
    for u, v in zip(flatten(theirs(x)), flatten(ours(x))):
        torch.testing.assert_close(v, u)
