"""GNU Backgammon Position ID: 14 base64 characters for a position.

The encoding (as gnubg documents it): for each side, the side *not* on roll
first, for each of its points 1..24 then its bar, write as many 1-bits as it
has stones there followed by one 0-bit. The at most 80 bits are packed
least-significant-bit first into 10 bytes, which are base64-encoded without
padding. Borne-off stones are implied (15 minus the stones on the board).

>>> encode(((0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0),) * 2)
'4HPwATDgc/ABMA'
>>> decode('4HPwATDgc/ABMA')[0][24], decode('4HPwATDgc/ABMA')[1][6]
(2, 5)
"""
from __future__ import annotations

import base64
import binascii
import re

import numpy as np

from .errors import InvalidPositionError
from .layout import STONES, rows_problem
from .typing import Rows

ID_LENGTH = 14
_BASE64_ID = re.compile(rf"[A-Za-z0-9+/]{{{ID_LENGTH}}}")  # 84 bits, no padding


def _checked(rows: Rows, valid: bool) -> Rows:
    """``rows``, refused if not a valid position (unless the caller vouches
    for them, ``valid=True``: a :class:`~bansugoroku_fast.Position` was
    checked when made)."""
    problem = None if valid else rows_problem(rows)
    if problem is not None:
        raise InvalidPositionError(f"cannot encode an invalid position: {problem}")
    return rows


def encode(rows: Rows, *, valid: bool = False) -> str:
    """The Position ID of ``rows`` (row 0 on roll; each row 26 counts); an
    invalid position raises :class:`InvalidPositionError`.

    >>> encode(((0, 0, 0, 0, 0, 0, 6, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0),) * 2)
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidPositionError: cannot encode an invalid position: row 0 (side to move) holds 16 ...
    """
    rows = _checked(rows, valid)
    return _id_of_counts(bytes(int(count) for row in (rows[1], rows[0]) for count in row[1:26]))


#: The bits of a place holding ``count`` stones, least significant first: ``count`` 1-bits, then a 0-bit.
_UNARY = tuple("1" * count + "0" for count in range(STONES + 1))


def _id_of_counts(counts: bytes) -> str:
    """The Position ID of the 50 place counts in encoding order (the side
    not on roll's points 1..24 and bar, then the other side's), each in
    0..15 and at most 15 a side."""
    return _id_of_bits("".join(map(_UNARY.__getitem__, counts)))


def id_of_key(key: bytes) -> str:
    """The Position ID of the valid position whose ``int8[2, 26]`` array
    has the 52 bytes ``key`` (:attr:`Position.key
    <bansugoroku_fast.Position.key>`; not checked).

    >>> from bansugoroku_fast import Position
    >>> id_of_key(Position.initial().key)
    '4HPwATDgc/ABMA'
    """
    return _id_of_counts(key[27:52] + key[1:26])  # the side not on roll first


def _id_of_bits(bits: str) -> str:
    """The Position ID of its bits written out as text, least significant first."""
    key = int(bits[::-1], 2).to_bytes(10, "little")
    return binascii.b2a_base64(key, newline=False)[:ID_LENGTH].decode("ascii")


def encode_many(positions: np.ndarray) -> list[str]:
    """The Position IDs of valid positions ``int8[N, 2, 26]`` (row 0 on
    roll), as :func:`encode` gives them, computed for the whole batch at
    once (for a server answering with many ids). The positions are not
    checked: the caller vouches for them (the kernels' children are valid).

    >>> start = np.zeros((2, 26), dtype=np.int8)
    >>> start[:, [6, 8, 13, 24]] = [5, 3, 5, 2]
    >>> encode_many(np.stack([start, start[::-1]]))
    ['4HPwATDgc/ABMA', '4HPwATDgc/ABMA']
    """
    return encode_keys(np.ascontiguousarray(positions, dtype=np.int8).reshape(len(positions), 52))


#: The bytes of a key in an id's order: the side not on roll's points 1..24 and bar, then the other side's.
_ID_ORDER = np.array([*range(27, 52), *range(1, 26)])
#: The same for the key of the position seen by the other side.
_SWAPPED_ID_ORDER = np.array([*range(1, 26), *range(27, 52)])
#: The fewest ids :func:`encode_keys` makes together; fewer cost less one by one (the arrays' set-up).
_BATCH_FROM = 12
#: The bits an id takes in :func:`encode_keys`: its 80, and 16 of padding (12 bytes: 16 base64 characters).
_ID_SLOTS = np.arange(96)


def encode_keys(keys: np.ndarray, *, swapped: bool = False) -> list[str]:
    """The Position IDs of valid positions given by their 52-byte keys
    (:attr:`Position.key <bansugoroku_fast.Position.key>`: the bytes of
    the ``int8[2, 26]`` array, row 0 on roll), the rows of the array
    ``keys`` (``N x 52`` bytes); with ``swapped``, of the same positions
    seen by the other side (row 1 on roll: the position after a play as
    the side then on roll sees it). The keys are not checked.

    Many ids are made together: each one's bits set in one array (a place's
    1-bits, then its 0-bit), packed into 12 bytes (the id's 10 and two of
    padding, so that each id is 16 base64 characters, its first 14), and
    every id encoded by one call.

    >>> from bansugoroku_fast import Position, legal_plays
    >>> after = legal_plays(Position.initial(), (6, 5), "backgammon")[0].position  # 24/13
    >>> key = np.frombuffer(after.key, dtype=np.uint8).reshape(1, 52)
    >>> encode_keys(key) == [after.id], encode_keys(key, swapped=True) == [after.swapped().id]
    (True, True)
    """
    count = len(keys)
    counts = keys[:, _SWAPPED_ID_ORDER if swapped else _ID_ORDER]
    if count < _BATCH_FROM:
        flat = counts.tobytes()
        return [_id_of_counts(flat[start:start + 50]) for start in range(0, len(flat), 50)]
    ends = np.cumsum(counts + 1, axis=1, dtype=np.intp)  # one past each place's 0-bit
    bits = ends[:, -1:] > _ID_SLOTS  # 1 up to the last place's 0-bit
    bits.reshape(-1)[(ends - 1 + len(_ID_SLOTS) * np.arange(count)[:, None]).ravel()] = False
    packed = np.packbits(bits, axis=1, bitorder="little").tobytes()
    text = binascii.b2a_base64(packed, newline=False).decode("ascii")
    return [text[start:start + ID_LENGTH] for start in range(0, len(text), 16)]


def decode(position_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two rows (row 0 on roll) of a Position ID; raise on a malformed id.

    >>> decode("4HPwATDgc/AB")
    Traceback (most recent call last):
    ...
    bansugoroku_fast.errors.InvalidPositionError: a Position ID has 14 characters, got 12: '4HPwATDgc/AB'
    """
    if not isinstance(position_id, str):
        raise InvalidPositionError(f"a Position ID is a str, got {type(position_id).__name__}")
    if len(position_id) != ID_LENGTH:
        raise InvalidPositionError(
            f"a Position ID has {ID_LENGTH} characters, got {len(position_id)}: {position_id!r}"
        )
    if not _BASE64_ID.fullmatch(position_id):
        raise InvalidPositionError(
            f"a Position ID is 14 base64 characters (A-Z, a-z, 0-9, +, /), got {position_id!r}"
        )
    key = base64.b64decode(position_id + "==")  # 10 bytes: 80 bits and 4 unused ones
    bits = format(int.from_bytes(key, "little"), "080b")[::-1]  # bit i at index i
    runs = bits.split("0")  # each place's 1-bits, ended by its 0-bit
    if len(runs) <= 50:
        raise InvalidPositionError(f"Position ID {position_id!r} does not describe 50 places")
    if "1" in "".join(runs[50:]):
        raise InvalidPositionError(f"Position ID {position_id!r} has stray bits after the last place")
    counts = [len(run) for run in runs[:50]]
    rows = []
    for side_counts in (counts[25:], counts[:25]):  # row 0 (on roll) was encoded second
        on_board = sum(side_counts)
        if on_board > STONES:
            raise InvalidPositionError(
                f"Position ID {position_id!r} puts {on_board} stones of one side on the board (at most {STONES})"
            )
        rows.append((STONES - on_board, *side_counts))
    if base64.b64encode(key).decode("ascii")[:ID_LENGTH] != position_id:
        raise InvalidPositionError(f"Position ID {position_id!r} has stray bits in its last character")
    return rows[0], rows[1]


# --- XGID (eXtreme Gammon) ---------------------------------------------------
#
# The position field has 26 characters seen from the player X: index 0 is O's
# bar, 1..24 are X's points 1..24, 25 is X's bar; 'A'..'O' are 1..15 stones of
# X, 'a'..'o' of O, '-' none. The fourth field is the turn: 1 = X, -1 = O.

XGID_PREFIX = "XGID="


def _xgid_char(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    letter = chr(ord("A") + count - 1)
    return letter if upper else letter.lower()


def encode_xgid(rows: Rows, *, valid: bool = False) -> str:
    """The XGID of ``rows`` with the side on roll as X and turn 1 (centred
    cube at 1, no dice, money game); refuses an invalid position as
    :func:`encode` does.

    >>> start = ((0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5) + (0,) * 10 + (2, 0),) * 2
    >>> encode_xgid(start)
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10'
    """
    mover, opponent = _checked(rows, valid)
    chars = [_xgid_char(opponent[25], False)]
    for point in range(1, 25):
        chars.append(_xgid_char(mover[point], True) if mover[point] else _xgid_char(opponent[25 - point], False))
    chars.append(_xgid_char(mover[25], True))
    return XGID_PREFIX + "".join(chars) + ":0:0:1:00:0:0:0:0:10"


def decode_xgid(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two rows (row 0 = the side on roll, from the turn field) of an XGID.

    >>> rows = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
    >>> rows[0][6], rows[1][24]
    (5, 2)
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"an XGID is a str, got {type(text).__name__}")
    if not text.isascii():  # non-ASCII letters such as the dotless 'ı' upper-case to ASCII ones
        raise InvalidPositionError(f"an XGID is ASCII text, got {text!r}")
    body = text.strip()
    if body.startswith(XGID_PREFIX):
        body = body[len(XGID_PREFIX):]
    fields = body.split(":")
    board = fields[0]
    if len(board) != 26:
        raise InvalidPositionError(f"an XGID position field has 26 characters, got {len(board)}: {text!r}")
    turn = 1
    if len(fields) > 3:
        if fields[3] not in ("1", "-1"):
            raise InvalidPositionError(f"an XGID turn is 1 or -1, got {fields[3]!r}")
        turn = int(fields[3])
    x_row, o_row = [0] * 26, [0] * 26
    for index, char in enumerate(board):
        if char == "-":
            continue
        if not ("A" <= char.upper() <= "O"):
            raise InvalidPositionError(f"unexpected {char!r} in XGID {text!r}")
        count = ord(char.upper()) - ord("A") + 1
        if char.isupper():
            if index == 0:
                raise InvalidPositionError(f"XGID index 0 is O's bar, but holds X stones: {text!r}")
            x_row[index] += count
        else:
            if index == 25:
                raise InvalidPositionError(f"XGID index 25 is X's bar, but holds O stones: {text!r}")
            o_row[25 if index == 0 else 25 - index] += count
    for row, name in ((x_row, "X"), (o_row, "O")):
        on_board = sum(row)
        if on_board > STONES:
            raise InvalidPositionError(f"XGID {text!r} puts {on_board} stones of {name} on the board")
        row[0] = STONES - on_board
    rows = (tuple(x_row), tuple(o_row))
    return rows if turn == 1 else (rows[1], rows[0])
