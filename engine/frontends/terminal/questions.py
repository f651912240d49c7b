"""The question a decision asks and its options as a person reads them, and the commands
that may be typed at the prompt."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.i18n import tr

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from engine.i18n.translations import Catalog


MAX_LISTED = 40  # more legal actions than this: pick options by number instead


def action_label(action: Any, cat: Catalog, kind: str, each: bool = False,
                 name: Callable[[Any], str] | None = None, idle: Sequence[Any] = ()) -> str:
    """An action as a person reads it; `each`: it answers a pick of a one-at-a-time choice,
    where none means "done". `name` names a value (default: its name in `cat`; a `Namer`
    adds a record's board `show:` fields). An option among `idle` (the decision's options
    that do nothing now) says so."""
    lang = cat.lang
    if kind == "ask":
        return tr(lang, "yes") if action else tr(lang, "no")
    if action is None:
        # i18n: the option that ends a one-at-a-time pick, or declines an optional choice
        return tr(lang, "done (pick no more)") if each else tr(lang, "pass (choose nothing)")
    if isinstance(action, list) and not action:
        return tr(lang, "nothing")
    return idle_marked((name or cat.value)(action), action, idle, lang)


def idle_marked(label: str, option: Any, idle: Sequence[Any], lang: str) -> str:
    """An option's label, followed by "no effect now" when it is among `idle` (the rules
    say choosing it would do nothing now)."""
    if idle and option in idle:
        # i18n: an option whose choice would change nothing now; option: its name
        return tr(lang, "{option} (no effect now)", option=label)
    return label


def option_text(action: Any, cat: Catalog) -> str:
    """What an option does, in the catalog's language, shown with it: a card's rules text
    (its event), the definition of the glossary term a plain word names (`'march'`,
    `'pick up'`: the pack's `term` records) or the text of an enum value (`Catalog.option_text`);
    "" for any other option."""
    return cat.option_text(action)


def describe_decision(decision: dict[str, Any], cat: Catalog) -> str:
    """The question, its placeholders filled with names in the catalog's language, after the
    deciding side's name (unless the question starts with it already)."""
    kind: str = decision.get("kind", "")  # always given (engine.core.api's Decision)
    window = decision.get("window")
    lang = cat.lang
    who = cat.value(decision.get("side"))
    if window and not decision.get("prompt"):
        # i18n: side: who may respond; window: what it may respond to
        return tr(lang, "{side}: respond ({window}): play a card or pass", side=who,
                  window=cat.term(window))
    each = decision.get("each")
    text: str = decision.get("prompt") or ""
    if text:  # the rules' prompt, in the pack's language where it has a translation
        text = cat.message(text) or text
    args = decision.get("args")
    if text and args is not None:
        try:
            text = text.format(*[cat.value(arg) for arg in args])
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


def help_text(lang: str, picks: str = "one", has_map: bool = False) -> str:
    """The commands at the prompt, in `lang` (`?` or `help` shows them); the first says how
    the decision is answered: `picks` "one" (an option's number), "several" (the numbers of
    options) or "number" (a count, typed as the number itself); `has_map`: the commands of
    the map (m, s SPACE) too."""
    # the commands (N, u, w, l, ?, help, q; m, s with a map) are typed as they are in any language
    if picks == "several":
        # i18n: the first line of the commands: keep "N M ..." and the columns lined up
        first = tr(lang, "  N M ...   pick the options numbered N, M, ... (e.g. 1 3)")
    elif picks == "number":
        # i18n: the first line of the commands: keep "N" and the columns lined up
        first = tr(lang, "  N         the number N itself (a count: 0 is 0)")
    else:
        # i18n: the first line of the commands: keep "N" and the columns lined up
        first = tr(lang, "  N         pick option N")
    # i18n: keep the command letters and "help" as they are, and the columns lined up
    rest = tr(lang, """  u         undo your last decision
  w FILE    save the game to FILE (engine play PACK --load FILE goes on with it)
  l         the whole log, page by page (Enter: next page, q: back to the question)
  ? or help this list
  q         quit""")
    # i18n: the head of the list of commands
    lines = [tr(lang, "commands:"), first]
    if has_map:
        # i18n: the map's commands: keep m, s and the columns lined up
        lines.append(tr(lang, """  m         the map: every space by group, with what is there
  s SPACE   one space by its name: what is there and its connections"""))
    return "\n".join([*lines, rest])


HELP = help_text("en")
