# Stub of the compiled module src/bansugoroku_fast/_pool.pyx (hand-written: real types).
from typing import Final

import numpy as np
import numpy.typing as npt

MOST_THREADS: Final[int]

def set_idle_spin(seconds: float) -> None:
    """How long an idle pool thread keeps looking for a new job before it
    sleeps (0.1 ms at import); 0 puts it to sleep at once."""

def idle_spin() -> float:
    """How long an idle pool thread spins before it sleeps, in seconds."""

def started_threads() -> int:
    """The pool threads this process has started."""

def shared_jobs() -> int:
    """The jobs in which at least one pool thread took part, in this process so far."""

def slots_of_items(
    items: int, chunk: int, threads: int, item_seconds: float = 0.0
) -> tuple[npt.NDArray[np.int16], int]:
    """Run a job that records which slot ran each item: ``(slots, took_part)``."""
