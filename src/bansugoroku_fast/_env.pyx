# cython: language_level=3
"""The vector environment's kernel (``envs/vector.py``): ``advance_batch``
moves the games of a vector environment, each from the agent's choice to
the agent's next choice, with the opponent's plies, the passes, the ends
and the truncation played here.

A game plays exactly as ``play_games`` plays it (``_games.pyx``): the dice,
the policies' choices and the steps of a ply are ``_games``' own, shared
through ``_games.pxd``.

Errors follow the kernels' one rule (``_board.pxd``): a problem with the
rows or the choices of a call (a row outside the games, a row listed twice,
a choice that is none of its roll's plays) is reported as ``(k, status)``
of the first one, which the Python layer turns into its error; the call
raises only when its arrays disagree in length (the caller's contract) or
it cannot allocate its own working memory.
"""
cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

from ._board cimport (
    KIND_NONE, STATUS_BAD_CHOICE, STATUS_NO_MEMORY, STATUS_NO_SUCH_ROW, STATUS_OK, STATUS_ROW_TWICE, Board,
    RuleSet, checked_rules,
)
from ._games cimport (
    POLICY_OUTSIDE, Policy, choose_play, found_children, game_key, load_policy, pass_the_dice, play_ply, roll_turn,
)
from ._scoring cimport Children
from ._search cimport MODE_PLAYS, Search, run_turn, search_free, search_new


# One game of a vector environment: pointers to its row of the caller's arrays.
cdef struct EnvGame:
    Board* board            # seen by the side to move (by the last mover once over)
    signed char* dice       # the mover's roll (kept from the last roll once over)
    int64_t* ply
    int32_t* count          # legal plays of the roll; 0 once over or truncated
    int8_t* winner          # a seat, set when the game ends
    int8_t* value
    uint8_t* truncated
    int64_t game


cdef int advance_game(Search* s, EnvGame* g, int64_t choice, int agent_seat, const Policy* opponent,
                      uint64_t seed, bint opening, int64_t max_plies, int max_plays) noexcept nogil:
    """Play the game on until a seat that chooses outside the kernels (the
    agent's; the opponent's too if its policy is POLICY_OUTSIDE) has a roll
    with plays to choose from, or the game ends, or reaches ``max_plies``
    (truncated); the opponent's plays are ``choose_play``'s, passes are
    plies. ``choice`` >= 0: first play that play of the current roll (rolled
    by an earlier call; the mover's ``count`` plays); -1: the mover has not
    rolled. Stops also at a roll of more than ``max_plays`` plays (the
    caller raises). Returns a Status: STATUS_BAD_CHOICE (``count`` set to
    the roll's plays) if ``choice`` is not one of them, checked here against
    the search itself, whatever the caller's arrays say."""
    cdef Board after
    cdef Children children
    cdef uint64_t key = game_key(seed, g.game)
    cdef int a, b, count = 0, seat, kind, winner, value
    if choice >= 0:
        count = run_turn(s, g.board, g.dice[0], g.dice[1], MODE_PLAYS)
        if count < 0:
            return STATUS_NO_MEMORY
        if choice >= count:
            g.count[0] = count
            return STATUS_BAD_CHOICE
    while True:
        seat = <int> (g.ply[0] & 1)
        if choice < 0:
            if g.ply[0] >= max_plies:
                g.truncated[0], g.count[0] = True, 0
                return STATUS_OK
            count = roll_turn(s, g.board, key, g.game, g.ply[0], opening, 0, &a, &b)
            if count < 0:
                return STATUS_NO_MEMORY
            g.dice[0], g.dice[1], g.count[0] = a, b, count
            if count > max_plays or (count and (seat == agent_seat or opponent.code == POLICY_OUTSIDE)):
                return STATUS_OK
            if count:
                children = found_children(s, count)
                choice = choose_play(opponent, g.board, &children, s.rules, key, g.ply[0])
        kind = play_ply(s, g.board, count, choice, seat, &after, &winner, &value)
        if kind != KIND_NONE:
            memcpy(g.board, &after, sizeof(Board))
            g.winner[0], g.value[0], g.count[0] = winner, value, 0
            return STATUS_OK
        pass_the_dice(g.board, &after)
        g.ply[0] += 1
        choice = -1


@cython.boundscheck(False)
@cython.wraparound(False)
def advance_batch(const int64_t[::1] rows, const int64_t[::1] choices, signed char[:, :, ::1] boards,
                  signed char[:, ::1] dice, int64_t[::1] plies, const int64_t[::1] games,
                  int32_t[::1] counts, int8_t[::1] winner, int8_t[::1] value, uint8_t[::1] truncated,
                  int agent_seat, int policy_code, const double[::1] weights, int code, uint64_t seed,
                  bint opening, int64_t max_plies, int max_plays):
    """Advance the games ``rows`` of a vector environment (row i: its board
    seen by the mover, dice, ply, game id, play count, winner seat, value,
    truncated flag), each until the agent (seat ``agent_seat``) must choose
    or the game ends or is truncated at ``max_plies``: ``choices[k]`` >= 0
    plays that play of row ``rows[k]``'s roll first, -1 starts by rolling.
    The opponent plays ``policy_code`` (``weights``: FEATURES values, for
    POLICY_LINEAR) as ``play_games`` plays it, or chooses outside
    (POLICY_OUTSIDE: stops at its choices too). A roll of more than
    ``max_plays`` plays stops its game (the caller checks ``counts``).

    Returns None, or ``(k, status)`` of the first problem: STATUS_NO_SUCH_ROW
    or STATUS_ROW_TWICE (``rows[k]``), STATUS_BAD_CHOICE (``choices[k]``
    below -1, both found before any game moves; or past its roll's plays,
    ``counts[rows[k]]`` then set to them, the games listed before it
    already advanced: callers check the choices first, as the vector
    environment does its actions), STATUS_NO_MEMORY (game ``rows[k]``)."""
    cdef Py_ssize_t n = boards.shape[0], k, row
    cdef int status = STATUS_OK
    if (choices.shape[0] != rows.shape[0] or boards.shape[1] != 2 or boards.shape[2] != 26
            or dice.shape[0] != n or dice.shape[1] != 2 or plies.shape[0] != n or games.shape[0] != n
            or counts.shape[0] != n or winner.shape[0] != n or value.shape[0] != n
            or truncated.shape[0] != n):
        raise ValueError("choices and rows, or the game arrays (boards n x 2 x 26, dice n x 2, plies, "
                         "games, counts, winner, value, truncated), disagree in length")
    cdef Policy opponent
    cdef EnvGame g
    cdef RuleSet rules = checked_rules(code)
    load_policy(policy_code, &weights[0] if weights.shape[0] else NULL, weights.shape[0], &opponent)
    problem = _first_listing_problem(rows, choices, n)
    if problem is not None:
        return problem
    cdef Search* s = search_new(rules, True)
    if s == NULL:
        raise MemoryError("out of memory while advancing games")
    with nogil:
        for k in range(rows.shape[0]):
            row = rows[k]
            g.board = <Board*> &boards[row, 0, 0]
            g.dice = &dice[row, 0]
            g.ply, g.count, g.game = &plies[row], &counts[row], games[row]
            g.winner, g.value, g.truncated = &winner[row], &value[row], &truncated[row]
            status = advance_game(s, &g, choices[k], agent_seat, &opponent, seed, opening, max_plies,
                                  max_plays)
            if status != STATUS_OK:
                break
        search_free(s)
    return (k, status) if status != STATUS_OK else None


cdef object _first_listing_problem(const int64_t[::1] rows, const int64_t[::1] choices, Py_ssize_t n):
    """``(k, status)`` of the first row ``rows[k]`` outside ``0 .. n - 1`` or
    listed before, or choice below -1, else None: found before any game
    moves, so that such a call changes nothing."""
    cdef Py_ssize_t k, row
    cdef uint8_t* seen = <uint8_t*> calloc(n + 1, sizeof(uint8_t))
    cdef int status = STATUS_OK
    if seen == NULL:
        raise MemoryError("out of memory while advancing games")
    for k in range(rows.shape[0]):
        row = rows[k]
        if row < 0 or row >= n:
            status = STATUS_NO_SUCH_ROW
        elif seen[row]:
            status = STATUS_ROW_TWICE
        elif choices[k] < -1:
            status = STATUS_BAD_CHOICE
        if status != STATUS_OK:
            break
        seen[row] = True
    free(seen)
    return (k, status) if status != STATUS_OK else None
