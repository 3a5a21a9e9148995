#include "base/quiet_thread.h"

#include <signal.h>

int csim_quiet_thread_start(pthread_t *thread, void *(*run)(void *), void *arg)
{
	sigset_t all, old;
	int rc;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(thread, NULL, run, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}
