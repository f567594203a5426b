/* What a second busy thread costs the first on this machine, by the kind
 * of code: built and run by benchmarks/cores.py (its docstring says why).
 *
 *     cores [repeats]
 *
 * Runs each loop below `repeats` times, in turn, and prints one line a
 * run: the loop's name, then the milliseconds (wall clock, then the
 * thread's CPU time) of the loop on one thread with the rest of the
 * machine idle ("alone"), then those of the same loop on each of two
 * threads started together (the slower of the two: "beside"). The two threads are pinned to two different CPUs (the first
 * two this process may use): the guest's scheduler would otherwise, at
 * times, put both on one (this project's VM packs tasks onto few vCPUs),
 * which is not what is measured here.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ROUNDS 8000000
#define TABLE_SIZE (1 << 16)    /* 256 KB: misses L1, hits the core's L2 */

static uint32_t table[TABLE_SIZE];
static volatile uint64_t sink;  /* keeps each loop's result alive */

static int cpus[2];     /* the CPUs of the two threads */

/* Pin the calling thread to cpus[slot]. */
static void pin(int slot) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpus[slot], &one);
    if (pthread_setaffinity_np(pthread_self(), sizeof one, &one) != 0) {
        perror("pthread_setaffinity_np");
        exit(1);
    }
}

/* The first two CPUs this process may run on. */
static void find_cpus(void) {
    cpu_set_t allowed;
    int found = 0;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        perror("sched_getaffinity");
        exit(1);
    }
    for (int cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++)
        if (CPU_ISSET(cpu, &allowed))
            cpus[found++] = cpu;
    if (found < 2) {
        fprintf(stderr, "cores needs two CPUs\n");
        exit(1);
    }
}

static double clock_ms(clockid_t clock) {
    struct timespec now;
    clock_gettime(clock, &now);
    return now.tv_sec * 1e3 + now.tv_nsec * 1e-6;
}

/* A run of a loop on one thread: milliseconds of wall clock, and of the
   thread's CPU time, which leaves out the time the host ran other work on
   its vCPU (steal time, on a kernel built with
   CONFIG_PARAVIRT_TIME_ACCOUNTING) as well as time off the CPU in the guest. */
typedef struct {
    double wall;
    double cpu;
} timing;

typedef void (*loop)(uint64_t);

static timing timed(loop run, uint64_t seed) {
    double wall = clock_ms(CLOCK_MONOTONIC), cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID);
    run(seed);
    return (timing) {clock_ms(CLOCK_MONOTONIC) - wall, clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu};
}

/* One chain of dependent multiplies: each waits for the last, so the loop
   uses a sliver of the core's units and a second thread on the same
   physical core (an SMT sibling) hardly slows it. */
static void latency_bound(uint64_t seed) {
    uint64_t h = seed;
    for (uint64_t i = 0; i < ROUNDS; i++) {
        h = h * 6364136223846793005ULL + 1;
        h ^= h >> 17;
    }
    sink = h;
}

/* Six independent chains: the loop keeps the core's ALUs busy, so an SMT
   sibling running it too takes units from it. */
static void throughput_bound(uint64_t seed) {
    uint64_t a = seed, b = 2, c = 3, d = 4, e = 5, f = 6;
    for (uint64_t i = 0; i < 2 * ROUNDS; i++) {
        a = a * 3 + b;
        b ^= c >> 1;
        c += d;
        d = d * 5 + e;
        e ^= a;
        f += e;
    }
    sink = a + b + c + d + e + f;
}

/* Table reads at random and a branch on each, as a move generator's inner
   loops: loads, branch prediction and the L2, all shared by SMT siblings. */
static void branchy_lookups(uint64_t seed) {
    uint32_t x = (uint32_t) seed, sum = 0;
    for (uint64_t i = 0; i < ROUNDS; i++) {
        x = x * 1103515245u + 12345u;
        uint32_t value = table[(x >> 8) & (TABLE_SIZE - 1)];
        if (value & 1)
            sum += value;
        else
            sum ^= value >> 3;
    }
    sink = sum;
}

typedef struct {
    loop run;
    int slot;           /* 0: the main thread, 1: the other */
    volatile int *ready;    /* threads at the start line */
    timing took;
} lane;

static void *run_lane(void *argument) {
    lane *self = argument;
    pin(self->slot);
    __atomic_add_fetch(self->ready, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(self->ready, __ATOMIC_ACQUIRE) < 2)
        ;   /* both start together: each runs beside the other */
    self->took = timed(self->run, (uint64_t) self->slot + 1);
    return NULL;
}

/* The slower thread's run when two run `run` at once. */
static timing beside(loop run) {
    volatile int ready = 0;
    lane lanes[2] = {{run, 0, &ready, {0, 0}}, {run, 1, &ready, {0, 0}}};
    pthread_t other;
    if (pthread_create(&other, NULL, run_lane, &lanes[1]) != 0) {
        perror("pthread_create");
        exit(1);
    }
    run_lane(&lanes[0]);
    pthread_join(other, NULL);
    return lanes[0].took.wall > lanes[1].took.wall ? lanes[0].took : lanes[1].took;
}

static timing alone(loop run) {
    pin(0);
    return timed(run, 1);
}

int main(int argc, char **argv) {
    int repeats = argc > 1 ? atoi(argv[1]) : 7;
    static const struct { const char *name; loop run; } loops[] = {
        {"latency-bound", latency_bound},
        {"throughput-bound", throughput_bound},
        {"branchy-lookups", branchy_lookups},
    };
    find_cpus();
    for (uint32_t k = 0; k < TABLE_SIZE; k++)
        table[k] = k * 2654435761u;
    for (int r = 0; r < repeats; r++)           /* in turn: a slow spell hits every loop */
        for (size_t k = 0; k < sizeof loops / sizeof loops[0]; k++) {
            timing one = alone(loops[k].run), two = beside(loops[k].run);
            printf("%s %.3f %.3f %.3f %.3f\n", loops[k].name, one.wall, one.cpu, two.wall, two.cpu);
        }
    return 0;
}
