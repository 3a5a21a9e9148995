/*
 * interrupt: SIGINT, SIGTERM and SIGHUP end a run without litter.
 *
 * The handler only records the signal. The loops that take time (reading
 * the dump, writing an output, copying the raw folder) poll it and fail
 * with CSIM_E_INTERRUPTED, so the ordinary error paths remove temporary
 * files and folders and older outputs stay as they were; main then ends
 * the process by the same signal, so a shell or CI runner sees 128+N. A
 * second signal ends the process at once.
 */
#ifndef CSIM_INTERRUPT_H
#define CSIM_INTERRUPT_H

#include "base/csim_error.h"

/* Installs the handler; returns 0, or -1 with errno set. */
int csim_interrupt_install(void);

/* The signal received since installing, or 0. Cheap: one load. */
int csim_interrupt_pending(void);

/* Fills err with "interrupted by SIGxxx" and returns CSIM_E_INTERRUPTED. */
int csim_interrupt_fail(struct csim_error *err);

/* Ends the process by the recorded signal (returns only if none was). */
void csim_interrupt_resend(void);

#endif
