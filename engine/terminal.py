"""Playing in a terminal: a side's view as text, and a seat that asks a person.

The person sees only `game.view(side)`. At the prompt: a number picks an action, several
numbers (`1 3`) pick options of a multi-choice or an order, `u` undoes, `s FILE` saves the
game, `q` quits.
"""
from __future__ import annotations

import sys
from typing import Any, Callable

from engine.bots import UNDONE

RECENT = 12  # log lines shown above the prompt
MAX_LISTED = 40  # more legal actions than this: pick options by number instead
WIDTH = 100  # the board's lines are wrapped to this many columns


class QuitGame(Exception):
    """The person asked to stop playing."""


def _cat(game: Any, lang: str) -> Any:
    from engine.translations import Catalog
    return Catalog(game.pack, lang)


def render_view(view: dict[str, Any], cat: Any, recent: int = RECENT,
                board: Any = None, width: int = WIDTH) -> str:
    """A side's view (`game.view(side)`) as lines of text.

    `board` is a pack's `board:` in pack.yaml (dsl.boardspec): a list of the vars that make
    up its board, in order, or a mapping of sections: `vars`, the `turn` track, the `map`
    (places by group, the pieces in them counted per side, pieces with those under them,
    the places' fields) and the zones shown as `cards`. Without one every var is shown.
    Indexed vars show only their entries that are set (not false, 0, empty or none); empty
    zones are left out. Everything comes from the view (what the side may see) and the
    pack's static records; names come from the catalog `cat`."""
    from dsl.boardspec import board_spec
    spec = board_spec(board)
    out = []
    side = view.get("side")
    who = cat.value(side) if side else "spectator"
    out.append(f"== {view.get('pack')} - {who} - {view.get('decisions', 0)} decisions so far ==")
    vars_ = view.get("vars", {})
    names = [n for n in spec.get("vars", []) if n in vars_] if spec else list(vars_)
    turn = _turn_line(view, cat, spec["turn"]) if spec.get("turn") else None
    if names or turn:
        out.append("board:" if spec else "vars:")
        if turn:
            out.append("  " + turn)
        for name in names:
            value = vars_[name]
            if isinstance(value, dict):
                shown = "; ".join(f"{', '.join(cat.value(x) for x in k.split('|'))}: "
                                  f"{cat.value(v)}" for k, v in value.items()
                                  if v not in (False, 0, "", None))
                if shown:
                    out.append(f"  {cat.term(name)}: {shown}")
            else:
                out.append(f"  {cat.term(name)} = {cat.value(value)}")
    on_map: set[str] = set()
    if spec.get("map"):
        lines, on_map = _map_lines(view, cat, spec["map"], width)
        if lines:
            out.append("map:")
            out.extend(lines)
    zones = view.get("zones", {})
    listed = spec.get("cards")
    shown_zones = [(k, v) for k, v in zones.items()
                   if (v.get("count") or v.get("revealed") if isinstance(v, dict) else v)
                   and (k.partition("|")[0] in listed if listed is not None
                        else k.partition("|")[0] not in on_map)]
    if shown_zones:
        out.append("cards:")
        for key, items in shown_zones:
            if isinstance(items, dict):
                n = items.get("count", 0)
                text = f"{n} card{'s' * (n != 1)} (hidden)"
                if items.get("revealed"):
                    text += f"; revealed to you: {cat.value(items['revealed'])}"
            else:
                text = cat.value(items)
            out.extend(_wrap(f"  {cat.zone(key)}: {text}", width))
    lines = [cat.render(e) for e in view.get("log", []) if _shown(e, spec.get("log"))]
    if lines:
        out.append("recent:")
        out.extend("  " + line for line in lines[-recent:])
    if view.get("result"):
        r = view["result"]
        out.append("result: " + (f"{cat.value(r['winner'])} wins" if r.get("winner")
                                 else "no winner") + f" ({r.get('reason')})")
    return "\n".join(out)


def _wrap(line: str, width: int, indent: str = "      ") -> list[str]:
    import textwrap
    if len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)


def _turn_line(view: dict[str, Any], cat: Any, turn: dict[str, Any]) -> str | None:
    """The turn track: "Spring 2 - 2 of 6" (the record of type `of` whose field `by`
    is the var's value, named in the catalog's language), or "Turn = 3"."""
    value = view.get("vars", {}).get(turn["var"])
    if value is None:
        return None
    if not turn.get("of"):
        return f"{cat.term(turn['var'])} = {cat.value(value)}"
    pack = cat.pack
    rids = pack.model.by_type.get(turn["of"], [])
    here = next((r for r in rids if pack.records[r].get(turn["by"]) == value), None)
    count = f"{cat.value(value)} of {len(rids)}"
    return f"{cat.name(here)} - {count}" if here else f"{cat.term(turn['var'])} {count}"


def _unset(tinfo: Any, field: str, value: Any) -> bool:
    """Not worth showing: none, false, 0, empty, or the field's declared default."""
    if value is None or value is False or value == 0 or value in ("", []):
        return True
    f = tinfo.fields.get(field) if tinfo is not None else None
    return f is not None and f.default is not None and value == f.default


def _field_text(cat: Any, field: str, value: Any, named: bool = False) -> str:
    """A field's value as said on the board: a bool by the field's term, a number after it,
    a name (a record, side or enum value) by itself, or after the term when `named`."""
    if value is True:
        return cat.term(field)
    if named or isinstance(value, (int, float)):
        return f"{cat.term(field)} {cat.value(value)}"
    return cat.value(value)


def _pieces_text(items: Any, cat: Any, fields: dict[str, Any], records: dict[str, Any],
                 count_by: str | None, flags: list[str]) -> str:
    """The pieces of one zone, counted per value of `count_by`: "red 8 unit (veteran 2)"."""
    if isinstance(items, dict):  # a zone the side may not see: its count only
        return f"{items.get('count', 0)} hidden"
    groups: dict[Any, list[str]] = {}
    for e in items:
        rec = {**records.get(e, {}), **fields.get(e, {})}
        groups.setdefault(rec.get(count_by) if count_by else None, []).append(e)
    parts = []
    for key, group in groups.items():
        recs = [{**records.get(e, {}), **fields.get(e, {})} for e in group]
        kinds = sorted({cat.value(e) for e in group})
        text = f"{len(group)} {'/'.join(kinds)}"
        if key is not None:
            text = f"{cat.value(key)} {text}"
        marks = [f"{cat.term(f)} {n}" for f in flags
                 if (n := sum(1 for r in recs if r.get(f) is True))]
        parts.append(text + (f" ({', '.join(marks)})" if marks else ""))
    return ", ".join(parts)


def _map_lines(view: dict[str, Any], cat: Any, m: dict[str, Any], width: int
               ) -> tuple[list[str], set[str]]:
    """The map section (board `map:`): one line per group holding a place worth showing in
    detail (pieces standing in it, a var field set), that place on its own line below; the quiet
    groups in a paragraph, each with its `summary` counts. Also the zones it shows."""
    pack = cat.pack
    model = pack.model
    fields = view.get("fields") or {}
    zones = view.get("zones", {})
    ptype = m["places"]
    pinfo = model.types.get(ptype)
    place_zones = list(m.get("zones") or [])
    count_by = m.get("count_by")
    flags = list(m.get("flags") or [])
    shown_fields = list(m.get("fields") or [])
    summary = m.get("summary")
    pieces = {t: ({"at": s} if isinstance(s, str) else dict(s))
              for t, s in (m.get("pieces") or {}).items()}
    on_map = set(place_zones) | {z for s in pieces.values() for z in s.get("zones") or []}

    def rec(rid: str) -> dict[str, Any]:
        return {**pack.records.get(rid, {}), **fields.get(rid, {})}

    def units(zone: str, key: str, label: bool) -> str | None:
        items = zones.get(f"{zone}|{key}")
        if not items or isinstance(items, dict) and not items.get("count"):
            return None
        text = _pieces_text(items, cat, fields, pack.records, count_by, flags)
        return f"{cat.term(zone)} {text}" if label else text

    # pieces standing in places, and those under another piece (`under`: its subordinates)
    at: dict[str, list[tuple[str, str]]] = {}
    under: dict[str, list[str]] = {}

    def of_type(tname: str) -> list[str]:  # records made in play: those the side sees
        return model.by_type.get(tname) or [r for r in fields if r.partition("#")[0] == tname]

    for tname, ps in pieces.items():
        for rid in of_type(tname):
            r = rec(rid)
            if rid not in fields and any(
                    f.var for f in model.types[tname].fields.values()):
                continue  # its place is not in the view: not shown
            above = r.get(ps["under"]) if ps.get("under") else None
            if above:
                under.setdefault(above, []).append(rid)
            elif r.get(ps["at"]):
                at.setdefault(r[ps["at"]], []).append((tname, rid))

    def piece_text(rid: str, tname: str) -> str:
        ps = pieces[tname]
        tinfo = model.types[tname]
        r = rec(rid)
        notes = [_field_text(cat, f, r.get(f)) for f in ps.get("show") or []
                 if not _unset(tinfo, f, r.get(f))]
        subs = under.get(rid, [])
        if subs:
            notes.append("with " + ", ".join(piece_text(s, tname) for s in subs))
        for z in ps.get("zones") or []:
            u = units(z, rid, True)
            if u:
                notes.append(u)
        return cat.value(rid) + (f" ({'; '.join(notes)})" if notes else "")

    groups: dict[Any, list[str]] = {}
    for pid in model.by_type.get(ptype, []):
        groups.setdefault(rec(pid).get(m["group"]) if m.get("group") else None, []).append(pid)
    busy: list[str] = []
    quiet: list[str] = []
    for gid, pids in groups.items():
        counts: dict[Any, int] = {}
        for pid in pids:
            if summary and (summary in rec(pid) or pid in fields):
                v = rec(pid).get(summary)
                counts[v] = counts.get(v, 0) + 1
        ordered = sorted(counts.items(), key=lambda kv: (kv[0] is None, -kv[1]))
        summed = ", ".join(f"{'none' if v is None else cat.value(v)} {n}" for v, n in ordered)
        head = cat.name(gid) if gid is not None else cat.term(ptype)
        if summed:
            head += f" ({cat.term(summary)}: {summed})"
        detail = []
        for pid in pids:
            r = rec(pid)
            parts = [u for i, z in enumerate(place_zones) if (u := units(z, pid, i > 0))]
            parts += [piece_text(rid, t) for t, rid in at.get(pid, [])]
            marked = [f for f in shown_fields if f != summary and pinfo.fields[f].var
                      and not _unset(pinfo, f, r.get(f))]
            if not parts and not marked:
                continue
            notes = [_field_text(cat, f, r.get(f), f in marked) for f in shown_fields
                     if not _unset(pinfo, f, r.get(f))]
            line = f"    {cat.name(pid)}" + (f" ({', '.join(notes)})" if notes else "")
            detail.extend(_wrap(line + (": " + ", ".join(parts) if parts else ""), width))
        if detail:
            busy.append(f"  {head}")
            busy.extend(detail)
        else:
            quiet.append(head)
    out = busy
    line = ""
    for i, head in enumerate(quiet):  # whole entries to a line
        item = head + (";" if i < len(quiet) - 1 else "")
        if line and len(line) + 1 + len(item) > width:
            out.append(line)
            line = ""
        line = f"{line} {item}" if line else f"  {item}"
    if line:
        out.append(line)
    return out, on_map


def action_label(action: Any, cat: Any, kind: str, each: bool = False) -> str:
    """An action as a person reads it; `each`: it answers a pick of a one-at-a-time choice,
    where none means "done"."""
    if kind == "ask":
        return "yes" if action else "no"
    if action is None:
        return "done (pick no more)" if each else "pass (choose nothing)"
    if isinstance(action, list):
        return cat.value(action) if action else "nothing"
    return cat.value(action)


def describe_decision(decision: dict[str, Any], cat: Any) -> str:
    """The question, its placeholders filled with names in the catalog's language."""
    kind = decision.get("kind")
    window = decision.get("window")
    if window and not decision.get("prompt"):
        return f"{cat.value(decision.get('side'))}: respond ({cat.term(window)}): " \
            "play a card or pass"
    each = decision.get("each")
    text = decision.get("prompt")
    args = decision.get("args")
    if text and args is not None:
        try:
            text = text.format(*[cat.value(a) for a in args])
        except (IndexError, KeyError, ValueError):
            pass
    if not text and each:
        text = f"choose {each['min']} to {each['max']}, one at a time"
    text = text or {
        "one": "choose one", "ask": "yes or no?", "order": "put these in order",
        "many": f"choose {decision.get('min')} to {decision.get('max')}"}.get(kind, kind)
    if each:
        text += f" (picked so far: {cat.value(each['picked'])})"
    return f"{cat.value(decision.get('side'))}: {text}"


class HumanPlayer:
    """A seat played by a person at a terminal (or by any `input`/`output` pair)."""

    name = "human"
    sees_hidden = False
    interactive = True

    def __init__(self, lang: str = "en", input: Callable[[str], str] | None = None,
                 output: Callable[[str], None] | None = None, stream: Any = None):
        """`input`/`output` replace reading and printing; `stream` (default stdout) is
        where the default output and the prompt go."""
        self.lang = lang
        self._stream = stream
        self._input = input or (lambda prompt: _read_line(prompt, self._stream or sys.stdout))
        self._output = output or (lambda s: print(s, file=self._stream or sys.stdout,
                                                  flush=True))

    def choose(self, game: Any, side: str) -> Any:
        cat = _cat(game, self.lang)
        view = game.view(side)
        decision = view["decision"]
        legal = view["legal_actions"]
        self._output(render_view(view, cat, board=game.pack.meta.get("board")))
        self._output(describe_decision(decision, cat))
        listed = len(legal) <= MAX_LISTED
        if listed:
            each = decision.get("each") is not None
            for i, a in enumerate(legal, 1):
                self._output(f"  {i}) {action_label(a, cat, decision['kind'], each)}")
        else:
            opts = decision["options"]
            for i, o in enumerate(opts, 1):
                self._output(f"  {i}) {cat.value(o)}")
            if decision["kind"] == "one":
                self._output("enter an option's number" + (
                    " (0: done)" if decision.get("each") else " (0: none)")
                    * bool(decision.get("optional")))
            else:
                self._output("enter option numbers separated by spaces"
                             + (" (all of them, in order)" if decision["kind"] == "order"
                                else ""))
        self._output("  (u = undo, s FILE = save, q = quit)")
        while True:
            try:
                line = self._input("> ").strip()
            except EOFError:
                raise QuitGame() from None
            if not line:
                continue
            if line == "q":
                raise QuitGame()
            if line == "u":
                if game.can_undo(side):
                    game.undo(side)
                    self._output("undone")
                    return UNDONE
                self._output("nothing to undo (undo stops at dice, draws, reveals and the "
                             "other side's decisions)")
                continue
            if line == "s" or line.startswith("s "):
                path = line[1:].strip()
                if not path:
                    self._output("save where? s FILE")
                    continue
                try:
                    with open(path, "w", encoding="utf-8") as fh:
                        fh.write(game.save())
                except OSError as err:
                    self._output(f"cannot save: {err}")
                    continue
                self._output(f"saved to {path}")
                continue
            action = self._parse(line, legal, decision, listed)
            if action is _BAD:
                self._output(f"enter a number from 1 to {len(legal) if listed else len(decision['options'])}, "
                             "or u, s FILE, q")
                continue
            from engine.errors import IllegalAction
            try:
                return game.validate(action, side, decision["id"])
            except IllegalAction as err:
                self._output(f"not allowed: {err}")

    @staticmethod
    def _parse(line: str, legal: list[Any], decision: dict[str, Any], listed: bool) -> Any:
        try:
            nums = [int(x) for x in line.replace(",", " ").split()]
        except ValueError:
            return _BAD
        if listed:
            if len(nums) == 1 and 1 <= nums[0] <= len(legal):
                return legal[nums[0] - 1]
            return _BAD
        opts = decision["options"]
        if decision["kind"] == "one":  # one option (by number), or 0 for none when optional
            if len(nums) != 1:
                return _BAD
            if nums[0] == 0 and decision.get("optional"):
                return None
            return opts[nums[0] - 1] if 1 <= nums[0] <= len(opts) else _BAD
        if not all(1 <= n <= len(opts) for n in nums):
            return _BAD
        return [opts[n - 1] for n in nums]


_BAD = object()


def _read_line(prompt: str, stream: Any) -> str:
    stream.write(prompt)
    stream.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")


SENTENCES = ("say", "end")  # what a pack that narrates its play (board `log: sentences`) shows


def _shown(entry: dict[str, Any], style: str | None) -> bool:
    """Whether a log entry is shown above the prompt: a narrating pack's sentences and the
    result, or every entry but rule bookkeeping."""
    t = entry.get("t")
    return t in SENTENCES if style == "sentences" else t not in ("trigger", "done")


def render_log(log: list[dict[str, Any]], cat: Any, trace: bool = False,
               sentences: bool = False) -> list[str]:
    """The log as readable lines, indented by event nesting; rule traces only with `trace`.
    With `sentences` (a pack whose board says `log: sentences`, unless tracing) only the
    pack's own sentences and the result, as a player at the table would tell the game."""
    if sentences and not trace:
        return [cat.render(e) for e in log if e.get("t") in SENTENCES]
    out = []
    depth = 0
    for e in log:
        t = e.get("t")
        if t == "done":
            depth = max(0, depth - 1)
            if trace:
                out.append("  " * depth + cat.render(e))
            continue
        if t == "trigger" and not trace:
            continue
        out.append("  " * depth + cat.render(e))
        if t == "event":
            depth += 1
    return out
