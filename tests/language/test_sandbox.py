"""The sandbox of SPEC section 8: a program reaches no Python object, file or module
except through the built-ins.  Attributes and methods go through the allowlist
(gradcli.language.runtime.get_attr / TENSOR_ATTRS / METHODS), format strings reach
attributes and items only through the same allowlist, gradcli itself never evaluates text as Python, and load/save
touch only the path they are given.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import types
from pathlib import Path

import numpy as np
import re

import pytest

from conftest import Run, assert_refused
from gradcli.language import runtime
from gradcli.language.names import NAME_ATTRS
from gradcli.library.torch_ns import namespace
from gradcli.runtime.errors import GradError
from gradcli.output import TextOutput
from gradcli.session import Session, reset_globals

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------- escape attempts

ESCAPES = [
    ("x = ones(2)\nx.__class__", "AttributeError"),
    ("().__class__", "AttributeError"),
    ('"".__class__', "AttributeError"),
    ('"".__class__.__mro__[1].__subclasses__()', "AttributeError"),
    ("print.__globals__", "AttributeError"),
    ("ones.__globals__", "AttributeError"),
    ("(lambda: 1).__globals__", "AttributeError"),
    ("(lambda: 1).__code__", "AttributeError"),
    ("def f():\n    pass\nf.__globals__", "AttributeError"),
    ("def f():\n    pass\nf.body", "AttributeError"),
    ('__import__("os")', "NameError"),
    ('open("x")', "NameError"),
    ('eval("1")', "NameError"),
    ('exec("1")', "NameError"),
    ('compile("1", "f", "eval")', "NameError"),
    ('getattr(getattr(ones(2), "__class__"), "__mro__")', "AttributeError"),  # the allowlist
    ('getattr(print, "__globals__")', "AttributeError"),
    ("globals()", "NameError"),
    ("locals()", "NameError"),
    ("vars()", "NotImplementedError"),
    ("dir()", "NameError"),
    ("__builtins__", "NameError"),
    ("breakpoint()", "NameError"),
    ("input()", "NameError"),
    ("import os\nos.system('ls')", "AttributeError"),
    ("import sys\nsys.exit()", "AttributeError"),
    ("from os import system", "SyntaxError"),
    ("import torch.os", "SyntaxError"),
    ("from torch import os", "SyntaxError"),
    ("torch.__dict__", "AttributeError"),
    ("torch.os", "AttributeError"),
    ("torch.np", "AttributeError"),
    ("torch.__builtins__", "AttributeError"),
    ("F.__dict__", "AttributeError"),
    ("x = ones(2)\nx.data.__class__", "AttributeError"),
    ("x = ones(2)\nx.__dict__", "AttributeError"),
    ("x = ones(2)\nx.__reduce__()", "AttributeError"),
    ("x = ones(2)\nx.__getattribute__('data')", "AttributeError"),
    ("x = ones(2)\nx.__setattr__('grad', none)", "AttributeError"),
    ("x = ones(2)\nx.sum.__self__", "AttributeError"),
    ("x = ones(2)\nx.sum.fn", "AttributeError"),
    ("x = ones(2)\nx.sum.obj", "AttributeError"),
    ("x = ones(2, requires_grad=true) * 2\nx.grad_fn.__class__", "AttributeError"),
    ("x = ones(2, requires_grad=true) * 2\nx.grad_fn.saved", "AttributeError"),
    ("x = ones(2, requires_grad=true) * 2\nx.grad_fn.backward", "AttributeError"),
    ("x = ones(2, requires_grad=true) * 2\nx.grad_fn.parents", "AttributeError"),
    (
        "x = ones(2, requires_grad=true) * 2\nx.grad_fn.next_functions[0][0].__init__",
        "AttributeError",
    ),
    ("float64.np", "AttributeError"),
    ("float64.__class__", "AttributeError"),
    ("no_grad.__enter__", "AttributeError"),
    ("no_grad.saved", "AttributeError"),
    ('"a".format.__self__', "AttributeError"),
    ("[].append.fn", "AttributeError"),
    ("(1).real.__self__", "AttributeError"),
    ("1.5.is_integer.__self__", "AttributeError"),
    ("range(3).start", "AttributeError"),
    ("ones(2).shape.__len__", "AttributeError"),
    ("max(ones(3), 0).values.__class__", "AttributeError"),
    ("x = ones(2)\nx.foo = 1", "AttributeError"),
    ("x = ones(2)\nx.__class__ = none", "AttributeError"),
    ("x = ones(2)\nx.grad_fn = none", "AttributeError"),
    ("print.x = 1", "AttributeError"),
    ('x = ones(2)\n"{0.__class__}".format(x)', "AttributeError"),
    ('"{0.real.__self__}".format(1)', "AttributeError"),
    ('"{0[0].__globals__}".format([print])', "AttributeError"),
    ('"{x.data.__array_interface__}".format(x=ones(2))', "AttributeError"),
    ('"{x[0].__init__}".format(x=ones(2))', "AttributeError"),
    ('"{0.__init__.__globals__}".format(lambda: 1)', "AttributeError"),
    ('"{0.format.__self__}".format("a")', "AttributeError"),
    ('"{0.__dict__}".format(torch)', "AttributeError"),
    ('"{0[__builtins__]}".format({})', "KeyError"),
    ('x = ones(2)\nf"{x.__class__}"', "AttributeError"),
    ('x = ones(2)\nf"{x.data.__class__}"', "AttributeError"),
    ('f"{__import__}"', "NameError"),
    ("f\"{open('x')}\"", "NameError"),
    # a program's class takes the special methods a class body may define, no others
    ("class A:\n    pass\nA.__getattr__ = print", "AttributeError"),
    ("class A:\n    pass\nsetattr(A, '__getattribute__', print)", "AttributeError"),
    ("class A:\n    pass\nA.__class__ = int", "AttributeError"),
    ("class A:\n    pass\nsetattr(A, '__dict__', {})", "AttributeError"),
    ("setattr(Exception, '__init__', print)", "AttributeError"),
    # `re`: strings in and out, no Match or Pattern object, no function called by it
    ("import re\nre.compile('a')", "AttributeError"),
    ("import re\nre.match('a', 'a')", "AttributeError"),
    ("import re\nre.finditer('a', 'a')", "AttributeError"),
    ("import re\nre._compile", "AttributeError"),
    ("import re\nre.sub('a', lambda m: m.re, 'a')", "TypeError"),
    ("import re\nre.sub('a', print, 'a')", "TypeError"),
    ("import re\nre.findall('a', ones(2))", "TypeError"),
    ("import re\nre.sub.__self__", "AttributeError"),
    ("import re\nre.sub('a', 'a' * 10 ** 6, 'a' * 10 ** 6)", "LimitError"),
]


# `x.__class__` is what type(x) gives (the language's value for the class): each attempt
# above that stopped there goes one step further now
ESCAPES = [
    (re.sub(r"\.__class__(?!\s*=[^=])", ".__class__.__subclasses__()", s), t) for s, t in ESCAPES
]


@pytest.mark.parametrize("source,type_name", ESCAPES, ids=[s for s, _ in ESCAPES])
def test_escape_attempts_are_errors(source, type_name):
    assert_refused(source, type_name)


def test_allowed_attributes_still_work():
    r = Run(
        "x = ones(2, requires_grad=true)\ny = (x * 2).sum()\n"
        "a = (x.data, x.grad, x.requires_grad, x.is_leaf, x.shape, x.dtype, x.T, x.ndim)\n"
        "b = y.grad_fn.name()\nc = y.grad_fn.next_functions[0][0].name()\n"
        'd = "{} {:.2f} {x}".format(1, 2.0, x=3)\ne = f"{x.shape} {y.item():.1f}"\n'
        "g = max(ones(3), 0).values.shape\nh = torch.ones(1).dtype.is_floating_point\n"
    )
    assert r.error is None, r.error.message
    assert r.value("b") == "SumBackward0" and r.value("c") == "MulBackward0"
    assert r.value("d") == "1 2.00 3" and r.value("e") == "torch.Size([2]) 4.0"


# ---------------------------------------------------------------- every attribute name


def _python_attribute_names():
    names = (
        set(dir(object))
        | set(dir(type))
        | set(dir(types.FunctionType))
        | set(dir(types.ModuleType))
        | set(dir(np.ndarray))
        | set(dir(str))
        | set(dir(list))
        | set(dir(tuple))
        | set(dir(dict))
        | set(dir(float))
        | set(dir(int))
        | set(dir(range))
    )
    names |= {
        "__globals__",
        "__code__",
        "__closure__",
        "__builtins__",
        "__subclasses__",
        "__mro__",
        "__bases__",
        "__base__",
        "__self__",
        "__func__",
        "__wrapped__",
        "__loader__",
        "__spec__",
        "f_globals",
        "f_back",
        "gi_frame",
        "tb_frame",
        "fn",
        "obj",
        "body",
        "globals",
        "params",
        "defaults",
        "members",
        "parents",
        "saved",
        "saved_src",
        "needs",
        "variable_",
        "np",
        "os",
        "sys",
        "builtins",
    }
    return sorted(n for n in names if n.isidentifier())


VALUES = {
    "tensor": "ones(2, requires_grad=true)",
    "non-leaf": "(ones(2, requires_grad=true) * 2)",
    "grad_fn": "(ones(2, requires_grad=true) * 2).grad_fn",
    "accumulate_grad": "(ones(2, requires_grad=true) * 2).grad_fn.next_functions[0][0]",
    "int": "(1)",
    "float": "1.5",
    "bool": "true",
    "none": "none",
    "str": '"abc"',
    "list": "[1, 2]",
    "tuple": "(1, 2)",
    "range": "range(3)",
    "device": 'torch.device("cpu")',
    "hook handle": "ones(2, requires_grad=true).register_hook(print)",
    "optimizer": "torch.optim.SGD([ones(2, requires_grad=true)], lr=0.1)",
    "builtin": "print",
    "builtin method": "ones(2).sum",
    "str method": '"a".format',
    "user function": "(lambda a: a)",
    "module": "torch",
    "submodule": "torch.autograd",
    "F": "F",
    "dtype": "float32",
    "size": "ones(2).shape",
    "no_grad": "no_grad",
    "values-indices": "max(ones(2, 3), 1)",
    "grad tuple": "grad(sum(ones(2, requires_grad=true) * 2), ones(1, requires_grad=true), "
    "allow_unused=true)",
}

SAFE_TYPES = (type(None), bool, int, float, str, tuple, list, dict, range)


def _allowed_value(v):
    """What an attribute may give a program: language values, never Python machinery."""
    from gradcli.engine.function import AccumulateGrad, Function
    from gradcli.library.methods import RemovableHandle
    from gradcli.runtime.device import Device
    from gradcli.library import values
    from gradcli.library.optim import Optimizer
    from gradcli.core.dtypes import DType
    from gradcli.ops.return_types import ValuesIndices
    from gradcli.core.tensor import Tensor
    from gradcli.library.stdlib import DictView, LazyIterator, ListIterator
    from gradcli.language.functions import BoundUserMethod, Generator

    if isinstance(
        v,
        (
            type,
            types.ModuleType,
            types.CodeType,
            types.FrameType,
            types.TracebackType,
            types.GeneratorType,
        ),
    ):
        return False

    if isinstance(
        v,
        (
            Tensor,
            Function,
            AccumulateGrad,
            DType,
            Device,
            RemovableHandle,
            Optimizer,
            ValuesIndices,
            values.Size,
            values.BoundMethod,
            values.BuiltinFunction,
            values.Module,
            runtime.UserFunction,
            values.GradModeContext,
            BoundUserMethod,
            Generator,
            ListIterator,
            LazyIterator,
            DictView,
        )
        + SAFE_TYPES,
    ):
        return True
    known = set(map(id, namespace().values())) | set(map(id, values.METHODS.values()))
    known |= set(map(id, namespace()["torch"].members.values()))  # torch.dtype, torch.Size ...
    return callable(v) and id(v) in known


@pytest.mark.parametrize("kind", list(VALUES))
def test_every_python_attribute_is_refused(kind):
    """`V.name` for every attribute name Python objects have: dunders and private
    names are always refused, and whatever is allowed is a language value."""
    expr = VALUES[kind]
    reset_globals()
    session = Session(TextOutput(io.StringIO()), filename="<test>")
    allowed = []
    for name in _python_attribute_names():
        for form in (f"v = {expr}.{name}\n", f"v = {expr}.{name}()\n"):
            session.scope.vars.pop("v", None)
            with contextlib.redirect_stderr(io.StringIO()):
                try:
                    session.run(form)
                except GradError as e:
                    assert isinstance(e.line, int) and isinstance(e.column, int), (form, e)
                    continue
            v = session.scope.vars.get("v")
            if name in NAME_ATTRS and form.endswith(f"{name}\n"):
                assert v is None or type(v) is str, f"{form!r} gave {type(v)!r}"
                continue  # __name__, __qualname__, __doc__: a string (docs/language.md)
            if name == "__class__":  # what type(x) gives (the language's value), called
                if form.endswith("__class__\n"):
                    session.run(f"t = type({expr})\n")
                    assert v == session.scope.vars["t"], f"{form!r} gave {v!r}"
                continue
            assert not name.startswith("_") or name in CONTAINERS_OWN, f"{form!r} was allowed"
            assert _allowed_value(v), f"{form!r} gave {type(v)!r}"
            allowed.append(name)
    reset_globals()
    # attributes of plain Python values are the language's few (a tuple's two methods,
    # an int's numbers: real, imag, bit_length() ...), each giving plain values
    if kind in ("int", "bool", "none", "tuple", "range", "builtin", "user function", "no_grad"):
        few = {"tuple": {"count", "index"}, "int": NUMBER_NAMES, "bool": NUMBER_NAMES}
        assert set(allowed) <= few.get(kind, set()), (kind, allowed)


# the special methods of dicts, lists, strings and sets a program calls by name
# (`d.__setitem__` in a lambda, `key=d.__getitem__`): each a bound method of the language
CONTAINERS_OWN = frozenset({"__getitem__", "__setitem__", "__delitem__", "__contains__", "__len__"})

NUMBER_NAMES = {
    "real",
    "imag",
    "numerator",
    "denominator",
    "bit_length",
    "bit_count",
    "as_integer_ratio",
    "conjugate",
}


# ---------------------------------------------------------------- no eval in gradcli

FORBIDDEN_CALLS = {
    "eval",
    "exec",
    "compile",
    "__import__",
    "globals",
    "locals",
    "vars",
    "breakpoint",
    "input",
}
FORBIDDEN_MODULES = {
    "pickle",
    "marshal",
    "shelve",
    "subprocess",
    "ctypes",
    "code",
    "codeop",
    "runpy",
    "importlib.util",
}


#: the one module that may import ctypes: it binds Intel MKL's C functions (PyTorch's own
#: math and BLAS, for bit-exact results) by the fixed names in its table, never by text
#: from a program; the language cannot reach it (no attribute of any value leads there)
NATIVE = {
    "gradcli/numerics/mkl.py": {"ctypes"},
    # torch.bmm's cblas_?gemm_batch: the arrays of pointers and sizes it passes to the
    # function mkl.py bound by its fixed name; no program's text reaches it
    "gradcli/numerics/mkl_batch.py": {"ctypes"},
    # MKL's LAPACK ?getrf_/?getrs_ (the matrix inverse as PyTorch computes it), bound
    # by those four fixed names in the library mkl.py loaded; no program's text reaches it
    "gradcli/numerics/linalg/lapack.py": {"ctypes"},
    # MKL's LAPACK ?syevd_/?potrf_ and BLAS ?trsm_ (linalg.eigvalsh, linalg.cholesky and its
    # gradient as PyTorch computes them), bound by those fixed names in the library mkl.py
    # loaded; no program's text reaches it
    "gradcli/numerics/linalg/symmetric.py": {"ctypes"},
    # calls the fused multiply-add loops it compiled itself (llvmlite, from its own fixed
    # IR) by their addresses; its only inputs are the arrays of the emulated arithmetic
    "gradcli/numerics/native.py": {"ctypes"},
    # NumPy's memory handler: glibc's aligned_alloc, free, memcpy, memset and
    # malloc_usable_size by fixed names, called by the handler's compiled functions
    # (native.py compiles their fixed IR), and NumPy's C-API slots that get and set it
    "gradcli/numerics/native_alloc.py": {"ctypes"},
    # the C library's sinf by that fixed name (float32 trigamma, digamma's gradient); its
    # only inputs are float32 values of an array
    "gradcli/numerics/floats/digamma.py": {"ctypes"},
    # glibc's mallopt and malloc_trim with fixed parameters, nothing else
    # (tests/runtime/test_heap.py checks the names it binds); no program's text reaches it
    "gradcli/runtime/heap.py": {"ctypes"},
    # the parser's table cache: marshal reads back the plain data (dicts, lists,
    # tuples, strings, ints) that gradcli itself wrote to the user's cache
    # directory, in ~2 ms where Lark's pickle took ~30 ms; nothing read is ever
    # called (strings are compiled as regular expressions, the rest is looked
    # up), the text of the grammar it holds must be the grammar's, and no
    # program's text reaches it
    "gradcli/language/parser.py": {"marshal"},
    # ... each state's row of its parse table, stored as marshal bytes inside that
    # cache (lalr_build writes them, lalr reads one when the parser first reaches its
    # state): the same plain data, looked up, never called
    "gradcli/language/lalr.py": {"marshal"},
    "gradcli/language/lalr_build.py": {"marshal"},
    # the command line's file of gradcli's own compiled modules: the code objects of the
    # .pyc files Python wrote for gradcli's sources (importlib.util's magic number checks
    # them), kept in gradcli's own __pycache__ and run only as the module whose source
    # file has the recorded size and time; no program's text reaches it
    "gradcli/runtime/code_cache.py": {"marshal", "importlib.util"},
    # a replayed graph's straight-line backward (engine/straight.py builds it from Python's
    # tree of its schedule's numbers and the nodes' classes, never from a program's text),
    # its code object kept in the user's cache directory as Python keeps .pyc files, named
    # by a hash of its key, straight.py's text and the interpreter's tag, and taken back
    # only for the same key's text
    "gradcli/engine/straight_code.py": {"marshal"},
    # torch.load of PyTorch's .pt files (a zip holding a pickle): its Unpickler's
    # find_class answers only the few globals such files use (OrderedDict, the tensor and
    # parameter rebuilders, the storage types), each with a value of that module, never an
    # import, and refuses every other global (as torch's weights_only=True); what is loaded
    # is checked to be tensors, numbers, strings and containers of them
    # (tests/library/test_torch_file.py tries hostile files); torch.save writes the
    # pickle's opcodes itself
    "gradcli/library/torch_file.py": {"pickle"},
}


def _sources():
    return sorted(p for p in (ROOT / "gradcli").rglob("*.py"))


def test_the_native_module_binds_only_its_fixed_names():
    from gradcli.numerics import mkl

    names = {n for n, _, _ in mkl._names()}
    assert names == {f"vm{p}{v}" for p in "sd" for v in mkl.VML.values()} | {
        f"cblas_{p}{f}"
        for p in "sd"
        for f in ("gemm", "gemv", "dot", "gemm_batch", "gemm_batch_strided")
    } | {"MKL_Set_Num_Threads", "MKL_Set_Num_Threads_Local"}  # (one thread for a conv's gemms)
    if mkl.available():
        assert set(mkl.FNS) == names


def _compiles_a_tree(path, node):
    """The fast tier's one call of compile(), and the replayed backward's: each on the
    Python tree it built itself (language/fast_tier.py `_module`, engine/straight.py
    `_tree`: from a schedule's numbers), never on a text."""
    return (
        path.name in ("fast_tier.py", "straight.py")
        and isinstance(node.func, ast.Name)
        and node.func.id == "compile"
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "module_tree"
    )


@pytest.mark.parametrize("path", _sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_gradcli_never_evaluates_text(path):
    tree = ast.parse(path.read_text("utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = (
                f.id
                if isinstance(f, ast.Name)
                else f.attr
                if isinstance(f, ast.Attribute)
                else None
            )
            where = f"{path.name}:{node.lineno}"
            if isinstance(f, ast.Name) and not _compiles_a_tree(path, node):
                assert name not in FORBIDDEN_CALLS, f"{where} calls {name}()"
            if name in ("system", "popen", "spawnl", "execv", "execvp", "import_module"):
                raise AssertionError(f"{where} calls {name}()")
            if (
                name == "load"
                and isinstance(f, ast.Attribute)
                and isinstance(f.value, ast.Name)
                and f.value.id == "np"
            ):
                kw = {k.arg: k.value for k in node.keywords}
                assert (
                    isinstance(kw.get("allow_pickle"), ast.Constant)
                    and kw["allow_pickle"].value is False
                ), f"{where}: np.load without allow_pickle=False"
            if (
                name == "getattr"
                and isinstance(f, ast.Name)
                and len(node.args) >= 2
                and not isinstance(node.args[1], ast.Constant)
            ):
                # a computed attribute name only on gradcli's own objects (rule dispatch)
                assert isinstance(node.args[0], ast.Name) and node.args[0].id == "self", (
                    f"{where}: getattr with a computed name"
                )
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            allowed = NATIVE.get(str(path.relative_to(ROOT)), set())
            for m in mods:
                assert m not in FORBIDDEN_MODULES or m in allowed, (
                    f"{path.name}:{node.lineno} imports {m}"
                )


# ---------------------------------------------------------------- load and save


def _listing(path: Path):
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("name", ["a.npy", "a.csv", "A.NPY", "with space.csv", "ünï.npy"])
def test_save_touches_only_the_path_named(workdir, name):
    (workdir / "other.txt").write_text("keep")
    r = Run(
        f'x = tensor([[1.5, 2.0], [3.0, -4.0]])\nsave(x, "{name}")\ny = load("{name}")\n'
        "assert_close(x, y)\n"
    )
    assert r.error is None, r.error.message
    assert _listing(workdir) == sorted([name, "other.txt"])
    assert (workdir / "other.txt").read_text() == "keep"


def test_save_into_a_missing_directory_creates_nothing(workdir):
    e = assert_refused('save(ones(2), "missing/dir/a.npy")', "OSError")
    assert "missing/dir/a.npy" in e.message
    assert _listing(workdir) == []


def test_save_onto_a_directory(workdir):
    (workdir / "d.npy").mkdir()
    assert_refused('save(ones(2), "d.npy")', "OSError")
    assert _listing(workdir) == ["d.npy"]


def test_save_needs_a_data_suffix(workdir):
    for path in ("a.txt", "a", "a.py", "a.npz", ".bashrc"):
        assert_refused(f'save(ones(2), "{path}")', "ValueError")
    assert _listing(workdir) == []


def _npy_header(shape, descr="<f8"):
    header = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode()
    header += b" " * (63 - (len(header) + 10) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header


@pytest.mark.parametrize(
    "name,data,type_name",
    [
        ("text.npy", b"hello, world\n", "ValueError"),
        ("empty.npy", b"", "ValueError"),
        ("junk.csv", bytes(range(256)) * 8, "ValueError"),
        ("words.csv", b"a,b\nc,d\n", "ValueError"),
        ("ragged.csv", b"1,2\n3\n", "ValueError"),
        ("short.npy", _npy_header((1000,)) + b"\x00" * 16, "ValueError"),
        ("huge.npy", _npy_header((10**6, 10**6)) + b"\x00" * 64, "LimitError"),
        ("strings.npy", _npy_header((2,), "<U3") + b"\x00" * 24, "ValueError"),
    ],
)
def test_load_of_a_file_that_is_not_data(workdir, name, data, type_name):
    (workdir / name).write_bytes(data)
    assert_refused(f'load("{name}")', type_name)
    assert _listing(workdir) == [name]


def test_load_never_unpickles(workdir):
    """An object array in a .npy is a pickle: it must be refused unread."""
    marker = workdir / "pwned"

    class Payload:
        def __reduce__(self):
            return (open, (str(marker), "w"))

    arr = np.empty(1, dtype=object)
    arr[0] = Payload()
    with open(workdir / "evil.npy", "wb") as f:
        np.save(f, arr, allow_pickle=True)
    assert_refused('load("evil.npy")', "ValueError")
    assert not marker.exists()


def test_load_missing_and_directories(workdir):
    (workdir / "d.csv").mkdir()
    assert_refused('load("nothing.npy")', "OSError")
    assert_refused('load("d.csv")', "OSError")
    assert_refused("load(5)", "TypeError")
    assert_refused('load("")', "ValueError")
    assert_refused('load("a\\x00b.npy")')
    assert _listing(workdir) == ["d.csv"]


# ---------------------------------------------------------------- reprs


def test_function_reprs_show_no_python_internals():
    """Every callable the namespace holds prints as `<built-in function NAME>` (or a user
    function's `<function f>`, or a library class as PyTorch's `<class 'torch.optim.sgd.SGD'>`):
    no `<locals>`, gradcli's module paths or addresses."""
    import re

    names = [n for n, v in namespace().items() if callable(v) and re.fullmatch(r"[A-Za-z_]\w*", n)]
    src = "".join(f"print({n})\n" for n in names)
    src += "print(torch.cuda.is_available, torch.Size, torch.optim.SGD, F.relu, relu)\n"
    r = Run(src)
    assert r.error is None, r.error.message
    for line in r.out.splitlines():
        assert " at 0x" not in line and "<locals>" not in line, line
        qualified = re.fullmatch(r"<class 'torch\.[\w.]+'>", line)  # PyTorch's name
        assert "." not in line.split(" ")[-1] or qualified, line
        assert "gradcli" not in line, line
    assert "<built-in function relu> <built-in function relu>" in r.out
    assert "<built-in function print>" in r.out


def test_a_list_holding_itself_prints_as_python_does():
    r = Run("l = [1]\nl.append(l)\nprint(l)\nm = [l, (l,)]\nprint(m)\n")
    assert r.error is None and r.out == "[1, [...]]\n[[1, [...]], ([1, [...]],)]\n", r.out


# ---------------------------------------------------------------- load/save data


def test_a_failing_save_keeps_the_old_file(workdir, monkeypatch):
    """save writes a temporary file beside the target and renames it: a write that fails
    half-way leaves the old file whole and no temporary file behind."""
    import gradcli.library.io as gio

    Run('save(tensor([1.0, 2.0]), "a.npy")\nsave(tensor([1.0, 2.0]), "a.csv")\n')
    old_npy, old_csv = (workdir / "a.npy").read_bytes(), (workdir / "a.csv").read_bytes()

    def half(f, *a, **k):
        f.write(b"\x93NUMPY partial")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(gio.np, "save", half)
    monkeypatch.setattr(gio.np, "savetxt", half)
    assert_refused('save(ones(1000), "a.npy")', "OSError", "No space left")
    assert_refused('save(ones(1000), "a.csv")', "OSError", "No space left")
    assert (workdir / "a.npy").read_bytes() == old_npy
    assert (workdir / "a.csv").read_bytes() == old_csv
    assert _listing(workdir) == ["a.csv", "a.npy"]


def test_save_keeps_the_mode_and_writes_through_a_symlink(workdir):
    (workdir / "t.csv").write_text("0\n")
    os.chmod(workdir / "t.csv", 0o640)
    os.symlink("t.csv", workdir / "l.csv")
    r = Run('save(tensor([1.0, 2.0]), "l.csv")\n')
    assert r.error is None, r.error.message
    assert (workdir / "l.csv").is_symlink() and (workdir / "t.csv").read_text() == "1\n2\n"
    assert (os.stat(workdir / "t.csv").st_mode & 0o777) == 0o640


@pytest.mark.parametrize(
    "src,out",
    [
        ('save(tensor(3.5), "a.npy")\nprint(load("a.npy"))', "tensor(3.5000)"),
        ('save(tensor(3.5), "a.csv")\nprint(load("a.csv"))', "tensor(3.5000)"),
        ('save(ones(3, 0), "a.npy")\nprint(load("a.npy").shape)', "torch.Size([3, 0])"),
        (
            'save(tensor([2**62 + 1, -(2**62) - 1]), "a.csv")\nprint(load("a.csv", dtype=int64))',
            "tensor([ 4611686018427387905, -4611686018427387905])",
        ),
        (
            'save(tensor([[2**62 + 1]]), "a.npy")\nprint(load("a.npy", dtype=int64))',
            "tensor([[4611686018427387905]])",
        ),
    ],
)
def test_save_and_load_round_trips(workdir, src, out):
    r = Run(src)
    assert r.error is None, r.error.message
    saved = src.split('"')[1]
    assert r.out == f"saved {saved}\n" + out + "\n"  # save() says what it wrote


def test_csv_cannot_hold_an_empty_matrix(workdir):
    assert_refused('save(ones(3, 0), "a.csv")', "ValueError", "[3, 0]")
    assert _listing(workdir) == []


def test_csv_errors_name_the_place_not_the_content(workdir):
    """A CSV error never quotes the file: the path may name any readable file."""
    (workdir / "pw.csv").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (workdir / "late.csv").write_text("1,2\n3,secret\n")
    e = assert_refused('load("pw.csv")', "ValueError", "line 1, column 1")
    assert "root" not in e.message and "bash" not in e.message
    e = assert_refused('load("late.csv")', "ValueError", "line 2, column 3")
    assert "secret" not in e.message
