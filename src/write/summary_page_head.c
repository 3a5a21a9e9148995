#include "write/summary_page_head.h"

#include <string.h>

#include "write/summary_timeline.h"

static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";

/* Styles by class: rows repeat per pipe and core, so their markup stays short. */
static const char page_style[] =
	"<style>\n"
	"body{font:14px/1.45 system-ui,sans-serif;color:#1f2328;margin:24px auto;max-width:1180px;"
	"padding:0 16px}\n"
	"h1{font-size:22px;margin:0;word-break:break-all}\n"
	"header code{word-break:break-all}\n"
	"h2{font-size:17px;margin:28px 0 8px;padding-bottom:4px;border-bottom:1px solid #d8dee4}\n"
	"h3{font-size:15px;margin:20px 0 2px}\n"
	"p{color:#57606a;margin:2px 0 8px}\n"
	"nav a{margin-right:14px;color:#0969da}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:4px 0 8px}\n"
	"th,td{padding:3px 9px;border-bottom:1px solid #eaeef2;text-align:right;white-space:nowrap}\n"
	"th{background:#f6f8fa;white-space:normal;vertical-align:bottom}\n"
	".l,.s,td:first-child,th:first-child,.pipes td:nth-child(8),.pipes th:nth-child(8)"
	"{text-align:left}\n"
	"td.name{font-family:monospace;white-space:normal;word-break:break-all}\n"
	".facts th{background:none;color:#57606a}\n"
	".facts td{text-align:left;white-space:normal;word-break:break-all}\n"
	"tr.dropped td{color:#8c959f}\n"
	"i.bar{display:inline-block;width:110px;height:10px;background:#eef1f4;margin-right:6px}\n"
	"i.bar i{display:block;height:100%;background:#2f6fca}\n"
	".cores i.bar i{background:#8250df}\n"
	"li{margin:4px 0}\n"
	".rule{font:12px monospace;background:#fff8c5;border:1px solid #d4a72c;padding:0 4px;"
	"margin-right:6px}\n"
	".tag{font-size:12px;color:#fff;background:#57606a;border-radius:3px;padding:1px 6px;"
	"margin-left:8px}\n"
	"td.hm{text-align:center;min-width:64px;border:1px solid #fff}\n"
	"td.hm small{display:block;font-size:11px}\n"
	"td.h0{border:1px solid #fff;background:#fafbfc}\n"
	"th.corner{font-weight:400;color:#57606a;font-size:12px}\n"
	"svg{display:block;font:11px system-ui,sans-serif;margin:6px 0}\n"
	"svg g text{text-anchor:end}\n"
	"svg .axis line{stroke:#57606a}\nsvg .axis text{text-anchor:middle}\n"
	".legend{font-size:12px}\n"
	".legend i{display:inline-block;width:14px;height:10px;margin:0 4px 0 12px;"
	"border:1px solid #d0d7de}\n"
	"footer{margin-top:36px;color:#8c959f;font-size:12px}\n";

/* Opens the <style> element and writes its rules; the caller closes it. */
void csim_summary_page_styles(struct csim_out *o)
{
	csim_out_text(o, page_style);
	csim_out_format(o, "svg .bg{fill:%s}\n", csim_timeline_shade_colors[0]);
	for (int k = 1; k <= CSIM_TIMELINE_SHADES; k++)
		csim_out_format(o, "svg .d%d{fill:%s}\n", k, csim_timeline_shade_colors[k]);
	for (int k = 0; k < CSIM_TIMELINE_PATH_KINDS; k++)
		csim_out_format(o, "svg .%s{fill:%s}\n", csim_timeline_path_classes[k],
				csim_timeline_path_colors[k]);
	csim_out_format(o, "svg .cpon{fill:%s}\n", csim_timeline_path_colors[CSIM_TIMELINE_PATH_KINDS]);
}

/* The dump's path, escaped. */
static void put_path(struct csim_out *o, const struct csim_view_input *in)
{
	csim_out_html_escaped(o, in->path, strlen(in->path));
}

/* With --core or --window: the cut as given, and what the page covers. */
static void write_cut(struct csim_out *o, const struct csim_cut *c)
{
	char a[CSIM_VIEW_NUM] = "", b[CSIM_VIEW_NUM] = "";

	if (!csim_cut_active(c))
		return;
	csim_out_text(o, "<p class=\"cut\">cut:");
	for (size_t i = 0; i < c->ncores; i++) {
		csim_out_text(o, " <code>--core ");
		csim_out_html_escaped(o, c->cores[i], strlen(c->cores[i]));
		csim_out_text(o, "</code>");
	}
	if (csim_window_active(&c->window)) {
		if (c->window.has_from)
			csim_view_format_us(a, c->window.from_ns);
		if (c->window.has_to)
			csim_view_format_us(b, c->window.to_ns);
		csim_out_format(o, " <code>--window %s:%s</code> \xC2\xB5s", a, b);
	}
	csim_out_format(o, ": %s.</p>", csim_view_cut_covers(c));
}

/*
 * Under the heading: the dump (when the heading is the op name), its size,
 * what names the op when nothing does, and which runs the page covers.
 */
static void write_subtitle(struct csim_out *o, const struct csim_model *const *runs, size_t n,
			   const struct csim_view_input *in)
{
	const struct csim_run_info *run = &runs[0]->run;
	const int has = csim_basic_info_has(&run->basic);
	const int named = csim_basic_info_text(&run->basic, CSIM_BASIC_NAME).p != NULL;

	csim_out_text(o, "<p>");
	if (named) {
		csim_out_text(o, "dump <code>");
		put_path(o, in);
		csim_out_text(o, "</code>, ");
	}
	csim_out_format(o, "%llu bytes%s", (unsigned long long)in->size, in->gzip ? " (gzip)" : "");
	if (!named)
		csim_out_text(o, has ? ", no op name in its OP_BASIC_INFO" : ", no OP_BASIC_INFO: no op name");
	if (n > 1)
		csim_out_format(o, "; summary of the %llu runs of the file, side by side</p>",
				(unsigned long long)run->choice.runs);
	else
		csim_out_format(o, "; summary of run %llu of %llu</p>", (unsigned long long)run->run,
				(unsigned long long)run->choice.runs);
	write_cut(o, &runs[0]->cut);
}

/* Pages of a batch tell apart in a browser's tabs and history. */
void csim_summary_page_head(struct csim_out *o, const struct csim_model *const *runs, size_t n,
			    const struct csim_view_input *in)
{
	const struct csim_model *m = runs[0];
	const struct csim_span name = csim_basic_info_text(&m->run.basic, CSIM_BASIC_NAME);

	csim_out_text(o, page_head);
	csim_out_text(o, "<title>");
	if (name.p != NULL) {
		csim_out_html_escaped(o, name.p, name.n);
		csim_out_text(o, " \xE2\x80\x94 ");
	}
	put_path(o, in);
	csim_out_text(o, " \xE2\x80\x94 clean_sim_trace summary</title>\n");
	csim_summary_page_styles(o);
	csim_out_text(o, "</style>\n</head>\n<body>\n<header><h1>");
	if (name.p != NULL)
		csim_out_html_escaped(o, name.p, name.n);
	else
		put_path(o, in);
	csim_out_text(o, "</h1>");
	write_subtitle(o, runs, n, in);
	csim_out_text(o, "</header>\n<nav>");
	if (n > 1) {
		for (size_t i = 0; i < n; i++)
			csim_out_format(o, "<a href=\"#run-%llu\">run %llu</a>",
					(unsigned long long)runs[i]->run.run,
					(unsigned long long)runs[i]->run.run);
		csim_out_text(o, "<a href=\"#runs\">run to run</a></nav>\n");
		return;
	}
	csim_out_text(o, "<a href=\"#run\">run</a><a href=\"#diagnosis\">diagnosis</a>"
		      "<a href=\"#balance\">cores</a><a href=\"#timeline\">timeline</a>"
		      "<a href=\"#detail\">pipes</a>");
	csim_out_text(o, m->instr.loaded ? "<a href=\"#top\">top instructions</a>"
		      "<a href=\"#lines\">top source lines</a></nav>\n" : "</nav>\n");
}
