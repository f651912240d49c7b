"""A record's `disagree:` list: where another source gives one of its fields another
value (kept in the model for `engine validate --disagreements`).
"""
from __future__ import annotations

from engine.dsl.errors import did_you_mean
from engine.dsl.model import Disagreement, PackModel, Record, Site
from engine.dsl.pack.reader import PackReader, site_at
from engine.dsl.pack.values import plain, same, show_value
from engine.dsl.pack.words import DISAGREE_KEYS
from engine.dsl.yamlload import YList, YMap


class DisagreementReader(PackReader):
    """The `disagree:` lists of records."""

    def _disagree(self, model: PackModel, record: Record, rec: YMap, fields: list[str]) -> None:
        """A record's `disagree:` list: where another source gives a field another value.
        Shape E324, missing `field`/`source` E325, unknown field E326; an entry whose value
        is the record's own is no disagreement (W327). Good entries go to the model."""
        entries = rec.get("disagree")
        loc = rec.val_loc.get("disagree") or rec.key_loc["disagree"]
        if entries is None:
            return
        if not isinstance(entries, YList):
            self.error("E324", "'disagree' is a list of {field: ..., value: ..., source: ..., "
                       "note: ...}", site_at(loc))
            return
        for i, entry in enumerate(entries):
            item = site_at(entries.item_loc[i])
            if not isinstance(entry, YMap):
                self.error("E324", "a 'disagree' entry is a mapping {field: ..., value: ..., "
                           "source: ..., note: ...}", item)
                continue
            d = self._disagreement(record, entry, item, fields)
            if d is not None:
                model.disagreements.append(d)

    def _disagreement(self, record: Record, entry: YMap, item: Site, fields: list[str]
                      ) -> Disagreement | None:
        good = True
        for key in entry:
            if key not in DISAGREE_KEYS:
                self.error("E324", f"unknown key '{key}' in a 'disagree' entry",
                           site_at(entry.key_loc[key], str(key)),
                           did_you_mean(str(key), DISAGREE_KEYS))
                good = False
        for key in ("field", "source"):
            value = entry.get(key)
            if key not in entry:
                self.error("E325", f"a 'disagree' entry needs '{key}:' (" + (
                           "which field the sources disagree on)" if key == "field" else
                           "which source says otherwise)"), item)
                good = False
            elif not isinstance(value, str) or not value.strip():
                self.error("E325", f"'{key}' of a 'disagree' entry must be text",
                           site_at(entry.val_loc[key]))
                good = False
        note = entry.get("note")
        if note is not None and not isinstance(note, str):
            self.error("E324", "'note' of a 'disagree' entry must be text",
                       site_at(entry.val_loc["note"]))
            good = False
        field = entry.get("field")
        if isinstance(field, str) and field not in fields:
            self.error("E326", f"{record.type} has no field '{field}' to disagree on",
                       site_at(entry.val_loc["field"], field), did_you_mean(field, fields))
            good = False
        if not good or not isinstance(field, str):  # good: the field is text
            return None
        own, has_value = record.data.get(field), "value" in entry
        value = plain(entry.get("value"))
        if has_value and same(value, own):
            self.warn("W327", f"the 'disagree' entry gives {field} = {show_value(value)}, the "
                      f"{record.type}'s own value: that is no disagreement",
                      site_at(entry.val_loc["value"]), "give the other source's value, or "
                      "remove the entry")
            return None
        return Disagreement(record.id, record.type, field, own, value, has_value,
                            entry["source"].strip(), note.strip() if note else None,
                            record.site, item)

