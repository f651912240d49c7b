"""Games of an older server, kept as a folder of JSON files (`<game id>.json`, format
"engine-table/1"), brought into the database: `engine serve --import-dir DIR`.

Those files were written without a signature or an fsync, so each is trusted only as far as
a replay goes: its save is loaded with every action replayed (verify="replay"), and its move
history (who answered which decision with what) is rebuilt by playing the actions again
from the seed. A game already in the database is left as it is; a damaged file is named
with what is wrong, and the others are imported all the same.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import attrs

from engine.core.errors import EngineError, SaveError
from engine.core.game import Game
from engine.frontends.serve.store import Conflict, Move, StorageError, encode
from engine.frontends.serve.table import Refused, Table, check_seats, signed_move
from engine.frontends.serve.tables import GAME_ID, Tables

OLD_FORMAT = "engine-table/1"


@attrs.define
class Imported:
    """What an import did: the ids imported, those in the database already, and the
    files not imported with the reason."""

    imported: list[str] = attrs.Factory(list)
    present: list[str] = attrs.Factory(list)
    damaged: list[tuple[str, str]] = attrs.Factory(list)

    def summary(self, directory: str | os.PathLike[str]) -> str:
        lines = [f"imported {len(self.imported)} games from {directory} "
                 f"({len(self.present)} were in the database already, "
                 f"{len(self.damaged)} not imported)"]
        lines += [f"  {name}: {why}" for name, why in self.damaged]
        return "\n".join(lines)


def import_dir(tables: Tables, directory: str | os.PathLike[str]) -> Imported:
    """Import every game file of `directory` into `tables`' database."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"{directory} is not a folder of games")
    done = Imported()
    for path in sorted(directory.glob("*.json")):
        game_id = path.stem
        if not GAME_ID.fullmatch(game_id):
            done.damaged.append((path.name, "its name is not a game id (16 hex digits)"))
            continue
        try:
            if tables.store.read(game_id) is not None:
                done.present.append(game_id)
                continue
            table, moves = _read(tables, game_id, path)
            tables.store.create(table.row(tables.key), moves)
        except (ValueError, KeyError, TypeError, AttributeError, OSError, SaveError,
                EngineError) as err:
            done.damaged.append((path.name, str(err) or type(err).__name__))
            continue
        except Refused as err:
            done.damaged.append((path.name, err.message))
            continue
        except Conflict:
            done.present.append(game_id)
            continue
        except StorageError:
            raise  # the database itself: nothing more can be imported
        done.imported.append(game_id)
    return done


def _read(tables: Tables, game_id: str, path: Path) -> tuple[Table, list[Move]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != OLD_FORMAT:
        raise ValueError(f"not a {OLD_FORMAT} file")
    pack = tables.pack(data["pack"])
    seats, tokens = data["seats"], data.get("tokens", {})
    check_seats(pack, seats, tokens)
    lang = data.get("lang", "en")
    if not isinstance(lang, str):
        raise ValueError("its language is not a language code")
    game = Game.load(pack, data["save"], verify="replay", undo=False)
    when = path.stat().st_mtime
    # who answered which decision: the actions played again from the seed
    again = pack.new_game(game.seed, log=False, undo=False)
    moves = []
    for n, action in enumerate(game.actions):
        asked = again.decision
        moves.append(signed_move(tables.key, game_id,
                                 Move(n, asked.side, asked.id, encode(action), "imported",
                                      when)))
        again.apply(action)
    return Table(game_id, data["pack"], game, dict(seats), lang, when, dict(tokens)), moves
