#!/bin/sh
# make check-threads: the threads (zcc -P's streams, zcs's totals) under
# gcc's ThreadSanitizer. zcc, zcs and jsoncheck are built with
# -fsanitize=thread into build/tsan, and the -P stream tests (test_streams)
# run against them. A report goes to a file in build/tsan/reports, whatever
# the test made of the program's exit; any file there fails it, printed.
# A compiler that cannot build or run with ThreadSanitizer is a skip.
#
#   CC=gcc MAKE=make NPROC=2 sh tests/threads.sh   (from anywhere)
cd "$(dirname "$0")/.." || exit 1
cc=${CC:-cc}
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=thread"
log=build/tsan/reports

mkdir -p build/tsan/bin || exit 1
if ! echo 'int main(void) { return 0; }' | $cc -fsanitize=thread -x c -o build/tsan/probe - 2>/dev/null ||
	! build/tsan/probe; then
	echo "skip - check-threads: $cc cannot build or run with -fsanitize=thread here"
	exit 0
fi
${MAKE:-make} -s -j"${NPROC:-1}" O=build/tsan BIN=build/tsan/bin CFLAGS="$flags" LDFLAGS="$flags" \
	build/tsan/bin/zcc build/tsan/bin/zcs build/tsan/tests/jsoncheck || exit 1
rm -rf "$log" && mkdir -p "$log" || exit 1
TSAN_OPTIONS="log_path=$PWD/$log/report $TSAN_OPTIONS" ZC_TESTS=test_streams \
	sh tests/run.sh "tsan:build/tsan/bin:build/tsan/tests"
rc=$?
if ls "$log"/report* >/dev/null 2>&1; then
	cat "$log"/report*
	echo "check-threads: ThreadSanitizer reported the above"
	exit 1
fi
exit $rc
