# cython: language_level=3
"""Closed-form counts of common rolls (see ``_shortcuts.pyx``).

The two-move count is inline here, whole, so that every module that counts
(the batch item loop, the search's ``count_turn``) compiles it in: it costs
a few dozen instructions, less than a call into another module would let
the compiler save around it; so is the count by keys, for the search.
"""
from libc.stdint cimport uint32_t, uint64_t

from ._board cimport (
    BAR, Board, CLOSURE_IMMEDIATE, HOME_POINTS, HOME_TOP, OFF, OUTSIDE_PLACES, RuleSet, Scan, highest_bit,
    popcount_places, scan_masks, two_or_more_outside,
)
from ._search cimport MAX_PLAY_KEYS, MODE_COUNT, Search, clear_slots, run_turn_scanned

cdef void count_last_two(Search* s, uint32_t occupied, uint32_t multi, int die,
                         int highest) noexcept nogil
cdef void count_last_three(Search* s, uint32_t origins, int die) noexcept nogil
cdef void count_last_four(Search* s, uint32_t origins, int die) noexcept nogil


# --- a backgammon double's play drawn without listing the others -------------------

# A backgammon double's start after its forced entering moves, ``moves``
# left to play with ``die`` (reach: open_points << die), for double_play.
cdef struct DoubleWalk:
    Board board
    uint32_t reach
    int die
    int moves

cdef int double_count(const Board* start, const Scan* scan, int die, DoubleWalk* walk) noexcept nogil
cdef void double_play(const DoubleWalk* walk, int k, Board* out) noexcept nogil


# --- counting without a search -------------------------------------------------


cdef inline int home_missing(const Scan* scan) noexcept nogil:
    """Stones the mover lacks for two on each of its points 1..6: a point
    lacks two, less one if it holds a stone, less one more if it holds two."""
    return (2 * HOME_TOP - popcount_places(scan.me_any & HOME_POINTS)
            - popcount_places(scan.me_multi & HOME_POINTS))


cdef inline bint closure_out_of_reach(const Board* board, const Scan* scan, RuleSet rules) noexcept nogil:
    """Whether no immediate closure can form before the second move of a
    two-move turn: an entering stone never lands in the home; any other
    first move fills at most one missing stone."""
    return rules.closure != CLOSURE_IMMEDIATE or home_missing(scan) >= (1 if board.me[BAR] else 2)


cdef inline bint two_moves_decided(const Board* board, const Scan* scan, RuleSet rules) noexcept nogil:
    """Whether no bear-off and no win can come before the second move of a
    two-move turn, the case that count_plain, count_entering and the
    two-move walk of ``_search`` take."""
    return closure_out_of_reach(board, scan, rules) and (board.me[BAR] or two_or_more_outside(scan))


cdef inline int count_two_moves(const Board* board, const Scan* scan, RuleSet rules, int a, int b) noexcept nogil:
    """Distinct plays of a two-move turn (dice a > b, or a double a == b
    giving two moves) of ``board`` (scanned as ``scan``) without a search,
    or -1 where only a search will do: when a bear-off or a win could
    happen before the second move, except the arrival of the last stone
    (count_last_stone)."""
    cdef uint32_t occupied, open_points, multi, blots, outside
    if not closure_out_of_reach(board, scan, rules):
        return -1
    scan_masks(scan, &occupied, &open_points, &multi, &blots)
    if board.me[BAR]:
        return count_entering(board, occupied, open_points, blots, a, b)
    if two_or_more_outside(scan):
        return count_plain(occupied, open_points, multi, blots, a, b)
    outside = scan.me_any & OUTSIDE_PLACES
    if rules.win_stops and not rules.bears_off and outside:
        return count_last_stone(occupied, open_points, multi, blots, outside, a, b)
    return -1


cdef inline int count_scanned(Search* s, RuleSet rules, bint fast_counts, const Board* start, const Scan* scan,
                              int a, int b) noexcept nogil:
    """Distinct plays of ``start`` (a game going on; scanned as ``scan``)
    with dice ``a``, ``b``: from count_two_moves where it applies (and
    ``fast_counts``), else by the search of ``_search``; STATUS_NO_MEMORY
    if out of memory. ``rules`` and ``fast_counts`` are ``s``'s, passed
    apart so that a caller can pass them as constants."""
    cdef int n
    if a < b:
        a, b = b, a
    if fast_counts and (a != b or rules.doubles_moves == 2):
        n = count_two_moves(start, scan, rules, a, b)
        if n >= 0:
            return n
    return run_turn_scanned(s, start, scan, a, b, MODE_COUNT)


cdef inline int count_entering(const Board* board, uint32_t occupied, uint32_t open_points, uint32_t blots,
                               int a, int b) noexcept nogil:
    """count_two_moves with stones on the bar: every sequence starts by
    entering, at 25 - die; after entering with one die the other die moves
    any stone (the entered one too), so no bear-off can follow."""
    cdef int entry_a = BAR - a, entry_b = BAR - b, plays = 0
    cdef bint open_a = (open_points >> entry_a) & 1, open_b = (open_points >> entry_b) & 1
    if a == b:
        if not open_a:
            return 0
        if board.me[BAR] >= 2:
            return 1
        plays = popcount_places((occupied | ((<uint32_t> 1) << entry_a)) & (open_points << a))
        return plays if plays else 1
    if board.me[BAR] >= 2:      # both dice enter (same position in either order), or one
        return 1 if open_a or open_b else 0
    if open_a:
        plays += popcount_places((occupied | ((<uint32_t> 1) << entry_a)) & (open_points << b))
    if open_b:
        plays += popcount_places((occupied | ((<uint32_t> 1) << entry_b)) & (open_points << a))
    # The entered stone moving on with the other die reaches 25 - a - b by
    # both routes: one play unless an intermediate point holds a blot.
    if (open_a and open_b and (open_points >> (BAR - a - b)) & 1
            and not (blots >> entry_a) & 1 and not (blots >> entry_b) & 1):
        plays -= 1
    if plays:
        return plays
    return 1 if open_a or open_b else 0


cdef inline int count_plain(uint32_t occupied, uint32_t open_points, uint32_t multi, uint32_t blots,
                            int a, int b) noexcept nogil:
    """count_two_moves with no stone on the bar and at least two outside
    home (so neither move can bear off or win).

    Each two-move play is a multiset {(p, a), (q, b)} of single moves
    (origin, die), realisable in some order; distinct multisets reach distinct
    positions, except that one stone moving a + b through an intermediate
    point that hits nothing reaches the same position by either route.
    """
    cdef uint32_t reach_a, reach_b, from_a, from_b, chain_a, chain_b, merged
    cdef int na, nb, pairs
    reach_a = open_points << a          # bit p: p - a is a point the mover may land on
    from_a = occupied & reach_a         # origins of legal single moves with a
    na = popcount_places(from_a)
    if a == b:
        pairs = double_pairs(from_a, occupied, multi, reach_a, a)
        return pairs if pairs else na
    # Chains through an empty intermediate point (through an occupied one,
    # the pair of origins is already counted).
    reach_b = open_points << b
    from_b = occupied & reach_b
    nb = popcount_places(from_b)
    chain_a = from_a & ((reach_b & ~occupied) << a)
    chain_b = from_b & ((reach_a & ~occupied) << b)
    merged = (occupied & reach_a & reach_b & (reach_b << a) & (reach_a << b)
              & ~(blots << a) & ~(blots << b))
    pairs = (na * nb - popcount_places(from_a & from_b & ~multi)
             + popcount_places(chain_a) + popcount_places(chain_b) - popcount_places(merged))
    if pairs:
        return pairs
    return na if na else nb     # one die only: the larger (a) when it plays


cdef inline int count_last_stone(uint32_t occupied, uint32_t open_points, uint32_t multi, uint32_t blots,
                                 uint32_t last, int a, int b) noexcept nogil:
    """count_plain for the mover's last stone outside home, on the point of
    the one-bit mask ``last`` (no stone on the bar), when its arrival wins
    and stops the play (the arrival finish, docs/rules.md §2.8).

    A move of that stone landing home is then a play of one move, which
    counts as using both dice, and the stone cannot go on from there: of
    its two-move routes, one through an empty home point is gone (one
    through an occupied one is the pair of origins, played in the order
    that moves the home stone first). Every other pair plays as in
    count_plain, the home stone first where the last stone's move wins.

    A copy of count_plain with those terms on purpose: one function for
    both, called with ``last`` 0 for count_plain, made GCC inline less of
    the batch count (200 -> 229 instructions an item in callgrind).
    """
    cdef uint32_t reach_a = open_points << a, from_a = occupied & reach_a
    cdef uint32_t lands_a = last & ((<uint32_t> 1 << (HOME_TOP + 1 + a)) - 1)    # it lands home with a
    cdef uint32_t reach_b, from_b, lands_b, chain_a, chain_b, merged
    cdef int na = popcount_places(from_a), nb, plays
    if a == b:
        plays = (na * (na - 1) // 2 + popcount_places(from_a & multi)
                 + popcount_places(from_a & ((reach_a & ~occupied) << a) & ~lands_a)
                 + ((from_a & lands_a) != 0))
        return plays if plays else na
    reach_b = open_points << b
    from_b = occupied & reach_b
    nb = popcount_places(from_b)
    lands_b = last & ((<uint32_t> 1 << (HOME_TOP + 1 + b)) - 1)
    chain_a = from_a & ((reach_b & ~occupied) << a) & ~lands_a
    chain_b = from_b & ((reach_a & ~occupied) << b) & ~lands_b
    # Both routes of one stone moving a + b, unless one is gone.
    merged = (occupied & reach_a & reach_b & (reach_b << a) & (reach_a << b)
              & ~(blots << a) & ~(blots << b)
              & ~(lands_a & ~(occupied << a)) & ~(lands_b & ~(occupied << b)))
    plays = (na * nb - popcount_places(from_a & from_b & ~multi)
             + popcount_places(chain_a) + popcount_places(chain_b) - popcount_places(merged)
             + ((from_a & lands_a) != 0) + ((from_b & lands_b) != 0))
    if plays:
        return plays
    return na if na else nb     # one die only, no arrival: the larger (a) when it plays


cdef inline int double_pairs(uint32_t origins, uint32_t occupied, uint32_t multi,
                             uint32_t reach, int die) noexcept nogil:
    """Distinct two-move plays of a double (no bar stone, no bear-off) whose
    first move is from one of ``origins``, the second from the same point or
    a lower one: two origins, two stones from one point (``multi``), or one
    stone on through an empty intermediate point (``reach``: open_points << die)."""
    cdef int n = popcount_places(origins)
    return (n * (n - 1) // 2 + popcount_places(origins & multi)
            + popcount_places(origins & ((reach & ~occupied) << die)))


cdef inline int triple_plays(uint32_t origins, uint32_t occupied, uint32_t multi, uint32_t three,
                             uint32_t reach, int die) noexcept nogil:
    """Distinct three-move plays of a double (no bar stone, no bear-off)
    whose first move is from one of ``origins``, the others from the same
    point or lower ones. A play is how many moves leave each point (the
    moves from a point come after those landing on it, origins going
    down), and distinct numbers give distinct positions: one move from
    each of three points holding a stone, or with one of them empty and
    reached by the stone from ``die`` above (``reach & ~occupied``), or
    two of them, a chain; two moves from a point of two (``multi``) and one
    from any other, or from the empty point below it; two from a single
    stone after the stone from ``die`` above lands on it; three from a
    point of three (``three``)."""
    cdef uint32_t empty_below = (reach & ~occupied) << die    # bit p: p - die empty and open
    cdef uint32_t doubled = origins & multi
    cdef int n = popcount_places(origins)
    return (n * (n - 1) * (n - 2) // 6
            + popcount_places(origins & empty_below) * (n - 1)
            + popcount_places(origins & empty_below & (empty_below << die))
            + popcount_places(doubled) * (n - 1)
            + popcount_places(doubled & empty_below)
            + popcount_places(origins & ~multi & (origins >> die))
            + popcount_places(origins & three))


# --- a non-double's last move counted by keys ----------------------------------
#
# Inline here, so that the search compiles it in (called from ``_search``).


cdef enum:
    NO_PLACE = 31       # an absent member of a _place_pair


cdef inline uint64_t _place_pair(int first, int second) noexcept nogil:
    """The multiset of places {first, second} (NO_PLACE: absent) as 10 bits."""
    if first > second:
        first, second = second, first
    return <uint64_t> first | (<uint64_t> second) << 5


cdef inline uint64_t _play_key(int origin1, int target1, int origin2, int target2, uint32_t hit_points) noexcept nogil:
    """Which position the two moves origin1 -> target1, origin2 -> target2
    (OFF: borne off) reach, hitting on ``hit_points``, from the position
    they start from: the places that gain a mover stone and those that
    lose one, a stone moved on through a place counted once (the moves go
    down, so only target1 == origin2 or target2 == origin1 can cancel),
    and the points hit. Equal keys, equal positions; different keys,
    different positions."""
    cdef int gain1 = target1, gain2 = target2, loss1 = origin1, loss2 = origin2
    if target1 == origin2:
        gain1 = loss2 = NO_PLACE
    elif target2 == origin1:
        gain2 = loss1 = NO_PLACE
    return _place_pair(gain1, gain2) | _place_pair(loss1, loss2) << 10 | (<uint64_t> hit_points) << 20


cdef inline void count_by_keys(Search* s, uint32_t origins, int die) noexcept nogil:
    """The last move of a non-double counted by keys (``s.count_keys``):
    the plays of the first move made and a last move from each of
    ``origins``, added by their keys (_play_key), each distinct one once,
    without making the last move."""
    cdef int origin, target, k
    cdef uint32_t hit_points
    cdef uint64_t key
    if s.ndice > s.best_used:      # the first play using both dice (see _record)
        clear_slots(s)
        s.found.count = 0
        s.best_used = s.ndice
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        target = origin - die if origin > die else OFF
        hit_points = (<uint32_t> s.hit[0]) << s.target[0]
        if target != OFF and s.board.opp[BAR - target] == 1:
            hit_points |= (<uint32_t> 1) << target
        key = _play_key(s.origin[0], s.target[0], origin, target, hit_points)
        for k in range(s.nkeys):
            if s.play_keys[k] == key:
                break
        else:
            if s.nkeys == MAX_PLAY_KEYS:        # cannot happen (see MAX_PLAY_KEYS)
                s.found.failed = True
                return
            s.play_keys[s.nkeys] = key
            s.nkeys += 1
