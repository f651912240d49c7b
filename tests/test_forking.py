"""engine.core.forking, and `engine validate` building packs in forked processes: the same
results as one after the other, whatever a child does."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from engine.core import forking
from engine.core import validate as V

PACKS = Path(__file__).parent / "packs"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux")


def _pids_and_squares(group: list[int]) -> tuple[int, list[int]]:
    return os.getpid(), [n * n for n in group]


@linux_only
def test_groups_are_worked_in_forked_processes_in_order(monkeypatch):
    monkeypatch.setattr(forking, "workers", lambda: 4)
    got = forking.in_processes(_pids_and_squares, [[1, 2], [3], [4, 5, 6]])
    assert [squares for _pid, squares in got] == [[1, 4], [9], [16, 25, 36]]
    pids = [pid for pid, _squares in got]
    assert pids[0] == os.getpid() and len(set(pids)) == 3


def test_without_enough_processes_every_group_is_worked_here(monkeypatch):
    monkeypatch.setattr(forking, "workers", lambda: 1)
    got = forking.in_processes(_pids_and_squares, [[1], [2]])
    assert got == [(os.getpid(), [1]), (os.getpid(), [4])]


@linux_only
def test_a_child_that_fails_has_its_group_worked_here(monkeypatch):
    monkeypatch.setattr(forking, "workers", lambda: 2)
    parent = os.getpid()

    def only_here(group: list[int]) -> list[int]:
        if os.getpid() != parent:
            raise RuntimeError("a child that breaks")
        return [n + 1 for n in group]
    assert forking.in_processes(only_here, [[1], [2, 3]]) == [[2], [3, 4]]


@linux_only
def test_a_child_that_dies_has_its_group_worked_here(monkeypatch):
    monkeypatch.setattr(forking, "workers", lambda: 2)
    parent = os.getpid()

    def dies(group: list[int]) -> list[int]:
        if os.getpid() != parent:
            os._exit(9)
        return group
    assert forking.in_processes(dies, [[1], [2]]) == [[1], [2]]


def _validated(monkeypatch, tmp_path: Path, workers: int) -> tuple[list[str], list[Path]]:
    cache = tmp_path / f"cache{workers}"
    monkeypatch.setenv("ENGINE_DSL_CACHE", str(cache))
    monkeypatch.setattr(forking, "workers", lambda: workers)
    monkeypatch.setattr(V, "MIN_SHARE", 0)  # the test packs are small
    report = V.validate([PACKS / name for name in ("testgame", "windowgame", "leakgame")])
    return [str(d) for d in report.diagnostics], sorted(cache.glob("report-*.entry"))


@linux_only
def test_packs_validated_at_once_report_as_one_after_the_other(monkeypatch, tmp_path):
    together, kept = _validated(monkeypatch, tmp_path, 2)
    alone, kept_alone = _validated(monkeypatch, tmp_path, 1)
    assert together == alone and together
    # each process kept its packs in the build cache: the next run reads them from there
    assert [p.name for p in kept] == [p.name for p in kept_alone] and len(kept) == 3
    assert _validated(monkeypatch, tmp_path, 2)[0] == alone


def test_packs_are_dealt_by_size_biggest_first(tmp_path, monkeypatch):
    monkeypatch.setattr(V, "MIN_SHARE", 0)
    todo = [(PACKS / name, None) for name in ("tinygame", "testgame", "windowgame")]
    shares = V._shares(todo, 2)
    assert [[root.name for root, _key in share] for share in shares] == [
        ["testgame"], ["windowgame", "tinygame"]]
    monkeypatch.setattr(V, "MIN_SHARE", 10**9)  # not enough work: one share, in order
    assert V._shares(todo, 2) == [todo]
    assert V._shares(todo, 1) == [todo]


@linux_only
def test_translations_read_ahead_by_a_fork_are_checked_as_read_here(monkeypatch, tmp_path):
    # the lighter share parses the translation files into the cache after its packs; the
    # check afterwards, in this process, must find what reading them here would
    import shutil
    for name in ("testgame", "windowgame"):
        shutil.copytree(PACKS / name, tmp_path / "packs" / name)
    folder = tmp_path / "packs" / "translations"
    folder.mkdir()
    (folder / "testgame.nl.yaml").write_text(
        "pack: testgame\nlang: nl\nnames:\n  no_such_thing: {name: \"Niets\"}\n",
        encoding="utf-8")
    monkeypatch.setattr(V, "MIN_SHARE", 0)
    from engine.i18n.translations import files
    parse, parsed_here = files._parse_translation, []

    def counted(*args):
        parsed_here.append(args[0])  # in this process only: a fork's list is its own
        return parse(*args)
    monkeypatch.setattr(files, "_parse_translation", counted)
    reports = []
    for workers in (2, 1):
        monkeypatch.setenv("ENGINE_DSL_CACHE", str(tmp_path / f"cache{workers}"))
        monkeypatch.setattr(forking, "workers", lambda workers=workers: workers)
        reports.append([str(d) for d in V.validate([tmp_path / "packs"]).diagnostics])
        # two processes: the fork parsed the file, this process found it parsed; one: this
        # process parsed it
        assert len(parsed_here) == (0 if workers == 2 else 1)
    assert reports[0] == reports[1]
    assert any("no_such_thing" in d for d in reports[0])


def _split_pack(tmp_path: Path) -> Path:
    """Two packs to validate, the heavier with rules in several files (the last one broken,
    so its diagnostic must come through a fork's parse as it would from this one's)."""
    import shutil
    packs = tmp_path / "packs"
    shutil.copytree(PACKS / "testgame", packs / "testgame")
    shutil.copytree(PACKS / "tinygame", packs / "tinygame")
    for name in ("x_more", "y_more", "z_more"):
        body = "".join(f"value {name}_{i}(): int = {i}\n" for i in range(200))
        if name == "z_more":
            body += "value broken(: int = 1\n"
        (packs / "testgame" / f"{name}.rules").write_text(body, encoding="utf-8")
    return packs


def test_the_heaviest_packs_last_rules_are_given_to_the_lightest_share(monkeypatch, tmp_path):
    packs = _split_pack(tmp_path)
    monkeypatch.setenv("ENGINE_DSL_CACHE", str(tmp_path / "cache"))
    heavy, light = [(packs / "testgame", None)], [(packs / "tinygame", None)]
    root, tail = V._tail_rules([heavy, light])
    assert root == packs / "testgame" and tail  # in reading order, from the end
    rules = sorted(p for p in root.iterdir() if p.name.endswith(".rules"))
    assert tail == rules[len(rules) - len(tail):] and len(tail) < len(rules)
    weight = [sum(f.stat().st_size for f in p.iterdir()) for p in (root, packs / "tinygame")]
    assert sum(f.stat().st_size for f in tail) <= (weight[0] - weight[1]) * V.TAIL_SHARE
    monkeypatch.setenv("ENGINE_DSL_CACHE", "off")
    assert V._tail_rules([heavy, light]) is None  # no cache to pass them through


@linux_only
def test_rules_parsed_ahead_by_a_fork_are_taken_here_as_parsed_here(monkeypatch, tmp_path):
    packs = _split_pack(tmp_path)
    monkeypatch.setattr(V, "MIN_SHARE", 0)
    from engine.dsl.parser import memo
    parse, parsed_here = memo.parse_module_partial, []

    def counted(text, path):
        parsed_here.append(Path(path).name)  # in this process only
        return parse(text, path)
    monkeypatch.setattr(memo, "parse_module_partial", counted)
    # packs this small are read here before the fork has parsed anything: wait for it (a
    # real run asks for the last files after the rest, long after the fork is done)
    get = memo.Ahead.get

    def waited(self, key):
        import time
        deadline = time.monotonic() + 10
        while self.memo is None and time.monotonic() < deadline:
            self.memo = self.fetch()
            time.sleep(0.01)
        return get(self, key)
    monkeypatch.setattr(memo.Ahead, "get", waited)
    reports = []
    for workers in (2, 1):
        monkeypatch.setenv("ENGINE_DSL_CACHE", str(tmp_path / f"cache{workers}"))
        monkeypatch.setattr(forking, "workers", lambda workers=workers: workers)
        parsed_here.clear()
        reports.append([str(d) for d in V.validate([packs]).diagnostics])
        if workers == 2:  # the fork parsed the last files: this process took them
            assert "z_more.rules" not in parsed_here and "rules.rules" in parsed_here
        else:
            assert "z_more.rules" in parsed_here
    assert reports[0] == reports[1]
    assert any("z_more.rules" in d and "error" in d for d in reports[0])


def test_validate_leaves_the_collector_as_it_found_it(monkeypatch, tmp_path):
    import gc
    monkeypatch.setenv("ENGINE_DSL_CACHE", str(tmp_path / "cache"))
    assert gc.isenabled()
    V.validate([PACKS / "tinygame"])
    assert gc.isenabled()
    gc.disable()
    try:
        V.validate([PACKS / "testgame"])
        assert not gc.isenabled()
    finally:
        gc.enable()
