"""docs/api.md is what `python -m engine.core.apidoc` writes now (engine/api.py, the calls'
docstrings and real games), and names every key of the format."""
from __future__ import annotations

from engine.core import api, apidoc


def test_docs_api_md_is_up_to_date():
    assert apidoc.DOC.read_text(encoding="utf-8") == apidoc.render(), (
        "docs/api.md is stale: run python -m engine.core.apidoc")
    assert apidoc.main(["--check"]) == 0


def test_every_key_and_kind_is_in_the_doc():
    text = apidoc.DOC.read_text(encoding="utf-8")
    for name, t in api.TYPES.items():
        assert f"### {name}\n" in text, name
        if api.is_typeddict(t):
            for key, _t, _required in api.keys(t):
                assert f"| `{key}` |" in text, f"{name}.{key}"
    for kind in api.KINDS:
        assert f'"kind": "{kind}"' in text, kind
    for shown in ('"window": "ambush"', '"each": {', '"picked": ['):
        assert shown in text


def test_the_bots_are_exported_and_documented():
    """Issue 31: bots are part of the documented API: `engine` exports them (lazily, as the
    rest) and docs/api.md has a section on each."""
    import engine
    from engine.frontends import bots
    for name in ("make_bot", "Bot", "GreedyBot", "RandomBot"):
        assert name in engine.__all__
        assert getattr(engine, name) is getattr(bots, name)
    text = apidoc.DOC.read_text(encoding="utf-8")
    section = text.split("## Bots\n", 1)[1].split("\n## ", 1)[0]
    for call in ("`engine.make_bot(spec, seed=0, **options)`", "`engine.RandomBot(seed=0)`",
                 "`engine.GreedyBot(seed=0, *, ", "`engine.Bot(seed=0)`"):
        assert call in section, call
    # what the section says works: a bot from the package plays a game to its end
    game = engine.load_pack("tests/packs/stackgame").new_game(seed=3)
    bot = engine.make_bot("random", seed=1)
    for _ in range(2000):
        if game.over:
            break
        d = game.decision
        game.apply(bot.choose(game, d.side), side=d.side, decision=d.id)
    assert game.over
