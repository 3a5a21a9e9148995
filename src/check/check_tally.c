#include "check/check_tally.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void report(struct csim_check_report *rep, const char *rule, int note,
		   const char *who, const char *text)
{
	if (note)
		csim_check_note(rep, rule, "%s: %s", who, text);
	else
		csim_check_violation(rep, rule, "%s: %s", who, text);
}

void csim_check_tally_add(struct csim_check_tally *t, struct csim_check_report *rep,
			  const char *rule, int note, const char *noun, uint64_t index,
			  const char *fmt, ...)
{
	char text[CSIM_CHECK_TALLY_TEXT];
	struct csim_check_tally_kind *k;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < t->n; i++) {
		k = &t->kind[i];
		if (strcmp(k->rule, rule) == 0 && strcmp(k->noun, noun) == 0 && strcmp(k->text, text) == 0) {
			k->last = index;
			k->count++;
			return;
		}
	}
	if (t->n == CSIM_CHECK_TALLY_KINDS) {
		char who[CSIM_CHECK_TALLY_NOUN + 32];

		snprintf(who, sizeof(who), "%s #%llu", noun, (unsigned long long)index);
		report(rep, rule, note, who, text);
		return;
	}
	k = &t->kind[t->n++];
	k->rule = rule;
	k->note = note;
	snprintf(k->noun, sizeof(k->noun), "%s", noun);
	memcpy(k->text, text, sizeof(text));
	k->first = k->last = index;
	k->count = 1;
}

void csim_check_tally_flush(const struct csim_check_tally *t, struct csim_check_report *rep,
			    int notes)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct csim_check_tally_kind *k = &t->kind[i];
		char who[CSIM_CHECK_TALLY_NOUN + 96];

		if (k->note != notes)
			continue;
		if (k->count == 1)
			snprintf(who, sizeof(who), "%s #%llu", k->noun,
				 (unsigned long long)k->first);
		else
			snprintf(who, sizeof(who), "%llu %ss (first #%llu, last #%llu)",
				 (unsigned long long)k->count, k->noun,
				 (unsigned long long)k->first, (unsigned long long)k->last);
		report(rep, k->rule, k->note, who, k->text);
	}
}
