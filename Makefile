# Makefile -- builds the same libblasx.a as Bazel (BUILD.bazel) and runs the
# same tests, for machines without Bazel (the GPU machines).
#
#   make                 build/libblasx.a and build/libblasx.so
#   make test            all unit tests (default and tiny-tile builds) and
#                        the Netlib level-3 testers against both .so builds
#   make demo            a tiled DGEMM with its check and its time
#   make CONFIG='-DBLASX_CFG_TILE_D=2048'    compile-time config (-D flags)
#   make USER_CONFIG=path/to/my_config.h      or a user config header
#
# The "tiny" variant (build/tiny/) compiles the same sources with a tile of 3
# and no offload threshold or parallel CPU path, so that every call goes
# through tiling when a GPU (real or simulated) is up, and with
# the CUDA fault-injection hook (a test build: internal/device/device.h).

CC       ?= gcc
# CPU_TARGET: the instruction set of the CPU code.
#   portable (default)  an archive that runs on any x86-64: every object for
#                       the baseline (-march=x86-64), except the CPU kernels,
#                       compiled once per instruction set blasx has kernels
#                       for (generic, avx2 = x86-64-v3, avx512 = x86-64-v4)
#                       and chosen at run time by CPUID; BLASX_CPU_ISA
#                       forces one (the block "portable CPU build" below).
#   native              -march=native: this machine's, chosen at compile time
#                       (the archive may not run on an older CPU).
#   any -march value    e.g. CPU_TARGET=x86-64-v3 or skylake-avx512: that
#                       target, chosen at compile time.
# ARCH (the -march flags) follows from it; setting ARCH yourself overrides.
CPU_TARGET ?= portable
ifeq ($(CPU_TARGET),portable)
ARCH     ?= -march=x86-64 -mtune=generic
else
ARCH     ?= -march=$(CPU_TARGET)
endif
OPT      ?= -O3
CONFIG   ?=
USER_CONFIG ?=
BUILD    ?= build
TINY_CONFIG = -DBLASX_CFG_TILE=3 -DBLASX_CFG_TRSM_INV_MIN=1 -DBLASX_CFG_LAPACK_MIXED_NB=2 -DBLASX_CFG_LAPACK_MIXED_GPU_NB=40 -DBLASX_CFG_LAPACK_OOC_MIN_W=2 -DBLASX_CFG_LAPACK_TEAM_MIN_N=2 -DBLASX_CFG_OFFLOAD_MIN_FLOPS=0 -DBLASX_CFG_SMALL_MODE=0 -DBLASX_CFG_CPU_PAR_MIN_FLOPS=1000000000000000000LL -DBLASX_FAULT_INJECTION

HAVE_NUMA := $(shell test -f /usr/include/numa.h && echo 1)
NUMA_DEF  := $(if $(HAVE_NUMA),-DBLASX_HAVE_NUMA,)
NUMA_LIB  := $(if $(HAVE_NUMA),-lnuma,)

# CUDA=auto (default): on when the toolkit is found at CUDA_HOME (default
# /usr/local/cuda), also on a machine without a GPU (the library then uses
# the CPU, or simulated devices: BLASX_SIM_GPUS); CUDA=1 requires it,
# CUDA=0 builds without it.  CUDA_LINK: how a program links cuBLAS and the
# CUDA runtime -- `shared` (default: libcublas.so, libcudart.so, found
# through an rpath) or `static` (libcublas_static.a, libcublasLt_static.a,
# libcudart_static.a: one file to copy to compute nodes, which need only
# the driver; cuSOLVER is loaded at run time either way).  The build says
# what it chose, and writes the link flags a program needs after
# libblasx.a to $(BUILD)/libblasx.link (`make print-link`).
CUDA_HOME ?= /usr/local/cuda
CUDA      ?= auto
CUDA_LINK ?= shared
CUDA_FOUND := $(shell test -f $(CUDA_HOME)/include/cuda_runtime.h && echo 1 || echo 0)
CUDA_ON   := $(if $(filter auto,$(CUDA)),$(CUDA_FOUND),$(filter 1,$(CUDA)))
ifeq ($(filter 0 1 auto,$(CUDA)),)
$(error CUDA=$(CUDA): expected auto, 1 or 0)
endif
ifeq ($(CUDA)$(CUDA_FOUND),10)
$(error CUDA=1 but no CUDA toolkit at CUDA_HOME=$(CUDA_HOME) (no include/cuda_runtime.h); set CUDA_HOME, or CUDA=0)
endif
ifeq ($(filter shared static,$(CUDA_LINK)),)
$(error CUDA_LINK=$(CUDA_LINK): expected shared or static)
endif
CUDA_DEF  := $(if $(filter 1,$(CUDA_ON)),-DBLASX_HAVE_CUDA -I$(CUDA_HOME)/include,)
comma     := ,
CUDA_LIB_shared := -L$(CUDA_HOME)/lib64 -Wl$(comma)-rpath$(comma)$(CUDA_HOME)/lib64 -lcublas -lcudart
CUDA_LIB_static := -L$(CUDA_HOME)/lib64 -lcublas_static -lcublasLt_static -lculibos -lcudart_static -lrt -lstdc++
CUDA_LIB  := $(if $(filter 1,$(CUDA_ON)),$(CUDA_LIB_$(CUDA_LINK)),)
ifeq ($(CUDA_ON)$(CUDA_LINK),1static)
ifeq ($(wildcard $(CUDA_HOME)/lib64/libcublas_static.a),)
$(error CUDA_LINK=static but this toolkit has no $(CUDA_HOME)/lib64/libcublas_static.a)
endif
endif

USER_DEF := $(if $(USER_CONFIG),-DBLASX_USER_CONFIG='"$(abspath $(USER_CONFIG))"',)
CFLAGS_COMMON = -std=c11 $(OPT) -fcx-fortran-rules $(ARCH) -Wall -Wextra -D_GNU_SOURCE -I. $(NUMA_DEF) $(CUDA_DEF) $(USER_DEF) $(CONFIG)
LIB_CFLAGS = $(CFLAGS_COMMON) -fPIC -fvisibility=hidden
LDLIBS   = $(CUDA_LIB) -lpthread -lm -ldl $(NUMA_LIB)

# The build's record of its flags ($(BUILD)/build-flags): rewritten only
# when what the objects are compiled with changes (CC, CONFIG, USER_CONFIG,
# ARCH, OPT, and what the machine provides: CUDA, libnuma), and every object
# depends on it, so such a change rebuilds the library instead of leaving
# an archive with the old values; a USER_CONFIG header is a prerequisite too.
# $(BUILD)/libblasx.link: the flags a program adds after libblasx.a.
BUILD_FLAGS = $(CC) $(LIB_CFLAGS) | CPU_TARGET=$(CPU_TARGET) | tiny: $(TINY_CONFIG)
# (written below, once LIB_CFLAGS is complete)
FLAGS_FILE := $(BUILD)/build-flags
LINK_FILE  := $(BUILD)/libblasx.link

LIB_SRCS := $(sort $(wildcard blasx/*.c internal/*/*.c kernels/*.c numa/*.c numa/*/*.c))
HDRS     := $(wildcard blasx/*.h blasx/*.inc internal/*/*.h internal/*/*.inc kernels/*.h kernels/*.inc kernels/cuda/*.h numa/*.h numa/*.inc numa/*/*.h numa/*/*.inc testing/*.h testing/*.inc)
TEST_SRCS := $(sort $(wildcard testing/test_*.c))
TESTS    := $(patsubst testing/%.c,%,$(TEST_SRCS))

OBJS      := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
TINY_OBJS := $(patsubst %.c,$(BUILD)/tiny/obj/%.o,$(LIB_SRCS))

.PHONY: ilp64 ilp64-test ptx all lib test print-test-stages print-link unit symbols netlib lapack sim sanitize gpu-test demo clean install dropin preload-errors nonuma
all: lib
lib: $(BUILD)/libblasx.a $(BUILD)/libblasx.so

$(BUILD)/obj/%.o: %.c $(HDRS) $(FLAGS_FILE) $(USER_CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -c $< -o $@
$(BUILD)/tiny/obj/%.o: %.c $(HDRS) $(FLAGS_FILE) $(USER_CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) $(TINY_CONFIG) -c $< -o $@

# ---- portable CPU build (CPU_TARGET) -----------------------------------
# With CPU_TARGET=portable (the default) the sources whose speed depends on
# the instruction set (ISA_SRCS: the CPU kernels, the parallel GEMM's
# compute, the streaming stores) are compiled once per variant into
# <name>.<isa>.o with -DBLASX_ISA_SUFFIX=_<isa> (their names get the suffix:
# internal/base/isa_names.h), every other object once for the baseline
# (ARCH) with -DBLASX_ISA_DISPATCH, which turns on the dispatchers
# (kernels/cpu_dispatch.c, numa/hybrid_dispatch.c,
# internal/memory/host_copy_dispatch.c): they call the variant
# internal/base/cpu_isa.c picks once per process (CPUID, or BLASX_CPU_ISA).
# Other CPU_TARGETs compile ISA_SRCS once, for ARCH, the dispatchers empty.
ISA_SRCS  := kernels/cpu_kernels.c kernels/cpu_factor.c numa/hybrid_gemm.c internal/memory/host_copy_nt.c
ISA_NAMES := generic avx2 avx512
ISA_FLAGS_generic := -march=x86-64
ISA_FLAGS_avx2    := -march=x86-64-v3
ISA_FLAGS_avx512  := -march=x86-64-v4
ifeq ($(CPU_TARGET),portable)
LIB_CFLAGS += -DBLASX_ISA_DISPATCH
isa_objs = $(filter-out $(patsubst %.c,$(1)/%.o,$(ISA_SRCS)),$(2)) $(foreach i,$(ISA_NAMES),$(patsubst %.c,$(1)/%.$(i).o,$(ISA_SRCS)))
OBJS      := $(call isa_objs,$(BUILD)/obj,$(OBJS))
TINY_OBJS := $(call isa_objs,$(BUILD)/tiny/obj,$(TINY_OBJS))
define ISA_RULES
$(BUILD)/obj/%.$(1).o: %.c $(HDRS) $(FLAGS_FILE) $(USER_CONFIG)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LIB_CFLAGS) $$(ISA_FLAGS_$(1)) -DBLASX_ISA_SUFFIX=_$(1) -c $$< -o $$@
$(BUILD)/tiny/obj/%.$(1).o: %.c $(HDRS) $(FLAGS_FILE) $(USER_CONFIG)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LIB_CFLAGS) $$(TINY_CONFIG) $$(ISA_FLAGS_$(1)) -DBLASX_ISA_SUFFIX=_$(1) -c $$< -o $$@
endef
$(foreach i,$(ISA_NAMES),$(eval $(call ISA_RULES,$(i))))
endif

# The unit tests (default and tiny builds) of the portable build under each
# other instruction set this CPU runs, forced in turn (BLASX_CPU_ISA=generic,
# avx2, avx512; test_cpu_isa --list says which): the one chosen by CPUID
# (`auto`) is the one the unit stage ran.  Nothing to do for a build with a
# compile-time target.  Tests whose subject is not the code an ISA selects
# (CPU kernels and factorizations, the NUMA GEMM, streaming copies) run
# once, in the unit stage: the runtime's life cycle, settings, start-up, the
# GPU memory pool, tile directory and model, tracing, the simulated
# device's layer, the registration cache and the LBT names.  The arithmetic
# of their calls is checked under every ISA by the tests that remain.
ISA_INDEPENDENT = test_lifecycle test_settings test_startup test_gpu_heap test_gpu_pool test_gpu_share \
  test_gpu_late test_gpu_trinv test_gpu_ranks test_tile_dir test_tile_model test_trace test_device_sim test_host_reg \
  test_runtime test_lbt_names test_host_writes test_reuse
ISA_TESTS = $(addprefix $(BUILD)/,$(filter-out $(ISA_INDEPENDENT),$(TESTS)) $(addprefix tiny/,$(filter-out $(ISA_INDEPENDENT),$(TESTS))))
.PHONY: isa-paths
isa-paths: $(ISA_TESTS)
	$(PARTS_BEGIN)
	@if [ "$(CPU_TARGET)" != portable ]; then echo "isa-paths: CPU_TARGET=$(CPU_TARGET) has one instruction set: nothing to force"; exit 0; fi; \
	list=" $$($(BUILD)/test_cpu_isa --list) "; auto=$$(BLASX_CPU_ISA=auto $(BUILD)/test_cpu_isa --chosen); \
	for isa in $(ISA_NAMES); do \
	  case "$$list" in *" $$isa "*) ;; *) echo "=== BLASX_CPU_ISA=$$isa: this CPU lacks it, skipped"; continue;; esac; \
	  if [ "$$isa" = "$$auto" ]; then echo "=== BLASX_CPU_ISA=$$isa: this CPU's choice, run by the unit stage"; continue; fi; \
	  echo "=== BLASX_CPU_ISA=$$isa"; \
	  BLASX_CPU_ISA=$$isa bash testing/run_unit.sh $(ISA_TESTS) || $(call PART_FAILED,unit tests under BLASX_CPU_ISA=$$isa); \
	done
	$(PARTS_END)
# ---- end of portable CPU build -------------------------------------------

# The record of the build's flags and link line (see BUILD_FLAGS above).
ifeq ($(filter clean print-%,$(MAKECMDGOALS)),)
$(shell mkdir -p $(BUILD))
$(file >$(FLAGS_FILE).now,$(BUILD_FLAGS))
FLAGS_CHANGED := $(shell if [ -f $(FLAGS_FILE) ] && ! cmp -s $(FLAGS_FILE) $(FLAGS_FILE).now; then echo 1; fi)
$(if $(FLAGS_CHANGED),$(info blasx: $(BUILD)/ was built with other flags (CC, CONFIG, USER_CONFIG, CPU_TARGET or ARCH, OPT, CUDA or NUMA changed): rebuilding it))
$(shell cmp -s $(FLAGS_FILE) $(FLAGS_FILE).now && rm -f $(FLAGS_FILE).now || mv -f $(FLAGS_FILE).now $(FLAGS_FILE))
$(file >$(LINK_FILE).now,$(LDLIBS))
$(shell cmp -s $(LINK_FILE) $(LINK_FILE).now && rm -f $(LINK_FILE).now || mv -f $(LINK_FILE).now $(LINK_FILE))
$(info blasx: CUDA $(if $(filter 1,$(CUDA_ON)),on ($(CUDA_HOME)$(comma) cuBLAS linked $(CUDA_LINK)),off)$(if $(filter auto,$(CUDA)), (CUDA=auto; CUDA=0 or 1 to choose)), NUMA $(if $(HAVE_NUMA),libnuma,none (no numa.h))$(if $(USER_CONFIG),$(comma) USER_CONFIG=$(USER_CONFIG))$(if $(CONFIG),$(comma) CONFIG=$(CONFIG)))
endif

$(BUILD)/libblasx.a: $(OBJS)
	rm -f $@ && ar rcs $@ $^
	@echo "blasx: link a program with: $(abspath $@) $(LDLIBS)   (also in $(LINK_FILE))"
$(BUILD)/tiny/libblasx.a: $(TINY_OBJS)
	rm -f $@ && ar rcs $@ $^
# The shared library exports the level-3 names and the native API only.
# Its SONAME is libblasx.so.MAJOR (the project version of blasx/blasx_status.h, as
# in the installed blasx.pc and CMake files; Bazel: third_party/blasx.bzl):
# a program linked with -lblasx records libblasx.so.MAJOR, which
# third_party/install.sh installs as a link to libblasx.so.MAJOR.MINOR.0.  In
# the build folder libblasx.so.MAJOR links to libblasx.so, so that a program
# linked to it with -Wl,-rpath,<build> starts.  (Relinked when this Makefile
# changes: a link made before the SONAME existed would not be installed.)
VERSION_MAJOR := $(shell sed -n 's/^\#define BLASX_VERSION_MAJOR \([0-9]*\).*/\1/p' blasx/blasx_status.h)
VERSION_MINOR := $(shell sed -n 's/^\#define BLASX_VERSION_MINOR \([0-9]*\).*/\1/p' blasx/blasx_status.h)
VERSION  := $(VERSION_MAJOR).$(VERSION_MINOR).0
SONAME   := libblasx.so.$(VERSION_MAJOR)
SO_LDFLAGS = -shared -Wl,--version-script=blasx/exports.map -Wl,-soname,$(SONAME)
$(BUILD)/libblasx.so: $(OBJS) blasx/exports.map Makefile $(LINK_FILE)
	$(CC) $(SO_LDFLAGS) -o $@ $(OBJS) $(LDLIBS)
	ln -sf libblasx.so $(dir $@)$(SONAME)
$(BUILD)/tiny/libblasx.so: $(TINY_OBJS) blasx/exports.map Makefile $(LINK_FILE)
	$(CC) $(SO_LDFLAGS) -o $@ $(TINY_OBJS) $(LDLIBS)
	ln -sf libblasx.so $(dir $@)$(SONAME)

# The ILP64 build (issue 43): the same runtime, its Fortran, CBLAS and
# LAPACK names taking 8-byte integers (blasx/*.c compiled with
# -DBLASX_ILP64), as Debian's libblas64.so.3 and liblapack64.so.3 do; its
# own SONAME, libblasx64.so.MAJOR.  (The 64_-suffixed names, 8-byte
# integers in every build, are in both: blasx/api64.c, blasx/lapack64.c.)
ILP64_OBJS := $(patsubst %.c,$(BUILD)/ilp64/obj/%.o,$(wildcard blasx/*.c)) $(filter-out $(BUILD)/obj/blasx/%,$(OBJS))
$(BUILD)/ilp64/obj/%.o: %.c $(HDRS) $(FLAGS_FILE) $(USER_CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -DBLASX_ILP64 -c $< -o $@
$(BUILD)/ilp64/libblasx64.so: $(ILP64_OBJS) blasx/exports.map Makefile $(LINK_FILE)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,--version-script=blasx/exports.map -Wl,-soname,libblasx64.so.$(VERSION_MAJOR) -o $@ $(ILP64_OBJS) $(LDLIBS)
	ln -sf libblasx64.so $(dir $@)libblasx64.so.$(VERSION_MAJOR)
ILP64_TINY_OBJS := $(patsubst %.c,$(BUILD)/ilp64/tiny/obj/%.o,$(wildcard blasx/*.c)) $(filter-out $(BUILD)/tiny/obj/blasx/%,$(TINY_OBJS))
$(BUILD)/ilp64/tiny/obj/%.o: %.c $(HDRS) $(FLAGS_FILE) $(USER_CONFIG)
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) $(TINY_CONFIG) -DBLASX_ILP64 -c $< -o $@
$(BUILD)/ilp64/tiny/libblasx64.so: $(ILP64_TINY_OBJS) blasx/exports.map Makefile $(LINK_FILE)
	@mkdir -p $(dir $@)
	$(CC) -shared -Wl,--version-script=blasx/exports.map -Wl,-soname,libblasx64.so.$(VERSION_MAJOR) -o $@ $(ILP64_TINY_OBJS) $(LDLIBS)
ilp64: $(BUILD)/ilp64/libblasx64.so

# The 64_-suffixed names of the normal libblasx.so (blasx/names.h:
# dgemm_64_, dpotrf_64_, cblas_dgemm64_ / cblas_dgemm_64) under the same
# testers: testing/ilp64/shim64.so defines their plain names with 8-byte
# integers, each calling libblasx.so's suffixed name (linked to it with
# --no-undefined: every suffixed name exported); testing/ilp64/names64.c
# checks the BLASX_LAPACK=0 forwarding of the suffixed LAPACK names to the
# next library's suffixed names (testing/ilp64/next64.c) and the suffixed
# reporting names (xerbla_64_, cblas_xerbla_64).
ILP64_TEST_CFLAGS = -std=c11 -O2 -Wall -Wextra -I.
$(BUILD)/ilp64/shim64.so: testing/ilp64/shim64.c $(BUILD)/libblasx.so blasx/blasx_f77.h blasx/blasx_cblas.h
	@mkdir -p $(dir $@)
	$(CC) $(ILP64_TEST_CFLAGS) -fPIC -shared $< -o $@ $(abspath $(BUILD)/libblasx.so) -Wl,-rpath,$(abspath $(BUILD)) -Wl,--no-undefined
$(BUILD)/ilp64/libnext64.so: testing/ilp64/next64.c
	@mkdir -p $(dir $@)
	$(CC) $(ILP64_TEST_CFLAGS) -fPIC -shared -Wl,-soname,libnext64.so $< -o $@
$(BUILD)/ilp64/names64: testing/ilp64/names64.c $(BUILD)/libblasx.so $(BUILD)/ilp64/libnext64.so blasx/blasx_f77.h blasx/blasx_cblas.h
	$(CC) $(ILP64_TEST_CFLAGS) -rdynamic $< -o $@ $(abspath $(BUILD)/libblasx.so) $(abspath $(BUILD)/ilp64/libnext64.so) \
	  -Wl,-rpath,$(abspath $(BUILD)):$(abspath $(BUILD)/ilp64)

# Debian's ILP64 testers (libblas64-test, liblapack64-test) with the ILP64
# builds preloaded over the ILP64 reference libraries (the tiny build's on
# two simulated GPUs, every call tiled); then with the shim above preloaded
# (the default build's 64_-suffixed names, which share the plain names'
# checks and cores: every BLAS tester with Debian's input, error exits
# included; the LAPACK testers of D and Z and of the DS and ZC drivers),
# and names64.
ILP64_BLAS := NETLIB_BLAS_DIR=/usr/lib/x86_64-linux-gnu/blas64 NETLIB_REF_LIB=libblas64.so.3
ILP64_LAPACK := LAPACK_TEST_DIR=/usr/lib/x86_64-linux-gnu/lapack64 LAPACK_BLAS_DIR=/usr/lib/x86_64-linux-gnu/blas64
ilp64-test: $(BUILD)/ilp64/libblasx64.so $(BUILD)/ilp64/tiny/libblasx64.so $(BUILD)/ilp64/shim64.so $(BUILD)/ilp64/names64
	$(PARTS_BEGIN)
	$(ILP64_BLAS) bash testing/netlib/run_netlib.sh $(abspath $(BUILD)/ilp64/libblasx64.so) ilp64 || $(call PART_FAILED,netlib ilp64)
	$(ILP64_BLAS) BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/netlib/run_netlib.sh $(abspath $(BUILD)/ilp64/tiny/libblasx64.so) ilp64-tiny-sim2 || $(call PART_FAILED,netlib ilp64 tiny on 2 simulated GPUs)
	$(ILP64_LAPACK) bash testing/lapack/run_lapack_lin.sh $(abspath $(BUILD)/ilp64/libblasx64.so) ilp64 || $(call PART_FAILED,lapack-lin ilp64)
	$(ILP64_LAPACK) BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=16 LAPACK_ONLY="d z" LAPACK_PATHS="GE PO" bash testing/lapack/run_lapack_lin.sh $(abspath $(BUILD)/ilp64/tiny/libblasx64.so) ilp64-tiny-sim2 || $(call PART_FAILED,lapack-lin ilp64 tiny on 2 simulated GPUs)
	$(ILP64_BLAS) NETLIB_SETS=debian bash testing/netlib/run_netlib.sh $(abspath $(BUILD)/ilp64/shim64.so) suffix64 || $(call PART_FAILED,netlib 64_-suffixed names)
	$(ILP64_LAPACK) LAPACK_ONLY="d z ds zc" bash testing/lapack/run_lapack_lin.sh $(abspath $(BUILD)/ilp64/shim64.so) suffix64 || $(call PART_FAILED,lapack-lin 64_-suffixed names)
	$(BUILD)/ilp64/names64 serve || $(call PART_FAILED,names64 serve)
	BLASX_LAPACK=0 $(BUILD)/ilp64/names64 forward || $(call PART_FAILED,names64 forward)
	$(PARTS_END)

$(BUILD)/test_%: testing/test_%.c $(BUILD)/libblasx.a $(HDRS) $(FLAGS_FILE)
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)
$(BUILD)/tiny/test_%: testing/test_%.c $(BUILD)/tiny/libblasx.a $(HDRS) $(FLAGS_FILE)
	$(CC) $(CFLAGS_COMMON) $(TINY_CONFIG) $< $(BUILD)/tiny/libblasx.a -o $@ $(LDLIBS)

$(BUILD)/demo_dgemm: benchmarks/demo_dgemm.c $(BUILD)/libblasx.a
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)

$(BUILD)/bench_gemm: benchmarks/bench_gemm.c $(BUILD)/libblasx.a
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)

# Asynchronous calls against the same calls made synchronously (issue 23).
$(BUILD)/bench_async: benchmarks/bench_async.c $(BUILD)/libblasx.a
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS) -lm

# On a GPU machine, in one command: the GPU test on real GPUs with the tiny
# tile (every routine, every precision) and the default tile (sizes up to
# GPU_MAX_DIM), the randomized conformance test and the Netlib testers with
# the tiny tile (NETLIB_BLAS_DIR must hold the testers there), DGEMM
# N = 50000 (offsets beyond 2^31), compute-sanitizer on a small run, and
# first DGEMM timings on 1 GPU and on all.  Logs go to GPU_LOG (a folder).
GPU_MAX_DIM ?= 20000
GPU_LOG ?= $(BUILD)/gpu-log
gpu-test: $(BUILD)/test_gpu $(BUILD)/tiny/test_gpu $(BUILD)/tiny/test_api $(BUILD)/tiny/test_naninf $(BUILD)/tiny/test_errors $(BUILD)/tiny/libblasx.so $(BUILD)/bench_gemm
	bash testing/run_gpu_tests.sh $(BUILD) $(GPU_LOG) $(GPU_MAX_DIM) "$(GPU_PHASES)"
GPU_PHASES ?= small large

# Multi-part stages (netlib, lapack, sim, scalapack, nonuma) run every part
# even when one fails: PARTS_BEGIN starts the stage's list of failed parts,
# a part that fails adds its name ($(call PART_FAILED,name); no commas in
# it), and PARTS_END prints which parts failed and fails the stage then.
PARTS_LOG    = $(BUILD)/$@.failed-parts
PARTS_BEGIN  = @mkdir -p $(BUILD) && rm -f $(PARTS_LOG) $(BLASX_UNIT_FAILLOG)
PART_FAILED  = { echo "$@: FAILED: $(1)"; echo "$(1)" >> $(PARTS_LOG); }
PARTS_END    = @if [ -s $(PARTS_LOG) ]; then echo "$@: $$(wc -l < $(PARTS_LOG)) part(s) failed:"; \
	  sed 's/^/  /' $(PARTS_LOG); if [ -s $(BLASX_UNIT_FAILLOG) ]; then echo "$@: the failed checks:"; \
	  tail -n 60 $(BLASX_UNIT_FAILLOG) | sed 's/^/  /'; fi; exit 1; else echo "$@: every part passed"; fi

# The tests start and stop blasx's threads thousands of times (finalize
# between cases, simulated streams); each new thread's static TLS (94 KiB
# of it is cuBLASLt's) lands on fresh pages unless glibc reuses a cached
# stack, and its default cache holds five 8 MiB stacks: 256 MiB here
# halved the fault sweeps' time.  A value already set wins.
export GLIBC_TUNABLES ?= glibc.pthread.stack_cache_size=268435456

# run_unit.sh's failed checks, printed again by PARTS_END
export BLASX_UNIT_FAILLOG := $(abspath $(BUILD))/unit-failures.log

# LAPACK's testers run each input once more without blasx, for the number
# of test groups to compare with; that output depends only on the tester,
# its input and the reference libraries, so it is kept here for the runs
# after (testing/lapack/run_lapack_lin.sh).
export LAPACK_REF_CACHE ?= $(abspath $(BUILD))/lapack-ref

# Unit tests: each binary prints "name: N passed, M failed"; testing/run_unit.sh
# runs them all and prints the total.
unit: $(addprefix $(BUILD)/,$(TESTS)) $(addprefix $(BUILD)/tiny/,$(TESTS))
	bash testing/run_unit.sh $^

# Exported names of the archive: the 60 level-3 names and their 64_-suffixed
# ones (and the LAPACK ones), the rest prefixed.
symbols: $(BUILD)/libblasx.a
	bash testing/check_symbols.sh $<

netlib: $(BUILD)/libblasx.so $(BUILD)/tiny/libblasx.so
	$(PARTS_BEGIN)
	bash testing/netlib/run_netlib.sh $(abspath $(BUILD)/libblasx.so) default || $(call PART_FAILED,netlib default)
	bash testing/netlib/run_netlib.sh $(abspath $(BUILD)/tiny/libblasx.so) tiny || $(call PART_FAILED,netlib tiny)
	$(PARTS_END)

# The GPU-worker path on simulated GPUs (CI has none): 1, 2 and 3 devices
# of 16 KiB each (tiles must be evicted; the GPU test also on 4), the tiny-tile build, the randomized
# tests and the Netlib testers (their Debian input sets); 1 and 3 devices
# also with pageable copies staged through pinned buffers; the GPU test
# again with the second cache level (peer copies) off, without the copy
# stream, without panel copies, with panels split on the copy stream, with
# GEMM's K loops in order (not rotated), on 3 GPUs without their share
# (gpu_rs.c), with the CPU team and its strip, and
# with GEMM's tall tiles; the device memory shared with the program (GPU
# pools, idle release: test_gpu_share, on devices of 64 MiB) on 1-3 devices.
SIM_ENV = BLASX_SIM_MEM_KB=16 NETLIB_SETS=debian
# LAPACK's linear-equation testers (Debian's liblapack-test) with blasx's
# factorizations: every test path against the default build; the paths of
# the factorizations (GE, PO) with M, N up to 20 (LU splits above 16)
# against the tiny build on 1 and 3 simulated GPUs, every step tiled,
# and on 2 with the factorizations whole on one GPU (BLASX_LAPACK_GPU_MIN_N);
# the mixed-precision drivers' tests (dstest.in, zctest.in) on 1-3 simulated
# GPUs and whole on one.
lapack: $(BUILD)/libblasx.so $(BUILD)/tiny/libblasx.so
	$(PARTS_BEGIN)
	bash testing/lapack/run_lapack_lin.sh $(abspath $(BUILD)/libblasx.so) default || $(call PART_FAILED,default build)
	for g in 1 3; do \
	  BLASX_SIM_GPUS=$$g BLASX_SIM_MEM_KB=16 LAPACK_PATHS="GE PO" LAPACK_DIMS="0 1 2 3 10 20" \
	    bash testing/lapack/run_lapack_lin.sh $(abspath $(BUILD)/tiny/libblasx.so) sim$$g || $(call PART_FAILED,tiny build on $$g simulated GPUs); \
	done
	BLASX_LAPACK_GPU_MIN_N=2 BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=64 LAPACK_PATHS="GE PO" LAPACK_DIMS="0 1 2 3 10 20" \
	  bash testing/lapack/run_lapack_lin.sh $(abspath $(BUILD)/tiny/libblasx.so) sim2-whole || $(call PART_FAILED,tiny build whole on one of 2 GPUs)
	for g in 1 2 3; do BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=$$g BLASX_SIM_MEM_KB=16 LAPACK_ONLY="ds zc" LAPACK_DIMS="0 1 2 13 17 45" \
	  bash testing/lapack/run_lapack_lin.sh $(abspath $(BUILD)/tiny/libblasx.so) mixed-sim$$g || $(call PART_FAILED,mixed-precision drivers on $$g simulated GPUs); done
	BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=1 BLASX_SIM_MEM_KB=4096 LAPACK_ONLY="ds zc" LAPACK_DIMS="0 1 2 13 17 45" \
	  bash testing/lapack/run_lapack_lin.sh $(abspath $(BUILD)/tiny/libblasx.so) mixed-whole-sim1 || $(call PART_FAILED,mixed-precision drivers whole on a simulated GPU)
	$(PARTS_END)

sim: $(BUILD)/tiny/test_dirty $(BUILD)/tiny/test_mixed $(BUILD)/tiny/test_api $(BUILD)/tiny/test_gpu $(BUILD)/tiny/test_errors $(BUILD)/tiny/test_naninf $(BUILD)/tiny/test_trace $(BUILD)/tiny/test_lapack $(BUILD)/tiny/test_async $(BUILD)/tiny/libblasx.so \
     $(BUILD)/test_api $(BUILD)/test_errors $(BUILD)/test_naninf $(BUILD)/test_threads $(BUILD)/test_lapack $(BUILD)/libblasx.so \
     $(BUILD)/test_gpu_share $(BUILD)/tiny/test_gpu_share \
     $(BUILD)/test_fault_sweep $(BUILD)/tiny/test_fault_sweep $(BUILD)/test_triangle $(BUILD)/tiny/test_triangle \
     $(BUILD)/test_reuse $(BUILD)/tiny/test_reuse $(BUILD)/tiny/test_pageable $(BUILD)/tiny/test_threads
	$(PARTS_BEGIN)
	for g in 1 2 3; do \
	  echo "=== $$g simulated GPU(s)"; \
	  BLASX_STAGE_PAGEABLE=$$((g % 2)) BLASX_SIM_GPUS=$$g $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_api $(BUILD)/tiny/test_gpu $(BUILD)/tiny/test_errors $(BUILD)/tiny/test_naninf $(BUILD)/tiny/test_lapack $(BUILD)/tiny/test_async || $(call PART_FAILED,unit tests on $$g GPUs); \
	  BLASX_SIM_GPUS=$$g $(SIM_ENV) bash testing/netlib/run_netlib.sh $(abspath $(BUILD)/tiny/libblasx.so) sim$$g || $(call PART_FAILED,netlib on $$g GPUs); \
	done
	echo "=== 4 simulated GPUs: the GPU worker (stealing and each GPU's share over four)"
	BLASX_SIM_GPUS=4 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu || $(call PART_FAILED,test_gpu on 4 GPUs)
	echo "=== 1 and 3 simulated GPU(s): factorizations from order 8 on the GPUs (Cholesky in block columns on all of them, kept on their GPUs, a team's copied peer to peer; on 4; streamed through host memory on 1 and 3; LU's kept on 2 and 3; then whole on one)"
	for g in 1 3; do BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=$$g $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_lapack || $(call PART_FAILED,test_lapack from order 8 on $$g GPUs); done
	BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=4 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_lapack || $(call PART_FAILED,test_lapack from order 8 on 4 GPUs)
	for g in 1 3; do BLASX_LAPACK_TEAM_PEERS=0 BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=$$g $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_lapack || $(call PART_FAILED,test_lapack with the columns streamed through host memory on $$g GPUs); done
	for g in 2 3; do BLASX_LAPACK_LU_PEERS=0 BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=$$g $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_lapack || $(call PART_FAILED,test_lapack with the LU team's columns through host memory on $$g GPUs); done
	BLASX_LAPACK_CHOL_PANELS=1 BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=1 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_lapack || $(call PART_FAILED,test_lapack Cholesky whole on 1 GPU)
	echo "=== 1 and 3 simulated GPU(s): an out-of-core Cholesky with a device fault at each of its first 40 operations"
	for g in 1 3; do for k in $$(seq 1 40); do BLASX_TEST_OOC_FAULT=$$k BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=$$g $(SIM_ENV) $(BUILD)/tiny/test_lapack > $(BUILD)/tiny/ooc_fault.log 2>&1 || \
	  { cat $(BUILD)/tiny/ooc_fault.log; $(call PART_FAILED,out-of-core fault at op $$k on $$g GPUs); }; done; done
	echo "=== 1 simulated GPU: dgesv whole with its solve there, a device fault at each of its first 14 operations"
	for k in $$(seq 0 14); do BLASX_TEST_SOLVE_FAULT=$$k BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=1 $(SIM_ENV) $(BUILD)/tiny/test_lapack > $(BUILD)/tiny/solve_fault.log 2>&1 || \
	  { cat $(BUILD)/tiny/solve_fault.log; $(call PART_FAILED,whole dgesv fault at op $$k); }; done
	echo "=== 2 simulated GPU(s), second cache level off"
	BLASX_L2_CACHE=0 BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu || $(call PART_FAILED,L2 off)
	echo "=== 2 simulated GPU(s): no copy stream (no panels either); panels off; panels split on the copy stream; GEMM's K loops in order; 3 GPUs without their share; the CPU team with a 2-column strip"
	BLASX_COPY_STREAM=0 BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu || $(call PART_FAILED,no copy stream)
	BLASX_PANEL=0 BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu || $(call PART_FAILED,panels off)
	BLASX_SPLIT_STREAM=0 BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu || $(call PART_FAILED,no split stream)
	BLASX_SPLIT_STREAM=0 BLASX_SIM_GPUS=2 bash testing/run_unit.sh $(BUILD)/tiny/test_trace || $(call PART_FAILED,test_trace without split stream)
	BLASX_K_ROTATE=0 BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu $(BUILD)/tiny/test_api || $(call PART_FAILED,K loops in order)
	BLASX_GPU_SHARE=0 BLASX_SIM_GPUS=3 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu $(BUILD)/tiny/test_api || $(call PART_FAILED,GPUs without their share)
	BLASX_CPU_TEAM=1 BLASX_CPU_STRIP=2 BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu $(BUILD)/tiny/test_api || $(call PART_FAILED,CPU team with a strip)
	echo "=== 2 simulated GPU(s) of 64 MiB, tiles of 270 (BLASX_TILE): diagonal SYRK-family tiles go back as direct blocks and staged 135-row diagonal blocks (tri_wb)"
	BLASX_TILE=270 BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=65536 $(BUILD)/tiny/test_gpu 300 > $(BUILD)/tiny/test_gpu_270.log 2>&1 && tail -n 1 $(BUILD)/tiny/test_gpu_270.log || \
	  { grep -v ': ok$$' $(BUILD)/tiny/test_gpu_270.log | head -n 40; $(call PART_FAILED,270-tiles); }
	echo "=== 2 simulated GPU(s): GEMM's tall tiles of 7 rows (BLASX_TILE_M; the tile model picks them on real GPUs), also with the CPU team's strip"
	BLASX_TILE_M=7 BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu $(BUILD)/tiny/test_api || $(call PART_FAILED,tall tiles)
	BLASX_TILE_M=7 BLASX_CPU_TEAM=1 BLASX_CPU_STRIP=2 BLASX_SIM_GPUS=2 $(SIM_ENV) bash testing/run_unit.sh $(BUILD)/tiny/test_gpu || $(call PART_FAILED,tall tiles with the CPU team)
	echo "=== 2 simulated GPU(s), default build: calls below the offload threshold forced whole on a GPU (BLASX_SMALL=2)"
	BLASX_SMALL=2 BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=4096 bash testing/run_unit.sh $(BUILD)/test_api $(BUILD)/test_errors $(BUILD)/test_naninf $(BUILD)/test_threads || $(call PART_FAILED,small calls whole on a GPU)
	BLASX_SMALL=2 BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=4096 NETLIB_SETS=debian bash testing/netlib/run_netlib.sh $(abspath $(BUILD)/libblasx.so) sim2-small || $(call PART_FAILED,netlib small calls whole on a GPU)
	echo "=== lazy write-back (BLASX_ASYNC_LAZY=1): queued calls against synchronous ones on 1 simulated GPU, also on 512, 64 and 16 KiB (dirty tiles fill it; tasks go to the CPU), and on 2 and 3 (3 also of 16 KiB); a device fault at every other operation of a chain (every fourth on 2 GPUs), at every third of a tiled Cholesky"
	for kb in 0 512 64 16; do env BLASX_ASYNC_LAZY=1 BLASX_SIM_GPUS=1 $$([ $$kb = 0 ] || echo BLASX_SIM_MEM_KB=$$kb) bash testing/run_unit.sh $(BUILD)/tiny/test_dirty $(BUILD)/tiny/test_async $(BUILD)/tiny/test_api || $(call PART_FAILED,lazy write-back on 1 GPU of $$kb KiB); done
	BLASX_ASYNC_LAZY=1 BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=16 bash testing/run_unit.sh $(BUILD)/tiny/test_dirty || $(call PART_FAILED,lazy write-back on 3 GPUs of 16 KiB)
	for k in $$(seq 1 2 119); do BLASX_TEST_DIRTY_FAULT=$$k BLASX_ASYNC_LAZY=1 BLASX_SIM_GPUS=1 $(BUILD)/tiny/test_dirty > $(BUILD)/tiny/dirty_fault.log 2>&1 || \
	  { cat $(BUILD)/tiny/dirty_fault.log; $(call PART_FAILED,lazy write-back: fault at op $$k); }; done
	for g in 2 3; do BLASX_ASYNC_LAZY=1 BLASX_SIM_GPUS=$$g bash testing/run_unit.sh $(BUILD)/tiny/test_dirty $(BUILD)/tiny/test_async $(BUILD)/tiny/test_api || $(call PART_FAILED,lazy write-back on $$g GPUs); done
	for k in $$(seq 2 4 119); do BLASX_TEST_DIRTY_FAULT=$$k BLASX_ASYNC_LAZY=1 BLASX_SIM_GPUS=2 $(BUILD)/tiny/test_dirty > $(BUILD)/tiny/dirty_fault.log 2>&1 || \
	  { cat $(BUILD)/tiny/dirty_fault.log; $(call PART_FAILED,lazy write-back on 2 GPUs: fault at op $$k); }; done
	for k in $$(seq 1 3 160); do BLASX_TEST_DIRTY_FAULT_CHOL=$$k BLASX_ASYNC_LAZY=1 BLASX_SIM_GPUS=1 $(BUILD)/tiny/test_dirty > $(BUILD)/tiny/dirty_fault.log 2>&1 || \
	  { cat $(BUILD)/tiny/dirty_fault.log; $(call PART_FAILED,lazy write-back: tiled Cholesky with a fault at op $$k); }; done
	echo "=== BLASX_GPU_JOBS=3 (a GPU serves up to three calls at once) on 2 and 3 simulated GPUs (3 of 16 KiB): threads' calls bit for bit, queued calls, lazy write-back"
	for g in 2 3; do env BLASX_GPU_JOBS=3 BLASX_SIM_GPUS=$$g $$([ $$g = 2 ] || echo BLASX_SIM_MEM_KB=16) bash testing/run_unit.sh $(BUILD)/tiny/test_threads $(BUILD)/tiny/test_async $(BUILD)/tiny/test_api || $(call PART_FAILED,three calls per GPU on $$g GPUs); \
	  env BLASX_GPU_JOBS=3 BLASX_ASYNC_LAZY=1 BLASX_SIM_GPUS=$$g $$([ $$g = 2 ] || echo BLASX_SIM_MEM_KB=16) bash testing/run_unit.sh $(BUILD)/tiny/test_dirty || $(call PART_FAILED,three calls per GPU with lazy write-back on $$g GPUs); done
	echo "=== 2 simulated GPU(s) of 64 MiB: tiles queued calls keep survive between them (test_async's straddling tile)"
	BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=65536 bash testing/run_unit.sh $(BUILD)/tiny/test_async || $(call PART_FAILED,test_async on 64 MiB GPUs)
	echo "=== 1 to 3 simulated GPU(s) of 64 MiB and 3 of 16 KiB, BLASX_REUSE=1: input tiles kept across calls, never stale (program writes, free, remap, fork)"
	for g in 1 2 3; do BLASX_REUSE=1 BLASX_SIM_GPUS=$$g BLASX_SIM_MEM_KB=65536 bash testing/run_unit.sh $(BUILD)/tiny/test_reuse $(BUILD)/test_reuse $(BUILD)/tiny/test_pageable || $(call PART_FAILED,reuse on $$g GPUs); done
	BLASX_REUSE=1 BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=16 bash testing/run_unit.sh $(BUILD)/tiny/test_reuse $(BUILD)/tiny/test_api $(BUILD)/tiny/test_gpu || $(call PART_FAILED,reuse on 3 GPUs of 16 KiB)
	echo "=== 2 simulated GPU(s), default build: factorizations from order 8 on the GPUs, a team from order 2 (block columns too wide for the pool: whole on one GPU)"
	BLASX_LAPACK_GPU_MIN_N=8 BLASX_LAPACK_TEAM_MIN_N=2 BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=16 bash testing/run_unit.sh $(BUILD)/test_lapack || $(call PART_FAILED,default-build factorizations with a team)
	echo "=== 1 and 3 simulated GPU(s), tiny build: the mixed-precision drivers, their single factorizations on the GPUs"
	for g in 1 3; do BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=$$g BLASX_SIM_MEM_KB=16 bash testing/run_unit.sh $(BUILD)/tiny/test_mixed || $(call PART_FAILED,test_mixed on $$g GPUs); done
	echo "=== no GPU, and 2 simulated GPUs: dgesv_/dposv_ ... through the mixed drivers' refinement (BLASX_LAPACK_REFINE=1)"
	for g in 0 2; do BLASX_LAPACK_REFINE=1 BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=$$g BLASX_SIM_MEM_KB=16 bash testing/run_unit.sh $(BUILD)/tiny/test_mixed || $(call PART_FAILED,test_mixed refining the plain solves on $$g GPUs); done
	echo "=== 1 and 2 simulated GPU(s) of 4 MiB: the pairs whole on a GPU (refined there, checked and fallen back from on the host)"
	for g in 1 2; do MIXED_EXPECT_WHOLE=1 BLASX_LAPACK_GPU_MIN_N=8 BLASX_SIM_GPUS=$$g BLASX_SIM_MEM_KB=4096 bash testing/run_unit.sh $(BUILD)/tiny/test_mixed || $(call PART_FAILED,test_mixed whole on one of $$g GPUs); done
	echo "=== 1, 2 and 3 simulated GPU(s) of 64 MiB: pools grow within their cap, idle GPUs give memory back, the program holds nearly all of it between calls, finalize gives all back"
	for g in 1 2 3; do BLASX_SIM_GPUS=$$g bash testing/run_unit.sh $(BUILD)/test_gpu_share $(BUILD)/tiny/test_gpu_share || $(call PART_FAILED,test_gpu_share on $$g GPUs); done
	echo "=== 3 simulated GPU(s) of 512 KiB with 128-tiles: 2-4 tiles fit (stalls, CPU fallbacks), traced"
	for i in 1 2 3 4; do BLASX_SIM_GPUS=3 BLASX_SIM_MEM_KB=512 bash testing/run_unit.sh $(BUILD)/tiny/test_trace || $(call PART_FAILED,traced run $$i on 3 GPUs of 512 KiB); done
	echo "=== 1-3 simulated GPU(s): a device fault at each operation of every factorization and solve; a writer in the other triangle during xPOTRF"
	bash testing/run_fault_sweeps.sh $(BUILD) || $(call PART_FAILED,fault sweeps and other-triangle tests)
	$(PARTS_END)

# ASan+UBSan on every unit test, TSan on the concurrency tests (CPU and
# simulated GPUs), valgrind on the demo (testing/run_sanitizers.sh).
sanitize:
	TINY_CONFIG="$(TINY_CONFIG)" bash testing/run_sanitizers.sh $(BUILD)

# ScaLAPACK on 4 ranks with libblasx.so preloaded under each
# (testing/scalapack/run_scalapack.sh): its PBLAS level-3 testers (D/Z),
# our Cholesky and LU driver (testing/scalapack/check_factor.c: residuals
# on grids 1x1 1x2 2x1 2x2 1x4, built with mpicc against Debian's
# libscalapack-openmpi) and its Cholesky and LU testers without condition
# estimates (their pdlacon can hang: see the script); every MPI run under
# a time limit.  The default build on the CPU, then with 2 simulated GPUs
# per rank, then the tiny build on them (every local call tiled on the
# GPUs).  Skips where Debian's scalapack-mpi-test is not installed.
scalapack: $(BUILD)/libblasx.so $(BUILD)/tiny/libblasx.so
	$(PARTS_BEGIN)
	bash testing/scalapack/run_scalapack.sh $(abspath $(BUILD)/libblasx.so) default || $(call PART_FAILED,default build)
	BLASX_SIM_GPUS=2 bash testing/scalapack/run_scalapack.sh $(abspath $(BUILD)/libblasx.so) sim2 || $(call PART_FAILED,default build on 2 simulated GPUs)
	BLASX_SIM_GPUS=2 BLASX_SIM_MEM_KB=64 SCALAPACK_SETS="pdblas3 pzblas3 factor llt lu" \
	  bash testing/scalapack/run_scalapack.sh $(abspath $(BUILD)/tiny/libblasx.so) sim2-tiny || $(call PART_FAILED,tiny build on 2 simulated GPUs)
	$(PARTS_END)

# An MPI program timing ScaLAPACK's pdgemm and pdpotrf over the node's BLAS
# (benchmarks/bench_scalapack.c; needs libscalapack-openmpi).
SCALAPACK_LIB ?= -lscalapack-openmpi
$(BUILD)/bench_scalapack: benchmarks/bench_scalapack.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra $< -o $@ $(SCALAPACK_LIB) -lm

# Installation: headers, both libraries, pkg-config and CMake package files
# (third_party/install.sh, which `bazel run //:install -- PREFIX` runs too).
PREFIX  ?= /usr/local
install: lib
	DESTDIR=$(DESTDIR) bash third_party/install.sh $(BUILD)/libblasx.a $(BUILD)/libblasx.so $(PREFIX) "$(LDLIBS)"

# Drop-in and packaging checks: numpy under LD_PRELOAD (Debian's, and pip's
# NumPy and SciPy wheels through their scipy_ names: testing/run_wheels.sh), an unmodified
# DGEMM program (benchmarks/run_dropin_nvblas.sh at N = 512: blasx
# preloaded and the system BLAS; NVBLAS only where a GPU is), argument errors
# under LD_PRELOAD against each BLAS the machine has (preload-errors), static
# C and Fortran programs, install + pkg-config + a CMake consumer, and the
# update-pattern LU (bench_update_lu) on the host's BLAS and under blasx on
# 2 simulated GPUs.  All run even when one fails; the target fails if any did.
dropin: lib $(BUILD)/bench_dropin_gemm $(BUILD)/bench_update_lu
	st=0; \
	bash testing/run_preload.sh $(abspath $(BUILD)/libblasx.so) || st=1; \
	DROPIN_BUILD=0 BENCH=$(abspath $(BUILD)/bench_dropin_gemm) BLASX_SO=$(abspath $(BUILD)/libblasx.so) bash benchmarks/run_dropin_nvblas.sh $(BUILD)/dropin-smoke 512 || st=1; \
	UPDATE_BUILD=0 BLASX_SO=$(abspath $(BUILD)/libblasx.so) BLASX_SIM_GPUS=2 GPUS=2 bash benchmarks/run_update_lu.sh $(BUILD)/update-smoke 600 64 || st=1; \
	bash testing/run_preload_errors.sh $(abspath $(BUILD)/libblasx.so) || st=1; \
	bash testing/run_wheels.sh $(BUILD) || st=1; \
	bash testing/run_static.sh $(BUILD)/libblasx.a "$(LDLIBS)" || st=1; \
	bash testing/run_install.sh $(BUILD) || st=1; \
	exit $$st

# A program linked to libblas.so.3 making invalid level-3 calls, run against
# OpenBLAS and the reference BLAS+CBLAS (those installed) alone and with
# libblasx.so preloaded: the same report, exit status and untouched C.
preload-errors: $(BUILD)/libblasx.so
	bash testing/run_preload_errors.sh $(abspath $<)

# The CPU side built without libnuma (one NUMA domain), as on machines
# without it: the parallel GEMM, the CPU team beside (simulated) GPUs and
# the API.
nonuma:
	$(MAKE) BUILD=$(BUILD)/nonuma HAVE_NUMA= $(BUILD)/nonuma/test_cpu_gemm $(BUILD)/nonuma/test_cpu_team $(BUILD)/nonuma/test_api
	$(PARTS_BEGIN)
	! nm $(BUILD)/nonuma/libblasx.a | grep -q ' U numa_' || $(call PART_FAILED,libnuma symbols in the archive)
	bash testing/run_unit.sh $(BUILD)/nonuma/test_cpu_gemm $(BUILD)/nonuma/test_cpu_team $(BUILD)/nonuma/test_api || $(call PART_FAILED,unit tests)
	$(PARTS_END)

# House rules (testing/check_house.py): file and function sizes, getenv in
# one file, no include or call circle between files or folders.
.PHONY: house
house: $(BUILD)/libblasx.a
	python3 testing/check_house.py $(BUILD)/obj
	@if [ -x $(CUDA_HOME)/bin/nvcc ]; then for k in $(PTX_KERNELS); do \
	  NVCC=$(CUDA_HOME)/bin/nvcc kernels/cuda/gen_ptx.sh $$k $(BUILD)/$${k}_ptx.h && \
	  cmp -s $(BUILD)/$${k}_ptx.h kernels/cuda/$${k}_ptx.h && echo "house: kernels/cuda/$${k}_ptx.h is what gen_ptx.sh makes" || \
	  { echo "house: FAIL kernels/cuda/$${k}_ptx.h differs from kernels/cuda/gen_ptx.sh's (make ptx)"; exit 1; }; done; \
	else echo "house: no nvcc, kernels/cuda/*_ptx.h not checked"; fi
	python3 testing/check_config_list.py --check docs/configuration.md

# The PTX of blasx's CUDA kernels (kernels/cuda/), compiled into the library.
PTX_KERNELS := rowmove trinv mixed
ptx:
	for k in $(PTX_KERNELS); do NVCC=$(CUDA_HOME)/bin/nvcc kernels/cuda/gen_ptx.sh $$k || exit 1; done

# The stages of `make test`, in order.  testing/run_tests.sh (CI) runs each
# as its own `make <stage>` and counts it, so that one failing stage does not
# stop the others (`make -k test` does the same here); a new stage only needs
# its target and a place in this list.
TEST_STAGES = unit isa-paths symbols house netlib ilp64-test lapack sim scalapack sanitize dropin nonuma vendor
test: $(TEST_STAGES)
print-test-stages:
	@echo $(TEST_STAGES)
# The flags a program links with after libblasx.a (as $(BUILD)/libblasx.link).
print-link:
	@echo $(LDLIBS)

demo: $(BUILD)/demo_dgemm
	$(BUILD)/demo_dgemm

# What the build carries (blasx_build_info) and the GPUs found here.
.PHONY: info
info: $(BUILD)/blasx_info
	$(BUILD)/blasx_info
$(BUILD)/blasx_info: benchmarks/blasx_info.c $(BUILD)/libblasx.a
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)

# Vendoring as README describes it (testing/run_vendor.sh): compile-time
# configuration through CONFIG and USER_CONFIG reaching the running code,
# README's link lines with CUDA on, off and static, each linked and run.
.PHONY: vendor
vendor:
	$(PARTS_BEGIN)
	bash testing/run_vendor.sh $(BUILD) config || $(call PART_FAILED,compile-time configuration)
	bash testing/run_vendor.sh $(BUILD) link || $(call PART_FAILED,link lines)
	$(PARTS_END)

clean:
	rm -rf $(BUILD)

# CPU GEMM benchmark (hybrid / static-only / OpenBLAS via dlopen, never linked).
$(BUILD)/bench_cpu: benchmarks/bench_cpu.c $(BUILD)/libblasx.a $(HDRS)
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)

# blasx's public CBLAS names with the GPUs off against OpenBLAS (dlopen), routine by routine.
$(BUILD)/bench_cpu_api: benchmarks/bench_cpu_api.c $(BUILD)/libblasx.a $(HDRS)
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)

# What one tiny call costs (n = 1..64, the Fortran names) against OpenBLAS (dlopen).
$(BUILD)/bench_small_calls: benchmarks/bench_small_calls.c $(BUILD)/libblasx.a $(HDRS)
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)

# The staged copies' stores on the CPU alone: memcpy against non-temporal
# stores, gather and scatter (benchmarks/bench_stage_copy.c; no GPU).
$(BUILD)/bench_stage_copy: benchmarks/bench_stage_copy.c $(BUILD)/libblasx.a $(HDRS)
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)

# An unmodified program's DGEMMs (benchmarks/bench_dropin_gemm.c): linked
# against the system's BLAS like any program (-lblas where libblas.so
# exists, else the libblas.so.3 or libopenblas.so.0 file), not against
# blasx; benchmarks/run_dropin_nvblas.sh runs it under LD_PRELOAD of
# libnvblas.so and of libblasx.so.
DROPIN_BLAS ?= $(firstword $(if $(wildcard /usr/lib/x86_64-linux-gnu/libblas.so /usr/lib64/libblas.so /usr/lib/libblas.so),-lblas) \
  $(wildcard /usr/lib/x86_64-linux-gnu/libblas.so.3 /usr/lib/x86_64-linux-gnu/libopenblas.so.0 /usr/lib64/libopenblas.so.0) -lblas)
$(BUILD)/bench_dropin_gemm: benchmarks/bench_dropin_gemm.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(ARCH) -Wall -Wextra -D_GNU_SOURCE $< -o $@ $(DROPIN_BLAS) -lpthread -lm -ldl

# An unmodified program's Cholesky and LU (benchmarks/bench_dropin_factor.c,
# linked to the system's liblapack.so.3) and cuSOLVER in core
# (benchmarks/bench_cusolver_factor.c, CUDA by dlopen); run side by side by
# benchmarks/run_factor.sh.
$(BUILD)/bench_dropin_factor: benchmarks/bench_dropin_factor.c benchmarks/bench_factor_common.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(ARCH) -Wall -Wextra -D_GNU_SOURCE $< -o $@ -l:liblapack.so.3 -lpthread -lm -ldl
# LAPACK's mixed-precision drivers against the double solvers, their
# names found through the dynamic linker (run with libblasx.so preloaded).
$(BUILD)/bench_mixed: benchmarks/bench_mixed.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(ARCH) -Wall -Wextra -D_GNU_SOURCE $< -o $@ -lm -ldl
# The update pattern of real programs (benchmarks/bench_update_lu.c: a
# blocked LU of plain dtrsm_/dgemm_ calls, linked to the system's
# libblas.so.3); benchmarks/run_update_lu.sh runs it on the host's BLAS and
# under blasx on 1 and 2 GPUs.
$(BUILD)/bench_update_lu: benchmarks/bench_update_lu.c benchmarks/bench_factor_common.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(ARCH) -Wall -Wextra -D_GNU_SOURCE $< -o $@ -l:libblas.so.3 -lpthread -lm -ldl
$(BUILD)/bench_cusolver_factor: benchmarks/bench_cusolver_factor.c benchmarks/bench_factor_common.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(ARCH) -Wall -Wextra -D_GNU_SOURCE $< -o $@ -lpthread -lm -ldl
# One GPU's in-core mixed-precision solves (cuSOLVER's IRS) and copies:
# the bound of LAPACK's mixed drivers over host matrices (issue 46).
$(BUILD)/bench_cusolver_irs: benchmarks/bench_cusolver_irs.c benchmarks/bench_factor_common.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) $(ARCH) -fopenmp -Wall -Wextra -D_GNU_SOURCE -I$(CUDA_HOME)/include $< -o $@ \
	  -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcusolver -lcublas -lcudart -lm

# The performance harness (benchmarks/harness/: main.c and the files of
# harness.h): blasx against in-core cuBLAS, cuBLAS-XT (in libcublas) and
# the measured links, on the GPUs of the node; built without CUDA, or run
# without a GPU, it prints SKIP.
HARNESS_SRCS := $(sort $(wildcard benchmarks/harness/*.c))
.PHONY: harness
harness: $(BUILD)/bench_harness
$(BUILD)/bench_harness: $(HARNESS_SRCS) benchmarks/harness/harness.h $(BUILD)/libblasx.a
	$(CC) $(CFLAGS_COMMON) $(HARNESS_SRCS) $(BUILD)/libblasx.a -o $@ $(LDLIBS)

# Host->device copy-rate microbenchmark (benchmarks/bench_copies.c): tiles
# by cudaMemcpy2DAsync against contiguous copies, alone and beside D2H, a
# DGEMM, a second stream; CUDA runtime and cuBLAS only, no libblasx.a.
.PHONY: copies
copies: $(BUILD)/bench_copies
$(BUILD)/bench_copies: benchmarks/bench_copies.c benchmarks/bench_cuda_check.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $< -o $@ $(CUDA_LIB)

# What the write tracker (internal/memory/host_writes.h) costs against the
# link time it could save (benchmarks/bench_host_writes.c): CPU only.
$(BUILD)/bench_host_writes: benchmarks/bench_host_writes.c $(BUILD)/libblasx.a $(HDRS)
	$(CC) $(CFLAGS_COMMON) $< $(BUILD)/libblasx.a -o $@ $(LDLIBS)

# numpy.linalg's row-by-row copies through scipy_dcopy_64_ (benchmarks/
# bench_numpy_copies.c): run it with LD_PRELOAD=$(BUILD)/libblasx.so.
$(BUILD)/bench_numpy_copies: benchmarks/bench_numpy_copies.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -fopenmp $< -o $@ -ldl

# Seconds to make a CUDA context in a fresh process (benchmarks/ctxprobe.c):
# libcudart opened at run time, no CUDA headers.
$(BUILD)/ctxprobe: benchmarks/ctxprobe.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $< -o $@ -ldl

# The driver's scrub after a large cudaFree (benchmarks/bench_gpu_scrub.c):
# H2D copies in 10 ms windows and a cudaMalloc right after freeing X GiB at
# once or in 2 GiB pieces; CUDA runtime only, no libblasx.a.
.PHONY: scrub
scrub: $(BUILD)/bench_gpu_scrub
$(BUILD)/bench_gpu_scrub: benchmarks/bench_gpu_scrub.c benchmarks/bench_cuda_check.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) $< -o $@ $(CUDA_LIB)
