"""Bad dice and bad rule names raise a clear ValueError subclass, in the
oracle and at package level alike."""
import numpy as np
import pytest

import bansugoroku_fast
from bansugoroku_fast import Position, Rules, oracle
from bansugoroku_fast.errors import InvalidDiceError, InvalidRulesError

ENGINES = [pytest.param(oracle, id="oracle"), pytest.param(bansugoroku_fast, id="package")]

BAD_DICE = {
    "zero": ((0, 3), "1..6"),
    "seven": ((7, 1), "1..6"),
    "negative": ((-1, 2), "1..6"),
    "one die": ((3,), "two integers"),
    "three dice": ((3, 4, 5), "two integers"),
    "floats": ((3.0, 4.0), "two integers"),
    "bools": ((True, True), "two integers"),
    "strings in a tuple": (("3", "4"), "two integers"),
    "not a pair": (5, "pair"),
    "unreadable text": ("six-five", "cannot read"),
    "None": (None, "pair"),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("dice, message", BAD_DICE.values(), ids=BAD_DICE.keys())
def test_bad_dice_raise(engine, dice, message):
    with pytest.raises(InvalidDiceError, match=message):
        engine.legal_plays(Position.initial(), dice, Rules())
    with pytest.raises(InvalidDiceError, match=message):
        engine.legal_first_steps(Position.initial(), dice, Rules())


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("dice", [(6, 5), [6, 5], "6-5", "65", "6 5", "6,5"])
def test_dice_spellings_are_equivalent(engine, dice):
    plays = engine.legal_plays(Position.initial(), dice, "backgammon")
    assert [str(p) for p in plays] == [
        str(p) for p in engine.legal_plays(Position.initial(), (6, 5), "backgammon")
    ]


BAD_RULES = {
    "unknown variant": (dict(variant="chess"), "unknown variant 'chess'.*'ban-sugoroku', 'backgammon'"),
    "unknown finish": (dict(finish="race"), "unknown finish 'race'.*'arrival', 'bear_off'"),
    "unknown closure": (dict(closure="double"), "'multiplied', 'immediate', 'off'"),
    "unknown start": (dict(start="coin"), "'alternate', 'roll_off'"),
    "arrival in backgammon": (
        dict(variant="backgammon", finish="arrival"),
        "backgammon has no finish 'arrival'.*'bear_off'",
    ),
    "closure in backgammon": (dict(variant="backgammon", closure="multiplied"), "backgammon has no closure"),
    "alternate start in backgammon": (dict(variant="backgammon", start="alternate"), "backgammon has no start"),
}


@pytest.mark.parametrize("options, message", BAD_RULES.values(), ids=BAD_RULES.keys())
def test_bad_rules_raise_naming_accepted_values(options, message):
    with pytest.raises(InvalidRulesError, match=message):
        Rules(**options)


@pytest.mark.parametrize("label, message", [
    ("chess", "cannot read rules 'chess'"),
    ("ban/sprint", "unknown finish 'sprint'"),
    ("ban-sugoroku,speed=9", "unknown rule option 'speed'"),
    ("ban/arrival/multiplied/alternate/x", "cannot read rules"),
    (",", "empty"),
    (",,,", "empty"),
    ("ban,,closure=off", "empty"),
    ("ban,closure=off,closure=immediate", "twice"),
    ("ban-sugoroku,finish=bear_off,finish=bear_off", "twice"),
    ("ban,closure", "closure=value"),
])
def test_bad_rule_labels_raise(label, message):
    with pytest.raises(InvalidRulesError, match=message):
        Rules.parse(label)


@pytest.mark.parametrize("engine", ENGINES)
def test_rules_argument_of_the_wrong_type_raises(engine):
    with pytest.raises(InvalidRulesError, match="rules must be a Rules") as raised:
        engine.legal_plays(Position.initial(), (6, 5), 42)
    assert isinstance(raised.value, TypeError)  # a wrong type, as Python's own functions say


def test_rules_are_frozen_and_hashable():
    rules = Rules(finish="bear_off")
    with pytest.raises(AttributeError):
        rules.finish = "arrival"
    assert {rules: 1}[Rules(finish="bear_off")] == 1
    assert Rules() != Rules(closure="off")
    assert Rules(variant="backgammon", finish="bear_off") == Rules(variant="backgammon")


@pytest.mark.parametrize("rules", Rules.all_combinations(), ids=lambda r: r.short_name)
def test_rule_labels_round_trip(rules):
    assert Rules.parse(rules.short_name) == rules


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("side", [2, -1, True, 1.0, "0", None])
def test_a_side_is_0_or_1(engine, side):
    with pytest.raises(ValueError, match="side must be 0 or 1"):
        engine.closure_holds(Position.initial(), side)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "function, least, depth",
    [("perft", 0, -1), ("perft", 0, 0.5), ("perft", 0, True), ("perft_divide", 1, 0), ("perft_divide", 1, 1.5)],
)
def test_a_depth_is_an_integer_from_its_least(engine, function, least, depth):
    with pytest.raises(ValueError, match=f"depth must be an integer >= {least}"):
        getattr(engine, function)(Position.initial(), depth, "backgammon")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_numpy_integer_depth_is_a_depth(engine):
    # As every other count the package takes (positive_int, as_seed): a
    # numpy integer is an integer. Depth 1 from the start: one leaf per play
    # of each roll, as with a Python int.
    assert engine.perft(Position.initial(), np.int64(1), "backgammon") == engine.perft(
        Position.initial(), 1, "backgammon")
    assert engine.perft_divide(Position.initial(), np.int8(1), "backgammon") == engine.perft_divide(
        Position.initial(), 1, "backgammon")
