# cython: language_level=3
"""Exact endgame tables: one-sided distributions of turns, two-sided
winning chances (and, for backgammon, the two-sided money cubeful
equities in the cube's three states), and the batch race look-up.

A table position is one side's stones on six consecutive points, read as
``counts[0..5]`` (the table's points 1..6) with at most 15 stones:

* bear-off tables (backgammon, Ban-sugoroku's bear-off finish): the side's
  points 1..6, the other stones borne off;
* the arrival table (Ban-sugoroku's default finish): the side's points
  7..12, the other stones already home (on points 1..6), where they never
  matter (docs/endgames.md says why); the table plays them from point 1,
  where they cannot move.

Positions are numbered as GNU Backgammon numbers its bear-off positions:
the six counts are six bars among 15 + 6 slots, bar ``k`` (1..6) at slot
``b_k`` = (stones on the table's points 6, 5, .., 7 - k) + k - 1, and the
rank is sum C(b_k, k) (the combinatorial number system). Two facts follow
that the builders use: a position with at most 6 stones has a rank below
C(12, 6) = 924 (the small tables are the first 924 rows), and every move
(a stone down, or off) lowers some ``b_k`` and raises none, so a child has
a smaller rank than its parent: increasing rank is a valid build order.

The plays are the kernels' own: each (position, roll) is searched by
``run_turn`` of ``_search`` on a full board (the other side far away), so
the tables follow exactly the rules of move generation.

The arithmetic is fixed so that the plain-Python builder of the oracle
(``bansugoroku_fast/oracle/endgames.py``) gets the same float64 bits: the
21 rolls in the order (1,1), (1,2), .., (1,6), (2,2), .., (6,6), weight
1/36 or 2/36, each contribution multiplied then added (the build has no
fused multiply-add); of a roll's plays the one of least mean is chosen,
ties to the smaller rank.
"""
cimport cython
from libc.math cimport INFINITY, NAN, fabs
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from ._board cimport Board, RuleSet, row_gt, rules_from_code
from ._search cimport MODE_PLAYS, Search, found_board, run_turn, search_free, search_new

STATUS_NO_MEMORY = NO_MEMORY
STATUS_NO_PLAY = NO_PLAY
STATUS_TOO_LONG = TOO_LONG
RACE_TWO_SIDED = TWO_SIDED
RACE_ONE_SIDED = ONE_SIDED
RACE_NOT_IN_TABLE = NOT_IN_TABLE
RACE_OVER = OVER
POSITION_COUNT = POSITIONS
SMALL_POSITION_COUNT = SMALL_POSITIONS

cdef int64_t BINOMIAL[MOST_STONES + POINTS + 1][POINTS + 1]


cdef void _init_binomial() noexcept nogil:
    cdef int n, k
    for n in range(MOST_STONES + POINTS + 1):
        BINOMIAL[n][0] = 1
        for k in range(1, POINTS + 1):
            BINOMIAL[n][k] = 0 if n == 0 else BINOMIAL[n - 1][k - 1] + BINOMIAL[n - 1][k]


_init_binomial()


cdef inline int32_t rank_of(const signed char* counts) noexcept nogil:
    """The rank of six counts (``counts[i]``: the table's point i + 1)."""
    cdef int64_t rank = 0
    cdef int k, cumulative = 0
    for k in range(1, POINTS + 1):
        cumulative += counts[POINTS - k]
        rank += BINOMIAL[cumulative + k - 1][k]
    return <int32_t> rank


cdef void unrank(int64_t rank, signed char* counts) noexcept nogil:
    """The six counts of ``rank`` (the inverse of ``rank_of``)."""
    cdef int k, slot, cumulative
    slot = MOST_STONES + POINTS - 1
    for k in range(POINTS, 0, -1):
        while BINOMIAL[slot][k] > rank:
            slot -= 1
        rank -= BINOMIAL[slot][k]
        # bar k stands at ``slot``: stones on the table's points 6 .. 7 - k
        counts[POINTS - k] = <signed char> (slot - (k - 1))
        slot -= 1
    # counts[POINTS - k] holds the cumulative count of bar k; make it per point
    for k in range(POINTS):
        cumulative = counts[k]
        counts[k] = <signed char> (cumulative - (counts[k + 1] if k + 1 < POINTS else 0))


cdef inline int base_point(bint bears_off) noexcept nogil:
    """The side's point that is the table's point 1."""
    return 1 if bears_off else 7


cdef void table_board(Board* board, const signed char* counts, bint bears_off) noexcept nogil:
    """The full board of a table position: the other stones off (bear-off)
    or on point 1 (arrival, where they cannot move), the opponent's 15 on
    its point 7, out of reach."""
    cdef int i, stones = 0, base = base_point(bears_off)
    memset(board, 0, sizeof(Board))
    for i in range(POINTS):
        board.me[base + i] = counts[i]
        stones += counts[i]
    if bears_off:
        board.me[0] = <signed char> (MOST_STONES - stones)
    else:
        board.me[1] = <signed char> (MOST_STONES - stones)
    board.opp[7] = MOST_STONES


cdef inline int32_t child_rank(const Board* child, bint bears_off, int* stones) noexcept nogil:
    cdef int base = base_point(bears_off), i
    stones[0] = 0
    for i in range(POINTS):
        stones[0] += child.me[base + i]
    return rank_of(&child.me[base])


cdef inline int stone_count(const signed char* counts) noexcept nogil:
    return counts[0] + counts[1] + counts[2] + counts[3] + counts[4] + counts[5]


cdef inline double roll_weight(int a, int b) noexcept nogil:
    return 1.0 / 36.0 if a == b else 2.0 / 36.0


def rank(const signed char[::1] counts):
    """The rank of six counts (checked by the caller)."""
    return rank_of(&counts[0])


def counts_of_rank(int64_t position_rank):
    """The six counts of a rank below POSITION_COUNT (checked by the caller)."""
    cdef signed char counts[POINTS]
    unrank(position_rank, counts)
    return [counts[i] for i in range(POINTS)]


def ranks_of(const signed char[:, ::1] counts, int32_t[::1] out):
    """``out[i]`` = the rank of row ``i`` of ``counts`` (``int8[N, 6]``, checked by the caller)."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(counts.shape[0]):
            out[i] = rank_of(&counts[i, 0])


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int _accumulate(double* row, const double* child, int turns, double weight) noexcept nogil:
    cdef int t
    for t in range(turns - 1):
        row[t + 1] += weight * child[t]
    return 0


cdef unsigned char _tied(Search* s, int count, int32_t best, double best_mean, double[:, ::1] finish,
                         double[::1] finish_mean, bint bears_off, double tie_turns) noexcept nogil:
    """Whether a play of the last search other than ``best`` has a mean
    within ``tie_turns`` of ``best_mean`` and a different distribution."""
    cdef int k, t, stones
    cdef int32_t c
    for k in range(count):
        c = child_rank(found_board(s, k), bears_off, &stones)
        if c != best and finish_mean[c] - best_mean <= tie_turns:
            for t in range(finish.shape[1]):
                if fabs(finish[c, t] - finish[best, t]) > 1e-12:
                    return 1
    return 0


def build_one_sided(int rule_code, double[:, ::1] finish, double[::1] finish_mean,
                    double[:, ::1] first, double[::1] first_mean, unsigned char[::1] ties, double tie_turns=1e-9,
                    object progress=None):
    """Fill the one-sided tables of a rule set, every one of POSITION_COUNT rows.

    ``finish[r, t]``: the probability that position ``r`` finishes (bears
    off its last stone, or brings its last stone home) in exactly ``t``
    turns, playing each roll to least expected turns; ``finish_mean[r]``
    its mean. ``first`` / ``first_mean`` (bear-off only, else empty): the
    same for the turns until one of its stones is borne off, played to
    least expected turns of that. ``ties[r]`` = 1 where the finishing
    distribution of ``r`` is one of several optimal ones: some roll, at
    ``r`` or at a play chosen below it, has two plays of equal least mean
    (within ``tie_turns``) whose distributions differ, so that another
    program may rightly give another distribution with the same mean.
    ``progress(rows_done)`` is called now and then (with the GIL). Returns the longest distribution's length, or a
    STATUS_* < 0.
    """
    cdef RuleSet rules = rules_from_code(rule_code)
    cdef bint bears_off = rules.bears_off, with_first = first.shape[0] > 0
    cdef int turns = <int> finish.shape[1]
    cdef Search* s = search_new(rules, True)
    cdef signed char counts[POINTS]
    cdef Board board
    cdef int a, b, k, count, stones, child_stones, longest = 1, t, status = 0
    cdef int64_t r, chunk_end
    cdef int32_t c, best, best_first, key
    cdef double weight, m, best_mean, best_first_mean, mean_sum, first_sum
    if s == NULL:
        return NO_MEMORY
    finish[:, :] = 0.0
    finish[0, 0] = 1.0
    finish_mean[0] = 0.0
    ties[:] = 0
    if with_first:
        first[:, :] = 0.0
        first[0, 0] = 1.0
        first_mean[0] = 0.0
    r = 1
    try:
        while r < POSITIONS and status == 0:
            chunk_end = min(r + 2048, <int64_t> POSITIONS)
            with nogil:
                while r < chunk_end:
                    unrank(r, counts)
                    stones = stone_count(counts)
                    table_board(&board, counts, bears_off)
                    mean_sum = first_sum = 0.0
                    for a in range(1, 7):
                        for b in range(a, 7):
                            weight = roll_weight(a, b)
                            count = run_turn(s, &board, a, b, MODE_PLAYS)
                            if count < 0:
                                status = NO_MEMORY
                                break
                            if count == 0:
                                status = NO_PLAY
                                break
                            best = best_first = -2
                            best_mean = best_first_mean = INFINITY
                            for k in range(count):
                                c = child_rank(found_board(s, k), bears_off, &child_stones)
                                m = finish_mean[c]
                                if m < best_mean or (m == best_mean and c < best):
                                    best, best_mean = c, m
                                if with_first:
                                    # a child with fewer stones has borne one off: done (key -1)
                                    key = -1 if child_stones < stones else c
                                    m = 0.0 if key < 0 else first_mean[c]
                                    if m < best_first_mean or (m == best_first_mean and key < best_first):
                                        best_first, best_first_mean = key, m
                            ties[r] |= ties[best] | _tied(s, count, best, best_mean, finish, finish_mean,
                                                          bears_off, tie_turns)
                            _accumulate(&finish[r, 0], &finish[best, 0], turns, weight)
                            mean_sum += weight * best_mean
                            if with_first:
                                if best_first < 0:
                                    first[r, 1] += weight
                                else:
                                    _accumulate(&first[r, 0], &first[best_first, 0], turns, weight)
                                first_sum += weight * best_first_mean
                        if status != 0:
                            break
                    if status != 0:
                        break
                    finish_mean[r] = 1.0 + mean_sum
                    if with_first:
                        first_mean[r] = 1.0 + first_sum
                    for t in range(turns - 1, -1, -1):
                        if finish[r, t] != 0.0:
                            if t + 1 > longest:
                                longest = t + 1
                            break
                    r += 1
            if progress is not None:
                progress(int(r))
    finally:
        search_free(s)
    if status != 0:
        return status
    if longest >= turns:
        return TOO_LONG
    return longest


cdef int64_t _children(int rule_code, int64_t positions, int32_t* offsets, int32_t* children,
                       int64_t room) noexcept nogil:
    """The distinct children of each position of rank below ``positions``
    and roll (none for rank 0, finished): those of (r, roll j) are
    ``children[offsets[21 r + j] .. offsets[21 r + j + 1]]``. Returns how many (more than ``room``: none
    past it written), or a STATUS_* < 0."""
    cdef RuleSet rules = rules_from_code(rule_code)
    cdef Search* s = search_new(rules, True)
    cdef signed char counts[POINTS]
    cdef Board board
    cdef int a, b, k, count, j, stones
    cdef int64_t r, n = 0
    if s == NULL:
        return NO_MEMORY
    offsets[0] = 0
    for r in range(positions):
        unrank(r, counts)
        table_board(&board, counts, rules.bears_off)
        j = 0
        for a in range(1, 7):
            for b in range(a, 7):
                count = 0 if r == 0 else run_turn(s, &board, a, b, MODE_PLAYS)
                if count < 0:
                    search_free(s)
                    return NO_MEMORY
                for k in range(count):
                    if n < room:
                        children[n] = child_rank(found_board(s, k), rules.bears_off, &stones)
                    n += 1
                offsets[21 * r + j + 1] = <int32_t> n
                j += 1
    search_free(s)
    return n


def children(int rule_code, int64_t positions):
    """``(offsets, children)`` as bytes of int32 (see _children) for the
    ranks below ``positions`` (at most POSITION_COUNT), or a STATUS_* int."""
    cdef int64_t n
    cdef int32_t* offsets = <int32_t*> malloc((positions * ROLLS + 1) * sizeof(int32_t))
    cdef int32_t* found = NULL
    if offsets == NULL:
        return NO_MEMORY
    try:
        with nogil:
            n = _children(rule_code, positions, offsets, NULL, 0)
        if n < 0:
            return int(n)
        found = <int32_t*> malloc(max(n, 1) * sizeof(int32_t))
        if found == NULL:
            return NO_MEMORY
        with nogil:
            n = _children(rule_code, positions, offsets, found, n)
        return ((<char*> offsets)[:(positions * ROLLS + 1) * sizeof(int32_t)],
                (<char*> found)[:n * sizeof(int32_t)])
    finally:
        free(offsets)
        free(found)


cdef inline double _cube_equity(double no_double, double double_take) noexcept nogil:
    """The money value (per cube of 1) of a side on roll that may double,
    from its no-double value and its value once doubled and taken (twice
    the doubled state's, already doubled here); a pass wins 1. It doubles
    when doubling is no worse (double/take and double/pass both at least
    no double), and the other side then takes or passes, whichever costs it
    less (GNU Backgammon's rule; at a tie the value is the same)."""
    if double_take >= no_double and 1.0 >= no_double:
        return double_take if double_take < 1.0 else 1.0
    return no_double


@cython.boundscheck(False)
@cython.wraparound(False)
def build_two_sided(const int32_t[::1] offsets, const int32_t[::1] children, double[:, ::1] win,
                    double[:, :, ::1] cubeful):
    """``win[a, b]``: the exact probability that the side to roll with
    small position ``a`` wins against ``b``, both sides playing to win
    (``a`` = 0: it has already won, 1; ``b`` = 0: it has lost, 0). Pairs
    are filled by increasing ``a + b``: a child ``c`` of ``a`` has
    ``c < a``, so ``win[b, c]`` is known when ``win[a, b]`` needs it.

    ``cubeful`` (``[0, 0, 3]``: not built): ``cubeful[a, b, s]``, the exact
    money equity (per cube of 1, no gammons: 9 stones are off) of the side
    to roll with ``a`` when it rolls without doubling, with the cube
    centred (``s`` = 0), its own (1) or the other side's (2), both sides
    playing and handling the cube perfectly from then on; each state
    chooses its own play of each roll. After a play to ``c`` the other
    side, on roll at ``(b, c)``, sees the cube centred (it may double: its
    double makes the cube ours, its state 2), ours (its state 2: it may not
    double) or its own (its state 1: it may redouble). A side that has
    finished has won 1 in every state."""
    cdef int n = SMALL_POSITIONS, total, a, b, j, ra, rb, s
    cdef bint with_cube = cubeful.shape[0] > 0
    cdef int32_t k, c
    cdef double acc, best, value, weight, their_take
    cdef double best_state[3]
    cdef double acc_state[3]
    cdef double value_state[3]
    cdef const double* theirs
    with nogil:
        for total in range(2 * n - 1):
            for a in range(max(0, total - n + 1), min(total, n - 1) + 1):
                b = total - a
                if a == 0 or b == 0:
                    win[a, b] = 1.0 if a == 0 else 0.0
                    if with_cube:
                        for s in range(3):
                            cubeful[a, b, s] = 1.0 if a == 0 else -1.0
                    continue
                acc = 0.0
                acc_state[0] = acc_state[1] = acc_state[2] = 0.0
                j = 0
                for ra in range(1, 7):
                    for rb in range(ra, 7):
                        best = -1.0
                        best_state[0] = best_state[1] = best_state[2] = -INFINITY
                        for k in range(offsets[21 * a + j], offsets[21 * a + j + 1]):
                            c = children[k]
                            value = 1.0 if c == 0 else 1.0 - win[b, c]
                            if value > best:
                                best = value
                            if with_cube:
                                if c == 0:
                                    value_state[0] = value_state[1] = value_state[2] = 1.0
                                else:
                                    theirs = &cubeful[b, c, 0]
                                    their_take = 2.0 * theirs[2]
                                    value_state[0] = -_cube_equity(theirs[0], their_take)
                                    value_state[1] = -theirs[2]
                                    value_state[2] = -_cube_equity(theirs[1], their_take)
                                for s in range(3):
                                    if value_state[s] > best_state[s]:
                                        best_state[s] = value_state[s]
                        weight = roll_weight(ra, rb)
                        acc += weight * best
                        if with_cube:
                            for s in range(3):
                                acc_state[s] += weight * best_state[s]
                        j += 1
                win[a, b] = acc
                if with_cube:
                    for s in range(3):
                        cubeful[a, b, s] = acc_state[s]


# --- the race look-up ----------------------------------------------------------


cdef int32_t row_rank(const signed char* row, bint bears_off) noexcept nogil:
    """The table rank of one row (interchange layout), NOT_IN_TABLE if a
    stone stands outside the table's points (or, under arrival, off the
    board or beyond point 12), OVER if the row has finished. One SSE2
    comparison gives the row's occupied places (``row_gt``)."""
    cdef int base = base_point(bears_off)
    cdef unsigned int table_points = 0x3Fu << base
    # bear-off: off (place 0) and points 1..6; arrival: points 1..6 (home) and 7..12
    cdef unsigned int allowed = 0x7Fu if bears_off else 0x1FFEu
    cdef unsigned int occupied = row_gt(row, 0)
    if occupied & ~allowed:
        return NOT_IN_TABLE
    if occupied & table_points == 0:
        return OVER
    return rank_of(&row[base])


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int race_figures(const RaceTables* tables, const signed char* mover, const signed char* other,
                      double* out) noexcept nogil:
    """Race figures of a position (``mover`` to roll, ``other``: the two
    rows, interchange layout): ``out[0..4]`` = (win, win_gammon,
    lose_gammon, expected turns of the mover, of the other); returns
    TWO_SIDED, ONE_SIDED, or NOT_IN_TABLE / OVER (``out`` untouched).

    Two-sided where both rows have at most 6 stones (no gammon is possible
    there: 9 stones are off) and ``tables.win`` is given; else the
    one-sided convolution: the mover wins if it finishes no later than the
    other (it rolls first); it wins a gammon if the other (all 15 on the
    board) has taken no stone off by then, and loses one if the other
    finishes before it has taken one off.
    """
    cdef int32_t r0 = row_rank(mover, tables.bears_off), r1 = row_rank(other, tables.bears_off)
    cdef int turns = tables.turns, t
    cdef const double* d0
    cdef const double* d1
    cdef const double* f0
    cdef const double* f1
    cdef double win = 0.0, win_gammon = 0.0, lose_gammon = 0.0, tail1 = 0.0, tail_first1 = 0.0
    cdef double tail_first0 = 0.0
    cdef bint gammon0, gammon1
    if r0 < 0 or r1 < 0:
        return OVER if (r0 == OVER or r1 == OVER) else NOT_IN_TABLE
    out[3] = tables.finish_mean[r0]
    out[4] = tables.finish_mean[r1]
    if tables.win != NULL and r0 < SMALL_POSITIONS and r1 < SMALL_POSITIONS:
        out[0] = tables.win[r0 * SMALL_POSITIONS + r1]
        out[1] = out[2] = 0.0
        return TWO_SIDED
    d0 = tables.finish + <Py_ssize_t> r0 * turns
    d1 = tables.finish + <Py_ssize_t> r1 * turns
    f0 = tables.first + <Py_ssize_t> r0 * turns if tables.first != NULL else NULL
    f1 = tables.first + <Py_ssize_t> r1 * turns if tables.first != NULL else NULL
    gammon0 = f0 != NULL and stone_count(&mover[1]) == MOST_STONES
    gammon1 = f1 != NULL and stone_count(&other[1]) == MOST_STONES
    # Tail sums (never below 0, unlike 1 - a sum), last turn first:
    # win = sum_t P0(t) P(T1 >= t); win_gammon = sum_t P0(t) P(F1 >= t);
    # lose_gammon = sum_t P1(t) P(F0 > t)
    for t in range(turns - 1, 0, -1):
        tail1 += d1[t]
        win += d0[t] * tail1
        if gammon1:
            tail_first1 += f1[t]
            win_gammon += d0[t] * tail_first1
        if gammon0:
            lose_gammon += d1[t] * tail_first0
            tail_first0 += f0[t]
    out[0] = win
    out[1] = win_gammon
    out[2] = lose_gammon
    return ONE_SIDED


@cython.boundscheck(False)
@cython.wraparound(False)
def race_lookup(const signed char[:, :, ::1] positions, bint bears_off, bint gammons,
                const double[:, ::1] finish, const double[::1] finish_mean,
                const double[:, ::1] first, const double[:, ::1] win_table,
                double[:, ::1] out, int32_t[::1] status):
    """``race_figures`` of each position (row 0 to roll; valid positions,
    checked by the caller): ``out[i]`` = its five figures, ``status[i]`` =
    RACE_TWO_SIDED, RACE_ONE_SIDED, or a RACE_* < 0 (``out[i]`` then NaN).
    ``first`` empty or ``gammons`` False: no gammons; ``win_table`` empty:
    one-sided only."""
    cdef RaceTables tables
    cdef Py_ssize_t i
    tables.finish = &finish[0, 0]
    tables.finish_mean = &finish_mean[0]
    tables.first = &first[0, 0] if (gammons and first.shape[0] > 0) else NULL
    tables.win = &win_table[0, 0] if win_table.shape[0] > 0 else NULL
    tables.turns = <int> finish.shape[1]
    tables.bears_off = bears_off
    with nogil:
        for i in range(positions.shape[0]):
            status[i] = race_figures(&tables, &positions[i, 0, 0], &positions[i, 1, 0], &out[i, 0])
            if status[i] < 0:
                out[i, 0] = out[i, 1] = out[i, 2] = out[i, 3] = out[i, 4] = NAN
