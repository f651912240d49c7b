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
