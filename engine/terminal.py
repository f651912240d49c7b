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


class QuitGame(Exception):
    """The person asked to stop playing."""


def _cat(game: Any, lang: str) -> Any:
    from engine.translations import Catalog
    return Catalog(game.pack, lang)


def render_view(view: dict[str, Any], cat: Any, recent: int = RECENT,
                board: list[str] | None = None) -> str:
    """A side's view (`game.view(side)`) as lines of text.

    `board` (a pack's `board:` list in pack.yaml) names the vars that make up its board, in
    order; without one every var is shown. Indexed vars show only their entries that are
    set (not false, 0, empty or none); empty zones are left out."""
    out = []
    side = view.get("side")
    who = cat.value(side) if side else "spectator"
    out.append(f"== {view.get('pack')} - {who} - {view.get('decisions', 0)} decisions so far ==")
    vars_ = view.get("vars", {})
    names = [n for n in board if n in vars_] if board else list(vars_)
    if names:
        out.append("board:" if board else "vars:")
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
    zones = view.get("zones", {})
    shown_zones = [(k, v) for k, v in zones.items()
                   if (v.get("count") or v.get("revealed") if isinstance(v, dict) else v)]
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
            out.append(f"  {cat.zone(key)}: {text}")
    lines = [cat.render(e) for e in view.get("log", []) if e.get("t") not in ("trigger", "done")]
    if lines:
        out.append("recent:")
        out.extend("  " + line for line in lines[-recent:])
    if view.get("result"):
        r = view["result"]
        out.append("result: " + (f"{cat.value(r['winner'])} wins" if r.get("winner")
                                 else "no winner") + f" ({r.get('reason')})")
    return "\n".join(out)


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


def render_log(log: list[dict[str, Any]], cat: Any, trace: bool = False) -> list[str]:
    """The log as readable lines, indented by event nesting; rule traces only with `trace`."""
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
