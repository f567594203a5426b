"""Match equity tables: each player's chance of winning a match from each
score, read from GNU Backgammon's ``met/*.xml`` files and looked up as GNU
Backgammon's matchequity.c does.

Conventions, as GNU Backgammon's:

* a score is ``(player 0's score, player 1's score)`` in a match to
  ``length`` points; a player ``n``-away needs ``n`` more points;
* a chance is a *match winning chance* (MWC), in [0, 1];
* ``crawford=True`` is the Crawford game (one player 1-away, no doubling);
  a game with a player 1-away and ``crawford=False`` is post-Crawford.

A table holds ``pre_crawford[i, j]``, player 0's chance with player 0
``i + 1``-away and player 1 ``j + 1``-away (the pre-Crawford games; a row or
column 0 is the Crawford game), and ``post_crawford[k, n]``, player ``k``'s
chance in a post-Crawford game, ``k`` trailing ``n + 1``-away. Every table
is extended to 64-away (:data:`MAX_SCORE`) as GNU Backgammon extends it.

GNU Backgammon holds its tables and computes in float32, and so does this
module (``np.float32`` arithmetic, operation by operation as GNU
Backgammon's C has it; the arrays are float64 holding float32 values). The
entries a file gives and the post-Crawford tables equal Debian's GNU
Backgammon 1.07 bit for bit; the entries the extension computes may differ
by one float32 step (about 6e-8: that build's erf rounds its last bit
otherwise), and so may the figures drawn from them. Converting an MWC to
equity far from the end of a long match divides by the difference of two
close chances and magnifies that step.

>>> met = MatchEquityTable.default()
>>> met.name
'Kazaross XG2 25 point MET'
>>> met.match_winning_chance((0, 0), 7)
0.5
>>> round(met.match_winning_chance((4, 0), 7), 5)   # 3-away against 7-away
0.76209
>>> met.after_win((5, 0), 7, player=0, winner=0, points=2)   # a gammon ends the match
1.0
>>> met.match_winning_chance((7, 0), 7)
Traceback (most recent call last):
...
bansugoroku_fast.errors.MatchEquityQueryError: score (7, 0) is not a score of a 7-point match: each score is 0..6
"""
from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass, field
from typing import Any, overload
from xml.parsers import expat

import numpy as np
import numpy.typing as npt

from ..errors import (
    ArgumentTypeError,
    MatchEquityQueryError,
    MatchEquityQueryTypeError,
    MatchEquityTableError,
)

__all__ = ["MAX_SCORE", "RESULT_MULTIPLES", "MatchEquityTable"]

#: The away counts every table reaches (GNU Backgammon's MAXSCORE).
MAX_SCORE = 64
#: The multiples of the cube whose results :meth:`MatchEquityTable.results`
#: gives: a single game, a doubled single game, a backgammon, a doubled
#: gammon, a doubled backgammon (GNU Backgammon's getMEMultiple).
RESULT_MULTIPLES = (1, 2, 3, 4, 6)

FloatArray = npt.NDArray[np.float64]
F32 = np.float32
#: An ``np.float32`` value. Typed Any: mypy checks the package as Python 3.10, for which the installed
#: numpy's stubs type float32 arithmetic as Any anyway.
Float32 = Any
ONE, HALF = F32(1.0), F32(0.5)

DEFAULT_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "kazaross-xg2.xml")
KINDS = ("explicit", "zadeh", "mec")
PLAYERS = {"both": (0, 1), "0": (0,), "1": (1,)}
#: GNU Backgammon's defaults for the parameters of each computed table.
PARAMETERS = {
    ("pre", "zadeh"): {"gammon-rate-leader": 0.25, "gammon-rate-trailer": 0.15, "delta": 0.08, "delta-bar": 0.06},
    ("pre", "mec"): {"gammon-rate": 0.15, "win-rate": 0.5},
    ("post", "zadeh"): {"gammon-rate-trailer": 0.25, "free-drop-2-away": 0.015, "free-drop-4-away": 0.004},
    ("post", "mec"): {"gammon-rate": 0.25, "free-drop-2-away": 0.015, "free-drop-4-away": 0.004, "win-rate": 0.5},
}
#: The post-Crawford parameters that extend a table given whole (GNU Backgammon's GAMMONRATE and free drops).
EXTENSION = {"gammon-rate-trailer": 0.25, "free-drop-2-away": 0.015, "free-drop-4-away": 0.004}
#: The standard deviation of the points of a game at 1..10-away (ExtendMET); 1.77 beyond.
STDDEV_AWAY = (0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72, 1.77)
GAMMON_PRICE_EPSILON = F32(1.0e-7)
SQRT2 = F32(math.sqrt(2.0))  # sqrtf(2)


def as_float32(value: float) -> float:
    """``value`` rounded to float32, as GNU Backgammon stores its numbers.

    >>> as_float32(0.1)
    0.10000000149011612
    """
    return float(F32(value))


# ---------------------------------------------------------------- reading


@dataclass
class _Element:
    """An XML element with the line it starts on."""

    tag: str
    attributes: dict[str, str]
    line: int
    text: str = ""
    children: list[_Element] = field(default_factory=list)

    def all(self, tag: str) -> list[_Element]:
        return [child for child in self.children if child.tag == tag]

    def first(self, tag: str) -> _Element | None:
        found = self.all(tag)
        return found[0] if found else None


@dataclass
class _Part:
    """One table of a file: its kind, and its entries (explicit) or parameters."""

    kind: str
    line: int
    entries: list[list[tuple[float, int]]] = field(default_factory=list)   # rows of (value, line)
    parameters: dict[str, float] = field(default_factory=dict)


@dataclass
class _Source:
    """What a file says: its information and its three tables."""

    name: str
    description: str
    length: int
    pre: _Part
    post: tuple[_Part, _Part]


def _read_elements(path: str) -> _Element:
    """The root element of the file at ``path``."""
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        raise MatchEquityTableError(f"cannot read the file: {error.strerror}", path) from error
    parser = expat.ParserCreate()
    stack: list[_Element] = [_Element("", {}, 0)]

    def start(tag: str, attributes: dict[str, str]) -> None:
        element = _Element(tag, attributes, parser.CurrentLineNumber)
        stack[-1].children.append(element)
        stack.append(element)

    def text(data: str) -> None:
        stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda tag: stack.pop()
    parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        raise MatchEquityTableError(f"not well-formed XML: {expat.ErrorString(error.code)}",
                                    path, error.lineno) from error
    return stack[0].children[0]


def _number(element: _Element, path: str) -> float:
    """The float32 number ``element`` holds."""
    try:
        return as_float32(float(element.text.strip()))
    except (ValueError, OverflowError):
        raise MatchEquityTableError(f"<{element.tag}> holds {element.text.strip()!r}, not a number",
                                    path, element.line) from None


def _length(info: _Element | None, path: str, line: int) -> int:
    """The table's native length: -1 (computed from parameters) or 1..64."""
    element = info.first("length") if info is not None else None
    if element is None:
        raise MatchEquityTableError("the file has no <info><length>", path, line)
    text = element.text.strip()
    if not text.lstrip("-").isdigit() or not (int(text) == -1 or 1 <= int(text) <= MAX_SCORE):
        raise MatchEquityTableError(f"<length> is {text!r}; a table's length is -1 or 1..{MAX_SCORE}",
                                    path, element.line)
    return int(text)


def _parameters(table: _Element, group: str, kind: str, path: str) -> dict[str, float]:
    """The parameters a computed table names, by name."""
    known = PARAMETERS[group, kind]
    found: dict[str, float] = {}
    for holder in table.all("parameters"):
        for parameter in holder.all("parameter"):
            name = parameter.attributes.get("name", "")
            if name not in known:
                raise MatchEquityTableError(f"a {kind} table has no parameter {name!r}; it has "
                                            + ", ".join(known), path, parameter.line)
            found[name] = _number(parameter, path)
    return found


def _part(table: _Element, group: str, path: str) -> _Part:
    """One ``<pre-crawford-table>`` or ``<post-crawford-table>``."""
    kind = table.attributes.get("type", "explicit")
    if kind not in KINDS:
        raise MatchEquityTableError(f"table type {kind!r} is not one of " + ", ".join(KINDS), path, table.line)
    if kind != "explicit":
        return _Part(kind, table.line, parameters=_parameters(table, group, kind, path))
    rows = [[(_number(me, path), me.line) for me in row.all("me")] for row in table.all("row")]
    return _Part(kind, table.line, entries=rows)


def _post_parts(root: _Element, path: str) -> tuple[_Part, _Part]:
    """The post-Crawford tables of players 0 and 1. A table for ``both``
    whose kind is computed gives its parameters to player 0 only: player 1's
    takes the defaults (as GNU Backgammon's reader does)."""
    parts: list[_Part | None] = [None, None]
    for table in root.all("post-crawford-table"):
        player = table.attributes.get("player", "both")
        if player not in PLAYERS:
            raise MatchEquityTableError(f"post-Crawford player {player!r} is not 0, 1 or both", path, table.line)
        part = _part(table, "post", path)
        for k in PLAYERS[player]:
            if parts[k] is not None:
                raise MatchEquityTableError(f"a second post-Crawford table for player {k}", path, table.line)
            parts[k] = part if k == 0 or player != "both" else _Part(part.kind, part.line, part.entries)
    for k in (0, 1):
        if parts[k] is None:
            raise MatchEquityTableError(f"the file has no post-Crawford table for player {k}", path)
    return parts[0], parts[1]  # type: ignore[return-value]


def _read_source(path: str) -> _Source:
    """What the file at ``path`` says."""
    root = _read_elements(path)
    if root.tag != "met":
        raise MatchEquityTableError(f"the root element is <{root.tag}>, not <met>", path, root.line)
    info = root.first("info")
    pre_tables = root.all("pre-crawford-table")
    if len(pre_tables) != 1:
        raise MatchEquityTableError(f"a table has one <pre-crawford-table>, this file {len(pre_tables)}", path)
    name = info.first("name") if info is not None else None
    description = info.first("description") if info is not None else None
    return _Source(name=name.text.strip() if name is not None else "",
                   description=description.text.strip() if description is not None else "",
                   length=_length(info, path, root.line),
                   pre=_part(pre_tables[0], "pre", path), post=_post_parts(root, path))


# ---------------------------------------------------------------- checking a file's entries


def _check_range(rows: list[list[tuple[float, int]]], what: str, path: str) -> None:
    for row in rows:
        for value, line in row:
            if not 0.0 <= value <= 1.0:
                raise MatchEquityTableError(f"{what} holds {value!r}, outside [0, 1]", path, line)


def _pre_entries(part: _Part, length: int, path: str) -> FloatArray:
    """A pre-Crawford table given whole: ``length`` rows of ``length``
    chances, each in [0, 1], rising with player 0's lead."""
    if len(part.entries) != length or any(len(row) != length for row in part.entries):
        shape = [len(row) for row in part.entries]
        raise MatchEquityTableError(f"the pre-Crawford table must be {length} rows of {length} values "
                                    f"(the table's length); it has {len(shape)} rows of {shape}", path, part.line)
    _check_range(part.entries, "the pre-Crawford table", path)
    table = np.array([[value for value, _ in row] for row in part.entries])
    for i in range(length):
        for j in range(length):
            _check_rising(part, table, i, j, path)
    return table


def _check_rising(part: _Part, table: FloatArray, i: int, j: int, path: str) -> None:
    """Player 0's chance at ``(i, j)`` is no more than at one point less
    away, and no less than with the opponent one point further away."""
    nearer = table[i - 1, j] if i > 0 else 1.0
    farther_opponent = table[i, j + 1] if j + 1 < len(table) else 1.0
    if table[i, j] > nearer or table[i, j] > farther_opponent:
        raise MatchEquityTableError(
            f"the pre-Crawford chance at {i + 1}-away, {j + 1}-away ({table[i, j]!r}) is more than at "
            f"{i}-away, {j + 1}-away or at {i + 1}-away, {j + 2}-away: chances must rise with the lead",
            path, part.entries[i][j][1])


def _post_entries(part: _Part, length: int, player: int, path: str) -> list[float]:
    """The first ``length - 1`` chances of a post-Crawford table given
    whole (GNU Backgammon extends from ``length - 1``: the trailer is at
    most ``length - 1``-away after the Crawford game), falling as the
    trailer falls behind."""
    values = [entry for row in part.entries for entry in row]
    if len(values) < length - 1:
        raise MatchEquityTableError(f"player {player}'s post-Crawford table has {len(values)} values; a table "
                                    f"of length {length} needs {length - 1}", path, part.line)
    values = values[:max(length - 1, 0)]
    _check_range([values], f"player {player}'s post-Crawford table", path)
    for n in range(1, len(values)):
        if values[n][0] > values[n - 1][0]:
            raise MatchEquityTableError(
                f"player {player}'s post-Crawford chance at {n + 1}-away ({values[n][0]!r}) is more than at "
                f"{n}-away: chances must fall as the trailer falls behind", path, values[n][1])
    return [value for value, _ in values]


# ---------------------------------------------------------------- building the tables


def _parameter(part: _Part, group: str, name: str) -> float:
    return part.parameters.get(name, as_float32(PARAMETERS[group, part.kind][name]))


def _extend_post(table: list[float], start: int, gammon_rate: float, free_drop_2: float,
                 free_drop_4: float) -> list[float]:
    """Zadeh's post-Crawford recursion from ``start``-away (0-based) to
    64-away, in float32: the trailer wins a single game (half the games,
    less the gammons) or a gammon; minus the free drop's value at 2- and
    4-away (GNU Backgammon's initPostCrawfordMET)."""
    rate = F32(gammon_rate)
    chances = [F32(chance) for chance in table[:start]]
    for n in range(start, MAX_SCORE):
        after_gammon = chances[n - 4] if n >= 4 else ONE
        after_single = chances[n - 2] if n >= 2 else ONE
        chance = rate * HALF * after_gammon + (ONE - rate) * HALF * after_single
        chance -= F32(free_drop_2) if n == 1 else F32(free_drop_4) if n == 3 else F32(0.0)
        chances.append(chance)
    return [float(chance) for chance in chances]


def _mec_post(gammon_rate: float, free_drop_2: float, free_drop_4: float, win_rate: float) -> list[float]:
    """Claes Thornberg's mec post-Crawford chances of the trailer (GNU
    Backgammon's mec_pc), rounded to float32. ``trailer[n]``: the trailer
    ``n``-away, the leader 1-away; the trailer wins ``win_rate`` of the
    games, ``gammon_rate`` of them gammons. At an even away count the
    trailer's chance is that one point nearer (the free drop), less
    ``free_drop_2`` at 2-away and *plus* ``free_drop_4`` at 4-away, as
    mec.c has it.

    >>> [round(chance, 4) for chance in _mec_post(0.25, 0.015, 0.004, 0.5)[:5]]
    [0.5, 0.485, 0.3125, 0.3165, 0.1797]
    """
    trailer = [1.0, win_rate] + [0.0] * (MAX_SCORE - 1)   # [0]: the trailer has won
    for n in range(2, MAX_SCORE + 1):
        if n % 2 == 0:
            trailer[n] = trailer[n - 1] - (free_drop_2 if n == 2 else 0.0) + (free_drop_4 if n == 4 else 0.0)
        else:
            trailer[n] = (trailer[max(n - 2, 0)] * win_rate * (1 - gammon_rate)
                          + trailer[max(n - 4, 0)] * win_rate * gammon_rate)
    return [as_float32(chance) for chance in trailer[1:]]


def _post_table(part: _Part, length: int, player: int, path: str) -> list[float]:
    """Player ``player``'s post-Crawford chances, 1- to 64-away."""
    if part.kind == "explicit":
        given = _post_entries(part, length, player, path)
        extension = [as_float32(EXTENSION[name]) for name in EXTENSION]
        return _extend_post(given, len(given), *extension)
    if part.kind == "zadeh":
        names = ("gammon-rate-trailer", "free-drop-2-away", "free-drop-4-away")
        return _extend_post([], 0, *(_parameter(part, "post", name) for name in names))
    mec_names = ("gammon-rate", "free-drop-2-away", "free-drop-4-away", "win-rate")
    return _mec_post(*(_parameter(part, "post", name) for name in mec_names))


def _normal_below(x: Float32, sigma: Float32) -> Float32:
    """The area of N(0, sigma) below ``x``: erf in double, stored in float32."""
    return F32((math.erf(float(x / sigma / SQRT2)) + 1.0) / 2.0)


def _stddev(away: int) -> Float32:
    return F32(STDDEV_AWAY[away] if away <= 10 else 1.77)


def _extended_entry(i: int, j: int) -> Float32:
    """David Montgomery's estimate of player 0's chance at ``i + 1``-away,
    ``j + 1``-away (``j <= i``): the points of ``(i + j + 2) / 2`` games,
    normally distributed, make up player 1's lead (GNU Backgammon's
    ExtendMET, in float32)."""
    lead = F32((i + 1) - (j + 1))
    spread = _stddev(i + 1) * _stddev(i + 1) + _stddev(j + 1) * _stddev(j + 1)
    sigma = np.sqrt(spread) * np.sqrt(F32(i + j + 2) / F32(2.0))
    if not F32(6.0) * sigma > lead:
        return F32(0.0)
    return _normal_below(F32(6.0) * sigma, sigma) - _normal_below(lead, sigma)


def _extend_pre(table: FloatArray, length: int) -> None:
    """Extend ``table`` from ``length``-away to 64-away (GNU Backgammon's
    ExtendMET). A table of length -1 (computed from parameters) is
    replaced whole, as GNU Backgammon replaces it."""
    native = max(length, 0)
    for i in range(native, MAX_SCORE):
        for j in range(i + 1):
            table[i, j] = _extended_entry(i, j)
    for i in range(MAX_SCORE):
        for j in range(native if i < native else i + 1, MAX_SCORE):
            table[i, j] = ONE - F32(table[j, i])


def _pre_table(part: _Part, length: int, path: str) -> FloatArray:
    """The pre-Crawford table, 64 by 64."""
    table = np.zeros((MAX_SCORE, MAX_SCORE))
    if part.kind == "explicit":
        if length < 1:
            raise MatchEquityTableError("a table given whole needs a <length> of 1..64", path, part.line)
        table[:length, :length] = _pre_entries(part, length, path)
    elif length >= 1:
        raise MatchEquityTableError(f"a {part.kind} pre-Crawford table of <length> {length}: only -1 "
                                    f"(the table replaced by the extension, as GNU Backgammon's files have it) "
                                    f"is read", path, part.line)
    _extend_pre(table, length)
    return table


def _check_computed(table: FloatArray, what: str, path: str) -> None:
    if not np.all(np.isfinite(table)) or table.min() < 0.0 or table.max() > 1.0:
        raise MatchEquityTableError(f"the {what} parameters give chances outside [0, 1]", path)


# ---------------------------------------------------------------- checking arguments


def _integer(value: Any, what: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise MatchEquityQueryTypeError(f"{what} must be an integer, got {value!r}")
    return int(value)


def _player(value: Any, what: str = "player") -> int:
    player = _integer(value, what)
    if player not in (0, 1):
        raise MatchEquityQueryError(f"{what} must be 0 or 1, got {player}")
    return player


def _cube(value: Any) -> int:
    cube = _integer(value, "cube")
    if cube < 1 or cube & (cube - 1):
        raise MatchEquityQueryError(f"a cube is a power of two 1, 2, 4, ..., got {cube}")
    return cube


def _real(value: Any, what: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise MatchEquityQueryTypeError(f"{what} must be a real number, got {value!r}")
    if not math.isfinite(value):
        raise MatchEquityQueryError(f"{what} must be finite, got {value!r}")
    return float(value)


def _away(score: Any, length: Any, crawford: Any) -> tuple[int, int]:
    """The 0-based away counts of ``score`` (GNU Backgammon's ``nMatchTo -
    score - 1``), checked."""
    length = _integer(length, "length")
    if not 1 <= length <= MAX_SCORE:
        raise MatchEquityQueryError(f"a match length is 1..{MAX_SCORE} (the table's reach), got {length}")
    if not isinstance(score, (tuple, list)) or len(score) != 2:
        raise MatchEquityQueryTypeError(f"a score is a pair (player 0's, player 1's), got {score!r}")
    scores = (_integer(score[0], "a score"), _integer(score[1], "a score"))
    if not all(0 <= s < length for s in scores):
        raise MatchEquityQueryError(f"score {scores} is not a score of a {length}-point match: "
                                    f"each score is 0..{length - 1}")
    if not isinstance(crawford, (bool, np.bool_)):
        raise MatchEquityQueryTypeError(f"crawford must be a bool, got {crawford!r}")
    if crawford and length - 1 not in scores:
        raise MatchEquityQueryError(f"a Crawford game needs a player 1-away; score {scores} of a {length}-point "
                                    f"match has none")
    return length - scores[0] - 1, length - scores[1] - 1


def _probabilities(values: Any) -> tuple[float, ...]:
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise MatchEquityQueryTypeError(f"probabilities must be five real numbers, got {values!r}") from None
    if array.shape != (5,) or not np.all(np.isfinite(array)) or array.min() < 0.0 or array.max() > 1.0:
        raise MatchEquityQueryError("probabilities are five numbers in [0, 1] (P(win), P(win gammon), "
                                    f"P(win backgammon), P(lose gammon), P(lose backgammon)), got {values!r}")
    return tuple(float(p) for p in array)


# ---------------------------------------------------------------- the table


@dataclass(frozen=True, eq=False)
class MatchEquityTable:
    """A match equity table, extended to 64-away: a value (its arrays are
    read-only; two tables with the same name, description and chances are
    equal).

    ``pre_crawford``: float64[64, 64], player 0's chance, player 0
    ``i + 1``-away and player 1 ``j + 1``-away; ``post_crawford``:
    float64[2, 64], player ``k``'s chance in a post-Crawford game, ``k``
    ``n + 1``-away; ``native_length``: the away count the file's table
    reached before the extension (-1: computed from parameters).

    Parameters
    ----------
    name : str
        The table's name (``"Kazaross-XG2"``...).
    description : str
        Its description, as its file gives it.
    native_length : int
        The away count the file's table reached before the extension to 64
        (-1: computed from parameters).
    pre_crawford : numpy.ndarray
        ``float64[64, 64]``: player 0's chance, player 0 ``i + 1``-away and
        player 1 ``j + 1``-away.
    post_crawford : numpy.ndarray
        ``float64[2, 64]``: player ``k``'s chance in a post-Crawford game,
        ``k`` ``n + 1``-away.

    Examples
    --------
    >>> met = MatchEquityTable.default()
    >>> met.pre_crawford.shape, met.post_crawford.shape, met.native_length
    ((64, 64), (2, 64), 25)
    """

    name: str
    description: str
    native_length: int
    pre_crawford: FloatArray
    post_crawford: FloatArray

    def __post_init__(self) -> None:
        for attribute, shape in (("pre_crawford", (MAX_SCORE, MAX_SCORE)), ("post_crawford", (2, MAX_SCORE))):
            array = np.array(getattr(self, attribute), dtype=np.float64)
            if array.shape != shape:
                raise MatchEquityTableError(f"{attribute} must have shape {shape}, got {array.shape}")
            if not np.all(np.isfinite(array)) or array.min() < 0.0 or array.max() > 1.0:
                raise MatchEquityTableError(f"{attribute} holds chances outside [0, 1]")
            array.flags.writeable = False
            object.__setattr__(self, attribute, array)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchEquityTable):
            return NotImplemented
        return (self.name, self.description, self.native_length) == (other.name, other.description,
                                                                     other.native_length) \
            and np.array_equal(self.pre_crawford, other.pre_crawford) \
            and np.array_equal(self.post_crawford, other.post_crawford)

    def __hash__(self) -> int:
        return hash((self.name, self.pre_crawford.tobytes(), self.post_crawford.tobytes()))

    def __repr__(self) -> str:
        return f"<MatchEquityTable {self.name!r}>"

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MatchEquityTable:
        """The table in GNU Backgammon's ``met/*.xml`` file at ``path``:
        a table given whole (``explicit``) or computed from parameters
        (``zadeh``, ``mec``), extended to 64-away as GNU Backgammon's
        InitMatchEquity extends it.

        >>> MatchEquityTable.load("no/such.xml")
        Traceback (most recent call last):
        ...
        bansugoroku_fast.errors.MatchEquityTableError: no/such.xml: cannot read the file: No such file or directory
        """
        if not isinstance(path, (str, os.PathLike)):
            raise ArgumentTypeError(f"a table's path is a str or os.PathLike, got {path!r}")
        path = os.fspath(path)
        source = _read_source(path)
        post = np.array([_post_table(part, source.length, k, path) for k, part in enumerate(source.post)])
        _check_computed(post, "post-Crawford", path)
        pre = _pre_table(source.pre, source.length, path)
        _check_computed(pre, "pre-Crawford", path)
        return cls(source.name, source.description, source.length, pre, post)

    @classmethod
    def default(cls) -> MatchEquityTable:
        """GNU Backgammon's default table, Kazaross-XG2 (shipped with the
        package; loaded once).

        >>> MatchEquityTable.default() is MatchEquityTable.default()
        True
        """
        return _default_table()

    # ------------------------------------------------------------ look-ups

    def _chance(self, away: tuple[int, int], post_crawford: bool, player: int) -> Float32:
        """``player``'s chance at the 0-based away counts ``away`` (below 0:
        that player has won), in a post-Crawford game or not."""
        if away[0] < 0 or away[1] < 0:
            return ONE if away[player] < 0 else F32(0.0)
        if post_crawford:
            trailer = 1 if away[0] == 0 else 0
            chance = F32(self.post_crawford[trailer, away[trailer]])
            return chance if player == trailer else ONE - chance
        chance = F32(self.pre_crawford[away])
        return chance if player == 0 else ONE - chance

    def _after(self, away: tuple[int, int], crawford: bool, player: int, winner: int, points: int) -> Float32:
        """GNU Backgammon's getME at checked arguments."""
        next_post_crawford = crawford or 0 in away
        after = (away[0] - points, away[1]) if winner == 0 else (away[0], away[1] - points)
        return self._chance(after, next_post_crawford, player)

    def match_winning_chance(self, score: tuple[int, int], length: int, player: int = 0,
                             crawford: bool = False) -> float:
        """``player``'s chance of winning the match at ``score`` (GNU
        Backgammon's getMEAtScore). With a player 1-away, the game is the
        Crawford game if ``crawford``, else post-Crawford.

        >>> met = MatchEquityTable.default()
        >>> met.match_winning_chance((6, 6), 7)
        0.5
        >>> round(met.match_winning_chance((6, 5), 7, player=1), 5)   # post-Crawford 2-away
        0.48803
        """
        away = _away(score, length, crawford)
        post_crawford = not crawford and 0 in away
        return float(self._chance(away, post_crawford, _player(player)))

    def after_win(self, score: tuple[int, int], length: int, *, player: int, winner: int, points: int,
                  crawford: bool = False) -> float:
        """``player``'s chance once ``winner`` has won ``points`` points at
        ``score`` (GNU Backgammon's getME): 1.0 or 0.0 when that ends the
        match; the next game is post-Crawford once a player is 1-away.

        >>> met = MatchEquityTable.default()
        >>> round(met.after_win((0, 0), 7, player=0, winner=0, points=2), 5)   # 5-away, 7-away
        0.62638
        """
        away = _away(score, length, crawford)
        points = _integer(points, "points")
        if points < 1:
            raise MatchEquityQueryError(f"points won must be at least 1, got {points}")
        return float(self._after(away, crawford, _player(player), _player(winner, "winner"), points))

    def _results(self, away: tuple[int, int], crawford: bool, cube: int) -> FloatArray:
        results = np.empty((2, 2 * len(RESULT_MULTIPLES)))
        for player in (0, 1):
            for k, multiple in enumerate(RESULT_MULTIPLES):
                results[player, k] = self._after(away, crawford, player, player, multiple * cube)
                results[player, k + len(RESULT_MULTIPLES)] = self._after(away, crawford, player, 1 - player,
                                                                         multiple * cube)
        return results

    def results(self, score: tuple[int, int], length: int, cube: int = 1, crawford: bool = False) -> FloatArray:
        """float64[2, 10]: ``[p, k]`` is player ``p``'s chance once ``p``
        has won (``k`` < 5) or lost (``k`` >= 5) ``RESULT_MULTIPLES[k % 5]``
        times ``cube`` points (GNU Backgammon's getMEMultiple, both players'
        rows in the same order).

        >>> met = MatchEquityTable.default()
        >>> r = met.results((0, 0), 7)
        >>> r.shape, round(float(r[0, 1]), 5), round(float(r[1, 6]), 5)
        ((2, 10), 0.62638, 0.37362)
        """
        return self._results(_away(score, length, crawford), crawford, _cube(cube))

    def gammon_values(self, score: tuple[int, int], length: int, cube: int = 1,
                      crawford: bool = False) -> FloatArray:
        """float64[4]: the gammon and backgammon prices at ``score`` with
        ``cube``, in GNU Backgammon's order (its cubeinfo's
        ``arGammonPrice``): player 0's gammon, player 1's gammon, player
        0's backgammon, player 1's backgammon; each the extra equity it
        wins on a scale where a single game is worth 1 (calcGammonPrices;
        a dead gammon is 0). The Crawford flag changes nothing: the next
        game is post-Crawford either way.

        >>> met = MatchEquityTable.default()
        >>> [round(float(v), 4) for v in met.gammon_values((0, 0), 7)]
        [1.0185, 1.0185, 1.1637, 1.1637]
        """
        away = _away(score, length, crawford)
        cube = _cube(cube)
        win, win_gammon, win_backgammon, lose, lose_gammon, lose_backgammon = (
            self._after(away, False, 0, winner, multiple * cube) for winner in (0, 1) for multiple in (1, 2, 3))
        centre = (win + lose) / F32(2.0)
        if not abs(win - centre) > GAMMON_PRICE_EPSILON:
            return np.zeros(4)
        gammon = (win_gammon - centre) / (win - centre) - ONE
        gammon_lost = (centre - lose_gammon) / (win - centre) - ONE
        prices = np.array([gammon, gammon_lost, (win_backgammon - centre) / (win - centre) - (gammon + ONE),
                           (centre - lose_backgammon) / (win - centre) - (gammon_lost + ONE)], dtype=np.float64)
        return np.where(prices > 0.0, prices, 0.0)

    def _win_lose(self, score: tuple[int, int], length: int, player: int, cube: int,
                  crawford: bool) -> tuple[Float32, Float32]:
        """``player``'s chance after winning and after losing ``cube`` points."""
        away = _away(score, length, crawford)
        player, cube = _player(player), _cube(cube)
        return (self._after(away, crawford, player, player, cube),
                self._after(away, crawford, player, 1 - player, cube))

    def eq_to_mwc(self, equity: float, score: tuple[int, int], length: int, player: int = 0, cube: int = 1,
                  crawford: bool = False) -> float:
        """``player``'s match winning chance for a game equity ``equity``
        (per cube; -1 loses ``cube`` points, +1 wins them), interpolated
        linearly (GNU Backgammon's eq2mwc).

        >>> met = MatchEquityTable.default()
        >>> round(met.eq_to_mwc(0.5, (0, 0), 7, cube=2), 5)   # half way to 5-away, 7-away
        0.56319
        """
        win, lose = self._win_lose(score, length, player, cube, crawford)
        return float(HALF * (F32(_real(equity, "equity")) * (win - lose) + (win + lose)))

    @overload
    def mwc_to_eq(self, mwc: float, score: tuple[int, int], length: int, player: int = 0, cube: int = 1,
                  crawford: bool = False) -> float: ...

    @overload
    def mwc_to_eq(self, mwc: np.ndarray, score: tuple[int, int], length: int, player: int = 0, cube: int = 1,
                  crawford: bool = False) -> np.ndarray: ...

    def mwc_to_eq(self, mwc: float | np.ndarray, score: tuple[int, int], length: int, player: int = 0,
                  cube: int = 1, crawford: bool = False) -> float | np.ndarray:
        """The game equity of ``player`` whose match winning chance is
        ``mwc`` (GNU Backgammon's mwc2eq; the inverse of :meth:`eq_to_mwc`);
        an array of chances gives an array of equities.

        >>> met = MatchEquityTable.default()
        >>> met.mwc_to_eq(0.5, (0, 0), 7)
        0.0
        >>> round(met.mwc_to_eq(0.56319, (0, 0), 7, cube=2), 4)
        0.5
        >>> met.mwc_to_eq(np.array([0.5, 0.56319]), (0, 0), 7, cube=2).round(4).tolist()
        [0.0, 0.5]
        """
        win, lose = self._win_lose(score, length, player, cube, crawford)
        if win == lose:
            raise MatchEquityQueryError(f"at score {tuple(score)} of a {length}-point match, winning and losing "
                                        f"{cube} points leave player {player} the same chance ({float(win)}): no "
                                        f"equity gives an MWC there")
        if isinstance(mwc, np.ndarray):     # many at once, each as the scalar's float32 arithmetic gives it
            if not np.all(np.isfinite(mwc)):
                raise MatchEquityQueryError("mwc must be finite")
            many: np.ndarray = ((F32(2.0) * mwc.astype(np.float32) - (win + lose)) / (win - lose)).astype(np.float64)
            return many
        return float((F32(2.0) * F32(_real(mwc, "mwc")) - (win + lose)) / (win - lose))

    def live_cash_points(self, probabilities: Any, score: tuple[int, int], length: int, cube: int = 1,
                         crawford: bool = False, *, player: int = 0) -> tuple[float, float]:
        """Players 0's and 1's live-cube cash points (GNU Backgammon's
        GetPoints): the chance of winning the game at which each would
        cash, given the gammon and backgammon rates of ``probabilities``
        (five cubeless probabilities in GNU Backgammon's order, for
        ``player`` on roll: P(win), P(win gammon), P(win backgammon),
        P(lose gammon), P(lose backgammon)). From the highest cube still
        alive down to ``cube``: where a redouble would be dead the cash
        point is the dead cube's, else it follows the opponent's at the
        next cube.

        >>> met = MatchEquityTable.default()
        >>> [round(p, 4) for p in met.live_cash_points([0.5, 0, 0, 0, 0], (0, 0), 7)]
        [0.7975, 0.7975]
        """
        rates = _rates(_probabilities(probabilities), _player(player))
        away = _away(score, length, crawford)
        cube = _cube(cube)
        cubes = [cube]
        while away[0] >= 2 * cubes[-1] and away[1] >= 2 * cubes[-1]:
            cubes.append(2 * cubes[-1])
        live = [ONE, ONE]  # unused at the highest cube: its redouble is dead
        for value in reversed(cubes):
            live = self._cash_points_at(away, crawford, value, rates, live)
        return float(live[0]), float(live[1])

    def _cash_points_at(self, away: tuple[int, int], crawford: bool, cube: int, rates: Rates,
                        above: list[Float32]) -> list[Float32]:
        """Both players' cash points with ``cube``, given ``above``, theirs
        with the cube doubled."""
        results = self._results(away, crawford, cube).astype(np.float32)
        points = []
        for k in (0, 1):
            cash = results[k, 0]
            if away[0] < 2 * cube or away[1] < 2 * cube:     # the doubled cube is dead
                prime = self._results(away, crawford, cube_prime(away[k], away[1 - k], cube))[k].astype(np.float32)
                take_lose = _mix(rates[1 - k], prime[6], prime[8], prime[9])
                take_win = _mix(rates[k], prime[1], prime[3], prime[4])
                points.append((take_lose - cash) / (take_lose - take_win))
            else:
                take_win = _mix(rates[k], results[k, 1], results[k, 3], results[k, 4])
                points.append(ONE - above[1 - k] * (cash - take_win) / (results[k, 6] - take_win))
        return points


Rates = tuple[tuple[Float32, Float32], tuple[Float32, Float32]]


def _mix(rates: tuple[Float32, Float32], single: Float32, gammon: Float32,
         backgammon: Float32) -> Float32:
    """The chance of a game won (or lost) single, gammon or backgammon in
    the proportions ``rates`` (gammon, backgammon)."""
    return (ONE - rates[0] - rates[1]) * single + rates[0] * gammon + rates[1] * backgammon


def cube_prime(away: int, opponent_away: int, cube: int) -> int:
    """The cube a player's take is played on: doubled again at once when
    the player needs less than twice ``cube`` and the opponent does not
    (the opponent's automatic redouble; GNU Backgammon's
    GetCubePrimeValue)."""
    return 2 * cube if away < 2 * cube <= opponent_away else cube


def _rates(probabilities: tuple[float, ...], player: int) -> Rates:
    """Each player's (gammon, backgammon) share of the games it wins, from
    ``player``'s probabilities (0 where that player wins no game), in float32."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (F32(p) for p in probabilities)
    zero = F32(0.0)
    mover = ((win_gammon - win_backgammon) / win, win_backgammon / win) if win > 0.0 else (zero, zero)
    other = ((lose_gammon - lose_backgammon) / (ONE - win), lose_backgammon / (ONE - win)) \
        if win < 1.0 else (zero, zero)
    return (mover, other) if player == 0 else (other, mover)


@functools.lru_cache(maxsize=1)
def _default_table() -> MatchEquityTable:
    return MatchEquityTable.load(DEFAULT_FILE)
