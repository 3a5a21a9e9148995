#define _GNU_SOURCE   /* pthread_setname_np */
#include "base/handoff.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct csim_handoff {
	pthread_t thread;
	int running;
	pthread_mutex_t mu;
	pthread_cond_t changed;      /* a slot was posted or given back, or a side ended */
	unsigned nslots;
	unsigned head, full;         /* the oldest filled slot; how many are filled */
	int last;                    /* the worker posted its last */
	int stop;                    /* the main thread wants no more */
	size_t turn;                 /* whose turn it is to write (turns) */
	char name[16];
	void *(*run)(void *);
	void *arg;
};

int csim_handoff_new(struct csim_handoff **out, unsigned nslots)
{
	struct csim_handoff *h = calloc(1, sizeof(*h));

	*out = NULL;
	if (h == NULL)
		return -1;
	/* Linux's default mutex and condition need no allocation. */
	if (pthread_mutex_init(&h->mu, NULL) != 0) {
		free(h);
		return -1;
	}
	if (pthread_cond_init(&h->changed, NULL) != 0) {
		pthread_mutex_destroy(&h->mu);
		free(h);
		return -1;
	}
	h->nslots = nslots;
	*out = h;
	return 0;
}

static void *trampoline(void *arg)
{
	struct csim_handoff *h = arg;

	(void)pthread_setname_np(pthread_self(), h->name);
	return h->run(h->arg);
}

int csim_handoff_start(struct csim_handoff *h, const char *name, void *(*run)(void *),
		       void *arg)
{
	sigset_t all, old;
	int rc;

	snprintf(h->name, sizeof(h->name), "%s", name);
	h->run = run;
	h->arg = arg;
	/* The worker inherits the mask it is created with. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&h->thread, NULL, trampoline, h);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	h->running = rc == 0;
	return rc;
}

int csim_handoff_fill(struct csim_handoff *h, unsigned *slot)
{
	int ours;

	pthread_mutex_lock(&h->mu);
	while (h->full == h->nslots && !h->stop)
		pthread_cond_wait(&h->changed, &h->mu);
	ours = !h->stop;
	/* Not among the filled slots: the main thread never reads it now. */
	if (ours)
		*slot = (h->head + h->full) % h->nslots;
	pthread_mutex_unlock(&h->mu);
	return ours;
}

void csim_handoff_post(struct csim_handoff *h, int filled, int last)
{
	pthread_mutex_lock(&h->mu);
	if (filled)
		h->full++;
	if (last)
		h->last = 1;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->mu);
}

int csim_handoff_take(struct csim_handoff *h, unsigned *slot)
{
	int has;

	pthread_mutex_lock(&h->mu);
	while (h->full == 0 && !h->last)
		pthread_cond_wait(&h->changed, &h->mu);
	has = h->full > 0;
	if (has)
		*slot = h->head;
	pthread_mutex_unlock(&h->mu);
	return has;
}

void csim_handoff_give_back(struct csim_handoff *h)
{
	pthread_mutex_lock(&h->mu);
	h->head = (h->head + 1) % h->nslots;
	h->full--;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->mu);
}

int csim_handoff_await_turn(struct csim_handoff *h, size_t k, int worker)
{
	int ours;

	pthread_mutex_lock(&h->mu);
	while (h->turn != k && !(worker ? h->stop : h->last))
		pthread_cond_wait(&h->changed, &h->mu);
	ours = !(worker ? h->stop : h->last);
	pthread_mutex_unlock(&h->mu);
	return ours;
}

void csim_handoff_pass_turn(struct csim_handoff *h, size_t k)
{
	pthread_mutex_lock(&h->mu);
	h->turn = k;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->mu);
}

void csim_handoff_stop(struct csim_handoff *h)
{
	if (!h->running)
		return;
	pthread_mutex_lock(&h->mu);
	h->stop = 1;
	pthread_cond_broadcast(&h->changed);
	pthread_mutex_unlock(&h->mu);
	pthread_join(h->thread, NULL);
	h->running = 0;
	h->head = h->full = 0;
	h->last = h->stop = 0;
	h->turn = 0;
}

void csim_handoff_free(struct csim_handoff *h)
{
	if (h == NULL)
		return;
	csim_handoff_stop(h);
	pthread_cond_destroy(&h->changed);
	pthread_mutex_destroy(&h->mu);
	free(h);
}
