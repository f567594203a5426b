"""Move notation as GNU Backgammon writes it, and a lenient reader.

Points are in the mover's numbering; ``bar`` is 25 and ``off`` is 0. One
stone's consecutive moves are joined (``24/13``), showing an intermediate
point only where it hit (``24/18*/13``); equal moves are counted (``8/5(2)``);
moves are listed highest source first.

>>> format_steps([(24, 18), (13, 11)], [False, True])
'24/18 13/11*'
>>> format_steps([(24, 18), (18, 13)], [True, False])
'24/18*/13'
>>> format_steps([(8, 5), (8, 5), (6, 5), (6, 5)], [False] * 4)
'8/5(2) 6/5(2)'
>>> format_steps([(25, 22), (6, 0)], [False, False])
'bar/22 6/off'
>>> parse_moves("bar/22* 13/7(2) 24/18*/13")
[(25, 22), (24, 18), (18, 13), (13, 7), (13, 7)]
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from .errors import AmbiguousPlayError, ArgumentTypeError, IllegalPlayError, InvalidNotationError
from .layout import BAR, OFF

if TYPE_CHECKING:  # play.py imports this module
    from .play import Play

__all__ = ["format_steps", "match_play", "parse_moves", "point_name"]

Hop = tuple[int, int]  # (from, to) in the mover's numbering

MAX_MOVES = 4  # a turn moves at most four times (a backgammon double)


def point_name(point: int) -> str:
    return {BAR: "bar", OFF: "off"}.get(point, str(point))


def _paths(steps: Iterable[Hop], hits: Iterable[bool]) -> list[list[tuple[int, bool]]]:
    """Join each stone's consecutive steps into a path of (point, hit) pairs."""
    paths: list[list[tuple[int, bool]]] = []
    for (origin, target), hit in zip(steps, hits):
        for path in reversed(paths):  # the stone that most recently arrived
            if path[-1][0] == origin and origin != OFF:
                path.append((target, bool(hit)))
                break
        else:
            paths.append([(origin, False), (target, bool(hit))])
    return paths


def _format_path(path: Sequence[tuple[int, bool]]) -> str:
    shown = [point_name(path[0][0])]
    for point, hit in path[1:-1]:
        if hit:
            shown.append(point_name(point) + "*")
    last, hit = path[-1]
    shown.append(point_name(last) + ("*" if hit else ""))
    return "/".join(shown)


def format_steps(steps: Iterable[Hop], hits: Iterable[bool]) -> str:
    """The gnubg notation of a step list and its per-step hit flags."""
    paths = _paths(steps, hits)
    paths.sort(key=lambda path: (path[0][0], path[-1][0]), reverse=True)
    texts: list[str] = []
    counts: list[int] = []
    for path in paths:
        text = _format_path(path)
        if texts and texts[-1] == text:
            counts[-1] += 1
        else:
            texts.append(text)
            counts.append(1)
    return " ".join(t if n == 1 else f"{t}({n})" for t, n in zip(texts, counts))


# ASCII only: ``\d`` would also match other scripts' digits, which int() reads.
_HOP = re.compile(r"^(bar|off|\d{1,2})(\*?)$", re.ASCII)
_REPEATED = re.compile(r"^(.*)\((\d+)\)$", re.ASCII)


def _point(token: str, text: str) -> int:
    match = _HOP.match(token)
    if not match:
        raise InvalidNotationError(f"cannot read {token!r} in {text!r}")
    name = match.group(1)
    point = {"bar": BAR, "off": OFF}.get(name)
    if point is None:
        point = int(name)
        if not 0 <= point <= 25:
            raise InvalidNotationError(f"no point {point} in {text!r}")
    return point


def parse_moves(text: str) -> list[Hop]:
    """The hops a notation names, as (from, to) pairs, sorted highest first.

    Lenient: case, commas, ``*`` marks, ``b``/``25`` for the bar and ``o``/``0``
    for off are all accepted; ``(n)`` repeats a move. A hop may span several
    dice (``24/13``): :func:`match_play` (and :func:`bansugoroku_fast.parse_play`)
    resolves it against the legal plays.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(
            f"play notation must be a str such as '24/18 13/11*', got {type(text).__name__}"
        )
    hops: list[Hop] = []
    cleaned = text.lower().replace(",", " ").replace("-", "/")
    cleaned = re.sub(r"\bb(ar)?\b", "bar", cleaned)
    cleaned = re.sub(r"\bo(ff)?\b", "off", cleaned)
    for word in cleaned.split():
        repeat = 1
        match = _REPEATED.match(word)
        if match:
            word, repeat = match.group(1), int(match.group(2))
            if not 1 <= repeat <= MAX_MOVES:
                raise InvalidNotationError(
                    f"cannot repeat {word!r} {repeat} times in {text!r}: a turn has 1 to {MAX_MOVES} moves"
                )
        points = [_point(token, text) for token in word.split("/")]
        if len(points) < 2:
            raise InvalidNotationError(f"a move needs 'from/to', got {word!r} in {text!r}")
        for origin, target in pairwise(points):
            _check_direction(origin, target, text)
        for _ in range(repeat):
            hops.extend(pairwise(points))
    return sorted(hops, reverse=True)


def _check_direction(origin: int, target: int, text: str) -> None:
    """Stones move from higher points to lower ones (bar 25 first, off 0 last)."""
    if origin == target:
        raise InvalidNotationError(f"{point_name(origin)}/{point_name(target)} in {text!r} goes nowhere")
    if origin < target:
        raise InvalidNotationError(
            f"{point_name(origin)}/{point_name(target)} in {text!r} runs backward: "
            "a stone moves from a higher point to a lower one"
        )


def _net_change(hops: Iterable[Hop]) -> tuple[int, ...]:
    """How the hops change the mover's row: what every way of writing (or
    ordering) the same stone movements has in common."""
    change = [0] * 26
    for origin, target in hops:
        change[origin] -= 1
        change[target] += 1
    return tuple(change)


def _hit_points(play: Play) -> set[int]:
    """The points where ``play`` hits."""
    return {target for (_, target), hit in zip(play.steps, play.hits) if hit}


def match_play(plays: Sequence[Play], text: str) -> Play:
    """The play among ``plays`` that ``text`` names, read leniently.

    The text must move the same stones to the same places as the play, in any
    order and grouping (``24/13``, ``24/18/13`` and ``24/18 18/13`` are one);
    hit marks, where given, must name the points the play hits. Without hit
    marks, a play that hits nothing is preferred; if several plays remain,
    :class:`~bansugoroku_fast.errors.AmbiguousPlayError` says which plays the
    text could be; text naming no legal play raises
    :class:`~bansugoroku_fast.errors.IllegalPlayError`, unreadable text
    :class:`~bansugoroku_fast.errors.InvalidNotationError`.
    """
    change = _net_change(parse_moves(text))
    candidates = [play for play in plays if _net_change(play.steps) == change]
    marked = {int(point) for point in re.findall(r"(\d+)\*", text, re.ASCII)}
    if marked:
        candidates = [p for p in candidates if _hit_points(p) == marked]
    elif len(candidates) > 1:
        candidates = [p for p in candidates if not any(p.hits)] or candidates
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        legal = ", ".join(str(play) for play in plays) or "none (the turn passes)"
        raise IllegalPlayError(f"{text!r} is not a legal play here; legal plays: {legal}")
    names = ", ".join(str(play) for play in candidates)
    raise AmbiguousPlayError(f"{text!r} is ambiguous: it could be {names}")
