"""A side's screen as display-ready text: what the web page shows, made on the server.

The page knows no game: the board, the cards with their values, the log in the pack's
sentences, the question and its options come from the same code that draws the terminal
(engine.frontends.terminal), in the pack's language and the engine's own words (engine.i18n). The
page only lays the text out and sends back the action of the option clicked. A card's rules
text (its event, `Catalog.text`) comes with the card wherever the page shows it: beside its
line in the hand (a board section's `texts`), with an option that is the card (`text`), and
with its name in a log line (`log_parts`: the line cut into words and card names).
"""
from __future__ import annotations

from typing import Any

from engine.dsl.boardspec import board_spec
from engine.frontends.serve.mapstate import map_state
from engine.frontends.terminal import (
    MAX_LISTED,
    Namer,
    action_label,
    board_sections,
    describe_decision,
    idle_marked,
    log_lines,
    option_text,
)
from engine.i18n import tr
from engine.i18n.translations import catalog

NO_WRAP = 10_000  # the browser wraps lines to the window, not the server


def words(lang: str) -> dict[str, str]:
    """The page's own words in `lang`."""
    return {
        # i18n: the web page (engine serve): its headings and buttons
        "new_game": tr(lang, "New game"),
        "pack": tr(lang, "Game"),
        "play_as": tr(lang, "Play as"),
        "opponent": tr(lang, "Other sides"),
        "seed": tr(lang, "Seed (empty: any)"),
        "start": tr(lang, "Start"),
        "join": tr(lang, "Join as"),
        "log": tr(lang, "Log"),
        "send": tr(lang, "Send"),
        # i18n: the web page's map, when places on it answer the question
        "map_pick": tr(lang, "click a highlighted space to choose it"),
        # i18n: a seat of the web page's game, played by a person
        "person": tr(lang, "a person"),
        "greedy": tr(lang, "the greedy bot"),
        "random": tr(lang, "the random bot"),
        "mcts": tr(lang, "the search bot (MCTS)"),
        # i18n: the web page lost its connection to the server and tries again
        "offline": tr(lang, "connection lost; trying again..."),
    }


def screen(table: Any, side: str | None, lang: str) -> dict[str, Any]:
    """What `side` (None: a spectator) sees of `table`'s game, as text in `lang`, with the
    actions of the options it may pick (JSON values to send back as they are)."""
    game = table.game
    pack = game.pack
    cat = catalog(pack, lang)
    view = game.view(side)
    spec = board_spec(pack.meta.get("board"))
    name = Namer(cat, spec.get("show"), view.get("fields"))
    sentences = spec.get("log") == "sentences"
    said = table.said.setdefault(lang, {})
    lines = log_lines(view["log"], cat, sentences=sentences, said=said)
    log = [text for _, text in lines]
    result = view["result"]
    said = words(lang)
    return {
        "game": table.id,
        "pack": table.pack_ref,
        "title": pack.name,
        "side": side,
        # i18n: who watches a game without playing a side
        "who": cat.value(side) if side else tr(lang, "spectator"),
        "seats": [{"side": s, "name": cat.value(s), "seat": kind,
                   "seat_name": seat_name(said, kind), "joined": s in table.tokens}
                  for s, kind in table.seats.items()],
        "decisions": view["decisions"],
        "board": [_section(head, lines, head == tr(lang, "cards:"))
                  for head, lines in board_sections(view, cat, spec, NO_WRAP)],
        "map": map_state(view, cat, spec["map"]) if spec.get("map") else None,
        "log": log,
        "log_parts": [_log_parts(text, view["log"][at], cat) for at, text in lines],
        "decision": _decision(view, cat, name, lang),
        "result": None if result is None else tr(lang, "result: {outcome}", outcome=cat.outcome(
            result.get("winner"), cat.reason(result.get("reason"), view["log"]))),
        "words": said,
        "lang": lang,
    }


def _decision(view: dict[str, Any], cat: Any, name: Namer, lang: str
              ) -> dict[str, Any] | None:
    """The question: for the side that decides, its text and options; for the others,
    who the game waits for."""
    d = view["decision"]
    if d is None:
        return None
    if d["side"] != view["side"]:
        # i18n: the web page, while another side decides
        return {"id": None, "mine": False,
                "prompt": tr(lang, "waiting for {side}", side=cat.value(d["side"]))}
    kind = d["kind"]
    legal = view["legal_actions"]
    each = d.get("each") is not None
    idle = d.get("idle") or []  # the options that do nothing now, said beside them
    out: dict[str, Any] = {"id": d["id"], "mine": True, "kind": kind,
                           "prompt": describe_decision(d, cat)}
    if kind in ("one", "ask") or len(legal) <= MAX_LISTED:
        out["mode"] = "pick"  # one click answers: each legal action is an option
        out["options"] = [_option(action_label(a, cat, kind, each, name, idle), a, cat,
                                  a is not None and a in idle) for a in legal]
    else:  # too many answers to list: the options are ticked (many) or put in order
        out["mode"] = kind
        out["options"] = [_option(idle_marked(name(o), o, idle, lang), o, cat, o in idle)
                          for o in d["options"]]
        out["min"], out["max"] = d["min"], d["max"]
    return out


def _option(label: str, action: Any, cat: Any, idle: bool = False) -> dict[str, Any]:
    """An option as the page shows it: its label and the action it sends back, the rules
    text of an option that is a card (its event, shown with the option), and `idle` true
    when choosing it would do nothing now (its label says so too)."""
    out = {"label": label, "action": action}
    if idle:
        out["idle"] = True
    text = option_text(action, cat)
    if text:
        out["text"] = text
    return out


def _section(head: str, lines: list[str], cards: bool) -> dict[str, Any]:
    """A part of the board: its lines, each with its depth (its indent), and in the cards
    section (`cards`) each card's rules text beside the card's line (`texts`, "" for none):
    the terminal writes a card's text on the lines under the card, one level deeper."""
    out: list[str] = []
    depth: list[int] = []
    texts: list[str] = []
    for line in lines:
        level = (len(line) - len(line.lstrip())) // 2
        if cards and depth and level > depth[-1] >= 2:  # the text of the card above
            texts[-1] = f"{texts[-1]} {line.strip()}".strip()
            continue
        out.append(line.strip())
        depth.append(level)
        texts.append("")
    section: dict[str, Any] = {"head": head, "lines": out, "depth": depth}
    if any(texts):
        section["texts"] = texts
    return section


def _log_parts(text: str, entry: dict[str, Any], cat: Any) -> list[list[str]] | None:
    """A log line cut where it names a card with a rules text: [[words, ""], [the card's
    name, its text], ...], which the page shows as the name with its text on hover; None
    for a line that names no such card."""
    cards: dict[str, str] = {}  # a card's name -> its text

    def visit(value: Any) -> None:
        if isinstance(value, list):
            for item in value:
                visit(item)
        elif isinstance(value, str) and value in cat.pack.records:
            rules = cat.text(value)
            if rules:
                cards.setdefault(cat.name(value), rules)
    visit(entry.get("a"))
    parts: list[list[str]] = []
    rest = text
    while cards and rest:
        found = [(rest.find(name), name) for name in cards if name and name in rest]
        if not found:
            break
        at, name = min(found, key=lambda f: (f[0], -len(f[1])))
        if at:
            parts.append([rest[:at], ""])
        parts.append([name, cards[name]])
        rest = rest[at + len(name):]
    if not parts:
        return None
    if rest:
        parts.append([rest, ""])
    return parts


def seat_name(said: dict[str, str], kind: str) -> str:
    """A seat's name in the page's words: a bot's with its level after it ('the search bot
    (MCTS) 200'), a kind without words as it is."""
    name, colon, level = kind.partition(":")
    return said.get(name, kind) + (f" {level}" if colon and name in said else "")
