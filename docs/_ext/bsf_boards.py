"""The boards the pages show, drawn by the library into ``docs/images/boards/``.

Each board of :data:`BOARDS` is a GNU Backgammon Position ID drawn by
:func:`bansugoroku_fast.render.svg`, numbered on both rows, with the key
that says which stones are X and which are O. The drawings are committed
(so that the pages show them on GitHub as on the site); after changing a
board here, or the renderer, draw them again from the repository root::

    python docs/_ext/bsf_boards.py

``tests/test_docs_pages.py`` fails while a committed drawing differs from
what this module draws.
"""
from __future__ import annotations

import os
import sys
import tempfile
from typing import NamedTuple

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.dirname(HERE)
OUT = os.path.join(DOCS, "images", "boards")


class Board(NamedTuple):
    position_id: str
    to_move: bool = True  # False: seen by the side that has just played


#: name -> the board; the page that shows each is named beside it.
BOARDS = {
    # getting started, the rules (the start), the endgame and analysis guides
    "start": Board("4HPwATDgc/ABMA"),
    # the evaluators guide: the shipped network's 3-1 at the start, 8/5 6/5
    "after-31": Board("4HPwATCwZ/ABMA", to_move=False),
    # the rules, each section's example
    "blocked": Board("/wdgBgB/fwAAAg"),           # §2.3
    "hits": Board("/x8QAQB/fwAAAg"),              # §2.4
    "entering": Board("/wcDBgC/P0AAQA"),          # §2.5
    "past-point-1": Board("APD/BwBIAAAAAA"),      # §2.6
    "larger-die": Board("/wcAwwC/P0AAAg"),        # §2.7
    "won-uses-no-more": Board("APD/BwD/PyAAAA"),  # §2.8
    "last-stone": Board("APD/AyACAAAAAA"),        # §2.9
    "closure": Board("APD/A0DbtjkAAA"),           # §3.3
    "mujo-gachi": Board("APD/A0Db7hYAAA"),        # §3.4, and getting started's won game
    "immediate": Board("/A/YAEDbtiCAAw"),         # §3.5
    "backgammon-gammon": Board("APD/AwgAAAAAAA"),  # §4.2
    # the games guide and the endgames page: a lone stone on the 6-point against one on the 1-point
    "race-6-v-1": Board("AQAAgAAAAAAAAA"),
    # the analysis guide: the worst play of tests/data/gnubg/auto5.mat by "net" (game 2, move 11, 5-3)
    "worst-play": Board("x+45AABsO0sAGA"),
}


def drawing(board: Board) -> str:
    """The SVG of ``board`` as the pages show it."""
    from bansugoroku_fast import Position, render

    rows = Position.from_id(board.position_id).rows
    return render.svg(rows, numbers="both", key=True, to_move=board.to_move) + "\n"


def draw_all(folder: str = OUT) -> list[str]:
    """Write every board of :data:`BOARDS` into ``folder`` (each file whole
    or not at all); the paths written."""
    os.makedirs(folder, exist_ok=True)
    written = []
    for name, board in BOARDS.items():
        path = os.path.join(folder, f"{name}.svg")
        handle, temporary = tempfile.mkstemp(dir=folder, suffix=".svg.tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(drawing(board))
        os.chmod(temporary, 0o644)  # mkstemp makes it private
        os.replace(temporary, path)
        written.append(path)
    return written


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(DOCS))  # the package of this checkout
    for path in draw_all():
        print(os.path.relpath(path))
