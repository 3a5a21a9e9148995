/*
 * json_scan: strict, allocation-free JSON tokenizing over a byte window.
 *
 * Each function validates one construct starting at p and never reads at or
 * past end. A construct cut off by the end of the window yields
 * CSIM_SCAN_MORE, unless `final` says no more bytes will come, in which case
 * it is CSIM_SCAN_BAD like any other syntax error. This lets the event scanner
 * hold only a bounded window of a multi-gigabyte payload: it refills and
 * rescans the one element that straddled the window's end.
 */
#ifndef CSIM_JSON_SCAN_H
#define CSIM_JSON_SCAN_H

#include <stddef.h>

#include "base/span.h"

enum csim_scan_status {
	CSIM_SCAN_OK = 0,
	CSIM_SCAN_MORE = 1,
	CSIM_SCAN_BAD = 2,
	CSIM_SCAN_NOMEM = 3  /* the nesting stack could not grow */
};

/*
 * Container nesting for the iterative value skipper; grows on demand, except
 * a fixed one (csim_json_stack_fix), where deeper nesting is CSIM_SCAN_NOMEM.
 */
struct csim_json_stack {
	unsigned char *kinds;
	size_t cap;
	int fixed;
};

struct csim_scan_result {
	const char *end;     /* one past the construct, on success */
	const char *where;   /* the offending byte, on CSIM_SCAN_BAD */
	const char *why;     /* static text, on CSIM_SCAN_BAD */
	size_t depth;        /* csim_json_scan_value: deepest container nesting */
};

void csim_json_stack_release(struct csim_json_stack *st);

/*
 * Room for depth levels now, and no allocation later: for a walk on a
 * worker thread, which leaves a deeper value to a thread that may allocate.
 * -1 if the room cannot be had.
 */
int csim_json_stack_fix(struct csim_json_stack *st, size_t depth);

const char *csim_json_skip_ws(const char *p, const char *end);

/* p at the opening quote; *escaped tells whether the text holds a backslash. */
int csim_json_scan_string(const char *p, const char *end, int final,
			  struct csim_scan_result *res, int *escaped);

int csim_json_scan_number(const char *p, const char *end, int final,
			  struct csim_scan_result *res);

/*
 * A member's head, from *pp (at or before its key) to just past its ':'
 * (*pp moves there): the key string and the colon, nothing of the value.
 * *key is the key's raw text between its quotes.
 */
int csim_json_scan_member_head(const char **pp, const char *end, int final,
			       struct csim_scan_result *res, struct csim_span *key,
			       int *escaped);

/* Any value, nested to any depth without recursion. CSIM_SCAN_NOMEM when the
   nesting stack cannot grow: an allocation failure, not a syntax error. */
int csim_json_scan_value(struct csim_json_stack *st, const char *p,
			 const char *end, int final, struct csim_scan_result *res);

/*
 * Iteration over the members of an object or the elements of an array, in
 * the style of yyjson's iterators: every walk over a container uses it, over
 * a growing window (MORE) or over text already validated (final).
 */
struct csim_json_iter {
	struct csim_json_stack *stack;
	const char *p, *end;   /* next unread byte; end of the text */
	int final;
	char close;            /* '}' or ']' */
	int started;
};

struct csim_json_item {
	struct csim_span key;  /* objects: the key's raw text between its quotes */
	int key_escaped;
	struct csim_span value;
	size_t depth;          /* the value's deepest nesting */
};

/* p at the '{' or '[' that opens the container. */
void csim_json_iter_init(struct csim_json_iter *it, struct csim_json_stack *st,
			 const char *p, const char *end, int final);

/*
 * CSIM_SCAN_OK and *has = 1 with the next member in item; CSIM_SCAN_OK and
 * *has = 0 after the closing bracket (res->end is one past it); otherwise
 * the failing scan's status and res (MORE, BAD, NOMEM).
 */
int csim_json_iter_next(struct csim_json_iter *it, struct csim_json_item *item,
			int *has, struct csim_scan_result *res);

/*
 * The first half of csim_json_iter_next(), for a caller that walks a large
 * value itself: past the separator and, in an object, the key and its ':'.
 * On CSIM_SCAN_OK with *has 1, it->p is at the value's first byte (which
 * the window holds) and item->key is set; the caller moves it->p past the
 * value. *has 0 after the closing bracket. On any other status the
 * iterator is as it was, so the call can be repeated over a longer window.
 */
int csim_json_iter_head(struct csim_json_iter *it, struct csim_json_item *item,
			int *has, struct csim_scan_result *res);

/*
 * Decodes the text between the quotes of a string that
 * csim_json_scan_string() accepted (so no lone surrogate half) into dst,
 * which needs n bytes at most (decoding never grows text). Returns the length.
 */
size_t csim_json_unescape(const char *p, size_t n, char *dst);

#endif
