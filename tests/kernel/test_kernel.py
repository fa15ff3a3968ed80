"""The Jupyter kernel, driven by a real client: jupyter_client's KernelManager
starts `python -m gradcli.kernel -f CONNECTION_FILE` in a subprocess (the
kernelspec's argv) and a blocking client talks the Jupyter protocol to it.
One kernel for the module (a few seconds in all)."""

from __future__ import annotations

import json
import sys
import time

import pytest

jupyter_client = pytest.importorskip("jupyter_client")  # the test extra installs it

from jupyter_client.kernelspec import KernelSpec  # noqa: E402
from jupyter_client.manager import KernelManager  # noqa: E402

try:
    from conftest import ROOT, run_gradcli, run_inprocess
    from test_notebook import SEEDS, load, seed_of
except ImportError:  # tests/ became a package
    from tests.conftest import ROOT, run_gradcli, run_inprocess
    from tests.kernel.test_notebook import SEEDS, load, seed_of

TIMEOUT = 30


@pytest.fixture(scope="module")
def kernel():
    from gradcli.kernel.install import kernel_json

    spec = kernel_json(sys.executable)
    km = KernelManager()
    km._kernel_spec = KernelSpec(**spec)
    km.start_kernel(cwd=str(ROOT))
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=TIMEOUT)
        yield km, kc
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def execute(kc, code):
    """(reply content, [(msg_type, content)] of the iopub output)."""
    out = []

    def hook(msg):
        if msg["msg_type"] not in ("status", "execute_input"):
            out.append((msg["msg_type"], msg["content"]))

    reply = kc.execute_interactive(code, output_hook=hook, timeout=TIMEOUT, stop_on_error=False)
    return reply["content"], out


def shown(out):
    """The cell's text as `gradcli eval` prints it: stdout streams and results."""
    parts = []
    for kind, c in out:
        if kind == "stream" and c["name"] == "stdout":
            parts.append(c["text"])
        elif kind in ("execute_result", "display_data"):
            parts.append(c["data"]["text/plain"] + "\n")
    return "".join(parts)


def eval_by_cell(path, seed):
    """`gradcli eval --json` of a notebook: {cell: printed text}."""
    r = run_inprocess(
        (ROOT / path).read_text(encoding="utf-8"), ("eval", "--json", "--seed", seed, "-")
    )
    assert r.returncode == 0, r.stderr
    by = {}
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        text = f"{rec['name']}.grad = {rec['text']}" if rec["kind"] == "grad" else rec["text"]
        by[rec["cell"]] = by.get(rec["cell"], "") + text + "\n"
    return by


@pytest.mark.parametrize("name", SEEDS)
def test_seed_notebooks_run_in_the_kernel_as_gradcli_eval_prints_them(kernel, name):
    km, kc = kernel
    nb = load(name)
    path = f"tests/golden/notebooks/{name}.ipynb"
    want = eval_by_cell(path, seed_of(nb))
    reply, _ = execute(kc, f"torch.manual_seed({seed_of(nb)});")
    assert reply["status"] == "ok", reply
    got = {}
    for number, cell in enumerate(nb["cells"], 1):
        if cell["cell_type"] != "code":
            continue
        reply, out = execute(kc, "".join(cell["source"]))
        assert reply["status"] == "ok", (number, reply)
        if shown(out):
            got[number] = shown(out)
        assert all(kind != "error" for kind, _ in out)
    assert got == want
    assert want  # the seeds do print something


def test_results_streams_and_magics(kernel):
    km, kc = kernel
    reply, out = execute(
        kc,
        "%matplotlib inline\nx = tensor([1., 2.], requires_grad=true)\n"
        "print('hi')\nbackward sum(x * x)\nx * 2",
    )
    assert reply["status"] == "ok"
    kinds = [k for k, _ in out]
    assert kinds == ["stream", "stream", "stream", "execute_result"], out
    assert (
        out[0][1]["name"] == "stderr"
        and "skipped IPython magic '%matplotlib inline'" in out[0][1]["text"]
    )
    assert out[1][1] == {"name": "stdout", "text": "hi\n"}
    assert out[2][1] == {"name": "stdout", "text": "x.grad = tensor([2., 4.])\n"}
    result = out[3][1]
    assert result["data"] == {"text/plain": "tensor([2., 4.], grad_fn=<MulBackward0>)"}
    assert result["execution_count"] == reply["execution_count"]


def test_errors_are_gradcli_caret_text(kernel):
    km, kc = kernel
    reply, out = execute(kc, "a = ones(2)\nb = a + ones(3)")
    assert reply["status"] == "error"
    assert reply["ename"] == "ShapeError"
    assert reply["evalue"].startswith("The size of tensor a (2) must match")
    tb = reply["traceback"]
    n = reply["execution_count"]
    assert tb[0].startswith(f"<cell {n}>:2:")
    assert tb[1] == "    b = a + ones(3)" and tb[2].strip() == "^"
    assert "Traceback" not in "\n".join(tb)
    assert ("error", {"ename": reply["ename"], "evalue": reply["evalue"], "traceback": tb}) in out
    # the statement before the error ran; the kernel goes on
    reply, out = execute(kc, "a")
    assert shown(out) == "tensor([1., 1.])\n"


def test_complete_and_inspect(kernel):
    km, kc = kernel
    execute(kc, "weights = ones(3, requires_grad=true)")
    code = "y = weig"
    reply = kc.complete(code, len(code), reply=True, timeout=TIMEOUT)["content"]
    assert reply["status"] == "ok" and "weights" in reply["matches"]
    assert (reply["cursor_start"], reply["cursor_end"]) == (4, len(code))
    code = "weights.requires_gr"
    reply = kc.complete(code, len(code), reply=True, timeout=TIMEOUT)["content"]
    assert set(reply["matches"]) == {"requires_grad", "requires_grad_"}
    assert reply["cursor_start"] == len("weights.")
    reply = kc.inspect("z = ones(2)", 6, reply=True, timeout=TIMEOUT)["content"]
    assert reply["found"] and reply["data"]["text/plain"].startswith("ones(*size")
    reply = kc.inspect("weights.grad", len("weights.gr"), reply=True, timeout=TIMEOUT)["content"]
    assert reply["found"] and reply["data"]["text/plain"].startswith("weights.grad: ")
    reply = kc.inspect("weights", 3, reply=True, timeout=TIMEOUT)["content"]
    assert "a variable" in reply["data"]["text/plain"]
    reply = kc.inspect("qqqq", 2, reply=True, timeout=TIMEOUT)["content"]
    assert reply["found"] is False


def test_is_complete(kernel):
    km, kc = kernel

    def status(code):
        msg_id = kc.is_complete(code)
        reply = kc.get_shell_msg(timeout=TIMEOUT)
        assert reply["parent_header"]["msg_id"] == msg_id
        assert reply["msg_type"] == "is_complete_reply"
        return reply["content"]

    assert status("x = 1")["status"] == "complete"
    assert status("def f(x):") == {"status": "incomplete", "indent": "    "}
    assert status("y = (1,")["status"] == "incomplete"
    assert status("x = )")["status"] == "invalid"


def test_interrupt_keeps_the_work_done(kernel):
    km, kc = kernel
    msg_id = kc.execute("n = 0\nwhile true:\n    n = n + 1\n", stop_on_error=False)
    while True:  # the loop has begun when its execute_input is broadcast
        msg = kc.get_iopub_msg(timeout=TIMEOUT)
        if msg["msg_type"] == "execute_input" and msg["parent_header"].get("msg_id") == msg_id:
            break
    reply = None
    for _ in range(5):  # a signal that came before the handler began is ignored: again
        time.sleep(0.3)
        km.interrupt_kernel()
        try:
            reply = kc.get_shell_msg(timeout=5)
        except Exception:  # queue.Empty
            continue
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = kc.get_shell_msg(timeout=TIMEOUT)
        break
    assert reply is not None
    assert reply["content"]["status"] == "error"
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    reply, out = execute(kc, "n > 1000")
    assert reply["status"] == "ok" and shown(out) == "True\n"


def test_restart_forgets_the_variables(kernel):
    km, kc = kernel
    execute(kc, "kept = 1")
    km.restart_kernel(now=True)
    kc.wait_for_ready(timeout=TIMEOUT)
    reply, _ = execute(kc, "kept")
    assert reply["status"] == "error" and reply["ename"] == "NameError"
    reply, out = execute(kc, "kept = 2\nkept")
    assert shown(out) == "2\n"


def test_values_that_draw_themselves_are_svg():
    from gradcli.kernel.kernel import mime_bundle

    class Drawing:
        def __repr__(self):
            return "a drawing"

        def _repr_svg_(self):
            return "<svg xmlns='http://www.w3.org/2000/svg'/>"

    assert mime_bundle(Drawing()) == {
        "text/plain": "a drawing",
        "image/svg+xml": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    }
    assert set(mime_bundle(1.5)) == {"text/plain"}


def test_kernel_install_writes_a_kernelspec(tmp_path):
    r = run_gradcli(args=("kernel", "install", "--prefix", str(tmp_path)))
    assert r.returncode == 0, r.stderr
    path = tmp_path / "share" / "jupyter" / "kernels" / "gradcli" / "kernel.json"
    spec = json.loads(path.read_text())
    assert spec["argv"][1:] == ["-m", "gradcli.kernel", "-f", "{connection_file}"]
    assert spec["display_name"] == "gradcli" and spec["language"] == "gradcli"
    assert str(path.parent) in r.stdout
    bad = run_gradcli(args=("kernel", "install", "--user", "--sys-prefix"))
    assert bad.returncode == 2


def test_explain_shows_latex_beside_text(kernel):
    pytest.importorskip("sympy")
    km, kc = kernel
    reply, out = execute(
        kc,
        "x = torch.ones(2, 2, requires_grad=True)\nout = (3 * (x + 2) ** 2).mean()\n"
        "explain(out, x)",
    )
    assert reply["status"] == "ok", reply
    (data,) = [c["data"] for kind, c in out if kind == "display_data"]
    assert "3·(xᵢⱼ + 2)/2" in data["text/plain"] or "3*(x_ij + 2)/2" in data["text/plain"]
    assert data["text/latex"].startswith("$$\\begin{aligned}")
    assert (
        r"\frac{\partial \mathrm{out}}{\partial x_{ij}} &= \frac{3 \left(x_{ij} + 2\right)}{2}"
        in (data["text/latex"])
    )
