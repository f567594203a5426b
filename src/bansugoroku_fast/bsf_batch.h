/* The batch drivers' shared counters, C for _batch.pyx: a stop flag and a
 * total that the pool's threads read and add to atomically. */
#ifndef BSF_BATCH_H
#define BSF_BATCH_H

#include <Python.h>
#include <stdint.h>

#include "bsf_portable.h"

/* The total is a Py_ssize_t, added to as the 64-bit integer it is on every platform built for. */
typedef char bsf_ssize_is_64_bits[sizeof(Py_ssize_t) == sizeof(int64_t) ? 1 : -1];
static int bsf_load_flag(int *flag) { return bsf_load_int(flag); }
static void bsf_raise_flag(int *flag) { bsf_store_int(flag, 1); }
static void bsf_add(Py_ssize_t *total, Py_ssize_t more) { bsf_fetch_add_i64((int64_t*) total, (int64_t) more); }

#endif
