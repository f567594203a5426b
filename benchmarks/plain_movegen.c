/* A plain C move generator: the yardstick of benchmarks/speed.py.
 *
 * The legal plays of a (position, roll) as the distinct resulting positions
 * (docs/rules.md §2), written the straightforward way and independently of
 * the package's kernels (src/bansugoroku_fast/): a depth-first search over
 * the single moves of each die order (a then b, b then a; a double as two or
 * four moves of one die, in backgammon with origins non-increasing so that
 * each set of moves is tried once), origins taken from a bit mask of the
 * occupied points, each leaf kept once in an open-addressing table keyed by
 * an additive Zobrist hash kept up to date move by move (and confirmed on
 * all 52 bytes), then the rules that compare sequences ("as many dice as
 * possible", "the larger die") applied to the leaves. Counting uses the same
 * search (no closed forms): the count is the number of distinct leaves.
 *
 * Two rule sets: Ban-sugoroku's defaults (two moves for a double, arrival
 * finish: stones never leave the board, and a sequence stops the moment all
 * fifteen stones stand on points 1..6, counting as using every die) and
 * modern backgammon (four moves for a double, bearing off). A game already
 * over (a side has won) has no plays, as count_plays has it.
 *
 * Boards are the interchange layout: int8[2][26], row 0 the side to move,
 * each row in its own numbering (0 borne off, 1..24 points, 25 bar).
 * No Python here: benchmarks/_plain_movegen.pyx wraps it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PM_OFF = 0, PM_BAR = 25, PM_PLACES = 26, PM_STONES = 15, PM_HOME_TOP = 6 };
enum { PM_BAN_SUGOROKU = 0, PM_BACKGAMMON = 1 };

typedef struct {
    int8_t me[PM_PLACES];
    int8_t opp[PM_PLACES];
} pm_board;

typedef struct {
    /* the rules */
    int bears_off;          /* stones may leave the board (backgammon) */
    int win_stops;          /* a sequence ends when its side wins (Ban-sugoroku) */
    /* the turn being searched */
    int ndice;              /* moves in a full play: 2, or 4 for a backgammon double */
    int die[4];             /* the die of each move, in the current order */
    int larger_first;       /* the current order starts with the larger of two dice */
    int any_order;          /* try the moves in every origin order, not only non-increasing */
    pm_board board;         /* made and unmade move by move */
    int outside;            /* mover's stones on the bar or on points 7..24 */
    uint32_t occupied;      /* bit p: the mover has a stone on place p (1..25) */
    uint64_t hash;          /* the board's Zobrist hash */
    /* the leaves: distinct resulting positions using best_used dice */
    int best_used;
    int count, capacity;
    pm_board* leaves;
    uint8_t* used_larger;   /* some sequence reaching the leaf played the larger die first */
    int32_t* leaf_slots;    /* the table slot of each leaf, to clear the table in O(leaves) */
    /* the dedupe table: leaf index + 1 per slot, 0 = empty */
    int32_t* slots;
    uint64_t* slot_hashes;
    int table_mask;
} pm_search;


/* --- the dedupe table ---------------------------------------------------- */

/* Additive Zobrist keys: a board's hash is the sum over places of the
 * count there times ZOBRIST[row * 26 + place], so moving a stone adds the
 * key of its new place and subtracts that of its old one, and a leaf's
 * hash costs nothing more. Filled once from splitmix64. */
static uint64_t ZOBRIST[2 * PM_PLACES];
static int zobrist_ready = 0;

static void pm_zobrist_init(void)
{
    uint64_t state = 0x2545F4914F6CDD1DULL, z;
    int k;
    for (k = 0; k < 2 * PM_PLACES; k++) {
        z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        ZOBRIST[k] = z ^ (z >> 31);
    }
    zobrist_ready = 1;
}

static uint64_t pm_hash(const pm_board* board)
{
    uint64_t hash = 0;
    int place;
    for (place = 0; place < PM_PLACES; place++)
        hash += (uint64_t) board->me[place] * ZOBRIST[place]
              + (uint64_t) board->opp[place] * ZOBRIST[PM_PLACES + place];
    return hash;
}

static inline int pm_same(const pm_board* a, const pm_board* b)
{
    uint64_t x, y, differ = 0;
    uint32_t u, v;
    int k;
    for (k = 0; k < 48; k += 8) {
        memcpy(&x, (const char*) a + k, 8);
        memcpy(&y, (const char*) b + k, 8);
        differ |= x ^ y;
    }
    memcpy(&u, (const char*) a + 48, 4);
    memcpy(&v, (const char*) b + 48, 4);
    return differ == 0 && u == v;
}

static void pm_clear_table(pm_search* s)
{
    int k;
    for (k = 0; k < s->count; k++)
        s->slots[s->leaf_slots[k]] = 0;
}

static void pm_clear_leaves(pm_search* s)
{
    pm_clear_table(s);
    s->count = 0;
}

/* Twice the leaves and table (the table stays at most half full); 0 if out of memory. */
static int pm_grow(pm_search* s)
{
    int capacity = s->capacity * 2, k, slot;
    pm_board* leaves = realloc(s->leaves, sizeof(pm_board) * (size_t) capacity);
    if (leaves == NULL)
        return 0;
    s->leaves = leaves;
    uint8_t* used_larger = realloc(s->used_larger, (size_t) capacity);
    if (used_larger == NULL)
        return 0;
    s->used_larger = used_larger;
    int32_t* leaf_slots = realloc(s->leaf_slots, sizeof(int32_t) * (size_t) capacity);
    if (leaf_slots == NULL)
        return 0;
    s->leaf_slots = leaf_slots;
    free(s->slots);
    free(s->slot_hashes);
    s->table_mask = 2 * capacity - 1;
    s->slots = calloc((size_t) (2 * capacity), sizeof(int32_t));
    s->slot_hashes = malloc(sizeof(uint64_t) * (size_t) (2 * capacity));
    if (s->slots == NULL || s->slot_hashes == NULL)
        return 0;
    s->capacity = capacity;
    for (k = 0; k < s->count; k++) {
        uint64_t hash = pm_hash(&s->leaves[k]);  /* as the search computed it */
        for (slot = (int) (hash & (uint64_t) s->table_mask); s->slots[slot]; slot = (slot + 1) & s->table_mask)
            ;
        s->slots[slot] = k + 1;
        s->slot_hashes[slot] = hash;
        s->leaf_slots[k] = slot;
    }
    return 1;
}

/* Keep ``board`` (its hash ``hash``) as a leaf reached with ``used`` dice; -1 if out of memory. */
static int pm_record(pm_search* s, const pm_board* board, uint64_t hash, int used)
{
    int slot, leaf;
    if (used < s->best_used)
        return 0;
    if (used > s->best_used) {  /* plays using fewer dice are not legal */
        s->best_used = used;
        pm_clear_leaves(s);
    }
    for (slot = (int) (hash & (uint64_t) s->table_mask); s->slots[slot]; slot = (slot + 1) & s->table_mask) {
        leaf = s->slots[slot] - 1;
        if (s->slot_hashes[slot] == hash && pm_same(&s->leaves[leaf], board)) {
            s->used_larger[leaf] |= (uint8_t) s->larger_first;
            return 0;
        }
    }
    if (s->count == s->capacity) {
        if (!pm_grow(s))
            return -1;
        for (slot = (int) (hash & (uint64_t) s->table_mask); s->slots[slot]; slot = (slot + 1) & s->table_mask)
            ;
    }
    leaf = s->count++;
    s->leaves[leaf] = *board;
    s->used_larger[leaf] = (uint8_t) s->larger_first;
    s->slots[slot] = leaf + 1;
    s->slot_hashes[slot] = hash;
    s->leaf_slots[leaf] = slot;
    return 0;
}


/* --- moves ----------------------------------------------------------------- */

/* The target of a move of ``die`` from ``origin`` (PM_OFF bearing off), or -1 if illegal. */
static inline int pm_target(const pm_search* s, int origin, int die)
{
    const pm_board* board = &s->board;
    int target = origin - die;
    if (target >= 1)
        return board->opp[PM_BAR - target] >= 2 ? -1 : target;  /* blocked: two or more */
    if (!s->bears_off || s->outside > 0)
        return -1;
    if (target < 0 && (s->occupied >> (origin + 1)) != 0)
        return -1;  /* a larger die bears off only the highest stone */
    return PM_OFF;
}

/* Move a stone; returns whether it hit. */
static inline int pm_make(pm_search* s, int origin, int target)
{
    pm_board* board = &s->board;
    int hit = target != PM_OFF && board->opp[PM_BAR - target] == 1;
    s->hash += ZOBRIST[target] - ZOBRIST[origin];
    if (hit)
        s->hash += ZOBRIST[PM_PLACES + PM_BAR] - ZOBRIST[PM_PLACES + PM_BAR - target];
    if (--board->me[origin] == 0)
        s->occupied &= ~(1u << origin);
    if (board->me[target]++ == 0 && target != PM_OFF)
        s->occupied |= 1u << target;
    if (hit) {
        board->opp[PM_BAR - target] = 0;
        board->opp[PM_BAR]++;
    }
    if (origin > PM_HOME_TOP && target <= PM_HOME_TOP)
        s->outside--;
    return hit;
}

static inline void pm_unmake(pm_search* s, int origin, int target, int hit)
{
    pm_board* board = &s->board;
    if (board->me[origin]++ == 0)
        s->occupied |= 1u << origin;
    if (--board->me[target] == 0)
        s->occupied &= ~(1u << target);
    if (hit) {
        board->opp[PM_BAR - target] = 1;
        board->opp[PM_BAR]--;
    }
    if (origin > PM_HOME_TOP && target <= PM_HOME_TOP)
        s->outside++;
}

/* Record the last move of a play from a copy of the board (nothing to unmake). */
static inline int pm_record_last_move(pm_search* s, int origin, int target)
{
    pm_board child = s->board;
    uint64_t hash = s->hash + ZOBRIST[target] - ZOBRIST[origin];
    child.me[origin]--;
    child.me[target]++;
    if (target != PM_OFF && child.opp[PM_BAR - target] == 1) {
        child.opp[PM_BAR - target] = 0;
        child.opp[PM_BAR]++;
        hash += ZOBRIST[PM_PLACES + PM_BAR] - ZOBRIST[PM_PLACES + PM_BAR - target];
    }
    return pm_record(s, &child, hash, s->ndice);
}

/* Every legal continuation from move ``depth`` on; origins at most
 * ``max_origin`` (a double's moves in non-increasing origin order). */
static int pm_search_moves(pm_search* s, int depth, int max_origin)
{
    int die = s->die[depth], origin, target, hit, moved = 0, status = 0;
    uint64_t hash;
    uint32_t origins = s->board.me[PM_BAR] ? 1u << PM_BAR  /* stones on the bar move first */
                                           : s->occupied & ((1u << PM_BAR) - 1) & ((2u << max_origin) - 1);
    while (origins && status == 0) {
        origin = 31 - __builtin_clz(origins);  /* the highest first */
        origins &= ~(1u << origin);
        if ((target = pm_target(s, origin, die)) < 0)
            continue;
        moved = 1;
        if (depth + 1 == s->ndice) {
            status = pm_record_last_move(s, origin, target);
            continue;
        }
        hash = s->hash;
        hit = pm_make(s, origin, target);
        if (s->win_stops && s->outside == 0)
            status = pm_record(s, &s->board, s->hash, s->ndice);  /* a Ban-sugoroku win counts as using every die */
        else
            status = pm_search_moves(s, depth + 1, s->any_order ? PM_BAR : origin);
        pm_unmake(s, origin, target, hit);
        s->hash = hash;
    }
    if (!moved && depth > 0)
        status = pm_record(s, &s->board, s->hash, depth);
    return status;
}


/* --- a turn ---------------------------------------------------------------- */

static int pm_game_over(const pm_board* board, int variant)
{
    int side, point, home;
    for (side = 0; side < 2; side++) {
        const int8_t* row = side ? board->opp : board->me;
        if (variant == PM_BACKGAMMON) {
            if (row[PM_OFF] == PM_STONES)
                return 1;
        } else {
            for (home = 0, point = 1; point <= PM_HOME_TOP; point++)
                home += row[point];
            if (home == PM_STONES)
                return 1;
        }
    }
    return 0;
}

/* Drop the leaves that did not play the larger die when one die is all
 * that can be played and some play uses the larger one. */
static void pm_apply_larger_die(pm_search* s)
{
    int k, kept = 0, any = 0;
    for (k = 0; k < s->count; k++)
        any |= s->used_larger[k];
    if (!any)
        return;
    pm_clear_table(s);  /* the leaves stay in place; the next clear finds the table empty */
    for (k = 0; k < s->count; k++)
        if (s->used_larger[k])
            s->leaves[kept++] = s->leaves[k];
    s->count = kept;
}

/* Search the turn: s->leaves[0 .. count) are the plays. Returns the count, -1 if out of memory. */
static int pm_turn(pm_search* s, const int8_t* position, int a, int b, int variant)
{
    int point, order;
    memcpy(&s->board, position, sizeof(pm_board));
    s->best_used = 0;
    pm_clear_leaves(s);
    if (pm_game_over(&s->board, variant))
        return 0;
    s->bears_off = variant == PM_BACKGAMMON;
    s->win_stops = variant == PM_BAN_SUGOROKU;
    s->hash = pm_hash(&s->board);
    s->outside = 0;
    s->occupied = 0;
    for (point = 1; point <= PM_BAR; point++) {
        if (point > PM_HOME_TOP)
            s->outside += s->board.me[point];
        if (s->board.me[point])
            s->occupied |= 1u << point;
    }
    if (a == b) {
        s->ndice = variant == PM_BACKGAMMON ? 4 : 2;
        s->die[0] = s->die[1] = s->die[2] = s->die[3] = a;
        s->larger_first = 0;
        /* Origins non-increasing reach every set of moves once, except
         * where a win stops a sequence: 3/1 then 7/5 is a play that 7/5
         * (winning at once) then 3/1 is not, so Ban-sugoroku tries both. */
        s->any_order = s->win_stops;
        if (pm_search_moves(s, 0, PM_BAR) < 0)
            return -1;
        return s->count;
    }
    s->ndice = 2;
    s->any_order = 1;
    for (order = 0; order < 2; order++) {
        s->die[0] = order ? b : a;
        s->die[1] = order ? a : b;
        s->larger_first = s->die[0] > s->die[1];
        if (pm_search_moves(s, 0, PM_BAR) < 0)
            return -1;
    }
    if (s->best_used == 1)
        pm_apply_larger_die(s);
    return s->count;
}

static void pm_search_free(pm_search* s)
{
    free(s->leaves);
    free(s->used_larger);
    free(s->leaf_slots);
    free(s->slots);
    free(s->slot_hashes);
    free(s);
}

static pm_search* pm_search_new(void)
{
    pm_search* s = calloc(1, sizeof(pm_search));
    if (!zobrist_ready)
        pm_zobrist_init();
    if (s == NULL)
        return NULL;
    s->capacity = 128;
    s->table_mask = 2 * s->capacity - 1;
    s->leaves = malloc(sizeof(pm_board) * (size_t) s->capacity);
    s->used_larger = malloc((size_t) s->capacity);
    s->leaf_slots = malloc(sizeof(int32_t) * (size_t) s->capacity);
    s->slots = calloc((size_t) (2 * s->capacity), sizeof(int32_t));
    s->slot_hashes = malloc(sizeof(uint64_t) * (size_t) (2 * s->capacity));
    if (s->leaves == NULL || s->used_larger == NULL || s->leaf_slots == NULL || s->slots == NULL || s->slot_hashes == NULL) {
        pm_search_free(s);
        return NULL;
    }
    return s;
}


/* --- the batch entry points ------------------------------------------------
 *
 * The count takes a number of threads: with OpenMP (the yardstick is built
 * with it, as the kernels are) the items are shared out the usual way, a
 * dynamic schedule and one search per thread, so that the speed-up of the
 * plain loop on two threads, measured in the same run as the kernels',
 * says what this machine allows a parallel region called from Python. */

enum { PM_CHUNK = 256 };     /* items a thread takes at a time */

/* counts[i] = plays of item i; 0, or -1 if out of memory. */
static int pm_count_batch(const int8_t* positions, const int8_t* dice, int64_t n, int variant, int threads,
                          int32_t* counts)
{
    int status = 0;
    if (!zobrist_ready)
        pm_zobrist_init();       /* here, not in the threads: once */
    #pragma omp parallel num_threads(threads) reduction(|: status)
    {
        pm_search* s = pm_search_new();
        int64_t i;
        #pragma omp for schedule(dynamic, PM_CHUNK)
        for (i = 0; i < n; i++) {
            counts[i] = s == NULL ? -1
                      : pm_turn(s, positions + i * sizeof(pm_board), dice[2 * i], dice[2 * i + 1], variant);
            status |= counts[i] < 0;
        }
        if (s != NULL)
            pm_search_free(s);
    }
    return status ? -1 : 0;
}

/* The children of every item, one after the other, into a buffer grown as
 * needed (*children, malloc'd: the caller frees it; *rows of them), and
 * offsets[0 .. n] (n + 1 entries), on one thread. 0, or -1 if out of memory. */
static int pm_generate_batch(const int8_t* positions, const int8_t* dice, int64_t n, int variant,
                             int64_t* offsets, int8_t** children, int64_t* rows)
{
    pm_search* s = pm_search_new();
    int64_t i, room = n * 8 + 64, written = 0;
    int8_t* out = malloc((size_t) room * sizeof(pm_board));
    int count, status = 0;
    if (s == NULL || out == NULL) {
        free(out);
        if (s != NULL)
            pm_search_free(s);
        return -1;
    }
    offsets[0] = 0;
    for (i = 0; i < n && status == 0; i++) {
        count = pm_turn(s, positions + i * sizeof(pm_board), dice[2 * i], dice[2 * i + 1], variant);
        if (count < 0) {
            status = -1;
            break;
        }
        if (written + count > room) {
            int8_t* grown;
            while (written + count > room)
                room *= 2;
            grown = realloc(out, (size_t) room * sizeof(pm_board));
            if (grown == NULL) {
                status = -1;
                break;
            }
            out = grown;
        }
        memcpy(out + written * (int64_t) sizeof(pm_board), s->leaves, (size_t) count * sizeof(pm_board));
        written += count;
        offsets[i + 1] = written;
    }
    pm_search_free(s);
    if (status != 0) {
        free(out);
        return -1;
    }
    *children = out;
    *rows = written;
    return 0;
}
