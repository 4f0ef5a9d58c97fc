"""Record an exchange with the language server, for docs/editor.md.

    python tools/lsp_transcript.py

Starts ``rulebook lsp`` as an editor does, opens a ruleset with a misspelt
zone inside an ``effect:`` block, asks for the quick fix, a hover on a
built-in and the definition of a zone, and prints every message of both
sides (the ``initialize`` exchange, which is long and says nothing about
rulesets, is left out). tests/interfaces/test_lsp_docs.py checks that docs/editor.md
shows what this prints, so the transcript there is a real run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
URI = "file:///home/me/games/nim/ruleset.yaml"
TEXT = (ROOT / "examples" / "nim" / "ruleset.yaml").read_text(encoding="utf-8").split("bots:")[0].replace(
    "# yaml-language-server: $schema=../../validator/ruleset.schema.json\n", "").replace(
    "move top(heap, n)", "move top(heep, n)")


class Server:
    def __init__(self):
        code = f"import sys; sys.path.insert(0, {str(ROOT)!r}); from rulebook.cli.main import main; main(['lsp'])"
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lines: list[str] = []
        self.next_id = 1

    def send(self, method: str, params, request: bool = True, shown: bool = True):
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            message["id"] = self.next_id
            self.next_id += 1
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        if shown:
            self.show("editor -> server", message)
        return self.receive(shown) if request else None

    def receive(self, shown: bool = True) -> dict:
        length = 0
        while True:
            line = self.proc.stdout.readline().decode().strip()
            if not line:
                break
            if line.lower().startswith("content-length:"):
                length = int(line.split(":")[1])
        message = json.loads(self.proc.stdout.read(length))
        if shown:
            self.show("server -> editor", message)
        return message

    def show(self, direction: str, message: dict) -> None:
        self.lines += [f"{direction}: {message.get('method', 'result of ' + str(message.get('id')))}",
                       shown(message), ""]


def shown(value, indent: int = 0, width: int = 100) -> str:
    """JSON as it is, with each object or list that fits in ``width`` on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {shown(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + shown(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def position(line_fragment: str, word: str) -> dict:
    rows = TEXT.splitlines()
    line = next(i for i, row in enumerate(rows) if line_fragment in row)
    return {"line": line, "character": rows[line].index(word)}


def record() -> str:
    server = Server()
    server.send("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, shown=False)
    server.send("initialized", {}, request=False, shown=False)
    server.send("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "yaml", "version": 1,
                                                          "text": TEXT}}, request=False)
    published = server.receive()
    (diagnostic,) = published["params"]["diagnostics"]
    doc = {"uri": URI}
    server.send("textDocument/codeAction", {"textDocument": doc, "range": diagnostic["range"],
                                            "context": {"diagnostics": [diagnostic]}})
    server.send("textDocument/hover", {"textDocument": doc, "position": position("move top(", "top")})
    server.send("textDocument/definition", {"textDocument": doc, "position": position("to taken[player]", "taken")})
    server.send("shutdown", None, shown=False)
    server.send("exit", None, request=False, shown=False)
    server.proc.wait(timeout=30)
    return "\n".join(server.lines).rstrip() + "\n"


if __name__ == "__main__":
    sys.stdout.write(record())
