"""Playing in a terminal: a side's view as text, and a seat that asks a person.

The person sees only `game.view(side)`: the board (pack.yaml `board:`), then everything
logged since this person's previous decision (the other seats' whole turn, in one block under
"since your last decision:", after a few earlier lines for context), then the question and its
options, each by its name in the pack's language (a record of a type in board `show:` with
those fields). At the prompt: a number picks an action, several numbers (`1 3`) pick options
of a multi-choice or an order, a count is typed as the number itself, `u` undoes, `w FILE`
("write"; or `save FILE`) saves the game, `l` pages the whole log, `?` or `help` lists these
commands, `q` quits. With a board `map:`, `m` shows every place by group and `s PLACE` one
place and its connections.

- `board`: the screen (`render_view`, `board_sections`); `board_map`: its map; `namer`:
  values as the board names them; `lines`: the width of a line and wrapping;
- `log`: the log as lines, and the block of it above the prompt;
- `questions`: the question and its options as a person reads them, and the commands;
- `human`: the seat of a person (`HumanPlayer`), reading the answers.
"""
from engine.frontends.terminal.board import board_sections, render_view
from engine.frontends.terminal.human import HumanPlayer, QuitGame
from engine.frontends.terminal.lines import WIDTH
from engine.frontends.terminal.log import (
    RECENT,
    SENTENCES,
    log_lines,
    render_log,
    since_last_decision,
)
from engine.frontends.terminal.namer import Namer
from engine.frontends.terminal.questions import (
    HELP,
    MAX_LISTED,
    action_label,
    describe_decision,
    help_text,
    idle_marked,
    option_text,
)

__all__ = ["HELP", "MAX_LISTED", "RECENT", "SENTENCES", "WIDTH", "HumanPlayer", "Namer",
           "QuitGame", "action_label", "board_sections", "describe_decision", "help_text",
           "idle_marked", "log_lines", "option_text", "render_log", "render_view",
           "since_last_decision"]
