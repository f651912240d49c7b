"""Write docs/api.md: the public format (engine.core.api) and the Python calls a front-end uses,
from their docstrings, with real views of each kind of decision taken from real games.

    python -m engine.core.apidoc            # rewrite docs/api.md
    python -m engine.core.apidoc --check    # exit 1 when docs/api.md is not what it would write

Run it in a checkout: the examples (docs/api_examples.json) come from the shipped packs and
from tests/packs.
"""
from __future__ import annotations

import inspect
import json
import random
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.core import api
from engine.core.schema import alias_of, key_doc

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api.md"
SHOWN_OPTIONS = 6  # an example's options and legal actions beyond these are left out

# The calls a front-end makes, in the order it meets them: (owner, attribute).
CALLS = [
    ("engine.core.loader", "load_pack"), ("CompiledPack", "new_game"),
    ("CompiledPack", "name_of"), ("CompiledPack", "names_in"),
    ("CompiledPack", "turn_event"), ("CompiledPack", "heuristic"),
    ("CompiledPack", "search_heuristic"), ("CompiledPack", "search_minimax"),
    ("CompiledPack", "board_map"),
    ("Game", "decision"), ("Game", "decider"), ("Game", "view"), ("Game", "legal_actions"),
    ("Game", "random_action"), ("Game", "playout"), ("Game", "validate"), ("Game", "apply"),
    ("Game", "action_count"), ("Game", "action_at"), ("Game", "apply_index"),
    ("Game", "random_index"),
    ("Game", "result"),
    ("Game", "over"), ("Game", "log"), ("Game", "undo"), ("Game", "save"),
    ("Game", "to_data"), ("Game", "load"), ("Game", "clone"), ("Game", "determinized"),
    ("Game", "position"), ("Game", "heuristic"), ("Game", "search_heuristic"),
    ("engine.core.api", "structure"),
]

# The computer players a library user seats (engine.frontends.bots, exported by the package
# `engine`: read through it, as a user does, since the core does not import front-ends).
BOTS = ["make_bot", "RandomBot", "GreedyBot", "MctsBot", "Bot"]

# Examples: which decisions to show, from which packs (a list of {"title", "pack", and what
# the decision must be: "kind", "optional", "window", "each", "picked", "args"}): data, since
# the engine names no game.
EXAMPLES = ROOT / "docs" / "api_examples.json"


def wanted(spec: dict[str, Any]) -> Callable[[Any], bool]:
    """Does a decision match an example's spec? (Booleans: is the key set, non-empty.)"""
    def match(d: Any) -> bool:
        for key, want in spec.items():
            if key == "kind" and d.kind != want:
                return False
            if key in ("optional", "window", "args") and bool(getattr(d, key)) != want:
                return False
            if key == "each" and (d.each is not None) != want:
                return False
            if key == "picked" and bool(d.each and d.each["picked"]) != want:
                return False
        return True
    return match


def _find(pack_dir: str, wanted: Callable[[Any], bool]) -> tuple[Any, int, Any]:
    """(game, seed, the action a random player gives) at the first decision `wanted`
    picks, in seeded random games."""
    from engine.core.loader import load_pack
    pack = load_pack(ROOT / pack_dir)
    for seed in range(20):
        game = pack.new_game(seed)
        rnd = random.Random(seed)
        while not game.over and len(game.actions) < 400:
            action = game.random_action(rnd)
            if wanted(game.decision):
                return game, seed, action
            game.apply(action)
    raise LookupError(f"no example in {pack_dir}")  # pragma: no cover - packs changed


def _cut(items: list[Any]) -> list[Any]:
    return items if len(items) <= SHOWN_OPTIONS else items[:SHOWN_OPTIONS]


def _json(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False) + "\n```"


def example(title: str, pack_dir: str, wanted: Callable[[Any], bool]) -> str:
    game, seed, action = _find(pack_dir, wanted)
    d = game.decision
    mine = game.view(d.side)
    decision = dict(mine["decision"])
    notes = []
    if len(decision["options"]) > SHOWN_OPTIONS:
        notes.append(f"`options`: the first {SHOWN_OPTIONS} of {len(decision['options'])}")
        decision["options"] = _cut(decision["options"])
    legal = mine["legal_actions"]
    if len(legal) > SHOWN_OPTIONS:
        notes.append(f"`legal_actions`: the first {SHOWN_OPTIONS} of {len(legal)}")
    shown = {"decision": decision, "legal_actions": _cut(legal)}
    others = [s for s in game.pack.sides if s != d.side]
    other = game.view(others[0])["decision"] if others else None
    langs = game.pack.meta.get("languages") or ["en"]
    lang = langs[-1]  # a pack's other language shows names best
    names = game.pack.names_in({"decision": decision}, lang)
    out = [f"### {title}", "",
           f"{game.pack.name} (`{pack_dir}`), seed {seed}, decision {d.id}: "
           f"`view(\"{d.side}\")` holds" + (f" ({'; '.join(notes)} shown)" if notes else ""),
           "", _json(shown), ""]
    if other is not None:
        out += [f"`view(\"{others[0]}\")[\"decision\"]`, the same moment for the other side "
                "(a `DecisionSeen`):", "", _json(other), ""]
    out += ["An answer: `game.apply(" + json.dumps(action, ensure_ascii=False)
            + f", side=\"{d.side}\", decision={d.id})`.", ""]
    if names:
        out += [f"With `view(\"{d.side}\", lang=\"{lang}\")` its `names` include:", "",
                _json(dict(list(names.items())[:SHOWN_OPTIONS])), ""]
    return "\n".join(out)


# ---- types -----------------------------------------------------------------------------------
def type_text(t: Any) -> str:
    """A type hint for people: `list[Option]`, `str | null`, `Decision | DecisionSeen | null`."""
    name = alias_of(t)
    if name is not None:
        return name
    t, _docs = api.unwrap(t)
    if t is Any:
        return "any JSON"
    if t is type(None):
        return "null"
    if t in (str, int, bool, float):
        return {str: "text", int: "int", bool: "bool", float: "number"}[t]
    origin = typing.get_origin(t)
    if origin is typing.Literal:
        return " \\| ".join(json.dumps(a) for a in t.__args__)
    if origin is typing.Union or origin is types.UnionType:
        return " \\| ".join(type_text(m) for m in typing.get_args(t))
    if origin is list:
        return f"list[{type_text(typing.get_args(t)[0])}]"
    if origin is dict:
        return f"object of {type_text(typing.get_args(t)[1])}"
    if api.is_typeddict(t):
        return f"[{t.__name__}](#{t.__name__.lower()})"
    return str(t)  # pragma: no cover


def _cell(text: str | None) -> str:
    return (text or "").replace("|", "\\|").replace("\n", " ")


def type_section(name: str, t: Any) -> str:
    if not api.is_typeddict(t):
        inner = api.unwrap(t)
        return "\n".join([f"### {name}", "", inner[1][0] if inner[1] else "", "",
                          f"Type: {type_text(typing.Annotated[inner[0], api.Doc('')])}", ""])
    rows = ["| key | type | | what a front-end reads there |", "|---|---|---|---|"]
    for key, kt, required in api.keys(t):
        rows.append(f"| `{key}` | {type_text(kt)} | {'' if required else 'optional'} | "
                    f"{_cell(key_doc(kt))} |")
    return "\n".join([f"### {name}", "", inspect.cleandoc(t.__doc__ or ""), "", *rows, ""])


def _plain(fn: Any) -> str:
    """A signature without annotations: `(pack, text, *, log=True, verify='replay')`."""
    sig = inspect.signature(fn)
    params = [p.replace(annotation=inspect.Parameter.empty) for p in sig.parameters.values()
              if p.name not in ("self", "cls")]
    return str(sig.replace(parameters=params, return_annotation=inspect.Signature.empty))


def _doc_of(owner: str, attr: str) -> tuple[str, str]:
    """(how it is called, its docstring) of a public call."""
    if owner == "engine.core.loader":
        from engine.core import loader as mod
        obj = getattr(mod, attr)
        return f"`{attr}{_plain(obj)}`", inspect.getdoc(obj) or ""
    if owner == "engine.core.api":
        obj = getattr(api, attr)
        return f"`engine.core.api.{attr}{_plain(obj)}`", inspect.getdoc(obj) or ""
    from engine.core.game import Game
    from engine.core.loader import CompiledPack
    cls = {"Game": Game, "CompiledPack": CompiledPack}[owner]
    obj = inspect.getattr_static(cls, attr)
    var = "game" if owner == "Game" else "pack"
    if isinstance(obj, property):
        return f"`{var}.{attr}`", inspect.getdoc(obj) or ""
    fn = obj.__func__ if isinstance(obj, classmethod) else obj
    who = "Game" if isinstance(obj, classmethod) else var
    return f"`{who}.{attr}{_plain(fn)}`", inspect.getdoc(fn) or ""


def _bot_doc(name: str) -> tuple[str, str]:
    """(how it is made or called, its docstring) of a bot export of `engine`."""
    import engine
    obj = getattr(engine, name)
    if inspect.isclass(obj):
        doc = inspect.getdoc(obj) or ""
        if "choose" in vars(obj) and obj.__name__ != "Bot":
            doc += f" `bot.choose{_plain(vars(obj)['choose'])}`."
        return f"`engine.{name}{_plain(obj.__init__)}`", doc
    return f"`engine.{name}{_plain(obj)}`", inspect.getdoc(obj) or ""


INTRO = f"""# The engine's API: views, decisions, actions, log entries, saves

<!-- Generated by `python -m engine.core.apidoc` from engine/core/api.py and the docstrings of the
calls below; edit those, not this file (tests/test_api_doc.py fails when it is stale). -->

A front-end (a web page, a bot, an OpenSpiel or PettingZoo adapter, a server) plays a game
through a handful of calls and plain JSON. It loads a pack, starts a game, and then, until
`game.over`: sends each side its `game.view(side)` (what that side may see, nothing more),
waits for the deciding side's answer and passes it to `game.apply(action, side=...,
decision=...)`. An illegal or late answer raises `IllegalAction` and changes nothing.

This page is the reference of that JSON. `engine schema --api` prints it as JSON Schema
(draft 2020-12), and `engine.core.api.structure(value, engine.core.api.View)` checks a value
against it, saying where it does not fit (`$.decision.id: expected a whole number, got '7'`).

**Versions.** Every view and save carries `format_version` (now {api.FORMAT_VERSION}). It
changes whenever the format does: a key added, removed, or read differently. A save of
another version is refused with a `SaveError` saying so. Saves also keep `format:
"{api.SAVE_FORMAT}"`, which says what the file is (the version counts on from it).

**Ids and names.** Records, sides and enum values travel by id (`card_07`, `red`);
zone keys and var keys are a name and its index ids joined with `|` (`hand|red`).
`pack.name_of(id, lang)` gives any of them a name for people, and `game.view(side,
lang="hu")` adds a `names` map of every id the view holds.
"""


def render() -> str:
    parts = [INTRO, "## Calls", ""]
    parts += ["| call | what it does |", "|---|---|"]
    for owner, attr in CALLS:
        call, doc = _doc_of(owner, attr)
        parts.append(f"| {_cell(call)} | {_cell(doc)} |")
    parts += ["", "## Bots", "",
              "Computer players for any pack, exported by `engine` (`from engine import "
              "make_bot`). A bot answers a decision of its side: `game.apply(bot.choose(game, "
              "side), side=side, decision=game.decision.id)`; it reads only what the side may "
              "see, and draws its randomness from its own seed, not the game's dice.", "",
              "| call | what it does |", "|---|---|"]
    for name in BOTS:
        call, doc = _bot_doc(name)
        parts.append(f"| {_cell(call)} | {_cell(doc)} |")
    parts += ["", "## Decisions, kind by kind", "",
              "What answers each kind is an `Action`. Real views of each kind, from games of "
              "the packs named (the decider's `decision` and `legal_actions`):", ""]
    specs = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    parts += [example(spec["title"], spec["pack"], wanted(spec)) for spec in specs]
    parts += ["## Types", ""]
    for name, t in api.TYPES.items():
        parts.append(type_section(name, t))
    return "\n".join(parts).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = render()
    if argv == ["--check"]:
        if DOC.read_text(encoding="utf-8") != text:
            print(f"{DOC} is stale: run python -m engine.core.apidoc", file=sys.stderr)
            return 1
        return 0
    if argv:
        print("usage: python -m engine.core.apidoc [--check]", file=sys.stderr)
        return 2
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
