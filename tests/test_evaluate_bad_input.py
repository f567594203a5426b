"""Bad input to the evaluators: network files and parameters, Python
evaluators' output, search arguments. Each is refused with a typed error
saying what and where, before any work; a failed save leaves nothing behind."""
from __future__ import annotations

import os

import numpy as np
import pytest

from bansugoroku_fast import Position
from bansugoroku_fast.errors import (
    ArgumentTypeError,
    EvaluatorOutputError,
    EvaluatorOutputTypeError,
    InvalidArgumentError,
    InvalidEvaluatorError,
    InvalidPositionError,
    NetworkFileError,
)
from bansugoroku_fast.evaluators import (
    EvaluatorPolicy,
    MoveFilter,
    NetEvaluator,
    best_plays,
    evaluate,
    network,
    scoring,
)
from tests.boards import BACKGAMMON

START = Position.initial().array[None]


@pytest.fixture
def net():
    return NetEvaluator.random("backgammon", hidden=(6, 4), seed=1)


def saved(tmp_path, arrays, name="net.npz"):
    path = tmp_path / name
    with open(path, "wb") as file:
        np.savez(file, **arrays)
    return path


def test_round_trip_keeps_every_array(tmp_path, net):
    path = tmp_path / "file-without-suffix"
    net.save(path)
    assert os.listdir(tmp_path) == ["file-without-suffix"]
    loaded = NetEvaluator.load(path, rules="backgammon")
    assert loaded == net and loaded.rules == BACKGAMMON
    np.testing.assert_array_equal(loaded(START), net(START))


@pytest.mark.parametrize("key, value, words", [
    ("version", np.array(2), "reads version 1"),
    ("version", np.array("1"), "reads version 1"),
    ("encoding", np.array("raw200"), "unknown encoding 'raw200'"),
    ("encoding", np.array(3), "must be a str"),
    ("rules", np.array("chess"), "cannot read the rules"),
    ("activation", np.array("tanh"), "unknown activation 'tanh'"),
    ("weights_0", np.zeros((197, 6), dtype=np.float32), "shape (197, 6), expected (198, units)"),
    ("weights_1", np.zeros((5, 4), dtype=np.float32), "the layer before has 6 outputs"),
    ("weights_2", np.zeros((4, 4), dtype=np.float32), "the last layer has 5 outputs"),
    ("biases_1", np.zeros(3, dtype=np.float32), "expected (4,)"),
    ("weights_1", np.full((6, 4), np.nan, dtype=np.float32), "value at (0, 0) is NaN"),
    ("biases_2", np.array([0, 0, np.inf, 0, 0]), "value at (2,) is infinite"),
    ("weights_0", np.full((198, 6), 1e39), "infinite (in float32)"),
    ("biases_0", np.array(["a"] * 6), "must hold real numbers"),
])
def test_a_bad_key_is_named(tmp_path, net, key, value, words):
    arrays = net.arrays()
    arrays[key] = value
    path = saved(tmp_path, arrays)
    with pytest.raises(NetworkFileError) as caught:
        NetEvaluator.load(path)
    assert caught.value.key == key and caught.value.path == str(path)
    assert words in str(caught.value) and f"key {key!r}" in str(caught.value)


@pytest.mark.parametrize("change, key", [
    (lambda a: a.pop("rules"), "rules"),
    (lambda a: a.pop("biases_2"), "biases_2"),
    (lambda a: a.update(weight_3=np.zeros(2)), "weight_3"),
    (lambda a: a.update(weights_3=np.zeros((5, 5)), biases_3=np.zeros(5)), ""),    # three hidden layers
])
def test_missing_or_stray_keys_are_refused(tmp_path, net, change, key):
    arrays = net.arrays()
    change(arrays)
    with pytest.raises(NetworkFileError) as caught:
        NetEvaluator.load(saved(tmp_path, arrays))
    assert caught.value.key == key


def test_header_text_may_be_bytes(tmp_path, net):
    arrays = net.arrays()
    arrays["encoding"], arrays["rules"] = np.array(b"raw198"), np.array(b"backgammon")
    assert NetEvaluator.load(saved(tmp_path, arrays)) == net
    arrays["rules"] = np.array("backgammon\xff".encode("latin-1"))
    with pytest.raises(NetworkFileError, match="ASCII"):
        NetEvaluator.load(saved(tmp_path, arrays))


def test_files_that_are_not_networks(tmp_path, net):
    with pytest.raises(NetworkFileError, match="no such file"):
        NetEvaluator.load(tmp_path / "absent.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a zip")
    with pytest.raises(NetworkFileError, match="not a network file"):
        NetEvaluator.load(junk)
    arrays = net.arrays()
    arrays["weights_0"] = np.array([object()] * 3)     # would need a pickle to load
    with pytest.raises(NetworkFileError, match="not a network file"):
        NetEvaluator.load(saved(tmp_path, arrays))


def test_rules_other_than_the_networks_are_refused(tmp_path, net):
    net.save(tmp_path / "net.npz")
    with pytest.raises(InvalidEvaluatorError, match="plays backgammon, not ban/arrival/multiplied"):
        NetEvaluator.load(tmp_path / "net.npz", rules="ban")
    with pytest.raises(InvalidEvaluatorError, match="plays backgammon"):
        evaluate(START, "ban", net)
    with pytest.raises(InvalidEvaluatorError, match="plays backgammon"):
        EvaluatorPolicy(net, rules="ban")


def test_a_failed_save_leaves_nothing_behind(tmp_path, net, monkeypatch):
    path = tmp_path / "net.npz"
    path.write_bytes(b"the old file")

    def broken(file, **arrays):
        file.write(b"half a file")
        raise OSError("disk full")

    monkeypatch.setattr(network.np, "savez", broken)
    with pytest.raises(OSError, match="disk full"):
        net.save(path)
    assert os.listdir(tmp_path) == ["net.npz"] and path.read_bytes() == b"the old file"


def test_constructor_checks_as_loading_does():
    with pytest.raises(InvalidEvaluatorError, match="weights_0: shape"):
        NetEvaluator([np.zeros((10, 4)), np.zeros((4, 5))], [np.zeros(4), np.zeros(5)])
    with pytest.raises(InvalidEvaluatorError, match="2 weight matrices but 1 bias"):
        NetEvaluator([np.zeros((198, 4)), np.zeros((4, 5))], [np.zeros(4)])
    with pytest.raises(InvalidEvaluatorError, match="unknown activation"):
        NetEvaluator.random(activation="softplus")


# --- Python evaluators' output ---------------------------------------------------------------------


def returning(value):
    return lambda positions: value


@pytest.mark.parametrize("output, error, words", [
    (np.full((1, 4), 0.1), EvaluatorOutputError, "1 positions, got shape (1, 4)"),
    (np.full((2, 5), 0.1), EvaluatorOutputError, "got shape (2, 5)"),
    (np.array([[0.5, np.nan, 0, 0, 0]]), EvaluatorOutputError, "P(win 2+) = nan is not a finite number"),
    (np.array([[0.5, 0.1, 0, 1.5, 0]]), EvaluatorOutputError, "P(lose 2+) = 1.5 is outside [0, 1]"),
    (np.array([[-0.1, 0, 0, 0, 0]]), EvaluatorOutputError, "P(win) = -0.1 is outside"),
    (np.array([[0.5, 0.2, 0.3, 0, 0]]), EvaluatorOutputError, "P(win 3) = 0.3 exceeds P(win 2+) = 0.2"),
    (np.array([[0.8, 0.2, 0.1, 0.3, 0]]), EvaluatorOutputError, "P(lose 2+) = 0.3 exceeds P(lose) = 1 - P(win)"),
    (np.array([[0.5, 0.2, 0.1, 0.2, 0.3]]), EvaluatorOutputError, "P(lose 3) = 0.3 exceeds P(lose 2+) = 0.2"),
    (np.array([["a"] * 5]), EvaluatorOutputTypeError, "real numbers"),
    (None, EvaluatorOutputTypeError, "real numbers"),
    ([[0.5, 0.2], [0.1]], EvaluatorOutputError, "rectangular"),
])
def test_bad_evaluator_output_is_refused(output, error, words):
    with pytest.raises(error) as caught:
        evaluate(START, "backgammon", returning(output))
    assert words in str(caught.value)


def test_rounding_within_the_tolerance_is_accepted_and_made_exact():
    got = evaluate(START, "backgammon", returning(np.array([[0.5, 0.5 + 1e-7, 0.2, 0.1, 0.1]])))
    assert got[0, 1] <= got[0, 0]


def test_not_an_evaluator():
    with pytest.raises(InvalidEvaluatorError, match="unknown evaluator name 'gnubg': the names are 'net'"):
        evaluate(START, "backgammon", "gnubg")
    with pytest.raises(ArgumentTypeError, match="got int"):
        evaluate(START, "backgammon", 3)
    with pytest.raises(TypeError, match="needs rules="):
        EvaluatorPolicy(returning(None))


def test_positions_are_checked_before_the_evaluator_runs(net):
    calls = []
    bad = START.copy()
    bad[0, 0, 6] += 1
    with pytest.raises(InvalidPositionError):
        evaluate(bad, "backgammon", lambda p: calls.append(p))
    with pytest.raises(InvalidPositionError):
        net(bad)
    assert calls == []


@pytest.mark.parametrize("kwargs, words", [
    (dict(ply=3), "ply must be 0, 1 or 2"),
    (dict(ply=True), "ply must be 0, 1 or 2"),
    (dict(ply=1, move_filter="gnubg"), "move_filter must be a MoveFilter"),
    (dict(threads=0), "threads must be an integer"),
])
def test_bad_search_arguments(net, kwargs, words):
    with pytest.raises((ValueError, TypeError), match=words.replace("(", r"\(")):
        best_plays(Position.initial(), (6, 5), "backgammon", net, **kwargs)


def test_bad_move_filters():
    with pytest.raises(ValueError, match="keep"):
        MoveFilter(keep=0)
    with pytest.raises(ValueError, match="margin"):
        MoveFilter(margin=float("nan"))


# --- the helpers on outcome probabilities ---------------------------------------------------


@pytest.mark.parametrize("helper", [scoring.equity, scoring.flip])
@pytest.mark.parametrize("probabilities, error, words", [
    (np.zeros((2, 4)), InvalidArgumentError, r"shape \(N, 5\), five per position, got \(2, 4\)"),
    (np.zeros(5), InvalidArgumentError, r"got \(5,\)"),
    ([[0.5, 0, 0, 0, 0], [0.5]], InvalidArgumentError, "must be an array of shape"),
    ([["a"] * 5], ArgumentTypeError, "must be real numbers"),
])
def test_probabilities_of_a_wrong_shape_are_refused(helper, probabilities, error, words):
    with pytest.raises(error, match=words):
        helper(probabilities)


def test_consistent_changes_only_a_float_array_in_place():
    with pytest.raises(ArgumentTypeError, match="takes a float numpy array, got list"):
        network.consistent([[0.5, 0, 0, 0, 0]])
    with pytest.raises(ArgumentTypeError, match="got ndarray int64"):
        network.consistent(np.zeros((1, 5), dtype=np.int64))
    with pytest.raises(InvalidArgumentError, match="shape"):
        network.consistent(np.zeros((1, 4)))


@pytest.mark.parametrize("winner, value, words", [
    ([0, 2], [1, 1], "game 1: .* got winner 2 and value 1"),
    ([0, 1], [1, 4], "game 1: .* got winner 1 and value 4"),
    ([1], [0], "game 0: .* got winner 1 and value 0"),
    ([0, 1], [1], r"same length N, got shapes \(2,\) and \(1,\)"),
])
def test_outcome_probabilities_are_of_finished_games(winner, value, words):
    # A winner of 2 read as row 1's loss, or a value of 4 as a triple: wrong answers, now refused.
    with pytest.raises(InvalidArgumentError, match=words):
        scoring.outcome_probabilities(np.array(winner), np.array(value))
