/*
 * run_cost: runs a command and prints what it cost, for the scaling tests
 * (tests/cli/t_scaling.sh), without depending on /usr/bin/time:
 *
 *   run_cost COST_FILE COMMAND [ARG...]
 *
 * writes "<cpu seconds, user + system> <peak RSS in KiB>" to COST_FILE and
 * exits with the command's status (128 + N if a signal ended it). CPU time,
 * not wall time: a growth check must not fail because CI is busy.
 */
#define _GNU_SOURCE   /* wait4 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status = 0;
	pid_t pid;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: run_cost COST_FILE COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("run_cost: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("run_cost: exec");
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("run_cost: wait4");
		return 2;
	}
	f = fopen(argv[1], "w");
	if (f == NULL) {
		perror(argv[1]);
		return 2;
	}
	fprintf(f, "%.3f %ld\n",
		(double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
		(double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6,
		ru.ru_maxrss);
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 2;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
