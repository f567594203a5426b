# cython: language_level=3
"""Cubeful match winning chances of many positions, each in its own cube
state, by GNU Backgammon's generalisation of Janowski's interpolation.

The same arithmetic as ``bansugoroku_fast.cube.states.MatchCube.values``
(which is written for reading and which the tests hold this to), one row
at a time in C: an analysis converts every play of every roll of every
move, about a hundred thousand rows at a different score or cube almost
each time, and numpy's passes over those rows cost twenty times the
arithmetic.

The states come as arrays (``bansugoroku_fast.cube.states._MatchStates``):
per state S, whether its cube is live, its gammon values, the side on
roll's results at its cube, the cube's owner, and per cube level L (its
cube first, then each double both sides can still use) both sides'
results, whether that level's double is dead, and the results at the dead
double's ``cube_prime``.
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


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
def match_values(const double[:, ::1] p, const double[::1] efficiency, const long long[::1] which,
                 const unsigned char[::1] cubeful, const double[:, ::1] gammon, const long long[::1] owner,
                 const long long[::1] levels, const double[:, :, :, ::1] level_results,
                 const unsigned char[:, ::1] doubled_dead, const double[:, :, :, ::1] prime_results,
                 double[::1] out):
    """Write into ``out[i]`` the cubeful MWC of row ``i`` of probabilities
    ``p`` (``float64[N, 5]``) with cube efficiency ``efficiency[i]`` in
    state ``which[i]`` (the caller has checked every shape and index)."""
    cdef Py_ssize_t i, n = p.shape[0]
    cdef long long s, level, k
    cdef double win, lose, cubeless, dead, live, x, cash, their_cash, winning, losing
    cdef double rates[2][2]     # [side][gammon, backgammon]: shares of the games the side wins
    cdef double points[2]
    cdef double previous[2]
    cdef double take_lose, take_win
    cdef const double* r
    cdef const double* prime
    with nogil:
        for i in range(n):
            s = which[i]
            r = &level_results[s, 0, 0, 0]
            win, lose = r[0], r[5]
            cubeless = (2 * p[i, 0] - 1 + p[i, 1] * gammon[s, 0] - p[i, 3] * gammon[s, 1] + p[i, 2] * gammon[s, 2]
                        - p[i, 4] * gammon[s, 3])
            dead = 0.5 * (cubeless * (win - lose) + (win + lose))
            if not cubeful[s]:
                out[i] = dead
                continue
            rates[0][0] = (p[i, 1] - p[i, 2]) / p[i, 0] if p[i, 0] > 0 else 0.0
            rates[0][1] = p[i, 2] / p[i, 0] if p[i, 0] > 0 else 0.0
            rates[1][0] = (p[i, 3] - p[i, 4]) / (1 - p[i, 0]) if 1 - p[i, 0] > 0 else 0.0
            rates[1][1] = p[i, 4] / (1 - p[i, 0]) if 1 - p[i, 0] > 0 else 0.0
            # the live cash points, walked down from the highest cube level to the state's cube
            previous[0] = previous[1] = 1.0
            for level in range(levels[s] - 1, -1, -1):
                for k in range(2):
                    r = &level_results[s, level, k, 0]
                    cash = r[0]
                    if doubled_dead[s, level]:
                        prime = &prime_results[s, level, k, 0]
                        take_lose = _mix(rates[1 - k][0], rates[1 - k][1], prime[6], prime[8], prime[9])
                        take_win = _mix(rates[k][0], rates[k][1], prime[1], prime[3], prime[4])
                        points[k] = (take_lose - cash) / (take_lose - take_win)
                    else:
                        take_win = _mix(rates[k][0], rates[k][1], r[1], r[3], r[4])
                        points[k] = 1 - previous[1 - k] * (cash - take_win) / (r[6] - take_win)
                previous[0], previous[1] = points[0], points[1]
            r = &level_results[s, 0, 0, 0]
            cash, their_cash = r[0], r[5]
            winning = _mix(rates[0][0], rates[0][1], r[0], r[1], r[2])
            losing = _mix(rates[1][0], rates[1][1], r[5], r[6], r[7])
            x = p[i, 0]
            # the broken line through (0, losing), the cash points, (1, winning)
            if owner[s] == OWNED:
                live = (_segment(x, 0, losing, previous[0], cash) if x <= previous[0]
                        else _segment(x, previous[0], cash, 1, winning))
            elif owner[s] == THEIRS:
                live = (_segment(x, 0, losing, 1 - previous[1], their_cash) if x <= 1 - previous[1]
                        else _segment(x, 1 - previous[1], their_cash, 1, winning))
            elif x <= 1 - previous[1]:
                live = _segment(x, 0, losing, 1 - previous[1], their_cash)
            elif x <= previous[0]:
                live = _segment(x, 1 - previous[1], their_cash, previous[0], cash)
            else:
                live = _segment(x, previous[0], cash, 1, winning)
            out[i] = dead * (1 - efficiency[i]) + live * efficiency[i]


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
