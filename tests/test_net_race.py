"""A network with a race network (``NetEvaluator.with_race``): every
position without contact that the endgame tables do not cover is scored by
the race network, in scoring, the kernels' choices, games and rollouts,
checked against the oracle's twin (``PlainNetwork.race``) and against the
race network playing alone; its file and its bad input."""
from __future__ import annotations

import numpy as np
import pytest

from bansugoroku_fast import Position, oracle, play_games, rollout
from bansugoroku_fast.errors import ArgumentTypeError, InvalidEvaluatorError, NetworkFileError
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator, best_plays
from bansugoroku_fast.oracle import evaluators as plain
from tests.boards import BACKGAMMON, BAN_BEAR_OFF, rules_params
from tests.test_net_games import MAX_PLIES, NotInPython, compare_games

#: A race off the tables' points (stones on the 7- to 12-points): row 0 has just moved.
RACE = Position([[0, 2, 2, 2, 0, 0, 0, 3, 3, 3, 0, 0] + [0] * 14,
                 [0, 1, 1, 2, 2, 2, 2, 1, 2, 2, 0, 0] + [0] * 14])


def pair(rules, *, exact=False, seed=1):
    """A network and a smaller race network of another shape, random."""
    net = NetEvaluator.random(rules, hidden=(32,) if exact else (12,), encoding="raw198+features",
                              activation="relu", seed=seed)
    race = NetEvaluator.random(rules, hidden=(16,) if exact else (6,), encoding="raw198+features",
                               activation="relu" if exact else "sigmoid", seed=seed + 1)
    if exact:
        net, race = net.rounded(), race.rounded()
        assert net.exact and race.exact
    return net, race


def game_positions(rules, seed):
    """Positions after each ply of some games by ``"net"``, the finished ones left out."""
    records = play_games(rules, 30, policy="net", seed=seed)
    after = [p for p in records.after if plain.outcome(Position(p), rules) is None]
    return np.ascontiguousarray(np.array(after, dtype=np.int8))


def test_the_race_position_is_a_race_outside_the_tables():
    assert not plain.has_contact(RACE) and plain.has_contact(Position.initial())
    assert plain.PlainTables.of(BACKGAMMON).figures(RACE.rows[1], RACE.rows[0]) is None


@pytest.mark.parametrize("rules", rules_params([BACKGAMMON, BAN_BEAR_OFF[0]]))
@pytest.mark.parametrize("endgames", [False, True], ids=["layers", "tables"])
def test_the_kernels_score_as_the_oracle_twin(rules, endgames):
    net, race = pair(rules)
    both = net.with_race(race).with_endgames(endgames)
    positions = game_positions(rules, 3)
    contact = np.array([plain.has_contact(Position(p)) for p in positions])
    assert contact.sum() > 50 and (~contact).sum() > 50       # both kinds are scored
    twin = plain.PlainNetwork.of(both)
    assert twin.race is not None and (twin.tables is not None) == endgames
    expected = np.array([plain.evaluate(Position(p), rules, twin) for p in positions])
    np.testing.assert_allclose(both(positions), expected, atol=2e-6)
    # and the kinds are told apart: contact by the network, races by the race network
    np.testing.assert_array_equal(both.with_endgames(False)(positions[contact]), net(positions[contact]))
    np.testing.assert_array_equal(both.with_endgames(False)(positions[~contact]), race(positions[~contact]))


@pytest.mark.parametrize("exact", [False, True], ids=["float", "exact"])
def test_games_by_a_network_with_a_race_network_match_the_oracle(exact):
    # the kernels' loop scores each child from its parent's sums, and a race child by the race network
    net, race = pair(BACKGAMMON, exact=exact, seed=4)
    both = net.with_race(race)
    kernel = play_games(BACKGAMMON, 4, policy=NotInPython(both), seed=12, max_plies=MAX_PLIES, on_long="truncate")
    expected = oracle.play_games(BACKGAMMON, 4, policy=NotInPython(both), seed=12, max_plies=MAX_PLIES,
                                 on_long="truncate")
    assert compare_games(kernel, expected, BACKGAMMON, plain.PlainNetwork.of(both)) <= 1
    races = sum(not plain.has_contact(Position(p)) for p in kernel.positions)
    assert races > 20
    alone = play_games(BACKGAMMON, 4, policy=NotInPython(net), seed=12, max_plies=MAX_PLIES, on_long="truncate")
    assert alone.after.shape != kernel.after.shape or not np.array_equal(alone.after, kernel.after)


#: Row 0 to play 4-4 with its last stone behind row 1's: 24/8 breaks contact, the other plays keep it.
BREAKING = Position([[0, 3, 3, 3, 3, 2] + [0] * 18 + [1, 0], [0] * 15 + [15] + [0] * 10])


@pytest.mark.parametrize(("start", "dice"), [(RACE.swapped(), (4, 2)), (BREAKING, (4, 4))], ids=["race", "breaking"])
@pytest.mark.parametrize("ply", [0, 1])
def test_searches_rank_plays_as_the_oracle_twin(start, dice, ply):
    # 1 ply scores each reply from its parent in the kernels (the race network's own sums in a race)
    net, race = pair(BACKGAMMON, seed=9)
    both = net.with_race(race).with_endgames()
    ranked = best_plays(start, dice, BACKGAMMON, both, ply=ply, move_filter=None)
    expected = plain.rank_plays(start, dice, BACKGAMMON, plain.PlainNetwork.of(both), ply=ply)
    assert len(ranked) == len(expected) >= 2
    np.testing.assert_allclose([r.equity for r in ranked], [e[1] for e in expected], atol=5e-5)
    kinds = {plain.has_contact(r.play.position) for r in ranked}
    assert kinds == ({False} if start == RACE.swapped() else {False, True})


@pytest.mark.parametrize("variance_reduction", [False, True])
def test_a_race_is_rolled_out_as_the_race_network_alone_rolls_it_out(variance_reduction):
    # from a race every position is a race: the pair plays, and judges each roll's luck, as the race
    # network alone does (played out in the kernels' loop; with variance reduction, in lockstep)
    net, race = pair(BACKGAMMON, seed=6)
    start = RACE.swapped()      # row 0 to roll
    results = [rollout(start, BACKGAMMON, games=48, policy=EvaluatorPolicy(player), seed=8,
                       variance_reduction=variance_reduction) for player in (net.with_race(race), race, net)]
    assert results[0].equity == results[1].equity and results[0].stderr == results[1].stderr
    assert results[0].equity != results[2].equity


def test_the_file_keeps_the_race_network(tmp_path):
    net, race = pair(BACKGAMMON)
    both = net.with_race(race)
    path = tmp_path / "both.npz"
    both.save(path)
    loaded = NetEvaluator.load(path, rules=BACKGAMMON)
    assert loaded == both and loaded.race == race and loaded != net
    assert loaded.race.activation == "sigmoid" and loaded.race.layer_sizes == (226, 6, 5)
    assert "race network 226-6-5" in repr(loaded)
    assert both.rounded().race == race.rounded()
    assert both.with_race(None) == net


def test_a_damaged_race_network_in_a_file_is_named(tmp_path):
    net, race = pair(BACKGAMMON)
    arrays = net.with_race(race).arrays()
    cases = {
        "race_activation": {k: v for k, v in arrays.items() if k != "race_activation"},
        "race_biases_1": {k: v for k, v in arrays.items() if k != "race_biases_1"},
        "race_weights_0": {**arrays, "race_weights_0": arrays["race_weights_0"][:100]},
    }
    for key, damaged in cases.items():
        path = tmp_path / f"{key}.npz"
        np.savez(path, **damaged)
        with pytest.raises(NetworkFileError, match=key):
            NetEvaluator.load(path)


def test_a_race_network_that_cannot_stand_in_is_refused():
    net, race = pair(BACKGAMMON)
    with pytest.raises(ArgumentTypeError, match="race must be a NetEvaluator"):
        net.with_race("net")
    with pytest.raises(InvalidEvaluatorError, match="no race network of its own"):
        net.with_race(race.with_race(race))
    with pytest.raises(InvalidEvaluatorError, match="'raw198' for backgammon"):
        net.with_race(NetEvaluator.random(BACKGAMMON, hidden=(4,), seed=3))
    with pytest.raises(InvalidEvaluatorError, match="ban/bear_off"):
        net.with_race(NetEvaluator.random(BAN_BEAR_OFF[0], hidden=(4,), encoding="raw198+features", seed=3))
