/*
 * diag_text: a diagnosis line as the user reads it (SPEC §10): the
 * likelihood, the cores it holds on, the evidence with the range of each
 * figure across those cores, and the next step that fits it ("likely
 * transfer-bound on 24 of 24 vector cores: MTE2 busy 88-93 % of the span,
 * VECTOR 12-18 %; try double buffering"). Shared by the writers; the
 * wording of each rule is in docs/summary.md.
 */
#ifndef CSIM_DIAG_TEXT_H
#define CSIM_DIAG_TEXT_H

#include <stddef.h>

#include "model/model.h"

/*
 * Room for any line's text, NUL included: the wording is fixed and quotes
 * at most 64 bytes of each name (pipe or core) it names, cut between
 * UTF-8 sequences, and at most nine of them.
 */
#define CSIM_DIAG_TEXT_MAX 1024

/*
 * Writes line d of m's diagnosis into buf: at most cap bytes, NUL included;
 * returns the length the whole text needs, as snprintf does.
 */
size_t csim_diag_text(const struct csim_model *m, const struct csim_diag *d,
		      char *buf, size_t cap);

#endif
