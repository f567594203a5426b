"""Move notation as GNU Backgammon writes it, and the lenient reader."""
import pytest

from bansugoroku_fast import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidNotationError,
    PlayError,
    Position,
    Rules,
    Turn,
    parse_play,
)
from bansugoroku_fast.notation import format_steps, parse_moves
from tests.boards import board

BACKGAMMON = Rules(variant="backgammon")


@pytest.mark.parametrize(
    "steps, hits, text",
    [
        ([(24, 18), (13, 11)], [False, True], "24/18 13/11*"),
        ([(24, 18), (18, 13)], [True, False], "24/18*/13"),  # hit on the way shows
        ([(24, 18), (18, 13)], [False, False], "24/13"),  # a plain pass-through does not
        ([(24, 18), (18, 13)], [False, True], "24/13*"),
        ([(8, 5), (8, 5)], [False, False], "8/5(2)"),
        ([(8, 5), (8, 5), (6, 5), (6, 5)], [False] * 4, "8/5(2) 6/5(2)"),
        ([(13, 9), (9, 5), (13, 9), (9, 5)], [False] * 4, "13/5(2)"),
        ([(25, 22), (13, 7)], [False, False], "bar/22 13/7"),
        ([(25, 20), (20, 15)], [True, False], "bar/20*/15"),
        ([(6, 0), (5, 0)], [False, False], "6/off 5/off"),
        ([(3, 0), (3, 0)], [False, False], "3/off(2)"),
        ([(6, 1), (13, 7)], [True, False], "13/7 6/1*"),  # highest source first
    ],
)
def test_format_steps_as_gnubg_writes_them(steps, hits, text):
    assert format_steps(steps, hits) == text


@pytest.mark.parametrize(
    "text, hops",
    [
        ("24/18 13/11*", [(24, 18), (13, 11)]),
        ("24/18*/13", [(24, 18), (18, 13)]),
        ("8/5(2)", [(8, 5), (8, 5)]),
        ("bar/22 6/off", [(25, 22), (6, 0)]),
        ("BAR/22, 6/OFF", [(25, 22), (6, 0)]),
        ("b/22 6/o", [(25, 22), (6, 0)]),
        ("25/22 6/0", [(25, 22), (6, 0)]),
        ("13-7", [(13, 7)]),
    ],
)
def test_parse_moves_is_lenient(text, hops):
    assert parse_moves(text) == sorted(hops, reverse=True)


@pytest.mark.parametrize(
    "text, message",
    [
        ("24", "a move needs 'from/to'"),
        ("13", "a move needs 'from/to'"),
        ("24/", "cannot read ''"),
        ("24/18/", "cannot read ''"),
        ("24/x", "cannot read 'x' in '24/x'"),
        ("x/3", "cannot read 'x'"),
        ("26/20", "no point 26"),
        # Moves no stone can make: stones move from higher points to lower ones,
        # and a turn has one to four moves.
        ("24/18/24/13", "18/24 .* runs backward"),  # back up to 24
        ("24/13 8/3 3/8", "3/8 .* runs backward"),
        ("off/6", "off/6 .* runs backward"),
        ("6/bar", "6/bar .* runs backward"),
        ("13/13", "goes nowhere"),
        ("24/18(0) 24/13", "cannot repeat '24/18' 0 times"),
        ("24/18(5)", "cannot repeat '24/18' 5 times"),
    ],
)
def test_unreadable_notation_is_a_syntax_error_everywhere(text, message):
    """parse_moves, parse_play and Turn.play all say the text is not
    notation (InvalidNotationError), not that it is illegal here."""
    with pytest.raises(InvalidNotationError, match=message):
        parse_moves(text)
    with pytest.raises(InvalidNotationError, match=message):
        parse_play(Position.initial(), (6, 5), text, BACKGAMMON)
    with pytest.raises(InvalidNotationError, match=message):
        Turn(Position.initial(), (6, 5)).play(text)


def test_the_three_play_errors_are_distinct_value_errors():
    """Each is a PlayError (and so a ValueError); none is another."""
    kinds = (InvalidNotationError, IllegalPlayError, AmbiguousPlayError)
    for kind in kinds:
        assert issubclass(kind, PlayError) and issubclass(kind, ValueError)
        assert [other for other in kinds if issubclass(kind, other)] == [kind]


def test_parse_moves_reads_empty_text_as_no_moves():
    assert parse_moves("") == []



@pytest.mark.parametrize(
    "dice, text, expected",
    [
        ((6, 5), "24/13", "24/13"),
        ((6, 5), "24/18/13", "24/13"),
        ((6, 5), "24/18 18/13", "24/13"),
        ((6, 5), "24-18 18-13", "24/13"),
        ((6, 5), "13/8 8/2", "13/2"),  # two ways of writing one stone's journey
        ((6, 5), "8/2 13/8", "13/2"),  # ... in any order
        ((6, 5), "13/7 13/8", "13/8 13/7"),
        ((6, 5), "8/3, 8/2", "8/3 8/2"),
        ((5, 5), "13/8 13/8 13-8 13/8", "13/8(4)"),  # four equal moves, counted
    ],
)
def test_parse_play_finds_the_legal_play(dice, text, expected):
    assert str(parse_play(Position.initial(), dice, text, BACKGAMMON)) == expected


def test_parse_play_rejects_an_illegal_play_listing_the_legal_ones():
    """At the start 24/19 is blocked (the opponent holds the mover's 19)."""
    with pytest.raises(IllegalPlayError, match=r"not a legal play.*24/13"):
        parse_play(Position.initial(), (6, 5), "24/19 13/7", BACKGAMMON)


def test_parse_play_uses_hit_marks_to_choose():
    """24/13 through an opponent blot on 18 or on 19 reaches two positions;
    the hit mark chooses."""
    position = board(mover={24: 2, 13: 13}, opponent_at={18: 1, 19: 1, 1: 13})
    hit_18 = parse_play(position, (6, 5), "24/18*/13", BACKGAMMON)
    hit_19 = parse_play(position, (6, 5), "24/19*/13", BACKGAMMON)
    assert hit_18.position != hit_19.position
    assert hit_18.hits == (True, False) and hit_19.hits == (True, False)
    assert hit_18.steps == ((24, 18), (18, 13)) and hit_19.steps == ((24, 19), (19, 13))


def test_parse_play_without_marks_is_ambiguous_when_every_way_hits():
    """Both ways of 24/13 hit here (a blot on 18, one on 19): without a hit
    mark the text could be either, and the error names both."""
    position = board(mover={24: 2, 13: 13}, opponent_at={18: 1, 19: 1, 1: 13})
    either_order = r"ambiguous.*24/18\*/13.*24/19\*/13|ambiguous.*24/19\*/13.*24/18\*/13"
    with pytest.raises(AmbiguousPlayError, match=either_order):
        parse_play(position, (6, 5), "24/13", BACKGAMMON)


def test_parse_play_without_marks_prefers_the_play_that_hits_nothing():
    """Only the blot on 18 here: 24/13 through 19 hits nothing and is the
    one the plain text means; 24/18*/13 needs its mark."""
    position = board(mover={24: 2, 13: 13}, opponent_at={18: 1, 1: 14})
    assert parse_play(position, (6, 5), "24/13", BACKGAMMON).steps == ((24, 19), (19, 13))
    assert parse_play(position, (6, 5), "24/18*/13", BACKGAMMON).hits == (True, False)
