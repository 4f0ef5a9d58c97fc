"""``rulebook serve`` without a browser: the real command on a free port,
spoken to over HTTP and WebSockets as a page does (tests/interfaces/test_browser.py
does the same in Chromium). These run on any machine."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from serving import Replay, assert_no_names, next_refusal, next_table, seat_socket, ws_url
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect


def test_tokens_open_their_own_seat_only(serve):
    table = serve("dead-mans-draw", "--human", "1", "--human", "2", "--seed", "3", "--author")
    one, two, author = table.token("seat 1"), table.token("seat 2"), table.token("author")
    for query in (f"role=seat&seat=2&t={one}", f"role=seat&seat=1&t={two}", "role=seat&seat=1&t=x",
                  "role=seat&seat=1", f"role=author&t={one}", "role=author"):
        with pytest.raises(InvalidStatus) as err:
            connect(ws_url(table, query), open_timeout=30)
        assert err.value.response.status_code == 403, query
    for path in (f"/seat/2?t={one}", "/seat/1?t=nope", f"/author?t={two}", f"/author/graph.svg?t={one}"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(table.base + path, timeout=30)
        assert err.value.code == 403, path
    with seat_socket(table, 1) as ws:
        t = next_table(ws)
        assert t["viewer"] == 0 and t["players"][0]["you"] and not t["players"][1]["you"]
    with connect(ws_url(table, f"role=author&t={author}"), open_timeout=30) as ws:
        msg = json.loads(ws.recv(timeout=60))
        assert msg["type"] == "author" and "state" in msg and msg["steps"] >= 0
    graph = urllib.request.urlopen(f"{table.base}/author/graph.svg?t={author}", timeout=30).read().decode()
    assert "<svg" in graph and "play" in graph


def test_a_decision_out_of_turn_or_stale_is_refused(serve):
    table = serve("dead-mans-draw", "--human", "1", "--human", "2", "--seed", "3")
    with seat_socket(table, 1) as a, seat_socket(table, 2) as b:
        ta, tb = next_table(a), next_table(b)
        mover, waiter, t = (a, b, ta) if ta["decision"] else (b, a, tb)
        waiting = tb if mover is a else ta
        waiter.send(json.dumps({"type": "choose", "index": 0, "decision": waiting["steps"]}))
        assert next_refusal(waiter) == "you have no decision to make now"
        mover.send(json.dumps({"type": "choose", "index": 0, "decision": t["steps"] - 1}))
        assert "changed" in next_refusal(mover)
        mover.send(json.dumps({"type": "choose", "index": 99, "decision": t["steps"]}))
        assert next_refusal(mover) == "that is not one of your options"
        assert next_table(mover)["steps"] == t["steps"]  # nothing was applied


def test_two_seats_play_a_lifeboat_game_over_websockets_and_keep_their_secrets(serve):
    """Seats 1 and 2 answer their first option each time; every message each
    receives is checked against the game replayed here."""
    table = serve("lifeboat", "--players", "4", "--human", "1", "--human", "2", "--seed", "5", "--author",
                  "--param", "max_days=2")
    frames: dict[int, list[str]] = {0: [], 1: []}
    with seat_socket(table, 1) as a, seat_socket(table, 2) as b:
        sockets = {0: a, 1: b}
        latest: dict[int, dict] = {}
        for seat, ws in sockets.items():
            raw = ws.recv(timeout=60)
            frames[seat].append(raw)
            latest[seat] = json.loads(raw)["table"]
        for _ in range(3000):
            if all(t["over"] for t in latest.values()):
                break
            for seat, ws in sockets.items():
                t = latest[seat]
                if t["decision"] and not t["over"]:
                    ws.send(json.dumps({"type": "choose", "index": 0, "decision": t["decision"]["number"]}))
            # read until each seat has its newest table (nothing more waiting)
            for seat, ws in sockets.items():
                while True:
                    try:
                        raw = ws.recv(timeout=0.3 if latest[seat]["decision"] is None else 0.05)
                    except TimeoutError:
                        break
                    frames[seat].append(raw)
                    msg = json.loads(raw)
                    if msg["type"] == "table":
                        latest[seat] = msg["table"]
        assert all(t["over"] for t in latest.values()), "the game did not end"
    with connect(ws_url(table, f"role=author&t={table.token('author')}"), open_timeout=30) as ws:
        state = json.loads(ws.recv(timeout=60))["state"]
    replay = Replay("lifeboat", {"max_days": 2}, state=state)
    assert replay.snapshots[-1].over
    for seat in (0, 1):
        steps = [replay.check_frame(seat, raw) for raw in frames[seat]]
        assert any(s is not None for s in steps)
    # each seat's own loyalty cards were sent to it, the other's never before the end
    from rulebook.interpreter.labels import comp_name

    start = replay.snapshots[0]
    base = start.cat.zone_base
    loyalty = {p: {comp_name(start, c) for z in ("friend", "enemy") for c in start.zones[base[z] + p]} for p in (0, 1)}
    for me, other in ((0, 1), (1, 0)):
        assert any(all(name in raw for name in loyalty[me]) for raw in frames[me])
        for raw in frames[me]:
            msg = json.loads(raw)
            if msg["type"] == "table" and not msg["table"]["over"]:
                assert_no_names(raw, loyalty[other] - loyalty[me], f"a message to seat {me + 1}")
