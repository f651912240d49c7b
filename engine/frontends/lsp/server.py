"""The language server itself (pygls): each LSP request answered from `OpenPacks` and the
lookups of `symbols`, `hover` and `completion`. Positions arrive and leave in the client's
units (UTF-16 unless it asked for another), and are in characters in between."""
from __future__ import annotations

import asyncio
import os

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from engine.dsl.errors import Diagnostic, DslError, split_lines
from engine.dsl.formatter import format_source
from engine.frontends.lsp.completion import candidates
from engine.frontends.lsp.hover import hover_text
from engine.frontends.lsp.packs import FileDiagnostics, OpenPacks, span
from engine.frontends.lsp.symbols import Key, PackIndex, Place
from engine.frontends.lsp.words import Word, prefix_at

NAME = "engine-rules"
SOURCE = "engine"  # what the editor names as the diagnostics' source
# a change waits this long for the next keystroke before the pack is checked: typing a
# word checks it once, not once per letter
SETTLE = 0.15  # seconds

_SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
             "note": T.DiagnosticSeverity.Information}
_KIND = {"record": T.CompletionItemKind.Constant, "field": T.CompletionItemKind.Field,
         "zone": T.CompletionItemKind.Variable, "var": T.CompletionItemKind.Variable,
         "procedure": T.CompletionItemKind.Function, "value": T.CompletionItemKind.Function,
         "type": T.CompletionItemKind.Class, "enum": T.CompletionItemKind.Enum,
         "enum_value": T.CompletionItemKind.EnumMember, "const": T.CompletionItemKind.Constant,
         "side": T.CompletionItemKind.Constant, "graph": T.CompletionItemKind.Variable,
         "keyword": T.CompletionItemKind.Keyword, "function": T.CompletionItemKind.Function,
         "builtin": T.CompletionItemKind.Constant}


class RulesServer(LanguageServer):
    def __init__(self, version: str) -> None:
        super().__init__(NAME, version)
        self.packs = OpenPacks()
        self.latest: dict[str, int] = {}  # uri -> the version of its last change
        self.checked: dict[str, int] = {}  # uri -> the version its pack was checked with

    def lines(self, path: str) -> list[str]:
        """The text of a file as the last check read it (the editor's, when it is open)."""
        ix = self.packs.index(path)
        if ix is not None and path in ix.sources:
            return ix.lines(path)
        return split_lines(self.workspace.get_text_document(from_fs_path(path) or path).source)

    def show(self, path: str, text: str | None) -> None:
        """Check the pack of `path` with its new text and show every file's diagnostics."""
        self.publish(self.packs.change(path, text))

    def run_checks(self, path: str) -> None:
        """Run the pack's `check`s on the texts the editor holds and show every file's
        diagnostics."""
        self.publish(self.packs.run_checks(path))

    def publish(self, found: FileDiagnostics) -> None:
        for file, diags in found:
            lines = self.lines(file)
            self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
                uri=from_fs_path(file) or file,
                diagnostics=[self.diagnostic(d, lines) for d in diags]))

    def diagnostic(self, d: Diagnostic, lines: list[str]) -> T.Diagnostic:
        line, start, end = span(d, lines)
        message = d.message + (f"\n{d.suggestion}" if d.suggestion else "")
        return T.Diagnostic(range=self.range(lines, line, start, end), message=message,
                            severity=_SEVERITY[d.severity], code=d.code, source=SOURCE)

    def range(self, lines: list[str], line: int, start: int, end: int) -> T.Range:
        codec = self.workspace.position_codec
        return T.Range(codec.position_to_client_units(lines, T.Position(line, start)),
                       codec.position_to_client_units(lines, T.Position(line, end)))

    def location(self, p: Place) -> T.Location:
        return T.Location(uri=from_fs_path(p.path) or p.path,
                          range=self.range(self.lines(p.path), p.line, p.col, p.end))

    def settle(self, uri: str) -> None:
        """Check the pack now if the file has a change not checked yet: a request is
        answered from the text the editor shows."""
        version = self.latest.get(uri)
        if version is not None and self.checked.get(uri) != version:
            self.checked[uri] = version
            self.show(to_fs_path(uri) or uri, self.workspace.get_text_document(uri).source)

    def named(self, uri: str, pos: T.Position) -> tuple[PackIndex, Key, Word] | None:
        """The pack, and what the name at a client position stands for (None: no name of
        the pack there)."""
        path, line, col = self.at(uri, pos)
        ix = self.packs.index(path)
        got = ix.key_at(path, line, col) if ix is not None else None
        return None if ix is None or got is None else (ix, *got)

    def at(self, uri: str, pos: T.Position) -> tuple[str, int, int]:
        """The file and the 0-based line and column (in characters) of a client position,
        its pack checked with the text the editor shows."""
        self.settle(uri)
        path = os.path.abspath(to_fs_path(uri) or uri)
        lines = split_lines(self.workspace.get_text_document(uri).source)
        got = self.workspace.position_codec.position_from_client_units(lines, pos)
        return path, got.line, got.character


def build_server(version: str) -> RulesServer:
    server = RulesServer(version)

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: T.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        path = to_fs_path(doc.uri) or doc.uri
        first = not ls.packs.is_open(path)
        ls.show(path, doc.text)
        if first:  # the pack's first file: its checks run once, as on a save
            ls.run_checks(path)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: T.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.settle(uri)  # a change still waiting for the pause is checked first
        ls.run_checks(to_fs_path(uri) or uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RulesServer, params: T.DidChangeTextDocumentParams) -> None:
        uri, version = params.text_document.uri, params.text_document.version
        ls.latest[uri] = version
        await asyncio.sleep(SETTLE)
        if ls.latest.get(uri) == version:  # else a later change came: it is checked instead
            ls.settle(uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: T.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.latest.pop(uri, None)
        ls.checked.pop(uri, None)
        ls.show(to_fs_path(uri) or uri, None)

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: T.HoverParams) -> T.Hover | None:
        got = ls.named(params.text_document.uri, params.position)
        if got is None:
            return None
        ix, key, word = got
        path = os.path.abspath(to_fs_path(params.text_document.uri) or "")
        text = hover_text(ix, key, ls.packs.meta(path))
        if not text:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text),
                       range=ls.range(ix.lines(path), word.line, word.col, word.end))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulesServer, params: T.DefinitionParams) -> list[T.Location] | None:
        got = ls.named(params.text_document.uri, params.position)
        return None if got is None else [ls.location(p) for p in got[0].definitions(got[1])]

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RulesServer, params: T.ReferenceParams) -> list[T.Location] | None:
        got = ls.named(params.text_document.uri, params.position)
        if got is None:
            return None
        ix, key, _word = got
        places = ix.references(key)
        if not params.context.include_declaration:
            declared = set(ix.definitions(key))
            places = [p for p in places if p not in declared]
        return [ls.location(p) for p in places]

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RulesServer, params: T.CompletionParams) -> T.CompletionList | None:
        path, line, col = ls.at(params.text_document.uri, params.position)
        ix = ls.packs.index(path)
        if ix is None or not path.endswith(".rules"):
            return None  # record files: the YAML language server completes them (schema)
        lines = split_lines(ls.workspace.get_text_document(params.text_document.uri).source)
        prefix, owner = prefix_at(lines, line, col)
        typed = ls.packs.parsed(path)  # the types, from the last check that parsed the file
        owner_type = typed.type_before(path, lines, line, list(owner)) \
            if owner and typed is not None else None
        items = [T.CompletionItem(label=c.label, kind=_KIND.get(c.kind), detail=c.detail,
                                  documentation=c.doc or None)
                 for c in candidates(ix.model, prefix, owner, owner_type)]
        return T.CompletionList(is_incomplete=False, items=items)

    @server.feature(T.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer, params: T.DocumentFormattingParams) -> list[T.TextEdit]:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        path = to_fs_path(doc.uri) or doc.uri
        if not path.endswith(".rules"):
            return []
        try:
            new = format_source(doc.source, path)  # what `engine fmt` writes
        except DslError:
            return []  # a syntax error: its diagnostic is shown, the text is left alone
        if new == doc.source:
            return []
        lines = doc.lines
        end = T.Position(len(lines), 0)
        return [T.TextEdit(range=T.Range(T.Position(0, 0), end), new_text=new)]

    return server


def serve_stdio(version: str) -> None:
    build_server(version).start_io()
