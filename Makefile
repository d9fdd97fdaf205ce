# container-gateway: one non-recursive Makefile (style.md §18).
# Targets: all, check, check-clients, install (PREFIX, DESTDIR), clean.

PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
PKGS      = libseccomp libcap libcjson zlib liblzma nettle
# libbz2: Debian's libbz2-dev ships no bzip2.pc; use one where it exists
BZ2_CFLAGS := $(shell pkg-config --cflags bzip2 2>/dev/null)
BZ2_LIBS  := $(shell pkg-config --libs bzip2 2>/dev/null || echo -lbz2)
VERSION   = 0.1.0

# -Wno-format-truncation: every snprintf into a path buffer is bounded on
# purpose; over-long inputs are refused before (ROOT, run directory).
WARN      = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
            -Wmissing-prototypes -Wformat=2 -Wformat-security -Wno-format-nonliteral
# gcc only (clang has no such warning and refuses unknown ones)
ifneq ($(shell $(CC) --version 2>/dev/null | grep -c clang),1)
WARN     += -Wno-format-truncation
endif
HARDEN    = -fPIE -fstack-protector-strong -D_FORTIFY_SOURCE=2
CFLAGS   ?= -O2 -g
ALL_CFLAGS = -std=c17 -D_GNU_SOURCE -DCG_VERSION='"$(VERSION)"' $(WARN) $(HARDEN) \
             -I. $(shell pkg-config --cflags $(PKGS)) $(BZ2_CFLAGS) $(CFLAGS)
LDFLAGS  ?=
# Relative relocations packed (DT_RELR; binutils 2.38, glibc 2.36) where the
# toolchain has them: the PIE's 64 KB of .rela.dyn became 1 KB, pages every
# exec'd process of the gateway (monitor, zygote) read at start and kept
# mapped (idle PSS -60 KiB, bench/bench.py). Probed with a test link: a
# toolchain without them links as before (an older ld ignores the option).
RELR     := $(shell printf 'int main(void){return 0;}' | $(CC) -x c - -pie -fPIE \
            -Wl,-z,pack-relative-relocs -Wl,--fatal-warnings -o /dev/null \
            2>/dev/null && echo -Wl,-z,pack-relative-relocs)
ALL_LDFLAGS = -pie -Wl,-z,relro -Wl,-z,now $(RELR) $(LDFLAGS)
# Every library Debian ships a static archive of (libcjson has none) is
# linked from it: a shared library costs every process of an idle gateway
# its own relocated pages, five mappings each fork copies, and pages no
# other program on the machine shares; from an archive, only the code a
# process runs is resident. Measured: nettle alone -0.2 MiB idle PSS;
# seccomp, cap, z, lzma, bz2 as well: idle PSS and mappings in
# doc/performance.md ("Memory (PSS)"). A toolchain without an archive links
# the shared library as before.
STATIC_LIBS = seccomp cap z lzma bz2 nettle
lib_link  = $(if $(filter /%,$(shell $(CC) -print-file-name=lib$(1).a)),-l:lib$(1).a,-l$(1))
LIBS      = $(foreach l,$(STATIC_LIBS),$(call lib_link,$(l))) $(shell pkg-config --libs libcjson)
TEST_LIBS = $(shell pkg-config --libs cmocka)

# Library modules: every .c of these folders except the program entry point.
MODULES   = base ipc http policy seccomp check unpriv monitor monitor/exchange ops
LIB_SRCS  = $(filter-out monitor/main.c,$(foreach m,$(MODULES),$(wildcard $(m)/*.c)))
LIB_OBJS  = $(LIB_SRCS:.c=.o)
TEST_SRCS = $(wildcard tests/test_*.c)
TESTS     = $(TEST_SRCS:.c=)
HELPERS   = tests/helpers/check_file tests/helpers/try_syscall tests/helpers/try_monitor \
            tests/helpers/hostile_gateway tests/fuzz/seed_ipc tests/fuzz/seed_forward \
            tests/helpers/membounds tests/helpers/no_userns tests/helpers/tar_print

all: container-gateway

container-gateway: monitor/main.o libcg.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ monitor/main.o libcg.a $(LIBS)

libcg.a: $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $(LIB_OBJS)

%.o: %.c
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

tests/test_%: tests/test_%.o libcg.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< libcg.a $(LIBS) $(TEST_LIBS)

tests/helpers/%: tests/helpers/%.o libcg.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< libcg.a $(LIBS)

# the gateway with a puppet for a request parser (tests/hostile/run.py): its
# own main and library, the zygote's child_run() wrapped; never installed
tests/helpers/hostile_gateway: monitor/main.o tests/helpers/hostile_gateway.o libcg.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -Wl,--wrap=child_run -o $@ monitor/main.o \
	    tests/helpers/hostile_gateway.o libcg.a $(LIBS)

# make check: install what is missing, build, run every test (README).
check:
	./scripts/install-deps.sh --if-missing
	./scripts/install-libs.sh --if-missing
	$(MAKE) all $(TESTS) $(HELPERS) bench/loadgen bench/rawrelay
	./tests/run-all.sh

# make check-clients: the wider client matrix (tests/integration/clients.sh: the Go SDK,
# go-dockerclient as dockertest uses it, Ruby's docker-api, the Dev Containers CLI,
# podman-compose, testcontainers' Network, commit and compose), directly and through the
# gateway, on a private podman and on a private dockerd; .ci/run runs it after make check
# (its own target: make check stays under 20 minutes)
check-clients:
	./scripts/install-deps.sh --if-missing
	./scripts/install-libs.sh --if-missing
	$(MAKE) all
	./tests/integration/clients.sh
	CG_BACKEND=docker ./tests/integration/clients.sh

# every test program and helper, without running them (tests/sanitize/*.sh)
test-programs: $(TESTS) $(HELPERS)

# Sanitizers and valgrind (README "Sanitizers"): each builds its own copy of
# the tree under build/, never objects of this build.
check-asan:
	./scripts/install-deps.sh --if-missing
	./tests/sanitize/check-asan.sh

check-valgrind: all test-programs
	./scripts/install-deps.sh --if-missing
	./tests/sanitize/check-valgrind.sh

# doc/reliability.md from the measurements in doc/results/: make fuzz
# FUZZ_SECONDS=300, check-asan and check-valgrind record theirs; this target runs the
# load test (256 clients for 60 s) and the fault table against a private podman,
# records them, and writes the page (RELIABILITY_RUN=0: only the page). Needs root.
RELIABILITY_RUN ?= 1
reliability-report: all bench/loadgen test-programs
	@rc=0; if [ "$(RELIABILITY_RUN)" = 1 ]; then \
	  LOAD_RECORD=1 LOAD_FDS_ALL=1 ./tests/sanitize/load.sh || rc=1; \
	  FAULTS_RECORD=1 ./tests/sanitize/faults.sh || rc=1; \
	fi; ./tests/sanitize/reliability-report.sh && exit $$rc

# libFuzzer entry points (style.md §16; doc/reliability.md "Fuzzing"), built
# with clang and ASan/UBSan from the sources themselves. `make fuzz
# FUZZ_SECONDS=300` runs each one from a scratch copy of its seed corpus
# tests/fuzz/corpus/<target>/ (tests/fuzz/run.sh; tests/fuzz/make-seeds.py
# regenerates the seeds from ../shared).
FUZZ_SECONDS ?= 10
# FUZZ_RECORD=0: do not record doc/results/fuzz-*.env (make check's short run)
FUZZ_RECORD ?= 1
# where each target's scratch corpus and findings go (<dir>/<target>/)
FUZZ_WORK ?= build/fuzz
FUZZ_CFLAGS = -std=c17 -D_GNU_SOURCE -DCG_VERSION='"$(VERSION)"' -g -O1 -I. $(filter-out -Wno-format-truncation,$(WARN)) $(shell pkg-config --cflags libcjson) \
              -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_BASE = base/gwerror.c base/xmalloc.c base/util.c
# the HTTP parsers: shared syntax, request head, response head, chunked
FUZZ_HTTP = $(wildcard http/*.c)
FUZZ_http = $(FUZZ_HTTP) $(FUZZ_BASE)
FUZZ_json = policy/json_parse.c policy/json.c $(FUZZ_BASE)
# the message codec: the catalogue, the encoder/decoder, the audit formatter
FUZZ_CODEC = ipc/proto.c ipc/codec.c ipc/format.c
FUZZ_ipc  = $(FUZZ_CODEC) ipc/buf.c ipc/msg.c $(FUZZ_BASE)
FUZZ_policy = $(wildcard policy/*.c) $(FUZZ_HTTP) $(FUZZ_BASE)
FUZZ_routes = $(FUZZ_policy)
FUZZ_query  = $(FUZZ_policy)
FUZZ_build  = $(FUZZ_policy)
# the checker's readers: tar, decoders, context rules, Dockerfiles, image archives'
# documents (check/load.c takes the create body's annotation rule from policy/)
FUZZ_check  = $(wildcard check/*.c) $(FUZZ_policy)
# the monitor's FORWARD path: decode, verify, head, replay (privsep.md §1)
# fuzz_forward links the whole monitor but its entry point (a hand-kept list broke
# each time a new monitor file joined the phase)
FUZZ_forward = $(FUZZ_policy) $(FUZZ_CODEC) $(wildcard check/*.c) ipc/buf.c ipc/queue.c \
              base/fifo.c base/rpipe.c ipc/msg.c $(wildcard unpriv/*.c) $(wildcard seccomp/*.c) \
              $(filter-out monitor/main.c,$(wildcard monitor/*.c)) $(wildcard monitor/exchange/*.c) \
              $(wildcard ops/*.c)
FUZZERS   = $(addprefix tests/fuzz/fuzz_,http json ipc routes query build forward check)

.SECONDEXPANSION:
tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $$(FUZZ_$$*) tests/fuzz/fuzz_input.h tests/fuzz/fuzz_monitor.h
	clang $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_$*) $(shell pkg-config --libs libcjson zlib liblzma nettle libseccomp libcap) $(BZ2_LIBS)

fuzzers: $(FUZZERS)

fuzz: $(FUZZERS)
	FUZZ_RECORD=$(FUZZ_RECORD) FUZZ_WORK=$(FUZZ_WORK) ./tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZERS)

# the seed makers of tests/fuzz/make-seeds.py (real encoder, real HTTP parser; the
# FORWARDs of an honest child, kept when the monitor accepts them); helpers, so make
# check builds them and a protocol change cannot leave them behind
tests/fuzz/seed_%: tests/fuzz/seed_%.o libcg.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< libcg.a $(LIBS)

# make bench: the gateway side by side with direct podman, a bare relay and HAProxy;
# writes doc/performance.md. BENCH_ARGS=--quick for a short run, --gateways 1000 for
# the thousand idle gateways. Needs root; installs haproxy when missing.
bench/loadgen: bench/loadgen.o libcg.a
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< libcg.a $(LIBS)

bench/rawrelay: bench/rawrelay.o
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<

bench: container-gateway bench/loadgen bench/rawrelay
	./scripts/install-deps.sh --if-missing --bench
	python3 bench/bench.py $(BENCH_ARGS)

unit: $(TESTS)
	@set -e; for t in $(TESTS); do echo "== $$t"; ./$$t; done

install: container-gateway
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 0755 container-gateway $(DESTDIR)$(PREFIX)/bin/container-gateway
	install -m 0644 doc/container-gateway.8 $(DESTDIR)$(PREFIX)/share/man/man8/container-gateway.8
	install -m 0755 contrib/hooks/container-gateway-hook $(DESTDIR)$(PREFIX)/bin/container-gateway-hook

clean:
	rm -rf $(FUZZERS) tests/fuzz/*.corpus build
	rm -f container-gateway libcg.a bench/loadgen bench/rawrelay bench/*.o bench/*.d $(TESTS) $(HELPERS) $(foreach m,$(MODULES) tests tests/helpers tests/fuzz,$(m)/*.o $(m)/*.d)

.PHONY: all check check-clients test-programs check-asan check-valgrind reliability-report unit fuzzers fuzz bench install clean
.SECONDARY:

-include $(wildcard $(foreach m,$(MODULES) tests tests/helpers tests/fuzz bench,$(m)/*.d))
