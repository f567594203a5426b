/* The pool of threads behind bsf_pool.h (see there for what a job is).
 *
 * One pool per process, made lazily: the first job that wants k threads
 * starts pool threads 1 .. k - 1 (the slots), which then live as long as
 * the process. One caller has the pool at a time; a call made while
 * another is using it (two Python threads with batches, the GIL released)
 * runs on its own thread alone, with the same results.
 *
 * The protocol, under `pool.lock` except where atomic:
 *   - the caller posts a job (`open`, `posted` + 1) and signals the pool
 *     threads it wants that sleep: at once if the last job ended less than
 *     STREAM_NS ago (calls in a row), else after two short chunks if what
 *     is left would take long enough (WAKE_WORTH_NS at its own pace);
 *   - a pool thread that sees a new `posted` joins `open` if its slot is
 *     wanted (`inside` + 1), runs chunks until none is left, and leaves
 *     (`inside` - 1);
 *   - the caller, out of chunks, closes the job (`open` = NULL: no pool
 *     thread joins from then on) and waits until `inside` is 0.
 * After a job a pool thread spins (`spin_ns`, 0.1 ms by default; 1 ms
 * after a job that says another follows, as a count pass before the
 * generate pass of the same call, with the caller's Python between them)
 * looking for the next, and joins it at once; then it sleeps on its own
 * condition variable. The caller spins while it waits for the threads
 * inside (they are running, each to the end of one chunk): sleeping there
 * would cost a wake-up of its own.
 *
 * Figures of `python -m benchmarks.pool_wake`, which builds this file as
 * it is and without each rule, on this project's VM: waking a sleeping
 * thread costs the caller 12-15 us after 1 ms idle and 22-25 us after
 * 10 ms (the signal reaches a halted vCPU through the host), and the thread
 * starts 50-65 us, then 95-115 us, later. A job shorter than that gains
 * nothing and loses the signal's cost: jobs of 0.1 ms after 10 ms asleep
 * ran at 0.92x one thread, 0.81x when every job woke a thread. Hence the
 * first items before the decision: two eighths of a chunk, so that it
 * comes soon, timed on the second. In a row, though, a woken thread
 * spins for the next job: jobs of 0.1 ms 50 us apart ran at 1.89x with
 * the stream rule, 0.95x without. A woken thread (or a new one) is also
 * kept off the CPU the caller runs on (on Linux: its affinity is set to
 * the caller's CPUs but that one, anew when the caller has moved). The
 * scheduler may otherwise wake it there: this VM's guest kernel packs
 * tasks onto few vCPUs (`sched_vcpu_pack`), and without the rule the woken
 * thread ran on the caller's vCPU in 45-47% of 0.4 ms jobs, which then
 * ran at 0.84x one thread, against 1.37-1.58x with it.
 *
 * A child forked while pool threads exist has none of them (only the
 * forking thread is copied): the fork handlers reset the pool, and the
 * child starts its own threads when it needs them.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE     /* pthread_setname_np, sched_getcpu, CPU_SET */
#endif
#include "bsf_pool.h"
#include "bsf_portable.h"

#if defined(_WIN32)
/* Windows has no POSIX threads, and this pool is not yet written for its
   own: there every job runs on the calling thread alone (threads= is
   accepted, the results are the same, one core does the work). */

static int64_t spin_ns = 100000;    /* read back by batch.idle_spin(); no thread spins here */

int bsf_pool_run(bsf_job *job) {
    job->next = 0;
    job->joined = 0;
    job->threads = 1;
    for (int64_t start = 0; start < job->items; start += job->chunk)
        job->run(job->task, 0, start, job->items - start > job->chunk ? start + job->chunk : job->items);
    job->next = job->items;
    return 1;
}

void bsf_pool_set_spin(int64_t nanoseconds) { spin_ns = nanoseconds < 0 ? 0 : nanoseconds; }
int64_t bsf_pool_spin(void) { return spin_ns; }
int bsf_pool_started(void) { return 0; }
uint64_t bsf_pool_shared_jobs(void) { return 0; }

#else   /* POSIX threads */

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>

/* The caller gives up spinning for the threads inside a job after this and
   sleeps until the last leaves (they may have lost their CPU to another
   process: a chunk takes at most a few hundred microseconds). */
#define CALLER_SPIN_NS 2000000
#define DEFAULT_SPIN_NS 100000
/* After a job followed by another: the Python between the two passes of
   a 50,000-item generate call took 0.19-0.35 ms, caches cold from the
   first (`python -m benchmarks.startup --between-passes`). */
#define FOLLOWED_SPIN_NS 1000000
/* Sleeping pool threads are woken for a job only if, after the caller's
   first items, the rest would take the caller alone at least this long.
   The two settings below can be changed at build time only so that
   benchmarks/pool_wake.py can time the pool without each rule. */
#ifndef WAKE_WORTH_NS
#define WAKE_WORTH_NS 200000
#endif
/* A job posted within this long of the end of the last posted job (calls
   in a row) wakes the sleeping threads at once, however short: they then
   spin for the next call, which finds them awake. */
#ifndef STREAM_NS
#define STREAM_NS 2000000
#endif
/* 0: leave woken threads where the scheduler puts them. */
#ifndef KEEP_OFF_CALLER
#define KEEP_OFF_CALLER 1
#endif

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t) now.tv_sec * 1000000000 + now.tv_nsec;
}


/* Take up to `size` items of `job` and run them on `slot`: how many it
   had (0: none was left). */
static int64_t run_chunk(bsf_job *job, int slot, int64_t size) {
    int64_t start = bsf_fetch_add_i64(&job->next, size);
    if (start >= job->items)
        return 0;
    int64_t stop = job->items - start > size ? start + size : job->items;
    job->run(job->task, slot, start, stop);
    return stop - start;
}

/* Take chunks of `job` until none is left, running them on `slot`. */
static void run_chunks(bsf_job *job, int slot) {
    while (run_chunk(job, slot, job->chunk) > 0)
        ;
}

static int64_t spin_ns = DEFAULT_SPIN_NS;     /* atomic */

void bsf_pool_set_spin(int64_t nanoseconds) {
    bsf_store_i64(&spin_ns, nanoseconds < 0 ? 0 : nanoseconds);
}

int64_t bsf_pool_spin(void) {
    return bsf_load_i64(&spin_ns);
}

typedef struct worker {
    pthread_t thread;
    pthread_cond_t wake;
    int slot;
    int sleeping;       /* waiting on `wake` */
    int linger;         /* the last job it ran said another follows */
    int kept_off;       /* the CPU its affinity leaves out (-1: none) */
    uint64_t seen;      /* `posted` when it last looked at the jobs */
} worker;

static struct {
    pthread_mutex_t lock;
    pthread_cond_t left;                        /* the last thread inside a job left it */
    worker *workers[BSF_POOL_MOST_THREADS];     /* slot k's at k, 1 .. started */
    int started;
    int taken;                                  /* a caller has the pool */
    bsf_job *open;                              /* the job pool threads may join, or NULL */
    uint64_t posted;                            /* jobs posted so far (atomic reads) */
    int inside;                                 /* pool threads in the job (atomic reads) */
    int caller_sleeping;                        /* the caller waits on `left` */
    int asleep;                                 /* pool threads waiting on their `wake` (atomic reads) */
    int64_t last_end;                           /* when the last posted job ended (now_ns) */
    uint64_t shared;                            /* jobs a pool thread took part in */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};

static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;

/* Until `posted` moves past what `self` saw, spin for the spin time, then
   sleep. Returns with the lock held. */
static void wait_for_job(worker *self) {
    int64_t spin = bsf_pool_spin();
    int64_t deadline = now_ns() + (self->linger && spin < FOLLOWED_SPIN_NS ? FOLLOWED_SPIN_NS : spin);
    int round = 0;
    while (bsf_load_u64_acquire(&pool.posted) == self->seen) {
        bsf_cpu_relax();
        if ((++round & 15) == 0 && now_ns() >= deadline)
            break;
    }
    pthread_mutex_lock(&pool.lock);
    while (pool.posted == self->seen) {
        self->sleeping = 1;
        bsf_store_int(&pool.asleep, pool.asleep + 1);
        pthread_cond_wait(&self->wake, &pool.lock);
        bsf_store_int(&pool.asleep, pool.asleep - 1);
        self->sleeping = 0;
    }
}

static void *worker_main(void *argument) {
    worker *self = argument;
    for (;;) {
        wait_for_job(self);
        self->seen = pool.posted;
        bsf_job *job = pool.open;
        if (job == NULL || self->slot >= job->threads) {   /* closed already, or not for this slot */
            self->linger = 0;
            pthread_mutex_unlock(&pool.lock);
            continue;
        }
        bsf_store_int(&pool.inside, pool.inside + 1);
        job->joined++;
        self->linger = job->followed;
        pthread_mutex_unlock(&pool.lock);

        run_chunks(job, self->slot);

        pthread_mutex_lock(&pool.lock);
        bsf_store_int_release(&pool.inside, pool.inside - 1);
        if (pool.inside == 0 && pool.caller_sleeping)
            pthread_cond_signal(&pool.left);
        pthread_mutex_unlock(&pool.lock);
    }
    return NULL;
}

/* The CPUs pool threads may run on while the caller is on its present
   one: the caller's but that one (looked up on first use). */
typedef struct {
    int here;           /* the caller's CPU (-1: not known yet) */
    int looked_up;      /* `cpus` and `found` are known */
    int found;          /* there is such a set (Linux, two CPUs or more) */
#if defined(__linux__)
    cpu_set_t cpus;
#endif
} CallerCpus;

#define CALLER_CPUS_UNKNOWN {-1, 0, 0}

/* Let `thread` run only on the CPUs of `away`. The system calls (3-17 us
   on this VM) are made only when the caller is on another CPU than the
   one `thread` was last kept off. */
static void keep_off_caller(worker *thread, CallerCpus *away) {
#if defined(__linux__) && KEEP_OFF_CALLER
    if (away->here < 0)
        away->here = sched_getcpu();
    if (away->here < 0 || away->here >= CPU_SETSIZE || thread->kept_off == away->here)
        return;
    if (!away->looked_up) {
        away->looked_up = 1;
        away->found = sched_getaffinity(0, sizeof away->cpus, &away->cpus) == 0;
        if (away->found) {
            CPU_CLR(away->here, &away->cpus);
            away->found = CPU_COUNT(&away->cpus) > 0;
        }
    }
    if (away->found && pthread_setaffinity_np(thread->thread, sizeof away->cpus, &away->cpus) == 0)
        thread->kept_off = away->here;
#else
    (void) thread;
    (void) away;
#endif
}

/* Start the pool thread of slot `slot` (the lock held), off the caller's
   CPU: 0, or -1 if the system made none. It blocks every signal, so that
   they reach the threads that run Python. */
static int start_worker(int slot, CallerCpus *away) {
    worker *made = calloc(1, sizeof(worker));
    pthread_t thread;
    pthread_attr_t attributes;
    sigset_t every_signal, before;
    int failed;
    if (made == NULL)
        return -1;
    if (pthread_cond_init(&made->wake, NULL) != 0) {
        free(made);
        return -1;
    }
    made->slot = slot;
    made->kept_off = -1;
    made->seen = pool.posted;   /* the job about to be posted is new to it */
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    sigfillset(&every_signal);
    pthread_sigmask(SIG_SETMASK, &every_signal, &before);
    failed = pthread_create(&thread, &attributes, worker_main, made);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    pthread_attr_destroy(&attributes);
    if (failed) {
        pthread_cond_destroy(&made->wake);
        free(made);
        return -1;
    }
    made->thread = thread;
    keep_off_caller(made, away);
#if defined(__linux__)
    pthread_setname_np(thread, "bsf-pool");
#endif
    pool.workers[slot] = made;
    pool.started = slot;
    return 0;
}

static void before_fork(void) { pthread_mutex_lock(&pool.lock); }
static void after_fork_in_parent(void) { pthread_mutex_unlock(&pool.lock); }

/* The child has only the thread that forked: forget the pool threads
   (their memory stays, a few hundred bytes each) and start afresh. */
static void after_fork_in_child(void) {
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.left, NULL);
    for (int slot = 1; slot <= pool.started; slot++)
        pool.workers[slot] = NULL;
    pool.started = 0;
    pool.taken = 0;
    pool.open = NULL;
    pool.inside = 0;
    pool.caller_sleeping = 0;
    pool.asleep = 0;
}

static void register_fork_handlers(void) {
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

/* Wait until no pool thread is inside the closed job: spin, then sleep. */
static void wait_for_threads_inside(void) {
    int64_t deadline = now_ns() + CALLER_SPIN_NS;
    int round = 0;
    while (bsf_load_int_acquire(&pool.inside) != 0) {
        bsf_cpu_relax();
        if ((++round & 15) == 0 && now_ns() >= deadline) {
            pthread_mutex_lock(&pool.lock);
            pool.caller_sleeping = 1;
            while (pool.inside != 0)
                pthread_cond_wait(&pool.left, &pool.lock);
            pool.caller_sleeping = 0;
            pthread_mutex_unlock(&pool.lock);
            return;
        }
    }
}

/* Take the pool and post `job` for its slots 1 .. helpers, starting pool
   threads as needed (sleeping ones are not woken here): the helpers it has
   (0: the pool is another caller's, or no thread could start; the job is
   then the caller's alone). */
static int post(bsf_job *job, int helpers, int64_t *last_end) {
    pthread_mutex_lock(&pool.lock);
    if (pool.taken) {
        pthread_mutex_unlock(&pool.lock);
        return 0;
    }
    CallerCpus away = CALLER_CPUS_UNKNOWN;
    while (pool.started < helpers && start_worker(pool.started + 1, &away) == 0)
        ;
    if (helpers > pool.started)
        helpers = pool.started;
    if (helpers > 0) {
        *last_end = pool.last_end;
        pool.taken = 1;
        job->threads = helpers + 1;
        pool.open = job;
        bsf_store_u64_release(&pool.posted, pool.posted + 1);
    }
    pthread_mutex_unlock(&pool.lock);
    return helpers;
}

/* Wake the pool threads of slots 1 .. helpers that sleep, kept off the
   caller's CPU. The system calls come after the lock is released, so that
   a woken thread (and a spinning one joining the job) does not find it
   taken. A thread listed stays in its wait until signalled: `posted`
   moved before, so it returns from the wait whenever it wakes. */
static void wake_sleepers(int helpers) {
    worker *asleep[BSF_POOL_MOST_THREADS];
    int count = 0;
    CallerCpus away = CALLER_CPUS_UNKNOWN;
    pthread_mutex_lock(&pool.lock);
    for (int slot = 1; slot <= helpers; slot++)
        if (pool.workers[slot]->sleeping)
            asleep[count++] = pool.workers[slot];
    pthread_mutex_unlock(&pool.lock);
    for (int k = 0; k < count; k++) {
        keep_off_caller(asleep[k], &away);
        pthread_cond_signal(&asleep[k]->wake);
    }
}

/* Start the posted `job` on the caller, waking the sleeping helpers: at
   once if the last posted job ended less than STREAM_NS ago (`last_end`,
   read under the lock that `post` took); else after two short chunks, if
   the rest would take the caller alone WAKE_WORTH_NS or more at the pace
   of the second (the first runs with cold caches: after 10 ms asleep a
   whole count_plays call of one item took 110-180 us against 5-8 us in a
   row, `python -m benchmarks.startup`). */
static void start_posted(bsf_job *job, int helpers, int64_t last_end) {
    int64_t size = job->chunk / 8 > 1 ? job->chunk / 8 : 1;
    if (bsf_load_int(&pool.asleep) == 0)
        return;
    if (now_ns() - last_end < STREAM_NS) {
        wake_sleepers(helpers);
        return;
    }
    if (run_chunk(job, 0, size) == 0)
        return;
    int64_t started = now_ns();
    int64_t done = run_chunk(job, 0, size);
    int64_t left = job->items - bsf_load_i64(&job->next);
    if (done > 0 && left > 0 && (double) (now_ns() - started) * left / done >= WAKE_WORTH_NS)
        wake_sleepers(helpers);
}

int bsf_pool_run(bsf_job *job) {
    int helpers = job->threads - 1, joined;
    int64_t last_end = 0;
    job->next = 0;
    job->joined = 0;
    if (helpers > BSF_POOL_MOST_THREADS - 1)
        helpers = BSF_POOL_MOST_THREADS - 1;
    pthread_once(&fork_handlers_once, register_fork_handlers);
    /* A job of one chunk is the caller's alone. */
    if (helpers <= 0 || job->items <= job->chunk || post(job, helpers, &last_end) == 0) {
        job->threads = 1;
        run_chunks(job, 0);
        return 1;
    }
    start_posted(job, helpers, last_end);
    run_chunks(job, 0);
    pthread_mutex_lock(&pool.lock);
    pool.open = NULL;
    pthread_mutex_unlock(&pool.lock);
    wait_for_threads_inside();
    pthread_mutex_lock(&pool.lock);
    joined = job->joined;
    pool.shared += joined > 0;
    pool.last_end = now_ns();
    pool.taken = 0;
    pthread_mutex_unlock(&pool.lock);
    return 1 + joined;
}

uint64_t bsf_pool_shared_jobs(void) {
    pthread_mutex_lock(&pool.lock);
    uint64_t shared = pool.shared;
    pthread_mutex_unlock(&pool.lock);
    return shared;
}

int bsf_pool_started(void) {
    pthread_mutex_lock(&pool.lock);
    int started = pool.started;
    pthread_mutex_unlock(&pool.lock);
    return started;
}

#endif  /* POSIX threads */
