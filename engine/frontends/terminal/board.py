"""A side's view as the screen a person reads: the title, the board (pack.yaml `board:`: vars,
the turn track, the map, the cards), the log above the prompt, and the result."""
from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

from engine.frontends.terminal.board_map import map_lines
from engine.frontends.terminal.lines import WIDTH, wrap
from engine.frontends.terminal.log import RECENT, log_block
from engine.frontends.terminal.namer import Namer
from engine.i18n import ntr, tr

if TYPE_CHECKING:
    from engine.i18n.translations import Catalog


def render_view(view: dict[str, Any], cat: Catalog, recent: int = RECENT,
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
    out: list[str] = []
    lang = cat.lang
    side = view.get("side")
    # i18n: who watches a game without playing a side
    who = cat.value(side) if side else tr(lang, "spectator")
    pack = cat.pack
    title = pack.name if view.get("pack") == pack.id and getattr(pack, "name", None) \
        else view.get("pack")
    decisions = view.get("decisions", 0)
    # i18n: the head of a screen: the game's title, the side playing, decisions made
    out.append(ntr(lang, "== {title} - {who} - {n} decision so far ==",
                   "== {title} - {who} - {n} decisions so far ==", decisions, title=title,
                   who=who))
    for head, lines in board_sections(view, cat, spec, width):
        out.append(head)
        out.extend(lines)
    out.extend(log_block(view, cat, spec, recent, since))
    if view.get("result"):
        result = view["result"]
        # i18n: outcome: "Rome wins (the reason)", "Rome wins" or "no winner"
        out.append(tr(lang, "result: {outcome}", outcome=cat.outcome(
            result.get("winner"), cat.reason(result.get("reason"), view.get("log", [])))))
    return "\n".join(out)


def board_sections(view: dict[str, Any], cat: Catalog, spec: dict[str, Any], width: int = WIDTH
                   ) -> list[tuple[str, list[str]]]:
    """The board of a side's view as (head, lines) sections, in order: the labelled vars and
    the turn track ("board:"), the map, the cards. `spec` is the pack's board spec
    (engine.dsl.boardspec.board_spec); see `render_view`."""
    lang = cat.lang
    sections: list[tuple[str, list[str]]] = []
    board = _board_lines(view, cat, spec)
    if board is not None:
        # i18n: the heads of a screen's parts, each followed by its lines
        sections.append((tr(lang, "board:") if spec else tr(lang, "vars:"), board))
    on_map: set[str] = set()
    if spec.get("map"):
        lines, on_map = map_lines(view, cat, spec["map"], width)
        if lines:
            sections.append((tr(lang, "map:"), lines))
    cards = _cards_lines(view, cat, spec, on_map, width)
    if cards:
        sections.append((tr(lang, "cards:"), cards))
    return sections


def _board_lines(view: dict[str, Any], cat: Catalog, spec: dict[str, Any]) -> list[str] | None:
    """The turn track and the board's vars (every var without a board spec), an indexed var
    by its entries that are set; None when there is neither."""
    values = view.get("vars", {})
    names = [name for name in spec.get("vars", []) if name in values] if spec else list(values)
    turn = _turn_line(view, cat, spec["turn"]) if spec.get("turn") else None
    if not names and not turn:
        return None
    lines = ["  " + turn] if turn else []
    for var in names:
        value = values[var]
        if isinstance(value, dict):
            shown = "; ".join(f"{', '.join(cat.value(arg) for arg in key.split('|'))}: "
                              f"{cat.value(entry)}" for key, entry in value.items()
                              if entry not in (False, 0, "", None))
            if shown:
                lines.append(f"  {cat.term(var)}: {shown}")
        else:
            lines.append(f"  {var_line(cat, var, value)}")
    return lines


def var_line(cat: Catalog, var: str, value: Any) -> str:
    """A var as a line of the board, said with the pack's term for it: a number right after
    a term of one word ("turn 1"), else after a colon ("victory points: 3"), as are a yes/no
    and a name ("the king's army: North Gate")."""
    head = cat.term(var)
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and len(head.split()) == 1:
        return f"{head} {cat.value(value)}"
    if isinstance(value, bool):
        return f"{head}: {tr(cat.lang, 'yes') if value else tr(cat.lang, 'no')}"
    if value is None:  # i18n: a var of the board that is not set
        return f"{head}: {tr(cat.lang, 'none')}"
    return f"{head}: {cat.value(value)}"


def _cards_lines(view: dict[str, Any], cat: Catalog, spec: dict[str, Any], on_map: set[str],
                 width: int) -> list[str]:
    """The zones shown as cards (board `cards:`, else those not on the map) that hold any: a
    hidden one counted, cards with `show:` fields one a line, the others on one line."""
    lang = cat.lang
    name = Namer(cat, spec.get("show"), view.get("fields"))
    listed = spec.get("cards")
    shown_zones = [(key, items) for key, items in view.get("zones", {}).items()
                   if (items.get("count") or items.get("revealed") if isinstance(items, dict)
                       else items)
                   and (key.partition("|")[0] in listed if listed is not None
                        else key.partition("|")[0] not in on_map)]
    lines: list[str] = []
    for key, items in shown_zones:
        if isinstance(items, dict):
            count = items.get("count", 0)
            # i18n: the cards of a zone the player may not see, counted
            text = ntr(lang, "{n} card (hidden)", "{n} cards (hidden)", count)
            if items.get("revealed"):
                # i18n: hidden: "3 cards (hidden)"; cards: those shown to this player
                text = tr(lang, "{hidden}; revealed to you: {cards}", hidden=text,
                          cards=name(items["revealed"]))
        elif any(isinstance(card, str) and cat.text(card) for card in items):
            lines.append(f"  {cat.zone(key)}:")  # one card a line, its rules text under it
            lines.extend(_texted_cards(items, cat, name, width))
            continue
        elif any(isinstance(card, str) and name.details(card) for card in items):
            lines.append(f"  {cat.zone(key)}:")  # one card a line, with its fields
            for card in items:
                lines.extend(wrap(f"    {name(card)}", width))
            continue
        else:
            text = cat.value(items)
        lines.extend(wrap(f"  {cat.zone(key)}: {text}", width))
    return lines


def _texted_cards(items: list[Any], cat: Catalog, name: Namer, width: int) -> list[str]:
    """Cards one a line (copies alike said once, with their count), each with its rules
    text (a card's event) indented under it."""
    groups: dict[str, list[Any]] = {}
    for card in items:
        groups.setdefault(name(card), []).append(card)
    lines: list[str] = []
    for label, cards in groups.items():
        lines.extend(wrap(f"    {label if len(cards) == 1 else f'{len(cards)} × {label}'}",
                          width))
        text = cat.text(cards[0]) if isinstance(cards[0], str) else ""
        if text:
            lines.extend(textwrap.wrap(text, max(20, width - 6), initial_indent="      ",
                                       subsequent_indent="      "))
    return lines


def _turn_line(view: dict[str, Any], cat: Catalog, turn: dict[str, Any]) -> str | None:
    """The turn track: "Spring 2 - 2 of 6" (the record of type `of` whose field `by`
    is the var's value, named in the catalog's language), or "Turn 3"."""
    value = view.get("vars", {}).get(turn["var"])
    if value is None:
        return None
    if not turn.get("of"):
        return var_line(cat, turn["var"], value)
    pack = cat.pack
    rids = pack.model.by_type.get(turn["of"], [])
    here = next((rid for rid in rids if pack.records[rid].get(turn["by"]) == value), None)
    # i18n: the turn track: "2 of 6" (turn 2 of the game's 6)
    count = tr(cat.lang, "{n} of {total}", n=cat.value(value), total=len(rids))
    return f"{cat.name(here)} - {count}" if here else f"{cat.term(turn['var'])} {count}"
