"""What the web page's tests share: `engine serve`'s app on uvicorn in a thread, Debian's
Chromium driven by Playwright (tests/conftest.py's fixtures `web_server`, `browser` and
`page` use them), and the steps of a game on the page (make one on the new-game form, wait
for its question).

Chromium is found at /usr/bin/chromium (or $ENGINE_CHROMIUM); never downloaded. Without it
the modules that import this skip, unless ENGINE_BROWSER_TESTS=required (set by .ci/run):
then they fail.
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

# where the pages' screenshots are written (test artifacts; git ignores artifacts/)
ARTIFACTS = Path(os.environ.get("ENGINE_ARTIFACTS")
                 or Path(__file__).resolve().parent.parent / "artifacts")
CHROMIUM = os.environ.get("ENGINE_CHROMIUM", "/usr/bin/chromium")
REQUIRED = os.environ.get("ENGINE_BROWSER_TESTS") == "required"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
CHOICEGAME = Path(__file__).resolve().parent / "packs" / "choicegame"
WAIT_MS = 60_000  # for the bot's move or the server's answer, under a loaded machine


def _missing() -> str | None:
    for module in ("playwright", "uvicorn", "starlette", "websockets", "PIL"):
        try:
            __import__(module)
        except ImportError:
            return f"the Python package {module} is missing (pip install '.[test]')"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


if _missing():
    if REQUIRED:
        pytest.fail(f"browser tests are required here: {_missing()}", pytrace=False)
    pytest.skip(f"browser tests skipped: {_missing()}", allow_module_level=True)

import uvicorn  # noqa: E402
from PIL import Image  # noqa: E402
from playwright.sync_api import Page  # noqa: E402

from engine.core.loader import load_pack  # noqa: E402
from engine.frontends.serve.app import create_app  # noqa: E402


class Server:
    """`engine serve`'s app on uvicorn in a thread, on a free port of this machine."""

    def __init__(self, db: Path):
        self.app = create_app(db, [load_pack(CHOICEGAME)])
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", ws="websockets-sansio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < end and self.thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    def game(self, game_id: str) -> Any:
        return self.app.state.tables.get(game_id).game


def start(page: Page, server: Server, side: str = "carthage", others: str = "greedy",
          seed: int = 3, lang: str = "en", pack: str = "ante_portas") -> str:
    """Make a game on the new-game form; the game's id."""
    page.goto(f"{server.url}/?lang={lang}")
    page.select_option("#pack", pack)
    page.select_option("#side", side)
    page.select_option("#others", others)
    page.fill("#seed", str(seed))
    page.click("#new-game-form button[type=submit]")
    page.wait_for_url("**game=*")
    wait_ready(page)
    return page.url.split("game=")[1].split("&")[0]


def wait_ready(page: Page) -> str:
    """Wait until the page shows a question for its side or the result: "mine" or
    "over"."""
    page.wait_for_function("() => !document.getElementById('result').hidden || "
                           "document.querySelector('#options button:not([disabled])')")
    return "over" if page.is_visible("#result") else "mine"


def shoot(page: Any, name: str) -> Path:
    """The page as a PNG artifact, and a check that its map is drawn: the map's part of the
    picture has many colours and few pixels of its plain background."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("() => window.scrollTo(0, 0)")  # the map is at the top of the page
    page.screenshot(path=str(path))
    box = page.locator("#map").bounding_box()
    assert box and box["width"] > 300 and box["height"] > 150, box
    with Image.open(path) as shot:
        part = shot.convert("RGB").crop((int(box["x"]), int(box["y"]),
                                         int(box["x"] + box["width"]),
                                         int(box["y"] + box["height"])))
        colours = part.getcolors(maxcolors=1 << 20) or []
    background = max(colours)[0] / sum(n for n, _ in colours)
    assert len(colours) > 50 and background < 0.9, (name, len(colours), background)
    return path
