"""The two-player PettingZoo AEC environment (see :func:`aec_env`)."""
from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..checks import as_rules, check_keywords
from ..errors import GameStateError
from ..typing import RulesLike
from .table import MAX_PLAYS, MAX_PLIES, SEATS, Table
from .views import RENDER_MODES, check_observation, check_render_mode, observation_space, observe, render_table

AGENTS = ("seat_0", "seat_1")


class BanSugorokuAEC(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]  # pettingzoo is untyped
    """Ban-sugoroku or backgammon for two agents, ``"seat_0"`` (moves first)
    and ``"seat_1"``; build it with :func:`aec_env`.

    ``reset(seed=s)`` starts game 0 of seed ``s``; each ``reset()`` without a
    seed then starts the next game of the same seed (a first ``reset()``
    draws a seed). At the end both agents get their points: the winner the
    outcome's value, the loser its opposite; rewards are 0 before. A game
    not over after ``max_plies`` plies is truncated.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, its label, or None for
        Ban-sugoroku's defaults.
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

    Examples
    --------
    >>> env = BanSugorokuAEC("backgammon", actions="play")
    >>> env.reset(seed=0)
    >>> env.agent_selection, env.agents
    ('seat_0', ['seat_0', 'seat_1'])
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "name": "bansugoroku_fast_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, rules: RulesLike = None, *, actions: str = "step", max_plays: int = MAX_PLAYS,
                 observation: str = "board", render_mode: str | None = None,
                 max_plies: int = MAX_PLIES) -> None:
        super().__init__()
        self.table = Table(as_rules(rules), actions, max_plays, max_plies)
        self.observation_kind = check_observation(observation)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._observation_space = observation_space(self.table.action_count, observation)
        self._action_space = spaces.Discrete(self.table.action_count)
        self._generator = np.random.default_rng()  # draws a seed for a first reset() without one
        self._clear()

    def _clear(self) -> None:
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(AGENTS)
        self._clear()
        self.table.next_game(seed, self._generator)
        self._settle()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return observe(self.table, AGENTS.index(agent), self.observation_kind)

    def step(self, action: int | None) -> None:
        if not self.agents:
            raise GameStateError("the game is over and every agent has left; call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.act(action)
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """Select the agent to move; hand out the points once the game is over."""
        table = self.table
        self.agent_selection = AGENTS[table.seat]
        for agent in self.agents:
            self.infos[agent] = table.info()
        if table.result is not None:
            for seat in SEATS:
                self.rewards[AGENTS[seat]] = float(table.result.points(seat))
            self.terminations = dict.fromkeys(self.agents, True)
        elif table.truncated:
            self.truncations = dict.fromkeys(self.agents, True)

    def render(self) -> str | np.ndarray | None:
        return render_table(self.table, self.render_mode)

    def close(self) -> None:
        """Nothing to release; PettingZoo's api_test requires an environment
        that renders to define its own close()."""


#: The keywords :func:`aec_env` takes besides ``rules``.
AEC_OPTIONS = ("actions", "max_plays", "observation", "render_mode", "max_plies")


def aec_env(rules: RulesLike = None, **options: Any) -> BanSugorokuAEC:
    """A two-player PettingZoo AEC environment: both seats of a game, each
    played by an agent.

    An illegal action raises :class:`~bansugoroku_fast.IllegalPlayError`.

    Parameters
    ----------
    rules : ~bansugoroku_fast.typing.RulesLike
        A :class:`~bansugoroku_fast.rules.Rules`, a label such as
        ``"backgammon"``, or None for Ban-sugoroku's defaults.
    **options : Any
        :data:`AEC_OPTIONS`: ``actions`` (``"step"``, the default, or
        ``"play"``; see :mod:`bansugoroku_fast.envs.table`), ``max_plays``,
        ``observation`` (``"board"`` or ``"features"``; see
        :mod:`bansugoroku_fast.envs.views`), ``render_mode`` (``"ansi"`` or
        ``"rgb_array"``) and ``max_plies``.

    Returns
    -------
    BanSugorokuAEC
        The environment, not yet reset.

    Raises
    ------
    InvalidRulesError
        The rules are not a rule set.
    ArgumentTypeError
        A keyword the environment does not take.
    InvalidArgumentError
        An option out of its range (an unknown ``actions``, ``observation``
        or ``render_mode``, a ``max_plies`` of 0...).

    Examples
    --------
    >>> env = aec_env("backgammon", render_mode="ansi")
    >>> env.reset(seed=0)
    >>> observation, reward, terminated, truncated, info = env.last()
    >>> env.agent_selection, observation["dice"].tolist(), int(observation["action_mask"].sum())
    ('seat_0', [3, 2, 0, 0], 8)
    """
    check_keywords(options, AEC_OPTIONS, "aec_env")
    return BanSugorokuAEC(rules, **options)
