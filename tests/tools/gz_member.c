/*
 * gz_member FILE.gz: inflates the FIRST gzip member of FILE to stdout and
 * fails if anything follows it. chrome://tracing decodes only the first
 * member (viewer-notes §2), so a trace whose bytes do not all sit in that
 * member would load truncated; zcat and gzip -t accept several members and
 * cannot tell. Exit 0: one complete member, nothing after it; 1 otherwise.
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#define CHUNK 65536

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "gz_member: %s: %s\n", path, why);
	return 1;
}

int main(int argc, char **argv)
{
	static unsigned char in[CHUNK], out[CHUNK];
	z_stream z;
	FILE *f;
	int zrc = Z_OK;
	size_t n = 0, trailing = 0;

	if (argc != 2)
		return fail("usage", "gz_member FILE.gz");
	f = fopen(argv[1], "rb");
	if (f == NULL)
		return fail(argv[1], "cannot open");
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK) {   /* gzip wrapper only */
		fclose(f);
		return fail(argv[1], "inflateInit2 failed");
	}
	while (zrc != Z_STREAM_END) {
		n = fread(in, 1, CHUNK, f);
		if (n == 0)
			break;
		z.next_in = in;
		z.avail_in = (uInt)n;
		do {
			z.next_out = out;
			z.avail_out = CHUNK;
			zrc = inflate(&z, Z_NO_FLUSH);
			if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR)
				break;
			fwrite(out, 1, CHUNK - z.avail_out, stdout);
		} while (zrc == Z_OK && (z.avail_in > 0 || z.avail_out == 0));
		if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR)
			break;
	}
	/* Bytes of this read after the member, then any further reads. */
	if (zrc == Z_STREAM_END) {
		trailing = z.avail_in;
		while ((n = fread(in, 1, CHUNK, f)) > 0)
			trailing += n;
	}
	inflateEnd(&z);
	fclose(f);
	if (zrc != Z_STREAM_END)
		return fail(argv[1], "not one complete gzip member");
	if (trailing > 0) {
		fprintf(stderr, "gz_member: %s: %zu byte(s) after the first member\n",
			argv[1], trailing);
		return 1;
	}
	return fflush(stdout) == 0 ? 0 : fail("stdout", "write failed");
}
