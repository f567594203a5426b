"""The exact endgame tables (bansugoroku_fast.endgames): equal to the
oracle's plain-Python builder, consistent with played-out races, exact on
positions whose answer follows from the rules, and strict about bad input
and damaged caches."""
from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import GameBatch, Play, Position, Rules, legal_plays, segment_argmax
from bansugoroku_fast.endgames import (
    POSITIONS,
    SMALL_POSITIONS,
    RacePolicy,
    first_off,
    one_sided,
    race,
    race_batch,
    race_play,
    ranks,
    stones_of_rank,
    tables,
)
from bansugoroku_fast.endgames import store as tables_module
from bansugoroku_fast.endgames.__main__ import main as endgames_main
from bansugoroku_fast.errors import (
    ContactError,
    EndgameCacheError,
    EndgameCacheWarning,
    InvalidPositionError,
    InvalidStonesError,
    NotARaceError,
    NotInTableError,
    StonesTypeError,
    TableRulesError,
)
from bansugoroku_fast.oracle import endgames as oracle_endgames

BACKGAMMON = Rules(variant="backgammon")
KIND_RULES = [BACKGAMMON, Rules(finish="bear_off"), Rules()]
OTHER_CLOSURES = [rules for rules in Rules.all_combinations() if not rules.is_backgammon
                  and rules.closure != "multiplied"]


def rank(stones: tuple[int, ...]) -> int:
    return oracle_endgames.rank(stones)  # type: ignore[arg-type]


def board(row0: dict[int, int], row1: dict[int, int]) -> Position:
    """A position from {point: stones} per row; the rest borne off (or on
    point 1 under arrival when ``off`` is not allowed: callers pass it)."""
    rows = []
    for stones in (row0, row1):
        row = [0] * 26
        for point, count in stones.items():
            row[point] = count
        row[0] = 15 - sum(stones.values())
        rows.append(row)
    return Position(rows)


# --- equal to the oracle ----------------------------------------------------------


def assert_one_sided_equal(rules: Rules, most_stones: int) -> None:
    expected = oracle_endgames.one_sided_tables(rules, most_stones)
    built = tables(rules)
    width = built.finish.shape[1]
    for stones, row in expected.finish.items():
        r = rank(stones)
        assert not any(row[width:]), stones
        assert row[:width] == built.finish[r].tolist(), (rules.short_name, stones)
        assert expected.finish_mean[stones] == built.finish_mean[r], (rules.short_name, stones)
        if rules.bears_off:
            assert expected.first[stones][:width] == built.first[r].tolist(), (rules.short_name, stones)
            assert expected.first_mean[stones] == built.first_mean[r], (rules.short_name, stones)
    assert bool(expected.first) == rules.bears_off


@pytest.mark.parametrize("rules", KIND_RULES, ids=lambda rules: rules.short_name)
def test_one_sided_tables_equal_the_oracle_up_to_four_stones(rules: Rules) -> None:
    assert_one_sided_equal(rules, 4)


@pytest.mark.parametrize("rules", OTHER_CLOSURES, ids=lambda rules: rules.short_name)
def test_closure_options_do_not_change_the_tables(rules: Rules) -> None:
    # The tables are built once per finish; the oracle builds under each closure option.
    assert_one_sided_equal(rules, 3)


def assert_two_sided_equal(rules: Rules, most_stones: int) -> None:
    expected = oracle_endgames.two_sided_table(rules, most_stones)
    built = tables(rules)
    different = [(a, b) for (a, b), win in expected.items() if win != built.win[rank(a), rank(b)]]
    assert not different, (rules.short_name, different[:5])


@pytest.mark.parametrize("rules", KIND_RULES, ids=lambda rules: rules.short_name)
def test_two_sided_table_equals_the_oracle_up_to_three_stones(rules: Rules) -> None:
    assert_two_sided_equal(rules, 3)


@pytest.mark.slow
@pytest.mark.parametrize("rules", KIND_RULES, ids=lambda rules: rules.short_name)
def test_two_sided_table_equals_the_oracle_up_to_four_stones(rules: Rules) -> None:
    assert_two_sided_equal(rules, 4)


@pytest.mark.parametrize("outside", [{7: 1}, {12: 1}, pytest.param({9: 1, 8: 1}, marks=pytest.mark.slow),
                                     pytest.param({12: 1, 7: 1}, marks=pytest.mark.slow),
                                     pytest.param({11: 2}, marks=pytest.mark.slow)])
def test_home_stones_never_matter_under_the_arrival_finish(outside: dict[int, int]) -> None:
    # Home stones that can move (on 6 and 5) or not (on 1): the least
    # expected turns over whole rows equal the table's, which ignores them.
    rules = Rules()
    stones = tuple(outside.get(point, 0) for point in range(7, 13))
    expected = tables(rules).finish_mean[rank(stones)]
    rest = 15 - sum(outside.values())
    for home in ({1: rest}, {6: 1, 5: 1, 1: rest - 2}, {6: 2, 1: rest - 2}):
        row = [0] * 26
        for point, count in {**home, **outside}.items():
            row[point] = count
        assert oracle_endgames.expected_turns(tuple(row), rules) == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_ranks_number_every_table_position_once() -> None:
    counts = [stones_of_rank(r) for r in range(POSITIONS)]
    assert all(sum(c) <= 15 and min(c) >= 0 for c in counts)
    assert len({tuple(c) for c in counts}) == POSITIONS == 54264
    assert ranks(np.array(counts, dtype=np.int8)).tolist() == list(range(POSITIONS))
    # at most 6 stones: exactly the first 924 ranks (the two-sided table's rows)
    assert [r for r, c in enumerate(counts) if sum(c) <= 6] == list(range(SMALL_POSITIONS)) == list(range(924))
    # the oracle's plain rank agrees
    assert all(oracle_endgames.rank(tuple(c)) == r for r, c in enumerate(counts[:3000]))


# --- figures that follow from the rules -------------------------------------------


def test_backgammon_has_no_tied_distribution() -> None:
    # Every backgammon distribution is the only optimal one (as the docs say);
    # Ban-sugoroku's tables have ties, marked.
    assert not tables(BACKGAMMON).tied.any()
    assert tables(Rules(finish="bear_off")).tied.any() and tables(Rules()).tied.any()
    assert not tables(Rules()).tied[:7].any()   # one stone: no choice at all


def test_distributions_are_distributions() -> None:
    for rules in KIND_RULES:
        built = tables(rules)
        assert np.abs(built.finish.sum(axis=1) - 1).max() < 1e-12
        assert (built.finish >= 0).all()
        means = (built.finish * np.arange(built.finish.shape[1])).sum(axis=1)
        assert np.abs(means - built.finish_mean).max() < 1e-9
        # sums of 21 weights of 1/36 and 2/36 miss 1 by a rounding or two
        assert ((built.win >= -1e-15) & (built.win <= 1 + 1e-15)).all()


def test_one_stone_against_one_stone_needs_no_choice() -> None:
    # A lone stone has one play per roll, so each side's play cannot depend
    # on the other's: the two-sided table equals the one-sided convolution.
    for rules in KIND_RULES:
        for mine in range(1, 7):
            for theirs in range(1, 7):
                a = tuple(int(p == mine) for p in range(1, 7))
                b = tuple(int(p == theirs) for p in range(1, 7))
                p0, p1 = one_sided(a, rules), one_sided(b, rules)
                at_least = 1 - np.concatenate([[0.0], np.cumsum(p1)])
                convolution = sum(p0[t] * at_least[t] for t in range(len(p0)) if t < len(at_least))
                assert tables(rules).win[rank(a), rank(b)] == pytest.approx(convolution, abs=1e-14)


def test_textbook_one_roll_bear_offs() -> None:
    # Two stones on the 6-point: only 3-3, 4-4, 5-5, 6-6 take both off (4 of 36);
    # on the 6- and 5-points: those and 6-5 (6 of 36); a lone stone on the 6: 27 of 36.
    assert one_sided([0, 0, 0, 0, 0, 2], BACKGAMMON)[1] * 36 == pytest.approx(4)
    assert one_sided([0, 0, 0, 0, 1, 1], BACKGAMMON)[1] * 36 == pytest.approx(6)
    assert one_sided([0, 0, 0, 0, 0, 1], BACKGAMMON).tolist() == pytest.approx([0, 27 / 36, 9 / 36])
    # Ban-sugoroku doubles move twice: 4-4 and 5-5 give 8 and 10 pips, too few for two stones on the 6.
    assert one_sided([0, 0, 0, 0, 0, 2], Rules(finish="bear_off"))[1] * 36 == pytest.approx(1)   # 6-6 only


def test_value_probabilities_add_up() -> None:
    positions = np.stack([board({6: 15}, {3: 9}).array, board({6: 3, 2: 2}, {5: 4}).array,
                          board({6: 5, 4: 10}, {6: 15}).array])
    probabilities = race_batch(positions, BACKGAMMON).value_probabilities()
    assert probabilities.sum(axis=(1, 2)) == pytest.approx([1, 1, 1])
    assert (probabilities >= -1e-15).all() and (probabilities[:, :, [0, 3]] == 0).all()


def test_race_lone_stone_on_the_six_point_backgammon() -> None:
    # Row 0 must bear off at once: all rolls but 1-1, 1-2, 1-3, 1-4, 2-3 (27 of 36).
    result = race(board({6: 1}, {1: 1}), BACKGAMMON)
    assert result.method == "two-sided"
    assert result.win == pytest.approx(27 / 36, abs=1e-15)
    assert result.equity == pytest.approx(2 * 27 / 36 - 1, abs=1e-15)
    assert result.turns == (pytest.approx(1.25), pytest.approx(1.0))


def test_race_gammon_of_fifteen_stones_on_the_six_point() -> None:
    # Row 1 finishes on its first turn; row 0 (15 on its 6-point) saves the
    # gammon only by taking a stone off now: a 6, 5-1, 4-2, 2-2 or 3-3 (17 of 36).
    result = race(board({6: 15}, {1: 1}), BACKGAMMON)
    assert result.method == "one-sided"
    assert result.win == 0.0
    assert result.lose_gammon == pytest.approx(19 / 36, abs=1e-15)
    assert result.equity == pytest.approx(-1 - 19 / 36, abs=1e-15)


def test_ban_sugoroku_races_are_worth_one() -> None:
    result = race(board({6: 15}, {1: 1}), Rules(finish="bear_off"))
    assert result.win_gammon == result.lose_gammon == 0.0
    assert result.equity == pytest.approx(2 * result.win - 1)


def test_arrival_race_reads_points_seven_to_twelve() -> None:
    # Row 0: one stone on 12, the rest home; row 1: one stone on 7 (it arrives with any roll).
    rows = [[0] * 26, [0] * 26]
    rows[0][12], rows[0][3] = 1, 14
    rows[1][7], rows[1][2] = 1, 14
    result = race(Position(rows), Rules())
    # Ban-sugoroku doubles move twice: 26 rolls of 36 bring a stone 6 pips.
    assert result.win == pytest.approx(26 / 36, abs=1e-15)
    assert result.method == "two-sided"


def test_batch_equals_single_positions() -> None:
    positions = [board({6: 3, 2: 2}, {5: 4}), board({6: 15}, {3: 9}), board({1: 1}, {6: 6})]
    batch = race_batch(np.stack([p.array for p in positions]), BACKGAMMON)
    for i, position in enumerate(positions):
        single = race(position, BACKGAMMON)
        assert batch[i] == single
    assert batch.two_sided.tolist() == [True, False, True]


# --- played out -----------------------------------------------------------------


@pytest.mark.parametrize("rules,stones", [
    (BACKGAMMON, {6: 4, 4: 3, 1: 2}), (BACKGAMMON, {6: 5, 5: 5, 4: 5}),
    (Rules(finish="bear_off"), {6: 3, 3: 4}), (Rules(), {12: 3, 10: 2, 7: 1}),
])
def test_played_out_turns_match_the_mean(rules: Rules, stones: dict[int, int]) -> None:
    """One side alone, playing each roll to the child of least mean: the
    average number of turns over many runs is the table's mean within 4
    standard errors."""
    built = tables(rules)
    base = 1 if rules.bears_off else 7
    rng = np.random.default_rng(5)
    start = [0] * 26
    for point, count in stones.items():
        start[point] = count
    start[0 if rules.bears_off else 1] = 15 - sum(stones.values())
    opponent = [0] * 26
    opponent[7] = 15
    turns = []
    for _ in range(1500):
        row, count = list(start), 0
        while any(row[base:base + 6]):
            dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
            plays = legal_plays(Position([row, opponent]), dice, rules)
            means = [built.finish_mean[rank(tuple(p.position.rows[0][base:base + 6]))] for p in plays]
            row = list(plays[int(np.argmin(means))].position.rows[0])
            count += 1
        turns.append(count)
    expected = built.finish_mean[rank(tuple(stones.get(p, 0) for p in range(base, base + 6)))]
    error = np.std(turns) / np.sqrt(len(turns))
    assert abs(np.mean(turns) - expected) < 4 * error + 1e-9


@pytest.mark.parametrize("rules", KIND_RULES, ids=lambda rules: rules.short_name)
def test_played_out_races_match_the_two_sided_win(rules: Rules) -> None:
    rows = [[0] * 26, [0] * 26]
    base = 1 if rules.bears_off else 7
    rows[0][base + 5], rows[0][base + 2], rows[0][base] = 2, 1, 1
    rows[1][base + 4], rows[1][base + 3], rows[1][base + 1] = 1, 2, 1
    for row in rows:
        row[0 if rules.bears_off else 1] = 11
    start = Position(rows)
    expected = race(start, rules)
    assert expected.method == "two-sided"
    games = 4000
    batch = GameBatch(rules, games, start=start, seed=11)
    policy = RacePolicy(rules)
    while not batch.done:
        wave = batch.candidates()
        batch.step(segment_argmax(policy(wave.children, wave.offsets), wave.offsets))
    won = (batch.records().winner == 0).mean()
    error = np.sqrt(expected.win * (1 - expected.win) / games)
    assert abs(won - expected.win) < 4 * error


def test_race_play_maximises_the_exact_win() -> None:
    # Against four stones on the 1-point (a double takes them off at once),
    # leave the lone 6 (27 rolls) rather than 4 and 2 or 5 and 1 (23 rolls).
    position = board({6: 1, 5: 1}, {1: 4})
    assert str(race_play(position, (4, 1), BACKGAMMON)) == "5/off"
    built = tables(BACKGAMMON)
    for dice in [(a, b) for a in range(1, 7) for b in range(a, 7)]:
        best = race_play(position, dice, BACKGAMMON)
        assert best is not None
        values = [1 - built.win[rank(tuple(p.position.rows[1][1:7])), rank(tuple(p.position.rows[0][1:7]))]
                  if any(p.position.rows[0][1:7]) else 1.0 for p in legal_plays(position, dice, BACKGAMMON)]
        assert max(values) == pytest.approx(
            1 - built.win[rank(tuple(best.position.rows[1][1:7])), rank(tuple(best.position.rows[0][1:7]))]
            if any(best.position.rows[0][1:7]) else 1.0)


@pytest.mark.parametrize("rules", KIND_RULES, ids=lambda rules: rules.short_name)
def test_race_play_wins_as_often_as_the_oracle_says_is_possible(rules: Rules) -> None:
    """For random pairs of up to 3 stones a side and every roll, the play
    race_play picks wins (by the oracle's two-sided table) as often as the
    best of all legal plays."""
    exact = oracle_endgames.two_sided_table(rules, 3)
    small = [stones for stones in oracle_endgames.positions(3) if sum(stones)]
    base = 1 if rules.bears_off else 7
    rng = np.random.default_rng(3)
    for _ in range(12):
        mine, theirs = (small[int(i)] for i in rng.integers(len(small), size=2))
        rows = [[0] * 26, [0] * 26]
        for row, stones in zip(rows, (mine, theirs)):
            row[base:base + 6] = stones
            row[0 if rules.bears_off else 1] = 15 - sum(stones)
        position = Position(rows)
        def value(play: Play, theirs: tuple[int, ...] = theirs) -> float:
            after = tuple(play.position.rows[0][base:base + 6])
            return 1.0 if sum(after) == 0 else 1.0 - exact[(theirs, after)]  # type: ignore[index]

        for dice in oracle_endgames.ROLLS:
            chosen = race_play(position, dice, rules)
            assert chosen is not None
            assert value(chosen) == max(value(play) for play in legal_plays(position, dice, rules))


# --- bad input ------------------------------------------------------------------


def test_contact_is_refused() -> None:
    with pytest.raises(ContactError, match="contact"):
        race(Position.initial(BACKGAMMON), BACKGAMMON)


def test_a_race_outside_the_tables_is_refused() -> None:
    with pytest.raises(NotInTableError, match=r"row 0 has stones on point\(s\) \[8\]"):
        race(board({8: 1, 6: 2}, {3: 2}), BACKGAMMON)
    with pytest.raises(NotInTableError, match=r"points 1..12"):
        rows = [[0] * 26, [0] * 26]
        rows[0][13], rows[0][1] = 1, 14
        rows[1][1] = 15
        race(Position(rows), Rules())


def test_a_finished_game_is_refused() -> None:
    with pytest.raises(NotARaceError, match="over"):
        race(board({}, {3: 2}), BACKGAMMON)


def test_batch_names_the_bad_position_or_marks_it() -> None:
    positions = np.stack([board({6: 1}, {1: 1}).array, Position.initial(BACKGAMMON).array])
    with pytest.raises(ContactError, match="position 1 of the batch"):
        race_batch(positions, BACKGAMMON)
    marked = race_batch(positions, BACKGAMMON, outside="nan")
    assert marked.in_table.tolist() == [True, False]
    assert np.isnan(marked.win[1]) and marked.win[0] == pytest.approx(0.75)
    with pytest.raises(InvalidPositionError):
        race_batch(np.zeros((1, 2, 26), dtype=np.int8), BACKGAMMON)


@pytest.mark.parametrize("stones,error", [
    ([0, 0, 0, 0, 0], InvalidStonesError), ([0, 0, 0, 0, 0, 16], InvalidStonesError),
    ([0, -1, 0, 0, 0, 1], InvalidStonesError), ("abcdef", StonesTypeError),
    ([0, 0, 0, 0, 0, 1.5], StonesTypeError), ([True, 0, 0, 0, 0, 0], StonesTypeError), (7, StonesTypeError),
])
def test_bad_stones_are_refused(stones: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        one_sided(stones, BACKGAMMON)


def test_first_off_has_no_arrival_table() -> None:
    with pytest.raises(TableRulesError, match="no first-off table"):
        first_off([0, 0, 0, 0, 0, 1], Rules())


def test_race_play_names_the_position_it_was_given() -> None:
    # The position itself has contact: say so, not "position 0 of the batch" (one of its plays).
    with pytest.raises(ContactError, match=r"^the position has contact"):
        race_play(Position.initial(BACKGAMMON), (2, 1), BACKGAMMON)


@pytest.mark.parametrize("keywords, message", [
    ({"cache": "yes"}, "cache must be True or False, got 'yes'"),
    ({"progress": 3}, "progress must be a callable taking a row count, or None, got 3"),
])
def test_build_refuses_bad_options_before_building(keywords: dict[str, object], message: str) -> None:
    with pytest.raises(TypeError, match=message):
        tables_module.build(BACKGAMMON, **keywords)


# --- the cache --------------------------------------------------------------------


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tables_module.forget()
    yield tmp_path / "bansugoroku-fast" / "endgames"
    tables_module.forget()


def test_missing_cache_is_built_and_written(fresh_cache: Path) -> None:
    with pytest.warns(EndgameCacheWarning, match="no cache file"):
        built = tables(BACKGAMMON)
    path = fresh_cache / f"backgammon-v{tables_module.FORMAT}.npz"
    assert path.exists()
    assert [p.name for p in fresh_cache.iterdir()] == [f"backgammon-v{tables_module.FORMAT}.npz"]  # no temporary left
    tables_module.forget()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = tables(BACKGAMMON)
    assert np.array_equal(again.finish, built.finish) and np.array_equal(again.win, built.win)


@pytest.mark.parametrize("damage", ["truncate", pytest.param("flip", marks=pytest.mark.slow)])
def test_damaged_cache_is_rebuilt(fresh_cache: Path, damage: str) -> None:
    with pytest.warns(EndgameCacheWarning):
        built = tables(BACKGAMMON)
    path = fresh_cache / f"backgammon-v{tables_module.FORMAT}.npz"
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    else:
        data[len(data) // 2] ^= 0xFF  # inside the finish table: the zip still reads
    path.write_bytes(bytes(data))
    tables_module.forget()
    with pytest.warns(EndgameCacheWarning, match="rebuilding"):
        again = tables(BACKGAMMON)
    assert np.array_equal(again.finish, built.finish)
    tables_module.forget()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tables(BACKGAMMON)  # the rebuilt file is sound


def _writes_into_read_only_directories() -> bool:
    """Whether this process can write into a directory of mode 0o500 (root
    can, unless it runs without CAP_DAC_OVERRIDE: .ci/full runs this test so)."""
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o500)
        try:
            Path(folder, "probe").touch()
        except PermissionError:
            return False
        finally:
            os.chmod(folder, 0o700)
        return True


@pytest.mark.skipif(_writes_into_read_only_directories(), reason="this process (root) writes into read-only "
                    "directories; .ci/full runs it without that capability")
def test_unwritable_cache_keeps_tables_in_memory(fresh_cache: Path) -> None:
    fresh_cache.mkdir(parents=True)
    fresh_cache.chmod(0o500)
    try:
        with pytest.warns(EndgameCacheWarning, match="memory only"):
            assert race(board({6: 1}, {1: 1}), BACKGAMMON).win == pytest.approx(0.75)
        with pytest.raises(EndgameCacheError):
            tables_module.build(BACKGAMMON, cache=True)
    finally:
        fresh_cache.chmod(0o700)


def test_cache_directory_that_is_a_file(fresh_cache: Path) -> None:
    # Works for root too: a file where the directory should be cannot be written into.
    fresh_cache.parent.mkdir(parents=True)
    fresh_cache.write_text("not a directory")
    with pytest.warns(EndgameCacheWarning) as caught:
        assert race(board({6: 1}, {1: 1}), BACKGAMMON).win == pytest.approx(0.75)
    assert ["no cache file" in str(w.message) for w in caught] == [True, False]
    assert "memory only" in str(caught[1].message)
    with pytest.raises(EndgameCacheError, match="cannot write"):
        tables_module.build(BACKGAMMON, cache=True)
    assert endgames_main(["build", "--kind", "backgammon"]) == 1


def test_command_builds_the_cache(fresh_cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert endgames_main(["build", "--kind", "backgammon"]) == 0
    assert (fresh_cache / f"backgammon-v{tables_module.FORMAT}.npz").exists()
    assert "backgammon: built in" in capsys.readouterr().out


def test_compare_command_prints_the_largest_differences(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    assert endgames_main(["compare", "--plot", str(tmp_path / "compare.png")]) == 0
    printed = capsys.readouterr().out
    assert printed.count("| backgammon | 0.01") == 1 and "| ban-arrival | 0.04" in printed
    assert (tmp_path / "compare.png").stat().st_size > 1000
