# cython: language_level=3
"""The board every kernel shares: layout, constants, rule sets, outcome
kinds, the single-call play record, and the bit-mask helpers.

Header only (types, enums and inline functions; no module at run time), so
every kernel module that cimports from here compiles these helpers in and
the C compiler can inline them into its hot loops.

A position inside the kernels is a :c:type:`Board`: the two rows of the
interchange layout, row ``me`` = the side to move, row ``opp`` = its opponent,
each in its own numbering (0 = borne off, 1..24 = points, 25 = bar).

Why it is fast: a row is 26 bytes, so two overlapping 16-byte SSE2 loads
hold a whole row; one pass over a position's four loads (``scan_rows``)
gives its copy, its check and every mask at once (``Scan``), the
opponent's row byte-reversed in registers so that its masks come out in
the mover's numbering. The masks of points the mover occupies, holds
twice, or may land on are plain 32-bit integers (bit p = point p), which
the search and the closed-form shortcuts combine with shifts and
popcounts (a table look-up for masks of places).
"""
from libc.stdint cimport uint32_t
from libc.string cimport memcpy

cdef enum:
    OFF = 0
    BAR = 25
    PLACES = 26
    STONES = 15
    HOME_TOP = 6            # points 1..6 are home
    MAX_STEPS = 4
    POINT_BITS = 0x1FFFFFE  # bits 1..24

# The record of one play in a single-call result (what api.py decodes): the
# board (52 bytes, row me then row opp), the number of steps, padding, then
# one (origin, target, die, hit) group of bytes per step.
cdef enum:
    RECORD_BOARD = 0
    RECORD_NSTEPS = 52
    RECORD_STEPS = 56
    RECORD_STEP_BYTES = 4
    RECORD_BYTES = RECORD_STEPS + MAX_STEPS * RECORD_STEP_BYTES

# The one error rule of every kernel entry point (_single, _batch, _games,
# _env, _tables): a problem with the data it is given (a position, a roll, a row or a
# choice of a game, a game that fails) is a Status < 0, reported instead of
# a result (a count or a flag >= 0 is a result): a single call returns it,
# a batch call returns ``(item, status)`` of its first problem in item order
# (or writes one Status an item into an array the caller passed). The Python
# layer turns it into its typed error, with the message that says what and
# where (``bansugoroku_fast._kernel``; its STATUS names them). An
# entry point raises only when a call breaks its contract with the Python
# layer (array shapes and lengths, a rule or policy code: what the package
# itself makes, never a user's data; ValueError), or when it cannot allocate
# its own working memory before any item (MemoryError).
cdef enum Status:
    STATUS_OK = 0
    STATUS_BOTH_WON = -1            # both rows satisfy a win: no game reaches it
    STATUS_NO_MEMORY = -2
    STATUS_INVALID_POSITION = -3    # not a valid position (what is wrong: _validate)
    STATUS_BORNE_OFF = -4           # stones borne off although the rules never bear off
    STATUS_INVALID_DICE = -5        # a die outside 1..6
    STATUS_CHANGED = -6             # the input changed between two passes over it
    STATUS_TOO_LONG = -7            # a game not over after the most plies it may last
    STATUS_NO_SUCH_ROW = -8         # a row index outside the games of a call (_env)
    STATUS_ROW_TWICE = -9           # a game row listed twice in one call (_env)
    STATUS_BAD_CHOICE = -10         # a choice that is none of its roll's plays (nor -1, roll first)
    STATUS_NO_PLAY = -11            # a roll with no legal play where one must exist (_tables' builders)

# Outcome kinds, in the order of bansugoroku_fast.play.OutcomeKind.
cdef enum Kind:
    KIND_NONE = -1
    KIND_ARRIVAL = 0
    KIND_BEAR_OFF = 1
    KIND_CLOSED_HOME_X2 = 2
    KIND_CLOSED_HOME_X3 = 3
    KIND_CLOSURE = 4
    KIND_SINGLE = 5
    KIND_GAMMON = 6
    KIND_BACKGAMMON = 7
    KIND_BOTH_WON = -2     # invalid: both rows satisfy a win

cdef enum Closure:
    CLOSURE_OFF = 0
    CLOSURE_MULTIPLIED = 1
    CLOSURE_IMMEDIATE = 2

cdef struct Board:
    signed char me[26]
    signed char opp[26]

cdef struct RuleSet:
    bint bears_off
    int closure           # a Closure
    bint backgammon
    int doubles_moves     # 2 (Ban-sugoroku) or 4 (backgammon)
    bint win_stops        # a Ban-sugoroku sequence ends when its side wins

cdef enum:
    RULE_CODES = 16       # rule codes are 0..15 (4 bits); rules.py derives them


cdef inline RuleSet rules_from_code(int code) noexcept nogil:
    """The rule set of a rule code (``Rules.code``): bit 0 bear-off finish,
    bits 1-2 the closure (0 off, 1 multiplied, 2 immediate), bit 3 backgammon."""
    cdef RuleSet rules
    rules.bears_off = code & 1
    rules.closure = (code >> 1) & 3
    rules.backgammon = (code >> 3) & 1
    rules.doubles_moves = 4 if rules.backgammon else 2
    rules.win_stops = not rules.backgammon
    return rules


cdef inline RuleSet checked_rules(int code) except *:
    """rules_from_code for an entry point: a code outside 0..RULE_CODES - 1
    breaks the calling contract (the Python layer passes ``Rules.code``)."""
    if not 0 <= code < RULE_CODES:
        raise ValueError(f"rule code must be in 0..{RULE_CODES - 1}, got {code}")
    return rules_from_code(code)


# The bit masks of a board, in C (bsf_board.h): SSE2 loads and compares
# where there is SSE2, table popcounts where there is no POPCNT.
cdef extern from "bsf_board.h":
    unsigned int row_gt "bsf_row_gt"(const signed char* row, int k) noexcept nogil
    unsigned int row_eq "bsf_row_eq"(const signed char* row, int k) noexcept nogil
    int popcount "bsf_popcount"(unsigned int) noexcept nogil
    int popcount_places "bsf_popcount_places"(unsigned int) noexcept nogil     # x < 2**26
    int highest_bit "bsf_highest_bit"(unsigned int) noexcept nogil   # x != 0
    int lowest_bit "bsf_lowest_bit"(unsigned int x) noexcept nogil   # x != 0

    ctypedef struct Scan "bsf_scan":
        unsigned int me_any       # bit i: the mover has stones on its place i (0..25)
        unsigned int me_multi     # bit i: two or more
        unsigned int opp_any      # bit p: the opponent has stones on its place 25 - p
        unsigned int opp_multi    # bit p: two or more there (p a point: blocked for the mover)
        unsigned int opp_blot     # bit p: exactly one there
        int counts_ok             # no count below 0, and 15 stones in each row
    void scan_rows "bsf_scan_rows"(const signed char* rows, Scan* scan, signed char* copy) noexcept nogil


cdef enum:
    OUTSIDE_PLACES = 0x3FFFF80      # bits 7..25: the mover's places outside home (the bar too)
    OPP_OUTSIDE_PLACES = 0x7FFFF    # bits 0..18 of the opponent's masks: its places 25..7
    HOME_POINTS = 0x7E              # bits 1..6
    OPP_HOME_POINTS = 0x1F80000     # bits 19..24 of the opponent's masks: its points 6..1


cdef inline int nth_highest(unsigned int bits, int k) noexcept nogil:
    """The ``k``-th highest set bit of ``bits`` (k = 0: the highest; k
    below the number of bits set)."""
    while k:
        bits ^= (<unsigned int> 1) << highest_bit(bits)
        k -= 1
    return highest_bit(bits)


cdef inline void scan_board(const Board* board, Scan* scan) noexcept nogil:
    """The masks and sums of ``board`` (see ``Scan``)."""
    scan_rows(<const signed char*> board, scan, NULL)


cdef inline void scan_masks(const Scan* scan, uint32_t* occupied, uint32_t* open_points,
                            uint32_t* multi, uint32_t* blots) noexcept nogil:
    """The points masks a turn's search starts from (bit p = point p,
    mover numbering): the mover occupies p, may land on p (fewer than two
    opponent stones), holds p with two or more, the opponent has a blot on p."""
    occupied[0] = scan.me_any & POINT_BITS
    open_points[0] = ~scan.opp_multi & POINT_BITS
    multi[0] = scan.me_multi & POINT_BITS
    blots[0] = scan.opp_blot & POINT_BITS


cdef inline int count_outside(const Board* board) noexcept nogil:
    """Mover stones on points 7..24 and the bar."""
    cdef int place, total = 0
    for place in range(HOME_TOP + 1, BAR + 1):
        total += board.me[place]
    return total


cdef inline bint two_or_more_outside(const Scan* scan) noexcept nogil:
    """Whether the mover has two or more stones on points 7..24 and the bar."""
    cdef uint32_t outside = scan.me_any & OUTSIDE_PLACES
    return (outside & (outside - 1)) != 0 or (scan.me_multi & OUTSIDE_PLACES) != 0


cdef inline bint home_closed(const signed char* own, const signed char* other) noexcept nogil:
    """``own`` holds each of its points 1..6 with two or more while ``other``
    has a stone on the bar (the closure, docs/rules.md §3.3)."""
    return (other[BAR] >= 1 and own[1] >= 2 and own[2] >= 2 and own[3] >= 2
            and own[4] >= 2 and own[5] >= 2 and own[6] >= 2)


cdef inline bint scan_valid(const Scan* scan) noexcept nogil:
    """Whether the scanned rows are a valid position: no negative count, 15
    stones a row, no point held by both sides (``_validate`` says what is
    wrong)."""
    return scan.counts_ok and (scan.me_any & scan.opp_any & POINT_BITS) == 0


cdef inline bint looks_valid(const signed char* rows) noexcept nogil:
    """Whether ``rows`` (2 x 26, row-major) is a valid position (scan_valid):
    branch-free on bit masks, a few ns."""
    cdef Scan scan
    scan_rows(rows, &scan, NULL)
    return scan_valid(&scan)


cdef inline int load_scanned(Board* board, Scan* scan, const signed char* rows, RuleSet rules) noexcept nogil:
    """Copy the position at ``rows`` (2 x 26, caller memory) to ``board``
    (memory the call owns), scan the copy's bytes as they are copied, and
    check them: STATUS_OK, or what is wrong. The kernels read only the copy
    and the scan, which hold the same bytes, so caller memory that changes
    meanwhile (another thread) cannot reach them unchecked."""
    scan_rows(rows, scan, <signed char*> board)
    if not scan_valid(scan):
        return STATUS_INVALID_POSITION
    if not rules.bears_off and (scan.me_any & 1 or scan.opp_any >> BAR):
        return STATUS_BORNE_OFF
    return STATUS_OK


cdef inline int load_item(Board* board, const signed char* rows, RuleSet rules) noexcept nogil:
    """load_scanned, keeping only the copy."""
    cdef Scan scan
    return load_scanned(board, &scan, rows, rules)


cdef inline bint surely_going_on(const Board* board, const Scan* scan, RuleSet rules) noexcept nogil:
    """True if no side can have won ``board`` (valid, scanned as ``scan``)
    under ``rules``: no finish (15 borne off; with the arrival finish, no
    stone outside home), no immediate closure. False: ask ``outcome_of``."""
    if rules.bears_off:
        if board.me[OFF] == STONES or board.opp[OFF] == STONES:
            return False
    elif (scan.me_any & OUTSIDE_PLACES) == 0 or (scan.opp_any & OPP_OUTSIDE_PLACES) == 0:
        return False
    if not rules.backgammon and rules.closure == CLOSURE_IMMEDIATE:
        if (scan.me_multi & HOME_POINTS) == HOME_POINTS and scan.opp_any & 1:
            return False
        if (scan.opp_multi & OPP_HOME_POINTS) == OPP_HOME_POINTS and scan.me_any >> BAR:
            return False
    return True


cdef inline int dice_status(int a, int b) noexcept nogil:
    """STATUS_OK for a roll of two dice in 1..6, else STATUS_INVALID_DICE
    (check the copies the kernel goes on with, not caller memory)."""
    if a < 1 or a > 6 or b < 1 or b > 6:
        return STATUS_INVALID_DICE
    return STATUS_OK
