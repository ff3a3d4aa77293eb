"""Claims of modules/container.py and chapter 5 (containers)."""

from __future__ import annotations

from collections import OrderedDict

import pytest
import torch
from claim import each_nn, proves


@proves(
    "docs/chapters/05-containers.md",
    "sequential",
    "a slice keeps the original names, while del renumbers the rest from '0'",
)
@each_nn()
def test_sequential_slice_keeps_names_delete_renumbers(nn):
    """s[1:] starts at '1'; after del s[0] the names are '0', '1'; modules are shared."""
    s = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
    tail = s[1:]
    assert list(tail._modules) == ["1", "2"]
    assert tail[0] is s[1]
    del s[0]
    assert list(s._modules) == ["0", "1"]


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.__delitem__",
    "deletion renumbers even names that came from an OrderedDict",
)
@each_nn()
def test_sequential_delete_loses_ordered_dict_names(nn):
    """The OrderedDict names are gone after any deletion."""
    s = nn.Sequential(OrderedDict(a=nn.ReLU(), b=nn.Tanh(), c=nn.Sigmoid()))
    del s[0]
    assert list(s._modules) == ["0", "1"]


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.__add__",
    "s + t is a plain Sequential renamed from '0' sharing modules; other operands: ValueError",
)
@each_nn()
def test_sequential_add(nn):
    """Addition renames and shares; a non-Sequential raises ValueError, not TypeError."""

    class MySeq(nn.Sequential):
        pass

    a = MySeq(OrderedDict(x=nn.ReLU()))
    b = nn.Sequential(OrderedDict(y=nn.Tanh()))
    c = a + b
    assert type(c) is nn.Sequential
    assert list(c._modules) == ["0", "1"] and c[0] is a.x
    with pytest.raises(ValueError, match="add operator supports only objects of Sequential"):
        a + nn.ModuleList()


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.__iadd__",
    "s += s raises RuntimeError after one module was already added",
)
@each_nn()
def test_sequential_iadd_self(nn):
    """The dict grows while it is iterated."""
    s = nn.Sequential(nn.ReLU())
    with pytest.raises(RuntimeError, match="dictionary changed size during iteration"):
        s += s
    assert len(s) == 2


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.__mul__",
    "seq * 3 repeats the same module objects, so parameters are shared, not copied",
)
@each_nn()
def test_sequential_mul_shares(nn):
    """Three positions, one Linear, one set of parameters."""
    s = nn.Sequential(nn.Linear(2, 2)) * 3
    assert len(s) == 3 and s[0] is s[1] is s[2]
    assert len(list(s.parameters())) == 2
    with pytest.raises(ValueError, match="Non-positive multiplication factor 0"):
        nn.Sequential(nn.ReLU()) * 0


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.__imul__",
    "with OrderedDict names, s *= 2 raises KeyError",
)
@each_nn()
def test_sequential_imul_needs_digit_names(nn):
    """The originals are read by the names '0' ... 'n-1'."""
    s = nn.Sequential(OrderedDict(a=nn.ReLU(), b=nn.Tanh()))
    with pytest.raises(KeyError):
        s *= 2


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.append",
    "append after an OrderedDict name '1' silently overwrites it, and the length stays the same",
)
@each_nn()
def test_sequential_append_name_collision(nn):
    """The new name str(len(self)) collides with an existing one."""
    s = nn.Sequential(OrderedDict([("1", nn.ReLU())]))
    tanh = nn.Tanh()
    s.append(tanh)
    assert len(s) == 1 and s[0] is tanh


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.insert",
    "insert writes _modules directly, so global registration hooks do not fire (append does)",
)
@each_nn()
def test_sequential_insert_skips_registration_hooks(nn):
    """register_module_module_registration_hook sees append, not insert."""
    seen = []
    handle = nn.modules.module.register_module_module_registration_hook(
        lambda module, name, sub: seen.append(name)
    )
    try:
        s = nn.Sequential(nn.ReLU())
        seen.clear()
        s.insert(0, nn.Tanh())
        assert seen == []
        s.append(nn.Sigmoid())
        assert seen == ["2"]
    finally:
        handle.remove()


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.__init__",
    "only an OrderedDict is read as names; a plain dict is rejected with TypeError",
)
@each_nn()
def test_sequential_plain_dict_rejected(nn):
    """A plain dict is treated as a module."""
    with pytest.raises(TypeError):
        nn.Sequential({"a": nn.ReLU()})


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential.forward",
    "an empty chain returns the input unchanged; a tuple output is the next module's one input",
)
@each_nn()
def test_sequential_passes_one_value(nn):
    """Exactly one value flows between steps."""
    x = torch.ones(2)
    assert nn.Sequential()(x) is x

    class Pair(nn.Module):
        def forward(self, x):
            return x, x

    class Takes(nn.Module):
        def forward(self, value):
            return type(value).__name__

    assert nn.Sequential(Pair(), Takes())(x) == "tuple"


@proves(
    "docs/chapters/05-containers.md",
    "seed-differences",
    "calling a ModuleList raises NotImplementedError about the missing forward",
)
@each_nn()
def test_module_list_has_no_forward(nn):
    """Module's _forward_unimplemented message."""
    with pytest.raises(NotImplementedError, match=r"Module \[ModuleList\] is missing the required"):
        nn.ModuleList([nn.ReLU()])(torch.ones(1))


@proves(
    "docs/chapters/05-containers.md",
    "modulelist",
    "modules kept in a plain list are invisible to the module system; ModuleList registers them",
)
@each_nn()
def test_plain_list_is_not_registered(nn):
    """named_modules sees the ModuleList entry only."""

    class Holder(nn.Module):
        def __init__(self):
            super().__init__()
            self.as_list = [nn.Linear(1, 1)]
            self.as_module_list = nn.ModuleList([nn.Linear(1, 1)])

    h = Holder()
    assert [n for n, _ in h.named_modules()] == ["", "as_module_list", "as_module_list.0"]
    assert len(list(h.parameters())) == 2


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ModuleList.__repr__",
    "runs of identical neighbors collapse into one line; A, B, A stays three lines",
)
@each_nn()
def test_module_list_repr_groups_neighbors(nn):
    """Run-length encoding over neighbors, compared on the repr text."""
    grouped = nn.ModuleList([nn.ReLU() for _ in range(3)] + [nn.Tanh()])
    assert repr(grouped) == "ModuleList(\n  (0-2): 3 x ReLU()\n  (3): Tanh()\n)"
    aba = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.ReLU()])
    assert repr(aba) == "ModuleList(\n  (0): ReLU()\n  (1): Tanh()\n  (2): ReLU()\n)"
    assert repr(nn.ModuleList()) == "ModuleList()"


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ModuleList.__getitem__",
    "a ModuleList slice renumbers from '0' (unlike Sequential) and shares the modules",
)
@each_nn()
def test_module_list_slice_renumbers(nn):
    """The new list is built from the values."""
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
    part = ml[1:]
    assert list(part._modules) == ["0", "1"] and part[0] is ml[1]


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ModuleList.insert",
    "insert checks nothing: a non-module lands in _modules; a negative index leaves an extra entry",
)
@each_nn()
def test_module_list_insert_checks_nothing(nn):
    """insert(0, 5) stores 5; insert(-1, m) shifts first, then raises KeyError."""
    ml = nn.ModuleList()
    ml.insert(0, 5)
    assert ml._modules == {"0": 5}
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh()])
    with pytest.raises(KeyError):
        ml.insert(-1, nn.Sigmoid())
    assert list(ml._modules) == ["0", "1", "2"]


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ModuleList.extend",
    "extend refuses a single module (not iterable) with TypeError",
)
@each_nn()
def test_module_list_extend_single_module(nn):
    """torch's message."""
    with pytest.raises(TypeError, match="ModuleList.extend should be called with an iterable"):
        nn.ModuleList().extend(nn.ReLU())


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ModuleDict",
    "ModuleDict keeps a plain dict's insertion order, while ParameterDict sorts it",
)
@each_nn()
def test_module_dict_keeps_order_parameter_dict_sorts(nn):
    """The 1.5.1 → 2.13 change to ModuleDict.update, and ParameterDict still sorting."""
    md = nn.ModuleDict({"b": nn.ReLU(), "a": nn.Tanh()})
    pd = nn.ParameterDict({"b": torch.zeros(1), "a": torch.ones(1)})
    assert list(md.keys()) == ["b", "a"]
    assert list(pd) == ["a", "b"]
    assert [n for n, _ in pd.named_parameters()] == ["a", "b"]


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ModuleDict.update",
    "a bad sequence element's message lacks a space after 'is' (torch's text)",
)
@each_nn()
def test_module_dict_update_message(nn):
    """'should be Iterable; isint'."""
    with pytest.raises(TypeError, match="should be Iterable; isint$"):
        nn.ModuleDict().update([5])


@proves(
    "docs/chapters/05-containers.md",
    "modulelist",
    "ModuleDict and ParameterDict keys cannot contain dots",
)
@each_nn()
def test_container_keys_cannot_contain_dots(nn):
    """The names go through add_module / register_parameter."""
    with pytest.raises(KeyError, match="contain"):
        nn.ModuleDict({"a.b": nn.ReLU()})
    with pytest.raises(KeyError, match="contain"):
        nn.ParameterDict({"a.b": torch.ones(1)})


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterList",
    "tensors are wrapped into Parameters, other objects stay plain attributes; calls raise",
)
@each_nn()
def test_parameter_list_wraps_tensors(nn):
    """The chapter's example, plus the call error."""
    pl = nn.ParameterList([torch.ones(2), nn.Parameter(torch.zeros(3)), "note"])
    assert [type(p).__name__ for p in pl] == ["Parameter", "Parameter", "str"]
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    with pytest.raises(RuntimeError, match="ParameterList should not be called."):
        pl(torch.ones(1))


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterList.extend",
    "a tensor is never unpacked along dim 0: extend(tensor) raises TypeError",
)
@each_nn()
def test_parameter_list_extend_tensor(nn):
    """Excluded explicitly though a tensor is iterable."""
    with pytest.raises(TypeError, match="but got Tensor"):
        nn.ParameterList().extend(torch.ones(3))


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterDict.extra_repr",
    "ParameterList shows the dtype, ParameterDict the legacy torch.typename",
)
@each_nn()
def test_parameter_containers_repr_type_column(nn):
    """torch.float32 versus torch.FloatTensor."""
    assert "[torch.float32 of size 2]" in repr(nn.ParameterList([torch.ones(2)]))
    assert "[torch.FloatTensor of size 2]" in repr(nn.ParameterDict({"a": torch.ones(2)}))


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterDict.__getitem__",
    "a missing key raises AttributeError, not KeyError",
)
@each_nn()
def test_parameter_dict_missing_key(nn):
    """Lookup goes through getattr."""
    with pytest.raises(AttributeError):
        nn.ParameterDict()["missing"]


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterDict.__setitem__",
    "a non-string key raises TypeError but stays in _keys",
)
@each_nn()
def test_parameter_dict_bad_key_stays(nn):
    """The key is recorded before its type is checked."""
    pd = nn.ParameterDict()
    with pytest.raises(TypeError, match="not a string"):
        pd[1] = torch.ones(1)
    assert list(pd._keys) == [1]


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterDict.items",
    "items() is a generator: it can be iterated only once",
)
@each_nn()
def test_parameter_dict_items_once(nn):
    """Unlike ModuleDict.items, no view."""
    pd = nn.ParameterDict(OrderedDict(a=torch.ones(1), b=torch.ones(1)))
    items = pd.items()
    assert len(list(items)) == 2
    assert list(items) == []


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterDict.__or__",
    "a | b: a shared key takes b's value but keeps its place from a; dict | pd is a plain dict",
)
@each_nn()
def test_parameter_dict_or(nn):
    """Dict merging rules."""
    a = nn.ParameterDict(OrderedDict(a=torch.ones(1), b=torch.ones(1)))
    b = nn.ParameterDict(OrderedDict(b=torch.zeros(2), c=torch.zeros(1)))
    merged = a | b
    assert list(merged) == ["a", "b", "c"] and merged["b"] is b["b"]
    left = {"z": 1} | a
    assert type(left) is dict and list(left) == ["z", "a", "b"]


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterDict.fromkeys",
    "fromkeys wraps a tensor default into a separate Parameter per key over the same storage",
)
@each_nn()
def test_parameter_dict_fromkeys(nn):
    """Different objects, one storage."""
    pd = nn.ParameterDict().fromkeys(["x", "y"], torch.ones(2))
    assert pd["x"] is not pd["y"]
    assert pd["x"].data_ptr() == pd["y"].data_ptr()


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterDict.update",
    "a plain mapping with str and int keys raises TypeError before any key is added",
)
@each_nn()
def test_parameter_dict_mixed_keys(nn):
    """sorted() fails first."""
    pd = nn.ParameterDict()
    with pytest.raises(TypeError, match="not supported between instances"):
        pd.update({"a": torch.ones(1), 1: torch.ones(1)})
    assert len(pd) == 0


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Container",
    "Container warns with FutureWarning on construction and on subclassing",
)
@each_nn()
def test_container_deprecated(nn):
    """The typing_extensions.deprecated decorator fires for both."""
    with pytest.warns(FutureWarning, match="nn.Container` is deprecated"):
        c = nn.Container(body=nn.ReLU())
    assert list(c._modules) == ["body"]
    with pytest.warns(FutureWarning):

        class Sub(nn.Container):
            pass


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "Sequential._get_item_by_idx",
    "non-integer indices raise TypeError, out-of-range ones IndexError; dir() hides digit names",
)
@each_nn()
def test_sequential_indexing_errors(nn):
    """operator.index first, then the range check with torch's message."""
    s = nn.Sequential(nn.ReLU())
    with pytest.raises(IndexError, match="index 5 is out of range"):
        s[5]
    with pytest.raises(TypeError):
        s["0"]
    assert "0" not in dir(s) and "append" in dir(s)


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ModuleDict.__setitem__",
    "a key naming an existing non-submodule attribute raises KeyError",
)
@each_nn()
def test_module_dict_existing_attribute(nn):
    """add_module's check."""
    with pytest.raises(KeyError, match="attribute 'training' already exists"):
        nn.ModuleDict()["training"] = nn.ReLU()


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterDict.copy",
    "copy keeps the order and is always a plain ParameterDict; popitem on an empty dict raises "
    "KeyError",
)
@each_nn()
def test_parameter_dict_copy_and_popitem(nn):
    """The copy shares the parameter objects."""

    class MyDict(nn.ParameterDict):
        pass

    original = MyDict(OrderedDict(b=torch.ones(1), a=torch.zeros(1)))
    copied = original.copy()
    assert type(copied) is nn.ParameterDict
    assert list(copied) == ["b", "a"] and copied["b"] is original["b"]
    with pytest.raises(KeyError):
        nn.ParameterDict().popitem()


@proves(
    "annotated_src/annotated_nn/modules/container.py",
    "ParameterList.extra_repr",
    "a 0-dim tensor prints with an empty size ('of size ]'), on one line after the '('",
)
@each_nn()
def test_parameter_list_scalar_repr(nn):
    """The sizes are joined with 'x'; nothing to join for a scalar."""
    assert repr(nn.ParameterList([torch.tensor(1.0)])) == (
        "ParameterList(  (0): Parameter containing: [torch.float32 of size ])"
    )
