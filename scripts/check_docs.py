#!/usr/bin/env python3
"""Builds the API reference with Doxygen and fails on any undocumented public symbol.

    python3 scripts/check_docs.py [--out DIR] [--html] [--doxygen PROGRAM]

Public symbols are everything at file scope in include/hilo3d/*.h: functions, types (struct,
union, enum, typedef, function pointer typedef), macros, and inside them every struct/union
field and every enum value. Names with a double underscore (HL__*, HILO3D__*, hl__*) are the
headers' internal helpers and are left out (docs/Doxyfile excludes them too), as are the include
guards.

Doxygen (docs/Doxyfile) writes XML into DIR/xml (and HTML into DIR/html with --html); this
script reads the XML and lists, as FILE:LINE, each symbol whose documentation is empty. So that
a declaration Doxygen fails to parse cannot slip through, the headers are also scanned on their
own for the names they declare at file scope (functions marked HL_API, typedefs, tagged types,
macros); a name the XML lacks is reported as well. Any other Doxygen warning (an unknown command,
a broken reference, an unsupported HTML tag) in a header fails the check too; warnings about
README.md (the front page of the HTML) are printed as notes. Exit status 0 only when all symbols
are documented and Doxygen warned about nothing in the headers.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = os.path.join(ROOT, "include", "hilo3d")


def internal(name):
    return "__" in name


def version():
    text = open(os.path.join(HEADERS, "version.h")).read()
    parts = [re.search(r"#define HILO3D_VERSION_%s (\d+)" % k, text).group(1) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


def run_doxygen(program, out, html):
    os.makedirs(out, exist_ok=True)
    for sub in ("xml", "html"):
        shutil.rmtree(os.path.join(out, sub), ignore_errors=True)
    log = os.path.join(out, "warnings.log")
    config = open(os.path.join(ROOT, "docs", "Doxyfile")).read()
    config += "\n".join([
        "",
        'OUTPUT_DIRECTORY = "%s"' % out,
        'WARN_LOGFILE = "%s"' % log,
        "PROJECT_NUMBER = %s" % version(),
        "GENERATE_HTML = %s" % ("YES" if html else "NO"),
        "GENERATE_XML = YES",
        "",
    ])
    proc = subprocess.run([program, "-"], input=config, text=True, cwd=ROOT, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout)
        sys.exit("docs: %s failed with status %d" % (program, proc.returncode))
    return open(log).read() if os.path.exists(log) else ""


def text_of(node):
    return "".join(node.itertext()).strip() if node is not None else ""


def documented(node):
    return bool(text_of(node.find("briefdescription")) or text_of(node.find("detaileddescription")))


def relpath(path):
    path = path if os.path.isabs(path) else os.path.join(ROOT, "include", path)
    return os.path.relpath(path, ROOT)


def location(node):
    loc = node.find("location")
    if loc is None:
        return "?", 0
    return relpath(loc.get("file")), int(loc.get("line", "1"))


def public_file(path):
    return path.startswith("include" + os.sep + "hilo3d" + os.sep) and path.endswith(".h")


def read_xml(xml_dir):
    """(symbols, undocumented): symbols maps name -> kind for every public symbol Doxygen saw;
    undocumented is a list of (file, line, kind, name)."""
    symbols, undocumented = {}, []

    def note(node, kind, name):
        symbols.setdefault(name, kind)
        if not documented(node):
            f, line = location(node)
            undocumented.append((f, line, kind, name))

    index = ET.parse(os.path.join(xml_dir, "index.xml")).getroot()
    for compound in index.findall("compound"):
        kind = compound.get("kind")
        if kind not in ("file", "struct", "union"):
            continue
        root = ET.parse(os.path.join(xml_dir, compound.get("refid") + ".xml")).getroot()
        cdef = root.find("compounddef")
        f, _ = location(cdef)
        if not public_file(f):
            continue
        cname = text_of(cdef.find("compoundname"))
        if kind in ("struct", "union"):
            note(cdef, kind, cname)
        else:
            note(cdef, "file", cname)  # the @file comment at the top of the header
        for member in cdef.iter("memberdef"):
            mkind = member.get("kind")
            name = text_of(member.find("name"))
            if internal(name):
                continue
            if kind == "file":
                if mkind not in ("function", "typedef", "enum", "define", "variable"):
                    continue
                note(member, {"define": "macro"}.get(mkind, mkind), name)
                for value in member.findall("enumvalue"):
                    vname = text_of(value.find("name"))
                    symbols.setdefault(vname, "enum value")
                    if not documented(value):
                        vf, vline = location(member)
                        owner = "(anonymous enum)" if not name or name.startswith("@") else name
                        undocumented.append((vf, vline, "enum value", "%s::%s" % (owner, vname)))
            elif mkind == "variable":
                note(member, "field", "%s.%s" % (cname, name))
    return symbols, undocumented


def strip_comments(text):
    # Keeps the line structure so that positions map back to lines.
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def scan_headers():
    """Names each header declares at file scope, found without Doxygen: (file, line, kind, name)."""
    found = []
    for base in sorted(os.listdir(HEADERS)):
        if not base.endswith(".h"):
            continue
        path = os.path.join(HEADERS, base)
        rel = os.path.relpath(path, ROOT)
        text = strip_comments(open(path).read())
        guard = re.search(r"#ifndef\s+(\w+)\s*\n\s*#define\s+\1\b", text)
        guard = guard.group(1) if guard else None

        def line_of(pos):
            return text.count("\n", 0, pos) + 1

        for m in re.finditer(r"^\s*#\s*define\s+(\w+)", text, re.M):
            if m.group(1) != guard and not internal(m.group(1)):
                found.append((rel, line_of(m.start(1)), "macro", m.group(1)))
        for m in re.finditer(r"\bHL_API\b[^;{]*?\b(\w+)\s*\(", text):
            found.append((rel, line_of(m.start(1)), "function", m.group(1)))
        for m in re.finditer(r"\btypedef\s+(struct|union|enum)\s+(\w+)\s*\{", text):
            found.append((rel, line_of(m.start(2)), m.group(1), m.group(2)))
        for m in re.finditer(r"\btypedef\s+(?:struct|union|enum)\s+\w+\s+(\w+)\s*;", text):
            found.append((rel, line_of(m.start(1)), "typedef", m.group(1)))
        for m in re.finditer(r"\btypedef\b[^;{}]*?\(\s*\*\s*(\w+)\s*\)", text):
            found.append((rel, line_of(m.start(1)), "typedef", m.group(1)))
    return [s for s in found if not internal(s[3])]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "docs"), help="output folder (default build/docs)")
    ap.add_argument("--html", action="store_true", help="write the HTML reference too (DIR/html/index.html)")
    ap.add_argument("--doxygen", default="doxygen", help="the doxygen program")
    args = ap.parse_args()
    program = shutil.which(args.doxygen)
    if not program:
        sys.exit("docs: %s not found (scripts/bootstrap.sh installs Debian's doxygen)" % args.doxygen)
    out = os.path.abspath(args.out)
    warnings = run_doxygen(program, out, args.html)
    symbols, undocumented = read_xml(os.path.join(out, "xml"))

    problems = ["%s:%d: %s %s is not documented" % u for u in sorted(set(undocumented))]
    for f, line, kind, name in scan_headers():
        if name not in symbols:
            problems.append("%s:%d: %s %s is declared but Doxygen did not see it" % (f, line, kind, name))
    other, notes = [], []
    for w in warnings.splitlines():
        w = w.strip().replace(ROOT + os.sep, "")
        if not w or "is not documented" in w:
            continue
        # the headers must be clean; the README (the front page) only gets a note, so that a
        # README edit elsewhere cannot fail the API check
        (other if w.startswith("include" + os.sep) else notes).append(w)
    problems += sorted(set(other))
    for n in sorted(set(notes)):
        print("docs: note: " + n)

    counts = {}
    for kind in symbols.values():
        counts[kind] = counts.get(kind, 0) + 1
    summary = ", ".join("%d %s" % (n, k + ("s" if n != 1 else "")) for k, n in sorted(counts.items()))
    if problems:
        print("\n".join(problems))
        print("docs: %d undocumented symbols or Doxygen warnings (of %d public symbols: %s)"
              % (len(problems), len(symbols), summary))
        print("docs: document each with a /** ... */ block above it or a /**< ... */ comment after it "
              "(a header's first comment starts with /** @file); see docs/Doxyfile")
        return 1
    print("docs: all %d public symbols documented (%s)%s" % (len(symbols), summary,
          "; HTML in %s" % os.path.join(out, "html", "index.html") if args.html else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
