#include "base/csim_error.h"

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

void csim_error_append(struct csim_error *err, const char *fmt, ...)
{
	const size_t len = strlen(err->message);
	va_list ap;

	if (len + 1 >= sizeof(err->message))
		return;
	va_start(ap, fmt);
	vsnprintf(err->message + len, sizeof(err->message) - len, fmt, ap);
	va_end(ap);
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
