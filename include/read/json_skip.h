/*
 * json_skip: delimits JSON values in text that an earlier reading has
 * already validated with json_scan (the API_INSTR rows, read again after
 * the first scan), at a fraction of json_scan's cost.
 *
 * A skipper does not check the grammar: a string is read by json_scan's
 * string scanner (its cost is finding the closing quote; it checks the
 * escapes that decoding relies on), a container ends at the bracket that
 * brings the depth back to zero.
 * The text may still have changed since it was validated (a file rewritten
 * between readings), so every function reads only [p, end), takes time
 * linear in end - p, allocates nothing, and refuses with CSIM_SCAN_BAD
 * what cannot be the validated text: a byte outside strings that JSON has
 * no use for, a control character or a malformed escape in a string, a
 * closing bracket of the wrong kind (checked to a nesting of 64, counted
 * beyond), and where items are walked one by one (the iterator, the array
 * walk) a missing ',' or ':' between them. Statuses and results are
 * json_scan's (MORE when the window ends inside a value and !final).
 */
#ifndef CSIM_JSON_SKIP_H
#define CSIM_JSON_SKIP_H

#include <stddef.h>

#include "base/span.h"
#include "read/json_scan.h"

/* p at the opening quote; res->end one past the closing one. */
int csim_json_skip_string(const char *p, const char *end, int final,
			  struct csim_scan_result *res);

/* The value at p (whitespace before it skipped); res->end one past it. */
int csim_json_skip_value(const char *p, const char *end, int final,
			 struct csim_scan_result *res);

/*
 * The array at p ('['), its elements delimited in one pass: the first max
 * of them in span[] (each from its first byte, as csim_json_skip_next()
 * gives it), how many there are in *count, res->end past the ']'. On any
 * status but OK, span[] and *count are undefined.
 */
int csim_json_skip_array(const char *p, const char *end, int final,
			 struct csim_span *span, size_t max, size_t *count,
			 struct csim_scan_result *res);

/* A walk over an object's members or an array's elements (csim_json_iter's
   counterpart). */
struct csim_json_skip_iter {
	const char *p, *end;   /* next unread byte; end of the text */
	int final;
	char close;            /* '}' or ']' */
	int started;
};

/* p at the '{' or '[' that opens the container. */
void csim_json_skip_iter_init(struct csim_json_skip_iter *it, const char *p,
			      const char *end, int final);

/*
 * Up to the next item's value: past the separator and, in an object, the
 * key (*key, between its quotes; an array leaves *key as it is) and its ':'. On CSIM_SCAN_OK with *has 1,
 * it->p is at the value's first byte, which the text holds; the caller
 * moves it->p past the value. *has 0 after the closing bracket (res->end
 * is one past it). On any other status the iterator is as it was.
 */
int csim_json_skip_head(struct csim_json_skip_iter *it, struct csim_span *key,
			int *has, struct csim_scan_result *res);

/* The next item whole: head, then the value (*value, from its first byte). */
int csim_json_skip_next(struct csim_json_skip_iter *it, struct csim_span *key,
			struct csim_span *value, int *has, struct csim_scan_result *res);

#endif
