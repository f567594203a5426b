"""The native vector environment (bansugoroku_fast.envs.BanSugorokuVectorEnv)."""
from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from bansugoroku_fast import (  # noqa: E402
    FEATURE_NAMES,
    IllegalPlayError,
    LinearPolicy,
    Position,
    Rules,
    features,
    legal_plays,
    outcome,
)
from bansugoroku_fast.envs import BanSugorokuEnv, BanSugorokuVectorEnv  # noqa: E402
from bansugoroku_fast.errors import GameStateError  # noqa: E402

BACKGAMMON = Rules(variant="backgammon")


def random_actions(generator: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    return np.array([generator.choice(np.flatnonzero(mask)) for mask in masks], dtype=np.int64)


def assert_same_observation(vector_observation: dict, index: int, single_observation: dict) -> None:
    for key, value in single_observation.items():
        assert np.array_equal(vector_observation[key][index], value), key


def fewest_pips(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """A callable opponent: score each play by minus the pips it leaves the
    opponent (row 0 of a child: the mover; the first play wins a tie)."""
    return -(children[:, 0, 1:26] * np.arange(1, 26)).sum(axis=1).astype(np.float64)


# Seeded weights of mixed signs: a LinearPolicy unlike "heuristic".
SOME_WEIGHTS = LinearPolicy(np.random.default_rng(3).normal(size=len(FEATURE_NAMES)).tolist())


@pytest.mark.parametrize("rules, opponent, max_plies", [
    (Rules(), "random", None), (BACKGAMMON, "random", None),
    (Rules(finish="bear_off", closure="immediate"), "random", None),
    (BACKGAMMON, "pubeval", None), (Rules(), "heuristic", None), (Rules(), "first", None),
    (BACKGAMMON, SOME_WEIGHTS, None), (Rules(), fewest_pips, None), (BACKGAMMON, "heuristic", 31),
    (Rules(), fewest_pips, 20),
], ids=["ban", "backgammon", "ban-bear-off-immediate", "backgammon-pubeval", "ban-heuristic", "ban-first",
        "backgammon-linear", "ban-callable", "backgammon-heuristic-truncated", "ban-callable-truncated"])
@pytest.mark.parametrize("seat", [0, 1])
def test_sub_environments_play_the_games_of_single_environments(rules, opponent, max_plies, seat):
    count, seed = 4, 17
    limit = {} if max_plies is None else {"max_plies": max_plies}
    vector = BanSugorokuVectorEnv(count, rules, opponent=opponent, seat=seat, **limit)
    singles = [BanSugorokuEnv(rules, opponent=opponent, seat=seat, actions="play", **limit) for _ in range(count)]
    observations, _ = vector.reset(seed=seed)
    # Sub-environment i plays games i, i + count, ... of the seed.
    expected = [env.reset(seed=seed, options={"game": i})[0] for i, env in enumerate(singles)]
    generator = np.random.default_rng(seat)
    finished = truncations = 0
    for _ in range(250):
        for i in range(count):
            assert_same_observation(observations, i, expected[i])
        actions = random_actions(generator, observations["action_mask"])
        observations, rewards, terminated, truncated, infos = vector.step(actions)
        for i, env in enumerate(singles):
            single, reward, single_terminated, single_truncated, info = env.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (reward, single_terminated, single_truncated)
            if single_terminated or single_truncated:
                finished += 1
                truncations += single_truncated
                assert infos["_final_obs"][i]
                assert_same_observation({k: {i: v} for k, v in infos["final_obs"][i].items()}, i, single)
                assert infos["final_info"]["ply"][i] == info["ply"]
                single, info = env.reset(options={"game": info["game"] + count})
            expected[i] = single
    assert finished >= 4  # the comparison covered whole games and restarts
    # No game lasts as few as 20 or 31 plies here: some were truncated.
    assert (truncations > 0) == (max_plies is not None)


def test_rewards_are_the_outcome_of_the_final_position():
    vector = BanSugorokuVectorEnv(8, BACKGAMMON, opponent="first")
    observations, _ = vector.reset(seed=2)
    generator = np.random.default_rng(2)
    checked = 0
    while checked < 10:
        actions = random_actions(generator, observations["action_mask"])
        observations, rewards, terminated, _, infos = vector.step(actions)
        for i in np.flatnonzero(terminated):
            final = infos["final_obs"][i]["observation"]  # seen by the agent
            found = outcome(Position(final), BACKGAMMON)
            assert rewards[i] == (found.value if found.winner == 0 else -found.value)
            checked += 1


def test_reset_without_a_seed_goes_on_with_the_next_games():
    vector = BanSugorokuVectorEnv(3, Rules())
    _, infos = vector.reset(seed=4)
    assert infos["game"].tolist() == [0, 1, 2]
    observations, infos = vector.reset()
    assert infos["game"].tolist() == [3, 4, 5]
    single, _ = BanSugorokuEnv(Rules(), actions="play").reset(seed=4, options={"game": 4})
    assert_same_observation(observations, 1, single)


def test_games_are_truncated_at_max_plies_with_features_shown():
    # No backgammon game ends within 6 plies (3 turns a side move at most
    # 3 x 24 pips of the 167 to bear off): every game is truncated when it
    # reaches ply 6, with no reward, and restarts.
    vector = BanSugorokuVectorEnv(4, BACKGAMMON, observation="features", max_plies=6)
    observations, _ = vector.reset(seed=1)
    truncated_once = np.zeros(4, dtype=bool)
    for _ in range(3):  # a step moves each game 2 plies or more
        assert np.array_equal(observations["features"], features(observations["observation"], BACKGAMMON))
        observations, rewards, terminated, truncated, infos = vector.step(np.zeros(4, dtype=np.int64))
        assert not terminated.any() and not rewards.any()
        if truncated.any():
            assert infos["final_info"]["ply"][truncated].tolist() == [6] * int(truncated.sum())
            assert infos["game"][truncated].tolist() == (infos["final_info"]["game"][truncated] + 4).tolist()
        truncated_once |= truncated
    assert truncated_once.all()


def test_candidates_are_the_children_of_the_masked_actions():
    vector = BanSugorokuVectorEnv(3, Rules())
    observations, _ = vector.reset(seed=5)
    offsets, children = vector.candidates()
    assert np.array_equal(np.diff(offsets), observations["action_mask"].sum(axis=1))
    assert children.shape == (offsets[-1], 2, 26)
    # Candidate k of sub-environment i is the position after legal play k
    # (action k) of the board and roll it shows (the first two dice slots).
    for i in range(3):
        board, dice = observations["observation"][i], observations["dice"][i]
        plays = legal_plays(Position(board), (int(dice[0]), int(dice[1])), Rules())
        expected = [play.position.array for play in plays]
        assert np.array_equal(children[offsets[i]:offsets[i + 1]], np.stack(expected))


def test_illegal_actions_name_the_sub_environment():
    vector = BanSugorokuVectorEnv(3, Rules())
    with pytest.raises(GameStateError, match=r"call reset\(\) before step\(\)"):
        vector.step(np.zeros(3, dtype=np.int64))
    observations, _ = vector.reset(seed=5)
    actions = np.zeros(3, dtype=np.int64)
    actions[1] = observations["action_mask"][1].sum()  # one past its last legal play
    with pytest.raises(IllegalPlayError, match=f"action {actions[1]} of sub-environment 1 is not legal"):
        vector.step(actions)
    with pytest.raises(IllegalPlayError, match=r"3 integers \(one per sub-environment\)"):
        vector.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        BanSugorokuVectorEnv(0)
    with pytest.raises(ValueError, match=r"seed must be an integer in 0 \.\. 2\*\*64 - 1"):
        BanSugorokuVectorEnv(2).reset(seed=2**64)  # the dice's key is 64 bits (checks.as_seed)
    for seat in (2, True, 1.0):  # as the single environment: 0 or 1, no bool, no float
        with pytest.raises(ValueError, match="seat must be 0 or 1"):
            BanSugorokuVectorEnv(2, seat=seat)
    # Seat 1 first rolls at ply 1: after one ply every game is truncated, and
    # the agent would be shown a game with no legal action.
    with pytest.raises(ValueError, match="max_plies=1 ends every game before seat 1 rolls; it must be at least 2"):
        BanSugorokuVectorEnv(2, seat=1, max_plies=1)
    first_rolls = BanSugorokuVectorEnv(2, seat=1, max_plies=2).reset(seed=1)[0]["action_mask"].sum(axis=1)
    assert (first_rolls > 0).all()  # one ply is enough for seat 0; two for seat 1


def test_the_dice_and_random_choices_at_mixed_plies_are_the_oracles():
    """The kernels' dice and "random" choices of games each at its own ply
    (what the vector environment draws) are the specification's."""
    from bansugoroku_fast.games.game_batch import roll_dice
    from bansugoroku_fast.games.policies import choose, resolve_policies
    from bansugoroku_fast.oracle import games as spec

    games = np.arange(2000, dtype=np.int64) * 7919 % 100_003
    plies = np.arange(2000, dtype=np.int64) % 97
    counts = np.arange(2000, dtype=np.int64) % 300 + 1
    seed = 2**64 - 5  # the full width of the key
    for opening in (False, True):
        expected = [spec.roll(seed, int(g), int(p), opening=opening) for g, p in zip(games, plies)]
        assert roll_dice(seed, games, plies, opening=opening).tolist() == [list(pair) for pair in expected]
    expected_choices = [spec.below(spec.word(seed, int(g), int(p), spec.CHOICE_STREAM), int(n))
                        for g, p, n in zip(games, plies, counts)]
    # "random" draws its index from the choice stream alone: the children's content does not matter.
    offsets = np.concatenate([[0], np.cumsum(counts)])
    parents = np.zeros((len(games), 2, 26), dtype=np.int8)
    children = np.zeros((int(offsets[-1]), 2, 26), dtype=np.int8)
    random = resolve_policies("random", Rules())[0]
    assert choose(random, parents, offsets, children, Rules(), seed, games, plies).tolist() == expected_choices


def test_a_roll_with_more_plays_than_max_plays_raises():
    # Every backgammon opening roll has two plays at least: each die can
    # move a stone from the 24-point or the 13-point to different points
    # (the opponent blocks only our 19, 12 and 1-points within reach of
    # one of them), so max_plays=1 cannot hold the first roll.
    vector = BanSugorokuVectorEnv(2, BACKGAMMON, max_plays=1)
    with pytest.raises(ValueError, match=r"game 0 \(seed 3\) ply 0: \d+ legal plays, more than max_plays=1"):
        vector.reset(seed=3)


def test_candidates_need_a_reset():
    with pytest.raises(GameStateError, match=r"call reset\(\) before candidates\(\)"):
        BanSugorokuVectorEnv(2).candidates()
