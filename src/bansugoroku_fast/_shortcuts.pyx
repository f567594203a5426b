# cython: language_level=3
"""Closed forms: the plays of common rolls counted or listed without a search.

Which rolls take them (everything else goes through the search of
``_search``):

* **Two-move rolls** (every non-double, and every Ban-sugoroku double,
  which gives two moves) where no bear-off and no win can come before the
  second move (``two_moves_decided``: a stone on the bar, or two or more
  stones outside home, and no immediate closure within reach). Counting
  them (``count_two_moves``) is a handful of popcounts over the bit masks
  of the board, and so is counting the arrival of the last stone outside
  home, which wins and stops the play (``count_last_stone``). Listing
  them (``plays_two_moves``) and making the k-th alone (``two_move_play``)
  are one walk (``_walk_two_moves``, bar entry included) of the pairs of
  origins, greatest key first, so they need neither a dedupe table nor a
  sort.
* **The last two, three or four moves of a backgammon double** being
  counted (``count_last_two``, ``count_last_three``, ``count_last_four``),
  once no stone is on the bar and no bear-off can come: the search stops
  two, three or four plies early (four: it makes no move at all) and adds
  their count from the masks, the last three in closed form
  (``triple_plays`` in ``_shortcuts.pxd``) whenever all of them play.

Why it is fast: a two-move play is a multiset of two single moves, and
distinct multisets reach distinct positions except when one stone moves
through an intermediate point that hits nothing; so the count is the
number of pairs of legal origins, corrected for those merges, each term a
popcount of a mask expression (see ``count_plain`` in ``_shortcuts.pxd``). Listing them, the
mask of second origins stops at the first origin, so the pair loop visits
only the pairs it keeps (the merged chain masked out once per first move),
and the children of one first move are written into lent rows from the
position after it, held in registers: four stores and the four bytes the
second move changes, its hit read from the blot mask (``write_moves`` in
``_search.pxd``).

Declared in ``_shortcuts.pxd``; the search calls these directly. They
write to the search's result set or lent rows through the inline helpers
of ``_search.pxd``, so this module calls nothing of ``_search`` at run time.
"""
from libc.stdint cimport uint8_t, uint32_t
from libc.string cimport memcpy

from ._board cimport (
    BAR, POINT_BITS, Board, OFF, RuleSet, Scan, count_outside, highest_bit, popcount_places, row_gt, scan_masks,
)
from ._search cimport Leaf, Search, new_leaf, record_many, patch_step, write_moves


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


cdef inline void _emit(Search* s, const Board* start, int origin1, int die1,
                       int origin2, int die2) noexcept nogil:
    """Add the play (origin1 with die1[, then origin2 with die2]) as a leaf,
    or straight to the batch's output rows if it lent some."""
    if s.rows.children != NULL:
        if origin2:
            _emit_second_moves(s, start, origin1, die1, (<uint32_t> 1) << origin2, die2)
        else:
            write_moves(s, start, (<uint32_t> 1) << origin1, die1, s.blots, 0, 0, 0, 0)
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


cdef inline void _emit_second_moves(Search* s, const Board* start, int origin1, int die1,
                                    uint32_t second_origins, int die2) noexcept nogil:
    """_emit every play (origin1 with die1, then one of ``second_origins``
    with die2), greatest second origin first. Into lent rows, the position
    after the first move is made once and the rows are written from it
    (``write_moves``). This is ``write_moves_after`` for step 0, written
    out: calling that general helper here cost 45 instructions an item in
    Ban-sugoroku (callgrind), in the code the compiler made."""
    cdef int origin2
    if not second_origins:
        return
    if s.rows.children == NULL:
        while second_origins:
            origin2 = highest_bit(second_origins)
            second_origins ^= (<uint32_t> 1) << origin2
            _emit(s, start, origin1, die1, origin2, die2)
        return
    cdef int target1 = origin1 - die1
    cdef Board middle
    cdef uint32_t hit1 = (s.blots >> target1) & 1
    memcpy(&middle, start, sizeof(Board))
    patch_step(&middle, origin1, target1, hit1)
    write_moves(s, &middle, second_origins, die2, s.blots & ~((<uint32_t> 1) << target1), 1,
                <uint8_t> origin1 | (<uint32_t> <uint8_t> target1) << 8, <uint8_t> die1, hit1)


# --- the one walk of a two-move turn ---------------------------------------------
#
# A two-move turn's plays (two_moves_decided: no bear-off and no win before
# the second move) are walked once, in legal_plays order, by
# _walk_two_moves, whose mode says what to do with them: list them all
# (WALK_LIST: plays_two_moves, into the search's leaves or a batch's rows)
# or make play k alone (WALK_PICK: two_move_play, the game loop's random
# draw, which counts each group of plays by a popcount and makes only the
# one drawn). The mode is a constant where each caller inlines the walk, so
# each compiles to its own loop. Their number is the closed form
# count_two_moves (_shortcuts.pxd), a different algorithm, which the tests
# hold against this walk (tests/test_games.py draws every play k of
# thousands of rolls and compares it, and the count, with the listed plays).

cdef enum:
    WALK_LIST = 0       # every play, to the search (its leaves, or the rows a batch lent)
    WALK_PICK = 1       # play k alone, made on a board


cdef inline bint _open_at(uint32_t open_points, int point) noexcept nogil:
    return point >= 1 and (open_points >> point) & 1


cdef inline bint _routes_merge(uint32_t open_points, uint32_t blots, int origin, int first,
                               int second) noexcept nogil:
    """One stone from ``origin`` moving ``first`` then ``second`` reaches the
    same position by the other route: that route is open and neither
    intermediate point holds a blot."""
    return (_open_at(open_points, origin - second)
            and not (blots >> (origin - first)) & 1
            and not (blots >> (origin - second)) & 1)


cdef inline bint _visit_group(Search* s, const Board* start, int mode, int origin1, int die1, uint32_t seconds,
                              int die2, int* k, Board* out) noexcept nogil:
    """The plays ``origin1`` -> ``origin1 - die1``, then a move with
    ``die2`` from each of ``seconds``, greatest first. WALK_LIST: listed
    (returns False). WALK_PICK: play ``k[0]`` made in ``out`` if it is one
    of them (returns True), else their number taken off ``k[0]``."""
    cdef int n, origin2
    if mode == WALK_LIST:
        _emit_second_moves(s, start, origin1, die1, seconds, die2)
        return False
    n = popcount_places(seconds)
    if k[0] >= n:
        k[0] -= n
        return False
    memcpy(out, start, sizeof(Board))
    _apply_step(out, origin1, origin1 - die1)
    origin2 = _nth_highest(seconds, k[0])
    _apply_step(out, origin2, origin2 - die2)
    return True


cdef inline void _visit_singles(Search* s, const Board* start, int mode, uint32_t origins, int die, int k,
                                Board* out) noexcept nogil:
    """The plays of one move with ``die`` from each of ``origins``, greatest
    first: listed (WALK_LIST), or play ``k`` made in ``out`` (WALK_PICK)."""
    cdef int origin
    if mode == WALK_LIST:
        while origins:
            origin = highest_bit(origins)
            origins ^= (<uint32_t> 1) << origin
            _emit(s, start, origin, die, 0, 0)
        return
    origin = _nth_highest(origins, k)
    memcpy(out, start, sizeof(Board))
    _apply_step(out, origin, origin - die)


cdef inline void _walk_two_moves(Search* s, const Board* start, uint32_t occupied, uint32_t open_points,
                                 uint32_t blots, int small, int large, int mode, int k, Board* out) noexcept nogil:
    """Walk the plays of a two-move turn of ``start`` (dice ``small`` <=
    ``large``; two_moves_decided; the masks of scan_masks) in legal_plays
    order, doing ``mode``'s visit (_visit_group, _visit_singles) with each;
    ``s``: the search of WALK_LIST (else unused), ``k`` and ``out``: the
    play of WALK_PICK (0 <= k < count_two_moves).

    The first moves go from the greatest origin down, the smaller die first
    (its target is higher: the greater key). A pair of moves of two stones
    is taken once, in its order of the greater key: after the smaller die
    from a point, second origins up to that point; after the larger, only
    below it. One stone moving on through the first move's target reaches
    the same position by both routes unless an intermediate point holds a
    blot: it is taken via the smaller die first. The bar is an origin like
    a point: while a stone is on it, it is the only first origin; with two
    or more there, the second move enters too (one group: the smaller die,
    then the larger). With no
    two-move play, one move: with the larger die if one plays (the
    must-play rule), else the smaller."""
    cdef uint32_t reach_small = open_points << small, reach_large = open_points << large
    cdef uint32_t movers = (<uint32_t> 1) << BAR if start.me[BAR] else occupied
    cdef uint32_t firsts = movers & (reach_small | reach_large), single, after, seconds
    cdef int origin1, target1
    if start.me[BAR] >= 2:
        # Both moves enter (the smaller die first: one play), or only one.
        if (reach_small >> BAR) & 1 and _visit_group(s, start, mode, BAR, small, reach_large & movers, large,
                                                      &k, out):
            return
        firsts = 0
    while firsts:
        origin1 = highest_bit(firsts)
        firsts ^= (<uint32_t> 1) << origin1
        single = (<uint32_t> (start.me[origin1] == 1)) << origin1     # its origin empties
        if (reach_small >> origin1) & 1:
            target1 = origin1 - small
            after = (occupied | ((<uint32_t> 1) << target1)) & ~single
            seconds = after & reach_large & (((<uint32_t> 2) << origin1) - 1)
            if _visit_group(s, start, mode, origin1, small, seconds, large, &k, out):
                return
        if small != large and (reach_large >> origin1) & 1:
            target1 = origin1 - large
            after = (occupied | ((<uint32_t> 1) << target1)) & ~single
            seconds = after & reach_small & (((<uint32_t> 1) << origin1) - 1)
            if _routes_merge(open_points, blots, origin1, large, small):
                seconds &= ~((<uint32_t> 1) << target1)     # via the smaller die first
            if _visit_group(s, start, mode, origin1, large, seconds, small, &k, out):
                return
    # No two-move play (WALK_PICK: k is past every two-move play only when
    # there is none): one move, with the larger die if one plays.
    if mode == WALK_PICK or s.found.count == 0:
        if movers & reach_large:
            _visit_singles(s, start, mode, movers & reach_large, large, k, out)
        else:
            _visit_singles(s, start, mode, movers & reach_small, small, k, out)


cdef int plays_two_moves(Search* s, const Board* start, const Scan* scan, int a, int b) noexcept nogil:
    """The plays of a two-move turn of ``start`` (scanned as ``scan``) in
    the cases count_two_moves counts, as leaves in descending canonical
    order (``s.presorted``) or into the rows a batch lent; -1 where only a
    search will do."""
    if not two_moves_decided(start, scan, s.rules):
        return -1
    memcpy(&s.board, start, sizeof(Board))
    scan_masks(scan, &s.occupied, &s.open_points, &s.multi, &s.blots)
    s.found.count = 0
    s.found.failed = False
    s.presorted = True
    s.wrote_out = s.rows.children != NULL
    _walk_two_moves(s, start, s.occupied, s.open_points, s.blots, a if a < b else b, a if a > b else b,
                    WALK_LIST, 0, NULL)
    if s.found.failed:
        s.found.count = 0
        return -1
    return s.found.count


cdef void two_move_play(const Board* start, const Scan* scan, int a, int b, int k, Board* out) noexcept nogil:
    """``out`` = ``start`` after play ``k`` (0 <= k < its count_two_moves
    count) of a two-move turn that plays_two_moves lists
    (two_moves_decided), the plays walked in the same order, counted group
    by group, and only play ``k`` made."""
    cdef uint32_t occupied, open_points, multi, blots
    scan_masks(scan, &occupied, &open_points, &multi, &blots)
    _walk_two_moves(NULL, start, occupied, open_points, blots, a if a < b else b, a if a > b else b,
                    WALK_PICK, k, out)


# --- a backgammon double's play drawn without listing the others -------------------
#
# A uniform draw among a roll's plays needs their number (the closed-form
# counts) and the chosen play only: double_play finds it move by move,
# counting each subtree of the search from the closed forms.


cdef inline int _nth_highest(uint32_t bits, int k) noexcept nogil:
    """The ``k``-th highest set bit of ``bits`` (k = 0: the highest)."""
    while k:
        bits ^= (<uint32_t> 1) << highest_bit(bits)
        k -= 1
    return highest_bit(bits)


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
        if not _open_at(open_points, BAR - die):
            return -1
        _apply_step(&walk.board, BAR, BAR - die)
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
        _apply_step(out, origin, origin - walk.die)
        highest = origin
        moves -= 1
