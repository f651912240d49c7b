"""Reading a pack safely (issue 8): file names, links, alias bombs, huge numbers and the
pack.yaml / record shapes that used to crash `build_pack`.

Every test here failed on the code before issue 8: it either read what it must not, or
raised instead of returning diagnostics.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.dsl.build import build_pack
from engine.dsl.errors import render_text
from engine.dsl.pack import read_pack
from engine.frontends.cli import main

RULES = """
type card:
    power: int
on setup:
    end game
"""
CARD = "card:\n  - id: {id}\n    power: 1\n"


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("ENGINE_DSL_CACHE", "off")


def make_pack(tmp_path: Path, records: dict[str, str] | None = None) -> Path:
    return write_pack_files(tmp_path / "pack", RULES,
                            records or {"cards.yaml": CARD.format(id="one")})


def codes(diags) -> list[str]:
    return [d.code for d in diags]


def errors_of(src, code: str) -> list:
    return [d for d in src.diagnostics if d.code == code]


# ---- hole 1: file names with control characters -------------------------------------------
BAD_NAMES = [("\n", "\\n"), ("\x1b[31m", "\\x1b[31m"), ("\u202e", "\\u202e"),
             ("\u2028", "\\u2028"), ("\x85", "\\x85"), ("\r", "\\r")]


@pytest.mark.parametrize("bad, shown", BAD_NAMES)
def test_control_characters_in_a_file_name_are_refused(tmp_path, bad, shown):
    """Hole 1: a record file whose name holds a control, bidi or line-break character is not
    read, and the E328 shows its path escaped."""
    root = make_pack(tmp_path)
    (root / f"evil{bad}.yaml").write_text(CARD.format(id="two"), encoding="utf-8")
    src = read_pack(root)
    [d] = errors_of(src, "E328")
    assert d.path == f"{root}/evil{shown}.yaml"
    assert bad not in d.path + d.message and d.render().count("\n") == 1  # line + help
    assert "two" not in src.model.records  # not read
    assert all(bad not in path for path in src.sources)


def test_control_characters_in_a_folder_name_refuse_its_files_once(tmp_path):
    """Hole 1: a folder on the way to pack files counts too; one E328 for the folder."""
    root = make_pack(tmp_path)
    sub = root / "cards\x1b]0;owned\x07"
    sub.mkdir()
    (sub / "a.yaml").write_text(CARD.format(id="two"), encoding="utf-8")
    (sub / "b.rules").write_text("type x:\n    n: int\n", encoding="utf-8")
    (sub / "notes.txt").write_text("not a pack file", encoding="utf-8")
    src = read_pack(root)
    [d] = errors_of(src, "E328")
    assert d.path == f"{root}/cards\\x1b]0;owned\\x07" and "folder" in d.message
    assert "two" not in src.model.records and "x" not in src.model.types


def test_a_rules_file_with_a_bidi_override_is_refused(tmp_path):
    """Hole 1: `.rules` files too (U+202E makes 'evil\u202eselur.rules' look otherwise)."""
    root = make_pack(tmp_path)
    (root / "evil\u202eselur.rules").write_text("type x:\n    n: int\n", encoding="utf-8")
    src = read_pack(root)
    assert codes(src.diagnostics) == ["E328"]
    assert "x" not in src.model.types


def test_file_name_that_is_not_utf8_is_refused_not_a_crash(tmp_path):
    """Hole 1: bytes that are not UTF-8 in a name (a lone surrogate in Python) used to crash
    the pack hash with UnicodeEncodeError."""
    root = make_pack(tmp_path)
    try:
        fd = os.open(os.fsencode(root) + b"/bad\xff.yaml", os.O_WRONLY | os.O_CREAT, 0o644)
    except OSError:
        pytest.skip("this file system refuses names that are not UTF-8")
    os.write(fd, CARD.format(id="two").encode())
    os.close(fd)
    build = build_pack(root)
    [d] = [d for d in build.diagnostics if d.code == "E328"]
    assert d.path == f"{root}/bad\\udcff.yaml"
    d.render().encode("utf-8")  # printable


def test_validate_prints_bad_names_escaped(tmp_path, capsys):
    """Hole 1: `engine validate` output holds no raw control character from a file name."""
    root = make_pack(tmp_path)
    (root / "x\x1b[2J.yaml").write_text(CARD.format(id="two"), encoding="utf-8")
    assert main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert f"{root}/x\\x1b[2J.yaml: error[E328]:" in out


def test_printable_path():
    """Hole 1: the escaping itself; harmless paths are left alone."""
    from engine.dsl.pack import printable_path
    assert printable_path("content/hannibal/cards.yaml") == "content/hannibal/cards.yaml"
    assert printable_path("a\\b/é.yaml") == "a\\b/é.yaml"
    assert printable_path("a\\b\n\u202e\U000e0001.yaml") == "a\\\\b\\n\\u202e\\U000e0001.yaml"


# ---- hole 2: links --------------------------------------------------------------------
SECRET = "root:x:0:0:secret-marker"


def outside_file(tmp_path: Path, name: str = "secret.yaml") -> Path:
    p = tmp_path / "elsewhere" / name
    p.parent.mkdir(exist_ok=True)
    p.write_text(SECRET + "\n", encoding="utf-8")
    return p


def assert_not_read(src, target: Path) -> None:
    assert all(SECRET not in text for text in src.sources.values())
    assert SECRET not in render_text(src.diagnostics)
    assert str(target) not in render_text(src.diagnostics)


def test_file_link_out_of_the_pack_is_refused(tmp_path):
    """Hole 2: `leak.yaml -> (a file outside)` is refused with E329, never read or printed."""
    root = make_pack(tmp_path)
    target = outside_file(tmp_path)
    (root / "leak.yaml").symlink_to(target)
    src = read_pack(root)
    assert codes(src.diagnostics) == ["E329"]
    assert src.diagnostics[0].path == str(root / "leak.yaml")
    assert_not_read(src, target)


def test_link_to_etc_passwd_is_refused(tmp_path):
    """Hole 2: the classic: leak.yaml -> /etc/passwd."""
    if not Path("/etc/passwd").is_file():
        pytest.skip("no /etc/passwd here")
    root = make_pack(tmp_path)
    (root / "leak.yaml").symlink_to("/etc/passwd")
    src = read_pack(root)
    assert codes(src.diagnostics) == ["E329"]
    assert not any(p.endswith("leak.yaml") for p in src.sources)
    assert "root:" not in render_text(src.diagnostics)


def test_folder_link_out_of_the_pack_is_refused(tmp_path):
    """Hole 2: a linked folder pointing outside is refused (E329), its files not read."""
    root = make_pack(tmp_path)
    target = outside_file(tmp_path, "cards.yaml").parent
    (root / "more").symlink_to(target, target_is_directory=True)
    (root / "up").symlink_to("..", target_is_directory=True)
    src = read_pack(root)
    assert sorted((d.code, Path(d.path).name) for d in src.diagnostics) == [
        ("E329", "more"), ("E329", "up")]
    assert_not_read(src, target)


def test_pack_yaml_linked_out_of_the_pack_is_refused(tmp_path):
    """Hole 2: pack.yaml itself may not lead outside either."""
    root = make_pack(tmp_path)
    target = outside_file(tmp_path, "pack.yaml")
    (root / "pack.yaml").unlink()
    (root / "pack.yaml").symlink_to(target)
    src = read_pack(root)
    assert codes(src.diagnostics)[:1] == ["E329"]
    assert src.diagnostics[0].path == str(root / "pack.yaml")
    assert_not_read(src, target)


def test_links_inside_the_pack_and_loops(tmp_path):
    """Hole 2: a file link inside the pack is followed (it can only show the pack's own
    text); a folder link inside is not walked (its files are read at their own place, once);
    broken links and link loops are refused (E329) instead of silently skipped."""
    root = make_pack(tmp_path)
    (root / "data").mkdir()
    (root / "data" / "more.txt").write_text(CARD.format(id="two"), encoding="utf-8")
    (root / "more.yaml").symlink_to(Path("data") / "more.txt")
    (root / "again").symlink_to(".", target_is_directory=True)
    (root / "loop.yaml").symlink_to("loop.yaml")
    (root / "gone.rules").symlink_to("nowhere.rules")
    src = read_pack(root)
    assert sorted((d.code, Path(d.path).name) for d in src.diagnostics) == [
        ("E329", "gone.rules"), ("E329", "loop.yaml")]
    assert set(src.model.records) == {"one", "two"}  # each read once: no E313


# ---- hole 3: alias bombs --------------------------------------------------------------
def laughs(levels: int) -> str:
    """Ten times more values per level: 10**levels leaves in a few hundred bytes."""
    out = ["    - &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        out.append(f"    - &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(out)


def test_billion_laughs_in_a_disagree_value_fails_fast(tmp_path):
    """Hole 3: nested aliases in a `disagree:` value (10**7 leaves from under 1 kB) took
    15 s; now E007 at the alias, fast."""
    records = CARD.format(id="one") + (
        "    disagree:\n"
        "      - field: power\n"
        "        source: x\n"
        "        value:\n" + laughs(7).replace("    - ", "          - ") + "\n")
    root = make_pack(tmp_path, {"cards.yaml": records})
    start = time.perf_counter()
    build = build_pack(root)
    assert time.perf_counter() - start < 0.5
    assert "E007" in codes(build.diagnostics)
    d = next(d for d in build.diagnostics if d.code == "E007")
    assert d.line > 1 and d.col > 1 and "*a" in d.line_text


# ---- hole 4: huge numbers -------------------------------------------------------------
@pytest.mark.parametrize("number", ["9" * 5000, "0" + "1" * 5000, "1_" * 3000 + "1",
                                    "0x" + "f" * 4000],
                         ids=["digits", "leading-zero", "underscores", "hex"])
def test_huge_number_in_a_record_is_a_located_error(tmp_path, number):
    """Hole 4: int() refuses more than 4,300 digits; that ValueError escaped build_pack."""
    root = make_pack(tmp_path, {"cards.yaml": f"card:\n  - id: one\n    power: {number}\n"})
    build = build_pack(root)
    [d] = build.diagnostics
    assert (d.code, d.line, d.col) == ("E008", 3, 12)
    assert len(d.message) < 200


# ---- hole 5: shapes that crashed ------------------------------------------------------
def test_sides_with_no_value(tmp_path):
    """Hole 5: `sides:` with nothing after it made read_pack iterate None."""
    root = make_pack(tmp_path)
    (root / "pack.yaml").write_text("id: p\nname: P\nversion: 1\nsides:\n", encoding="utf-8")
    build = build_pack(root)
    assert ("E304", 4) in [(d.code, d.line) for d in build.diagnostics]


@pytest.mark.parametrize("value", ["[a, b]", "{a: 1}"])
def test_list_for_a_field_of_unknown_type(tmp_path, value):
    """Hole 5: a list or mapping where a record id is expected (here of an undeclared type)
    was looked up in a set: TypeError: unhashable type."""
    root = write_pack_files(tmp_path / "pack", "type card:\n    where: region\n"
                            "on setup:\n    end game\n",
                            {"cards.yaml": f"card:\n  - id: one\n    where: {value}\n"})
    build = build_pack(root)
    [d] = build.diagnostics  # the type is reported once, not every value of it
    assert (d.code, d.line, d.col, d.message) == ("E202", 2, 12, "unknown type 'region'")


def test_table_key_with_thousands_of_digits(tmp_path):
    """Hole 5 (found by fuzzing): a quoted table row key of 5,000 digits went to int(),
    whose ValueError escaped build_pack. Now E319: not a number or range."""
    key = "9" * 5000
    # `? key` / `: value`: a plain `key: value` is at most 1,024 characters long
    root = make_pack(tmp_path, {"tables.yaml": f"table:\n  - id: odds\n    rows:\n"
                                               f"      ? '{key}'\n      : 1\n"
                                               f"      ? '1-{key}'\n      : 2\n"})
    build = build_pack(root)
    assert [(d.code, d.line) for d in build.diagnostics] == [("E319", 5), ("E319", 7)]


def test_translation_links_out_are_refused(tmp_path):
    """A translation file that links outside its folder is neither read nor printed."""
    from engine.i18n.translations import read_translation
    secret = tmp_path / "secret.txt"
    secret.write_text("pack: x\nlang: en\nnames: {TOPSECRET: y}\n", encoding="utf-8")
    folder = tmp_path / "translations"
    folder.mkdir()
    link = folder / "x.names.en.yaml"
    link.symlink_to(secret)
    tf = read_translation(link)
    assert [d.code for d in tf.diagnostics] == ["E329"]
    assert "TOPSECRET" not in repr(tf.diagnostics) and not tf.ok


def test_fmt_never_writes_through_a_link_out(tmp_path, capsys):
    """`engine fmt DIR` rewrites files: a .rules link leading out of DIR is refused."""
    from engine.frontends.cli import main
    outside = tmp_path / "outside.rules"
    outside.write_text("var  x:int=1\n", encoding="utf-8")
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / "rules.rules").symlink_to(outside)
    assert main(["fmt", str(folder)]) == 2
    assert "E329" not in capsys.readouterr().out  # a usage error, said plainly
    assert outside.read_text(encoding="utf-8") == "var  x:int=1\n"


def test_unknown_field_type_is_an_error(write_pack):
    """A record field of an undeclared type used to build silently (found by fuzzing)."""
    from engine.dsl.build import build_pack
    root = write_pack("""
        type card:
            where: regoin
        type region
        on setup:
            end game
    """)
    d = [d for d in build_pack(root).diagnostics if d.code == "E202"]
    assert len(d) == 1 and d[0].line == 2 and d[0].col == 12
    assert d[0].suggestion == "did you mean 'region'?"
