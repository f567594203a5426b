"""What the environments show: observation spaces, observations and renders.

An observation is a dict (the PettingZoo convention for masked actions):

* ``"observation"``: ``int8[2, 26]``, the board seen by the observing seat
  (row 0 = that seat; index 0 = borne off, 1..24 = points, 25 = bar);
* ``"dice"``: ``int8[4]``, the dice the seat still has to play this turn,
  highest first, 0 padding (all 0 when it is not the seat's turn);
* ``"action_mask"``: ``int8[n]``, 1 for each legal action (all 0 when it is
  not the seat's turn, or the game is over);
* ``"features"`` (only with ``observation="features"``): ``float32[F]``, the
  :func:`~bansugoroku_fast.features` of the board seen by the seat.

Renders: ``"ansi"`` is the text board (:func:`bansugoroku_fast.render.board`)
with the dice line; ``"rgb_array"`` is the SVG board
(:func:`bansugoroku_fast.render.svg`) rasterised by ``cairosvg`` into
``uint8[H, W, 3]``, composited onto the board's colour
(:data:`bansugoroku_fast.render.BACKGROUND`) where the SVG is transparent.
"""
from __future__ import annotations

import io
from typing import Any

import numpy as np
from gymnasium import spaces

from .. import render
from ..batch import features
from ..errors import InvalidArgumentError
from ..layout import BAR, STONES
from ..rules import Rules
from ..scoring import FEATURE_NAMES
from .table import DICE_SLOTS, Table

OBSERVATION_KINDS = ("board", "features")
RENDER_MODES = ("ansi", "rgb_array")
#: Upper bound of every feature (the largest is a pip count: every stone on the bar).
FEATURE_CEILING = float(STONES * BAR)


def check_observation(observation: str) -> str:
    if observation not in OBSERVATION_KINDS:
        raise InvalidArgumentError(f"observation must be one of {OBSERVATION_KINDS}, got {observation!r}")
    return observation


def check_render_mode(render_mode: str | None) -> str | None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise InvalidArgumentError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
    return render_mode


def observation_space(action_count: int, observation: str) -> spaces.Dict:
    """The space of one observation (see the module docstring)."""
    parts: dict[str, spaces.Space[Any]] = {
        "observation": spaces.Box(0, STONES, shape=(2, 26), dtype=np.int8),
        "dice": spaces.Box(0, 6, shape=(DICE_SLOTS,), dtype=np.int8),
        "action_mask": spaces.Box(0, 1, shape=(action_count,), dtype=np.int8),
    }
    if observation == "features":
        parts["features"] = spaces.Box(0.0, FEATURE_CEILING, shape=(len(FEATURE_NAMES),), dtype=np.float32)
    return spaces.Dict(parts)


def shown(boards: np.ndarray, dice: np.ndarray, masks: np.ndarray, rules: Rules,
          observation: str) -> dict[str, np.ndarray]:
    """The observation of ``boards`` seen by the observer (``int8[2, 26]``,
    or ``int8[N, 2, 26]`` for a batch), its dice left and its action mask
    (with ``observation="features"`` also the features of the boards)."""
    parts = {"observation": boards, "dice": dice, "action_mask": masks}
    if observation == "features":
        scored = features(boards.reshape(-1, 2, 26), rules)
        parts["features"] = scored.reshape(*boards.shape[:-2], scored.shape[-1])
    return parts


def observe(table: Table, seat: int, observation: str) -> dict[str, np.ndarray]:
    """What ``seat`` sees of ``table`` (fresh arrays every call)."""
    mask = table.action_mask() if seat == table.seat else np.zeros(table.action_count, dtype=np.int8)
    return shown(table.board(seat), table.dice_vector(seat), mask, table.rules, observation)


def render_table(table: Table, mode: str | None) -> str | np.ndarray | None:
    """The board from the side to move as text (``"ansi"``) or pixels (``"rgb_array"``)."""
    rows = table.position.array.tolist()
    if mode == "ansi":
        return render.board(rows) + "\n" + _status(table)
    if mode == "rgb_array":
        return _rasterise(render.svg(rows))
    return None


def _status(table: Table) -> str:
    if table.result is not None:
        result = table.result
        return f"seat {result.winner} has won: {result.kind}, worth {result.value} (X is seat {table.seat})"
    if table.truncated:
        return f"truncated after {table.ply} plies"
    left = "-".join(str(die) for die in table.dice_left())
    return f"seat {table.seat} (X) to move, ply {table.ply}, dice {table.dice}, left {left}"


def _rasterise(svg: str) -> np.ndarray:
    import cairosvg
    from PIL import Image

    png = cairosvg.svg2png(bytestring=svg.encode())
    with Image.open(io.BytesIO(png)) as image:
        drawn = image.convert("RGBA")
        # Dropping alpha would turn the transparent strip black (black digits on black).
        board = Image.new("RGBA", drawn.size, render.BACKGROUND)
        pixels: np.ndarray = np.array(Image.alpha_composite(board, drawn).convert("RGB"), dtype=np.uint8)
        return pixels
