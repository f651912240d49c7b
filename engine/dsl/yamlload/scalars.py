"""Scalars resolved by the YAML 1.2 core rules (`resolve_plain`, `resolve_tagged`), with
the spellings YAML 1.1 reads otherwise refused as problems (E003, E004, E005, E008).
"""
from __future__ import annotations

import re
from typing import Any

# No game needs longer numbers; Python refuses to read ints past 4,300 digits.
MAX_NUMBER_LENGTH = 100

STD = "tag:yaml.org,2002:"  # the prefix of the standard tags: !!str is STD + "str"

# YAML 1.2 core schema, minus the forms we refuse (see resolve_plain).
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_AMBIGUOUS = frozenset({"yes", "no", "on", "off", "y", "n"})
_INT = re.compile(r"[-+]?[0-9]+\Z")
_LEADING_ZERO = re.compile(r"[-+]?0[0-9]+\Z")
_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?\Z")
_UNDERSCORED = re.compile(r"[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?\Z")
_RADIX = re.compile(r"([-+]?)0([xXoObB])([0-9a-fA-F]+)\Z")
_EXP_NO_DOT = re.compile(r"([-+]?[0-9]+)[eE]([-+]?[0-9]+)\Z")
_RADIX_NAMES = {"x": ("hex", 16), "o": ("octal", 8), "b": ("binary", 2)}
_NUMBER_FORMS = (_INT, _FLOAT, _RADIX, _UNDERSCORED, _EXP_NO_DOT)

Problem = tuple[str, str]  # (code, message)


def _too_long_number(text: str) -> bool:
    return len(text) > MAX_NUMBER_LENGTH and any(form.match(text) for form in _NUMBER_FORMS)


def resolve_plain(text: str, *, is_key: bool = False) -> tuple[Any, Problem | None]:
    """Resolve an unquoted, untagged scalar; refused forms stay strings."""
    if _too_long_number(text):
        # Checked first: the messages below would print it, and int() refuses it.
        return text, ("E008", f"number of {len(text)} characters is too long (at most "
                              f"{MAX_NUMBER_LENGTH}): quote it if it is text")
    if text in _NULLS:
        return None, None
    if text in _BOOLS:
        return _BOOLS[text], None
    if not is_key and text.lower() in _AMBIGUOUS:
        # Keys are exempt: `on:` and `y:` are fine field names.
        return text, ("E003", f"ambiguous YAML value '{text}': quote it ('{text}') or write "
                              "true/false")
    if _INT.match(text):
        if _LEADING_ZERO.match(text):
            # YAML 1.1 reads 0777 as octal 511; nobody means that in a card file.
            return text, ("E004", f"leading zero in number '{text}': write {int(text)} or "
                                  "quote it")
        return int(text), None
    if _FLOAT.match(text):
        value = float(text)
        if value in (float("inf"), float("-inf")):
            return text, ("E008", f"'{text}' is too large for a number (floats end near "
                                  "1.8e308): quote it if it is text")
        return value, None
    m = _RADIX.match(text)
    if m:
        kind, base = _RADIX_NAMES[m[2].lower()]
        try:
            n = int(m[1] + m[3], base)
        except ValueError:
            return text, None  # e.g. 0o99 is not a number in any YAML
        return text, ("E004", f"{kind} number '{text}' is not supported: write {n} or quote it")
    if "_" in text and _UNDERSCORED.match(text):
        plain = text.replace("_", "")
        if _INT.match(plain):
            plain = str(int(plain))
        return text, ("E004", f"underscore in number '{text}': write {plain} or quote it")
    m = _EXP_NO_DOT.match(text)
    if m:
        # A float in YAML 1.2 but a string in 1.1: make the author say which.
        return text, (
            "E004",
            f"exponent without a decimal point in '{text}': write {m[1]}.0e{m[2]} or quote it",
        )
    return text, None


def tag_name(tag: str) -> str:
    return "!!" + tag[len(STD):] if tag.startswith(STD) else tag


def resolve_tagged(text: str, tag: str) -> tuple[Any, Problem | None]:
    """Resolve a scalar with an explicit tag; only the core-schema tags exist."""
    name = tag[len(STD):] if tag.startswith(STD) else None
    if tag == "!" or name == "str":
        return text, None
    if name in ("int", "float"):
        value, problem = resolve_plain(text)
        if problem is not None and problem[0] in ("E004", "E008"):
            return value, problem
        if type(value) is int or (name == "float" and type(value) is float):
            return (float(value) if name == "float" else value), None
        return text, ("E005", f"'{text}' is not a valid !!{name}")
    if name == "bool":
        if text in _BOOLS:
            return _BOOLS[text], None
        return text, ("E005", f"'{text}' is not a valid !!bool: write true or false")
    if name == "null":
        if text in _NULLS:
            return None, None
        return text, ("E005", f"'{text}' is not a valid !!null")
    return text, ("E005", f"unsupported tag '{tag_name(tag)}'")
