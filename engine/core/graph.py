"""Map queries over a graph built from a pack's edge records.

An edge record has `a` and `b` (nodes), and optionally `cost` (default 1), `kind` (text)
and `directed` (bool). Blocking predicates say which nodes may not be entered and which
edges (given their record id) may not be used; the searches that use neither are remembered.
"""
from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from typing import Any

Blocked = Callable[[str], Any] | None
Adjacency = list[tuple[str, int, str | None, str]]  # (other end, cost, kind, edge id)


class Graph:
    def __init__(self, edges: Iterable[dict[str, Any]]):
        self.adj: dict[str, Adjacency] = {}
        self.by_pair: dict[tuple[str, str], str] = {}
        # the map never changes during a game: unblocked searches are remembered
        self._memo: dict[tuple[str, int | None], tuple[dict[str, int], dict[str, str]]] = {}
        for e in edges:
            a, b = e["a"], e["b"]
            cost = e.get("cost")
            cost = 1 if cost is None else cost
            kind = e.get("kind")
            self.adj.setdefault(a, []).append((b, cost, kind, e["id"]))
            self.by_pair.setdefault((a, b), e["id"])
            if not e.get("directed"):
                self.adj.setdefault(b, []).append((a, cost, kind, e["id"]))
                self.by_pair.setdefault((b, a), e["id"])

    def neighbors(self, node: str, kinds: Any = None, blocked: Blocked = None,
                  edge_blocked: Blocked = None) -> list[str]:
        if kinds is not None and not isinstance(kinds, (list, tuple)):
            kinds = (kinds,)
        edges = self.adj.get(node, ()) if edge_blocked is None else \
            self._usable(node, edge_blocked)
        out: list[str] = []
        for other, _cost, kind, _eid in edges:
            if (kinds is None or kind in kinds) and other not in out:
                out.append(other)
        if blocked is not None:
            out = [n for n in out if not blocked(n)]
        return out

    def _usable(self, node: str, edge_blocked: Callable[[str], Any]) -> Adjacency:
        """The edges from `node` that `edge_blocked` (given an edge's id) lets through."""
        return [e for e in self.adj.get(node, ()) if not edge_blocked(e[3])]

    def edge(self, a: str, b: str) -> str | None:
        return self.by_pair.get((a, b))

    def _dijkstra(self, start: str, blocked: Blocked, limit: int | None = None,
                  goal: str | None = None, edge_blocked: Blocked = None
                  ) -> tuple[dict[str, int], dict[str, str]]:
        if blocked is None and edge_blocked is None:
            key = (start, limit)
            found = self._memo.get(key)
            if found is None:  # search the whole graph once (no goal) and keep it
                found = self._memo[key] = self._search(start, None, limit, None)
            return found
        return self._search(start, blocked, limit, goal, edge_blocked)

    def _search(self, start: str, blocked: Blocked, limit: int | None,
                goal: str | None, edge_blocked: Blocked = None
                ) -> tuple[dict[str, int], dict[str, str]]:
        dist = {start: 0}
        prev: dict[str, str] = {}
        heap = [(0, start)]
        shut: dict[str, Any] = {}  # blocked(node), asked once per node and search
        adj, pop, push = self.adj, heapq.heappop, heapq.heappush
        bound = float("inf") if limit is None else limit
        while heap:
            d, node = pop(heap)
            if d > dist[node]:
                continue
            if node == goal:
                break
            edges = adj.get(node, ()) if edge_blocked is None else \
                self._usable(node, edge_blocked)
            for other, cost, _kind, _eid in edges:
                nd = d + cost
                if nd > bound or nd >= dist.get(other, nd + 1):
                    continue
                if blocked is not None:
                    no = shut.get(other)
                    if no is None:
                        no = shut[other] = bool(blocked(other))
                    if no:
                        continue
                dist[other] = nd
                prev[other] = node
                push(heap, (nd, other))
        return dist, prev

    def distance(self, a: str, b: str, blocked: Blocked = None,
                 edge_blocked: Blocked = None) -> int | None:
        dist, _ = self._dijkstra(a, blocked, goal=b, edge_blocked=edge_blocked)
        return dist.get(b)

    def path(self, a: str, b: str, blocked: Blocked = None,
             edge_blocked: Blocked = None) -> list[str]:
        """The cheapest path from a to b, both ends included; [] when there is none."""
        dist, prev = self._dijkstra(a, blocked, goal=b, edge_blocked=edge_blocked)
        if b not in dist:
            return []
        out = [b]
        while out[-1] != a:
            out.append(prev[out[-1]])
        return out[::-1]

    def reachable(self, a: str, limit: int, blocked: Blocked = None,
                  edge_blocked: Blocked = None) -> list[str]:
        """Nodes within `limit` cost of a (a excluded), in order of cost then name."""
        dist, _ = self._dijkstra(a, blocked, limit=limit, edge_blocked=edge_blocked)
        return [n for _d, n in sorted((d, n) for n, d in dist.items() if n != a)]
