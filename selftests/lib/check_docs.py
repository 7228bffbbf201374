#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# check_docs.py: every reStructuredText file of Documentation/ parses
# cleanly (a host check, part of make check-unit; not a VM selftest).
# KTAP (the "TAP version 13" header aicc's other tests print), one result
# per file, in name order.  Paths are relative to the referring file:
# a :doc: in a file that another includes resolves from the includer.
# A file passes when docutils reports nothing at WARNING level or above
# while parsing it -- a table whose cell overruns its column ("Malformed
# table"), a title underline too short, an unknown directive, a broken
# inline markup -- and every :doc: reference, image and include it names
# exists.
#
#   check_docs.py [DIR]       DIR: Documentation (the default)
#   check_docs.py --self-test the checker on broken files of its own: each
#                             must fail, and a clean one pass
#
# :doc: is Sphinx's role, not docutils': it is registered here to check
# that the named document exists next to the referring one.  Exit status
# 0 when every file passed, 1 when one failed, 4 (skip) without docutils
# (Debian's python3-docutils, which scripts/install-deps.sh installs).

import io
import os
import sys
import tempfile

try:
    import docutils.core
    import docutils.nodes
    import docutils.utils
    from docutils.parsers.rst import roles
except ImportError:
    print("TAP version 13")
    print("1..0 # SKIP python3-docutils is not installed")
    sys.exit(4)

# the directory of the document being parsed, for the :doc: role
current_dir = [""]


def doc_role(name, rawtext, text, lineno, inliner, options=None,
             content=None):
    """:doc:`name` or :doc:`title <name>`: name.rst must exist."""
    target = text
    if text.endswith(">") and "<" in text:
        target = text[text.rindex("<") + 1:-1]
    path = os.path.join(current_dir[0], target.strip() + ".rst")
    node = docutils.nodes.literal(rawtext, target)
    if os.path.isfile(path):
        return [node], []
    msg = inliner.reporter.error(
        ":doc: target %s.rst does not exist" % target, line=lineno)
    return [node], [msg]


def check(path):
    """The problems docutils and the reference checks find in @path."""
    warnings = io.StringIO()
    current_dir[0] = os.path.dirname(path)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    levels = docutils.utils.Reporter
    tree = docutils.core.publish_doctree(
        text, source_path=path,
        settings_overrides={"report_level": levels.WARNING_LEVEL,
                            "halt_level": levels.SEVERE_LEVEL + 1,
                            "warning_stream": warnings,
                            "file_insertion_enabled": True,
                            "raw_enabled": False})
    problems = [line for line in warnings.getvalue().splitlines() if line]
    nodes = (tree.findall(docutils.nodes.image) if hasattr(tree, "findall")
             else tree.traverse(docutils.nodes.image))
    for img in nodes:
        uri = img["uri"]
        if "://" in uri:
            continue
        if not os.path.isfile(os.path.join(current_dir[0], uri)):
            problems.append("%s: image %s does not exist" % (path, uri))
    return problems


# --self-test: a file per kind of problem, each of which must fail
SELF_TEST = {
    "table": "T\n=\n\n====  ====\na     b\n====  ====\noverrun  c\n====  ====\n",
    "underline": "A longer title\n=====\n\ntext\n",
    "doc-ref": "T\n=\n\nSee :doc:`missing`.\n",
    "image": "T\n=\n\n.. image:: missing.png\n",
    "include": "T\n=\n\n.. include:: missing.txt\n",
    "inline": "T\n=\n\nAn ``unterminated literal.\n",
    "directive": "T\n=\n\n.. no-such-directive:: x\n",
    "clean": "T\n=\n\nSee :doc:`clean`, ``x`` and *y*.\n\n"
             "====  ====\na     b\n====  ====\n",
}


def self_test():
    print("TAP version 13")
    print("1..%d" % len(SELF_TEST))
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        for i, (name, text) in enumerate(sorted(SELF_TEST.items()), 1):
            path = os.path.join(d, name + ".rst")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            problems = check(path)
            ok = not problems if name == "clean" else bool(problems)
            for p in problems:
                print("# " + p.replace(d + "/", ""))
            failed += not ok
            print("%s %d %s_%s" % ("ok" if ok else "not ok", i, name,
                                   "passes" if name == "clean" else "fails"))
    return 1 if failed else 0


def main():
    roles.register_local_role("doc", doc_role)
    if sys.argv[1:2] == ["--self-test"]:
        return self_test()
    top = sys.argv[1] if len(sys.argv) > 1 else "Documentation"
    files = []
    for root, _, names in os.walk(top):
        files += [os.path.join(root, n) for n in names if n.endswith(".rst")]
    files.sort()
    print("TAP version 13")
    if not files:
        print("1..1")
        print("not ok 1 rst files under %s # none found" % top)
        return 1
    print("1..%d" % len(files))
    failed = 0
    for i, path in enumerate(files, 1):
        problems = check(path)
        for p in problems:
            print("# " + p)
        if problems:
            failed += 1
        print("%s %d %s" % ("not ok" if problems else "ok", i, path))
    print("# %d of %d rst files parse cleanly" % (len(files) - failed,
                                                   len(files)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
