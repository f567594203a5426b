"""The Gymnasium and PettingZoo environments (bansugoroku_fast.envs)."""
from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from bansugoroku_fast import (  # noqa: E402
    FEATURE_NAMES,
    IllegalPlayError,
    LinearPolicy,
    Position,
    Rules,
    features,
    legal_plays,
    outcome,
    play_games,
)
from bansugoroku_fast.envs import (  # noqa: E402
    STEP_ACTIONS,
    BanSugorokuEnv,
    BanSugorokuVectorEnv,
    aec_env,
    step_action,
    step_of_action,
)
from bansugoroku_fast.envs.table import Table  # noqa: E402
from bansugoroku_fast.errors import (  # noqa: E402
    ArgumentTypeError,
    GameStateError,
    InvalidOptionError,
    InvalidRulesError,
    PolicyOutputError,
)

ALL_RULES = Rules.all_combinations()
BACKGAMMON = Rules(variant="backgammon")


def masked_choice(generator: np.random.Generator, mask: np.ndarray) -> int:
    return int(generator.choice(np.flatnonzero(mask)))


# --- the standard checkers -------------------------------------------------------------


@pytest.mark.parametrize("env_id", ["bansugoroku_fast/BanSugoroku-v0", "bansugoroku_fast/Backgammon-v0"])
@pytest.mark.parametrize("actions, observation", [("step", "board"), ("play", "features")])
def test_gymnasium_check_env(env_id, actions, observation):
    # check_env steps with actions sampled without the mask: the registered
    # default (an illegal action forfeits the game) must pass it as it is.
    env = gymnasium.make(env_id, actions=actions, observation=observation, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure
        check_env(env.unwrapped)


@pytest.mark.parametrize("rules", [Rules(), BACKGAMMON, Rules(finish="bear_off", closure="immediate")],
                         ids=str)
@pytest.mark.parametrize("actions", ["step", "play"])
def test_pettingzoo_api_test(rules, actions):
    api_test(aec_env(rules, actions=actions), num_cycles=200)


def test_registered_ids_build_their_rules():
    ban = gymnasium.make("bansugoroku_fast/BanSugoroku-v0", finish="bear_off", closure="off", start="roll_off")
    assert ban.unwrapped.rules == Rules(finish="bear_off", closure="off", start="roll_off")
    assert gymnasium.make("bansugoroku_fast/Backgammon-v0").unwrapped.rules == BACKGAMMON


# --- whole episodes ---------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("actions", ["step", "play"])
def test_random_aec_episodes_end_with_the_outcome_as_rewards(rules, actions):
    generator = np.random.default_rng(5)
    env = aec_env(rules, actions=actions)
    for game in range(4):
        env.reset(seed=11) if game == 0 else env.reset()
        finals = {}
        for agent in env.agent_iter(max_iter=100_000):
            observation, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                finals[agent] = (observation["observation"], reward)
                env.step(None)
            else:
                env.step(masked_choice(generator, observation["action_mask"]))
        assert set(finals) == {"seat_0", "seat_1"}
        # The final board seen by each seat has the outcome; winner 0 means
        # that seat (row 0) won: it scores the value, the other its opposite.
        for board, reward in finals.values():
            found = outcome(Position(board), rules)
            assert found is not None
            assert reward == (found.value if found.winner == 0 else -found.value)
        assert sum(reward for _, reward in finals.values()) == 0


@pytest.mark.parametrize("rules", [Rules(), BACKGAMMON, Rules(finish="bear_off", closure="off")], ids=str)
@pytest.mark.parametrize("seat", [0, 1])
def test_random_single_agent_episodes_end_with_the_outcome(rules, seat):
    generator = np.random.default_rng(seat)
    env = BanSugorokuEnv(rules, opponent="random", seat=seat)
    for game in range(5):
        observation, _ = env.reset(seed=3) if game == 0 else env.reset()
        total, terminated, truncated = 0.0, False, False
        while not (terminated or truncated):
            # It is always the agent's turn when it observes a live game.
            assert observation["action_mask"].any() and observation["dice"][0] > 0
            observation, reward, terminated, truncated, _ = env.step(
                masked_choice(generator, observation["action_mask"]))
            total += reward
        found = outcome(Position(observation["observation"]), rules)
        assert terminated and found is not None
        assert total == (found.value if found.winner == 0 else -found.value)
        with pytest.raises(GameStateError, match="episode has ended"):
            env.step(0)


def test_seeded_episodes_are_reproducible_and_games_follow_each_other():
    def trajectory(env, seed):
        generator = np.random.default_rng(0)
        observation, _ = env.reset(seed=seed)
        boards = [observation["observation"]]
        done = False
        while not done:
            observation, _, terminated, truncated, info = env.step(masked_choice(generator, observation["action_mask"]))
            boards.append(observation["observation"])
            done = terminated or truncated
        return np.stack(boards), info

    env = BanSugorokuEnv(BACKGAMMON, opponent="random")
    first, info = trajectory(env, 8)
    again, _ = trajectory(BanSugorokuEnv(BACKGAMMON, opponent="random"), 8)
    other, _ = trajectory(env, 9)
    assert info["game"] == 0 and np.array_equal(first, again)
    assert not np.array_equal(first[:len(other)], other[:len(first)])
    _, info = env.reset()
    assert info["game"] == 1 and info["seed"] == 9


# --- the per-stone encoding ----------------------------------------------------------


class RecordingTable(Table):
    """A Table that remembers the play each completed turn ended with."""

    finished: list

    def play(self, play):
        self.finished = [*getattr(self, "finished", []), play]
        super().play(play)


def spelled_plays(table: Table) -> set:
    """Every play some sequence of masked actions spells, from ``table``'s turn."""
    reached = set()
    for action in np.flatnonzero(table.action_mask()):
        branch = copy.deepcopy(table)
        branch.finished = []
        branch.act(int(action))
        if branch.finished:
            reached.add(branch.finished[0].position)
        else:
            reached |= spelled_plays(branch)
    return reached


@pytest.mark.parametrize("rules", [Rules(), BACKGAMMON], ids=str)
@pytest.mark.parametrize("game", range(6))
def test_step_actions_spell_exactly_the_legal_plays(rules, game):
    table = RecordingTable(rules, "step")
    table.new_game(seed=21, game=game)
    expected = {play.position for play in legal_plays(table.position, table.dice, rules)}
    assert spelled_plays(table) == expected


def test_step_action_encoding_names_origin_and_die():
    # 25 origins (the bar is 25) times 6 dice, origin-major.
    assert STEP_ACTIONS == 150
    assert [step_of_action(step_action(origin, die)) for origin, die in ((25, 1), (1, 6), (7, 3))] == [
        (25, 1), (1, 6), (7, 3)]
    assert sorted(step_action(o, d) for o in range(1, 26) for d in range(1, 7)) == list(range(150))


@pytest.mark.parametrize("call, words", [
    (lambda: step_action(0, 1), "origin must be an integer in 1..25, got 0"),
    (lambda: step_action(26, 1), "origin must be an integer in 1..25, got 26"),
    (lambda: step_action(3, 7), "die must be an integer in 1..6, got 7"),
    (lambda: step_of_action(150), "a step action must be an integer in 0..149, got 150"),
    (lambda: step_of_action(-1), "a step action must be an integer in 0..149, got -1"),
])
def test_a_step_outside_the_encoding_is_refused(call, words):
    # step_action(0, 1) was -6 and step_of_action(150) was origin 26: actions outside the space.
    with pytest.raises(ValueError, match=words):
        call()
    with pytest.raises(TypeError, match="must be an integer"):
        step_of_action("76")


def test_the_aec_environment_names_an_unknown_option():
    with pytest.raises(ArgumentTypeError, match="aec_env takes no option 'opponent'"):
        aec_env(BACKGAMMON, opponent="random")


def test_step_mask_at_the_start():
    # Backgammon, seed 0 game 0 opens with 3-2 (the opening roll of the dice
    # stream): every stack can move either die, none is blocked.
    env = aec_env(BACKGAMMON)
    env.reset(seed=0)
    observation = env.observe("seat_0")
    legal = sorted(step_of_action(a) for a in np.flatnonzero(observation["action_mask"]))
    assert observation["dice"].tolist() == [3, 2, 0, 0]
    assert legal == [(origin, die) for origin in (6, 8, 13, 24) for die in (2, 3)]
    assert not env.observe("seat_1")["action_mask"].any()


def test_feature_observations_are_the_features_of_the_board_seen():
    env = aec_env(BACKGAMMON, observation="features")
    env.reset(seed=3)
    for agent in ("seat_0", "seat_1"):
        shown = env.observe(agent)
        assert np.array_equal(shown["features"], features(shown["observation"][None], BACKGAMMON)[0])
    # At the start both sides have 167 pips (FEATURE_NAMES: own_pips first).
    assert shown["features"][FEATURE_NAMES.index("own_pips")] == 167


def test_play_mask_covers_the_legal_plays():
    env = BanSugorokuEnv(Rules(), actions="play")
    observation, _ = env.reset(seed=4)
    table = env.unwrapped.table
    count = len(legal_plays(table.position, table.dice, table.rules))
    assert observation["action_mask"].tolist() == [1] * count + [0] * (env.action_space.n - count)


# --- bad input --------------------------------------------------------------------------


def test_registered_ids_pass_the_checker_with_no_options():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gymnasium.make("bansugoroku_fast/Backgammon-v0").unwrapped)


def test_illegal_actions_raise_and_change_nothing_in_the_strict_mode():
    env = BanSugorokuEnv(BACKGAMMON, illegal_action="raise")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalPlayError, match=f"action {illegal} .*not legal"):
        env.step(illegal)
    with pytest.raises(IllegalPlayError, match=r"outside the action space 0\.\.149"):
        env.step(150)
    with pytest.raises(IllegalPlayError, match="an action is an integer"):
        env.step(1.5)
    assert np.array_equal(env.unwrapped._observe()["action_mask"], observation["action_mask"])


def test_an_illegal_action_forfeits_by_default():
    env = BanSugorokuEnv(BACKGAMMON)
    observation, _ = env.reset(seed=0)
    _, reward, terminated, _, info = env.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_aec_step_after_everyone_left_raises():
    env = aec_env(Rules(), actions="play")
    env.reset(seed=1)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[0]))
    with pytest.raises(GameStateError, match="every agent has left"):
        env.step(0)


@pytest.mark.parametrize("options, message", [
    ({"actions": "stone"}, "actions must be one of"),
    ({"observation": "pixels"}, "observation must be one of"),
    ({"render_mode": "human"}, "render_mode must be None or one of"),
    ({"max_plays": 0}, "max_plays must be a positive integer"),
    ({"seat": 2}, "seat must be 0 or 1"),
    ({"seat": True}, "seat must be 0 or 1"),  # a bool or a float is not a seat (checks.as_side)
    ({"seat": 1.0}, "seat must be 0 or 1"),
    ({"opponent": "clever"}, "unknown policy 'clever'"),
    ({"illegal_action": "ignore"}, "illegal_action must be one of"),
])
def test_bad_options_are_named(options, message):
    with pytest.raises(ValueError, match=message):
        BanSugorokuEnv(**options)


@pytest.mark.parametrize("env_id, options, error, message", [
    ("BanSugoroku-v0", {"rules": "backgamon"}, InvalidRulesError, "cannot read rules 'backgamon'"),
    ("BanSugoroku-v0", {"rules": "backgammon"}, InvalidOptionError, "for backgammon make"),
    ("Backgammon-v0", {"rules": "ban-sugoroku"}, InvalidOptionError, "for Ban-sugoroku make"),
    ("BanSugoroku-v0", {"finish": "bearoff"}, InvalidRulesError, "unknown finish 'bearoff'"),
    ("Backgammon-v0", {"finish": "arrival"}, ArgumentTypeError, "takes no option 'finish'"),
    ("BanSugoroku-v0", {"seed": 3}, ArgumentTypeError, "takes no option 'seed'; its options: actions"),
    ("BanSugoroku-v0", {"seat": 2}, ValueError, "seat must be 0 or 1"),
    ("Backgammon-v0", {"illegal_action": "ignore"}, ValueError, "illegal_action must be one of"),
])
def test_every_keyword_of_make_gets_the_librarys_error(env_id, options, error, message):
    with pytest.raises(error, match=message):
        gymnasium.make(f"bansugoroku_fast/{env_id}", **options)


def test_make_takes_rules_and_options_together():
    env = gymnasium.make("bansugoroku_fast/BanSugoroku-v0", rules="ban/bear_off/immediate", start="roll_off")
    assert env.unwrapped.rules == Rules(finish="bear_off", closure="immediate", start="roll_off")


@pytest.mark.parametrize("make", [lambda: aec_env(Rules()), lambda: BanSugorokuEnv(Rules())], ids=["aec", "single"])
@pytest.mark.parametrize("seed", [2**64, 2**70])
def test_a_seed_beyond_the_dice_key_is_refused(make, seed):
    # The dice's key is 64 bits (checks.as_seed): a wider seed is bad input,
    # not an OverflowError from the kernel.
    with pytest.raises(ValueError, match=r"seed must be an integer in 0 \.\. 2\*\*64 - 1"):
        make().reset(seed=seed)


@pytest.mark.parametrize("seed", [-1, 1.5, "3", True])
def test_an_aec_seed_is_an_integer(seed):
    # Gymnasium's reset checks the single environment's seed itself; the
    # AEC environment's is checked as the dice key (1.5 was read as 1).
    with pytest.raises(ValueError, match="seed must be an integer"):
        aec_env(Rules()).reset(seed=seed)


def test_an_opponent_that_is_not_a_policy_is_refused():
    with pytest.raises(TypeError, match="must be a policy name or a LinearPolicy, got int 3"):
        BanSugorokuEnv(opponent=3)
    with pytest.raises(ValueError, match="'pubeval' plays backgammon only"):
        BanSugorokuEnv(Rules(), opponent="pubeval")
    # One opponent: a pair (what play_games takes for its two seats) would
    # have its second policy silently dropped.
    with pytest.raises(TypeError, match=r"opponent must be a policy name or a LinearPolicy, got tuple"):
        BanSugorokuEnv(opponent=("first", "heuristic"))
    with pytest.raises(TypeError, match=r"opponent must be a policy name or a LinearPolicy, got list"):
        BanSugorokuVectorEnv(2, opponent=["heuristic", "random"])


@pytest.mark.parametrize("rules, opponent", [
    (BACKGAMMON, "heuristic"), (BACKGAMMON, "pubeval"), (BACKGAMMON, "random"), (Rules(), "heuristic"),
    (Rules(closure="immediate"), LinearPolicy([1.0] * len(FEATURE_NAMES))),
], ids=["bg-heuristic", "bg-pubeval", "bg-random", "ban-heuristic", "ban-linear"])
def test_the_opponent_plays_the_games_of_play_games(rules, opponent):
    # The agent always takes the first play: the game is game `g` of
    # play_games with the pair ("first", opponent) at the same seed.
    seed, game = 11, 3
    records = play_games(rules, game + 1, policy=("first", opponent), seed=seed)
    start, stop = records.offsets[game], records.offsets[game + 1]
    positions, after = records.positions[start:stop], records.after[start:stop]
    moved = (positions != after).any(axis=(1, 2))
    expected = positions[(np.arange(stop - start) % 2 == 0) & moved]  # seat 0's plays, passes left out
    env = BanSugorokuEnv(rules, opponent=opponent, actions="play")
    observation, _ = env.reset(seed=seed, options={"game": game})
    seen, done = [observation["observation"]], False
    while not done:
        observation, reward, terminated, truncated, info = env.step(0)
        seen.append(observation["observation"])
        done = terminated or truncated
    assert np.array_equal(np.stack(seen[:-1]), expected)
    value = int(records.value[game])
    assert reward == (value if records.winner[game] == 0 else -value)
    assert info["ply"] + 1 == records.plies[game]


# --- opponents ----------------------------------------------------------------------


def opponent_boards(opponent, seed=2):
    """The boards the agent (seat 1, always playing its first play) sees."""
    env = BanSugorokuEnv(Rules(), opponent=opponent, seat=1, actions="play")
    observation, _ = env.reset(seed=seed)
    boards, done = [observation["observation"]], False
    while not done:
        observation, _, terminated, truncated, _ = env.step(0)
        boards.append(observation["observation"])
        done = terminated or truncated
    return np.stack(boards)


def test_callable_opponents_follow_the_lockstep_convention():
    first = opponent_boards("first")
    # A choice (int64[1]) and scores that rank the first child highest both
    # choose the first play.
    assert np.array_equal(opponent_boards(lambda children, offsets: np.zeros(1, np.int64)), first)
    assert np.array_equal(opponent_boards(lambda children, offsets: -np.arange(len(children), dtype=float)), first)
    with pytest.raises(PolicyOutputError, match=r"integer choices .* or floating scores"):
        opponent_boards(lambda children, offsets: np.array(["best"]))
    with pytest.raises(PolicyOutputError, match="scored child 0 of game 0 as NaN"):
        opponent_boards(lambda children, offsets: np.full(len(children), np.nan))


def test_the_opponent_moves_first_when_the_agent_is_seat_1():
    env = BanSugorokuEnv(Rules(), opponent="first", seat=1)
    observation, info = env.reset(seed=0)
    # The opponent (seat 0) has played one ply: the agent's board is no
    # longer the start, and the opponent's row has moved.
    assert info["ply"] >= 1
    assert not np.array_equal(observation["observation"][1], Position.initial().array[0])


# --- rendering -------------------------------------------------------------------------


def test_ansi_render_is_the_text_board_and_the_dice():
    env = aec_env(BACKGAMMON, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.startswith(" 13 14 15 16 17 18") and "seat 0 (X) to move, ply 0, dice (3, 2)" in text


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_rgb_array_render_composites_onto_the_board_colour():
    pytest.importorskip("cairosvg")
    from bansugoroku_fast import render

    env = BanSugorokuEnv(render_mode="rgb_array")
    env.reset(seed=0)  # the agent moves first: the frame is the start position
    image = env.render()
    assert image.dtype == np.uint8 and image.shape == (465, 546, 3)  # the SVG's 364 x 310 units, drawn at 1.5x
    scale = 1.5
    # Under the point numbers (y 280..310 in SVG units) the SVG is
    # transparent: the frame shows the board's colour there, not black.
    assert tuple(image[int(305 * scale), int(360 * scale)]) == rgb(render.BACKGROUND)
    assert tuple(image[int(300 * scale), 2]) == rgb(render.BACKGROUND)  # the left edge: no letterbox
    # Point 6 (column 6, right of the 28-unit bar) holds five X stones at the
    # start; the nearest is centred 12 units above the board's lower edge (280).
    assert tuple(image[int(268 * scale), int((6 * 28 + 28 + 14) * scale)]) == rgb("#f4f0e6")
    # The number "1" under point 1 (centred at x = 350, baseline y = 292) is dark ink.
    label = image[int(285 * scale):int(293 * scale), int(344 * scale):int(356 * scale)].astype(int).sum(axis=2)
    assert label.min() < 150 and (label == sum(rgb(render.BACKGROUND))).any()
