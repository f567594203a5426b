"""Match equity tables (bansugoroku_fast.cube.met) against their plain-Python
twin (bansugoroku_fast.oracle.met), against GNU Backgammon's own figures
(tests/data/gnubg/met_reference.json, made by make_met_reference.py inside
Debian's gnubg 1.07; and the installed gnubg when there is one), against
answers known by reasoning, and with bad input."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bansugoroku_fast import BansugorokuError
from bansugoroku_fast.cube import MatchEquityTable
from bansugoroku_fast.cube.met import DEFAULT_FILE
from bansugoroku_fast.errors import (
    ArgumentTypeError,
    MatchEquityQueryError,
    MatchEquityQueryTypeError,
    MatchEquityTableError,
)
from bansugoroku_fast.oracle import met as oracle

GNUBG_METS = Path("/usr/share/gnubg/met")
GNUBG = Path("/usr/games/gnubg")
REFERENCE = Path(__file__).parent / "data" / "gnubg" / "met_reference.json"
INSTALLED = sorted(p.name for p in GNUBG_METS.glob("*.xml") if p.name != "catalog.xml") \
    if GNUBG_METS.is_dir() else []
KAZAROSS = "Kazaross-XG2.xml"
PROBABILITIES = [0.62, 0.21, 0.012, 0.09, 0.004]


def table_path(name: str) -> str:
    """The shipped copy of Kazaross-XG2, gnubg's copy of the others (skip when absent)."""
    if name == KAZAROSS:
        return DEFAULT_FILE
    if not (GNUBG_METS / name).is_file():
        pytest.skip(f"GNU Backgammon's tables are not installed ({GNUBG_METS}/{name}): apt install gnubg")
    return str(GNUBG_METS / name)


def scores(length: int):
    """Every score of a ``length``-point match, with each Crawford flag it can have."""
    for s0 in range(length):
        for s1 in range(length):
            for crawford in ((False, True) if length - 1 in (s0, s1) else (False,)):
                yield (s0, s1), crawford


# ---------------------------------------------------------------- (a) the twin


@pytest.mark.parametrize("name", sorted(set(INSTALLED) | {KAZAROSS}))
def test_twin_agrees_on_every_score_to_25(name):
    path = table_path(name)
    table, twin = MatchEquityTable.load(path), oracle.MatchEquityTable.load(path)
    assert np.array_equal(table.pre_crawford, np.array(twin.pre, dtype=np.float64))
    assert np.array_equal(table.post_crawford, np.array(twin.post, dtype=np.float64))
    assert (table.name, table.description) == (twin.name, twin.description)
    for score, crawford in scores(25):
        for player in (0, 1):
            assert table.match_winning_chance(score, 25, player, crawford) == \
                twin.match_winning_chance(score, 25, player, crawford)
            assert table.eq_to_mwc(-0.4, score, 25, player, 2, crawford) == \
                twin.eq_to_mwc(-0.4, score, 25, player, 2, crawford)
        assert table.results(score, 25, 2, crawford).tolist() == twin.results(score, 25, 2, crawford)
        assert table.gammon_values(score, 25, 1, crawford).tolist() == twin.gammon_values(score, 25, 1, crawford)
    for score, crawford in list(scores(25))[::7]:    # the costliest look-up, at every 7th score
        assert table.live_cash_points(PROBABILITIES, score, 25, 1, crawford, player=1) == \
            twin.live_cash_points(PROBABILITIES, score, 25, 1, crawford, player=1)


def test_twin_agrees_on_every_shorter_match():
    table, twin = MatchEquityTable.default(), oracle.MatchEquityTable.default()
    for length in range(1, 12):
        for score, crawford in scores(length):
            for cube in (1, 4):
                for player in (0, 1):
                    assert table.live_cash_points(PROBABILITIES, score, length, cube, crawford, player=player) \
                        == twin.live_cash_points(PROBABILITIES, score, length, cube, crawford, player=player)
                    try:
                        ours = table.mwc_to_eq(0.3, score, length, player, cube, crawford)
                    except MatchEquityQueryError:
                        ours = None
                    assert ours == twin.mwc_to_eq(0.3, score, length, player, cube, crawford)


# ---------------------------------------------------------------- (b) GNU Backgammon's figures


REFERENCE_TABLES = sorted(json.loads(REFERENCE.read_text())["tables"])


@pytest.mark.parametrize("name", REFERENCE_TABLES)
def test_tables_equal_gnubgs(name):
    """The entries a file gives equal gnubg's exactly; the extension's within
    one float32 step (the build's erf rounds its last bit otherwise)."""
    figures = json.loads(REFERENCE.read_text())["tables"][name]
    table = MatchEquityTable.load(table_path(name))
    size = len(figures["pre"])
    np.testing.assert_allclose(table.pre_crawford[:size, :size], figures["pre"], rtol=0, atol=1e-6)
    for index, row in figures["pre_rows"].items():
        np.testing.assert_allclose(table.pre_crawford[int(index)], row, rtol=0, atol=1e-6)
    for index, column in figures["pre_columns"].items():
        np.testing.assert_allclose(table.pre_crawford[:, int(index)], column, rtol=0, atol=1e-6)
    np.testing.assert_allclose(table.post_crawford, figures["post"], rtol=0, atol=1e-8)
    if table.native_length > 0:
        native = table.native_length
        np.testing.assert_array_equal(table.pre_crawford[:min(native, size), :min(native, size)],
                                      np.float32(figures["pre"])[:native, :native])


@pytest.mark.parametrize("name", REFERENCE_TABLES)
def test_cube_figures_equal_gnubgs(name):
    table = MatchEquityTable.load(table_path(name))
    for case in json.loads(REFERENCE.read_text())["tables"][name]["cubes"]:
        score, length, cube, crawford, player = tuple(case["score"]), case["length"], case["cube"], \
            case["crawford"], case["player"]
        (gammon_0, backgammon_0), (gammon_1, backgammon_1) = case["gammonprice"]
        np.testing.assert_allclose(table.gammon_values(score, length, cube, crawford),
                                   [gammon_0, gammon_1, backgammon_0, backgammon_1], rtol=0, atol=1e-6)
        for equity, mwc in case["eq2mwc"]:
            assert table.eq_to_mwc(equity, score, length, player, cube, crawford) == pytest.approx(mwc, abs=1e-6)
        win = table.eq_to_mwc(1.0, score, length, player, cube, crawford)
        lose = table.eq_to_mwc(-1.0, score, length, player, cube, crawford)
        for mwc, equity in case["mwc2eq"]:
            # an extension entry one float32 step (6e-8) off moves the equity by 2 steps / (win - lose)
            tolerance = 1e-6 + 2.5e-7 / abs(win - lose)
            assert table.mwc_to_eq(mwc, score, length, player, cube, crawford) == pytest.approx(equity, abs=tolerance)


GNUBG_SCRIPT = """
import json
import gnubg
gnubg.command("set matchequitytable {path}")
pre, post0, post1 = gnubg.met()
info = gnubg.cubeinfo(2, -1, 1, 9, (3, 5), 0, 0)
print("MET" + json.dumps({{"pre": [row[:12] for row in pre[:12]], "post": [post0[:12], post1[:12]],
    "gammonprice": info["gammonprice"], "eq2mwc": gnubg.eq2mwc(0.25, info), "mwc2eq": gnubg.mwc2eq(0.4, info)}}))
"""


@pytest.mark.skipif(not GNUBG.exists(), reason="GNU Backgammon is not installed (/usr/games/gnubg)")
def test_installed_gnubg_agrees(tmp_path):
    """The shipped Kazaross-XG2 loaded into the installed gnubg gives our figures."""
    script = tmp_path / "met_probe.py"
    script.write_text(GNUBG_SCRIPT.format(path=DEFAULT_FILE))
    run = subprocess.run([str(GNUBG), "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path)
    line = next((line for line in run.stdout.splitlines() if line.startswith("MET")), None)
    assert line is not None, run.stdout + run.stderr
    figures = json.loads(line[3:])
    table = MatchEquityTable.default()
    np.testing.assert_allclose(table.pre_crawford[:12, :12], figures["pre"], rtol=0, atol=1e-7)
    np.testing.assert_allclose(table.post_crawford[:, :12], figures["post"], rtol=0, atol=1e-7)
    (gammon_0, backgammon_0), (gammon_1, backgammon_1) = figures["gammonprice"]
    np.testing.assert_allclose(table.gammon_values((3, 5), 9, 2), [gammon_0, gammon_1, backgammon_0, backgammon_1],
                               rtol=0, atol=1e-6)
    assert table.eq_to_mwc(0.25, (3, 5), 9, player=1, cube=2) == pytest.approx(figures["eq2mwc"], abs=1e-6)
    assert table.mwc_to_eq(0.4, (3, 5), 9, player=1, cube=2) == pytest.approx(figures["mwc2eq"], abs=1e-6)


# ---------------------------------------------------------------- (c) known answers


def test_one_away_one_away_is_even():
    table = MatchEquityTable.default()
    assert table.match_winning_chance((6, 6), 7) == 0.5
    assert table.match_winning_chance((6, 6), 7, player=1) == 0.5
    assert table.match_winning_chance((0, 0), 1) == 0.5


def test_symmetric_entries_sum_to_one():
    pre = MatchEquityTable.default().pre_crawford
    np.testing.assert_allclose(pre + pre.T, 1.0, rtol=0, atol=1e-6)
    assert np.all(np.abs(np.diag(pre) - 0.5) < 1e-6)


def test_chances_rise_with_the_lead():
    pre = MatchEquityTable.default().pre_crawford
    assert np.all(np.diff(pre, axis=0) <= 0) and np.all(np.diff(pre, axis=1) >= 0)


def test_a_win_that_ends_the_match():
    table = MatchEquityTable.default()
    assert table.after_win((5, 3), 7, player=0, winner=0, points=2) == 1.0
    assert table.after_win((5, 3), 7, player=1, winner=0, points=2) == 0.0
    assert table.after_win((6, 6), 7, player=1, winner=1, points=1) == 1.0
    assert table.results((0, 0), 3, cube=4)[:, :5].tolist() == [[1.0] * 5, [1.0] * 5]


def test_crawford_and_post_crawford():
    table = MatchEquityTable.default()
    # post-Crawford, the trailer 2-away: the file's second post-Crawford entry
    assert table.match_winning_chance((6, 5), 7, player=1) == table.post_crawford[1, 1]
    # the Crawford game reads the pre-Crawford table's first row
    assert table.match_winning_chance((6, 5), 7, crawford=True) == table.pre_crawford[0, 1]
    # the game after the Crawford game is post-Crawford: the trailer, 4-away, wins a point to be 3-away
    assert table.after_win((6, 3), 7, player=1, winner=1, points=1, crawford=True) == table.post_crawford[1, 2]


def test_equity_and_mwc_are_inverse():
    table = MatchEquityTable.default()
    for equity in (-1.0, -0.3, 0.0, 0.45, 1.0):
        mwc = table.eq_to_mwc(equity, (2, 4), 9, player=1, cube=2)
        assert table.mwc_to_eq(mwc, (2, 4), 9, player=1, cube=2) == pytest.approx(equity, abs=1e-5)
    assert table.eq_to_mwc(1.0, (2, 4), 9, player=1, cube=2) == \
        pytest.approx(table.after_win((2, 4), 9, player=1, winner=1, points=2), abs=1e-7)


def test_dead_cube_cash_point_is_the_chance_after_cashing():
    """At 3-away 3-away on a 2-cube a redouble is dead: with no gammons the
    take wins or loses the match, so the cash point is the chance the
    doubler keeps by cashing."""
    table = MatchEquityTable.default()
    cash = table.after_win((4, 4), 7, player=0, winner=0, points=2)
    points = table.live_cash_points([0.5, 0, 0, 0, 0], (4, 4), 7, cube=2)
    assert points == pytest.approx((cash, cash), abs=1e-6)


def test_gammons_are_dead_post_crawford_for_the_leader():
    """The leader 1-away wins the match with any win: its gammons are worth nothing."""
    assert MatchEquityTable.default().gammon_values((6, 2), 7)[0] == 0.0


def test_value_semantics():
    table = MatchEquityTable.default()
    assert table == MatchEquityTable.load(DEFAULT_FILE) and hash(table) == hash(MatchEquityTable.load(DEFAULT_FILE))
    assert table.name == "Kazaross XG2 25 point MET" and table.description.startswith("Generated using XG")
    with pytest.raises(ValueError):
        table.pre_crawford[0, 0] = 0.3
    with pytest.raises(AttributeError):
        table.name = "other"  # type: ignore[misc]


# ---------------------------------------------------------------- (d) bad input


def write(tmp_path, text: str) -> str:
    path = tmp_path / "table.xml"
    path.write_text(text)
    return str(path)


def explicit(pre: list[list[float]], post: list[float], length: int | None = None) -> str:
    rows = "".join("<row>" + "".join(f"<me>{v}</me>" for v in row) + "</row>\n" for row in pre)
    length = len(pre) if length is None else length
    return (f"<met><info><name>t</name><length>{length}</length></info>\n"
            f"<pre-crawford-table type=\"explicit\">\n{rows}</pre-crawford-table>\n"
            f"<post-crawford-table type=\"explicit\" player=\"both\"><row>"
            + "".join(f"<me>{v}</me>" for v in post) + "</row></post-crawford-table></met>\n")


GOOD_PRE = [[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]]


def test_a_small_table_loads(tmp_path):
    table = MatchEquityTable.load(write(tmp_path, explicit(GOOD_PRE, [0.5, 0.48])))
    assert table.match_winning_chance((1, 0), 3) == pytest.approx(0.6)


@pytest.mark.parametrize(("text", "message"), [
    ("<met><info>", "line 1: not well-formed XML"),
    ("<table/>", "the root element is <table>, not <met>"),
    (explicit(GOOD_PRE, [0.5, 0.48, 0.3], length=4), "line 2: the pre-Crawford table must be 4 rows of 4"),
    (explicit([[0.5, 0.7, 0.8], [0.3, 0.5], [0.2, 0.4, 0.5]], [0.5, 0.48]), "it has 3 rows of [3, 2, 3]"),
    (explicit(GOOD_PRE, [0.5]), "player 0's post-Crawford table has 1 values"),
    (explicit([[0.5, 1.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.4, 0.5]], [0.5, 0.48]), "line 3: the pre-Crawford "
     "table holds 1.7"),
    (explicit([[0.5, 0.7, 0.8], [0.3, 0.5, 0.6], [0.2, 0.6, 0.5]], [0.5, 0.48]), "chances must rise with the lead"),
    (explicit(GOOD_PRE, [0.5, 0.52]), "must fall as the trailer falls behind"),
    (explicit(GOOD_PRE, [0.5, "x"]), "<me> holds 'x', not a number"),
    (explicit(GOOD_PRE, [0.5, 0.48], length=65), "<length> is '65'"),
    (explicit(GOOD_PRE, [0.5, 0.48]).replace('type="explicit" player', 'type="rollout" player'),
     "table type 'rollout' is not one of explicit, zadeh, mec"),
    (explicit(GOOD_PRE, [0.5, 0.48]).replace('player="both"', 'player="0"'),
     "no post-Crawford table for player 1"),
    ('<met><info><length>-1</length></info><pre-crawford-table type="zadeh"><parameters>'
     '<parameter name="gamon-rate">0.2</parameter></parameters></pre-crawford-table></met>',
     "a zadeh table has no parameter 'gamon-rate'"),
    ('<met><info><length>-1</length></info><pre-crawford-table type="zadeh"/><post-crawford-table type="zadeh">'
     '<parameters><parameter name="gammon-rate-trailer">9</parameter></parameters></post-crawford-table></met>',
     "the post-Crawford parameters give chances outside [0, 1]"),
    ('<met><info><length>5</length></info><pre-crawford-table type="mec"/><post-crawford-table type="mec"/></met>',
     "a mec pre-Crawford table of <length> 5"),
])
def test_bad_files(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(MatchEquityTableError, match=r"table\.xml: ") as caught:
        MatchEquityTable.load(path)
    assert message in str(caught.value)
    assert isinstance(caught.value, BansugorokuError) and isinstance(caught.value, ValueError)


def test_bad_paths(tmp_path):
    with pytest.raises(MatchEquityTableError, match="cannot read the file"):
        MatchEquityTable.load(tmp_path / "absent.xml")
    with pytest.raises(ArgumentTypeError, match=r"a str or os\.PathLike"):
        MatchEquityTable.load(3)  # type: ignore[arg-type]


def test_bad_arrays():
    table = MatchEquityTable.default()
    with pytest.raises(MatchEquityTableError, match=r"pre_crawford must have shape \(64, 64\)"):
        MatchEquityTable("t", "", 3, np.zeros((3, 3)), table.post_crawford)
    with pytest.raises(MatchEquityTableError, match="post_crawford holds chances outside"):
        MatchEquityTable("t", "", 64, table.pre_crawford, table.post_crawford + 1.0)


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda t: t.match_winning_chance((7, 0), 7), MatchEquityQueryError, "score (7, 0) is not a score of a 7-point"),
    (lambda t: t.match_winning_chance((-1, 0), 7), MatchEquityQueryError, "each score is 0..6"),
    (lambda t: t.match_winning_chance((0, 0), 65), MatchEquityQueryError, "a match length is 1..64"),
    (lambda t: t.match_winning_chance((0, 0), 0), MatchEquityQueryError, "a match length is 1..64"),
    (lambda t: t.match_winning_chance((2, 3), 7, crawford=True), MatchEquityQueryError,
     "a Crawford game needs a player 1-away"),
    (lambda t: t.match_winning_chance((2, 3), 7, player=2), MatchEquityQueryError, "player must be 0 or 1"),
    (lambda t: t.after_win((2, 3), 7, player=0, winner=0, points=0), MatchEquityQueryError,
     "points won must be at least 1"),
    (lambda t: t.results((2, 3), 7, cube=3), MatchEquityQueryError, "a cube is a power of two"),
    (lambda t: t.eq_to_mwc(float("nan"), (2, 3), 7), MatchEquityQueryError, "equity must be finite"),
    (lambda t: t.live_cash_points([0.5, 0.1, 0.0, 0.1], (2, 3), 7), MatchEquityQueryError,
     "probabilities are five numbers"),
    (lambda t: t.live_cash_points([0.5, 0.1, 0.0, 1.1, 0.0], (2, 3), 7), MatchEquityQueryError,
     "probabilities are five numbers"),
    (lambda t: t.match_winning_chance("2-3", 7), MatchEquityQueryTypeError, "a score is a pair"),
    (lambda t: t.match_winning_chance((2.0, 3), 7), MatchEquityQueryTypeError, "a score must be an integer"),
    (lambda t: t.match_winning_chance((2, 3), 7.0), MatchEquityQueryTypeError, "length must be an integer"),
    (lambda t: t.match_winning_chance((2, 3), 7, crawford=1), MatchEquityQueryTypeError, "crawford must be a bool"),
    (lambda t: t.results((2, 3), 7, cube=True), MatchEquityQueryTypeError, "cube must be an integer"),
    (lambda t: t.mwc_to_eq("0.5", (2, 3), 7), MatchEquityQueryTypeError, "mwc must be a real number"),
    (lambda t: t.live_cash_points(["a"] * 5, (2, 3), 7), MatchEquityQueryTypeError,
     "probabilities must be five real numbers"),
])
def test_bad_queries(call, error, message):
    with pytest.raises(error) as caught:
        call(MatchEquityTable.default())
    assert message in str(caught.value)
    assert isinstance(caught.value, (TypeError if issubclass(error, TypeError) else ValueError))


def test_saturated_table_has_no_equity():
    """jac050's 2-away 25-away: winning and losing a point leave the same chance."""
    table = MatchEquityTable.load(table_path("jac050.xml"))
    with pytest.raises(MatchEquityQueryError, match="no equity gives an MWC there"):
        table.mwc_to_eq(0.5, (23, 0), 25)
