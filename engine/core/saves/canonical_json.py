"""The canonical JSON of a save: the text `json.dumps(value, separators=(",", ":"),
sort_keys=True)` gives, byte for byte, which a save is and its digest is of. One writer,
`canonical`: msgspec's where the value is known to hold no NaN nor infinity, else (and for
what msgspec writes otherwise) json's. And the digest: sha256 of that text's UTF-8.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import msgspec

# msgspec writes what json writes (sorted keys, no spaces, the same escapes of quotes, of
# backslashes and of control characters, numbers of any size) but for: text outside ASCII
# and DEL, which it writes as UTF-8 (escaped again below); floats, whose exponents it
# writes another way ("1e16", not "1e+16": such a text goes to json's writer, see
# holds_fraction_token); NaN and the infinities, written as null (hence `nan_free`); and
# what json writes and it refuses (lone surrogates, subclasses of str, int, dict and list,
# keys other than text), written by json's writer. (What msgspec writes and json refuses,
# dates, UUIDs and the like, is never in a game's data: the runtime keeps JSON data.)
_ENCODER = msgspec.json.Encoder(order="sorted")
encode_sorted = _ENCODER.encode


def canonical(value: Any, *, nan_free: bool = False) -> str:
    """The canonical JSON text of `value`. `nan_free` says it holds no NaN nor infinity (no
    state of a pack without fractional data does: fractions_possible), so msgspec writes
    it (five times faster than json), escaped as json escapes."""
    if nan_free:
        try:
            written = encode_sorted(value)
        except (TypeError, ValueError, OverflowError, RecursionError):
            written = None
        if written is not None and not holds_fraction_token(written):
            return escaped_as_json(written.decode())
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _number_parts() -> bytes:
    """A bytes.translate table: each byte of a JSON text as what it may be in a fractional
    number's token: a digit "0", a point or exponent "e", a sign "-", a "[" where a value
    starts ("[", ":" or ","), anything else "x"."""
    table = bytearray(b"x" * 256)
    for chars, part in ((b"0123456789", b"0"), (b".eE", b"e"), (b"-", b"-"), (b"[:,", b"[")):
        for char in chars:
            table[char] = part[0]
    return bytes(table)


_NUMBER_PARTS = _number_parts()
_DIGIT, _SIGN, _VALUE_START = ord("0"), ord("-"), ord("[")


def holds_fraction_token(text: str | bytes) -> bool:
    """Might canonically written JSON `text` hold a fractional number? Its token is digits
    where a value starts (after "[", ":" or ",", or at the start), maybe after a "-",
    then a point or an exponent. A text ("a:1.5", or digits before an "e" in a hex
    digest) may look so too: such a save only takes the slow way. Searched in `text` with
    each byte made what it may be in a number (bytes.translate and bytes.find run at C
    speed, and find skips fast over a text of mostly one byte; a regular expression
    takes most of a millisecond on 100 kB)."""
    if isinstance(text, str):
        text = text.encode("utf-8", "surrogatepass")
    parts = text.translate(_NUMBER_PARTS)
    at = parts.find(b"0e")
    while at >= 0:
        start = at
        while start and parts[start - 1] == _DIGIT:  # back over the digits
            start -= 1
        if start and parts[start - 1] == _SIGN:
            start -= 1
        if not start or parts[start - 1] == _VALUE_START:
            return True
        at = parts.find(b"0e", at + 1)
    return False


_NOT_ASCII = re.compile(r"[^\x00-\x7e]")  # json.dumps writes these as \uXXXX


def escaped_as_json(written: str) -> str:
    """msgspec's text with what is not ASCII, and DEL, escaped as json escapes them."""
    if written.isascii() and "\x7f" not in written:
        return written
    return _NOT_ASCII.sub(lambda found: json.dumps(found.group())[1:-1], written)


_FRACTIONS: dict[int, tuple[Any, bool]] = {}


def fractions_possible(pack: Any) -> bool:
    """Can a state of `pack` hold a fractional number (NaN and the infinities included)?
    Only if its data holds one (a record's field of type `any` or a table written 1.5 in
    YAML; the checker refuses one where a whole number belongs): the rules language has no
    fractional literal, `/` divides whole numbers to a whole number, `*` refuses anything
    but whole numbers, and a host's action, chance outcome or loaded die is checked to be
    an option or a whole number. Worked out once per pack."""
    got = _FRACTIONS.get(id(pack))
    if got is None or got[0] is not pack:
        got = _FRACTIONS[id(pack)] = (pack, _holds_float([pack.records, pack.meta]))
    return got[1]


def _holds_float(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return False


def sha256_of(text: str) -> str:
    """The digest of a canonical text: sha256 of its UTF-8 (lone surrogates as json keeps them)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def digest_of(seed: int, log: bool, actions: list[Any], state: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of what a save claims: finds damage, not forgery."""
    return sha256_of(canonical({"seed": seed, "log": log, "actions": actions, "state": state}))
