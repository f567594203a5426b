"""Position: the value type, the start position, the Position ID, bad input."""
import base64
import pickle
import random

import numpy as np
import pytest

from bansugoroku_fast import Position, Rules, oracle, position_id
from bansugoroku_fast.errors import InvalidPositionError
from bansugoroku_fast.position import INITIAL_ROW
from bansugoroku_fast.position_id import encode

START_ID = "4HPwATDgc/ABMA"  # gnubg's documented id of the start position


def random_valid_rows(rng: random.Random):
    """Two rows of a random valid position: stones dropped one by one on
    places that the other side does not hold."""
    rows = [[0] * 26, [0] * 26]
    for side in (0, 1):
        other = rows[1 - side]
        for _ in range(15):
            while True:
                index = rng.choice([0, 25] + list(range(1, 25)) * 3)
                if index in (0, 25) or other[25 - index] == 0:
                    rows[side][index] += 1
                    break
    return rows


def test_start_position_matches_rules_section_1():
    """docs/rules.md §1.3: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side, pip 167."""
    start = Position.initial()
    for row in start.rows:
        assert {p: row[p] for p in range(26) if row[p]} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert start.pip_counts == (167, 167)
    assert Position.initial(Rules(variant="backgammon")) == start


def test_point_p_of_one_side_is_point_25_minus_p_of_the_other():
    """docs/rules.md §1.1: the mover's 24-point is the opponent's 1-point."""
    rows = [list(INITIAL_ROW), [0] * 26]
    rows[1][1] = 15  # the opponent's 1-point is the mover's 24-point
    with pytest.raises(InvalidPositionError, match="point 24"):
        Position(rows)
    rows[1][1], rows[1][2] = 0, 15  # its 2-point is our 23-point: free
    assert Position(rows).rows[1][2] == 15


def test_array_is_read_only_int8_and_a_copy():
    data = np.array([INITIAL_ROW, INITIAL_ROW], dtype=np.int8)
    position = Position(data)
    data[0, 6] = 4  # mutating the input does not touch the position
    assert position.array.dtype == np.int8
    assert position.array[0, 6] == 5
    with pytest.raises(ValueError):
        position.array[0, 6] = 1


def test_swapped_exchanges_rows_and_is_an_involution():
    rows = random_valid_rows(random.Random(3))
    position = Position(rows)
    assert position.swapped().rows == (tuple(rows[1]), tuple(rows[0]))
    assert position.swapped().swapped() == position


def test_equality_hash_pickle_and_repr_round_trip():
    rng = random.Random(5)
    positions = [Position(random_valid_rows(rng)) for _ in range(20)]
    assert len(set(positions)) == len({p.key for p in positions})
    for position in positions:
        assert Position(position.tolist()) == position
        assert hash(Position(position.tolist())) == hash(position)
        assert pickle.loads(pickle.dumps(position)) == position
        assert eval(repr(position), {"Position": Position}) == position


def test_str_draws_the_board_with_both_sides():
    text = str(Position.initial())
    assert "X to move: pips 167" in text and "O:" in text
    assert text.count(" X") == 4 and text.count(" O") == 4  # four points each


def test_start_position_id():
    assert Position.initial().id == START_ID
    assert Position.from_id(START_ID) == Position.initial()
    assert Position(START_ID) == Position.initial()
    assert Position.from_id(START_ID).id == START_ID


def test_position_id_round_trips_random_positions():
    rng = random.Random(11)
    for _ in range(2000):
        position = Position(random_valid_rows(rng))
        position_id = position.id
        assert len(position_id) == 14
        assert Position.from_id(position_id) == position


def test_position_id_puts_the_side_not_on_roll_first():
    """gnubg encodes the side not on roll first: swapping sides changes the id."""
    rows = random_valid_rows(random.Random(2))
    position = Position(rows)
    assert position.swapped().id != position.id
    assert Position.from_id(position.swapped().id).swapped() == position


@pytest.mark.parametrize(
    "bad_id, message",
    [
        ("4HPwATDgc/AB", "14 characters"),
        ("4HPwATDgc/ABMAA", "14 characters"),
        ("4HPwATDgc/AB!A", "base64"),
        ("//////////////", "50 places|stones"),  # all ones: no room for the separators
        (12345, "str"),
        ("AAAAAAAAAAAA==", "Position ID"),  # padding inside the 14 characters: 9 bytes, not 10
        ("4HPwATDgc/AB==", "Position ID"),
        ("4HPwATDgc/ABM=", "Position ID"),
        ("=HPwATDgc/ABMA", "Position ID"),
        ("4HPwATDgc/ABMB", "Position ID"),  # the last character's 4 unused bits set
        ("4HPwATDgc/ABM\u0131", "Position ID"),  # dotless i: not base64
        ("\uff14HPwATDgc/ABMA", "Position ID"),  # a full-width digit
    ],
)
def test_malformed_position_ids_raise(bad_id, message):
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_id(bad_id)


def test_all_zero_position_id_means_everything_borne_off():
    """Every bit zero: no stone on the board, so all 15 of each side are off."""
    assert Position.from_id("AAAAAAAAAAAAAA").rows == ((15,) + (0,) * 25,) * 2


def test_position_id_with_too_many_stones_raises():
    # 16 one-bits then zeros: 16 stones on the first point of one side.
    key = bytes([0xFF, 0xFF]) + bytes(8)
    bad_id = base64.b64encode(key).decode()[:14]
    with pytest.raises(InvalidPositionError, match="16 stones"):
        Position.from_id(bad_id)


def test_position_id_with_both_sides_on_a_point_raises():
    rows = [list(INITIAL_ROW), list(INITIAL_ROW)]
    rows[1][6], rows[1][7] = 0, 5  # opponent's 7-point = our 18-point (free)
    legal = Position(rows).id
    rows[1][7], rows[1][12] = 0, 5  # opponent's 12-point = our 13-point: ours
    with pytest.raises(InvalidPositionError, match="both sides"):
        Position.from_id(encode(rows))
    assert Position.from_id(legal).rows[1][7] == 5


def _start():
    return [list(INITIAL_ROW), list(INITIAL_ROW)]


def _with(change):
    rows = _start()
    change(rows)
    return rows


BAD_POSITIONS = {
    "wrong shape (26,)": (INITIAL_ROW, "shape"),
    "wrong shape (2, 25)": ([INITIAL_ROW[:25]] * 2, "shape"),
    "wrong shape (3, 26)": ([INITIAL_ROW] * 3, "shape"),
    "ragged": ([INITIAL_ROW, INITIAL_ROW[:3]], "rectangular|shape"),
    "floats": (np.array(_start(), dtype=float), "integers"),
    "bools": (np.ones((2, 26), dtype=bool), "integers"),
    "strings": ([["a"] * 26] * 2, "integers"),
    "None": (None, "integers|shape"),
    "negative count": (
        _with(lambda r: (r[0].__setitem__(6, -1), r[0].__setitem__(7, 6))),
        r"negative count -1 at row 0 .*index 6",
    ),
    "row 0 sums to 14": (_with(lambda r: r[0].__setitem__(6, 4)), "row 0 .* 14 stones"),
    "row 1 sums to 16": (_with(lambda r: r[1].__setitem__(6, 6)), "row 1 .* 16 stones"),
    "huge count": (_with(lambda r: r[0].__setitem__(6, 300)), "300"),
    "both sides on a point": (
        _with(lambda r: (r[0].__setitem__(6, 4), r[0].__setitem__(12, 1))),  # our 12 = their 13
        "both sides",
    ),
}


@pytest.mark.parametrize("data, message", BAD_POSITIONS.values(), ids=BAD_POSITIONS.keys())
def test_invalid_positions_raise_a_clear_error(data, message):
    with pytest.raises(InvalidPositionError, match=message):
        Position(data)


def test_invalid_position_error_is_a_value_error():
    assert issubclass(InvalidPositionError, ValueError)


def test_arrival_finish_refuses_borne_off_stones():
    """docs/rules.md §1.4 (decision D10): stones never leave the board under the arrival finish."""
    rows = _start()
    rows[0][6], rows[0][0] = 4, 1
    position = Position(rows)  # structurally valid ...
    with pytest.raises(InvalidPositionError, match="borne off"):
        oracle.legal_plays(position, (3, 1), Rules())  # ... but not for these rules
    with pytest.raises(InvalidPositionError, match="borne off"):
        oracle.outcome(position, Rules())
    assert oracle.outcome(position, Rules(finish="bear_off")) is None


def test_both_sides_won_is_refused():
    home = [0, 3, 3, 3, 2, 2, 2] + [0] * 19  # 15 stones on points 1..6
    with pytest.raises(InvalidPositionError, match="both sides have won"):
        oracle.outcome(Position([home, home]), Rules())


START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


def test_start_position_xgid():
    assert Position.initial().xgid == START_XGID
    assert Position.from_xgid(START_XGID) == Position.initial()


def test_xgid_round_trips_random_positions():
    rng = random.Random(17)
    for _ in range(1000):
        position = Position(random_valid_rows(rng))
        assert Position.from_xgid(position.xgid) == position


def test_xgid_turn_minus_one_puts_o_on_roll():
    rows = random_valid_rows(random.Random(8))
    position = Position(rows)
    as_o_to_move = position.xgid.replace(":0:0:1:", ":0:0:-1:", 1)
    assert Position.from_xgid(as_o_to_move) == position.swapped()


@pytest.mark.parametrize(
    "bad, message",
    [
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "26 characters"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:2:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----B?:0:0:1:00:0:0:0:0:10", "unexpected"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "O's bar"),
        ("XGID=-b----O-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "stones of X"),
    ],
)
def test_malformed_xgids_raise(bad, message):
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_xgid(bad)


def test_svg_draws_every_stone_group():
    import xml.etree.ElementTree as ElementTree

    svg = Position.initial()._repr_svg_()
    root = ElementTree.fromstring(svg)
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    # At most 5 stones are drawn per point: 2+5+3+5 per side, each capped at 5.
    assert len(circles) == 2 * (2 + 5 + 3 + 5)


def test_svg_writes_the_count_on_a_point_of_more_than_five():
    import xml.etree.ElementTree as ElementTree

    rows = _start()
    rows[0][6], rows[0][8], rows[0][13] = 13, 0, 0  # thirteen on our 6-point
    root = ElementTree.fromstring(Position(rows)._repr_svg_())
    texts = [e.text for e in root.iter() if e.tag.endswith("text")]
    assert "13" in texts  # (point labels run 1..12 only: this is the count)
    assert "13" not in [e.text for e in ElementTree.fromstring(Position.initial()._repr_svg_()).iter()]


def _svg_texts(svg: str) -> list[str]:
    import xml.etree.ElementTree as ElementTree

    return [e.text for e in ElementTree.fromstring(svg).iter() if e.tag.endswith("text")]


def test_svg_numbers_both_rows_on_request():
    from bansugoroku_fast import render

    rows = Position.initial().rows
    assert sorted(int(t) for t in _svg_texts(render.svg(rows, numbers="both")) if t.isdigit()) == list(range(1, 25))
    # The default numbers the near row only.
    assert sorted(int(t) for t in _svg_texts(render.svg(rows)) if t.isdigit()) == list(range(1, 13))


def test_svg_key_names_each_side_by_the_colour_of_its_stones():
    import xml.etree.ElementTree as ElementTree

    from bansugoroku_fast import render

    rows = [[0] * 26, [0] * 26]
    rows[0][6], rows[0][0] = 14, 1   # X: fourteen on its 6-point, one borne off
    rows[1][6], rows[1][0] = 12, 3   # O: twelve on its 6-point (X's 19), three off
    root = ElementTree.fromstring(render.svg(rows, key=True))
    circles = [e for e in root.iter() if e.tag.endswith("circle")]
    # Five stones drawn on each point, then one swatch per side in the key.
    board, swatches = circles[:10], circles[10:]
    assert len(swatches) == 2
    below = max(float(c.get("cy")) for c in board)
    x_stone = next(c for c in board if float(c.get("cy")) == below)  # the near row holds X's 6-point
    o_stone = next(c for c in board if float(c.get("cy")) < below / 2)
    assert swatches[0].get("fill") == x_stone.get("fill") != o_stone.get("fill") == swatches[1].get("fill")
    texts = _svg_texts(render.svg(rows, key=True))
    assert "X (light), to move: off 1" in texts and "O (dark): off 3" in texts
    # Seen by the side that has just played, X is not to move.
    assert "X (light): off 1" in _svg_texts(render.svg(rows, key=True, to_move=False))


def test_svg_refuses_an_unknown_numbering():
    from bansugoroku_fast import render
    from bansugoroku_fast.errors import InvalidArgumentError

    with pytest.raises(InvalidArgumentError, match="numbers must be"):
        render.svg(Position.initial().rows, numbers="far")


# --- encoders refuse invalid positions --------------------------------------------------


def _start_rows():
    return [list(row) for row in Position.initial().rows]


def _sixteen_stones():
    rows = _start_rows()
    rows[0][6] += 1
    return rows


def _negative_count():
    rows = _start_rows()
    rows[1][6] -= 1
    rows[1][0] = 1
    rows[1][5] = -1
    rows[1][4] = 1
    return rows


def _shared_point():
    rows = _start_rows()
    rows[0][6] -= 1
    rows[0][1] = 1  # row 0's point 1 is row 1's point 24, which holds two of its stones
    return rows


@pytest.mark.parametrize("encoder", [position_id.encode, position_id.encode_xgid], ids=["position_id", "xgid"])
@pytest.mark.parametrize("rows, problem", [
    (_sixteen_stones(), "row 0 .* holds 16 stones, not 15"),
    (_negative_count(), "row 1 .* has a negative count at index 5"),
    (_shared_point(), "point 1 .* holds stones of both sides"),
    ([[0] * 26], r"a position is two rows of 26 counts, got \[26\]"),
    ("not rows", "a position is two rows of 26 integer counts"),
])
def test_every_encoder_refuses_an_invalid_position(encoder, rows, problem):
    with pytest.raises(InvalidPositionError, match="cannot encode an invalid position: " + problem):
        encoder(rows)


def test_position_ids_of_a_batch_are_each_position_s_own():
    """``encode_many`` (numpy, for a batch) gives what ``encode`` gives one position at a time,
    over positions of whole games: stones on the bar, borne off, every rule set's."""
    from bansugoroku_fast import play_games
    from bansugoroku_fast.position_id import encode_many

    for rules in ("backgammon", "ban-sugoroku,finish=bear_off"):
        records = play_games(rules, games=20, seed=3)
        positions = np.concatenate([np.asarray(records.positions), np.asarray(records.after)])
        assert encode_many(positions) == [Position(position).id for position in positions]


@pytest.mark.parametrize("rows, words", [
    ([[0] * 26], r"two rows of 26 stone counts, got lengths \[26\]"),
    ([[0] * 26, [0] * 25], r"got lengths \[26, 25\]"),
    ([[-1] + [0] * 25, [0] * 26], "row 0, index 0 holds -1, not a stone count"),
    ([[0] * 26, [0.5] * 26], "row 1, index 0 holds 0.5"),
])
def test_a_drawing_refuses_rows_that_are_no_board(rows, words):
    # Short rows raised IndexError; negative counts drew stones of the wrong side.
    from bansugoroku_fast import render

    for draw in (render.board, render.svg):
        with pytest.raises(InvalidPositionError, match=words):
            draw(rows)
    with pytest.raises(TypeError, match="rows must be two rows of 26 stone counts, got str"):
        render.board("4HPwATDgc/ABMA")
