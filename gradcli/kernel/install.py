"""`gradcli kernel install`: write the "gradcli" kernelspec (kernel.json) where
Jupyter looks for kernels."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

NAME = "gradcli"


def kernel_json(python=None) -> dict:
    return {
        "argv": [python or sys.executable, "-m", "gradcli.kernel", "-f", "{connection_file}"],
        "display_name": "gradcli",
        "language": "gradcli",
        "interrupt_mode": "signal",
        "metadata": {"debugger": False},
    }


def _parser():
    p = argparse.ArgumentParser(
        prog="gradcli kernel",
        description="gradcli's Jupyter kernel (needs the jupyter extra: ipykernel, jupyter_client).",
    )
    sub = p.add_subparsers(dest="command", metavar="install")
    i = sub.add_parser(
        "install",
        help="install the 'gradcli' kernelspec",
        description="Install the 'gradcli' kernelspec for Jupyter. Without an "
        "option, system-wide (as `jupyter kernelspec install`).",
    )
    where = i.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="for the current user only")
    where.add_argument(
        "--sys-prefix", action="store_true", help=f"in this Python environment ({sys.prefix})"
    )
    where.add_argument("--prefix", metavar="DIR", help="under DIR/share/jupyter/kernels")
    return p


def main(argv) -> int:
    p = _parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code in (0, None) else 2
    if args.command != "install":
        p.print_help(sys.stderr)
        return 2
    try:
        from jupyter_client.kernelspec import KernelSpecManager
    except ImportError:
        sys.stderr.write(
            "gradcli: error: the kernel needs Jupyter's packages: pip install ipykernel jupyter_client (the jupyter extra)\n"
        )
        return 2
    try:
        import ipykernel  # noqa: F401  (the kernel runs on it)
    except ImportError:
        sys.stderr.write(
            "gradcli: warning: ipykernel is not installed here; "
            "the kernel will not start: pip install ipykernel jupyter_client (the jupyter extra)\n"
        )
    prefix = sys.prefix if args.sys_prefix else args.prefix
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "kernel.json"), "w") as f:
            json.dump(kernel_json(), f, indent=1)
        try:
            dest = KernelSpecManager().install_kernel_spec(tmp, NAME, user=args.user, prefix=prefix)
        except OSError as e:
            sys.stderr.write(
                f"gradcli: error: cannot install the kernelspec: {e.strerror or e}"
                + (" (try --user or --sys-prefix)\n" if not (args.user or prefix) else "\n")
            )
            return 2
    sys.stdout.write(f"installed kernelspec {NAME} in {dest}\n")
    return 0
