"""``rulebook serve`` against faults and odd clients (issue 37, items 3 to
6), over real WebSockets (tests/serving.py starts the real command): a
forced question is asked as usual when several humans sit at the table, a
public answer does not stop the table, a client that never reads does not
freeze the others, a rule error stops the game where it was and says so in
one line, and odd seat numbers, binary frames and other sites' pages are
refused. tests/interfaces/test_browser.py plays the same cases in Chromium."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from serving import next_refusal, next_table, seat_socket, ws_url
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

DATA = Path(__file__).resolve().parents[1] / "data" / "serve"
ABOVE_THREE = str(DATA / "play-one-above-three.yaml")
FAILS = str(DATA / "fails-on-the-fourth-move.yaml")


def answer(ws, t: dict, index: int = 0) -> None:
    ws.send(json.dumps({"type": "choose", "index": index, "decision": t["decision"]["number"]}))


def next_message(ws, kind: str, timeout: float = 60) -> dict:
    end = time.monotonic() + timeout
    while True:
        msg = json.loads(ws.recv(timeout=max(0.1, end - time.monotonic())))
        if msg["type"] == kind:
            return msg


# ------------------------------------------------------------------ item 3: forced answers
def seeds_by_first_seat_options(count: int) -> dict[bool, int]:
    """A seed where seat 1 holds no card above 3 (its one option: pass) and one where it holds one."""
    from rulebook.compiler.build import compile_path
    from rulebook.interpreter.game import Game

    game = Game(compile_path(ABOVE_THREE).program)
    found: dict[bool, int] = {}
    for seed in range(count):
        found.setdefault(len(game.options(game.new(players=2, seed=seed), 0)) == 1, seed)
    return found


def test_with_two_humans_a_forced_question_is_asked_and_tells_the_other_seat_nothing(serve):
    seeds = seeds_by_first_seat_options(40)
    assert set(seeds) == {True, False}
    for forced, seed in seeds.items():
        table = serve(ABOVE_THREE, "--human", "1", "--human", "2", "--seed", str(seed))
        with seat_socket(table, 1) as one, seat_socket(table, 2) as two:
            mine, theirs = next_table(one), next_table(two)
            assert theirs["players"][0]["to_move"], f"seed {seed}: seat 2 sees whether seat 1 had a choice"
            assert mine["decision"] is not None and (len(mine["decision"]["options"]) == 1) == forced
            if forced:
                assert [o["label"] for o in mine["decision"]["options"]] == ["pass"]


# ------------------------------------------------------------------ item 4: public answers
def test_liars_dice_with_public_answers_is_played_to_the_end(serve):
    table = serve("liars-dice", "-p", "3", "--human", "1", "--seed", "6")
    with seat_socket(table, 1) as ws:
        t = next_table(ws)
        for _ in range(500):
            if t["over"]:
                break
            if t["decision"]:
                answer(ws, t, len(t["decision"]["options"]) - 1)  # the last option: a bid or a challenge
            t = next_table(ws)
        assert t["over"], "the game did not end"
    assert table.proc.poll() is None and "Traceback" not in "".join(table.output)


# ------------------------------------------------------------------ item 5: a slow client, a rule error, stale answers
class Stuffed:
    """A WebSocket on a seat's link spoken by hand: it sends frames and never
    reads (its receive buffer kept small), as a stalled or hostile client."""

    def __init__(self, table, seat: int):
        host, port = table.base[len("http://"):].rsplit(":", 1)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET /ws?role=seat&seat={seat}&t={table.token(f'seat {seat}')} HTTP/1.1\r\nHost: {host}:{port}\r\n"
             f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        self.sent = 0
        threading.Thread(target=self.flood, daemon=True).start()

    def flood(self) -> None:
        frame = frame_of(json.dumps({"type": "choose", "index": 99, "decision": 0}).encode())
        try:
            for _ in range(5000):
                self.sock.sendall(frame)
                self.sent += 1
        except OSError:
            pass

    def closed_by_server(self, timeout: float) -> bool:
        """Read what the server sent; whether it then closed the connection."""
        self.sock.settimeout(timeout)
        try:
            while self.sock.recv(65536):
                pass
        except TimeoutError:
            return False
        except OSError:
            return True
        return True


def frame_of(payload: bytes, opcode: int = 0x1) -> bytes:
    """A masked client frame (payload under 126 bytes)."""
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_client_that_never_reads_is_dropped_and_stalls_nobody(serve):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "3")
    stuffed = Stuffed(table, 1)
    try:
        end = time.monotonic() + 30
        while stuffed.sent < 1000 and time.monotonic() < end:
            time.sleep(0.05)  # the server has answered enough refusals to fill the stalled socket's buffers
        with seat_socket(table, 1) as ws:
            t = next_table(ws)
            for _ in range(6):  # each answer is broadcast to every connection of the table
                while not (t["decision"] or t["over"]):
                    t = next_table(ws)
                if t["over"]:
                    break
                steps = t["steps"]
                answer(ws, t)
                t = next_table(ws)  # within next_table's time limit: nobody waits for the stalled socket
                assert t["steps"] > steps
        assert stuffed.closed_by_server(30), "the connection that never read was not dropped"
    finally:
        stuffed.sock.close()


@pytest.mark.parametrize("humans", [("1", "2"), ("1",)], ids=["a human's move fails", "a bot's move fails"])
def test_a_rule_error_stops_the_game_where_it_was_and_says_so_in_one_line(serve, humans):
    args = [a for h in humans for a in ("--human", h)]
    table = serve(FAILS, *args, "--seed", "1", "--author")
    where = "fails-on-the-fourth-move.yaml:26:22: error[R104]: division by zero"
    with contextlib.ExitStack() as stack:
        sockets = {int(h): stack.enter_context(seat_socket(table, int(h))) for h in humans}
        latest = {h: next_message(ws, "table") for h, ws in sockets.items()}
        for _ in range(10):
            if any(msg["failure"] for msg in latest.values()):
                break
            for h, ws in sockets.items():
                t = latest[h]["table"]
                if t["decision"] and not latest[h]["failure"]:
                    answer(ws, t)
                    latest[h] = next_message(ws, "table")
            for h, ws in sockets.items():  # every seat's newest table
                try:
                    while True:
                        latest[h] = next_message(ws, "table", timeout=0.5)
                except TimeoutError:
                    pass
        for h, msg in latest.items():
            assert msg["failure"] and where in msg["failure"]["text"], (h, msg["failure"])
            assert msg["failure"]["code"] == "R104" and msg["failure"]["where"].endswith("yaml:26:22")
            assert msg["table"]["steps"] == 3  # the failed fourth move left nothing behind
        with connect(ws_url(table, f"role=author&t={table.token('author')}"), open_timeout=30) as ws:
            panel = json.loads(ws.recv(timeout=60))
            assert where in panel["failure"]["text"] and len(panel["state"]["history"]) == 3
            assert panel["pending"] is not None  # the fourth move's question, still open as it was
        mover = 2 if len(humans) == 2 else 1
        ws = sockets[mover]
        ws.send(json.dumps({"type": "choose", "index": 0, "decision": 3}))
        assert next_refusal(ws).startswith("the game stopped: ")
    output = table.stop()
    assert table.proc.returncode == 1, output
    assert "Traceback" not in output
    assert [line for line in output.splitlines() if "error[" in line] == [f"rulebook: {DATA / where}"]


def test_an_answer_names_its_decision_and_a_stale_one_is_refused(serve):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "3")
    with seat_socket(table, 1) as ws:
        t = next_table(ws)
        while not t["decision"]:
            t = next_table(ws)
        number = t["decision"]["number"]
        assert number == t["steps"]
        ws.send(json.dumps({"type": "choose", "index": 0}))
        assert next_refusal(ws) == "an answer must say which decision it answers"
        ws.send(json.dumps({"type": "choose", "index": 0, "decision": number - 1}))
        assert next_refusal(ws).startswith(f"that answer was for decision {number - 1}, and this is decision {number}")
        assert next_table(ws)["steps"] == number  # nothing was applied


# ------------------------------------------------------------------ item 6: odd requests
def test_odd_seat_numbers_are_refused_not_a_server_error(serve):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "3")
    token = table.token("seat 1")
    for seat in ("%C2%B2", "9" * 5000, "0", "-1", "1.0", "%EF%BC%91", "0001"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"{table.base}/seat/{seat}?t={token}", timeout=30)
        assert err.value.code == 403, seat[:20]
        with pytest.raises(InvalidStatus) as err:
            connect(ws_url(table, f"role=seat&seat={seat}&t={token}"), open_timeout=30)
        assert err.value.response.status_code == 403, seat[:20]
    assert urllib.request.urlopen(table.links["seat 1"], timeout=30).status == 200
    assert "Traceback" not in "".join(table.output)


def test_a_binary_frame_closes_the_socket_with_a_code(serve):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "3")
    with seat_socket(table, 1) as ws:
        next_table(ws)
        ws.send(b"\x00\x01binary")
        with pytest.raises(ConnectionClosed) as err:
            while True:
                ws.recv(timeout=30)
        assert err.value.rcvd is not None and err.value.rcvd.code == 1003
    with seat_socket(table, 1) as ws:  # the table goes on
        assert next_table(ws)["viewer"] == 0
    assert "Traceback" not in "".join(table.output)


def test_a_page_of_another_site_cannot_open_a_seat_even_with_its_token(serve):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "3")
    url = ws_url(table, f"role=seat&seat=1&t={table.token('seat 1')}")
    for origin in ("http://evil.example", "null", table.base + ".evil.example", "https://evil.example:1"):
        with pytest.raises(InvalidStatus) as err:
            connect(url, origin=origin, open_timeout=30)
        assert err.value.response.status_code == 403, origin
    with connect(url, origin=table.base, open_timeout=30) as ws:  # the server's own page
        assert next_table(ws)["viewer"] == 0
