"""What a name in a pack's files stands for, where it is declared and where it is used: the
lookups behind go-to-definition, find-references and hover, over the pack as its
`Workspace` last read and checked it.

A name is found by its word (engine.frontends.lsp.words) and looked up in the symbol table
in the order the checker looks (a const, an enum, a var, a zone, a side, a record, a type,
a graph, a procedure, a value, an event, a window); after a `.` it is a field, an enum's
value (`kind.plain`), an event's state (`battle.rounds`) or a record of a type
(`table.attrition`). Parameters and the names the checker resolved to a rule's own locals
are left out, so a local that shares a global's name is not taken for it."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl.builtins import BUILTINS
from engine.dsl.errors import split_lines
from engine.dsl.model import PackModel
from engine.dsl.types import Type, from_ast
from engine.frontends.lsp.words import Word, word_at, words_of

Key = tuple[str, ...]  # ("record", id), ("proc", name), ("field", name), ("enum_value", e, v)

# the model's tables of declarations, in the checker's order of lookup, and their kind
_DECLARED = (("const", "consts"), ("enum", "enums"), ("var", "vars"), ("zone", "zones"),
             ("graph", "graphs"), ("proc", "procs"), ("value", "values"),
             ("event", "events"), ("window", "windows"))


@attrs.frozen
class Place:
    """A span of one line of a file: 0-based line, columns in characters."""

    path: str
    line: int
    col: int
    end: int


@attrs.define
class PackIndex:
    """The pack's model and files as one check saw them, and where its locals are."""

    model: PackModel
    sources: dict[str, str]  # absolute path -> text (the editor's, for open files)
    result: Any = None  # the CheckResult, when the pack could be checked
    modules: list[Any] = attrs.Factory(list)
    _lines: dict[str, list[str]] = attrs.Factory(dict)
    _locals: set[tuple[str, int, int]] | None = None

    def lines(self, path: str) -> list[str]:
        got = self._lines.get(path)
        if got is None:
            got = self._lines[path] = split_lines(self.sources.get(path, ""))
        return got

    # ---- what a word stands for -----------------------------------------------------------
    def key_at(self, path: str, line: int, col: int) -> tuple[Key, Word] | None:
        """What the name at (line, col) of `path` stands for, and that word."""
        lines = self.lines(path)
        w = word_at(path, lines, line, col)
        if w is None:
            return None
        key = self.key_of(path, lines, w)
        return None if key is None else (key, w)

    def key_of(self, path: str, lines: list[str], w: Word) -> Key | None:
        if w.member:
            return self._member(w)
        if path.endswith((".yaml", ".yml")) and _is_yaml_key(lines[w.line], w):
            return ("field", w.text) if self._field_types(w.text) else None
        if (path, w.line + 1, w.col + 1) in self._local_places():
            return None
        return self.global_key(w.text)

    def global_key(self, name: str) -> Key | None:
        m = self.model
        for kind, table in _DECLARED[:4]:
            if name in getattr(m, table):
                return (kind, name)
        if name in m.sides:
            return ("side", name)
        if name in m.records and not m.own_namespace(m.records[name].type):
            return ("record", name)
        if name in m.types:
            return ("type", name)
        for kind, table in _DECLARED[4:]:
            if name in getattr(m, table):
                return (kind, name)
        return ("builtin", name) if name in BUILTINS else None

    def _member(self, w: Word) -> Key | None:
        m, owner, name = self.model, w.owner, w.text
        if owner in m.types and name in m.records and m.records[name].type == owner:
            return ("record", name)
        if owner in m.enums and name in m.enum_values(owner):
            return ("enum_value", owner, name)
        if owner in m.events and any(f.name == name for f in m.events[owner].state):
            return ("event_state", owner, name)
        return ("field", name) if self._field_types(name) else None

    def _field_types(self, name: str) -> list[str]:
        return [t for t, info in self.model.types.items() if name in info.fields]

    # ---- where it is declared -------------------------------------------------------------
    def definitions(self, key: Key) -> list[Place]:
        m, kind, name = self.model, key[0], key[-1]
        if kind == "record":
            site = m.records[name].site
            return [self._place(site.path, site.line, site.col, name)]
        if kind == "type":
            site = m.types[name].site
            return [self._place(site.path, site.line, site.col, name)]
        if kind == "field":
            sites = [m.types[t].fields[name].site for t in self._field_types(name)]
            return [self._place(s.path, s.line, s.col, name) for s in sites]
        if kind == "enum_value":
            decl = m.enums[key[1]]
            value = next(v for v in decl.values if v.name == name)
            return [self._place(m.decl_paths[key[1]], value.at.line, value.at.col, name)]
        if kind == "event_state":
            state = next(f for f in m.events[key[1]].state if f.name == name)
            return [self._place(m.decl_paths[key[1]], state.at.line, state.at.col, name)]
        if kind == "side":
            return list(self._pack_yaml_places(name))
        decl = self.declaration(key)
        path = m.decl_paths.get(name)
        if decl is None or path is None:
            return []
        return [self._place(path, decl.at.line, decl.at.col, name)]

    def declaration(self, key: Key) -> Any:
        """The declaration of a procedure, value, var, zone, ... (its syntax tree)."""
        table = dict(_DECLARED).get(key[0])
        if table is None:
            return None
        decl = getattr(self.model, table).get(key[-1])
        return decl.decl if key[0] == "window" else decl

    def _place(self, path: str, line: int, col: int, name: str) -> Place:
        """The name as written on the 1-based `line`, from the 1-based `col` on (a
        declaration starts with its keyword: the name follows)."""
        text = self.lines(path)[line - 1] if 0 < line <= len(self.lines(path)) else ""
        for w in words_of(path, [text]):
            if w.col >= col - 1 and w.text == name:
                return Place(path, line - 1, w.col, w.end)
        start = max(col - 1, 0)
        return Place(path, max(line - 1, 0), start, start + len(name))

    def _pack_yaml_places(self, name: str) -> Iterator[Place]:
        path = next((p for p in self.sources if p.endswith("pack.yaml")
                     and p.startswith(self.model.root)), None)
        if path is not None:
            for w in words_of(path, self.lines(path)):
                if w.text == name:
                    yield Place(path, w.line, w.col, w.end)
                    return

    # ---- where it is used -----------------------------------------------------------------
    def references(self, key: Key) -> list[Place]:
        """Every place of the pack's files (rules, and record files) naming `key`, its
        declaration included, in file and line order."""
        found = {(p.path, p.line, p.col): p for p in self.definitions(key)}
        for path in self.sources:
            lines = self.lines(path)
            for w in words_of(path, lines):
                if w.text == key[-1] and self.key_of(path, lines, w) == key:
                    found.setdefault((path, w.line, w.col), Place(path, w.line, w.col, w.end))
        return [found[k] for k in sorted(found)]

    def _local_places(self) -> set[tuple[str, int, int]]:
        """(path, line, col) of each parameter and of each name the checker resolved to a
        local (1-based)."""
        if self._locals is None:
            self._locals = set()
            res = getattr(self.result, "res", None) or {}
            for path, node in self._names():
                got = res.get(id(node))
                if isinstance(node, A.Param) or (got is not None and got[0] == "local"):
                    self._locals.add((path, node.at.line, node.at.col))
        return self._locals

    def _names(self) -> Iterator[tuple[str, Any]]:
        """Every `Name` and `Param` of the pack's syntax trees, with the file it is in."""
        roots: list[tuple[str, Any]] = [(mod.path, mod) for mod in self.modules]
        roots += [(e.site.path, e.body) for e in self.model.effects]
        roots += [(t.path, t.decl) for t in self.model.triggers if t.record is not None]
        for path, root in roots:
            for node in A.subnodes(root):
                if isinstance(node, A.Name | A.Param):
                    yield path, node

    # ---- the type of a name before a `.` ---------------------------------------------------
    def type_before(self, path: str, lines: list[str], line: int, chain: list[str]
                    ) -> Type | None:
        """The type of `a.b...` (the names `chain`) written on the 0-based `line` of the
        editor's `lines` of `path`, as this check typed the same names (the text being typed
        may not parse: the declaration around the line is found again by its first line);
        None when it is not known."""
        t = self._name_type(path, lines, line, chain[0])
        for field in chain[1:]:
            info = self.model.types.get(t) if isinstance(t, str) else None
            f = info.fields.get(field) if info is not None else None
            if f is None:
                return None
            t = f.type
        return t

    def _name_type(self, path: str, lines: list[str], line: int, name: str) -> Type | None:
        types: dict[int, Type] = getattr(self.result, "types", None) or {}
        mod = next((x for x in self.modules if x.path == path), None)
        decl, shift = _enclosing(mod, self.lines(path), lines, line) if mod else (None, 0)
        if decl is not None:  # a parameter or a local of the declaration: the nearest use
            found = [(abs(n.at.line - 1 + shift - line), _type_of(n, types))
                     for n in A.subnodes(decl) if _named(n, name)]
            found = [f for f in found if f[1] is not None]
            if found:
                return min(found, key=lambda f: f[0])[1]
        if name in self.model.records and not self.model.own_namespace(
                self.model.records[name].type):
            return self.model.records[name].type
        res = getattr(self.result, "res", None) or {}
        for _path, node in self._names():  # a global, as any rule uses it
            if isinstance(node, A.Name) and node.id == name and id(node) in types \
                    and res.get(id(node), ("local",))[0] != "local":
                return types[id(node)]
        return None


def _enclosing(mod: Any, old: list[str], now: list[str], line: int) -> tuple[Any, int]:
    """The declaration of `mod` (read from the lines `old`) that the 0-based `line` of the
    lines `now` is in, found by its first line (the nearest one above `line` that starts at
    the left margin), and how many lines further down it now starts (0-based)."""
    head = next((n for n in range(min(line, len(now) - 1), -1, -1)
                 if now[n][:1].isalpha()), None)
    if head is None:
        return None, 0
    same = [d for d in mod.decls
            if 0 < d.at.line <= len(old) and old[d.at.line - 1].strip() == now[head].strip()]
    if not same:
        return None, 0
    decl = min(same, key=lambda d: abs(d.at.line - 1 - head))
    return decl, head - (decl.at.line - 1)


def _named(node: Any, name: str) -> bool:
    return (isinstance(node, A.Name) and node.id == name) or (
        isinstance(node, A.Param) and node.name == name)


def _type_of(node: Any, types: dict[int, Type]) -> Type | None:
    if isinstance(node, A.Param):
        return from_ast(node.type)
    return types.get(id(node))


def _is_yaml_key(line: str, w: Word) -> bool:
    """Is the word the key of a YAML mapping entry (`  ops: 3`, `- id: x`)?"""
    head = line[:w.col].strip()
    return head in ("", "-") and line[w.end:].lstrip().startswith(":")
