#!/usr/bin/env python3
"""testing/check_house.py OBJDIR -- the house rules of the library, checked.

  1. no .c/.h/.inc file in internal/, and no source or script in
     testing/ and benchmarks/, over 600 lines;
  2. no function of the library (blasx/, internal/, kernels/, numa/) over
     120 lines (signature to closing brace);
  3. getenv in one file of the library (internal/base/settings.c);
  4. no include circle between the library's files;
  5. no call circle between the library's files: from the object files in
     OBJDIR (nm), file A calls file B when A's object uses a symbol B's
     defines;
  6. no call circle between the folders (internal/'s subfolders and the
     other top-level folders), and prints their layer order;
  7. the file indexes of internal/README.md and benchmarks/README.md
     ("The files": a section per folder) name every source file of their
     folder, and only files that exist.

Prints one line per violation and a summary "check_house: N passed, M failed";
exits non-zero on any failure.  Run: make house (after make lib).
"""
import os
import re
import subprocess
import sys

LIB_DIRS = ["blasx", "internal", "kernels", "numa"]
MAX_FILE_LINES = 600
SIZED_DIRS = ["testing", "benchmarks"]  # held to MAX_FILE_LINES too (not results/)
SIZED_EXTS = (".c", ".h", ".inc", ".py", ".sh")
MAX_FUNC_LINES = 120
GETENV_FILE = "internal/base/settings.c"

passed = failed = 0


def check(ok, msg):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("check_house: FAIL " + msg)


def lib_files(exts):
    out = []
    for d in LIB_DIRS:
        for root, _, files in os.walk(d):
            out += [os.path.join(root, f) for f in files if f.endswith(exts)]
    return sorted(out)


def strip_code(text):
    """Comments and string/char literals blanked, newlines kept."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    pat = r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\''
    return re.sub(pat, blank, text, flags=re.S)


def functions(path):
    """(name, first line, lines) of each top-level brace block that follows a ')'."""
    code = strip_code(open(path, encoding="utf-8", errors="replace").read())
    code = re.sub(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", lambda m: re.sub(r"[^\n]", " ", m.group(0)), code, flags=re.M)
    out, depth, start, i = [], 0, None, 0
    last_stmt_end = 0  # index after the last ';' or '}' at depth 0
    while i < len(code):
        c = code[i]
        if c == "{":
            if depth == 0:
                head = code[last_stmt_end:i].strip()
                if head.endswith(")") and "=" not in head.split("(")[0]:
                    m = re.search(r"(\w+)\s*\(", head)
                    start = (m.group(1) if m else "?", code.count("\n", 0, last_stmt_end + code[last_stmt_end:i].index(head[0])) + 1)
                else:
                    start = None
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if start:
                    out.append((start[0], start[1], code.count("\n", 0, i) + 1 - start[1] + 1))
                start = None
                last_stmt_end = i + 1
        elif c == ";" and depth == 0:
            last_stmt_end = i + 1
        i += 1
    return out


def find_cycles(graph):
    """Strongly connected components with more than one node (Tarjan)."""
    index, low, on, stack, sccs, n = {}, {}, set(), [], [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sccs


def include_graph():
    g = {}
    for f in lib_files((".c", ".h", ".inc")):
        text = open(f, encoding="utf-8", errors="replace").read()
        g[f] = {m for m in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, flags=re.M)
                if m.split("/")[0] in LIB_DIRS and m != f}
    return g


def call_graph(objdir):
    defs, uses = {}, {}
    for root, _, files in os.walk(objdir):
        for f in files:
            if not f.endswith(".o"):
                continue
            obj = os.path.join(root, f)
            src = os.path.relpath(obj, objdir)[:-2] + ".c"
            if src.split("/")[0] not in LIB_DIRS:
                continue
            nm = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
            for line in nm.splitlines():
                parts = line.split()
                if len(parts) == 2 and parts[0] == "U":
                    uses.setdefault(src, set()).add(parts[1])
                elif len(parts) == 3 and parts[1] in "TDBRCVW" and parts[1].isupper():
                    defs[parts[2]] = src
    g = {}
    for src, syms in uses.items():
        g[src] = {defs[s] for s in syms if s in defs and defs[s] != src}
    for src in set(defs.values()):
        g.setdefault(src, set())
    return g


INDEX_EXTS = (".c", ".h", ".inc", ".cu", ".sh", ".map", ".in", ".py", ".bazel")
INDEXES = ["internal/README.md", "benchmarks/README.md"]


def index_drift(readme):
    """(folder, files missing from its index, names in it that are not
    files) for each '### <folder>/ -- ...' section of readme's "The files"
    part: the backquoted names with an extension of INDEX_EXTS, against
    the folder's own files (subfolders have sections of their own)."""
    text = open(readme, encoding="utf-8").read()
    part = text.split("\n## The files", 1)[-1].split("\n## ", 1)[0]
    out = []
    for sec in re.split(r"\n### ", part)[1:]:
        m = re.match(r"([\w./]+)/ --", sec)
        if not m or not os.path.isdir(m.group(1)):
            continue
        folder = m.group(1)
        named = set(n for n in re.findall(r"`([\w.]+)`", sec) if n.endswith(INDEX_EXTS))
        files = set(f for f in os.listdir(folder) if f.endswith(INDEX_EXTS) and os.path.isfile(os.path.join(folder, f)))
        below = set(f for _, _, fs in os.walk(folder) for f in fs)  # a subfolder's files the section may name
        out.append((folder + "/", sorted(files - named), sorted(named - below)))
    return out


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    objdir = sys.argv[1] if len(sys.argv) > 1 else "build/obj"

    sized = [f for f in lib_files((".c", ".h", ".inc")) if f.startswith("internal/")]
    for d in SIZED_DIRS:
        for root, _, files in os.walk(d):
            if "/results" not in root:
                sized += [os.path.join(root, f) for f in files if f.endswith(SIZED_EXTS)]
    for f in sorted(sized):
        n = open(f, encoding="utf-8", errors="replace").read().count("\n")
        check(n <= MAX_FILE_LINES, "%s: %d lines (at most %d)" % (f, n, MAX_FILE_LINES))

    longest = (0, "")
    for f in lib_files((".c", ".h", ".inc")):
        for name, line, n in functions(f):
            longest = max(longest, (n, "%s:%d %s" % (f, line, name)))
            check(n <= MAX_FUNC_LINES, "%s:%d: function %s is %d lines (at most %d)" % (f, line, name, n, MAX_FUNC_LINES))
    print("check_house: longest function: %s, %d lines" % (longest[1], longest[0]))

    with_getenv = [f for f in lib_files((".c", ".h", ".inc"))
                   if re.search(r"\bgetenv\s*\(", strip_code(open(f, encoding="utf-8", errors="replace").read()))]
    check(with_getenv == [GETENV_FILE], "getenv in %s (only %s may read the environment)" % (with_getenv, GETENV_FILE))

    for comp in find_cycles(include_graph()):
        check(False, "include circle: " + " <-> ".join(comp))
    check(True, "include graph")

    if not os.path.isdir(objdir):
        check(False, "no object files in %s (run make lib first)" % objdir)
    else:
        cg = call_graph(objdir)
        check(len(cg) > 5, "call graph from %s has %d files" % (objdir, len(cg)))
        for comp in find_cycles(cg):
            check(False, "call circle: " + " <-> ".join(comp))
        # the folders of internal/ in call order, bottom first
        fg = {}
        for a, bs in cg.items():
            fa = "/".join(a.split("/")[:2]) if a.startswith("internal/") else a.split("/")[0]
            for b in bs:
                fb = "/".join(b.split("/")[:2]) if b.startswith("internal/") else b.split("/")[0]
                if fa != fb:
                    fg.setdefault(fa, set()).add(fb)
            fg.setdefault(fa, set())
        cyc = find_cycles(fg)
        for comp in cyc:
            check(False, "folders calling each other: " + " <-> ".join(comp))
        if not cyc:
            order, done = [], set()
            while len(done) < len(fg):
                layer = sorted(f for f in fg if f not in done and fg[f] <= done)
                order.append(" ".join(layer))
                done |= set(layer)
            print("check_house: layers, bottom up: " + " | ".join(order))

    for readme in INDEXES:
        for folder, missing, extra in index_drift(readme):
            check(not missing, "%s's %s index lacks %s" % (readme, folder, ", ".join(missing)))
            check(not extra, "%s's %s index names %s, not in the folder" % (readme, folder, ", ".join(extra)))

    print("check_house: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
