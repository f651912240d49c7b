"""Pieces of the generated Python text: the prelude that names the state's tables, the
inline step charge, the key of an indexed var or zone, tuples, and tests on code that
tell a local or literal (read twice, the same) from anything else."""
from __future__ import annotations

import ast as pyast
import re

# One rule step (Runtime.tick), written inline: a call is a step, so recursion cannot run
# unbounded
TICK = ("    G.left -= 1", "    if G.left < 0: G.over_budget()")

# The state's vars (V) and zones (Z), read through the undo watchers while a decision may
# be undone (see Runtime.watch), the records (R), and the vars and zones again without the
# watchers (PV, PZ), for reading public ones: anyone may see them, so no read of one can
# end an undo; and the fields of records in play (GF, through the watchers like V and Z).
# A barrier while the function runs (Runtime.barrier) points G.v, G.z and G.f back at the
# state itself; the names keep the watchers, whose reads give the same values and at most
# hit the barrier again, which changes nothing.
PRELUDE = "    V, Z, R, PV, PZ, GF = G.v, G.z, G.R, G.pv, G.pz, G.f"
PRELUDE_NAMES = {"V": "G.v", "Z": "G.z", "R": "G.R", "PV": "G.pv", "PZ": "G.pz", "GF": "G.f"}


def prelude(lines: list[str], body: str) -> list[str]:
    """`PRELUDE` for those of its names the function's code reads."""
    code = "\n".join(lines) + "\n" + body
    used = [name for name in PRELUDE_NAMES if re.search(rf"\b{name}\b", code)]
    if not used:
        return []
    return [f"    {', '.join(used)} = {', '.join(PRELUDE_NAMES[name] for name in used)}"]


def is_str_literal(code: str) -> bool:
    return len(code) >= 2 and code[0] == code[-1] == "'" and "\\" not in code \
        and "'" not in code[1:-1]


def is_plain(code: str) -> bool:
    """A local or a literal: reading it twice or later reads the same."""
    return code.isidentifier() or code in ("None", "True", "False") or code.lstrip("-").isdigit() \
        or is_str_literal(code)


def state_key(parts: list[str]) -> str:
    """Code for the state key of an indexed var or zone: parts (code of text values)
    joined with '|'; neighbouring string literals fold into one: 'hand|red'."""
    if not parts:
        return "''"
    pieces: list[str] = []
    for part in parts:
        if pieces:
            pieces.append("'|'")
        pieces.append(part)
    folded: list[str] = []
    for piece in pieces:
        if folded and is_str_literal(folded[-1]) and is_str_literal(piece):
            folded[-1] = repr(pyast.literal_eval(folded[-1]) + pyast.literal_eval(piece))
        else:
            folded.append(piece)
    return " + ".join(folded)


def tuple_code(items: list[str]) -> str:
    if not items:
        return "()"
    return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"


def last_argument(args: str) -> str:
    """The prompt's values as a last argument of G.decide, only when there are some."""
    return "" if args == "None" else f", {args}"
