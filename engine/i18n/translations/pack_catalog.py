"""A pack's words in one language at play time (Catalog): the names of its records, its terms
and its sentences' templates from its translation files, with their fallbacks (English, the
record's id), and the log entries, values and results rendered with them and the engine's own
words (engine.i18n)."""
from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.i18n import N_, tr, translator
from engine.i18n.translations.coverage import derived_named
from engine.i18n.translations.files import (
    DEFAULT_LANG,
    SECTIONS,
    TEXT_FIELDS,
    name_parts,
    read_translation,
    translation_dirs,
    translation_files,
)
from engine.i18n.translations.sentences import Count, message_key, numbered_text

TEXT_JOIN = " / "  # between the texts a record's text is made of (a card's two halves)
NAME_JOIN = " – "  # between the names of a derived name (`names_from` with several fields)


class Catalog:
    """Names, terms and message templates of one pack in one language, with fallbacks."""

    def __init__(self, pack: Any, lang: str, dirs: list[Path] | None = None):
        self.pack = pack
        self.lang = lang
        self.dirs = translation_dirs(getattr(pack, "root", None)) if dirs is None else dirs
        self._tables: dict[str, dict[str, dict[str, str]]] = {}
        self._deriving: set[str] = set()  # records whose derived name is being made
        self._named: set[str] | None = None  # records named in this language (is_named)
        self._enums: dict[str, list[str]] | None = None  # enum value -> its `enum.value` ids

    def _table(self, lang: str) -> dict[str, dict[str, str]]:
        table = self._tables.get(lang)
        if table is None:
            table = {s: {} for s in SECTIONS}
            for p in self._files(lang):
                tf = read_translation(p)
                for section in SECTIONS:
                    for key, e in tf.sections[section].items():
                        text = e.text
                        if section == "messages":  # by the key the game logs it with
                            key = message_key(key)
                            try:
                                text = numbered_text(text, e.key)
                            except ValueError:
                                pass  # engine validate reports it (E506)
                        table[section].setdefault(key, text)
            self._tables[lang] = table
        return table

    def _files(self, lang: str) -> list[Path]:
        """The pack's translation files in `lang` (one file, or several parts), in order,
        then those of the packs it imports (names of their records, their terms)."""
        ids = [self.pack.id, *reversed(getattr(self.pack.model, "imports", []))]
        # (translation_files of a pack gives only files whose names have its parts)
        return [p for pid in ids for d in self.dirs for p in translation_files(Path(d), pid)
                if (name_parts(p) or ("", ""))[1] == lang]

    def has_language(self, lang: str | None = None) -> bool:
        return bool(self._files(lang or self.lang))

    def _chain(self) -> list[str]:
        return [self.lang] if self.lang == DEFAULT_LANG else [self.lang, DEFAULT_LANG]

    def own_name(self, rid: str, lang: str | None = None) -> str | None:
        """The record's name in `lang` (default: this catalog's) itself: its `names:` entry,
        its `terms:` entry (glossary records), or in English its `name:` field. None when it
        has none there; nothing is derived and nothing falls back."""
        lang = lang or self.lang
        table = self._table(lang)
        got = table["names"].get(rid)
        if got is None:
            got = table["terms"].get(rid)
        if got is None and lang == DEFAULT_LANG:
            data = self.pack.records.get(rid)
            if data and data.get("name"):
                got = str(data["name"])
        return got

    def derived_name(self, rid: str) -> str | None:
        """For a record whose type is in pack.yaml `names_from`: the names (in this
        language) of the records its fields refer to, joined with " – "; else None."""
        refs = self._name_refs(rid)
        if refs is None or any(not isinstance(r, str) for r in refs):
            return None
        self._deriving.add(rid)
        try:
            return NAME_JOIN.join(self.name(r) for r in refs)
        finally:
            self._deriving.discard(rid)

    def _name_refs(self, rid: str) -> list[Any] | None:
        """What a record of a `names_from` type refers to in those fields (ids, or None for
        an empty optional field); None for other records and for one whose derived name is
        being made (a cycle)."""
        rec = self.pack.model.records.get(rid)
        fields = self.pack.model.names_from.get(rec.type) if rec is not None else None
        if not fields or rid in self._deriving:
            return None
        return [self.pack.records[rid].get(f) for f in fields]

    def name(self, rid: str) -> str:
        """The record's name in this language: its own, else derived (`names_from`), else
        its English name, else its id."""
        got = self.own_name(rid)
        if got is None:
            got = self.derived_name(rid)
        if got is None and self.lang != DEFAULT_LANG:
            got = self.own_name(rid, DEFAULT_LANG)
        return rid if got is None else got

    def own_text(self, rid: str, lang: str | None = None) -> str | None:
        """The record's rules text (a card's event) in `lang` itself: its `texts:` entry,
        or in English its `text` (else `event`) field of type text. None when it has none there."""
        lang = lang or self.lang
        got = self._table(lang)["texts"].get(rid)
        if got is None and lang == DEFAULT_LANG:
            data = self.pack.records.get(rid) or {}
            fields = self._text_fields(rid)
            got = next((str(data[f]) for f in fields
                        if isinstance(data.get(f), str) and data[f].strip()), None)
        return got

    def _text_fields(self, rid: str) -> list[str]:
        """The record's fields of TEXT_FIELDS declared as `text` (an `event:` written in the
        rules language, an effect, is no text)."""
        model = getattr(self.pack, "model", None)
        rec = model.records.get(rid) if model is not None else None
        if model is None or rec is None or rec.type not in model.types:
            return []
        info = model.types[rec.type]
        return [f for f in TEXT_FIELDS
                if f in info.fields and str(info.fields[f].type) == "text"]

    def text(self, rid: str) -> str:
        """The record's rules text in this language, else in English; "" when it has none.
        A record without a text of its own has those of the records its fields refer to
        (a battle card's kind; a card's two halves, each after its name and a colon), the
        glossary terms among them left out."""
        got = self._own_text_any(rid)
        if got is not None:
            return got
        data = self.pack.records.get(rid) or {}
        # a field that names a glossary term (a space's kind, a leader's office) says what
        # the record is, not what it does: its definition is no text of the record's
        refs = [v for k, v in data.items() if k not in ("id", "type") and isinstance(v, str)
                and v != rid and v in self.pack.records and not self._is_term(v)]
        texts = [(ref, got) for ref in dict.fromkeys(refs)
                 for got in [self._own_text_any(ref)] if got]
        if len(texts) == 1:
            return texts[0][1]
        return TEXT_JOIN.join(f"{self.name(ref)}: {got}" for ref, got in texts)

    def _is_term(self, rid: str) -> bool:
        """Is the record a glossary term (of a type of pack.yaml `glossary:`)?"""
        model = getattr(self.pack, "model", None)
        rec = model.records.get(rid) if model is not None else None
        return rec is not None and rec.type in getattr(model, "glossary", ())

    def _own_text_any(self, rid: str) -> str | None:
        """The record's own text in this language, else in English (nothing derived)."""
        for lang in self._chain():
            got = self.own_text(rid, lang)
            if got is not None:
                return got
        return None

    def is_named(self, rid: str) -> bool:
        """Named in this language: a name of its own, or a derived name whose records are
        all named (the rule `engine validate` counts as coverage, `derived_named`)."""
        if self._named is None:
            records = {i: (r.type, self.pack.records[i])
                       for i, r in self.pack.model.records.items()}
            own = {i for i in records if self.own_name(i) is not None}
            self._named = own | derived_named(records, self.pack.model.names_from, own)
        return rid in self._named

    def term(self, tid: str) -> str:
        """A rules term in this language, falling back to English, then (for a glossary
        record) to its name, then to the id made readable (`readable`)."""
        for lang in self._chain():
            got = self._table(lang)["terms"].get(tid)
            if got is not None:
                return got
        if tid in self.pack.records:
            return self.name(tid)
        return readable(tid)

    def field_term(self, rtype: str | None, field: str) -> str:
        """A field of a record of type `rtype` in this language: the term `rtype.field` (a
        field named apart on that type's records), else the field's own term; then the same
        in English."""
        ids = (field,) if rtype is None else (f"{rtype}.{field}", field)
        return self._first_term(ids) or self.term(field)

    def _first_term(self, ids: Iterable[str]) -> str | None:
        """The term of the first of `ids` this language names, else the same in English."""
        for lang in self._chain():
            terms = self._table(lang)["terms"]
            for tid in ids:
                got = terms.get(tid)
                if got is not None:
                    return got
        return None

    def message(self, key: str) -> str | None:
        for lang in self._chain():
            got = self._table(lang)["messages"].get(key)
            if got is not None:
                return got
        return None

    def term_ids(self) -> list[str]:
        """Every term id any language file of the pack (or of a pack it imports) gives."""
        ids: set[str] = set()
        for pid in [self.pack.id, *getattr(self.pack.model, "imports", [])]:
            for d in self.dirs:
                for p in translation_files(Path(d), pid):
                    ids.update(read_translation(p).terms)
        return sorted(ids)

    # ---- rendering values and log entries ------------------------------------------------------
    def value(self, v: Any) -> str:
        if v is None:
            return "?"
        if isinstance(v, bool):
            # i18n: the value of a true/false var or field
            return tr(self.lang, "yes") if v else tr(self.lang, "no")
        if isinstance(v, str):
            record = self.record_of(v)
            if record is not None:
                return self.name(record)
            if v in self.pack.side_set:  # a side first: values are plain text
                return self.term(v)
            if v in self._enum_values():  # its term, or the term of `enum.value` (below)
                return self._enum_term(v)
            kind, hash_, serial = v.partition("#")
            if hash_ and serial.isdigit() and kind in getattr(self.pack, "created", ()):
                return self.term(kind)  # a piece made in play: its kind, not its serial id
            return v
        if isinstance(v, (list, tuple)):
            # i18n: an empty list of cards or pieces
            return _counted([self.value(x) for x in v]) if v else tr(self.lang, "nothing")
        if isinstance(v, int):  # a count: a sentence may choose its plural form by it
            return Count(v, self.lang)
        return str(v)

    def record_of(self, v: Any) -> str | None:
        """The record a value stands for: a record's id, or a plain word a decision offers
        that spells one with underscores (`'pick up'` -> the glossary term `pick_up`); None
        for anything else."""
        if not isinstance(v, str):
            return None
        if v in self.pack.records:
            return v
        spelled = "_".join(v.split())
        return spelled if spelled != v and spelled in self.pack.records else None

    def option_text(self, v: Any) -> str:
        """What an option does, in this language (else English; "" if nothing says): the
        text of the record it is or spells (a card's event, a glossary term's definition),
        else the `texts:` entry of the enum value it is (`mode.march`, else
        `march`: as `_enum_term` names it)."""
        record = self.record_of(v)
        if record is not None:
            return self.text(record)
        if isinstance(v, str) and v in self._enum_values():
            ids = (*self._enum_values()[v], v)
            for lang in self._chain():
                texts = self._table(lang)["texts"]
                got = next((texts[i] for i in ids if i in texts), None)
                if got is not None:
                    return got
        return ""

    def _enum_values(self) -> dict[str, list[str]]:
        if self._enums is None:
            enums = getattr(getattr(self.pack, "model", None), "enums", {})
            self._enums = {}
            for name, e in enums.items():
                for v in e.values:
                    self._enums.setdefault(v.name, []).append(f"{name}.{v.name}")
        return self._enums

    def _enum_term(self, v: str) -> str:
        """An enum's value in this language: the term `enum.value` (a value named apart from
        a var or field of the same name), else its own term; then the same in English."""
        return self._first_term((*self._enum_values()[v], v)) or self.term(v)

    def zone(self, key: str | None) -> str:
        if key is None:
            return tr(self.lang, "nowhere")
        name, *args = key.split("|")
        shown = self.term(name)
        return f"{shown} ({', '.join(self.value(a) for a in args)})" if args else shown

    def var(self, name: str, key: str) -> str:
        shown = self.term(name)
        return f"{shown} ({', '.join(self.value(a) for a in key.split('|'))})" if key else shown

    def render(self, entry: dict[str, Any]) -> str:
        """A log entry as a line of text: the pack's words from its translations, the
        engine's own from its gettext catalogue (engine.i18n), both in this language."""
        kind = entry.get("t")
        lang = self.lang
        if kind in ("event", "say"):
            key: str = entry["n"] if kind == "event" else entry["m"]
            args = [self.value(a) for a in entry.get("a", [])]
            template = self.message(key)
            if template is not None:
                try:
                    return template.format(*args)
                except (IndexError, KeyError, ValueError):
                    pass
            if kind == "say":
                if "{" in key:
                    try:
                        return key.format(*args)
                    except (IndexError, KeyError, ValueError):
                        pass
                return f"{key}: {', '.join(args)}" if args else key
            return f"{self.term(key)}: {', '.join(args)}" if args else self.term(key)
        if kind == "move":
            what = (tr(lang, "a hidden card") if entry.get("e") is None
                    else self.value(entry["e"]))
            if entry.get("from") is None:
                return tr(lang, "{what} -> {target}", what=what, target=self.zone(entry["to"]))
            return tr(lang, "{what}: {source} -> {target}", what=what,
                      source=self.zone(entry["from"]), target=self.zone(entry["to"]))
        if kind == "choice":
            who = self.value(entry["side"])
            if "v" not in entry:
                return tr(lang, "{side} decided", side=who)
            chosen = entry["v"]
            if chosen is None:
                return tr(lang, "{side} passed", side=who)
            # i18n: side: a side's name; choice: what it chose (names, or a number)
            return tr(lang, "{side} chose {choice}", side=who, choice=self.value(chosen))
        if kind == "set":
            return tr(lang, "{var} = {value}", var=self.var(entry["n"], entry["k"]),
                      value=self.value(entry["v"]))
        if kind in ("create", "destroy"):  # a record made in play, or one leaving the game
            what = (tr(lang, "a hidden piece") if entry.get("e") is None
                    else self.value(entry["e"]))
            where = entry.get("to" if kind == "create" else "from")
            if where is None:  # i18n: a piece put into play, or taken out of the game
                return (tr(lang, "{what} made", what=what) if kind == "create"
                        else tr(lang, "{what} destroyed", what=what))
            zone = self.zone(where)
            return (tr(lang, "{what} made ({zone})", what=what, zone=zone) if kind == "create"
                    else tr(lang, "{what} destroyed ({zone})", what=what, zone=zone))
        if kind == "setf":
            # i18n: a field of a card or piece changed: "strength (red army) = 3"
            return tr(lang, "{field} ({record}) = {value}", field=self.term(entry["f"]),
                      record=self.value(entry["e"]), value=self.value(entry["v"]))
        if kind == "shuffle":
            return tr(lang, "{zone} shuffled", zone=self.zone(entry["z"]))
        if kind == "reveal":
            what = tr(lang, "a card") if entry.get("e") is None else self.value(entry["e"])
            to = entry.get("to")
            if to:
                return tr(lang, "{what} revealed to {side}", what=what, side=self.value(to))
            return tr(lang, "{what} revealed", what=what)
        if kind == "roll":
            dice = entry.get("dice", [])
            if len(dice) == 1:
                return tr(lang, "rolled {die}", die=dice[0])
            # i18n: dice: the dice rolled, as in "3 + 5"; total: their sum
            return tr(lang, "rolled {dice} = {total}", dice=" + ".join(map(str, dice)),
                      total=sum(dice))
        if kind == "end":
            winner = entry.get("winner")
            over = (tr(lang, "game over: {side} wins", side=self.value(winner)) if winner
                    else tr(lang, "game over: no winner"))
            if "m" in entry:  # the rule's reason, rendered like a log line
                # i18n: a result and the reason the rules give for it
                over = tr(lang, "{result} ({reason})", result=over, reason=self.render(
                    {"t": "say", "m": entry["m"], "a": entry["a"]}))
            return over
        if kind == "trigger":
            # i18n: a rule's trace line: the rule's name, the event it answers
            return tr(lang, "(rule {rule} for {event})", rule=entry.get("f"),
                      event=self.term(entry.get("n", "")))
        if kind == "done":
            return tr(lang, "(end of {event})", event=self.term(entry.get("n", "")))
        return json.dumps(entry, sort_keys=True, default=str)


    def reason(self, reason: str | None, log: Iterable[dict[str, Any]] = ()) -> str:
        """Why the game ended, in this language: the reason the rules gave (kept as a
        template in the log's end entry), else the engine's own (`Result.reason`); "" when
        the rule that ended the game gave none."""
        end = next((e for e in reversed(list(log)) if e.get("t") == "end"), None)
        if end is not None and "m" in end:
            return self.render({"t": "say", "m": end["m"], "a": end.get("a", [])})
        if end is not None or reason == NO_REASON:
            return ""
        if reason in ENGINE_REASONS:  # marked below
            return translator(self.lang).gettext(reason)
        return reason or ""

    def outcome(self, winner: str | None, reason: str = "") -> str:
        """Who won and why ("Red wins (Blue has no cards left)", "Red wins" without a
        reason, "no winner"), in this language."""
        lang = self.lang
        if winner:
            if not reason:
                return tr(lang, "{side} wins", side=self.value(winner))
            return tr(lang, "{side} wins ({reason})", side=self.value(winner), reason=reason)
        if not reason:
            return tr(lang, "no winner")
        return tr(lang, "no winner ({reason})", reason=reason)


# the reasons engine.core.runtime gives a result when the rules give none
ENGINE_REASONS = (
    N_("no rule left to run"),
)
NO_REASON = "rule"  # a result's reason when the rule that ended the game gave none: not shown

_CATALOGS: dict[tuple[int, str], Catalog] = {}


def readable(word: str) -> str:
    """A word or id no language names, as a person reads it: `step_back` -> `step back`,
    `go_home` -> `go home` (underscores and runs of spaces become one space)."""
    return " ".join(word.replace("_", " ").split()) or word


def catalog(pack: Any, lang: str = DEFAULT_LANG) -> Catalog:
    """The (cached) catalog of a loaded pack in `lang`."""
    key = (id(pack), lang)
    cat = _CATALOGS.get(key)
    if cat is None or cat.pack is not pack:
        cat = _CATALOGS[key] = Catalog(pack, lang)
    return cat


def _counted(labels: list[str]) -> str:
    """Labels in order, a run of equal ones said once with its count ("8 × CU")."""
    out: list[str] = []
    i = 0
    while i < len(labels):
        j = i
        while j < len(labels) and labels[j] == labels[i]:
            j += 1
        out.append(labels[i] if j - i == 1 else f"{j - i} × {labels[i]}")
        i = j
    return ", ".join(out)


def render_log_entry(entry: dict[str, Any], pack: Any, lang: str = DEFAULT_LANG) -> str:
    """One log entry as a line of text in `lang` (generic English where untranslated)."""
    return catalog(pack, lang).render(entry)
