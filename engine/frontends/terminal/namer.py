"""Values as the board names them: a record of a type in board `show:` by its name and those
fields ("Spearmen (strength 3, veteran)"), anything else by its name in the catalog."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.i18n.translations import Catalog


class Namer:
    """Values as the board names them: a record of a type in board `show:` is its name and
    those fields ("Spearmen (strength 3, veteran)"; a path `a.b` is said after the name of
    the record `a` names: "Spearmen (Front: cost 2)"); anything else its name in the
    catalog. `fields` are the record fields in play the side sees (the view's)."""

    def __init__(self, cat: Catalog, show: dict[str, list[str]] | None = None,
                 fields: dict[str, dict[str, Any]] | None = None) -> None:
        self.cat = cat
        self.show = show or {}
        self.fields = fields or {}
        self._details: dict[str, str] = {}  # a record's details, said once per Namer

    def __call__(self, value: Any) -> str:
        if isinstance(value, list) and value and self.show:
            named = [self(item) for item in value]
            if any(isinstance(item, str) and self.details(item) for item in value):
                return "; ".join(named)  # the fields' commas are inside each
            return self.cat.value(value)
        if isinstance(value, str) and self.show:
            details = self.details(value)
            if details:
                return f"{self.cat.value(value)} ({details})"
        return self.cat.value(value)

    def _rec(self, rid: str) -> dict[str, Any]:
        pack = self.cat.pack
        return {**pack.records.get(rid, {}), **self.fields.get(rid, {})}

    def _type(self, rid: str) -> str | None:
        record = self.cat.pack.model.records.get(rid)
        if record is not None:
            rtype: str = record.type
            return rtype
        kind, hash_, _ = rid.partition("#")  # a record made in play
        return kind if hash_ else None

    def details(self, rid: str) -> str:
        """The `show:` fields of the record `rid`, or "" (none shown, or not a record)."""
        said = self._details.get(rid)
        if said is None:
            said = self._details[rid] = self._say_details(rid)
        return said

    def _say_details(self, rid: str) -> str:
        paths = self.show.get(self._type(rid) or "")
        if not paths:
            return ""
        own: list[str] = []
        through: dict[str, list[str]] = {}  # by the record a path goes through
        for path in paths:
            *heads, last = path.split(".")
            reached: Any = rid  # the record the path has led to so far
            for head in heads:
                reached = self._rec(reached).get(head)
                if not isinstance(reached, str):
                    break
            else:
                text = self._field(self._type(reached), last, self._rec(reached).get(last))
                if text:
                    (through.setdefault(reached, []) if heads else own).append(text)
        parts = [", ".join(own)] if own else []
        parts += [f"{self.cat.value(rid)}: {', '.join(texts)}"
                  for rid, texts in through.items()]
        return "; ".join(parts)

    def _field(self, rtype: str | None, field: str, value: Any) -> str:
        """A field of a record of type `rtype` as said after a name: a true bool by its
        term, a number or a name after it; nothing for false and none."""
        if value is None or value is False:
            return ""
        term = self.cat.field_term(rtype, field)
        if value is True:
            return term
        return f"{term} {self.cat.value(value)}"
