"""The record layouts the kernels write, held against the package's own at import.

A kernel module states each layout it writes as data: a tuple of fields
``(name, numpy dtype string, shape of an entry)`` and the bytes of one row
over them (``_batch.OUTPUT_ROWS`` and ``OUTPUT_ROW_BYTES``: the rows of
``generate_batch``; ``_games.PLY_FIELDS`` / ``PLY_ROW_BYTES`` and
``GAME_FIELDS`` / ``GAME_ROW_BYTES``: the plies and games of
``play_batch``). The Python layer defines the same layouts once, for the
arrays it makes and hands out; :func:`check_layout` compares the two at
import and refuses to go on if they differ (a kernel built from other
sources than the package, or a layout changed on one side only), where a
mismatch would otherwise show as wrong plays read from the right bytes.

>>> kernel = (("children", "i1", (2, 26)), ("hits", "?", (4,)))
>>> check_layout("output rows", kernel, 56, as_fields({"children": ((2, 26), "int8"), "hits": ((4,), bool)}))
>>> check_layout("output rows", kernel, 56, as_fields({"children": ((2, 26), "int8"), "hits": ((4,), "u1")}))
Traceback (most recent call last):
    ...
ImportError: bansugoroku_fast: the kernels' output rows differ from the package's: field 'hits': \
kernel bool (4,), package uint8 (4,) (kernels built from other sources? rebuild them: \
python setup.py build_ext --inplace)
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np

#: A layout: ``(name, dtype, shape of an entry)`` per field, in order.
Fields: TypeAlias = Sequence[tuple[str, Any, tuple[int, ...]]]


def as_fields(layout: Mapping[str, tuple[tuple[int, ...], Any]]) -> tuple[tuple[str, Any, tuple[int, ...]], ...]:
    """A ``{name: (shape, dtype)}`` mapping (in its order) as fields.

    >>> as_fields({"dice": ((4,), np.int8)})
    (('dice', <class 'numpy.int8'>, (4,)),)
    """
    return tuple((name, dtype, tuple(shape)) for name, (shape, dtype) in layout.items())


def row_bytes(fields: Iterable[tuple[str, Any, tuple[int, ...]]]) -> int:
    """The bytes of one entry of every field.

    >>> row_bytes([("children", "i1", (2, 26)), ("plies", "i4", ())])
    56
    """
    return sum(np.dtype(dtype).itemsize * math.prod(shape) for _, dtype, shape in fields)


def layout_differences(kernel: Fields, kernel_row_bytes: int, ours: Fields) -> list[str]:
    """What differs between the kernel's fields (and the row size it
    states) and ours: names in order, then each field's dtype and shape.

    >>> layout_differences([("a", "i1", ())], 1, [("a", "i1", ()), ("b", "i4", ())])
    ["fields: kernel ['a'], package ['a', 'b']", 'row bytes: kernel 1, package 5']
    """
    problems = []
    kernel_names, our_names = [name for name, _, _ in kernel], [name for name, _, _ in ours]
    if kernel_names != our_names:
        problems.append(f"fields: kernel {kernel_names}, package {our_names}")
    else:
        for (name, kernel_dtype, kernel_shape), (_, our_dtype, our_shape) in zip(kernel, ours):
            if np.dtype(kernel_dtype) != np.dtype(our_dtype) or tuple(kernel_shape) != tuple(our_shape):
                problems.append(f"field {name!r}: kernel {np.dtype(kernel_dtype)} {tuple(kernel_shape)}, "
                                f"package {np.dtype(our_dtype)} {tuple(our_shape)}")
    if row_bytes(kernel) != kernel_row_bytes:
        problems.append(f"row bytes: the kernel's fields make {row_bytes(kernel)}, it states {kernel_row_bytes}")
    elif row_bytes(ours) != kernel_row_bytes:
        problems.append(f"row bytes: kernel {kernel_row_bytes}, package {row_bytes(ours)}")
    return problems


def check_layout(what: str, kernel: Fields, kernel_row_bytes: int, ours: Fields) -> None:
    """Raise ImportError naming every difference between the layout
    ``what`` as the kernel writes it and as the package defines it."""
    problems = layout_differences(kernel, kernel_row_bytes, ours)
    if problems:
        raise ImportError(f"bansugoroku_fast: the kernels' {what} differ from the package's: {'; '.join(problems)} "
                          "(kernels built from other sources? rebuild them: python setup.py build_ext --inplace)")
