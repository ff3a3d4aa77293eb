"""Claims of annotated_optim's commentary and of the optimizers part of the book, on both libraries."""

from __future__ import annotations

import importlib
import warnings

import pytest
import torch
import torch.nn as tnn
from claim import each_optim, proves


def module_of(optim, name):
    """`optim.<name>` as a module (torch.optim deletes some submodule attributes)."""
    return importlib.import_module(f"{optim.__name__}.{name}")


@proves(
    "docs/chapters/optim/optimizer.md",
    "What step() reads and writes",
    "state is created lazily, at the first step",
)
@each_optim()
def test_state_is_created_at_first_step(optim):
    w = torch.zeros(2, requires_grad=True)
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    assert opt.state[w] == {}
    w.grad = torch.ones(2)
    opt.step()
    assert list(opt.state[w]) == ["momentum_buffer"]


@proves(
    "docs/chapters/optim/optimizer.md",
    "What step() reads and writes",
    "step() rewrites the same Parameter in place",
)
@each_optim()
def test_step_updates_in_place(optim):
    model = tnn.Linear(2, 1)
    weight, data = model.weight, model.weight.data_ptr()
    opt = optim.SGD(model.parameters(), lr=0.1)
    model(torch.ones(1, 2)).sum().backward()
    opt.step()
    assert model.weight is weight and model.weight.data_ptr() == data


@proves(
    "docs/chapters/optim/optimizer.md",
    "What step() reads and writes",
    "a parameter whose .grad is None is not decayed",
)
@each_optim()
def test_none_grad_skips_weight_decay_but_zero_grad_does_not(optim):
    skipped = torch.ones(2, requires_grad=True)
    zeroed = torch.ones(2, requires_grad=True)
    opt = optim.SGD([skipped, zeroed], lr=0.1, weight_decay=0.5)
    zeroed.grad = torch.zeros(2)
    opt.step()
    assert skipped.tolist() == [1.0, 1.0]
    assert zeroed.tolist() == pytest.approx([0.95, 0.95])


@proves(
    "docs/chapters/optim/optimizer.md",
    "What step() reads and writes",
    "step runs with gradient recording off",
)
@each_optim()
def test_step_runs_without_grad(optim):
    seen = []

    class Probe(optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {"differentiable": False})

        @module_of(optim, "optimizer")._use_grad_for_differentiable
        def step(self, closure=None):
            seen.append(torch.is_grad_enabled())

    Probe([torch.zeros(1, requires_grad=True)]).step()
    assert seen == [False] and torch.is_grad_enabled()


@proves(
    "docs/chapters/optim/optimizer.md",
    "Why the state_dict stores integers",
    "integers in order of appearance",
)
@each_optim()
def test_state_dict_numbers_in_order(optim):
    a, b, c = (torch.zeros(1, requires_grad=True) for _ in range(3))
    opt = optim.SGD([{"params": [c, a]}, {"params": [b], "lr": 1.0}], lr=0.1)
    assert [g["params"] for g in opt.state_dict()["param_groups"]] == [[0, 1], [2]]


@proves(
    "docs/chapters/optim/optimizer.md",
    "Why the state_dict stores integers",
    "loading pairs by order, without comparing shapes",
)
@each_optim()
def test_load_pairs_by_order_and_fails_only_at_step(optim):
    a, b = torch.zeros(2, requires_grad=True), torch.zeros(3, requires_grad=True)
    opt = optim.SGD([a, b], lr=0.1, momentum=0.9)
    a.grad, b.grad = torch.ones(2), torch.ones(3)
    opt.step()
    saved = opt.state_dict()
    # the "model" changed its parameter order: the checkpoint still loads
    swapped = optim.SGD(
        [b.detach().clone().requires_grad_(), a.detach().clone().requires_grad_()],
        lr=0.1,
        momentum=0.9,
    )
    swapped.load_state_dict(saved)
    first = swapped.param_groups[0]["params"][0]
    assert swapped.state[first]["momentum_buffer"].shape == (2,) and first.shape == (3,)
    first.grad = torch.ones(3)
    swapped.param_groups[0]["params"][1].grad = torch.ones(2)
    with pytest.raises(RuntimeError):
        swapped.step()


@proves(
    "docs/chapters/optim/optimizer.md",
    "Why the state_dict stores integers",
    "a scheduler built after loading rewrites the lr",
)
@each_optim()
def test_scheduler_after_load_rewrites_lr(optim):
    def saved_after_two_steps(make):
        w = torch.zeros(1, requires_grad=True)
        opt = optim.SGD([w], lr=0.1)
        sched = make(opt)
        for _ in range(2):
            w.grad = torch.zeros(1)
            opt.step()
            sched.step()
        return opt.state_dict(), sched.state_dict(), opt.param_groups[0]["lr"]

    schedulers = {
        "LambdaLR": lambda o: optim.lr_scheduler.LambdaLR(o, lambda e: 0.5**e),
        "LinearLR": lambda o: optim.lr_scheduler.LinearLR(o, 0.5, 1.0, 4),
    }
    for name, make in schedulers.items():
        saved, saved_sched, saved_lr = saved_after_two_steps(make)
        late = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
        late.load_state_dict(saved)
        make(late)
        assert late.param_groups[0]["lr"] != saved_lr, name
        early = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
        sched = make(early)
        early.load_state_dict(saved)
        sched.load_state_dict(saved_sched)
        assert early.param_groups[0]["lr"] == saved_lr, name
    assert saved_lr == pytest.approx(0.075)


@proves(
    "docs/chapters/optim/optimizer.md",
    "Why the state_dict stores integers",
    "param_names are saved but not used for pairing",
)
@each_optim()
def test_param_names_do_not_pair(optim):
    model = tnn.Linear(2, 2)
    opt = optim.SGD(model.named_parameters(), lr=0.1, momentum=0.9)
    model(torch.ones(1, 2)).sum().backward()
    opt.step()
    saved = opt.state_dict()
    saved["param_groups"][0]["param_names"] = ["bias", "weight"]
    fresh = tnn.Linear(2, 2)
    other = optim.SGD(fresh.named_parameters(), lr=0.1, momentum=0.9)
    other.load_state_dict(saved)
    assert other.state[fresh.weight]["momentum_buffer"].shape == (2, 2)
    assert other.param_groups[0]["param_names"] == ["bias", "weight"]


@proves(
    "docs/chapters/optim/optimizer.md",
    "Why the state_dict stores integers",
    "state cast to the parameter's dtype, step kept",
)
@each_optim()
def test_load_casts_state_but_not_step(optim):
    w = torch.zeros(2, requires_grad=True)
    opt = optim.Adam([w], lr=0.1)
    group = dict(opt.state_dict()["param_groups"][0])
    state = {
        "step": torch.tensor(5.0, dtype=torch.float64),
        "exp_avg": torch.ones(2, dtype=torch.float16),
        "exp_avg_sq": torch.ones(2, dtype=torch.float16),
    }
    opt.load_state_dict({"state": {0: state}, "param_groups": [group]})
    assert opt.state[w]["exp_avg"].dtype == torch.float32
    assert opt.state[w]["step"].dtype == torch.float64


@proves(
    "docs/chapters/optim/optimizer.md",
    "1.5.1 to 2.13",
    "old groups get the newer options from __setstate__ when loading",
)
@each_optim()
def test_old_checkpoint_groups_are_completed(optim):
    w = torch.zeros(2, requires_grad=True)
    opt = optim.SGD([w], lr=0.1, momentum=0.9)
    old_group = {
        "lr": 0.1,
        "momentum": 0.9,
        "dampening": 0,
        "weight_decay": 0,
        "nesterov": False,
        "params": [0],
    }
    opt.load_state_dict({"state": {}, "param_groups": [old_group]})
    group = opt.param_groups[0]
    assert (group["maximize"], group["foreach"], group["differentiable"], group["fused"]) == (
        False,
        None,
        False,
        False,
    )
    w.grad = torch.ones(2)
    opt.step()


@proves(
    "docs/chapters/optim/optimizer.md",
    "Hooks",
    "global pre → local pre → step → local post → global post",
)
@each_optim()
def test_step_hook_order(optim):
    calls = []
    module = module_of(optim, "optimizer")
    w = torch.zeros(1, requires_grad=True)
    opt = optim.SGD([w], lr=0.1)
    w.grad = torch.zeros(1)
    opt.register_step_post_hook(lambda *a: calls.append("local post"))
    opt.register_step_pre_hook(lambda *a: calls.append("local pre"))
    module.register_optimizer_step_post_hook(lambda *a: calls.append("global post"))
    module.register_optimizer_step_pre_hook(lambda *a: calls.append("global pre"))
    opt.step()
    assert calls == ["global pre", "local pre", "local post", "global post"]


@proves(
    "docs/chapters/optim/optimizer.md", "Hooks", "step is wrapped once, on the class, marked hooked"
)
@each_optim()
def test_step_wrapped_on_class(optim):
    class Plain(optim.Optimizer):
        def step(self, closure=None):
            return "stepped"

    raw = Plain.__dict__["step"]
    first = Plain([torch.zeros(1, requires_grad=True)], {})
    wrapped = Plain.__dict__["step"]
    Plain([torch.zeros(1, requires_grad=True)], {})
    assert wrapped is not raw and wrapped.hooked is True
    assert Plain.__dict__["step"] is wrapped and first.step() == "stepped"


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "_default_to_fused_or_foreach",
    "on CPU the default is the single-tensor implementation",
)
@each_optim()
def test_cpu_default_is_single_tensor(optim):
    helper = module_of(optim, "optimizer")._default_to_fused_or_foreach
    params = [torch.zeros(2)]
    assert helper(params, differentiable=False, use_fused=False) == (False, False)
    assert helper(params, differentiable=False, use_fused=True) == (True, False)
    assert helper(params, differentiable=True, use_fused=True) == (False, False)


@proves(
    "docs/chapters/optim/optimizer.md",
    "Three implementations",
    "fused CPU kernels exist for SGD, Adam, AdamW, Adagrad",
)
@each_optim()
def test_fused_on_cpu(optim):
    w = torch.zeros(2, requires_grad=True)
    for cls in (optim.SGD, optim.Adam, optim.AdamW, optim.Adagrad):
        opt = cls([w], lr=0.1, fused=True)
        w.grad = torch.ones(2)
        opt.step()
    with pytest.raises(TypeError):
        optim.RMSprop([w], lr=0.1, fused=True)


@proves(
    "annotated_src/annotated_optim/sgd.py",
    "_multi_tensor_sgd",
    "foreach Nesterov rewrites .grad; the single-tensor path does not",
)
@each_optim()
def test_foreach_nesterov_rewrites_grad(optim):
    results = {}
    for foreach in (False, True):
        w = torch.ones(2, requires_grad=True)
        opt = optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, foreach=foreach)
        w.grad = torch.ones(2)
        opt.step()
        results[foreach] = w.grad.tolist()
    assert results[False] == [1.0, 1.0] and results[True] == pytest.approx([1.9, 1.9])


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer.zero_grad",
    "set_to_none=False detaches a gradient that carries a graph",
)
@each_optim()
def test_zero_grad_detaches(optim):
    w = torch.ones(2, requires_grad=True)
    (w * w).sum().backward(create_graph=True)
    assert w.grad.grad_fn is not None
    opt = optim.SGD([w], lr=0.1)
    opt.zero_grad(set_to_none=False)
    assert w.grad.grad_fn is None and w.grad.tolist() == [0.0, 0.0]


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer.add_param_group",
    "duplicates within a group only warn; across groups they raise",
)
@each_optim()
def test_duplicates(optim):
    w = torch.zeros(1, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        opt = optim.SGD([w, w], lr=0.1)
    assert any("duplicate parameters" in str(c.message) for c in caught)
    with pytest.raises(ValueError, match="more than one parameter group"):
        opt.add_param_group({"params": [w]})


@proves(
    "docs/chapters/optim/swa.md",
    "SWA and EMA",
    "state_dict keys: n_averaged, then module.-prefixed keys",
)
@each_optim()
def test_averaged_model_state_dict_keys(optim):
    model = tnn.Sequential(tnn.Linear(2, 2), tnn.BatchNorm1d(2))
    keys = list(optim.swa_utils.AveragedModel(model).state_dict())
    assert keys[0] == "n_averaged"
    assert keys[1:] == ["module." + k for k in model.state_dict()]


@proves(
    "docs/chapters/optim/swa.md",
    "SWA and EMA",
    "by default buffers are copied from the model, not averaged",
)
@each_optim()
def test_buffers_follow_the_model_then_update_bn(optim):
    torch.manual_seed(0)
    model = tnn.Sequential(tnn.Linear(2, 3), tnn.BatchNorm1d(3))
    swa = optim.swa_utils.AveragedModel(model)
    data = [torch.randn(8, 2) for _ in range(3)]
    for x in data:
        model(x)
        swa.update_parameters(model)
        assert torch.equal(swa.module[1].running_mean, model[1].running_mean)
    optim.swa_utils.update_bn(data, swa)
    assert not torch.equal(swa.module[1].running_mean, model[1].running_mean)


@proves(
    "docs/chapters/optim/swa.md",
    "SWA and EMA",
    "torch's AveragedModel averages an annotated_nn model as a torch model",
)
@each_optim()
def test_torch_averaged_model_and_annotated_model(optim):
    import annotated_nn

    model = annotated_nn.Linear(2, 2)
    theirs = torch.optim.swa_utils.AveragedModel(model)
    assert len(list(theirs.parameters())) == 2
    assert list(theirs.state_dict()) == ["n_averaged", "module.weight", "module.bias"]
    ours = importlib.import_module("annotated_optim.swa_utils").AveragedModel(model)
    assert len(list(ours.parameters())) == 2
    assert optim.swa_utils.AveragedModel(tnn.Linear(2, 2)).n_averaged.item() == 0


@proves(
    "docs/chapters/optim/sgd.md",
    "SGD: three implementations",
    "implementations are not bit-identical to one another; which differ depends on the CPU kernels",
)
@each_optim()
def test_fused_and_single_tensor_differ_with_vector_kernels(optim):
    def train(**options):
        torch.manual_seed(0)
        model = tnn.Sequential(tnn.Linear(8, 16), tnn.Tanh(), tnn.Linear(16, 1))
        opt = optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, **options)
        for step in range(50):
            x = torch.randn(32, 8, generator=torch.Generator().manual_seed(step))
            opt.zero_grad()
            model(x).pow(2).mean().backward()
            opt.step()
        return torch.cat([p.detach().flatten() for p in model.parameters()])

    single, fused = train(foreach=False), train(fused=True)
    # The last bits depend on the kernels torch picked (ATEN_CPU_CAPABILITY).
    capability = torch.backends.cpu.get_cpu_capability()
    if capability in ("AVX2", "AVX512"):
        assert not torch.equal(single, fused)
    elif capability == "DEFAULT":
        assert torch.equal(single, fused)
    assert torch.allclose(single, fused, rtol=0, atol=1e-6)


@proves(
    "docs/chapters/optim/optimizer.md",
    "1.5.1 to 2.13",
    "load_state_dict maps whatever integers were saved, so id()-keyed checkpoints load",
)
@each_optim()
def test_any_saved_integers_pair_by_order(optim):
    a, b = torch.zeros(2, requires_grad=True), torch.zeros(3, requires_grad=True)
    opt = optim.SGD([a, b], lr=0.1, momentum=0.9)
    group = {k: v for k, v in opt.state_dict()["param_groups"][0].items() if k != "params"}
    # integers like the id()s of 1.5.1: arbitrary, not 0, 1, ...
    saved = {
        "state": {140001: {"momentum_buffer": torch.full((3,), 3.0)}},
        "param_groups": [{**group, "params": [139999, 140001]}],
    }
    opt.load_state_dict(saved)
    assert opt.state[b]["momentum_buffer"].tolist() == [3.0, 3.0, 3.0]
    assert a not in opt.state


@proves(
    "docs/chapters/optim/optimizer.md",
    "Why the state_dict stores integers",
    "loading replaces every group option, foreach and fused included",
)
@each_optim()
def test_load_replaces_implementation_options(optim):
    w = torch.zeros(2, requires_grad=True)
    saved = optim.SGD([w], lr=0.1).state_dict()
    opt = optim.SGD([w], lr=0.5, fused=True)
    opt.load_state_dict(saved)
    group = opt.param_groups[0]
    assert (group["lr"], group["fused"], opt.defaults["fused"]) == (0.1, None, True)


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer",
    "a set passed straight to the constructor is not caught; a group's set is refused",
)
@each_optim()
def test_set_refused_only_in_a_group(optim):
    a, b = torch.zeros(1, requires_grad=True), torch.zeros(1, requires_grad=True)
    assert len(optim.SGD({a, b}, lr=0.1).param_groups[0]["params"]) == 2
    with pytest.raises(TypeError, match="ordered collections"):
        optim.SGD([{"params": {a, b}}], lr=0.1)


@proves(
    "annotated_src/annotated_optim/sgd.py",
    "SGD._init_group",
    "the fused device/dtype check looks only at the first parameter with a gradient",
)
@each_optim()
def test_fused_check_sees_only_the_first_parameter(optim):
    real = torch.zeros(2, requires_grad=True)
    complex_ = torch.zeros(2, dtype=torch.complex64, requires_grad=True)
    for order, error in (([real, complex_], NotImplementedError), ([complex_, real], RuntimeError)):
        opt = optim.SGD(order, lr=0.1, fused=True)
        real.grad, complex_.grad = torch.ones(2), torch.ones(2, dtype=torch.complex64)
        with pytest.raises(error) as caught:
            opt.step()
        assert ("`fused=True` requires" in str(caught.value)) == (error is RuntimeError)


@proves(
    "annotated_src/annotated_optim/optimizer.py",
    "Optimizer.__init__",
    "a deepcopy lacks the capturable 'already warned' switch",
)
@each_optim()
def test_deepcopy_drops_warned_switch(optim):
    import copy

    opt = optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    assert opt._warned_capturable_if_run_uncaptured is True
    assert not hasattr(copy.deepcopy(opt), "_warned_capturable_if_run_uncaptured")


@proves(
    "docs/chapters/optim/clip-grad.md",
    "Gradient clipping",
    "returns the norm before clipping; never scales up; NaN when not finite",
)
@each_optim()
def test_clip_grad_norm_semantics(optim):
    import annotated_nn

    nn_utils = torch.nn.utils if optim is torch.optim else annotated_nn.utils
    w = torch.zeros(2, requires_grad=True)
    w.grad = torch.tensor([3.0, 4.0])
    assert nn_utils.clip_grad_norm_([w], max_norm=1.0).item() == 5.0
    assert torch.allclose(w.grad, torch.tensor([0.6, 0.8]))
    w.grad = torch.tensor([0.3, 0.4])
    nn_utils.clip_grad_norm_([w], max_norm=1.0)
    assert torch.equal(w.grad, torch.tensor([0.3, 0.4]))
    w.grad = torch.tensor([float("inf"), 1.0])
    nn_utils.clip_grad_norm_([w], max_norm=1.0)
    assert torch.isnan(w.grad).any()
    w.grad = torch.tensor([float("inf"), 1.0])
    with pytest.raises(RuntimeError):
        nn_utils.clip_grad_norm_([w], max_norm=1.0, error_if_nonfinite=True)


@proves(
    "docs/chapters/optim/clip-grad.md",
    "Gradient clipping",
    "a NaN total makes every gradient NaN; an inf total gives factor 0: finite -> 0, inf -> NaN",
)
@each_optim()
def test_clip_grad_norm_nonfinite_details(optim):
    import annotated_nn

    nn_utils = torch.nn.utils if optim is torch.optim else annotated_nn.utils
    w = torch.zeros(3, requires_grad=True)
    w.grad = torch.tensor([float("inf"), 1.0, -2.0])
    assert nn_utils.clip_grad_norm_([w], max_norm=1.0).item() == float("inf")
    assert torch.isnan(w.grad[0]) and torch.equal(w.grad[1:], torch.zeros(2))
    w.grad = torch.tensor([float("nan"), 1.0, -2.0])
    nn_utils.clip_grad_norm_([w], max_norm=1.0)
    assert torch.isnan(w.grad).all()


@proves(
    "annotated_src/annotated_nn/utils/clip_grad.py",
    "_get_total_norm",
    "norm_type=0: the second pass counts the tensors holding a nonzero element",
)
@each_optim()
def test_total_norm_of_order_zero_counts_tensors(optim):
    import annotated_nn

    nn_utils = torch.nn.utils if optim is torch.optim else annotated_nn.utils
    tensors = [torch.tensor([1.0, 2.0, 3.0]), torch.zeros(2), torch.tensor([0.0, 5.0])]
    assert nn_utils.get_total_norm(tensors, norm_type=0).item() == 2.0


@proves(
    "docs/chapters/optim/clip-grad.md",
    "Gradient clipping",
    "vector_to_parameters installs views: the parameters then share storage with the vector",
)
@each_optim()
def test_vector_to_parameters_shares_storage(optim):
    import annotated_nn

    nn_utils = torch.nn.utils if optim is torch.optim else annotated_nn.utils
    lin = tnn.Linear(2, 1)
    weight = lin.weight
    vec = torch.zeros(3)
    nn_utils.vector_to_parameters(vec, lin.parameters())
    vec[0] = 7.0
    assert lin.weight is weight and lin.weight[0, 0].item() == 7.0


@proves(
    "annotated_src/annotated_nn/utils/clip_grad.py",
    "_clip_grads_with_norm_",
    "a total norm equal to max_norm still shrinks the gradients slightly (the 1e-6)",
)
@each_optim()
def test_clip_at_exactly_max_norm_still_scales(optim):
    import annotated_nn

    nn_utils = torch.nn.utils if optim is torch.optim else annotated_nn.utils
    w = torch.zeros(2, requires_grad=True)
    w.grad = torch.tensor([0.6, 0.8])
    assert nn_utils.clip_grad_norm_([w], max_norm=1.0).item() == 1.0
    assert (w.grad < torch.tensor([0.6, 0.8])).all()
    w.grad = torch.tensor([0.3, 0.4])
    nn_utils.clip_grad_norm_([w], max_norm=1.0)
    assert torch.equal(w.grad, torch.tensor([0.3, 0.4]))
