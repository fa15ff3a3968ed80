"""One module per golden suite, each with `main(argv)`: scripts/gen_golden.py SUITE
runs it (the module's docstring says what it records and from which cases)."""
