"""Helpers for the language server's tests: a server in a subprocess (the
way an editor starts it) and edits sent the way an editor sends them."""

from __future__ import annotations

import sys
from pathlib import Path

from lsprotocol import types as T
from pytest_lsp import ClientServerConfig

ROOT = Path(__file__).resolve().parents[1]
# the worktree's own code, whatever the current folder
SERVER = ClientServerConfig(server_command=[
    sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); from rulebook.cli.main import main; "
    "main(['lsp'])"])


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


def position(text: str, line: int, word: str, nth: int = 0, offset: int = 0) -> T.Position:
    """The LSP position of the ``nth`` ``word`` on 1-based ``line`` of ``text``."""
    row = text.splitlines()[line - 1]
    col = -1
    for _ in range(nth + 1):
        col = row.index(word, col + 1)
    return T.Position(line=line - 1, character=col + offset)


def line_of(text: str, fragment: str) -> int:
    """The 1-based line where ``fragment`` (found once) starts."""
    assert text.count(fragment) == 1, fragment
    return text[:text.index(fragment)].count("\n") + 1


def open_document(client, uri: str, text: str) -> None:
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        text_document=T.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)))


def replace_text(client, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))


async def diagnostics_now(client, uri: str) -> list[T.Diagnostic]:
    """The diagnostics of the document's current text: any request makes the
    server check a changed text first, and it publishes the diagnostics
    before it answers."""
    await client.text_document_document_symbol_async(
        T.DocumentSymbolParams(text_document=T.TextDocumentIdentifier(uri=uri)))
    return client.diagnostics.get(uri, [])
