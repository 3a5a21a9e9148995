/*
 * bench_floor: the least any converter of a dump must do, timed on its own
 * (SPEC §9's "within 2x of cp"): read every byte of FILE from
 * the page cache into one reused 4 MiB buffer and find every '{', which is
 * one per event and per args object. No parsing, no table, no output.
 *
 *   bench_floor FILE
 *
 * Prints "SECONDS BYTES BRACES" on stdout. The benchmark times it next to
 * `cp` and the converter, so the three figures come from the same minute
 * of this machine (whose speed moves; docs/performance.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define FLOOR_BUF (4u << 20)

static double floor_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static size_t floor_count(const char *p, const char *end)
{
	size_t n = 0;

	while ((p = memchr(p, '{', (size_t)(end - p))) != NULL) {
		n++;
		p++;
	}
	return n;
}

int main(int argc, char **argv)
{
	char *buf;
	int fd;
	ssize_t got;
	size_t bytes = 0, braces = 0;
	double t0;

	if (argc != 2) {
		fprintf(stderr, "usage: bench_floor FILE\n");
		return 2;
	}
	buf = malloc(FLOOR_BUF);
	fd = open(argv[1], O_RDONLY);
	if (buf == NULL || fd < 0) {
		fprintf(stderr, "bench_floor: %s: %s\n", argv[1], strerror(errno));
		free(buf);
		return 1;
	}
	t0 = floor_now();
	while ((got = read(fd, buf, FLOOR_BUF)) > 0) {
		bytes += (size_t)got;
		braces += floor_count(buf, buf + got);
	}
	if (got < 0) {
		fprintf(stderr, "bench_floor: %s: %s\n", argv[1], strerror(errno));
		close(fd);
		free(buf);
		return 1;
	}
	printf("%.3f %zu %zu\n", floor_now() - t0, bytes, braces);
	close(fd);
	free(buf);
	return 0;
}
