"""How much of a pack its translations name: the records named per language (a name of their
own, or one derived by `names_from` from named records), as percentages (N510)."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.i18n.translations.files import DEFAULT_LANG, TranslationFile
from engine.i18n.translations.pack_info import PackInfo


def coverage(info: PackInfo, files: Iterable[TranslationFile]) -> dict[str, int]:
    """Percent of the pack's records that are named, per language (see `named_records`):
    English first, then the languages of `files` in order."""
    files = [tf for tf in files if tf.pack == info.id and tf.lang]
    langs = [DEFAULT_LANG] + sorted({tf.lang for tf in files if tf.lang} - {DEFAULT_LANG})
    total = len(info.records)
    out = {}
    for lang in langs:
        named = named_records(info, [tf for tf in files if tf.lang == lang], lang)
        out[lang] = 100 * len(named) // total if total else 100
    return out


def named_records(info: PackInfo, files: Iterable[TranslationFile], lang: str) -> set[str]:
    """The records named in `lang` by the given files of that language: by a `names:` or
    `terms:` entry, by their `name:` field (English), or derived (`names_from`) from
    records that are named themselves."""
    own = {rid for tf in files for section in ("names", "terms")
           for rid in tf.sections[section] if rid in info.records}
    if lang == DEFAULT_LANG:
        own |= info.english
    return own | derived_named(info.records, info.names_from, own)


def derived_named(records: dict[str, tuple[str, dict[str, Any]]],
                  names_from: dict[str, tuple[str, ...]], named: set[str]) -> set[str]:
    """Records without a name of their own whose `names_from` fields all refer to named
    records (derived names may build on derived names)."""
    waiting = {rid: [data.get(f) for f in names_from[rtype]]
               for rid, (rtype, data) in records.items()
               if rtype in names_from and rid not in named}
    out: set[str] = set()
    grew = True
    while grew:  # until no more names can be derived (chains of derived names)
        grew = False
        for rid, refs in list(waiting.items()):
            if all(r is not None and (r in named or r in out) for r in refs):
                out.add(rid)
                del waiting[rid]
                grew = True
    return out


def coverage_line(pack_id: str, cov: dict[str, int]) -> str:
    return f"{pack_id}: " + ", ".join(f"{lang} {pct}%" for lang, pct in cov.items())
