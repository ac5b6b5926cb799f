"""Repository rules for the system's CUDA and libnuma (nothing is downloaded).

Paths come from the environment, so they can be changed per build:
  bazel build --repo_env=CUDA_PATH=/opt/cuda-13 //...     (default /usr/local/cuda)
  bazel build --repo_env=NUMA_INCLUDE=/opt/numa/include \
              --repo_env=NUMA_LIBDIR=/opt/numa/lib //...
(defaults /usr/include and /usr/lib/x86_64-linux-gnu).  Both rules are
`local`, so they are re-evaluated when Bazel's server restarts (e.g. after
installing libnuma-dev, or by `bazel sync --configure`).

When a library is missing, its targets are still defined but empty, so
`bazel build //...` keeps working; each repository's `config.bzl` says
whether it was found (FOUND = True/False).  @numa//:numa adds the define
BLASX_HAVE_NUMA to whatever depends on it, only when libnuma was found.
"""

def _link_if_exists(ctx, src, dst):
    if ctx.path(src).exists:
        ctx.symlink(src, dst)
        return True
    return False

def _cuda_impl(ctx):
    root = ctx.os.environ.get("CUDA_PATH", "/usr/local/cuda")
    found = ctx.path(root + "/include/cuda_runtime.h").exists
    if found:
        ctx.symlink(root + "/include", "include")
        lib = root + "/lib64" if ctx.path(root + "/lib64").exists else root + "/lib"
        ctx.symlink(lib, "lib")
        build = """
cc_library(
    name = "headers",
    hdrs = glob(["include/**"]),  # cuda_fp16.h includes the extensionless nv/target
    includes = ["include"],
)

cc_library(
    name = "cudart",
    srcs = ["lib/libcudart.so"],
    linkopts = ["-ldl", "-lpthread", "-lrt"],
    deps = [":headers"],
)

cc_library(
    name = "cublas",
    srcs = ["lib/libcublas.so", "lib/libcublasLt.so"],
    deps = [":cudart"],
)
"""
    else:
        print("blasx: no CUDA at %s (set --repo_env=CUDA_PATH=...); @cuda targets are empty" % root)
        build = """
cc_library(name = "headers")

cc_library(name = "cudart")

cc_library(name = "cublas")
"""
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    ctx.file("BUILD", "# CUDA from %s (found: %s).\npackage(default_visibility = [\"//visibility:public\"])\n%s" %
                      (root, found, build))
    ctx.file("config.bzl", "FOUND = %s\nPATH = %r\n" % (found, root))

cuda_repository = repository_rule(
    implementation = _cuda_impl,
    environ = ["CUDA_PATH"],
    local = True,
)

def _numa_impl(ctx):
    inc = ctx.os.environ.get("NUMA_INCLUDE", "/usr/include")
    libdir = ctx.os.environ.get("NUMA_LIBDIR", "/usr/lib/x86_64-linux-gnu")
    found = ctx.path(inc + "/numa.h").exists and ctx.path(libdir + "/libnuma.so").exists
    if found:
        for h in ["numa.h", "numaif.h", "numacompat1.h"]:
            _link_if_exists(ctx, inc + "/" + h, "include/" + h)
        ctx.symlink(libdir + "/libnuma.so", "lib/libnuma.so")
        build = """
cc_library(
    name = "numa",
    srcs = ["lib/libnuma.so"],
    hdrs = glob(["include/*.h"]),
    defines = ["BLASX_HAVE_NUMA"],
    includes = ["include"],
)
"""
    else:
        print("blasx: no libnuma (%s/numa.h, %s/libnuma.so); @numa//:numa is empty" % (inc, libdir))
        build = """
cc_library(name = "numa")
"""
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    ctx.file("BUILD", "# libnuma from %s, %s (found: %s).\npackage(default_visibility = [\"//visibility:public\"])\n%s" %
                      (inc, libdir, found, build))
    ctx.file("config.bzl", "FOUND = %s\n" % found)

numa_repository = repository_rule(
    implementation = _numa_impl,
    environ = ["NUMA_INCLUDE", "NUMA_LIBDIR"],
    local = True,
)
