"""The built-in functions and values of the rules language, as a designer reads them: each
with its signature and one line on what it gives. The checker takes the functions' numbers
of arguments from here (engine.dsl.check.builtins), the language server completes and shows
them, and docs/language.md's table of built-ins is written from them:
`python -m engine.dsl.builtins` rewrites it, `--check` says whether it is current.
"""
from __future__ import annotations

import sys
from pathlib import Path

import attrs


@attrs.frozen
class Builtin:
    name: str
    signature: str  # as a call is written, with the types of its arguments and result
    doc: str  # one line: what it gives
    args: tuple[int, int] | None = None  # a function's fewest and most arguments; None: a value

    @property
    def function(self) -> bool:
        return self.args is not None


_ITEMS = "items: list or zone"
_GRAPH = "g: graph, a: node, b: node, blocked?: node => bool, edge_blocked?: edge => bool"

FUNCTIONS: tuple[Builtin, ...] = (
    Builtin("count", f"count({_ITEMS}) -> int",
            "how many items there are (`count(x in T where ...)` counts those that pass)",
            (1, 1)),
    Builtin("sum", "sum(numbers: list of int) -> int",
            "the numbers added up (`sum(c.power for c in table)`)", (1, 1)),
    Builtin("min", "min(items: list) -> item | min(a: int, b: int, ...) -> int",
            "the smallest item of one list, or the smallest of several ints", (1, 9)),
    Builtin("max", "max(items: list) -> item | max(a: int, b: int, ...) -> int",
            "the largest item of one list, or the largest of several ints", (1, 9)),
    Builtin("exists", f"exists({_ITEMS}) -> bool",
            "whether there is an item (`exists(x in T where ...)`: one that passes)", (1, 1)),
    Builtin("every", f"every({_ITEMS}) -> bool",
            "whether every item passes (`every(x in T where ...)`, `every(test for x in T)`)",
            (1, 1)),
    Builtin("abs", "abs(x: int) -> int", "the number without its sign", (1, 1)),
    Builtin("other", "other(s: side) -> side", "the other side, in a game of two sides",
            (1, 1)),
    Builtin("roll", "roll(n: int, faces: int) -> int",
            "n dice of `faces` faces rolled, added up (`roll(2, 6)`)", (2, 2)),
    Builtin("lookup", "lookup(t: table, row, column?) -> any",
            "the entry of a table at a row (and a column)", (2, 3)),
    Builtin("neighbors", "neighbors(g: graph, a: node, kinds or blocked?, edge_blocked?) "
            "-> list of node",
            "the nodes one edge away (over edges of the kinds given; not those blocked)",
            (2, 4)),
    Builtin("distance", f"distance({_GRAPH}) -> int",
            "the cost of the cheapest path from a to b", (3, 5)),
    Builtin("path", f"path({_GRAPH}) -> list of node",
            "the nodes of the cheapest path from a to b", (3, 5)),
    Builtin("reachable", "reachable(g: graph, a: node, limit: int, blocked?, edge_blocked?) "
            "-> list of node", "the nodes within `limit` cost of a, nearest first", (3, 5)),
    Builtin("edge", "edge(g: graph, a: node, b: node) -> edge?",
            "the edge record between a and b, or none", (3, 3)),
    Builtin("zone_of", "zone_of(x: record) -> text",
            "the name of the zone that holds x, or none",
            (1, 1)),
    Builtin("top", f"top({_ITEMS}) -> item", "the top item (of a zone: the one on top)",
            (1, 1)),
    Builtin("first", f"first({_ITEMS}) -> item", "the first item", (1, 1)),
    Builtin("last", f"last({_ITEMS}) -> item", "the last item", (1, 1)),
    Builtin("sort", "sort(items: list, key?: item => int) -> list",
            "the items in order (of the key, smallest first)", (1, 2)),
    Builtin("run", "run(r.field: effect)", "runs the statements of a record's effect field",
            (1, 1)),
    Builtin("is_revealed", "is_revealed(x: record) -> bool",
            "whether x has been revealed (`reveal x`)", (1, 1)),
    Builtin("random_pick", f"random_pick({_ITEMS}) -> item", "one item, at random", (1, 1)),
    Builtin("attribute", "attribute(x: record, field: text) -> any",
            "the field of x named by a text (`attribute(c, \"power\")`)", (2, 2)),
    Builtin("contents", "contents(z: zone) -> list", "what the zone holds, in order", (1, 1)),
    Builtin("numbers", "numbers(first: int, last: int) -> list of int",
            "the numbers from first to last (`numbers(1, n)`: 1, 2, ..., n)", (2, 2)),
    Builtin("take", f"take({_ITEMS}, n: int) -> list",
            "the first n items (of a zone: from the top)", (2, 2)),
)

VALUES: tuple[Builtin, ...] = (
    Builtin("true", "true: bool", "yes"),
    Builtin("false", "false: bool", "no"),
    Builtin("none", "none", "no value: what an optional field or `T?` holds when empty"),
    Builtin("sides", "sides: list of side", "the pack's sides, in the order pack.yaml lists"),
    Builtin("self", "self: record",
            "in a record's own rules (its triggers, effect, var defaults): that record"),
)

BUILTINS: dict[str, Builtin] = {b.name: b for b in FUNCTIONS + VALUES}


# ---- docs/language.md's table -----------------------------------------------------------
DOC = Path("docs") / "language.md"
BEGIN = "<!-- built-ins: written by `python -m engine.dsl.builtins` -->"
END = "<!-- end of built-ins -->"


def table() -> str:
    """The Markdown table of every built-in, functions first."""
    rows = ["| built-in | what it gives |", "| --- | --- |"]
    for b in FUNCTIONS + VALUES:
        rows.append(f"| `{_cell(b.signature)}` | {_cell(b.doc)} |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")  # escaped, in a code span too (GitHub's tables)


def with_table(text: str) -> str:
    """`text` (docs/language.md) with the table between its markers written anew."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + table() + "\n" + text[end:]


def main(argv: list[str]) -> int:
    path = Path(__file__).resolve().parents[2] / DOC
    text = path.read_text(encoding="utf-8")
    new = with_table(text)
    if "--check" in argv:
        if new != text:
            print(f"{DOC}: the table of built-ins is not current: run python -m "
                  "engine.dsl.builtins", file=sys.stderr)
            return 1
        return 0
    if new != text:
        path.write_text(new, encoding="utf-8")
        print(f"wrote the table of built-ins in {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
