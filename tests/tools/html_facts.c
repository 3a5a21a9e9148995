/*
 * html_facts: checks that a summary.html is a self-contained, well-formed
 * page and prints its countable facts, one per line, for
 * tests/cli/t_summary_html.sh. It shares no code with the converter and
 * needs no HTML library: the page is the converter's own simple markup.
 *
 *   html_facts FILE    exit 0 and facts on stdout; 1 with "html_facts: ..."
 *                      on stderr when a check fails or FILE is unreadable
 *
 * Checks: every tag is closed in order (void elements and "/>" excepted);
 * attribute values are quoted; every '&' starts an entity; no <script>, no
 * src= attribute, no href= other than "#anchor" (or a data: URI), no "http"
 * or "url(" or "@import" anywhere (nothing the page could fetch).
 *
 * Facts:
 *   cores N                    rows of the cores overview (tr class="core")
 *   diag N                     diagnosis lines (li inside ul class="diag")
 *   section K pipes N          pipe rows of the detail section id="core-K"
 *   section K heat R x C F     its heat map: R waiting rows, C producer
 *                              columns, F filled cells (td class="hm")
 *   totals N                   rows of the per-pipe totals (many cores)
 *   top N                      rows of the top instructions (tr class="top")
 *   pathtop N                  rows of the slowest core's instructions on its
 *                              critical path (tr class="ptop")
 *   lines N                    rows of the top source lines (tr class="line")
 *   whatif N                   rows of the kernel's what-if (tr class="whatif")
 *   lanes N                    timeline rows (g class="lane")
 *   lane I NAME SHADES         timeline row I: its label and the shade classes
 *                              present (d1..d5), e.g. "d2d3"; "-" when idle
 *   path RUNS                  the timeline's critical-path row (g class="path"):
 *                              the classes of its runs in order, e.g.
 *                              "cpb cpi cpb" (absent without the row)
 *   lane I on path             timeline row I has the path's strip (cpon)
 *   viewbox W H                the timeline SVG's viewBox size
 *   title TEXT                 the <title>'s text, entities decoded
 *   h1 TEXT                    the first <h1>'s text (markup inside left
 *                              out), entities decoded
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256
#define MAX_SECTIONS 64
#define MAX_LANES 256

static const char *const void_tags[] = { "meta", "br", "hr", "img", "input", "link",
					 "col", "area", "base", "wbr", "source", NULL };

struct section {
	int id;
	int pipes, heat_rows, heat_cells, heat_filled;
};

struct facts {
	int cores, diag, totals, top, pathtop, lines, lanes, in_diag, whatif;
	struct section sec[MAX_SECTIONS];
	int nsec;
	char lane_name[MAX_LANES][128];
	int lane_shades[MAX_LANES];   /* bit k: class dk present */
	int lane_on[MAX_LANES];       /* a cpon strip in the row */
	int in_path, has_path;
	char path_runs[4096];
	int in_lane_text;
	double vw, vh;
	int has_viewbox;
	char title[4096], h1[4096];
	int in_title, in_h1, h1_done;
};

/* Appends text to dst (cap bytes) with the five entities the page uses decoded. */
static void append_decoded(char *dst, size_t cap, const char *text)
{
	static const char *const ent[][2] = {
		{ "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" }, { "&quot;", "\"" }, { "&#39;", "'" },
	};
	size_t len = strlen(dst);

	while (*text != '\0' && len + 1 < cap) {
		size_t k = 0, skip = 1;
		char c = *text;

		for (; k < sizeof(ent) / sizeof(ent[0]); k++)
			if (strncmp(text, ent[k][0], strlen(ent[k][0])) == 0)
				break;
		if (k < sizeof(ent) / sizeof(ent[0])) {
			c = ent[k][1][0];
			skip = strlen(ent[k][0]);
		}
		dst[len++] = c;
		text += skip;
	}
	dst[len] = '\0';
}

static int fail(const char *what, long off)
{
	fprintf(stderr, "html_facts: %s (byte %ld)\n", what, off);
	return 1;
}

static int is_void(const char *name)
{
	for (int i = 0; void_tags[i] != NULL; i++)
		if (strcmp(name, void_tags[i]) == 0)
			return 1;
	return 0;
}

/* The value of attribute `key` in the attribute text, into dst; 0: absent. */
static int attr(const char *attrs, const char *key, char *dst, size_t cap)
{
	size_t kn = strlen(key);
	const char *p = attrs;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == attrs || isspace((unsigned char)p[-1])) && p[kn] == '=' && p[kn + 1] == '"') {
			const char *v = p + kn + 2, *e = strchr(v, '"');
			size_t n = e != NULL ? (size_t)(e - v) : 0;

			if (n >= cap)
				n = cap - 1;
			memcpy(dst, v, n);
			dst[n] = '\0';
			return 1;
		}
		p += kn;
	}
	return 0;
}

static struct section *cur_section(struct facts *f)
{
	return f->nsec > 0 ? &f->sec[f->nsec - 1] : NULL;
}

/* What an opening tag adds to the facts. */
static int open_tag(struct facts *f, const char *name, const char *attrs, long off)
{
	char cls[256] = "", v[256];
	struct section *s = cur_section(f);

	attr(attrs, "class", cls, sizeof(cls));
	if (strcmp(name, "script") == 0)
		return fail("a <script> element", off);
	if (attr(attrs, "src", v, sizeof(v)))
		return fail("a src= attribute", off);
	if (attr(attrs, "href", v, sizeof(v)) && v[0] != '#' && strncmp(v, "data:", 5) != 0)
		return fail("an href= to something else than an anchor", off);
	if (strcmp(name, "section") == 0 && strcmp(cls, "core") == 0) {
		if (f->nsec == MAX_SECTIONS || !attr(attrs, "id", v, sizeof(v)) ||
		    strncmp(v, "core-", 5) != 0)
			return fail("a core section without id core-K", off);
		f->sec[f->nsec].id = atoi(v + 5);
		f->nsec++;
	} else if (strcmp(name, "tr") == 0) {
		if (strcmp(cls, "core") == 0)
			f->cores++;
		else if (strncmp(cls, "pipe", 4) == 0 && s != NULL)
			s->pipes++;
		else if (strcmp(cls, "heat") == 0 && s != NULL)
			s->heat_rows++;
		else if (strncmp(cls, "total", 5) == 0)
			f->totals++;
		else if (strcmp(cls, "top") == 0)
			f->top++;
		else if (strcmp(cls, "ptop") == 0)
			f->pathtop++;
		else if (strcmp(cls, "line") == 0)
			f->lines++;
		else if (strcmp(cls, "whatif") == 0)
			f->whatif++;
	} else if (strcmp(name, "td") == 0 && s != NULL && (strcmp(cls, "hm") == 0 || strcmp(cls, "h0") == 0)) {
		s->heat_cells++;
		s->heat_filled += strcmp(cls, "hm") == 0;
	} else if (strcmp(name, "ul") == 0 && strcmp(cls, "diag") == 0) {
		f->in_diag = 1;
	} else if (strcmp(name, "li") == 0 && f->in_diag) {
		f->diag++;
	} else if (strcmp(name, "g") == 0 && strcmp(cls, "path") == 0) {
		f->in_path = f->has_path = 1;
	} else if (strcmp(name, "rect") == 0 && f->in_path && strncmp(cls, "cp", 2) == 0) {
		size_t n = strlen(f->path_runs);

		if (n + strlen(cls) + 2 >= sizeof(f->path_runs))
			return fail("too many path runs", off);
		snprintf(f->path_runs + n, sizeof(f->path_runs) - n, "%s%s", n ? " " : "", cls);
	} else if (strcmp(name, "g") == 0 && strcmp(cls, "lane") == 0) {
		if (f->lanes == MAX_LANES)
			return fail("too many lanes", off);
		f->in_path = 0;
		f->lanes++;
	} else if (strcmp(name, "rect") == 0 && f->lanes > 0 && strcmp(cls, "cpon") == 0) {
		f->lane_on[f->lanes - 1] = 1;
	} else if (strcmp(name, "text") == 0 && f->lanes > 0 && f->lane_name[f->lanes - 1][0] == '\0') {
		f->in_lane_text = 1;
	} else if (strcmp(name, "rect") == 0 && f->lanes > 0 && cls[0] == 'd') {
		f->lane_shades[f->lanes - 1] |= 1 << (cls[1] - '0');
	} else if (strcmp(name, "title") == 0) {
		f->in_title = 1;
	} else if (strcmp(name, "h1") == 0 && !f->h1_done) {
		f->in_h1 = 1;
	} else if (strcmp(name, "svg") == 0 && attr(attrs, "viewBox", v, sizeof(v))) {
		double x, y;

		if (sscanf(v, "%lf %lf %lf %lf", &x, &y, &f->vw, &f->vh) != 4)
			return fail("a viewBox that is not 4 numbers", off);
		f->has_viewbox = 1;
	}
	return 0;
}

static int check_text(const char *t, long base)
{
	for (const char *p = t; *p; p++) {
		if (*p == '&') {
			const char *q = p + 1;

			while (isalnum((unsigned char)*q) || *q == '#')
				q++;
			if (q == p + 1 || *q != ';')
				return fail("an '&' that starts no entity", base + (p - t));
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char stack[MAX_DEPTH][32];
	static struct facts f;
	FILE *fp;
	char *buf;
	long size, i = 0;
	int depth = 0;

	if (argc != 2 || (fp = fopen(argv[1], "rb")) == NULL)
		return fail("usage: html_facts FILE (readable)", 0);
	fseek(fp, 0, SEEK_END);
	size = ftell(fp);
	rewind(fp);
	buf = calloc((size_t)size + 1, 1);
	if (buf == NULL || fread(buf, 1, (size_t)size, fp) != (size_t)size)
		return fail("cannot read the file", 0);
	fclose(fp);
	if (strstr(buf, "http") || strstr(buf, "url(") || strstr(buf, "@import"))
		return fail("a reference to the network or another file (http, url(, @import)", 0);
	if (strncmp(buf, "<!DOCTYPE html>\n", 16) != 0)
		return fail("no <!DOCTYPE html> first", 0);
	i = 16;
	while (i < size) {
		char name[32], text[4096];
		long j = i, n = 0;
		int closing, self;

		if (buf[i] != '<') {   /* text up to the next tag */
			while (j < size && buf[j] != '<' && j - i < (long)sizeof(text) - 1)
				j++;
			memcpy(text, buf + i, (size_t)(j - i));
			text[j - i] = '\0';
			if (check_text(text, i))
				return 1;
			if (f.in_title)
				append_decoded(f.title, sizeof(f.title), text);
			if (f.in_h1)
				append_decoded(f.h1, sizeof(f.h1), text);
			if (f.in_lane_text && f.lanes > 0) {
				size_t ln = strlen(text);

				if (ln >= sizeof(f.lane_name[0]))
					ln = sizeof(f.lane_name[0]) - 1;
				memcpy(f.lane_name[f.lanes - 1], text, ln);
				f.lane_name[f.lanes - 1][ln] = '\0';
			}
			i = j;
			continue;
		}
		/* a tag: its name, then attributes up to '>' outside quotes */
		closing = buf[j + 1] == '/';
		j += 1 + closing;
		while (j < size && (isalnum((unsigned char)buf[j])) && n < 31)
			name[n++] = (char)tolower((unsigned char)buf[j++]);
		name[n] = '\0';
		if (n == 0)
			return fail("a '<' that starts no tag", i);
		{
			long a = j;
			int inq = 0;

			while (j < size && (inq || buf[j] != '>')) {
				if (buf[j] == '"')
					inq = !inq;
				else if (!inq && buf[j] == '=' && buf[j + 1] != '"')
					return fail("an unquoted attribute value", j);
				j++;
			}
			if (j >= size)
				return fail("a tag that never ends", i);
			self = buf[j - 1] == '/';
			memcpy(text, buf + a, (size_t)(j - a < 4095 ? j - a : 4095));
			text[j - a < 4095 ? j - a : 4095] = '\0';
		}
		if (check_text(text, i))
			return 1;
		if (closing) {
			if (depth == 0 || strcmp(stack[depth - 1], name) != 0)
				return fail("a closing tag that does not match the open one", i);
			depth--;
			if (strcmp(name, "ul") == 0)
				f.in_diag = 0;
			if (strcmp(name, "text") == 0)
				f.in_lane_text = 0;
			if (strcmp(name, "title") == 0)
				f.in_title = 0;
			if (strcmp(name, "h1") == 0 && f.in_h1) {
				f.in_h1 = 0;
				f.h1_done = 1;
			}
		} else {
			if (open_tag(&f, name, text, i))
				return 1;
			if (!self && !is_void(name)) {
				if (depth == MAX_DEPTH)
					return fail("tags nested too deep", i);
				snprintf(stack[depth++], sizeof(stack[0]), "%s", name);
			}
		}
		i = j + 1;
		/* style content is CSS, not markup: skip to its end tag */
		if (!closing && strcmp(name, "style") == 0) {
			char *e = strstr(buf + i, "</style>");

			if (e == NULL)
				return fail("an unclosed <style>", i);
			i = e - buf;
		}
	}
	if (depth != 0)
		return fail("unclosed tags at the end", size);
	printf("cores %d\ndiag %d\ntotals %d\ntop %d\npathtop %d\nlines %d\nlanes %d\nwhatif %d\n",
	       f.cores, f.diag, f.totals, f.top, f.pathtop, f.lines, f.lanes, f.whatif);
	for (int k = 0; k < f.nsec; k++) {
		const struct section *s = &f.sec[k];

		printf("section %d pipes %d\n", s->id, s->pipes);
		printf("section %d heat %d x %d %d\n", s->id, s->heat_rows,
		       s->heat_rows ? s->heat_cells / s->heat_rows : 0, s->heat_filled);
	}
	for (int k = 0; k < f.lanes; k++) {
		printf("lane %d %s ", k, f.lane_name[k]);
		if (f.lane_shades[k] == 0)
			printf("-");
		for (int c = 1; c <= 5; c++)
			if (f.lane_shades[k] & (1 << c))
				printf("d%d", c);
		printf("\n");
		if (f.lane_on[k])
			printf("lane %d on path\n", k);
	}
	if (f.has_path)
		printf("path %s\n", f.path_runs);
	if (f.has_viewbox)
		printf("viewbox %g %g\n", f.vw, f.vh);
	printf("title %s\nh1 %s\n", f.title, f.h1);
	free(buf);
	return 0;
}
