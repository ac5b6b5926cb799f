"""Every external repository blasx's Bazel build needs, all local (no download).

One source of truth for blasx's own WORKSPACE and for any other workspace
that uses blasx:

    local_repository(name = "blasx", path = "/path/to/blasx")
    load("@blasx//third_party:deps.bzl", "blasx_dependencies")
    blasx_dependencies()

blasx_dependencies() declares, unless the workspace already defines that
name (so a workspace may bring its own, e.g. a real rules_cc):
  @rules_cc, @rules_java, @remote_coverage_tools
      the offline stand-ins under third_party/ of this blasx checkout: the
      names Bazel 4 would otherwise download.  Bazel 4.2.3 appends a default
      WORKSPACE suffix after the workspace's own file, where rules_cc and
      rules_java are `maybe(http_archive, ...)`, so the definitions here win
      wherever the call stands, as long as nothing loads from them earlier.
      remote_coverage_tools is a plain http_archive there, so it replaces
      the stand-in (`bazel query //external:remote_coverage_tools`);
      `bazel test` never fetches it, only `bazel coverage` (not offline);
  @cuda, @numa
      the system's CUDA toolkit and libnuma (third_party/local_repos.bzl;
      paths via --repo_env=CUDA_PATH, NUMA_INCLUDE, NUMA_LIBDIR).
blasx's BUILD files use these exact names ("@rules_cc//cc:defs.bzl",
"@cuda//:cublas", "@numa//:numa"): in Bazel 4 they resolve in the main
workspace's namespace, so they must be defined there under these names.
Call it before anything in WORKSPACE loads from @rules_cc or @rules_java
(such a load fetches the download first).
"""

load("//third_party:local_repos.bzl", "cuda_repository", "numa_repository")

# A file of this blasx checkout: Label() at the top level of a .bzl resolves
# in the repository of the .bzl (@blasx in a consumer, the main repository
# in blasx itself), so the stand-ins are found wherever blasx lives, without
# the consumer repeating blasx's path.
_THIRD_PARTY = Label("//third_party:BUILD")

def _stand_in_impl(ctx):
    src = ctx.path(_THIRD_PARTY).dirname.get_child(ctx.attr.dir)
    if not src.get_child("WORKSPACE").exists:
        fail("blasx: no stand-in repository at %s" % src)
    for entry in src.readdir():
        ctx.symlink(entry, entry.basename)

_stand_in = repository_rule(
    implementation = _stand_in_impl,
    attrs = {"dir": attr.string(mandatory = True, doc = "subdirectory of third_party/")},
    # Re-linked at each server start (cheap), so the stand-ins always follow
    # the checkout's files.
    local = True,
    doc = "The directory third_party/<dir> of this blasx checkout as a repository (symlinks).",
)

STAND_INS = ["rules_cc", "rules_java", "remote_coverage_tools"]

def blasx_dependencies():
    """Declares @rules_cc, @rules_java, @remote_coverage_tools, @cuda and @numa.

    Each only when the workspace has not defined that name already.
    """
    for name in STAND_INS:
        if not native.existing_rule(name):
            _stand_in(name = name, dir = name)
    if not native.existing_rule("cuda"):
        cuda_repository(name = "cuda")
    if not native.existing_rule("numa"):
        numa_repository(name = "numa")
