"""SGD against torch.optim.SGD: 50-step trajectories bit for bit, for every option and implementation."""

import itertools

import pytest
import torch
import torch.nn as tnn
import torch.optim as toptim

import annotated_nn as ann
import annotated_optim as aoptim
from helpers import norm, outcome


def make_model(nn, seed=0):
    """A small MLP with an extra complex parameter, built from `nn`'s layers with a fixed seed."""
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 3))
    model.register_parameter("z", nn.Parameter(torch.randn(3, dtype=torch.complex64)))
    return model


def loss_of(model, step):
    """A loss depending on every parameter, with inputs fixed by the step number."""
    x = torch.randn(4, 5, generator=torch.Generator().manual_seed(step))
    out = model(x)
    return out.pow(2).mean() + (model.z * out[0].to(torch.complex64)).abs().sum()


def run(optim, nn, options, steps=50, group_lr=None):
    """Train a fresh model `steps` steps; return the parameter values after each step, and the optimizer."""
    model = make_model(nn)
    named = list(model.named_parameters())
    groups = [{"params": [p for n, p in named if n != "z"]}, {"params": [model.z]}]
    if group_lr is not None:
        groups[1]["lr"] = group_lr
    opt = optim.SGD(groups, **options)
    history = []
    for step in range(steps):
        opt.zero_grad()
        loss_of(model, step).backward()
        opt.step()
        history.append([p.detach().clone() for p in model.parameters()])
    return history, opt


OPTIONS = [
    dict(lr=0.05),
    dict(lr=0.05, momentum=0.9),
    dict(lr=0.05, momentum=0.9, dampening=0.3),
    dict(lr=0.05, momentum=0.9, nesterov=True),
    dict(lr=0.05, weight_decay=0.1),
    dict(lr=0.05, momentum=0.8, weight_decay=0.1, maximize=True),
    dict(lr=0.05, momentum=0.8, nesterov=True, weight_decay=0.01, maximize=True),
    dict(lr=torch.tensor(0.05)),
    dict(lr=torch.tensor([0.05]), momentum=0.5),
]
IMPLEMENTATIONS = [dict(foreach=False), dict(foreach=True), dict(fused=True), dict()]


@pytest.mark.parametrize(
    "options,implementation",
    list(itertools.product(OPTIONS, IMPLEMENTATIONS)),
    ids=lambda v: ",".join(f"{k}={v[k]}" for k in v) if isinstance(v, dict) else str(v),
)
def test_trajectory_is_bit_identical(options, implementation):
    kwargs = {**options, **implementation}
    if implementation.get("fused"):
        # torch's fused SGD takes no complex parameters: compare the refusal, then run without z
        theirs = outcome(lambda: run(toptim, tnn, kwargs, steps=1))
        ours = outcome(lambda: run(aoptim, ann, kwargs, steps=1))
        assert (ours[0], ours[1], norm(ours[2])) == (theirs[0], theirs[1], theirs[2])
        return
    reference, t_opt = run(toptim, tnn, kwargs)
    # ours on a torch.nn model, and ours on an annotated_nn model
    for nn in (tnn, ann):
        history, o_opt = run(aoptim, nn, kwargs)
        for step, (want, got) in enumerate(zip(reference, history)):
            assert all(torch.equal(a, b) for a, b in zip(want, got)), f"differs at step {step}"
        assert norm(repr(o_opt)) == repr(t_opt)


@pytest.mark.parametrize(
    "implementation", [dict(foreach=False), dict(foreach=True), dict(fused=True)]
)
def test_real_parameters_all_implementations(implementation):
    """Without the complex parameter, fused runs too; all three agree with torch's same path."""

    def train(optim, nn):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 3))
        opt = optim.SGD(
            model.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01, **implementation
        )
        for step in range(50):
            opt.zero_grad()
            x = torch.randn(4, 5, generator=torch.Generator().manual_seed(step))
            model(x).pow(2).mean().backward()
            opt.step()
        return [p.detach() for p in model.parameters()], opt.state_dict()

    want, want_sd = train(toptim, tnn)
    for nn in (tnn, ann):
        got, got_sd = train(aoptim, nn)
        assert all(torch.equal(a, b) for a, b in zip(want, got))
        assert got_sd["param_groups"] == want_sd["param_groups"]
        for k in want_sd["state"]:
            assert torch.equal(
                got_sd["state"][k]["momentum_buffer"], want_sd["state"][k]["momentum_buffer"]
            )


def test_fused_with_grad_scale_and_found_inf():
    def train(optim, found):
        w = torch.ones(4, requires_grad=True)
        opt = optim.SGD([w], lr=0.1, momentum=0.9, fused=True)
        opt.grad_scale = torch.tensor(4.0)
        opt.found_inf = torch.tensor(found)
        for _ in range(3):
            w.grad = torch.full_like(w, 8.0)
            opt.step()
        return w.detach()

    for found in (0.0, 1.0):
        assert torch.equal(train(aoptim, found), train(toptim, found))


def test_sparse_gradients():
    def train(optim, nn, **kw):
        torch.manual_seed(0)
        emb = nn.Embedding(10, 3, sparse=True)
        opt = optim.SGD(emb.parameters(), lr=0.1, **kw)
        for step in range(10):
            opt.zero_grad()
            emb(torch.tensor([step % 10, (step * 3) % 10])).sum().backward()
            opt.step()
        return emb.weight.detach()

    for kw in (dict(), dict(foreach=True), dict(momentum=0.9), dict(momentum=0.9, foreach=True)):
        assert torch.equal(train(aoptim, ann, **kw), train(toptim, tnn, **kw))
    theirs = outcome(lambda: train(toptim, tnn, fused=True))
    ours = outcome(lambda: train(aoptim, ann, fused=True))
    assert ours[:2] == theirs[:2] and norm(ours[2]) == theirs[2]


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(lr=-0.1),
        dict(lr=0.1, momentum=-1),
        dict(lr=0.1, weight_decay=-1),
        dict(lr=0.1, nesterov=True),
        dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
        dict(lr=torch.tensor([0.1, 0.2])),
        dict(lr=0.1, fused=True, differentiable=True),
        dict(lr=0.1, fused=True, foreach=True),
    ],
    ids=str,
)
def test_bad_options(kwargs):
    def build(optim):
        return optim.SGD([torch.zeros(2, requires_grad=True)], **kwargs)

    theirs, ours = outcome(lambda: build(toptim)), outcome(lambda: build(aoptim))
    assert ours[:2] == theirs[:2] and (len(ours) == 2 or norm(ours[2]) == theirs[2])


def test_fused_checks_device_at_first_step():
    def scenario(optim):
        w = torch.zeros(2, device="meta", requires_grad=True)
        opt = optim.SGD([w], lr=0.1, fused=True)
        w.grad = torch.ones(2, device="meta")
        return norm(repr(opt)), outcome(opt.step)

    assert scenario(aoptim) == scenario(toptim)


@pytest.mark.parametrize("momentum", [0.0, 0.9])
def test_differentiable_step_lets_gradients_flow_to_lr(momentum):
    def scenario(optim):
        w = torch.ones(3, requires_grad=True)
        lr = torch.tensor(0.1, requires_grad=True)
        v = w.clone()
        opt = optim.SGD([v], lr=lr, momentum=momentum, differentiable=True)
        v.grad = torch.ones(3)
        opt.step()
        (grad_lr, grad_w) = torch.autograd.grad(v.sum(), (lr, w))
        return v.detach().tolist(), grad_lr.item(), grad_w.tolist()

    assert outcome(lambda: scenario(aoptim)) == outcome(lambda: scenario(toptim))


def test_closure_result_and_grad_mode():
    def scenario(optim):
        w = torch.ones(2, requires_grad=True)
        opt = optim.SGD([w], lr=0.1)
        seen = []

        def closure():
            seen.append(torch.is_grad_enabled())
            opt.zero_grad()
            loss = (w * 3).sum()
            loss.backward()
            return loss

        with torch.no_grad():
            loss = opt.step(closure)
        return loss.item(), seen, w.tolist(), torch.is_grad_enabled()

    assert scenario(aoptim) == scenario(toptim)


def test_parameters_without_grad_are_skipped():
    def scenario(optim):
        a = torch.ones(2, requires_grad=True)
        b = torch.ones(2, requires_grad=True)
        opt = optim.SGD([a, b], lr=0.1, momentum=0.9, weight_decay=0.5)
        a.grad = torch.ones(2)
        opt.step()
        return a.tolist(), b.tolist(), sorted(len(s) for s in opt.state.values())

    assert scenario(aoptim) == scenario(toptim)


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_compiled_step_matches_eager_torch(backend):
    torch._dynamo.reset()

    def train(optim, compiled):
        torch.manual_seed(0)
        model = tnn.Linear(4, 2)
        opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
        step = torch.compile(opt.step, backend=backend) if compiled else opt.step
        for i in range(5):
            opt.zero_grad()
            model(torch.randn(3, 4, generator=torch.Generator().manual_seed(i))).sum().backward()
            step()
        return [p.detach() for p in model.parameters()]

    want = train(toptim, compiled=False)
    got = train(aoptim, compiled=True)
    assert all(torch.equal(a, b) for a, b in zip(want, got))
