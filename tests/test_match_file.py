"""Match files (``.mat``): reading GNU Backgammon's exports and hand-written
files, writing our games, round trips, and bad input.

``tests/data/gnubg/*.mat`` were exported by GNU Backgammon 1.07 (see
``tests/data/gnubg/make_fixtures.py``); the expected values below are read
off those files by eye (the comments say where).
"""
from __future__ import annotations

import contextlib
import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bansugoroku_fast import Computer, Game, GameRecords, Match, Position, Rules, oracle, play_games
from bansugoroku_fast.errors import InvalidRulesError, MatchFileError
from bansugoroku_fast.formats import parse_match, read_match, write_match
from bansugoroku_fast.formats.mat import MAX_FILE_BYTES

DATA = Path(__file__).parent / "data"
AUTO5 = DATA / "gnubg" / "auto5.mat"
RESIGN3 = DATA / "gnubg" / "resign3.mat"
CONSTRUCTS = DATA / "mat" / "constructs.mat"
BACKGAMMON = Rules(variant="backgammon")


def random_game(rules: Rules, seed: int) -> Game:
    """A whole game of random plays: the computer in both seats, no cube."""
    game = Game(rules, seed)
    for seat in (0, 1):
        game.hand_over(seat, Computer("random", cube=None, rng=random.Random(seed)))
    game.advance()
    return game


def assert_plays_chain(record, rules):
    """Every ply is a legal play by the oracle, and the next ply starts from
    its result seen by the other side."""
    for game in record.games:
        for ply in range(len(game.positions)):
            before = Position(game.positions[ply])
            after = Position(game.after[ply])
            dice = tuple(int(d) for d in game.dice[ply])
            legal = {play.position for play in oracle.legal_plays(before, dice, rules)}
            assert after in legal or (not legal and after == before)
            if ply + 1 < len(game.positions):
                assert np.array_equal(game.positions[ply + 1], game.after[ply][::-1])
                assert game.movers[ply + 1] == 1 - game.movers[ply]


# --- GNU Backgammon's own files ------------------------------------------------------


def test_gnubg_match_reads_with_its_cube_actions_and_results():
    record = read_match(AUTO5)
    assert record.match_length == 5
    assert record.players == ("gnubg", "root")
    assert record.headers == {"EventDate": "2026.12.01"}
    first, second, third = record.games
    # Game 1, move 23: gnubg (left) doubles to 4, root drops, gnubg wins the 2 of the cube.
    assert (first.winner, first.points, first.ending, first.game.cube) == (0, 2, "drop", 2)
    # Game 2 is opened by root: its first line has an empty left column.
    assert (first.starter, second.starter, third.starter) == (0, 1, 0)
    assert (second.winner, second.points, second.ending) == (0, 2, "drop")
    # Game 3 starts at 4-0 in a 5-point match: the Crawford game, won by bearing off (1 point).
    assert [game.crawford for game in record.games] == [False, False, True]
    assert (third.winner, third.points, third.ending) == (0, 1, "play")
    assert third.after[-1][0][0] == 15  # the winner's last play bears off its 15th stone
    assert record.scores == (5, 0)
    # Game 1 has 23 numbered lines: 22 with two rolls, less one double and one take.
    assert len(first.positions) == 22 * 2 - 2
    assert first.dice[0].tolist() == [2, 1] and first.dice[1].tolist() == [4, 1]
    assert_plays_chain(record, BACKGAMMON)


def test_a_dance_is_a_ply_without_movement():
    record = read_match(AUTO5)
    # Game 2, move 8: root rolls 54 and writes no play (on the bar, both entry points made).
    second = record.games[1]
    dance = [ply for ply in range(len(second.positions)) if np.array_equal(second.positions[ply], second.after[ply])]
    assert len(dance) == 1
    ply = dance[0]
    assert second.dice[ply].tolist() == [5, 4] and second.movers[ply] == 1
    assert second.positions[ply][0][25] >= 1  # the mover is on the bar


def test_gnubg_resignation():
    record = read_match(RESIGN3)
    (game,) = record.games
    # The last line: "Wins 4 points" in root's column after gnubg resigned a gammon on a 2-cube.
    assert (game.winner, game.points, game.ending) == (1, 4, "resign")
    assert (game.game.cube, game.game.cube_owner) == (2, 0)
    assert game.game.result is None  # the game itself never ended on the board
    assert record.scores == (0, 4)


def test_hand_written_file_with_every_construct():
    """CRLF line ends, a comment and headers, a blank left column, a joined
    move with a hit in its middle (13/11*/5), (2) counts, a dance, the cube,
    'bar/' and a resignation in the right column."""
    assert b"\r\n" in CONSTRUCTS.read_bytes()
    record = read_match(CONSTRUCTS)
    assert record.headers == {"Site": "hand-written for the tests", "Player 1": "Alice"}
    assert record.players == ("Alice", "Bob") and record.match_length == 3
    (game,) = record.games
    assert game.starter == 1
    assert [a.kind for a in game.actions] == ["roll"] * 6 + ["double", "take", "roll", "roll", "win"]
    # Bob's 62: 13/11*/5 hits Alice's blot on her 14 (his 11): she is on the bar ...
    assert game.after[4][1][25] == 1
    # ... and dances with 66, both her entry points (his 6 point, 4 stones) being made.
    assert np.array_equal(game.positions[5], game.after[5])
    # Alice enters with 43: bar/21 13/10.
    assert game.after[-1][0][25] == 0 and game.after[-1][0][21] == 1
    # Bob doubled, Alice took; Alice then resigned a single game: 2 points.
    assert (game.game.cube, game.game.cube_owner) == (2, 0)
    assert (game.winner, game.points, game.ending) == (1, 2, "resign")


def _rewritten(record, text: str, replace) -> str:
    """``text`` with each roll's play replaced by ``replace(game, ply, action)``."""
    lines = text.splitlines()
    for game in record.games:
        rolls = [action for action in game.actions if action.kind == "roll"]
        # Right to left within a line, so that earlier columns stay put.
        for ply, action in sorted(enumerate(rolls), key=lambda item: (item[1].line, -item[1].column)):
            line = lines[action.line - 1]
            start = action.column - 1
            end = line.index(":", start) + 1
            rest = line[end:]
            written = len(rest) - len(rest.lstrip()) + len(action.text)
            stop = len(rest) if action.seat == 1 or not rest.strip() else written
            new = replace(game, ply, action)
            lines[action.line - 1] = line[:end] + " " + new + "   " + rest[stop:].lstrip() if action.seat == 0 \
                else line[:end] + " " + new
    return "\n".join(lines) + "\n"


def test_joined_notation_and_words_read_to_the_same_games():
    """The same match written with our notation (joined steps, bar/off words,
    (2) counts) instead of gnubg's one step per die replays identically."""
    text = AUTO5.read_text()
    record = parse_match(text)

    def ours(game, ply, action):
        before = Position(game.positions[ply])
        after = Position(game.after[ply])
        dice = tuple(int(d) for d in game.dice[ply])
        plays = [play for play in oracle.legal_plays(before, dice, BACKGAMMON) if play.position == after]
        return str(plays[0]) if plays else ""

    rewritten = _rewritten(record, text, ours)
    assert "/off" in rewritten and "bar/" in rewritten and "(2)" in rewritten
    again = parse_match(rewritten.replace("\n", "\r\n"))
    for mine, theirs in zip(record.games, again.games):
        assert np.array_equal(mine.after, theirs.after)
        assert (mine.winner, mine.points) == (theirs.winner, theirs.points)


# --- writing ------------------------------------------------------------------------


def _same_games(games, record):
    assert len(record.games) == len(games)
    for game, read in zip(games, record.games):
        turns = [r for r in game.history if hasattr(r, "play")]
        assert len(read.positions) == len(turns)
        for ply, turn in enumerate(turns):
            assert sorted(read.dice[ply].tolist()) == sorted(turn.dice)
            if turn.play is not None:
                assert Position(read.after[ply]) == turn.play.position
        assert (read.winner, read.points) == (game.result.winner, game.result.points)
        assert (read.game.cube, read.game.cube_owner) == (game.cube, game.cube_owner)


def test_written_gnubg_match_reads_back_and_is_a_fixed_point():
    record = read_match(AUTO5)
    text = write_match(record)
    again = parse_match(text)
    for mine, theirs in zip(record.games, again.games):
        assert np.array_equal(mine.positions, theirs.positions)
        assert np.array_equal(mine.after, theirs.after)
        assert (mine.winner, mine.points, mine.ending, mine.starter) == (
            theirs.winner, theirs.points, theirs.ending, theirs.starter)
    assert write_match(again) == text
    # The layout is gnubg's: the same lines, each action (dice, cube words,
    # wins) starting in the same column (the steps of a play may be listed
    # in another order).
    action = re.compile(r"\d\d:|Doubles => \d+|Takes|Drops|Wins \d+ points?|Game \d+|\S+ : \d+")
    original = [line for line in AUTO5.read_text().splitlines() if line.strip()]
    written = [line for line in text.splitlines() if line.strip()]
    assert len(original) == len(written)
    for theirs, mine in zip(original, written):
        assert [(m.start(), m.group()) for m in action.finditer(theirs)] == [
            (m.start(), m.group()) for m in action.finditer(mine)]


def random_cube_match(seed: int, games: int) -> Match:
    """Backgammon games with random plays and random doubles, takes and drops."""
    rng = random.Random(seed)
    match = Match(BACKGAMMON, rng)
    for _ in range(games):
        game = match.new_game()
        while not game.is_over:
            if game.can_double and rng.random() < 0.1:
                game.offer_double()
                if rng.random() < 0.75:
                    game.take()
                else:
                    game.drop()
                    break
            game.roll()
            if game.dice is not None:
                plays = game.legal_plays()
                game.play(plays[rng.randrange(len(plays))])
    return match


@pytest.mark.parametrize("seed", range(4))
def test_random_matches_with_the_cube_round_trip(seed):
    match = random_cube_match(seed, 25)
    record = parse_match(write_match(match, players=("North", "South")))
    assert record.players == ("North", "South")
    assert record.scores == match.scores
    _same_games(match.games, record)


@pytest.mark.slow
def test_thousands_of_random_games_round_trip():
    match = random_cube_match(99, 2000)
    _same_games(match.games, parse_match(write_match(match)))


@pytest.mark.parametrize("rules", [r for r in Rules.all_combinations() if not r.is_backgammon], ids=str)
def test_ban_sugoroku_games_round_trip_with_a_variant_header(rules):
    match = Match(rules, seed=3)
    match.play_random_games(3)
    text = write_match(match)
    assert f'; [Variant "ban-sugoroku,finish={rules.finish},closure={rules.closure},start={rules.start}"]' in text
    record = parse_match(text)
    assert record.rules == rules
    _same_games(match.games, record)
    # Alternate start: the first seat opens game 1, the other game 2.
    assert [game.starter for game in record.games] == [0, 1, 0]


def test_a_first_name_longer_than_the_left_column_still_reads_back():
    """The score line needs a space between the first player's score and the
    second name (found by the match_file fuzz target)."""
    game = random_game(BACKGAMMON, seed=4)
    players = ("A" * 40, "Bob")
    record = parse_match(write_match(game, players=players))
    assert record.players == players
    _same_games([game], record)


def test_a_single_game_and_a_list_of_games_are_written_too():
    game = random_game(BACKGAMMON, seed=4)
    _same_games([game], parse_match(write_match(game)))
    games = [random_game(BACKGAMMON, seed=seed) for seed in (5, 6)]
    _same_games(games, parse_match(write_match(games)))


def _records(games) -> GameRecords:
    """The records play_games would give for these games (built from their
    replays): seat 0 is the side that moved first in each game."""
    positions, dice, after, offsets = [], [], [], [0]
    for game in games:
        position = Position.initial(game.rules)
        for turn in (r for r in game.history if hasattr(r, "play")):
            positions.append(position.array)
            dice.append(turn.dice)
            result = turn.play.position if turn.play is not None else position
            after.append(result.array)
            position = result.swapped()
        offsets.append(len(positions))
    offsets = np.array(offsets, dtype=np.int64)
    return GameRecords(
        offsets=offsets,
        positions=np.array(positions, dtype=np.int8),
        dice=np.array(dice, dtype=np.int8),
        after=np.array(after, dtype=np.int8),
        # Seats relative to the side that moved first (seat 0 in the records).
        winner=np.array([g.result.winner ^ g.starter for g in games], dtype=np.int8),
        value=np.array([g.result.points for g in games], dtype=np.int8),
        kind=np.zeros(len(games), dtype=np.int8),  # not written to a match file
        plies=np.diff(offsets).astype(np.int32),
    )


def _assert_records_read_back(records: GameRecords, record) -> None:
    """Each game of ``record`` (a match file read back) is the game of the
    records: the same plies, seat 0 opening, the same winner and points."""
    assert len(record.games) == len(records.offsets) - 1
    for index, read in enumerate(record.games):
        start, end = records.offsets[index], records.offsets[index + 1]
        assert read.starter == 0
        assert np.array_equal(read.positions, records.positions[start:end])
        assert np.array_equal(read.after, records.after[start:end])
        assert (read.winner, read.points) == (records.winner[index], records.value[index])


@pytest.mark.parametrize("rules", [Rules(), Rules(finish="bear_off", closure="immediate"), BACKGAMMON], ids=str)
def test_play_games_shaped_records_are_written(rules):
    games = [random_game(rules, seed=seed) for seed in range(3)]
    records = _records(games)
    _assert_records_read_back(records, parse_match(write_match(records, rules=rules)))


@pytest.mark.parametrize("rules", Rules.all_combinations(), ids=str)
def test_play_games_records_round_trip(rules):
    """Real play_games output (the kernels' games, their roll-off opening in
    backgammon, gammons and closures) written and read back ply by ply."""
    records = play_games(rules, games=6, policy="random", seed=11)
    _assert_records_read_back(records, parse_match(write_match(records, rules=rules)))


@pytest.mark.parametrize("rules", [Rules(), BACKGAMMON], ids=str)
def test_the_oracles_play_games_records_are_written_as_the_packages(rules):
    """The oracle's records hold lists where the package's hold arrays: the
    same games (the same seed) give the same file."""
    ours = play_games(rules, games=3, policy="random", seed=5)
    theirs = oracle.play_games(rules, games=3, policy="random", seed=5)
    assert isinstance(theirs.positions, list)  # not the package's arrays: the case under test
    assert write_match(theirs, rules=rules) == write_match(ours, rules=rules)


def test_records_with_an_impossible_ply_are_refused():
    records = _records([random_game(BACKGAMMON, seed=1)])
    after = records.after.copy()
    after[3] = records.positions[3]  # "no movement", where the roll had legal plays
    records = records._replace(after=after)
    with pytest.raises(ValueError, match="game 0, ply 3"):
        write_match(records, rules=BACKGAMMON)


def test_records_from_another_start_are_refused():
    """A match file replays every game from the start position: records
    played from elsewhere (play_games(start=...)) cannot be written."""
    start = oracle.legal_plays(Position.initial(), (3, 1), BACKGAMMON)[0].position.swapped()
    records = play_games(BACKGAMMON, games=1, seed=2, start=start)
    with pytest.raises(ValueError, match=r"game 0, ply 0: starts from .*not the start position"):
        write_match(records, rules=BACKGAMMON)


# --- bad input ---------------------------------------------------------------------------

@pytest.mark.parametrize("arguments, words", [
    ({"match_length": -1}, "match_length must be an integer >= 0"),
    ({"match_length": "5"}, "match_length must be an integer >= 0"),
    ({"players": ("Alice",)}, "players must be two names"),
    ({"players": "AB"}, "players must be two names"),
    ({"players": ("Alice\nGame 2", "Bob")}, "players must be two names"),
    ({"headers": {"Event\n": "x"}}, r"header 'Event\\n'"),
    ({"headers": {"Event]": "x"}}, r"header 'Event\]'"),
    ({"headers": {"Event": 5}}, "header 'Event': 5"),
    ({"headers": ["Event"]}, "headers must be a dict"),
    ({"rules": Rules()}, "played under backgammon, not the rules= given"),
    ({"rules": "backgammons"}, "cannot read rules"),
])
def test_write_match_refuses_what_its_text_cannot_carry(arguments, words):
    """A header or name with a line break would be read back as other lines, a negative
    length is no match; the games' own rules cannot be overridden."""
    with pytest.raises(ValueError, match=words):
        write_match(random_game(BACKGAMMON, seed=4), **arguments)


GOOD = AUTO5.read_text()


def _edit(line_number: int, old: str, new: str) -> str:
    lines = GOOD.splitlines()
    assert old in lines[line_number - 1]
    lines[line_number - 1] = lines[line_number - 1].replace(old, new, 1)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        # Line 7 is "  1) 21: 13/11 24/23             41: 6/2* 2/1* ".
        (_edit(7, "21:", "71:"), 7, 6, "impossible dice 71"),
        (_edit(7, "13/11 24/23", "13/10 24/23"), 7, 6, "game 1, move 1: '13/10 24/23' is not a legal play"),
        # Without hit marks, 6/2 2/1 could hit on 2 or not: both plays hit on 1.
        (_edit(7, "41: 6/2* 2/1*", "41: 6/2 2/1"), 7, 34, r"ambiguous: it could be 6/1\*, 6/2\*/1\*"),
        (_edit(7, "13/11 24/23", "13/11 24/23 8/7"), 7, 6, "not a legal play"),
        # gnubg's move 2 left out: root's two rolls follow each other.
        (_edit(8, "32: 25/22 25/23  ", "                 "), 8, 34, "acts, but it is gnubg's turn"),
        (_edit(3, "5 point match", "5 point mtach"), 3, 2, "expected 'N point match'"),
        (_edit(5, "Game 1", "Game 2"), 5, 2, "expected game 1"),
        (_edit(33, "gnubg : 2", "gnubg : 3"), 33, 1, "starts at 3-0, but the games before it add up to 2-0"),
        (_edit(30, "Wins 2 points", "Wins 4 points"), 30, 7, "gnubg wins 4, but the game gives gnubg 2"),
        (GOOD.replace("Drops\n", "Drops\n 24) 33: 6/3\n", 1), 30, 6, "after the game ended"),
        (_edit(17, "Doubles => 2", "Doubles => 8"), 17, 35, "from 1 to 2, not 8"),
        (_edit(7, "41: 6/2* 2/1*", "41: 6/2* 2/1* Takes Drops"), 7, 48, "three actions"),
        (_edit(8, "25/22 25/23", "25/22 25/23 xyz"), 8, 6, "cannot read"),
        (GOOD.replace(" Game 1", "Frobnicate\n Game 1", 1), 5, 1, "expected 'Game 1', got 'Frobnicate'"),
        (_edit(72, "11: 1/0 1/0 1/0", "11: 1/0 1/0 1/0 Beavers => 4"), 72, 22, "beavers"),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 60 else None,
)
def test_bad_files_name_line_and_column(text, line, column, words):
    with pytest.raises(MatchFileError, match=words) as error:
        parse_match(text)
    assert (error.value.line, error.value.column) == (line, column), str(error.value)


def test_unknown_header_lines_are_refused():
    with pytest.raises(MatchFileError, match="expected 'N point match'") as error:
        parse_match("; [Site \"x\"]\nPlayers: two\n 5 point match\n")
    assert error.value.line == 2


def test_a_game_after_the_match_was_won_is_refused():
    text = GOOD + "\n Game 4\n gnubg : 5                      root : 0\n  1) 21: 13/11 24/23\n"
    with pytest.raises(MatchFileError, match="already won"):
        parse_match(text)


def test_a_double_in_the_crawford_game_is_refused():
    # Game 3 (4-0 in a 5-point match) is the Crawford game: line 52 is its move 3.
    text = _edit(54, "63: 18/15 15/9 ", " Doubles => 2")
    with pytest.raises(MatchFileError, match="Crawford"):
        parse_match(text)


def test_truncated_files_give_an_error_or_a_prefix_of_the_games():
    """Cut anywhere, the file either reads as the games up to the cut (the
    last one unfinished) or raises MatchFileError: never a different game."""
    full = parse_match(GOOD)
    for cut in range(0, len(GOOD), 37):
        try:
            record = parse_match(GOOD[:cut])
        except MatchFileError:
            continue
        for mine, theirs in zip(record.games, full.games):
            count = len(mine.positions)
            assert np.array_equal(mine.after, theirs.after[:count])
        assert all(game.finished for game in record.games[:-1])


def test_binary_and_huge_input():
    with pytest.raises(MatchFileError, match="control character") as error:
        parse_match(GOOD[:100] + "\x00\x01\x02" + GOOD[100:])
    assert error.value.line == GOOD[:100].count("\n") + 1
    assert error.value.column == 100 - GOOD.rfind("\n", 0, 100)
    with pytest.raises(MatchFileError, match="not UTF-8"):
        parse_match(b"\xff\xfe\x00garbage")
    with pytest.raises(MatchFileError, match="more than a match file"):
        parse_match(" " * (MAX_FILE_BYTES + 1))
    with pytest.raises(MatchFileError, match="empty"):
        parse_match("; only a comment\n")
    with pytest.raises(TypeError):
        parse_match(12)
    with pytest.raises(TypeError, match="takes a path"):
        read_match(12)


def test_a_path_is_read_as_a_file(tmp_path):
    path = tmp_path / "game.mat"
    path.write_text(GOOD)
    assert read_match(str(path)).scores == read_match(path).scores == (5, 0)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300) | st.binary(max_size=300)
       | st.integers(0, len(GOOD)).flatmap(lambda cut: st.text(max_size=20).map(
           lambda junk: GOOD[:cut] + junk + GOOD[cut + len(junk):])))
def test_garbage_raises_only_match_file_errors(data):
    with contextlib.suppress(MatchFileError):
        parse_match(data)


# --- paths and text, rules carried ----------------------------------------------------


def test_a_missing_file_is_a_file_not_found_error_naming_it(tmp_path):
    missing = tmp_path / "nope.mat"
    for path in (missing, str(missing)):
        with pytest.raises(FileNotFoundError, match=r"nope\.mat"):
            read_match(path)


def test_text_passed_to_read_match_still_reads_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match="parse_match"):
        record = read_match(AUTO5.read_text())
    assert record.scores == read_match(AUTO5).scores


def _without_variant_header(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if "Variant" not in line) + "\n"


def test_a_ban_sugoroku_file_without_its_variant_header_says_what_was_assumed():
    # Ban-sugoroku's arrival finish ends games long before backgammon's
    # bear-off could: read as backgammon, some move or result cannot replay.
    text = _without_variant_header(write_match(play_games("ban-sugoroku", games=1, seed=1)))
    with pytest.raises(MatchFileError, match=r"no Variant header, so it was read as backgammon.*\[Variant "):
        parse_match(text)
    assert parse_match(text, rules="ban-sugoroku").rules == Rules()


def test_rules_given_must_agree_with_the_variant_header():
    text = write_match(play_games("ban-sugoroku", games=1, seed=1))
    with pytest.raises(MatchFileError, match="Variant header says ban/arrival/multiplied, but rules=backgammon"):
        parse_match(text, rules="backgammon")


@pytest.mark.parametrize("rules", [Rules(), BACKGAMMON, Rules(finish="bear_off", closure="immediate")], ids=str)
def test_play_games_records_carry_their_rules_into_write_match(rules):
    records = play_games(rules, games=2, seed=4)
    assert records.rules == rules
    assert parse_match(write_match(records)).rules == rules
    with pytest.raises(InvalidRulesError, match="played under"):
        write_match(records, rules=BACKGAMMON if not rules.is_backgammon else Rules())


def test_records_unpack_into_their_eight_fields_and_pickle_with_their_rules():
    import pickle

    records = play_games("backgammon", games=2, seed=4)
    _offsets, _positions, _dice, _after, _winner, _value, _kind, plies = records  # eight fields, as before
    assert len(records) == 8 and records._fields == oracle.GameRecords._fields
    again = pickle.loads(pickle.dumps(records))
    assert again.rules == BACKGAMMON and all(np.array_equal(a, b) for a, b in zip(again, records))
    assert records._replace(plies=plies).rules == BACKGAMMON


def test_oracle_records_still_need_rules():
    records = oracle.play_games(Rules(), games=1, seed=4)
    with pytest.raises(ValueError, match="needs rules="):
        write_match(records)
    assert parse_match(write_match(records, rules=Rules())).rules == Rules()
