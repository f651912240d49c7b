"""The log as a person reads it: its entries as indented lines (rule traces only when asked,
a narrating pack's sentences only), and the block of it above the prompt, what is new since
the side's last decision under its own head."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.i18n import tr

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.i18n.translations import Catalog

RECENT = 12  # log lines shown above the prompt at least (earlier ones for context)
SENTENCES = ("say", "end")  # what a pack that narrates its play (board `log: sentences`) shows


def log_lines(log: list[dict[str, Any]], cat: Catalog, trace: bool = False,
              sentences: bool = False, said: dict[int, tuple[Any, str]] | None = None
              ) -> list[tuple[int, str]]:
    """The log as readable lines, each with the index of its entry: indented by event
    nesting; rule traces only with `trace`. With `sentences` (a pack whose board says `log:
    sentences`, unless tracing) only the pack's own sentences and the result, as a player at
    the table would tell the game. `said`: the entries said before in `cat`'s language, to
    say each once (a log entry never changes; one shown otherwise is another entry)."""
    render = cat.render if said is None else _saying_once(cat.render, said)
    if sentences and not trace:
        return [(at, render(entry)) for at, entry in enumerate(log)
                if entry.get("t") in SENTENCES]
    out = []
    depth = 0
    for at, entry in enumerate(log):
        kind = entry.get("t")
        if kind == "done":
            depth = max(0, depth - 1)
            if trace:
                out.append((at, "  " * depth + render(entry)))
            continue
        if kind == "trigger" and not trace:
            continue
        out.append((at, "  " * depth + render(entry)))
        if kind == "event":
            depth += 1
    return out


def _saying_once(render: Callable[[dict[str, Any]], str], said: dict[int, tuple[Any, str]]
                 ) -> Callable[[dict[str, Any]], str]:
    """`render`, remembered in `said` by entry (its id, and the entry itself so that an id
    used again by a later entry is not taken for it)."""
    def say(entry: dict[str, Any]) -> str:
        kept = said.get(id(entry))
        if kept is None or kept[0] is not entry:
            kept = said[id(entry)] = (entry, render(entry))
        return kept[1]
    return say


def render_log(log: list[dict[str, Any]], cat: Catalog, trace: bool = False,
               sentences: bool = False) -> list[str]:
    """The log's lines (`log_lines`) without their entries' indexes."""
    return [line for _, line in log_lines(log, cat, trace, sentences)]


def log_block(view: dict[str, Any], cat: Catalog, spec: dict[str, Any], recent: int,
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


def since_last_decision(view: dict[str, Any]) -> int:
    """Where the view's log goes on after its side's last decision (its last choice entry):
    0 when the side has not decided yet."""
    side = view.get("side")
    log = view.get("log", [])
    for at in range(len(log) - 1, -1, -1):
        entry = log[at]
        if entry.get("t") == "choice" and entry.get("side") == side:
            return at + 1
    return 0
