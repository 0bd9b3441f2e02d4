from collections.abc import Sequence

from mypy_extensions import i64 as i64
from mypy_extensions import mypyc_attr as mypyc_attr

SequenceBase = Sequence

def is_compiled(module_file: str) -> bool: ...
