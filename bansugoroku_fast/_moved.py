"""Old module paths kept as aliases: importing one warns once and gives the
module that now holds its names (the changelog says what moved where)."""
from __future__ import annotations

import importlib
import sys
import warnings


def alias(old: str, new: str) -> None:
    """Make module ``old`` (being imported) the module ``new``, with a
    :class:`DeprecationWarning` naming where to import from."""
    warnings.warn(f"{old} is deprecated: import {new} instead", DeprecationWarning, stacklevel=3)
    sys.modules[old] = importlib.import_module(new)
