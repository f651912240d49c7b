"""`engine lsp` driven over stdio by a real LSP client (pytest-lsp), as an editor drives it,
on a copy of a shipped pack: diagnostics as a file is opened and edited (a misspelt name,
in a rules file, in a record file and in a translation file, with its did-you-mean; a
failed `check` on save), each as `engine validate` gives it, hover (of built-ins too), go
to definition, find references, completion (of x's fields by x's type) and formatting."""
from __future__ import annotations

import asyncio
import os
import shutil
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pytest_lsp import ClientServerConfig, LanguageClient

from engine.dsl.formatter import format_source

REPO = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
PACK = "ante_portas"
asyncio_module = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shipped pack and its translations, as a designer's checkout has them."""
    content = tmp_path_factory.mktemp("content")
    shutil.copytree(REPO / "content" / PACK, content / PACK)
    (content / "translations").mkdir()
    for f in (REPO / "content" / "translations").glob(f"{PACK}.*.yaml"):
        shutil.copy(f, content / "translations" / f.name)
    return content / PACK


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "engine", "lsp", "--stdio"], server_env=ENV))
async def client(lsp_client: LanguageClient, pack: Path):
    await lsp_client.initialize_session(T.InitializeParams(
        capabilities=T.ClientCapabilities(), root_uri=pack.as_uri()))
    yield
    await lsp_client.shutdown_session()


def uri(path: Path) -> str:
    return path.as_uri()


def open_file(client: LanguageClient, path: Path, text: str | None = None) -> str:
    text = path.read_text(encoding="utf-8") if text is None else text
    client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(
        uri=uri(path), language_id="engine-rules", version=1, text=text)))
    return text


_versions: dict[str, int] = {}


def edit(client: LanguageClient, path: Path, text: str) -> None:
    """The whole text of the file replaced, as an editor sends a change."""
    version = _versions[str(path)] = _versions.get(str(path), 1) + 1
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
        [T.TextDocumentContentChangeWholeDocument(text=text)]))


async def diagnostics(client: LanguageClient, path: Path, until, timeout: float = 30.0):
    """The file's diagnostics once `until(them)` holds (the server sends them on its own)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got = client.diagnostics.get(uri(path))
        if got is not None and until(got):
            return got
        if loop.time() > end:
            raise AssertionError(f"no such diagnostics for {path.name}: {got}")
        await asyncio.sleep(0.05)


async def restore(client: LanguageClient, path: Path, text: str) -> None:
    """The file's text given back, and its errors gone."""
    edit(client, path, text)
    assert errors(await diagnostics(client, path, lambda d: not errors(d))) == []


def errors(diags) -> list:
    return [d for d in diags if d.severity == T.DiagnosticSeverity.Error]


def position(text: str, needle: str, nth: int = 0, offset: int = 0) -> T.Position:
    """Where the `nth` occurrence of `needle` starts (plus `offset` characters)."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    line = text.count("\n", 0, at)
    return T.Position(line, at - (text.rfind("\n", 0, at) + 1) + offset)


@asyncio_module
async def test_open_shows_the_pack_checked(client: LanguageClient, pack: Path):
    open_file(client, pack / "effects.rules")
    got = await diagnostics(client, pack / "effects.rules", lambda d: True)
    assert errors(got) == []  # the shipped pack validates clean


@asyncio_module
async def test_a_misspelt_name_as_you_type(client: LanguageClient, pack: Path,
                                           tmp_path: Path):
    path = pack / "effects.rules"
    text = path.read_text(encoding="utf-8")
    broken = text.replace("    change_rsm(n)\n", "    change_rms(n)\n", 1)
    edit(client, path, broken)
    got = errors(await diagnostics(client, path, errors))
    assert [d.code for d in got] == ["E206"]
    d = got[0]
    assert "did you mean 'change_rsm'?" in d.message
    assert d.range.start == position(broken, "change_rms")
    assert d.range.end == position(broken, "change_rms(n)", offset=len("change_rms(n)"))
    # the same code, message and place as `engine validate` on the file saved so
    from engine.core.validate import validate
    saved = tmp_path / PACK
    shutil.copytree(pack, saved)
    (saved / "effects.rules").write_text(broken, encoding="utf-8")
    [v] = [x for x in validate([str(saved)]).diagnostics if x.is_error]
    assert (v.code, f"{v.message}\n{v.suggestion}", v.line - 1, v.col - 1, v.end_col - 1) == (
        d.code, d.message, d.range.start.line, d.range.start.character, d.range.end.character)
    await restore(client, path, text)


@asyncio_module
async def test_a_record_file_gets_its_diagnostics(client: LanguageClient, pack: Path):
    path = pack / "cards.yaml"
    text = open_file(client, path)
    broken = text.replace('event: "sway([gauls])"', 'event: "sway([gaulz])"', 1)
    edit(client, path, broken)
    [d] = errors(await diagnostics(client, path, errors))
    assert d.code == "E201" and "did you mean 'gauls'?" in d.message
    assert d.range.start == position(broken, "gaulz")
    await restore(client, path, text)


def validated(pack: Path, tmp_path: Path, rel: str, text: str) -> list:
    """The errors `engine validate` gives a copy of the pack (and its translations) with
    the file `rel` (from the content folder) saved as `text`."""
    from engine.core.validate import validate
    saved = tmp_path / "content"
    shutil.copytree(pack.parent, saved)
    (saved / rel).write_text(text, encoding="utf-8")
    return [x for x in validate([str(saved / PACK)]).diagnostics if x.is_error]


def same(v, d) -> bool:
    """Does the editor's diagnostic `d` say what validate's `v` says, where it says it?"""
    message = v.message + (f"\n{v.suggestion}" if v.suggestion else "")
    return (v.code, message, v.line - 1) == (d.code, d.message, d.range.start.line)


@asyncio_module
async def test_a_translation_file_gets_its_diagnostics_as_you_type(
        client: LanguageClient, pack: Path, tmp_path: Path):
    path = pack.parent / "translations" / f"{PACK}.en.yaml"
    text = open_file(client, path)
    assert errors(await diagnostics(client, path, lambda d: True)) == []
    broken = text.replace("  gauls: {name:", "  gaulz: {name:", 1)
    edit(client, path, broken)  # no save: the check reads the editor's text
    [d] = errors(await diagnostics(client, path, errors))
    assert d.code == "E501" and "no record 'gaulz'" in d.message
    assert "did you mean 'gauls'?" in d.message
    assert d.range.start == position(broken, "gaulz")
    [v] = validated(pack, tmp_path, f"translations/{PACK}.en.yaml", broken)
    assert same(v, d) and v.col - 1 == d.range.start.character
    # a record renamed in the pack: the translation file's entry no longer names one
    await restore(client, path, text)
    allies = pack / "allies.yaml"
    allies_text = open_file(client, allies)
    edit(client, allies, allies_text.replace("id: gauls", "id: galli", 1))
    got = errors(await diagnostics(client, path, errors))
    assert "no record 'gauls'" in got[0].message
    edit(client, allies, allies_text)
    assert errors(await diagnostics(client, path, lambda d: not errors(d))) == []


def save(client: LanguageClient, path: Path, text: str) -> None:
    """The file written, and the server told, as an editor saves."""
    path.write_text(text, encoding="utf-8")
    client.text_document_did_save(T.DidSaveTextDocumentParams(
        T.TextDocumentIdentifier(uri(path))))


@asyncio_module
async def test_a_failed_check_shows_on_save_and_goes_when_fixed(
        client: LanguageClient, pack: Path, tmp_path: Path):
    path = pack / "state.rules"
    text = open_file(client, path)
    rule = 'check "20 event cards": count(card) == 20'
    assert rule in text
    broken = text.replace(rule, rule[:-2] + "21", 1)
    edit(client, path, broken)
    save(client, path, broken)
    [d] = [x for x in errors(await diagnostics(client, path, errors)) if x.code == "E400"]
    assert d.message == "check failed: 20 event cards"
    assert d.range.start == position(broken, rule[:-2])
    [v] = validated(pack, tmp_path, f"{PACK}/state.rules", broken)
    assert same(v, d)
    edit(client, path, text)
    save(client, path, text)
    assert errors(await diagnostics(client, path, lambda d: not errors(d))) == []


@asyncio_module
async def test_hover(client: LanguageClient, pack: Path):
    path = pack / "effects.rules"
    text = path.read_text(encoding="utf-8")
    got = await client.text_document_hover_async(T.HoverParams(
        T.TextDocumentIdentifier(uri(path)), position(text, "change_rsm(n)", offset=3)))
    assert "procedure change_rsm(d: int)" in got.contents.value
    assert 'source: seed 000, "Szövetségesek"' in got.contents.value  # the rule it cites
    assert got.range.start == position(text, "change_rsm(n)")
    cards = pack / "cards.yaml"
    cards_text = cards.read_text(encoding="utf-8")
    got = await client.text_document_hover_async(T.HoverParams(
        T.TextDocumentIdentifier(uri(cards)), position(cards_text, "gauls])")))
    shown = got.contents.value
    assert "ally gauls" in shown and "order: 1" in shown  # the record's fields
    assert "**en**: Gauls" in shown and "**hu**: Gallok" in shown  # its names


@asyncio_module
async def test_definition_and_references(client: LanguageClient, pack: Path):
    path = pack / "effects.rules"
    text = path.read_text(encoding="utf-8")
    at = position(text, "change_rsm(n)")
    [got] = await client.text_document_definition_async(T.DefinitionParams(
        T.TextDocumentIdentifier(uri(path)), at))
    assert got.uri == uri(path)
    assert got.range.start == position(text, "change_rsm(d: int)")
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=T.TextDocumentIdentifier(uri(path)), position=at,
        context=T.ReferenceContext(include_declaration=True)))
    found = sorted((Path(r.uri).name if "://" not in r.uri else r.uri.rsplit("/", 1)[1],
                    r.range.start.line) for r in refs)
    expected = sorted((f.name, n) for f in pack.glob("*.rules")
                      for n, line in enumerate(f.read_text(encoding="utf-8").splitlines())
                      if "change_rsm(" in line and not line.lstrip().startswith("#"))
    assert found == expected and len(found) >= 5
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=T.TextDocumentIdentifier(uri(path)), position=at,
        context=T.ReferenceContext(include_declaration=False)))
    assert len(refs) == len(found) - 1


async def completions(client: LanguageClient, path: Path, lines: list[str], line: str,
                      char: int | None = None) -> dict[str, T.CompletionItem]:
    """The completion items at the end of `line` (or at `char` of it), by label."""
    n = lines.index(line)
    got = await client.text_document_completion_async(T.CompletionParams(
        T.TextDocumentIdentifier(uri(path)), T.Position(n, len(line) if char is None else char)))
    return {i.label: i for i in got.items}


TRIED = """
# reconstructed: a procedure of the test
procedure tried(a: ally):
    for x in city:
        if x.value > a.order:
            pass
"""


@asyncio_module
async def test_completion(client: LanguageClient, pack: Path):
    path = pack / "effects.rules"
    text = path.read_text(encoding="utf-8")
    # the procedure is checked once as it parses (a request checks the text it is asked
    # of at once); then lines are typed that do not parse
    edit(client, path, text + TRIED)
    await completions(client, path, (text + TRIED).splitlines(), "            pass")
    assert errors(client.diagnostics[uri(path)]) == []
    typed = text + TRIED + "        x.\n        a.\n        x.region.\n        q.\n" \
        "        x.region.order.\n    raise_r\n    ha\n    cho\n    rol\n"
    edit(client, path, typed)
    lines = typed.splitlines()

    async def labels(line: str, char: int | None = None) -> dict[str, T.CompletionItem]:
        return await completions(client, path, lines, line, char)

    assert "raise_rsm" in await labels("    raise_r")
    ally = {"order", "low", "high", "infantry"}
    city = {"region", "value", "anchor", "capital", "start", "position"}
    fields = await labels("        a.")  # a parameter: an ally's fields, no other type's
    assert ally <= set(fields) and not city & set(fields)
    assert fields["order"].kind == T.CompletionItemKind.Field
    assert fields["order"].detail == "ally: int"
    fields = await labels("        x.")  # a loop's local, as the checker typed it: a city's
    assert city <= set(fields) and not ally - {"order"} & set(fields)
    fields = await labels("        x.region.")  # a field of a field
    assert {"order", "rome_draws", "scouting_price"} <= set(fields)
    assert not city & set(fields)
    assert await labels("        x.region.order.") == {}  # an int has no fields
    fields = await labels("        q.")  # a name of no known type: every type's fields
    assert ally | city <= set(fields)
    zones = await labels("    ha")
    assert zones["hand"].kind == T.CompletionItemKind.Variable and zones["hand"].detail == "zone"
    assert (await labels("    cho"))["choose"].kind == T.CompletionItemKind.Keyword
    roll = (await labels("    rol"))["roll"]  # a built-in, with its signature and doc
    assert roll.kind == T.CompletionItemKind.Function
    assert roll.detail == "roll(n: int, faces: int) -> int" and "dice" in roll.documentation
    records = await labels("        a.", 8)
    assert "gauls" in records and "count" in records  # where a name goes: records, built-ins
    await restore(client, path, text)


@asyncio_module
async def test_hover_on_a_built_in(client: LanguageClient, pack: Path):
    path = pack / "effects.rules"
    text = path.read_text(encoding="utf-8")
    n = next(i for i, line in enumerate(text.splitlines()) if "count(" in line
             and not line.lstrip().startswith("#"))
    line = text.splitlines()[n]
    got = await client.text_document_hover_async(T.HoverParams(
        T.TextDocumentIdentifier(uri(path)), T.Position(n, line.index("count(") + 2)))
    assert "count(items: list or zone) -> int" in got.contents.value
    assert "how many items" in got.contents.value


@asyncio_module
async def test_formatting_is_engine_fmt(client: LanguageClient, pack: Path):
    path = pack / "effects.rules"
    text = path.read_text(encoding="utf-8")
    messy = text.replace("    change_rsm(n)\n", "    change_rsm( n )\n", 1).replace(
        "procedure raise_rsm(n: int):", "procedure raise_rsm(n:int) :", 1)
    edit(client, path, messy)
    [got] = await client.text_document_formatting_async(T.DocumentFormattingParams(
        T.TextDocumentIdentifier(uri(path)), T.FormattingOptions(tab_size=4, insert_spaces=True)))
    assert got.new_text == format_source(messy, str(path)) == text
    assert got.range.start == T.Position(0, 0)
    edit(client, path, text)
    assert not await client.text_document_formatting_async(T.DocumentFormattingParams(
        T.TextDocumentIdentifier(uri(path)), T.FormattingOptions(tab_size=4, insert_spaces=True)))
