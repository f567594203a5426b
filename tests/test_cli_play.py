"""``bansugoroku play --vs`` driven through its standard input, and
``--seats`` watched: moves, undo, wrong entries, the computer's turns, the
cube, leaving, the end. Positions are hand-built and dice scripted
(``--dice``), so every expected line follows from the rules."""
import io
import re

import pytest

from bansugoroku_fast import Position, Rules, legal_plays, parse_play
from bansugoroku_fast.cli import main
from tests.test_opponent import race, side

BACKGAMMON = Rules(variant="backgammon")
BAN = Rules()
BOARD_HEADER = " 13 14 15 16 17 18  | 19 20 21 22 23 24"

# The person (seat 0, on roll) has two stones left on the 1-point; the
# computer has all 15 on its 6-point (the person's 19), none borne off.
LAST_TWO = Position([side({1: 2}), side({6: 15})])


def play(monkeypatch, capsys, lines, *argv):
    """Run ``bansugoroku play ARGV`` with ``lines`` as standard input."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    return out


def test_bear_off_to_the_end_with_undo_and_a_wrong_move(monkeypatch, capsys):
    # 2-1 bears both stones off the 1-point (a die higher than the highest
    # point bears off from it). 6/off names an empty point: refused, the turn
    # goes on. The computer has borne off nothing and has no stone in the
    # person's home (1..6): a gammon, 2 points at cube 1.
    out = play(monkeypatch, capsys, ["", "6/off", "1/off", "undo", "1/off 1/off"],
               "--vs", "first", "--rules", "backgammon", "--position", LAST_TWO.id, "--dice", "2-1")
    assert "Not possible: 6/0 in '6/off' is not legal now with 2-1" in out
    assert "So far: 1/off" in out
    assert "Back to the start of the turn." in out
    assert "1. You roll 2-1: 1/off(2)" in out
    assert out.rstrip().endswith("You win 2 points: seat 0 wins 2 points (gammon worth 2).")


def test_person_doubles_and_the_computer_drops(monkeypatch, capsys):
    # The person leads by 88 pips on 2: far beyond the 12% the computer takes.
    out = play(monkeypatch, capsys, ["double"],
               "--vs", "first", "--rules", "backgammon", "--position", LAST_TWO.id, "--dice", "2-1")
    assert "You double to 2." in out
    assert "The computer drops the double." in out
    assert out.rstrip().endswith("You win 1 point: seat 0 wins 1 point (double dropped, cube 1).")


def test_ban_sugoroku_turns_against_the_computer(monkeypatch, capsys):
    # Seat 0 (the person) starts (alternate start). 24/10 is no play of 6-5;
    # 24/18 then undo goes back; 24/18 13/8 is played. The computer ("first")
    # then plays the first legal play of its 3-1, and the person's 4-2 waits
    # when the input ends.
    out = play(monkeypatch, capsys, ["24/18", "undo", "24/10", "24/18 13/8"],
               "--vs", "first", "--dice", "6-5 3-1 4-2")
    after = parse_play(Position.initial(), (6, 5), "24/18 13/8", BAN).position.swapped()
    computer_play = legal_plays(after, (3, 1), BAN)[0]
    assert "Not possible: 24/10" in out
    assert "Back to the start of the turn." in out
    assert "  1. You roll 6-5 (Goroku): 24/18 13/8" in out
    assert f"  2. The computer rolls 3-1: {computer_play}" in out
    assert "You rolled 4-2. Your move:" in out
    assert out.count(BOARD_HEADER) == 2  # drawn for each of the person's turns
    assert out.rstrip().endswith("Game stopped before its end.")


def test_commands_and_wrong_entries_keep_the_turn(monkeypatch, capsys):
    out = play(monkeypatch, capsys, ["help", "moves", "double", "take", "hello", "board", "quit"],
               "--vs", "first", "--dice", "6-5")
    assert "undo         take back the moves of this turn so far" in out
    # Ban-sugoroku 6-5 at the start: the plays the moves command lists.
    assert "Legal plays: " + ", ".join(map(str, legal_plays(Position.initial(), (6, 5), BAN))) in out
    assert "'double' is not possible now" in out and "'take' is not possible now" in out
    assert "Not possible: cannot read 'hello'" in out
    assert out.count(BOARD_HEADER) == 2  # the turn's board, and 'board'
    assert out.rstrip().endswith("Game stopped before its end.")


@pytest.mark.parametrize("answer, expected", [
    ("take", "You take: the cube is at 2, owned by you."),
    ("drop", "The computer wins 1 point: seat 0 wins 1 point (double dropped, cube 1)."),
])
def test_computer_doubles_the_person(monkeypatch, capsys, answer, expected):
    # The computer (seat 0, on roll) leads 100 to 109 pips, 9%: it doubles
    # (at 8% or more). A wrong answer is explained; after a take, it rolls
    # 2-1 and plays, and the person (owning the cube) may roll or redouble.
    out = play(monkeypatch, capsys, ["maybe", answer, ""],
               "--vs", "first", "--seat", "1", "--rules", "backgammon",
               "--position", race(109).id, "--dice", "2-1 2-1")
    assert "The computer doubles to 2." in out
    assert "'maybe' is not possible now: type 'take' or 'drop' or 'leave'" in out
    assert expected in out
    if answer == "take":
        assert "  1. The computer rolls 2-1: " in out and "Cube: 2, owned by you" in out
        assert "You rolled 2-1. Your move:" in out


@pytest.mark.parametrize("rules", ["ban-sugoroku", "backgammon"])
def test_leave_hands_the_seat_to_the_computer(monkeypatch, capsys, rules):
    # After 'leave' the computer plays both seats: the game reaches its end.
    out = play(monkeypatch, capsys, ["leave"], "--vs", "heuristic", "--seed", "7", "--rules", rules)
    assert "You leave; the computer takes your seat" in out
    assert re.search(r"(You win|The computer wins) \d+ points?: seat \d wins", out)


RECORD = re.compile(r"^\s*\d+\. seat (\d) \((\w+)\) rolls (\d)-(\d)[^:]*: (.*)$")


@pytest.mark.parametrize("rules, seats", [
    ("ban-sugoroku", "first,random"),
    ("ban/bear_off/immediate", "first,heuristic"),
    ("backgammon", "heuristic,pubeval"),
])
def test_seats_watch_two_policies(capsys, rules, seats):
    # Replay the printed game: every play is legal for its position and
    # roll, and "first" always plays the first legal play.
    assert main(["play", "--seats", seats, "--seed", "4", "--rules", rules]) == 0
    out = capsys.readouterr().out
    rules = Rules.parse(rules)
    position, turns = Position.initial(rules), 0
    for line in out.splitlines():
        match = RECORD.match(line)
        if not match:
            continue
        _, policy, a, b, text = match.groups()
        plays = legal_plays(position, (int(a), int(b)), rules)
        if text == "no legal play, the turn passes":
            assert plays == []
            position = position.swapped()
        else:
            chosen = parse_play(position, (int(a), int(b)), text, rules)
            assert policy != "first" or chosen == plays[0]
            position = chosen.position.swapped()
        turns += 1
    assert turns > 0 and "Result: seat" in out


@pytest.mark.parametrize("argv, message", [
    (["--vs", "best"], "unknown policy 'best'"),
    (["--seats", "first"], "two policies"),
    (["--seats", "first,best"], "unknown policy 'best'"),
    (["--vs", "first", "--dice", "7-1"], "dice must be two integers in 1..6"),
])
def test_bad_arguments(capsys, argv, message):
    with pytest.raises(SystemExit) as stopped:
        main(["play", *argv])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


# --- the end of the game, the help, saving ------------------------------------------------


def test_the_final_board_has_nobody_to_move(monkeypatch, capsys):
    # The person bears off its last two stones with 2-1 and wins: the board
    # drawn after the win no longer says "X to move".
    out = play(monkeypatch, capsys, ["", "1/off 1/off"],
               "--vs", "first", "--rules", "backgammon", "--position", LAST_TWO.id, "--dice", "2-1")
    final = out[out.rindex(BOARD_HEADER):]
    assert "X to move" not in final and "X:         pips 0, bar 0, off 15" in final
    assert final.rstrip().endswith("You win 2 points: seat 0 wins 2 points (gammon worth 2).")


def test_play_help_says_what_to_type_at_the_prompt(capsys):
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    for command in ("undo", "moves", "double", "take, drop", "leave", "quit", "help", "24/18 13/8", "--save"):
        assert command in out, command


@pytest.mark.parametrize("rules", ["ban-sugoroku", "backgammon"])
def test_a_finished_game_saved_is_read_by_match_show(monkeypatch, capsys, tmp_path, rules):
    path = tmp_path / "game.mat"
    out = play(monkeypatch, capsys, ["leave"], "--vs", "heuristic", "--seed", "7", "--rules", rules,
               "--save", str(path))
    assert f"Saved to {path}" in out
    winner = re.search(r"(You win|The computer wins) (\d+) points?", out)
    assert main(["match", "show", str(path)]) == 0
    shown = capsys.readouterr().out
    name = "You" if winner.group(1) == "You win" else "Computer (heuristic)"
    assert f"{name} wins {winner.group(2)} point" in shown
    assert main(["match", "check", str(path)]) == 0


@pytest.mark.parametrize("argv, message", [
    (["--save", "game.txt"], "--save: cannot write '.*game.txt': its format '.txt' is not one of .mat"),
    (["--save", "/no/such/dir/game.mat"], "--save: the directory '/no/such/dir' does not exist"),
    (["--save", "game.mat", "--position", LAST_TWO.id], "leave out --position"),
])
def test_save_is_checked_before_the_game(monkeypatch, capsys, argv, message):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # a game that started would read this and stop
    with pytest.raises(SystemExit) as stopped:
        main(["play", "--vs", "first", *argv])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and re.search(message, err) and err.count("\n") == 1
