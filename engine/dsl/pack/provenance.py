"""Provenance: where a pack's facts come from. `# source: ...` / `# reconstructed: ...`
lines above a rule, `source:` / `reconstructed:` on a record; with pack.yaml
`provenance: required`, every record and rule of the pack must say (E321, E322).
"""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl.errors import source_line
from engine.dsl.model import PackModel, Site
from engine.dsl.pack.reader import PackReader, Part, meta_get


class ProvenanceReader(PackReader):
    """Where the facts of records and rules come from."""

    def _part_provenance(self, model: PackModel, part: Part) -> None:
        """A pack's `provenance:` setting, for its own records and rules."""
        setting = meta_get(part.meta, "provenance")
        if setting == "required":
            self._require_provenance(model, part)
        elif setting not in (None, "optional") and part.via is None and part.meta is not None:
            self._at(part.meta, "provenance", "E304", "'provenance' is 'required' or 'optional'")

    def _require_provenance(self, model: PackModel, part: Part) -> None:
        """`provenance: required`: every record and rule of the pack `part` says where its
        facts come from."""
        for r in model.records.values():
            if self._owner.get(r.site.path) is not part:
                continue
            if not (r.data.get("source") or r.data.get("reconstructed")):
                self.error("E321", f"{r.type} '{r.id}' has neither 'source:' nor "
                           "'reconstructed:' (this pack requires provenance)", r.site)
        for path, line, what in model.unsourced_rules:
            if self._owner.get(path) is not part:
                continue
            self.error("E322", f"'{what}' has no '# source: ...' or '# reconstructed: ...' line "
                       "above it (this pack requires provenance)", Site(path, line, 1))

    def _provenance(self, model: PackModel, mod: A.Module) -> None:
        """Read `# source: ...` / `# reconstructed: ...` lines right above each declaration."""
        own_line = {line: text.lstrip("#").strip() for line, col, text in mod.comments
                    if col == 1 or not self._code_before(mod.path, line, col)}
        triggers = iter(t for t in model.triggers
                        if t.path == mod.path and t.record is None and t.window is None)
        for d in mod.decls:
            if isinstance(d, A.CheckDecl):
                continue
            # the key of the model's provenance, and how a message names the rule
            if isinstance(d, A.TriggerDecl):
                key, what = f"trigger {next(triggers).index}", f"{d.kind} {d.event}"
            elif isinstance(d, A.TypeDecl) and d.extend:
                key, what = f"extend {d.name}", f"extend type {d.name}"
            else:
                key = what = d.name
            notes, line = [], d.at.line - 1
            while line in own_line:
                notes.append(own_line[line])
                line -= 1
            found: list[str] = []  # a note goes on over the comment lines below it
            for n in reversed(notes):
                if n.startswith(("source:", "reconstructed:")):
                    found.append(n)
                elif found:
                    found[-1] += " " + n
            if found:
                model.provenance[key] = "; ".join(found)
            else:
                model.unsourced_rules.append((mod.path, d.at.line, what))

    def _code_before(self, path: str, line: int, col: int) -> bool:
        text = self.sources.get(path, "")
        return bool(source_line(text, line)[:col - 1].strip())

