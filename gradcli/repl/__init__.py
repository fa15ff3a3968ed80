"""gradcli's interactive REPL (prompt_toolkit), split as ptpython is:

- `app`        the loop: reading, running outside the prompt's event loop, Ctrl-C
- `validator`  is the input complete? (from the parser itself)
- `lexer`      highlighting from the grammar's own lexer tokens
- `completer`  Tab: variables, built-ins, keyword arguments, `x.` attributes
- `keys`       Enter / Tab / Backspace bindings
- `meta`       `:help`, `:vars`, `:graph`, `:load`, `:save`, `:reset`, `:quit`
- `history`    the history file, and the transcript `:save` writes

`app.run_repl` is the entry; prompt_toolkit is imported only by these modules, so
`gradcli eval` never pays for it.
"""
