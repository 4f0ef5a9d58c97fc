"""Helpers of the tests of ``rulebook serve`` (tests/interfaces/test_serve.py without a
browser, tests/interfaces/test_browser.py in Chromium): the real command started on a
free port, and the served game played again here to check what each seat
was sent."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent


class Table:
    """One ``rulebook serve`` process and the links it printed."""

    def __init__(self, *args: str, port: int | None = 0):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        where = [] if port is None else ["--port", str(port)]  # None: the port the command chooses
        # Ctrl-C as a host's terminal gives it (``stop``), however this test runs: a test run started in
        # the background of a shell without job control ignores SIGINT, and its children inherit that
        command = [sys.executable, "-c", "import runpy, signal, sys; "
                   "signal.signal(signal.SIGINT, signal.default_int_handler); "
                   "sys.argv = ['rulebook'] + sys.argv[1:]; runpy.run_module('rulebook.cli', run_name='__main__')"]
        self.proc = subprocess.Popen([*command, "serve", *args, *where,
                                      "--no-open", "--bot-delay", "0"], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)
        self.links: dict[str, str] = {}
        self.output: list[str] = []
        lines: queue.Queue = queue.Queue()
        self.lines = lines  # what the process prints after its links (``stop`` reads it)
        threading.Thread(target=lambda: [lines.put(x) for x in self.proc.stdout] + [lines.put(None)],
                         daemon=True).start()  # reads until the process ends (its output is never blocked)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                line = lines.get(timeout=1.0)
            except queue.Empty:
                continue
            if line is None:
                break
            self.output.append(line)
            m = re.match(r"(seat \d+|author): (http://\S+)", line)
            if m:
                self.links[m.group(1)] = m.group(2)
            if line.startswith("Each link is a secret"):
                return
        self.close()
        raise AssertionError("rulebook serve did not start:\n" + "".join(self.output))

    @property
    def base(self) -> str:
        return re.match(r"http://[^/]+", next(iter(self.links.values()))).group(0)

    def token(self, who: str) -> str:
        return self.links[who].split("?t=", 1)[1]

    def stop(self) -> str:
        """Stop the table as its host does (Ctrl-C); everything it printed."""
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.close()
        while (line := self.lines.get(timeout=30)) is not None:
            self.output.append(line)
        return "".join(self.output)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def serve():
    """Start ``rulebook serve`` with these arguments; every table started is closed after the test."""
    tables = []

    def start(*args: str, port: int | None = 0) -> Table:
        t = Table(*args, port=port)
        tables.append(t)
        return t

    yield start
    for t in tables:
        t.close()


# ------------------------------------------------------------------ speaking as a page does
def ws_url(table: Table, query: str) -> str:
    return table.base.replace("http://", "ws://") + "/ws?" + query


def seat_socket(table: Table, seat: int):
    return connect(ws_url(table, f"role=seat&seat={seat}&t={table.token(f'seat {seat}')}"), open_timeout=30)


def next_table(ws) -> dict:
    return next_message(ws)["table"]


def next_message(ws) -> dict:
    """The next table message whole: the table and the table's own offers (takeback, rematch)."""
    while True:
        msg = json.loads(ws.recv(timeout=60))
        if msg["type"] == "table":
            return msg


def next_refusal(ws) -> str:
    """The next refusal's message (the table sent again after it is skipped)."""
    while True:
        msg = json.loads(ws.recv(timeout=60))
        if msg["type"] == "refused":
            return msg["message"]


class Replay:
    """The served game played again in this process from its seed and
    decisions (read from the author's panel at the end): for each step, what
    each seat could see then and what it had never seen so far."""

    def __init__(self, game_id: str, params: dict | None = None, variants=(), *, state: dict):
        from rulebook.compiler.build import compile_path
        from rulebook.interpreter.game import Game

        from rulebook.files.locate import locate

        self.game = Game(compile_path(locate(game_id), tuple(variants)).program)
        st = self.game.new(players=len(state["pvars"]), seed=state["seed"], params=params or {})
        self.snapshots = [st.clone()]
        for entry in state["history"]:
            if len(entry) == 3:
                self.game.time_out(st, entry[0])
            else:
                self.game.apply(st, entry[0], self.game.options(st, entry[0]).index_of(entry[1]))
            self.snapshots.append(st.clone())
        self.n = st.n

    def unseen_names(self, seat: int, step: int) -> set[str]:
        """Names of another seat's secrets at ``step``: components some
        other seat sees then and ``seat`` has not seen at any step so far,
        among the names only one component has (a name many components
        share, such as a kind of supply, names none of them)."""
        from rulebook.interpreter.labels import comp_name
        from rulebook.interpreter.ops import can_see

        seen: set[int] = set()
        for st in self.snapshots[: step + 1]:
            seen |= {c for c in range(len(st.face)) if can_see(st, c, seat)}
        st = self.snapshots[step]
        names = [comp_name(st, c) for c in range(len(st.face))]
        unique = {name for name in names if names.count(name) == 1}
        others = [q for q in range(self.n) if q != seat]
        secret = {c for c in range(len(st.face)) if c not in seen and any(can_see(st, c, q) for q in others)}
        return {names[c] for c in secret} & unique

    def check_frame(self, seat: int, raw: str) -> int | None:
        """Assert that one message to ``seat`` tells nothing it could not
        see; its step (None: not a table)."""
        from rulebook.interpreter.ops import can_see

        msg = json.loads(raw)
        if msg.get("type") != "table":
            return None
        table = msg["table"]
        assert table["viewer"] == seat, "a seat was sent another seat's table"
        step = table["steps"]
        st = self.snapshots[step]
        if table["over"]:
            return step  # at the end the rules reveal what they reveal
        ids = [i["id"] for z in table["zones"] for i in z["items"] if "id" in i]
        ids += [p["id"] for b in table["boards"] for s in b["spaces"] for p in s["pieces"] if "id" in p]
        for o in (table["decision"] or {}).get("options", []):
            ids += [int(t[1:]) for t in o["targets"] if t.startswith("c")]
        hidden = [c for c in ids if not can_see(st, c, seat)]
        assert not hidden, f"step {step}: seat {seat + 1} was sent components it cannot see: {hidden}"
        assert_no_names(raw, self.unseen_names(seat, step), f"message at step {step} to seat {seat + 1}")
        return step


def assert_no_names(text: str, names: set[str], where: str) -> None:
    for name in names:
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text):
            raise AssertionError(f"{where} names {name!r}, which that seat has never seen")


