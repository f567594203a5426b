"""The kernels of whole games follow the one error rule of every kernel
(``_board.pxd``): a problem with the data of a call is a Status the kernel
reports, not an exception it raises; the Python layer turns it into the
error users see (``tests/test_games.py`` holds those messages).

* ``_env.advance_batch`` returns ``(k, status)`` of its first bad row or
  choice; a bad row (outside the games, listed twice) or a choice below -1
  is found before any game moves, so such a call changes nothing.
* ``_games.rollout_batch`` writes STATUS_TOO_LONG for a game not over after
  ``max_plies``: no game of Ban-sugoroku ends in 3 plies (15 stones must
  come home first).
"""
import numpy as np

from bansugoroku_fast import Position, Rules, _env, _games
from bansugoroku_fast._kernel import STATUS
from bansugoroku_fast.games.policies import policy_weights, resolve_policies

RULES = Rules()


def new_games(n):
    """The arrays of ``n`` vector-environment games at the start, seat 0 to roll."""
    return {
        "boards": np.repeat(Position.initial(RULES).array[None], n, axis=0),
        "dice": np.zeros((n, 2), dtype=np.int8), "plies": np.zeros(n, dtype=np.int64),
        "games": np.arange(n, dtype=np.int64), "counts": np.zeros(n, dtype=np.int32),
        "winner": np.full(n, -1, dtype=np.int8), "value": np.zeros(n, dtype=np.int8),
        "truncated": np.zeros(n, dtype=np.uint8),
    }


def advance(arrays, rows, choices):
    """``_env.advance_batch`` with the agent in seat 0 against "random": its result."""
    policy = resolve_policies("random", RULES)[0]
    return _env.advance_batch(np.asarray(rows, dtype=np.int64), np.asarray(choices, dtype=np.int64),
                              *arrays.values(), 0, policy.code, policy_weights(policy), RULES.code, 1,
                              False, 10_000, 10_000)


def test_bad_rows_and_choices_are_statuses_found_before_any_game_moves():
    arrays = new_games(3)
    before = {name: array.copy() for name, array in arrays.items()}
    assert advance(arrays, [0, 3], [-1, -1]) == (1, STATUS["no_such_row"])
    assert advance(arrays, [2, 0, 2], [-1, -1, -1]) == (2, STATUS["row_twice"])
    assert advance(arrays, [1, 0], [-1, -2]) == (1, STATUS["bad_choice"])
    for name, array in arrays.items():
        np.testing.assert_array_equal(array, before[name], err_msg=name)


def test_a_choice_past_the_plays_is_a_status_with_the_count_of_plays():
    arrays = new_games(2)
    assert advance(arrays, [0, 1], [-1, -1]) is None     # each stops at the agent's first roll
    plays = arrays["counts"].copy()
    assert (plays > 0).all()
    assert advance(arrays, [1], [plays[1]]) == (0, STATUS["bad_choice"])
    assert arrays["counts"][1] == plays[1]


def test_a_game_too_long_is_a_status():
    n = 4
    policies = resolve_policies("random", RULES)
    codes = np.array([policy.code for policy in policies], dtype=np.int32)
    weights = np.stack([policy_weights(policy) for policy in policies])
    ends = [np.zeros(n, dtype=np.int8) for _ in range(3)] + [np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int8)]
    _games.rollout_batch(Position.initial(RULES).array[None], 0, n, codes, weights, (None, None), RULES.code, 1, 0, 3,
                         1, *ends)
    assert ends[-1].tolist() == [STATUS["too_long"]] * n
