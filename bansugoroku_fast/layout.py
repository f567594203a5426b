"""The interchange layout's constants, written once (docs/rules.md §1.4).

A position is ``int8[2, 26]``: row 0 the side to move, row 1 its opponent,
each in its own numbering; index :data:`OFF` holds the stones borne off,
1..24 the points, :data:`BAR` the bar. Each side has :data:`STONES` stones.

>>> BAR - 24, OFF, STONES   # point p of one side is point BAR - p of the other
(1, 0, 15)
"""

__all__ = ["BAR", "OFF", "STONES"]

OFF = 0  # index of the stones borne off; also the target of a bear-off move
BAR = 25  # index of the bar; also the origin of an entering move
STONES = 15  # stones per side
