/*
 * pty_run: runs a command with its stderr on a pseudo-terminal and keeps
 * every byte the command wrote there (t_progress.sh).
 *
 *   pty_run [-o] [-e FILE] [-p AFTER_MS:FOR_MS] OUT -- CMD [ARG...]
 *
 * -o    stdout on the pseudo-terminal too (else /dev/null)
 * -e    stderr to FILE instead, stdout on the pseudo-terminal (a terminal
 *       the command may write to, but not on its stderr)
 * -p    stops the command (SIGSTOP) AFTER_MS after its start for FOR_MS:
 *       its clock keeps running, so a fast run is made to last past a
 *       given age without a bigger input
 *
 * The terminal's output processing is off (no "\n" -> "\r\n"), so OUT holds
 * exactly what the command wrote. On stdout: "elapsed_ms N", "paused 1"
 * (or 0: the command ended before the pause was over), "redraws N"
 * ("\r" followed by text, not the text after an erase's "\r", blanks,
 * "\r") and
 * "max_redraws_1s N" (the most redraws read within any one second). The
 * exit status is the command's, or 128+N when a signal N ended it.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define MAX_DRAWS 100000

struct capture {
	FILE *out;
	long draw_ms[MAX_DRAWS];  /* when each redraw was read */
	size_t ndraws;
	enum { TEXT, CR, CR_BLANKS, ERASED } state;   /* where in a "\r ... \r" */
};

static long now_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)(t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void usage(void)
{
	fputs("usage: pty_run [-o] [-e FILE] [-p AFTER_MS:FOR_MS] OUT -- CMD [ARG...]\n",
	      stderr);
	exit(2);
}

/*
 * Keeps n bytes and notes each redraw's time. A redraw is "\r" then text;
 * an erase is "\r", blanks, "\r", and the text after it is a message.
 */
static void take(struct capture *c, const char *buf, size_t n, long ms)
{
	fwrite(buf, 1, n, c->out);
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\r') {
			c->state = c->state == CR_BLANKS ? ERASED : CR;
		} else if (buf[i] == ' ' && (c->state == CR || c->state == CR_BLANKS)) {
			c->state = CR_BLANKS;
		} else {
			if (c->state == CR && c->ndraws < MAX_DRAWS)
				c->draw_ms[c->ndraws++] = ms;
			c->state = TEXT;
		}
	}
}

/* Reads what is there; returns 0 at end (EIO: no slave open any more). */
static int drain(int master, struct capture *c, long ms)
{
	char buf[4096];

	for (;;) {
		ssize_t n = read(master, buf, sizeof(buf));

		if (n > 0) {
			take(c, buf, (size_t)n, ms);
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		return n < 0 && errno == EAGAIN;
	}
}

static size_t max_in_one_second(const struct capture *c)
{
	size_t best = 0, lo = 0;

	for (size_t hi = 0; hi < c->ndraws; hi++) {
		while (c->draw_ms[hi] - c->draw_ms[lo] >= 1000)
			lo++;
		if (hi - lo + 1 > best)
			best = hi - lo + 1;
	}
	return best;
}

static int open_pty(int *master, int *slave)
{
	struct termios tio;
	char *name;

	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0 || grantpt(*master) != 0 || unlockpt(*master) != 0)
		return -1;
	name = ptsname(*master);
	if (name == NULL)
		return -1;
	/* Held open by this process too: reading the master before the child
	   opened its side would otherwise end at once. */
	*slave = open(name, O_RDWR | O_NOCTTY);
	if (*slave < 0 || tcgetattr(*slave, &tio) != 0)
		return -1;
	tio.c_oflag &= ~(tcflag_t)OPOST;
	return tcsetattr(*slave, TCSANOW, &tio);
}

static void child(int master, int slave, int stdout_pty, const char *err_file,
		  char **argv)
{
	int devnull = open("/dev/null", O_WRONLY);
	int err_fd = err_file != NULL
		     ? open(err_file, O_WRONLY | O_CREAT | O_TRUNC, 0644) : slave;

	close(master);
	if (devnull < 0 || err_fd < 0 ||
	    dup2(stdout_pty || err_file != NULL ? slave : devnull, STDOUT_FILENO) < 0 ||
	    dup2(err_fd, STDERR_FILENO) < 0) {
		perror("pty_run: child setup");
		_exit(127);
	}
	execvp(argv[0], argv);
	perror("pty_run: exec");
	_exit(127);
}

int main(int argc, char **argv)
{
	static struct capture cap;
	const char *err_file = NULL;
	long pause_after = -1, pause_for = 0, ms;
	int stdout_pty = 0, master, slave, status = 0, opt, stopped = 0, done = 0;
	struct timespec t0;
	pid_t pid;

	while ((opt = getopt(argc, argv, "+oe:p:")) != -1) {
		if (opt == 'o')
			stdout_pty = 1;
		else if (opt == 'e')
			err_file = optarg;
		else if (opt == 'p' && sscanf(optarg, "%ld:%ld", &pause_after, &pause_for) == 2)
			continue;
		else
			usage();
	}
	/* "+": options end at OUT, which "--" and the command follow. */
	if (argc - optind < 3 || strcmp(argv[optind + 1], "--") != 0)
		usage();
	cap.out = fopen(argv[optind], "wb");
	if (cap.out == NULL || open_pty(&master, &slave) != 0) {
		perror("pty_run");
		return 2;
	}
	fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid < 0) {
		perror("pty_run: fork");
		return 2;
	}
	if (pid == 0)
		child(master, slave, stdout_pty, err_file, argv + optind + 2);
	while (!done) {
		struct pollfd pfd = { master, POLLIN, 0 };

		(void)poll(&pfd, 1, 10);
		ms = now_ms(&t0);
		drain(master, &cap, ms);
		if (pause_after >= 0 && stopped == 0 && ms >= pause_after) {
			kill(pid, SIGSTOP);
			stopped = 1;
		} else if (stopped == 1 && ms >= pause_after + pause_for) {
			kill(pid, SIGCONT);
			stopped = 2;
		}
		done = waitpid(pid, &status, WNOHANG) == pid;
	}
	ms = now_ms(&t0);
	close(slave);
	while (drain(master, &cap, ms))
		;
	if (fclose(cap.out) != 0) {
		perror("pty_run: OUT");
		return 2;
	}
	printf("elapsed_ms %ld\npaused %d\nredraws %zu\nmax_redraws_1s %zu\n", ms,
	       stopped == 2, cap.ndraws, max_in_one_second(&cap));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
