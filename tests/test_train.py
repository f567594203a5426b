"""Training by TD(λ) self-play (bansugoroku_fast.train) and duplicate
matches (bansugoroku_fast.strength)."""
from __future__ import annotations

import dataclasses
import math
import os

import numpy as np
import pytest

from bansugoroku_fast import Rules, play_games
from bansugoroku_fast.errors import InvalidTrainingError
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator, evaluate
from bansugoroku_fast.evaluators.encoding import encode_valid
from bansugoroku_fast.evaluators.nets import network_file
from bansugoroku_fast.evaluators.scoring import flip
from bansugoroku_fast.strength import duplicate_match, points_of_seat
from bansugoroku_fast.train import (
    BAN_COMBINATIONS,
    TrainingConfig,
    TrainingRun,
    checkpoint_path,
    fitting,
    lambda_returns,
    main,
    rule_inputs,
    specialised,
    train,
    train_every_ban,
    with_rule_inputs,
)

TINY = dict(hidden=(8,), parallel=16, segment_games=20, eval_every=0, update_size=256, minibatch=32)


def tiny(rules: str = "ban/arrival/off", games: int = 40, seed: int = 1, **changes: object) -> TrainingConfig:
    fields = {**TINY, **changes}
    return TrainingConfig(rules=Rules.parse(rules), games=games, seed=seed, **fields)  # type: ignore[arg-type]


def parameters(run: TrainingRun) -> list[np.ndarray]:
    return [p.copy() for p in run.parameters]


def same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


# --- λ-returns -------------------------------------------------------------------------------


def recursive_returns(values: np.ndarray, seats: np.ndarray, lam: float) -> np.ndarray:
    """The definition, step by step backwards from the result."""
    count = len(values) - 1
    targets = np.empty((count, 5))
    following = values[-1]
    for t in range(count - 1, -1, -1):
        blend = (1 - lam) * values[t + 1] + lam * following if t + 1 < count else following
        following = flip(blend[None])[0] if seats[t] != seats[t + 1] else blend
        targets[t] = following
    return targets


@pytest.mark.parametrize("lam", [0.0, 0.3, 0.7, 1.0])
def test_lambda_returns_follow_the_backward_recursion(lam: float) -> None:
    rng = np.random.default_rng(4)
    for length in (1, 2, 3, 17, 60):
        values = rng.random((length + 1, 5))
        seats = rng.integers(0, 2, length + 1)  # passes: the same side twice in a row
        np.testing.assert_allclose(lambda_returns(values, seats, lam), recursive_returns(values, seats, lam),
                                   atol=1e-12)


def test_monte_carlo_returns_are_the_result_seen_by_each_side() -> None:
    # λ = 1: every target is the game's real result, flipped for the side that lost.
    values = np.full((5, 5), 0.5)
    values[-1] = [1.0, 1.0, 0.0, 0.0, 0.0]  # the last mover won a double
    seats = np.array([0, 1, 1, 0, 1])  # seat 1 played twice in a row once (a pass)
    targets = lambda_returns(values, seats, 1.0)
    assert targets[:, 0].tolist() == [0.0, 1.0, 1.0, 0.0]
    assert targets[0].tolist() == [0.0, 0.0, 0.0, 1.0, 0.0]  # seat 0 loses 2


# --- the network's gradient ------------------------------------------------------------------


@pytest.mark.parametrize("activation", ["sigmoid", "relu"])
@pytest.mark.parametrize("hidden", [(6,), (5, 4)])
def test_gradients_match_finite_differences(activation: str, hidden: tuple[int, ...]) -> None:
    # the gradients training takes its steps on are the played network's own (NetEvaluator's layers)
    rng = np.random.default_rng(0)
    parameters = [p.astype(np.float64) for p in fitting.initial_parameters(7, hidden, rng)]  # exact arithmetic
    output = parameters[len(parameters) // 2 - 1]    # nonzero output weights: the hidden layers' gradients count
    output[:] = 0.3 * rng.normal(size=output.shape)      # (small, and the outputs' biases 0: outputs near 1/2,
    parameters[-1][:] = 0.0                              # far from 0 and 1, where the loss's 1e-7 would show)
    x = rng.random((9, 7))
    targets = rng.random((9, 5))
    gradients, _ = fitting.gradients(parameters, activation, x, targets)
    for parameter, gradient in zip(parameters, gradients):
        for index in list(np.ndindex(parameter.shape))[:6]:
            keep = parameter[index]
            parameter[index] = keep + 1e-6
            up = fitting.gradients(parameters, activation, x, targets)[1]
            parameter[index] = keep - 1e-6
            down = fitting.gradients(parameters, activation, x, targets)[1]
            parameter[index] = keep
            assert gradient[index] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-7)


def test_the_saved_network_scores_as_trained(tmp_path: os.PathLike[str]) -> None:
    out = os.path.join(tmp_path, "net.npz")
    run = train(tiny("backgammon", games=20, encoding="raw198+features"), out, progress=False)
    loaded = NetEvaluator.load(out, rules="backgammon")
    positions = play_games("backgammon", 2, "random", seed=3).after
    from bansugoroku_fast.evaluators.encoding import encode

    inputs = encode(positions, "raw198+features", "backgammon")
    # The kernels' forward pass sums in its own order: float32 rounding apart, the same numbers.
    trained = fitting.predict(run.parameters, run.config.activation, inputs)
    np.testing.assert_allclose(trained, loaded(positions), atol=1e-5)
    np.testing.assert_array_equal(trained, loaded.forward(inputs))


# --- training runs ---------------------------------------------------------------------------


def test_training_is_deterministic_from_the_seed(tmp_path: os.PathLike[str]) -> None:
    first = parameters(train(tiny(), os.path.join(tmp_path, "a.npz"), progress=False))
    again = parameters(train(tiny(), os.path.join(tmp_path, "b.npz"), progress=False))
    other = parameters(train(tiny(seed=2), os.path.join(tmp_path, "c.npz"), progress=False))
    assert same(first, again)
    assert not same(first, other)


def test_a_resumed_run_continues_exactly(tmp_path: os.PathLike[str]) -> None:
    config = tiny(games=30, eval_every=10, eval_games=6, segment_games=10)
    whole = train(config, os.path.join(tmp_path, "whole.npz"), progress=False)
    half = os.path.join(tmp_path, "half.npz")
    train(dataclasses.replace(config, games=10), half, progress=False)
    resumed = train(config, half, resume=True, progress=False)
    assert resumed.games == whole.games == 30
    assert same(parameters(resumed), parameters(whole))
    assert same(resumed.adam.first, whole.adam.first)
    assert [point["heuristic"] for point in resumed.curve] == [point["heuristic"] for point in whole.curve]
    assert len(whole.curve) == 4  # before training, then every 10 games


@pytest.mark.slow     # a few hundred games and two duplicate matches: .ci/full
def test_a_few_hundred_games_of_self_play_improve_the_network(tmp_path: os.PathLike[str]) -> None:
    # The untrained network scores every unfinished play alike (zero output
    # weights), so it plays the first legal play unless one wins at once, and
    # the heuristic beats that in most games; 400 games of self-play lift it
    # to about even. The gap is many standard errors wide.
    rules = Rules(closure="off")
    config = tiny("ban/arrival/off", games=400, seed=5, hidden=(16,), parallel=64, segment_games=400,
                  encoding="raw198+features", rate=0.003, update_size=512)
    untrained = TrainingRun.start(config).parameters
    before = duplicate_match(rules, EvaluatorPolicy(fitting.evaluator(untrained, rules, config.encoding,
                                                                      config.activation)),
                             "heuristic", 200, seed=9, progress=False)
    trained = train(config, os.path.join(tmp_path, "net.npz"), progress=False).parameters
    after = duplicate_match(rules, EvaluatorPolicy(fitting.evaluator(trained, rules, config.encoding,
                                                                     config.activation)),
                            "heuristic", 200, seed=9, progress=False)
    assert before.ppg < -0.5
    assert after.ppg - before.ppg > 8 * math.hypot(before.stderr, after.stderr)


def test_the_learning_curve_is_plotted(tmp_path: os.PathLike[str]) -> None:
    pytest.importorskip("matplotlib")
    plot = os.path.join(tmp_path, "curve.png")
    run = train(tiny(eval_every=20, eval_games=10), os.path.join(tmp_path, "net.npz"), plot=plot, progress=False)
    assert [point["games"] for point in run.curve] == [0, 20, 40]
    with open(plot, "rb") as file:
        assert file.read(8) == b"\x89PNG\r\n\x1a\n"


# --- bad arguments -----------------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "words"), [
    ({"games": 30}, "multiple of segment_games"),
    ({"games": 0}, "multiple of segment_games"),
    ({"hidden": (8, 8, 8)}, "one or two layer sizes"),
    ({"hidden": (0,)}, "one or two layer sizes"),
    ({"activation": "tanh"}, "activation"),
    ({"encoding": "raw"}, "encoding"),
    ({"lam": 1.5}, "lam"),
    ({"rate": 0.0}, "rate"),
    ({"seed": -1}, "seed"),
    ({"parallel": 0}, "parallel must be positive"),
    ({"eval_every": 30}, "eval_every"),
    ({"games": 2.5}, "games must be an integer"),
])
def test_bad_configurations_are_refused(changes: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidTrainingError, match=words):
        tiny(**changes)  # type: ignore[arg-type]


def test_bad_command_lines_give_an_error_and_status_2(tmp_path: os.PathLike[str],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = os.path.join(tmp_path, "net.npz")
    assert main(["--rules", "chess", "--games", "20", "--seed", "1", "--out", out, "--quiet"]) == 2
    assert "cannot read rules" in capsys.readouterr().err
    assert main(["--rules", "ban", "--games", "20", "--seed", "1", "--out", out, "--quiet"]) == 2
    assert "multiple of segment_games (1000)" in capsys.readouterr().err
    small = ["--rules", "ban", "--games", "20", "--segment-games", "20", "--seed", "1", "--quiet"]
    assert main([*small, "--out", out, "--resume"]) == 2
    assert "no checkpoint" in capsys.readouterr().err
    assert main([*small, "--out", os.path.join(tmp_path, "nowhere", "net.npz")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not os.path.exists(out) and not os.path.exists(checkpoint_path(out))


def test_a_resumed_run_may_change_its_step_size(tmp_path: os.PathLike[str]) -> None:
    runs = []
    for rate in (1e-3, 1e-4):
        out = os.path.join(tmp_path, f"net-{rate}.npz")
        train(tiny(games=20), out, progress=False)
        runs.append(train(tiny(games=40, rate=rate), out, resume=True, progress=False))
    assert runs[1].config.rate == runs[1].adam.rate == 1e-4
    assert not same(parameters(runs[0]), parameters(runs[1]))


def test_resuming_with_another_configuration_is_refused(tmp_path: os.PathLike[str]) -> None:
    out = os.path.join(tmp_path, "net.npz")
    train(tiny(games=20), out, progress=False)
    with pytest.raises(InvalidTrainingError, match="only games, rate, rate_halving may change"):
        train(tiny(games=40, hidden=(9,)), out, resume=True, progress=False)


# --- duplicate matches ---------------------------------------------------------------------------


def test_duplicate_matches_are_antisymmetric() -> None:
    # The same dice with seats swapped: B's pairs are A's, negated.
    a = duplicate_match("backgammon", "heuristic", "pubeval", 60, seed=2, progress=False)
    b = duplicate_match("backgammon", "pubeval", "heuristic", 60, seed=2, progress=False)
    np.testing.assert_array_equal(a.pair_points, -b.pair_points)
    assert a.games == 120


def test_a_move_picker_plays_the_same_games_as_its_policy() -> None:
    rules = Rules(variant="backgammon")
    net = NetEvaluator.random(rules, hidden=(6,), seed=3)

    def scores(children: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        return np.asarray(evaluate(children, rules, net)[:, 0], dtype=np.float64)

    class Picker:
        def pick(self, wave: object) -> np.ndarray:
            from bansugoroku_fast.batch import segment_argmax

            return segment_argmax(scores(wave.children, wave.offsets), wave.offsets)  # type: ignore[attr-defined]

    by_policy = duplicate_match(rules, scores, "pubeval", 30, seed=5, progress=False)
    by_picker = duplicate_match(rules, Picker(), "pubeval", 30, seed=5, progress=False)
    np.testing.assert_array_equal(by_policy.pair_points, by_picker.pair_points)


def test_points_of_seat_follow_the_winner() -> None:
    records = play_games("backgammon", 20, "random", seed=1)
    assert (points_of_seat(records.winner, records.value, 0) == -points_of_seat(records.winner, records.value, 1)).all()


# --- the shipped networks ----------------------------------------------------------------------------


@pytest.mark.parametrize("rules", Rules.all_combinations(), ids=lambda rules: rules.short_name)
def test_a_network_ships_for_every_rule_set_and_plays(rules: Rules) -> None:
    from bansugoroku_fast.evaluators import EvaluatorPolicy
    from bansugoroku_fast.evaluators.nets import network_file

    assert os.path.getsize(network_file(rules)) <= 2 * 1024 * 1024
    net = NetEvaluator.shipped(rules)
    assert net.rules.short_name == rules.short_name
    records = play_games(rules, 4, EvaluatorPolicy(net), seed=1)
    assert (records.winner >= 0).all()


@pytest.mark.parametrize("rules", ["backgammon", "ban-sugoroku"])
def test_the_names_net_and_net1_play_the_shipped_networks(rules):
    """``"net"`` plays the shipped network at 0 ply, ``"net1"`` at 1 ply: the
    same games as the EvaluatorPolicy of the shipped file."""
    from bansugoroku_fast import play_games
    from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator

    by_name = play_games(rules, 3, policy="net", seed=4)
    by_hand = play_games(rules, 3, policy=EvaluatorPolicy(NetEvaluator.shipped(rules)), seed=4)
    assert np.array_equal(by_name.after, by_hand.after) and np.array_equal(by_name.winner, by_hand.winner)
    one_ply = play_games(rules, 1, policy=("net1", "net"), seed=4, max_plies=6, on_long="truncate")
    by_hand = play_games(rules, 1, policy=(EvaluatorPolicy(NetEvaluator.shipped(rules), ply=1), "net"), seed=4,
                         max_plies=6, on_long="truncate")
    assert np.array_equal(one_ply.after, by_hand.after)


# --- one network for every Ban-sugoroku combination ---------------------------------------------


def test_a_shared_run_writes_six_networks_that_play_as_the_shared_one(tmp_path: os.PathLike[str]) -> None:
    """Each file is the shared network with its rule inputs set: the same
    scores on that combination's positions, read back from disk."""
    folder = str(tmp_path)
    run = train_every_ban(tiny(games=20, rate=1e-4), folder, progress=False)
    assert run.games == 20 * len(BAN_COMBINATIONS)
    scores_by_rules = []
    for rules in BAN_COMBINATIONS:
        positions = play_games(rules, 2, seed=5).after[:50]
        loaded = NetEvaluator.load(os.path.join(folder, rules.short_name.replace("/", "-") + ".npz"))
        assert loaded.rules == rules
        inputs = encode_valid(positions, run.config.encoding, rules)
        shared = fitting.predict(run.parameters, run.config.activation, with_rule_inputs(inputs, rules))
        np.testing.assert_allclose(loaded.forward(inputs), shared, atol=1e-5)
        scores_by_rules.append(loaded.forward(encode_valid(positions[:1], run.config.encoding, rules)))
    # The rule inputs reach the network: one position, six different scores.
    assert len({tuple(np.round(s[0], 6)) for s in scores_by_rules}) == len(BAN_COMBINATIONS)


@pytest.mark.slow
def test_a_shared_run_depends_on_its_seed_alone(tmp_path: os.PathLike[str]) -> None:
    runs = [train_every_ban(tiny(games=20, seed=seed, rate=1e-4), str(tmp_path), progress=False)
            for seed in (4, 4, 5)]
    assert same(parameters(runs[0]), parameters(runs[1]))
    assert not same(parameters(runs[0]), parameters(runs[2]))


def test_the_rule_inputs_fold_into_the_biases() -> None:
    shared = fitting.initial_parameters(6 + 3, (4, 3), np.random.default_rng(2))
    shared[2][:] = np.random.default_rng(3).normal(size=shared[2].shape)    # the output weights
    x = np.random.default_rng(4).random((5, 6), dtype=np.float32)
    for rules in BAN_COMBINATIONS:
        with_inputs = fitting.predict(shared, "relu", with_rule_inputs(x, rules))
        plain = fitting.predict(specialised(shared, rules), "relu", x)
        np.testing.assert_allclose(plain, with_inputs, atol=1e-6)
    assert rule_inputs(Rules()).tolist() == [0.0, 0.0, 0.0]
    assert rule_inputs(Rules(finish="bear_off", closure="immediate")).tolist() == [1.0, 1.0, 0.0]


def test_a_shared_run_refuses_a_file_for_out_and_a_missing_checkpoint(tmp_path: os.PathLike[str],
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    small = ["--rules", "ban/*", "--games", "20", "--segment-games", "20", "--seed", "1", "--rate", "0.0001", "--quiet"]
    assert main([*small, "--out", os.path.join(tmp_path, "net.npz")]) == 2
    assert "is not a folder" in capsys.readouterr().err
    assert main([*small, "--out", str(tmp_path), "--resume"]) == 2
    assert "no checkpoint" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []
    assert main([*small, "--out", str(tmp_path)]) == 0
    assert len(os.listdir(tmp_path)) == len(BAN_COMBINATIONS) + 1    # the networks and the checkpoint


def test_a_resumed_shared_run_continues_exactly(tmp_path: os.PathLike[str]) -> None:
    """Stopped after one segment of each combination, then taken on: the
    same six files, byte for byte, and the same state (but the seconds
    spent) as one run."""
    whole, half = (os.path.join(tmp_path, name) for name in ("whole", "half"))
    os.mkdir(whole)
    os.mkdir(half)
    # A small step keeps the games short: near-zero output weights play the first legal play.
    config = tiny(games=10, segment_games=5, rate=1e-4)
    train_every_ban(config, whole, progress=False)
    stopped = train_every_ban(dataclasses.replace(config, games=5), half, progress=False)
    assert stopped.games == 5 * len(BAN_COMBINATIONS)
    resumed = train_every_ban(config, half, resume=True, progress=False)
    assert resumed.games == 10 * len(BAN_COMBINATIONS)
    networks = sorted(name for name in os.listdir(whole) if not name.endswith(".ckpt.npz"))
    assert len(networks) == len(BAN_COMBINATIONS)
    for name in networks:
        with open(os.path.join(whole, name), "rb") as a, open(os.path.join(half, name), "rb") as b:
            assert a.read() == b.read(), name
    with np.load(checkpoint_path(os.path.join(whole, ""))) as a, np.load(checkpoint_path(os.path.join(half, ""))) as b:
        assert sorted(a.files) == sorted(b.files)
        for key in set(a.files) - {"seconds"}:
            np.testing.assert_array_equal(a[key], b[key], err_msg=key)


def test_a_checkpoint_of_the_other_kind_of_run_is_refused(tmp_path: os.PathLike[str]) -> None:
    """A single rule set's checkpoint renamed into a shared run's folder (and
    the other way round) names the file, before any game is played."""
    single = os.path.join(tmp_path, "single.npz")
    train(tiny(games=10, segment_games=10), single, progress=False)
    folder = os.path.join(tmp_path, "shared")
    os.mkdir(folder)
    os.replace(checkpoint_path(single), checkpoint_path(os.path.join(folder, "")))
    with pytest.raises(InvalidTrainingError, match=r"ban-shared\.ckpt\.npz: the checkpoint of a single rule set's"):
        train_every_ban(tiny(games=20, segment_games=10), folder, resume=True, progress=False)
    train_every_ban(tiny(games=10, segment_games=10), folder, progress=False)
    os.replace(checkpoint_path(os.path.join(folder, "")), checkpoint_path(single))
    with pytest.raises(InvalidTrainingError, match=r"single.npz.ckpt.npz: the checkpoint of a ban/\* run"):
        train(tiny(games=20, segment_games=10), single, resume=True, progress=False)


def test_a_shared_run_starts_from_the_six_networks_of_another(tmp_path: os.PathLike[str]) -> None:
    """The files of one run, unfolded, are its shared network again; a run
    started from them plays on from there."""
    first = os.path.join(tmp_path, "first")
    os.mkdir(first)
    run = train_every_ban(tiny(games=10, segment_games=10, rate=1e-4), first, progress=False)
    started = TrainingRun.start(tiny(games=10, segment_games=10, start=first), shared=True)
    for mine, theirs in zip(started.parameters, run.parameters):
        np.testing.assert_allclose(mine, theirs, atol=1e-6)
    assert not same(started.parameters, TrainingRun.start(tiny(), shared=True).parameters)
    second = os.path.join(tmp_path, "second")
    os.mkdir(second)
    trained_on = train_every_ban(tiny(games=10, segment_games=10, rate=1e-4, start=first), second, progress=False)
    assert trained_on.games == 10 * len(BAN_COMBINATIONS)
    assert not same(trained_on.parameters, started.parameters)


def test_a_start_that_is_not_one_shared_network_is_refused(tmp_path: os.PathLike[str]) -> None:
    folder = os.path.join(tmp_path, "mixed")
    os.mkdir(folder)
    train_every_ban(tiny(games=10, segment_games=10), folder, progress=False)
    other = os.path.join(tmp_path, "other")
    os.mkdir(other)
    train_every_ban(tiny(games=10, segment_games=10, seed=2), other, progress=False)
    name = os.path.basename(network_file(BAN_COMBINATIONS[4]))
    os.replace(os.path.join(other, name), os.path.join(folder, name))
    with pytest.raises(InvalidTrainingError, match="not the specialised networks of one shared network"):
        TrainingRun.start(tiny(start=folder), shared=True)
    with pytest.raises(InvalidTrainingError, match=r"start: .*ban-arrival-off.npz is a .* not the configuration's"):
        TrainingRun.start(tiny(start=os.path.join(folder, "ban-arrival-off.npz"), hidden=(9,)))
    with pytest.raises(InvalidTrainingError, match="start: "):
        TrainingRun.start(tiny(start=os.path.join(tmp_path, "missing.npz")))
