# zc: measure what a byte on the wire costs the CPU.
#
#   make            build zcc, zcs, cyclesoak and run_rr here
#   make check      every test, plain and under ASan+UBSan; ends "N passed, N failed"
#   make demo       a short real measurement over loopback
#   make bench      the full benchmark (PART=name runs one part)
#   make lint       cppcheck and clang-tidy; groff and mandoc on the manual pages
#   make install    PREFIX (default /usr/local) and DESTDIR honoured: the
#                   programs, their manual pages (man/), the bash completion
#                   (completion/zc.bash) and README.zc
#   make uninstall  removes exactly what install put there

CC      ?= gcc
CFLAGS  ?= -O2 -g
# Always on, whatever CFLAGS the caller passes.
ZC_CFLAGS = -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Ilib
LDLIBS  ?=
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DOCDIR  ?= $(PREFIX)/share/doc/zc
MANDIR  ?= $(PREFIX)/share/man
# bash-completion loads a command's completion from a file of its name:
# zcc holds all four, the others are links to it.
COMPDIR ?= $(PREFIX)/share/bash-completion/completions

# O: where objects and test binaries go; BIN: where the programs go.
O   ?= build
BIN ?= .

PROGS    = zcc zcs cyclesoak run_rr
LIB_SRC  = $(wildcard lib/*.c)
LIB_OBJ  = $(LIB_SRC:lib/%.c=$(O)/lib/%.o)
TEST_SRC = $(filter-out tests/shim_%.c,$(wildcard tests/*.c))
TEST_BIN = $(TEST_SRC:tests/%.c=$(O)/tests/%)
# LD_PRELOAD shims that make a system call fail, so the programs' refusal
# paths run on every machine: tests/shim_NAME.c -> $(O)/tests/shim_NAME.so
SHIM_SRC = $(wildcard tests/shim_*.c)
SHIM_SO  = $(SHIM_SRC:tests/%.c=$(O)/tests/%.so)

.PHONY: all check check-plain check-san tests demo bench lint install uninstall clean

# With BIN=. the programs are plain names: make drops a leading "./".
PROG_OUT = $(if $(filter .,$(BIN)),$(PROGS),$(PROGS:%=$(BIN)/%))

all: $(PROG_OUT)

$(O)/lib/%.o: lib/%.c $(wildcard lib/*.h) | $(O)/lib
	$(CC) $(ZC_CFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/libzc.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(PROG_OUT): $(if $(filter .,$(BIN)),,$(BIN)/)%: %.c $(O)/libzc.a $(wildcard lib/*.h)
	$(CC) $(ZC_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libzc.a $(LDLIBS)

$(O)/tests/%: tests/%.c $(O)/libzc.a $(wildcard lib/*.h tests/*.h) | $(O)/tests
	$(CC) $(ZC_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/libzc.a $(LDLIBS) -lpthread -lm

# Shims are built without the sanitizers: they are preloaded into programs
# that may not carry ASan's runtime first.
$(O)/tests/shim_%.so: tests/shim_%.c | $(O)/tests
	$(CC) $(ZC_CFLAGS) -O2 -g -fPIC -shared -o $@ $< -ldl

$(O)/lib $(O)/tests:
	mkdir -p $@

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
	@sh tests/run.sh "plain:.:$(O)/tests" "san:build/san/bin:build/san/tests"

build/san/bin:
	mkdir -p $@

# The helper programs the demo's and the bench's scripts run ($$ZC_TESTBIN/NAME):
# each target builds what its scripts need and nothing more, so both work
# on a fresh clone (tests/test_targets.sh checks these lists against the
# scripts).
DEMO_TOOLS  = jsoncheck
BENCH_TOOLS = jsoncheck loadgen subreaper svgplot zcstat

demo: all $(DEMO_TOOLS:%=$(O)/tests/%)
	@sh tests/demo.sh

bench: all $(BENCH_TOOLS:%=$(O)/tests/%)
	@sh tests/bench/run.sh $(PART)

lint:
	@sh tests/lint.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR)
	install -m 755 $(PROG_OUT) $(DESTDIR)$(BINDIR)
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
