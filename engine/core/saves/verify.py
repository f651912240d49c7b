"""The proof that a save's state is the game it claims: its digest (storage the host
trusts), or the state its own actions replay to (engine.core.game.replayed plays them;
`check_replayed` compares), the first difference said where it lies."""
from __future__ import annotations

import json
from typing import Any

from engine.core.errors import SaveError
from engine.core.saves.canonical_json import canonical, encode_sorted, sha256_of
from engine.core.saves.pack_checks import frames_hold
from engine.core.saves.schema import VERIFY_MODES, Save
from engine.core.saves.shown import key_step, show


def check_verify_mode(verify: Any) -> None:
    if verify not in VERIFY_MODES:
        raise ValueError(f"verify must be 'replay' or 'digest', not {verify!r}")


def _canonical_saved(value: Any) -> str:
    """The canonical JSON of data read from a save (no NaN in it: the reader refuses them)."""
    try:
        return canonical(value, nan_free=True)
    except RecursionError:  # data nested nearly as deep as the JSON reader allows
        raise SaveError("state: game data nested too deeply to be a saved game") from None


def check_digest(save: Save) -> None:
    file = save.file
    claimed = {"seed": file.seed, "log": file.log, "actions": save.data["actions"],
               "state": save.state}
    if sha256_of(_canonical_saved(claimed)) != file.digest:
        raise SaveError("digest: the save does not match its digest: it was changed or damaged "
                        "after it was written (load it with verify='replay' to check it against "
                        "its actions)")


def check_replayed(pack: Any, save: Save, game: Any) -> None:
    """SaveError unless `game`, the save's actions replayed from its seed (engine.core.game:
    replayed), is exactly the saved state (but for the waiting rules, when they are not
    places in the pack's code: `frames_hold`)."""
    replayed_state, saved_state = _game_state(game.rt.s), _game_state(save.state)
    if not frames_hold(pack, save.file):
        replayed_state, saved_state = _played(replayed_state), _played(saved_state)
    if not same_json(replayed_state, saved_state):
        # walk in the runtime's own key order (vars first), on plain JSON (no tuples)
        live = json.loads(json.dumps(replayed_state))
        path, saved, got = first_difference(saved_state, live, "state")
        what = path.split(".")[1].split("[")[0] if "." in path else "state"
        raise SaveError(f"the saved state does not match its own actions: replaying them "
                        f"gives a different {what} (first difference: {path}: saved {saved}, "
                        f"replayed {got})")


def same_json(live: Any, saved: Any) -> bool:
    """`canonical(live) == canonical(saved)`, `saved` read from a save (no fractional
    number in it: the reader refuses them), most often without json's writer (twice the
    time of a whole digest load). msgspec writes the same JSON but for floats, which it
    writes another way (yet one float one way) or, NaN and the infinities, as null; and
    Python's == tells apart whatever JSON tells apart but for 1, 1.0 and true, which
    msgspec's texts tell apart. So both equal is canonical equality: a NaN or infinity
    in `live` equals nothing in `saved`. Otherwise (a tuple for a list, nesting too deep,
    a value msgspec does not write) json's writer decides."""
    try:
        if live == saved and encode_sorted(live) == encode_sorted(saved):
            return True
    except (TypeError, ValueError, OverflowError, RecursionError):
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
    decision = state.get("decision")
    if isinstance(decision, dict):
        played["decision"] = {k: v for k, v in decision.items() if k not in ("fn", "require")}
    return played


def first_difference(saved: Any, other: Any, path: str) -> tuple[str, str, str]:
    """The first place where two JSON values differ (types too: true is not 1), and both
    values there, shown."""
    if type(saved) is not type(other):
        return path, show(saved), show(other)
    if isinstance(saved, dict):
        for key in [*other, *(k for k in saved if k not in other)]:
            if key not in saved or key not in other:
                return (f"{path}{key_step(key)}", "nothing" if key not in saved else "a value",
                        "nothing" if key not in other else "a value")
            if canonical(saved[key]) != canonical(other[key]):
                return first_difference(saved[key], other[key], f"{path}{key_step(key)}")
    elif isinstance(saved, list):
        for i, (a, b) in enumerate(zip(saved, other)):
            if canonical(a) != canonical(b):
                return first_difference(a, b, f"{path}[{i}]")
        return path, f"{len(saved)} items", f"{len(other)} items"
    return path, show(saved), show(other)
