"""What ``bansugoroku analyse`` shows of an :class:`~.core.Analysis`: a
text summary (each player's statistics, then the marked decisions worst
first), an HTML report (the same, with the board of each marked decision
drawn by :func:`~bansugoroku_fast.render.svg` and the equity through each
game), and a plot of that equity (matplotlib, the ``plot`` extra).

Every file is written whole or not at all, and its path is checked before
any work (:func:`report_target`, :func:`plot_target`).

>>> report_target("/no/such/dir/report.html")
Traceback (most recent call last):
...
bansugoroku_fast.errors.OutputPathError: --report: the directory '/no/such/dir' does not exist
"""
from __future__ import annotations

import html
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .._files import write_atomically
from ..checks import as_output_file
from ..errors import OutputPathError
from ..position import Position
from ..render import svg

if TYPE_CHECKING:
    from .core import Analysis, Decision

__all__ = ["equity_series", "html_report", "plot_equity", "plot_target", "report_target", "summary",
           "write_report"]

REPORT_FORMATS = (".html", ".htm")
#: The marked decisions a report lists (worst first) and draws.
MOST_ERRORS = 200


def _fmt(value: float | None, digits: int = 3, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


def _title(analysis: Analysis) -> str:
    kind = f"{analysis.match_length}-point match" if analysis.match_length else "money play"
    games = len(analysis.games)
    where = f"{analysis.source}: " if analysis.source else ""
    return (f"{where}{kind}, {analysis.rules.short_name} rules, {games} game{'s' if games != 1 else ''}, "
            f"{analysis.names[0]} v {analysis.names[1]}, analysed at {analysis.ply} ply")


def _statistics_rows(analysis: Analysis) -> list[tuple[str, str, str]]:
    p0, p1 = analysis.players

    def row(label: str, f: Any) -> tuple[str, str, str]:
        return label, f(p0), f(p1)

    return [
        row("Player", lambda p: p.name),
        row("Checker plays (unforced)", lambda p: f"{p.moves} ({p.unforced})"),
        row("Checker error, total", lambda p: _fmt(p.checker_error)),
        row("Cube decisions counted", lambda p: str(p.close_cube)),
        row("Cube error, total", lambda p: _fmt(p.cube_error)),
        row("Error rate (mEMG per decision)", lambda p: _fmt(p.error_rate, 1)),
        row("Marks: doubtful / bad / very bad",
            lambda p: f"{p.marks['doubtful']} / {p.marks['bad']} / {p.marks['very bad']}"),
        row("Luck, total (EMG)", lambda p: _fmt(p.luck, 3, signed=True)),
        row("Rolls: very lucky / lucky / unlucky / very unlucky",
            lambda p: " / ".join(str(p.luck_marks[k]) for k in ("very lucky", "lucky", "unlucky", "very unlucky"))),
        row("Rating", lambda p: p.rating or "N/A"),
    ]


def _decision_text(analysis: Analysis, d: Decision) -> str:
    who = analysis.names[d.player]
    where = f"game {d.game}, move {d.move_number}, {who}"
    if d.kind == "play":
        assert d.dice is not None
        return (f"{where}: {d.dice[0]}{d.dice[1]} {d.played or '(no play)'}, best {d.best} "
                f"(-{d.loss:.3f}, {d.mark})")
    return f"{where}: {d.action} with the cube at {d.cube}, proper: {d.proper} (-{d.loss:.3f}, {d.mark})"


def summary(analysis: Analysis) -> str:
    """The text summary: the statistics, then the marked decisions worst first."""
    lines = [_title(analysis), ""]
    rows = _statistics_rows(analysis)
    width = max(len(label) for label, _, _ in rows)
    lines += [f"{label:<{width}}  {a:>16}  {b:>16}" for label, a, b in rows]
    errors = analysis.errors()
    lines += ["", f"Marked decisions ({len(errors)}), worst first:" if errors else "No marked decision."]
    lines += ["  " + _decision_text(analysis, d) for d in errors]
    return "\n".join(lines)


def equity_series(analysis: Analysis) -> dict[int, list[float]]:
    """Per game: the equity after each checker play, from player 0's side
    (the first column of the match file) at the analysis' ply."""
    series: dict[int, list[float]] = {}
    for d in analysis.decisions:
        if d.kind == "play" and d.played_equity is not None:
            series.setdefault(d.game, []).append(d.played_equity if d.player == 0 else -d.played_equity)
    return series


def _sparkline(values: Sequence[float], width: int = 600, height: int = 120) -> str:
    """A small SVG line of ``values`` (equity, -3..3 clipped to the data's range)."""
    top = max(1.0, max((abs(v) for v in values), default=1.0))
    step = width / max(len(values) - 1, 1)
    points = " ".join(f"{i * step:.1f},{height / 2 - v / top * (height / 2 - 4):.1f}" for i, v in enumerate(values))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><rect width="{width}" height="{height}" fill="#fafafa"/>'
            f'<line x1="0" y1="{height / 2}" x2="{width}" y2="{height / 2}" stroke="#999"/>'
            f'<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="{points}"/></svg>')


def html_report(analyses: Sequence[Analysis]) -> str:
    """A self-contained HTML page: per analysis the statistics, the equity
    through each game, and each marked decision with its board."""
    parts = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8"><title>Analysis</title>',
             "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
             "td,th{border:1px solid #ccc;padding:3px 8px}.board{margin:0.5em 0 1.5em}</style></head><body>"]
    for analysis in analyses:
        parts.append(f"<h1>{html.escape(_title(analysis))}</h1><table>")
        for label, a, b in _statistics_rows(analysis):
            parts.append(f"<tr><th>{html.escape(label)}</th><td>{html.escape(a)}</td><td>{html.escape(b)}</td></tr>")
        parts.append("</table><h2>Equity through each game</h2>"
                     f"<p>After each checker play, from {html.escape(analysis.names[0])}'s side.</p>")
        for game, values in equity_series(analysis).items():
            parts.append(f"<h3>Game {game}</h3>{_sparkline(values)}")
        errors = analysis.errors()[:MOST_ERRORS]
        parts.append(f"<h2>Marked decisions, worst first ({len(errors)})</h2>")
        for d in errors:
            board = svg(Position.from_id(d.position_id).rows)
            parts.append(f"<h3>{html.escape(_decision_text(analysis, d))}</h3>"
                         f'<div class="board">{board}<br><small>Position ID {d.position_id}</small></div>')
    parts.append("</body></html>")
    return "\n".join(parts)


def report_target(path: object) -> str:
    """``path`` checked as an HTML report to write, before any work."""
    return as_output_file(path, REPORT_FORMATS, "--report")


def write_report(path: str | os.PathLike[str], analyses: Sequence[Analysis]) -> None:
    """Write :func:`html_report` to ``path``, whole or not at all."""
    text = html_report(analyses)

    def write(temporary: str) -> None:
        with open(temporary, "w", encoding="utf-8") as file:
            file.write(text)

    write_atomically(path, write)


def _matplotlib() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise OutputPathError("--plot needs matplotlib: pip install 'bansugoroku-fast[plot]'") from None
    return matplotlib


def plot_target(path: object) -> str:
    """``path`` checked as a plot to write (matplotlib there, a format it
    writes, a writable directory), before any work."""
    _matplotlib()
    from matplotlib.backend_bases import FigureCanvasBase

    formats = ["." + name for name in FigureCanvasBase.get_supported_filetypes()]
    return as_output_file(path, formats, "--plot")


def plot_equity(analyses: Sequence[Analysis], path: str | os.PathLike[str]) -> None:
    """Plot the equity through each game (one panel per analysis), whole or not at all."""
    matplotlib = _matplotlib()
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(len(analyses), 1, figsize=(10, 3.2 * len(analyses)), squeeze=False)
    for axis, analysis in zip(axes[:, 0], analyses):
        for game, values in equity_series(analysis).items():
            axis.plot(range(1, len(values) + 1), values, label=f"game {game}")
        axis.axhline(0, color="grey", linewidth=0.8)
        axis.set(xlabel="checker play", ylabel=f"equity ({analysis.names[0]})", title=_title(analysis))
        axis.legend(fontsize="small", ncol=4)
    figure.tight_layout()
    suffix = os.path.splitext(os.fspath(path))[1][1:].lower()
    write_atomically(path, lambda temporary: figure.savefig(temporary, format=suffix))
    plt.close(figure)
