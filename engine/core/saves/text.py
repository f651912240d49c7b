"""A save's text as `Game.save` writes it: the canonical JSON of `save_data`, the state
written once for both the text and its digest; and the digest checked on such a text where
it lies (`digest_holds`), without writing the state out again."""
from __future__ import annotations

import hashlib
import re
from typing import Any

from engine.core.saves.canonical_json import canonical, digest_of, fractions_possible
from engine.core.saves.logtext import LogText
from engine.core.saves.schema import FORMAT_VERSION, SAVE_FORMAT


def save_data(pack: Any, seed: int, log: bool, actions: list[Any],
              state: dict[str, Any]) -> dict[str, Any]:
    """The save as plain data (Game.to_data)."""
    return {"format": SAVE_FORMAT, "format_version": FORMAT_VERSION, "pack": pack.id,
            "pack_hash": pack.hash, "code": pack.code_hash, "seed": seed, "log": log,
            "actions": actions, "state": state, "digest": digest_of(seed, log, actions, state)}


def canonical_state(state: dict[str, Any], log_text: LogText | None = None, *,
                    nan_free: bool = False) -> str:
    """`canonical(state)`, the log through `log_text` when given: the keys before "log"
    and those after it written in one call each (a call per key took a third of a save)."""
    if log_text is None or not isinstance(state.get("log"), list):
        return canonical(state, nan_free=nan_free)
    if not all(type(key) is str for key in state):
        return canonical(state)  # (never in a game) json's writer says what is wrong
    before = canonical({k: v for k, v in state.items() if k < "log"}, nan_free=nan_free)[1:-1]
    after = canonical({k: v for k, v in state.items() if k > "log"}, nan_free=nan_free)[1:-1]
    log = log_text.of(state["log"], nan_free=nan_free)  # (joined once below: most of the text)
    return "".join(("{", before, "," * bool(before), '"log":', log, "," * bool(after), after,
                    "}"))


def save_text(pack: Any, seed: int, log: bool, actions: list[Any],
              state: dict[str, Any], log_text: LogText | None = None) -> str:
    """`canonical(save_data(...))`, writing the state's JSON once for both the digest and
    the text (the state is most of a save, and hosts save often), its log through
    `log_text` (see LogText) when given."""
    nan_free = not fractions_possible(pack)
    written_actions = canonical(actions, nan_free=nan_free)
    written_log = canonical(log, nan_free=type(log) is bool)  # (json's writer: 3 times the time)
    written_seed = canonical(seed, nan_free=type(seed) is int)
    written_state = canonical_state(state, log_text, nan_free=nan_free)
    claimed = hashlib.sha256(
        f'{{"actions":{written_actions},"log":{written_log},"seed":{written_seed},"state":'
        .encode("utf-8", "surrogatepass"))  # hashed in parts: the whole not copied once more
    claimed.update(written_state.encode("utf-8", "surrogatepass"))
    claimed.update(b"}")
    digest = claimed.hexdigest()
    return (f'{{"actions":{written_actions},"code":{_text(pack.code_hash)},'
            f'"digest":"{digest}","format":{_text(SAVE_FORMAT)},'
            f'"format_version":{FORMAT_VERSION},"log":{written_log},'
            f'"pack":{_text(pack.id)},"pack_hash":{_text(pack.hash)},'
            f'"seed":{written_seed},"state":{written_state}}}')


def _text(name: str) -> str:
    """A name in the save (the pack's id and hashes, the format) as canonical JSON."""
    return canonical(name, nan_free=True)


_SEED = re.compile(rb"-?[0-9]+")


def digest_holds(pack: Any, text: str) -> bool:
    """Is `text` laid out exactly as `save_text` writes a save of `pack`, with the digest
    of what it claims? (Then it is, byte for byte, a text `save_text` wrote.) Looked at
    in its UTF-8 bytes, whose parts are hashed where they lie (slicing the text and
    joining the parts copied it six times: most of this check besides the hash)."""
    raw = text.encode("utf-8", "surrogatepass")
    head = b'{"actions":'
    code = f',"code":{_text(pack.code_hash)},"digest":"'.encode()
    cut = raw.find(code, len(head))
    if not raw.startswith(head) or cut < 0 or not raw.endswith(b"}"):
        return False
    at = cut + len(code)
    digest, at = raw[at:at + 64], at + 64
    middle = (f'","format":{_text(SAVE_FORMAT)},"format_version":{FORMAT_VERSION},'
              f'"log":').encode()
    if not raw.startswith(middle, at):
        return False
    at += len(middle)
    log = b"true" if raw.startswith(b"true,", at) else \
        b"false" if raw.startswith(b"false,", at) else b""
    at += len(log)
    pack_part = (f',"pack":{_text(pack.id)},"pack_hash":{_text(pack.hash)},'
                 f'"seed":').encode()
    if not log or not raw.startswith(pack_part, at):
        return False
    at += len(pack_part)
    state_at = raw.find(b',"state":', at)
    seed = raw[at:state_at]
    if state_at < 0 or not _SEED.fullmatch(seed):
        return False
    parts = memoryview(raw)
    claimed = hashlib.sha256(head)
    claimed.update(parts[len(head):cut])
    claimed.update(b',"log":' + log + b',"seed":' + seed + b',"state":')
    claimed.update(parts[state_at + 9:-1])
    claimed.update(b"}")
    return claimed.hexdigest().encode() == digest
