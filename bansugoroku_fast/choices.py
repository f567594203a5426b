"""Callable policies: turning what a Python policy computed for a whole wave
of candidate children into one choice per game.

A *callable policy* is ``policy(children, offsets)``: ``children`` is
``int8[M, 2, 26]``, every candidate child of every waiting game, seen by the
side that just played it (row 0 = the mover, as ``generate_plays`` gives
them), and game ``i`` owns ``children[offsets[i]:offsets[i + 1]]``
(``offsets`` is ``int64[N + 1]``). It returns either

* **choices**: an integer array of length ``N``, the index of the chosen
  child within each game's candidates; or
* **scores**: a floating array of length ``M``, one score per child; the
  greatest score of each game wins and a tie goes to the first child
  (:func:`segment_argmax`).

>>> import numpy as np
>>> offsets = np.array([0, 3, 5, 6])
>>> segment_argmax(np.array([0.5, 2.0, 2.0, -1.0, 7.0, 3.0]), offsets)
array([1, 1, 0])
>>> choices_from_output(np.array([2, 0, 0]), offsets)
array([2, 0, 0])
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import PolicyOutputError, PolicyOutputTypeError

#: What a callable policy is: ``policy(children, offsets) -> choices or scores``.
PolicyCallable = Callable[[np.ndarray, np.ndarray], Any]


def segment_argmax(scores: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``int64[N]``: the index, within each segment ``offsets[i]:offsets[i+1]``,
    of the greatest score (ties: the first); ``-1`` for an empty segment.

    Vectorised: a maximum per segment (``np.maximum.reduceat``), then the
    smallest local index holding it (``np.minimum.reduceat``). NaN scores
    are refused (:class:`~bansugoroku_fast.errors.PolicyOutputError` naming
    the segment), since a NaN is neither greater nor smaller than anything.

    >>> segment_argmax(np.array([1.0, 1.0, 0.0]), np.array([0, 0, 2, 3]))
    array([-1,  0,  0])
    """
    scores = np.asarray(scores)
    offsets = np.asarray(offsets, dtype=np.int64)
    counts = np.diff(offsets)
    if scores.ndim != 1 or len(scores) != offsets[-1]:
        raise PolicyOutputError(
            f"scores must be one number per child: {offsets[-1]} children, got shape {scores.shape}"
        )
    _refuse_nan(scores, offsets)
    choices = np.full(len(counts), -1, dtype=np.int64)
    filled = counts > 0
    if not filled.any():
        return choices
    starts = offsets[:-1][filled]
    best = np.maximum.reduceat(scores, starts)
    local = np.arange(len(scores), dtype=np.int64) - np.repeat(offsets[:-1], counts)
    at_best = scores == np.repeat(best, counts[filled])
    choices[filled] = np.minimum.reduceat(np.where(at_best, local, len(scores)), starts)
    return choices


def _refuse_nan(scores: np.ndarray, offsets: np.ndarray, game_ids: np.ndarray | None = None) -> None:
    if scores.dtype.kind != "f":
        return
    nan = np.isnan(scores)
    if nan.any():
        child = int(np.argmax(nan))
        segment = int(np.searchsorted(offsets, child, side="right")) - 1
        game = segment if game_ids is None else int(game_ids[segment])
        raise PolicyOutputError(f"the policy scored child {child - offsets[segment]} of game {game} as NaN")


def choices_from_output(output: Any, offsets: np.ndarray, game_ids: np.ndarray | None = None) -> np.ndarray:
    """``int64[N]`` choices from what a callable policy returned for
    ``offsets`` (see the module): integer choices (one per game, each within
    its game's candidates) or floating scores (one per child). Anything else
    raises :class:`~bansugoroku_fast.errors.PolicyOutputError` naming the
    game (``game_ids[i]`` names game ``i`` of the wave when given).

    >>> choices_from_output(np.array([0.0, 1.0, 1.0]), np.array([0, 1, 3]))
    array([0, 0])
    >>> choices_from_output(np.array([1, 0]), np.array([0, 1, 3]), game_ids=np.array([7, 9]))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyOutputError: choice 1 for game 7 is outside its 1 candidates (0 .. 0)
    """
    offsets = np.asarray(offsets, dtype=np.int64)
    games, children = len(offsets) - 1, int(offsets[-1])
    values = np.asarray(output)
    if values.dtype.kind == "f":
        if values.shape != (children,):
            raise PolicyOutputError(
                f"a policy's floating output is one score per child: {children} children, "
                f"got shape {values.shape}"
            )
        _refuse_nan(values, offsets, game_ids)
        return segment_argmax(values, offsets)
    if values.dtype.kind in "iu":
        return check_choices(values, offsets, game_ids)
    raise PolicyOutputTypeError(
        f"a policy returns integer choices (one per game: {games}) or floating scores "
        f"(one per child: {children}); got dtype {values.dtype} with shape {values.shape}"
    )


def check_choices(choices: Any, offsets: np.ndarray, game_ids: np.ndarray | None = None) -> np.ndarray:
    """``choices`` as ``int64[N]`` after checking that each is an integer
    index within its game's candidates (``game_ids`` names the games).

    >>> check_choices([0, 1.5], np.array([0, 1, 3]))
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.PolicyOutputTypeError: choices must be integers (one per game), got dtype float64
    """
    values = np.asarray(choices)
    counts = np.diff(np.asarray(offsets, dtype=np.int64))
    if values.dtype.kind not in "iu":
        raise PolicyOutputTypeError(f"choices must be integers (one per game), got dtype {values.dtype}")
    if values.shape != counts.shape:
        raise PolicyOutputError(
            f"choices must be one integer per waiting game ({len(counts)}), got shape {values.shape}"
        )
    return within_candidates(values, counts, game_ids)


def within_candidates(values: np.ndarray, counts: np.ndarray, game_ids: np.ndarray | None) -> np.ndarray:
    """``values`` as int64 after checking each is in ``0 .. counts - 1``."""
    bad = (values < 0) | (values >= counts)
    if bad.any():
        i = int(np.argmax(bad))
        game = int(game_ids[i]) if game_ids is not None else i
        raise PolicyOutputError(
            f"choice {values[i]} for game {game} is outside its {counts[i]} candidates (0 .. {counts[i] - 1})"
        )
    return values.astype(np.int64)


def call_policy(policy: PolicyCallable, offsets: np.ndarray, children: np.ndarray,
                game_ids: np.ndarray) -> np.ndarray:
    """``int64[N]``: the choices of callable ``policy`` for a wave of
    ``N`` games (``game_ids`` names them in errors); a game without
    candidates (a pass) gets -1 and is not shown to the policy, so every
    segment the policy sees holds at least one child.

    >>> offsets = np.array([0, 2, 2, 5])
    >>> children = np.zeros((5, 2, 26), dtype=np.int8)
    >>> call_policy(lambda kids, offs: np.diff(offs) - 1, offsets, children, np.array([4, 5, 6]))
    array([ 1, -1,  2])
    """
    counts = np.diff(offsets)
    moving = counts > 0
    choices = np.full(len(counts), -1, dtype=np.int64)
    shown = np.zeros(int(moving.sum()) + 1, dtype=np.int64)
    np.cumsum(counts[moving], out=shown[1:])
    if len(shown) > 1:
        choices[moving] = choices_from_output(policy(children, shown), shown, game_ids[moving])
    return choices
