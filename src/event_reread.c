/*
 * event_reread: the writer's second reading of kept slices, and the layout
 * the first pass records so that it needs no parsing.
 */
#include "event_reread.h"

#include <string.h>

#include "event_scan_priv.h"

static const int layout_fields[4] = { CSIM_F_NAME, CSIM_F_PID, CSIM_F_TS,
				     CSIM_F_DUR };

void csim_event_layout_make(const struct csim_event *ev,
			    struct csim_event_layout *layout)
{
	struct csim_span args = ev->field[CSIM_F_ARGS];

	memset(layout, 0, sizeof(*layout));
	if (ev->raw.n > UINT32_MAX)
		return;   /* name_n stays 0: parse again */
	layout->len = (uint32_t)ev->raw.n;
	for (int i = 0; i < 4; i++) {
		struct csim_span f = ev->field[layout_fields[i]];
		size_t off = f.p != NULL ? (size_t)(f.p - ev->raw.p) : 0;

		if (off + f.n > UINT16_MAX) {
			layout->n[0] = 0;
			return;
		}
		layout->off[i] = (uint16_t)off;
		layout->n[i] = (uint16_t)f.n;
	}
	if (args.p != NULL) {
		layout->args_off = (uint32_t)(args.p - ev->raw.p);
		layout->args_n = (uint32_t)args.n;
	}
}

static int changed(const struct csim_trace_scan *sc, uint64_t offset,
		   struct csim_error *err)
{
	return csim_error_set(err, CSIM_E_INPUT, sc->win.block.offset,
			      "%s: TRACE block at offset %llu: event at payload byte %llu changed on re-reading",
			      sc->win.reader->stream.path,
			      (unsigned long long)sc->win.block.offset,
			      (unsigned long long)offset);
}

int csim_trace_scan_event_at(struct csim_trace_scan *sc, uint64_t offset,
			     const struct csim_event_layout *layout,
			     struct csim_event *ev, struct csim_error *err)
{
	struct csim_scan_result res;
	size_t len = layout->len;
	const char *p;
	int rc = csim_payload_window_at(&sc->win, offset, len, err);

	if (rc != CSIM_OK)
		return rc;
	p = sc->win.buf + sc->win.pos;
	memset(ev, 0, sizeof(*ev));
	ev->offset = offset;
	ev->raw.p = p;
	ev->raw.n = len;
	ev->is_object = 1;
	if (len < 2 || p[0] != '{' || p[len - 1] != '}')
		return changed(sc, offset, err);
	if (layout->n[0] != 0) {
		for (int i = 0; i < 4; i++)
			if (layout->n[i] != 0)
				ev->field[layout_fields[i]] =
					(struct csim_span){ p + layout->off[i], layout->n[i] };
		if (layout->args_n != 0)
			ev->field[CSIM_F_ARGS] =
				(struct csim_span){ p + layout->args_off, layout->args_n };
		return CSIM_OK;
	}
	/* The event was validated on the first pass: it ends exactly here. */
	sc->win.final = 1;
	rc = csim_scan_event_object(sc, p, p + len, ev, &res);
	if (rc == CSIM_SCAN_NOMEM)
		return csim_error_nomem(err, CSIM_E_INPUT);
	if (rc != CSIM_SCAN_OK || res.end != p + len)
		return changed(sc, offset, err);
	return CSIM_OK;
}

