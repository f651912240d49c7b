"""`GET /api/packs/{pack}/map`: the map a web page draws (issue 31, item 1), the pack's
`board_map(lang)` (engine.core.api.BoardMap), served once per pack rather than in every
view; 404 for a pack not played here or one without a map."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="engine serve needs the serve extra")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from starlette.testclient import TestClient  # noqa: E402

from engine.core import api  # noqa: E402
from engine.core.loader import load_pack  # noqa: E402
from engine.frontends.serve.app import create_app  # noqa: E402

PACKS = Path(__file__).resolve().parent / "packs"


def test_the_map_of_a_pack_in_the_language_asked(tmp_path):
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        r = client.get("/api/packs/hannibal/map?lang=ru")
        assert r.status_code == 200
        the_map = api.structure(r.json(), api.BoardMap)
        assert len(the_map["spaces"]) == 98
        roma = next(s for s in the_map["spaces"] if s["id"] == "roma")
        assert roma["name"] == "Рим" and 0 <= roma["x"] <= 1000 and 0 <= roma["y"] <= 1000
        r = client.get("/api/packs/ante_portas/map")
        cities = {s["id"] for s in r.json()["spaces"]}
        assert len(cities) == 21
        assert all(link["a"] in cities and link["b"] in cities for link in r.json()["links"])


def test_no_map_is_a_404_that_says_why(tmp_path):
    pack = load_pack(PACKS / "choicegame")
    with TestClient(create_app(tmp_path / "games.sqlite3", [pack])) as client:
        r = client.get("/api/packs/choicegame/map")
        assert r.status_code == 404
        assert f"{pack.name} has no map" in r.text
        r = client.get("/api/packs/nothing_here/map")
        assert r.status_code == 404 and "no pack 'nothing_here' to play here" in r.text
