"""Optimisation pass: a value's call is charged a step (python_text.TICK) only when the
value may call itself again, directly or through others, so that its recursion cannot run
unbounded; any other call does bounded work, charged by the walks and calls inside it."""
from __future__ import annotations

import re


def recursive_values(bodies: dict[str, str]) -> set[str]:
    """The values in a cycle of calls (one that calls itself, or calls one that calls it
    back), from their compiled formulas."""
    calls = {name: set(re.findall(r"\bv_(\w+)\(", body)) & bodies.keys()
             for name, body in bodies.items()}
    found: set[str] = set()
    for name in bodies:  # does a path of calls lead from the value back to it?
        seen: set[str] = set()
        todo = list(calls[name])
        while todo:
            callee = todo.pop()
            if callee == name:
                found.add(name)
                break
            if callee not in seen:
                seen.add(callee)
                todo.extend(calls[callee])
    return found
