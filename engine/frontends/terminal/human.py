"""The seat a person plays at a terminal: the screen, the question and its options, and the
answers typed at the prompt (a number, several, or a command: undo, write a save, the log,
help, quit; with a map, the map and one space)."""
from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.frontends.bots import UNDONE
from engine.frontends.terminal.board import render_view
from engine.frontends.terminal.board_map import board_map
from engine.frontends.terminal.lines import WIDTH, wrap
from engine.frontends.terminal.log import log_lines, since_last_decision
from engine.frontends.terminal.namer import Namer
from engine.frontends.terminal.questions import (
    MAX_LISTED,
    action_label,
    describe_decision,
    help_text,
    idle_marked,
    option_text,
)
from engine.i18n import tr

if TYPE_CHECKING:
    from engine.core.game import Game
    from engine.i18n.translations import Catalog


class QuitGame(Exception):
    """The person asked to stop playing."""


def seat_catalog(game: Game, lang: str) -> Catalog:
    """The names and words of the game's pack in the seat's language."""
    from engine.i18n.translations import Catalog
    return Catalog(game.pack, lang)


class HumanPlayer:
    """A seat played by a person at a terminal (or by any `input`/`output` pair)."""

    name = "human"
    sees_hidden = False
    interactive = True

    def __init__(self, lang: str = "en", input: Callable[[str], str] | None = None,
                 output: Callable[[str], None] | None = None, stream: Any = None,
                 height: int | None = None) -> None:
        """`input`/`output` replace reading and printing; `stream` (default stdout) is
        where the default output and the prompt go; `height`, the lines of a page of the
        log (default: the terminal's)."""
        self.lang = lang
        self._stream = stream
        self._height = height
        self._input = input or (lambda prompt: _read_line(prompt, self._stream or sys.stdout))
        self._output = output or (lambda text: print(text, file=self._stream or sys.stdout,
                                                     flush=True))

    def screen(self, game: Game, side: str, view: dict[str, Any] | None = None) -> str:
        """The board and the log since `side`'s last decision, as this seat shows them."""
        view = game.view(side) if view is None else view
        return render_view(view, seat_catalog(game, self.lang),
                           board=game.pack.meta.get("board"), since=since_last_decision(view))

    def choose(self, game: Game, side: str) -> Any:
        """The person's answer to `side`'s decision (UNDONE after an undo), asked until it is
        one the rules allow; QuitGame when the person quits or the input ends."""
        cat = seat_catalog(game, self.lang)
        view = game.view(side)
        decision = view["decision"]
        legal = view["legal_actions"]
        self._output(self.screen(game, side, view))
        from engine.dsl.boardspec import board_spec
        spec = board_spec(game.pack.meta.get("board"))
        the_map = board_map(view, cat, spec["map"]) if spec.get("map") else None
        name = _with_places(Namer(cat, spec.get("show"), view.get("fields")), the_map,
                            decision.get("args"))
        # several picks (`many`, `order`) are typed as the options' numbers, never as a
        # numbered list of their combinations
        listed = len(legal) <= MAX_LISTED and decision["kind"] not in ("many", "order")
        self._question(decision, legal, cat, name, listed, the_map is not None)
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
                self._output(help_text(self.lang, picks(decision), the_map is not None))
                continue
            if line == "m" and the_map is not None:
                # i18n: the head of the whole map (the command m)
                self._output("\n".join([tr(self.lang, "map:"), *the_map.whole(WIDTH)]))
                continue
            if (line == "s" or line.startswith("s ")) and the_map is not None:
                self._space(the_map, line[1:].strip())
                continue
            if line == "l":
                self._page(log_lines(view["log"], cat,
                                     sentences=spec.get("log") == "sentences"))
                self._question(decision, legal, cat, name, listed, the_map is not None)
                continue
            lang = self.lang
            if line == "u":
                if self._undo(game, side):
                    return UNDONE
                continue
            command, _, rest = line.partition(" ")
            if command in ("w", "save"):  # "write": s is the map's (one space)
                self._save(game, rest.strip())
                continue
            action = self._parse(line, legal, decision, listed)
            if action is _NOT_AN_ANSWER:
                span = whole_numbers(decision)
                low, high = span if span else (1, len(legal) if listed
                                               else len(decision["options"]))
                if decision["kind"] in ("many", "order"):
                    # i18n: the letters are the commands, typed as they are
                    self._output(tr(lang, "enter numbers from {low} to {high} separated by "
                                    "spaces, or u, w FILE, l, ?, q", low=low, high=high))
                else:
                    # i18n: the letters are the commands, typed as they are
                    self._output(tr(lang, "enter a number from {low} to {high}, or u, w FILE, "
                                    "l, ?, q", low=low, high=high))
                continue
            from engine.core.errors import IllegalAction
            try:
                return game.validate(action, side, decision["id"])
            except IllegalAction as err:
                # i18n: reason: why the rules refuse the choice
                self._output(tr(lang, "not allowed: {reason}", reason=err.text(lang)))

    def _space(self, the_map: Any, text: str) -> None:
        """`s SPACE`: the place named `text` and its connections, or a did-you-mean (and the
        command that saves, for a person who typed s FILE to save)."""
        if not text:
            # i18n: the command is typed as it is: s and a space's name
            self._output(tr(self.lang, "which space? s SPACE (m: the whole map)"))
            return
        found, close = the_map.find(text)
        if found is not None:
            self._output("\n".join(the_map.space_lines(found, WIDTH)))
            return
        if close:
            # i18n: name: what was typed after s; names: the places named most like it
            self._output(tr(self.lang, "no space named {name}; did you mean {names}?",
                            name=text, names=", ".join(close)))
        else:
            # i18n: name: what was typed after s; m is the command, typed as it is
            self._output(tr(self.lang, "no space named {name} (m lists every space)",
                            name=text))
        if "." in text or "/" in text:  # a file's name: s saved once, w does now
            # i18n: the command is typed as it is: w and a file name
            self._output(tr(self.lang, "to save the game: w FILE"))

    def _undo(self, game: Game, side: str) -> bool:
        """Take back the side's last decision, if the game can."""
        if game.can_undo(side):
            game.undo(side)
            self._output(tr(self.lang, "undone"))
            return True
        self._output(tr(self.lang, "nothing to undo (undo stops at dice, draws, reveals and "
                        "the other side's decisions)"))
        return False

    def _save(self, game: Game, path: str) -> None:
        """Write the game to the file `path` (`w FILE`), and say whether it was."""
        lang = self.lang
        if not path:
            # i18n: the command is typed as it is: w and a file name
            self._output(tr(lang, "save where? w FILE"))
            return
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(game.save())
        except OSError as err:
            # i18n: error: what the system said (in its own language)
            self._output(tr(lang, "cannot save: {error}", error=err))
            return
        self._output(tr(lang, "saved to {path}", path=path))

    def _question(self, decision: dict[str, Any], legal: list[Any], cat: Catalog,
                  name: Callable[[Any], str], listed: bool, has_map: bool = False) -> None:
        """The question and its numbered options (and the map's commands `has_map`)."""
        lang = cat.lang
        # a long question (a card's name in it) is wrapped as the options are
        self._output("\n".join(wrap(describe_decision(decision, cat), WIDTH, "  ")))
        span = whole_numbers(decision)
        if span:  # the options are the whole numbers of a range: typed as they are
            # i18n: the answer is a number itself, e.g. "enter a number, 0–10"
            self._output(tr(lang, "enter a number, {low}–{high}", low=span[0], high=span[1]))
        elif listed:
            each = decision.get("each") is not None
            idle = decision.get("idle") or ()
            for number, action in enumerate(legal, 1):
                self._option(number, action_label(action, cat, decision["kind"], each, name,
                                                  idle), option_text(action, cat))
        else:
            idle = decision.get("idle") or ()
            for number, option in enumerate(decision["options"], 1):
                self._option(number, idle_marked(name(option), option, idle, lang),
                             option_text(option, cat))
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
            elif decision.get("min") == 0:
                self._output(tr(lang, "enter option numbers separated by spaces (0: none)"))
            else:
                self._output(tr(lang, "enter option numbers separated by spaces"))
        # i18n: the command letters are typed as they are: keep them
        self._output(tr(lang, "  (u = undo, w FILE = save, l = log, ? = help, q = quit)"))
        if has_map:
            # i18n: the map's command letters are typed as they are: keep them
            self._output(tr(lang, "  (m = the map, s SPACE = one space and its connections)"))

    def _option(self, number: int, text: str, rules: str = "") -> None:
        """An option on its lines, wrapped under the start of its text; `rules`, what the
        option does (a card's event, a glossary term's definition: `option_text`), on the
        lines below, indented further."""
        head = f"  {number}) "
        lines = wrap(head + text, WIDTH, " " * len(head))
        if rules:
            under = " " * (len(head) + 2)
            lines += textwrap.wrap(rules, max(20, WIDTH - len(under)), initial_indent=under,
                                   subsequent_indent=under)
        self._output("\n".join(lines))

    def _page(self, lines: list[tuple[int, str]]) -> None:
        """The log, a terminal's height at a time: Enter shows the next page, q stops."""
        import shutil
        size = shutil.get_terminal_size()
        rows = [row for _, line in lines for row in wrap(line, max(20, size.columns - 1))]
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
        """The action that the numbers typed pick: one of the `legal` actions when they are
        `listed`, else options of the decision; _NOT_AN_ANSWER for anything else."""
        try:
            numbers = [int(word) for word in line.replace(",", " ").split()]
        except ValueError:
            return _NOT_AN_ANSWER
        span = whole_numbers(decision)
        if span:  # the number typed is the answer
            if len(numbers) == 1 and span[0] <= numbers[0] <= span[1]:
                return numbers[0]
            return _NOT_AN_ANSWER
        if listed:
            if len(numbers) == 1 and 1 <= numbers[0] <= len(legal):
                return legal[numbers[0] - 1]
            return _NOT_AN_ANSWER
        options = decision["options"]
        if decision["kind"] == "one":  # one option (by number), or 0 for none when optional
            if len(numbers) != 1:
                return _NOT_AN_ANSWER
            if numbers[0] == 0 and decision.get("optional"):
                return None
            return options[numbers[0] - 1] if 1 <= numbers[0] <= len(options) \
                else _NOT_AN_ANSWER
        if numbers == [0] and decision["kind"] == "many" and decision.get("min") == 0:
            return []  # none of them
        if not all(1 <= number <= len(options) for number in numbers):
            return _NOT_AN_ANSWER
        return [options[number - 1] for number in numbers]


_NOT_AN_ANSWER = object()  # what `_parse` makes of a line that picks nothing


def _with_places(name: Namer, the_map: Any, args: list[Any] | None = None
                 ) -> Callable[[Any], str]:
    """`name`, with what is on a place of the map after a place's name ("North Gate: red"),
    as an option shows it; when the question names one place (`args`: "march from the Keep
    to which space?"), a place joined to it says the connection's kind ("Ford (river)")."""
    if the_map is None:
        return name
    places = [arg for arg in args or [] if isinstance(arg, str) and the_map.is_place(arg)]
    kinds = dict(the_map.links(places[0])) if len(places) == 1 else {}

    def said(value: Any) -> str:
        text = name(value)
        if isinstance(value, str) and the_map.is_place(value):
            if kinds.get(value):
                text += f" ({kinds[value]})"
            there = the_map.what_is_there(value)
            return f"{text}: {there}" if there else text
        return text
    return said


def whole_numbers(decision: dict[str, Any]) -> tuple[int, int] | None:
    """(lowest, highest) when a decision picks one of the whole numbers of a range (a count,
    "0 to 10"), which a person types as the number itself; else None."""
    options = decision.get("options") or []
    if decision.get("kind") != "one" or decision.get("optional") or decision.get("each") \
            or len(options) < 2:
        return None
    if not all(isinstance(value, int) and not isinstance(value, bool) for value in options):
        return None
    low, high = min(options), max(options)
    return (low, high) if sorted(options) == list(range(low, high + 1)) else None


def picks(decision: dict[str, Any]) -> str:
    """What an answer to the decision is typed as: "number" (a count typed as it is),
    "several" (options' numbers) or "one" (an option's number)."""
    if whole_numbers(decision):
        return "number"
    return "several" if decision.get("kind") in ("many", "order") else "one"


def _read_line(prompt: str, stream: Any) -> str:
    """A line typed at the terminal after `prompt` (written to `stream`); EOFError at the
    input's end."""
    stream.write(prompt)
    stream.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line.rstrip("\n")
