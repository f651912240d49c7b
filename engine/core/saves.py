"""Saved games that cannot lie: the save file's schema, its checks against the pack, and
the proof that its state is the state its own actions lead to.

A save holds two descriptions of one game: the seed and the actions, which replay it
exactly, and the state, which loads it at once. `Game.load` trusts neither blindly:

* the JSON is read into attrs classes with cattrs (strict: no type is coerced, no key is
  unknown or missing, game data is JSON data only), so a damaged file gives a located
  message ("state.decision.options: expected a list, got 3"), never a raw KeyError;
* names in the state are checked against the pack (vars, zones, records, events, rules);
* then either the actions are replayed from the seed and the replayed state must equal the
  saved one exactly (`verify="replay"`), or, for storage the host trusts, the save's
  `digest` (sha256 of the canonical JSON of seed, log flag, actions and state) must match
  (`verify="digest"`). The digest finds damage, not forgery: anyone can recompute it.

The runtime keeps working on the plain JSON data (its dicts are the state, their tables
put back in the order the game had them: `in_game_order`); the attrs classes only hold what
is checked.
"""
from __future__ import annotations

import collections
import functools
import hashlib
import itertools
import json
import operator
import re
from collections.abc import Callable
from types import UnionType
from typing import Any, Literal, NewType, Union, get_args, get_origin

import attrs
import cattrs
import msgspec
import orjson
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, override

from engine.core.errors import SaveError
from engine.core.keys import keys_naming
from engine.dsl.model import BUILTIN_EVENTS

SAVE_FORMAT = "engine-save/2"
# The version of the public format (views, decisions, actions, log entries, saves: see
# engine.core.api and docs/api.md), in every view and save; `format` above says what a file is.
# It counts on from "engine-save/2", the first format published. A save written before
# saves carried it (format "engine-save/2", no `format_version`) is of version 2.
FORMAT_VERSION = 2
OLD_FORMATS = ("engine-save/1",)
VERIFY_MODES = ("replay", "digest")
# Lists in lists in game data: rules never nest this deep, a bomb does. Checked when the
# JSON holds a fractional number (the only case where game data is scanned, see
# parse_json); otherwise the JSON reader's own recursion limit bounds it.
MAX_NESTING = 64
RNG_LIMIT = 1 << 64  # the random generator's state is a 64-bit number (engine.core.rng)

JsonData = NewType("JsonData", object)  # int, text, true/false, null, lists and objects of them
LogEntry = NewType("LogEntry", object)  # an object of JSON data with a text "t" (its kind)


# ---- the schema ----------------------------------------------------------------------------

@attrs.frozen
class SavedEventFrame:
    """An event running on the stack (engine.core.runtime.Runtime.push_event)."""
    k: Literal["e"]
    n: str  # the event
    a: list[JsonData]  # its arguments
    st: int  # stage: 0 before, 1 instead/on, 2 after, 3 its queue
    i: int  # the next trigger of the stage
    q: list[tuple[str, list[JsonData]]]  # events queued to run after it
    m: int | None = None  # the `instead of` trigger chosen (-1: none), once settled
    x: dict[str, JsonData] | None = None  # the state of an event declared `with` state


@attrs.frozen
class SavedProcFrame:
    """A rule waiting on the stack: a generated function, its resume point and locals."""
    k: Literal["p"]
    f: str
    pc: int
    L: dict[str, JsonData]
    rv: JsonData = None  # what a procedure it called returned
    in_: JsonData = None  # the answer it is about to read (key "in")


Frame = SavedEventFrame | SavedProcFrame


@attrs.frozen
class SavedPick:
    """A pick of a one-at-a-time choice: the items picked so far, and the choice's counts."""
    picked: list[JsonData]
    min: int
    max: int


@attrs.frozen
class SavedDecision:
    id: int
    kind: Literal["one", "many", "ask", "order"]
    side: str
    options: list[JsonData]
    min: int
    max: int
    optional: bool
    prompt: str | None
    require: tuple[str, dict[str, JsonData]] | None  # a condition function, its captured locals
    fn: str  # the rule that asks
    window: str | None = None  # the response window it opens (absent for other decisions)
    args: list[JsonData] | None = None  # the values of the prompt's placeholders
    each: SavedPick | None = None  # a pick of a one-at-a-time choice


@attrs.frozen
class SavedModifier:
    """`modify value(...) by/to/at least/at most amount` (engine.core.runtime.Runtime.modify)."""
    value: str
    key: str
    amount: JsonData  # a whole number, or for `to` the new value
    dur: JsonData  # see _check_duration
    op: Literal["to", "least", "most"] | None = None  # absent: `by`


@attrs.frozen
class SavedTempSet:
    """`set var[...] = now until ...` (engine.core.runtime.Runtime.set_until)."""
    var: str
    key: str
    was: JsonData  # the value it gets back
    now: JsonData  # the value the `set` gave it
    dur: JsonData


Mod = SavedModifier | SavedTempSet


@attrs.frozen
class SavedResult:
    winner: str | None
    reason: str


@attrs.frozen
class SavedState:
    v: dict[str, dict[str, JsonData]]
    z: dict[str, list[str]]
    loc: dict[str, str]
    mods: list[Mod]
    revealed: dict[str, list[str]]
    stack: list[Frame]
    decision: SavedDecision | None
    log: list[LogEntry]
    result: SavedResult | None
    rng: int
    steps: int
    decisions: int
    asked: int
    # only in games of packs with var fields or created types (see Runtime.initial_state)
    f: dict[str, dict[str, JsonData]] | None = None  # record -> its fields in play
    made: dict[str, list[str]] | None = None  # created type -> its live records
    serial: dict[str, int] | None = None  # created type -> records made so far
    # only in games whose chance the host supplies (Game.new(..., chance=...)): the
    # outcomes used so far, in order; replay draws them instead of the seed's numbers
    chance: list[int] | None = None


@attrs.frozen
class SaveFile:
    format: str
    pack: str
    pack_hash: str
    seed: int
    log: bool  # was the log on: replaying with it gives the same log
    actions: list[JsonData]
    state: SavedState
    digest: str
    format_version: int = FORMAT_VERSION  # absent in saves written before it was added
    # the pack's code_hash when saved (absent in saves written before it was added): the
    # waiting rules in the state are places in that code (see `frames_hold`)
    code: str | None = None


@attrs.frozen
class Save:
    """A save that passed the schema and the pack checks: the typed view, and the plain
    data the runtime will run on."""
    file: SaveFile
    data: dict[str, Any]

    @property
    def state(self) -> dict[str, Any]:
        return self.data["state"]


# ---- writing --------------------------------------------------------------------------------

def canonical(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# orjson writes what json writes (sorted keys, no spaces, the same escapes of quotes, of
# backslashes and of control characters) but for: text outside ASCII and DEL, which it
# writes as UTF-8 (escaped again below); floats, written another way (hence
# _holds_fraction_token); NaN and the infinities, written as null (hence
# _fractions_possible); and what json cannot write or writes otherwise (numbers past 64
# bits, lone surrogates, nesting past 255, subclasses of str, int, dict and list, dates,
# dataclasses), which it refuses with these options.
_ORJSON_ALIKE = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS
                 | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS)


def _number_parts() -> bytes:
    """A bytes.translate table: each byte of a JSON text as what it may be in a fractional
    number's token: a digit "0", a point or exponent "e", a sign "-", a "[" where a value
    starts ("[", ":" or ","), anything else "x"."""
    table = bytearray(b"x" * 256)
    for chars, part in ((b"0123456789", b"0"), (b".eE", b"e"), (b"-", b"-"), (b"[:,", b"[")):
        for c in chars:
            table[c] = part[0]
    return bytes(table)


_NUMBER_PARTS = _number_parts()


def _holds_fraction_token(text: str | bytes) -> bool:
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
    i = parts.find(b"0e")
    while i >= 0:
        start = i
        while start and parts[start - 1] == 48:  # "0": back over the digits
            start -= 1
        if start and parts[start - 1] == 45:  # "-"
            start -= 1
        if not start or parts[start - 1] == 91:  # "["
            return True
        i = parts.find(b"0e", i + 1)
    return False


_NOT_ASCII = re.compile(r"[^\x00-\x7e]")  # json.dumps writes these as \uXXXX


def _escaped_as_json(written: str) -> str:
    """orjson's text with what is not ASCII, and DEL, escaped as json escapes them."""
    if written.isascii() and "\x7f" not in written:
        return written
    return _NOT_ASCII.sub(lambda m: json.dumps(m.group())[1:-1], written)


def canonical_fast(value: Any) -> str:
    """`canonical(value)` for a value holding no NaN nor infinity (no state of a pack
    without fractional data does: _fractions_possible), written by orjson (five times
    faster) when it writes it alike, else by json."""
    try:
        written = orjson.dumps(value, option=_ORJSON_ALIKE)
    except orjson.JSONEncodeError:
        return canonical(value)
    if _holds_fraction_token(written):
        return canonical(value)
    return _escaped_as_json(written.decode())


_FRACTIONS: dict[int, tuple[Any, bool]] = {}


def _fractions_possible(pack: Any) -> bool:
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
        x = stack.pop()
        if isinstance(x, float):
            return True
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return False


def digest_of(seed: int, log: bool, actions: list[Any], state: dict[str, Any]) -> str:
    """sha256 of the canonical JSON of what a save claims: finds damage, not forgery."""
    return _sha256(canonical({"seed": seed, "log": log, "actions": actions, "state": state}))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def save_data(pack: Any, seed: int, log: bool, actions: list[Any],
              state: dict[str, Any]) -> dict[str, Any]:
    return {"format": SAVE_FORMAT, "format_version": FORMAT_VERSION, "pack": pack.id,
            "pack_hash": pack.hash, "code": pack.code_hash, "seed": seed, "log": log,
            "actions": actions, "state": state, "digest": digest_of(seed, log, actions, state)}


class LogText:
    """The canonical JSON of a log's entries written so far, kept between saves: the log
    only grows and an entry never changes once written, so a save writes only the entries
    new since the last (the log is most of a long game's save). `last` is the entry the
    text ends with, held so that a log cut back (undo) and grown again is noticed: its
    entry at that place is then another object."""

    __slots__ = ("count", "last", "parts", "text")

    def __init__(self) -> None:
        self.count, self.last, self.parts, self.text = 0, None, [], "[]"

    def of(self, log: list[dict[str, Any]], write: Callable[[Any], str] = canonical) -> str:
        n = self.count
        if n > len(log) or (n and log[n - 1] is not self.last):
            n, self.parts, self.text = 0, [], "[]"  # cut back since: written again
        if n < len(log):
            self.parts.append(write(log[n:])[1:-1])
            self.count, self.last = len(log), log[-1]
            # joined once per new entries, not per save (two copies of most of a save)
            self.text = "[" + ",".join(filter(None, self.parts)) + "]"
        return self.text


def canonical_state(state: dict[str, Any], log_text: LogText | None = None,
                    write: Callable[[Any], str] = canonical) -> str:
    """`canonical(state)` written by `write`, the log through `log_text` when given: the
    keys before "log" and those after it written in one call each (a call per key took
    a third of a save)."""
    if log_text is None or not isinstance(state.get("log"), list):
        return write(state)
    if not all(type(k) is str for k in state):
        return canonical(state)  # (never in a game) json's writer says what is wrong
    before = write({k: v for k, v in state.items() if k < "log"})[1:-1]
    after = write({k: v for k, v in state.items() if k > "log"})[1:-1]
    log = log_text.of(state["log"], write)  # (joined once below: most of the text)
    return "".join(("{", before, "," * bool(before), '"log":', log, "," * bool(after), after,
                    "}"))


def save_text(pack: Any, seed: int, log: bool, actions: list[Any],
              state: dict[str, Any], log_text: LogText | None = None) -> str:
    """`canonical(save_data(...))`, writing the state's JSON once for both the digest and
    the text (the state is most of a save, and hosts save often), its log through
    `log_text` (see LogText) when given; written by orjson when that writes it alike
    (canonical_fast)."""
    write = canonical if _fractions_possible(pack) else canonical_fast
    a, lg, sd = write(actions), canonical(log), canonical(seed)
    st = canonical_state(state, log_text, write)
    claimed = hashlib.sha256(f'{{"actions":{a},"log":{lg},"seed":{sd},"state":'.encode(
        "utf-8", "surrogatepass"))  # hashed in parts: the whole not copied once more
    claimed.update(st.encode("utf-8", "surrogatepass"))
    claimed.update(b"}")
    digest = claimed.hexdigest()
    return (f'{{"actions":{a},"code":{canonical(pack.code_hash)},"digest":"{digest}",'
            f'"format":{canonical(SAVE_FORMAT)},'
            f'"format_version":{FORMAT_VERSION},"log":{lg},"pack":{canonical(pack.id)},'
            f'"pack_hash":{canonical(pack.hash)},'
            f'"seed":{sd},"state":{st}}}')


# ---- reading ----------------------------------------------------------------------------------

def check_verify_mode(verify: Any) -> None:
    if verify not in VERIFY_MODES:
        raise ValueError(f"verify must be 'replay' or 'digest', not {verify!r}")


def read_save(pack: Any, text: Any) -> Save:
    """The save in `text`, checked against its schema and against `pack`; SaveError says
    what is wrong and where."""
    data, fractions = parse_json(text)
    check_header(pack, data)
    file = structure(data, scan=fractions)
    check_against_pack(pack, file)
    return Save(file, data)


def read_digested(pack: Any, text: Any) -> Save:
    """`read_save` and `check_digest` in one, the state's tables put back in the game's
    order (`in_game_order`). A save laid out exactly as `save_text` writes it has its
    digest checked on the text itself, without writing the state out again (most of the
    time a load took)."""
    save = read_save(pack, text)
    if not (isinstance(text, str) and _digest_holds(pack, text)):
        check_digest(save)  # not as save_text writes it, or damaged: says what is wrong
    return Save(save.file, {**save.data, "state": in_game_order(pack, save.state)})


def _digest_holds(pack: Any, text: str) -> bool:
    """Is `text` laid out exactly as `save_text` writes a save of `pack`, with the digest
    of what it claims? (Then it is, byte for byte, a text `save_text` wrote.) Looked at
    in its UTF-8 bytes, whose parts are hashed where they lie (slicing the text and
    joining the parts copied it six times: most of this check besides the hash)."""
    raw = text.encode("utf-8", "surrogatepass")
    head = b'{"actions":'
    code = f',"code":{canonical(pack.code_hash)},"digest":"'.encode()
    cut = raw.find(code, len(head))
    if not raw.startswith(head) or cut < 0 or not raw.endswith(b"}"):
        return False
    at = cut + len(code)
    digest, at = raw[at:at + 64], at + 64
    middle = (f'","format":{canonical(SAVE_FORMAT)},"format_version":{FORMAT_VERSION},'
              f'"log":').encode()
    if not raw.startswith(middle, at):
        return False
    at += len(middle)
    log = b"true" if raw.startswith(b"true,", at) else \
        b"false" if raw.startswith(b"false,", at) else b""
    at += len(log)
    pack_part = (f',"pack":{canonical(pack.id)},"pack_hash":{canonical(pack.hash)},'
                 f'"seed":').encode()
    if not log or not raw.startswith(pack_part, at):
        return False
    at += len(pack_part)
    state_at = raw.find(b',"state":', at)
    seed = raw[at:state_at]
    if state_at < 0 or not re.fullmatch(rb"-?[0-9]+", seed):
        return False
    parts = memoryview(raw)
    claimed = hashlib.sha256(head)
    claimed.update(parts[len(head):cut])
    claimed.update(b',"log":' + log + b',"seed":' + seed + b',"state":')
    claimed.update(parts[state_at + 9:-1])
    claimed.update(b"}")
    return claimed.hexdigest().encode() == digest


def parse_json(text: Any) -> tuple[Any, bool]:
    """The JSON value in `text`, and whether it holds fractional numbers (NaN and Infinity
    included): JSON gives only JSON data otherwise, so game data needs no scan."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise SaveError(f"a save is JSON text, not {type(text).__name__}")
    seen: list[str] = []

    def fraction(token: str) -> float:
        seen.append(token)
        return float(token)
    try:  # msgspec's reader alone (no hook per object: most of the time a load took; half
        # again as fast as json's C reader, and told every fraction as json's would be) ...
        data = msgspec.json.Decoder(float_hook=fraction).decode(text)
        if _written_canonically(data, text):
            return data, bool(seen)
    except (msgspec.DecodeError, ValueError, RecursionError):
        pass  # ... else the careful reader, which says what is wrong
    seen.clear()
    try:
        data = json.loads(text, object_pairs_hook=_object_without_duplicates,
                          parse_float=fraction, parse_constant=fraction)
        return data, bool(seen)
    except RecursionError:
        raise SaveError("not a saved game: its JSON is nested too deeply") from None
    except _DuplicateKey as err:
        raise SaveError(f"not a saved game: {err}") from None
    except json.JSONDecodeError as err:
        raise SaveError(f"not a saved game: the file is not complete JSON ({err})") from None
    except ValueError as err:  # a number too long to read (Python's int digit limit)
        if "digits" in str(err):
            raise SaveError("not a saved game: it holds a number of thousands of digits") \
                from None
        raise SaveError(f"not a saved game: {err}") from None


def _written_canonically(data: Any, text: str | bytes | bytearray) -> bool:
    """Is `text` laid out exactly as `canonical` writes `data`, its value (as `save_text`
    writes a save)? Then no object in it gives a key twice: json keeps the last of such
    keys silently, and writing the value out again would then give a shorter text.
    Written with orjson (C speed; json's own writer takes twice the time a read does),
    escaped as json escapes; whatever orjson writes otherwise (a float, a lone surrogate,
    a number of more than 64 bits) only sends the text to the careful reader."""
    try:
        written = orjson.dumps(data, option=_ORJSON_ALIKE)
        if written.isascii() and b"\x7f" not in written:  # (most often) compared as bytes
            return written == (text.encode("utf-8", "surrogatepass") if isinstance(text, str)
                               else text)
        if not isinstance(text, str):
            text = bytes(text).decode()
    except (orjson.JSONEncodeError, UnicodeDecodeError):
        return False
    return _escaped_as_json(written.decode()) == text


class _DuplicateKey(ValueError):
    pass


def _object_without_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refusing a key given twice (json would keep the last one silently)."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return out


def check_header(pack: Any, data: Any) -> None:
    """Format, pack and pack hash: what decides whether the rest can be read at all."""
    if not isinstance(data, dict):
        raise SaveError(f"not a saved game: expected a JSON object, got {_show(data)}")
    if "format" not in data:
        raise SaveError(f"not a saved game: it has no 'format' (expected {SAVE_FORMAT!r})")
    fmt = data["format"]
    if fmt in OLD_FORMATS:
        raise SaveError(
            f"this game was saved by an older engine (format {fmt}), whose saves cannot be "
            "checked; recover it by replaying its seed and actions with the same pack: "
            "game = engine.core.game.replay(pack, save['seed'], save['actions']), then save it "
            "again")
    if fmt != SAVE_FORMAT:
        raise SaveError(f"not a saved game: format is {_show(fmt)}, expected {SAVE_FORMAT!r}")
    version = data.get("format_version", FORMAT_VERSION)
    if type(version) is not int or version != FORMAT_VERSION:
        raise SaveError(f"this save is of format_version {_show(version)}; this engine reads "
                        f"format_version {FORMAT_VERSION} (a newer engine wrote it?)")
    if data.get("pack") != pack.id:
        raise SaveError(f"this game was saved with pack {_show(data.get('pack'))}, "
                        f"not {pack.id!r}")
    if data.get("pack_hash") != pack.hash:
        raise SaveError(
            f"pack {pack.id!r} changed since this game was saved (saved with "
            f"{_show(data.get('pack_hash'))}, now {pack.hash!r}); its state may not fit the "
            "new rules: replay its seed and actions with the new pack instead "
            "(engine.core.game.replay(pack, save['seed'], save['actions']))")


# ---- structuring with cattrs --------------------------------------------------------------------

class _Invalid(Exception):
    """A value that does not fit the schema; `where` is the path inside the value."""

    def __init__(self, message: str, where: tuple[str, ...] = ()):
        super().__init__(message)
        self.message, self.where = message, where

    def inside(self, step: str) -> _Invalid:
        return _Invalid(self.message, (step, *self.where))


_SIMPLE_KEY = re.compile(r"[A-Za-z0-9_|-]+\Z")


def _key_step(key: Any) -> str:
    return f".{key}" if isinstance(key, str) and _SIMPLE_KEY.match(key) else f"[{_show(key)}]"


def _show(value: Any) -> str:
    """A value as it reads in the JSON file, short."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, float):
        return f"a fractional number {value!r}"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)  # true, false, null: as the file writes them
    text = repr(value)
    if len(text) <= 60:
        return text
    return text[:56] + ("...'" if isinstance(value, str) else "...")


def _is_exactly(kind: type, value: Any) -> bool:
    return type(value) is kind  # bool is not an int here, nor 1.0 an int


def _scalar_hook(kind: type, label: str) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _t: Any) -> Any:
        if not _is_exactly(kind, value):
            raise _Invalid(f"expected {label}, got {_show(value)}")
        return value
    return structure


def _literal_hook(t: Any) -> Callable[[Any, Any], Any]:
    allowed = get_args(t)

    def structure(value: Any, _t: Any) -> Any:
        if not isinstance(value, str) or value not in allowed:
            raise _Invalid(f"expected one of {', '.join(map(repr, allowed))}, got {_show(value)}")
        return value
    return structure


def check_json_data(value: Any, depth: int = 0) -> None:
    """Game data is JSON data: int, text, true/false, null, lists and objects of them."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return
    if kind is list or kind is dict:
        if depth >= MAX_NESTING:
            raise _Invalid(f"game data nested more than {MAX_NESTING} deep")
        items = value.items() if kind is dict else enumerate(value)
        for key, item in items:
            try:
                check_json_data(item, depth + 1)
            except _Invalid as err:
                raise err.inside(_key_step(key) if kind is dict else f"[{key}]") from None
        return
    raise _Invalid(f"expected game data (a whole number, text, true/false, null, a list or an "
                   f"object), got {_show(value)}")


def _json_hook(value: Any, _t: Any) -> Any:
    check_json_data(value)
    return value


def _log_entry_hook(scan: bool) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _t: Any) -> Any:
        if type(value) is not dict:
            raise _Invalid(f"expected a log entry (an object), got {_show(value)}")
        if type(value.get("t")) is not str:
            raise _Invalid(f"expected the entry's kind as text, got {_show(value.get('t'))}",
                           (".t",))
        if scan:
            check_json_data(value)
        return value
    return structure


_SCALARS = (int, str, bool)  # checked by their exact type (_scalar_hook)
_chain = itertools.chain.from_iterable
_countOf = operator.countOf
_KIND = operator.itemgetter("t")

Check = Callable[[Any], bool]  # do all these values fit the type? (else: look one by one)


def _always(values: Any) -> bool:
    """The check of game data parsed from JSON without fractional numbers: JSON data."""
    return True


def _all_text(values: Any) -> bool:
    """Are all `values` text? str.join refuses anything else (JSON gives no subclass of
    str), at a third of the cost of looking at each one's type."""
    try:
        "".join(values)
    except TypeError:
        return False
    return True


def _all_of_type(kind: type) -> Check:
    return lambda values: _countOf(map(type, values), kind) == len(values)


def _all_log_entries(values: Any) -> bool:
    """Is every value an object with its kind as text (key "t")? One pass: getting "t"
    fails on anything but an object, and str.join on anything but text."""
    try:
        "".join(map(_KIND, values))
    except (KeyError, TypeError):
        return False
    return True


def _all_fit(t: Any, scan: bool) -> Check | None:
    """A check, at C speed, that every value of a list fits type `t` (most often they do;
    when they do not, the hooks walk them and say where), or None when there is none for
    `t`. Game data needs no check without fractional numbers (see parse_json), nor do the
    keys of objects, which JSON writes as text (the scanning converter looks at them all
    the same: it also reads what is not JSON data)."""
    if t is str:
        return _all_text
    if t in _SCALARS:
        return _all_of_type(t)
    if t is JsonData and not scan:
        return _always
    if t is LogEntry and not scan:
        return _all_log_entries
    origin, args = get_origin(t), get_args(t)
    items = _all_fit(args[-1], scan) if args else None
    if items is None:
        return None
    if origin is list:
        lists = _all_of_type(list)
        if items is _always:
            return lists
        return lambda values: lists(values) and items(list(_chain(values)))
    if origin is dict and args[0] is str:
        dicts = _all_of_type(dict)
        keys: Check = _all_text if scan else _always
        if items is _always:
            return lambda values: dicts(values) and keys(_chain(values))
        return lambda values: dicts(values) and keys(_chain(values)) \
            and items(list(_chain(map(dict.values, values))))
    return None


def _list_hook(t: Any, conv: cattrs.Converter, scan: bool = True
               ) -> Callable[[Any, Any], Any]:
    item_type = get_args(t)[0]
    item = conv.get_structure_hook(item_type)
    all_fit = _all_fit(item_type, scan)

    def structure(value: Any, _t: Any) -> list[Any]:
        if not isinstance(value, list):
            raise _Invalid(f"expected a list, got {_show(value)}")
        if all_fit is not None and all_fit(value):
            return list(value)  # (most often) all of the type: checked at C speed
        out = []
        for i, x in enumerate(value):
            try:
                out.append(item(x, item_type))
            except Exception as err:
                raise _relocated(err, f"[{i}]") from None
        return out
    return structure


def _tuple_hook(t: Any, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    types = get_args(t)
    hooks = [conv.get_structure_hook(x) for x in types]

    def structure(value: Any, _t: Any) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != len(types):
            raise _Invalid(f"expected a list of {len(types)} items, got "
                           + (f"{len(value)} items" if isinstance(value, list) else _show(value)))
        out = []
        for i, (x, hook, xt) in enumerate(zip(value, hooks, types)):
            try:
                out.append(hook(x, xt))
            except Exception as err:
                raise _relocated(err, f"[{i}]") from None
        return tuple(out)
    return structure


def _dict_hook(t: Any, conv: cattrs.Converter, scan: bool = True
               ) -> Callable[[Any, Any], Any]:
    key_type, value_type = get_args(t)
    key_hook, value_hook = conv.get_structure_hook(key_type), conv.get_structure_hook(value_type)
    all_fit = _all_fit(t, scan)

    def structure(value: Any, _t: Any) -> dict[Any, Any]:
        if not isinstance(value, dict):
            raise _Invalid(f"expected an object, got {_show(value)}")
        if all_fit is not None and all_fit([value]):
            return dict(value)  # (most often) all of the types: checked at C speed
        out = {}
        for k, x in value.items():
            try:
                out[key_hook(k, key_type)] = value_hook(x, value_type)
            except Exception as err:
                raise _relocated(err, _key_step(k)) from None
        return out
    return structure


_RENAMED = {"in_": "in"}  # attributes whose JSON key is a Python keyword


def _class_hook(cls: type, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    renames = {a.name: override(rename=_RENAMED[a.name])
               for a in attrs.fields(cls) if a.name in _RENAMED}
    inner = make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=True,
                                   _cattrs_detailed_validation=True, **renames)
    keys = ", ".join(_RENAMED.get(a.name, a.name) for a in attrs.fields(cls))

    def structure(value: Any, _t: Any) -> Any:
        if not isinstance(value, dict):
            raise _Invalid(f"expected an object ({keys}), got {_show(value)}")
        try:
            return inner(value, cls)
        except ClassValidationError as err:
            raise _first_problem(err, value) from None
    return structure


def _frame_hook(conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    kinds = {"e": SavedEventFrame, "p": SavedProcFrame}
    hooks: dict[type, Callable[[Any, Any], Any]] = {}  # each kind's, asked for once

    def structure(value: Any, _t: Any) -> Any:
        if not isinstance(value, dict):
            raise _Invalid(f"expected a frame (an object), got {_show(value)}")
        cls = kinds.get(value.get("k"))  # type: ignore[arg-type]
        if cls is None:
            raise _Invalid(f"expected 'e' (an event) or 'p' (a waiting rule), got "
                           f"{_show(value.get('k'))}", (".k",))
        hook = hooks.get(cls)
        if hook is None:
            hook = hooks[cls] = conv.get_structure_hook(cls)
        return hook(value, cls)
    return structure


def _is_optional(t: Any) -> bool:
    args = get_args(t)
    return len(args) == 2 and type(None) in args and get_origin(t) in (Union, UnionType)


def _optional_hook(t: Any, conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    """`X | None`: null, or what X's hook makes of the value (cattrs' own looks X's hook
    up again at every value)."""
    inner = next(x for x in get_args(t) if x is not type(None))
    hook = conv.get_structure_hook(inner)
    return lambda value, _t: None if value is None else hook(value, inner)


def _mod_hook(conv: cattrs.Converter) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _t: Any) -> Any:
        if not isinstance(value, dict):
            raise _Invalid(f"expected a modifier (an object), got {_show(value)}")
        cls = SavedTempSet if "var" in value else SavedModifier
        return conv.get_structure_hook(cls)(value, cls)
    return structure


def _relocated(err: Exception, step: str) -> _Invalid:
    if isinstance(err, _Invalid):
        return err.inside(step)
    return _Invalid(f"{type(err).__name__}: {err}", (step,))  # pragma: no cover - a bug


def _first_problem(err: ClassValidationError, value: dict[str, Any]) -> _Invalid:
    """The first problem cattrs found in an object, located."""
    with_notes, without = err.group_exceptions()
    for exc in without:
        if isinstance(exc, ForbiddenExtraKeysError):
            extra = sorted(exc.extra_fields)
            return _Invalid(f"unknown key{'s' * (len(extra) > 1)} "
                            f"{', '.join(map(repr, extra))}", (_key_step(extra[0]),))
    for exc, note in with_notes:
        key = _RENAMED.get(note.name, note.name)
        if isinstance(exc, KeyError) and key not in value:
            return _Invalid(f"missing (the key {key!r} is required)", (_key_step(key),))
        return _relocated(exc, _key_step(key))
    first = without[0] if without else err
    return _Invalid(f"{type(first).__name__}: {first}")  # pragma: no cover - a bug


def _make_converter(scan: bool = True) -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    json_hook = _json_hook if scan else (lambda value, _t: value)
    conv.register_structure_hook(int, _scalar_hook(int, "a whole number"))
    conv.register_structure_hook(str, _scalar_hook(str, "text"))
    conv.register_structure_hook(bool, _scalar_hook(bool, "true or false"))
    conv.register_structure_hook_func(lambda t: t is JsonData, json_hook)
    conv.register_structure_hook_func(lambda t: t is LogEntry, _log_entry_hook(scan))
    conv.register_structure_hook_factory(lambda t: get_origin(t) is Literal, _literal_hook)
    conv.register_structure_hook_factory(lambda t: get_origin(t) is list,
                                         lambda t, c: _list_hook(t, c, scan))
    conv.register_structure_hook_factory(lambda t: get_origin(t) is tuple, _tuple_hook)
    conv.register_structure_hook_factory(lambda t: get_origin(t) is dict,
                                         lambda t, c: _dict_hook(t, c, scan))
    conv.register_structure_hook_factory(attrs.has, _class_hook)
    conv.register_structure_hook_func(lambda t: t == Frame, _frame_hook(conv))
    conv.register_structure_hook_factory(_is_optional, _optional_hook)
    conv.register_structure_hook_func(lambda t: t == Mod, _mod_hook(conv))
    return conv


# Game data parsed from JSON without fractional numbers is JSON data by construction: the
# scanning converter is only needed when the parser saw one (it then says where it is).
_SCANNING, _TRUSTING = _make_converter(), _make_converter(scan=False)


def structure(data: dict[str, Any], *, scan: bool = True) -> SaveFile:
    try:
        return (_SCANNING if scan else _TRUSTING).structure(data, SaveFile)
    except _Invalid as err:
        raise SaveError(f"{_path(err.where)}: {err.message}") from None
    except RecursionError:  # pragma: no cover - nesting is bounded before this
        raise SaveError("not a saved game: its JSON is nested too deeply") from None


def _path(steps: tuple[str, ...]) -> str:
    return "".join(steps).lstrip(".") or "the save"


# ---- checks against the pack --------------------------------------------------------------------

def _fail(path: str, message: str) -> SaveError:
    return SaveError(f"{path}: {message}")


def _listing(names: Any, limit: int = 8) -> str:
    names = sorted(map(str, names))
    shown = ", ".join(names[:limit])
    return shown + (f" and {len(names) - limit} more" if len(names) > limit else "")


def frames_hold(pack: Any, file: SaveFile) -> bool:
    """Are the save's waiting rules (the state's stack, the rule that asked the decision)
    places in `pack`'s code as this engine writes and runs it? Not when another version of
    the engine wrote the save (or one before saves named their code): the same pack and
    the same game, but a rule's resume points and locals may lie elsewhere, or be read
    otherwise. Such a save is replayed from its seed and actions, which mean the same to
    any version (`replayed`)."""
    return file.code == pack.code_hash


def check_against_pack(pack: Any, file: SaveFile) -> None:
    """Every name in the state exists in the pack, and the state holds together (the
    waiting rules only when they are places in the pack's code: see `frames_hold`)."""
    st = file.state
    frames = frames_hold(pack, file)
    _check_made(pack, st)
    _check_fields(pack, st)
    _check_vars(pack, st)
    _check_zones(pack, st)
    _check_revealed(pack, st)
    _check_mods(pack, st)
    for i, frame in enumerate(st.stack):
        if frames or isinstance(frame, SavedEventFrame):
            _check_frame(pack, frame, f"state.stack[{i}]")
    _check_decision(pack, st, frames)
    _check_counters(file)


def _same_keys(found: dict[str, Any], expected: Any) -> bool:
    kind = type(expected)
    return found.keys() == (expected.keys() if kind is dict else expected
                            if kind is set or kind is frozenset else set(expected))


def _check_same_keys(path: str, what: str, found: Any, expected: Any) -> None:
    if _same_keys(found, expected):
        return  # the same keys (most often): nothing to say
    found, expected = set(found), set(expected)
    unknown, missing = sorted(found - expected), sorted(expected - found)
    if unknown:
        known = f" (it has {_listing(expected)})" if expected else ""
        raise _fail(f"{path}{_key_step(unknown[0])}",
                    f"the pack has no {what} {unknown[0]!r}{known}")
    if missing:
        raise _fail(path, f"{what} {missing[0]!r} is missing")


def _check_present(path: str, value: Any, wanted: bool, why: str) -> None:
    if wanted and value is None:
        raise _fail(path, f"missing: the pack has {why}")
    if not wanted and value is not None:
        raise _fail(path, f"the pack has no {why}")


def _check_made(pack: Any, st: SavedState) -> None:
    """Records made in play: ids '<type>#<n>' of the pack's created types, each once, none
    numbered past the type's count."""
    why = "types whose records are made in play ('type T created')"
    _check_present("state.made", st.made, bool(pack.created), why)
    _check_present("state.serial", st.serial, bool(pack.created), why)
    if st.made is None or st.serial is None:
        return
    _check_same_keys("state.made", "created type", st.made, pack.created)
    _check_same_keys("state.serial", "created type", st.serial, pack.created)
    seen: set[str] = set()
    for tname, ids in st.made.items():
        count = st.serial[tname]
        if count <= 4 * len(ids) + 256 and len(set(ids)) == len(ids) \
                and _made_ids(tname, count).issuperset(ids):
            continue  # (most often) each id once, each of a record made so far
        for i, rid in enumerate(ids):
            path = f"state.made.{tname}[{i}]"
            head, _, number = rid.partition("#")
            if head != tname or not number.isdigit() or not 0 < int(number) <= count \
                    or number != str(int(number)):
                raise _fail(path, f"{rid!r} is not the id of a {tname} made in play "
                            f"({tname}#1 to {tname}#{count})")
            if rid in seen:
                raise _fail(path, f"{rid!r} is listed twice")
            seen.add(rid)


@functools.lru_cache(maxsize=64)
def _made_ids(tname: str, count: int) -> frozenset[str]:
    """The ids of the first `count` records of created type `tname` (`count` is bounded
    by the caller: a save's own number)."""
    return frozenset(f"{tname}#{n}" for n in range(1, count + 1))


def _live(st: SavedState) -> set[str]:
    return set(_chain(st.made.values())) if st.made else set()


def _check_fields(pack: Any, st: SavedState) -> None:
    """The fields in play: every live record made in play with its type's fields, and
    every pack record with var fields with those."""
    _check_present("state.f", st.f, pack.record_state, "record fields that change in play")
    if st.f is None:
        return
    want = key_order(pack, st.made).fields  # record -> its fields (made: checked before)
    _check_same_keys("state.f", "record with fields in play", st.f, want)
    if not any(map(operator.ne, map(dict.keys, st.f.values()),
                   map(dict.keys, map(want.__getitem__, st.f)))):
        return  # (most often) every record with its fields: compared at C speed
    for rid in [rid for rid, rec in st.f.items() if rec.keys() != want[rid].keys()]:
        _check_same_keys(f"state.f{_key_step(rid)}", f"field of {rid!r}", st.f[rid], want[rid])


def _check_vars(pack: Any, st: SavedState) -> None:
    var_keys = key_order(pack, st.made).vars
    _check_same_keys("state.v", "var", st.v, var_keys)
    for name, table in st.v.items():
        if not _same_keys(table, var_keys[name]):
            _check_same_keys(f"state.v.{name}", f"key of var {name!r}", table, var_keys[name])


def _check_record(pack: Any, path: str, rid: str, live: set[str] | None = None) -> None:
    if rid not in pack.records and (live is None or rid not in live):
        raise _fail(path, f"{rid!r} is not a record of pack {pack.id!r}")


def _check_zones(pack: Any, st: SavedState) -> None:
    zone_keys = key_order(pack, st.made).zones
    live = _live(st)
    _check_same_keys("state.z", "zone", st.z, zone_keys)
    placed = _placed_as_loc_says(st.z, st.loc)
    if placed is not None and placed.difference(pack.records) <= live:
        return  # (most often) every record once, where loc says, each a record or live
    where: dict[str, str] = {}
    records, loc = pack.records, st.loc
    for key, items in st.z.items():
        for i, rid in enumerate(items):
            if (rid in records or rid in live) and rid not in where and loc.get(rid) == key:
                where[rid] = key  # (most often) a record, once, where loc says it lies
                continue
            path = f"state.z{_key_step(key)}[{i}]"
            _check_record(pack, path, rid, live)
            if rid in where:
                raise _fail(path, f"{rid!r} lies in two zones ({where[rid]!r} too)")
            where[rid] = key
            if st.loc.get(rid) != key:
                raise _fail(f"state.loc{_key_step(rid)}", f"says {rid!r} lies in "
                            f"{_show(st.loc.get(rid))}, but it lies in zone {key!r}")
    for rid, key in st.loc.items():
        if where.get(rid) != key:
            raise _fail(f"state.loc{_key_step(rid)}", f"says {rid!r} lies in {key!r}, which "
                        "does not hold it")


def _placed_as_loc_says(zones: dict[str, list[str]], loc: dict[str, str]) -> set[str] | None:
    """The records in `zones` if each lies in one zone, once, where `loc` says it lies,
    and `loc` says where no other lies; else None. A zone's records are looked up in
    `loc` at C speed, the empty zones (most) skipped at C speed (a dict of all records
    placed, built at C speed, took five times as long)."""
    placed: set[str] = set()
    count = 0
    where = loc.get
    for key, items in itertools.compress(zones.items(), zones.values()):  # not empty
        if _countOf(map(where, items), key) != len(items):
            return None
        placed.update(items)
        count += len(items)
    return placed if len(placed) == count == len(loc) else None


def _check_sides(pack: Any, path: str, sides: list[str]) -> None:
    for i, side in enumerate(sides):
        if side not in pack.side_set:
            raise _fail(f"{path}[{i}]", f"{side!r} is not a side (sides: "
                        f"{', '.join(pack.sides)})")
        if side in sides[:i]:
            raise _fail(f"{path}[{i}]", f"side {side!r} is listed twice")


def _check_revealed(pack: Any, st: SavedState) -> None:
    live = _live(st)
    for rid, sides in st.revealed.items():
        path = f"state.revealed{_key_step(rid)}"
        _check_record(pack, path, rid, live)
        _check_sides(pack, path, sides)


def _check_event(pack: Any, path: str, name: str, args: list[Any] | None = None) -> None:
    if name not in pack.model.events and name not in BUILTIN_EVENTS:
        raise _fail(path, f"{name!r} is not an event of pack {pack.id!r}")
    decl = pack.model.events.get(name)
    wanted = len(decl.params) if decl is not None else 0
    if args is not None and len(args) != wanted:
        raise _fail(path, f"event {name!r} takes {wanted} argument{'s' * (wanted != 1)}, "
                    f"got {len(args)}")


def _check_function(pack: Any, path: str, fname: Any, stem: str, what: str) -> None:
    """A function of the generated pack code named in the state (a condition kept as data)."""
    if not (isinstance(fname, str) and fname.startswith(stem) and callable(pack.ns.get(fname))):
        raise _fail(path, f"{_show(fname)} is not {what} of pack {pack.id!r}")


def _check_mods(pack: Any, st: SavedState) -> None:
    for i, m in enumerate(st.mods):
        path = f"state.mods[{i}]"
        if isinstance(m, SavedTempSet):
            if m.var not in pack.var_keys:
                raise _fail(f"{path}.var", f"{m.var!r} is not a var of pack {pack.id!r}")
            if m.key not in {key for key, _args in pack.var_keys[m.var]}:
                raise _fail(f"{path}.key", f"var {m.var!r} has no key {m.key!r}")
            if isinstance(m.dur, list) and m.dur[:1] == ["while"]:
                raise _fail(f"{path}.dur", "a temporary set ends at events, not 'while'")
        else:
            if m.value not in pack.model.values:
                raise _fail(f"{path}.value", f"{m.value!r} is not a value of pack {pack.id!r}")
            if m.op != "to" and not _is_exactly(int, m.amount):
                raise _fail(f"{path}.amount", f"expected a whole number, got {_show(m.amount)}")
        _check_duration(pack, f"{path}.dur", m.dur)


_DURATION_SHAPES = ("null, [\"start\", event, count?], [\"end\", event, depth or null, count?], "
                    "[\"any\", [start or end durations]] or [\"while\", condition, {locals}]")


def _check_duration(pack: Any, path: str, dur: Any, inside_any: bool = False) -> None:
    if dur is None and not inside_any:
        return
    kinds = ("start", "end") if inside_any else ("start", "end", "while", "any")
    if not isinstance(dur, list) or not dur or dur[0] not in kinds:
        raise _fail(path, f"expected {_DURATION_SHAPES}, got {_show(dur)}")
    kind = dur[0]
    if kind == "any" and len(dur) == 2 and isinstance(dur[1], list) and dur[1]:
        for j, d in enumerate(dur[1]):
            _check_duration(pack, f"{path}[1][{j}]", d, inside_any=True)
        return
    if kind in ("start", "end") and len(dur) >= 2 and isinstance(dur[1], str):
        count_at = 2 if kind == "start" else 3
        ok = len(dur) in (count_at, count_at + 1) and (
            len(dur) == count_at or _is_exactly(int, dur[count_at]) and dur[count_at] >= 1)
        if kind == "end" and len(dur) > 2:
            ok = ok and (dur[2] is None or _is_exactly(int, dur[2]) and dur[2] >= 0)
        if ok:
            _check_event(pack, f"{path}[1]", dur[1])
            return
    elif kind == "while" and len(dur) == 3 and isinstance(dur[2], dict):
        _check_function(pack, f"{path}[1]", dur[1], "while_", "a 'while' condition")
        return
    raise _fail(path, f"expected {_DURATION_SHAPES}, got {_show(dur)}")


def _check_frame(pack: Any, frame: Any, path: str) -> None:
    if isinstance(frame, SavedEventFrame):
        _check_event(pack, f"{path}.n", frame.n, frame.a)
        if not 0 <= frame.st <= 3:
            raise _fail(f"{path}.st", f"an event's stage is 0 to 3, got {frame.st}")
        if frame.i < 0:
            raise _fail(f"{path}.i", f"expected a trigger's place (0 or more), got {frame.i}")
        insteads = pack.plans.get(frame.n, ([], [], [], []))[1]
        if frame.m is not None and not -1 <= frame.m < len(insteads):
            raise _fail(f"{path}.m", f"event {frame.n!r} has {len(insteads)} 'instead of' "
                        f"trigger{'s' * (len(insteads) != 1)}, got {frame.m}")
        for j, (name, args) in enumerate(frame.q):
            _check_event(pack, f"{path}.q[{j}]", name, args)
        _check_event_state(pack, frame, path)
        return
    waiting = pack.ns.get("SUSPENDING", pack.ns["FUNCS"])
    if frame.f not in pack.ns["FUNCS"] or frame.f not in waiting:
        raise _fail(f"{path}.f", f"{frame.f!r} is not a rule of pack {pack.id!r} that can "
                    "wait for a decision")
    if frame.pc < 0:
        raise _fail(f"{path}.pc", f"expected a resume point (0 or more), got {frame.pc}")


def _check_event_state(pack: Any, frame: SavedEventFrame, path: str) -> None:
    decl = pack.model.events.get(frame.n)
    fields = [f.name for f in decl.state] if decl is not None else []
    if frame.x is None:
        if fields:
            raise _fail(f"{path}.x", f"missing: event {frame.n!r} keeps state "
                        f"({', '.join(fields)})")
    elif not fields:
        raise _fail(f"{path}.x", f"event {frame.n!r} keeps no state")
    else:
        _check_same_keys(f"{path}.x", f"state field of event {frame.n!r}", frame.x, fields)


def _check_decision(pack: Any, st: SavedState, frames: bool = True) -> None:
    d = st.decision
    if st.result is not None:
        if st.result.winner is not None and st.result.winner not in pack.side_set:
            raise _fail("state.result.winner", f"{st.result.winner!r} is not a side")
        if d is not None or st.stack:
            raise _fail("state.result", "the game is over, yet rules are still waiting "
                        "(decision or stack not empty)")
        return
    if d is None:
        raise _fail("state.decision", "the game is neither over nor waiting for a decision")
    path = "state.decision"
    if d.side not in pack.side_set:
        raise _fail(f"{path}.side", f"{d.side!r} is not a side (sides: {', '.join(pack.sides)})")
    if not 0 <= d.min <= d.max:
        raise _fail(f"{path}.min", f"expected 0 <= min <= max, got min {d.min}, max {d.max}")
    top = st.stack[-1] if st.stack else None
    if not isinstance(top, SavedProcFrame) or top.f != d.fn:
        raise _fail(f"{path}.fn", f"the decision was asked by {d.fn!r}, but the rule waiting "
                    f"on top of the stack is {_show(getattr(top, 'f', None))}")
    if d.require is not None and frames:
        _check_function(pack, f"{path}.require[0]", d.require[0], "require_",
                        "a choice's condition")
    if d.window is not None and (d.window not in pack.model.windows or d.kind != "one"
                                 or frames and d.fn != pack.model.windows[d.window].fn):
        raise _fail(f"{path}.window", f"{_show(d.window)} is not a response window of pack "
                    f"{pack.id!r} asked by {d.fn!r}")
    each = d.each
    if each is not None and (not 0 <= each.min <= each.max or len(each.picked) >= each.max):
        raise _fail(f"{path}.each", f"expected 0 <= min <= max and fewer picks than max, got "
                    f"{len(each.picked)} picked, min {each.min}, max {each.max}")
    if d.id != st.asked - 1:
        raise _fail(f"{path}.id", f"the game has asked {st.asked} decisions, so the one "
                    f"waiting is number {st.asked - 1}, got {d.id}")


def _check_counters(file: SaveFile) -> None:
    st = file.state
    if not 0 <= st.rng < RNG_LIMIT:
        raise _fail("state.rng", f"expected a 64-bit random state (0 to 2**64 - 1), got {st.rng}")
    for name in ("steps", "decisions", "asked"):
        if getattr(st, name) < 0:
            raise _fail(f"state.{name}", f"expected a count (0 or more), got {getattr(st, name)}")
    if st.decisions > st.asked:
        raise _fail("state.decisions", f"{st.decisions} decisions answered, but only "
                    f"{st.asked} asked")
    if len(file.actions) != st.decisions:
        raise _fail("actions", f"{len(file.actions)} actions, but the state counts "
                    f"{st.decisions} decisions answered")
    if not re.fullmatch(r"[0-9a-f]{64}", file.digest):
        raise _fail("digest", f"expected 64 hexadecimal digits (sha256), got {_show(file.digest)}")


# ---- the order of a state's tables --------------------------------------------------------------
# A save is canonical JSON, whose objects have their keys sorted. A game keeps its tables in
# the order it made them, and what it shows reads them in that order (a view's zones and
# vars, `Game.position`'s bytes): a state read from a save gets that order back.

# the state's keys, its decision's and a one-at-a-time pick's, as engine.core.runtime makes them
_STATE_KEYS = ("v", "z", "loc", "mods", "revealed", "stack", "decision", "log", "result", "rng",
               "steps", "decisions", "asked", "f", "made", "serial", "chance")
_DECISION_KEYS = ("id", "kind", "side", "options", "min", "max", "optional", "prompt",
                  "require", "fn", "args", "each", "window")
_PICK_KEYS = dict.fromkeys(("picked", "min", "max"))
_RESULT_KEYS = dict.fromkeys(("winner", "reason"))


@attrs.frozen
class KeyOrder:
    """The keys of a state's tables in the order a game makes them, each table's as a dict
    of its keys (to None: a copy updated with a table is the table in this order)."""
    zones: dict[str, None]
    vars: dict[str, dict[str, None]]  # var -> its keys
    fields: dict[str, dict[str, None]]  # record with fields in play -> its fields


@attrs.frozen
class _PackOrder:
    keys: KeyOrder  # the pack's own keys
    fields: dict[str, dict[str, None]]  # created type -> its fields


_PACK_ORDER: dict[int, tuple[Any, _PackOrder]] = {}


def _pack_order(pack: Any) -> _PackOrder:
    """The pack's own keys in the order a new game makes them (engine.core.runtime's setup: the
    zones and vars in declaration order, then the records with var fields), and each type's
    fields in play in declaration order (its `init_T`'s). Worked out once per pack."""
    got = _PACK_ORDER.get(id(pack))
    if got is None or got[0] is not pack:
        types = pack.model.types
        fields = {t: dict.fromkeys(n for n, f in info.fields.items()
                                   if f.var or t in pack.created)
                  for t, info in types.items()}
        keys = KeyOrder(dict.fromkeys(pack.zone_keys),
                        {name: dict.fromkeys(key for key, _args in combos)
                         for name, combos in pack.var_keys.items()},
                        {rid: fields[t] for t in pack.var_field_types
                         for rid in pack.by_type[t]})
        got = _PACK_ORDER[id(pack)] = (pack, _PackOrder(keys, fields))
    return got[1]


def key_order(pack: Any, made: dict[str, list[str]] | None) -> KeyOrder:
    """The keys of a state of `pack` whose live records made in play are `made` (created
    type -> ids, oldest first), in the order a game makes them: the pack's own first, then
    those of each record made in play, as it was made (engine.core.runtime's `create`). A state
    does not say in which order records of two created types were made: those are taken
    type by type (Game.position and views read such a pack's tables in this order, not in
    the game's; see `made_in_turn`). Not to be changed: it may be the pack's own."""
    own = _pack_order(pack)
    static = own.keys
    if not made or not any(made.values()):
        return static
    made_now = tuple(map(tuple, made.values()))
    last = _LAST_ORDER.get("last")
    if last is not None and last[0] is pack and last[1] == made_now:
        return last[2]  # (the checks of a save and its load ask for the same)
    fields = static.fields.copy()
    if not any(t in pack.keyed for t in made):  # keys of the pack's own only
        for tname, ids in made.items():
            fields.update(zip(ids, itertools.repeat(own.fields[tname])))
        order = KeyOrder(static.zones, static.vars, fields)
    else:
        order = _made_keys(pack, made, fields)
    _LAST_ORDER["last"] = (pack, made_now, order)
    return order


_LAST_ORDER: dict[str, tuple[Any, tuple[tuple[str, ...], ...], KeyOrder]] = {}


def _made_keys(pack: Any, made: dict[str, list[str]], fields: dict[str, Any]) -> KeyOrder:
    """`key_order` of a pack whose zones or vars are indexed by records made in play: the
    keys of each record made, as engine.core.runtime's `create` adds them."""
    own = _pack_order(pack)
    zones = own.keys.zones.copy()
    var_keys = {name: keys.copy() for name, keys in own.keys.vars.items()}
    so_far: dict[str, list[str]] = {t: [] for t in made}
    sides = list(pack.sides)

    def domain(t: str) -> list[str]:  # engine.core.runtime's, when the record was made
        return sides if t == "side" else so_far[t] if t in so_far else pack.by_type.get(t, [])
    for tname, ids in made.items():
        entries, names = pack.keyed.get(tname, ()), own.fields[tname]
        for rid in ids:
            so_far[tname].append(rid)
            for kind, name, types in entries:
                for combo in keys_naming(types, tname, rid, domain):
                    if kind == "z":
                        zones["|".join((name, *combo))] = None
                    else:
                        var_keys[name]["|".join(combo)] = None
            fields[rid] = names
    return KeyOrder(zones, var_keys, fields)


def made_in_turn(pack: Any) -> bool:
    """May a game of `pack` make records of two created types in turn? Then the order of
    its tables is not in its state, and what reads them in order reads them in `key_order`."""
    return len(pack.created) > 1


def _ordered(table: dict[str, Any], keys: dict[str, None]) -> dict[str, Any]:
    """`table` (holding `keys`, no other) in the order of `keys`, made at C speed."""
    out = keys.copy()
    out.update(table)
    return out


def in_game_order(pack: Any, state: dict[str, Any]) -> dict[str, Any]:
    """`state`, read from a save and checked against `pack` (its tables hold the keys
    `key_order` lists), with its tables in the order the game that was saved had them
    (`key_order`): so a view shows its zones and vars in the same order, and
    `Game.position` gives the same bytes. The frames' locals, `loc` and `revealed` keep the
    save's order: nothing reads them in order."""
    order = key_order(pack, state.get("made"))
    out = {key: state[key] for key in _STATE_KEYS if key in state}
    if len(out) < len(state):  # (none in a game today) kept, after those
        out.update((key, value) for key, value in state.items() if key not in out)
    out["z"] = _ordered(state["z"], order.zones)
    v = state["v"]
    out["v"] = {name: _ordered(v[name], keys) for name, keys in order.vars.items()}
    f = state.get("f")
    if f is not None:  # (each record's fields put in order at C speed: most of the work)
        records = list(map(dict.copy, order.fields.values()))
        collections.deque(map(dict.update, records, map(f.__getitem__, order.fields)), 0)
        out["f"] = dict(zip(order.fields, records))
    d = state["decision"]
    if d is not None:
        d = out["decision"] = {key: d[key] for key in _DECISION_KEYS if key in d}
        if d.get("each") is not None:
            d["each"] = _ordered(d["each"], _PICK_KEYS)
    if state["result"] is not None:
        out["result"] = _ordered(state["result"], _RESULT_KEYS)
    return out


# ---- verification -------------------------------------------------------------------------------

def _canonical_saved(value: Any) -> str:
    try:
        return canonical(value)
    except RecursionError:  # data nested nearly as deep as the JSON reader allows
        raise SaveError("state: game data nested too deeply to be a saved game") from None


def check_digest(save: Save) -> None:
    f = save.file
    claimed = {"seed": f.seed, "log": f.log, "actions": save.data["actions"],
               "state": save.state}
    if _sha256(_canonical_saved(claimed)) != f.digest:
        raise SaveError("digest: the save does not match its digest: it was changed or damaged "
                        "after it was written (load it with verify='replay' to check it against "
                        "its actions)")


def check_replayed(pack: Any, save: Save, game: Any) -> None:
    """SaveError unless `game`, the save's actions replayed from its seed (engine.core.game:
    replayed), is exactly the saved state (but for the waiting rules, when they are not
    places in the pack's code: `frames_hold`)."""
    f = save.file
    replayed_state, saved_state = _game_state(game.rt.s), _game_state(save.state)
    if not frames_hold(pack, f):
        replayed_state, saved_state = _played(replayed_state), _played(saved_state)
    if not _same_json(replayed_state, saved_state):
        # walk in the runtime's own key order (vars first), on plain JSON (no tuples)
        live = json.loads(json.dumps(replayed_state))
        path, saved, got = first_difference(saved_state, live, "state")
        what = path.split(".")[1].split("[")[0] if "." in path else "state"
        raise SaveError(f"the saved state does not match its own actions: replaying them "
                        f"gives a different {what} (first difference: {path}: saved {saved}, "
                        f"replayed {got})")


def _same_json(live: Any, saved: Any) -> bool:
    """`canonical(live) == canonical(saved)`, `saved` read from a save (no fractional
    number in it: read_save refuses them), most often without json's writer (twice the
    time of a whole digest load). orjson writes the same JSON but for floats, which it
    writes another way (yet one float one way) or, NaN and the infinities, as null; and
    Python's == tells apart whatever JSON tells apart but for 1, 1.0 and true, which
    orjson's texts tell apart. So both equal is canonical equality: a NaN or infinity
    in `live` equals nothing in `saved`. Otherwise (a tuple for a list, a number of more
    than 64 bits, nesting too deep for either) json's writer decides."""
    try:
        if live == saved and orjson.dumps(live, option=orjson.OPT_SORT_KEYS) \
                == orjson.dumps(saved, option=orjson.OPT_SORT_KEYS):
            return True
    except (orjson.JSONEncodeError, RecursionError):
        pass
    return canonical(live) == _canonical_saved(saved)


def _game_state(state: dict[str, Any]) -> dict[str, Any]:
    """The state without its step count: a budget counter of the rules run so far, not
    game state. How steps are counted may change between versions (it did: only calls
    of procedures and of values that may recurse count now), and a save written before
    must still prove its game by replay; the loaded game keeps the replayed count."""
    return {k: v for k, v in state.items() if k != "steps"}


def _played(state: dict[str, Any]) -> dict[str, Any]:
    """The state without where the rules wait (the stack, and the rule that asked the
    decision and its condition): what another version of the compiler writes otherwise."""
    played = {k: v for k, v in state.items() if k != "stack"}
    d = state.get("decision")
    if isinstance(d, dict):
        played["decision"] = {k: v for k, v in d.items() if k not in ("fn", "require")}
    return played


def first_difference(saved: Any, other: Any, path: str) -> tuple[str, str, str]:
    """The first place where two JSON values differ (types too: true is not 1), and both
    values there, shown."""
    if type(saved) is not type(other):
        return path, _show(saved), _show(other)
    if isinstance(saved, dict):
        for key in [*other, *(k for k in saved if k not in other)]:
            if key not in saved or key not in other:
                return (f"{path}{_key_step(key)}", "nothing" if key not in saved else "a value",
                        "nothing" if key not in other else "a value")
            if canonical(saved[key]) != canonical(other[key]):
                return first_difference(saved[key], other[key], f"{path}{_key_step(key)}")
    elif isinstance(saved, list):
        for i, (a, b) in enumerate(zip(saved, other)):
            if canonical(a) != canonical(b):
                return first_difference(a, b, f"{path}[{i}]")
        return path, f"{len(saved)} items", f"{len(other)} items"
    return path, _show(saved), _show(other)
