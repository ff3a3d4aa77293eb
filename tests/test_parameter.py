"""Differential tests: annotated_nn.parameter against torch.nn.parameter."""

import copy
import io
import pickle
import warnings
from collections import OrderedDict

import pytest
import torch
import torch.nn.parameter as theirs

import annotated_nn
import annotated_nn.parameter as ours


def both(fn):
    """Run fn(mod) with torch.nn.parameter and ours; return both results."""
    return fn(theirs), fn(ours)


def same_error(fn):
    """fn(mod) must raise the same exception type and message for both; return the message."""
    excs = []
    for mod in (theirs, ours):
        with pytest.raises(Exception) as info:
            fn(mod)
        excs.append(info.value)
    assert type(excs[0]) is type(excs[1])
    assert str(excs[0]) == str(excs[1])
    return str(excs[1])


class DetachKeepsType(torch.Tensor):
    """A tensor subclass whose operations (detach included) return the subclass."""


class DetachLosesType(torch.Tensor):
    """A tensor subclass whose detach() returns a plain Tensor."""

    __torch_function__ = torch._C._disabled_torch_function_impl


def test_public_names():
    assert ours.__all__ == theirs.__all__
    assert annotated_nn.Parameter is ours.Parameter
    assert annotated_nn.Buffer is ours.Buffer
    assert annotated_nn.UninitializedParameter is ours.UninitializedParameter
    assert annotated_nn.UninitializedBuffer is ours.UninitializedBuffer
    # Same class hierarchy shape as torch's.
    assert [c.__name__ for c in ours.UninitializedParameter.__mro__] == [
        c.__name__ for c in theirs.UninitializedParameter.__mro__
    ]
    assert [c.__name__ for c in ours.UninitializedBuffer.__mro__] == [
        c.__name__ for c in theirs.UninitializedBuffer.__mro__
    ]
    assert type(ours.Parameter).__name__ == "_ParameterMeta"
    assert type(ours.Buffer).__name__ == "_BufferMeta"
    assert ours._ParameterMeta.__mro__[1] is torch._C._TensorMeta


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.ones(2),
        lambda: torch.arange(6.0).reshape(2, 3),
        lambda: torch.randn(30, 40),
        lambda: torch.ones(3, dtype=torch.float64),
        lambda: torch.arange(4),
        lambda: torch.empty(0),
        lambda: torch.empty(2, 0),
        lambda: torch.ones(2, 2, device="meta"),
        lambda: torch.tensor(3.5),
    ],
)
@pytest.mark.parametrize("requires_grad", [True, False])
def test_repr_and_type(make, requires_grad):
    if requires_grad and not make().is_floating_point():
        same_error(lambda mod: mod.Parameter(make(), requires_grad))
        return
    torch.manual_seed(0)
    data = make()
    tp, op = both(lambda mod: mod.Parameter(data, requires_grad))
    assert repr(tp) == repr(op)
    assert str(tp) == str(op)
    assert type(op) is ours.Parameter
    assert op.requires_grad == tp.requires_grad == requires_grad
    assert op.is_leaf and op.grad_fn is None
    # Shares the storage, does not copy.
    if data.device.type != "meta" and data.numel():
        assert op.data_ptr() == data.data_ptr()
    # Printing must not leave the class switched.
    assert type(op) is ours.Parameter


def test_repr_default_and_nonleaf_and_subclass():
    tp, op = both(lambda mod: mod.Parameter())
    assert repr(tp) == repr(op)
    assert tp.shape == op.shape == (0,)

    def nonleaf(mod):
        p = mod.Parameter(torch.ones(2), requires_grad=False)
        p.add_(torch.ones(2, requires_grad=True))
        return p

    tp, op = both(nonleaf)
    assert repr(tp) == repr(op)
    assert "grad_fn=<AddBackward0>" in repr(op)

    def subclass(mod):
        class MyParam(mod.Parameter):
            pass

        return MyParam(torch.arange(4.0))

    tp, op = both(subclass)
    assert repr(tp) == repr(op)


def test_no_grad_does_not_affect_default():
    with torch.no_grad():
        tp, op = both(lambda mod: mod.Parameter(torch.ones(2)))
    assert tp.requires_grad and op.requires_grad


def test_operations_return_plain_tensors():
    tp, op = both(lambda mod: mod.Parameter(torch.ones(2)))
    for f in (
        lambda p: p + 1,
        lambda p: p * 2,
        lambda p: p.detach(),
        lambda p: p.data,
        lambda p: p.clone(),
        lambda p: p[0],
        lambda p: torch.sin(p),
        lambda p: p.view(2),
    ):
        assert type(f(tp)) is type(f(op)) is torch.Tensor


def test_parameter_from_parameter():
    tp, op = both(lambda mod: mod.Parameter(mod.Parameter(torch.ones(2)), requires_grad=False))
    assert type(op) is ours.Parameter and type(tp) is theirs.Parameter
    assert not op.requires_grad and not tp.requires_grad


def test_isinstance_rules():
    plain = torch.ones(2)
    for mod in (theirs, ours):
        p = mod.Parameter(torch.ones(2))
        assert isinstance(p, mod.Parameter) and isinstance(p, torch.Tensor)
        assert not isinstance(plain, mod.Parameter)
        assert not isinstance(p, mod.Buffer)
        assert isinstance(mod.UninitializedParameter(), mod.Parameter)
        assert not isinstance(mod.UninitializedBuffer(), mod.Parameter)
        assert isinstance(mod.UninitializedBuffer(), mod.Buffer)
        # The flag path: any tensor carrying _is_param=True is a Parameter.
        flagged = torch.ones(2)
        flagged._is_param = True
        assert isinstance(flagged, mod.Parameter)
        # ... but only for Parameter itself, not its subclasses.
        assert not isinstance(flagged, mod.UninitializedParameter)
        falsy = torch.ones(2)
        falsy._is_param = False
        assert not isinstance(falsy, mod.Parameter)
        assert not isinstance("not a tensor", mod.Parameter)


def test_isinstance_across_libraries():
    # Two distinct classes, and each library's parameters count as parameters in both (DIFF in
    # parameter.py): ours carries the class attribute _is_param=True, which torch's metaclass
    # reads (torch internals such as compiled backends check for torch.nn.Parameter), and our
    # metaclass accepts torch.nn.Parameter (torch.nn.utils helpers create those).
    theirs = torch.nn.Parameter(torch.ones(1))
    assert isinstance(theirs, annotated_nn.Parameter) and type(theirs) is torch.nn.Parameter
    assert not isinstance(theirs, annotated_nn.UninitializedParameter)
    assert not isinstance(torch.ones(1), annotated_nn.Parameter)
    ours = annotated_nn.Parameter(torch.ones(1))
    assert isinstance(ours, torch.nn.Parameter) and "_is_param" not in vars(ours)
    assert isinstance(annotated_nn.UninitializedParameter(), torch.nn.Parameter)
    assert not isinstance(annotated_nn.Buffer(torch.ones(1)), torch.nn.Parameter)
    # Flagged custom tensors and buffers count for both.
    t = torch.ones(2)
    t._is_param = True
    assert isinstance(t, torch.nn.Parameter) and isinstance(t, annotated_nn.Parameter)
    assert isinstance(torch.nn.Buffer(torch.ones(1)), annotated_nn.Buffer)
    assert isinstance(annotated_nn.Buffer(torch.ones(1)), torch.nn.Buffer)


def test_conversion_from_torch_parameter():
    # DIFF(torch 2.13): ours accepts torch.nn.Parameter on the plain path (torch itself refuses
    # our class, as any foreign Parameter class).
    tp = torch.nn.Parameter(torch.ones(3))
    op = annotated_nn.Parameter(tp)
    assert type(op) is annotated_nn.Parameter and op.data_ptr() == tp.data_ptr()
    with pytest.raises(RuntimeError, match="requires that detach"):
        torch.nn.Parameter(annotated_nn.Parameter(torch.ones(1)))


def test_custom_tensor_path():
    def make(mod):
        d = torch.ones(2).as_subclass(DetachKeepsType)
        return mod.Parameter(d, requires_grad=False)

    tp, op = both(make)
    assert type(tp) is type(op) is DetachKeepsType
    assert tp._is_param is op._is_param is True
    assert isinstance(op, ours.Parameter) and isinstance(op, theirs.Parameter)
    assert not op.requires_grad
    msg = same_error(lambda mod: mod.Parameter(torch.ones(2).as_subclass(DetachLosesType)))
    assert "DetachLosesType" in msg


def test_deepcopy():
    for mod in (theirs, ours):
        p = mod.Parameter(torch.randn(3, 2), requires_grad=False)
        p.grad = torch.ones(3, 2)
        p.extra = "x"
        q = copy.deepcopy(p)
        assert type(q) is type(p) and q is not p
        assert torch.equal(q, p) and q.data_ptr() != p.data_ptr()
        assert q.requires_grad is False
        # Only data and requires_grad are copied (same in both libraries).
        assert q.grad is None
        assert not hasattr(q, "extra")
        # memo: one parameter shared twice stays shared.
        a, b = copy.deepcopy([p, p])
        assert a is b
        # Memory format is preserved.
        cl = mod.Parameter(torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last))
        assert copy.deepcopy(cl).is_contiguous(memory_format=torch.channels_last)


def roundtrip_pickle(obj):
    return pickle.loads(pickle.dumps(obj))


def roundtrip_torch(obj, weights_only):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, weights_only=weights_only)


@pytest.mark.parametrize(
    "roundtrip",
    [roundtrip_pickle, lambda o: roundtrip_torch(o, True), lambda o: roundtrip_torch(o, False)],
    ids=["pickle", "torch-weights-only", "torch-full"],
)
def test_pickle_roundtrip(roundtrip):
    results = []
    for mod in (theirs, ours):
        p = mod.Parameter(torch.arange(4.0), requires_grad=False)
        q = roundtrip(p)
        assert type(q) is mod.Parameter
        results.append((q, q.requires_grad, q._backward_hooks))
    (tq, treq, thooks), (oq, oreq, ohooks) = results
    assert torch.equal(tq, oq) and treq == oreq is False
    assert thooks == ohooks
    assert repr(tq) == repr(oq)


def test_pickle_with_state_and_hooks():
    results = []
    for mod in (theirs, ours):
        p = mod.Parameter(torch.arange(3.0))
        p.note = {"a": 1}
        p.register_hook(lambda g: g * 2)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            data = pickle.dumps(p)
        q = pickle.loads(data)
        assert type(q) is mod.Parameter
        results.append((q.note, q.requires_grad, dict(q._backward_hooks or {}), len(w)))
    # Python attributes survive; hooks never do.
    assert results[0] == results[1]
    assert results[1][0] == {"a": 1} and results[1][2] == {}


def test_reduce_ex_shape():
    for mod in (theirs, ours):
        p = mod.Parameter(torch.ones(1))
        fn, args = p.__reduce_ex__(2)
        assert fn.__name__ == "_rebuild_parameter"
        assert len(args) == 3 and args[1] is True and args[2] == OrderedDict()
        p.x = 1
        fn, args = p.__reduce_ex__(2)
        assert fn.__name__ == "_rebuild_parameter_with_state" and len(args) == 4


def test_hooks_on_parameters():
    grads = []
    for mod in (theirs, ours):
        p = mod.Parameter(torch.tensor([1.0, 2.0]))
        seen = []
        h = p.register_hook(lambda g: seen.append(g.clone()) or g * 3)
        (p * p).sum().backward()
        h.remove()
        (p * p).sum().backward()
        grads.append((p.grad.clone(), [s.tolist() for s in seen]))
    assert torch.equal(grads[0][0], grads[1][0])
    assert grads[0][1] == grads[1][1]


def test_uninitialized_parameter_basics():
    tu, ou = both(lambda mod: mod.UninitializedParameter())
    assert repr(tu) == repr(ou) == "<UninitializedParameter>"
    assert str(tu) == str(ou)
    assert ou.requires_grad and ou.device == tu.device and ou.dtype == tu.dtype
    assert ours.is_lazy(ou) and theirs.is_lazy(tu)
    # Each library's is_lazy tests its own mixin.
    assert not ours.is_lazy(tu) and not theirs.is_lazy(ou)
    assert not ours.is_lazy(torch.ones(1)) and not ours.is_lazy(ours.Parameter(torch.ones(1)))
    tu2, ou2 = both(lambda mod: mod.UninitializedParameter(False, "meta", torch.float64))
    assert (ou2.requires_grad, ou2.device, ou2.dtype) == (tu2.requires_grad, tu2.device, tu2.dtype)


def test_uninitialized_errors():
    same_error(lambda mod: mod.UninitializedParameter().shape)
    same_error(lambda mod: mod.UninitializedBuffer().shape)
    same_error(lambda mod: mod.UninitializedParameter().share_memory_())
    same_error(lambda mod: mod.UninitializedBuffer().share_memory_())
    for op in (
        lambda u: u + 1,
        lambda u: u.sum(),
        lambda u: torch.zeros_like(u),
        lambda u: u.view(-1),
        lambda u: u.numel(),
    ):
        msgs = []
        for mod in (theirs, ours):
            for cls in (mod.UninitializedParameter, mod.UninitializedBuffer):
                with pytest.raises(ValueError) as info:
                    op(cls())
                msgs.append(str(info.value))
        # DIFF(torch 2.13): the class path in the message names annotated_nn.parameter.
        assert [
            m.replace("torch.nn.parameter.", "annotated_nn.parameter.") for m in msgs[:2]
        ] == msgs[2:]


def test_uninitialized_allowed_methods():
    seen = []
    for mod in (theirs, ours):
        u = mod.UninitializedParameter()
        assert u.size() == torch.Size([0])
        assert u.is_floating_point() and not u.is_complex()
        assert u.get_device() == -1
        hash(u)
        row = []
        for conv in (
            lambda t: t.double(),
            lambda t: t.half(),
            lambda t: t.float(),
            lambda t: t.to(torch.float64),
            lambda t: t.cpu(),
            lambda t: t.to("meta"),
            lambda t: t.long(),
        ):
            out = conv(mod.UninitializedParameter())
            row.append((type(out).__name__, out.dtype, out.device, out.requires_grad))
        out = mod.UninitializedParameter(requires_grad=False).copy_(torch.empty(0))
        row.append((type(out).__name__, out.dtype, out.device, out.requires_grad))
        seen.append(row)
    # Casts run normally and (as in torch) return plain tensors.
    assert seen[0] == seen[1]


def test_materialize():
    for mod in (theirs, ours):
        u = mod.UninitializedParameter(dtype=torch.float64)
        ident = id(u)
        u.materialize((2, 3))
        assert type(u) is mod.Parameter and id(u) == ident
        assert u.shape == (2, 3) and u.dtype == torch.float64 and u.requires_grad
        v = mod.UninitializedParameter(device="meta")
        v.materialize(4, dtype=torch.float16)
        assert v.device.type == "meta" and v.dtype == torch.float16 and v.shape == (4,)
        b = mod.UninitializedBuffer(persistent=False)
        b.materialize((3,))
        assert type(b) is torch.Tensor and b.persistent is False and b._is_buffer
        assert isinstance(b, mod.Buffer) and not b.requires_grad
    tp, op = both(lambda mod: _materialized_repr(mod))
    assert tp == op


def _materialized_repr(mod):
    u = mod.UninitializedParameter()
    u.materialize((2,))
    with torch.no_grad():
        u.fill_(1.5)
    return repr(u)


def test_uninitialized_deepcopy_and_pickle():
    for mod in (theirs, ours):
        u = mod.UninitializedParameter(requires_grad=False, dtype=torch.float64)
        c = copy.deepcopy(u)
        assert type(c) is type(u) and c is not u
        assert not c.requires_grad and c.dtype == torch.float64
        a, b = copy.deepcopy([u, u])
        assert a is b
        assert u.__reduce_ex__(2) == (type(u), (False,))
        r = roundtrip_pickle(u)
        assert type(r) is type(u) and r.requires_grad is False
        ub = mod.UninitializedBuffer()
        assert ub.__reduce_ex__(2) == (type(ub), (False,))


def test_uninitialized_buffer():
    tb, ob = both(lambda mod: mod.UninitializedBuffer(persistent=False, dtype=torch.float16))
    assert repr(tb) == repr(ob) == "<UninitializedBuffer>"
    assert (ob.requires_grad, ob.persistent, ob._is_buffer, ob.dtype) == (
        tb.requires_grad,
        tb.persistent,
        tb._is_buffer,
        tb.dtype,
    )
    assert ours.is_lazy(ob)
    assert ours.UninitializedBuffer.cls_to_become is torch.Tensor
    assert ours.UninitializedParameter.cls_to_become is ours.Parameter


@pytest.mark.parametrize("persistent", [True, False])
@pytest.mark.parametrize("requires_grad", [True, False])
def test_buffer(persistent, requires_grad):
    data = torch.randn(3, requires_grad=requires_grad)
    tb, ob = both(lambda mod: mod.Buffer(data, persistent=persistent))
    assert type(tb) is type(ob) is torch.Tensor
    assert ob.persistent is persistent and ob._is_buffer is True
    assert ob.requires_grad == tb.requires_grad == requires_grad
    assert ob.data_ptr() == data.data_ptr() and ob is not data
    assert ob.is_leaf and ob.grad_fn is None
    assert repr(tb) == repr(ob)
    assert isinstance(ob, ours.Buffer) and not isinstance(data, ours.Buffer)
    assert not isinstance(ob, ours.Parameter)


def test_buffer_defaults_and_errors():
    tb, ob = both(lambda mod: mod.Buffer())
    assert tb.shape == ob.shape == (0,) and ob.persistent is True
    # persistent is keyword-only in both.
    same_error(lambda mod: mod.Buffer(torch.ones(1), False))
    # A Buffer of a custom tensor keeps the custom type.
    tb, ob = both(lambda mod: mod.Buffer(torch.ones(2).as_subclass(DetachKeepsType)))
    assert type(tb) is type(ob) is DetachKeepsType


def test_parameter_in_module():
    for nn in (torch.nn, annotated_nn):
        m = nn.Module()
        m.w = nn.Parameter(torch.ones(2))
        m.register_buffer("b", torch.zeros(1))
        m.c = nn.Buffer(torch.zeros(2), persistent=False)
        assert [n for n, _ in m.named_parameters()] == ["w"]
        assert [n for n, _ in m.named_buffers()] == ["b", "c"]
        assert list(m.state_dict()) == ["w", "b"]
