"""Diagnostics: rendering, JSON, suggestions, ordering."""

import json
import pickle

import pytest

from engine.dsl.errors import (
    Diagnostic,
    DslError,
    did_you_mean,
    position_of,
    render_json,
    render_text,
    sort_key,
    source_line,
)


def make(**kw):
    base = {"code": "E201", "message": "unknown city 'capa'", "path": "rules/move.rules",
            "line": 12, "col": 6}
    base.update(kw)
    return Diagnostic(**base)


def test_render_full():
    d = make(line_text="  go capa", end_col=10, suggestion="did you mean 'capua'?")
    assert d.render() == (
        "rules/move.rules:12:6: error[E201]: unknown city 'capa'\n"
        "  12 |   go capa\n"
        "     |      ^^^^\n"
        "  = help: did you mean 'capua'?"
    )


def test_render_gutter_adapts_to_line_number():
    d = make(line=7, col=1, line_text="x")
    assert d.render().splitlines()[1:] == ["  7 | x", "    | ^"]
    d = make(line=1234, col=2, line_text="abc", end_col=4)
    assert d.render().splitlines()[1:] == ["  1234 | abc", "       |  ^^"]


@pytest.mark.parametrize("end_col", [None, 6, 3])
def test_caret_is_at_least_one_wide(end_col):
    d = make(line_text="0123456789", end_col=end_col)
    assert d.render().splitlines()[2] == "     |      ^"


def test_render_without_source_or_help():
    assert make().render() == "rules/move.rules:12:6: error[E201]: unknown city 'capa'"


def test_render_severity_and_unknown_position():
    assert make(severity="warning").render().startswith("rules/move.rules:12:6: warning[E201]:")
    assert make(severity="note", line=0, col=0).render() == (
        "rules/move.rules: note[E201]: unknown city 'capa'")
    assert make(line=3, col=0, line_text="abc").render() == (
        "rules/move.rules:3: error[E201]: unknown city 'capa'\n  3 | abc"
    )


def test_bad_severity_rejected():
    with pytest.raises(ValueError):
        make(severity="fatal")


def test_caret_follows_tabs():
    d = make(line=1, col=3, line_text="\t\tx", end_col=4)
    assert d.render().splitlines()[2] == "    | \t\t^"


def test_to_json_has_every_field():
    d = make(line_text="  go capa", end_col=10, suggestion="did you mean 'capua'?")
    assert d.to_json() == {
        "code": "E201",
        "message": "unknown city 'capa'",
        "path": "rules/move.rules",
        "line": 12,
        "col": 6,
        "line_text": "  go capa",
        "end_col": 10,
        "suggestion": "did you mean 'capua'?",
        "severity": "error",
    }


def test_render_json_counts():
    diags = [make(), make(severity="warning"), make(severity="note"), make(code="E202")]
    out = json.loads(render_json(diags))
    assert out["errors"] == 2
    assert out["warnings"] == 1
    assert [d["code"] for d in out["diagnostics"]] == ["E201", "E201", "E201", "E202"]
    assert json.loads(render_json([])) == {"diagnostics": [], "errors": 0, "warnings": 0}


def test_render_text_joins_in_order():
    a, b = make(code="E1"), make(code="E2")
    assert render_text([a, b]) == a.render() + "\n\n" + b.render()
    assert render_text([]) == ""


def test_dsl_error_str_and_pickle():
    diags = [make(code="E1"), make(code="E2")]
    err = DslError(diags)
    assert err.diagnostics == diags
    assert str(err) == render_text(diags)
    again = pickle.loads(pickle.dumps(err))
    assert again.diagnostics == diags
    with pytest.raises(DslError) as info:
        raise err
    assert "error[E2]" in str(info.value)


@pytest.mark.parametrize(
    "name, expected",
    [
        ("capa", "did you mean 'capua'?"),
        ("CAPUA", "did you mean 'capua'?"),  # case-insensitive
        ("Rom", "did you mean 'roma'?"),
        ("xyzzy", None),
        ("", None),
    ],
)
def test_did_you_mean(name, expected):
    assert did_you_mean(name, ["capua", "roma", "neapolis"]) == expected


def test_did_you_mean_edge_cases():
    assert did_you_mean("capua", ["capua"]) is None  # itself is no suggestion
    assert did_you_mean("x", []) is None
    assert did_you_mean("ab", iter(["abc", "abd"])) == "did you mean 'abc'?"  # ties: first by name


def test_sort_key_orders_by_path_line_col():
    ds = [make(path="b", line=1, col=1), make(path="a", line=2, col=1),
          make(path="a", line=1, col=9), make(path="a", line=1, col=2)]
    assert [(d.path, d.line, d.col) for d in sorted(ds, key=sort_key)] == [
        ("a", 1, 2), ("a", 1, 9), ("a", 2, 1), ("b", 1, 1)]


def test_source_line():
    text = "one\ntwo\r\nthree\rfour\n"
    assert [source_line(text, n) for n in range(0, 6)] == ["", "one", "two", "three", "four", ""]
    assert source_line("", 1) == ""
    assert source_line("no newline", 1) == "no newline"


def test_position_of():
    text = "ab\ncd\r\nef"
    assert position_of(text, 0) == (1, 1)
    assert position_of(text, 4) == (2, 2)
    assert position_of(text, 8) == (3, 2)
