"""Files written whole or not at all.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "note.txt")
>>> from pathlib import Path
>>> write_atomically(path, lambda temporary: Path(temporary).write_text("done"))
>>> open(path).read(), os.listdir(folder)
('done', ['note.txt'])
"""
from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable

__all__ = ["write_atomically"]


def _new_temporary(directory: str, name: str) -> str:
    """A new empty file beside ``name`` in ``directory`` (same extension, so
    writers that read the format from the name still do), created as any
    new file is: its permissions are the umask's, not private."""
    extension = os.path.splitext(name)[1]
    while True:
        temporary = os.path.join(directory, f".{name}.{secrets.token_hex(6)}{extension}")
        try:
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            return temporary
        except FileExistsError:     # another writer's name: draw again
            continue


def write_atomically(path: str | os.PathLike[str], write: Callable[[str], None], *, durable: bool = False) -> None:
    """Have ``write`` write a temporary file beside ``path``, then move it
    into place: an interrupted or failed write leaves ``path`` as it was
    and no temporary file behind. ``durable``: the file is flushed to disk
    before it takes ``path``'s place."""
    directory, name = os.path.split(os.path.abspath(path))
    temporary = _new_temporary(directory, name)
    try:
        write(temporary)
        if durable:
            with open(temporary, "rb+") as file:
                os.fsync(file.fileno())
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.remove(temporary)
