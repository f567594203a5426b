"""A training run's files: written whole or not at all, read back with
errors that name the file.

Every file a run writes goes to a temporary name beside its place and is
renamed over it once complete, so a run stopped at any moment (Ctrl-C, a
lost machine) leaves each file as it was or as it is meant to be, never
half-written; a file that cannot be read, from another version or another
run raises :class:`~bansugoroku_fast.errors.InvalidTrainingError` naming it.
"""
from __future__ import annotations

import json
import os
import zipfile
from typing import Any

import numpy as np

from .._files import write_atomically
from ..errors import InvalidTrainingError

__all__ = ["atomic_json", "atomic_savez", "read_json", "read_npz"]


def atomic_savez(path: str, arrays: dict[str, Any]) -> None:
    """``arrays`` saved to ``path`` (``numpy.savez``), atomically."""
    def write(temporary: str) -> None:
        with open(temporary, "wb") as file:
            np.savez(file, **arrays)

    write_atomically(path, write)


def read_npz(path: str) -> dict[str, np.ndarray]:
    """Every array of the ``.npz`` at ``path`` (no pickles), or an
    :class:`~bansugoroku_fast.errors.InvalidTrainingError` naming it."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    except FileNotFoundError:
        raise InvalidTrainingError(f"{path}: no such file") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise InvalidTrainingError(f"{path}: a damaged file ({error})") from None


def atomic_json(path: str, value: Any) -> None:
    """``value`` written to ``path`` as JSON, atomically."""
    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8") as file:
            json.dump(value, file, indent=1, sort_keys=True)
            file.write("\n")

    write_atomically(path, write)


def read_json(path: str) -> Any:
    """The JSON at ``path``, or an InvalidTrainingError naming it."""
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except FileNotFoundError:
        raise InvalidTrainingError(f"{path}: no such file") from None
    except (OSError, ValueError) as error:
        raise InvalidTrainingError(f"{path}: a damaged file ({error})") from None


def exists(path: str) -> bool:
    """Whether a stage's file is there (a finished stage)."""
    return os.path.exists(path)
