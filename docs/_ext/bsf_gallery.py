"""The gallery's pictures, drawn by the library each time the site is built.

On ``builder-inited`` every picture of :data:`PICTURES` is made afresh into
``docs/gallery/_generated/`` (left out of version control), from the
library's own output on the machine that builds the site: boards as the
package renders them (SVG), a rollout's outcomes as ``bansugoroku rollout
--plot`` draws them, a short training run's learning curve as
``python -m bansugoroku_fast.train --plot`` draws it, thread scaling and the
cost of the batch calls timed there and then, and the headline speed table
of the front page and the peers' table of ``benchmarks/README.md``. The whole gallery takes about half a minute.
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
import time
from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.dirname(HERE)
OUT = os.path.join(DOCS, "gallery", "_generated")
README = os.path.join(os.path.dirname(DOCS), "README.md")
BENCHMARKS = os.path.join(os.path.dirname(DOCS), "benchmarks", "README.md")


def board_drawings() -> dict[str, str]:
    """The start (both games), the start after 6-5 played 24/18/13 (seen by
    the side that played it), and a Ban-sugoroku position from the middle of
    a game of heuristic play: each numbered on both rows, with the key that
    says which stones are X and which O."""
    from bansugoroku_fast import Position, Rules, legal_plays, play_games, render

    backgammon = Rules(variant="backgammon")
    start = Position.initial()
    plays = legal_plays(start, (6, 5), backgammon)
    running = next(play.position for play in plays if play.steps == ((24, 18), (18, 13)))
    game = play_games(Rules(), 1, policy="heuristic", seed=7)
    middle = game.positions[len(game.positions) // 2]
    return {
        "board-start.svg": render.svg(start.rows, numbers="both", key=True),
        "board-after-65.svg": render.svg(running.rows, numbers="both", key=True, to_move=False),
        "board-ban-sugoroku-middle.svg": render.svg(middle.tolist(), numbers="both", key=True),
    }


def boards() -> None:
    for name, drawing in board_drawings().items():
        _write_text(name, drawing)


def rollout() -> None:
    """A rollout of the backgammon start, 1,296 games of heuristic against itself."""
    from bansugoroku_fast.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["rollout", "--rules", "backgammon", "--games", "1296", "--policy", "heuristic",
                       "--stratify", "1296", "--seed", "1", "--no-progress",
                       "--plot", os.path.join(OUT, "rollout.png")])
    if status != 0:
        raise RuntimeError(f"bansugoroku rollout ended with status {status}")


def learning_curve() -> None:
    """TD(λ) self-play from random weights, 3,000 games of ban/bear_off/off."""
    from bansugoroku_fast import Rules
    from bansugoroku_fast.train import TrainingConfig, train

    config = TrainingConfig(rules=Rules(finish="bear_off", closure="off"), games=3000, seed=1, hidden=(32,),
                            parallel=128, segment_games=500, eval_every=500, eval_games=100)
    with tempfile.TemporaryDirectory() as folder:
        train(config, os.path.join(folder, "net.npz"), plot=os.path.join(OUT, "learning-curve.png"), progress=False)


def _positions(count: int) -> tuple[np.ndarray, np.ndarray]:
    from bansugoroku_fast import Rules, play_games

    records = play_games(Rules(variant="backgammon"), max(1, count // 50), seed=3)
    rng = np.random.default_rng(0)
    rows = rng.integers(0, len(records.positions), count)
    return records.positions[rows], records.dice[rows]


def _best_of(repeats: int, call: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        call()
        times.append(time.perf_counter() - began)
    return min(times)


def threads() -> None:
    """``count_plays`` and ``generate_plays`` on 1 and 2 threads, timed on the building machine."""
    from bansugoroku_fast import Rules, count_plays, generate_plays

    positions, dice = _positions(100_000)
    rules = Rules(variant="backgammon")
    calls = {"count_plays": lambda t: count_plays(positions, dice, rules, threads=t),
             "generate_plays": lambda t: generate_plays(positions, dice, rules, threads=t)}
    cores = min(os.cpu_count() or 1, 4)
    counts = list(range(1, cores + 1)) if cores > 1 else [1, 2]
    figure, axes = plt.subplots(figsize=(7, 4))
    for name, call in calls.items():
        ns = [_best_of(5, lambda t=t, call=call: call(t)) / len(positions) * 1e9 for t in counts]
        axes.plot(counts, [ns[0] / x for x in ns], marker="o", label=f"{name} ({ns[0]:.0f} ns an item on 1)")
    axes.plot(counts, counts, color="grey", linestyle=":", label="perfect scaling")
    axes.set_xticks(counts)
    axes.set_xlabel("threads")
    axes.set_ylabel("speed-up over one thread")
    axes.set_title(f"100,000 backgammon items, best of 5, on the machine that built this page ({cores} cores)")
    axes.title.set_fontsize(9)
    axes.legend()
    _save(figure, "threads.png")


def speed_table() -> None:
    """The front page's headline table: nanoseconds per (position, roll), one thread."""
    rows = _readme_table("| batch call |")
    # The call's name as the table writes it, without the Markdown backticks.
    calls = [(name.replace("`", ""), _low(ban), _low(bg)) for name, ban, bg in rows if "x" not in ban]
    figure, axes = plt.subplots(figsize=(7, 3.2))
    y = np.arange(len(calls))
    axes.barh(y - 0.2, [c[1] for c in calls], height=0.4, label="Ban-sugoroku")
    axes.barh(y + 0.2, [c[2] for c in calls], height=0.4, label="backgammon")
    axes.set_yticks(y, [c[0] for c in calls], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel("ns per (position, roll), one thread (lower is faster)")
    axes.legend()
    _save(figure, "speed.png")


def peers() -> None:
    """The peers' move listing against ours on the same backgammon items (benchmarks/README.md)."""
    rows = _readme_table("| peer (version) |", BENCHMARKS)
    figure, axes = plt.subplots(figsize=(7, 3.2))
    y = np.arange(len(rows))
    axes.barh(y - 0.27, [_low(row[1]) for row in rows], height=0.27, label="the peer's listing")
    axes.barh(y, [_low(row[2]) for row in rows], height=0.27, label="ours, a single legal_plays call")
    axes.barh(y + 0.27, [_low(row[3]) for row in rows], height=0.27, label="ours, generate_plays batch, 1 thread")
    axes.set_yticks(y, [row[0] for row in rows], fontsize=8)
    axes.invert_yaxis()
    axes.set_xlabel("ns per (position, roll) (lower is faster)")
    axes.legend(fontsize=8)
    _save(figure, "peers.png")


def _readme_table(header: str, path: str = README) -> list[tuple[str, ...]]:
    """The rows of the Markdown table of ``path`` whose header row starts with ``header``."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    block = text[text.index(header):].split("\n\n")[0].splitlines()[2:]
    return [tuple(cell.strip() for cell in line.strip("|").split("|")) for line in block]


def _low(cell: str) -> float:
    """The first figure of a cell such as ``27-28`` or ``1,086``."""
    return float(re.match(r"[\d,.]+", cell).group(0).replace(",", ""))  # type: ignore[union-attr]


def _write_text(name: str, text: str) -> None:
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as file:
        file.write(text)


def _save(figure: plt.Figure, name: str) -> None:
    figure.tight_layout()
    figure.savefig(os.path.join(OUT, name))
    plt.close(figure)


PICTURES = [boards, rollout, learning_curve, threads, speed_table, peers]


def draw(app: object) -> None:
    os.makedirs(OUT, exist_ok=True)
    for picture in PICTURES:
        picture()


def setup(app):
    app.connect("builder-inited", draw)
    return {"version": "1", "parallel_read_safe": True}
