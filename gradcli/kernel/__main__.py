"""python -m gradcli.kernel -f CONNECTION_FILE: what the kernelspec starts."""

from .kernel import main

main()
