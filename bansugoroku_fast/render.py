"""Drawings of a position: the text ``str(position)`` prints, and the SVG
board notebooks and the documentation show.

The board is drawn from the side to move (``X``, row 0), whose stones run from
point 24 (top right) round to point 1 (bottom right, its home on the right);
``O`` is the opponent (row 1). Under each point's owner is its stone count.
"""
from __future__ import annotations

import numbers as _numbers_module
from collections.abc import Sequence
from typing import Literal

from .errors import ArgumentTypeError, InvalidArgumentError, InvalidPositionError
from .typing import Rows

__all__ = ["board", "svg"]

TOP = tuple(range(13, 25))  # the far half, left to right
BOTTOM = tuple(range(12, 0, -1))  # the near half, left to right


def _checked_rows(rows: object, where: str) -> Rows:
    """``rows`` if they are two rows of 26 stone counts (integers >= 0), else a typed error naming
    ``where``: a drawing reads every count, and a wrong one would draw a board that is no position."""
    if isinstance(rows, (str, bytes)) or not (isinstance(rows, Sequence) or hasattr(rows, "__array__")):
        raise ArgumentTypeError(f"{where}: rows must be two rows of 26 stone counts, got {type(rows).__name__}")
    checked: list[Sequence[int]] = list(rows)  # type: ignore[call-overload]
    shape = [len(row) if hasattr(row, "__len__") else None for row in checked]
    if shape != [26, 26]:
        raise InvalidPositionError(f"{where}: rows must be two rows of 26 stone counts, got lengths {shape}")
    for side, row in enumerate(checked):
        for index, count in enumerate(row):
            if isinstance(count, bool) or not isinstance(count, _numbers_module.Integral) or count < 0:
                raise InvalidPositionError(f"{where}: row {side}, index {index} holds {count!r}, not a stone count")
    return checked


def _cells(rows: Rows, points: Sequence[int]) -> tuple[list[str], list[str]]:
    owners: list[str] = []
    counts: list[str] = []
    for point in points:
        mine, theirs = rows[0][point], rows[1][25 - point]
        if mine:
            owners.append(" X")
            counts.append(f"{mine:2d}")
        elif theirs:
            owners.append(" O")
            counts.append(f"{theirs:2d}")
        else:
            owners.append(" .")
            counts.append("  ")
    return owners, counts


def _line(cells: Sequence[str]) -> str:
    return " " + " ".join(cells[:6]) + "  | " + " ".join(cells[6:])


def _numbers(points: Sequence[int]) -> str:
    return _line([f"{p:2d}" for p in points])


def _pips(row: Sequence[int]) -> int:
    return sum(index * row[index] for index in range(1, 26))


def board(rows: Rows, *, to_move: bool = True) -> str:
    """The ASCII board of ``rows``, drawn from the side to move (``X``, row
    0): what ``str(position)`` prints.

    Parameters
    ----------
    rows : ~bansugoroku_fast.typing.Rows
        The two rows of the interchange layout (``Position.rows``, an
        ``int8[2, 26]`` array or nested lists).
    to_move : bool
        Row 0 is to move; False for a finished game, where nobody is (row 0
        is then just X).

    Returns
    -------
    str
        Eight lines: the points, owners and counts of both halves, then each
        side's pips, bar and borne-off stones.

    Raises
    ------
    InvalidPositionError
        ``rows`` are not two rows of 26 stone counts (integers >= 0;
        ``ArgumentTypeError`` for a value that is not a sequence).

    Examples
    --------
    >>> print(board(((0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0),) * 2))
     13 14 15 16 17 18  | 19 20 21 22 23 24
      X  .  .  .  O  .  |  O  .  .  .  .  X
      5           3     |  5              2
      O  .  .  .  X  .  |  X  .  .  .  .  O
      5           3     |  5              2
     12 11 10  9  8  7  |  6  5  4  3  2  1
    X to move: pips 167, bar 0, off 0
    O:         pips 167, bar 0, off 0
    """
    rows = _checked_rows(rows, "render.board")
    top_owners, top_counts = _cells(rows, TOP)
    bottom_owners, bottom_counts = _cells(rows, BOTTOM)
    lines = [
        _numbers(TOP),
        _line(top_owners),
        _line(top_counts),
        _line(bottom_owners),
        _line(bottom_counts),
        _numbers(BOTTOM),
        f"{'X to move:' if to_move else 'X:        '} pips {_pips(rows[0])}, bar {rows[0][25]}, off {rows[0][0]}",
        f"O:         pips {_pips(rows[1])}, bar {rows[1][25]}, off {rows[1][0]}",
    ]
    return "\n".join(line.rstrip() for line in lines)


# --- SVG (what notebooks show) -------------------------------------------------

_WIDTH, _HEIGHT = 28, 120  # one point's triangle
_BAR = 28
_STONE = 24
_COLOURS = {"X": "#f4f0e6", "O": "#3a2a1e"}
#: The board's colour, also under the point numbers and the status line
#: (the SVG leaves that strip transparent, for pages of any colour).
BACKGROUND = "#c8a26a"


def _point_x(point: int) -> float:
    """Left edge of ``point``'s triangle; points 13..24 run along the top."""
    column = point - 13 if point >= 13 else 12 - point
    return column * _WIDTH + (_BAR if column >= 6 else 0)


def _stone_y(i: int, top: bool) -> float:
    """Centre of the ``i``-th stone from the edge of a far (top) or near point."""
    radius = _STONE / 2
    return i * _STONE + radius if top else 2 * _HEIGHT + 40 - i * _STONE - radius


def _stones(x: float, top: bool, owner: str, count: int) -> list[str]:
    """Up to five stones on a point, the count written on the last if more."""
    shown = min(count, 5)
    parts = [
        f'<circle cx="{x + _WIDTH / 2}" cy="{_stone_y(i, top)}" r="{_STONE / 2 - 1}" '
        f'fill="{_COLOURS[owner]}" stroke="#000" stroke-width="1"/>'
        for i in range(shown)
    ]
    if count > 5:
        ink = "#000" if owner == "X" else "#fff"
        parts.append(
            f'<text x="{x + _WIDTH / 2}" y="{_stone_y(shown - 1, top) + 4}" font-size="11" '
            f'text-anchor="middle" fill="{ink}">{count}</text>'
        )
    return parts


#: The bear-off tray at the right of an interactive board.
_TRAY = 32


def _hit_areas(width: float, height: float) -> list[str]:
    """Transparent rectangles naming what a pointer is over (``data-point``):
    each point's half of the board (1..24), the bar (25) and the tray (0)."""
    half = height / 2
    parts = []
    for point in range(1, 25):
        x, top = _point_x(point), point >= 13
        parts.append(f'<rect class="hit" data-point="{point}" x="{x}" y="{0 if top else half}" '
                     f'width="{_WIDTH}" height="{half}" fill="transparent"/>')
    parts.append(f'<rect class="hit" data-point="25" x="{6 * _WIDTH}" y="0" width="{_BAR}" height="{height}" '
                 f'fill="transparent"/>')
    parts.append(f'<rect class="hit" data-point="0" x="{width}" y="{half}" width="{_TRAY}" height="{half}" '
                 f'fill="transparent"/>')
    return parts


def _tray(width: float, height: float, rows: Rows) -> list[str]:
    """The bear-off tray: each side's stones off, as bars (X below, O above)."""
    parts = [f'<rect x="{width}" width="{_TRAY}" height="{height}" fill="#7a5230"/>']
    for side, owner in ((0, "X"), (1, "O")):
        off = rows[side][0]
        for i in range(off):
            y = height - 4 - (i + 1) * 7 if side == 0 else 4 + i * 7
            parts.append(f'<rect x="{width + 4}" y="{y}" width="{_TRAY - 8}" height="6" '
                         f'fill="{_COLOURS[owner]}" stroke="#000" stroke-width="0.5"/>')
    return parts


def svg(rows: Rows, *, numbers: Literal["near", "both"] = "near", key: bool = False,
        to_move: bool = True, interactive: bool = False) -> str:
    """An SVG drawing of ``rows`` from the side to move (light stones, X).

    Parameters
    ----------
    rows : Rows
        The two rows of the interchange layout, row 0 the side to move.
    numbers : str
        Which rows of points carry their numbers (always X's numbering):
        ``"near"``, the near row only (1 to 12), or ``"both"``, the far
        row (13 to 24) as well.
    key : bool
        Draw, under the board, which stones are X (light, to move) and
        which are O (dark), with the stones each has borne off; otherwise
        a line of text says only the stones borne off.
    to_move : bool
        Whether the key calls X the side to move (``False`` for a position
        seen by the side that has just played, or a finished game).
    interactive : bool
        Draw the board for a page to play on: a bear-off tray on the right,
        transparent ``<rect class="hit" data-point="N">`` areas over each
        point (1..24, in X's numbering), the bar (25) and the tray (0), and
        no status line (the page shows the counts itself).

    Returns
    -------
    str
        The drawing, an ``<svg>`` element with its own namespace.

    Raises
    ------
    InvalidArgumentError
        ``numbers`` is neither ``"near"`` nor ``"both"``.
    InvalidPositionError
        ``rows`` are not two rows of 26 stone counts (integers >= 0;
        ``ArgumentTypeError`` for a value that is not a sequence).

    Examples
    --------
    >>> from bansugoroku_fast import Position
    >>> drawing = svg(Position.initial().rows, numbers="both", key=True)
    >>> drawing.startswith("<svg") and ">24</text>" in drawing and "X (light)" in drawing
    True
    >>> page = svg(Position.initial().rows, interactive=True)
    >>> page.count('class="hit"'), 'data-point="0"' in page
    (26, True)
    """
    if numbers not in ("near", "both"):
        raise InvalidArgumentError(f"render.svg: numbers must be 'near' or 'both', not {numbers!r}")
    rows = _checked_rows(rows, "render.svg")
    width, height = 12 * _WIDTH + _BAR, 2 * _HEIGHT + 40
    full_width = width + (_TRAY if interactive else 0)
    top_strip = _LABEL_STRIP if numbers == "both" else 0  # room above the board for 13..24
    total = top_strip + height + 30
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {full_width} {total}" '
        f'width="{full_width * 1.5:.0f}" height="{total * 1.5:.0f}">',
        f'<g transform="translate(0,{top_strip})">' if top_strip else "<g>",
        f'<rect width="{width}" height="{height}" fill="{BACKGROUND}"/>',
        f'<rect x="{6 * _WIDTH}" width="{_BAR}" height="{height}" fill="#7a5230"/>',
    ]
    for point in range(1, 25):
        x, top = _point_x(point), point >= 13
        tip = _HEIGHT if top else height - _HEIGHT
        base = 0 if top else height
        shade = "#8b3a2a" if point % 2 else "#e8d8b0"
        parts.append(
            f'<polygon points="{x},{base} {x + _WIDTH},{base} {x + _WIDTH / 2},{tip}" fill="{shade}"/>'
        )
        if not top:  # numbers under the near half
            parts.append(_label(x, height + 12, point))
        elif top_strip:  # ... and above the far half
            parts.append(_label(x, -4, point))
        mine, theirs = rows[0][point], rows[1][25 - point]
        if mine:
            parts += _stones(x, top, "X", mine)
        elif theirs:
            parts += _stones(x, top, "O", theirs)
    for side, owner in ((0, "X"), (1, "O")):
        if rows[side][25]:
            y = height / 2 + (20 if side == 0 else -20)
            x = 6 * _WIDTH + _BAR / 2
            parts.append(
                f'<circle cx="{x}" cy="{y}" r="{_STONE / 2 - 1}" fill="{_COLOURS[owner]}" stroke="#000"/>'
                f'<text x="{x}" y="{y + 4}" font-size="11" text-anchor="middle" fill="red">{rows[side][25]}</text>'
            )
    if interactive:
        parts += _tray(width, height, rows) + _hit_areas(width, height)
    if key:
        parts += _key(rows, height + 26, to_move)
    elif not interactive:
        parts.append(
            f'<text x="2" y="{height + 26}" font-size="9">X to move: off {rows[0][0]}, O: off {rows[1][0]}</text>'
        )
    parts.append("</g></svg>")
    return "".join(parts)
    return "".join(parts)


#: The height of the strip above the board that holds the far row's numbers.
_LABEL_STRIP = 14


def _label(x: float, y: float, point: int) -> str:
    return f'<text x="{x + _WIDTH / 2}" y="{y}" font-size="9" text-anchor="middle">{point}</text>'


def _key(rows: Rows, y: float, to_move: bool) -> list[str]:
    """A stone of each colour with its side's name and the stones it has borne off."""
    parts = []
    mover = "X (light), to move" if to_move else "X (light)"
    for x, owner, words in ((6, "X", f"{mover}: off {rows[0][0]}"),
                            (190, "O", f"O (dark): off {rows[1][0]}")):
        parts.append(f'<circle cx="{x}" cy="{y - 3}" r="5" fill="{_COLOURS[owner]}" stroke="#000"/>')
        parts.append(f'<text x="{x + 9}" y="{y + 1}" font-size="11">{words}</text>')
    return parts
