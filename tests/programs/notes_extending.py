# Published code: PyTorch's documentation, the note "Extending PyTorch" (docs/source/notes),
# its sections "Extending torch.autograd" and "Extending torch.nn": custom Functions with
# separate and combined forward/setup_context (QKVProjection with boxed_grads_call,
# LinearFunction, MulConstant with and without set_materialize_grads, TwoMatmuls with
# clear_saved_tensors_on_access, MyCube returning an intermediate), gradcheck, and a
# Linear module built on LinearFunction.
# Source: pytorch/pytorch at 104998231faa0a9ded5a7bf46960d9aa64cde1f2:
#         docs/source/notes/extending.md (the code blocks of those sections, in order).
# Adaptations:
#   - added: the imports (`import torch`, `from torch import nn`,
#     `from torch.autograd import Function`) and torch.manual_seed(0) at the top.
#   - the note defines the Functions and the module without calling them (except
#     gradcheck): the lines marked "added" call each one on seeded inputs and print the
#     values, the gradients and the grad_fn names.
#   - left out: the "Extending torch Python API" section (__torch_function__) and the
#     C++ extensions.
import torch
from torch import nn
from torch.autograd import Function

torch.manual_seed(0)


class QKVProjection(Function):
    """Projects input x into Q, K, V: q = x @ w_q, k = x @ w_k, v = x @ w_v."""
    boxed_grads_call = True

    @staticmethod
    def forward(ctx, x, w_q, w_k, w_v):
        ctx.save_for_backward(x, w_q, w_k, w_v)
        return x.mm(w_q), x.mm(w_k), x.mm(w_v)

    @staticmethod
    def backward(ctx, grads):
        x, w_q, w_k, w_v = ctx.saved_tensors
        grad_x = torch.zeros_like(x)
        grad_weights = []

        # Process each grad independently and free it immediately.
        # Without boxed_grads_call, all three grads would stay alive
        # until backward returns, tripling peak grad memory.
        for i, w in enumerate((w_q, w_k, w_v)):
            grad_out = grads[i]
            grads[i] = None      # Release reference in the caller's list
            grad_x += grad_out.mm(w.t())
            grad_weights.append(x.t().mm(grad_out))
            del grad_out         # grad_out can now be freed by the runtime

        return grad_x, *grad_weights


x = torch.randn(3, 4, dtype=torch.double, requires_grad=True)  # added
ws = [torch.randn(4, 2, dtype=torch.double, requires_grad=True) for _ in range(3)]  # added
q, k, v = QKVProjection.apply(x, *ws)  # added
print(q.grad_fn.name(), k.grad_fn.name())  # added
(q.sum() + 2 * k.sum() + 3 * v.sum()).backward()  # added
print(x.grad, ws[2].grad)  # added


# Inherit from Function
class LinearFunction(Function):

    # Note that forward, setup_context, and backward are @staticmethods
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    # inputs is a Tuple of all of the inputs passed to forward.
    # output is the output of the forward().
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    # This function has only a single output, so it gets only one gradient
    @staticmethod
    def backward(ctx, grad_output):
        # This is a pattern that is very convenient - at the top of backward
        # unpack saved_tensors and initialize all gradients w.r.t. inputs to
        # None. Thanks to the fact that additional trailing Nones are
        # ignored, the return statement is simple even when the function has
        # optional inputs.
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None

        # These needs_input_grad checks are optional and there only to
        # improve efficiency. If you want to make your code simpler, you can
        # skip them. Returning gradients for inputs that don't require it is
        # not an error.
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias


# Option 1: alias
linear = LinearFunction.apply

# Option 2: wrap in a function, to support default args and keyword args.
def linear(input, weight, bias=None):
    return LinearFunction.apply(input, weight, bias)


inp = torch.randn(2, 3, dtype=torch.double, requires_grad=True)  # added
w = torch.randn(4, 3, dtype=torch.double, requires_grad=True)  # added
b = torch.randn(4, dtype=torch.double, requires_grad=True)  # added
out = linear(inp, w, b)  # added
print(out, out.grad_fn.name())  # added
out.sum().backward()  # added
print(inp.grad, w.grad, b.grad)  # added
print(linear(inp, w))  # added


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        # ctx is a context object that can be used to stash information
        # for backward computation
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None


t = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)  # added
y = MulConstant.apply(t, 2.5)  # added
y.backward(torch.ones(3))  # added
print(y, t.grad)  # added


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.set_materialize_grads(False)
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        # Here we must handle None grad_output tensor. In this case we
        # can skip unnecessary computations and just return None.
        if grad_output is None:
            return None, None

        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None


t2 = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)  # added
y2 = MulConstant.apply(t2, -1.5)  # added
(y2 * y2).sum().backward()  # added
print(y2, t2.grad)  # added


class TwoMatmuls(Function):
    clear_saved_tensors_on_access = True

    @staticmethod
    def forward(ctx, x, weight1, weight2):
        inter = x.mm(weight1)
        ctx.save_for_backward(x, weight1, inter, weight2)
        return inter.mm(weight2)

    @staticmethod
    def backward(ctx, grad_output):
        x, weight1, inter, weight2 = ctx.saved_tensors

        # Compute gradients for second matmul
        grad_weight2 = inter.t().mm(grad_output)
        grad_inter = grad_output.mm(weight2.t())

        # Free inter and weight2, no longer needed
        del inter, weight2

        # Compute gradients for first matmul
        grad_weight1 = x.t().mm(grad_inter)
        grad_x = grad_inter.mm(weight1.t())

        return grad_x, grad_weight1, grad_weight2


a = torch.randn(2, 3, dtype=torch.double, requires_grad=True)  # added
w1 = torch.randn(3, 4, dtype=torch.double, requires_grad=True)  # added
w2 = torch.randn(4, 2, dtype=torch.double, requires_grad=True)  # added
r = TwoMatmuls.apply(a, w1, w2)  # added
r.sum().backward()  # added
print(r, a.grad, w2.grad)  # added


class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        # We wish to save dx for backward. In order to do so, it must
        # be returned as an output.
        dx = 3 * x ** 2
        result = x ** 3
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        # In order for the autograd.Function to work with higher-order
        # gradients, we must add the gradient contribution of `dx`,
        # which is grad_dx * 6 * x.
        result = grad_output * dx + grad_dx * 6 * x
        return result

# Wrap MyCube in a function so that it is clearer what the output is
def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


c = torch.tensor([1.0, 2.0, -0.5], dtype=torch.double, requires_grad=True)  # added
g, = torch.autograd.grad(my_cube(c).sum(), c, create_graph=True)  # added
gg, = torch.autograd.grad(g.sum(), c)  # added
print(g, gg)  # added

from torch.autograd import gradcheck

# gradcheck takes a tuple of tensors as input, check if your gradient
# evaluated with these tensors are close enough to numerical
# approximations and returns True if they all verify this condition.
input = (torch.randn(20,20,dtype=torch.double,requires_grad=True), torch.randn(30,20,dtype=torch.double,requires_grad=True))
test = gradcheck(linear, input, eps=1e-6, atol=1e-4)
print(test)


class LinearFunction(Function):
    @staticmethod
    # ctx is the first argument to forward
    def forward(ctx, input, weight, bias=None):
        # The forward pass can use ctx.
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None

        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias


class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features

        # nn.Parameter is a special kind of Tensor, that will get
        # automatically registered as Module's parameter once it's assigned
        # as an attribute. Parameters and buffers need to be registered, or
        # they won't appear in .parameters() (doesn't apply to buffers), and
        # won't be converted when e.g. .cuda() is called. You can use
        # .register_buffer() to register buffers.
        # nn.Parameters require gradients by default.
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            # You should always register all possible parameters, but the
            # optional ones can be None if you want.
            self.register_parameter('bias', None)

        # Not a very smart way to initialize weights
        nn.init.uniform_(self.weight, -0.1, 0.1)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -0.1, 0.1)

    def forward(self, input):
        # See the autograd section for explanation of what happens here.
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        # (Optional)Set the extra information about this module. You can test
        # it by printing an object of this class.
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None
        )


m = Linear(3, 2)  # added
print(m, Linear(3, 2, bias=False))  # added
o = m(torch.tensor([[1.0, 2.0, 3.0]]))  # added
o.sum().backward()  # added
print(o, o.grad_fn.name(), m.weight.grad, m.bias.grad)  # added
