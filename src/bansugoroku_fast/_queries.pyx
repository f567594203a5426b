# cython: language_level=3
"""Rule queries on one position: outcome, play counts, shots, perft.

* ``outcome_of``: who has won, how and for how much (RULES.md: arrival or
  bear-off finish, the closed home doubling or tripling a Ban-sugoroku
  win or winning at once, single / gammon / backgammon); both rows
  winning marks an invalid position.
* ``count_roll``: the number of plays of one roll (0 for a finished game).
* ``shots_of``: how many of the 36 rolls let the mover hit.
* ``perft``: leaves of the play tree a given number of plies deep.

Why it is fast: the outcome is a few byte comparisons; the counts come from
``_search.count_turn`` (closed forms for most rolls, see ``_shortcuts``);
shots stop each roll's search at the first hitting play that uses every
die; perft counts its last ply without generating it.

Declared in ``_queries.pxd``; everything runs without the GIL.
"""
from libc.stdint cimport int64_t
from libc.string cimport memcpy

from ._board cimport (
    BAR, Board, CLOSURE_IMMEDIATE, CLOSURE_MULTIPLIED, KIND_ARRIVAL, KIND_BACKGAMMON,
    KIND_BEAR_OFF, KIND_BOTH_WON, KIND_CLOSED_HOME_X2, KIND_CLOSED_HOME_X3, KIND_CLOSURE,
    KIND_GAMMON, KIND_NONE, KIND_SINGLE, OFF, PLACES, RuleSet, STATUS_BOTH_WON, STATUS_NO_MEMORY,
    STONES, home_closed,
)
from ._search cimport MODE_PLAYS, MODE_SHOTS, Search, count_turn, run_turn


cdef inline bint _triple_home(const signed char* own) noexcept nogil:
    """Home counts (points 1..6) 2-2-2-3-3-3 or 2-3-2-3-2-3 (mujo-gachi)."""
    if own[1] != 2 or own[3] != 2 or own[4] != 3 or own[6] != 3:
        return False
    return (own[2] == 2 and own[5] == 3) or (own[2] == 3 and own[5] == 2)


cdef int _side_won(const signed char* own, const signed char* other, RuleSet rules,
                   int* value) noexcept nogil:
    """The Kind of ``own``'s win over ``other`` (value in ``value``), or KIND_NONE."""
    cdef int point
    cdef bint finished
    if rules.backgammon:
        if own[OFF] != STONES:
            return KIND_NONE
        if other[OFF] > 0:
            value[0] = 1
            return KIND_SINGLE
        if other[BAR] > 0:
            value[0] = 3
            return KIND_BACKGAMMON
        for point in range(19, 25):     # the winner's home, in the loser's numbering
            if other[point] > 0:
                value[0] = 3
                return KIND_BACKGAMMON
        value[0] = 2
        return KIND_GAMMON
    if rules.bears_off:
        finished = own[OFF] == STONES
    else:
        finished = own[1] + own[2] + own[3] + own[4] + own[5] + own[6] == STONES
    if rules.closure == CLOSURE_IMMEDIATE:
        value[0] = 1
        if finished:
            return KIND_BEAR_OFF if rules.bears_off else KIND_ARRIVAL
        return KIND_CLOSURE if home_closed(own, other) else KIND_NONE
    if not finished:
        return KIND_NONE
    if rules.closure == CLOSURE_MULTIPLIED and home_closed(own, other):
        if _triple_home(own):
            value[0] = 3
            return KIND_CLOSED_HOME_X3
        value[0] = 2
        return KIND_CLOSED_HOME_X2
    value[0] = 1
    return KIND_BEAR_OFF if rules.bears_off else KIND_ARRIVAL


cdef int outcome_of(const Board* board, RuleSet rules, int* winner, int* value) noexcept nogil:
    """The Kind of the finished game (``winner`` 0 = row me, 1 = row opp),
    KIND_NONE while it goes on, KIND_BOTH_WON if both rows satisfy a win."""
    cdef int mover_value = 0, opponent_value = 0
    cdef int mover_kind = _side_won(board.me, board.opp, rules, &mover_value)
    cdef int opponent_kind = _side_won(board.opp, board.me, rules, &opponent_value)
    winner[0] = -1
    value[0] = 0
    if mover_kind != KIND_NONE and opponent_kind != KIND_NONE:
        return KIND_BOTH_WON
    if mover_kind != KIND_NONE:
        winner[0] = 0
        value[0] = mover_value
        return mover_kind
    if opponent_kind != KIND_NONE:
        winner[0] = 1
        value[0] = opponent_value
        return opponent_kind
    return KIND_NONE


cdef int count_roll(Search* s, const Board* start, int a, int b) noexcept nogil:
    """Distinct plays of ``start`` with dice ``a``, ``b``: 0 for a pass or a
    finished game, else a Status: STATUS_BOTH_WON (invalid), STATUS_NO_MEMORY."""
    cdef int winner, value
    cdef int kind = outcome_of(start, s.rules, &winner, &value)
    if kind == KIND_BOTH_WON:
        return STATUS_BOTH_WON
    if kind != KIND_NONE:
        return 0
    return count_turn(s, start, a, b)


cdef int shots_of(Search* s, const Board* start) noexcept nogil:
    """How many of the 36 rolls let the mover hit with a legal play (0 if
    the game is over), or a Status (STATUS_BOTH_WON, STATUS_NO_MEMORY)."""
    cdef int winner, value, a, b, hits, total = 0
    cdef int kind = outcome_of(start, s.rules, &winner, &value)
    cdef int point
    cdef bint any_blot = False
    if kind == KIND_BOTH_WON:
        return STATUS_BOTH_WON
    if kind != KIND_NONE:
        return 0
    for point in range(1, BAR):
        if start.opp[point] == 1:
            any_blot = True
            break
    if not any_blot:
        return 0
    for a in range(1, 7):
        for b in range(1, a + 1):
            hits = run_turn(s, start, a, b, MODE_SHOTS)
            if hits < 0:
                return STATUS_NO_MEMORY
            if hits:
                total += 1 if a == b else 2
    return total


cdef int64_t perft(Search** searches, const Board* start, int depth, int a, int b) noexcept nogil:
    """Leaves of the play tree ``depth`` plies deep (searches: one per ply)
    over the 21 rolls, or (``a`` != 0) below the roll ``a``, ``b`` only;
    or a Status: STATUS_BOTH_WON somewhere in the tree, STATUS_NO_MEMORY."""
    cdef int winner, value
    cdef int64_t total = 0, below
    if depth == 0:
        return 1
    cdef int kind = outcome_of(start, searches[0].rules, &winner, &value)
    if kind == KIND_BOTH_WON:
        return STATUS_BOTH_WON
    if kind != KIND_NONE:
        return 1
    if a:
        return _perft_roll(searches, start, depth, a, b)
    for a in range(6, 0, -1):
        for b in range(a, 0, -1):
            below = _perft_roll(searches, start, depth, a, b)
            if below < 0:
                return below
            total += below
    return total


cdef int64_t _perft_roll(Search** searches, const Board* start, int depth, int a, int b) noexcept nogil:
    """perft below one roll of ``start`` (a game going on, ``depth`` >= 1):
    the sum over its plays, or 1 for a pass."""
    cdef Search* s = searches[0]
    cdef int n, k
    cdef int64_t total = 0, below
    cdef Board child
    if depth == 1:
        n = count_turn(s, start, a, b)
        if n < 0:
            return n
        return n if n else 1
    n = run_turn(s, start, a, b, MODE_PLAYS)
    if n < 0:
        return STATUS_NO_MEMORY
    if n == 0:
        return 1
    for k in range(n):
        memcpy(child.me, s.found.leaves[k].board.opp, PLACES)
        memcpy(child.opp, s.found.leaves[k].board.me, PLACES)
        below = perft(searches + 1, &child, depth - 1, 0, 0)
        if below < 0:
            return below
        total += below
    return total
