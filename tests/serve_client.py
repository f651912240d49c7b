"""What the server's tests share: a seat token's header, and a game of two people (nothing
moves by itself) made through the API."""
from __future__ import annotations

from typing import Any

PACK = "ante_portas"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def two_people(client: Any, seed: int = 5) -> tuple[str, dict[str, str]]:
    """A game of two people on `client` (a TestClient): its id and each side's token."""
    r = client.post("/api/games", json={"pack": PACK, "seed": seed, "join": "carthage"})
    assert r.status_code == 201, r.json()
    game, tokens = r.json()["game"], {"carthage": r.json()["token"]}
    r = client.post(f"/api/games/{game}/join", json={"side": "rome"})
    assert r.status_code == 201, r.json()
    tokens["rome"] = r.json()["token"]
    return game, tokens
