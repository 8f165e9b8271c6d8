/*
 * fuzzvictim - a deliberately broken program for tests/e2e/test_fuzz.sh: each
 * MODE misbehaves in one of the ways argvfuzz must catch, so that every
 * detector is seen to fire (and "good" to stay quiet).
 *
 *   fuzzvictim MODE [ignored ...]
 *
 *   good       behaves: -h is help (exit 0), anything else a usage error
 *              (one line "fuzzvictim: ...", exit 2)
 *   segv       dies of SIGSEGV              hang      sleeps for ever, silent
 *   exit3      exits 3 with a line          silent    exits 1, says nothing
 *   twolines   a usage error on two lines   noprefix  a line without our name
 *   asan       prints what AddressSanitizer prints, exits 1
 *   leftover   leaves a child in a session of its own, sleeping
 *   created    leaves a file in the working directory
 *   changed    replaces ./fifo with a regular file
 *   noterm     prints a line, then ignores SIGTERM and sleeps (a server)
 *   hup        prints a line and sleeps, SIGHUP back to its default
 *              whatever it inherited (no respect for nohup)
 *   badjson    prints a line that is not JSON, exits 0
 *   accept     exits 0 whatever it is given (a calibration reader that
 *              takes anything)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void forever(void)
{
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "good";
	FILE *f;

	if (!strcmp(mode, "good")) {
		if (argc > 2 && !strcmp(argv[2], "-h")) {
			puts("usage: fuzzvictim MODE [-ab] [-x value]");
			return 0;
		}
		fprintf(stderr, "fuzzvictim: %d arguments: refused\n", argc);
		return 2;
	}
	if (!strcmp(mode, "segv")) {
		signal(SIGSEGV, SIG_DFL);	/* no sanitizer's handler either */
		raise(SIGSEGV);
	} else if (!strcmp(mode, "hang")) {
		forever();
	} else if (!strcmp(mode, "exit3")) {
		fprintf(stderr, "fuzzvictim: exit 3\n");
		return 3;
	} else if (!strcmp(mode, "silent")) {
		return 1;
	} else if (!strcmp(mode, "twolines")) {
		fprintf(stderr, "fuzzvictim: bad value\nfuzzvictim: usage: ...\n");
		return 2;
	} else if (!strcmp(mode, "noprefix")) {
		fprintf(stderr, "bad value\n");
		return 2;
	} else if (!strcmp(mode, "asan")) {
		fprintf(stderr, "=================================================================\n"
			"==1==ERROR: AddressSanitizer: heap-buffer-overflow (pretend)\n");
		return 1;
	} else if (!strcmp(mode, "leftover")) {
		if (fork() == 0) {
			setsid();
			sleep(30);
			_exit(0);
		}
		return 0;
	} else if (!strcmp(mode, "created")) {
		f = fopen("stray", "w");
		return f && fclose(f) == 0 ? 0 : 1;
	} else if (!strcmp(mode, "changed")) {
		unlink("fifo");
		f = fopen("fifo", "w");
		return f && fclose(f) == 0 ? 0 : 1;
	} else if (!strcmp(mode, "noterm")) {
		signal(SIGTERM, SIG_IGN);
		puts("listening");
		fflush(stdout);
		forever();
	} else if (!strcmp(mode, "hup")) {
		signal(SIGHUP, SIG_DFL);
		puts("listening");
		fflush(stdout);
		forever();
	} else if (!strcmp(mode, "badjson")) {
		puts("{\"program\": \"fuzzvictim\", \"event\": \"x\", \"time\": 1,}");
		return 0;
	} else if (!strcmp(mode, "accept")) {
		return 0;
	}
	fprintf(stderr, "fuzzvictim: %s: no such mode\n", mode);
	return 2;
}
