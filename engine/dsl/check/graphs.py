"""Graphs: `graph` declarations and their filters, and the graph queries of the rules
(neighbors, distance, path, reachable, edge) with their node and edge predicates.
"""
from __future__ import annotations

from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl.check.lambdas import LambdaChecker
from engine.dsl.check.scope import Scope
from engine.dsl.types import Type

_GRAPH_QUERIES = ("neighbors", "distance", "path", "reachable", "edge")
# built-ins whose answer depends on the game's state or on chance (a graph filter cannot)
_STATEFUL_BUILTINS = {"roll": "a die roll", "random_pick": "a random pick",
                      "zone_of": "where a record lies during a game",
                      "is_revealed": "what is revealed during a game",
                      "contents": "a zone's contents", "run": "an effect"}


class GraphChecker(LambdaChecker):
    """Graph declarations and the calls that query graphs."""

    def _check_graph(self, g: A.GraphDecl, path: str) -> None:
        """`graph g of N via E`: N and E are record types of the pack's files, E has the
        ends `a` and `b` of type N, a cost that is a whole number not below 0, a kind
        that is text or an enum."""
        m = self.model
        for tname in (g.node_type, g.edge_type):
            if tname not in m.types:
                self._unknown("E202", "type", tname, m.types, path, g.at)
                return
            if m.types[tname].created:
                self.error("E275", f"graph '{g.name}' cannot be built over '{tname}': its "
                           "records are made in play, a graph is built from the pack's files",
                           path, g.at)
                return
        fields = m.types[g.edge_type].fields
        for end in ("a", "b"):
            if end not in fields or fields[end].type != g.node_type:
                self.error("E232", f"edge type '{g.edge_type}' of graph '{g.name}' needs fields "
                           f"'a' and 'b' of type {g.node_type}", path, g.at)
                return
        if "cost" in fields and fields["cost"].type != "int":
            self.error("E232", f"field 'cost' of '{g.edge_type}' must be an int", path, g.at)
        elif "cost" in fields:
            for rid in m.by_type.get(g.edge_type, ()):
                rec = m.records[rid]
                cost = rec.data.get("cost")
                if isinstance(cost, int) and cost < 0:  # a negative loop has no cheapest path
                    site = rec.field_sites.get("cost", rec.site)
                    self.error("E232", f"{g.edge_type} '{rid}' has cost {cost}: costs of graph "
                               f"'{g.name}' cannot be negative", site.path, site)
        if "kind" in fields and fields["kind"].type != "text" \
                and self._enum(fields["kind"].type) is None:
            self.error("E232", f"field 'kind' of '{g.edge_type}' must be text or an enum", path,
                       g.at)
        if g.where is not None:
            self._graph_filter(g, g.where, path)

    def _graph_filter(self, g: A.GraphDecl, where: A.Lambda, path: str) -> None:
        """`graph g of N via E where c => ...`: a condition on each edge record, applied once
        when the pack loads, so it may read the edge's fields and other records, not state."""
        sc = self._scope(f"graph:{g.name}", path, ())
        self._lambda(where, g.edge_type, sc, "bool", "filter",
                     f"the filter of graph '{g.name}' receives each {g.edge_type} record")
        for node in A.subnodes(where.body):
            why = self._not_static(node)
            if why:
                hint = (None if why.startswith("graph") else "to block edges by the state of "
                        f"the game, give the query an edge predicate: "
                        f"{_graph_example('path', g, True)}")
                self.error("E247", f"the filter of graph '{g.name}' is applied once, when the "
                           f"pack loads, so it cannot read {why}", path, node.at, hint)

    def _not_static(self, node: Any) -> str | None:
        """What makes `node` read game state (or chance), or None if it only reads data."""
        res = self.res.get(id(node))
        if isinstance(node, (A.Name, A.Index)) and res and res[0] in ("var", "zone"):
            return f"{res[0]} '{res[1]}', which changes during a game"
        if not isinstance(node, A.Call) or res is None:
            return None
        if res[0] == "proc":
            return f"procedure '{node.func}'"
        if res[0] == "value":
            return f"value '{node.func}', which modifiers and vars may change during a game"
        if node.func in _STATEFUL_BUILTINS:
            return f"'{node.func}', {_STATEFUL_BUILTINS[node.func]}"
        if node.func in _GRAPH_QUERIES and node.args and isinstance(node.args[0], A.Name):
            other = self.model.graphs.get(node.args[0].id)
            if other is not None and other.where is not None:
                return f"graph '{other.name}', itself a filtered graph (built after the others)"
        return None

    def _graph_call(self, e: A.Call, sc: Scope) -> Type:
        """A graph query, `neighbors`, `distance`, `path`, `reachable` or `edge`, of a
        declared graph: its nodes, limits, kinds and predicates."""
        n, args, p = e.func, e.args, sc.path
        g = args[0]
        gdecl = self.model.graphs.get(g.id) if isinstance(g, A.Name) else None
        if gdecl is None or not isinstance(g, A.Name):
            if isinstance(g, A.Name):
                self._unknown("E207", "graph", g.id, self.model.graphs, p, g.at)
            else:
                self.error("E207", f"'{n}' needs a graph name first", p, g.at)
            for a in args[1:]:
                if not isinstance(a, A.Lambda):
                    self._expr(a, sc)
            return "any"
        self.res[id(g)] = ("const", g.id)
        node = gdecl.node_type
        self._expect(args[1], node, sc, f"a {node}")
        if n == "edge":
            self._expect(args[2], node, sc, f"a {node}")
            return gdecl.edge_type
        if n == "neighbors":
            first = 2  # neighbors(g, x, kinds or node predicate, edge predicate)
            if len(args) > 2 and not isinstance(args[2], A.Lambda):
                info = self.model.types.get(gdecl.edge_type)  # a kind, a list of kinds, or none
                kind = info.fields.get("kind") if info is not None else None
                self._edge_kinds(args[2], kind.type if kind else "text", sc)
                first = 3
        else:
            if n == "reachable":
                self._expect(args[2], "int", sc, "the cost limit")
            else:
                self._expect(args[2], node, sc, f"a {node}")
            first = 3
        for i in range(first, len(args)):
            self._graph_predicate(e, gdecl, i, sc)
        results: dict[str, Type] = {"neighbors": ("list", node), "distance": "int",
                                    "path": ("list", node), "reachable": ("list", node)}
        return results[n]

    def _graph_predicate(self, e: A.Call, g: A.GraphDecl, i: int, sc: Scope) -> None:
        """Argument i of a graph query: the predicate saying which nodes are blocked, then
        the one saying which edges are blocked (graph_slots); `none` where there is none."""
        arg = e.args[i]
        if isinstance(arg, A.NoneLit):
            self._expr(arg, sc)
            return
        on_edges = i == graph_slots(e.func)[1]
        blocks, other = (g.edge_type, g.node_type) if on_edges else (g.node_type, g.edge_type)
        hint = (f"in '{e.func}', the {'second' if on_edges else 'first'} predicate says which "
                f"{blocks} is blocked; the {other} predicate comes "
                f"{'before' if on_edges else 'after'} it: "
                f"{_graph_example(e.func, g, not on_edges)}")
        self._lambda(arg, blocks, sc, "bool", "predicate", hint)
        if not on_edges and isinstance(arg, A.Lambda) and arg.type is None:
            self._edge_test_on_node(arg, e, g, sc)

    def _edge_test_on_node(self, lam: A.Lambda, e: A.Call, g: A.GraphDecl, sc: Scope) -> None:
        """A node predicate comparing a field with a text that no node holds but edges do
        (`n => n.kind == "pass"`) was meant for edges (E246)."""
        nodes, edges = self.model.types.get(g.node_type), self.model.types.get(g.edge_type)
        if nodes is None or edges is None:
            return
        for field, text, at in _literal_tests(lam.body, lam.param):
            if field not in nodes.fields or field not in edges.fields:
                continue
            if (text in self._field_values(g.node_type, field)
                    or text not in self._field_values(g.edge_type, field)):
                continue
            self.error("E246", f"this predicate receives a {g.node_type}, and no "
                       f"{g.node_type} has {field} \"{text}\" (a {g.edge_type} does): the "
                       f"{g.edge_type} predicate comes after the {g.node_type} predicate",
                       sc.path, at, _graph_example(e.func, g, True))

    def _field_values(self, tname: str, field: str) -> set[Any]:
        m = self.model
        return {m.records[rid].data.get(field) for rid in m.by_type.get(tname, ())}

    def _edge_kinds(self, e: A.Expr, kind: Type, sc: Scope) -> None:
        """The kind (or list of kinds) of edges `neighbors` follows: values of the edge
        type's `kind` enum, when it is one."""
        if isinstance(e, A.IfExp):
            self._expect(e.cond, "bool", sc, "a condition")
            self._edge_kinds(e.then, kind, sc)
            self._edge_kinds(e.orelse, kind, sc)
            self._set(e, "any")
        elif self._enum(kind) is None or self._coerce(e, ("list", kind), sc) is None \
                and self._coerce(e, kind, sc) is None:
            self._expr(e, sc)


def graph_slots(func: str) -> tuple[int, int]:
    """The argument positions of a graph query's node predicate and edge predicate."""
    return (2, 3) if func == "neighbors" else (3, 4)


def _graph_example(func: str, g: A.GraphDecl, on_edges: bool) -> str:
    """How a call of `func` on `g` blocks edges (or nodes), for a hint."""
    fixed = {"neighbors": "x", "reachable": "start, limit"}.get(func, "a, b")
    if on_edges:
        return f"{func}({g.name}, {fixed}, none, (e: {g.edge_type}) => ...)"
    return f"{func}({g.name}, {fixed}, (n: {g.node_type}) => ...)"


def _literal_tests(e: A.Expr, var: str) -> list[tuple[str, str, A.Pos]]:
    """(field, text, where) for each `var.field == "text"` (also !=, in, not in a list of
    texts) in `e`, outside inner bindings of the same name."""
    out: list[tuple[str, str, A.Pos]] = []
    todo: list[Any] = [e]
    while todo:
        node = todo.pop()
        if isinstance(node, tuple):
            todo.extend(node)
            continue
        if not attrs.has(type(node)) or isinstance(node, A.Pos):
            continue
        if isinstance(node, (A.Lambda, A.Comprehension)) and getattr(
                node, "param", getattr(node, "var", None)) == var:
            continue  # the name means something else in there
        if isinstance(node, A.Compare):
            sides = [(node.left, node.right)]
            if node.op in ("==", "!="):
                sides.append((node.right, node.left))
            for field_side, text_side in sides:
                if not (isinstance(field_side, A.Attr) and isinstance(field_side.obj, A.Name)
                        and field_side.obj.id == var):
                    continue
                texts = [text_side] if node.op in ("==", "!=") else (
                    list(text_side.items) if isinstance(text_side, A.ListLit) else [])
                out += [(field_side.name, t.value, node.at) for t in texts
                        if isinstance(t, A.Str)]
        todo.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
    return out
