"""The public format: what a front-end reads from the engine and sends to it, as types.

Everything here is plain JSON at run time (`Game.view(side)` returns a dict, a save is JSON
text); these TypedDicts say which keys there are and what each means, so that a front-end
(a web page, a bot, an OpenSpiel or PettingZoo adapter) can rely on them. Each key's type
is `Annotated[type, Doc("what a front-end reads there")]`: `engine schema --api` writes the
JSON Schema of the whole format from them (engine.core.schema), and `engine schema --api
--markdown` the reference in docs/api.md.

`structure(data, View)` checks a value against a type and returns it unchanged, or raises
`FormatError` saying where it is wrong ("$.decision.id: expected a whole number, got
'7'"); the same for `Action`, `LogEntry`, `Save` ...

`FORMAT_VERSION` (in every view and save) changes whenever the format does: a key added,
removed or read differently. It counts on from the save format "engine-save/2", the first
one published.
"""
from __future__ import annotations

import functools
import types
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, TypedDict, Union

import attrs

from engine.core.saves import FORMAT_VERSION, SAVE_FORMAT
from engine.core.views import decision_data, json_converter, result_data

if TYPE_CHECKING:  # (imported where used: the format's types need no game)
    from engine.core.decisions import Decision as DecisionClass

__all__ = ["FORMAT_VERSION", "SAVE_FORMAT", "Doc", "FormatError", "structure", "View",
           "Decision", "DecisionSeen", "Pick", "HiddenZone", "Result", "Action", "Option",
           "LogEntry", "Save", "BoardMap", "MapSpace", "MapGroup", "MapLink", "MapBox",
           "TYPES", "KINDS", "decision_data", "decision_of", "result_data"]

# FORMAT_VERSION and SAVE_FORMAT as the types of their keys, written out, since mypy reads
# a Literal of a literal only (tests/test_api_format.py validates real views and saves
# against them)
FormatVersion = Literal[2]
SaveFormat = Literal["engine-save/2"]


@attrs.frozen
class Doc:
    """What a front-end reads in a key (PEP 727 style, inside `Annotated`)."""
    text: str


# ---- values -------------------------------------------------------------------------------------
Option = Annotated[Union[str, int, bool, None, list[Any]], Doc(
    "One option of a decision, as the rules offer it: a record, side or enum value by its id "
    "(text: `pack.name_of(id, lang)` names it), a whole number, true/false, a text, or a list "
    "of these.")]
Id = Annotated[str, Doc("An id: a record (`card_07`, a record made in play `unit#3`), a "
                        "side, or an enum value; `pack.name_of(id, lang)` names it.")]
Card = Annotated[Union[str, None], Doc(
    "A record's id, or null where the viewer may not see which record it is.")]
Action = Annotated[Any, Doc(
    "An answer to the decision, sent with `Game.apply(action, side=, decision=)`: for kind "
    "`one` one of the options (null when `optional`, or to pass a response window); for "
    "`many` a list of `min`..`max` distinct options; for `ask` true or false; for `order` "
    "every option once, in the order wanted. `legal_actions` lists them all (for `many` "
    "and `order` only those a condition allows).")]


class Pick(TypedDict):
    """A pick of a one-at-a-time choice (`choose ... one at a time`): the decision is then
    kind `one`, each answer picks one more, and null (when `optional`) means "done"."""
    picked: Annotated[list[Option], Doc("The options picked so far, in order.")]
    min: Annotated[int, Doc("How many the whole choice takes at least.")]
    max: Annotated[int, Doc("How many the whole choice takes at most.")]


class Decision(TypedDict):
    """The decision the viewing side must answer (`view["decision"]` when
    `view["decision"]["side"]` is the viewer): `Game.decision` (an attrs class with the
    same fields) as JSON. The kind says what answers it (see `Action`)."""
    side: Annotated[str, Doc("The side that decides: the viewer.")]
    kind: Annotated[Literal["one", "many", "ask", "order"], Doc(
        "`one`: choose one option; `many`: choose `min`..`max` of them; `ask`: yes or no; "
        "`order`: put all options in an order.")]
    options: Annotated[list[Option], Doc(
        "What may be chosen (for `ask`: `[true, false]`; for `order`: what to put in order).")]
    min: Annotated[int, Doc("`many`: the fewest options to choose (else 1, or for `order` "
                            "the number of options).")]
    max: Annotated[int, Doc("`many`: the most options to choose (else as `min`).")]
    optional: Annotated[bool, Doc("`one`: null (choose nothing) is an answer too.")]
    prompt: Annotated[Union[str, None], Doc(
        "The question, as a translation key of the pack (or its English text) with numbered "
        "placeholders `{0}`, `{1}` filled from `args`, where `{2:# CU|# CUs}` is a count "
        "with its plural forms (`#` is the number; English gives one|other, a translation "
        "its language's forms: `engine.i18n.translations.fill` renders one); null: none "
        "given.")]
    id: Annotated[int, Doc(
        "The decision's number in this game: send it back as `decision=` so that a late "
        "answer (to a decision already answered) is refused instead of applied.")]
    window: Annotated[Union[str, None], Doc(
        "The response window this `one` decision opens (null for any other decision): it is "
        "asked even with no options, and null (pass) always answers it.")]
    args: Annotated[Union[list[Option], None], Doc(
        "The values of the prompt's placeholders (records by id), or null.")]
    each: Annotated[Union[Pick, None], Doc(
        "For a pick of a one-at-a-time choice, the whole choice so far; else null.")]
    idle: Annotated[list[Option], Doc(
        "The options whose choice would do nothing now, as the rules judge it (`no effect "
        "when`; a `one` decision only): a front-end says so beside them (the engine's words "
        "\"no effect now\"), and the shipped bots choose one only when every answer is one. "
        "Empty for none.")]


class DecisionSeen(TypedDict):
    """Another side's decision, as the viewer sees it: who decides and the kind, never the
    options (they may be cards in a hidden hand). For a response window also its name and
    prompt (the same whatever the decider holds)."""
    side: Annotated[str, Doc("The side that decides now.")]
    kind: Annotated[Literal["one", "many", "ask", "order"], Doc("The decision's kind.")]
    window: NotRequired[Annotated[str, Doc("The response window it opens (only for a "
                                           "window).")]]
    prompt: NotRequired[Annotated[Union[str, None], Doc(
        "The window's prompt (only for a window), as in `Decision.prompt`.")]]


class HiddenZone(TypedDict):
    """A zone the viewer may not look into (a hidden deck, another side's private hand)."""
    count: Annotated[int, Doc("How many records lie in it.")]
    revealed: Annotated[list[Id], Doc(
        "Those of them revealed to the viewer (e.g. shown by a rule), in zone order.")]


class Result(TypedDict):
    """How the game ended (`Game.result` as JSON)."""
    winner: Annotated[Union[str, None], Doc("The side that won; null: a draw or no one.")]
    reason: Annotated[str, Doc("Why, in the pack's own language (the log's `end` entry "
                               "carries it as a template, for other languages).")]


# ---- the board's geometry --------------------------------------------------------------------
class MapSpace(TypedDict):
    """A place of the map (a record of pack.yaml `board: map: places:`)."""
    id: Annotated[str, Doc("The place's record id, as views and decisions name it.")]
    name: Annotated[str, Doc("Its name for people, in the language asked for.")]
    x: Annotated[Union[int, None], Doc(
        "Where to draw it: 0 (left) .. 1000 (right) on the board canvas; null where the pack "
        "gives no `position:` field.")]
    y: Annotated[Union[int, None], Doc("0 (top) .. 1000 (bottom); null as for `x`.")]
    group: Annotated[Union[str, None], Doc(
        "The id of its group (`map: group:`, e.g. its province; `groups` names it), to "
        "shade by; null if none.")]


class MapLink(TypedDict):
    """A connection between two places (`map: links:`)."""
    id: Annotated[str, Doc("The connection's record id.")]
    a: Annotated[str, Doc("The id of one place it joins.")]
    b: Annotated[str, Doc("The id of the other.")]
    kind: Annotated[Union[str, None], Doc(
        "Its kind (`links: kind:`, an enum value: a front-end draws each kind its own way); "
        "null where the pack gives no kind.")]
    kind_name: Annotated[Union[str, None], Doc("The kind's name for people; null as `kind`.")]


class MapBox(TypedDict):
    """An off-map place (`map: boxes:`), drawn as a labelled rectangle."""
    id: Annotated[str, Doc("A zone's name or a place's id.")]
    name: Annotated[str, Doc("Its name for people.")]
    kind: Annotated[Literal["zone", "place"], Doc(
        "`zone`: a zone of the pack (its key in a view's `zones` is this id); `place`: a "
        "place of the map, also among `spaces`.")]
    x: Annotated[Union[int, None], Doc(
        "Where to draw it (a place's position, a zone's `at:`); null: the front-end lays "
        "it out.")]
    y: Annotated[Union[int, None], Doc("As `x`.")]


class MapGroup(TypedDict):
    """A group of places (a province, a region)."""
    id: Annotated[str, Doc("The group's record id (a space's `group`).")]
    name: Annotated[str, Doc("Its name for people.")]


class BoardMap(TypedDict):
    """The geometry of a pack's map for a front-end to draw (`pack.board_map(lang)`): it is
    the same in every game of the pack, so a front-end reads it once, not with every view.
    Positions lie on a 1000 x 1000 canvas, x rightwards and y downwards."""
    places: Annotated[str, Doc("The record type of the places (`map: places:`).")]
    spaces: Annotated[list[MapSpace], Doc("Every place, in the pack's order.")]
    groups: Annotated[list[MapGroup], Doc("The groups the places belong to, in order.")]
    links: Annotated[list[MapLink], Doc("Every connection; empty without `map: links:`.")]
    boxes: Annotated[list[MapBox], Doc("The off-map boxes; empty without `map: boxes:`.")]


# ---- log entries --------------------------------------------------------------------------------
# `Game.log` (the host's log) has every entry; a view's log leaves out what the side may not
# see (trigger traces; other sides' choices' values; vars and fields it cannot see) and hides
# cards it could not see as null. `at` keys are in the host's log only.
_AT = Doc("Host log only (never in a view): where each argument lay (zone keys), so that a "
          "view can hide the cards its side could not see.")


class EventEntry(TypedDict):
    """An event started (`emit`); a `done` entry with its name ends it."""
    t: Annotated[Literal["event"], Doc("`event`")]
    n: Annotated[str, Doc("The event's name (`pack.name_of(n)`: its term).")]
    a: Annotated[list[Any], Doc("Its arguments; a card the viewer could not see is null.")]
    at: NotRequired[Annotated[list[Any], _AT]]


class DoneEntry(TypedDict):
    """An event ended (its triggers and its queue have run)."""
    t: Annotated[Literal["done"], Doc("`done`")]
    n: Annotated[str, Doc("The event's name.")]


class TriggerEntry(TypedDict):
    """Host log only: a rule ran (for designers' traces; never in a view, since a
    trigger's condition may read a hidden hand)."""
    t: Annotated[Literal["trigger"], Doc("`trigger`")]
    f: Annotated[str, Doc("The generated function of the rule.")]
    n: Annotated[str, Doc("The event it answered.")]


class ChoiceEntry(TypedDict):
    """A side answered a decision."""
    t: Annotated[Literal["choice"], Doc("`choice`")]
    side: Annotated[str, Doc("Who answered.")]
    v: NotRequired[Annotated[Any, Doc("The answer (an `Action`): only in the host's log "
                                      "and in the answering side's view.")]]


class SetEntry(TypedDict):
    """A var was set (only vars the viewer may see)."""
    t: Annotated[Literal["set"], Doc("`set`")]
    n: Annotated[str, Doc("The var's name.")]
    k: Annotated[str, Doc("Its key: the index ids joined with `|` (`\"\"` for a var "
                          "without parameters), as in `View.vars`.")]
    v: Annotated[Any, Doc("The new value.")]
    at: NotRequired[Annotated[list[Any], _AT]]


MoveEntry = TypedDict("MoveEntry", {  # "from" is a Python keyword: the functional form
    "t": Annotated[Literal["move"], Doc("`move`")],
    "e": Annotated[Card, Doc("The record moved; null when the viewer saw neither zone.")],
    "from": Annotated[Union[str, None], Doc("The zone it left (a zone key; null: none).")],
    "to": Annotated[Union[str, None], Doc("The zone it went to (a zone key).")],
})
MoveEntry.__doc__ = """A record moved from one zone to another (dealt, drawn, played,
    discarded ...)."""


class ShuffleEntry(TypedDict):
    """A zone was shuffled."""
    t: Annotated[Literal["shuffle"], Doc("`shuffle`")]
    z: Annotated[Union[str, None], Doc("The zone key.")]


class RevealEntry(TypedDict):
    """A record was shown to one side or to all."""
    t: Annotated[Literal["reveal"], Doc("`reveal`")]
    e: Annotated[Card, Doc("The record shown; null when it was not shown to the viewer.")]
    to: Annotated[Union[str, None], Doc("The side it was shown to; null: every side.")]


class CreateEntry(TypedDict):
    """A record was made in play (`create`)."""
    t: Annotated[Literal["create"], Doc("`create`")]
    e: Annotated[Card, Doc("The new record's id (`type#n`); null when the viewer may not "
                           "see the zone it went to.")]
    to: Annotated[Union[str, None], Doc("The zone it was put in, or null.")]


DestroyEntry = TypedDict("DestroyEntry", {
    "t": Annotated[Literal["destroy"], Doc("`destroy`")],
    "e": Annotated[Card, Doc("The record; null when the viewer could not see it.")],
    "from": Annotated[Union[str, None], Doc("The zone it lay in, or null.")],
})
DestroyEntry.__doc__ = """A record made in play left the game (`destroy`)."""


class SetFieldEntry(TypedDict):
    """A field of a record changed in play (only records the viewer sees)."""
    t: Annotated[Literal["setf"], Doc("`setf`")]
    e: Annotated[str, Doc("The record.")]
    f: Annotated[str, Doc("The field.")]
    v: Annotated[Any, Doc("Its new value.")]
    at: NotRequired[Annotated[Union[str, None], _AT]]


class RollEntry(TypedDict):
    """Dice were rolled."""
    t: Annotated[Literal["roll"], Doc("`roll`")]
    dice: Annotated[list[int], Doc("What each die showed.")]


class SayEntry(TypedDict):
    """A sentence of the rules (`log "..."`), for people."""
    t: Annotated[Literal["say"], Doc("`say`")]
    m: Annotated[str, Doc("The sentence: a translation key of the pack (or its English "
                          "text) with numbered placeholders `{0}` ... filled from `a`, "
                          "and counts with plural forms as in `Decision.prompt`.")]
    a: Annotated[list[Any], Doc("The placeholders' values (records by id; a card the "
                                "viewer could not see is null).")]
    at: NotRequired[Annotated[list[Any], _AT]]


class EndEntry(TypedDict):
    """The game ended (the view's `result` says the same)."""
    t: Annotated[Literal["end"], Doc("`end`")]
    winner: Annotated[Union[str, None], Doc("The winner; null: a draw or no one.")]
    m: NotRequired[Annotated[str, Doc("Why, as a template like a `say` entry's (absent "
                                      "when the rules gave no reason).")]]
    a: NotRequired[Annotated[list[Any], Doc("The template's values.")]]


LOG_ENTRIES = (EventEntry, DoneEntry, TriggerEntry, ChoiceEntry, SetEntry, MoveEntry,
               ShuffleEntry, RevealEntry, CreateEntry, DestroyEntry, SetFieldEntry, RollEntry,
               SayEntry, EndEntry)
LogEntry = Annotated[Union[LOG_ENTRIES], Doc(  # type: ignore[valid-type]
    "One entry of the log: its key `t` says which kind. `Catalog.render(entry)` (engine."
    "i18n.translations) or a front-end's own words tell it to people.")]


# ---- views -------------------------------------------------------------------------------------
class View(TypedDict):
    """What one side may see (`Game.view(side)`), or a spectator (`Game.view(None)`): the
    whole public state, that side's own hidden parts, the decision, and the log, with every
    card it may not see hidden. Send it to that side's player only.

    Read-only below its top: a game keeps each side's zones, vars and fields between its
    views and makes again only what changed, so a zone's list, a var's table or a record's
    fields may be the very objects of that side's other views (the view itself, its
    `vars`, `zones`, `fields` and `log` are new each time). Copy what you change."""
    format_version: Annotated[FormatVersion, Doc(
        "The version of this format (`FORMAT_VERSION`).")]
    pack: Annotated[str, Doc("The pack's id.")]
    side: Annotated[Union[str, None], Doc("The viewer: a side, or null for a spectator.")]
    vars: Annotated[dict[str, Any], Doc(
        "The vars the viewer may see, by name: a var without parameters maps to its value; "
        "one with parameters to an object of key -> value, the key being the index ids "
        "joined with `|` (`red|card_01`). A var none of whose keys may be seen is "
        "left out.")]
    zones: Annotated[dict[str, Union[list[Id], HiddenZone]], Doc(
        "Every zone, by key (the zone's name, then its index ids, joined with `|`: "
        "`hand|red`): the records in it in order (the top of a pile first) when the "
        "viewer may look into it, else a `HiddenZone`.")]
    decision: Annotated[Union[Decision, DecisionSeen, None], Doc(
        "What the game waits for: a `Decision` when the viewer decides, a `DecisionSeen` "
        "when another side does, null when the game is over.")]
    legal_actions: Annotated[list[Any], Doc(
        "Every legal `Action` when the viewer decides (for `order`, at most 5040), else "
        "empty.")]
    log: Annotated[list[LogEntry], Doc("What has happened, as the viewer saw it, oldest "
                                       "first.")]
    result: Annotated[Union[Result, None], Doc("How the game ended; null while it runs.")]
    decisions: Annotated[int, Doc("How many decisions have been answered so far.")]
    fields: NotRequired[Annotated[dict[str, dict[str, Any]], Doc(
        "Only in packs whose records have fields that change in play: record id -> its "
        "fields' current values, for the records the viewer sees.")]]
    lang: NotRequired[Annotated[str, Doc(
        "Only with `Game.view(side, lang=...)`: the language of `names`.")]]
    names: NotRequired[Annotated[dict[str, str], Doc(
        "Only with `Game.view(side, lang=...)`: id -> its name in that language, for every "
        "id the view holds (records, sides, enum values, zone and var names, events).")]]
    texts: NotRequired[Annotated[dict[str, str], Doc(
        "Only with `Game.view(side, lang=...)`: record id -> its rules text (what a card's "
        "event does; what a glossary term means) in that language, for every record of "
        "`names` that has one, and every word offered that names a term with underscores "
        "(`pick up`: `pick_up`).")]]


# ---- saves ----------------------------------------------------------------------------------
class Save(TypedDict):
    """A saved game (`Game.save()` is its JSON text, `Game.to_data()` the data;
    `Game.load(pack, text)` reads it back, checked). Front-ends keep it whole; the state
    is the engine's own and is read by `Game.load` only."""
    format: Annotated[SaveFormat, Doc("What the file is: `engine-save/2`.")]
    format_version: Annotated[FormatVersion, Doc(
        "The version of this format (`FORMAT_VERSION`); a save of another version is "
        "refused with a `SaveError` saying so.")]
    pack: Annotated[str, Doc("The pack's id.")]
    pack_hash: Annotated[str, Doc("The pack's hash: a save of a changed pack is refused "
                                  "(replay its seed and actions instead).")]
    code: NotRequired[Annotated[str, Doc(
        "The pack's rules as this engine compiled them, and the engine (a hash): a save "
        "from another engine version is replayed from its seed and actions when loaded, "
        "since where its rules wait is a place in the code that wrote it. Absent in older "
        "saves.")]]
    seed: Annotated[int, Doc("The game's seed: with `actions`, it replays the game.")]
    log: Annotated[bool, Doc("Whether the game kept its log.")]
    actions: Annotated[list[Any], Doc("Every `Action` answered, in order.")]
    state: Annotated[dict[str, Any], Doc(
        "The whole state, hidden parts included (so a save is not for players' eyes): "
        "internal to the engine, checked against the seed and actions when loaded.")]
    digest: Annotated[str, Doc("sha256 of seed, log, actions and state: finds damage.")]


TYPES: dict[str, Any] = {
    "View": View, "Decision": Decision, "DecisionSeen": DecisionSeen, "Pick": Pick,
    "HiddenZone": HiddenZone, "Result": Result, "Action": Action, "Option": Option,
    "Id": Id, "Card": Card, "LogEntry": LogEntry,
    **{t.__name__: t for t in LOG_ENTRIES}, "Save": Save, "BoardMap": BoardMap,
    "MapSpace": MapSpace, "MapGroup": MapGroup, "MapLink": MapLink, "MapBox": MapBox,
}
KINDS = ("one", "many", "ask", "order")


# ---- checking -------------------------------------------------------------------------------
class FormatError(ValueError):
    """A value that does not fit the format; the message says where: `$.decision.id: ...`."""


def structure(data: Any, kind: Any) -> Any:
    """`data` checked against `kind` (a type of this module, e.g. `View`, `Action`), and
    returned as it is (plain JSON); `FormatError` says where it does not fit."""
    try:
        _check(data, kind, "$")
    except _Misfit as err:
        raise FormatError(f"not a valid {_name(kind)}: {err.path}: {err.message}") from None
    return data


class _Misfit(Exception):
    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message


def _name(kind: Any) -> str:
    for name, t in TYPES.items():
        if t is kind:
            return name
    return getattr(kind, "__name__", str(kind))


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_SCALARS = {str: "a text", int: "a whole number", bool: "true or false", float: "a number"}


def unwrap(t: Any) -> tuple[Any, list[str]]:
    """The type inside `Annotated` (and `NotRequired`), and its Doc texts, outermost last
    (`Annotated[Card, Doc(...)]` is flattened by Python: Card's own, then the key's)."""
    docs: list[str] = []
    while True:
        origin = typing.get_origin(t)
        if origin is Annotated:
            docs.extend(m.text for m in t.__metadata__ if isinstance(m, Doc))
            t = t.__origin__
        elif origin is NotRequired:
            t = typing.get_args(t)[0]
        else:
            return t, docs


def is_typeddict(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, dict) and hasattr(t, "__required_keys__")


@functools.cache
def keys(td: Any) -> list[tuple[str, Any, bool]]:
    """(JSON key, type, required) of a TypedDict's keys, in order."""
    hints = typing.get_type_hints(td, include_extras=True)
    # read from the hints: with postponed annotations `__required_keys__` misses NotRequired
    return [(k, t, typing.get_origin(t) is not NotRequired) for k, t in hints.items()]


@functools.cache
def required(td: Any) -> frozenset[str]:
    return frozenset(k for k, _t, r in keys(td) if r)


def _check(value: Any, t: Any, path: str) -> None:
    t, _doc = unwrap(t)
    if t is Any:
        _json(value, path)
        return
    if t is type(None) or t is None:
        if value is not None:
            raise _Misfit(path, f"expected null, got {_shown(value)}")
        return
    if t in _SCALARS:
        ok = type(value) is t or t is float and type(value) is int
        if not ok:
            raise _Misfit(path, f"expected {_SCALARS[t]}, got {_shown(value)}")
        return
    origin = typing.get_origin(t)
    if origin is Literal:
        if not any(type(value) is type(c) and value == c for c in t.__args__):
            raise _Misfit(path, f"expected {' or '.join(map(repr, t.__args__))}, got "
                          f"{_shown(value)}")
        return
    if origin is Union or origin is types.UnionType:
        _check_union(value, t, path)
        return
    if origin is list:
        if type(value) is not list:
            raise _Misfit(path, f"expected a list, got {_shown(value)}")
        (item,) = typing.get_args(t)
        for i, v in enumerate(value):
            _check(v, item, f"{path}[{i}]")
        return
    if origin is dict:
        if type(value) is not dict:
            raise _Misfit(path, f"expected an object, got {_shown(value)}")
        _key, item = typing.get_args(t)
        for k, v in value.items():
            if type(k) is not str:
                raise _Misfit(path, f"expected text keys, got {_shown(k)}")
            _check(v, item, f"{path}.{k}")
        return
    if is_typeddict(t):
        if type(value) is not dict:
            raise _Misfit(path, f"expected an object ({t.__name__}), got {_shown(value)}")
        known = keys(t)
        names = {k for k, _t, _r in known}
        for k in value:
            if k not in names:
                raise _Misfit(path, f"unknown key {k!r} (keys: {', '.join(sorted(names))})")
        for k, kt, required in known:
            if k in value:
                _check(value[k], kt, f"{path}.{k}")
            elif required:
                raise _Misfit(path, f"missing key {k!r}")
        return
    raise TypeError(f"engine.core.api cannot check the type {t!r}")  # pragma: no cover


def _check_union(value: Any, t: Any, path: str) -> None:
    """A union: the member the value's JSON kind (and a log entry's `t`, a decision's `id`)
    picks, so that the message is about that member, not a list of all."""
    members = [unwrap(m)[0] for m in typing.get_args(t)]
    if type(value) is dict:
        dicts = [m for m in members if is_typeddict(m) or typing.get_origin(m) is dict]
        tags = _tags(tuple(m for m in dicts if is_typeddict(m)))
        if tags:
            tag = value.get("t")
            if type(tag) is not str:
                raise _Misfit(path, f"expected a log entry with a text 't', got "
                              f"{_shown(value)}")
            if tag not in tags:
                raise _Misfit(f"{path}.t", f"unknown kind {tag!r} (kinds: "
                              f"{', '.join(tags)})")
            dicts = [tags[tag]]
        elif len(dicts) > 1:  # Decision (has an id) or DecisionSeen
            dicts.sort(key=lambda m: not (is_typeddict(m) and required(m) <= set(value)))
        if dicts:
            _check(value, dicts[0], path)
            return
    errors = []
    for m in members:
        try:
            _check(value, m, path)
            return
        except _Misfit as err:
            errors.append(err)
    if len(errors) == 1:
        raise errors[0]
    inner = [e for e in errors if e.path != path]  # a member that fit at the top
    if inner:
        raise inner[0]
    raise _Misfit(path, f"expected {' or '.join(_kind(m) for m in members)}, got "
                  f"{_shown(value)}")


@functools.cache
def _tags(members: tuple[Any, ...]) -> dict[str, Any]:
    """The log entry kinds among `members`: the value of each one's key `t` -> it."""
    out = {}
    for m in members:
        for key, kt, _required in keys(m):
            inner = unwrap(kt)[0]
            if key == "t" and typing.get_origin(inner) is Literal:
                out[inner.__args__[0]] = m
    return out


def _kind(t: Any) -> str:
    if t is type(None):
        return "null"
    if t in _SCALARS:
        return _SCALARS[t]
    origin = typing.get_origin(t)
    if origin is list:
        return "a list"
    if origin is dict:
        return "an object"
    if is_typeddict(t):
        return f"an object ({t.__name__})"
    return str(t)


def _json(value: Any, path: str, depth: int = 0) -> None:
    """JSON data only: text, whole or fractional numbers, true/false, null, lists and
    objects with text keys."""
    if depth > 64:
        raise _Misfit(path, "nested too deeply")
    if value is None or type(value) in (str, int, bool, float):
        return
    if type(value) is list:
        for i, v in enumerate(value):
            _json(v, f"{path}[{i}]", depth + 1)
        return
    if type(value) is dict:
        for k, v in value.items():
            if type(k) is not str:
                raise _Misfit(path, f"expected text keys, got {_shown(k)}")
            _json(v, f"{path}.{k}", depth + 1)
        return
    raise _Misfit(path, f"expected JSON data, got {type(value).__name__} {_shown(value)}")


def decision_of(data: Any) -> DecisionClass:
    """The `engine.core.game.Decision` of a view's `Decision` (JSON, checked first: a
    `FormatError` says where it does not fit), e.g. for a front-end across a network."""
    from engine.core.decisions import Decision as DecisionClass
    return json_converter.structure(structure(data, Decision), DecisionClass)
