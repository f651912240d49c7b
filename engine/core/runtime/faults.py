"""Where a rule broke, in the designer's words: the rules file and line of the generated
code that raised (`rule_location`, `rule_site`), a generated function as the designer
knows it (`describe_rule`), and what a Python error means in a rule (`broke`)."""
from __future__ import annotations

import linecache
import os
import re
from typing import Any

_MARK_LINE = re.compile(r"# @L(\d+)$")


def broke(err: Exception) -> str:
    """What broke in a rule, for the designer: the Python error, and what it means where the
    rules' own words say more (none used as a record or an index: the table of a field, a
    zone or a var has no entry for it; none in arithmetic or a comparison)."""
    if isinstance(err, KeyError) and err.args == (None,):
        return ("none was used as a record or as an index (of a zone or var), where a value "
                "is needed (KeyError: None)")
    if isinstance(err, TypeError) and "'NoneType'" in str(err):
        # the checker has no type for "may be none": such a value reaches arithmetic
        return ("none was used where a value is needed: as a number, in a comparison or as "
                "a list (a value that may be none: the smallest or largest of no items, a "
                "distance with no path, a field or var not set, an optional choice not "
                f"taken?) (TypeError: {err})")
    return f"{type(err).__name__}: {err}"


def rule_location(err: BaseException, pack: Any) -> str:
    """'path:line: ' of the rule whose generated code raised `err`: the function from the
    compiler's SITES table, the line from the `# @L<n>` comment nearest above the failing
    generated line; '' when the error did not come from pack code."""
    tb, found = err.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        # (a function compiled to C is named `module.function` in its frames)
        name = code.co_name.rpartition(".")[2]
        if (code.co_filename.startswith("<pack ") or code.co_filename == pack.code_file) \
                and name in pack.ns["SITES"]:
            found = (code.co_filename, name, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return ""
    rules_file, line = rule_site(pack, *found)
    path = os.path.join(str(pack.root), rules_file)
    return f"{path}:{line}: " if line else f"{path}: "


def rule_site(pack: Any, filename: str, fname: str, lineno: int) -> tuple[str, int]:
    """(rules file, line) of line `lineno` of generated function `fname` (one of the
    compiler's SITES, in module `filename`): the `# @L<n>` comment nearest above it within
    the function, else the function's own line."""
    file_index, line = pack.ns["SITES"][fname]
    lines = linecache.getlines(filename)
    for i in range(min(lineno, len(lines)) - 1, -1, -1):
        text = lines[i].rstrip("\n")
        if mark := _MARK_LINE.search(text):
            line = int(mark.group(1))
            break
        if text.startswith("def "):
            break
    files: list[str] = pack.ns["FILES"]
    return files[file_index], line


def describe_rule(fname: str, pack: Any) -> str:
    """A generated function as a designer knows it: 'procedure loop (rules.rules:10)'."""
    kind = {"p": "procedure", "v": "value", "t": "trigger", "x": "effect"}.get(fname[:1], "rule")
    if fname.startswith("w_"):
        kind = "window"
    where = ""
    site = pack.ns["SITES"].get(fname)
    if site is not None:
        where = f" ({os.path.join(str(pack.root), pack.ns['FILES'][site[0]])}:{site[1]})"
    label: str = pack.rule_labels.get(fname, fname)
    return f"{kind} {label}{where}"
