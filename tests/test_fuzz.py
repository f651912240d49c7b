"""The mutation fuzzer of bench/fuzz.py as a test: every pack, mutated, must build or give
diagnostics, and run or fail with a located EngineFault; never crash, never hang.

Closes the hole that no test fed broken packs through the whole pipeline (read, check,
compile, load, checks, play, views, save/load): a crash or hang there was found only by a
pack author. A failure prints every distinct crash signature with its reproducer:
`python bench/fuzz.py --seed S --replay PACK:INPUT`.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # bench/ is not installed: it is read from the work tree
    sys.path.insert(0, str(REPO))

from bench import fuzz  # noqa: E402

SEED = int(os.environ.get("FUZZ_SEED", "0"))
# About 45-60 s on 2 cores: inputs stop being started after SECONDS (a hang adds TIMEOUT).
INPUTS, SECONDS, TIMEOUT = 1000, 45.0, 10.0


def test_same_input_gives_the_same_mutation() -> None:
    """Input k of a pack is reproducible (a reproducer line must rerun the same pack), and
    inputs and seeds differ."""
    first = fuzz.all_targets(["testgame"])[0]
    again = fuzz.read_target(REPO / "tests" / "packs" / "testgame")
    runs = [fuzz.mutate(first, 0, n) for n in range(30)]
    assert runs == [fuzz.mutate(again, 0, n) for n in range(30)]
    assert len({repr(r) for r in runs}) >= 25
    assert sum(fuzz.mutate(first, 1, n) != runs[n] for n in range(30)) >= 25
    assert all(files != first.files and edits for files, edits in runs)


def test_rules_text_is_reproducible() -> None:
    """The rules-text target draws the same text for the same input."""
    if not fuzz.rules_text_available():
        pytest.skip("Hypothesis or tests/dsl_strategies.py missing")
    texts = [fuzz.rules_text(SEED, n) for n in range(6)]
    assert texts == [fuzz.rules_text(SEED, n) for n in range(6)]
    assert len({t for _, t in texts}) >= 4  # an empty module may come twice


def test_the_harness_sees_crashes_hangs_and_dead_workers(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A fuzzer that missed a crash or a hang would pass for ever: input 1 raises, 2 spins,
    3 kills its worker; the others run. (The workers are forked: they see the patch.)"""
    def drive(root: Path, number: int, progress: fuzz.Progress) -> str:
        progress.at("build")
        if number == 1:
            raise ValueError("boom")
        if number == 2:
            while True:
                pass
        if number == 3:
            os._exit(3)
        return "built-ok"

    monkeypatch.setattr(fuzz, "drive", drive)
    target = fuzz.all_targets(["tinygame"])[0]
    report = fuzz.fuzz([target], 6, workers=2, timeout=1.0)
    kinds = {o.number: (o.kind, o.signature, o.stage) for o in report.outcomes}
    assert kinds[1][:2] == ("crash", "ValueError@?")
    assert kinds[2][0] == "hang" and kinds[2][2] == "build"
    assert kinds[3][:2] == ("crash", "WorkerDied(exit 3)")
    assert [kinds[n][0] for n in (0, 4, 5)] == ["built-ok"] * 3
    assert "--replay tinygame:1" in fuzz.format_report(report)


def test_fuzzed_packs_neither_crash_nor_hang() -> None:
    """A bounded fuzz run over every pack (and rules text): 0 crashes, 0 hangs."""
    targets = fuzz.all_targets()
    report = fuzz.fuzz(targets, INPUTS, seed=SEED, workers=2, timeout=TIMEOUT,
                       seconds=SECONDS)
    text = fuzz.format_report(report)
    print("\n" + text)
    assert set(report.counts()) == {t.name for t in targets}, "a pack got no input"
    if report.bad:
        pytest.fail(f"crashes or hangs:\n{text}", pytrace=False)
