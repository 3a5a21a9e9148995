#include "write/metrics_writer.h"

#include <stdlib.h>

#include "read/json_scan.h"

/* "Instructions Executed" -> "instructions_executed", escaped as needed. */
static int write_key(struct csim_out *out, const char *key, size_t n,
		     struct csim_error *err)
{
	char small[256];
	char *buf = n <= sizeof(small) ? small : malloc(n);
	size_t len;

	if (buf == NULL)
		return csim_error_nomem(err, CSIM_E_OUTPUT);
	len = csim_json_unescape(key, n, buf);
	for (size_t i = 0; i < len; i++) {
		if (buf[i] >= 'A' && buf[i] <= 'Z')
			buf[i] = (char)(buf[i] - 'A' + 'a');
		else if (buf[i] == ' ')
			buf[i] = '_';
	}
	csim_out_json_string(out, buf, len);
	if (buf != small)
		free(buf);
	return CSIM_OK;
}

static int write_row(const struct csim_metrics *mt, size_t row, size_t core,
		     struct csim_out *out, struct csim_error *err)
{
	csim_out_char(out, '{');
	for (size_t i = mt->row_first[row]; i < mt->row_first[row + 1]; i++) {
		const struct csim_metrics_field *f = &mt->fields[i];

		if (i != mt->row_first[row])
			csim_out_char(out, ',');
		if (write_key(out, f->key, f->key_n, err) != CSIM_OK)
			return err->code;
		csim_out_char(out, ':');
		if (f->split)
			csim_out_bytes(out, mt->elem[f->elems + core].p,
				       mt->elem[f->elems + core].n);
		else
			csim_out_bytes(out, f->val, f->val_n);
	}
	csim_out_char(out, '}');
	return CSIM_OK;
}

int csim_metrics_write(const struct csim_metrics *mt, int raw,
		       struct csim_out *out, struct csim_error *err)
{
	if (raw) {
		csim_out_bytes(out, mt->payload, mt->size);
		return CSIM_OK;
	}
	csim_out_text(out, "{\"cores\":[");
	for (size_t c = 0; c < mt->ncores; c++) {
		if (c > 0)
			csim_out_char(out, ',');
		csim_out_bytes(out, mt->cores[c].p, mt->cores[c].n);
	}
	csim_out_text(out, "],\n\"instructions\":{");
	for (size_t c = 0; c < mt->ncores; c++) {
		csim_out_text(out, c > 0 ? ",\n" : "\n");
		csim_out_bytes(out, mt->cores[c].p, mt->cores[c].n);
		csim_out_text(out, ":[");
		for (size_t r = 0; r < mt->nrows; r++) {
			csim_out_text(out, r > 0 ? ",\n" : "\n");
			if (write_row(mt, r, c, out, err) != CSIM_OK)
				return err->code;
		}
		csim_out_text(out, "\n]");
	}
	csim_out_text(out, "},\n\"column_types\":");
	if (mt->dtype != NULL)
		csim_out_bytes(out, mt->dtype, mt->dtype_n);
	else
		csim_out_text(out, "{}");
	csim_out_text(out, "}\n");
	return CSIM_OK;
}
