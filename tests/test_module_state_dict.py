"""state_dict and load_state_dict: order, sharing, _metadata, keep_vars, extra state, hooks, strict/assign, errors."""

import pytest
import torch

from helpers import assert_same, describe_state_dict, norm, outcome, record_warnings


def build(nn, extra=False):
    class WithExtra(nn.Module):
        _version = 3

        def __init__(self):
            super().__init__()
            self.k = nn.Parameter(torch.ones(1))
            self.extra = {"step": 1}

        def get_extra_state(self):
            return self.extra

        def set_extra_state(self, state):
            self.extra = state

    m = nn.Module()
    m.w = nn.Parameter(torch.arange(3.0))
    m.register_buffer("run", torch.zeros(2))
    m.register_buffer("tmp", torch.ones(1), persistent=False)
    m.scalar = nn.Parameter(torch.tensor(2.0))
    m.a = nn.Module()
    m.a.w = m.w  # shared
    m.a.register_buffer("count", torch.tensor(5))
    m.b = nn.Module()
    m.b.deep = nn.Module()
    m.b.deep.v = nn.Parameter(torch.ones(2, 2))
    m.add_module("hole", None)
    if extra:
        m.x = WithExtra()
    return m


@pytest.mark.parametrize("extra", [False, True])
@pytest.mark.parametrize("keep_vars", [False, True])
def test_state_dict_contents(extra, keep_vars):
    def scenario(nn):
        m = build(nn, extra)
        sd = m.state_dict(keep_vars=keep_vars)
        grads = [getattr(v, "requires_grad", None) for v in sd.values()]
        same = [v is m.w for v in sd.values()]
        shares = sd["w"].data_ptr() == m.w.data_ptr()
        return describe_state_dict(sd), grads, same, shares, [type(v).__name__ for v in sd.values()]

    assert_same(scenario)


def test_prefix_destination_and_positional_deprecation():
    def scenario(nn):
        m = build(nn)
        plain = {}
        r1 = m.state_dict(destination=plain, prefix="model.")
        r2, warns = record_warnings(lambda: m.state_dict(None, "pre.", True))
        return (
            r1 is plain,
            list(plain),
            hasattr(plain, "_metadata"),
            describe_state_dict(r2)[0][:2],
            warns,
        )

    assert_same(scenario)


def test_state_dict_hooks():
    def scenario(nn):
        log = []
        m = build(nn)
        m.register_state_dict_pre_hook(lambda mod, prefix, kv: log.append(("pre", prefix, kv)))
        m.a.register_state_dict_pre_hook(lambda mod, prefix, kv: log.append(("pre-a", prefix)))

        def post(mod, sd, prefix, meta):
            log.append(("post", prefix, dict(meta)))
            sd[prefix + "added"] = torch.zeros(1)

        m.register_state_dict_post_hook(post)
        m.b._register_state_dict_hook(lambda mod, sd, prefix, meta: {"replaced": 1})
        sd = m.state_dict()
        bad = build(nn)
        bad.register_state_dict_post_hook(lambda *a: 5)
        clash = build(nn)
        clash.register_state_dict_post_hook(post)
        return (
            log,
            list(sd),
            norm(outcome(bad.state_dict)),
            norm(outcome(clash._register_state_dict_hook, post)),
        )

    assert_same(scenario)


def test_state_dict_post_hook_bound_method_refused():
    def scenario(nn):
        class Holder:
            def hook(self, *a):
                pass

        return norm(outcome(build(nn).register_state_dict_post_hook, Holder().hook))

    assert_same(scenario)


def source_dict(nn, **changes):
    sd = build(nn).state_dict()
    for k, v in changes.items():
        k = k.replace("__", ".")
        if v is None:
            del sd[k]
        else:
            sd[k] = v
    return sd


CASES = {
    "exact": {},
    "missing": {"run": None, "b__deep__v": None},
    "unexpected": {
        "zzz": torch.ones(1),
        "a__nope": torch.ones(1),
        "hole__x": torch.ones(1),
        "b__deep__extra": torch.ones(1),
    },
    "size": {"w": torch.ones(4)},
    "scalar_from_1": {"scalar": torch.tensor([9.0])},
    "not_tensor": {"run": [1, 2]},
    "dtype_int": {"w": torch.tensor([1, 2, 3])},
    "mixed": {"w": torch.ones(5), "run": None, "new": torch.ones(1)},
    "non_persistent_key": {"tmp": torch.ones(1)},
    "extra_state_key": {"_extra_state": 1},
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("assign", [False, True])
def test_load_state_dict_outcomes(case, strict, assign):
    def scenario(nn):
        m = build(nn)
        w_before = m.w
        sd = source_dict(nn, **CASES[case])
        result, warns = record_warnings(
            lambda: outcome(m.load_state_dict, sd, strict=strict, assign=assign)
        )
        if result[0] == "ok":
            result = ("ok", repr(result[1]), result[1].missing_keys, result[1].unexpected_keys)
        else:
            result = norm(result)
        return (
            result,
            warns,
            describe_state_dict(m.state_dict())[0],
            m.w is w_before,
            type(m.w).__name__,
            m.w.requires_grad,
        )

    assert_same(scenario)


def test_load_non_mapping():
    def scenario(nn):
        return norm(outcome(build(nn).load_state_dict, [("w", torch.ones(3))]))

    assert_same(scenario)


def test_extra_state_roundtrip_and_missing():
    def scenario(nn):
        src = build(nn, extra=True)
        src.x.extra = {"step": 42}
        dst = build(nn, extra=True)
        r1 = repr(dst.load_state_dict(src.state_dict()))
        sd = src.state_dict()
        del sd["x._extra_state"]
        r2 = norm(outcome(dst.load_state_dict, sd))
        r3 = repr(dst.load_state_dict(sd, strict=False))
        return r1, dst.x.extra, r2, r3, dict(src.state_dict()._metadata)

    assert_same(scenario)


def test_load_hooks_and_metadata_versions():
    def scenario(nn):
        log = []
        src = build(nn)
        sd = src.state_dict()
        sd._metadata["b.deep"] = {"version": 7}
        m = build(nn)

        def pre(module, state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
            log.append(
                (
                    "pre-public",
                    type(module).__name__,
                    prefix,
                    dict(local_metadata),
                    sorted(state_dict),
                )
            )

        def private(state_dict, prefix, local_metadata, strict, missing, unexpected, errors):
            log.append(("pre-private", prefix, dict(local_metadata)))
            state_dict[prefix + "v"] = torch.full((2, 2), 3.0)

        def post(module, keys):
            log.append(("post", list(keys.missing_keys), list(keys.unexpected_keys)))
            keys.missing_keys.clear()

        m.register_load_state_dict_pre_hook(pre)
        m.b.deep._register_load_state_dict_pre_hook(private)
        m.b.deep.register_load_state_dict_pre_hook(pre)
        m.register_load_state_dict_post_hook(post)
        del sd["b.deep.v"]
        del sd["run"]
        r = repr(m.load_state_dict(sd))
        bad = build(nn)
        bad.register_load_state_dict_post_hook(lambda mod, keys: 1)
        return (
            log,
            r,
            m.b.deep.v.tolist(),
            norm(outcome(bad.load_state_dict, build(nn).state_dict())),
        )

    assert_same(scenario)


def test_load_into_meta_warns_and_assign_materialises():
    def scenario(nn):
        sd = build(nn).state_dict()
        m = build(nn).to("meta")
        _, warns = record_warnings(lambda: m.load_state_dict(sd))
        still_meta = m.w.is_meta
        m.load_state_dict(sd, assign=True)
        return warns, still_meta, m.w.is_meta, type(m.w).__name__, m.w.requires_grad, m.a.w is m.w

    assert_same(scenario)


def test_load_with_swap_flag():
    def scenario(nn):
        torch.__future__.set_swap_module_params_on_conversion(True)
        m = build(nn)
        w = m.w
        sd = build(nn).state_dict()
        sd["w"] = torch.full((3,), 8.0)
        r = repr(m.load_state_dict(sd))
        return r, m.w is w, m.w.tolist(), type(m.w).__name__

    assert_same(scenario)


def test_state_dict_load_across_namespaces():
    # a checkpoint written by torch.nn loads into annotated_nn and back
    import torch.nn as tnn

    import annotated_nn as ann

    theirs, ours = build(tnn), build(ann)
    with torch.no_grad():
        theirs.w.mul_(5)
    ours.load_state_dict(theirs.state_dict())
    assert ours.w.tolist() == theirs.w.tolist()
    theirs2 = build(tnn)
    theirs2.load_state_dict(ours.state_dict())
    assert theirs2.w.tolist() == theirs.w.tolist()


def test_child_dicts_match_torch_with_dotted_names_and_hook_added_keys():
    # load_state_dict groups the parent's keys by child in one pass; what each child receives must
    # be exactly torch's per-child filter, including odd names written straight into _modules
    def scenario(nn):
        seen = []

        def spy(state_dict, prefix, *rest):
            seen.append((prefix, list(state_dict)))
            if prefix == "":
                state_dict["stray"] = torch.ones(1)  # a key a pre-hook adds
                state_dict["a.extra"] = torch.ones(1)

        root = nn.Module()
        root.a = nn.Module()
        root.a.w = nn.Parameter(torch.zeros(1))
        root._modules["a.b"] = nn.Module()  # a dotted child name, bypassing add_module
        root._modules["a.b"].v = nn.Parameter(torch.zeros(1))
        root.ab = nn.Module()
        root.ab.u = nn.Parameter(torch.zeros(1))
        for m in (root, root.a, root._modules["a.b"], root.ab):
            m._register_load_state_dict_pre_hook(spy)
        sd = {
            "a.w": torch.ones(1),
            "a.b.v": torch.ones(1),
            "ab.u": torch.ones(1),
            "abx": torch.ones(1),
        }
        result = norm(outcome(root.load_state_dict, sd, strict=False))
        return seen, repr(result)

    assert_same(scenario)
