"""The Hannibal glossary (content/hannibal/glossary.yaml and
content/translations/hannibal.terms.{en,nl,ru}.yaml): one canonical id per game concept, the
Dutch (seed 002) and Russian (seed 003) words for it as two translations of that id.

The abbreviations come from seed 002 §3 ("Afkortingen": GK, GE, EK, OK), §3 and §15 (PK),
§5.3 and §7 (SK), and from seed 003 throughout (ВЧ, ПК, ОЧ, КТ; ОП in "Движение (стр. 12)").

The pack is loaded whole when it loads; while other parts of it are still in progress, the
tests that need only the glossary run on a copy of pack.yaml, types.rules and glossary.yaml.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import pytest

from engine import load_pack
from engine.core.errors import PackError
from engine.dsl.errors import render_text
from engine.i18n.translations import Catalog, read_translation

ROOT = Path(__file__).resolve().parent.parent
PACK_DIR = ROOT / "content" / "hannibal"
TRANSLATIONS = ROOT / "content" / "translations"
LANGS = ("en", "nl", "ru")
SEED = {"nl": "seed 002", "ru": "seed 003"}


def _load() -> tuple[object, PackError | None]:
    """The whole pack, or (if another file of it has errors) a copy with only the glossary."""
    try:
        return load_pack(str(PACK_DIR)), None
    except PackError as err:
        base = Path(tempfile.mkdtemp())
        atexit.register(shutil.rmtree, base, True)
        tmp = base / "hannibal"
        tmp.mkdir()
        for name in ("pack.yaml", "types.rules", "glossary.yaml"):
            shutil.copy(PACK_DIR / name, tmp / name)
        return load_pack(str(tmp)), err


PACK, FULL_PACK_ERROR = _load()
TERM_IDS = set(PACK.by_type["term"])
TYPE_NAMES = set(PACK.model.types)
FILES = {lang: read_translation(TRANSLATIONS / f"hannibal.terms.{lang}.yaml") for lang in LANGS}
TERMS = {lang: tf.terms for lang, tf in FILES.items()}


def name(lang: str, tid: str) -> str:
    return TERMS[lang][tid].text


def ids_with_abbreviation(lang: str, abbr: str) -> list[str]:
    """Ids whose name in `lang` is the abbreviation, or gives it in brackets:
    "Gevechtseenheid (GE)"."""
    return sorted(k for k, e in TERMS[lang].items()
                  if e.text == abbr or f"({abbr})" in e.text)


# ---- the files ---------------------------------------------------------------------------------
def test_pack_loads_with_the_glossary():
    """The glossary adds no error to the pack; if other files still have errors, none is ours."""
    if FULL_PACK_ERROR is not None:
        ours = [d for d in FULL_PACK_ERROR.diagnostics if d.path.endswith("glossary.yaml")]
        assert not ours, render_text(ours)
    assert len(TERM_IDS) >= 100


@pytest.mark.parametrize("lang", LANGS)
def test_translation_files_are_clean(lang):
    """Each file reads without a problem, names pack and language, and every entry has a source."""
    tf = FILES[lang]
    assert tf.ok and not tf.diagnostics, render_text(tf.diagnostics)
    assert (tf.pack, tf.lang) == ("hannibal", lang)
    assert not tf.names and not tf.messages
    missing = [k for k, e in tf.terms.items() if not e.source]
    assert not missing


@pytest.mark.parametrize("lang", ["nl", "ru"])
def test_sources_cite_their_own_seed(lang):
    """Dutch names come from seed 002, Russian ones from seed 003 (section headings)."""
    wrong = [k for k, e in TERMS[lang].items() if not e.source.startswith(SEED[lang])]
    assert not wrong


def test_every_term_record_has_a_definition_and_source():
    """glossary.yaml: `provenance: required`; each concept is defined in our own words."""
    for tid in TERM_IDS:
        rec = PACK.records[tid]
        assert rec["definition"].strip() and rec["source"].strip(), tid
        assert "seed 002" in rec["source"] or "seed 003" in rec["source"], tid


def test_every_term_record_has_an_english_name():
    """Every term record is named in hannibal.terms.en.yaml."""
    assert TERM_IDS - set(TERMS["en"]) == set()


@pytest.mark.parametrize("lang", LANGS)
def test_every_key_is_a_term_record_or_a_type(lang):
    """Keys of `terms:` are ids of term records, type names, the two sides of the pack (seed
    002 §3 index; seed 002 §1: Carthage and Rome), or the zones, vars and record fields of its
    rules that the terminal shows (`troops`, `turn_no`; the fields pack.yaml `board:` names)."""
    from engine.core.loader import load_pack
    pack = load_pack(PACK_DIR)
    model = pack.model
    shown = set(model.zones) | set(model.vars)
    board_map = pack.meta["board"].get("map", {})
    shown |= {*board_map.get("fields", []), board_map.get("summary"), *board_map.get("flags", [])}
    shown |= {f for p in board_map.get("pieces", {}).values() for f in p.get("show", [])}
    shown |= {f"{t}.{f}" for t, fs in pack.meta["board"].get("show", {}).items() for f in fs}
    assert set(TERMS[lang]) - TERM_IDS - TYPE_NAMES - {"carthage", "rome"} - shown == set()


@pytest.mark.parametrize("lang", ["nl", "ru"])
def test_english_names_every_translated_key(lang):
    """A Dutch or Russian name is always the translation of an id that has an English name."""
    assert set(TERMS[lang]) - set(TERMS["en"]) == set()


@pytest.mark.parametrize("lang", LANGS)
def test_no_name_is_given_to_two_ids(lang):
    """One word, one concept: no two ids share a name in one language."""
    seen: dict[str, str] = {}
    for tid, e in TERMS[lang].items():
        key = " ".join(e.text.casefold().split())
        assert key not in seen, f"{lang} '{e.text}' names both {seen[key]} and {tid}"
        seen[key] = tid


def test_every_term_has_a_dutch_or_russian_name():
    """Only concepts the rules documents name are in the glossary."""
    assert {t for t in TERM_IDS if t not in TERMS["nl"] and t not in TERMS["ru"]} == set()


# ---- ids ----------------------------------------------------------------------------------------
# Card names of research/hannibal.md §7 that are ordinary words: a term must not take them.
CARD_WORDS = {"diplomacy", "truce", "forced_march", "major_campaign", "minor_campaign",
              "epidemic", "pestilence", "native_guide", "hostile_tribes", "bad_weather",
              "storms_at_sea", "surprise_sortie", "elephant_fright", "allied_auxiliaries",
              "ally_deserts", "grain_shortage", "tribal_resistance", "messenger_intercepted"}


def other_names() -> set[str]:
    """Ids of the pack's other records, read from the files. The rules may name a declaration
    after the term it implements (`discard`, `strategy_phase`): terms live in a namespace of
    their own (`glossary: term` in pack.yaml; written `term.discard` in rules)."""
    from engine.dsl.yamlload import load_yaml
    names: set[str] = set()
    for path in PACK_DIR.glob("*.yaml"):
        if path.name in ("pack.yaml", "glossary.yaml"):
            continue
        data, _ = load_yaml(str(path), path.read_text(encoding="utf-8"))
        for records in (data or {}).values():
            names.update(r["id"] for r in records or [] if isinstance(r, dict) and "id" in r)
    return names


def test_term_ids_clash_with_nothing():
    """Term ids are no type names, no card words, and not the id of another record (tables
    attrition, retreat, siege; pieces, cards, leaders, spaces)."""
    assert set() == TERM_IDS & TYPE_NAMES
    assert set() == TERM_IDS & CARD_WORDS
    # (`event` is a term: the card use a strategy card's play offers, named and explained by
    # it; the card type is `event_card`)
    assert not {"siege", "attrition", "retreat", "battle"} & TERM_IDS
    assert TERM_IDS & other_names() == set()


# ---- abbreviations ------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, abbr, tid", [
    ("nl", "GK", "battle_card"),       # seed 002 §3 "GK: Gevechtskaart"
    ("nl", "GE", "combat_unit"),       # seed 002 §3 "GE: Gevechtseenheid", §2.2
    ("nl", "EK", "event_card"),        # seed 002 §3 "EK: 'Er gebeurt iets'-kaart", §7.4
    ("nl", "OK", "ops"),               # seed 002 §3 "OK: Operatie-kaart", §7.3
    ("nl", "PK", "political_control"), # seed 002 §3 "Politieke Controle (PK)"
    ("nl", "SK", "strategy_card"),     # seed 002 §5.3, §7
    ("ru", "ВЧ", "combat_unit"),       # seed 003 "Подготовка к игре (стр. 7)" and throughout
    ("ru", "ПК", "political_control"), # seed 003 "Фаза стратегии (стр. 10)"
    ("ru", "ОЧ", "ops"),               # seed 003 "Фаза стратегии (стр. 10)"
    ("ru", "КТ", "battle_card"),       # seed 003 "Порядок битвы (стр. 17)" (5)
    ("ru", "ОП", "movement_points"),   # seed 003 "Движение (стр. 12)" (1)
])
def test_abbreviation_maps_to_exactly_one_id(lang, abbr, tid):
    """Each abbreviation of the rules names exactly one canonical id."""
    assert ids_with_abbreviation(lang, abbr) == [tid]


def test_pc_marker_is_not_political_control():
    """Seed 002 §2.2 "PK-Marker", seed 003 "Подготовка к игре" "жетоны ... ПК": the counter has
    its own id; the abbreviation itself belongs to the control (seed 002 §3, §15)."""
    assert name("nl", "pc_marker") == "PK-Marker"
    assert name("ru", "pc_marker") == "Жетон ПК"
    assert "pc_marker" not in ids_with_abbreviation("nl", "PK")


# ---- the named examples -------------------------------------------------------------------------
EXAMPLES = [
    # id, Dutch word (seed 002 §), Russian word (seed 003 heading)
    ("combat_unit", "gevechtseenheid", "вч"),                  # §2.2; throughout
    ("political_control", "politieke controle", "пк"),          # §3, §15
    ("ops", "operatiekaart", "оч"),                             # §7.3; "Фаза стратегии"
    ("battle_card", "gevechtskaart", "кт"),                     # §11.1; "Порядок битвы"
    ("strategy_card", "strategiekaart", "карта стратегии"),     # §7; "Подготовка к игре"
    ("event_card", "er gebeurt iets", "событие"),               # §3, §7.4; "Фаза стратегии"
    ("interception", "onderscheppen", "перехват"),              # §9; "Перехват (стр. 15)"
    ("avoid_battle", "ontwijken", "уклонение"),                 # §10; "Уклонение (стр. 16)"
    ("pursuit", "achtervolging", "преследование"),              # §10.3; "Преследование"
    ("overrun", "onder de voet gelopen", "подавление"),         # §8.2; "Движение" (4)
    ("disengagement", "ontdoen", "отвод войск"),                # §11.11; "Раунд битвы" (1)
    ("battle_retreat", "terugtocht", "отступление"),            # §12; "Отступление"
    ("attrition_check", "uitputting", "изнурение"),             # §17; "Движение" (2)
    ("walled_city_siege", "belegering", "штурм"),               # §16.4; "Штурм (стр. 23)"
    ("subjugation", "onderwerping", "покорение"),               # §16.4; "Покорение"
    ("walled_city", "vesting", "крепость"),                     # §16; "Крепости"
    ("tribe", "volksstam", "племя"),                            # §16; "Племена"
    ("holding_box", "opslagveld", "поле подчинения"),           # §3; "Подготовка к игре"
    ("displaced_leader", "verzet", "смещ"),                     # §8.9; "Подкрепления" (1)
    ("mountain_pass", "bergpas", "перевал"),                    # §8.3; "Движение" (2)
    ("strait", "zeeëngte", "пролив"),                           # §8.3.3; "Движение" (2)
    ("consular_army", "consulleger", "консульская армия"),      # §14.2; "Движение" (3)
    ("counterattack", "tegenaanval", "контратака"),             # §11.6; "Раунд битвы" (3)
    ("response_event", "tegengebeurtenis", "переломное событие"),  # §7.4.1; "Фаза стратегии"
    ("political_isolation", "politieke isolatie", "политическая изоляция"),  # §15.4
    ("battle_rating", "gevechtswaarde", "ранг тактика"),        # §2.2, §9.2; "Перехват" (2)
    ("strategy_rating", "strategiewaarde", "ранг стратега"),    # §2.2; "Фаза стратегии" (1)
    ("movement_points", "bewegingspunten", "оп"),               # §8.3.1; "Движение" (1)
    ("naval_supremacy", "overheersing op zee", None),           # §8.8.3
    ("elephant_charge", "olifantenaanval", "атака слонов"),     # §13.3; "Порядок битвы" (4)
    ("militia", "milities", None),                              # §11.2.2
    ("allies", "bondgenoten", "союзник"),                       # §11.2.1; "Порядок битвы" (5)
    ("reinforcement", "versterkingen", "подкрепления"),         # §6; "Подкрепления (стр. 8)"
    ("consul", "consul", "консул"),                             # §6.4; "Подкрепления" (4)
    ("proconsul", "proconsul", "проконсул"),                    # §6.4.3; "Подкрепления" (3)
    ("commander", "commandant", "командующий"),                 # §8.5; "Движение"
    ("subordinate", "onderaanvoerder", "подчиненный"),          # §8.5; "Движение"
    ("sudden_victory", "plotselinge zege", None),               # §19
    ("political_points", "politieke punten", None),             # §18.1
    ("reinforcement_phase", "versterkingsfase", "фаза подкреплений"),  # §5.1; "Порядок хода" (1)
    ("deal_strategy_cards", "strategiekaarten trekken", "сдача карт стратегии"),  # §5.2; (2)
    ("strategy_phase", "strategiefase", "фаза стратегии"),      # §5.3; (3)
    ("winter_attrition_phase", "uitputting in de winter", "фаза зимнего изнурения"),  # §5.4; (4)
    ("political_isolation_phase", "politieke isolatie", "фаза политической изоляции"),  # §5.5; (5)
    ("victory_check_phase", "zegevoorwaarden", "фаза оценки ситуации"),  # §5.6; (6)
]


@pytest.mark.parametrize("tid, nl, ru", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_named_example_maps_as_stated(tid, nl, ru):
    """The Dutch and the Russian word of one rule are two translations of one id; a language
    without a word for the concept has no entry (no invented translations)."""
    assert tid in TERM_IDS or tid in TYPE_NAMES
    assert nl in name("nl", tid).casefold()
    if ru is None:
        assert tid not in TERMS["ru"]
    else:
        assert ru in name("ru", tid).casefold()


def test_variants_and_german_words_are_noted():
    """Seed 002 leaves German card words in the text (§5.3 "Feldzug", §7.4.2 "Aus dem Spiel
    entfernen", §7.6 "Waffenruhe"); seed 003 "Штурм (стр. 23)" (7)-(8) also says "осада"."""
    notes = {(lang, k): (e_note or "") for lang in ("nl", "ru")
             for k, e_note in _notes(lang).items()}
    assert "Feldzug" in notes["nl", "campaign_card"]
    assert "Aus dem Spiel entfernen" in notes["nl", "remove_from_game"]
    assert "Waffenruhe" in notes["nl", "truce_state"]
    assert "осада" in notes["ru", "walled_city_siege"]


def _notes(lang: str) -> dict[str, str | None]:
    """The `note:` of each entry (Entry keeps only text and source; read the YAML for notes)."""
    from engine.dsl.yamlload import load_yaml
    path = TRANSLATIONS / f"hannibal.terms.{lang}.yaml"
    data, _ = load_yaml(str(path), path.read_text(encoding="utf-8"))
    return {k: v.get("note") for k, v in data["terms"].items()}


def test_the_catalog_shows_the_glossary():
    """`engine terms hannibal --lang ru|nl` reads these files: names by language, English as the
    fallback where a source has no word (seed 003 has none for naval supremacy, seed 002
    §8.8.3)."""
    ru, nl = Catalog(PACK, "ru"), Catalog(PACK, "nl")
    assert ru.term("interception") == "Перехват"
    assert nl.term("interception") == "Onderscheppen"
    assert ru.term("naval_supremacy") == name("en", "naval_supremacy")
    assert set(TERMS["en"]) <= set(ru.term_ids())
