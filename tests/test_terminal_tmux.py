"""A person plays Ante Portas in a real terminal (tmux, 120x50): `engine play ante_portas
--bots human,greedy --seed 3`, 20 decisions as Carthage, each by the first option on the
screen. On every screen: no var the pack's board does not label is shown as `name = value` or
`name: value`; every option is a name, not a raw id; once a battle has been fought (seed 000,
"Kör végi csata"), its result sentence is on the screen at the next prompt.

At each prompt the person also saves the game (`w FILE`): the save says exactly what had
happened by then (its actions, replayed), so the test knows when a battle was fought without
reading the game from the screen.
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.core.game import Game
from engine.core.loader import load_pack
from engine.dsl.boardspec import board_spec
from engine.i18n.translations import Catalog

REPO = Path(__file__).resolve().parent.parent
COLUMNS, ROWS = 120, 50
DECISIONS = 20
WAIT = 60.0  # seconds a screen may take to come (the greedy bot thinks between prompts)
BATTLE = "battle"  # the event of Ante Portas's battle (battle.rules, `on battle(t)`)
OPTION = re.compile(r"^\s*(\d+)\) (.*)$")
IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")  # snake_case: a name in the rules

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not on PATH: this test plays in a tmux terminal")


class Terminal:
    """A tmux session of its own (a private server, its socket at `socket`), running one
    command."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str], socket: Path):
        self.socket = str(socket)
        env_args = [a for k, v in env.items() for a in ("-e", f"{k}={v}")]
        self.tmux("new-session", "-d", "-s", "play", "-x", str(COLUMNS), "-y", str(ROWS),
                  "-c", str(cwd), *env_args, shlex.join(command))
        self.tmux("set-option", "-t", "play", "remain-on-exit", "on")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-S", self.socket, *args], check=True, text=True,
                              capture_output=True, timeout=30).stdout

    def screen(self) -> str:
        """The visible screen, wrapped lines joined, trailing blanks dropped."""
        return self.tmux("capture-pane", "-p", "-J", "-t", "play").rstrip()

    def dead(self) -> bool:
        return self.tmux("display-message", "-p", "-t", "play", "#{pane_dead}").strip() == "1"

    def send(self, text: str) -> None:
        self.tmux("send-keys", "-t", "play", "-l", text)
        self.tmux("send-keys", "-t", "play", "Enter")

    def wait(self, ready, what: str) -> str:
        """Poll the screen until `ready(screen)`; fail after WAIT seconds."""
        deadline = time.monotonic() + WAIT
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                pytest.fail(f"no {what} within {WAIT:.0f} s; the screen:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True,
                       timeout=30)


def at_prompt(screen: str) -> bool:
    return screen.splitlines()[-1] == ">" if screen else False


def unlabelled_var_shown(screen: str, names: set[str]) -> list[str]:
    """Lines that show a var the board does not label: `name = value`, `name: value`, or
    with its index, `name (key) = value`."""
    pattern = re.compile(r"(?<![\w.'])(" + "|".join(map(re.escape, sorted(names)))
                         + r")(?: \([^)]*\))? ?[=:] ")
    return [line for line in screen.splitlines() if pattern.search(line)]


def option_texts(screen: str) -> list[str]:
    """The text of each option `N) text` on the screen, with its wrapped lines."""
    out: list[str] = []
    indent = None
    for line in screen.splitlines():
        m = OPTION.match(line)
        if m:
            out.append(m[2])
            indent = " " * (len(line) - len(m[2]))
        elif indent and line.startswith(indent) and line.strip():
            out[-1] += " " + line.strip()
        else:
            indent = None
    return out


def raw_ids_in_option(text: str, raw: set[str]) -> list[str]:
    """The parts of an option's text that are raw ids: named otherwise in the catalog, or
    identifiers no person writes (`army_named`, a piece made in play by its serial id)."""
    parts = [p.strip() for p in re.split(r"\s*[,;()]\s*|\s+/\s+|:\s+", text)]
    return [p for p in parts if p in raw or IDENTIFIER.fullmatch(p)] \
        + re.findall(r"\w+#\d+", text)


def battle_results(log: list[dict]) -> list[tuple[int, dict]]:
    """(index of its end, the last sentence logged in it) of each battle fought so far."""
    out = []
    for i, e in enumerate(log):
        if e.get("t") != "event" or e.get("n") != BATTLE:
            continue
        depth, said = 0, None
        for j in range(i + 1, len(log)):
            t = log[j].get("t")
            if t == "say":
                said = log[j]
            elif t == "event":
                depth += 1
            elif t == "done":
                if depth == 0:
                    assert said is not None, "a battle tells its result in a sentence"
                    out.append((j, said))
                    break
                depth -= 1
    return out


def test_a_person_follows_ante_portas_in_a_terminal(tmp_path):
    pack = load_pack("ante_portas")
    cat = Catalog(pack, "en")
    spec = board_spec(pack.meta.get("board"))
    labelled = set(spec.get("vars", [])) | ({spec["turn"]["var"]} if spec.get("turn") else set())
    unlabelled = set(pack.model.vars) - labelled
    # ids named otherwise in the catalog (and, in raw_ids_in_option, any snake_case word)
    raw = {x for x in [*pack.model.records, *pack.sides,
                       *(v.name for e in pack.model.enums.values() for v in e.values)]
           if cat.value(x) != x}
    env = {"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPATH": str(REPO), "TERM": "xterm"}
    command = [sys.executable, "-m", "engine", "play", "ante_portas", "--bots", "human,greedy",
               "--seed", "3"]
    term = Terminal(command, REPO, env, tmp_path / "tmux.socket")
    try:
        screen = term.wait(at_prompt, "first prompt")
        seen_log = 0  # the length of the log at the previous prompt
        battles = 0
        for step in range(DECISIONS):
            problems = unlabelled_var_shown(screen, unlabelled)
            assert not problems, f"vars the board does not label, at decision {step}:\n" \
                + "\n".join(problems) + f"\nthe screen:\n{screen}"
            options = option_texts(screen)
            assert options, f"a question with numbered options:\n{screen}"
            for text in options:
                assert not raw_ids_in_option(text, raw), \
                    f"option {text!r} shows raw ids {raw_ids_in_option(text, raw)}"
            # what has happened by now: the save, loaded
            save = tmp_path / f"at{step}.json"
            term.send(f"w {save}")
            saved = term.wait(lambda s, save=save: save.exists() and at_prompt(s) and
                              str(save) in s.splitlines()[-2], "save")
            log = Game.load(pack, save.read_text(encoding="utf-8"), verify="digest").log
            for end, said in battle_results(log):
                if end >= seen_log:  # fought since the previous prompt
                    battles += 1
                    assert cat.render(said) in screen, \
                        f"the battle's result {cat.render(said)!r} is not on the screen:\n{screen}"
            seen_log = len(log)
            term.send("1")
            screen = term.wait(lambda s, before=saved: s != before and
                               (at_prompt(s) or term.dead()), "next prompt")
            if term.dead():  # the game is over: its last screen, its result once
                assert screen.count("result:") == 1, screen
                break
        assert battles, "20 decisions of seed 3 fight a battle"
    finally:
        term.close()
