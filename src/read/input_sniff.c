#include "read/input_sniff.h"

static int is_text_byte(unsigned char b)
{
	return b >= 0x20 ? b != 0x7f : b == '\t' || b == '\n' || b == '\r' || b == '\f';
}

enum csim_sniff csim_input_sniff(const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (n == 0)
		return CSIM_SNIFF_BINARY;
	for (size_t k = 0; k < n; k++) {
		if (!is_text_byte(p[k]))
			return CSIM_SNIFF_BINARY;
	}
	if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		i = 3;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r'))
		i++;
	return i < n && (p[i] == '{' || p[i] == '[') ? CSIM_SNIFF_JSON : CSIM_SNIFF_TEXT;
}
