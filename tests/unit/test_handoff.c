/*
 * handoff (base/handoff.h): a worker's slots reach the main thread in the
 * order posted and each is filled again only once given back; the last
 * post ends the main thread's wait; a stop ends the worker's wait on a
 * full ring, empties it and lets it start again; a ring of no slots is a
 * thread to start and join; turns alternate between the two threads in
 * order, and each side's wait for a turn ends when the other gives up; the
 * worker runs with every signal blocked and under its name. Run under TSan in CI (.ci/run) as well.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "base/handoff.h"
#include "check.h"

#define SLOTS 3
#define ITEMS 1000

struct ring_test {
	struct csim_handoff *h;
	unsigned values[SLOTS];     /* what each slot holds */
	unsigned items;             /* the worker posts 0..items-1, then ends */
	int blocked;                /* SIGTERM was blocked in the worker */
	char name[16];
	unsigned filled;            /* slots the worker filled before the stop */
};

static void *produce(void *arg)
{
	struct ring_test *t = arg;
	sigset_t mask;
	unsigned slot;

	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	t->blocked = sigismember(&mask, SIGTERM) == 1;
	(void)pthread_getname_np(pthread_self(), t->name, sizeof(t->name));
	for (unsigned i = 0; i < t->items; i++) {
		if (!csim_handoff_fill(t->h, &slot))
			return NULL;
		t->values[slot] = i;
		t->filled++;
		csim_handoff_post(t->h, 1, i + 1 == t->items);
	}
	return NULL;
}

/* A ring of nslots with run(arg) started as its worker; 0 when it failed. */
static int started(struct check_ctx *c, struct csim_handoff **h, unsigned nslots,
		   void *(*run)(void *), void *arg)
{
	if (!CHECK(c, csim_handoff_new(h, nslots) == 0))
		return 0;
	return CHECK(c, csim_handoff_start(*h, "csim_test", run, arg) == 0);
}

static void test_slots_arrive_in_order_and_the_last_ends_the_wait(struct check_ctx *c)
{
	struct ring_test t;
	unsigned slot, next = 0;
	int in_order = 1;

	memset(&t, 0, sizeof(t));
	t.items = ITEMS;
	if (!started(c, &t.h, SLOTS, produce, &t))
		return;
	while (csim_handoff_take(t.h, &slot)) {
		in_order &= t.values[slot] == next++;
		csim_handoff_give_back(t.h);
	}
	CHECK(c, in_order);
	CHECK_U64(c, next, ITEMS);
	csim_handoff_free(t.h);
	CHECK(c, t.blocked);
	CHECK(c, strcmp(t.name, "csim_test") == 0);
}

static void test_a_stop_ends_a_full_rings_wait_and_the_ring_restarts(struct check_ctx *c)
{
	struct ring_test t;
	unsigned slot = 99;

	memset(&t, 0, sizeof(t));
	t.items = ITEMS;
	if (!started(c, &t.h, SLOTS, produce, &t))
		return;
	/* The worker fills every slot, then waits for one given back. */
	CHECK(c, csim_handoff_take(t.h, &slot) && slot == 0 && t.values[0] == 0);
	csim_handoff_stop(t.h);
	CHECK(c, t.filled <= SLOTS);
	/* Started again, the ring is empty: the first slot is slot 0 again. */
	t.items = 2;
	t.filled = 0;
	CHECK(c, csim_handoff_start(t.h, "csim_test", produce, &t) == 0);
	CHECK(c, csim_handoff_take(t.h, &slot) && slot == 0 && t.values[0] == 0);
	csim_handoff_give_back(t.h);
	CHECK(c, csim_handoff_take(t.h, &slot) && slot == 1 && t.values[1] == 1);
	csim_handoff_give_back(t.h);
	CHECK(c, !csim_handoff_take(t.h, &slot));
	csim_handoff_free(t.h);
}

static void *note_ran(void *arg)
{
	*(int *)arg = 1;
	return NULL;
}

static void test_no_slots_is_a_thread_to_join(struct check_ctx *c)
{
	struct csim_handoff *h;
	int ran = 0;

	if (!CHECK(c, csim_handoff_new(&h, 0) == 0))
		return;
	CHECK(c, csim_handoff_start(h, "csim_test", note_ran, &ran) == 0);
	csim_handoff_free(h);   /* joins */
	CHECK(c, ran);
	csim_handoff_free(NULL);
}

static void test_an_empty_last_post_ends_the_wait(struct check_ctx *c)
{
	struct csim_handoff *h;
	unsigned slot;

	if (!CHECK(c, csim_handoff_new(&h, SLOTS) == 0))
		return;
	/* The worker's side, on this thread: a slot it leaves empty, as its last. */
	CHECK(c, csim_handoff_fill(h, &slot) && slot == 0);
	csim_handoff_post(h, 0, 1);
	CHECK(c, !csim_handoff_take(h, &slot));
	csim_handoff_free(h);   /* never started: nothing to join */
}

#define TURNS 200

struct turn_test {
	struct csim_handoff *h;
	unsigned order[TURNS];      /* who wrote turn k: 1 the worker */
	size_t gave_up_at;          /* the worker posts its last at this odd turn (0: never) */
};

static void *odd_turns(void *arg)
{
	struct turn_test *t = arg;

	for (size_t k = 1; k < TURNS; k += 2) {
		if (k == t->gave_up_at) {
			csim_handoff_post(t->h, 0, 1);
			return NULL;
		}
		if (!csim_handoff_await_turn(t->h, k, 1))
			return NULL;
		t->order[k] = 1;
		csim_handoff_pass_turn(t->h, k + 1);
	}
	return NULL;
}

static void test_turns_alternate_and_end_when_one_side_gives_up(struct check_ctx *c)
{
	struct turn_test t;
	int alternated = 1;
	size_t k;

	memset(&t, 0, sizeof(t));
	if (!started(c, &t.h, 0, odd_turns, &t))
		return;
	for (k = 0; k < TURNS; k += 2) {
		if (!csim_handoff_await_turn(t.h, k, 0))
			break;
		t.order[k] = 2;
		csim_handoff_pass_turn(t.h, k + 1);
	}
	CHECK(c, csim_handoff_await_turn(t.h, TURNS, 0));
	csim_handoff_free(t.h);
	for (k = 0; k < TURNS; k++)
		alternated &= t.order[k] == (k % 2 ? 1u : 2u);
	CHECK(c, alternated);

	/* The worker gives up at turn 51: main's wait for 52 ends unanswered
	   (or already its wait for 50, if the giving up came first: an ended
	   side wins over a turn, so a hand-back is never missed). */
	memset(&t, 0, sizeof(t));
	t.gave_up_at = 51;
	if (!started(c, &t.h, 0, odd_turns, &t))
		return;
	for (k = 0; k < TURNS; k += 2) {
		if (!csim_handoff_await_turn(t.h, k, 0))
			break;
		csim_handoff_pass_turn(t.h, k + 1);
	}
	CHECK(c, k == 50 || k == 52);
	csim_handoff_free(t.h);

	/* Main stops the worker while it waits for its turn: its wait ends. */
	memset(&t, 0, sizeof(t));
	if (!started(c, &t.h, 0, odd_turns, &t))
		return;
	csim_handoff_free(t.h);   /* turn 0 never passed: the worker waits for 1 */
	CHECK_U64(c, t.order[1], 0);
}

int main(void)
{
	struct check_ctx c = { 0, 0, NULL };

	CHECK_RUN(&c, test_slots_arrive_in_order_and_the_last_ends_the_wait);
	CHECK_RUN(&c, test_a_stop_ends_a_full_rings_wait_and_the_ring_restarts);
	CHECK_RUN(&c, test_no_slots_is_a_thread_to_join);
	CHECK_RUN(&c, test_an_empty_last_post_ends_the_wait);
	CHECK_RUN(&c, test_turns_alternate_and_end_when_one_side_gives_up);
	return check_done(&c);
}
