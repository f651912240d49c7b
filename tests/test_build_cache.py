"""The build cache: a warm build is the cold one, and only a build we wrote is ever read."""
from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import engine.dsl.build
import engine.dsl.cache
from engine.core.loader import instantiate, load_pack
from engine.core.validate import validate
from engine.dsl.build import build_pack
from engine.dsl.cache import Cache, cache_dir

RULES = """type card:
    power: int

var score[s: side]: int = 0
event turn(s: side)

on setup:
    emit turn(red)
    emit turn(blue)
    end game

on turn(s):
    let c = choose c from card by s
    score[s] += c.power
"""
RECORDS = """card:
  - {id: c1, power: 1}
  - id: c2
    power: 2
    disagree:
      - {field: power, value: 2, source: "old list"}
      - {field: power, value: 3, source: "new list"}
"""


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("ENGINE_DSL_CACHE", str(d))
    return d


@pytest.fixture
def builds(monkeypatch) -> list[Path]:
    """The packs really built (cache misses), in order."""
    made: list[Path] = []
    real = engine.dsl.build._build

    def counting(root, memo):
        made.append(Path(root))
        return real(root, memo)
    monkeypatch.setattr(engine.dsl.build, "_build", counting)
    return made


def make(root: Path, rules: str = RULES, records: str = RECORDS, imports: str = "") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pack.yaml").write_text(f"id: {root.name}\nname: t\nversion: 0.1.0\n"
                                    f"sides: [red, blue]\n{imports}", encoding="utf-8")
    (root / "rules.rules").write_text(rules, encoding="utf-8")
    (root / "cards.yaml").write_text(records, encoding="utf-8")
    return root


def entries(d: Path, kind: str = "build") -> list[Path]:
    return sorted(d.glob(f"{kind}-*.entry"))


def test_a_warm_build_is_the_cold_build(cache, builds, tmp_path):
    root = make(tmp_path / "p")
    cold = build_pack(root)
    assert builds == [root] and len(entries(cache)) == 1
    warm = build_pack(root)
    assert builds == [root]  # from the cache
    assert warm.check is None and cold.check is not None
    assert warm.code == cold.code and warm.source.hash == cold.source.hash
    assert warm.diagnostics == cold.diagnostics != []  # warning W327 is kept too
    assert [d.code for d in warm.diagnostics] == ["W327"]
    assert warm.source.model.records.keys() == cold.source.model.records.keys()
    games = []
    for build in (cold, warm):
        g = instantiate(build).new_game(7)
        while not g.over:
            g.apply(g.legal_actions()[-1], side=g.decision.side, decision=g.decision.id)
        games.append(g.state)
    assert games[0] == games[1]


def test_a_changed_pack_file_is_a_miss(cache, builds, tmp_path):
    root = make(tmp_path / "p")
    build_pack(root)
    (root / "cards.yaml").write_text(RECORDS.replace("power: 1", "power: 5"), encoding="utf-8")
    b = build_pack(root)
    assert len(builds) == 2 and b.source.model.records["c1"].data["power"] == 5
    (root / "more.yaml").write_text("card:\n  - {id: c3, power: 3}\n", encoding="utf-8")
    assert "c3" in build_pack(root).source.model.records and len(builds) == 3
    build_pack(root)
    assert len(builds) == 3


def test_a_changed_import_is_a_miss(cache, builds, tmp_path):
    make(tmp_path / "base", rules="type card:\n    power: int\n")
    root = make(tmp_path / "game", rules=RULES.split("\n", 3)[3], imports="imports: [base]\n",
                records="card: []\n")
    (tmp_path / "base" / "cards.yaml").write_text(RECORDS, encoding="utf-8")
    assert build_pack(root).ok and build_pack(root).ok and builds == [root]
    (tmp_path / "base" / "cards.yaml").write_text(RECORDS.replace("power: 2", "power: 9"))
    assert build_pack(root).source.model.records["c2"].data["power"] == 9
    assert builds[-1] == root


def test_where_an_import_is_found_is_part_of_the_key(cache, builds, tmp_path):
    """An import of a shipped pack is a miss once a folder of that name appears next to
    the importing pack: the build must now read that one."""
    root = make(tmp_path / "game", rules="value spaces(): int = count(space)\n", records="",
                imports="imports: [hannibal]\nplayable: false\n")
    (root / "pack.yaml").write_text((root / "pack.yaml").read_text().replace(
        "sides: [red, blue]", "sides: [carthage, rome]"))
    assert build_pack(root).ok and len(builds) == 1
    build_pack(root)
    assert len(builds) == 1
    local = make(tmp_path / "hannibal", rules="type space\n", records="space:\n  - {id: x}\n")
    (local / "pack.yaml").write_text("id: hannibal\nname: h\nversion: 0.1.0\n"
                                     "sides: [carthage, rome]\n")
    b = build_pack(root)
    assert len(builds) == 2 and list(b.source.model.records) == ["x"]


def test_a_changed_language_source_is_a_miss(cache, builds, tmp_path, monkeypatch):
    root = make(tmp_path / "p")
    source = tmp_path / "checker_stand_in.py"
    source.write_text("x = 1\n")
    monkeypatch.setattr(engine.dsl.cache, "toolchain_files", lambda: [source])
    build_pack(root)
    build_pack(root)
    assert len(builds) == 1
    source.write_text("x = 2\n")
    build_pack(root)
    assert len(builds) == 1  # a process runs the code it imported: hashed once
    monkeypatch.setattr(engine.dsl.cache, "_HASHED", {})  # as a new process would
    build_pack(root)
    assert len(builds) == 2
    # the real list holds every language and engine source, the grammar included
    monkeypatch.undo()
    engine_dir = Path(engine.dsl.cache.__file__).resolve().parent.parent
    names = {p.relative_to(engine_dir).as_posix() for p in engine.dsl.cache.toolchain_files()}
    assert {"dsl/grammar.lark", "dsl/parser/__init__.py", "dsl/pack/__init__.py", "dsl/files.py",
            "dsl/cache.py", "core/runtime/loop.py", "core/rt.py"} <= names


@pytest.mark.parametrize("damage", ["flip", "truncate", "foreign", "empty", "magic"])
def test_a_damaged_entry_is_ignored_and_rebuilt(cache, builds, tmp_path, damage):
    root = make(tmp_path / "p")
    good = build_pack(root)
    [entry] = entries(cache)
    data = entry.read_bytes()
    bad = {"flip": data[:-10] + bytes([data[-10] ^ 1]) + data[-9:],
           "truncate": data[: len(data) // 2],
           "foreign": b"\x80\x04K\x01.",  # a valid pickle, but no entry of ours
           "empty": b"",
           "magic": data.replace(engine.dsl.cache.MAGIC, b"engine-dsl cache 0\n", 1)}[damage]
    entry.write_bytes(bad)
    again = build_pack(root)
    assert len(builds) == 2 and again.code == good.code and again.check is not None
    # rewritten, and used by the next build (its bytes may differ from the first entry's:
    # the rebuild took its syntax trees from the parse cache, which pickle shares otherwise)
    assert entry.read_bytes() not in (bad, b"") and entry.read_bytes().startswith(
        engine.dsl.cache.MAGIC)
    assert build_pack(root).check is None and len(builds) == 2


def test_a_body_that_is_not_ours_is_never_unpickled(cache, builds, tmp_path, monkeypatch):
    """The header's digest is checked before the body is unpickled."""
    root = make(tmp_path / "p")
    build_pack(root)
    [entry] = entries(cache)
    data = entry.read_bytes()
    unpickled = []
    monkeypatch.setattr(engine.dsl.cache.pickle, "loads", lambda b: unpickled.append(b))
    damaged = data[:-1] + bytes([data[-1] ^ 0xFF])
    entry.write_bytes(damaged)
    build_pack(root)
    # the sound entry of the pack's syntax trees is read; the damaged one never
    assert not any(damaged.endswith(body) for body in unpickled) and len(builds) == 2


def test_an_entry_others_may_write_is_not_read(cache, builds, tmp_path):
    root = make(tmp_path / "p")
    build_pack(root)
    [entry] = entries(cache)
    entry.chmod(0o666)
    build_pack(root)
    assert len(builds) == 2  # ignored, and replaced by a private one
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    build_pack(root)
    assert len(builds) == 2
    # a link is not followed, even to an entry of ours
    other = tmp_path / "elsewhere.entry"
    other.write_bytes(entry.read_bytes())
    other.chmod(0o600)
    entry.unlink()
    entry.symlink_to(other)
    build_pack(root)
    assert len(builds) == 3


def test_a_folder_others_may_write_is_no_cache(tmp_path, monkeypatch):
    d = tmp_path / "shared"
    d.mkdir()
    d.chmod(0o777)
    monkeypatch.setenv("ENGINE_DSL_CACHE", str(d))
    assert cache_dir() is None and Cache.open() is None
    d.chmod(0o755)
    assert cache_dir() == d


def test_the_off_switch(tmp_path, builds, monkeypatch):
    monkeypatch.setenv("ENGINE_DSL_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    root = make(tmp_path / "p")
    build_pack(root)
    build_pack(root)
    assert len(builds) == 2 and not (tmp_path / "xdg").exists()
    assert cache_dir() is None


def test_the_platform_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("ENGINE_DSL_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(engine.dsl.cache.sys, "platform", "linux")
    assert cache_dir() == tmp_path / "xdg" / "engine-dsl"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(engine.dsl.cache.sys, "platform", "darwin")
    assert cache_dir() == tmp_path / "home" / "Library" / "Caches" / "engine-dsl"
    assert stat.S_IMODE(os.stat(cache_dir()).st_mode) == 0o700


def test_pruning_keeps_the_newest(cache, tmp_path, monkeypatch):
    c = Cache.open()
    for i in range(6):
        assert c.put("t", f"k{i}", list(range(100)))
        os.utime(c._path("t", f"k{i}"), (1000 + i, 1000 + i))
    assert c.get("t", "k0") == list(range(100))  # used now: the newest
    monkeypatch.setattr(engine.dsl.cache, "MAX_ENTRIES", 3)
    c.put("t", "k6", [6])
    assert {p.name for p in entries(cache, "t")} == {"t-k0.entry", "t-k5.entry", "t-k6.entry"}
    size = c._path("t", "k6").stat().st_size
    c.prune(max_bytes=2 * size)
    assert len(entries(cache, "t")) == 1
    (cache / ".old.tmp").write_bytes(b"x")
    os.utime(cache / ".old.tmp", (1000, 1000))
    c.prune()
    assert not (cache / ".old.tmp").exists()


def test_validate_warm_reports_what_it_reported_cold(cache, tmp_path, monkeypatch):
    root = make(tmp_path / "p", rules=RULES + 'check "fails": count(card) == 3\n')
    cold = validate([root], disagreements=True)
    assert cold.errors == 1
    assert entries(cache, "report")
    import engine.core.validate
    monkeypatch.setattr(engine.core.validate, "_validate_built", None)  # must not be needed
    warm = validate([root], disagreements=True)
    assert warm.diagnostics == cold.diagnostics
    assert warm.json_extra() == cold.json_extra() and warm.messages == cold.messages
    assert {d.code for d in warm.diagnostics} >= {"E400", "W327", "N520"}


def test_a_pack_with_errors_is_not_kept(cache, builds, tmp_path):
    root = make(tmp_path / "p", rules=RULES + "value v(): int = nothing\n")
    first = build_pack(root)
    assert not first.ok and build_pack(root).diagnostics == first.diagnostics
    assert len(builds) == 2 and entries(cache) == []


def test_load_pack_uses_the_cache(cache, builds, tmp_path):
    root = make(tmp_path / "p")
    a = load_pack(root)
    import engine.core.loader
    engine.core.loader._LOADED.clear()
    b = load_pack(root)
    assert len(builds) == 1 and a is not b and a.hash == b.hash and a.code == b.code


def test_validate_keeps_the_translation_check(cache, tmp_path, monkeypatch):
    import engine.core.validate
    make(tmp_path / "p")
    tr = tmp_path / "translations"
    tr.mkdir()
    (tr / "p.nl.yaml").write_text("pack: p\nlang: nl\nnames:\n  c1: {name: Een, source: x}\n"
                                  "  c9: {name: Negen}\n", encoding="utf-8")
    cold = validate([tmp_path])
    assert {d.code for d in cold.diagnostics} >= {"E501", "W502", "N510"}
    real = engine.core.validate._check_translations
    # must not be needed
    monkeypatch.setattr(engine.core.validate, "_check_translations", None)
    warm = validate([tmp_path])
    assert warm.diagnostics == cold.diagnostics and warm.coverage == cold.coverage
    monkeypatch.setattr(engine.core.validate, "_check_translations", real)
    (tr / "p.nl.yaml").write_text("pack: p\nlang: nl\nnames:\n  c1: {name: Een, source: x}\n",
                                  encoding="utf-8")
    fixed = validate([tmp_path])
    assert not {"E501", "W502"} & {d.code for d in fixed.diagnostics}


def test_after_an_edit_only_the_changed_file_is_parsed(cache, tmp_path, monkeypatch):
    """The syntax trees of a pack's files are kept by their text (engine.dsl.parser.memo):
    a build after one file's edit parses that file alone."""
    from engine.dsl.parser import memo
    root = make(tmp_path / "p")
    (root / "more.rules").write_text("value two(): int = 2\n", encoding="utf-8")
    parsed: list[str] = []
    real = memo.parse_module_partial
    monkeypatch.setattr(memo, "parse_module_partial",
                        lambda text, path: parsed.append(Path(path).name) or real(text, path))
    first = build_pack(root)
    assert sorted(parsed) == ["more.rules", "rules.rules"] and first.ok
    parsed.clear()
    (root / "more.rules").write_text("value two(): int = 1 + 1\n", encoding="utf-8")
    again = build_pack(root)
    assert parsed == ["more.rules"] and again.ok and again.code != first.code
    assert len(entries(cache, "parses")) == 1  # one per pack, holding what it last read


def test_two_codes_of_one_source_keep_their_own_lines_for_faults():
    """A run-time fault finds its rule line in the text of the code that runs (linecache,
    by the code's file name). The plainly compiled code of a pack (tests/compile_passes.py,
    bench/codegen_ab.py) is another text than the optimised one: made in the same process,
    it must not take the optimised code's file name, or the loaded pack's faults and
    bench/bytecodes.py's lines point at the wrong rules (a test order under pytest-xdist
    showed it)."""
    import linecache

    from compile_passes import plain_pack

    from engine.core.runtime import rule_site
    root = Path(__file__).parent.parent / "bench" / "packs" / "tictactoe"
    pack = load_pack(root)
    plain = plain_pack(root)
    assert plain.code != pack.code and plain.code_file != pack.code_file
    assert linecache.getlines(pack.code_file) == pack.code.splitlines(True)
    assert linecache.getlines(plain.code_file) == plain.code.splitlines(True)
    # each code's line of the move `mark[c] = active` (rules.rules:15) names that line
    for p in (pack, plain):
        line = next(i for i, text in enumerate(p.code.splitlines(), 1)
                    if "# @L15" in text)
        assert rule_site(p, p.code_file, "t0_on_setup", line) == ("rules.rules", 15)
