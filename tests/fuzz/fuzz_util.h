/*
 * fuzz_util.h: puts fuzz input where the converter reads it from.
 *
 * The converter reads files by path; an anonymous memory file
 * (memfd_create, reached as /proc/self/fd/N) gives it one without touching
 * the disk, so fuzzing runs at memory speed and leaves nothing behind.
 */
#ifndef CSIM_FUZZ_UTIL_H
#define CSIM_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

struct fuzz_file {
	int fd;
	char path[64];
};

/* Returns 0 and a readable path holding exactly data[0..n), or -1. */
static inline int fuzz_file_open(struct fuzz_file *f, const void *data, size_t n)
{
	const char *p = data;
	size_t done = 0;

	f->fd = memfd_create("csim-fuzz", MFD_CLOEXEC);
	if (f->fd < 0)
		return -1;
	while (done < n) {
		ssize_t w = write(f->fd, p + done, n - done);

		if (w <= 0) {
			close(f->fd);
			return -1;
		}
		done += (size_t)w;
	}
	snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
	return 0;
}

static inline void fuzz_file_close(struct fuzz_file *f)
{
	close(f->fd);
}

/* A 12-byte block header followed by the payload, padded like the producer. */
static inline size_t fuzz_block(unsigned char *out, unsigned type,
				const uint8_t *payload, size_t n)
{
	size_t pad = (4 - n % 4) % 4;
	uint64_t size = n + pad;

	for (int i = 0; i < 8; i++)
		out[i] = (unsigned char)(size >> (8 * i));
	out[8] = (unsigned char)type;
	out[9] = (unsigned char)pad;
	out[10] = type == 4 ? 0x00 : 0x5a;
	out[11] = 0x5a;
	for (size_t i = 0; i < n; i++)
		out[12 + i] = payload[i];
	for (size_t i = 0; i < pad; i++)
		out[12 + n + i] = 0;
	return 12 + n + pad;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
