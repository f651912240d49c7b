"""Playing in a terminal: a side's view as text, and a seat that asks a person.

The person sees only `game.view(side)`: the board (pack.yaml `board:`), then everything
logged since this person's previous decision (the other seats' whole turn, in one block under
"since your last decision:", after a few earlier lines for context), then the question and its
options, each by its name in the pack's language (a record of a type in board `show:` with
those fields). At the prompt: a number picks an action, several numbers (`1 3`) pick options
of a multi-choice or an order, `u` undoes, `s FILE` saves the game, `l` pages the whole log,
`?` or `help` lists these commands, `q` quits.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from engine.frontends.bots import UNDONE
from engine.i18n import ntr, tr

RECENT = 12  # log lines shown above the prompt at least (earlier ones for context)
MAX_LISTED = 40  # more legal actions than this: pick options by number instead
WIDTH = 100  # the board's lines are wrapped to this many columns


class QuitGame(Exception):
    """The person asked to stop playing."""


def _cat(game: Any, lang: str) -> Any:
    from engine.i18n.translations import Catalog
    return Catalog(game.pack, lang)


class Namer:
    """Values as the board names them: a record of a type in board `show:` is its name and
    those fields ("Spearmen (strength 3, veteran)"; a path `a.b` is said after the name of
    the record `a` names: "Spearmen (Front: cost 2)"); anything else its name in the
    catalog. `fields` are the record fields in play the side sees (the view's)."""

    def __init__(self, cat: Any, show: dict[str, list[str]] | None = None,
                 fields: dict[str, dict[str, Any]] | None = None):
        self.cat = cat
        self.show = show or {}
        self.fields = fields or {}
        self._details: dict[str, str] = {}  # a record's details, said once per Namer

    def __call__(self, v: Any) -> str:
        if isinstance(v, list) and v and self.show:
            named = [self(x) for x in v]
            if any(isinstance(x, str) and self.details(x) for x in v):
                return "; ".join(named)  # the fields' commas are inside each
            return self.cat.value(v)
        if isinstance(v, str) and self.show:
            details = self.details(v)
            if details:
                return f"{self.cat.value(v)} ({details})"
        return self.cat.value(v)

    def _rec(self, rid: str) -> dict[str, Any]:
        pack = self.cat.pack
        return {**pack.records.get(rid, {}), **self.fields.get(rid, {})}

    def _type(self, rid: str) -> str | None:
        rec = self.cat.pack.model.records.get(rid)
        if rec is not None:
            return rec.type
        kind, hash_, _ = rid.partition("#")  # a record made in play
        return kind if hash_ else None

    def details(self, rid: str) -> str:
        """The `show:` fields of the record `rid`, or "" (none shown, or not a record)."""
        said = self._details.get(rid)
        if said is None:
            said = self._details[rid] = self._say_details(rid)
        return said

    def _say_details(self, rid: str) -> str:
        paths = self.show.get(self._type(rid) or "")
        if not paths:
            return ""
        own: list[str] = []
        through: dict[str, list[str]] = {}  # by the record a path goes through
        for path in paths:
            *heads, last = path.split(".")
            rec = rid
            for h in heads:
                rec = self._rec(rec).get(h)
                if not isinstance(rec, str):
                    break
            else:
                text = self._field(self._type(rec), last, self._rec(rec).get(last))
                if text:
                    (through.setdefault(rec, []) if heads else own).append(text)
        parts = [", ".join(own)] if own else []
        parts += [f"{self.cat.value(r)}: {', '.join(ts)}" for r, ts in through.items()]
        return "; ".join(parts)

    def _field(self, rtype: str | None, field: str, value: Any) -> str:
        """A field of a record of type `rtype` as said after a name: a true bool by its
        term, a number or a name after it; nothing for false and none."""
        if value is None or value is False:
            return ""
        term = self.cat.field_term(rtype, field)
        if value is True:
            return term
        return f"{term} {self.cat.value(value)}"


def render_view(view: dict[str, Any], cat: Any, recent: int = RECENT,
                board: Any = None, width: int = WIDTH, since: int | None = None) -> str:
    """A side's view (`game.view(side)`) as lines of text.

    `board` is a pack's `board:` in pack.yaml (engine.dsl.boardspec): a list of the vars that make
    up its board, in order, or a mapping of sections: `vars`, the `turn` track, the `map`
    (places by group, the pieces in them counted per side, pieces with those under them,
    the places' fields), the zones shown as `cards` and the fields `show`n with a record.
    Without one every var is shown. Indexed vars show only their entries that are set (not
    false, 0, empty or none); empty zones are left out. Everything comes from the view (what
    the side may see) and the pack's static records; names come from the catalog `cat`.
    The log: with `since` (the length of the view's log at this person's previous decision),
    every line logged after it under "since your last decision:", after earlier lines up to
    `recent` in all; else the last `recent` lines."""
    from engine.dsl.boardspec import board_spec
    spec = board_spec(board)
    out = []
    lang = cat.lang
    side = view.get("side")
    # i18n: who watches a game without playing a side
    who = cat.value(side) if side else tr(lang, "spectator")
    pack = cat.pack
    title = pack.name if view.get("pack") == pack.id and getattr(pack, "name", None) \
        else view.get("pack")
    n = view.get("decisions", 0)
    # i18n: the head of a screen: the game's title, the side playing, decisions made
    out.append(ntr(lang, "== {title} - {who} - {n} decision so far ==",
                   "== {title} - {who} - {n} decisions so far ==", n, title=title, who=who))
    for head, lines in board_sections(view, cat, spec, width):
        out.append(head)
        out.extend(lines)
    out.extend(_log_block(view, cat, spec, recent, since))
    if view.get("result"):
        r = view["result"]
        # i18n: outcome: "Rome wins (the reason)", "Rome wins" or "no winner"
        out.append(tr(lang, "result: {outcome}", outcome=cat.outcome(
            r.get("winner"), cat.reason(r.get("reason"), view.get("log", [])))))
    return "\n".join(out)


def board_sections(view: dict[str, Any], cat: Any, spec: dict[str, Any], width: int = WIDTH
                   ) -> list[tuple[str, list[str]]]:
    """The board of a side's view as (head, lines) sections, in order: the labelled vars and
    the turn track ("board:"), the map, the cards. `spec` is the pack's board spec
    (engine.dsl.boardspec.board_spec); see `render_view`."""
    name = Namer(cat, spec.get("show"), view.get("fields"))
    lang = cat.lang
    sections: list[tuple[str, list[str]]] = []
    vars_ = view.get("vars", {})
    names = [n for n in spec.get("vars", []) if n in vars_] if spec else list(vars_)
    turn = _turn_line(view, cat, spec["turn"]) if spec.get("turn") else None
    if names or turn:
        lines = []
        # i18n: the heads of a screen's parts, each followed by its lines
        sections.append((tr(lang, "board:") if spec else tr(lang, "vars:"), lines))
        if turn:
            lines.append("  " + turn)
        for var in names:
            value = vars_[var]
            if isinstance(value, dict):
                shown = "; ".join(f"{', '.join(cat.value(x) for x in k.split('|'))}: "
                                  f"{cat.value(v)}" for k, v in value.items()
                                  if v not in (False, 0, "", None))
                if shown:
                    lines.append(f"  {cat.term(var)}: {shown}")
            else:
                lines.append(f"  {cat.term(var)} = {cat.value(value)}")
    on_map: set[str] = set()
    if spec.get("map"):
        lines, on_map = _map_lines(view, cat, spec["map"], width)
        if lines:
            sections.append((tr(lang, "map:"), lines))
    zones = view.get("zones", {})
    listed = spec.get("cards")
    shown_zones = [(k, v) for k, v in zones.items()
                   if (v.get("count") or v.get("revealed") if isinstance(v, dict) else v)
                   and (k.partition("|")[0] in listed if listed is not None
                        else k.partition("|")[0] not in on_map)]
    if shown_zones:
        lines = []
        sections.append((tr(lang, "cards:"), lines))
        for key, items in shown_zones:
            if isinstance(items, dict):
                n = items.get("count", 0)
                # i18n: the cards of a zone the player may not see, counted
                text = ntr(lang, "{n} card (hidden)", "{n} cards (hidden)", n)
                if items.get("revealed"):
                    # i18n: hidden: "3 cards (hidden)"; cards: those shown to this player
                    text = tr(lang, "{hidden}; revealed to you: {cards}", hidden=text,
                              cards=name(items["revealed"]))
            elif any(isinstance(e, str) and name.details(e) for e in items):
                lines.append(f"  {cat.zone(key)}:")  # one card a line, with its fields
                for e in items:
                    lines.extend(_wrap(f"    {name(e)}", width))
                continue
            else:
                text = cat.value(items)
            lines.extend(_wrap(f"  {cat.zone(key)}: {text}", width))
    return sections


def _log_block(view: dict[str, Any], cat: Any, spec: dict[str, Any], recent: int,
               since: int | None) -> list[str]:
    """The log above the prompt: the lines logged from entry `since` on, under their own
    head, after earlier lines up to `recent` in all; without `since`, the last `recent`."""
    lines = log_lines(view.get("log", []), cat, sentences=spec.get("log") == "sentences")
    start = len(lines) if since is None else \
        next((i for i, (at, _) in enumerate(lines) if at >= since), len(lines))
    new = [text for _, text in lines[start:]]
    context = max(0, recent - len(new))
    old = [text for _, text in lines[max(0, start - context):start]]
    out = []
    lang = cat.lang
    if old:
        # i18n: the log lines before those new to the player; "recent:" when none is new
        out.append(tr(lang, "earlier:") if new else tr(lang, "recent:"))
        out.extend("  " + line for line in old)
    if new:
        out.append(tr(lang, "since the game began:") if since == 0
                   else tr(lang, "since your last decision:"))
        out.extend("  " + line for line in new)
    return out


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
    # i18n: the turn track: "2 of 6" (turn 2 of the game's 6)
    count = tr(cat.lang, "{n} of {total}", n=cat.value(value), total=len(rids))
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
        # i18n: pieces on the map the player may not see, counted
        return ntr(cat.lang, "{n} hidden", "{n} hidden", items.get("count", 0))
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
        if subs:  # i18n: the pieces under a piece on the map (a leader's units)
            notes.append(tr(cat.lang, "with {pieces}",
                            pieces=", ".join(piece_text(s, tname) for s in subs)))
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
        # i18n: a place's field that is not set, in a group's count ("control: none 3")
        summed = ", ".join(f"{tr(cat.lang, 'none') if v is None else cat.value(v)} {n}"
                           for v, n in ordered)
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


def action_label(action: Any, cat: Any, kind: str, each: bool = False,
                 name: Callable[[Any], str] | None = None) -> str:
    """An action as a person reads it; `each`: it answers a pick of a one-at-a-time choice,
    where none means "done". `name` names a value (default: its name in `cat`; a `Namer`
    adds a record's board `show:` fields)."""
    lang = cat.lang
    if kind == "ask":
        return tr(lang, "yes") if action else tr(lang, "no")
    if action is None:
        # i18n: the option that ends a one-at-a-time pick, or declines an optional choice
        return tr(lang, "done (pick no more)") if each else tr(lang, "pass (choose nothing)")
    if isinstance(action, list) and not action:
        return tr(lang, "nothing")
    return (name or cat.value)(action)


def describe_decision(decision: dict[str, Any], cat: Any) -> str:
    """The question, its placeholders filled with names in the catalog's language, after the
    deciding side's name (unless the question starts with it already)."""
    kind = decision.get("kind")
    window = decision.get("window")
    lang = cat.lang
    who = cat.value(decision.get("side"))
    if window and not decision.get("prompt"):
        # i18n: side: who may respond; window: what it may respond to
        return tr(lang, "{side}: respond ({window}): play a card or pass", side=who,
                  window=cat.term(window))
    each = decision.get("each")
    text = decision.get("prompt")
    if text:  # the rules' prompt, in the pack's language where it has a translation
        text = cat.message(text) or text
    args = decision.get("args")
    if text and args is not None:
        try:
            text = text.format(*[cat.value(a) for a in args])
        except (IndexError, KeyError, ValueError):
            pass
    if not text and each:
        text = tr(lang, "choose {min} to {max}, one at a time", min=each["min"],
                  max=each["max"])
    if not text:  # i18n: a question the rules ask without a prompt of their own
        text = {"one": tr(lang, "choose one"), "ask": tr(lang, "yes or no?"),
                "order": tr(lang, "put these in order"),
                "many": tr(lang, "choose {min} to {max}", min=decision.get("min"),
                           max=decision.get("max"))}.get(kind, kind)
    if each:
        # i18n: question: the question asked; picked: the items picked so far
        text = tr(lang, "{question} (picked so far: {picked})", question=text,
                  picked=cat.value(each["picked"]))
    if text.casefold().startswith(f"{who}:".casefold()):
        return text
    return f"{who}: {text}"


def since_last_decision(view: dict[str, Any]) -> int:
    """Where the view's log goes on after its side's last decision (its last choice entry):
    0 when the side has not decided yet."""
    side = view.get("side")
    log = view.get("log", [])
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e.get("t") == "choice" and e.get("side") == side:
            return i + 1
    return 0


def help_text(lang: str) -> str:
    """The commands at the prompt, in `lang` (`?` or `help` shows them)."""
    # the commands (N, u, s, l, ?, help, q) are typed as they are in any language
    # i18n: keep the command letters and "help" as they are, and the columns lined up
    return tr(lang, """commands:
  N         pick option N (a question of several options: their numbers, e.g. 1 3)
  u         undo your last decision
  s FILE    save the game to FILE (engine play PACK --load FILE goes on with it)
  l         the whole log, page by page (Enter: next page, q: back to the question)
  ? or help this list
  q         quit""")


HELP = help_text("en")


class HumanPlayer:
    """A seat played by a person at a terminal (or by any `input`/`output` pair)."""

    name = "human"
    sees_hidden = False
    interactive = True

    def __init__(self, lang: str = "en", input: Callable[[str], str] | None = None,
                 output: Callable[[str], None] | None = None, stream: Any = None,
                 height: int | None = None):
        """`input`/`output` replace reading and printing; `stream` (default stdout) is
        where the default output and the prompt go; `height`, the lines of a page of the
        log (default: the terminal's)."""
        self.lang = lang
        self._stream = stream
        self._height = height
        self._input = input or (lambda prompt: _read_line(prompt, self._stream or sys.stdout))
        self._output = output or (lambda s: print(s, file=self._stream or sys.stdout,
                                                  flush=True))

    def screen(self, game: Any, side: str, view: dict[str, Any] | None = None) -> str:
        """The board and the log since `side`'s last decision, as this seat shows them."""
        view = game.view(side) if view is None else view
        return render_view(view, _cat(game, self.lang), board=game.pack.meta.get("board"),
                           since=since_last_decision(view))

    def choose(self, game: Any, side: str) -> Any:
        cat = _cat(game, self.lang)
        view = game.view(side)
        decision = view["decision"]
        legal = view["legal_actions"]
        self._output(self.screen(game, side, view))
        from engine.dsl.boardspec import board_spec
        spec = board_spec(game.pack.meta.get("board"))
        name = Namer(cat, spec.get("show"), view.get("fields"))
        listed = len(legal) <= MAX_LISTED
        self._question(decision, legal, cat, name, listed)
        while True:
            try:
                line = self._input("> ").strip()
            except EOFError:
                raise QuitGame() from None
            if not line:
                continue
            if line == "q":
                raise QuitGame()
            if line in ("?", "help"):
                self._output(help_text(self.lang))
                continue
            if line == "l":
                self._page(log_lines(view["log"], cat,
                                     sentences=spec.get("log") == "sentences"))
                self._question(decision, legal, cat, name, listed)
                continue
            lang = self.lang
            if line == "u":
                if game.can_undo(side):
                    game.undo(side)
                    self._output(tr(lang, "undone"))
                    return UNDONE
                self._output(tr(lang, "nothing to undo (undo stops at dice, draws, reveals and "
                                "the other side's decisions)"))
                continue
            if line == "s" or line.startswith("s "):
                path = line[1:].strip()
                if not path:
                    # i18n: the command is typed as it is: s and a file name
                    self._output(tr(lang, "save where? s FILE"))
                    continue
                try:
                    with open(path, "w", encoding="utf-8") as fh:
                        fh.write(game.save())
                except OSError as err:
                    # i18n: error: what the system said (in its own language)
                    self._output(tr(lang, "cannot save: {error}", error=err))
                    continue
                self._output(tr(lang, "saved to {path}", path=path))
                continue
            action = self._parse(line, legal, decision, listed)
            if action is _BAD:
                # i18n: the letters are the commands, typed as they are
                self._output(tr(lang, "enter a number from 1 to {n}, or u, s FILE, l, ?, q",
                                n=len(legal) if listed else len(decision["options"])))
                continue
            from engine.core.errors import IllegalAction
            try:
                return game.validate(action, side, decision["id"])
            except IllegalAction as err:
                # i18n: reason: why the rules refuse the choice
                self._output(tr(lang, "not allowed: {reason}", reason=err.text(lang)))

    def _question(self, decision: dict[str, Any], legal: list[Any], cat: Any,
                  name: Namer, listed: bool) -> None:
        """The question and its numbered options."""
        lang = cat.lang
        self._output(describe_decision(decision, cat))
        if listed:
            each = decision.get("each") is not None
            for i, a in enumerate(legal, 1):
                self._option(i, action_label(a, cat, decision["kind"], each, name))
        else:
            opts = decision["options"]
            for i, o in enumerate(opts, 1):
                self._option(i, name(o))
            if decision["kind"] == "one":
                if not decision.get("optional"):
                    self._output(tr(lang, "enter an option's number"))
                elif decision.get("each"):
                    self._output(tr(lang, "enter an option's number (0: done)"))
                else:
                    self._output(tr(lang, "enter an option's number (0: none)"))
            elif decision["kind"] == "order":
                self._output(tr(lang, "enter option numbers separated by spaces (all of them, "
                                "in order)"))
            else:
                self._output(tr(lang, "enter option numbers separated by spaces"))
        # i18n: the command letters are typed as they are: keep them
        self._output(tr(lang, "  (u = undo, s FILE = save, l = log, ? = help, q = quit)"))

    def _option(self, number: int, text: str) -> None:
        """An option on its lines, wrapped under the start of its text."""
        head = f"  {number}) "
        self._output("\n".join(_wrap(head + text, WIDTH, " " * len(head))))

    def _page(self, lines: list[tuple[int, str]]) -> None:
        """The log, a terminal's height at a time: Enter shows the next page, q stops."""
        import shutil
        size = shutil.get_terminal_size()
        rows = [row for _, line in lines for row in _wrap(line, max(20, size.columns - 1))]
        if not rows:
            self._output(tr(self.lang, "the log is empty"))
            return
        per = max(1, (self._height or size.lines) - 1)  # the last line: the pager's prompt
        for start in range(0, len(rows), per):
            self._output("\n".join(rows[start:start + per]))
            if start + per >= len(rows):
                break
            try:
                # i18n: the pager's prompt; Enter is the key, q is typed as it is
                more = self._input(tr(self.lang, "-- more: Enter = next page, q = back to the "
                                      "question -- "))
            except EOFError:
                raise QuitGame() from None
            if more.strip() == "q":
                break

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


def log_lines(log: list[dict[str, Any]], cat: Any, trace: bool = False,
              sentences: bool = False, said: dict[int, tuple[Any, str]] | None = None
              ) -> list[tuple[int, str]]:
    """The log as readable lines, each with the index of its entry: indented by event
    nesting; rule traces only with `trace`. With `sentences` (a pack whose board says `log:
    sentences`, unless tracing) only the pack's own sentences and the result, as a player at
    the table would tell the game. `said`: the entries said before in `cat`'s language, to
    say each once (a log entry never changes; one shown otherwise is another entry)."""
    render = cat.render if said is None else _saying_once(cat.render, said)
    if sentences and not trace:
        return [(i, render(e)) for i, e in enumerate(log) if e.get("t") in SENTENCES]
    out = []
    depth = 0
    for i, e in enumerate(log):
        t = e.get("t")
        if t == "done":
            depth = max(0, depth - 1)
            if trace:
                out.append((i, "  " * depth + render(e)))
            continue
        if t == "trigger" and not trace:
            continue
        out.append((i, "  " * depth + render(e)))
        if t == "event":
            depth += 1
    return out


def _saying_once(render: Any, said: dict[int, tuple[Any, str]]) -> Any:
    """`render`, remembered in `said` by entry (its id, and the entry itself so that an id
    used again by a later entry is not taken for it)."""
    def say(e: dict[str, Any]) -> str:
        kept = said.get(id(e))
        if kept is None or kept[0] is not e:
            kept = said[id(e)] = (e, render(e))
        return kept[1]
    return say


def render_log(log: list[dict[str, Any]], cat: Any, trace: bool = False,
               sentences: bool = False) -> list[str]:
    """The log's lines (`log_lines`) without their entries' indexes."""
    return [line for _, line in log_lines(log, cat, trace, sentences)]
