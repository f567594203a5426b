"""Positions used by the notation tests."""
from bansugoroku_fast import Position


def blot_position() -> Position:
    """The mover: 2 on 24, 13 on 13. The opponent: one blot on the mover's
    18-point and one on its 19-point (its 7- and 6-points), 13 on the mover's
    1-point (its 24-point)."""
    mover = [0] * 26
    mover[24], mover[13] = 2, 13
    opponent = [0] * 26
    opponent[25 - 18], opponent[25 - 19], opponent[25 - 1] = 1, 1, 13
    return Position([mover, opponent])
