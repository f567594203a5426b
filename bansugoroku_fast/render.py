"""Text rendering of a position (what ``str(position)`` prints).

The board is drawn from the side to move (``X``, row 0), whose stones run from
point 24 (top right) round to point 1 (bottom right, its home on the right);
``O`` is the opponent (row 1). Under each point's owner is its stone count.
"""
from __future__ import annotations

TOP = tuple(range(13, 25))  # the far half, left to right
BOTTOM = tuple(range(12, 0, -1))  # the near half, left to right


def _cells(rows, points):
    owners, counts = [], []
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


def _line(cells):
    return " " + " ".join(cells[:6]) + "  | " + " ".join(cells[6:])


def _numbers(points):
    return _line([f"{p:2d}" for p in points])


def _pips(row):
    return sum(index * row[index] for index in range(1, 26))


def board(rows) -> str:
    """The ASCII board of ``rows`` (row 0 to move).

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
        f"X to move: pips {_pips(rows[0])}, bar {rows[0][25]}, off {rows[0][0]}",
        f"O:         pips {_pips(rows[1])}, bar {rows[1][25]}, off {rows[1][0]}",
    ]
    return "\n".join(line.rstrip() for line in lines)
