"""The worked examples (examples/), run on a tiny budget."""
from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

from . import source_tree

pytest.importorskip("gymnasium")
source_tree.require("examples")

EXAMPLES = source_tree.ROOT / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("rules", ["backgammon", "ban-sugoroku"])
def test_td_linear_trains_evaluates_and_draws_its_curve(tmp_path, capsys, rules):
    pytest.importorskip("matplotlib")
    td_linear = load("td_linear")
    path = tmp_path / "curve.png"
    assert td_linear.main(["--rules", rules, "--games", "60", "--envs", "16", "--evaluate-every", "30",
                           "--evaluation-games", "20", "--plot", str(path)]) == 0
    printed = capsys.readouterr().out
    # Three evaluations (0, about 30 and about 60 training games), then the weights and the plot.
    assert printed.count("against heuristic") == 3 and f"saved to {path}" in printed
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_td_updates_move_the_value_towards_the_target():
    td_linear = load("td_linear")
    learner = td_linear.SelfPlayTD(td_linear.as_rules("backgammon"), envs=4, lam=0.0, alpha=1.0, seed=0)
    offsets, children = learner.env.candidates()
    first = learner.scaled_features(children[offsets[:-1]])
    learner.traces = first.copy()
    # A normalised step of alpha = 1 with one game's error moves that game's
    # value by the error divided by the number of games (here 4).
    learner.learn(np.array([1.0, 0.0, 0.0, 0.0]))
    assert first[0] @ learner.weights == pytest.approx(0.25)
    learned = learner.policy().weights
    assert len(learned) == 28 and np.isfinite(learned).all()


def test_td_linear_legend_covers_no_point_of_the_curve():
    pytest.importorskip("matplotlib")
    td_linear = load("td_linear")
    curve = td_linear.Curve()
    # A curve that ends in every corner a legend inside the axes could take.
    curve.games = [0, 1000, 2000, 3000, 4000, 5000, 6000]
    curve.against_random = [0.02, 0.6, 0.89, 0.94, 0.97, 0.995, 0.998]
    curve.against_heuristic = [0.98, 0.06, 0.11, 0.27, 0.39, 0.49, 0.01]
    figure = td_linear.draw(curve, 0.996, "test")
    figure.canvas.draw()
    (axes,) = figure.axes
    legend = axes.get_legend().get_window_extent()
    rates = curve.against_random + curve.against_heuristic
    points = axes.transData.transform(np.column_stack([curve.games * 2, rates]))
    assert not any(legend.contains(x, y) for x, y in points)
    assert legend.y1 < axes.get_window_extent().y0  # below the axes altogether


def test_td_linear_refuses_an_unwritable_plot_before_training(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    td_linear = load("td_linear")
    with pytest.raises(SystemExit) as stopped:  # a million games would take an hour: refused first
        td_linear.main(["--games", "1000000", "--plot", str(tmp_path / "no" / "curve.png")])
    assert stopped.value.code == 2 and "--plot: the directory" in capsys.readouterr().err
