"""`engine balance hannibal` writes a page whose every plot shows in headless Chromium: each
<img> loaded (naturalWidth > 0) and its PNG drawn (many colours, not a blank canvas).
Skipped without Chromium (tests/browser.py), a failure under ENGINE_BROWSER_TESTS=required."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from browser import Image  # (skips this module where the browser tests cannot run)

ROOT = Path(__file__).resolve().parent.parent
# the kinds of plot a Hannibal page has for one pairing
PLOTS = {"wins", "reasons", "length", "first", "track", "cards"}


def test_engine_balance_hannibal_page_shows_every_plot(tmp_path, page):
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "engine", "balance", "hannibal", "--games", "6",
                          "--bots", "random,random", "--out", str(out), "--no-progress"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert f"wrote {out / 'index.html'}" in run.stdout
    assert len((out / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 6
    page.goto((out / "index.html").as_uri())
    page.wait_for_load_state("load")
    images = page.evaluate("""() => [...document.images].map(i => ({
        src: i.getAttribute('src'), complete: i.complete, width: i.naturalWidth,
        height: i.naturalHeight}))""")
    assert {img["src"].removesuffix("_1.png") for img in images} == PLOTS, images
    for img in images:
        assert img["complete"] and img["width"] > 0 and img["height"] > 0, img
        with Image.open(out / img["src"]) as png:
            assert png.format == "PNG" and png.size == (img["width"], img["height"])
            colours = png.convert("RGB").getcolors(maxcolors=1 << 16)
        # a blank or one-colour canvas has a few colours; a drawn plot, with its
        # antialiased text and lines, hundreds
        assert colours is None or len(colours) > 50, (img["src"], len(colours))
    text = page.inner_text("body")
    assert "Balance of Hannibal: Rome vs. Carthage" in text
    assert "Carthage" in text and "Rome" in text and "sues for peace" in text
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    pairing = report["pairings"][0]["pack"]
    assert pairing["games"] == 6 and pairing["cards"]
    assert set(pairing["track"]) == {"political_points|carthage", "political_points|rome",
                                     "cus_on_map|carthage", "cus_on_map|rome"}
