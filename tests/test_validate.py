"""`engine validate` and `engine.validate_paths`: packs, checks and translation files."""
from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest

from engine.frontends.cli import main

TINY = Path(__file__).resolve().parent / "packs" / "tinygame"


def copy_tiny(dst: Path) -> Path:
    shutil.copytree(TINY, dst)
    return dst


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in {path}")


# ---- packs --------------------------------------------------------------------------------------
def test_ok_pack(capsys):
    assert main(["validate", str(TINY)]) == 0
    out = capsys.readouterr().out
    assert out.strip() == "checked 1 pack, 3 files: ok"


def test_broken_rules_and_yaml_in_one_run(tmp_path, capsys):
    pack = copy_tiny(tmp_path / "tiny")
    rules = pack / "rules.rules"
    rules.write_text(rules.read_text().replace("score[s] += c.power", "score[s] += (c.power"))
    write(pack / "more.yaml", """
        card:
          - id: four
            power: 1
            power: 2
    """)
    assert main(["validate", str(pack)]) == 1
    out = capsys.readouterr().out
    # both files' problems, each located with line and column
    assert f"{pack / 'more.yaml'}:4:5: error[E002]: duplicate key 'power'" in out
    assert f"{rules}:" in out and "error[E10" in out
    bad = [line for line in out.splitlines() if line.startswith(str(rules))]
    assert bad and bad[0].split(":")[1].isdigit() and bad[0].split(":")[2].isdigit()
    assert "^" in out  # a caret under the problem
    assert out.rstrip().splitlines()[-1].startswith("checked 1 pack, 4 files: ")
    assert "error" in out.rstrip().splitlines()[-1]
    assert "\n\n" in out  # blank line between diagnostics
    assert "Traceback" not in out


def test_misspelled_record_gets_did_you_mean(tmp_path, capsys):
    pack = copy_tiny(tmp_path / "tiny")
    rules = pack / "rules.rules"
    rules.write_text(rules.read_text().replace("    shuffle deck\n",
                                               "    shuffle deck\n    move thre to table\n"))
    assert main(["validate", str(pack)]) == 1
    out = capsys.readouterr().out
    line = line_of(rules, "move thre")
    assert f"{rules}:{line}:10: error[E201]" in out
    assert "did you mean 'three'?" in out


def test_failed_check_is_located(tmp_path, capsys):
    pack = copy_tiny(tmp_path / "tiny")
    rules = pack / "rules.rules"
    rules.write_text(rules.read_text() + '\ncheck "four cards": count(card) == 4\n'
                     'check "three cards": count(card) == 3\n')
    assert main(["validate", str(pack)]) == 1
    out = capsys.readouterr().out
    line = line_of(rules, "four cards")
    assert f"{rules}:{line}:1: error[E400]: check failed: four cards" in out
    assert "three cards" not in out
    assert "checked 1 pack, 3 files: 1 error" in out


def test_json_format(tmp_path, capsys):
    pack = copy_tiny(tmp_path / "tiny")
    write(pack / "more.yaml", "card:\n  - id: four\n    power: 01\n")
    assert main(["validate", "--format", "json", str(pack)]) == 1
    data = json.loads(capsys.readouterr().out)  # nothing but the JSON
    assert data["errors"] >= 1
    d = data["diagnostics"][0]
    assert d["code"] == "E004" and d["path"] == str(pack / "more.yaml")
    assert (d["line"], d["col"]) == (3, 12)


def test_directory_of_packs(tmp_path, capsys):
    copy_tiny(tmp_path / "a")
    b = copy_tiny(tmp_path / "b")
    (b / "pack.yaml").write_text((b / "pack.yaml").read_text().replace("tinygame", "other"))
    assert main(["validate", str(tmp_path)]) == 0
    assert "checked 2 packs, 6 files: ok" in capsys.readouterr().out


def test_bad_path_is_usage_error(tmp_path, capsys):
    assert main(["validate", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "nope" in err
    assert main(["validate", "no_such_pack_name"]) == 2
    assert "no pack" in capsys.readouterr().err


def test_no_packs(tmp_path, capsys):
    assert main(["validate", str(tmp_path)]) == 0
    assert f"no packs found under {tmp_path}" in capsys.readouterr().out


def test_no_packs_but_bad_translations(tmp_path, capsys):
    write(tmp_path / "translations" / "ghost.nl.yaml", "pack: ghost\nlang: nl\n")
    assert main(["validate", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "no packs found under" in out and "error[E500]: unknown pack 'ghost'" in out


def test_default_is_shipped_packs(tmp_path, capsys, monkeypatch):
    import engine.core.validate as V
    copy_tiny(tmp_path / "tinygame")
    monkeypatch.setattr(V, "_shipped", lambda: tmp_path)
    assert main(["validate"]) == 0
    assert "checked 1 pack" in capsys.readouterr().out
    assert main(["validate", "tinygame"]) == 0  # a shipped pack by name


def test_unreadable_file_no_traceback(tmp_path, capsys):
    pack = copy_tiny(tmp_path / "tiny")
    (pack / "bad.yaml").write_bytes(b"card:\n  - id: caf\xe9\n")
    assert main(["validate", str(pack)]) == 1
    out = capsys.readouterr().out
    assert "error[" in out and "Traceback" not in out


def test_api(tmp_path):
    import engine
    pack = copy_tiny(tmp_path / "tiny")
    assert engine.validate_paths([pack]) == []
    (pack / "x.yaml").write_text("card:\n  - id: one\n    power: 1\n")
    diags = engine.validate_paths([str(pack)])
    assert [d.code for d in diags] == ["E313"]
    with pytest.raises(FileNotFoundError):
        engine.validate_paths([tmp_path / "missing"])


# ---- translations -------------------------------------------------------------------------------
@pytest.fixture
def content(tmp_path):
    """A content-like directory: tinygame (with names and a log line) and translations/."""
    pack = copy_tiny(tmp_path / "tinygame")
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace("power: 1\n", "power: 1\n    name: The One\n", 1))
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text()
                                    .replace("[en]", "[en, nl, ru]"))
    rules = pack / "rules.rules"
    rules.write_text(rules.read_text().replace("    if c != none:\n",
                                               '    log "{0} plays", s\n    if c != none:\n'))
    return tmp_path


def test_translation_problems(content, capsys):
    t = write(content / "translations" / "tinygame.nl.yaml", """
        pack: tinygame
        lang: nl
        names:
          one: {name: "Een", source: "rulebook p. 2"}
          thre: {name: "Drie", source: "rulebook p. 2"}
          two: "Twee"
        terms:
          scor: {name: "Score", source: "x"}
          combat_unit: {name: "GE", source: "x"}
        messages:
          turn: {text: "Beurt van {0}", source: "x"}
          "{0} plays": {text: "{0} speelt", source: "x"}
          battle: {text: "Slag", source: "x"}
          setup: {text: "Begin {1}", source: "x"}
    """)
    write(content / "translations" / "tinygam.ru.yaml", """
        pack: tinygam
        lang: ru
    """)
    write(content / "translations" / "tinygame.hu.yaml", """
        pack: tinygame
        lang: hu
        nmes: {}
    """)
    assert main(["validate", str(content)]) == 1
    out = capsys.readouterr().out
    ru = content / "translations" / "tinygam.ru.yaml"
    assert f"{ru}:1:7: error[E500]: unknown pack 'tinygam'" in out
    assert "did you mean 'tinygame'?" in out
    assert f"{t}:5:3: error[E501]: pack 'tinygame' has no record 'thre'" in out
    assert "did you mean 'three'?" in out
    assert f"{t}:6:3: warning[W502]: 'two' has no source" in out
    assert f"{t}:8:3: error[E508]: unknown term 'scor' in pack 'tinygame'" in out
    assert "did you mean 'score'?" in out
    # a term must be a rules name or a record id: a free word is an error
    assert f"{t}:9:3: error[E508]: unknown term 'combat_unit'" in out
    assert f"{t}:13:3: error[E505]" in out
    assert f"{t}:14:" in out and "error[E506]" in out
    hu = content / "translations" / "tinygame.hu.yaml"
    assert f"{hu}:3:1: error[E503]: unknown key 'nmes'" in out
    assert f"{hu}:2:7: warning[W507]" in out
    assert "translation coverage tinygame: en 33%, hu 0%, nl 66%" in out
    assert "checked 1 pack, 6 files: 7 errors, 2 warnings" in out


def test_translation_ok_and_coverage(content, capsys):
    write(content / "translations" / "tinygame.ru.yaml", """
        pack: tinygame
        lang: ru
        names:
          one: {name: "Один", source: "s"}
          two: {name: "Два", source: "s"}
          three: {name: "Три", source: "s"}
    """)
    assert main(["validate", str(content / "tinygame")]) == 0
    out = capsys.readouterr().out
    assert "note[N510]: translation coverage tinygame: en 33%, ru 100%" in out
    assert "checked 1 pack, 4 files: ok" in out
    # the translations directory alone is checked against the packs next to it
    assert main(["validate", str(content / "translations")]) == 0
    assert "checked 0 packs, 1 file: ok" in capsys.readouterr().out


def test_translation_file_name_mismatch(content, capsys):
    write(content / "translations" / "tinygame.nl.yaml", "pack: tinygame\nlang: hu\n")
    write(content / "translations" / "notes.yaml", "pack: tinygame\nlang: nl\n")
    assert main(["validate", "--format", "json", str(content)]) == 1
    data = json.loads(capsys.readouterr().out)
    codes = sorted(d["code"] for d in data["diagnostics"] if d["severity"] == "error")
    assert codes == ["E503", "E503"]
