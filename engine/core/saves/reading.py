"""Reading a save's text strictly into its schema (msgspec structs: engine.core.saves.schema)
and the plain data the runtime runs on. A text laid out exactly as a save is written is
read by msgspec straight into the structs (`read_as_written`), the runtime's data taken from
them; any other is read the careful way: its JSON (`parse_json`: json's careful reader where
msgspec's cannot tell, to say what is wrong), its header (`check_header`: format, version,
pack), its schema (`structure`), every refusal a SaveError that says what is wrong and where."""
from __future__ import annotations

import json
import operator
from typing import Any

import msgspec

from engine.core.errors import SaveError
from engine.core.saves.canonical_json import encode_sorted, escaped_as_json
from engine.core.saves.located import Problem, check_value
from engine.core.saves.schema import (
    FORMAT_VERSION,
    OLD_FORMATS,
    SAVE_FORMAT,
    Frame,
    SavedDecision,
    SavedState,
    SaveFile,
    modifier_kind,
)
from engine.core.saves.shown import show


class _Fraction(ValueError):
    """A fractional number in a save's JSON: read the careful way, which says where."""


def _refuse_fraction(token: str) -> float:
    raise _Fraction(token)


# strict: no type coerced; a fraction (only ever in game data, and refused there) read again
_STRUCTS = msgspec.json.Decoder(SaveFile, strict=True, float_hook=_refuse_fraction)


def read_as_written(text: Any) -> tuple[SaveFile, dict[str, Any]] | None:
    """The save in `text` read into its schema, and the runtime's data, when `text` is laid
    out exactly as `canonical` writes its value (as `save_text` writes a save) and fits the
    schema; else None (then read it the careful way: `parse_json`, `structure`). msgspec
    reads it into the structs at C speed, and writing them out again gives the text: so no
    object in it gives a key twice (msgspec keeps the last of such keys silently), and
    the data lack the keys the text lacks (an absent key reads as UNSET, which is written
    as nothing). The runtime takes the structs' tables as they are (reading the JSON a
    second time, as plain data, took half a load)."""
    if not isinstance(text, (str, bytes, bytearray)):
        return None
    try:
        file = _STRUCTS.decode(text)
        mods = [msgspec.convert(entry, modifier_kind(entry), strict=True)
                for entry in file.state.mods]
    except (msgspec.DecodeError, ValueError, TypeError, OverflowError, RecursionError):
        return None  # (TypeError: a modifier not an object)
    if not _all_log_entries(file.state.log) or not written_canonically(file, text):
        return None
    data = {"actions": file.actions, "code": file.code, "digest": file.digest,
            "format": file.format, "format_version": file.format_version, "log": file.log,
            "pack": file.pack, "pack_hash": file.pack_hash, "seed": file.seed,
            "state": state_data(file.state)}
    read = msgspec.structs.replace(file, state=msgspec.structs.replace(file.state, mods=mods))
    return read, {key: value for key, value in data.items() if value is not msgspec.UNSET}


def _as_read(part: msgspec.Struct) -> dict[str, Any]:
    """A struct as the JSON object it was read from (keys sorted, as a save writes them)."""
    data: dict[str, Any] = msgspec.to_builtins(part)
    return dict(sorted(data.items()))


# (the schema's tuples are the save's lists of a fixed length: lists again, as read)

def _decision_data(decision: SavedDecision) -> dict[str, Any]:
    data = _as_read(decision)
    if data["require"] is not None:
        data["require"] = list(data["require"])
    if isinstance(data.get("each"), dict):
        data["each"] = dict(sorted(data["each"].items()))
    return data


def _frame_data(frame: Frame) -> dict[str, Any]:
    data = _as_read(frame)
    if "q" in data:
        data["q"] = list(map(list, data["q"]))
    return data


def state_data(state: SavedState) -> dict[str, Any]:
    """The runtime's state as the save's JSON gives it (its keys in the save's order), from
    the structs msgspec read it into: their tables as they are, their parts (frames, the
    decision, the result: few) written as the JSON objects they were read from."""
    data = {"asked": state.asked, "chance": state.chance,
            "decision": None if state.decision is None else _decision_data(state.decision),
            "decisions": state.decisions, "f": state.fields, "loc": state.loc, "log": state.log,
            "made": state.made, "mods": state.mods,
            "result": None if state.result is None else _as_read(state.result),
            "revealed": state.revealed, "rng": state.rng, "serial": state.serial,
            "stack": list(map(_frame_data, state.stack)),
            "steps": state.steps, "v": state.vars, "z": state.zones}
    for key in _ABSENT_WHEN_NONE:
        if data[key] is None:
            del data[key]
    return data


_ABSENT_WHEN_NONE = ("chance", "f", "made", "serial")  # (SavedState omits its defaults)


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
        if written_canonically(data, text):
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


def written_canonically(data: Any, text: str | bytes | bytearray) -> bool:
    """Is `text` laid out exactly as `canonical` writes `data`, its value (as `save_text`
    writes a save)? Then no object in it gives a key twice: json keeps the last of such
    keys silently, and writing the value out again would then give a shorter text.
    Written by msgspec (C speed; json's own writer takes twice the time a read does),
    escaped as json escapes; whatever msgspec writes otherwise (a float's exponent, a lone
    surrogate) only sends the text to the careful reader."""
    try:
        written = encode_sorted(data)
        if written.isascii() and b"\x7f" not in written:  # (most often) compared as bytes
            return written == (text.encode("utf-8", "surrogatepass") if isinstance(text, str)
                               else text)
        if not isinstance(text, str):
            text = bytes(text).decode()
    except (TypeError, ValueError, OverflowError, RecursionError):
        return False
    return escaped_as_json(written.decode()) == text


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
        raise SaveError(f"not a saved game: expected a JSON object, got {show(data)}")
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
        raise SaveError(f"not a saved game: format is {show(fmt)}, expected {SAVE_FORMAT!r}")
    version = data.get("format_version", FORMAT_VERSION)
    if type(version) is not int or version != FORMAT_VERSION:
        raise SaveError(f"this save is of format_version {show(version)}; this engine reads "
                        f"format_version {FORMAT_VERSION} (a newer engine wrote it?)")
    if data.get("pack") != pack.id:
        raise SaveError(f"this game was saved with pack {show(data.get('pack'))}, "
                        f"not {pack.id!r}")
    if data.get("pack_hash") != pack.hash:
        raise SaveError(
            f"pack {pack.id!r} changed since this game was saved (saved with "
            f"{show(data.get('pack_hash'))}, now {pack.hash!r}); its state may not fit the "
            "new rules: replay its seed and actions with the new pack instead "
            "(engine.core.game.replay(pack, save['seed'], save['actions']))")


_KIND = operator.itemgetter("t")


def _all_log_entries(entries: list[Any]) -> bool:
    """Is every entry an object with its kind as text (key "t")? One pass at C speed:
    getting "t" fails on anything but an object, and str.join on anything but text."""
    try:
        "".join(map(_KIND, entries))
    except (KeyError, TypeError, IndexError):
        return False
    return True


def structure(data: dict[str, Any], *, scan: bool = True) -> SaveFile:
    """The save's JSON value `data` read into its schema, strictly; its game data looked
    at (`scan`) when the JSON held a fractional number. A SaveError says the first problem
    and where it is."""
    refused = ""
    try:
        file = msgspec.convert(data, SaveFile, strict=True)
        mods = [msgspec.convert(entry, modifier_kind(entry), strict=True)
                for entry in file.state.mods]
        if not _all_log_entries(file.state.log):
            refused = "a log entry is not an object with its kind"
    except (msgspec.ValidationError, TypeError) as err:  # (TypeError: a modifier not an object)
        refused = str(err)
    if refused or scan:  # the schema walked, to say the first problem and where it is
        try:
            check_value(data, SaveFile, scan)
        except Problem as err:
            raise SaveError(f"{err.path}: {err.message}") from None
        except RecursionError:  # pragma: no cover - nesting is bounded before this
            raise SaveError("not a saved game: its JSON is nested too deeply") from None
        if refused:  # pragma: no cover - the walk refuses all msgspec refuses
            raise SaveError(f"the save: {refused}")
    return msgspec.structs.replace(file, state=msgspec.structs.replace(file.state, mods=mods))
