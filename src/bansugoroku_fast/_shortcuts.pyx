# cython: language_level=3
"""Closed forms: the plays of common rolls counted without walking them.

Which rolls take them (everything else is walked by ``_search``, where the
rules of a turn are written; these are a different algorithm for the same
numbers, held against the walks by the tests: ``fast_counts=False``
counts every roll by the search, and every play drawn is play k of the
listed ones):

* **Two-move rolls** (every non-double, and every Ban-sugoroku double,
  which gives two moves) where no bear-off and no win can come before the
  second move (``two_moves_decided``: a stone on the bar, or two or more
  stones outside home, and no immediate closure within reach). Counting
  them (``count_two_moves`` in ``_shortcuts.pxd``) is a handful of
  popcounts over the bit masks of the board, and so is counting the
  arrival of the last stone outside home, which wins and stops the play
  (``count_last_stone``).
* **The last two, three or four moves of a backgammon double** being
  counted (``count_last_two``, ``count_last_three``, ``count_last_four``),
  once no stone is on the bar and no bear-off can come: the search stops
  two, three or four plies early (four: it makes no move at all) and adds
  their count from the masks, the last three in closed form
  (``triple_plays`` in ``_shortcuts.pxd``) whenever all of them play; and
  a backgammon double's play k drawn move by move from those counts
  (``double_count``, ``double_play``).
* **The last move of a non-double near the bear-off** being counted
  (``count_by_keys`` in ``_shortcuts.pxd``): added as the exact key of the
  position it reaches, without making it.

Why it is fast: a two-move play is a multiset of two single moves, and
distinct multisets reach distinct positions except when one stone moves
through an intermediate point that hits nothing; so the count is the
number of pairs of legal origins, corrected for those merges, each term a
popcount of a mask expression (see ``count_plain`` in ``_shortcuts.pxd``).

Declared in ``_shortcuts.pxd``; the search calls these directly. They
add to the search's counts through the inline helpers of ``_search.pxd``,
so this module calls nothing of ``_search`` at run time.
"""
from libc.stdint cimport uint32_t
from libc.string cimport memcpy

from ._board cimport BAR, POINT_BITS, Board, OFF, Scan, count_outside, highest_bit, popcount_places, row_gt, scan_masks
from ._search cimport Search, apply_step, record_many


# --- counting without a search -------------------------------------------------
#
# count_two_moves and its helpers are inline in _shortcuts.pxd, so that the
# batch count compiles them into its item loop.


# --- the last moves of a double ------------------------------------------------


cdef inline void _after_move(uint32_t* occupied, uint32_t* multi, int origin, int target,
                             int count, int target_count) noexcept nogil:
    """Update the masks of the mover's stones for one move from ``origin``
    (holding ``count`` stones before it) to the point ``target`` (holding
    ``target_count``)."""
    occupied[0] = (occupied[0] | ((<uint32_t> 1) << target)) & ~((<uint32_t> (count == 1)) << origin)
    multi[0] = ((multi[0] | ((<uint32_t> (target_count >= 1)) << target))
                & ~((<uint32_t> (count == 2)) << origin))


cdef inline uint32_t _three_or_more(const Search* s) noexcept nogil:
    """Bit p: the mover has three or more stones on point p."""
    cdef uint32_t three = 0, multi = s.multi
    cdef int point
    while multi:
        point = highest_bit(multi)
        multi ^= (<uint32_t> 1) << point
        three |= (<uint32_t> (s.board.me[point] >= 3)) << point
    return three


cdef void count_last_four(Search* s, uint32_t origins, int die) noexcept nogil:
    """Count the four moves of a backgammon double (no bar stone, no
    bear-off possible): for each first move, from ``origins``, the other
    three on the masks after it (no make and unmake): ``triple_plays``
    where all three play, else as count_last_three counts them, the
    stones' counts after the first move worked out from the board's."""
    cdef int origin, target, triples
    cdef uint32_t occupied, multi, later, three
    cdef uint32_t reach = s.open_points << die, three_before = _three_or_more(s)
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        target = origin - die       # a point: no bear-off
        occupied, multi = s.occupied, s.multi
        _after_move(&occupied, &multi, origin, target, s.board.me[origin], s.board.me[target])
        later = occupied & reach & (((<uint32_t> 2) << origin) - 1)
        if not later:       # the first move is the only one: one play using one die
            record_many(s, s.ndice - 3, 1)
            continue
        three = ((three_before & ~((<uint32_t> (s.board.me[origin] == 3)) << origin))
                 | (<uint32_t> (s.board.me[target] >= 2)) << target)
        triples = triple_plays(later, occupied, multi, three, reach, die)
        if triples:
            record_many(s, s.ndice, triples)
        else:
            _count_last_three_after(s, occupied, multi, later, die, origin, target)


cdef void count_last_three(Search* s, uint32_t origins, int die) noexcept nogil:
    """Count the last three moves of a double (no bar stone, no bear-off
    possible), the first of them from ``origins``: ``triple_plays`` where
    all three play, else for each first of them the last two as
    count_last_two counts them on the masks after that move. No make and
    unmake: the open points do not change within a turn, and whether the
    move hits does not matter to the moves after it."""
    cdef int triples = triple_plays(origins, s.occupied, s.multi, _three_or_more(s), s.open_points << die, die)
    if triples:
        record_many(s, s.ndice, triples)
    else:
        _count_last_three_after(s, s.occupied, s.multi, origins, die, OFF, OFF)


cdef void _count_last_three_after(Search* s, uint32_t occupied, uint32_t multi, uint32_t origins, int die,
                                  int moved_from, int moved_to) noexcept nogil:
    """count_last_three on the masks ``occupied`` and ``multi``: the
    search's board with one more stone moved from ``moved_from`` to
    ``moved_to`` (OFF, OFF: none)."""
    cdef int origin, target
    cdef uint32_t after_occupied, after_multi
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        target = origin - die       # a point: no bear-off
        after_occupied, after_multi = occupied, multi
        _after_move(&after_occupied, &after_multi, origin, target,
                    s.board.me[origin] - (origin == moved_from) + (origin == moved_to),
                    s.board.me[target] - (target == moved_from) + (target == moved_to))
        count_last_two(s, after_occupied, after_multi, die, origin)


cdef void count_last_two(Search* s, uint32_t occupied, uint32_t multi, int die,
                          int highest) noexcept nogil:
    """Count the last two moves of a double (origins non-increasing, at most
    ``highest``; no bar stone, no bear-off possible) as count_plain does,
    the mover's stones being ``occupied`` and ``multi``."""
    cdef uint32_t reach = s.open_points << die
    cdef uint32_t origins = occupied & reach
    if highest < 24:
        origins &= ((<uint32_t> 2) << highest) - 1
    cdef int pairs = double_pairs(origins, occupied, multi, reach, die)
    cdef int single = popcount_places(origins)
    if pairs:
        record_many(s, s.ndice, pairs)
    elif single:
        record_many(s, s.ndice - 1, single)
    else:       # only backgammon doubles come here: ndice - 2 = 2 > 0
        record_many(s, s.ndice - 2, 1)


# --- a backgammon double's play drawn without listing the others -------------------
#
# A uniform draw among a roll's plays needs their number (the closed-form
# counts) and the chosen play only: double_play finds it move by move,
# counting each subtree of the search from the closed forms.


cdef inline int _subtree_plays(const Board* board, uint32_t reach, int die, int origin, int moves) noexcept nogil:
    """The plays that use all ``moves`` (1..4) moves of a backgammon double
    on ``board`` (no stone on the bar, no bear-off within reach) whose first
    move is from ``origin``, the others from it or lower points: the
    search's subtree of that move, counted as count_last_four,
    count_last_three and count_last_two count it."""
    cdef int target = origin - die
    cdef uint32_t occupied, multi, three, later
    if moves == 1:
        return 1
    occupied = row_gt(board.me, 0) & POINT_BITS
    multi = row_gt(board.me, 1) & POINT_BITS
    three = ((row_gt(board.me, 2) & POINT_BITS & ~((<uint32_t> (board.me[origin] == 3)) << origin))
             | (<uint32_t> (board.me[target] >= 2)) << target)
    _after_move(&occupied, &multi, origin, target, board.me[origin], board.me[target])
    later = occupied & reach & (((<uint32_t> 2) << origin) - 1)
    if moves == 2:
        return popcount_places(later)
    if moves == 3:
        return double_pairs(later, occupied, multi, reach, die)
    return triple_plays(later, occupied, multi, three, reach, die)


cdef int double_count(const Board* start, const Scan* scan, int die, DoubleWalk* walk) noexcept nogil:
    """The plays of a backgammon double of ``start`` that use all four
    moves, from the closed forms (_subtree_plays), with ``walk`` set for
    double_play: that is its number of plays if > 0 (the must-play rule
    keeps the longest); 0 if none uses four moves, -1 where a bear-off is
    in reach (or entering is blocked): then only a search counts them."""
    cdef uint32_t occupied, open_points, multi, blots, origins
    cdef int origin, total = 0
    scan_masks(scan, &occupied, &open_points, &multi, &blots)
    memcpy(&walk.board, start, sizeof(Board))
    walk.die, walk.moves, walk.reach = die, 4, open_points << die
    while walk.board.me[BAR] and walk.moves:        # entering comes first, forced
        if not (open_points >> (BAR - die)) & 1:
            return -1
        apply_step(&walk.board, BAR, BAR - die)
        walk.moves -= 1
    if walk.moves == 0:
        return 1
    if count_outside(&walk.board) < walk.moves:     # a stone may bear off
        return -1
    origins = row_gt(walk.board.me, 0) & walk.reach & POINT_BITS
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        total += _subtree_plays(&walk.board, walk.reach, die, origin, walk.moves)
    return total


cdef void double_play(const DoubleWalk* walk, int k, Board* out) noexcept nogil:
    """``out`` = the position after play ``k`` (in ``legal_plays`` order) of
    the double that double_count counted (``k`` below its count > 0). The
    search visits each play's moves in non-increasing order of origins,
    greatest first, so play ``k`` is found move by move: the first move
    from the greatest origin whose subtree (_subtree_plays) holds it, and
    so on."""
    cdef uint32_t origins
    cdef int moves = walk.moves, highest = BAR, origin = 0, n
    memcpy(out, &walk.board, sizeof(Board))
    while moves:
        origins = row_gt(out.me, 0) & walk.reach & POINT_BITS & (((<uint32_t> 2) << highest) - 1)
        while origins:
            origin = highest_bit(origins)
            origins ^= (<uint32_t> 1) << origin
            n = _subtree_plays(out, walk.reach, walk.die, origin, moves)
            if k < n:
                break
            k -= n
        apply_step(out, origin, origin - walk.die)
        highest = origin
        moves -= 1
