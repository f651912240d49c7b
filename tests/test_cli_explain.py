"""`engine explain CARD` (issue 35, part 6): a card's record, the rules text of its event
and where the procedures it calls are written, its name and text in each language, and the
lines of the rules that name it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.frontends.cli import main

REPO = Path(__file__).resolve().parent.parent
HANNIBAL = REPO / "content" / "hannibal"


@pytest.fixture(autouse=True)
def in_the_checkout(monkeypatch):
    monkeypatch.chdir(REPO)  # paths are shown relative to the current directory


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["explain", *args])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_a_card_with_its_fields_rules_and_words(capsys):
    code, out, _ = run(capsys, "messenger_intercepted", "--pack", "hannibal")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "strategy_card messenger_intercepted  (content/hannibal/cards.yaml:516)"
    assert lines[1:3] == ["  number: 55", "  ops: 1"]  # as cards.yaml has them
    assert lines[lines.index("effect (rules):") + 1] == "    take_and_play(active)"
    called = next(line for line in lines if line.startswith("    take_and_play  "))
    path, line = called.split()[1].rsplit(":", 1)
    declared = (REPO / path).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert declared.startswith("procedure take_and_play(")
    words = lines[lines.index("in each language:") + 1:]
    assert words[0] == "  en: Messenger Intercepted"
    assert [w[:6] for w in words if not w.startswith("      ")] == ["  en: ", "  nl: ", "  ru: ",
                                                                "named "]
    assert "      Возьмите одну карту стратегии у противника и используйте её сами." in words


def test_the_rules_lines_that_name_a_record(capsys):
    code, out, _ = run(capsys, "scipio_africanus", "--pack", "hannibal", "--lang", "en")
    assert code == 0
    code, printed, _ = run(capsys, "scipio_africanus", "--pack", "hannibal", "--json")
    assert code == 0
    found = json.loads(printed)
    mentions = {(m["path"], m["line"]) for m in found["mentions"]}
    text = (HANNIBAL / "reinforce.rules").read_text(encoding="utf-8").splitlines()
    expected = {("content/hannibal/reinforce.rules", n) for n, line in enumerate(text, 1)
                if "scipio_africanus" in line.replace("scipio_africanus_", "")}
    assert expected and expected <= mentions
    assert f"named in the rules: {len(mentions)} lines:" in out
    assert "  content/hannibal/reinforce.rules:" in out
    assert list(found["languages"]) == ["en", "nl", "ru"]  # --json without --lang: each one
    assert found["languages"]["en"] == {"name": "Scipio Africanus", "text": "",
                                        "own_name": True}


def test_a_card_is_found_by_its_english_name_in_the_one_pack_that_has_it(capsys):
    code, out, err = run(capsys, "messenger intercepted")
    assert code == 0
    assert out.startswith("strategy_card messenger_intercepted")
    assert "reading pack from" in err


def test_an_unknown_card_is_a_usage_error_with_a_suggestion(capsys):
    code, _, err = run(capsys, "mesenger_intercepted", "--pack", "hannibal")
    assert code == 2
    assert "no record 'mesenger_intercepted' in hannibal (did you mean " \
        "'messenger_intercepted'?)" in err


def test_a_card_of_two_packs_asks_for_the_pack(tmp_path, capsys, monkeypatch):
    rules = "type card:\n    power: int\non setup:\n    win red\n"
    for name in ("one", "two"):
        write_pack_files(tmp_path / name, rules, "card:\n  - {id: scout, power: 1}\n",
                         pack_id=name)
    monkeypatch.setenv("ENGINE_CONTENT", str(tmp_path))
    code, _, err = run(capsys, "scout")
    assert code == 2
    assert "'scout' is a record of several packs (one, two): say which with --pack" in err
    code, out, _ = run(capsys, "scout", "--pack", str(tmp_path / "two"))
    assert code == 0 and out.startswith("card scout")
    assert "named in the rules: 0 lines" in out
