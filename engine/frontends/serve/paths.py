"""Where `engine serve` keeps its database and key by default: the user's data folder
(platformdirs: XDG on Linux, Application Support on macOS, AppData on Windows)."""
from __future__ import annotations

from pathlib import Path

APP = "engine-dsl"


def data_dir() -> Path:
    from platformdirs import user_data_path
    return user_data_path(APP, appauthor=False)


def default_db() -> Path:
    return data_dir() / "games.sqlite3"
