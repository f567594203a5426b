"""Training on rollouts (bansugoroku_fast.train.rollouts): rounds that learn,
resume to the same bytes, targets identical wherever they run, and run
folders that are refused by name when they are not this run's."""
from __future__ import annotations

import dataclasses
import json
import os

import numpy as np
import pytest

from bansugoroku_fast import Rules
from bansugoroku_fast.errors import InvalidTrainingError
from bansugoroku_fast.evaluators import EvaluatorPolicy, NetEvaluator
from bansugoroku_fast.strength import duplicate_match
from bansugoroku_fast.train import RoundsConfig, chunk_targets, fitting, main, train_on_rollouts
from bansugoroku_fast.train.rollouts import INIT_STREAM, _seed

RULES = Rules(finish="arrival", closure="off")
TINY = dict(rules=RULES, seed=3, hidden=(16,), games=40, positions=200, chunk=50, rollout_games=8, truncate=0,
            epochs=10, rate=3e-3, eval_games=20)


def tiny(rounds: int = 2, **changes: object) -> RoundsConfig:
    return RoundsConfig(rounds=rounds, **{**TINY, **changes})  # type: ignore[arg-type]


def files(folder: str) -> dict[str, bytes]:
    """Every file a run keeps for good (not the wall times of score.json and curve.json, nor the plot)."""
    kept = {}
    for root, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".npz") or name == "run.json":
                with open(os.path.join(root, name), "rb") as file:
                    kept[os.path.relpath(os.path.join(root, name), folder)] = file.read()
    return kept


@pytest.mark.slow     # rounds of rollouts and a match: .ci/full
def test_a_few_rounds_on_a_tiny_network_beat_random_play(tmp_path: os.PathLike[str]) -> None:
    # The untrained network (zero output weights) plays the first legal play;
    # two rounds of 200 positions rolled out 8 times each teach it to beat
    # random play, and the network it started as, by many standard errors.
    config = tiny()
    untrained = fitting.initial_parameters(226, config.hidden, np.random.default_rng(_seed(config.seed, INIT_STREAM)))
    start = EvaluatorPolicy(fitting.evaluator(untrained, RULES, config.encoding, "relu"))
    run = train_on_rollouts(config, str(tmp_path), progress=False)
    trained = EvaluatorPolicy(run.network())
    against_random = duplicate_match(RULES, trained, "random", 100, seed=9, progress=False)
    against_start = duplicate_match(RULES, trained, start, 100, seed=9, progress=False)
    assert against_random.ppg > 0.6 and against_random.ppg > 10 * against_random.stderr
    assert against_start.ppg > 5 * against_start.stderr
    assert [point["round"] for point in run.curve] == [0, 1]
    assert NetEvaluator.load(os.path.join(tmp_path, "net.npz"), rules=RULES) == run.network().with_endgames(False)
    with open(os.path.join(tmp_path, "curve.png"), "rb") as file:
        assert file.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_a_stopped_run_resumes_to_the_same_bytes(tmp_path: os.PathLike[str]) -> None:
    config = tiny(positions=80, chunk=20, epochs=2, rollout_games=4)
    whole, parts = os.path.join(tmp_path, "whole"), os.path.join(tmp_path, "parts")
    train_on_rollouts(config, whole, progress=False)
    # one round, then a second stopped after two of its four target chunks, then resumed with more rounds
    train_on_rollouts(dataclasses.replace(config, rounds=1), parts, progress=False)
    train_on_rollouts(config, parts, progress=False)
    second = os.path.join(parts, "round-0001")
    for name in ("targets-00002.npz", "targets-00003.npz", "fit.npz", "net.npz", "score.json"):
        os.remove(os.path.join(second, name))
    train_on_rollouts(config, parts, progress=False)
    assert files(parts) == files(whole)
    assert len(files(whole)) == 1 + 1 + 2 * (1 + 4 + 2)   # run.json, net.npz; each round's files


def test_targets_are_the_same_bits_on_processes_and_on_dask(tmp_path: os.PathLike[str]) -> None:
    distributed = pytest.importorskip("distributed")
    config = tiny(rounds=1, positions=60, chunk=20, epochs=1, rollout_games=4, truncate=5)
    local = os.path.join(tmp_path, "local")
    train_on_rollouts(config, local, progress=False)
    pool = os.path.join(tmp_path, "pool")
    train_on_rollouts(config, pool, workers=2, progress=False)
    with distributed.Client(processes=False, n_workers=2, threads_per_worker=1, dashboard_address=None) as client:
        on_dask = os.path.join(tmp_path, "dask")
        train_on_rollouts(config, on_dask, client=client, progress=False)
    assert files(pool) == files(local) == files(on_dask)


@pytest.mark.parametrize("target", ["ply1", "rollout"])
def test_chunk_targets_are_probabilities_for_the_side_that_moved(target: str) -> None:
    # A position the side that has just moved has as good as won (its last
    # stone one pip from home, the other side's fifteen far away): the
    # targets say it wins, whatever the network.
    board = np.zeros((1, 2, 26), dtype=np.int8)
    board[0, 0, 1], board[0, 0, 7] = 14, 1
    board[0, 1, 12] = 15
    net = NetEvaluator.random(RULES, hidden=(4,), seed=1)
    targets = chunk_targets(board, net.arrays(), target, 8, 0, seed=2)
    assert targets.shape == (1, 5) and targets.dtype == np.float32
    assert targets[0, 0] > 0.99


def test_a_folder_of_another_run_is_refused_by_name(tmp_path: os.PathLike[str]) -> None:
    folder = str(tmp_path)
    config = tiny(rounds=1, positions=40, chunk=20, epochs=1, rollout_games=2)
    train_on_rollouts(config, folder, progress=False)
    path = os.path.join(folder, "run.json")
    with pytest.raises(InvalidTrainingError, match=r"run\.json: the run plays ban/arrival/off, not backgammon"):
        train_on_rollouts(dataclasses.replace(config, rules=Rules(variant="backgammon")), folder, progress=False)
    with pytest.raises(InvalidTrainingError, match=r"run\.json: the run was made with another configuration"):
        train_on_rollouts(dataclasses.replace(config, hidden=(9,)), folder, progress=False)
    with open(path) as file:
        saved = json.load(file)
    with open(path, "w") as file:
        json.dump({**saved, "version": 99}, file)
    with pytest.raises(InvalidTrainingError, match=r"run\.json: a run folder of version 99"):
        train_on_rollouts(config, folder, progress=False)
    with open(path, "w") as file:
        file.write("{not json")
    with pytest.raises(InvalidTrainingError, match=r"run\.json: a damaged file"):
        train_on_rollouts(config, folder, progress=False)


def test_a_damaged_stage_file_is_named(tmp_path: os.PathLike[str]) -> None:
    folder = str(tmp_path)
    config = tiny(rounds=1, positions=40, chunk=20, epochs=1, rollout_games=2)
    train_on_rollouts(config, folder, progress=False)
    more = dataclasses.replace(config, rounds=2)
    target = os.path.join(folder, "round-0000", "fit.npz")
    with open(target, "wb") as file:
        file.write(b"PK\x03\x04 half a file")
    with pytest.raises(InvalidTrainingError, match=r"round-0000/fit\.npz: a damaged file"):
        train_on_rollouts(more, folder, progress=False)
    assert not os.path.exists(os.path.join(folder, "round-0001"))


def test_a_race_run_trains_the_race_network_of_its_contact_network(tmp_path: os.PathLike[str]) -> None:
    # backgammon (races off the tables are common): the contact network keeps its layers, every
    # position a round rolls out is a race, and the race network learns from them
    from bansugoroku_fast.endgames.races import contact

    backgammon = Rules(variant="backgammon")
    contact_file = os.path.join(tmp_path, "contact.npz")
    NetEvaluator.shipped(backgammon).with_endgames(False).save(contact_file)
    config = tiny(rounds=1, rules=backgammon, hidden=(8,), games=30, positions=60, chunk=30, rollout_games=4,
                  epochs=2, eval_games=5, kind="race", contact=contact_file)
    folder = os.path.join(tmp_path, "race")
    run = train_on_rollouts(config, folder, progress=False)
    saved = NetEvaluator.load(os.path.join(folder, "net.npz"), rules=backgammon)
    assert saved.with_race(None) == NetEvaluator.load(contact_file).with_race(None)
    assert saved.race is not None and saved.race.layer_sizes == (226, 8, 5)
    assert saved == run.network().with_endgames(False)
    positions = np.load(os.path.join(folder, "round-0000", "positions.npz"))["positions"]
    assert len(positions) == 60 and not contact(positions).any()
    untrained = fitting.initial_parameters(226, (8,), np.random.default_rng(_seed(config.seed, INIT_STREAM)))
    assert not np.array_equal(saved.race.weights[0], untrained[0])


def test_a_race_run_needs_a_contact_network_of_its_encoding(tmp_path: os.PathLike[str]) -> None:
    with pytest.raises(InvalidTrainingError, match="contact names the network"):
        tiny(kind="race")
    with pytest.raises(InvalidTrainingError, match="contact names the network"):
        tiny(contact="net.npz")
    raw = os.path.join(tmp_path, "raw.npz")
    NetEvaluator.random(RULES, hidden=(4,), seed=1).save(raw)
    with pytest.raises(InvalidTrainingError, match="reads 'raw198'"):
        train_on_rollouts(tiny(kind="race", contact=raw), os.path.join(tmp_path, "run"), progress=False)
    with pytest.raises(InvalidTrainingError, match=r"contact: .*no such file"):
        train_on_rollouts(tiny(kind="race", contact=os.path.join(tmp_path, "missing.npz")),
                          os.path.join(tmp_path, "run2"), progress=False)


@pytest.mark.parametrize(("changes", "words"), [
    ({"target": "td"}, "target must be one of"),
    ({"positions": 0}, "positions must be positive"),
    ({"disagreement": 1.5}, "disagreement"),
    ({"hidden": (8, 8, 8)}, "one or two layer sizes"),
    ({"rate": 2.0}, "rate"),
    ({"truncate": -1}, "truncate must be a non-negative integer"),
])
def test_bad_configurations_are_refused(changes: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidTrainingError, match=words):
        tiny(**changes)


def test_the_command_line_runs_and_resumes(tmp_path: os.PathLike[str], capsys: pytest.CaptureFixture[str]) -> None:
    folder = os.path.join(tmp_path, "run")
    small = ["rollouts", "--rules", "ban/arrival/off", "--seed", "1", "--folder", folder, "--hidden", "8",
             "--games", "10", "--positions", "20", "--chunk", "20", "--rollout-games", "2", "--truncate", "0",
             "--epochs", "1", "--eval-games", "5", "--workers", "1", "--quiet"]
    assert main([*small, "--rounds", "1"]) == 0
    assert "1 rounds" in capsys.readouterr().out
    assert main([*small, "--rounds", "2"]) == 0
    assert sorted(name for name in os.listdir(folder) if name.startswith("round")) == ["round-0000", "round-0001"]
    assert main([*small, "--rounds", "2", "--hidden", "9"]) == 2
    assert "another configuration" in capsys.readouterr().err
    assert main(["rollouts", "--rules", "ban", "--seed", "1", "--folder", os.path.join(tmp_path, "no", "where"),
                 "--rounds", "1", "--quiet"]) == 2
    assert "does not exist" in capsys.readouterr().err
