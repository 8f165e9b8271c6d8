# zc: measure what a byte on the wire costs the CPU.
#
#   make            build zcc, zcs, cyclesoak and run_rr here
#   make check      every test, plain and under ASan+UBSan; ends "N passed, N failed"
#   make check LOAD=1  the same beside a busy load of about one CPU
#                   (tests/tools/loadgen, killed by PID when the run ends)
#   make check-threads  zcc and zcs built with ThreadSanitizer, the -P stream
#                   tests run against them; any report fails it (CI runs it)
#   make demo       a short real measurement over loopback: every method against
#                   sendfile, in rounds, with verdicts and a chart (zc-demo.svg)
#   make bench      the full benchmark (PART=name runs one part)
#   make lint       cppcheck and clang-tidy; a clang -Werror build (where clang
#                   is installed); groff and mandoc on the manual pages
#   make install    PREFIX (default /usr/local) and DESTDIR honoured: the
#                   programs, their manual pages (man/), the bash completion
#                   (completion/zc.bash) and README.zc; RUN_RR_SETUID=1
#                   installs run_rr setuid-root (mode 4755, owner root)
#   make uninstall  removes exactly what install put there

# gcc unless the caller names a compiler: "CC ?= gcc" would not do, as
# make's own default (cc) already counts as set.
ifeq ($(origin CC),default)
CC      = gcc
endif
CFLAGS  ?= -O2 -g
# Always on, whatever CFLAGS the caller passes. -MMD -MP: each compile
# writes the headers it read to a .d file beside its object, included
# below, so a touched header rebuilds exactly what includes it.
ZC_CFLAGS = -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -pthread -Ilib -MMD -MP
ZC_LDLIBS = -pthread -lm
LDLIBS  ?=
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DOCDIR  ?= $(PREFIX)/share/doc/zc
MANDIR  ?= $(PREFIX)/share/man
# bash-completion loads a command's completion from a file of its name:
# zcc holds all four, the others are links to it.
COMPDIR ?= $(PREFIX)/share/bash-completion/completions

# O: where objects and test binaries go; BIN: where the programs go. A
# read-only source tree builds with both outside it (O=/tmp/b BIN=/tmp/b/bin).
O   ?= build
BIN ?= .
# 1: make install makes run_rr setuid-root (README.zc, For packagers).
RUN_RR_SETUID ?= 0

# A goal that builds needs O and BIN writable: a read-only tree built in
# place stops here, in one line, before anything is compiled.
NO_BUILD_GOALS = clean lint uninstall check-threads
ifneq ($(if $(MAKECMDGOALS),$(filter-out $(NO_BUILD_GOALS),$(MAKECMDGOALS)),all),)
ifneq ($(shell mkdir -p $(O) $(BIN) 2>/dev/null && [ -w $(O) ] && [ -w $(BIN) ] && echo ok),ok)
$(error cannot write O=$(O) or BIN=$(BIN) (a read-only tree?): build out of tree with make O=DIR BIN=DIR)
endif
endif

PROGS    = zcc zcs cyclesoak run_rr
LIB_SRC  = $(wildcard lib/*/*.c)
# A source at the top of lib/ would not be built: lib/ is folders only.
ifneq ($(wildcard lib/*.c lib/*.h),)
$(error $(wildcard lib/*.c lib/*.h): put it in a folder of lib/ (base, meter, wire...))
endif
LIB_OBJ  = $(LIB_SRC:%.c=$(O)/obj/%.o)
# Unit tests and the helper programs the scripts drive; their binaries all
# go to $(O)/tests, where tests/run.sh and the scripts look for them.
UNIT_SRC = $(wildcard tests/unit/*.c)
TOOL_SRC = $(filter-out tests/tools/shim_%.c,$(wildcard tests/tools/*.c))
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(O)/tests/%)
TOOL_BIN = $(TOOL_SRC:tests/tools/%.c=$(O)/tests/%)
TEST_SRC = $(UNIT_SRC) $(TOOL_SRC)
TEST_BIN = $(UNIT_BIN) $(TOOL_BIN)
# LD_PRELOAD shims that make a system call fail, so the programs' refusal
# paths run on every machine: tests/tools/shim_NAME.c -> $(O)/tests/shim_NAME.so
SHIM_SRC = $(wildcard tests/tools/shim_*.c)
SHIM_SO  = $(SHIM_SRC:tests/tools/%.c=$(O)/tests/%.so)
OBJS     = $(LIB_OBJ) $(PROGS:%=$(O)/obj/%.o) $(TEST_SRC:%.c=$(O)/obj/%.o)

.PHONY: FORCE all check check-plain check-san check-threads tests demo bench lint install uninstall clean

# "make clean all" (clean beside other goals): clean first, then the other
# goals in a second make, so that -j never builds into a tree being removed.
SERIAL = $(if $(filter clean,$(MAKECMDGOALS)),$(filter-out clean,$(MAKECMDGOALS)))
ifneq ($(SERIAL),)
clean:
	@$(MAKE) --no-print-directory clean
$(SERIAL): clean
	@$(MAKE) --no-print-directory $@
.NOTPARALLEL:
else

# With BIN=. the programs are plain names: make drops a leading "./".
PROG_OUT = $(if $(filter .,$(BIN)),$(PROGS),$(PROGS:%=$(BIN)/%))

all: $(PROG_OUT)

# $(O)/flags: the compiler and flags $(O)'s files are built with, rewritten
# only when they change; everything built depends on it, so a new CC,
# CFLAGS, CPPFLAGS or LDFLAGS rebuilds all, and the same ones nothing.
FLAGS_NOW = $(CC) | $(CPPFLAGS) | $(CFLAGS) | $(LDFLAGS) | $(LDLIBS)
$(O)/flags: FORCE
	@printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' | cmp -s - $@ || \
		printf '%s\n' '$(subst ','\'',$(FLAGS_NOW))' >$@

FORCE:

# Every object, from lib/, the programs or tests/, is built the same way,
# into $(O)/obj/ beside its source's path (test binaries stay alone in
# $(O)/tests, where the runner looks for them).
$(O)/obj/%.o: %.c $(O)/flags
	@mkdir -p $(@D)
	$(CC) $(ZC_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# Tests name their own headers by folder too ("unit/t.h", "tools/rng.h").
$(O)/obj/tests/%.o: ZC_CFLAGS += -Itests

$(O)/libzc.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

LINK = $(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libzc.a $(LDLIBS) $(ZC_LDLIBS)

$(PROG_OUT): $(if $(filter .,$(BIN)),,$(BIN)/)%: $(O)/obj/%.o $(O)/libzc.a $(O)/flags
	@mkdir -p $(@D)
	$(LINK)

$(UNIT_BIN): $(O)/tests/%: $(O)/obj/tests/unit/%.o $(O)/libzc.a $(O)/flags
	@mkdir -p $(@D)
	$(LINK)

$(TOOL_BIN): $(O)/tests/%: $(O)/obj/tests/tools/%.o $(O)/libzc.a $(O)/flags
	@mkdir -p $(@D)
	$(LINK)

# Shims are built without the sanitizers: they are preloaded into programs
# that may not carry ASan's runtime first. So the caller's CFLAGS are
# passed, less any -fsanitize=.
SHIM_CFLAGS = $(filter-out -fsanitize=% -fno-sanitize%,$(CFLAGS))
$(O)/tests/shim_%.so: tests/tools/shim_%.c $(O)/flags
	@mkdir -p $(O)/obj/tests/tools $(@D)
	$(CC) $(ZC_CFLAGS) -MF $(O)/obj/tests/tools/shim_$*.d $(CPPFLAGS) $(SHIM_CFLAGS) -fPIC -shared -o $@ $< -ldl

-include $(OBJS:.o=.d) $(SHIM_SRC:%.c=$(O)/obj/%.d)

tests: all $(TEST_BIN) $(SHIM_SO)

# Two passes over the same tests: the plain build, then one built with
# gcc's AddressSanitizer and UndefinedBehaviorSanitizer. One tally at the end.
SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined

# Both builds use every CPU, as with make -jN. tests/run.sh then runs two
# tests at a time (ZC_JOBS=N for another count).
NPROC := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)

check:
	@$(MAKE) -s -j$(NPROC) tests
	@$(MAKE) -s -j$(NPROC) O=build/san BIN=build/san/bin CFLAGS="$(SAN_FLAGS)" LDFLAGS="$(SAN_FLAGS)" build/san/bin tests
	@ZC_LOAD=$(LOAD) sh tests/run.sh "plain:.:$(O)/tests" "san:build/san/bin:build/san/tests"

build/san/bin:
	mkdir -p $@

# The threads (zcc -P's streams, zcs's totals) under gcc's ThreadSanitizer:
# tests/threads.sh says how.
check-threads:
	@CC="$(CC)" MAKE="$(MAKE)" NPROC=$(NPROC) sh tests/threads.sh

# The helper programs the demo's and the bench's scripts run ($$ZC_TESTBIN/NAME):
# each target builds what its scripts need and nothing more, so both work
# on a fresh clone (tests/e2e/test_targets.sh checks these lists against
# the scripts).
DEMO_TOOLS  = jsoncheck methodcheck
BENCH_TOOLS = jsoncheck loadgen methodcheck subreaper svgplot syscost zcstat zctable

demo: all $(DEMO_TOOLS:%=$(O)/tests/%)
	@sh tests/demo.sh

bench: all $(BENCH_TOOLS:%=$(O)/tests/%)
	@sh tests/bench/run.sh $(PART)

lint:
	@sh tests/lint.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR)
	install -m 755 $(PROG_OUT) $(DESTDIR)$(BINDIR)
	$(if $(filter 1,$(RUN_RR_SETUID)),install -m 4755 -o root -g root $(filter %run_rr,$(PROG_OUT)) $(DESTDIR)$(BINDIR))
	install -m 644 README.zc $(DESTDIR)$(DOCDIR)
	install -m 644 $(PROGS:%=man/%.1) $(DESTDIR)$(MANDIR)/man1
	install -m 644 completion/zc.bash $(DESTDIR)$(COMPDIR)/zcc
	for p in $(filter-out zcc,$(PROGS)); do ln -sf zcc $(DESTDIR)$(COMPDIR)/$$p || exit 1; done

# The doc directory goes too if nothing else is in it; BINDIR, the manual's
# and the completions' directories are shared.
uninstall:
	rm -f $(PROGS:%=$(DESTDIR)$(BINDIR)/%) $(DESTDIR)$(DOCDIR)/README.zc
	rm -f $(PROGS:%=$(DESTDIR)$(MANDIR)/man1/%.1) $(PROGS:%=$(DESTDIR)$(COMPDIR)/%)
	rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null || :

clean:
	rm -rf build $(PROGS)

endif
