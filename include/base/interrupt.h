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

#include <signal.h>

#include "base/csim_error.h"

/* The signal mask before csim_interrupt_hold(). */
struct csim_interrupt_held {
	sigset_t old;
};

/* Installs the handler; returns 0, or -1 with errno set. */
int csim_interrupt_install(void);

/*
 * SIGPIPE ignored: a write to a pipe nobody reads any more (stdout into
 * `head -c1`) fails with EPIPE, which main reports as any failed write to
 * stdout (exit 3), instead of killing the process mid-run. Returns 0, or
 * -1 with errno set.
 */
int csim_interrupt_ignore_pipe(void);

/* The signal received since installing, or 0. Cheap: one load. */
int csim_interrupt_pending(void);

/*
 * Fills err with "interrupted by SIGxxx" and returns CSIM_E_INTERRUPTED;
 * the run then says what its output folder holds (write/out_left.h).
 */
int csim_interrupt_fail(struct csim_error *err);

/* The same for a signal held off until the outputs were committed. */
int csim_interrupt_fail_committed(struct csim_error *err);

/*
 * Holds SIGINT, SIGTERM and SIGHUP off (a step that must not be cut, such
 * as the renames of a commit) until let_through(), which delivers any that
 * came meanwhile to the handler. Returns 0, or -1 with errno set.
 */
int csim_interrupt_hold(struct csim_interrupt_held *held);
void csim_interrupt_let_through(const struct csim_interrupt_held *held);

/* Ends the process by the recorded signal (returns only if none was). */
void csim_interrupt_resend(void);

#endif
