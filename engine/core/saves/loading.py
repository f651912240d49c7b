"""A save's text read into a `Save` Game.load can trust: read strictly, checked against the
pack, and (`read_digested`) its digest checked, its tables put back in the game's order."""
from __future__ import annotations

from typing import Any

from engine.core.saves import schema
from engine.core.saves.order import in_game_order
from engine.core.saves.pack_checks import check_against_pack
from engine.core.saves.reading import check_header, parse_json, structure
from engine.core.saves.schema import Save
from engine.core.saves.text import digest_holds
from engine.core.saves.verify import check_digest


def read_save(pack: Any, text: Any) -> Save:
    """The save in `text`, checked against its schema and against `pack`; SaveError says
    what is wrong and where."""
    data, fractions = parse_json(text)
    check_header(pack, data)
    file = structure(data, scan=fractions)
    check_against_pack(pack, file)
    return Save(file, _with_tables_of(data, file.state))


# The state's tables msgspec read into the structs (a copy of each, as read), which the
# runtime takes, so that the reader's own are freed: a load makes half as many objects
# then, which the garbage collector would otherwise walk again and again.
_TABLES = ("v", "z", "loc", "revealed", "f", "made")


def _with_tables_of(data: dict[str, Any], read: schema.SavedState) -> dict[str, Any]:
    state = dict(data["state"])  # (its keys in the save's order)
    for key in _TABLES:
        if key in state:
            state[key] = getattr(read, key)
    return {**data, "state": state}


def read_digested(pack: Any, text: Any) -> Save:
    """`read_save` and `check_digest` in one, the state's tables put back in the game's
    order (`in_game_order`). A save laid out exactly as `save_text` writes it has its
    digest checked on the text itself, without writing the state out again (most of the
    time a load took)."""
    save = read_save(pack, text)
    if not (isinstance(text, str) and digest_holds(pack, text)):
        check_digest(save)  # not as save_text writes it, or damaged: says what is wrong
    return Save(save.file, {**save.data, "state": in_game_order(pack, save.state)})
