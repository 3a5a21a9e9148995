/*
 * gz_inflate: the inflation of gzip members, for gz_source only.
 *
 * Two back ends behind one call, chosen when the converter is built: ISA-L's
 * igzip (CSIM_HAVE_ISAL, Debian's libisal-dev) where it is found, else
 * zlib. igzip inflates a producer-format dump about three times as fast as
 * zlib, its CRC-32 included (0.17-0.22 s against 0.53-0.79 s for 734 MB on
 * the benchmark machine), and inflation is the largest single cost of a
 * .bin.gz input (docs/decisions.md, "gzip input: ISA-L's inflater"). Both
 * deliver the same bytes and stop at the same places: every byte before a
 * cut or a corrupt block is handed out, a member ends only once its trailer
 * (CRC-32 and length) has been checked.
 *
 * The inflater allocates only in csim_gz_inflate_new() and, with zlib, its
 * window on the first step that needs it (gz_source makes that step on the
 * opening thread); reset() allocates nothing.
 */
#ifndef CSIM_GZ_INFLATE_H
#define CSIM_GZ_INFLATE_H

#include <stddef.h>

struct csim_gz_inflate;

/* The caller's buffers; a step moves the pointers past what it used. */
struct csim_gz_io {
	const unsigned char *next_in;
	size_t avail_in;
	unsigned char *next_out;
	size_t avail_out;
};

enum csim_gz_step {
	CSIM_GZ_STEP_MORE,        /* the input or the output ran out: give more */
	CSIM_GZ_STEP_MEMBER_END,  /* a member ended, its trailer checked */
	CSIM_GZ_STEP_CORRUPT,     /* *why says what was wrong */
	CSIM_GZ_STEP_NOMEM
};

/* *out is NULL when it fails; returns 0, or -1 when out of memory. */
int csim_gz_inflate_new(struct csim_gz_inflate **out);
/* Accepts NULL. */
void csim_gz_inflate_free(struct csim_gz_inflate *f);
/* Ready for the next member (or the file again); keeps the window. */
void csim_gz_inflate_reset(struct csim_gz_inflate *f);

/*
 * Inflates from io's input into its output until one runs out or the member
 * ends. A step that moved neither pointer returns MORE: it needs input.
 * *why: static text, set with CORRUPT.
 */
enum csim_gz_step csim_gz_inflate_step(struct csim_gz_inflate *f, struct csim_gz_io *io,
				       const char **why);

/* "igzip" or "zlib": the back end built in. */
const char *csim_gz_inflate_backend(void);

#endif
