"""Text rendering of a position (what ``str(position)`` prints).

The board is drawn from the side to move (``X``, row 0), whose stones run from
point 24 (top right) round to point 1 (bottom right, its home on the right);
``O`` is the opponent (row 1). Under each point's owner is its stone count.
"""
from __future__ import annotations

from collections.abc import Sequence

from .typing import Rows

__all__ = ["board", "svg"]

TOP = tuple(range(13, 25))  # the far half, left to right
BOTTOM = tuple(range(12, 0, -1))  # the near half, left to right


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
    """The ASCII board of ``rows`` (row 0 to move; ``to_move=False`` for a
    finished game, where nobody is: row 0 is then just X).

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


def svg(rows: Rows, *, interactive: bool = False) -> str:
    """An SVG drawing of ``rows`` from the side to move (light stones, X).

    ``interactive=True`` draws the board for a page to play on: a bear-off
    tray on the right, transparent ``<rect class="hit" data-point="N">``
    areas over each point (1..24, in X's numbering), the bar (25) and the
    tray (0), and no status line (the page shows the counts itself).

    >>> page = svg(((0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0),) * 2, interactive=True)
    >>> page.count('class="hit"'), 'data-point="0"' in page
    (26, True)
    """
    width, height = 12 * _WIDTH + _BAR, 2 * _HEIGHT + 40
    full_width = width + (_TRAY if interactive else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {full_width} {height + 30}" '
        f'width="{full_width * 1.5:.0f}" height="{(height + 30) * 1.5:.0f}">',
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
        label_y = height + 12
        if not top:  # numbers under the near half
            parts.append(f'<text x="{x + _WIDTH / 2}" y="{label_y}" font-size="9" text-anchor="middle">{point}</text>')
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
    else:
        parts.append(
            f'<text x="2" y="{height + 26}" font-size="9">X to move: off {rows[0][0]}, O: off {rows[1][0]}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
