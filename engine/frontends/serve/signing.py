"""The server's key, and the signatures that make a stored game trusted.

A game's row is loaded with the save's digest checked only, without a replay (a replay of
a long game costs seconds): that is sound only for rows the server itself wrote.
So each row is signed with HMAC-SHA256 under a key the server makes on its first start
and keeps beside the database, readable by its owner only (mode 0600); a row or file
edited by anybody else fails to load, with a message saying so.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import sys
from pathlib import Path
from typing import Any

KEY_BYTES = 32


class KeyFileError(Exception):
    """The key file cannot be made or read: the message says which and why."""


def load_or_make_key(path: str | Path) -> bytes:
    """The key in `path`, made there (mode 0600, its folder too) when there is none."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w", encoding="ascii") as fh:
                fh.write(secrets.token_hex(KEY_BYTES) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            print(f"engine serve: warning: the key {path} can be read by others (mode "
                  f"{mode:o}); anyone who reads it can forge stored games: chmod 600 it",
                  file=sys.stderr)
        text = path.read_text(encoding="ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, ValueError, UnicodeDecodeError) as err:
        raise KeyFileError(f"the server key {path} cannot be used: {err}") from None
    if len(key) < 16:
        raise KeyFileError(f"the server key {path} is too short ({len(key)} bytes)")
    return key


def sign(key: bytes, fields: tuple[Any, ...]) -> str:
    """The signature of a row's fields (strings and whole numbers), in hex."""
    mac = hmac.new(key, digestmod=hashlib.sha256)
    for value in fields:
        data = str(value).encode("utf-8")
        # each field with its length first, so no two rows' fields run together alike
        mac.update(len(data).to_bytes(8, "big"))
        mac.update(data)
    return mac.hexdigest()


def verify(key: bytes, fields: tuple[Any, ...], signature: str) -> bool:
    return hmac.compare_digest(sign(key, fields), signature)
