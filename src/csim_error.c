#include "csim_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void csim_error_clear(struct csim_error *err)
{
	err->code = CSIM_OK;
	err->offset = CSIM_NO_OFFSET;
	err->message[0] = '\0';
}

int csim_error_set(struct csim_error *err, int code, uint64_t offset,
		   const char *fmt, ...)
{
	va_list ap;

	err->code = code;
	err->offset = offset;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

static const char nomem_text[] = "out of memory";

int csim_error_nomem(struct csim_error *err, int code)
{
	return csim_error_set(err, code, CSIM_NO_OFFSET, "%s", nomem_text);
}

int csim_error_is_nomem(const struct csim_error *err)
{
	return err->code != CSIM_OK && strcmp(err->message, nomem_text) == 0;
}

void csim_error_prefix(struct csim_error *err, const char *prefix)
{
	size_t cap = sizeof(err->message);
	size_t plen = strlen(prefix);
	size_t mlen = strlen(err->message);

	/* Shift the message right and keep it NUL-terminated if it must shrink. */
	if (plen + 2 >= cap)
		return;
	if (mlen > cap - plen - 3)
		mlen = cap - plen - 3;
	memmove(err->message + plen + 2, err->message, mlen);
	err->message[plen + 2 + mlen] = '\0';
	memcpy(err->message, prefix, plen);
	err->message[plen] = ':';
	err->message[plen + 1] = ' ';
}
