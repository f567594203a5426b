"""GNU Backgammon Match ID and the ``Position ID:Match ID`` pair.

The known answers come from GNU Backgammon itself: ``tests/data/gnubg/
match_ids.txt`` holds the ids gnubg 1.07 reported for states that
``tests/data/gnubg/make_fixtures.py`` drove it through (the label names
the state; the expected fields below are reasoned from what the script did).
"""
from __future__ import annotations

import base64
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bansugoroku_fast import Game, Position, Rules
from bansugoroku_fast.errors import ArgumentTypeError, InvalidPositionError, MatchIdError
from bansugoroku_fast.formats import (
    MatchState,
    decode_match_id,
    encode_match_id,
    game_gnubg_id,
    game_state_of,
    gnubg_id,
    parse_gnubg_id,
    play_text,
    read_match,
)
from bansugoroku_fast.formats.match_id import GAME_STATES
from bansugoroku_fast.games.interactive import ScriptedDice

DATA = Path(__file__).parent / "data" / "gnubg"
GNUBG_IDS = {
    label: (position_id, match_id)
    for label, position_id, match_id in (line.split() for line in (DATA / "match_ids.txt").read_text().splitlines())
}

# What the fixture script did before each id was taken (a 3-point match in
# which player 1 won the opening with 2-1; see resign3.mat), as fields.
EXPECTED = {
    # The opening roll is rolled at once: player 1 on roll with 2-1.
    "opening-rolled": dict(player_on_roll=1, turn=1, dice=(2, 1), cube=1, cube_owner=None, match_length=3),
    # Player 1 played; player 0 to roll.
    "after-first-play": dict(player_on_roll=0, turn=0, dice=None),
    "rolled": dict(player_on_roll=0, turn=0, dice=(5, 2)),
    # Player 1 doubles before rolling: player 0 must decide.
    "doubled-centred": dict(player_on_roll=1, turn=0, double_offered=True, cube=1, cube_owner=None, dice=None),
    # Player 0 took: cube 2 on player 0's side; player 1 still to roll.
    "taken": dict(player_on_roll=1, turn=1, double_offered=False, cube=2, cube_owner=0),
    "cube-owned": dict(player_on_roll=0, turn=0, cube=2, cube_owner=0, dice=None),
    # Player 0 offers a gammon (2 x cube): player 1 decides.
    "resign-gammon-offered": dict(player_on_roll=0, turn=1, resignation=2, game_state="playing"),
    # Accepted: player 1 scores 2 x 2 = 4 points.
    "resigned": dict(game_state="resigned", resignation=2, score=(0, 4)),
    "crawford": dict(crawford=True, match_length=5, score=(4, 2), game_state="playing"),
    # gnubg plays money games with the Jacoby rule on by default.
    "money-opening": dict(match_length=0, jacoby=True, crawford=False, cube=1, dice=(6, 5)),
    # The doubler (player 1, on roll) wins the cube's 1 point when player 0 drops.
    "money-dropped": dict(game_state="dropped", score=(0, 1), player_on_roll=1, turn=0, cube=1),
}


@pytest.mark.parametrize("label", sorted(EXPECTED))
def test_gnubg_ids_decode_to_the_state_gnubg_was_in(label):
    position_id, match_id = GNUBG_IDS[label]
    state = decode_match_id(match_id)
    for name, value in EXPECTED[label].items():
        assert getattr(state, name) == value, name
    assert encode_match_id(state) == match_id
    position, same_state = parse_gnubg_id(f"{position_id}:{match_id}")
    assert same_state == state
    assert gnubg_id(position, state) == f"{position_id}:{match_id}"


def test_a_replayed_game_gives_the_ids_gnubg_gave():
    """Replay the game of resign3.mat move by move: at each state the script
    recorded, our ``Position ID:Match ID`` of the game equals gnubg's."""
    record = read_match(DATA / "resign3.mat")
    actions = [action for action in record.games[0].actions if action.kind != "win"]
    dice = ScriptedDice([die for action in actions if action.dice for die in action.dice])
    game = Game.from_position(Position.initial(), "backgammon", dice, seat_to_move=1)

    def gnubg(label):
        return ":".join(GNUBG_IDS[label])

    game.roll()
    assert game_gnubg_id(game, match_length=3) == gnubg("opening-rolled")
    game.play(actions[0].text)
    assert game_gnubg_id(game, match_length=3) == gnubg("after-first-play")
    game.roll()
    assert game_gnubg_id(game, match_length=3) == gnubg("rolled")
    game.play(actions[1].text)
    game.offer_double()
    assert game_gnubg_id(game, match_length=3) == gnubg("doubled-centred")
    game.take()
    assert game_gnubg_id(game, match_length=3) == gnubg("taken")
    game.roll()
    game.play(actions[4].text)
    assert game_gnubg_id(game, match_length=3) == gnubg("cube-owned")


# --- round trips -------------------------------------------------------------------


def random_state(rng: random.Random) -> MatchState:
    """A valid state drawn field by field, redrawn until consistent."""
    while True:
        length = rng.choice((0, 0, 1, 3, 5, 7, 25, 32767))
        try:
            return MatchState(
                cube=2 ** rng.randint(0, 15),
                cube_owner=rng.choice((None, 0, 1)),
                player_on_roll=rng.randint(0, 1),
                crawford=bool(length) and rng.random() < 0.2,
                game_state=rng.choice(GAME_STATES),
                turn=rng.randint(0, 1),
                double_offered=rng.random() < 0.2,
                resignation=rng.choice((0, 0, 0, 1, 2, 3)),
                dice=rng.choice((None, (rng.randint(1, 6), rng.randint(1, 6)))),
                match_length=length,
                score=(rng.randint(0, max(0, length - 1)), rng.randint(0, max(0, length - 1))),
                jacoby=rng.random() < 0.5,
            )
        except MatchIdError:
            continue


def test_random_states_round_trip():
    rng = random.Random(9)
    for _ in range(5000):
        state = random_state(rng)
        match_id = encode_match_id(state)
        assert len(match_id) == 12
        assert decode_match_id(match_id) == state


def test_dice_are_stored_larger_first():
    # gnubg writes the larger die first: 1-3 and 3-1 are one roll.
    assert encode_match_id(MatchState(dice=(1, 3))) == encode_match_id(MatchState(dice=(3, 1)))
    assert MatchState(dice=(1, 3)).dice == (3, 1)


def _play_random_cube_game(seed: int):
    """A backgammon game in which either side doubles now and then; yields
    the game at every state (before a roll, after it, doubled)."""
    rng = random.Random(seed)
    game = Game("backgammon", rng)
    while not game.is_over:
        yield game
        if game.can_double and rng.random() < 0.15:
            game.offer_double()
            yield game
            if rng.random() < 0.8:
                game.take()
            else:
                game.drop()
                break
            yield game
        game.roll()
        if game.dice is not None:
            yield game
            plays = game.legal_plays()
            game.play(plays[rng.randrange(len(plays))])
    yield game


@pytest.mark.parametrize("seed", range(20))
def test_every_state_of_random_cube_games_round_trips(seed):
    for game in _play_random_cube_game(seed):
        state = game_state_of(game, match_length=0)
        text = game_gnubg_id(game)
        position, decoded = parse_gnubg_id(text)
        assert position == game.position
        assert decoded == state
        assert decoded.cube == game.cube and decoded.cube_owner == game.cube_owner
        assert decoded.double_offered == (game.double_offered_by is not None)


def test_a_ban_sugoroku_game_has_ids_too():
    game = Game(Rules(), ScriptedDice([6, 5]))
    game.roll()
    position, state = parse_gnubg_id(game_gnubg_id(game))
    assert position == Position.initial() and state.dice == (6, 5) and state.player_on_roll == 0


# --- bad ids --------------------------------------------------------------------------


def _with_field(match_id: str, shift: int, width: int, value: int) -> str:
    """``match_id`` with the bits ``shift .. shift + width - 1`` set to ``value``."""
    key = int.from_bytes(base64.b64decode(match_id), "little")
    key = key & ~(((1 << width) - 1) << shift) | value << shift
    return base64.b64encode(key.to_bytes(9, "little")).decode()


MONEY = GNUBG_IDS["money-opening"][1]


@pytest.mark.parametrize(
    "text, words",
    [
        (MONEY[:-1], "12 characters"),
        (MONEY + "A", "12 characters"),
        ("cAkXAAAAAA!A", "base64"),
        ("cAkXAAAA AAA", "base64"),
        ("cAkXAAAAAA==", "base64"),
        (_with_field(MONEY, 4, 2, 2), "owner field is 2"),
        (_with_field(MONEY, 8, 3, 5), "game state"),
        (_with_field(MONEY, 8, 3, 7), "game state"),
        (_with_field(MONEY, 15, 3, 7), "dice"),
        (_with_field(MONEY, 18, 3, 0), "dice"),  # one die rolled, the other not
        (_with_field(MONEY, 7, 1, 1), "money game"),  # Crawford in a money game
        (_with_field(MONEY, 67, 5, 1), "bits past"),
        (_with_field(_with_field(MONEY, 21, 15, 3), 36, 15, 5), "leaves no game"),  # 5 in a 3-point match
        (_with_field(MONEY, 12, 1, 1), "double is offered before rolling"),  # doubled with dice shown
    ],
)
def test_bad_match_ids_are_refused_naming_the_problem(text, words):
    with pytest.raises(MatchIdError, match=words):
        decode_match_id(text)


@pytest.mark.parametrize("text", [None, 12, b"cAkXAAAAAAAA", "4HPwATDgc/ABMA", "4HPwATDgc/ABM:cAkXAAAAAAAA"])
def test_bad_gnubg_ids_are_refused(text):
    with pytest.raises(MatchIdError):
        parse_gnubg_id(text)


def test_a_gnubg_id_takes_any_position_like_and_refuses_what_is_not_one():
    state = decode_match_id("cAkXAAAAAAAA")
    assert gnubg_id(Position.initial().array, state) == gnubg_id(Position.initial().id, state)
    with pytest.raises(InvalidPositionError):
        gnubg_id("not an id", state)


@pytest.mark.parametrize("call", [lambda: game_state_of("a game"), lambda: game_gnubg_id(None, match_length=3),
                                  lambda: play_text("24/13")], ids=["game_state_of", "game_gnubg_id", "play_text"])
def test_what_is_not_a_game_or_a_play_is_refused_by_type(call):
    with pytest.raises(ArgumentTypeError):
        call()


@pytest.mark.parametrize(
    "fields, words",
    [
        (dict(cube=3), "power of 2"),
        (dict(cube=2**16), "power of 2"),
        (dict(cube_owner=2), "cube owner"),
        (dict(player_on_roll=2), "player_on_roll"),
        (dict(game_state="won"), "game state"),
        (dict(resignation=4), "resignation"),
        (dict(dice=(0, 3)), "dice"),
        (dict(match_length=-1), "match length"),
        (dict(score=(1, 2, 3)), "match length"),
        (dict(double_offered=True, cube_owner=1, player_on_roll=0, turn=1), "owns the cube"),
        (dict(double_offered=True, turn=0, player_on_roll=0), "must differ"),
        (dict(double_offered=True, resignation=1, turn=1), "both be pending"),
        (dict(crawford=True, match_length=5, double_offered=True, turn=1), "Crawford"),
    ],
)
def test_impossible_states_are_refused(fields, words):
    with pytest.raises(MatchIdError, match=words):
        MatchState(**fields)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=20) | st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=",
                                      min_size=12, max_size=12))
def test_garbage_raises_only_match_id_errors(text):
    try:
        state = decode_match_id(text)
    except MatchIdError:
        return
    # What decodes re-encodes to an id of the same state (the dice larger first).
    assert decode_match_id(encode_match_id(state)) == state
