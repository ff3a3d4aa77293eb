"""Claims of parameter.py and chapter 1 (Parameter, Buffer, uninitialized tensors)."""

from __future__ import annotations

import copy
import io
import pickle
import warnings

import pytest
import torch
from claim import NAMESPACES, each_nn, proves


def other(nn):
    """The other namespace."""
    return next(ns for ns in NAMESPACES.values() if ns is not nn)


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Note [Two Parameter classes]",
    "the two Parameter classes are no subclasses of each other, yet isinstance holds both ways",
)
@each_nn()
def test_two_parameter_classes_isinstance_both_ways(nn):
    """A parameter of one library passes isinstance for the other, but not an exact type test."""
    theirs = other(nn)
    p = nn.Parameter(torch.ones(2))
    assert not issubclass(nn.Parameter, theirs.Parameter)
    assert isinstance(p, theirs.Parameter)
    assert type(p) is not theirs.Parameter
    assert not isinstance(torch.ones(2), nn.Parameter)


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Note [Two Parameter classes]",
    "uninitialized parameters do not cross over, and is_lazy recognizes its own only",
)
@each_nn()
def test_uninitialized_parameters_do_not_cross_over(nn):
    """isinstance and is_lazy see only the library's own uninitialized parameters."""
    theirs = other(nn)
    u = nn.UninitializedParameter()
    assert isinstance(u, nn.UninitializedParameter)
    assert not isinstance(u, theirs.UninitializedParameter)
    assert nn.parameter.is_lazy(u)
    assert not theirs.parameter.is_lazy(u)


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Note [Two Parameter classes]",
    "a custom tensor flagged _is_param=True counts as a parameter of both libraries",
)
@each_nn()
def test_flagged_custom_tensor_counts_for_both(nn):
    """The _is_param flag on the instance is enough for isinstance."""
    t = torch.ones(2)
    t._is_param = True
    assert isinstance(t, nn.Parameter)
    assert isinstance(t, other(nn).Parameter)


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Note [Parameter repr]",
    "a parameter prints exactly as torch's, and a subclass is wrapped in Parameter(...)",
)
@each_nn()
def test_parameter_repr_matches_torch_and_keeps_type(nn):
    """repr text equals torch.nn's; the object keeps its class afterwards."""
    import torch.nn as tnn

    p = nn.Parameter(torch.ones(2))
    assert repr(p) == repr(tnn.Parameter(torch.ones(2)))
    assert repr(p).startswith("Parameter containing:\ntensor([1., 1.]")
    assert type(p) is nn.Parameter

    class Sub(nn.Parameter):
        pass

    assert repr(Sub(torch.ones(2))).endswith("Parameter(Sub([1., 1.], requires_grad=True))")


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Parameter",
    "requires_grad defaults to True, even inside torch.no_grad()",
)
@each_nn()
def test_parameter_requires_grad_under_no_grad(nn):
    """A parameter made under no_grad still requires grad."""
    with torch.no_grad():
        p = nn.Parameter(torch.ones(2))
    assert p.requires_grad


@proves(
    "docs/chapters/01-parameter-and-buffer.md",
    "parameter",
    "arithmetic on a parameter returns a plain Tensor, not a Parameter",
)
@each_nn()
def test_parameter_arithmetic_is_plain_tensor(nn):
    """__torch_function__ is disabled: w * 2 is a plain tensor that still requires grad."""
    w = nn.Parameter(torch.ones(2))
    out = w * 2
    assert type(out) is torch.Tensor
    assert not isinstance(out, nn.Parameter)
    assert out.requires_grad


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Parameter.__new__",
    "the result shares the data's storage and is always a leaf, even from a tensor with history",
)
@each_nn()
def test_parameter_shares_storage_and_is_a_leaf(nn):
    """No copy; the history of the wrapped tensor is cut."""
    x = torch.ones(3, requires_grad=True) * 2
    p = nn.Parameter(x)
    assert p.data_ptr() == x.data_ptr()
    assert p.is_leaf and p.grad_fn is None
    assert nn.Parameter().shape == torch.Size([0])


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Parameter.__deepcopy__",
    "deepcopy keeps sharing within one copy; .grad, hooks and Python attributes are not copied",
)
@each_nn()
def test_parameter_deepcopy_drops_grad_hooks_and_attributes(nn):
    """A deep copy clones only data and requires_grad."""
    p = nn.Parameter(torch.ones(2))
    p.tag = "kept?"
    p.grad = torch.ones(2)
    p.register_hook(lambda g: g)
    q, q_again = copy.deepcopy([p, p])
    assert q is q_again and q is not p
    assert not hasattr(q, "tag")
    assert q.grad is None
    assert not q._backward_hooks
    assert type(q) is nn.Parameter and q.requires_grad


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Parameter.__reduce_ex__",
    "pickling keeps Python attributes and silently drops hooks (no warning)",
)
@each_nn()
def test_parameter_pickle_keeps_attributes_drops_hooks_silently(nn):
    """Unpickled: same class, attribute back, hooks an empty dict, no warning issued."""
    p = nn.Parameter(torch.ones(2))
    p.tag = "kept"
    p.register_hook(lambda g: g)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        q = pickle.loads(pickle.dumps(p))
    assert not caught
    assert type(q) is nn.Parameter
    assert q.tag == "kept"
    assert not q._backward_hooks


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "_rebuild_parameter",
    "a saved Parameter loads with torch.load(weights_only=True)",
)
@each_nn()
def test_parameter_loads_with_weights_only(nn):
    """The rebuild functions are on the weights_only allowlist."""
    buffer = io.BytesIO()
    torch.save(nn.Parameter(torch.arange(3.0)), buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=True)
    assert type(loaded) is nn.Parameter
    assert torch.equal(loaded, torch.arange(3.0))


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "Buffer",
    "Buffer(t) returns a plain flagged tensor; requires_grad is kept as the input had it",
)
@each_nn()
def test_buffer_returns_a_plain_flagged_tensor(nn):
    """type is Tensor, isinstance(Buffer) holds via the metaclass, persistent defaults True."""
    b = nn.Buffer(torch.ones(2, requires_grad=True))
    assert type(b) is torch.Tensor
    assert isinstance(b, nn.Buffer)
    assert b.persistent is True
    assert b.requires_grad


@proves(
    "docs/chapters/01-parameter-and-buffer.md",
    "buffer",
    "self.x = Buffer(t) registers a buffer; persistent=False keeps it out of the state_dict",
)
@each_nn()
def test_buffer_assignment_registers(nn):
    """Assignment registers; a plain tensor attribute is not registered."""

    class Stats(nn.Module):
        def __init__(self):
            super().__init__()
            self.mean = nn.Buffer(torch.zeros(3))
            self.scratch = nn.Buffer(torch.ones(1), persistent=False)
            self.plain = torch.ones(1)

    m = Stats()
    assert [name for name, _ in m.named_buffers()] == ["mean", "scratch"]
    assert list(m.state_dict()) == ["mean"]


@proves(
    "docs/chapters/01-parameter-and-buffer.md",
    "seed-differences",
    "one parameter object can be registered on several modules at once",
)
@each_nn()
def test_one_parameter_on_two_modules(nn):
    """A Parameter does not know its owner; both modules hold the same object."""
    a, b = nn.Linear(2, 2), nn.Linear(2, 2)
    b.weight = a.weight
    assert a.weight is b.weight
    model = nn.Sequential(a, b)
    assert len(list(model.parameters())) == 3


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "UninitializedTensorMixin.shape",
    "reading .shape raises RuntimeError, size() answers torch.Size([0])",
)
@each_nn()
def test_uninitialized_shape_raises_size_works(nn):
    """shape raises; size is an allowed method."""
    p = nn.UninitializedParameter()
    with pytest.raises(RuntimeError, match="Can't access the shape of an uninitialized"):
        p.shape
    assert p.size() == torch.Size([0])


@proves(
    "docs/chapters/01-parameter-and-buffer.md",
    "exercises",
    "p + 1 on an UninitializedParameter raises ValueError",
)
@each_nn()
def test_uninitialized_arithmetic_raises_value_error(nn):
    """Any torch function outside the allowed list is refused."""
    p = nn.UninitializedParameter()
    with pytest.raises(ValueError, match="Attempted to use an uninitialized parameter"):
        p + 1
    with pytest.raises(RuntimeError, match="Can't share memory"):
        p.share_memory_()


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "UninitializedTensorMixin.materialize",
    "materialize keeps the object's identity and switches its class",
)
@each_nn()
def test_materialize_keeps_identity(nn):
    """References held elsewhere stay valid."""
    p = nn.UninitializedParameter(dtype=torch.float64)
    held = p
    assert repr(p) == "<UninitializedParameter>"
    p.materialize((2, 3))
    assert held is p
    assert type(p) is nn.Parameter
    assert p.shape == (2, 3) and p.dtype == torch.float64
    assert not nn.parameter.is_lazy(p)


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "UninitializedBuffer",
    "an uninitialized buffer materializes into a plain Tensor keeping persistent and _is_buffer",
)
@each_nn()
def test_uninitialized_buffer_materializes_to_plain_tensor(nn):
    """No grad by default; the instance attributes survive the class switch."""
    b = nn.UninitializedBuffer(persistent=False)
    b.materialize((2,))
    assert type(b) is torch.Tensor
    assert not b.requires_grad
    assert b.persistent is False and b._is_buffer is True


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "UninitializedTensorMixin.__reduce_ex__",
    "unpickling rebuilds on the default dtype, and persistent=False comes back as True",
)
@each_nn()
def test_uninitialized_pickle_loses_dtype_and_persistence(nn):
    """Only the class and requires_grad are saved."""
    p = nn.UninitializedParameter(requires_grad=False, dtype=torch.float64)
    q = pickle.loads(pickle.dumps(p))
    assert type(q) is nn.UninitializedParameter
    assert q.dtype == torch.get_default_dtype()
    assert q.requires_grad is False
    b = pickle.loads(pickle.dumps(nn.UninitializedBuffer(persistent=False)))
    assert b.persistent is True


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "UninitializedParameter.__deepcopy__",
    "deepcopy of a placeholder is a fresh placeholder on the same device and dtype",
)
@each_nn()
def test_uninitialized_deepcopy_keeps_dtype(nn):
    """Unlike pickling, deepcopy keeps the dtype."""
    p = nn.UninitializedParameter(dtype=torch.float64)
    q = copy.deepcopy(p)
    assert q is not p
    assert type(q) is nn.UninitializedParameter
    assert q.dtype == torch.float64


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "UninitializedTensorMixin._allowed_methods",
    "bfloat16 is not allowed, so Module.bfloat16() raises ValueError on an uninitialized module",
)
@each_nn()
def test_uninitialized_module_bfloat16_raises(nn):
    """half() is allowed, bfloat16() is not."""
    m = nn.LazyLinear(3)
    m.half()
    assert m.weight.dtype == torch.float16
    with pytest.raises(ValueError):
        nn.LazyLinear(3).bfloat16()


@proves(
    "annotated_src/annotated_nn/parameter.py",
    "UninitializedTensorMixin._allowed_methods",
    "a dtype cast keeps the placeholder parameter object but swaps an uninitialized buffer",
)
@each_nn()
def test_dtype_cast_keeps_parameter_object_swaps_buffer(nn):
    """Module._apply writes a parameter through .data, but replaces a buffer."""
    m = nn.LazyBatchNorm1d()
    weight, running_mean = m.weight, m.running_mean
    m.double()
    assert m.weight is weight and type(m.weight) is nn.UninitializedParameter
    assert m.running_mean is not running_mean
    assert type(m.running_mean) is nn.UninitializedBuffer
    assert m.weight.dtype == m.running_mean.dtype == torch.float64
