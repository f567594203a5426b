"""A native Gymnasium vector environment: ``num_envs`` games stepped together
by the batch kernels (see :class:`BanSugorokuVectorEnv`)."""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..batch import PlayBatch, _count, _generate, _Items, _outcome
from ..checks import as_rules, positive_int
from ..errors import GameStateError, IllegalPlayError
from ..lockstep import choose, roll_dice
from ..position import Position
from ..rules import Rules
from .opponents import opponent_of
from .table import MAX_PLAYS, MAX_PLIES, check_seat, dice_slots, new_seed, play_masks
from .views import check_observation, observation_space, shown

NO_WINNER = -1
#: The only field of the plays the environment reads.
CHILDREN = frozenset({"children"})


class _Games:
    """``count`` games in numpy arrays, each at its own ply (seat ``ply % 2``
    to move), moved by the batch kernels: the lockstep of
    :class:`~bansugoroku_fast.GameBatch` (the same kernel entry points and
    dice), except that a wave moves only the games it is given (the agent's
    or the opponent's) and a game reaching ``max_plies`` is truncated.

    Game ``g`` rolls what game ``g`` of the seed rolls in
    :func:`~bansugoroku_fast.play_games` (and in the single environment).
    """

    def __init__(self, rules: Rules, count: int, max_plays: int, max_plies: int) -> None:
        self.rules, self.max_plays, self.max_plies = rules, max_plays, max_plies
        self.seed: int | None = None  # None until the first reset
        self.start = Position.initial(rules).array
        #: Each game's board seen by the side to move (by the winner, once won).
        self.boards = np.empty((count, 2, 26), dtype=np.int8)
        self.dice = np.zeros((count, 2), dtype=np.int8)
        self.ply = np.zeros(count, dtype=np.int64)
        self.game = np.arange(count, dtype=np.int64)
        self.winner = np.full(count, NO_WINNER, dtype=np.int8)  # a seat
        self.value = np.zeros(count, dtype=np.int8)
        self.truncated = np.zeros(count, dtype=bool)
        #: Legal plays of each game's roll (0 once the game is over).
        self.counts = np.zeros(count, dtype=np.int32)

    def new_games(self, rows: np.ndarray, games: np.ndarray) -> None:
        """Start ``games`` (from the rules' start, seat 0 to roll) in ``rows``."""
        self.boards[rows] = self.start
        self.ply[rows], self.game[rows] = 0, games
        self.winner[rows], self.value[rows], self.truncated[rows] = NO_WINNER, 0, False
        self._roll(rows)

    def _roll(self, rows: np.ndarray) -> None:
        """Roll for ``rows`` and count their plays; a roll with none is a
        pass, and the other side rolls; a game at ``max_plies`` is truncated."""
        assert self.seed is not None
        while rows.size:
            too_long = self.ply[rows] >= self.max_plies
            self.truncated[rows[too_long]] = True
            self.counts[rows[too_long]] = 0
            rows = rows[~too_long]
            self.dice[rows] = roll_dice(self.seed, self.game[rows], self.ply[rows], opening=self.rules.is_backgammon)
            counts = _count(self._items(rows))
            if counts.max(initial=0) > self.max_plays:
                row = int(rows[np.argmax(counts)])
                raise ValueError(f"game {self.game[row]} (seed {self.seed}) ply {self.ply[row]}: {counts.max()} "
                                 f"legal plays, more than max_plays={self.max_plays}; raise max_plays")
            self.counts[rows] = counts
            rows = rows[counts == 0]
            self.boards[rows] = self.boards[rows][:, ::-1]
            self.ply[rows] += 1

    def _items(self, rows: np.ndarray) -> _Items:
        dice = self.dice[rows]  # fancy indexing: C-contiguous copies, as the kernels want
        return _Items(self.boards[rows], dice, dice, self.rules, 1)

    def plays(self, rows: np.ndarray) -> PlayBatch:
        """The children of the legal plays of ``rows`` (offsets over ``rows``)."""
        return _generate(self._items(rows), CHILDREN, counts=self.counts[rows])  # a copy: the kernel writes it

    def play(self, rows: np.ndarray, plays: PlayBatch, choices: np.ndarray) -> None:
        """Play child ``choices[k]`` of ``plays`` in game ``rows[k]`` (checked by the caller)."""
        after = plays.children[plays.offsets[:-1] + choices]
        found = _outcome(after, self.rules)
        won = found.winner >= 0
        finished = rows[won]
        mover = (self.ply[finished] % 2).astype(np.int8)
        self.winner[finished] = np.where(found.winner[won] == 0, mover, 1 - mover)
        self.value[finished] = found.value[won]
        self.boards[finished] = after[won]
        self.counts[finished] = 0
        going = rows[~won]
        self.boards[going] = after[~won][:, ::-1]
        self.ply[going] += 1
        self._roll(going)


class BanSugorokuVectorEnv(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """``num_envs`` copies of :class:`~bansugoroku_fast.envs.BanSugorokuEnv`
    with whole-play actions (``actions="play"``), stepped together: each
    :meth:`step` plays the agents' plays of every game in one batch call,
    then the opponents' (any policy of the single environment, called once
    per wave for all the games it has to move), and lists the next plays of
    every game in one ``generate_plays`` call.

    A finished game restarts in the same step (``AutoresetMode.SAME_STEP``,
    as ``SyncVectorEnv`` does it): ``info["final_obs"][i]`` and
    ``info["final_info"]`` are its last observation and info,
    ``info["_final_obs"]`` the mask of the sub-environments that finished.
    Sub-environment ``i`` plays games ``i, i + num_envs, ...`` of the seed
    (game ``g`` as the single environment plays it after ``reset(seed=seed,
    options={"game": g})``, whatever the other sub-environments do); a
    ``reset()`` without a seed goes on with the next game of each.
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

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (as VectorEnv declares it)

    def __init__(self, num_envs: int, rules: object = None, *, opponent: object = "random", seat: int = 0,
                 observation: str = "board", max_plays: int = MAX_PLAYS, max_plies: int = MAX_PLIES) -> None:
        self.num_envs = positive_int(num_envs, "num_envs")
        self.rules = as_rules(rules)
        self.seat = check_seat(seat)
        self.opponent = opponent_of(opponent, self.rules)
        self.observation_kind = check_observation(observation)
        self.max_plays = positive_int(max_plays, "max_plays")
        self.games = _Games(self.rules, self.num_envs, self.max_plays, positive_int(max_plies, "max_plies"))
        self.single_action_space = spaces.Discrete(self.max_plays)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = observation_space(self.max_plays, observation)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._everyone = np.arange(self.num_envs)
        self._plays = self.games.plays(self._everyone[:0])  # the agents' plays (none before reset)

    # -- the Gymnasium API ------------------------------------------------------------

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(seed, list):
            raise ValueError("seed must be one integer for all sub-environments (sub-environment i plays "
                             "games i, i + num_envs, ... of it)")
        super().reset(seed=seed)
        games = self.games
        if seed is None and games.seed is not None:
            first = games.game + self.num_envs
        else:
            games.seed = new_seed(self.np_random) if seed is None else int(seed)
            first = self._everyone.astype(np.int64)
        games.new_games(self._everyone, first)
        self._play_opponents()
        self._plays = games.plays(self._everyone)
        return self._observe(self._everyone), self._info()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        games = self.games
        if games.seed is None:
            raise GameStateError("call reset() before step()")
        games.play(self._everyone, self._plays, self._checked(actions))
        self._play_opponents()
        terminated, truncated = games.winner != NO_WINNER, games.truncated.copy()
        sign = np.where(games.winner == self.seat, 1, -1)
        rewards = (sign * games.value).astype(np.float64)  # value 0 before the end
        over = terminated | truncated
        final: dict[str, Any] = {}
        if over.any():
            rows = np.flatnonzero(over)
            last = self._observe(rows)
            final_obs = np.full(self.num_envs, None, dtype=object)
            for k, row in enumerate(rows.tolist()):
                final_obs[row] = {key: value[k] for key, value in last.items()}
            final = {"final_obs": final_obs, "_final_obs": over,
                     "final_info": self._info(), "_final_info": over}
            games.new_games(rows, games.game[rows] + self.num_envs)
            self._play_opponents()
        self._plays = games.plays(self._everyone)
        return self._observe(self._everyone), rewards, terminated, truncated, self._info() | final

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
        """Let the opponent play every game waiting for it, wave after wave
        (a pass or a restart can leave it to move again)."""
        games = self.games
        assert games.seed is not None
        while True:
            rows = np.flatnonzero((games.ply % 2 != self.seat) & (games.counts > 0))
            if not rows.size:
                return
            plays = games.plays(rows)
            choices = choose(self.opponent, games.boards[rows], plays.offsets, plays.children, self.rules,
                             games.seed, games.game[rows], games.ply[rows])
            games.play(rows, plays, choices)

    # -- what the agent sees ----------------------------------------------------------

    def candidates(self) -> tuple[np.ndarray, np.ndarray]:
        """``(offsets int64[num_envs + 1], children int8[M, 2, 26])``: the
        position after each legal play of sub-environment ``i`` (rows
        ``offsets[i]:offsets[i + 1]``, in action order), seen by the agent."""
        return self._plays.offsets.copy(), self._plays.children.copy()

    def _observe(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """The observations of ``rows``: the agent's turn in a live game,
        the last position (from the agent's side) in a finished one."""
        games = self.games
        boards = games.boards[rows]
        theirs = games.ply[rows] % 2 != self.seat
        boards[theirs] = boards[theirs][:, ::-1]
        counts = games.counts[rows]
        dice = dice_slots(games.dice[rows], self.rules)
        dice[counts == 0] = 0
        return shown(boards, dice, play_masks(counts, self.max_plays), self.rules, self.observation_kind)

    def _info(self) -> dict[str, Any]:
        games = self.games
        everyone = np.ones(self.num_envs, dtype=bool)
        return {"ply": games.ply.copy(), "_ply": everyone, "game": games.game.copy(), "_game": everyone}
