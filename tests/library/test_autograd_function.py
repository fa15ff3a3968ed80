"""Custom torch.autograd.Function subclasses, written in Python until the
language's `class` lands: the "Extending PyTorch" examples (Exp, LinearFunction,
MulConstant), the double-backward tutorial, ctx features, forward mode (jvp),
gradcheck/gradgradcheck.  Expected values are PyTorch's (torch 2.13)."""

import numpy as np
import pytest

import gradcli.session  # noqa: F401
from gradcli.runtime.errors import GradError
from gradcli.core.printing import show
from gradcli.core.tensor import Tensor
from gradcli.engine import forward as fw
from gradcli.engine.autograd import run_backward
from gradcli.library.autograd_function import Function, once_differentiable
from gradcli.ops.registry import FUNCTIONS as F


def T(v, rg=False):
    return Tensor(np.array(v, dtype=np.float64), requires_grad=rg)


def backward(y):
    run_backward([F["sum"](y)], [None])


class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = F["exp"](i)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result

    @staticmethod
    def jvp(ctx, t):
        (result,) = ctx.saved_tensors
        return t * result


class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = F["matmul"](input, F["transpose"](weight, 0, 1))
        if bias is not None:
            output = output + bias
        return output

    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = F["matmul"](grad_output, weight)
        if ctx.needs_input_grad[1]:
            grad_weight = F["matmul"](F["transpose"](grad_output, 0, 1), input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = F["sum"](grad_output, 0)
        return grad_input, grad_weight, grad_bias


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


def test_exp_prints_and_differentiates():
    x = T([1.0, 2.0], True)
    y = Exp.apply(x)
    assert show(y) == "tensor([2.7183, 7.3891], grad_fn=<ExpBackward>)"
    assert repr(y.grad_fn) == "<torch.autograd.function.ExpBackward object>"
    backward(y)
    assert show(x.grad) == "tensor([2.7183, 7.3891])"
    assert show(Exp.apply(T([1.0, 2.0]))) == "tensor([2.7183, 7.3891])"


def test_linear_function_matches_builtin_ops():
    x = T([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], True)
    w = T([[0.1, 0.2, 0.3], [-0.5, 0.4, 1.0]], True)
    b = T([0.5, -0.5], True)
    y = LinearFunction.apply(x, w, b)
    assert y.grad_fn.name == "LinearFunctionBackward"
    backward(y * y)
    gx, gw, gb = x.grad.data, w.grad.data, b.grad.data
    x2, w2, b2 = T(x.data, True), T(w.data, True), T(b.data, True)
    y2 = F["matmul"](x2, F["transpose"](w2, 0, 1)) + b2
    backward(y2 * y2)
    assert np.allclose(gx, x2.grad.data) and np.allclose(gw, w2.grad.data)
    assert np.allclose(gb, b2.grad.data)
    assert np.allclose(y.data, y2.data)


def test_mul_constant_setup_context():
    x = T([1.0, 2.0], True)
    z = MulConstant.apply(x, 3.0)
    assert show(z) == "tensor([3., 6.], grad_fn=<MulConstantBackward>)"
    backward(z)
    assert show(x.grad) == "tensor([3., 3.])"


def test_wrong_number_of_gradients():
    class Bad(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    x = T([1.0, 2.0], True)
    with pytest.raises(
        GradError,
        match=r"function BadBackward returned an incorrect number of "
        r"gradients \(expected 2, got 1\)",
    ):
        backward(Bad.apply(x, x))


def test_double_backward_tutorial():
    """'Double Backward with Custom Functions': Square saving its input."""

    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x**2

        @staticmethod
        def backward(ctx, grad_out):
            (x,) = ctx.saved_tensors
            return grad_out * 2 * x

    x = T([0.5, -1.5], True)
    (g,) = run_backward([F["sum"](Square.apply(x))], [None], create_graph=True, inputs=[x])
    assert np.allclose(g.data, 2 * x.data) and g.requires_grad
    (h,) = run_backward([F["sum"](g)], [None], inputs=[x])
    assert np.allclose(h.data, [2.0, 2.0])

    # saving the output: exp's second derivative through the saved result
    # (retain_graph as autograd.grad's default with create_graph: the second pass runs
    # through the node again, whose saved result a pass without it frees)
    (g,) = run_backward(
        [F["sum"](Exp.apply(x))], [None], retain_graph=True, create_graph=True, inputs=[x]
    )
    (h,) = run_backward([F["sum"](g)], [None], inputs=[x])
    assert np.allclose(h.data, np.exp(x.data))


def test_once_differentiable():
    class Once(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a**2

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return 2 * a * g

    w = T([1.0, 2.0], True)
    (g,) = run_backward([F["sum"](Once.apply(w))], [None], create_graph=True, inputs=[w])
    assert show(g) == "tensor([2., 4.])"
    with pytest.raises(GradError, match="does not require grad"):
        backward(g)


def test_mark_non_differentiable_and_materialize():
    class Split(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.mark_non_differentiable(idx := Tensor(np.array([1, 0])))
            ctx.set_materialize_grads(False)
            return a * 2, idx

        @staticmethod
        def backward(ctx, g, gi):
            assert gi is None
            return g * 2

    w = T([1.0, 2.0], True)
    a, i = Split.apply(w)
    assert show(a) == "tensor([2., 4.], grad_fn=<SplitBackward>)" and not i.requires_grad
    backward(a)
    assert show(w.grad) == "tensor([2., 2.])"


def test_needs_input_grad_and_the_modes_around_forward():
    """needs_input_grad per argument (numbers and tensors that need none: False); the
    forward runs with grad mode and forward mode's levels off, both back after it (also
    when the forward opens and closes a level of its own)."""
    seen = []

    class Scale(Function):
        @staticmethod
        def forward(ctx, x, k, y):
            seen.append((ctx.needs_input_grad, fw.State.visible))
            level = fw.enter_level()
            fw.exit_level(level)
            ctx.save_for_backward(x)
            return x * k + y

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x, None, g

    w, c = T([1.0, 2.0], True), T([3.0, 4.0])
    out = Scale.apply(w, 2.0, c)
    assert seen == [((True, False, False), ())] and fw.State.visible == ()
    level = fw.enter_level()
    try:
        Scale.apply(w, 2.0, c)
        assert seen[-1] == ((True, False, False), ()) and fw.State.visible == (level,)
    finally:
        fw.exit_level(level)
    backward(out)
    assert show(out) == "tensor([5., 8.], grad_fn=<ScaleBackward>)"
    assert show(w.grad) == "tensor([1., 2.])"


def test_forward_mode_jvp_and_missing_jvp():
    level = fw.enter_level()
    try:
        d = fw.make_dual(T([1.0, 2.0]), T([1.0, 0.5]), level)
        y = Exp.apply(d)
        assert np.allclose(fw.tangent_of(y, level).data, np.exp([1.0, 2.0]) * [1.0, 0.5])
        with pytest.raises(GradError, match="You must implement the jvp function"):
            MulConstant.apply(d, 2.0)
    finally:
        fw.exit_level(level)


def test_gradcheck_and_gradgradcheck_accept_custom_functions(session_out):
    from gradcli.library.calculus import gradcheck
    from gradcli.library.functional import gradgradcheck

    x = T([0.5, 1.5], True)
    assert gradcheck(lambda t: Exp.apply(t), x) is True
    assert gradgradcheck(lambda t: Exp.apply(t), x) is True

    class WrongExp(Exp):
        @staticmethod
        def backward(ctx, g):
            (result,) = ctx.saved_tensors
            return g * result * 1.5

    assert gradcheck(lambda t: WrongExp.apply(t), x) is False


def test_a_gradient_of_another_shape_is_summed_or_refused_as_pytorch_validates_it():
    """PyTorch's engine checks what a Function's backward gives each tensor input that
    needs a gradient: summed to the input's shape when that shape expands to it, refused
    naming the input's place among the tensor inputs otherwise (it was taken as it was:
    a wrong-shaped .grad, or NumPy's error later); a wrong dtype is cast. Torch 2.13's
    output of this program."""
    from conftest import Run

    program = """
import torch
torch.set_default_dtype(torch.float64)
class Wide(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum(0) * 2
    @staticmethod
    def backward(ctx, g):
        return g.expand(4, 5, 3)
class Short(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, x, y):
        return x * y
    @staticmethod
    def backward(ctx, g):
        return None, g, g[:2]
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g.float()
w = torch.ones(5, 3, dtype=torch.float64, requires_grad=True)
Wide.apply(w).sum().backward()
print(w.grad.shape, w.grad.sum())
w.grad = None
Short.apply(2.0, w, torch.ones(5, 3)).sum().backward()
print(w.grad.sum())
w.grad = None
Double.apply(w).sum().backward()
print(w.grad.dtype)
for i in range(60):
    Short.apply(2.0, w, w if i == 50 else torch.ones(5, 3)).sum().backward()
"""
    r = Run(program)
    assert r.out == ("torch.Size([5, 3]) tensor(60.)\ntensor(15.)\ntorch.float64\n"), r.out
    assert r.error is not None and r.error.message == (
        "Function ShortBackward returned an invalid gradient at index 1 - got [2, 3] but "
        "expected shape compatible with [5, 3]"
    ), r.error
