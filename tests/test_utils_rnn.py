"""annotated_nn.utils.rnn vs torch.nn.utils.rnn: packing, padding, PackedSequence, RNN interop."""

import copy
import inspect
import pickle
import random
import warnings

import pytest
import torch
import torch.nn as tnn
import torch.nn.utils.rnn as T
import torch.utils._pytree as pytree

import annotated_nn as ann
import annotated_nn.utils.rnn as O
from helpers import norm, outcome, record_warnings

MODS = {"torch": T, "ours": O}
PUBLIC = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpad_sequence",
    "pack_sequence",
    "unpack_sequence",
]


def fmt(t):
    """A tensor (or None) as comparable plain data: dtype, shape, device type, exact values."""
    if t is None:
        return None
    if not isinstance(t, torch.Tensor):
        return ("value", t)
    values = None if t.is_meta else t.detach().cpu().tolist()
    return (str(t.dtype), tuple(t.shape), t.device.type, values)


def fields(packed):
    """The four fields of a packed sequence as comparable data."""
    return [fmt(t) for t in packed]


def assert_packed_equal(ours, theirs):
    """Same four fields, bit for bit (torch.equal), same dtypes and devices."""
    assert len(ours) == len(theirs) == 4
    for u, v in zip(ours, theirs):
        assert (u is None) == (v is None)
        if u is not None:
            assert u.dtype == v.dtype and u.device == v.device and u.shape == v.shape
            assert torch.equal(u, v)


def family(packed):
    """'ours' for our PackedSequence, 'torch' for torch's exact class."""
    if isinstance(packed, O.PackedSequence):
        return "ours"
    assert type(packed) is T.PackedSequence
    return "torch"


def random_batch(seed, batch_first, sorted_lengths, trailing=(3,), dtype=torch.float32):
    """A padded batch and its lengths (a list), from a seed; ties between lengths happen."""
    rng = random.Random(seed)
    batch = rng.randint(1, 5)
    longest = rng.randint(1, 6)
    lengths = [rng.randint(1, longest) for _ in range(batch)]
    lengths[rng.randrange(batch)] = longest
    if sorted_lengths:
        lengths.sort(reverse=True)
    steps = longest + rng.randint(0, 2)
    g = torch.Generator().manual_seed(seed)
    shape = (batch, steps, *trailing) if batch_first else (steps, batch, *trailing)
    padded = (torch.randn(*shape, generator=g) * 10).to(dtype)
    return padded, lengths


def both(fn):
    """Run `fn(mod)` with torch's and our module; return (torch's result, ours)."""
    return fn(T), fn(O)


# ---------------------------------------------------------------- names and signatures


def test_public_names_and_signatures():
    assert O.__all__ == T.__all__ == PUBLIC
    for name in PUBLIC[1:]:
        ours, theirs = inspect.signature(getattr(O, name)), inspect.signature(getattr(T, name))
        assert norm(ours) == norm(theirs), name
    for name in ("_packed_sequence_init_args", "_packed_sequence_init", "bind"):
        assert inspect.signature(getattr(O, name)).parameters.keys() == (
            inspect.signature(getattr(T, name)).parameters.keys()
        )
    # the named-tuple layout is torch's own; our class adds no fields
    assert O.PackedSequence_ is T.PackedSequence_
    assert O.PackedSequence._fields == T.PackedSequence._fields
    assert issubclass(O.PackedSequence, T.PackedSequence)
    assert O.PackedSequence.__name__ == "PackedSequence"
    assert inspect.signature(O.PackedSequence) == inspect.signature(T.PackedSequence)
    ours = {k for k in vars(O.PackedSequence) if not k.startswith("__")}
    theirs = {k for k in vars(T.PackedSequence) if not k.startswith("__")}
    assert ours == theirs


def test_modules_rnn_uses_our_packed_sequence():
    assert ann.modules.rnn.PackedSequence is O.PackedSequence


# ---------------------------------------------------------------- pack_padded_sequence


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_pack_padded_sequence_matches(seed, batch_first, enforce_sorted):
    trailing = [(), (3,), (2, 2)][seed % 3]
    padded, lengths = random_batch(seed, batch_first, enforce_sorted, trailing)
    lengths_forms = [
        lengths,
        tuple(lengths),
        torch.tensor(lengths),
        torch.tensor(lengths, dtype=torch.int32),
    ]
    for form in lengths_forms:
        theirs, ours = both(
            lambda m: m.pack_padded_sequence(padded, form, batch_first, enforce_sorted)
        )
        assert family(theirs) == "torch" and family(ours) == "ours"
        assert_packed_equal(ours, theirs)
        assert repr(ours) == repr(theirs)
    # the input is never modified
    assert torch.equal(padded, random_batch(seed, batch_first, enforce_sorted, trailing)[0])


def test_pack_padded_sequence_keeps_grad_path():
    def scenario(m):
        x = torch.randn(4, 3, 2, generator=torch.Generator().manual_seed(0)).requires_grad_()
        packed = m.pack_padded_sequence(x, [2, 4, 1], enforce_sorted=False)
        (packed.data * torch.arange(packed.data.numel()).view_as(packed.data)).sum().backward()
        return fmt(x.grad), type(packed.data.grad_fn).__name__

    theirs, ours = both(scenario)
    assert ours == theirs


@pytest.mark.parametrize(
    "case",
    ["unsorted", "zero", "negative", "meta_lengths", "empty", "float_lengths"],
)
def test_pack_padded_sequence_errors(case):
    x = torch.zeros(3, 2, 4)
    args = {
        "unsorted": (x, [2, 3]),
        "zero": (x, [3, 0]),
        "negative": (x, [3, -1]),
        "meta_lengths": (x, torch.tensor([3, 2], device="meta")),
        "empty": (x, []),
        "float_lengths": (x, [3.0, 2.5]),
    }[case]
    theirs, ours = both(lambda m: outcome(lambda: fields(m.pack_padded_sequence(*args))))
    assert ours == theirs
    if case in ("unsorted", "zero", "meta_lengths"):
        assert ours[0] == "raise"


def test_pack_padded_sequence_list_lengths_stay_on_cpu_under_default_device():
    def scenario(m):
        with torch.device("meta"):
            packed = m.pack_padded_sequence(torch.zeros(3, 2, device="cpu"), [3, 2])
        return fields(packed)

    theirs, ours = both(scenario)
    assert ours == theirs


def test_pack_sequence_lengths_follow_default_device():
    def scenario(m):
        seqs = [torch.ones(3, device="cpu"), torch.ones(2, device="cpu")]
        with torch.device("meta"):
            return outcome(lambda: fields(m.pack_sequence(seqs)))

    theirs, ours = both(scenario)
    assert ours == theirs and ours[0] == "raise"


def test_tracing_warns_about_list_lengths():
    def scenario(m):
        def fn(x):
            return m.pack_padded_sequence(x, [3, 2]).data

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            traced = torch.jit.trace(fn, torch.zeros(3, 2), check_trace=False)
        user = [
            (str(w.message), w.filename == __file__)
            for w in caught
            if w.category is UserWarning and "pack_padded_sequence" in str(w.message)
        ]
        with warnings.catch_warnings(record=True) as again:
            warnings.simplefilter("always")
            m.pack_padded_sequence(torch.zeros(3, 2), [3, 2])  # not tracing: silent
        return user, fmt(traced(torch.ones(3, 2))), [str(w.message) for w in again]

    theirs, ours = both(scenario)
    assert ours == theirs
    assert len(ours[0]) == 1 and ours[0][0][1] is True  # stacklevel=2: the caller's line


# ---------------------------------------------------------------- pad_packed_sequence


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_pad_packed_sequence_matches(seed, batch_first, enforce_sorted):
    padded, lengths = random_batch(seed, batch_first, enforce_sorted)
    packed_t = T.pack_padded_sequence(padded, lengths, batch_first, enforce_sorted)
    packed_o = O.pack_padded_sequence(padded, lengths, batch_first, enforce_sorted)
    longest = max(lengths)
    for out_batch_first in (False, True):
        for padding_value in (0.0, -1.5, 7):
            for total_length in (None, longest, longest + 2):
                kwargs = dict(
                    batch_first=out_batch_first,
                    padding_value=padding_value,
                    total_length=total_length,
                )
                ref_out, ref_len = T.pad_packed_sequence(packed_t, **kwargs)
                # ours on our packing, ours on torch's, torch's on ours
                for out, lens in (
                    O.pad_packed_sequence(packed_o, **kwargs),
                    O.pad_packed_sequence(packed_t, **kwargs),
                    T.pad_packed_sequence(packed_o, **kwargs),
                ):
                    assert out.dtype == ref_out.dtype and torch.equal(out, ref_out)
                    assert lens.dtype == ref_len.dtype and torch.equal(lens, ref_len)


def test_pad_packed_sequence_total_length_error():
    x = torch.zeros(4, 2)
    theirs, ours = both(
        lambda m: outcome(
            lambda: m.pad_packed_sequence(m.pack_padded_sequence(x, [4, 2]), total_length=3)
        )
    )
    assert ours == theirs and ours[0] == "raise" and ours[1] == "ValueError"


def test_pad_packed_sequence_on_meta_data():
    # lengths are indexed with `unsorted_indices.cpu()`: meta indices cannot be copied out
    def scenario(m):
        packed = m.pack_sequence([torch.ones(2), torch.ones(3)], enforce_sorted=False)
        meta = packed.to("meta")
        sorted_packed = m.pack_sequence([torch.ones(3), torch.ones(2)]).to("meta")
        return (
            outcome(lambda: m.pad_packed_sequence(meta)),
            outcome(lambda: [fmt(t) for t in m.pad_packed_sequence(sorted_packed)]),
        )

    theirs, ours = both(scenario)
    assert ours == theirs


# ---------------------------------------------------------------- pad_sequence


@pytest.mark.parametrize("seed", range(8))
def test_pad_sequence_matches(seed):
    rng = random.Random(seed)
    g = torch.Generator().manual_seed(seed)
    trailing = [(), (2,), (2, 3)][seed % 3]
    dtype = [torch.float32, torch.float64, torch.int64, torch.bool][seed % 4]
    seqs = [
        (torch.randn(rng.randint(0, 5), *trailing, generator=g) * 5).to(dtype)
        for _ in range(rng.randint(1, 5))
    ]
    for batch_first in (False, True):
        for padding_value in (0.0, -2.5, 1):
            for padding_side in ("right", "left"):
                args = (batch_first, padding_value, padding_side)
                theirs, ours = both(lambda m: m.pad_sequence(seqs, *args))
                assert ours.dtype == theirs.dtype and torch.equal(ours, theirs)
                gen_t, gen_o = both(lambda m: m.pad_sequence(iter(seqs), *args))
                assert torch.equal(gen_o, gen_t)


def test_pad_sequence_keywords_and_tensor_input():
    stacked = torch.arange(12.0).view(3, 4)
    theirs, ours = both(lambda m: m.pad_sequence(stacked, batch_first=True, padding_value=1.0))
    assert torch.equal(ours, theirs)
    seqs = [torch.ones(2), torch.ones(3)]
    theirs, ours = both(lambda m: m.pad_sequence(sequences=seqs, padding_side="left"))
    assert torch.equal(ours, theirs)


@pytest.mark.parametrize("case", ["int", "none", "empty", "side", "shapes", "dtypes"])
def test_pad_sequence_errors(case):
    arg, kwargs = {
        "int": (5, {}),
        "none": (None, {}),
        "empty": ([], {}),
        "side": ([torch.ones(2)], {"padding_side": "middle"}),
        "shapes": ([torch.ones(2, 3), torch.ones(3, 4)], {}),
        "dtypes": ([torch.ones(2), torch.ones(3, dtype=torch.int64)], {}),
    }[case]
    theirs, ours = both(lambda m: outcome(lambda: fmt(m.pad_sequence(arg, **kwargs))))
    assert ours == theirs
    if case != "dtypes":
        assert ours[0] == "raise"


def test_pad_sequence_is_traceable_like_torch():
    def scenario(m):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            traced = torch.jit.trace(lambda x: m.pad_sequence(x, True), torch.ones(3, 2))
        return fmt(traced(torch.arange(6.0).view(3, 2))), str(traced.graph).count("aten::")

    theirs, ours = both(scenario)
    assert ours == theirs


# ---------------------------------------------------------------- unpad / pack / unpack


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("batch_first", [False, True])
def test_unpad_sequence_matches_and_transposes_in_place(seed, batch_first):
    padded, lengths = random_batch(seed, batch_first, sorted_lengths=False)
    lengths = torch.tensor(lengths)
    original_shape = padded.shape
    copies = {"torch": padded.clone(), "ours": padded.clone()}
    results = {}
    for key, m in MODS.items():
        results[key] = m.unpad_sequence(copies[key], lengths, batch_first)
    assert len(results["ours"]) == len(results["torch"])
    for u, v in zip(results["ours"], results["torch"]):
        assert torch.equal(u, v)
    # the caller's tensor: transposed in place when batch_first=False, in both
    assert copies["ours"].shape == copies["torch"].shape
    assert (copies["ours"].shape != original_shape) == (
        not batch_first and original_shape[0] != original_shape[1]
    )
    assert torch.equal(copies["ours"], copies["torch"])


def test_unpad_sequence_length_mismatch():
    def scenario(m):
        return outcome(lambda: m.unpad_sequence(torch.zeros(2, 3), torch.tensor([1, 2, 1]), True))

    theirs, ours = both(scenario)
    assert ours == theirs and ours[1] == "ValueError"


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("enforce_sorted", [True, False])
def test_pack_and_unpack_sequence(seed, enforce_sorted):
    rng = random.Random(seed)
    g = torch.Generator().manual_seed(seed)
    lengths = [rng.randint(1, 6) for _ in range(rng.randint(1, 5))]
    if enforce_sorted:
        lengths.sort(reverse=True)
    seqs = [torch.randn(n, 2, generator=g) for n in lengths]
    theirs, ours = both(lambda m: m.pack_sequence(seqs, enforce_sorted))
    assert family(ours) == "ours"
    assert_packed_equal(ours, theirs)
    for unpacked in (O.unpack_sequence(ours), O.unpack_sequence(theirs)):
        ref = T.unpack_sequence(theirs)
        assert len(unpacked) == len(ref) == len(seqs)
        for u, v, s in zip(unpacked, ref, seqs):
            assert torch.equal(u, v) and torch.equal(u, s)


def test_pack_sequence_unsorted_error():
    theirs, ours = both(
        lambda m: outcome(lambda: fields(m.pack_sequence([torch.ones(1), torch.ones(2)])))
    )
    assert ours == theirs and ours[0] == "raise"


@pytest.mark.parametrize("seed", range(6))
def test_round_trip_pack_pad_unpad(seed):
    padded, lengths = random_batch(seed, batch_first=True, sorted_lengths=False)
    packed = O.pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=False)
    again, lens = O.pad_packed_sequence(packed, batch_first=True)
    pieces = O.unpad_sequence(again, lens, batch_first=True)
    assert lens.tolist() == lengths
    for piece, n, row in zip(pieces, lengths, padded):
        assert torch.equal(piece, row[:n])
    repadded = O.pad_sequence(pieces, batch_first=True)
    assert torch.equal(repadded, again)


# ---------------------------------------------------------------- invert_permutation


@pytest.mark.parametrize("seed", range(5))
def test_invert_permutation(seed):
    perm = torch.randperm(seed * 3 + 1, generator=torch.Generator().manual_seed(seed))
    theirs, ours = both(lambda m: m.invert_permutation(perm))
    assert ours.dtype == theirs.dtype and torch.equal(ours, theirs)
    assert torch.equal(ours[perm], torch.arange(perm.numel()))
    assert O.invert_permutation(None) is None
    theirs, ours = both(lambda m: outcome(lambda: m.invert_permutation(perm.to(torch.int32))))
    assert [x if not isinstance(x, torch.Tensor) else fmt(x) for x in ours] == [
        x if not isinstance(x, torch.Tensor) else fmt(x) for x in theirs
    ]


# ---------------------------------------------------------------- PackedSequence itself


def sample(m, enforce_sorted=False, dtype=torch.float32):
    """A small packed sequence built by module `m`."""
    seqs = [torch.arange(3.0), torch.arange(5.0), torch.arange(2.0)]
    if enforce_sorted:
        seqs.sort(key=len, reverse=True)
    return m.pack_sequence([s.to(dtype) for s in seqs], enforce_sorted=enforce_sorted)


def test_constructor_forms_and_errors():
    data, sizes, order = torch.arange(4.0), torch.tensor([2, 1, 1]), torch.tensor([1, 0])

    def scenario(m):
        P = m.PackedSequence
        calls = [
            lambda: P(data, sizes),
            lambda: P(data, sizes, order),  # unsorted_indices computed
            lambda: P(data, sizes, order, torch.tensor([5, 5])),  # not checked
            lambda: P((data, sizes), sorted_indices=order),
            lambda: P([data, sizes]),
            lambda: P(data),
            lambda: P((data,)),
            lambda: P(data, sizes.to("meta")),
            lambda: P((data, sizes.to("meta"))),  # the pair form skips the device check
        ]
        return [outcome(lambda f=f: fields(f())) for f in calls]

    theirs, ours = both(scenario)
    assert ours == theirs
    assert [o[0] for o in ours] == ["ok"] * 5 + ["raise"] * 3 + ["ok"]
    assert type(O.PackedSequence(data, sizes)) is O.PackedSequence


def test_repr_equality_pickle_copy_pytree():
    theirs, ours = both(sample)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)
    assert_packed_equal(ours, theirs)
    sorted_t, sorted_o = both(lambda m: sample(m, enforce_sorted=True))
    # tuple equality: same objects compare equal, distinct multi-element tensors are ambiguous
    assert ours == ours and ours == tuple(ours) and tuple(theirs) == theirs
    assert outcome(lambda: ours == theirs) == outcome(lambda: sample(T) == theirs)
    assert outcome(lambda: sorted_o == sorted_t) == outcome(lambda: sample(T, True) == sorted_t)
    assert O.PackedSequence(*theirs) == theirs and theirs == O.PackedSequence(*theirs)
    assert isinstance(hash(sorted_o), int) and isinstance(sorted_o, tuple) and len(ours) == 4
    for clone in (
        pickle.loads(pickle.dumps(ours)),
        copy.deepcopy(ours),
        copy.copy(ours),
        ours._replace(data=ours.data),
        O.PackedSequence._make(list(ours)),
    ):
        assert type(clone) is O.PackedSequence
        assert_packed_equal(clone, theirs)
    leaves, spec = pytree.tree_flatten(ours)
    rebuilt = pytree.tree_unflatten(leaves, spec)
    assert type(rebuilt) is O.PackedSequence
    assert_packed_equal(rebuilt, ours)
    assert ours._asdict().keys() == theirs._asdict().keys()
    assert hasattr(ours, "__dict__") == hasattr(theirs, "__dict__")


def test_torch_recognizes_ours():
    ours = sample(O)
    assert isinstance(ours, T.PackedSequence)
    out, lens = T.pad_packed_sequence(ours, batch_first=True)
    ref_out, ref_lens = T.pad_packed_sequence(sample(T), batch_first=True)
    assert torch.equal(out, ref_out) and torch.equal(lens, ref_lens)
    for u, v in zip(T.unpack_sequence(ours), T.unpack_sequence(sample(T))):
        assert torch.equal(u, v)


TO_CALLS = [
    ("to", (torch.float64,), {}),
    ("to", (torch.float32,), {}),
    ("to", ("meta",), {}),
    ("to", (), {"device": "meta", "dtype": torch.float16}),
    ("to", ("cpu", torch.int32), {}),
    ("to", (torch.zeros(1, dtype=torch.float64),), {}),
    ("to", (torch.float64,), {"non_blocking": True}),
    ("to", (torch.float64,), {"memory_format": torch.preserve_format}),
    ("to", (torch.float64,), {"copy": True}),
    ("to", (torch.float32,), {"copy": True}),
    ("to", ("nonsense",), {}),
    ("cpu", (), {}),
    ("cpu", (), {"dtype": torch.float64}),
    ("cuda", (), {}),
    ("pin_memory", (), {}),
    ("double", (), {}),
    ("float", (), {}),
    ("half", (), {}),
    ("long", (), {}),
    ("int", (), {}),
    ("short", (), {}),
    ("char", (), {}),
    ("byte", (), {}),
]


@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("call", TO_CALLS, ids=lambda c: c[0] + str(c[1:]))
def test_conversions(call, enforce_sorted):
    name, args, kwargs = call

    def scenario(m):
        packed = sample(m, enforce_sorted)
        result = outcome(lambda: getattr(packed, name)(*args, **dict(kwargs)))
        if result[0] == "raise":
            return result
        converted = result[1]
        return (
            "ok",
            converted is packed,
            family(converted),
            fields(converted),
            converted.batch_sizes is packed.batch_sizes,
            repr(converted) if converted.data.is_meta else None,
        )

    theirs, ours = both(scenario)
    if ours[0] == "ok":
        assert ours[2] == "ours" and theirs[2] == "torch"
        ours = ours[:2] + ours[3:]
        theirs = theirs[:2] + theirs[3:]
    assert ours == theirs


def test_is_cuda_and_is_pinned():
    theirs, ours = both(sample)
    assert ours.is_cuda == theirs.is_cuda is False
    assert ours.is_pinned() == theirs.is_pinned() is False
    meta_t, meta_o = theirs.to("meta"), ours.to("meta")
    assert meta_o.is_cuda == meta_t.is_cuda
    assert isinstance(type(ours).__dict__["is_cuda"], property)


def test_subclass_keeps_its_class_through_to():
    class Mine(O.PackedSequence):
        pass

    packed = Mine(*sample(O))
    assert type(packed.double()) is Mine
    assert type(packed.to("meta")) is Mine


def test_torchscript_compiles_like_torch():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scripted = {k: torch.jit.script(m.pack_padded_sequence) for k, m in MODS.items()}
        padder = {k: torch.jit.script(m.pad_packed_sequence) for k, m in MODS.items()}
    x = torch.arange(6.0).view(3, 2)
    lengths = torch.tensor([2, 3])
    a = scripted["torch"](x, lengths, False, False)
    b = scripted["ours"](x, lengths, False, False)
    # each compiled function returns a compiled named tuple of the same name
    assert type(a).__module__ == type(b).__module__ == "torch._jit_internal"
    assert type(a).__name__ == type(b).__name__ == "PackedSequence"
    assert_packed_equal(b, a)
    pa, pb = padder["torch"](a, False, -1.0, 4), padder["ours"](a, False, -1.0, 4)
    assert torch.equal(pa[0], pb[0]) and torch.equal(pa[1], pb[1])


# ---------------------------------------------------------------- RNN modules on packed input


def make_rnn(nn, name, seed=0, **kwargs):
    torch.manual_seed(seed)
    return getattr(nn, name)(3, 4, num_layers=2, bidirectional=True, **kwargs)


def initial_state(name, batch, seed):
    g = torch.Generator().manual_seed(seed)
    h = torch.randn(4, batch, 4, generator=g)
    return (h, torch.randn(4, batch, 4, generator=g)) if name == "LSTM" else h


def state_tensors(state):
    return list(state) if isinstance(state, tuple) else [state]


@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("with_state", [False, True])
@pytest.mark.parametrize("batch_first", [False, True])
def test_rnn_modules_on_both_packed_sequences(name, enforce_sorted, with_state, batch_first):
    padded, lengths = random_batch(7, batch_first, enforce_sorted)
    batch = len(lengths)
    extra = (initial_state(name, batch, 1),) if with_state else ()
    packed = {
        k: m.pack_padded_sequence(padded, lengths, batch_first, enforce_sorted)
        for k, m in MODS.items()
    }

    def run(nn, input_kind):
        module = make_rnn(nn, name, batch_first=batch_first)
        out, state = module(packed[input_kind], *extra)
        loss = out.data.square().sum() + sum(s.sum() for s in state_tensors(state))
        loss.backward()
        grads = [p.grad for p in module.parameters()]
        return out, state_tensors(state), grads

    ref_out, ref_state, ref_grads = run(tnn, "torch")
    results = {
        ("ours", "ours"): run(ann, "ours"),
        ("ours", "torch"): run(ann, "torch"),
        ("torch", "ours"): run(tnn, "ours"),
    }
    expected_family = {
        ("ours", "ours"): "ours",
        ("ours", "torch"): "torch",
        ("torch", "ours"): "torch",
    }
    assert family(ref_out) == "torch"
    for key, (out, state, grads) in results.items():
        assert family(out) == expected_family[key], key
        assert_packed_equal(out, ref_out)
        assert len(state) == len(ref_state)
        for u, v in zip(state, ref_state):
            assert torch.equal(u, v)
        for u, v in zip(grads, ref_grads):
            assert torch.equal(u, v)


def test_our_rnn_output_pads_back_like_torch():
    padded, lengths = random_batch(3, False, sorted_lengths=False)
    out_t, _ = make_rnn(tnn, "LSTM")(T.pack_padded_sequence(padded, lengths, enforce_sorted=False))
    out_o, _ = make_rnn(ann, "LSTM")(O.pack_padded_sequence(padded, lengths, enforce_sorted=False))
    a, la = T.pad_packed_sequence(out_t, batch_first=True, total_length=8)
    b, lb = O.pad_packed_sequence(out_o, batch_first=True, total_length=8)
    assert torch.equal(a, b) and torch.equal(la, lb)


def test_messages_name_torch_paths():
    # our class's module path maps to torch's in messages (norm), the repr carries no path
    ours = sample(O)
    assert norm(type(ours)) == "<class 'torch.nn.utils.rnn.PackedSequence'>"
    _, caught = record_warnings(lambda: O.pad_sequence([torch.ones(1)]))
    assert caught == []
