"""A native Gymnasium vector environment: ``num_envs`` games stepped together
by the batch kernels (see :class:`BanSugorokuVectorEnv`)."""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .. import _kernel
from ..batch import PlayBatch
from ..checks import as_rules, as_seed, as_side, positive_int
from ..errors import GameStateError, IllegalPlayError, InvalidArgumentError
from ..games.policies import CALLABLE, ResolvedPolicy, choose, policy_weights
from ..position import Position
from ..rules import Rules
from ..typing import PolicyLike, RulesLike
from .opponents import opponent_of
from .table import MAX_PLAYS, MAX_PLIES, dice_slots, new_seed, play_masks
from .views import check_observation, observation_space, shown

NO_WINNER = -1
#: The only field of the plays the environment reads.
CHILDREN = frozenset({"children"})


class _Games:
    """``count`` games in numpy arrays, each at its own ply (seat ``ply % 2``
    to move), advanced by one kernel call (``_kernel.advance_games``) from
    the agent's choices to the agent's next choice: the opponent's plays
    (a kernel policy: exactly its choices in
    :func:`~bansugoroku_fast.play_games`), the passes, the ends, and the
    truncation of a game reaching ``max_plies``. A callable opponent chooses
    in Python: the kernel then stops at its turns too, and
    :meth:`play_callable_opponent` gives it every game waiting for it, wave
    after wave.

    Game ``g`` rolls what game ``g`` of the seed rolls in
    :func:`~bansugoroku_fast.play_games` (and in the single environment).
    """

    def __init__(self, rules: Rules, count: int, agent_seat: int, opponent: ResolvedPolicy, max_plays: int,
                 max_plies: int) -> None:
        self.rules, self.max_plays, self.max_plies = rules, max_plays, max_plies
        self.agent_seat, self.opponent = agent_seat, opponent
        self._opponent_weights = policy_weights(opponent)
        self.seed: int | None = None  # None until the first reset
        self.start = Position.initial(rules).array
        #: Each game's board seen by the side to move (by the last mover, once over).
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
        self.advance(rows, np.full(len(rows), -1, dtype=np.int64))
        ended = rows[(self.winner[rows] != NO_WINNER) | self.truncated[rows]]
        if ended.size:  # the agent would be shown a game with no legal action
            row = int(ended[0])
            raise GameStateError(f"game {self.game[row]} (seed {self.seed}) ended at ply {self.ply[row]}, "
                                 f"before the agent's first play; raise max_plies")

    def advance(self, rows: np.ndarray, choices: np.ndarray) -> None:
        """Play child ``choices[k]`` (checked by the caller; -1: roll first)
        in game ``rows[k]``, then play each game on until a seat that
        chooses in Python has a choice (see the class docstring)."""
        assert self.seed is not None
        _kernel.advance_games(np.ascontiguousarray(rows, dtype=np.int64), np.ascontiguousarray(choices, dtype=np.int64),
                              self, self.agent_seat, self.opponent.code, self._opponent_weights, self.max_plies,
                              self.max_plays)
        if self.counts.max(initial=0) > self.max_plays:
            row = int(np.argmax(self.counts))
            raise InvalidArgumentError(f"game {self.game[row]} (seed {self.seed}) ply {self.ply[row]}: "
                                       f"{self.counts[row]} legal plays, more than max_plays={self.max_plays}; "
                                       f"raise max_plays")

    def play_callable_opponent(self) -> None:
        """Let a callable opponent play every game waiting for it, wave after
        wave (its play can leave it to move again, after a pass)."""
        assert self.seed is not None
        while True:
            rows = np.flatnonzero((self.ply % 2 != self.agent_seat) & (self.counts > 0))
            if not rows.size:
                return
            plays = self.plays(rows)
            self.advance(rows, choose(self.opponent, self.boards[rows], plays.offsets, plays.children,
                                      self.rules, self.seed, self.game[rows], self.ply[rows]))

    def plays(self, rows: np.ndarray) -> PlayBatch:
        """The children of the legal plays of ``rows`` (offsets over ``rows``)."""
        dice = self.dice[rows]  # fancy indexing: C-contiguous copies, as the kernels want
        items = _kernel.Items(self.boards[rows], dice, dice, self.rules, 1)
        return _kernel.generate(items, CHILDREN, counts=self.counts[rows])  # a copy: the kernel writes it


class BanSugorokuVectorEnv(VectorEnv[dict[str, np.ndarray], np.ndarray, np.ndarray]):
    """``num_envs`` copies of :class:`~bansugoroku_fast.envs.BanSugorokuEnv`
    with whole-play actions (``actions="play"``), stepped together: each
    :meth:`step` is one kernel call for all the sub-environments, which
    plays the agent's play, then the opponent's plies and passes (a policy
    of :mod:`bansugoroku_fast.games.policies`), up to the agent's next roll with
    a play; a finished game restarts with a second call. A callable
    opponent is called in Python, once per wave for all the games it has
    to move.

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

    Parameters
    ----------
    num_envs : int
        How many sub-environments are stepped together.
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.
    opponent : ~bansugoroku_fast.typing.PolicyLike
        The opponent's policy.
    seat : int
        The agent's seat, 0 (moves first) or 1.
    observation : str
        ``"board"`` or ``"features"``.
    max_plays : int
        The action space: the most plays a roll may have.
    max_plies : int
        The plies after which a game is truncated.

    Examples
    --------
    >>> env = BanSugorokuVectorEnv(4, "backgammon")
    >>> observations, infos = env.reset(seed=0)
    >>> observations["observation"].shape, observations["action_mask"].shape
    ((4, 2, 26), (4, 1024))
    >>> observations, rewards, terminated, truncated, infos = env.step(np.zeros(4, dtype=np.int64))
    >>> rewards.tolist(), infos["ply"].tolist()
    ([0.0, 0.0, 0.0, 0.0], [2, 2, 2, 2])
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (as VectorEnv declares it)

    def __init__(self, num_envs: int, rules: RulesLike = None, *, opponent: PolicyLike = "random", seat: int = 0,
                 observation: str = "board", max_plays: int = MAX_PLAYS, max_plies: int = MAX_PLIES) -> None:
        self.num_envs = positive_int(num_envs, "num_envs")
        self.rules = as_rules(rules)
        self.seat = as_side(seat, "seat")
        self.opponent = opponent_of(opponent, self.rules)
        self.observation_kind = check_observation(observation)
        self.max_plays = positive_int(max_plays, "max_plays")
        max_plies = positive_int(max_plies, "max_plies")
        if max_plies <= self.seat:  # every game truncated before the agent's first roll: no action ever legal
            raise InvalidArgumentError(f"max_plies={max_plies} ends every game before seat {self.seat} rolls; "
                             f"it must be at least {self.seat + 1}")
        self.games = _Games(self.rules, self.num_envs, self.seat, self.opponent, self.max_plays, max_plies)
        self.single_action_space = spaces.Discrete(self.max_plays)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.single_observation_space = observation_space(self.max_plays, observation)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self._everyone = np.arange(self.num_envs)
        self._plays: PlayBatch | None = None  # the agents' plays, generated when asked for

    # -- the Gymnasium API ------------------------------------------------------------

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(seed, list):
            raise InvalidArgumentError("seed must be one integer for all sub-environments (sub-environment i plays "
                             "games i, i + num_envs, ... of it)")
        super().reset(seed=seed)
        games = self.games
        if seed is None and games.seed is not None:
            first = games.game + self.num_envs
        else:
            games.seed = new_seed(self.np_random) if seed is None else as_seed(seed)
            first = self._everyone.astype(np.int64)
        games.new_games(self._everyone, first)
        self._play_callable_opponent()
        self._plays = None
        return self._observe(self._everyone), self._info()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        games = self.games
        if games.seed is None:
            raise GameStateError("call reset() before step()")
        games.advance(self._everyone, self._checked(actions))
        self._play_callable_opponent()
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
            self._play_callable_opponent()
        self._plays = None
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

    def _play_callable_opponent(self) -> None:
        if self.opponent.code == CALLABLE:  # a kernel policy has played in games.advance
            self.games.play_callable_opponent()

    # -- what the agent sees ----------------------------------------------------------

    def candidates(self) -> tuple[np.ndarray, np.ndarray]:
        """``(offsets int64[num_envs + 1], children int8[M, 2, 26])``: the
        position after each legal play of sub-environment ``i`` (rows
        ``offsets[i]:offsets[i + 1]``, in action order), seen by the agent."""
        if self.games.seed is None:
            raise GameStateError("call reset() before candidates()")
        if self._plays is None:
            self._plays = self.games.plays(self._everyone)
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
