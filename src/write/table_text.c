#include "write/table_text.h"

#include <string.h>

/*
 * The end of the UTF-8 character starting at s[i]: at most 4 bytes, so a
 * run of stray continuation bytes cannot make one column overflow a cell.
 */
static size_t char_end(const char *s, size_t n, size_t i)
{
	size_t end = i + 1;

	while (end < n && end < i + 4 && ((unsigned char)s[end] & 0xC0) == 0x80)
		end++;
	return end;
}

static size_t columns(const char *s, size_t n)
{
	size_t cols = 0;

	for (size_t i = 0; i < n; i = char_end(s, n, i))
		cols++;
	return cols;
}

size_t csim_text_columns(const char *name, size_t n)
{
	return columns(name, n);
}

size_t csim_text_fit_bytes(const char *name, size_t n, size_t width)
{
	size_t i = 0;

	for (size_t cols = 0; i < n && cols < width; cols++)
		i = char_end(name, n, i);
	return i;
}

/* Appends the character s[i..end) to dst at *len, a control byte as '?'. */
static void put_char(char *dst, size_t *len, const char *s, size_t i, size_t end)
{
	if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F) {
		dst[(*len)++] = '?';
	} else {
		memcpy(dst + *len, s + i, end - i);
		*len += end - i;
	}
}

size_t csim_text_fit(char *dst, const char *name, size_t n, size_t width)
{
	size_t cols = 0, len = 0, i = 0;

	if (width > CSIM_TABLE_WIDTH)
		width = CSIM_TABLE_WIDTH;
	while (i < n && cols < width) {
		size_t end = char_end(name, n, i);

		if (cols + 1 == width && end < n) {
			dst[len++] = '~';
			cols++;
			break;
		}
		put_char(dst, &len, name, i, end);
		cols++;
		i = end;
	}
	dst[len] = '\0';
	return cols;
}

/* "…" (when ellipsis) and s[from..n), which fits. */
static size_t put_tail(char *dst, const char *s, size_t n, size_t from, int ellipsis)
{
	size_t len = 0, cols = 0;

	if (ellipsis) {
		memcpy(dst, "\xE2\x80\xA6", 3);
		len = 3;
		cols = 1;
	}
	for (size_t i = from; i < n; i = char_end(s, n, i), cols++)
		put_char(dst, &len, s, i, char_end(s, n, i));
	dst[len] = '\0';
	return cols;
}

static int is_separator(char c)
{
	return c == '/' || c == '\\';
}

size_t csim_text_fit_tail(char *dst, const char *path, size_t n, size_t width)
{
	size_t base = 0, cols = columns(path, n), from;

	if (width > CSIM_TABLE_WIDTH)
		width = CSIM_TABLE_WIDTH;
	if (cols <= width)
		return put_tail(dst, path, n, 0, 0);
	if (width == 0) {
		dst[0] = '\0';
		return 0;
	}
	/* The first separator whose tail fits gives the longest tail. */
	for (size_t i = 0; i < n; i++) {
		if (!is_separator(path[i]))
			continue;
		base = i + 1;
		if (1 + columns(path + i, n - i) <= width)
			return put_tail(dst, path, n, i, 1);
	}
	cols = columns(path + base, n - base);
	if (base > 0 && cols < width)
		return put_tail(dst, path, n, base, 1);
	if (base > 0 && cols == width)
		return put_tail(dst, path, n, base, 0);
	/* Not even the file name and line fit: their end. */
	cols = columns(path, n);
	from = 0;
	for (size_t k = 0; k + (width - 1) < cols; k++)
		from = char_end(path, n, from);
	return put_tail(dst, path, n, from, 1);
}

void csim_text_put(FILE *f, const char *name, size_t n, size_t width, int pad)
{
	char buf[CSIM_TEXT_CELL];
	size_t cols = csim_text_fit(buf, name, n, width);

	fputs(buf, f);
	while (pad && cols++ < width)
		fputc(' ', f);
}

/* Later lines of a wrapped text start here. */
#define DIAG_INDENT 2

/* Whether text[i..n) starts with a unit that stays with its number ("ns", "%"). */
static int unit_at(const char *text, size_t i, size_t n)
{
	if (i < n && text[i] == '%')
		return 1;
	return i + 1 < n && text[i] == 'n' && text[i + 1] == 's' &&
	       (i + 2 == n || text[i + 2] == ' ' || text[i + 2] == ',');
}

/* Words go through csim_text_fit, so a hostile pipe name inside the text
   can neither break a line nor widen one. */
void csim_text_put_wrapped(FILE *f, const char *text, size_t n, size_t used)
{
	size_t i = 0;
	int fresh = 1;

	while (i < n) {
		char buf[CSIM_TEXT_CELL];
		size_t end = i, cols;

		while (end < n && (text[end] != ' ' ||
				   (end > i && text[end - 1] >= '0' && text[end - 1] <= '9' &&
				    unit_at(text, end + 1, n))))
			end++;
		if (end > i) {
			cols = csim_text_fit(buf, text + i, end - i, CSIM_TABLE_WIDTH - DIAG_INDENT);
			if (!fresh && used + 1 + cols > CSIM_TABLE_WIDTH) {
				fprintf(f, "\n%*s", DIAG_INDENT, "");
				used = DIAG_INDENT;
			} else if (!fresh) {
				fputc(' ', f);
				used++;
			}
			/* only a first word after a long core name can still be too wide */
			cols = csim_text_fit(buf, text + i, end - i, CSIM_TABLE_WIDTH - used);
			fputs(buf, f);
			used += cols;
			fresh = 0;
		}
		i = end + 1;
	}
	fputc('\n', f);
}
