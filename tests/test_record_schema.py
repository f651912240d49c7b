"""`engine schema --pack PACK` (issue 35, part 1): the JSON Schema of a pack's record files,
made from its types. Every shipped pack's record files pass it (read as the engine reads
them), and it refuses a broken record the way `engine validate` would: an unknown field, a
value of the wrong type, a value outside its enum, an id of no record, a field left out."""
from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.dsl.build import build_pack
from engine.dsl.pack import read_pack
from engine.dsl.recordschema import record_schema
from engine.dsl.yamlload import load_yaml
from engine.frontends.cli import main

REPO = Path(__file__).resolve().parent.parent
PACKS = sorted(p.parent for p in (REPO / "content").glob("*/pack.yaml"))


def record_files(root: Path) -> list[Path]:
    return sorted(p for p in root.glob("*.yaml") if p.name != "pack.yaml")


def read(path: Path) -> Any:
    data, diags = load_yaml(str(path), path.read_text(encoding="utf-8"))
    assert not diags
    return data


@functools.cache
def validator(root: Path) -> jsonschema.Draft7Validator:
    schema = record_schema(read_pack(root).model)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


@pytest.mark.parametrize("root", PACKS, ids=[p.name for p in PACKS])
def test_every_record_file_of_a_shipped_pack_passes_its_schema(root):
    check = validator(root)
    files = record_files(root)
    assert files
    for path in files:
        problems = [f"{path.name} {list(e.absolute_path)}: {e.message}"
                    for e in check.iter_errors(read(path))]
        assert problems == []


def leaders() -> tuple[jsonschema.Draft7Validator, Any]:
    root = REPO / "content" / "hannibal"
    return validator(root), read(root / "leaders.yaml")


def refused(data: Any) -> list[str]:
    check, _ = leaders()
    return sorted(e.message for e in check.iter_errors(data))


@pytest.mark.parametrize("change, says", [
    (lambda r: r.update(strategi=3), "'strategi' was unexpected"),  # seed 002's word, misspelt
    (lambda r: r.update(strategy="three"), "'three' is not of type 'integer'"),
    (lambda r: r.update(side="gaul"), "'gaul' is not one of ['carthage', 'rome']"),
    (lambda r: r.update(at="atlantis"), "'atlantis' is not one of"),
    (lambda r: r.pop("battle"), "'battle' is a required property"),
    (lambda r: r.update(id="Hannibal Barca"), "does not match"),
])
def test_a_broken_record_is_refused(change, says):
    _, data = leaders()
    broken = copy.deepcopy({k: [dict(r) for r in v] for k, v in data.items()})
    change(broken["leader"][0])
    problems = refused(broken)
    assert len(problems) == 1 and says in problems[0], problems


def test_the_engine_refuses_what_the_schema_refuses(tmp_path):
    """The schema says what the reader says: the same broken record fails both."""
    import shutil
    root = tmp_path / "hannibal"
    shutil.copytree(REPO / "content" / "hannibal", root)
    path = root / "leaders.yaml"
    text = path.read_text(encoding="utf-8")
    first = text.index("  - id: ")
    end = text.index("\n", first)
    path.write_text(text[:end] + "\n    strategi: 3" + text[end:], encoding="utf-8")
    assert [e.message for e in validator(root).iter_errors(read(path))] == [
        "Additional properties are not allowed ('strategi' was unexpected)"]
    assert "E314" in [d.code for d in build_pack(root).diagnostics]


def test_every_key_a_record_may_carry_has_its_schema():
    from engine.dsl import recordschema
    from engine.dsl.pack.words import RECORD_META
    assert set(recordschema._META) == set(RECORD_META)


def test_the_command_prints_the_schema(capsys):
    assert main(["schema", "--pack", "hannibal"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == record_schema(read_pack(REPO / "content" / "hannibal").model)
    leader = printed["definitions"]["leader"]
    assert leader["properties"]["side"] == {"enum": ["carthage", "rome"], "description": "side"}
    # a reference to a record: the ids of its type's records (and none, where it is optional)
    chief = printed["definitions"]["leader"]["properties"]["chief"]["enum"]
    assert chief[-1] is None and "hannibal" in chief and "roma" not in chief


def test_the_command_says_which_schema_and_which_pack(capsys):
    assert main(["schema"]) == 2
    assert "--pack PACK" in capsys.readouterr().err
    assert main(["schema", "--pack", "hanibal"]) == 2
    assert "no pack 'hanibal'" in capsys.readouterr().err
    assert main(["schema", "--api", "--pack", "hannibal"]) == 2
    assert "not allowed with argument" in capsys.readouterr().err
