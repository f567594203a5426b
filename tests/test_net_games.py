"""Games played by a network in the kernels' own game loop (policy code NET):
``play_games`` and ``rollout`` with ``EvaluatorPolicy(net)`` at 0 ply, or
``"net"``, never come back to Python. Whole games are compared with the
oracle's (``bansugoroku_fast.oracle.games``, float64 forward pass): the same
seed gives the same records, except where the oracle's two best plays of a
ply are within 1e-4 of each other (a near tie, where float32 may choose the
other); such games are counted and bounded."""
from __future__ import annotations

import numpy as np
import pytest

from bansugoroku_fast import Position, Rules, _games, _kernel, oracle, play_games, rank_plays, rollout
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator
from bansugoroku_fast.games.policies import CALLABLE, NET, resolve_policies
from bansugoroku_fast.oracle import evaluators as plain
from tests.boards import ALL_RULES, BACKGAMMON, BAN_ARRIVAL, BAN_BEAR_OFF, landing_grid, rules_params

NEAR_TIE = 1e-4
MAX_PLIES = 400      # a random network may wander: games longer than this are cut (the same in both)

NETS = [
    pytest.param(dict(hidden=(8,), encoding="raw198+features", activation="sigmoid"), id="features-8-sigmoid"),
    pytest.param(dict(hidden=(9,), encoding="raw198", activation="sigmoid"), id="raw-9-sigmoid"),
    pytest.param(dict(hidden=(6, 5), encoding="raw198+features", activation="relu"), id="features-6-5-relu"),
    # exact networks (rounded: their children scored in 16-bit integers), a whole block and one of 16 left over
    pytest.param(dict(hidden=(32,), encoding="raw198+features", activation="relu", rounded=True),
                 id="features-32-relu-exact"),
    pytest.param(dict(hidden=(144,), encoding="raw198", activation="relu", rounded=True), id="raw-144-relu-exact"),
    pytest.param(dict(hidden=(128,), encoding="raw198+features", activation="relu", rounded=True),
                 id="features-128-relu-exact", marks=pytest.mark.slow),     # whole blocks: 144 has one too
]


def network(rules, seed, shape):
    """A random network of ``shape`` (``rounded``: made exact)."""
    shape = dict(shape)
    rounded = shape.pop("rounded", False)
    net = NetEvaluator.random(rules, seed=seed, **shape)
    if rounded:
        net = net.rounded()
        assert net.exact
    return net
SOME_RULES = [BACKGAMMON, BAN_ARRIVAL[0], BAN_BEAR_OFF[2]]


class NotInPython(EvaluatorPolicy):
    """An EvaluatorPolicy that must never be called: the kernels play it."""

    def __call__(self, children, offsets):
        raise AssertionError("the kernels' game loop called back into Python")


class Lockstep:
    """The same policy, hidden from the kernels (a plain callable): played in lockstep."""

    def __init__(self, policy):
        self.policy = policy

    def __call__(self, children, offsets):
        return self.policy(children, offsets)


def game_plies(records, game):
    """The plies of ``game`` as an ``int8[P, 2, 26]`` array (oracle lists or package arrays)."""
    lo, hi = records.offsets[game], records.offsets[game + 1]
    return np.array(records.positions[lo:hi], dtype=np.int8).reshape(-1, 2, 26)


def oracle_margin(position, dice, rules, twin):
    """The oracle's best equity minus its second best among the plays of ``dice`` (inf with one play)."""
    equities = sorted((plain.equity(plain.evaluate(play.position, rules, twin))
                       for play in oracle.legal_plays(Position(position), dice, rules)), reverse=True)
    return equities[0] - equities[1] if len(equities) > 1 else float("inf")


def compare_games(kernel, expected, rules, twin):
    """The games of ``kernel`` records against the oracle's ``expected``: every game
    identical, or first different at a ply whose oracle margin is a near tie (counted)."""
    near_ties = 0
    for game in range(len(kernel.plies)):
        ours, theirs = game_plies(kernel, game), game_plies(expected, game)
        ends = (int(kernel.winner[game]), int(kernel.value[game]), int(kernel.kind[game]), int(kernel.plies[game]))
        if ours.shape == theirs.shape and np.array_equal(ours, theirs):
            assert ends == (expected.winner[game], expected.value[game], expected.kind[game], expected.plies[game])
            continue
        size = min(len(ours), len(theirs))
        ply = int(np.flatnonzero((ours[:size] != theirs[:size]).any(axis=(1, 2)))[0]) - 1  # chosen before
        lo = int(kernel.offsets[game])
        position, dice = kernel.positions[lo + ply], tuple(int(d) for d in kernel.dice[lo + ply])
        margin = oracle_margin(position, dice, rules, twin)
        assert margin <= NEAR_TIE, f"game {game} ply {ply}: a choice the oracle ranks {margin} below its best"
        near_ties += 1
    return near_ties


@pytest.mark.parametrize(("shape", "rules"), landing_grid(NETS, [pytest.param(r, id=r.short_name) for r in SOME_RULES]))
def test_games_by_a_network_match_the_oracle(shape, rules):
    net = network(rules, 5, shape)
    policy = NotInPython(net)
    kernel = play_games(rules, 4, policy=policy, seed=11, max_plies=MAX_PLIES, on_long="truncate")
    expected = oracle.play_games(rules, 4, policy=policy, seed=11, max_plies=MAX_PLIES, on_long="truncate")
    assert compare_games(kernel, expected, rules, plain.PlainNetwork.of(net)) <= 1
    assert kernel.offsets[-1] > 4 * 20      # whole games were played


def test_games_by_the_shipped_network_match_the_oracle():
    # "net": the trained backgammon network (226-128, ReLU), two whole games in float64 against float32
    rules = BACKGAMMON
    kernel = play_games(rules, 2, policy="net", seed=3)
    expected = oracle.play_games(rules, 2, policy="net", seed=3)
    twin = plain.PlainNetwork.of(resolve_policies("net", rules, networks=True)[0].function.kernel_network)
    assert compare_games(kernel, expected, rules, twin) == 0
    assert set(kernel.winner.tolist()) <= {0, 1}


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_the_kernel_loop_chooses_as_the_lockstep_policy(rules):
    # the lockstep path (the policy called once per wave: a full forward pass of each child) and the
    # kernels' loop (each child's first layer from its parent's): the same games but for near ties
    net = NetEvaluator.random(rules, seed=8, hidden=(16,), encoding="raw198+features")
    policy = EvaluatorPolicy(net)
    kernel = play_games(rules, 12, policy=NotInPython(net), seed=2, max_plies=MAX_PLIES, on_long="truncate")
    lockstep = play_games(rules, 12, policy=Lockstep(policy), seed=2, max_plies=MAX_PLIES, on_long="truncate")
    same = [np.array_equal(game_plies(kernel, g), game_plies(lockstep, g)) for g in range(12)]
    assert sum(same) >= 11
    assert np.array_equal(kernel.winner[same], lockstep.winner[same])


@pytest.mark.parametrize("rules", rules_params([BACKGAMMON, BAN_ARRIVAL[1], BAN_BEAR_OFF[0]]))
def test_games_and_rollouts_by_the_shipped_network_do_not_depend_on_threads(rules):
    records = [play_games(rules, 9, policy="net", seed=4, threads=threads) for threads in (1, 2, 3)]
    for other in records[1:]:
        assert np.array_equal(other.positions, records[0].positions)
        assert np.array_equal(other.winner, records[0].winner) and np.array_equal(other.value, records[0].value)
    start = Position.initial(rules).array
    results = [rollout(start, rules, games=30, policy="net", seed=6, threads=threads) for threads in (1, 2)]
    assert results[0].counts.tolist() == results[1].counts.tolist()
    assert results[0].mean_plies == results[1].mean_plies


@pytest.mark.parametrize("rules", rules_params(ALL_RULES))
def test_a_rollout_by_the_shipped_network_tallies_its_games(rules):
    # game g of the rollout is game g of play_games from the same start
    start = Position.initial(rules)
    result = rollout(start, rules, games=20, policy="net", seed=9, threads=2)
    records = play_games(rules, 20, policy="net", seed=9, start=start, threads=1)
    counts = np.zeros((2, 4), dtype=np.int64)
    np.add.at(counts, (records.winner, records.value), 1)
    assert result.counts.tolist() == counts.tolist()
    assert result.mean_plies == pytest.approx(records.plies.mean())


def test_rank_plays_and_endgame_rollouts_take_the_kernel_loop():
    net = NetEvaluator.random(BACKGAMMON, hidden=(8,), seed=4, encoding="raw198+features")
    ranked = rank_plays(Position.initial(), (3, 1), BACKGAMMON, games=6, policy=NotInPython(net), seed=1)
    assert len(ranked) == 16
    position = Position.initial().array
    result = rollout(position, BACKGAMMON, games=6, policy=NotInPython(net), seed=1, endgames=True,
                     max_plies=MAX_PLIES, on_long="truncate")
    assert result.games == 6


def test_a_pair_with_a_python_callable_plays_in_lockstep():
    # seat 1 a plain callable: both seats in lockstep, seat 0's network through its own call
    net = NetEvaluator.random(BACKGAMMON, hidden=(8,), seed=6)
    policy = EvaluatorPolicy(net)
    assert [p.code for p in resolve_policies((policy, Lockstep(policy)), BACKGAMMON, callables=True,
                                             networks=True)] == [NET, CALLABLE]
    mixed = play_games(BACKGAMMON, 5, policy=(policy, Lockstep(policy)), seed=7)
    kernel = play_games(BACKGAMMON, 5, policy=policy, seed=7)
    same = sum(np.array_equal(game_plies(mixed, g), game_plies(kernel, g)) for g in range(5))
    assert same >= 4


def test_which_network_policies_the_kernels_play(monkeypatch):
    net = NetEvaluator.random(BACKGAMMON, hidden=(8,), seed=1)
    codes = lambda policy, rules=BACKGAMMON: resolve_policies(policy, rules, callables=True, networks=True)[0].code  # noqa: E731
    assert codes(EvaluatorPolicy(net)) == NET and codes("net") == NET
    assert codes(EvaluatorPolicy(net, ply=1)) == CALLABLE and codes("net1") == CALLABLE
    # a network of other rules, or wider than the kernels' scratch: played in lockstep as before
    ban = Rules(finish="arrival", closure="off")
    assert codes(EvaluatorPolicy(NetEvaluator.random(ban, hidden=(8,))), BACKGAMMON) == CALLABLE
    monkeypatch.setattr(_kernel, "NET_MAX_HIDDEN", 7)
    assert codes(EvaluatorPolicy(net)) == CALLABLE


def test_the_kernel_refuses_a_network_code_without_its_model():
    ends = _kernel.GameEnds.empty(1)
    start = Position.initial().array
    codes, weights = np.array([4, 4], dtype=np.int32), np.zeros((2, 28))
    with pytest.raises(TypeError, match=r"needs a _net\.Model"):
        _games.play_batch(start, 1, True, 0, codes, weights, (None, None), BACKGAMMON.code, 1, 10, 1, *ends)
    with pytest.raises(ValueError, match="needs its Model"):
        _games.choose_batch(4, np.zeros(28), start[None], np.array([0, 1]), start[None], BACKGAMMON.code,
                                    0, np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                                    np.zeros(1, dtype=np.int32))

