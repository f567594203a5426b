"""Find the package's entry points (kernel batch, kernel single call, oracle)
and give them one calling convention for the benchmarks.

The kernel modules may be missing (a fresh checkout before the kernels land,
or a build without them); every function here then says so with ``None`` or
falls back to the oracle, so the corpus and the scripts still run.

>>> from bansugoroku_fast import Rules
>>> import numpy as np
>>> from bansugoroku_fast.position import INITIAL_ROW
>>> start = np.array([[INITIAL_ROW, INITIAL_ROW]], dtype=np.int8)
>>> offsets, children = children_of(start, np.array([[6, 5]], dtype=np.int8),
...                                 Rules(variant="backgammon"))
>>> offsets.tolist(), children.shape
([0, 7], (7, 2, 26))
"""
from __future__ import annotations

import importlib

import numpy as np

from bansugoroku_fast import oracle
from bansugoroku_fast.position import Position


def _module(name: str):
    """``bansugoroku_fast.<name>``, or None when it does not import."""
    try:
        return importlib.import_module(f"bansugoroku_fast.{name}")
    except ImportError:
        return None


def batch_module():
    """The batch API module when it offers ``count_plays`` and
    ``generate_plays``, else None."""
    module = _module("batch")
    if module is None:
        return None
    if not all(hasattr(module, name) for name in ("count_plays", "generate_plays")):
        return None
    return module


def kernel_legal_plays():
    """The kernel-backed single-position ``legal_plays``, or None while only
    the oracle exists."""
    api = _module("api")
    if api is not None and hasattr(api, "legal_plays"):
        return api.legal_plays
    import bansugoroku_fast

    if bansugoroku_fast.legal_plays is not oracle.legal_plays:
        return bansugoroku_fast.legal_plays
    return None


def batch_validator():
    """The structural check every batch call runs first
    (``_validate.first_invalid(int8[N, 2, 26])``), to time it apart; None if
    the package has no such function."""
    module = _module("_validate")
    return getattr(module, "first_invalid", None) if batch_module() else None


def kernel_outcome():
    """The kernel-backed ``outcome``, else the oracle's."""
    api = _module("api")
    if api is not None and hasattr(api, "outcome"):
        return api.outcome
    return oracle.outcome


def games_over(positions: np.ndarray, rules) -> np.ndarray:
    """``bool[N]``: which positions are finished games (batch ``outcome``
    when present, else one ``outcome`` call per position)."""
    batch = batch_module()
    if batch is not None and hasattr(batch, "outcome"):
        return np.asarray(batch.outcome(positions, rules).winner) >= 0
    outcome = kernel_outcome()
    return np.array([outcome(Position._trusted(p), rules) is not None for p in positions], dtype=bool)


def describe() -> dict[str, str]:
    """What each benchmark will run against, for printing in reports."""
    batch = batch_module()
    single = kernel_legal_plays()
    return {
        "batch": f"{batch.__name__}.count_plays / generate_plays" if batch else "missing",
        "single": f"{single.__module__}.legal_plays" if single else "missing (oracle only)",
    }


# --- calling conventions ------------------------------------------------------


def count_plays(positions: np.ndarray, dice: np.ndarray, rules, threads: int | None = 1) -> np.ndarray:
    """``int32[N]`` play counts from the batch kernel (must be present)."""
    return batch_module().count_plays(positions, dice, rules, threads=threads)


def generate_plays(positions: np.ndarray, dice: np.ndarray, rules, threads: int | None = 1):
    """The batch kernel's ``generate_plays`` result, as it returns it."""
    return batch_module().generate_plays(positions, dice, rules, threads=threads)


def offsets_and_children(generated) -> tuple[np.ndarray, np.ndarray]:
    """``(offsets int64[N+1], children int8[M, 2, 26])`` out of whatever
    ``generate_plays`` returns: an object with those attributes, a mapping,
    or a tuple whose first two items are they."""
    if hasattr(generated, "offsets") and hasattr(generated, "children"):
        return np.asarray(generated.offsets), np.asarray(generated.children)
    if isinstance(generated, dict):
        return np.asarray(generated["offsets"]), np.asarray(generated["children"])
    offsets, children = generated[0], generated[1]
    return np.asarray(offsets), np.asarray(children)


def _children_by_single_calls(positions, dice, rules, legal_plays):
    """Offsets and children from one ``legal_plays`` call per item."""
    offsets = np.zeros(len(positions) + 1, dtype=np.int64)
    children = []
    for index, (position, roll) in enumerate(zip(positions, dice)):
        plays = legal_plays(Position._trusted(position), (int(roll[0]), int(roll[1])), rules)
        children.extend(play.position.array for play in plays)
        offsets[index + 1] = offsets[index] + len(plays)
    stacked = np.array(children, dtype=np.int8).reshape(-1, 2, 26)
    return offsets, stacked


def children_of(positions: np.ndarray, dice: np.ndarray, rules, *, backend: str = "auto"):
    """``(offsets, children)`` of a batch: the positions after each legal play.

    ``backend`` is ``"batch"``, ``"single"`` (kernel single call), ``"oracle"``
    or ``"auto"`` (the fastest present). The order of children within an item
    is the backend's own; callers that need one order sort them.
    """
    if backend == "auto":
        backend = "batch" if batch_module() else "single" if kernel_legal_plays() else "oracle"
    if backend == "batch":
        return offsets_and_children(generate_plays(positions, dice, rules, threads=1))
    legal_plays = kernel_legal_plays() if backend == "single" else oracle.legal_plays
    if legal_plays is None:
        raise RuntimeError("the kernel single-call legal_plays is not available")
    return _children_by_single_calls(positions, dice, rules, legal_plays)


def fastest_backend() -> str:
    """The backend ``children_of(..., backend="auto")`` uses now."""
    return "batch" if batch_module() else "single" if kernel_legal_plays() else "oracle"
