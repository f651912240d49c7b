"""The builder: PyYAML's event stream into located values (`load_yaml`), duplicate keys,
merges and anchors checked, with limits on nesting and on what aliases expand to.
"""
from __future__ import annotations

import re
from typing import Any

import attrs

from engine.dsl.errors import Diagnostic, position_of, sort_key, split_lines
from engine.dsl.yamlload.located import Loc, YList, YMap
from engine.dsl.yamlload.scalars import STD, resolve_plain, resolve_tagged, tag_name

# PyYAML and its fastest safe loader, imported by `load_yaml` when first needed: reading
# values back from the build cache (locations included) parses no YAML.
yaml: Any = None
_LOADER: Any = None


def _pyyaml() -> None:
    global yaml, _LOADER
    if yaml is None:
        import yaml as module
        _LOADER = getattr(module, "CSafeLoader", module.SafeLoader)
        yaml = module

# Deeper records are surely a mistake, and later recursive passes would choke.
MAX_DEPTH = 100

# An alias shares its value, but every later pass (checks, copies, generated code)
# walks it once per use: nested aliases multiply, and a 1 kB file can stand for
# billions of values. Values added by aliases count against this budget per file;
# a long text counts one value per TEXT_PER_NODE characters, since passes copy
# and parse texts too.
MAX_ALIAS_NODES = 100_000
TEXT_PER_NODE = 100

_MAP_TAGS = (None, "!", STD + "map")
_SEQ_TAGS = (None, "!", STD + "seq")

# Characters the YAML reader refuses (same set as PyYAML's reader).
_NON_PRINTABLE = re.compile(
    "[^\x09\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)

@attrs.define
class _Anchor:
    value: Any
    style: str | None
    open: bool  # still being built: an alias to it would be recursive
    size: int = 1  # values it stands for, aliases expanded (see MAX_ALIAS_NODES)
    height: int = 0  # nesting levels inside it: 0 for a scalar, 1 for a flat list


@attrs.define
class _Frame:
    value: YMap | YList
    anchor: str | None = None
    start: int = 0  # the builder's value count when this collection opened
    height: int = 0  # the deepest nesting among its items so far
    # Mapping state: the key waiting for its value.
    has_key: bool = False
    key: Any = None
    key_text: str = ""
    key_loc: Loc | None = None
    key_end: int | None = None
    key_bad: bool = False
    key_merge: bool = False
    seen: dict[Any, int] = attrs.Factory(dict)  # key -> line first written
    merges: list[YMap] = attrs.Factory(list)


class _Fatal(Exception):
    """Stop building: the document cannot be read any further."""


class _Builder:
    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.diags: list[Diagnostic] = []
        self.stack: list[_Frame] = []
        self.anchors: dict[str, _Anchor] = {}
        self.root: Any = None
        self._lines: list[str] | None = None
        self.nodes = 0  # values so far, counting what aliases stand for
        self.alias_nodes = 0  # the part of `nodes` that aliases added

    # -- diagnostics -------------------------------------------------------

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = split_lines(self.text)
        return self._lines

    def diag(self, code: str, message: str, line: int, col: int,
             end_col: int | None = None, suggestion: str | None = None) -> None:
        text = self.lines[line - 1] if 1 <= line <= len(self.lines) else ""
        # Show refused characters as U+FFFD: still one column, always printable.
        text = _NON_PRINTABLE.sub("\ufffd", text)
        self.diags.append(Diagnostic(code, message, self.path, line, col, text, end_col,
                                     suggestion))

    def diag_at(self, code: str, message: str, start: Any, end: Any = None) -> None:
        end_col = None
        if end is not None and end.line == start.line and end.column > start.column:
            end_col = end.column + 1
        self.diag(code, message, start.line + 1, start.column + 1, end_col)

    def clamp(self, line: int, col: int) -> tuple[int, int]:
        """Move a mark past the end of the text onto the last written line."""
        if line <= len(self.lines):
            return max(line, 1), max(col, 1)
        filled = [i for i, s in enumerate(self.lines) if s.strip()]
        if not filled:
            return 1, 1
        return filled[-1] + 1, len(self.lines[filled[-1]]) + 1

    def fatal(self, message: str, line: int, col: int, suggestion: str | None = None) -> None:
        line, col = self.clamp(line, col)
        self.diag("E001", message, line, col, None, suggestion)

    def syntax_error(self, exc: yaml.MarkedYAMLError) -> None:
        """E001 in plain words, with a hint, for the mistakes people make (`plain_syntax`);
        PyYAML's own words for the rest."""
        mark = exc.problem_mark or exc.context_mark
        line, col = self.clamp(mark.line + 1, mark.column + 1) if mark else (1, 1)
        ctx = exc.context_mark
        ctx_at = self.clamp(ctx.line + 1, ctx.column + 1) if ctx is not None else None
        plain = plain_syntax(exc.problem or "", exc.context or "", self.lines, (line, col),
                             ctx_at)
        if plain is not None:
            said, hint, (line, col) = plain
            self.fatal(said, line, col, hint)
            return
        message = exc.problem or exc.context or "invalid YAML"
        if exc.problem and exc.context:
            if ctx is not None and ctx.line + 1 != line:
                message += f" ({exc.context} at line {ctx.line + 1})"
            else:
                message += f" ({exc.context})"
        src = self.lines[line - 1] if line <= len(self.lines) else ""
        tabbed = "\t" in src[: len(src) - len(src.lstrip())]
        self.fatal(message, line, col, TAB_HINT if tabbed else None)

    def bad_character(self, reason: str, index: int | None = None) -> None:
        m = _NON_PRINTABLE.search(self.text)
        if m is not None:
            index = m.start()
        if index is None or index >= len(self.text):
            self.fatal(f"unreadable YAML text: {reason}", 1, 1)
            return
        line, col = position_of(self.text, index)
        self.fatal(f"unacceptable character U+{ord(self.text[index]):04X}: {reason}", line, col,
                   "remove it, or write it as an escape inside a double-quoted string")

    def loc(self, mark: Any, style: str | None = None) -> Loc:
        return Loc(self.path, mark.line + 1, mark.column + 1, style or None)

    # -- events ------------------------------------------------------------

    def build(self, events: Any) -> Any:
        documents = 0
        for ev in events:
            kind = type(ev)
            if kind is yaml.ScalarEvent:
                self.scalar(ev)
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                self.open(ev)
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                self.close()
            elif kind is yaml.AliasEvent:
                self.alias(ev)
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    m = ev.start_mark
                    self.fatal("expected a single document in the stream, but found another "
                               "document", m.line + 1, m.column + 1)
                    raise _Fatal
        return self.root

    def expecting_key(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].value, YMap) \
            and not self.stack[-1].has_key

    def scalar(self, ev: Any) -> None:
        style = ev.style or None
        is_key = self.expecting_key()
        if ev.tag is None:
            value, problem = resolve_plain(ev.value, is_key=is_key) if style is None \
                else (ev.value, None)
        else:
            value, problem = resolve_tagged(ev.value, ev.tag)
        if problem is not None:
            self.diag_at(problem[0], problem[1], ev.start_mark, ev.end_mark)
        size = 1 + len(ev.value) // TEXT_PER_NODE
        self.nodes += size
        if ev.anchor:
            self.anchors[ev.anchor] = _Anchor(value, style, open=False, size=size)
        merge = is_key and style is None and ev.tag is None and ev.value == "<<"
        self.deliver(value, self.loc(ev.start_mark, style), ev.value, ev.end_mark, merge)

    def alias(self, ev: Any) -> None:
        anchor = self.anchors.get(ev.anchor)
        m = ev.start_mark
        if anchor is None:
            self.fatal(f"found undefined alias '*{ev.anchor}'", m.line + 1, m.column + 1)
            raise _Fatal
        value = anchor.value
        if anchor.open:
            self.diag_at("E006", f"recursive alias '*{ev.anchor}': a collection cannot "
                         "contain itself", m, ev.end_mark)
            value = None
        else:
            self.check_expansion(ev, anchor)
        text = value if isinstance(value, str) else f"*{ev.anchor}"
        self.deliver(value, self.loc(m, anchor.style), text, ev.end_mark, False,
                     0 if anchor.open else anchor.height)

    def check_expansion(self, ev: Any, anchor: _Anchor) -> None:
        """Count what the alias stands for; stop when the document grows too big or deep."""
        if len(self.stack) + anchor.height > MAX_DEPTH:
            self.diag_at("E006", f"alias '*{ev.anchor}' nests the document deeper than "
                         f"{MAX_DEPTH} levels", ev.start_mark, ev.end_mark)
            raise _Fatal
        self.nodes += anchor.size
        self.alias_nodes += anchor.size
        if self.alias_nodes > MAX_ALIAS_NODES:
            m = ev.start_mark
            line, col = m.line + 1, m.column + 1
            end = ev.end_mark.column + 1 if ev.end_mark.line == m.line else None
            self.diag("E007", f"aliases expand this file past {MAX_ALIAS_NODES:,} values "
                      f"(each use of '*{ev.anchor}' repeats {anchor.size:,})", line, col, end,
                      "write the values out, or use fewer (and less nested) aliases")
            raise _Fatal

    def open(self, ev: Any) -> None:
        m = ev.start_mark
        if len(self.stack) >= MAX_DEPTH:
            self.diag("E006", f"nesting deeper than {MAX_DEPTH} levels", m.line + 1, m.column + 1)
            raise _Fatal
        is_map = type(ev) is yaml.MappingStartEvent
        if ev.tag not in (_MAP_TAGS if is_map else _SEQ_TAGS):
            what = "mapping" if is_map else "sequence"
            self.diag("E005", f"unsupported tag '{tag_name(ev.tag)}' on a {what}",
                      m.line + 1, m.column + 1)
        cls = YMap if is_map else YList
        value = cls(path=self.path, line=m.line + 1, col=m.column + 1)
        if ev.anchor:
            self.anchors[ev.anchor] = _Anchor(value, None, open=True)
        self.stack.append(_Frame(value, ev.anchor, start=self.nodes))
        self.nodes += 1

    def close(self) -> None:
        frame = self.stack.pop()
        value = frame.value
        if isinstance(value, YMap):
            # Merge keys (`<<: *base`): written keys win, earlier sources win.
            for src in frame.merges:
                for k, v in src.items():
                    if k not in value:
                        value[k] = v
                        value.key_loc[k] = src.key_loc.get(k, src.loc)
                        value.val_loc[k] = src.val_loc.get(k, src.loc)
        height = frame.height + 1
        anchor = self.anchors.get(frame.anchor) if frame.anchor is not None else None
        if anchor is not None and anchor.value is value:
            anchor.open = False
            anchor.size = self.nodes - frame.start
            anchor.height = height
        self.deliver(value, value.loc, "", None, False, height)

    def deliver(self, value: Any, loc: Loc, text: str, end: Any, merge: bool,
                height: int = 0) -> None:
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        frame.height = max(frame.height, height)
        target = frame.value
        if isinstance(target, YList):
            target.append(value)
            target.item_loc.append(loc)
            return
        if not frame.has_key:
            frame.has_key = True
            frame.key, frame.key_text, frame.key_loc, frame.key_merge = value, text, loc, merge
            same_line = end is not None and end.line + 1 == loc.line
            frame.key_end = end.column + 1 if same_line else None
            frame.key_bad = isinstance(value, (YMap, YList))
            if frame.key_bad:
                self.diag("E006", "mapping keys must be plain values, not mappings or lists",
                          loc.line, loc.col)
            return
        frame.has_key = False
        if frame.key_bad:
            return
        key, kloc = frame.key, frame.key_loc
        assert kloc is not None
        if key in frame.seen:
            self.diag("E002", f"duplicate key '{frame.key_text}' (first at line "
                      f"{frame.seen[key]})", kloc.line, kloc.col, frame.key_end)
            return  # the first one stays, as the message says
        frame.seen[key] = kloc.line
        if frame.key_merge:
            self.merge(frame, value, loc)
            return
        target[key] = value
        target.key_loc[key] = kloc
        target.val_loc[key] = loc

    def merge(self, frame: _Frame, value: Any, loc: Loc) -> None:
        if isinstance(value, YMap):
            frame.merges.append(value)
        elif isinstance(value, YList) and all(isinstance(v, YMap) for v in value):
            frame.merges.extend(value)
        else:
            self.diag("E006", "merge key '<<' needs a mapping or a list of mappings", loc.line,
                      loc.col)


TAB_HINT = "indent with spaces: YAML does not allow tabs for indentation"


def plain_syntax(problem: str, context: str, lines: list[str], at: tuple[int, int],
                 opened: tuple[int, int] | None
                 ) -> tuple[str, str, tuple[int, int]] | None:
    """PyYAML's scanner and parser errors that people make most (a line indented wrongly, a
    tab, a quote or bracket left open, a `: ` inside a value) said in plain words: (message,
    hint, where), `where` the place to look (a quote or bracket left open: where it opens).
    None for another error. `problem` and `context` are PyYAML's texts (the C and the Python
    loader word them apart), `at` its mark, `opened` its context mark."""
    line, col = at
    src = lines[line - 1] if 1 <= line <= len(lines) else ""
    indent = src[: len(src) - len(src.lstrip())]
    if "tab" in problem or "\t" in indent or "cannot start any token" in problem \
            and 1 <= col <= len(src) and src[col - 1] == "\t":
        tab = src.find("\t") + 1 if "\t" in src else col
        return "a tab character in the indentation", TAB_HINT, (line, tab)
    if "quoted scalar" in context and "end of stream" in problem:
        return ("a quoted text is never closed",
                "end the text with the same quote mark it starts with (\" or ')",
                opened or at)
    for kind, close in (("flow sequence", "]"), ("flow mapping", "}")):
        if kind in context and ("expected ','" in problem):
            what = "list" if close == "]" else "mapping"
            return (f"a {what} in brackets is not closed",
                    f"close it with '{close}' and separate its items with ','", opened or at)
    if "mapping values are not allowed" in problem:
        before = src[: col - 1]
        if ": " in before or before.rstrip().endswith(":"):
            key = before.split(":", 1)[0].strip().lstrip("- ")
            value = src.split(":", 1)[1].strip()
            quote = "'" if '"' in value else '"'
            return ("a ': ' inside a value (YAML reads it as a second key)",
                    f"quote the value: {key}: {quote}{value}{quote}", at)
        return ("this line is indented deeper than the key above it, whose value is "
                "already given",
                "indent it as far as the key above, or put the key above's value here",
                (line, len(indent) + 1))
    if "expected key" in problem and "block mapping" in context:
        above = f" the keys of the mapping at line {opened[0]}" if opened else " the keys above"
        return ("this line's indentation does not match the lines above it",
                f"indent it with as many spaces as{above}", (line, len(indent) + 1))
    if "expected '-' indicator" in problem or "expected <block end>" in problem:
        return ("this line's indentation does not match the lines above it",
                "start a list item with '- ' at the list's indentation, or indent the line "
                "as far as the keys of the item above", (line, len(indent) + 1))
    if "cannot start any token" in problem and 1 <= col <= len(src):
        return (f"'{src[col - 1]}' cannot start a value",
                "put the value in quotes", at)
    return None


def load_yaml(path: str, text: str) -> tuple[object, list[Diagnostic]]:
    """Parse one YAML document into located values; never raises on bad input.

    Returns (data, diagnostics) sorted by position. On E001 the data is None.
    An empty document gives (None, []).
    """
    # The reader skips a leading byte-order mark; dropping it keeps our
    # source lines in step with the parser's columns.
    text = text.removeprefix("\ufeff")
    _pyyaml()
    builder = _Builder(path, text)
    data: Any = None
    try:
        data = builder.build(yaml.parse(text, Loader=_LOADER))
    except _Fatal:
        data = None
    except yaml.MarkedYAMLError as exc:
        builder.syntax_error(exc)
        data = None
    except yaml.reader.ReaderError as exc:
        builder.bad_character(exc.reason or "not allowed in YAML")
        data = None
    except UnicodeError as exc:
        # The C reader encodes to UTF-8 first; lone surrogates fail there.
        start = getattr(exc, "start", None)
        builder.bad_character("not valid Unicode", start if isinstance(start, int) else None)
        data = None
    except yaml.YAMLError as exc:
        builder.fatal(f"invalid YAML: {exc}", 1, 1)
        data = None
    return data, sorted(builder.diags, key=sort_key)
