"""torch.nn as library classes (docs/developer/architecture.md, Classes): Module, Parameter, the layers, the
containers, the loss modules and nn.init.  The package itself imports nothing:
`namespace` gathers them into the language's `torch.nn` (imported when a program
first reads it), while `module` (Module, Parameter) is what the language and the
replay import."""
