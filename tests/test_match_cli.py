"""``bansugoroku match show`` and ``bansugoroku match check`` on GNU
Backgammon's export (tests/data/gnubg/auto5.mat) and a broken copy."""
import re
from pathlib import Path

import pytest

from bansugoroku_fast import Position
from bansugoroku_fast.cli import main

AUTO5 = Path(__file__).parent / "data" / "gnubg" / "auto5.mat"


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_show_summarises_the_match(capsys):
    status, out, _ = run(capsys, "match", "show", str(AUTO5))
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "5-point match, backgammon rules: gnubg v root"
    # Game 3 is played at 4-0 in a 5-point match: the Crawford game.
    assert lines[3].startswith("  Game 3 (Crawford) at 4-0:") and lines[3].endswith("gnubg wins 1 point")
    assert lines[-1] == "Score: gnubg 5, root 0"


def test_show_lists_a_game_and_the_board_at_a_move(capsys):
    status, out, _ = run(capsys, "match", "show", str(AUTO5), "--game", "2")
    assert status == 0
    # Game 2 line 1 of the file: root opens with "31: 8/5 6/5"; line 3 root doubles, gnubg takes.
    assert out.splitlines()[1].split() == ["play", "1", "root", "31:", "8/5", "6/5"]
    assert "root  Doubles => 2" in out and "gnubg  Takes" in out
    status, out, _ = run(capsys, "match", "show", str(AUTO5), "--game", "2", "--move", "1")
    # Before root's first play the board is the start position.
    assert str(Position.initial()) in out and "Position ID 4HPwATDgc/ABMA" in out


def test_check_accepts_gnubg_file(capsys):
    status, out, _ = run(capsys, "match", "check", str(AUTO5))
    assert status == 0
    # 106 = the rolls written in the file ("52:" and the like), each one play.
    assert len(re.findall(r"\b[1-6][1-6]:", AUTO5.read_text())) == 106
    assert "OK, 3 games, 106 plays" in out


def test_check_names_the_first_illegal_move(capsys, tmp_path):
    broken = tmp_path / "broken.mat"
    broken.write_text(AUTO5.read_text().replace("21: 13/11 24/23", "21: 13/10 24/23", 1))
    status, _, err = run(capsys, "match", "check", str(broken))
    assert status == 1
    assert err.startswith(f"{broken}:7:6: game 1, move 1: '13/10 24/23' is not a legal play here")


@pytest.mark.parametrize("argv", [
    ["match", "show", "/no/such/file.mat"],
    ["match", "show", str(AUTO5), "--game", "9"],
    ["match", "show", str(AUTO5), "--game", "1", "--move", "999"],
])
def test_bad_arguments_end_with_status_2(capsys, argv):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_check_of_a_file_that_cannot_be_read_names_it(capsys, tmp_path):
    missing = tmp_path / "missing.mat"
    status, _, err = run(capsys, "match", "check", str(missing))
    assert status == 1
    assert err.startswith(f"{missing}: cannot read {missing}: ")
