"""Located YAML loading: values, positions and the refused spellings."""

import textwrap
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dsl.errors import Diagnostic
from engine.dsl.yamlload import (
    MAX_ALIAS_NODES,
    MAX_DEPTH,
    MAX_NUMBER_LENGTH,
    Loc,
    YList,
    YMap,
    load_yaml,
    loc_of,
    resolve_plain,
)


def load(text):
    return load_yaml("pack/units.yaml", textwrap.dedent(text))


def load_ok(text):
    data, diags = load(text)
    assert diags == []
    return data


def only(diags, code):
    assert [d.code for d in diags] == [code], [d.render() for d in diags]
    return diags[0]


# -- values -------------------------------------------------------------------

def test_plain_values_follow_yaml_12_core():
    data = load_ok("""\
        a: true
        b: True
        c: TRUE
        d: false
        e: 12
        f: -3
        g: +4
        h: 0
        i: 1.5
        j: .5
        k: 2.
        l: 1.5e3
        m: -2.5E-2
        n: null
        o: ~
        p:
        q: 12:30
        r: .inf
        s: .nan
        t: hello world
        u: 2024-01-01
        v: tRuE
        w: -0
        """)
    assert data == {
        "a": True, "b": True, "c": True, "d": False, "e": 12, "f": -3, "g": 4, "h": 0,
        "i": 1.5, "j": 0.5, "k": 2.0, "l": 1500.0, "m": -0.025, "n": None, "o": None,
        "p": None, "q": "12:30", "r": ".inf", "s": ".nan", "t": "hello world",
        "u": "2024-01-01", "v": "tRuE", "w": 0,
    }
    assert type(data["e"]) is int and type(data["a"]) is bool and type(data["i"]) is float


def test_quoted_and_block_scalars_are_always_strings():
    data = load_ok("""\
        a: 'no'
        b: "12"
        c: "true"
        d: '0777'
        e: "null"
        f: |
          yes
        g: >
          1_000
        h: ''
        """)
    assert data == {"a": "no", "b": "12", "c": "true", "d": "0777", "e": "null",
                    "f": "yes\n", "g": "1_000\n", "h": ""}


def test_keys_keep_their_resolved_type():
    data = load_ok("""\
        1: [a, b]
        2: [c]
        "3": quoted
        name: x
        """)
    assert list(data) == [1, 2, "3", "name"]
    assert data[1] == ["a", "b"]


def test_ambiguous_words_are_fine_as_keys():
    data = load_ok("""\
        on: turn_start
        y: 3
        n: 4
        no: 5
        """)
    assert data == {"on": "turn_start", "y": 3, "n": 4, "no": 5}


def test_containers_and_nesting():
    data = load_ok("""\
        units:
          - id: legion
            tags: [heavy, foot]
            stats: {atk: 3, def: 2}
          - id: archer
        empty_list: []
        empty_map: {}
        """)
    assert isinstance(data, YMap)
    assert isinstance(data["units"], YList)
    assert isinstance(data["units"][0]["tags"], YList)
    assert isinstance(data["units"][0]["stats"], YMap)
    assert data["units"][0]["stats"] == {"atk": 3, "def": 2}
    assert data["empty_list"] == [] and data["empty_map"] == {}


def test_scalar_and_empty_documents():
    assert load_yaml("f.yaml", "42") == (42, [])
    assert load_yaml("f.yaml", "") == (None, [])
    assert load_yaml("f.yaml", "# only a comment\n") == (None, [])
    assert load_yaml("f.yaml", "---\na: 1\n...\n") == ({"a": 1}, [])


def test_byte_order_mark_is_skipped():
    data, diags = load_yaml("f.yaml", "\ufeffa: 1\nb: no\n")
    assert data == {"a": 1, "b": "no"}
    d = only(diags, "E003")
    assert (d.line, d.col, d.line_text) == (2, 4, "b: no")


# -- positions ----------------------------------------------------------------

def test_positions_of_maps_keys_values_and_items():
    data = load_ok("""\
        name: legion
        cost: 3
        tags:
          - heavy
          - 'foot'
        text: |
          Marches.
        nested: {a: "x"}
        """)
    assert (data.path, data.line, data.col) == ("pack/units.yaml", 1, 1)
    assert data.key_loc["cost"] == Loc("pack/units.yaml", 2, 1, None)
    assert data.val_loc["cost"] == Loc("pack/units.yaml", 2, 7, None)
    tags = data["tags"]
    assert (tags.line, tags.col) == (4, 3)
    assert tags.item_loc == [Loc("pack/units.yaml", 4, 5, None), Loc("pack/units.yaml", 5, 5, "'")]
    assert data.val_loc["text"].style == "|"
    assert (data.val_loc["text"].line, data.val_loc["text"].col) == (6, 7)
    nested = data["nested"]
    assert (nested.line, nested.col) == (8, 9)
    assert nested.val_loc["a"] == Loc("pack/units.yaml", 8, 13, '"')
    assert data.val_loc["nested"] == Loc("pack/units.yaml", 8, 9, None)


def test_folded_style_is_recorded():
    data = load_ok("a: >\n  folded\n")
    assert data.val_loc["a"].style == ">"


def test_loc_of():
    data = load_ok("""\
        a: 1
        b: [x, z]
        """)
    assert loc_of(data, "a") == Loc("pack/units.yaml", 1, 4)
    assert loc_of(data["b"], 1) == Loc("pack/units.yaml", 2, 8)
    assert loc_of(data["b"], -1) == Loc("pack/units.yaml", 2, 8)
    # Missing keys and bad indexes fall back to the container itself.
    assert loc_of(data, "missing") == Loc("pack/units.yaml", 1, 1)
    assert loc_of(data["b"], 5) == Loc("pack/units.yaml", 2, 4)
    assert loc_of(data) == data.loc
    assert loc_of({"a": 1}, "a") == Loc("", 0, 0)
    assert str(loc_of(data, "a")) == "pack/units.yaml:1:4"


def test_unicode_columns_count_characters():
    data = load_ok("é: [ü, ß]\n")
    assert data["é"].item_loc[1].col == 8


def test_crlf_and_cr_line_breaks():
    data, diags = load_yaml("f.yaml", "a: 1\r\nb: no\r\n")
    d = only(diags, "E003")
    assert (d.line, d.col, d.line_text) == (2, 4, "b: no")
    data, diags = load_yaml("f.yaml", "a: 1\rb: no")
    d = only(diags, "E003")
    assert (d.line, d.col, d.line_text) == (2, 4, "b: no")


def test_ymap_and_ylist_behave_like_dict_and_list():
    m = YMap({"a": 1}, path="p", line=2, col=3)
    assert m == {"a": 1} and m.loc == Loc("p", 2, 3)
    lst = YList([1, 2], path="p", line=1, col=1)
    assert lst == [1, 2] and lst.item_loc == []


# -- E003: yes/no/on/off/y/n ---------------------------------------------------

@pytest.mark.parametrize("word", ["yes", "no", "on", "off", "y", "n",
                                  "Yes", "NO", "On", "OFF", "Y", "N"])
def test_ambiguous_booleans_are_errors(word):
    data, diags = load(f"visible: {word}\n")
    d = only(diags, "E003")
    assert d.message == f"ambiguous YAML value '{word}': quote it ('{word}') or write true/false"
    assert (d.path, d.line, d.col, d.end_col) == ("pack/units.yaml", 1, 10, 10 + len(word))
    assert d.line_text == f"visible: {word}"
    assert d.severity == "error"
    assert data == {"visible": word}  # kept as the string, never a bool


def test_ambiguous_in_sequences():
    _, diags = load("flags: [true, no]\nmore:\n  - off\n")
    assert [(d.code, d.line, d.col) for d in diags] == [("E003", 1, 15), ("E003", 3, 5)]


# -- E004: number forms ------------------------------------------------------

@pytest.mark.parametrize(
    "text, message",
    [
        ("0777", "leading zero in number '0777': write 777 or quote it"),
        ("-007", "leading zero in number '-007': write -7 or quote it"),
        ("00", "leading zero in number '00': write 0 or quote it"),
        ("1_000", "underscore in number '1_000': write 1000 or quote it"),
        ("1_000.5", "underscore in number '1_000.5': write 1000.5 or quote it"),
        ("0x1F", "hex number '0x1F' is not supported: write 31 or quote it"),
        ("0o17", "octal number '0o17' is not supported: write 15 or quote it"),
        ("0b101", "binary number '0b101' is not supported: write 5 or quote it"),
        ("-0x10", "hex number '-0x10' is not supported: write -16 or quote it"),
        ("1e3", "exponent without a decimal point in '1e3': write 1.0e3 or quote it"),
    ],
)
def test_refused_number_forms(text, message):
    data, diags = load(f"cost: {text}\n")
    d = only(diags, "E004")
    assert d.message == message
    assert (d.line, d.col, d.end_col, d.line_text) == (1, 7, 7 + len(text), f"cost: {text}")
    assert data == {"cost": text}


def test_refused_number_forms_in_keys_too():
    _, diags = load("07: x\n")
    d = only(diags, "E004")
    assert (d.line, d.col) == (1, 1)


@pytest.mark.parametrize("text", ["0o99", "0xZZ", "_1", "1.2.3", "1e", "12:30:00", "+", "1-2"])
def test_number_lookalikes_are_plain_strings(text):
    assert load_ok(f"v: {text}\n") == {"v": text}


@pytest.mark.parametrize("text", ["9" * 5000, "-" + "9" * 4301, "0" + "7" * 5000,
                                  "0x" + "f" * 5000, "1_" * 3000 + "1", "1." + "5" * 5000,
                                  "1" * (MAX_NUMBER_LENGTH + 1)],
                         ids=["int", "negative", "leading-zero", "hex", "underscores", "float",
                              "just-too-long"])
def test_too_long_numbers(text):
    """Issue 8 hole 4: int() refuses more than 4,300 digits (ValueError escaped), and the
    E004 messages printed the number. Now E008."""
    data, diags = load_yaml("f.yaml", f"v: {text}\n")
    assert only(diags, "E008").col == 4
    assert data["v"] == text and len(diags[0].message) < 100


def test_number_length_limit_in_values_and_keys():
    """Issue 8 hole 4: the longest allowed number reads; one digit more is E008, in keys
    too (a key is at most 1,024 characters in YAML)."""
    ok = "9" * MAX_NUMBER_LENGTH
    key = "1" * (MAX_NUMBER_LENGTH + 1)
    data, diags = load_yaml("f.yaml", f"a: {ok}\nb: 1.5e300\n{key}: 2\n")
    assert only(diags, "E008").line == 3
    assert data == {"a": int(ok), "b": 1.5e300, key: 2}


@pytest.mark.parametrize("text", ["1.0e400", "-1.5e309", "!!float " + "9" * 400,
                                  "!!int " + "9" * 5000])
def test_numbers_too_large(text):
    """Issue 8 hole 4: a float past 1.8e308 would be inf; tags do not get around the limits."""
    _, diags = load_yaml("f.yaml", f"v: {text}\n")
    assert only(diags, "E008").col == 4


def test_resolve_plain_directly():
    assert resolve_plain("no") == (
        "no", ("E003", "ambiguous YAML value 'no': quote it ('no') or write true/false"))
    assert resolve_plain("no", is_key=True) == ("no", None)
    assert resolve_plain("7") == (7, None)


# -- E002: duplicate keys --------------------------------------------------

def test_duplicate_key_points_at_the_second():
    data, diags = load("""\
        name: a
        cost: 1
        name: b
        """)
    d = only(diags, "E002")
    assert d.message == "duplicate key 'name' (first at line 1)"
    assert (d.line, d.col, d.end_col, d.line_text) == (3, 1, 5, "name: b")
    assert data == {"name": "a", "cost": 1}  # the first one stays


def test_duplicate_keys_in_nested_and_flow_mappings():
    _, diags = load("""\
        outer:
          x: 1
          x: 2
        flow: {a: 1, b: 2, a: 3}
        """)
    assert [(d.code, d.line, d.col, d.message) for d in diags] == [
        ("E002", 3, 3, "duplicate key 'x' (first at line 2)"),
        ("E002", 4, 20, "duplicate key 'a' (first at line 4)"),
    ]


def test_same_key_in_sibling_mappings_is_fine():
    assert load_ok("- {a: 1}\n- {a: 2}\n") == [{"a": 1}, {"a": 2}]


def test_int_and_string_keys_are_different():
    assert load_ok("1: a\n'1': b\n") == {1: "a", "1": "b"}


# -- E001: syntax -------------------------------------------------------------

def test_syntax_error_located_at_problem():
    data, diags = load("""\
        a: 1
        b: c: d
        """)
    assert data is None
    d = only(diags, "E001")
    assert (d.line, d.col, d.line_text) == (2, 5, "b: c: d")
    assert d.message == "a ': ' inside a value (YAML reads it as a second key)"


def test_syntax_error_at_end_of_text_points_at_last_line():
    data, diags = load("a: 'x\n")
    assert data is None
    d = only(diags, "E001")
    assert (d.line, d.col, d.line_text) == (1, 4, "a: 'x")  # where the open quote starts


# Issue 31: PyYAML's own words ("did not find expected key (while parsing a block mapping at
# line 1)") reached the designer; the common mistakes are said plainly, with a hint.
@pytest.mark.parametrize("text, where, message, hint", [
    ("card:\n  id: x\n power: 2\n", (3, 2),
     "this line's indentation does not match the lines above it",
     "indent it with as many spaces as the keys of the mapping at line 1"),
    ("card:\n  - id: x\n    name: X\n   power: 2\n", (4, 4),
     "this line's indentation does not match the lines above it",
     "start a list item with '- ' at the list's indentation, or indent the line as far as the "
     "keys of the item above"),
    ("name: X\n  power: 2\n", (2, 3),
     "this line is indented deeper than the key above it, whose value is already given",
     "indent it as far as the key above, or put the key above's value here"),
    ("card:\n\tid: x\n", (2, 1), "a tab character in the indentation",
     "indent with spaces: YAML does not allow tabs for indentation"),
    ('name: "Consul Scipio\npower: 2\n', (1, 7), "a quoted text is never closed",
     "end the text with the same quote mark it starts with (\" or ')"),
    ("near: [roma, capua\npower: 2\n", (1, 7), "a list in brackets is not closed",
     "close it with ']' and separate its items with ','"),
    ("at: {x: 1\n", (1, 5), "a mapping in brackets is not closed",
     "close it with '}' and separate its items with ','"),
    ("- name: Consul: Scipio\n", (1, 15),
     "a ': ' inside a value (YAML reads it as a second key)",
     'quote the value: name: "Consul: Scipio"'),
    ("name: @x\n", (1, 7), "'@' cannot start a value", "put the value in quotes"),
])
def test_common_syntax_errors_in_plain_words(text, where, message, hint):
    data, diags = load_yaml("cards.yaml", text)
    assert data is None
    d = only(diags, "E001")
    assert ((d.line, d.col), d.message, d.suggestion) == (where, message, hint)
    shown = d.render()
    assert shown.startswith(f"cards.yaml:{where[0]}:{where[1]}: error[E001]: {message}\n")
    assert f"= help: {hint}" in shown
    for raw in ("while parsing", "while scanning", "did not find", "in this context"):
        assert raw not in shown


def test_tab_indentation_gets_a_hint():
    _, diags = load_yaml("f.yaml", "a:\n\t- 1\n")
    d = only(diags, "E001")
    assert (d.line, d.col, d.line_text) == (2, 1, "\t- 1")
    assert d.suggestion is not None and "spaces" in d.suggestion


def test_several_documents_are_refused():
    data, diags = load_yaml("f.yaml", "a: 1\n---\nb: 2\n")
    assert data is None
    d = only(diags, "E001")
    assert (d.line, d.col) == (2, 1)
    assert "single document" in d.message


def test_undefined_alias():
    data, diags = load_yaml("f.yaml", "a: *nope\n")
    assert data is None
    d = only(diags, "E001")
    assert (d.line, d.col, d.message) == (1, 4, "found undefined alias '*nope'")


@pytest.mark.parametrize("bad, col", [("\x01", 5), ("\x7f", 5), ("\ud800", 5)])
def test_bad_characters(bad, col):
    data, diags = load_yaml("f.yaml", f"a: 1\nb: x{bad}y\n")
    assert data is None
    d = only(diags, "E001")
    assert (d.line, d.col) == (2, col)
    assert f"U+{ord(bad):04X}" in d.message
    assert d.line_text == "b: x\ufffdy"  # shown printable, same width


def test_too_deep_is_refused_without_crashing():
    data, diags = load_yaml("f.yaml", "- " * 100_000 + "x\n")
    assert data is None
    d = only(diags, "E006")
    assert (d.line, d.col) == (1, 2 * MAX_DEPTH + 1)
    assert load_yaml("f.yaml", "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1))[1] == []


# -- anchors, aliases, merges -------------------------------------------------

def test_anchors_and_aliases():
    data = load_ok("""\
        base: &base {hp: 3, cost: 2}
        copy: *base
        word: &w hello
        again: *w
        """)
    assert data["copy"] == {"hp": 3, "cost": 2}
    assert data["again"] == "hello"
    # The alias value is located where the alias is written.
    assert (data.val_loc["copy"].line, data.val_loc["copy"].col) == (2, 7)


def test_merge_keys():
    data = load_ok("""\
        base: &base
          hp: 3
          cost: 2
        extra: &extra
          cost: 9
          speed: 1
        unit:
          <<: [*base, *extra]
          cost: 5
        """)
    assert data["unit"] == {"hp": 3, "cost": 5, "speed": 1}
    assert "<<" not in data["unit"]
    unit = data["unit"]
    assert unit.val_loc["cost"].line == 9  # written key wins
    assert unit.val_loc["hp"] == Loc("pack/units.yaml", 2, 7)  # located at the source
    assert unit.key_loc["speed"].line == 6


def test_quoted_merge_key_is_an_ordinary_key():
    assert load_ok("'<<': 1\n") == {"<<": 1}


def test_bad_merge_value():
    data, diags = load("a:\n  <<: 3\n  b: 1\n")
    d = only(diags, "E006")
    assert (d.line, d.col) == (2, 7)
    assert data == {"a": {"b": 1}}


def test_recursive_alias():
    data, diags = load_yaml("f.yaml", "a: &a [1, *a]\n")
    d = only(diags, "E006")
    assert (d.line, d.col) == (1, 11)
    assert "recursive alias" in d.message
    assert data == {"a": [1, None]}


def laughs(levels, width=10):
    """The "billion laughs": each level repeats the one before `width` times."""
    lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]")
    return "\n".join(lines) + "\n"


def test_alias_bomb_fails_fast_at_the_alias():
    """Issue 8 hole 3: 10**9 values from a few hundred bytes; E007 where the budget runs out."""
    start = time.perf_counter()
    data, diags = load_yaml("f.yaml", laughs(9))
    d = only(diags, "E007")  # before anything that would print the data
    assert time.perf_counter() - start < 0.5
    assert data is None
    # Aliases in a1..a3 add 10 * (11 + 111 + 1111) = 12,330 values; each *a3 adds 11,111,
    # so the eighth on a4's line passes 100,000.
    assert (d.line, d.col, d.end_col) == (5, 10 + 7 * 5, 10 + 7 * 5 + 3)
    assert d.line_text.startswith("a4: &a4 [*a3")
    assert f"{MAX_ALIAS_NODES:,}" in d.message and "'*a3'" in d.message


def test_alias_bomb_through_merge_keys_and_flow_maps():
    """Issue 8 hole 3: merges expand too (a mapping per level, merged 10 times)."""
    lines = ["m0: &m0 {" + ", ".join(f"k{j}: lol" for j in range(10)) + "}"]
    for i in range(1, 8):
        lines.append(f"m{i}: &m{i} [" + ", ".join([f"{{<<: *m{i - 1}}}"] * 10) + "]")
    data, diags = load_yaml("f.yaml", "\n".join(lines))
    only(diags, "E007")


def test_alias_bomb_of_long_texts():
    """Issue 8 hole 3: few aliases of a huge text are a bomb too (passes copy and parse
    texts): long texts weigh one value per 100 characters. Aliases as packs use them
    (a shared effect text, merged bases) still load."""
    text = "big: &t " + "x" * 1_000_000 + "\nuse: [" + ", ".join(["*t"] * 200) + "]\n"
    data, diags = load_yaml("f.yaml", text)
    assert only(diags, "E007").line == 2
    text = "base: &b {hp: 3, text: &t '" + "y" * 500 + "'}\n" + "".join(
        f"u{i}: {{<<: *b, again: *t}}\n" for i in range(1000))
    data, diags = load_yaml("f.yaml", text)
    assert diags == [] and data["u999"]["again"] == "y" * 500


def test_alias_depth_is_bounded():
    """Issue 8 hole 3: aliases nest past MAX_DEPTH without writing a deep document; later
    recursive passes would hit Python's recursion limit."""
    deep = "[" * 60 + "x" + "]" * 60
    text = f"a: &a {deep}\nb: &b {deep.replace('x', '*a')}\n"
    data, diags = load_yaml("f.yaml", text)
    d = only(diags, "E006")
    assert (d.line, d.col) == (2, 7 + 60) and "deeper than" in d.message
    assert data is None


def test_complex_key():
    data, diags = load_yaml("f.yaml", "? [a, b]\n: 1\nc: 2\n")
    d = only(diags, "E006")
    assert (d.line, d.col) == (1, 3)
    assert data == {"c": 2}


# -- E005: tags ---------------------------------------------------------------

def test_standard_tags():
    data = load_ok("""\
        a: !!str 12
        b: !!int 12
        c: !!float 1
        d: !!bool true
        e: !!null ~
        f: !!map {x: 1}
        g: !!seq [1]
        h: ! 12
        """)
    assert data == {"a": "12", "b": 12, "c": 1.0, "d": True, "e": None, "f": {"x": 1}, "g": [1],
                    "h": "12"}
    assert type(data["c"]) is float


@pytest.mark.parametrize(
    "text, message",
    [
        ("!custom 3", "unsupported tag '!custom'"),
        ("!!binary aGk=", "unsupported tag '!!binary'"),
        ("!!timestamp 2024-01-01", "unsupported tag '!!timestamp'"),
        ("!!int x", "'x' is not a valid !!int"),
        ("!!float x", "'x' is not a valid !!float"),
        ("!!bool yes", "'yes' is not a valid !!bool: write true or false"),
        ("!!null x", "'x' is not a valid !!null"),
    ],
)
def test_bad_scalar_tags(text, message):
    _, diags = load(f"v: {text}\n")
    d = only(diags, "E005")
    assert d.message == message
    assert (d.line, d.col) == (1, 4)


def test_bad_collection_tags():
    data, diags = load("s: !!set {a, b}\no: !thing [1]\n")
    assert [(d.code, d.line, d.col, d.message) for d in diags] == [
        ("E005", 1, 4, "unsupported tag '!!set' on a mapping"),
        ("E005", 2, 4, "unsupported tag '!thing' on a sequence"),
    ]
    assert data == {"s": {"a": None, "b": None}, "o": [1]}


def test_tagged_int_still_refuses_leading_zero():
    only(load("v: !!int 0777\n")[1], "E004")


# -- every diagnostic is complete ------------------------------------------

def test_many_errors_reported_together_in_order():
    _, diags = load("""\
        b: no
        a: 0777
        b: 2
        """)
    assert [(d.code, d.line) for d in diags] == [("E003", 1), ("E004", 2), ("E002", 3)]
    assert all(d.line_text for d in diags)
    assert all(d.path == "pack/units.yaml" for d in diags)


# Pieces of YAML syntax, so that generated text reaches past the first token.
_YAMLISH = st.lists(
    st.sampled_from(list("ab01yn:-?[]{},&*!|>'\"#%@`~.\t \n\r\x00é")
                    + ["no", "<<", "&a ", "*a", "!!int ", "- ", ": ", "\n  "])
).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), _YAMLISH))
def test_never_raises(text):
    data, diags = load_yaml("f.yaml", text)
    assert isinstance(diags, list)
    for d in diags:
        assert isinstance(d, Diagnostic)
        assert d.line >= 1 and d.col >= 1
        assert d.path == "f.yaml"
        d.render().encode("utf-8")  # always printable
    if any(d.code == "E001" for d in diags):
        assert data is None
