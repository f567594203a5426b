# cython: language_level=3
"""Cubeful match winning chances of many positions, each in its own cube
state, by GNU Backgammon's generalisation of Janowski's interpolation.

What ``bansugoroku_fast.cube.states.MatchCube.values`` computes (the
module says how; the oracle's ``cube.match_value`` is its plain twin, and
the tests hold the two together), one row at a time in C: an analysis
converts every play of every roll of every move, about a hundred thousand
rows at a different score or cube almost each time, and numpy's passes
over those rows cost twenty times the arithmetic. Also each position's
kind for the cube (``bansugoroku_fast.cube.kinds`` says what each is).

The states come as arrays (``bansugoroku_fast.cube.states._MatchStates``):
per state S, whether its cube is live, its gammon values, the cube's
owner, and per cube level L (its cube first, then each double both sides
can still use) both sides' results, whether that level's double is dead,
and the results at the dead double's ``cube_prime``.
"""
cimport cython

cdef enum:
    CENTRED = 0
    OWNED = 1
    THEIRS = 2


cdef inline double _mix(double gammon, double backgammon, double single_value, double gammon_value,
                        double backgammon_value) noexcept nogil:
    """The value of a game won (or lost) single, gammon or backgammon in these shares."""
    return (1 - gammon - backgammon) * single_value + gammon * gammon_value + backgammon * backgammon_value


cdef inline double _segment(double x, double x0, double y0, double x1, double y1) noexcept nogil:
    """The broken line's value on the segment from (x0, y0) to (x1, y1); a segment of no width gives y1."""
    if x1 <= x0:
        return y1
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


cdef struct States:
    # the arrays of bansugoroku_fast.cube.states._MatchStates, as pointers (C-contiguous)
    const unsigned char* cubeful     # [S]
    const double* gammon             # [S, 4]
    const long long* owner           # [S]
    const long long* levels          # [S]
    const double* level_results      # [S, L, 2, 10]
    const unsigned char* doubled_dead    # [S, L]
    const double* prime_results      # [S, L, 2, 10]
    long long depth                  # L


cdef States _states(const unsigned char[::1] cubeful, const double[:, ::1] gammon, const long long[::1] owner,
                    const long long[::1] levels, const double[:, :, :, ::1] level_results,
                    const unsigned char[:, ::1] doubled_dead, const double[:, :, :, ::1] prime_results):
    cdef States t
    t.cubeful, t.gammon, t.owner, t.levels = &cubeful[0], &gammon[0, 0], &owner[0], &levels[0]
    t.level_results, t.doubled_dead = &level_results[0, 0, 0, 0], &doubled_dead[0, 0]
    t.prime_results, t.depth = &prime_results[0, 0, 0, 0], level_results.shape[1]
    return t


@cython.cdivision(True)
cdef double _value(const double* p, double efficiency, long long s, const States* t) noexcept nogil:
    """The cubeful MWC of probabilities ``p`` in state ``s``."""
    cdef long long level, k
    cdef double win, lose, cubeless, dead, live, x, cash, their_cash, winning, losing
    cdef double rates[2][2]     # [side][gammon, backgammon]: shares of the games the side wins
    cdef double points[2]
    cdef double previous[2]
    cdef double take_lose, take_win
    cdef const double* g = t.gammon + 4 * s
    cdef const double* r = t.level_results + s * t.depth * 20
    cdef const double* prime
    win, lose = r[0], r[5]
    cubeless = 2 * p[0] - 1 + p[1] * g[0] - p[3] * g[1] + p[2] * g[2] - p[4] * g[3]
    dead = 0.5 * (cubeless * (win - lose) + (win + lose))
    if not t.cubeful[s]:
        return dead
    rates[0][0] = (p[1] - p[2]) / p[0] if p[0] > 0 else 0.0
    rates[0][1] = p[2] / p[0] if p[0] > 0 else 0.0
    rates[1][0] = (p[3] - p[4]) / (1 - p[0]) if 1 - p[0] > 0 else 0.0
    rates[1][1] = p[4] / (1 - p[0]) if 1 - p[0] > 0 else 0.0
    # the live cash points, walked down from the highest cube level to the state's cube
    previous[0] = previous[1] = 1.0
    for level in range(t.levels[s] - 1, -1, -1):
        for k in range(2):
            r = t.level_results + ((s * t.depth + level) * 2 + k) * 10
            cash = r[0]
            if t.doubled_dead[s * t.depth + level]:
                prime = t.prime_results + ((s * t.depth + level) * 2 + k) * 10
                take_lose = _mix(rates[1 - k][0], rates[1 - k][1], prime[6], prime[8], prime[9])
                take_win = _mix(rates[k][0], rates[k][1], prime[1], prime[3], prime[4])
                points[k] = (take_lose - cash) / (take_lose - take_win)
            else:
                take_win = _mix(rates[k][0], rates[k][1], r[1], r[3], r[4])
                points[k] = 1 - previous[1 - k] * (cash - take_win) / (r[6] - take_win)
        previous[0], previous[1] = points[0], points[1]
    r = t.level_results + s * t.depth * 20
    cash, their_cash = r[0], r[5]
    winning = _mix(rates[0][0], rates[0][1], r[0], r[1], r[2])
    losing = _mix(rates[1][0], rates[1][1], r[5], r[6], r[7])
    x = p[0]
    # the broken line through (0, losing), the cash points, (1, winning)
    if t.owner[s] == OWNED:
        live = (_segment(x, 0, losing, previous[0], cash) if x <= previous[0]
                else _segment(x, previous[0], cash, 1, winning))
    elif t.owner[s] == THEIRS:
        live = (_segment(x, 0, losing, 1 - previous[1], their_cash) if x <= 1 - previous[1]
                else _segment(x, 1 - previous[1], their_cash, 1, winning))
    elif x <= 1 - previous[1]:
        live = _segment(x, 0, losing, 1 - previous[1], their_cash)
    elif x <= previous[0]:
        live = _segment(x, 1 - previous[1], their_cash, previous[0], cash)
    else:
        live = _segment(x, previous[0], cash, 1, winning)
    return dead * (1 - efficiency) + live * efficiency


@cython.boundscheck(False)
@cython.wraparound(False)
def match_values(const double[:, ::1] p, const double[::1] efficiency, const long long[::1] which,
                 const unsigned char[::1] cubeful, const double[:, ::1] gammon, const long long[::1] owner,
                 const long long[::1] levels, const double[:, :, :, ::1] level_results,
                 const unsigned char[:, ::1] doubled_dead, const double[:, :, :, ::1] prime_results,
                 double[::1] out):
    """Write into ``out[i]`` the cubeful MWC of row ``i`` of probabilities
    ``p`` (``float64[N, 5]``) with cube efficiency ``efficiency[i]`` in
    state ``which[i]`` (the caller has checked every shape and index)."""
    cdef Py_ssize_t i, n = p.shape[0]
    cdef States t = _states(cubeful, gammon, owner, levels, level_results, doubled_dead, prime_results)
    with nogil:
        for i in range(n):
            out[i] = _value(&p[i, 0], efficiency[i], which[i], &t)


@cython.boundscheck(False)
@cython.wraparound(False)
def match_equities_after_play(const double[:, ::1] p, const double[::1] efficiency, const long long[::1] which,
                              const unsigned char[::1] cubeful, const double[:, ::1] gammon,
                              const long long[::1] owner, const long long[::1] levels,
                              const double[:, :, :, ::1] level_results, const unsigned char[:, ::1] doubled_dead,
                              const double[:, :, :, ::1] prime_results, const unsigned char[::1] may_double,
                              const double[::1] double_pass, const double[::1] at_0, const double[::1] at_1,
                              double[::1] out):
    """Write into ``out[i]`` the equity of a play for its mover, whose
    probabilities are row ``i`` of ``p``: the other side, on roll in state
    ``which[i]`` (of S; state ``S + which[i]`` is that state doubled, where
    ``may_double``), takes its best of playing on and doubling (then our
    best of taking and passing, ``double_pass`` its MWC for a pass); its
    MWC ``v`` is ours as ``at_0 + (at_1 - at_0) v``. ``efficiency``: the
    other side's cube efficiency."""
    cdef Py_ssize_t i, n = p.shape[0]
    cdef long long s
    cdef double theirs[5]
    cdef double no_double, take, best
    cdef States t = _states(cubeful, gammon, owner, levels, level_results, doubled_dead, prime_results)
    cdef long long count = may_double.shape[0]
    with nogil:
        for i in range(n):
            s = which[i]
            theirs[0] = 1 - p[i, 0]
            theirs[1], theirs[2], theirs[3], theirs[4] = p[i, 3], p[i, 4], p[i, 1], p[i, 2]
            best = no_double = _value(theirs, efficiency[i], s, &t)
            if may_double[s]:
                take = _value(theirs, efficiency[i], count + s, &t)
                if take >= no_double and double_pass[s] >= no_double:
                    best = take if take < double_pass[s] else double_pass[s]
            out[i] = at_0[s] + (at_1[s] - at_0[s]) * best


# --- the kind of a position (bansugoroku_fast.cube.kinds says what each is) ---------------

cdef enum:
    OVER = 0
    CONTACT = 1
    CRASHED = 2
    RACE = 3
    BEAROFF = 4
    CRASHED_STONES = 6
    BAR = 25

cdef inline int _rearmost(const signed char* row) noexcept nogil:
    """The point (1..25) of the row's rearmost stone, 0 for none."""
    cdef int point
    for point in range(BAR, 0, -1):
        if row[point] > 0:
            return point
    return 0


cdef inline bint _crashed(const signed char* row) noexcept nogil:
    """GNU Backgammon's test of a crashed side."""
    cdef int point, total = 0
    cdef int on_1 = row[1], on_2 = row[2]
    for point in range(1, BAR + 1):
        total += row[point]
    if total <= CRASHED_STONES:
        return True
    if on_1 > 1:
        return total <= CRASHED_STONES + on_1 or (on_2 > 1 and 1 + total - on_1 - on_2 <= CRASHED_STONES)
    return total <= CRASHED_STONES + on_2 - 1


@cython.boundscheck(False)
@cython.wraparound(False)
def kinds(const signed char[:, :, ::1] positions, int on_roll, signed char[::1] codes, int[::1] pips):
    """Write each position's kind code (``KINDS`` order) for the side on
    roll, row ``on_roll`` (0 or 1), into ``codes``, and that side's pip
    count into ``pips`` (a race's efficiency reads it)."""
    cdef Py_ssize_t i, n = positions.shape[0]
    cdef int ours, theirs, point, count
    cdef const signed char* mine
    cdef const signed char* other
    with nogil:
        for i in range(n):
            mine, other = &positions[i, on_roll, 0], &positions[i, 1 - on_roll, 0]
            ours, theirs = _rearmost(mine), _rearmost(other)
            if ours == 0 or theirs == 0:
                codes[i] = OVER
            elif ours + theirs > BAR:
                codes[i] = CRASHED if _crashed(mine) or _crashed(other) else CONTACT
            elif ours <= 6 and theirs <= 6:
                codes[i] = BEAROFF
            else:
                codes[i] = RACE
            count = 0
            for point in range(1, BAR + 1):
                count += point * mine[point]
            pips[i] = count
