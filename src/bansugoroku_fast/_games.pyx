# cython: language_level=3
"""Whole games in the kernels: the policies' choices, games played and
logged, rollouts, a network's best replies; the Python entry points of
games and of the features.

Everything here is specified by ``bansugoroku_fast.oracle.games`` (the dice
stream, the features, the scores and the tie rule) and must compute exactly
what it computes; the scores themselves are ``_scoring``'s (features,
pubeval, a network's 0-ply equity), which this module calls.

The Python layer validates every argument; the loops here trust them. A
game that fails reports a Status (``_board.pxd``: STATUS_TOO_LONG,
STATUS_NO_MEMORY) in the status array of the call, which the Python layer
turns into its error; an entry point raises only for a call that breaks its
contract (lengths, a policy's weights). What this module shares with
``_env.pyx`` (the dice, the policies, the steps of a ply) is declared, and
its inline parts defined, in ``_games.pxd``.
"""
cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memcpy, memset

import numpy as np

from ._board cimport (
    KIND_NONE, PLACES, STATUS_NO_MEMORY, STATUS_OK, STATUS_TOO_LONG, Board, RuleSet, Scan, rules_from_code,
    scan_board,
)
from ._pool cimport BSF_POOL_MOST_THREADS, bsf_job, job_threads, run_job
from ._net cimport BSF_NET_MAX_HIDDEN, Model, bsf_net, is_race, model_of, net_for
from ._queries cimport outcome_of
from ._scoring cimport (
    FEATURES, NetParent, board_features, linear_score, net_choice, net_choice_of, net_parent,
    net_probabilities, pubeval_score,
)
from ._tables cimport RaceTables, race_figures
from ._search cimport (
    MODE_PLAYS, Search, found_board, free_slot_searches, run_turn, run_turn_scanned, search_free, search_new,
    slot_search, two_move_play,
)
from ._shortcuts cimport DoubleWalk, count_two_moves, double_count, double_play, two_moves_decided

from bansugoroku_fast.scoring import FEATURE_NAMES

#: The side features a network reads in the kernels (``_scoring.net_features``
#: computes them): every other one is linear in the raw encoding's units of
#: the board and is folded into the board's rows instead
#: (``evaluators.kernel_arrays.model``).
NET_SIDE_FEATURES = ("prime", "exposure", "closure", "won")

#: The most units a hidden layer of a network that plays in the game loop
#: (POLICY_NET) may have: its scratch lives on the stack.
NET_MAX_HIDDEN = BSF_NET_MAX_HIDDEN


# --- choosing a play (Policy: _games.pxd; Children: _scoring.pxd) ------------------------------


cdef int choose_play(const Policy* policy, const Board* parent, const Children* children,
                     RuleSet rules, uint64_t key, int64_t ply) noexcept nogil:
    """The index of the play ``policy`` picks among ``children.count`` > 0
    plays of ``parent``; the first greatest score wins."""
    cdef int k, best = 0
    cdef double score, best_score = 0.0
    cdef bint race = False
    if policy.code == POLICY_RANDOM:
        return <int> below(ply_word(key, ply, CHOICE_STREAM), <uint64_t> children.count)
    if policy.code == POLICY_FIRST or children.count == 1:
        return 0
    if policy.code == POLICY_NET:
        return net_choice(policy.net, parent, children, rules)
    if policy.code == POLICY_PUBEVAL:
        race = is_race(parent)
    for k in range(children.count):
        if policy.code == POLICY_PUBEVAL:
            score = pubeval_score(child_at(children, k), race)
        else:
            score = linear_score(policy.weights, child_at(children, k), rules)
        if k == 0 or score > best_score:
            best, best_score = k, score
    return best


# --- whole games ---------------------------------------------------------------------------


cdef enum:
    PLY_BYTES = 106         # a logged ply: position (52), dice (2), after (52)

#: The games ``play_batch`` records, as the kernel writes them, each field
#: ``(name, numpy dtype, shape of an entry)``: per ply, the arrays it
#: returns (in a thread's log, the fields of a ply follow each other,
#: ``PLY_BYTES`` a ply); per game, the arrays the caller passes (``status``:
#: STATUS_OK or the game's Status), which ``rollout_batch`` fills too. The
#: Python layer checks its own records against these at import
#: (``bansugoroku_fast._kernel.check_layout``).
PLY_FIELDS = (("positions", "i1", (2, PLACES)), ("dice", "i1", (2,)), ("after", "i1", (2, PLACES)))
PLY_ROW_BYTES = PLY_BYTES
GAME_FIELDS = (("winner", "i1", ()), ("value", "i1", ()), ("kind", "i1", ()), ("plies", "i4", ()),
               ("status", "i1", ()))
GAME_ROW_BYTES = 3 * sizeof(int8_t) + sizeof(int32_t) + sizeof(int8_t)


cdef struct GameEnd:
    int winner              # seat: 0 = the side that moved first; GAME_SETTLED: stopped at the tables
    int value
    int kind
    int64_t plies
    double race[3]          # stopped at the tables: the mover's win, win_gammon, lose_gammon


cdef enum:
    GAME_SETTLED = -2       # the winner of a game stopped at the endgame tables


# A thread's record of the plies it played, game after game.
cdef struct PlyLog:
    signed char* data
    int64_t used            # plies
    int64_t capacity


cdef bint log_ply(PlyLog* log, const Board* before, int a, int b, const Board* after) noexcept nogil:
    cdef int64_t capacity
    cdef signed char* data
    cdef signed char* row
    if log.used == log.capacity:
        capacity = 2 * log.capacity if log.capacity else 4096
        data = <signed char*> realloc(log.data, capacity * PLY_BYTES)
        if data == NULL:
            return False
        log.data, log.capacity = data, capacity
    row = log.data + log.used * PLY_BYTES
    memcpy(row, before, 52)
    row[52] = a
    row[53] = b
    memcpy(row + 54, after, 52)
    log.used += 1
    return True


cdef int random_play(Search* s, const Board* board, int a, int b, uint64_t word, Board* after) noexcept nogil:
    """``after`` = ``board`` after the play the ``"random"`` policy draws
    with ``word`` (play ``below(word, n)`` of the roll's ``n`` plays, in
    ``legal_plays`` order; ``board`` itself on a pass): ``n``, or < 0 if out
    of memory. Where the closed forms count the plays, only the play drawn
    is made (``two_move_play``, ``double_play``); elsewhere the search lists
    them all, as for the other policies."""
    cdef Scan scan
    cdef DoubleWalk walk
    cdef int count = -1
    scan_board(board, &scan)
    if a != b or s.rules.doubles_moves == 2:
        if two_moves_decided(board, &scan, s.rules):
            count = count_two_moves(board, &scan, s.rules, a if a > b else b, b if a > b else a)
        if count > 0:
            two_move_play(board, &scan, a, b, <int> below(word, <uint64_t> count), after)
            return count
    else:
        count = double_count(board, &scan, a, &walk)
        if count > 0:
            double_play(&walk, <int> below(word, <uint64_t> count), after)
            return count
        count = -1      # no play uses four moves: the search finds the longest
    if count < 0:
        count = run_turn_scanned(s, board, &scan, a, b, MODE_PLAYS)
    if count > 0:
        memcpy(after, found_board(s, <int> below(word, <uint64_t> count)), sizeof(Board))
    elif count == 0:
        memcpy(after, board, sizeof(Board))
    return count


cdef int take_turn(Search* s, const Board* board, const Policy* policy, uint64_t key, int64_t game, int64_t ply,
                   bint opening, int stratify, int* a, int* b, Board* after) noexcept nogil:
    """Roll ply ``ply`` of ``game`` (``a``, ``b``) and play ``policy``'s
    choice: ``after`` = ``board`` after it, seen by the mover (``board``
    itself on a pass). Returns the roll's number of plays, < 0 if out of
    memory."""
    cdef Children children
    cdef int count
    roll_dice(key, game, ply, opening, stratify, a, b)
    if policy.code == POLICY_RANDOM:
        return random_play(s, board, a[0], b[0], ply_word(key, ply, CHOICE_STREAM), after)
    count = run_turn(s, board, a[0], b[0], MODE_PLAYS)
    if count > 0:
        children = found_children(s, count)
        memcpy(after, child_at(&children, choose_play(policy, board, &children, s.rules, key, ply)), sizeof(Board))
    elif count == 0:
        memcpy(after, board, sizeof(Board))
    return count


cdef int play_game(Search* s, const Board* start, const Policy* policies, uint64_t seed,
                   int64_t game, bint opening, int stratify, int64_t max_plies, PlyLog* log,
                   GameEnd* end, const RaceTables* tables = NULL) noexcept nogil:
    """Play game ``game`` from ``start`` (seat 0 to move, a valid position);
    log its plies if ``log`` is not NULL. Returns a Status; a game not
    over after ``max_plies`` plies (STATUS_TOO_LONG) ends there with winner
    -1, its plies ``max_plies``. ``tables`` (not NULL): the game stops
    before the first ply whose position they value (winner GAME_SETTLED,
    ``plies`` the plies played, ``race`` the mover's figures)."""
    cdef Board board, after
    cdef double figures[5]
    cdef int winner, won, value, kind, a, b, seat
    cdef int64_t ply
    cdef uint64_t key = game_key(seed, game)
    cdef RuleSet rules = s.rules
    memcpy(&board, start, sizeof(Board))
    end.winner, end.value, end.kind, end.plies = -1, 0, -1, 0     # no end yet (kept if it fails)
    kind = outcome_of(&board, rules, &winner, &value)
    if kind != KIND_NONE:       # over before it starts: row me is seat 0
        end.winner, end.value, end.kind = winner, value, kind
        return STATUS_OK
    for ply in range(max_plies):
        if tables != NULL and race_figures(tables, &board.me[0], &board.opp[0], &figures[0]) >= 0:
            end.winner, end.plies = GAME_SETTLED, ply
            end.race[0], end.race[1], end.race[2] = figures[0], figures[1], figures[2]
            return STATUS_OK
        seat = ply & 1
        if take_turn(s, &board, &policies[seat], key, game, ply, opening, stratify, &a, &b, &after) < 0:
            return STATUS_NO_MEMORY
        kind = outcome_of(&after, rules, &won, &value)
        winner = seat if won == 0 else 1 - seat
        if log != NULL and not log_ply(log, &board, a, b, &after):
            return STATUS_NO_MEMORY
        if kind != KIND_NONE:
            end.winner, end.value, end.kind, end.plies = winner, value, kind, ply + 1
            return STATUS_OK
        pass_the_dice(&board, &after)
    end.plies = max_plies       # cut off unfinished (winner -1): its plies are logged
    return STATUS_TOO_LONG


cdef int load_policy(int code, const double* weights, Py_ssize_t count, Policy* policy) except -1:
    """``policy`` = policy ``code`` with the ``count`` values of ``weights``
    (at most FEATURES, read by POLICY_LINEAR; the missing ones 0). A
    network's policy (POLICY_NET) comes with its Model: ``load_policies``."""
    cdef Py_ssize_t i
    if count > FEATURES:
        raise ValueError(f"weights: {count} values, more than the {FEATURES} features")
    if code == POLICY_NET:
        raise ValueError("a network's policy needs its Model (models=)")
    policy.code = code
    policy.net = NULL
    for i in range(FEATURES):
        policy.weights[i] = weights[i] if i < count else 0.0
    return 0


cdef int load_policies(const int32_t[::1] codes, const double[:, ::1] weights, tuple models,
                       Policy* policies) except -1:
    """The policies of seats 0 and 1 (row ``seat`` of ``codes``, ``weights``
    and ``models``: a seat playing POLICY_NET has its ``_net.Model`` there,
    the others None; the caller keeps the Models alive while games run)."""
    cdef int seat
    cdef Model model
    if len(models) != 2:
        raise ValueError(f"models: one per seat (2), got {len(models)}")
    for seat in range(2):
        if codes[seat] != POLICY_NET:
            load_policy(codes[seat], &weights[seat, 0] if weights.shape[1] else NULL, weights.shape[1],
                        &policies[seat])
            continue
        if not isinstance(models[seat], Model):
            raise TypeError(f"models[{seat}]: a network's policy needs a _net.Model, got {models[seat]!r}")
        model = models[seat]
        if model.net.hidden1 > BSF_NET_MAX_HIDDEN or model.net.hidden2 > BSF_NET_MAX_HIDDEN:
            raise ValueError(f"models[{seat}]: hidden layers of at most {BSF_NET_MAX_HIDDEN} units play in games")
        policies[seat].code = POLICY_NET
        policies[seat].net = model_of(model)
    return 0


# --- Python entry points ---------------------------------------------------------------
#
# Games spread over the threads of the pool (``_pool``) CHUNK at a time,
# each thread with its own search; a game's result depends only on the game.

cdef enum:
    CHUNK = 4       # games a thread takes at a time


@cython.boundscheck(False)
@cython.wraparound(False)
def features_batch(const signed char[:, :, ::1] positions, int code, float[:, ::1] out):
    """``out[i]`` = the FEATURES values of position i."""
    cdef Py_ssize_t n = positions.shape[0], i
    cdef int k
    cdef int values[FEATURES]
    cdef RuleSet rules = rules_from_code(code)
    with nogil:
        for i in range(n):
            board_features(<const Board*> &positions[i, 0, 0], rules, values)
            for k in range(FEATURES):
                out[i, k] = values[k]


@cython.boundscheck(False)
@cython.wraparound(False)
def dice_batch(uint64_t seed, const int64_t[::1] games, const int64_t[::1] plies, bint opening,
               int stratify, signed char[:, ::1] out):
    """``out[i]`` = the roll of ply ``plies[i]`` of game ``games[i]`` (games
    at any plies: a lockstep wave or a vector environment mixes them)."""
    cdef Py_ssize_t i
    cdef int a, b
    if plies.shape[0] != games.shape[0] or out.shape[0] != games.shape[0] or out.shape[1] != 2:
        raise ValueError("games, plies and out (n x 2) must have the same length")
    with nogil:
        for i in range(games.shape[0]):
            roll_dice(game_key(seed, <uint64_t> games[i]), games[i], plies[i], opening, stratify, &a, &b)
            out[i, 0] = a
            out[i, 1] = b


@cython.boundscheck(False)
@cython.wraparound(False)
def choose_batch(int policy_code, const double[::1] weights, const signed char[:, :, ::1] parents,
                 const int64_t[::1] offsets, const signed char[:, :, ::1] children, int code,
                 uint64_t seed, const int64_t[::1] games, const int64_t[::1] plies, int32_t[::1] out):
    """``out[i]`` = the index (within item i's plays, rows
    ``offsets[i]:offsets[i + 1]`` of ``children``, in ``legal_plays`` order)
    of the play the policy picks at ply ``plies[i]`` of game ``games[i]``;
    -1 for an item with no play. For lockstep drivers that generate the
    plays themselves (``weights``: FEATURES values, used by POLICY_LINEAR).
    The offsets must rise within ``children`` (the caller's own arrays)."""
    cdef Py_ssize_t i, n = parents.shape[0]
    if games.shape[0] != n or plies.shape[0] != n or out.shape[0] != n or offsets.shape[0] != n + 1:
        raise ValueError("parents, games, plies, out and offsets (n + 1) disagree in length")
    if n and (offsets[0] < 0 or offsets[n] > children.shape[0]):
        raise ValueError("offsets outside children")
    cdef Policy policy
    cdef Children plays
    cdef RuleSet rules = rules_from_code(code)
    load_policy(policy_code, &weights[0] if weights.shape[0] else NULL, weights.shape[0], &policy)
    plays.stride = sizeof(Board)
    plays.index = NULL
    with nogil:
        for i in range(parents.shape[0]):
            plays.count = <int> (offsets[i + 1] - offsets[i])
            if plays.count == 0:
                out[i] = -1
                continue
            plays.base = <const char*> &children[offsets[i], 0, 0]
            out[i] = choose_play(&policy, <const Board*> &parents[i, 0, 0], &plays, rules,
                                 game_key(seed, <uint64_t> games[i]), plies[i])


@cython.boundscheck(False)
@cython.wraparound(False)
def random_play_batch(const signed char[:, :, ::1] positions, const signed char[:, ::1] dice, int code,
                      const uint64_t[::1] words, signed char[:, :, ::1] out, int32_t[::1] counts):
    """``out[i]`` = position i after the play the ``"random"`` policy draws
    with ``words[i]`` for the roll ``dice[i]`` (position i itself on a
    pass), ``counts[i]`` the roll's number of plays: the draw of the game
    loop (``random_play``), item by item, for tests. The positions must be
    valid games going on under the rules (the caller checks them)."""
    cdef Py_ssize_t i, n = positions.shape[0]
    cdef int count = 0
    if (dice.shape[0] != n or dice.shape[1] != 2 or words.shape[0] != n or out.shape[0] != n
            or counts.shape[0] != n or (n and (positions.shape[1] != 2 or positions.shape[2] != 26
                                                 or out.shape[1] != 2 or out.shape[2] != 26))):
        raise ValueError("positions (n x 2 x 26), dice (n x 2), words, out (n x 2 x 26) and counts disagree")
    for i in range(n):
        if not (1 <= dice[i, 0] <= 6 and 1 <= dice[i, 1] <= 6):
            raise ValueError(f"dice[{i}] = {dice[i, 0]}, {dice[i, 1]}: a die outside 1..6")
    cdef Search* s = search_new(rules_from_code(code), True)
    if s == NULL:
        raise MemoryError("out of memory while drawing plays")
    with nogil:
        for i in range(n):
            count = random_play(s, <const Board*> &positions[i, 0, 0], dice[i, 0], dice[i, 1], words[i],
                                <Board*> &out[i, 0, 0])
            if count < 0:
                break
            counts[i] = count
        search_free(s)
    if count < 0:
        raise MemoryError("out of memory while drawing plays")


# What the threads of a batch of games share: where each game starts and
# which game it is, the settings, a search per slot, the caller's arrays for
# how each game ended, and (play_batch) the logs of the plies.
cdef struct GameBatch:
    Search** searches               # slot k's search (``slot_search``), for the slots of ``threads``
    int threads
    RuleSet rules
    const Policy* policies
    uint64_t seed
    int stratify
    int64_t max_plies
    const Board* positions          # item i starts from positions[i // per_position] ...
    int64_t per_position
    int64_t first_game              # ... and is game first_game + i % per_position
    bint opening
    int8_t* winner
    int8_t* value
    int8_t* kind
    int32_t* plies
    int8_t* status
    PlyLog* logs                    # slot k's plies, game after game (NULL: no log kept)
    int64_t* first_ply              # item i's first ply in the log of its slot
    int32_t* thread_of              # the slot that played item i
    const RaceTables* tables        # not NULL: games stop at the endgame tables ...
    double* race                    # ... item i's figures at race[3 i .. 3 i + 2]


cdef int start_game_batch(GameBatch* batch, Search** searches, int threads, const Board* positions,
                          int64_t per_position, int64_t first_game, bint opening, const int32_t[::1] codes,
                          const double[:, ::1] weights, tuple models, Policy* policies, int code, uint64_t seed, int stratify,
                          int64_t max_plies, int8_t[::1] winner, int8_t[::1] value, int8_t[::1] kind,
                          int32_t[::1] plies, int8_t[::1] status) except -1:
    """Fill ``batch`` for ``threads`` threads (``job_threads``; ``searches``:
    room for one a slot; ``policies``: room for the two seats' policies; the
    arrays: one entry an item, at least one), no log kept."""
    load_policies(codes, weights, models, policies)
    memset(searches, 0, threads * sizeof(Search*))
    batch.searches, batch.threads = searches, threads
    batch.rules, batch.policies, batch.seed = rules_from_code(code), policies, seed
    batch.stratify, batch.max_plies = stratify, max_plies
    batch.positions, batch.per_position, batch.first_game = positions, per_position, first_game
    batch.opening = opening
    batch.winner, batch.value, batch.kind = &winner[0], &value[0], &kind[0]
    batch.plies, batch.status = &plies[0], &status[0]
    batch.logs, batch.first_ply, batch.thread_of = NULL, NULL, NULL
    batch.tables, batch.race = NULL, NULL
    return 0


cdef void play_items(void* task, int slot, int64_t start, int64_t stop) noexcept nogil:
    """Items ``start .. stop - 1`` of the batch ``task`` on the thread of
    ``slot``: each game played (logged in the slot's log if the batch keeps
    logs) and how it ended written to the batch's arrays."""
    cdef GameBatch* batch = <GameBatch*> task
    cdef Search* s = slot_search(batch.searches, slot, batch.rules, True)
    cdef PlyLog* log = NULL
    cdef GameEnd end
    cdef int64_t item
    for item in range(start, stop):
        if s == NULL:
            batch.status[item] = STATUS_NO_MEMORY
            continue
        if batch.logs != NULL:
            log = &batch.logs[slot]
            batch.thread_of[item], batch.first_ply[item] = slot, log.used
        batch.status[item] = play_game(s, batch.positions + item // batch.per_position, batch.policies, batch.seed,
                                       batch.first_game + item % batch.per_position, batch.opening,
                                       batch.stratify, batch.max_plies, log, &end, batch.tables)
        if batch.race != NULL and end.winner == GAME_SETTLED:
            batch.race[3 * item], batch.race[3 * item + 1], batch.race[3 * item + 2] = \
                end.race[0], end.race[1], end.race[2]
        batch.winner[item], batch.value[item], batch.kind[item] = end.winner, end.value, end.kind
        batch.plies[item] = <int32_t> end.plies


cdef void run_games(GameBatch* batch, int64_t items) noexcept nogil:
    """Items 0 .. ``items`` - 1 of ``batch`` on the pool, CHUNK at a time;
    then free the slots' searches."""
    cdef bsf_job job
    job.run, job.task, job.items, job.chunk, job.threads = play_items, batch, items, CHUNK, batch.threads
    job.followed = False
    run_job(&job)
    free_slot_searches(batch.searches, batch.threads)


@cython.boundscheck(False)
@cython.wraparound(False)
def rollout_batch(const signed char[:, :, ::1] positions, int64_t first_game, int64_t games,
                  const int32_t[::1] codes, const double[:, ::1] weights, tuple models, int code, uint64_t seed,
                  int stratify, int64_t max_plies, int threads, int8_t[::1] winner,
                  int8_t[::1] value, int8_t[::1] kind, int32_t[::1] plies, int8_t[::1] status):
    """Item ``i * games + j`` = game ``first_game + j`` from position i
    (seat 0 = its row 0, to roll): its winning seat, value, kind, plies and
    Status, no plies logged. ``models``: each seat's ``_net.Model`` where
    ``codes`` says POLICY_NET, else None."""
    cdef Policy policies[2]
    cdef Search* searches[BSF_POOL_MOST_THREADS]
    cdef GameBatch batch
    cdef int64_t items = positions.shape[0] * games
    if items == 0:
        return
    start_game_batch(&batch, searches, job_threads(threads), <const Board*> &positions[0, 0, 0], games, first_game,
                     False, codes, weights, models, policies, code, seed, stratify, max_plies, winner, value, kind,
                     plies, status)
    with nogil:
        run_games(&batch, items)


@cython.boundscheck(False)
@cython.wraparound(False)
def rollout_batch_to_tables(const signed char[:, :, ::1] positions, int64_t first_game, int64_t games,
                            const int32_t[::1] codes, const double[:, ::1] weights, tuple models, int code,
                            uint64_t seed, int stratify, int64_t max_plies, int threads, bint bears_off, bint gammons,
                            const double[:, ::1] finish, const double[::1] finish_mean,
                            const double[:, ::1] first, const double[:, ::1] win_table,
                            int8_t[::1] winner, int8_t[::1] value, int8_t[::1] kind, int32_t[::1] plies,
                            int8_t[::1] status, double[:, ::1] race):
    """``rollout_batch``, each game stopped before the first ply whose
    position the tables value (``_tables.race_lookup``'s arguments): its
    winner GAME_SETTLED, its plies those played, ``race[item]`` the
    mover's (win, win_gammon, lose_gammon) there (the mover: seat plies %
    2). ``first`` empty or ``gammons`` False: no gammons; ``win_table``
    empty: one-sided only."""
    cdef Policy policies[2]
    cdef Search* searches[BSF_POOL_MOST_THREADS]
    cdef GameBatch batch
    cdef RaceTables tables
    cdef int64_t items = positions.shape[0] * games
    if items == 0:
        return
    tables.finish = &finish[0, 0]
    tables.finish_mean = &finish_mean[0]
    tables.first = &first[0, 0] if (gammons and first.shape[0] > 0) else NULL
    tables.win = &win_table[0, 0] if win_table.shape[0] > 0 else NULL
    tables.turns = <int> finish.shape[1]
    tables.bears_off = bears_off
    start_game_batch(&batch, searches, job_threads(threads), <const Board*> &positions[0, 0, 0], games, first_game,
                     False, codes, weights, models, policies, code, seed, stratify, max_plies, winner, value, kind,
                     plies, status)
    batch.tables, batch.race = &tables, &race[0, 0]
    with nogil:
        run_games(&batch, items)


# --- the best replies by a network (a search's level, a rollout's luck) ---------------------------


# What the threads of best_replies_batch share.
cdef struct Replies:
    Search** searches               # slot k's search (``slot_search``)
    RuleSet rules
    const bsf_net* net
    const Board* parents
    const signed char* dice         # rolls x 2
    int rolls
    Board* replies                  # parents x rolls
    float* values                   # parents x rolls x 5
    int8_t* status                  # parents


cdef void reply_items(void* task, int slot, int64_t start, int64_t stop) noexcept nogil:
    """Parents ``start .. stop - 1`` of the Replies ``task``, each seen by
    the network once: for each roll, the play ``net_choice_of`` picks and
    the probabilities it scored it with (the parent itself on a pass,
    scored from scratch: a game going on)."""
    cdef Replies* t = <Replies*> task
    cdef Search* s = slot_search(t.searches, slot, t.rules, True)
    cdef const bsf_net* net
    cdef NetParent parent
    cdef Board* reply
    cdef Children children
    cdef int64_t item, at
    cdef int roll, count
    for item in range(start, stop):
        t.status[item] = STATUS_OK if s != NULL else STATUS_NO_MEMORY
        net = net_for(t.net, t.parents + item)
        if s != NULL:
            net_parent(net, t.parents + item, t.rules, &parent)
        for roll in range(t.rolls if s != NULL else 0):
            at = item * t.rolls + roll
            reply = t.replies + at
            count = run_turn(s, parent.board, t.dice[2 * roll], t.dice[2 * roll + 1], MODE_PLAYS)
            if count < 0:
                t.status[item] = STATUS_NO_MEMORY
                break
            if count == 0:
                memcpy(reply, parent.board, sizeof(Board))
                net_probabilities(net, reply, t.rules, t.values + 5 * at)
            else:
                children = found_children(s, count)
                memcpy(reply, child_at(&children, net_choice_of(net, &parent, &children, t.rules,
                                                                t.values + 5 * at)), sizeof(Board))


@cython.boundscheck(False)
@cython.wraparound(False)
def best_replies_batch(Model model, const signed char[:, :, ::1] parents, const signed char[:, ::1] dice, int code,
                       int threads, signed char[:, :, ::1] replies, float[:, ::1] values, int8_t[::1] status):
    """For parent i (row 0 to play, a game going on) and roll r (``dice[r]``):
    ``replies[i * R + r]`` = the play the network picks at 0 ply, as the
    game loop's ``"net"`` policy does (``net_choice_of``; the parent itself
    when the roll has no play), seen by its mover, and ``values[i * R +
    r]`` its five probabilities (from its parent's sums, as it was chosen;
    a pass: ``net_probabilities``); ``status[i]``
    STATUS_OK or STATUS_NO_MEMORY. On ``threads`` threads of the pool: the
    same results on any count."""
    cdef int64_t n = parents.shape[0], rolls = dice.shape[0]
    if (dice.shape[1] != 2 or replies.shape[0] != n * rolls or values.shape[0] != n * rolls
            or values.shape[1] != 5 or status.shape[0] != n):
        raise ValueError("parents, dice, replies, values and status disagree in shape")
    if model.net.hidden1 > BSF_NET_MAX_HIDDEN or model.net.hidden2 > BSF_NET_MAX_HIDDEN:
        raise ValueError(f"a network with more than {BSF_NET_MAX_HIDDEN} units in a layer cannot play in the kernels")
    if n == 0 or rolls == 0:
        return
    cdef Search* searches[BSF_POOL_MOST_THREADS]
    cdef Replies task
    cdef bsf_job job
    job.threads = job_threads(threads)
    memset(searches, 0, job.threads * sizeof(Search*))
    task.searches, task.rules, task.net = searches, rules_from_code(code), model_of(model)
    task.parents, task.dice, task.rolls = <const Board*> &parents[0, 0, 0], &dice[0, 0], <int> rolls
    task.replies, task.values, task.status = <Board*> &replies[0, 0, 0], &values[0, 0], &status[0]
    job.run, job.task, job.items, job.chunk = reply_items, &task, n, CHUNK
    job.followed = False
    with nogil:
        run_job(&job)
        free_slot_searches(searches, job.threads)


cdef void _free_all(void* a, void* b, void* c) noexcept nogil:
    free(a)
    free(b)
    free(c)


@cython.boundscheck(False)
@cython.wraparound(False)
def play_batch(const signed char[:, ::1] start, int64_t games, bint opening, int stratify,
               const int32_t[::1] codes, const double[:, ::1] weights, tuple models, int code, uint64_t seed,
               int64_t max_plies, int threads, int8_t[::1] winner, int8_t[::1] value,
               int8_t[::1] kind, int32_t[::1] plies, int8_t[::1] status):
    """Games 0 .. games - 1 from ``start``, every ply logged: returns
    ``(positions, dice, after)`` of all plies, game after game (empty if a
    game failed for want of memory: see ``status``; a game cut off at
    ``max_plies`` keeps its plies)."""
    cdef Py_ssize_t game, thread
    cdef int64_t ply
    cdef Policy policies[2]
    cdef Search* searches[BSF_POOL_MOST_THREADS]
    cdef GameBatch batch
    if games == 0:
        return (np.empty((0, 2, 26), dtype=np.int8), np.empty((0, 2), dtype=np.int8),
                np.empty((0, 2, 26), dtype=np.int8))
    threads = job_threads(threads)
    cdef PlyLog* logs = <PlyLog*> calloc(threads, sizeof(PlyLog))
    cdef int64_t* first_ply = <int64_t*> calloc(games, sizeof(int64_t))
    cdef int32_t* thread_of = <int32_t*> calloc(games, sizeof(int32_t))
    cdef int64_t total = 0, row
    cdef bint failed = False
    if logs == NULL or first_ply == NULL or thread_of == NULL:
        _free_all(logs, first_ply, thread_of)
        raise MemoryError("out of memory while playing games")
    try:
        start_game_batch(&batch, searches, threads, <const Board*> &start[0, 0], games, 0, opening, codes, weights,
                         models, policies, code, seed, stratify, max_plies, winner, value, kind, plies, status)
    except BaseException:
        _free_all(logs, first_ply, thread_of)
        raise
    batch.logs, batch.first_ply, batch.thread_of = logs, first_ply, thread_of
    with nogil:
        run_games(&batch, games)
    for game in range(games):      # a game cut off at max_plies keeps its plies
        failed = failed or (status[game] != STATUS_OK and status[game] != STATUS_TOO_LONG)
        total += plies[game]
    if failed:
        total = 0
    positions = np.empty((total, 2, 26), dtype=np.int8)
    dice = np.empty((total, 2), dtype=np.int8)
    after = np.empty((total, 2, 26), dtype=np.int8)
    cdef signed char[:, :, ::1] positions_out = positions
    cdef signed char[:, ::1] dice_out = dice
    cdef signed char[:, :, ::1] after_out = after
    cdef signed char* logged
    row = 0
    if not failed:
        with nogil:
            for game in range(games):
                for ply in range(plies[game]):
                    logged = logs[thread_of[game]].data + (first_ply[game] + ply) * PLY_BYTES
                    memcpy(&positions_out[row, 0, 0], logged, 52)
                    dice_out[row, 0], dice_out[row, 1] = logged[52], logged[53]
                    memcpy(&after_out[row, 0, 0], logged + 54, 52)
                    row += 1
    for thread in range(threads):
        free(logs[thread].data)
    _free_all(logs, first_ply, thread_of)
    return positions, dice, after
