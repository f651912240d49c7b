"""Saved games that cannot lie: the save file's schema, its checks against the pack, and
the proof that its state is the state its own actions lead to.

A save holds two descriptions of one game: the seed and the actions, which replay it
exactly, and the state, which loads it at once. `Game.load` trusts neither blindly:

* the JSON is read into msgspec structs, strictly (no type is coerced, no key is unknown
  or missing, game data is JSON data only), so a damaged file gives a located message
  ("state.decision.options: expected a list, got 3"), never a raw KeyError (`reading`:
  a text as Game.save writes it straight into the structs, any other the careful way;
  its messages worked out by `located`, the schema in `schema`);
* names in the state are checked against the pack (vars, zones, records, events, rules:
  `pack_checks`, the tables' keys in the game's order from `order`);
* then either the actions are replayed from the seed and the replayed state must equal the
  saved one exactly (`verify="replay"`), or, for storage the host trusts, the save's
  `digest` (sha256 of the canonical JSON of seed, log flag, actions and state: `canonical_json`)
  must match (`verify="digest"`; `verify`). The digest finds damage, not forgery: anyone
  can recompute it.

A save's text is the canonical JSON of its data (`text`, the log's kept between saves by
`logtext`). The runtime keeps working on the plain JSON data (its dicts are the state, their
tables put back in the order the game had them: `in_game_order`); the structs only hold
what is checked.
"""
from engine.core.saves.canonical_json import canonical, digest_of
from engine.core.saves.loading import read_digested, read_save
from engine.core.saves.logtext import LogText
from engine.core.saves.order import KeyOrder, in_game_order, key_order, made_in_turn
from engine.core.saves.pack_checks import check_against_pack, frames_hold
from engine.core.saves.reading import check_header, parse_json, read_as_written, structure
from engine.core.saves.schema import FORMAT_VERSION, SAVE_FORMAT, Save, SaveFile
from engine.core.saves.text import digest_holds, save_data, save_text
from engine.core.saves.verify import check_digest, check_replayed, check_verify_mode

__all__ = [
    "FORMAT_VERSION", "SAVE_FORMAT", "KeyOrder", "LogText", "Save", "SaveFile", "canonical",
    "check_against_pack", "check_digest", "check_header", "check_replayed",
    "check_verify_mode", "digest_holds", "digest_of", "frames_hold", "in_game_order",
    "key_order", "made_in_turn", "parse_json", "read_as_written", "read_digested", "read_save",
    "save_data", "save_text", "structure",
]
