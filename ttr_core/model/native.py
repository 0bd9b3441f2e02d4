"""Machine integer types for the compiled build, plain ``int`` when running as Python.

The type checker (and so mypyc) reads ``native.pyi``, where ``i64`` is mypyc's 64-bit
machine integer; at run time this module gives ``int``, so no extra package is needed.
Code annotated with ``i64`` must never leave the signed 64-bit range.
"""

i64 = int


def is_compiled(module_file: str) -> bool:
    """Whether the module whose ``__file__`` is given runs compiled (an extension module).

    A few hot spots pick, by this, the form of a step that is fastest in each build;
    both forms give the same results.
    """
    return not module_file.endswith(".py")
