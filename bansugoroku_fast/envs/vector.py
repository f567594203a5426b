"""A native Gymnasium vector environment: ``num_envs`` games stepped together,
one batch kernel call per wave of plies (see :class:`BanSugorokuVectorEnv`)."""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import batch
from ..checks import as_rules
from ..errors import IllegalPlayError
from ..position import Position
from ..rules import Rules
from ._dice import rolls
from .aec import new_seed
from .opponents import opponent_of
from .table import DICE_SLOTS, MAX_PLAYS, MAX_PLIES, SEATS, Table
from .views import STONES

NO_WINNER = -1


class _Lockstep:
    """``count`` games in numpy arrays, each at the turn of some seat.

    Sub-environment ``i`` plays games ``i, i + count, i + 2 * count, ...`` of
    the seed's counter-based dice in turn (so game ``g`` is the ``g //
    count``-th episode of sub-environment ``g % count``), the same games as
    :class:`~bansugoroku_fast.envs.BanSugorokuEnv` plays after
    ``reset(seed=seed, options={"game": g})``.
    """

    def __init__(self, rules: Rules, count: int, max_plays: int, max_plies: int) -> None:
        self.rules, self.count, self.max_plays, self.max_plies = rules, count, max_plays, max_plies
        self.seed = 0
        self.start = Position.initial(rules).array
        self.boards = np.empty((count, 2, 26), dtype=np.int8)
        self.dice = np.zeros((count, 2), dtype=np.int8)
        self.seat = np.zeros(count, dtype=np.int8)
        self.ply = np.zeros(count, dtype=np.int32)
        self.game = np.arange(count, dtype=np.int64)
        self.winner = np.full(count, NO_WINNER, dtype=np.int8)
        self.value = np.zeros(count, dtype=np.int8)
        self.truncated = np.zeros(count, dtype=bool)
        #: Legal plays of each game's roll (0 for a game over).
        self.counts = np.zeros(count, dtype=np.int64)

    @property
    def over(self) -> np.ndarray:
        return (self.winner != NO_WINNER) | self.truncated

    def new_games(self, rows: np.ndarray, games: np.ndarray) -> None:
        """Start ``games`` (from the rules' start, seat 0 to roll) in ``rows``."""
        self.boards[rows] = self.start
        self.seat[rows], self.ply[rows], self.game[rows] = 0, 0, games
        self.winner[rows], self.value[rows], self.truncated[rows] = NO_WINNER, 0, False
        self._roll(rows)

    def _roll(self, rows: np.ndarray) -> None:
        """Roll for ``rows``, count their plays, pass rolls with none."""
        while rows.size:
            self.dice[rows] = rolls(self.seed, self.game[rows], self.ply[rows], self.rules.is_backgammon)
            counts = batch.count_plays(self.boards[rows], self.dice[rows], self.rules, threads=1)
            if counts.max(initial=0) > self.max_plays:
                row = int(rows[np.argmax(counts)])
                raise ValueError(f"game {self.game[row]} (seed {self.seed}): {counts.max()} legal plays, "
                                 f"more than max_plays={self.max_plays}; raise max_plays")
            self.counts[rows] = counts
            self.truncated[rows] |= self.ply[rows] >= self.max_plies
            self.counts[rows[self.truncated[rows]]] = 0
            passing = rows[(counts == 0) & ~self.truncated[rows]]
            self._next_ply(passing, self.boards[passing])
            rows = passing

    def _next_ply(self, rows: np.ndarray, after: np.ndarray) -> None:
        self.boards[rows] = after[:, ::-1]
        self.seat[rows] ^= 1
        self.ply[rows] += 1

    def plays(self, rows: np.ndarray) -> batch.PlayBatch:
        """The legal plays of ``rows`` (offsets over ``rows``)."""
        return batch.generate_plays(self.boards[rows], self.dice[rows], self.rules, threads=1)

    def play(self, rows: np.ndarray, plays: batch.PlayBatch, choices: np.ndarray) -> None:
        """Play child ``choices[k]`` of ``plays`` in game ``rows[k]`` (checked by the caller)."""
        after = plays.children[plays.offsets[:-1] + choices]
        found = batch.outcome(after, self.rules)
        won = found.winner >= 0
        finished = rows[won]
        self.winner[finished] = np.where(found.winner[won] == 0, self.seat[finished], 1 - self.seat[finished])
        self.value[finished] = found.value[won]
        self.boards[finished] = after[won]
        self.counts[finished] = 0
        going = rows[~won]
        self._next_ply(going, after[~won])
        self._roll(going)


class BanSugorokuVectorEnv(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """``num_envs`` copies of :class:`~bansugoroku_fast.envs.BanSugorokuEnv`
    with whole-play actions (``actions="play"``), stepped together: each
    :meth:`step` plays the agents' plays of every game in one batch call,
    then the opponents' (``"random"``, ``"first"`` or a callable in the
    lockstep convention, called once per wave for all games), and lists the
    next plays of every game in one ``generate_plays`` call.

    A finished game restarts in the same step (``AutoresetMode.SAME_STEP``):
    ``info["final_obs"][i]`` is its last observation, ``info["_final_obs"]``
    the mask of the sub-environments that finished. ``reset(seed=s)``: sub-
    environment ``i`` plays games ``i, i + num_envs, ...`` of seed ``s``.
    :meth:`candidates` gives the children of every legal play (for agents
    that score afterstates).

    >>> env = BanSugorokuVectorEnv(4, "backgammon")
    >>> observations, infos = env.reset(seed=0)
    >>> observations["observation"].shape, observations["action_mask"].shape
    ((4, 2, 26), (4, 1024))
    >>> observations, rewards, terminated, truncated, infos = env.step(np.zeros(4, dtype=np.int64))
    >>> rewards.tolist(), infos["ply"].tolist()
    ([0.0, 0.0, 0.0, 0.0], [2, 2, 2, 2])
    """

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, rules: object = None, *, opponent: object = "random", seat: int = 0,
                 max_plays: int = MAX_PLAYS, max_plies: int = MAX_PLIES) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if seat not in SEATS:
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        rules = as_rules(rules)
        template = Table(rules, "play", max_plays, max_plies)  # checks the options
        self.num_envs = int(num_envs)
        self.rules = rules
        self.seat = seat
        self.opponent = opponent_of(opponent, rules)
        self.games = _Lockstep(rules, self.num_envs, template.max_plays, template.max_plies)
        self.single_action_space = spaces.Discrete(template.max_plays)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0, STONES, shape=(2, 26), dtype=np.int8),
            "dice": spaces.Box(0, 6, shape=(DICE_SLOTS,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, shape=(template.max_plays,), dtype=np.int8),
        })
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        #: Row ``k``: the mask of a roll with ``k`` legal plays.
        self._masks = np.tril(np.ones((template.max_plays + 1, template.max_plays), dtype=np.int8), -1)
        self._seed: int | None = None
        self._agent_plays = self.games.plays(np.arange(0))

    # -- the Gymnasium API ------------------------------------------------------------

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if isinstance(seed, list):
            raise ValueError("seed must be one integer for all sub-environments (sub-environment i plays "
                             "games i, i + num_envs, ... of it)")
        if seed is not None:
            self._seed = int(seed)
        elif self._seed is None:
            self._seed = new_seed(self.np_random)
        self.games.seed = self._seed
        rows = np.arange(self.num_envs)
        self.games.new_games(rows, rows.astype(np.int64))
        self._play_opponents()
        self._agent_plays = self.games.plays(rows)
        return self._observe(), self._info()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        games = self.games
        rows = np.arange(self.num_envs)
        choices = self._checked(actions)
        games.play(rows, self._agent_plays, choices)
        self._play_opponents()
        over = games.over
        rewards = np.zeros(self.num_envs, dtype=np.float64)
        won = games.winner != NO_WINNER
        rewards[won] = np.where(games.winner[won] == self.seat, 1, -1) * games.value[won]
        terminated, truncated = won.copy(), games.truncated.copy()
        info = self._info()
        if over.any():
            info["final_obs"] = np.full(self.num_envs, None, dtype=object)
            finals = self._observe()
            for row in np.flatnonzero(over).tolist():
                info["final_obs"][row] = {key: value[row] for key, value in finals.items()}
            info["_final_obs"] = over
            restarted = np.flatnonzero(over)
            games.new_games(restarted, games.game[restarted] + self.num_envs)
            self._play_opponents()
        self._agent_plays = games.plays(rows)
        return self._observe(), rewards, terminated, truncated, info

    # -- waves ----------------------------------------------------------------------

    def _checked(self, actions: Any) -> np.ndarray:
        values = np.asarray(actions)
        if values.shape != (self.num_envs,) or values.dtype.kind not in "iu":
            raise IllegalPlayError(f"actions must be {self.num_envs} integers (one per sub-environment), "
                                   f"got {values.dtype} of shape {values.shape}")
        counts = self.games.counts
        bad = (values < 0) | (values >= counts)
        if bad.any():
            row = int(np.argmax(bad))
            raise IllegalPlayError(f"action {values[row]} of sub-environment {row} is not legal: "
                                   f"it has {counts[row]} legal plays")
        return values.astype(np.int64)

    def _play_opponents(self) -> None:
        """Let the opponent play every game waiting for it, wave after wave."""
        games = self.games
        while True:
            rows = np.flatnonzero((games.seat != self.seat) & ~games.over)
            if not rows.size:
                return
            parents = games.boards[rows]
            plays = games.plays(rows)
            choices = self.opponent(games.seed, games.game[rows], games.ply[rows].astype(np.int64), parents, plays)
            games.play(rows, plays, choices)

    # -- what the agent sees ----------------------------------------------------------

    def candidates(self) -> tuple[np.ndarray, np.ndarray]:
        """``(offsets int64[num_envs + 1], children int8[M, 2, 26])``: the
        position after each legal play of sub-environment ``i`` (rows
        ``offsets[i]:offsets[i + 1]``, in action order), seen by the agent."""
        return self._agent_plays.offsets.copy(), self._agent_plays.children.copy()

    def _observe(self) -> dict[str, np.ndarray]:
        games = self.games
        mask = self._masks[self.games.counts]
        boards = games.boards.copy()
        # A finished game shows its last position from the agent's side.
        theirs = games.seat != self.seat
        boards[theirs] = boards[theirs][:, ::-1]
        return {"observation": boards, "dice": self._dice_left(games.counts > 0), "action_mask": mask}

    def _dice_left(self, to_move: np.ndarray) -> np.ndarray:
        dice = np.zeros((self.num_envs, DICE_SLOTS), dtype=np.int8)
        high, low = self.games.dice.max(axis=1), self.games.dice.min(axis=1)
        dice[:, 0], dice[:, 1] = high, low
        doubles = high == low
        dice[doubles, 2:] = high[doubles, None] if self.rules.is_backgammon else 0
        dice[~to_move] = 0
        return dice

    def _info(self) -> dict[str, Any]:
        games = self.games
        everyone = np.ones(self.num_envs, dtype=bool)
        return {"ply": games.ply.copy(), "_ply": everyone, "game": games.game.copy(), "_game": everyone}
