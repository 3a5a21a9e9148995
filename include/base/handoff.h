/*
 * handoff: the one way work crosses threads here (SPEC §9). A worker thread
 * fills the slots of a ring in order and posts each; the main thread takes
 * them in the same order and gives each back to be filled again. The ring
 * holds indices only: what a slot is (an inflated chunk, a batch of
 * scanned events) is its owner's.
 *
 * Either side may end it: the worker posts its last slot (or none) as the
 * end, and the main thread stops the worker, whose next wait for a free
 * slot then returns 0. After a stop the ring is empty and may be started
 * again (a rewound gzip input). A ring of no slots is a thread to start and
 * join (the metrics write).
 *
 * The worker starts with every signal blocked, so SIGINT, SIGTERM and
 * SIGHUP always reach the main thread, whose waits and writes they must
 * cut short; a worker sees them through the interrupt flag (interrupt.h).
 * It is named, for top, gdb and the tests.
 *
 * Two threads writing one stream in order (the trace's stretches) take
 * turns instead: each waits for its turn, writes, and passes the turn on;
 * the worker's wait ends when the main thread stops it, the main thread's
 * when the worker posted its last (it gave its work back).
 */
#ifndef CSIM_HANDOFF_H
#define CSIM_HANDOFF_H

#include <stddef.h>

struct csim_handoff;

/* A ring of nslots slots, its thread not started; -1 out of memory. */
int csim_handoff_new(struct csim_handoff **h, unsigned nslots);

/*
 * Starts run(arg) as the worker, named name (at most 15 bytes); 0, or
 * pthread_create's error: the caller then does the work in line.
 */
int csim_handoff_start(struct csim_handoff *h, const char *name, void *(*run)(void *),
		       void *arg);

/* Worker: waits for a free slot; 1 with *slot, 0 once the main thread stopped. */
int csim_handoff_fill(struct csim_handoff *h, unsigned *slot);

/*
 * Worker: the slot fill() gave is filled (filled 0: left empty), and with
 * last nothing follows it.
 */
void csim_handoff_post(struct csim_handoff *h, int filled, int last);

/*
 * Main: waits for the oldest filled slot; 1 with *slot (the same one until
 * it is given back), 0 once the worker posted its last and none is left.
 */
int csim_handoff_take(struct csim_handoff *h, unsigned *slot);

/* Main: the slot take() gave may be filled again. */
void csim_handoff_give_back(struct csim_handoff *h);

/*
 * Waits until turn k (turns start at 0); 1 when it came, 0 when the other
 * side ended first (worker: the main thread stopped it; main: the worker
 * posted its last).
 */
int csim_handoff_await_turn(struct csim_handoff *h, size_t k, int worker);

/* Turn k is the other side's, or whoever waits for it. */
void csim_handoff_pass_turn(struct csim_handoff *h, size_t k);

/* Main: ends a started worker's waits, joins it and empties the ring. */
void csim_handoff_stop(struct csim_handoff *h);

/* Stops a started worker; accepts NULL. */
void csim_handoff_free(struct csim_handoff *h);

#endif
