"""The single-agent Gymnasium environment: the agent plays one seat, a
policy the other (see :class:`BanSugorokuEnv`)."""
from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..checks import as_rules, as_side
from ..errors import GameStateError, IllegalPlayError, InvalidArgumentError
from ..games.policies import CALLABLE, ResolvedPolicy
from ..rules import Rules
from ..typing import PolicyLike, RulesLike
from .opponents import choose_play, opponent_of
from .table import MAX_PLAYS, MAX_PLIES, Table
from .views import RENDER_MODES, check_observation, check_render_mode, observation_space, observe, render_table

ILLEGAL_ACTIONS = ("lose", "raise")


def check_illegal_action(illegal_action: object) -> str:
    """``illegal_action`` if it is one of :data:`ILLEGAL_ACTIONS`."""
    if illegal_action not in ILLEGAL_ACTIONS:
        raise InvalidArgumentError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, got {illegal_action!r}")
    return str(illegal_action)


class BanSugorokuEnv(gym.Env[dict[str, Any], np.int64]):
    """One seat of a game against ``opponent``, a policy name (``"random"``,
    ``"first"``, ``"heuristic"``, ``"pubeval"``), a
    :class:`~bansugoroku_fast.LinearPolicy` or a callable (see
    :mod:`bansugoroku_fast.envs.opponents`).

    The agent plays ``seat`` (0 moves first). Actions, observations and
    renders are those of :mod:`bansugoroku_fast.envs.table` and
    :mod:`bansugoroku_fast.envs.views`; the opponent's turns and every pass
    are played inside :meth:`step`. The reward is 0 until the game ends,
    then the agent's points: the outcome's value if it won, its opposite if
    it lost. ``reset(seed=s)`` plays game 0 of seed ``s``, each ``reset()``
    after it the next game (``options={"game": g}``: game ``g``); a game not over after ``max_plies`` plies is
    truncated.

    ``illegal_action="lose"`` (the default, as PettingZoo's classic games
    do): an action outside the mask forfeits the game: the episode ends
    with reward ``-1`` and ``info["illegal_action"] = True``. Gymnasium's
    ``check_env`` and an agent that samples without the mask see an
    ordinary episode end. ``"raise"`` (the strict mode, for debugging an
    agent that should respect the mask): the action raises
    :class:`~bansugoroku_fast.IllegalPlayError`, which names the legal
    moves, and changes nothing.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.
    opponent : ~bansugoroku_fast.typing.PolicyLike
        The opponent's policy.
    seat : int
        The agent's seat, 0 (moves first) or 1.
    actions : str
        ``"step"`` (one move per action) or ``"play"`` (one whole play).
    max_plays : int
        The action space of ``"play"``: the most plays a roll may have.
    observation : str
        ``"board"`` or ``"features"``.
    render_mode : str or None
        ``"ansi"``, ``"rgb_array"`` or None.
    max_plies : int
        The plies after which a game is truncated.
    illegal_action : str
        ``"lose"`` (an action outside the mask forfeits the game) or
        ``"raise"``.

    Examples
    --------
    >>> env = BanSugorokuEnv("backgammon", opponent="random")
    >>> observation, info = env.reset(seed=0)
    >>> observation["observation"].shape, observation["dice"].tolist()
    ((2, 26), [3, 2, 0, 0])
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012 (as Env declares it)

    def __init__(self, rules: RulesLike = None, *, opponent: PolicyLike = "random", seat: int = 0,
                 actions: str = "step", max_plays: int = MAX_PLAYS, observation: str = "board",
                 render_mode: str | None = None, max_plies: int = MAX_PLIES,
                 illegal_action: str = "lose") -> None:
        check_illegal_action(illegal_action)
        rules = as_rules(rules)
        self.table = Table(rules, actions, max_plays, max_plies)
        self.opponent: ResolvedPolicy = opponent_of(opponent, rules)
        self.seat = as_side(seat, "seat")
        self.illegal_action = illegal_action
        self.observation_kind = check_observation(observation)
        self.render_mode = check_render_mode(render_mode)
        self.observation_space = observation_space(self.table.action_count, observation)
        self.action_space = spaces.Discrete(self.table.action_count)
        self._forfeited = False

    @property
    def rules(self) -> Rules:
        return self.table.rules

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game = _game_index(options["game"]) if options and "game" in options else None
        self._forfeited = False
        self.table.next_game(seed, self.np_random, game)
        self._play_opponent()
        return self._observe(), self._info()

    def step(self, action: object) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        table = self.table
        if table.is_over or self._forfeited:
            raise GameStateError("the episode has ended; call reset() before step()")
        try:
            finished = table.take(action)
        except IllegalPlayError:
            if self.illegal_action == "raise":
                raise
            self._forfeited = True
            return self._observe(), -1.0, True, False, {**self._info(), "illegal_action": True}
        if finished >= 0 and self.opponent.code != CALLABLE:
            table.play_on(finished, self.seat, self.opponent)  # the opponent's turns too, in the kernel
        elif finished >= 0:
            table.play(table.legal_plays()[finished])
            self._play_opponent()
        reward = float(table.result.points(self.seat)) if table.result is not None else 0.0
        return self._observe(), reward, table.result is not None, table.truncated, self._info()

    def _play_opponent(self) -> None:
        table = self.table
        while not table.is_over and table.seat != self.seat:
            table.play(choose_play(self.opponent, table))

    def _observe(self) -> dict[str, np.ndarray]:
        return observe(self.table, self.seat, self.observation_kind)

    def _info(self) -> dict[str, Any]:
        return self.table.info()

    def render(self) -> str | np.ndarray | None:
        return render_table(self.table, self.render_mode)


def _game_index(game: object) -> int:
    if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not 0 <= game < 2**63:
        raise InvalidArgumentError(f'options["game"] must be an integer in 0 .. 2**63 - 1, got {game!r}')
    return int(game)
