"""What a pack offers to translate (PackInfo): its records and their naming, its languages,
events, sentences and terms, as plain data the checks read (and validate caches)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.i18n.translations.sentences import compiled_template

if TYPE_CHECKING:
    from engine.dsl.model import PackModel


class PackInfo:
    """The parts of a pack model that translations refer to."""

    def __init__(self, model: PackModel, meta: dict[str, Any], root: Path | None = None,
                 partial: bool = False):
        self.id: str = model.id
        self.root = root
        # some of the pack's files could not be read (a syntax error, bad YAML): their
        # declarations are missing, so a name the translations use may well exist
        self.partial = partial
        # of each record, what naming it needs: its English name and its `names_from`
        # fields (plain data, so that validate can keep it in the build cache)
        self.records: dict[str, tuple[str, dict[str, Any]]] = {
            rid: (r.type, {k: r.data[k] for k in ("name", *model.names_from.get(r.type, ()))
                           if k in r.data}) for rid, r in model.records.items()}
        self.languages = [x for x in (meta.get("languages") or []) if isinstance(x, str)]
        self.events = {name: len(e.params) for name, e in model.events.items()}
        self.events.setdefault("setup", 0)
        # what the rules say in words: `log` texts, win reasons and prompts, each by the key
        # it has at play time (`message_key`) -> the number of its placeholders, and as
        # written in the rules (sentences alike but for their placeholders share a key)
        self.sentences: dict[str, int] = {}
        self.written: dict[str, list[str]] = {}
        bodies = [t.decl.body for t in model.triggers] + [p.body for p in model.procs.values()]
        bodies += [e.body for e in model.effects] + [w.body for w in model.windows.values()]
        _collect_sentences(bodies, self.sentences, self.written)
        self.terms = set(model.global_names()) - set(model.records)
        self.terms |= set(self.events) | set(model.sides) | set(model.windows)
        self.terms |= {f for t in model.types.values() for f in t.fields}
        # a field named apart on the records of one type (`card.ops`: "Ops" beside a card,
        # where the term `ops` is the glossary's "Operations (Ops)")
        self.terms |= {f"{name}.{f}" for name, t in model.types.items() for f in t.fields}
        self.terms |= {v.name for e in model.enums.values() for v in e.values}
        # an enum's value named apart from a rules name it shares (`mode.march`, the option,
        # beside the var `march`)
        self.terms |= {f"{name}.{v.name}" for name, e in model.enums.items() for v in e.values}
        # what may have a text besides a record: an enum's value a decision offers, bare or
        # named apart (`mode.march`), explained under the option
        self.enum_values = {v.name for e in model.enums.values() for v in e.values}
        self.enum_values |= {f"{name}.{v.name}" for name, e in model.enums.items()
                             for v in e.values}
        self.names_from: dict[str, tuple[str, ...]] = dict(model.names_from)
        self.english: set[str] = {rid for rid, (_t, data) in self.records.items()
                                  if data.get("name")}

    @classmethod
    def of(cls, pack: Any) -> PackInfo:
        """From a compiled pack (engine.core.loader.CompiledPack)."""
        return cls(pack.model, pack.meta, pack.root)


def _collect_sentences(node: Any, out: dict[str, int], written: dict[str, list[str]]
                       ) -> None:
    import attrs

    from engine.dsl import ast as A
    stack = [node]
    while stack:
        n = stack.pop()
        text: str | None = None
        args: tuple[Any, ...] = ()
        inline = True
        if isinstance(n, A.Log):  # values after the text: the text is kept as it is
            text, args, inline = n.message, n.args, n.inline
        elif isinstance(n, (A.Win, A.EndGame)):
            text, args = n.reason, n.args
        elif isinstance(n, (A.Choose, A.Ask)):
            text, args = n.prompt, n.prompt_args
        if text is not None:
            key = compiled_template(text) if inline else text
            out.setdefault(key, len(args))
            if text not in written.setdefault(key, []):
                written[key].append(text)
        if isinstance(n, (tuple, list)):
            stack.extend(n)
        elif attrs.has(type(n)):
            for f in attrs.fields(type(n)):
                if f.name != "at":
                    stack.append(getattr(n, f.name))
