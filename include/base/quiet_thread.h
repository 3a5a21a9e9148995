/*
 * quiet_thread: starts a worker thread with every signal blocked in it, so
 * SIGINT, SIGTERM and SIGHUP always reach the main thread, whose waits and
 * writes they must cut short; a worker sees them through the interrupt flag
 * (interrupt.h) at its next read. The inflating thread (gz_source), the
 * scanning thread (scan_pipe) and the metrics thread (metrics_thread) all
 * start this way.
 */
#ifndef CSIM_QUIET_THREAD_H
#define CSIM_QUIET_THREAD_H

#include <pthread.h>

/* pthread_create() with the caller's signal mask kept; 0 or its error. */
int csim_quiet_thread_start(pthread_t *thread, void *(*run)(void *), void *arg);

#endif
