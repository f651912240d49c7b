"""A save's text read into a `Save` Game.load can trust: read strictly, checked against the
pack, and (`read_digested`) its digest checked, its tables put back in the game's order."""
from __future__ import annotations

from typing import Any

from engine.core.saves.order import in_game_order
from engine.core.saves.pack_checks import check_against_pack
from engine.core.saves.reading import check_header, parse_json, read_as_written, structure
from engine.core.saves.schema import Save
from engine.core.saves.text import digest_holds
from engine.core.saves.verify import check_digest


def read_save(pack: Any, text: Any) -> Save:
    """The save in `text`, checked against its schema and against `pack`; SaveError says
    what is wrong and where."""
    read = read_as_written(text)  # (most often: a text as Game.save writes it)
    if read is None:
        data, fractions = parse_json(text)
        check_header(pack, data)
        file = structure(data, scan=fractions)
    else:
        file, data = read
        check_header(pack, data)
    check_against_pack(pack, file)
    return Save(file, data)


def read_digested(pack: Any, text: Any) -> Save:
    """`read_save` and `check_digest` in one, the state's tables put back in the game's
    order (`in_game_order`). A save laid out exactly as `save_text` writes it has its
    digest checked on the text itself, without writing the state out again (most of the
    time a load took)."""
    save = read_save(pack, text)
    if not (isinstance(text, str) and digest_holds(pack, text)):
        check_digest(save)  # not as save_text writes it, or damaged: says what is wrong
    return Save(save.file, {**save.data, "state": in_game_order(pack, save.state)})
