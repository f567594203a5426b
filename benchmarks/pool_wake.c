/* The pool's wake-up, timed from C (benchmarks/pool_wake.py builds and runs
 * it): CALLS jobs of ITEMS items on two threads, each item a busy wait of
 * 1 us measured by the clock (so a thread that loses its CPU shows), in
 * chunks of 25, each job after GAP: a busy wait of 50 us if GAP is 0 (the
 * pool thread still spinning from the last job), else GAP microseconds
 * asleep. Per job it records every chunk (slot, CPU, start, end). Prints
 * one line:
 *
 *   speed-up p50, speed-up p10   one thread's work (ITEMS us) over the job's wall time
 *   joined                       share of the jobs a pool thread took part in
 *   join p50 us                  when the pool thread's first chunk began (jobs it joined)
 *   stall p50 us, stall p90 us   the longest the caller went between two of its chunks:
 *                                the wake-up call it made, or its CPU taken by the pool thread
 *   shared CPU                   share of the jobs where the pool thread ran on a CPU the
 *                                caller ran on during the job
 *   pool CPU                     the pool threads' CPU time over the whole run (jobs and
 *                                gaps), as a share of its wall time: what they spin or
 *                                nap away from the caller's work
 *
 *   pool_wake ITEMS GAP_US CALLS
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bsf_pool.h"

#define CHUNK 25
#define MOST_CHUNKS 4096

typedef struct {
    int slot, cpu;
    int64_t start, end;
} ChunkRun;

typedef struct {
    ChunkRun runs[MOST_CHUNKS];
    int count;      /* atomic */
} Record;

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t) now.tv_sec * 1000000000 + now.tv_nsec;
}

static int64_t cpu_ns(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return (int64_t) now.tv_sec * 1000000000 + now.tv_nsec;
}

static void busy_until(int64_t until) {
    while (now_ns() < until)
        ;
}

static void run_items(void *task, int slot, int64_t start, int64_t stop) {
    Record *record = task;
    ChunkRun *run = &record->runs[__atomic_fetch_add(&record->count, 1, __ATOMIC_RELAXED)];
    run->slot = slot;
    run->cpu = sched_getcpu();
    run->start = now_ns();
    for (int64_t i = start; i < stop; i++)
        busy_until(now_ns() + 1000);
    run->end = now_ns();
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double quantile(double *values, int count, double q) {
    if (count == 0)
        return -1;
    qsort(values, count, sizeof *values, by_value);
    return values[(int) (q * (count - 1) + 0.5)];
}

static int by_start(const void *a, const void *b) {
    const ChunkRun *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

int main(int argc, char **argv) {
    if (argc != 4)
        return 2;
    int items = atoi(argv[1]), gap_us = atoi(argv[2]), calls = atoi(argv[3]);
    static Record record;
    double *speedup = malloc(calls * sizeof(double)), *join = malloc(calls * sizeof(double));
    double *stall = malloc(calls * sizeof(double));
    int joined = 0, shared_cpu = 0;
    if (items < 1 || items > CHUNK * (MOST_CHUNKS / 2) || calls < 1 || !speedup || !join || !stall)
        return 2;
    int64_t run_begun = now_ns(), process_begun = cpu_ns(CLOCK_PROCESS_CPUTIME_ID);
    int64_t caller_begun = cpu_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int call = 0; call < calls; call++) {
        bsf_job job = {0};
        record.count = 0;
        job.run = run_items;
        job.task = &record;
        job.items = items;
        job.chunk = CHUNK;
        job.threads = 2;
        if (gap_us == 0)
            busy_until(now_ns() + 50000);
        else
            usleep(gap_us);
        int64_t begun = now_ns();
        bsf_pool_run(&job);
        int64_t wall = now_ns() - begun;
        speedup[call] = items * 1000.0 / wall;

        qsort(record.runs, record.count, sizeof(ChunkRun), by_start);
        int64_t first_join = -1, last_end = begun, longest_stall = 0;
        unsigned caller_cpus = 0, pool_cpus = 0;
        for (int k = 0; k < record.count; k++) {
            ChunkRun *run = &record.runs[k];
            if (run->slot == 0) {
                if (run->start - last_end > longest_stall)
                    longest_stall = run->start - last_end;
                last_end = run->end;
                caller_cpus |= 1u << (run->cpu & 31);
            } else {
                if (first_join < 0)
                    first_join = run->start - begun;
                pool_cpus |= 1u << (run->cpu & 31);
            }
        }
        stall[call] = longest_stall / 1000.0;
        if (first_join >= 0)
            join[joined++] = first_join / 1000.0;
        shared_cpu += (caller_cpus & pool_cpus) != 0;
    }
    int64_t pool_cpu = (cpu_ns(CLOCK_PROCESS_CPUTIME_ID) - process_begun)
                       - (cpu_ns(CLOCK_THREAD_CPUTIME_ID) - caller_begun);
    printf("%.2f %.2f %.2f %.1f %.1f %.1f %.2f %.2f\n", quantile(speedup, calls, 0.5),
           quantile(speedup, calls, 0.1), (double) joined / calls, quantile(join, joined, 0.5),
           quantile(stall, calls, 0.5), quantile(stall, calls, 0.9), (double) shared_cpu / calls,
           (double) pool_cpu / (now_ns() - run_begun));
    return 0;
}
