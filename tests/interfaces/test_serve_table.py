"""A table that outlives its game (issue 41 item 5), spoken to over
WebSockets as a page does: a takeback the other human accepts or refuses,
a rematch with the same or a new seed at the same links, ``--save DIR``
and a server started again that resumes the game with the same links, and
the author's branch, answer for a seat and seat made human. The same in
Chromium: tests/interfaces/test_browser_table.py."""

from __future__ import annotations

import json
import re

from serving import next_message, next_refusal, seat_socket, ws_url
from websockets.sync.client import connect


def until(ws, test, limit: int = 400) -> dict:
    """The next table message for which ``test`` holds."""
    for _ in range(limit):
        msg = next_message(ws)
        if test(msg):
            return msg
    raise AssertionError("the table never got there")


def mine(msg) -> bool:
    return msg["table"]["decision"] is not None or msg["table"]["over"]


def test_a_takeback_waits_for_the_other_human_and_puts_the_game_back(serve):
    table = serve("dead-mans-draw", "--human", "1", "--human", "2", "--seed", "3")
    with seat_socket(table, 1) as a, seat_socket(table, 2) as b:
        ma, mb = next_message(a), next_message(b)
        mover, other, m = (a, b, ma) if ma["table"]["decision"] else (b, a, mb)
        assert not m["can_take_back"]  # nothing to take back yet
        while len(m["table"]["decision"]["options"]) == 1:  # a forced answer is not taken back: it would come again
            mover.send(json.dumps({"type": "choose", "index": 0, "decision": m["table"]["steps"]}))
            m = until(mover, lambda x, n=m["table"]["steps"]: x["table"]["steps"] > n and x["table"]["decision"])
        assert not m["can_take_back"]
        before = m["table"]["steps"]
        mover.send(json.dumps({"type": "choose", "index": 0, "decision": before}))
        after = until(mover, lambda x: x["table"]["steps"] > before and x["can_take_back"])
        mover.send(json.dumps({"type": "takeback"}))
        asked = until(other, lambda x: x["takeback"] is not None)
        assert asked["takeback"]["asks_me"] and not asked["takeback"]["mine"]
        assert until(mover, lambda x: x["takeback"] is not None)["takeback"]["mine"]
        other.send(json.dumps({"type": "takeback_answer", "accept": False}))  # refused: nothing changes
        refused = until(mover, lambda x: x["takeback"] is None)
        assert refused["table"]["steps"] == after["table"]["steps"]
        assert "refused the takeback" in refused["table"]["log"][-1]["text"]
        mover.send(json.dumps({"type": "takeback"}))
        until(other, lambda x: x["takeback"] is not None)
        other.send(json.dumps({"type": "takeback_answer", "accept": True}))
        back = until(mover, lambda x: x["table"]["steps"] == before and x["table"]["decision"] is not None)
        assert back["table"]["decision"]["options"] == m["table"]["decision"]["options"]
        assert "took back a decision" in back["table"]["log"][-1]["text"]
        other.send(json.dumps({"type": "takeback_answer", "accept": True}))
        assert next_refusal(other) == "nobody asks you for a takeback"


def play_to_the_end(ws, msg=None) -> dict:
    msg = msg if msg is not None and mine(msg) else until(ws, mine)
    while not msg["table"]["over"]:
        ws.send(json.dumps({"type": "choose", "index": 0, "decision": msg["table"]["steps"]}))
        msg = until(ws, lambda x, n=msg["table"]["steps"]: x["table"]["steps"] > n and mine(x))
    return msg


def test_a_rematch_keeps_the_links_and_with_the_same_seed_the_same_game(serve):
    table = serve("nim", "--human", "1", "--seed", "5", "--author")
    with seat_socket(table, 1) as ws:
        first = next_message(ws)
        ws.send(json.dumps({"type": "rematch"}))
        assert next_refusal(ws) == "a rematch is offered when the game is over"
        end = play_to_the_end(ws)
        with connect(ws_url(table, f"role=author&t={table.token('author')}"), open_timeout=30) as au:
            from rulebook.validator.graph import END

            panel = json.loads(au.recv(timeout=60))
            assert panel["table"]["over"] and panel["phase"] == str(END)  # the phase graph marks the end
        ws.send(json.dumps({"type": "rematch", "same_seed": True}))
        again = until(ws, lambda x: x["game"] == 2)
        assert again["table"]["steps"] == 0 and not again["table"]["over"]
        assert again["table"]["zones"] == first["table"]["zones"] and again["table"]["vars"] == first["table"]["vars"]
        assert "Game 2: seed 5." in again["table"]["log"][0]["text"]
        assert end["table"]["over"]
        end = play_to_the_end(ws, again)
        ws.send(json.dumps({"type": "rematch", "same_seed": False}))
        third = until(ws, lambda x: x["game"] == 3)
        assert re.search(r"Game 3: seed \d+\.", third["table"]["log"][0]["text"])
        assert "seed 5." not in third["table"]["log"][0]["text"]
    with seat_socket(table, 1) as ws:  # the same link still opens the seat
        assert next_message(ws)["game"] == 3


def test_a_saved_table_resumes_with_the_same_links_after_a_restart(serve, tmp_path):
    folder = str(tmp_path / "table")
    table = serve("dead-mans-draw", "--human", "1", "--seed", "8", "--author", "--save", folder)
    links = dict(table.links)
    port = int(table.base.rsplit(":", 1)[1])
    with seat_socket(table, 1) as a:
        m = until(a, mine)
        for _ in range(3):  # three answers of seat 1, and the bot's
            a.send(json.dumps({"type": "choose", "index": 0, "decision": m["table"]["steps"]}))
            m = until(a, lambda x, n=m["table"]["steps"]: x["table"]["steps"] > n and mine(x))
        a.send(json.dumps({"type": "name", "name": "Ann"}))
        named = until(a, lambda x: x["table"]["players"][0]["name"] == "Ann")
    assert "saved in" in "".join(table.output)
    table.stop()
    again = serve("dead-mans-draw", "--save", folder, port=None)  # the saved port, seats and tokens
    assert again.links == links
    with seat_socket(again, 1) as a:
        resumed = next_message(a)
    assert resumed["table"]["steps"] == named["table"]["steps"]
    assert resumed["table"]["zones"] == named["table"]["zones"]
    assert [ln["text"] for ln in resumed["table"]["log"]] == [ln["text"] for ln in named["table"]["log"]]
    assert resumed["table"]["players"][0]["name"] == "Ann"
    assert again.base.endswith(f":{port}")


def test_a_damaged_saved_log_is_one_placed_line(serve, tmp_path):
    folder = tmp_path / "table"
    table = serve("nim", "--human", "1", "--seed", "2", "--save", str(folder))
    table.stop()
    log = (folder / "game.log").read_text().splitlines()
    (folder / "game.log").write_text("\n".join(log[:1] + ['{"step": 5, "player": 0, "value": 1}']) + "\n")
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "rulebook.cli", "serve", "nim", "--save", str(folder), "--port", "0",
                          "--no-open"], capture_output=True, text=True, timeout=120)
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert re.search(r"game\.log:2:\d+: error\[R020\]: step 5 follows step 0", out.stderr), out.stderr


def test_the_author_branches_answers_for_a_seat_and_makes_a_seat_human(serve):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "4", "--author")
    with seat_socket(table, 1) as ws, connect(ws_url(table, f"role=author&t={table.token('author')}"),
                                              open_timeout=30) as au:
        def author_msg(test):
            while True:
                msg = json.loads(au.recv(timeout=60))
                if msg["type"] == "author" and test(msg):
                    return msg

        m = until(ws, mine)
        for _ in range(3):
            ws.send(json.dumps({"type": "choose", "index": 0, "decision": m["table"]["steps"]}))
            m = until(ws, lambda x, n=m["table"]["steps"]: x["table"]["steps"] > n and mine(x))
        live = author_msg(lambda x: x["steps"] == m["table"]["steps"])
        assert live["phase"] == "play" and live["pending"]["seats"][0]["seat"] == 0
        au.send(json.dumps({"type": "branch", "step": 1}))
        branched = author_msg(lambda x: "branched" in json.dumps(x["table"]["log"]))
        assert "The author branched from step 1" in json.dumps(branched["table"]["log"])
        seat_view = until(ws, lambda x: mine(x) and any("branched" in ln["text"] for ln in x["table"]["log"]))
        assert seat_view["table"]["steps"] >= 1  # seat 1 decides: the bots wait, nothing moves meanwhile
        now = branched if branched["steps"] == seat_view["table"]["steps"] else author_msg(
            lambda x: x["steps"] == seat_view["table"]["steps"] and x["pending"] is not None)
        who = now["pending"]["seats"][0]
        au.send(json.dumps({"type": "choose", "seat": who["seat"], "index": 0, "decision": now["pending"]["number"]}))
        author_msg(lambda x: x["steps"] > now["steps"])
        au.send(json.dumps({"type": "seat_kind", "seat": 1, "human": True}))
        made = author_msg(lambda x: x["seats"][1]["human"])
        link = made["seats"][1]["link"]
        assert link.startswith("/seat/2?t=")
        with connect(ws_url(table, f"role=seat&seat=2&t={link.split('?t=')[1]}"), open_timeout=30) as two:
            assert next_message(two)["table"]["viewer"] == 1
        au.send(json.dumps({"type": "seat_kind", "seat": 0, "human": False}))
        author_msg(lambda x: not x["seats"][0]["human"])
        ws.send(json.dumps({"type": "choose", "index": 0, "decision": 0}))
        assert next_refusal(ws) == "a bot plays this seat now (the author made it one)"
