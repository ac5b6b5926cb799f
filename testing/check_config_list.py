#!/usr/bin/env python3
"""testing/check_config_list.py -- the compile-time settings table of the
manual (docs/configuration.md, linked from README.md), from
blasx/config_list.h (the one list of blasx's compile-time settings).

  python3 testing/check_config_list.py            prints the table (markdown,
                                                  README.md's format), one row
                                                  per setting, in list order
  python3 testing/check_config_list.py --check [README.md]
                                                  checks the list's shape and
                                                  README.md's table against it

The list: each setting is four lines (see the banner of config_list.h),

  #ifndef BLASX_CFG_NAME
  #define BLASX_CFG_NAME default   /* optional comment */
  #endif
  BLASX_CFG_X(NAME, type, min, max, "unit", group, field, "doc")

A row: | `BLASX_CFG_NAME` | default | doc (unit, range; `cfg.group.field`) |.
The check: README's rows name the same settings as the list (set-equal;
grouped names such as `BLASX_CFG_X_A`, `_B` or `..._{D,S}{MR,NR}` are
expanded; the derived names config.h defines from others, such as
BLASX_CFG_TILE, may appear too), each setting in a row of its own whose
default cell is the list's and whose meaning ends with the list's
"(unit, range; `cfg.group.field`)"; the doc text before it is free.  Every
difference is printed; the exit status is 1 on any, 2 when the list itself
is malformed.  `make house` runs the check on docs/configuration.md.
"""
import itertools
import os
import re
import sys

LIST = "blasx/config_list.h"
CONFIG = "blasx/config.h"
HEADER = ["| setting | default | meaning |", "|---|---|---|"]
SECTION = "## Compile-time configuration"
TYPES = ("int", "long long")
NO_MAX = ("INT_MAX", "LLONG_MAX")
ISA_NAMES = ("AVX-512", "AVX2", "portable")


class ListError(Exception):
    pass


def split_args(text):
    """Top-level comma-separated arguments of a macro call's text."""
    out, depth, cur, quote = [], 0, "", False
    for i, c in enumerate(text):
        if quote:
            cur += c
            if c == '"' and text[i - 1] != "\\":
                quote = False
        elif c == '"':
            quote, cur = True, cur + c
        elif c in "({":
            depth, cur = depth + 1, cur + c
        elif c in ")}":
            depth, cur = depth - 1, cur + c
        elif c == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    out.append(cur.strip())
    return out


def unquote(s, what, name):
    if not (len(s) >= 2 and s[0] == '"' and s[-1] == '"'):
        raise ListError("%s of %s is not a string literal: %s" % (what, name, s))
    return s[1:-1].replace('\\"', '"')


def parse_list(path=LIST):
    """The settings of the list, in order: dicts of name, type, default, lo,
    hi, unit, group, field, doc, line."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, seen, fields, i = [], set(), set(), 0
    while i < len(lines):
        m = re.match(r"#ifndef BLASX_CFG_(\w+)\s*$", lines[i])
        if not m or m.group(1) == "X":
            if lines[i].startswith("BLASX_CFG_X("):
                raise ListError("%s:%d: an entry without its #ifndef/#define/#endif default" % (path, i + 1))
            i += 1
            continue
        name = m.group(1)
        d = re.match(r"#define BLASX_CFG_%s (.+?)\s*(/\*.*\*/)?\s*$" % name, lines[i + 1] if i + 1 < len(lines) else "")
        x = re.match(r"BLASX_CFG_X\((.*)\)\s*$", lines[i + 3] if i + 3 < len(lines) else "")
        if not d or lines[i + 2].strip() != "#endif" or not x:
            raise ListError("%s:%d: BLASX_CFG_%s is not '#ifndef / #define / #endif / BLASX_CFG_X(...)'"
                            % (path, i + 1, name))
        args = split_args(x.group(1))
        if len(args) != 8:
            raise ListError("%s:%d: BLASX_CFG_X of %s has %d arguments, not 8" % (path, i + 4, name, len(args)))
        xname, ctype, lo, hi, unit, group, field, doc = args
        if xname != name:
            raise ListError("%s:%d: the entry of BLASX_CFG_%s names %s" % (path, i + 4, name, xname))
        if ctype not in TYPES:
            raise ListError("%s:%d: type of %s is %s, not one of %s" % (path, i + 4, name, ctype, TYPES))
        if name in seen or (group, field) in fields:
            raise ListError("%s:%d: %s or cfg.%s.%s declared twice" % (path, i + 4, name, group, field))
        seen.add(name)
        fields.add((group, field))
        out.append(dict(name=name, type=ctype, default=d.group(1), lo=lo, hi=hi, unit=unquote(unit, "unit", name),
                        group=group, field=field, doc=unquote(doc, "doc", name), line=i + 4))
        i += 4
    if not out:
        raise ListError("%s: no settings" % path)
    return out


def number(text):
    """A C integer literal's text without its suffix, or None."""
    m = re.fullmatch(r"\(?\s*(-?\d+)(?:[uU]?[lL]{0,2}|[lL]{0,2}[uU]?)\s*\)?", text.strip())
    return m.group(1) if m else None


def show_value(text):
    """A value for the table: a number without its suffix, a setting in backticks."""
    n = number(text)
    if n is not None:
        return n
    return re.sub(r"\b(BLASX_CFG_\w+)\b", r"`\1`", text)


def show_bound(text):
    n = number(text)
    if n is not None:
        v = int(n)
        if v >= 1 << 20 and (v & (v - 1)) == 0:
            return "2^%d" % (v.bit_length() - 1)
        if v >= 1 << 20 and ((v + 1) & v) == 0:
            return "2^%d-1" % v.bit_length()
    return show_value(text)


def default_text(s):
    m = re.fullmatch(r"BLASX_CPU_BY_ISA\((.*)\)", s["default"])
    if m:
        vals = split_args(m.group(1))
        return ", ".join("%s (%s)" % (show_value(v), isa) for v, isa in zip(vals, ISA_NAMES))
    return show_value(s["default"])


def range_text(s):
    lo, hi = s["lo"].strip(), s["hi"].strip()
    if hi in NO_MAX:
        return "at least " + show_bound(lo)
    if lo == hi:
        return show_bound(lo) + " only"
    if number(lo) == "0" and number(hi) == "1":
        return "0 or 1"
    return "%s to %s" % (show_bound(lo), show_bound(hi))


def trailer(s):
    return "(%s, %s; `cfg.%s.%s`)" % (s["unit"], range_text(s), s["group"], s["field"])


def row(s):
    doc = s["doc"].replace("|", "\\|")
    return "| `BLASX_CFG_%s` | %s | %s %s |" % (s["name"], default_text(s), doc, trailer(s))


def table(settings):
    return "\n".join(HEADER + [row(s) for s in settings]) + "\n"


def derived_names(path=CONFIG):
    """BLASX_CFG_* names config.h tests or defines besides the list's (BLASX_CFG_TILE, former names)."""
    text = open(path, encoding="utf-8").read()
    return set(re.findall(r"(?:#ifdef |defined\()BLASX_CFG_(\w+)", text))


def readme_table(path):
    """(line number, cells) of each row of README's compile-time table."""
    lines = open(path, encoding="utf-8").read().split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == SECTION)
        head = next(i for i in range(start, len(lines)) if lines[i].strip() == HEADER[0])
    except StopIteration:
        return None
    rows = []
    for i in range(head + 2, len(lines)):
        if not lines[i].startswith("|"):
            break
        cells = [c.strip() for c in lines[i].strip().strip("|").split(" | ")]
        rows.append((i + 1, cells[:2] + [" | ".join(cells[2:])]))
    return rows


def expand_names(cell, known):
    """The BLASX_CFG_* names of a README setting cell, abbreviations expanded."""
    out, last = [], None
    for tok in re.findall(r"`([^`]+)`", cell):
        for part in re.split(r"\s*/\s*", tok.strip()):
            part = part.strip()
            if part.startswith("..."):
                part = part[3:]
            if part.startswith("_") and last:
                cands = [last[:j] + part for j in range(len(last), 9, -1) if j == len(last) or last[j] == "_"]
                part = next((c for c in cands if c[len("BLASX_CFG_"):] in known), cands[-1] if cands else part)
            if not part.startswith("BLASX_CFG_"):
                continue
            groups = re.findall(r"\{([^}]*)\}", part)
            if groups:
                stem = re.split(r"\{", part)[0]
                names = [stem + "".join(p) for p in itertools.product(*[g.split(",") for g in groups])]
            else:
                names = [part]
            names = [n for n in names if re.fullmatch(r"BLASX_CFG_\w+", n)]
            out += names
            last = names[-1] if names else last
    return [n[len("BLASX_CFG_"):] for n in out]


def check(settings, readme):
    by_name = {s["name"]: s for s in settings}
    derived = derived_names() - set(by_name)
    rows = readme_table(readme)
    if rows is None:
        return ["%s: no '%s' table under '%s'" % (readme, HEADER[0], SECTION)]
    diffs, covered = [], {}
    for line, cells in rows:
        names = expand_names(cells[0], by_name)
        settings_here = [n for n in names if n in by_name]
        for n in names:
            if n not in by_name and n not in derived:
                diffs.append("%s:%d: BLASX_CFG_%s is not a setting of %s" % (readme, line, n, LIST))
        for n in settings_here:
            if n in covered:
                diffs.append("%s:%d: BLASX_CFG_%s again (also line %d)" % (readme, line, n, covered[n]))
            covered.setdefault(n, line)
        if len(settings_here) > 1:
            diffs.append("%s:%d: one row for %d settings (%s): the list has a row each"
                         % (readme, line, len(settings_here), ", ".join(settings_here)))
        elif len(settings_here) == 1:
            s = by_name[settings_here[0]]
            want = "`BLASX_CFG_%s`" % s["name"]
            if cells[0] != want:
                diffs.append("%s:%d: setting cell '%s', the list's: '%s'" % (readme, line, cells[0], want))
            if cells[1] != default_text(s):
                diffs.append("%s:%d: BLASX_CFG_%s default '%s', the list's: '%s'"
                             % (readme, line, s["name"], cells[1], default_text(s)))
            if not cells[2].endswith(trailer(s)):
                diffs.append("%s:%d: BLASX_CFG_%s meaning does not end with the list's unit and range '%s'"
                             % (readme, line, s["name"], trailer(s)))
    for s in settings:
        if s["name"] not in covered:
            diffs.append("%s: no row for BLASX_CFG_%s (%s:%d)" % (readme, s["name"], LIST, s["line"]))
    return diffs


def main(argv):
    readme = os.path.abspath(argv[2]) if len(argv) > 2 else None
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    try:
        settings = parse_list()
    except ListError as e:
        print("check_config_list: FAIL " + str(e))
        return 2
    if len(argv) > 1 and argv[1] == "--check":
        readme = "README.md" if not readme else readme if os.path.relpath(readme).startswith("..") else os.path.relpath(readme)
        diffs = check(settings, readme)
        for d in diffs:
            print("check_config_list: " + d)
        if diffs:
            print("check_config_list: FAIL %d differences between %s's compile-time table and %s "
                  "(python3 testing/check_config_list.py prints the table)" % (len(diffs), readme, LIST))
            return 1
        print("check_config_list: %s's compile-time table matches %s (%d settings)" % (readme, LIST, len(settings)))
        return 0
    if len(argv) > 1:
        print(__doc__.strip().split("\n\n")[1])
        return 2
    sys.stdout.write(table(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
