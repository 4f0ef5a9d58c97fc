"""The server's wiring: pygls features that call the modules beside this
one. Documents are checked when opened, saved, and a moment after the last
change (``DEBOUNCE``); a request about a document changed since its last
check checks it first, so no answer reads an older text."""

from __future__ import annotations

import asyncio
from importlib.metadata import PackageNotFoundError, version

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from rulebook.lsp import completion, definitions, diagnostics, hover, symbols
from rulebook.lsp.analysis import Analysis, analyse
from rulebook.lsp.names import find_at
from rulebook.lsp.positions import from_lsp, lsp_range

DEBOUNCE = 0.25  # seconds after the last keystroke


class RulebookServer(LanguageServer):
    """The language server and its documents: uri -> (version checked, Analysis)."""

    def __init__(self):
        try:
            own = version("rulebook")
        except PackageNotFoundError:  # pragma: no cover - run from a source tree
            own = "0"
        super().__init__("rulebook", own)
        self.analyses: dict[str, tuple[int | None, Analysis]] = {}
        self.pending: dict[str, asyncio.Task] = {}

    def check(self, uri: str) -> Analysis:
        """The analysis of the document's current text, checking it (and
        publishing its diagnostics) when it changed since the last check."""
        document = self.workspace.get_text_document(uri)
        known = self.analyses.get(uri)
        if known is not None and known[0] == document.version and known[1].text == document.source:
            return known[1]
        result = analyse(to_fs_path(uri) or uri, document.source, known[1] if known else None)
        self.analyses[uri] = (document.version, result)
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(
            uri=uri, version=document.version,
            diagnostics=[diagnostics.to_lsp(d, uri, result.lines) for d in result.diagnostics]))
        return result

    def check_later(self, uri: str) -> None:
        old = self.pending.pop(uri, None)
        if old is not None:
            old.cancel()

        async def soon():
            await asyncio.sleep(DEBOUNCE)
            self.pending.pop(uri, None)
            self.check(uri)

        self.pending[uri] = asyncio.get_running_loop().create_task(soon())


def make_server() -> RulebookServer:
    server = RulebookServer()

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulebookServer, params: T.DidOpenTextDocumentParams):
        ls.check(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulebookServer, params: T.DidChangeTextDocumentParams):
        ls.check_later(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulebookServer, params: T.DidSaveTextDocumentParams):
        ls.check(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulebookServer, params: T.DidCloseTextDocumentParams):
        uri = params.text_document.uri
        ls.analyses.pop(uri, None)
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def on_hover(ls: RulebookServer, params: T.HoverParams):
        a = ls.check(params.text_document.uri)
        line, col = from_lsp(a.lines, params.position)
        use = find_at(a, line, col)
        text = hover.hover_markdown(use, a.checker) if use is not None else None
        if not text:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=text),
                       range=lsp_range(a.lines, use.line, use.column, use.length))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: RulebookServer, params: T.DefinitionParams):
        a = ls.check(params.text_document.uri)
        return definitions.definition_of(a, params.text_document.uri, *from_lsp(a.lines, params.position))

    @server.feature(T.TEXT_DOCUMENT_REFERENCES)
    def on_references(ls: RulebookServer, params: T.ReferenceParams):
        a = ls.check(params.text_document.uri)
        return definitions.references_of(a, params.text_document.uri, *from_lsp(a.lines, params.position),
                                         params.context.include_declaration)

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls: RulebookServer, params: T.CompletionParams):
        a = ls.check(params.text_document.uri)
        return T.CompletionList(is_incomplete=False, items=completion.complete(a, *from_lsp(a.lines, params.position)))

    @server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(ls: RulebookServer, params: T.DocumentSymbolParams):
        a = ls.check(params.text_document.uri)
        return symbols.outline(a.doc, a.lines) if a.doc is not None else []

    @server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                    T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
    def on_code_action(ls: RulebookServer, params: T.CodeActionParams):
        return diagnostics.quick_fixes(params.text_document.uri, params.context.diagnostics)

    return server
