"""Macros shared by blasx's BUILD files: one source list, several variants."""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_library")
load("@cuda//:config.bzl", CUDA_FOUND = "FOUND")

# The library's sources, relative to the repository root (//:BUILD.bazel).
LIB_DIRS = ["blasx", "internal", "kernels", "numa"]

COPTS = [
    "-std=c11",
    "-O3",
    # complex * and / as in Fortran (reference BLAS): no C99 Annex G NaN
    # recovery, no __muldc3 calls in the kernels
    "-fcx-fortran-rules",
    "-march=native",
    "-Wall",
    "-Wextra",
    "-fvisibility=hidden",
    "-D_GNU_SOURCE",
]

LINKOPTS = ["-lpthread", "-lm", "-ldl"]

# The project version (blasx/blasx_status.h BLASX_VERSION_MAJOR/MINOR; Starlark
# cannot read it there): the shared objects' SONAME is libblasx.so.MAJOR, as
# with the Makefile.  third_party/install.sh refuses a libblasx.so whose
# SONAME does not match blasx_status.h, so //testing:bazel_install catches a drift.
VERSION_MAJOR = "0"
VERSION_MINOR = "1"
SONAME = "libblasx.so." + VERSION_MAJOR

# The "tiny" variant: every call goes through tiling (Makefile TINY_CONFIG).
TINY_DEFINES = ["BLASX_CFG_TILE=3", "BLASX_CFG_TRSM_INV_MIN=1", "BLASX_CFG_LAPACK_MIXED_NB=2", "BLASX_CFG_LAPACK_MIXED_GPU_NB=40", "BLASX_CFG_LAPACK_OOC_MIN_W=2", "BLASX_CFG_LAPACK_TEAM_MIN_N=2", "BLASX_CFG_OFFLOAD_MIN_FLOPS=0", "BLASX_CFG_SMALL_MODE=0", "BLASX_CFG_CPU_PAR_MIN_FLOPS=1000000000000000000LL", "BLASX_FAULT_INJECTION"]

# Installed files besides the libraries (make install, //:install, and the
# test of the latter in testing/).
PUBLIC_FILES = [
    "blasx/blasx.h",
    "blasx/blasx_async.h",
    "blasx/blasx_status.h",
    "blasx/blasx_cblas.h",
    "blasx/blasx_f77.h",
    "blasx/config.h",
    "blasx/config_check.h",
    "blasx/config_types.h",
    "blasx/config_list.h",
    "blasx/blasx.pc.in",
    "blasx/blasxConfig.cmake.in",
    "blasx/blasxConfigVersion.cmake.in",
]

def blasx_library(name, defines = [], visibility = ["//visibility:public"]):
    """cc_library `name` from the shared sources, plus `lib<name>.so` and `lib<name>.a`.

    The cc_library itself is `<name>_lib` (its own implicit outputs
    lib<name>_lib.a/.so would otherwise clash with the names above); `name`
    is an alias of it.

    `defines` propagate to dependents (the tests of a variant see the same
    configuration, as with the Makefile).  Headers are found from the
    repository root (#include "blasx/config.h"): Bazel puts the workspace
    root on the quote include path of every target.
    """
    lib = name + "_lib"
    native.alias(name = name, actual = lib, visibility = visibility)
    cc_library(
        name = lib,
        srcs = native.glob([d + "/**/*.c" for d in LIB_DIRS]),
        hdrs = native.glob([d + "/**/*.h" for d in LIB_DIRS]),
        # Templates included several times per .c file (api.inc, ...).
        textual_hdrs = native.glob([d + "/**/*.inc" for d in LIB_DIRS]),
        copts = COPTS,
        # The CUDA backend is built when the toolkit is found, as with make.
        defines = defines + (["BLASX_HAVE_CUDA"] if CUDA_FOUND else []),
        linkopts = LINKOPTS,
        deps = [":config", "@numa//:numa"] + (["@cuda//:cublas"] if CUDA_FOUND else []),
        alwayslink = True,  # else lib<name>.so would drop every unreferenced object
        visibility = visibility,
    )

    # Shared object for the Netlib testers (LD_PRELOAD): the whole library inside.
    cc_binary(
        name = "lib%s.so" % name,
        linkshared = 1,
        linkstatic = 1,
        # exports: the level-3 names and the native API (blasx/exports.map)
        additional_linker_inputs = ["//:blasx/exports.map"],
        # SONAME libblasx.so.MAJOR for every variant (the same ABI): a program
        # linked with -lblasx records it (installed as a link, install.sh).
        linkopts = ["-Wl,--version-script=$(location //:blasx/exports.map)", "-Wl,-soname," + SONAME],
        deps = [lib],
        visibility = visibility,
    )

    # The static archive under an obvious name: bazel build //:lib<name>.a
    cc_static_archive(
        name = "lib%s.a" % name,
        lib = lib,
        visibility = visibility,
    )

def _archive_impl(ctx):
    lib = None
    for li in ctx.attr.lib[CcInfo].linking_context.linker_inputs.to_list():
        if li.owner != ctx.attr.lib.label:
            continue
        for l in li.libraries:
            lib = l.static_library or l.pic_static_library or lib
    if lib == None:
        fail("%s has no static archive" % ctx.attr.lib.label)
    out = ctx.actions.declare_file(ctx.attr.name)
    ctx.actions.run_shell(
        inputs = [lib],
        outputs = [out],
        command = 'cp "$1" "$2"',
        arguments = [lib.path, out.path],
        mnemonic = "CopyArchive",
    )
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

cc_static_archive = rule(
    implementation = _archive_impl,
    attrs = {"lib": attr.label(providers = [CcInfo])},
    doc = "The .a of a cc_library, copied under the rule's name.",
)

def _config_impl(ctx):
    defines = [d[2:] if d.startswith("-D") else d for d in ctx.build_setting_value if d]
    return [CcInfo(compilation_context = cc_common.create_compilation_context(
        defines = depset(defines),
    ))]

blasx_config = rule(
    implementation = _config_impl,
    build_setting = config.string_list(flag = True),
    doc = """User configuration: BLASX_CFG_* defines for the library and its users.
    bazel build --//:config=BLASX_CFG_TILE=512,BLASX_CFG_CPU_POOL_THREADS=8 //...""",
)
