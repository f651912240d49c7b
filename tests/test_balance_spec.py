"""pack.yaml `balance:` (engine.dsl.balancespec): what `engine balance` reads of a game,
resolved against the pack, and the checker's located errors (E347)."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.core.errors import PackError
from engine.core.loader import load_pack
from engine.dsl.balancespec import balance_spec

BALANCEGAME = Path(__file__).resolve().parent / "packs" / "balancegame"


def _with_balance(tmp_path: Path, section: str) -> Path:
    """The balance test game with its pack.yaml `balance:` section replaced by `section`."""
    root = tmp_path / "balancegame"
    shutil.copytree(BALANCEGAME, root)
    text = (root / "pack.yaml").read_text(encoding="utf-8")
    (root / "pack.yaml").write_text(text[:text.index("balance:")] + section, encoding="utf-8")
    return root


def _errors(root: Path) -> list[tuple[str, int, int, str, str | None]]:
    with pytest.raises(PackError) as err:
        load_pack(root)
    return [(d.code, d.line, d.col, d.message, d.suggestion) for d in err.value.diagnostics]


@pytest.mark.parametrize("section, line, col, message, suggestion", [
    ("balance: [turn]\n", 11, 10, "'balance' is a mapping of sections (turn, track, "
     "first_player, cards)", None),
    ("balance:\n  turns: round_no\n", 12, 3, "balance: unknown key 'turns' (keys: turn, track, "
     "first_player, cards)", "did you mean 'turn'?"),
    ("balance:\n  turn: round\n", 12, 9, "balance: 'round' is not a var of the pack",
     "did you mean 'round_no'?"),
    ("balance:\n  turn: active\n", 12, 9, "balance: turn var 'active' is no plain int "
     "(var active: int)", None),
    ("balance:\n  track: [score, leed]\n", 12, 18, "balance: 'leed' is neither a var nor a "
     "value of the pack", "did you mean 'lead'?"),
    ("balance:\n  track: [active]\n", 12, 11, "balance: 'active' cannot be tracked: it needs "
     "an int or bool type and no parameter, or one side parameter", None),
    ("balance:\n  track: score\n", 12, 10, "balance: 'track' is a list of vars or values",
     None),
    ("balance:\n  first_player: open\n", 12, 17, "balance: 'open' is not an event of the pack",
     "did you mean 'opens'?"),
    ("balance:\n  cards: {type: cards}\n", 12, 17, "balance: unknown record type 'cards'",
     "did you mean 'card'?"),
    ("balance:\n  cards: {type: card, played: opens}\n", 12, 31, "balance: event 'opens' has "
     "no parameter of type card", None),
    ("balance:\n  cards: {type: card, kind: play}\n", 12, 23, "balance: cards: unknown key "
     "'kind' (keys: type, played, uses)", None),
    ("balance:\n  cards:\n    type: card\n    uses:\n      points: ['{s} plays {c} for "
     "points']\n", 15, 16, "balance: '{s} plays {c} for points' is no `log` sentence of the "
     "rules", None),
    ("balance:\n  cards:\n    type: card\n    uses: {points: []}\n", 14, 20,
     "balance: use 'points' is a list of `log` sentences", None),
])
def test_a_bad_balance_section_is_located(tmp_path, section, line, col, message, suggestion):
    found = _errors(_with_balance(tmp_path, section))
    assert ("E347", line, col, message, suggestion) in found, found


def test_sentences_match_by_their_placeholders_numbered(tmp_path):
    # another name for a placeholder is the same sentence: the game logs "{0} plays {1} ..."
    root = _with_balance(tmp_path, "balance:\n  cards:\n    type: card\n    played: play\n"
                         "    uses: {points: ['{who} plays {what} for its points']}\n")
    spec = balance_spec(load_pack(root).model, load_pack(root).meta)
    assert spec.cards is not None
    assert spec.cards.uses == {"{0} plays {1} for its points": "points"}
    assert (spec.cards.card_arg, spec.cards.side_arg) == (1, 0)


def test_the_shipped_packs_declare_what_balance_reads():
    hannibal = load_pack("hannibal")
    spec = balance_spec(hannibal.model, hannibal.meta)
    assert spec.turn == "turn_no" and spec.first_player == "card_play"
    assert [(t.name, t.kind, t.per_side) for t in spec.track] == [
        ("political_points", "value", True), ("cus_on_map", "value", True)]
    assert spec.cards is not None and spec.cards.type == "strategy_card"
    assert sorted(set(spec.cards.uses.values())) == ["discard", "event", "ops"]
    ante = load_pack("ante_portas")
    spec = balance_spec(ante.model, ante.meta)
    assert (spec.turn, [t.name for t in spec.track], spec.cards) == ("round_no", ["rsm", "sea"],
                                                                     None)
