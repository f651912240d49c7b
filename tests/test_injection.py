"""Nothing a pack contains reaches generated Python as code (issue 8, holes 1 and 10).

Payloads try to end a comment or a string literal and run `builtins.INJECTED = ...`;
every test asserts the marker was never set and the content came through unchanged.
"""
from __future__ import annotations

import builtins
import subprocess
import sys
from pathlib import Path

import pytest

from engine.dsl.build import build_pack
from engine.dsl.check import check
from engine.dsl.compile import compile_pack
from engine.dsl.pack import read_pack

MARK = "__import__('builtins').__setattr__('INJECTED', 1)"
PAYLOADS = [
    f"\n{MARK}\n",
    f"\r{MARK}\r",
    f"'\n{MARK}\n'",
    f'"""\n{MARK}\n"""',
    f"\\\n{MARK}",
    f"\u2028{MARK}\u2029",
    f"\x85{MARK}",
    f"{{{MARK}}}",
    f"%s{MARK}",
]


@pytest.fixture(autouse=True)
def no_marker():
    builtins.__dict__.pop("INJECTED", None)
    yield
    assert not hasattr(builtins, "INJECTED"), "pack content ran as Python"


RULES = """
var active: side = red
var said: text = ""
type card:
    title: text
    effect: effect?
on setup:
    for c in card:
        run(c.effect)
        log "card", c.title
"""


@pytest.mark.parametrize("payload", PAYLOADS)
def test_paths_in_generated_code_are_data(write_pack, payload):
    """Even if a file name with a line break got past the reader, the generated module
    holds it as a string literal in FILES, never in a comment or as code."""
    root = write_pack(RULES, {"cards.yaml": "card:\n  - {id: a, title: A}\n"})
    src = read_pack(root)
    model = src.model
    for name in model.decl_paths:
        model.decl_paths[name] = str(root / f"x{payload}.rules")
    for tr in model.triggers:
        tr.path = str(root / f"t{payload}.rules")
    code = compile_pack(model, check(model, src.sources))
    namespace: dict = {}
    exec(compile(code, "<pack test>", "exec"), namespace)
    assert any(payload in f for f in namespace["FILES"])
    assert MARK not in [line.strip() for line in code.splitlines()]


@pytest.mark.parametrize("payload", PAYLOADS[:4])
def test_a_file_name_with_a_line_break_is_refused(tmp_path, payload):
    """`engine validate` on a pack with such a file reports a located error and runs
    nothing, in a fresh process (the compile cache included)."""
    from conftest import write_pack_files
    root = write_pack_files(tmp_path / "p", RULES,
                            {"cards.yaml": "card:\n  - {id: a, title: A}\n"})
    name = f"evil{payload}.rules".replace("/", "_")
    try:
        (root / name).write_text("procedure f():\n    pass\n", encoding="utf-8")
    except (OSError, ValueError):
        pytest.skip("the file system refuses this name")
    code = ("import builtins, sys\nfrom engine.frontends.cli import main\n"
            f"rc = main(['validate', {str(root)!r}])\n"
            "print('INJECTED' if hasattr(builtins, 'INJECTED') else 'clean')\nsys.exit(rc)\n")
    for _ in range(2):  # the second run reads the compile cache, if anything was cached
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=120)
        assert out.stdout.strip().endswith("clean"), out.stdout + out.stderr
        assert out.returncode == 1, out.stdout + out.stderr
        assert "error[E" in out.stdout


@pytest.mark.parametrize("payload", PAYLOADS)
def test_strings_in_records_and_rules_stay_strings(inline_pack, payload):
    yaml_text = (payload.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                 .replace("\r", "\\r").replace("\u2028", "\\L").replace("\u2029", "\\P")
                 .replace("\x85", "\\N"))
    # the rules language knows the escapes \n, \t, \" and \\ (others are kept as text)
    in_rules = payload.translate({ord(c): None for c in "\r\u2028\u2029\x85"})
    rules_text = in_rules.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    pack = inline_pack(RULES.replace('var said: text = ""', f'var said: text = "{rules_text}"'),
                       {"cards.yaml": f'card:\n  - id: a\n    title: "{yaml_text}"\n'
                                      f'    effect: |\n      said = "{rules_text}"\n'})
    assert pack.records["a"]["title"] == payload
    g = pack.new_game(1)
    assert g.var("said") == in_rules
    assert [e["a"] for e in g.log if e["t"] == "say"] == [[payload]]


@pytest.mark.parametrize("rid", ["class", "def", "lambda", "print", "g", "l_x", "exec",
                                 "x5_title_a", "p_setup", "t0_on_setup", "v_x"])
def test_record_ids_that_are_python_words(inline_pack, rid):
    pack = inline_pack(RULES, {"cards.yaml": f"card:\n  - id: {rid}\n    title: T\n"
                                             f"    effect: |\n      said = \"{rid}\"\n"})
    g = pack.new_game(1)
    assert g.var("said") == rid


def test_generated_names_do_not_collide(inline_pack):
    """Field `a__b` on record `c` and field `a` on record `b__c` used to be the same function
    `x_a__b__c`: one silently ran the other's code (hole 10)."""
    pack = inline_pack("""
        var active: side = red
        var said: list of text = []
        type thing:
            a__b: effect?
            a: effect?
        on setup:
            run(c.a__b)
            run(b__c.a)
    """, {"things.yaml": """
        thing:
          - id: c
            a__b: |
              said = said + ["c.a__b"]
          - id: b__c
            a: |
              said = said + ["b__c.a"]
        """})
    assert pack.new_game(1).var("said") == ["c.a__b", "b__c.a"]
    names = [eff.fn for eff in pack.model.effects]
    assert len(set(names)) == len(names)


def test_build_of_a_normal_pack_needs_no_escape_hatch(testgame):
    """The generated module of the test game has no pack text outside literals: every
    comment is a position marker or the fixed header."""
    for line in testgame.code.splitlines():
        if "#" in line and not line.lstrip().startswith(("'", '"')):
            comment = line[line.index("#"):]
            if comment.startswith("# @L"):
                assert comment[4:].isdigit(), line
    assert build_pack(Path(testgame.root)).ok
