"""The exact money cubeful equities of the two-sided backgammon table
(``Tables.no_double``, ``race(...).no_double`` / ``.cubeful``,
``race_cube``): equal to the oracle's plain-Python recursion, right on
positions worked out by hand, ordered as cube ownership must order them,
and absent where the rules have no cube. GNU Backgammon's own database is
compared in ``tests/test_endgames_gnubg.py``, its cube decisions in
``tests/test_cube.py``."""
from __future__ import annotations

import numpy as np
import pytest

from bansugoroku_fast import Position, Rules
from bansugoroku_fast.cube.decision import cube_decision
from bansugoroku_fast.cube.exact import janowski_comparison, janowski_differences
from bansugoroku_fast.endgames import (
    CUBE_STATES,
    SMALL_POSITIONS,
    CubefulEquities,
    one_sided,
    race,
    race_batch,
    race_cube,
    tables,
)
from bansugoroku_fast.endgames.__main__ import main as endgames_main
from bansugoroku_fast.errors import InvalidCubeError, NotInTableError, TableRulesError
from bansugoroku_fast.oracle import endgames as oracle_endgames

BACKGAMMON = Rules(variant="backgammon")
CENTRED, OWNED, THEIRS = (CUBE_STATES.index(name) for name in ("centred", "owned", "theirs"))


def board(row0: dict[int, int], row1: dict[int, int]) -> Position:
    """A bear-off from {point: stones} per row, the other stones off."""
    rows = []
    for stones in (row0, row1):
        row = [0] * 26
        for point, count in stones.items():
            row[point] = count
        row[0] = 15 - sum(stones.values())
        rows.append(row)
    return Position(rows)


def never_called(positions: np.ndarray) -> np.ndarray:
    raise AssertionError("an exact race needs no evaluator")


# --- equal to the oracle ------------------------------------------------------------


def assert_cubeful_equal(most_stones: int) -> None:
    expected = oracle_endgames.cubeful_table(BACKGAMMON, most_stones)
    built = tables(BACKGAMMON).no_double
    rank = oracle_endgames.rank
    different = [(a, b) for (a, b), states in expected.items()
                 if tuple(built[rank(a), rank(b)].tolist()) != states]  # type: ignore[arg-type]
    assert not different, different[:5]


def test_cubeful_table_equals_the_oracle_up_to_three_stones() -> None:
    assert_cubeful_equal(3)


@pytest.mark.slow
def test_cubeful_table_equals_the_oracle_up_to_four_stones() -> None:
    assert_cubeful_equal(4)


# --- known answers by reasoning -------------------------------------------------------


def test_a_sure_win_doubles_out() -> None:
    """One stone each on the 1-point: the side to roll bears off and wins
    1 whatever the cube; a double is a pass (a take would lose 2)."""
    position = board({1: 1}, {1: 1})
    result = race(position, BACKGAMMON)
    assert result.no_double == pytest.approx((1, 1, 1), abs=1e-15)
    assert result.cubeful == pytest.approx((1, 1, 1), abs=1e-15)
    for owner, words in ((None, "Double, pass"), (0, "Redouble, pass")):
        decision = race_cube(position, BACKGAMMON, owner=owner)
        assert (decision.doubles, decision.takes) == (True, False)
        assert decision.double_take == pytest.approx(2, abs=1e-15)
        assert cube_decision(position, BACKGAMMON, never_called, cube=1 if owner is None else 2,
                             owner=owner).action == words


def test_the_last_roll_is_a_double_and_a_take() -> None:
    """The side to roll has stones on its 5- and 1-points against one on
    the other side's 1-point: it wins only by bearing both off now. That
    takes a 5 or a 6 (20 rolls, the other die then takes the 1-point
    stone off) or 2-2, 3-3, 4-4: 23 of 36 (1-1 and the other rolls below 5
    leave a stone). Any miss loses: without a double 2 x 23/36 - 1 =
    10/36 in every cube state; doubled and taken, twice that, 20/36 < 1:
    double, take (the other side's 13/36 is above its 25% take point)."""
    assert one_sided([1, 0, 0, 0, 1, 0], BACKGAMMON)[1] == pytest.approx(23 / 36, abs=1e-15)
    position = board({5: 1, 1: 1}, {1: 1})
    result = race(position, BACKGAMMON)
    assert result.win == pytest.approx(23 / 36, abs=1e-15)
    assert result.no_double == pytest.approx((10 / 36,) * 3, abs=1e-15)
    assert result.cubeful == pytest.approx((20 / 36, 20 / 36, 10 / 36), abs=1e-15)
    decision = race_cube(position, BACKGAMMON)
    assert (decision.no_double, decision.double_take, decision.double_pass) == pytest.approx(
        (10 / 36, 20 / 36, 1), abs=1e-15)
    assert (decision.doubles, decision.takes, decision.equity) == (True, True, pytest.approx(20 / 36))
    assert cube_decision(position, BACKGAMMON, never_called).action == "Double, take"


def test_one_roll_each_worked_out_by_hand() -> None:
    """Both sides have a stone on the 5- and the 1-point: each bears both
    off in one turn with p = 23/36 (see above), and after a miss is left
    with one stone on its 3-point or lower, off next turn with any roll.
    So the side to roll wins at once with p; else the other side wins with
    p; else the side to roll wins. Cubeless: P(win) = p + (1 - p)^2 =
    997/1296. With the cube (values per cube of 1, in 1296ths):

    * the other side, after our miss, with the cube centred: not doubling,
      2p - 1 = 360 (its miss lets us double it out); doubled, we own the
      cube and its miss costs it 1 a cube: 2 x 360 = 720, below a pass:
      it doubles, we take, it is worth 720. Owning the cube the same
      (redouble, take: 720); with the cube ours it may not double: 360.
    * so for the side to roll: centred, 36p - (1 - p) 720 = 828 - 260 =
      568; owned, 828 - 13 x 360 / 36 = 698 (= the cubeless equity: no one
      else can double); theirs, 828 - 260 = 568; and doubled and taken,
      2 x 568 = 1136 < 1296: double, take; owning the cube, redouble,
      take (1136 > 698).
    """
    position = board({5: 1, 1: 1}, {5: 1, 1: 1})
    result = race(position, BACKGAMMON)
    assert result.win == pytest.approx(997 / 1296, abs=1e-15)
    assert result.no_double == pytest.approx((568 / 1296, 698 / 1296, 568 / 1296), abs=1e-15)
    assert result.cubeful == pytest.approx((1136 / 1296, 1136 / 1296, 568 / 1296), abs=1e-15)
    assert result.equity == pytest.approx(698 / 1296, abs=1e-15)
    assert cube_decision(position, BACKGAMMON, never_called).action == "Double, take"
    owned = cube_decision(position, BACKGAMMON, never_called, cube=2, owner=0)
    assert owned.action == "Redouble, take"
    assert (owned.no_double, owned.double_take) == pytest.approx((698 / 1296, 1136 / 1296), abs=1e-12)


def test_owning_the_cube_is_never_worth_less() -> None:
    """Options never hurt the side that holds them: over every pair of the
    table, owned >= centred >= theirs, the cubeless equity between owned
    and theirs (owning the cube, never doubling and playing to win is
    always possible), and the side to roll's own cube action never costs."""
    built = tables(BACKGAMMON)
    no_double = built.no_double[1:, 1:]
    cubeless = 2 * built.win[1:, 1:] - 1
    tolerance = 1e-12
    assert (no_double[..., OWNED] >= no_double[..., CENTRED] - tolerance).all()
    assert (no_double[..., CENTRED] >= no_double[..., THEIRS] - tolerance).all()
    assert (no_double[..., OWNED] >= cubeless - tolerance).all()
    assert (cubeless >= no_double[..., THEIRS] - tolerance).all()
    assert (np.abs(no_double) <= 1 + tolerance).all()
    batch_positions = np.stack([board({5: 1, 1: 1}, {5: 1, 1: 1}).array, board({6: 2, 3: 1}, {2: 4}).array])
    batch = race_batch(batch_positions, BACKGAMMON)
    assert (batch.cubeful >= batch.no_double - tolerance).all()
    assert (batch.cubeful[:, THEIRS] == batch.no_double[:, THEIRS]).all()


def test_batch_and_single_positions_agree() -> None:
    positions = [board({6: 3, 2: 2}, {5: 4}), board({6: 15}, {3: 9}), board({1: 1}, {6: 6})]
    batch = race_batch(np.stack([p.array for p in positions]), BACKGAMMON)
    assert np.isnan(batch.no_double[1]).all() and race(positions[1], BACKGAMMON).no_double is None
    for i in (0, 2):
        single = race(positions[i], BACKGAMMON)
        assert isinstance(single.no_double, CubefulEquities)
        assert batch[i] == single
        assert tuple(batch.cubeful[i]) == single.cubeful


def test_ban_sugoroku_has_no_cube() -> None:
    for rules in (Rules(finish="bear_off"), Rules()):
        assert tables(rules).no_double.shape == (0, 0, 3)
        assert race(board({1: 1}, {1: 1}) if rules.bears_off else _arrival_race(), rules).no_double is None
        with pytest.raises(TableRulesError, match="without a doubling cube"):
            race_cube(board({1: 1}, {1: 1}), rules)
    assert tables(BACKGAMMON).no_double.shape == (SMALL_POSITIONS, SMALL_POSITIONS, 3)


def _arrival_race() -> Position:
    rows = [[0] * 26, [0] * 26]
    rows[0][12], rows[0][3] = 1, 14
    rows[1][7], rows[1][2] = 1, 14
    return Position(rows)


# --- Janowski's formula against the exact figures ---------------------------------------


def test_janowski_is_exact_where_the_cube_is_dead_and_off_elsewhere() -> None:
    """A sure win is worth 1 both ways; over the whole table the formula
    misses by up to a third of a point, and its action loses something."""
    differences = janowski_differences()
    sure_win = oracle_endgames.rank((1, 0, 0, 0, 0, 0))
    assert differences[sure_win, sure_win] == pytest.approx([0, 0, 0], abs=1e-12)
    found = janowski_comparison()
    assert np.abs(differences).max() == pytest.approx(max(found.largest))
    assert found.largest_cost > 0.1 and 0 < found.mean_cost < found.largest_cost
    worst = race_cube(found.position, BACKGAMMON)
    assert worst.doubles and worst.takes


def test_the_cube_command_prints_the_comparison(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    assert endgames_main(["cube", "--plot", str(tmp_path / "cube.png")]) == 0
    printed = capsys.readouterr().out
    assert "| centred | 0.3" in printed and "the proper action differs on" in printed
    assert (tmp_path / "cube.png").stat().st_size > 1000


# --- bad input ------------------------------------------------------------------------


def test_race_cube_refuses_what_it_cannot_decide() -> None:
    with pytest.raises(InvalidCubeError, match="owner"):
        race_cube(board({1: 1}, {1: 1}), BACKGAMMON, owner=2)
    with pytest.raises(InvalidCubeError, match="owner"):
        race_cube(board({1: 1}, {1: 1}), BACKGAMMON, owner=True)
    with pytest.raises(NotInTableError, match="more than 6 stones"):
        race_cube(board({6: 7}, {1: 1}), BACKGAMMON)
