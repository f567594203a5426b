/* The threads that run a batch's items beside the calling thread.
 *
 * A job is a range of items and a function that runs a chunk of them on a
 * given thread (its slot: 0 is the calling thread, 1.. the pool's). The
 * calling thread posts the job and starts on the items at once; a pool
 * thread still spinning from the last job joins at once, a sleeping one is
 * woken if the job is long enough to use it (bsf_pool.c says how that is
 * judged), and each takes chunks from the same counter. The call returns
 * when every item is done: the calling thread closes the job when no chunk
 * is left and waits only for the pool threads inside it (each finishing a
 * chunk it took), never for one still waking up. So a short job takes what
 * the calling thread alone takes (OpenMP's parallel region, which this
 * replaces, waits at its end for every thread of the team: 0.6-1.1 ms on
 * this project's VM, whatever the job).
 *
 * This header holds only the job's type and the functions' prototypes; the
 * pool itself (one per process) is in bsf_pool.c, linked into the _pool
 * module alone, whose cdef functions the other kernel modules cimport.
 */
#ifndef BSF_POOL_H
#define BSF_POOL_H

#include <stdint.h>

/* Run items start .. stop - 1 of `task` on the thread of `slot`. */
typedef void (*bsf_runner)(void *task, int slot, int64_t start, int64_t stop);

typedef struct bsf_job {
    bsf_runner run;
    void *task;
    int64_t items;      /* items 0 .. items - 1 */
    int64_t chunk;      /* items a thread takes at a time (>= 1) */
    int threads;        /* slots wanted, the caller's included (>= 1); on return, the slots that could */
    int followed;       /* another job follows at once: pool threads stay awake longer for it */
    /* written by bsf_pool_run */
    int64_t next;       /* the first item no thread has taken (atomic) */
    int joined;         /* pool threads that ran chunks of it */
} bsf_job;

/* Run every item of `job` on up to job->threads threads; return how many
   took part (the caller's included). */
int bsf_pool_run(bsf_job *job);

/* How long an idle pool thread looks for a new job before it sleeps. */
void bsf_pool_set_spin(int64_t nanoseconds);
int64_t bsf_pool_spin(void);

/* Pool threads made so far in this process (0 after a fork: the child
   makes its own). */
int bsf_pool_started(void);

/* Jobs at least one pool thread took part in, in this process. */
uint64_t bsf_pool_shared_jobs(void);

/* The most slots a job can have (the caller's included). */
#define BSF_POOL_MOST_THREADS 1024

#endif
