"""Differential tests: annotated_nn.modules.container against torch.nn.modules.container.

Every scenario is written once as a function of the `nn` namespace, run with `torch.nn` and with
`annotated_nn`, and the observations (reprs, names, keys, values, exceptions) must be identical.
"""

import copy
import inspect
import pickle
import warnings
from collections import OrderedDict

import pytest
import torch
import torch.nn as tnn
import torch.nn.modules.container as tcont

import annotated_nn as ann
import annotated_nn.modules.container as acont
from helpers import our_mro_as_torch

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

_CHILD_CLASSES = {}


def kit(nn):
    """Small child modules defined once per namespace, so their reprs/qualnames match."""
    if nn not in _CHILD_CLASSES:

        class Lin(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.n = n
                self.weight = nn.Parameter(torch.randn(n))

            def forward(self, x):
                return x * self.weight.sum() + self.n

            def extra_repr(self):
                return f"n={self.n}"

        class Buf(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("running", torch.arange(3.0))
                self.register_buffer("scratch", torch.zeros(1), persistent=False)

            def forward(self, x):
                return x + self.running.sum()

        class Pair(nn.Module):
            """A child with a nested child, for multi-line reprs."""

            def __init__(self, n):
                super().__init__()
                self.inner = Lin(n)
                self.bias = nn.Parameter(torch.randn(1))

            def forward(self, x):
                return self.inner(x) - self.bias

        _CHILD_CLASSES[nn] = (Lin, Buf, Pair)
    return _CHILD_CLASSES[nn]


def norm(msg):
    """Put torch's module paths into our messages (class paths are the one expected difference)."""
    return msg.replace("annotated_nn.modules.", "torch.nn.modules.").replace(
        "annotated_nn.parameter.", "torch.nn.parameter."
    )


def catch(fn):
    """Run fn; return ('ok', describe(result)) or ('raised', type name, normalised message)."""
    try:
        return ("ok", describe(fn()))
    except Exception as e:  # noqa: BLE001
        return ("raised", type(e).__name__, norm(str(e)))


def describe(v):
    """A plain-Python picture of a value that both implementations must agree on."""
    if isinstance(v, torch.Tensor):
        values = None if v.device.type == "meta" else v.detach().tolist()
        return (
            type(v).__name__,
            tuple(v.shape),
            str(v.dtype),
            v.device.type,
            v.requires_grad,
            values,
        )
    if isinstance(v, (tnn.Module, ann.Module)):
        return snap(v)
    if isinstance(v, (list, tuple)):
        return type(v).__name__, [describe(x) for x in v]
    if isinstance(v, dict):
        return type(v).__name__, [(k, describe(x)) for k, x in v.items()]
    if isinstance(v, (str, int, float, bool, type(None))):
        return v
    return ("object", type(v).__name__, norm(repr(v)))


def snap(m):
    """What a user observes of a module: repr, names, state_dict."""
    state = m.state_dict()
    return {
        "type": type(m).__name__,
        "repr": norm(repr(m)),
        "modules": list(m._modules),
        "named_modules": [n for n, _ in m.named_modules()],
        "params": [(n, describe(p)) for n, p in m.named_parameters()],
        "buffers": [n for n, _ in m.named_buffers()],
        "state_dict": [(k, describe(v)) for k, v in state.items()],
    }


def run(scenario, nn):
    torch.manual_seed(0)
    rec = []
    try:
        scenario(nn, rec)
    except Exception as e:  # noqa: BLE001
        rec.append(("scenario raised", type(e).__name__, norm(str(e))))
    return rec


def both(scenario):
    """Run scenario(nn, rec) with torch.nn and annotated_nn and compare the records."""
    expected = run(scenario, tnn)
    got = run(scenario, ann)
    assert len(got) == len(expected), (got, expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        assert g == e, f"record #{i} differs:\n ours : {g!r}\n torch: {e!r}"
    return expected


def user_names(m):
    """Names dir() adds for this instance (public ones), and whether any digit name leaks in."""
    d = dir(m)
    extra = set(d) - set(dir(type(m)))
    return sorted(k for k in extra if not k.startswith("_")), [k for k in d if k.isdigit()]


CLASSES = ["Container", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


# ---------------------------------------------------------------------------------------------
# module level: names, hierarchy, signatures
# ---------------------------------------------------------------------------------------------


def test_module_all_and_helpers():
    assert acont.__all__ == tcont.__all__
    for name in CLASSES:
        assert getattr(ann, name) is getattr(acont, name)
        assert getattr(ann.modules, name) is getattr(acont, name)
    assert acont._addindent("a\nb", 2) == tcont._addindent("a\nb", 2)
    assert acont._addindent("one line", 4) == tcont._addindent("one line", 4)
    assert acont.T.__bound__ is ann.Module and acont._V.__name__ == tcont._V.__name__


@pytest.mark.parametrize("name", CLASSES)
def test_class_shape_matches_torch(name):
    ours, theirs = getattr(acont, name), getattr(tcont, name)
    # our MRO is torch's with torch.nn.Module right after annotated_nn.Module (issue 22)
    assert our_mro_as_torch(ours) == [c.__name__ for c in theirs.__mro__]
    assert issubclass(ours, tnn.Module)
    assert ours.__module__ == "annotated_nn.modules.container"
    assert ours.__dict__.get("__annotations__", {}) == theirs.__dict__.get("__annotations__", {})
    # every method torch defines in the class body, with the same signature
    for key, value in theirs.__dict__.items():
        if key in ("__doc__", "__module__", "__annotations__", "__dict__", "__weakref__"):
            continue
        assert key in ours.__dict__, f"{name}.{key} missing"
        if callable(value) and not isinstance(value, type):
            ours_fn = ours.__dict__[key]
            if isinstance(value, (classmethod, staticmethod)):
                continue
            assert str(inspect.signature(ours_fn)) == str(inspect.signature(value)), key
            # TorchScript marker set by _copy_to_script_wrapper
            assert getattr(ours_fn, "_torchscript_modifier", None) == getattr(
                value, "_torchscript_modifier", None
            ), key
    extra = {
        k
        for k in set(ours.__dict__) - set(theirs.__dict__)
        if k not in ("__doc__", "__annotations__", "__static_attributes__", "__firstlineno__")
    }
    assert not extra, f"{name} defines more than torch: {extra}"


# ---------------------------------------------------------------------------------------------
# Container
# ---------------------------------------------------------------------------------------------


def test_container_deprecation_and_registration():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            c = nn.Container(first=Lin(2), second=Lin(3))

            class Sub(nn.Container):
                pass

            s = Sub(x=Lin(1))
        rec.append([(w.category.__name__, str(w.message), w.filename == __file__) for w in caught])
        rec.append(nn.Container.__deprecated__)
        rec.append(snap(c))
        rec.append(snap(s))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rec.append(catch(lambda: nn.Container(bad=3)))
            rec.append(catch(lambda: nn.Container(1)))

    both(scenario)


# ---------------------------------------------------------------------------------------------
# Sequential
# ---------------------------------------------------------------------------------------------


def test_sequential_construction_and_forward():
    def scenario(nn, rec):
        Lin, Buf, Pair = kit(nn)
        s = nn.Sequential(Lin(2), Buf(), Pair(3))
        rec.append(snap(s))
        x = torch.arange(4.0)
        rec.append(describe(s(x)))
        named = nn.Sequential(OrderedDict([("stem", Lin(1)), ("head", Pair(2))]))
        rec.append(snap(named))
        rec.append(describe(named(x)))
        rec.append(snap(nn.Sequential()))
        rec.append(describe(nn.Sequential()(x)))
        rec.append(type(s._modules).__name__)
        # a plain dict is not an OrderedDict: it is treated as a module and rejected
        rec.append(catch(lambda: nn.Sequential({"a": Lin(1)})))
        rec.append(catch(lambda: nn.Sequential(Lin(1), 5)))
        rec.append(catch(lambda: nn.Sequential(OrderedDict([("a.b", Lin(1))]))))
        rec.append(len(s))
        rec.append([type(m).__name__ for m in s])
        rec.append(user_names(named))
        rec.append(user_names(s))

    both(scenario)


def test_sequential_indexing_and_slicing():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)

        class MySeq(nn.Sequential):
            pass

        s = MySeq(OrderedDict([("a", Lin(1)), ("b", Lin(2)), ("c", Lin(3)), ("d", Lin(4))]))
        for idx in (0, 3, -1, -4, 4, -5, True):
            rec.append(catch(lambda: s[idx]))
        rec.append(catch(lambda: s["a"]))
        rec.append(catch(lambda: s[1.0]))
        for sl in (slice(1, None), slice(None, None, -1), slice(None, None, 2), slice(7, 9)):
            out = s[sl]
            rec.append(snap(out))
            rec.append([m is s[i] for i, m in zip(range(len(s))[sl], out)])
        rec.append(catch(lambda: s._get_item_by_idx(iter("wxyz"), -2)))
        rec.append(catch(lambda: s._get_item_by_idx(iter("wxyz"), 9)))

    both(scenario)


def test_sequential_setitem_delitem_renumbering():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)
        s = nn.Sequential(OrderedDict([("a", Lin(1)), ("b", Lin(2)), ("c", Lin(3)), ("d", Lin(4))]))
        s[1] = Lin(5)
        s[-1] = Lin(6)
        rec.append(snap(s))
        rec.append(catch(lambda: s.__setitem__(4, Lin(1))))
        rec.append(catch(lambda: s.__setitem__(0, 3)))
        del s[0]
        rec.append(snap(s))
        rec.append(type(s._modules).__name__)
        s2 = nn.Sequential(*[Lin(i) for i in range(1, 7)])
        del s2[1::2]
        rec.append(snap(s2))
        del s2[-1]
        rec.append(snap(s2))
        rec.append(catch(lambda: s2.__delitem__(5)))
        rec.append(snap(s2))
        del s2[:]
        rec.append(snap(s2))

    both(scenario)


def test_sequential_append_insert_extend_pop():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)
        s = nn.Sequential(Lin(1), Lin(2))
        rec.append(s.append(Lin(3)) is s)
        rec.append(s.insert(0, Lin(4)) is s)
        s.insert(-1, Lin(5))
        s.insert(len(s), Lin(6))
        rec.append(snap(s))
        rec.append(catch(lambda: s.insert(10, Lin(1))))
        rec.append(catch(lambda: s.insert(-10, Lin(1))))
        rec.append(catch(lambda: s.insert(0, "x")))
        rec.append(s.extend(nn.Sequential(Lin(7))) is s)
        s.extend([Lin(8)])
        s.extend(Lin(i) for i in (9, 10))
        rec.append(snap(s))
        rec.append(catch(lambda: s.extend(3)))
        rec.append(catch(lambda: s.extend([3])))
        rec.append(snap(s.pop(0)))
        rec.append(snap(s.pop(-1)))
        rec.append(snap(s.pop(slice(1, 3))))
        rec.append(snap(s))
        rec.append(catch(lambda: s.pop(99)))
        # insert into a named Sequential writes digit keys next to the names
        named = nn.Sequential(OrderedDict([("a", Lin(1)), ("b", Lin(2))]))
        rec.append(catch(lambda: named.insert(0, Lin(3))))
        rec.append(list(named._modules))
        rec.append(catch(lambda: named.append(Lin(4))))
        rec.append(list(named._modules))

    both(scenario)


def test_sequential_operators():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)

        class MySeq(nn.Sequential):
            pass

        a = MySeq(Lin(1), Lin(2))
        b = nn.Sequential(OrderedDict([("x", Lin(3))]))
        c = a + b
        rec.append(snap(c))
        rec.append([m1 is m2 for m1, m2 in zip(c, list(a) + list(b))])
        rec.append(catch(lambda: a + [Lin(1)]))
        rec.append(catch(lambda: a + nn.ModuleList([Lin(1)])))
        d = nn.Sequential(Lin(4))
        d += a
        rec.append(snap(d))
        rec.append(catch(lambda: d.__iadd__(5)))
        rec.append(snap(a * 2))
        rec.append(snap(3 * a))
        rec.append(snap(a * True))
        rec.append(catch(lambda: a * 0))
        rec.append(catch(lambda: a * -2))
        rec.append(catch(lambda: a * 2.0))
        rec.append(catch(lambda: a.__rmul__("2")))
        e = MySeq(Lin(5), Lin(6))
        ref = e
        e *= 3
        rec.append(e is ref)
        rec.append(snap(e))
        rec.append(catch(lambda: e.__imul__(0)))
        rec.append(catch(lambda: e.__imul__(1.5)))
        named = nn.Sequential(OrderedDict([("p", Lin(1))]))
        rec.append(catch(lambda: named.__imul__(2)))
        rec.append(snap(named))
        rec.append(Lin(1) in a)
        rec.append(a[0] in a)

    both(scenario)


def test_sequential_state_dict_roundtrip_and_moves():
    torch.manual_seed(3)
    ref = tnn.Sequential(*[kit(tnn)[0](i) for i in (2, 3)], kit(tnn)[2](2))
    torch.manual_seed(3)
    ours = ann.Sequential(*[kit(ann)[0](i) for i in (2, 3)], kit(ann)[2](2))
    for (kt, vt), (ko, vo) in zip(ref.state_dict().items(), ours.state_dict().items()):
        assert kt == ko
        torch.testing.assert_close(vo, vt, rtol=0, atol=0)
    with torch.no_grad():
        for p in ref.parameters():
            p.add_(1.0)
    ours.load_state_dict(ref.state_dict())
    x = torch.linspace(-1, 1, 5)
    torch.testing.assert_close(ours(x), ref(x))
    ours(x).sum().backward()
    ref(x).sum().backward()
    for (nt, pt), (no, po) in zip(ref.named_parameters(), ours.named_parameters()):
        assert nt == no
        torch.testing.assert_close(po.grad, pt.grad)

    def scenario(nn, rec):
        Lin, Buf, _ = kit(nn)
        s = nn.Sequential(Lin(2), nn.Sequential(Buf(), Lin(1)))
        s.to("meta")
        rec.append(snap(s))
        s.to(torch.float64)
        rec.append(snap(s))

    both(scenario)


# ---------------------------------------------------------------------------------------------
# ModuleList
# ---------------------------------------------------------------------------------------------


def test_modulelist_basics():
    def scenario(nn, rec):
        Lin, Buf, Pair = kit(nn)
        rec.append(snap(nn.ModuleList()))
        rec.append(snap(nn.ModuleList(None)))
        ml = nn.ModuleList([Lin(1), Buf(), Pair(2)])
        rec.append(snap(ml))
        rec.append(snap(nn.ModuleList(Lin(i) for i in range(1, 3))))
        rec.append(catch(lambda: nn.ModuleList(3)))
        rec.append(catch(lambda: nn.ModuleList([3])))
        rec.append(catch(lambda: nn.ModuleList(Lin(1))))
        rec.append(len(ml))
        rec.append([type(m).__name__ for m in ml])
        rec.append(user_names(ml))
        rec.append(catch(lambda: ml(torch.ones(1))))
        for idx in (0, -1, -3, 3, -4):
            rec.append(catch(lambda: ml[idx]))
        rec.append(catch(lambda: ml["0"]))

        class MyList(nn.ModuleList):
            pass

        mine = MyList([Lin(1), Lin(2), Lin(3)])
        for sl in (slice(1, None), slice(None, None, -1), slice(5, 6)):
            rec.append(snap(mine[sl]))
        rec.append(mine[::2][1] is mine[2])

    both(scenario)


def test_modulelist_mutation_and_renumbering():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)
        ml = nn.ModuleList([Lin(i) for i in range(1, 7)])
        ml[0] = Lin(10)
        ml[-1] = Lin(11)
        rec.append(catch(lambda: ml.__setitem__(6, Lin(1))))
        rec.append(catch(lambda: ml.__setitem__(0, "x")))
        del ml[1]
        rec.append(snap(ml))
        rec.append(type(ml._modules).__name__)
        del ml[::2]
        rec.append(snap(ml))
        rec.append(catch(lambda: ml.__delitem__(-3)))
        rec.append(ml.append(Lin(12)) is ml)
        ml.insert(0, Lin(13))
        ml.insert(2, Lin(14))
        ml.insert(len(ml), Lin(15))
        rec.append(snap(ml))
        rec.append(ml.extend([Lin(16)]) is ml)
        ml += (Lin(17),)
        rec.append(snap(ml))
        rec.append(catch(lambda: ml.extend(5)))
        rec.append(snap(ml.pop(0)))
        rec.append(snap(ml.pop(slice(0, 2))))
        rec.append(snap(ml))
        rec.append(catch(lambda: ml.pop(40)))
        # insert does no checks: a large index leaves a gap, a negative one fails mid-way
        gap = nn.ModuleList([Lin(1)])
        gap.insert(5, Lin(2))
        rec.append(list(gap._modules))
        rec.append(len(gap))
        neg = nn.ModuleList([Lin(1), Lin(2)])
        rec.append(catch(lambda: neg.insert(-1, Lin(3))))
        rec.append(list(neg._modules))
        rec.append([m.n for m in neg._modules.values()])
        unchecked = nn.ModuleList()
        unchecked.insert(0, "not a module")
        rec.append(list(unchecked._modules.items()))

    both(scenario)


def test_modulelist_add():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)

        class MyList(nn.ModuleList):
            pass

        a = MyList([Lin(1), Lin(2)])
        for other in ([Lin(3)], nn.ModuleList([Lin(4)]), nn.Sequential(Lin(5)), ()):
            out = a + other
            rec.append(snap(out))
            rec.append(out[0] is a[0])
        rec.append(catch(lambda: a + 3))
        rec.append(catch(lambda: a + ["x"]))

    both(scenario)


def test_modulelist_collapsed_repr():
    def scenario(nn, rec):
        Lin, Buf, Pair = kit(nn)
        shared = Lin(2)
        ml = nn.ModuleList(
            [shared, shared, Lin(2), Lin(3), Pair(1), Pair(1), Buf(), Lin(2), Lin(2)]
        )
        rec.append(repr(ml))
        rec.append(repr(nn.ModuleList([Lin(1)])))
        rec.append(repr(nn.ModuleList()))
        nested = nn.ModuleList(
            [nn.Sequential(Lin(1), Lin(1)) for _ in range(3)] + [nn.ModuleList([Lin(2)] * 2)]
        )
        rec.append(repr(nested))
        holder = nn.Sequential(OrderedDict([("blocks", nn.ModuleList([Pair(2)] * 4))]))
        rec.append(repr(holder))

        class Named(nn.ModuleList):
            def extra_repr(self):
                return "ignored"

        rec.append(repr(Named([Lin(1)] * 2)))

    both(scenario)


# ---------------------------------------------------------------------------------------------
# ModuleDict
# ---------------------------------------------------------------------------------------------


def test_moduledict_construction_and_update_order():
    def scenario(nn, rec):
        Lin, Buf, _ = kit(nn)
        rec.append(snap(nn.ModuleDict()))
        rec.append(snap(nn.ModuleDict({"z": Lin(1), "a": Lin(2), "m": Buf()})))
        rec.append(snap(nn.ModuleDict(OrderedDict([("z", Lin(1)), ("a", Lin(2))]))))
        rec.append(snap(nn.ModuleDict([("z", Lin(1)), ["a", Lin(2)]])))
        rec.append(snap(nn.ModuleDict((k, Lin(i)) for i, k in enumerate("qpo", 1))))
        src = nn.ModuleDict({"y": Lin(3), "b": Lin(4)})
        d = nn.ModuleDict({"b": Lin(5), "c": Lin(6)})
        d.update(src)
        rec.append(snap(d))
        rec.append(d["y"] is src["y"])
        d.update({"c": Lin(7), "a": Lin(8)})
        d.update([("0", Lin(9))])
        rec.append(snap(d))
        rec.append(catch(lambda: d.update(5)))
        rec.append(catch(lambda: d.update([("k", Lin(1)), 5])))
        rec.append(catch(lambda: d.update([("k", Lin(1), 3)])))
        rec.append(catch(lambda: d.update(["ab"])))
        rec.append(snap(d))
        rec.append(catch(lambda: nn.ModuleDict({1: Lin(1)})))
        rec.append(catch(lambda: nn.ModuleDict({"a": 1})))
        rec.append(catch(lambda: nn.ModuleDict({"a.b": Lin(1)})))
        rec.append(catch(lambda: nn.ModuleDict({"training": Lin(1)})))

    both(scenario)


def test_moduledict_dict_protocol():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)
        d = nn.ModuleDict({"a": Lin(1), "b": Lin(2), "c": Lin(3)})
        rec.append(describe(d["b"]))
        rec.append(catch(lambda: d["zz"]))
        d["a"] = Lin(4)
        d["d"] = Lin(5)
        rec.append(snap(d))
        rec.append(catch(lambda: d.__setitem__("e", 3)))
        del d["b"]
        rec.append(catch(lambda: d.__delitem__("b")))
        rec.append(snap(d))
        rec.append((len(d), list(d), "a" in d, "b" in d, 3 in d))
        keys, items, values = d.keys(), d.items(), d.values()
        rec.append((type(keys).__name__, type(items).__name__, type(values).__name__))
        rec.append(list(keys))
        rec.append([(k, v.n) for k, v in items])
        rec.append([v.n for v in values])
        d["z"] = Lin(6)
        rec.append(list(keys))  # live view
        rec.append(snap(d.pop("a")))
        rec.append(catch(lambda: d.pop("a")))
        rec.append(user_names(d))
        rec.append(catch(lambda: d(torch.ones(1))))
        d.clear()
        rec.append(snap(d))

    both(scenario)


# ---------------------------------------------------------------------------------------------
# ParameterList
# ---------------------------------------------------------------------------------------------


def test_parameterlist_values_and_wrapping():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)
        plain = torch.arange(6.0).reshape(2, 3)
        given = nn.Parameter(torch.ones(1), requires_grad=False)
        child = Lin(2)
        pl = nn.ParameterList(
            [plain, given, "tag", 7, None, child, torch.zeros(2, dtype=torch.float64)]
        )
        rec.append(snap(pl))
        rec.append([describe(v) for v in pl])
        rec.append(pl[0].data_ptr() == plain.data_ptr())
        rec.append(pl[1] is given)
        rec.append(pl[5] is child)
        rec.append((len(pl), pl._size))
        rec.append(user_names(pl))
        rec.append(snap(nn.ParameterList()))
        rec.append(snap(nn.ParameterList(torch.ones(2) for _ in range(2))))
        rec.append(catch(lambda: nn.ParameterList(torch.ones(2))))
        rec.append(catch(lambda: nn.ParameterList(3)))
        rec.append(catch(lambda: pl(1)))
        rec.append(catch(lambda: pl()))
        rec.append(catch(lambda: pl.forward(1)))
        meta = nn.ParameterList(
            [
                torch.empty(2, 2, device="meta"),
                torch.empty(0, dtype=torch.float16),
                torch.tensor(1.0),
            ]
        )
        rec.append(repr(meta))
        rec.append(catch(lambda: nn.ParameterList([torch.ones(2, dtype=torch.int64)])))

    both(scenario)


def test_parameterlist_index_mutation():
    def scenario(nn, rec):
        class MyPL(nn.ParameterList):
            pass

        pl = MyPL([torch.full((1,), float(i)) for i in range(5)])
        for idx in (0, -1, 4, 5, -6):
            rec.append(catch(lambda: pl[idx]))
        rec.append(catch(lambda: pl["1"]))
        for sl in (slice(1, 3), slice(None, None, -2), slice(9, 12)):
            out = pl[sl]
            rec.append(snap(out))
            rec.append([p is pl[i] for i, p in zip(range(5)[sl], out)])
        pl[0] = torch.tensor([10.0])
        # a registered parameter cannot be replaced by a non-tensor
        rec.append(catch(lambda: pl.__setitem__(-1, "text")))
        pl.append("text")
        pl[-1] = 6
        rec.append(catch(lambda: pl.__setitem__(5, torch.ones(1))))
        rec.append(snap(pl))
        rec.append(pl.append(torch.ones(2)) is pl)
        rec.append(pl.extend([torch.zeros(1), 3.5]) is pl)
        pl += [torch.ones(3)]
        rec.append(snap(pl))
        rec.append(catch(lambda: pl.extend(torch.ones(2))))
        rec.append(catch(lambda: pl.extend(4)))
        rec.append(catch(lambda: pl.__iadd__(None)))
        rec.append(catch(lambda: pl.__delitem__(0)))
        # attributes set directly are not part of the list and are not wrapped
        pl.extra = torch.ones(1)
        rec.append((len(pl), type(pl.extra).__name__, [n for n, _ in pl.named_parameters()]))
        # replacing a parameter by None keeps the slot; by a non-tensor value fails
        pl[1] = None
        rec.append(catch(lambda: pl.__setitem__(2, 5)))
        rec.append(snap(pl))
        rec.append((describe(pl[1]), len(pl)))

    both(scenario)


# ---------------------------------------------------------------------------------------------
# ParameterDict
# ---------------------------------------------------------------------------------------------


def test_parameterdict_construction_update_order():
    def scenario(nn, rec):
        rec.append(snap(nn.ParameterDict()))
        plain = {"z": torch.ones(1), "a": torch.zeros(2), "m": "text"}
        rec.append(snap(nn.ParameterDict(plain)))  # sorted
        rec.append(snap(nn.ParameterDict(OrderedDict([("z", torch.ones(1)), ("a", 3)]))))
        rec.append(snap(nn.ParameterDict([("z", torch.ones(1)), ["a", None]])))
        given = nn.Parameter(torch.ones(2))
        src = nn.ParameterDict(OrderedDict([("y", given), ("b", torch.zeros(1))]))
        rec.append(snap(nn.ParameterDict(src)))
        rec.append(nn.ParameterDict(src)["y"] is given)
        d = nn.ParameterDict(OrderedDict([("b", 1), ("c", 2)]))
        d.update({"c": torch.ones(1), "a": torch.zeros(1)})
        d.update([("0", torch.ones(3))])
        rec.append(snap(d))
        rec.append(catch(lambda: d.update(5)))
        rec.append(catch(lambda: d.update([("k", 1), 5])))
        rec.append(catch(lambda: d.update([("k", 1, 3)])))
        rec.append(catch(lambda: d.update({"x": 1, 2: 3})))
        rec.append(snap(d))
        rec.append(catch(lambda: nn.ParameterDict(torch.ones(1))))

    both(scenario)


def test_parameterdict_dict_protocol():
    def scenario(nn, rec):
        given = nn.Parameter(torch.ones(1))
        d = nn.ParameterDict(OrderedDict([("w", given), ("s", "text"), ("t", torch.zeros(2))]))
        rec.append(describe(d["t"]))
        rec.append(d["w"] is given)
        rec.append(catch(lambda: d["missing"]))
        rec.append(catch(lambda: d[3]))
        d["n"] = torch.arange(2.0)
        rec.append(catch(lambda: d.__setitem__("w", 4)))
        d["w"] = torch.zeros(1)
        d["s"] = 4
        rec.append(snap(d))
        rec.append([describe(v) for v in d.values()])
        rec.append([(k, describe(v)) for k, v in d.items()])
        rec.append((type(d.keys()).__name__, type(d.items()).__name__, type(d.values()).__name__))
        rec.append((len(d), list(d), list(reversed(d)), "s" in d, "q" in d))
        del d["s"]
        rec.append(catch(lambda: d.__delitem__("s")))
        rec.append(snap(d))
        rec.append(describe(d.get("t")))
        rec.append(describe(d.get("q")))
        rec.append(describe(d.get("q", 5)))
        rec.append(describe(d.setdefault("t", 9)))
        rec.append(describe(d.setdefault("new", torch.ones(2))))
        rec.append(describe(d.setdefault("none")))
        rec.append(snap(d))
        rec.append(describe(d.pop("n")))
        rec.append(catch(lambda: d.pop("n")))
        rec.append(describe(d.popitem()))
        rec.append(snap(d))
        rec.append(user_names(d))
        rec.append(catch(lambda: d(1)))
        rec.append(catch(lambda: d()))
        d.clear()
        rec.append(snap(d))
        rec.append(catch(lambda: d.popitem()))
        # a non-string key is recorded in _keys before the type check fails (torch's behaviour)
        rec.append(catch(lambda: d.__setitem__(1, torch.ones(1))))
        rec.append((len(d), list(d._keys)))
        rec.append(catch(lambda: list(d.items())))

    both(scenario)


def test_parameterdict_copy_fromkeys_or():
    def scenario(nn, rec):
        a = nn.ParameterDict(OrderedDict([("x", torch.ones(1)), ("b", torch.zeros(1)), ("s", 1)]))
        c = a.copy()
        rec.append(snap(c))
        rec.append(c["x"] is a["x"])
        c["x"] = torch.zeros(3)
        rec.append(snap(a))
        fk = a.fromkeys(["q", "p"], torch.ones(2))
        rec.append(snap(fk))
        rec.append(fk["q"] is fk["p"])
        rec.append(fk["q"].data_ptr() == fk["p"].data_ptr())
        rec.append(snap(a.fromkeys("ab")))
        b = nn.ParameterDict(OrderedDict([("b", torch.full((1,), 5.0)), ("y", torch.ones(2))]))
        rec.append(snap(a | b))
        rec.append(snap(a | {"z": 1, "c": 2}))
        rec.append(catch(lambda: a | {"b": 5}))
        merged = {"k": 1, "b": 2} | a
        rec.append((type(merged).__name__, describe(merged)))
        rec.append(describe(a.__ror__(b)))
        ref = a
        a |= b
        rec.append(a is ref)
        rec.append(snap(a))
        rec.append(catch(lambda: a | 3))
        rec.append(catch(lambda: a.__ror__(3)))

    both(scenario)


def test_parameterdict_extra_repr_dtypes_devices():
    def scenario(nn, rec):
        d = nn.ParameterDict(
            OrderedDict(
                [
                    ("f64", torch.zeros(2, 2, dtype=torch.float64)),
                    ("meta", torch.empty(3, device="meta")),
                    ("f16", torch.zeros(1, dtype=torch.float16)),
                    ("scalar", torch.tensor(2.0)),
                    ("obj", [1, 2]),
                ]
            )
        )
        rec.append(repr(d))
        rec.append(d.extra_repr())
        rec.append(catch(lambda: d.__setitem__("half", torch.ones(1))))
        rec.append(list(d))
        d.to("meta")
        rec.append(repr(d))
        pl = nn.ParameterList([torch.zeros(2, dtype=torch.bfloat16), {"k": 1}])
        rec.append(pl.extra_repr())
        holder = nn.ModuleList([pl, d])
        rec.append(repr(holder))

    both(scenario)


# ---------------------------------------------------------------------------------------------
# copies, pickling, nesting
# ---------------------------------------------------------------------------------------------


def test_copy_pickle_nested_state_dict():
    def scenario(nn, rec):
        Lin, Buf, _ = kit(nn)
        model = nn.Sequential(
            OrderedDict(
                [
                    ("blocks", nn.ModuleList([Lin(2), Buf()])),
                    ("heads", nn.ModuleDict({"cls": Lin(3)})),
                    ("plist", nn.ParameterList([torch.ones(2), "x"])),
                    ("pdict", nn.ParameterDict({"w": torch.zeros(1), "v": 3})),
                ]
            )
        )
        rec.append(snap(model))
        dc = copy.deepcopy(model)
        rec.append(snap(dc))
        rec.append(dc.plist[0] is model.plist[0])
        rec.append((len(dc.plist), list(dc.pdict), dc.pdict["v"]))
        sc = copy.copy(model.pdict)
        rec.append(snap(sc))
        rec.append(sc["w"] is model.pdict["w"])
        loaded = pickle.loads(pickle.dumps(model.pdict))
        rec.append(snap(loaded))
        rec.append((list(loaded), len(loaded)))
        pl = pickle.loads(pickle.dumps(model.plist))
        rec.append((snap(pl), len(pl)))
        rec.append(list(model.state_dict()))
        rec.append([n for n, _ in model.named_modules()])

    both(scenario)


def test_registration_hooks_and_child_hooks():
    def scenario(nn, rec):
        Lin, _, _ = kit(nn)
        seen = []
        handle = nn.modules.module.register_module_module_registration_hook(
            lambda mod, name, sub: seen.append((type(mod).__name__, name, type(sub).__name__))
        )
        try:
            s = nn.Sequential(Lin(1))
            s.append(Lin(2))
            s.insert(0, Lin(3))  # writes _modules directly: no registration hook
            s.extend([Lin(4)])
            s += nn.Sequential(Lin(5))
            ml = nn.ModuleList([Lin(1)])
            ml.insert(0, Lin(2))  # no hook either
            ml[0] = Lin(3)
            md = nn.ModuleDict({"a": Lin(1)})
            md.update([("b", Lin(2))])
            pl = nn.ParameterList([Lin(1), torch.ones(1)])
            pd = nn.ParameterDict({"m": Lin(1)})
        finally:
            handle.remove()
        rec.append(seen)
        rec.append((snap(s), snap(ml), snap(md), snap(pl), snap(pd)))
        calls = []
        s[1].register_forward_hook(lambda m, i, o: calls.append(("fwd", m.n)))
        s[2].register_forward_pre_hook(lambda m, i: calls.append(("pre", m.n)))
        rec.append(describe(s(torch.ones(2))))
        rec.append(calls)

    both(scenario)


def test_modulelist_repr_indents_blank_lines_like_torch():
    # torch's container.py keeps its own _addindent that indents blank lines too
    import torch.nn.modules.container as tc

    import annotated_nn.modules.container as ac

    for text in ["a\n\nb", "x", "a\n  \nb\n"]:
        assert ac._addindent(text, 2) == tc._addindent(text, 2)

    def scenario(nn):
        class X(nn.Module):
            def extra_repr(self):
                return "a\n\nb"

        return repr(nn.ModuleList([nn.Sequential(X()), nn.Sequential(X())]))

    assert scenario(ann) == scenario(tnn)
