"""Declarations as documents: those printed on one line, the clause lines of a window,
the lines of an enum printed as a block.
"""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl.formatter.documents import INDENT, Doc
from engine.dsl.formatter.expressions import (
    P_SUM,
    S,
    expr_doc,
    format_type,
    lambda_doc,
    listing,
    quote,
)
from engine.dsl.formatter.source_lines import first_line, last_line
from engine.dsl.formatter.statements import field_doc, params_docs

EVENT_LINE_MAX = 99  # a longer event declaration lists its state as a block (`with:`)
MAX_ENUM_LINE = 99  # a longer `enum` is printed one value a line


def one_line_decl_doc(d: A.Decl) -> Doc | str:
    if isinstance(d, A.VarDecl):
        parts: list[str | Doc | A.Expr] = [
            listing(f"var {d.name}[", params_docs(d.params), "]") if d.params else f"var {d.name}",
            f": {format_type(d.type)}"]
        if d.bounds is not None:
            parts += [" in ", expr_doc(d.bounds[0], P_SUM), "..", expr_doc(d.bounds[1], P_SUM)]
        if d.default is not None:
            parts += [" = ", d.default]
        if d.visibility != "public":
            parts.append(f" {d.visibility}")
        return S(*parts)
    if isinstance(d, A.ZoneDecl):
        head = listing(f"zone {d.name}[", params_docs(d.params), "]") if d.params \
            else f"zone {d.name}"
        return S(head, f" of {d.of}" if d.of is not None else "",
                 "".join(f" {f}" for f in d.flags))
    if isinstance(d, A.EventDecl):
        parts = ["event ", listing(f"{d.name}(", params_docs(d.params), ")")]
        for i, f in enumerate(d.state):
            parts += [" with " if i == 0 else ", ", field_doc(f)]
        return S(*parts)
    if isinstance(d, A.ValueDecl):
        return S("value ", listing(f"{d.name}(", params_docs(d.params), ")"),
                 f": {format_type(d.type)} = ", d.expr)
    if isinstance(d, A.CheckDecl):
        return S(f"{'invariant' if d.invariant else 'check'} {quote(d.message)}: ", d.expr)
    if isinstance(d, A.GraphDecl):
        text = f"graph {d.name} of {d.node_type} via {d.edge_type}"
        return S(text, " where ", lambda_doc(d.where)) if d.where is not None else text
    if isinstance(d, A.ConstDecl):
        typed = f": {format_type(d.type)}" if d.type is not None else ""
        return S(f"const {d.name}{typed} = ", d.expr)
    if isinstance(d, A.EnumDecl):
        return f"enum {d.name}: {', '.join(v.name for v in d.values)}"
    raise TypeError(f"not a one-line declaration: {d!r}")


def window_clauses(d: A.WindowDecl) -> list[tuple[Doc | str, int, int]]:
    """The clause lines of a window declaration: (text, first and last source line), in
    the order they were written; without positions, in the order by, from, to, effect,
    prompt, openings. A clause starts on its keyword's line (its expression may start on
    the next, after a bracket the formatter opened)."""
    where: dict[str, list[int]] = {}
    for key, at in d.clauses:
        where.setdefault(key, []).append(at.line)

    def first(key: str, node: object, i: int = 0) -> int:
        lines = where.get(key, [])
        return lines[i] if i < len(lines) and lines[i] else first_line(node)

    src: list[str | Doc | A.Expr] = [f"from {d.var} in ", expr_doc(d.source, P_SUM)]
    if d.where is not None:
        src += [" where ", d.where]
    out: list[tuple[Doc | str, int, int]] = [
        (S("by ", d.by), first("by", d.by), last_line(d.by)),
        (S(*src), first("from", d.source), last_line(d.source, d.where)),
        (S("to ", d.to), first("to", d.to), last_line(d.to))]
    if d.effect is not None:
        out.append((f"effect {d.effect.id}", first("effect", d.effect), first_line(d.effect)))
    if d.prompt is not None:
        out.append((f"prompt {quote(d.prompt.value)}", first("prompt", d.prompt),
                    first_line(d.prompt)))
    out += [(f"{o.kind} {o.event}", first("opens", o, i), first_line(o))
            for i, o in enumerate(d.opens)]
    return sorted(out, key=lambda c: c[1]) if all(c[1] for c in out) else out


def enum_lines(d: A.EnumDecl) -> list[list[A.EnumValue]]:
    """The lines of an enum printed as a block: the values written on one line stay
    together (their comments with them), split where a line would pass MAX_ENUM_LINE."""
    lines: list[list[A.EnumValue]] = []
    for v in d.values:
        last = lines[-1] if lines else None
        same_line = last is not None and first_line(last[-1]) == first_line(v) != first_line(d)
        fits = last is not None and len(INDENT) + sum(len(x.name) + 2 for x in last) \
            + len(v.name) <= MAX_ENUM_LINE
        if last is not None and fits and (same_line or first_line(v) == first_line(d)):
            last.append(v)
        else:
            lines.append([v])
    return lines

