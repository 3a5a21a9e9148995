#define _POSIX_C_SOURCE 200809L   /* sigaction */
#include "base/interrupt.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

/*
 * The one mutable global of the program: a signal handler can reach
 * nothing else. Written only by the handler, read through
 * csim_interrupt_pending(), also by the scanning thread (scan_pipe.h):
 * an atomic, not a volatile sig_atomic_t, which is safe for a handler
 * but not between threads. Lock-free, so a handler may store to it.
 */
#if ATOMIC_INT_LOCK_FREE != 2
#error "the interrupt flag needs a lock-free atomic int"
#endif
static atomic_int pending_signal;

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };

static void on_signal(int signo)
{
	atomic_store_explicit(&pending_signal, signo, memory_order_relaxed);
}

static int pending(void)
{
	return atomic_load_explicit(&pending_signal, memory_order_relaxed);
}

int csim_interrupt_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocked read or write returns EINTR and the loop
	   sees the signal. SA_RESETHAND: a second signal kills at once. */
	sa.sa_flags = (int)SA_RESETHAND;
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		struct sigaction old;

		/* A signal ignored at start stays ignored (nohup, a background
		   job of a non-interactive shell). */
		if (sigaction(caught[i], NULL, &old) != 0)
			return -1;
		if (old.sa_handler == SIG_IGN)
			continue;
		if (sigaction(caught[i], &sa, NULL) != 0)
			return -1;
	}
	return 0;
}

int csim_interrupt_ignore_pipe(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGPIPE, &sa, NULL);
}

int csim_interrupt_pending(void)
{
	return pending();
}

static const char *signal_name(int signo)
{
	switch (signo) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	default: return "a signal";
	}
}

int csim_interrupt_fail(struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_INTERRUPTED, CSIM_NO_OFFSET, "interrupted by %s",
			      signal_name(pending()));
}

int csim_interrupt_fail_committed(struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_INTERRUPTED, CSIM_NO_OFFSET,
			      "interrupted by %s: the new outputs were committed first",
			      signal_name(pending()));
}

/*
 * Every helper thread starts with these signals blocked (base/handoff.h),
 * so the calling (main) thread's mask decides for the whole process.
 */
int csim_interrupt_hold(struct csim_interrupt_held *held)
{
	sigset_t hold;

	sigemptyset(&hold);
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++)
		sigaddset(&hold, caught[i]);
	return sigprocmask(SIG_BLOCK, &hold, &held->old);
}

void csim_interrupt_let_through(const struct csim_interrupt_held *held)
{
	(void)sigprocmask(SIG_SETMASK, &held->old, NULL);
}

void csim_interrupt_resend(void)
{
	int signo = pending();

	if (signo == 0)
		return;
	signal(signo, SIG_DFL);
	raise(signo);
}
