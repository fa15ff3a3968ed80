"""gradcli as a Jupyter kernel (the optional jupyter extra: ipykernel and jupyter_client).

- `kernel`   the kernel: ipykernel's base `Kernel` class (a wrapper kernel)
             running cells in one gradcli session
- `install`  `gradcli kernel install [--user|--sys-prefix|--prefix DIR]`
- `python -m gradcli.kernel -f CONNECTION_FILE` starts it (the kernelspec's argv)

ipykernel and jupyter_client are imported only here, never by `gradcli eval`.
"""
