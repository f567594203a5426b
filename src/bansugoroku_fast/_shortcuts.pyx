# cython: language_level=3
"""Closed forms: the plays of common rolls counted or listed without a search.

Which rolls take them (everything else goes through the search of
``_search``):

* **Two-move rolls** (every non-double, and every Ban-sugoroku double,
  which gives two moves) where no bear-off and no win can come before the
  second move (``_two_moves_decided``: a stone on the bar, or two or more
  stones outside home, and no immediate closure within reach). Counting
  them (``count_two_moves``) is a handful of popcounts over the bit masks
  of the board; listing them (``plays_two_moves``) walks the pairs of
  origins once, greatest key first, so they need neither a dedupe table
  nor a sort.
* **The last two or three moves of a backgammon double** being counted
  (``count_last_two``, ``count_last_three``), once no stone is on the bar
  and no bear-off can come: the search stops two or three plies early and
  adds their count from the masks.

Why it is fast: a two-move play is a multiset of two single moves, and
distinct multisets reach distinct positions except when one stone moves
through an intermediate point that hits nothing; so the count is the
number of pairs of legal origins, corrected for those merges, each term a
popcount of a mask expression (see ``_count_plain``). Listing them, the
mask of second origins stops at the first origin, so the pair loop visits
only the pairs it keeps (bar one chain check) and writes each child into a
lent row as the start copied once and patched, its hits read from the
blot mask.

Declared in ``_shortcuts.pxd``; the search calls these directly. They
write to the search's result set or lent rows through the inline helpers
of ``_search.pxd``, so this module calls nothing of ``_search`` at run time.
"""
from libc.stdint cimport int64_t, uint8_t, uint32_t
from libc.string cimport memcpy

from ._board cimport (
    BAR, Board, CLOSURE_IMMEDIATE, HOME_TOP, MAX_STEPS, RuleSet,
    board_masks, board_more_masks, count_outside, highest_bit, popcount,
)
from ._search cimport Leaf, Search, new_leaf, record_many, write_packed_steps


# --- counting without a search -------------------------------------------------


cdef inline int _home_missing(const Board* board) noexcept nogil:
    """Stones the mover lacks for two on each of its points 1..6."""
    cdef int point, missing = 0
    for point in range(1, HOME_TOP + 1):
        if board.me[point] < 2:
            missing += 2 - board.me[point]
    return missing


cdef inline bint _two_moves_decided(const Board* board, RuleSet rules) noexcept nogil:
    """Whether no bear-off and no win can come before the second move of a
    two-move turn, the case that count_two_moves and plays_two_moves
    handle without a search."""
    cdef int bar = board.me[BAR]
    # An entering stone never lands in the home; any other first move
    # fills at most one missing stone.
    if rules.closure == CLOSURE_IMMEDIATE and _home_missing(board) < (1 if bar else 2):
        return False
    return bar or count_outside(board) >= 2


cdef int count_two_moves(const Board* board, RuleSet rules, int a, int b) noexcept nogil:
    """Distinct plays of a two-move turn (dice a > b, or a double a == b
    giving two moves) without a search, or -1 where only a search will do:
    when a bear-off or a win could happen before the second move."""
    cdef uint32_t occupied, open_points
    if not _two_moves_decided(board, rules):
        return -1
    board_masks(board, &occupied, &open_points)
    if board.me[BAR]:
        return _count_entering(board, occupied, open_points, a, b)
    return _count_plain(board, occupied, open_points, a, b)


cdef int _count_entering(const Board* board, uint32_t occupied, uint32_t open_points,
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
        plays = popcount((occupied | ((<uint32_t> 1) << entry_a)) & (open_points << a))
        return plays if plays else 1
    if board.me[BAR] >= 2:      # both dice enter (same position in either order), or one
        return 1 if open_a or open_b else 0
    if open_a:
        plays += popcount((occupied | ((<uint32_t> 1) << entry_a)) & (open_points << b))
    if open_b:
        plays += popcount((occupied | ((<uint32_t> 1) << entry_b)) & (open_points << a))
    # The entered stone moving on with the other die reaches 25 - a - b by
    # both routes: one play unless an intermediate point holds a blot.
    if (open_a and open_b and (open_points >> (BAR - a - b)) & 1
            and board.opp[a] != 1 and board.opp[b] != 1):
        plays -= 1
    if plays:
        return plays
    return 1 if open_a or open_b else 0


cdef int _count_plain(const Board* board, uint32_t occupied, uint32_t open_points,
                      int a, int b) noexcept nogil:
    """count_two_moves with no stone on the bar and at least two outside
    home (so neither move can bear off or win).

    Each two-move play is a multiset {(p, a), (q, b)} of single moves
    (origin, die), realisable in some order; distinct multisets reach distinct
    positions, except that one stone moving a + b through an intermediate
    point that hits nothing reaches the same position by either route.
    """
    cdef uint32_t multi, blots
    cdef uint32_t reach_a, reach_b, from_a, from_b, chain_a, chain_b, merged
    cdef int na, nb, pairs
    board_more_masks(board, &multi, &blots)
    reach_a = open_points << a          # bit p: p - a is a point the mover may land on
    from_a = occupied & reach_a         # origins of legal single moves with a
    na = popcount(from_a)
    if a == b:
        pairs = _double_pairs(from_a, occupied, multi, reach_a, a)
        return pairs if pairs else na
    # Chains through an empty intermediate point (through an occupied one,
    # the pair of origins is already counted).
    reach_b = open_points << b
    from_b = occupied & reach_b
    nb = popcount(from_b)
    chain_a = from_a & ((reach_b & ~occupied) << a)
    chain_b = from_b & ((reach_a & ~occupied) << b)
    merged = (occupied & reach_a & reach_b & (reach_b << a) & (reach_a << b)
              & ~(blots << a) & ~(blots << b))
    pairs = (na * nb - popcount(from_a & from_b & ~multi)
             + popcount(chain_a) + popcount(chain_b) - popcount(merged))
    if pairs:
        return pairs
    return na if na else nb     # one die only: the larger (a) when it plays


# --- the last moves of a double ------------------------------------------------


cdef void count_last_three(Search* s, uint32_t origins, int die) noexcept nogil:
    """Count the last three moves of a double (no bar stone, no bear-off
    possible): for each first of them, from ``origins``, the last two as
    count_last_two counts them on the masks after that move. No make and
    unmake: the open points do not change within a turn, and whether the
    move hits does not matter to the moves after it."""
    cdef int origin, target, count
    cdef uint32_t occupied, multi
    while origins:
        origin = highest_bit(origins)
        origins ^= (<uint32_t> 1) << origin
        target = origin - die       # a point: no bear-off
        count = s.board.me[origin]
        occupied = (s.occupied | ((<uint32_t> 1) << target)) & ~((<uint32_t> (count == 1)) << origin)
        multi = ((s.multi | ((<uint32_t> (s.board.me[target] >= 1)) << target))
                 & ~((<uint32_t> (count == 2)) << origin))
        count_last_two(s, occupied, multi, die, origin)


cdef void count_last_two(Search* s, uint32_t occupied, uint32_t multi, int die,
                          int highest) noexcept nogil:
    """Count the last two moves of a double (origins non-increasing, at most
    ``highest``; no bar stone, no bear-off possible) as _count_plain does,
    the mover's stones being ``occupied`` and ``multi``."""
    cdef uint32_t reach = s.open_points << die
    cdef uint32_t origins = occupied & reach
    if highest < 24:
        origins &= ((<uint32_t> 2) << highest) - 1
    cdef int pairs = _double_pairs(origins, occupied, multi, reach, die)
    cdef int single = popcount(origins)
    if pairs:
        record_many(s, s.ndice, pairs)
    elif single:
        record_many(s, s.ndice - 1, single)
    else:       # only backgammon doubles come here: ndice - 2 = 2 > 0
        record_many(s, s.ndice - 2, 1)


cdef inline int _double_pairs(uint32_t origins, uint32_t occupied, uint32_t multi,
                              uint32_t reach, int die) noexcept nogil:
    """Distinct two-move plays of a double (no bar stone, no bear-off) whose
    first move is from one of ``origins``, the second from the same point or
    a lower one: two origins, two stones from one point (``multi``), or one
    stone on through an empty intermediate point (``reach``: open_points << die)."""
    cdef int n = popcount(origins)
    return (n * (n - 1) // 2 + popcount(origins & multi)
            + popcount(origins & ((reach & ~occupied) << die)))


# --- two-move plays without a search ---------------------------------------------


cdef inline bint _apply_step(Board* board, int origin, int target) noexcept nogil:
    """Move a mover stone from ``origin`` to the point ``target`` on ``board``;
    whether it hit."""
    cdef bint hit = board.opp[BAR - target] == 1
    board.me[origin] -= 1
    board.me[target] += 1
    if hit:
        board.opp[BAR - target] = 0
        board.opp[BAR] += 1
    return hit


cdef inline void _play_step(Leaf* leaf, int k, int origin, int die) noexcept nogil:
    """Step ``k`` of a leaf's play, applied to its board (target >= 1)."""
    cdef int target = origin - die
    cdef bint hit = _apply_step(&leaf.board, origin, target)
    leaf.origin[k] = origin
    leaf.target[k] = target
    leaf.die[k] = die
    leaf.hit[k] = hit


cdef inline void _emit_out(Search* s, const Board* start, int origin1, int die1,
                           int origin2, int die2) noexcept nogil:
    """_emit into the output rows the batch lent (counting past the room
    without writing, so a disagreement with the count shows): the row is
    the start copied once and patched, the hits read from the blot mask
    (not from the row just written), the steps written packed."""
    cdef int64_t row = s.found.count
    s.found.count += 1
    if row >= s.rows.room:
        return
    cdef Board* board = <Board*> (s.rows.children + row * sizeof(Board))
    cdef int target1 = origin1 - die1, target2 = origin2 - die2
    cdef uint32_t hit1 = (s.blots >> target1) & 1, hit2 = 0
    memcpy(board, start, sizeof(Board))
    _patch_step(board, origin1, target1, hit1)
    if origin2:
        # A blot hit by the first step is gone: the second cannot hit it again.
        hit2 = ((s.blots & ~((<uint32_t> 1) << target1)) >> target2) & 1
        _patch_step(board, origin2, target2, hit2)
    write_packed_steps(&s.rows, row, 2 if origin2 else 1,
                       <uint8_t> origin1 | (<uint32_t> <uint8_t> target1) << 8
                       | (<uint32_t> <uint8_t> origin2) << 16 | (<uint32_t> <uint8_t> target2) << 24,
                       <uint8_t> die1 | (<uint32_t> <uint8_t> die2) << 8, hit1 | hit2 << 8)


cdef inline void _patch_step(Board* board, int origin, int target, bint hit) noexcept nogil:
    """Move a mover stone from ``origin`` to the point ``target`` on ``board``,
    hitting the blot there if ``hit``."""
    board.me[origin] -= 1
    board.me[target] += 1
    if hit:
        board.opp[BAR - target] = 0
        board.opp[BAR] += 1


cdef inline void _emit(Search* s, const Board* start, int origin1, int die1,
                       int origin2, int die2) noexcept nogil:
    """Add the play (origin1 with die1[, then origin2 with die2]) as a leaf,
    or straight to the batch's output rows if it lent some."""
    if s.rows.children != NULL:
        _emit_out(s, start, origin1, die1, origin2, die2)
        return
    cdef Leaf* leaf = new_leaf(s)
    if leaf == NULL:
        return
    memcpy(&leaf.board, start, sizeof(Board))
    leaf.large = False
    _play_step(leaf, 0, origin1, die1)
    leaf.nsteps = 1
    if origin2:
        _play_step(leaf, 1, origin2, die2)
        leaf.nsteps = 2


cdef inline bint _is_open(const Search* s, int point) noexcept nogil:
    return point >= 1 and (s.open_points >> point) & 1


cdef inline bint _routes_merge(const Search* s, int origin, int first, int second) noexcept nogil:
    """One stone from ``origin`` moving ``first`` then ``second`` reaches the
    same position by the other route: that route is open and neither
    intermediate point holds a blot."""
    return (_is_open(s, origin - second)
            and not (s.blots >> (origin - first)) & 1
            and not (s.blots >> (origin - second)) & 1)


cdef int plays_two_moves(Search* s, const Board* start, int a, int b) noexcept nogil:
    """The plays of a two-move turn in the cases count_two_moves counts,
    as leaves in descending canonical order (``s.presorted``); -1 where
    only a search will do."""
    cdef int small = a if a < b else b, large = a if a > b else b
    cdef int origin1, origin2, die1, die2, target1, k, limit, bar = start.me[BAR]
    cdef uint32_t first_origins, second_origins, after
    if not _two_moves_decided(start, s.rules):
        return -1
    memcpy(&s.board, start, sizeof(Board))
    board_masks(start, &s.occupied, &s.open_points)
    board_more_masks(start, &s.multi, &s.blots)
    s.found.count = 0
    s.found.failed = False
    s.presorted = True
    s.wrote_out = s.rows.children != NULL
    if bar:
        _plays_entering(s, start, small, large)
        return s.found.count if not s.found.failed else -1
    first_origins = s.occupied
    while first_origins:
        origin1 = highest_bit(first_origins)
        first_origins ^= (<uint32_t> 1) << origin1
        for k in range(2):      # the smaller die lands higher: its key is greater
            die1 = small if k == 0 else large
            die2 = large if k == 0 else small
            target1 = origin1 - die1
            if not _is_open(s, target1) or (k == 1 and small == large):
                continue
            # Points holding a stone after the first move, able to move die2.
            after = s.occupied | ((<uint32_t> 1) << target1)
            if start.me[origin1] == 1:
                after &= ~((<uint32_t> 1) << origin1)
            # Second origins at most origin1 (below it once die1 is the
            # larger): a pair of independent moves is taken once, in the
            # order of the greater key (smaller die first from one point),
            # and a stone from above origin1 through it is the other
            # stone's play, taken with that origin first.
            limit = origin1 if k == 0 else origin1 - 1
            second_origins = after & (s.open_points << die2) & (((<uint32_t> 2) << limit) - 1)
            while second_origins:
                origin2 = highest_bit(second_origins)
                second_origins ^= (<uint32_t> 1) << origin2
                # One stone on through target1; via the smaller die first is greater.
                if origin2 == target1 and die2 < die1 and _routes_merge(s, origin1, die1, die2):
                    continue
                _emit(s, start, origin1, die1, origin2, die2)
    if s.found.count == 0:      # no two-move play: one die, the larger if it plays
        for k in range(2):
            die1 = large if k == 0 else small
            first_origins = s.occupied & (s.open_points << die1)
            while first_origins:
                origin1 = highest_bit(first_origins)
                first_origins ^= (<uint32_t> 1) << origin1
                _emit(s, start, origin1, die1, 0, 0)
            if s.found.count:
                break
    if s.found.failed:
        s.found.count = 0
        return -1
    return s.found.count


cdef void _plays_entering(Search* s, const Board* start, int small, int large) noexcept nogil:
    """plays_two_moves with stones on the bar (see _count_entering)."""
    cdef int k, die1, die2, entry, origin2
    cdef uint32_t second_origins
    if start.me[BAR] >= 2:
        if small == large:
            if _is_open(s, BAR - small):
                _emit(s, start, BAR, small, BAR, small)
        elif _is_open(s, BAR - small) and _is_open(s, BAR - large):
            _emit(s, start, BAR, small, BAR, large)
        elif _is_open(s, BAR - large):
            _emit(s, start, BAR, large, 0, 0)
        elif _is_open(s, BAR - small):
            _emit(s, start, BAR, small, 0, 0)
        return
    for k in range(2):
        die1 = small if k == 0 else large
        die2 = large if k == 0 else small
        entry = BAR - die1
        if not _is_open(s, entry) or (k == 1 and small == large):
            continue
        second_origins = (s.occupied | ((<uint32_t> 1) << entry)) & (s.open_points << die2)
        while second_origins:
            origin2 = highest_bit(second_origins)
            second_origins ^= (<uint32_t> 1) << origin2
            if (origin2 == entry and die2 < die1
                    and _routes_merge(s, BAR, die1, die2)):
                continue    # the entered stone on: via the smaller die first is greater
            _emit(s, start, BAR, die1, origin2, die2)
    if s.found.count == 0:
        if _is_open(s, BAR - large):
            _emit(s, start, BAR, large, 0, 0)
        elif _is_open(s, BAR - small):
            _emit(s, start, BAR, small, 0, 0)
