/* A stress test of the pool (src/bansugoroku_fast/bsf_pool.c), compiled by
 * tests/test_pool.py with ThreadSanitizer: several callers at once, each
 * running jobs of random sizes, chunks, thread counts and item costs (up
 * to 4 ms a job, so that sleeping pool threads are woken for some), with
 * the idle spin now and then 0 (pool threads asleep between jobs). Each item adds 1
 * to its own counter with a plain write, so that two threads running the
 * same item, or a pool thread still writing after bsf_pool_run returned,
 * is a data race ThreadSanitizer reports (and a count other than 1).
 *
 *   pool_stress CALLERS JOBS    exit 0 when every item of every job ran once
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bsf_pool.h"

#define MOST_ITEMS 4000

typedef struct {
    int counts[MOST_ITEMS];
    int slot_seen_past_threads;     /* a chunk ran on a slot the job did not have */
    int threads;
    int64_t item_ns;                /* each item waits this long */
} Record;

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t) now.tv_sec * 1000000000 + now.tv_nsec;
}

static void run_items(void *task, int slot, int64_t start, int64_t stop) {
    Record *record = task;
    if (slot >= record->threads)
        record->slot_seen_past_threads = 1;
    for (int64_t i = start; i < stop; i++) {
        int64_t until = now_ns() + record->item_ns;
        while (now_ns() < until)
            ;
        record->counts[i]++;
    }
}

static int jobs_per_caller;

static unsigned next_random(unsigned *state) {
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static void *caller(void *argument) {
    unsigned state = (unsigned) (uintptr_t) argument;
    Record *record = malloc(sizeof(Record));
    long failures = 0;
    for (int j = 0; j < jobs_per_caller; j++) {
        bsf_job job;
        int items = (int) (next_random(&state) % MOST_ITEMS);
        for (int i = 0; i < items; i++)
            record->counts[i] = 0;
        record->slot_seen_past_threads = 0;
        record->threads = 1 + (int) (next_random(&state) % 6);
        record->item_ns = next_random(&state) % 4 == 0 ? 1000 : 0;
        if (next_random(&state) % 8 == 0)
            bsf_pool_set_spin(next_random(&state) % 2 ? 0 : 100000);
        job.run = run_items;
        job.task = record;
        job.items = items;
        job.chunk = 1 + (int64_t) (next_random(&state) % 300);
        job.threads = record->threads;
        job.followed = (int) (next_random(&state) % 2);
        int took_part = bsf_pool_run(&job);
        if (took_part < 1 || took_part > record->threads || record->slot_seen_past_threads)
            failures++;
        for (int i = 0; i < items; i++)
            if (record->counts[i] != 1) {
                failures++;
                break;
            }
    }
    free(record);
    return (void *) failures;
}

int main(int argc, char **argv) {
    int callers = argc > 1 ? atoi(argv[1]) : 3;
    pthread_t threads[16];
    long failures = 0;
    jobs_per_caller = argc > 2 ? atoi(argv[2]) : 300;
    if (callers < 1 || callers > 16)
        return 2;
    for (int c = 0; c < callers; c++)
        pthread_create(&threads[c], NULL, caller, (void *) (uintptr_t) (c + 1));
    for (int c = 0; c < callers; c++) {
        void *result;
        pthread_join(threads[c], &result);
        failures += (long) result;
    }
    printf("%ld failures, %d pool threads\n", failures, bsf_pool_started());
    return failures ? 1 : 0;
}
