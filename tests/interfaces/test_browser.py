"""``rulebook serve`` in a real browser: headless Chromium from the system
packages, driven by Playwright for Python (pointed at that Chromium: no
browser is downloaded).

Each test starts the real command (``python -m rulebook.cli serve``) on a
free port and reads the seats' secret links from its output, as a host
would. Whole games are played by clicking; every WebSocket message a seat
receives and the page itself are checked against the game replayed here,
step by step: no component the seat could not see at that step reaches it
(by id), and no name of a component it has never seen appears in it. The
tests skip, saying why, only on a machine without Chromium; CI installs it
(``.ci/run``).
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from serving import ROOT, Replay, Table, assert_no_names

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
IMG = ROOT / "docs" / "img"
WAIT_MS = 60_000  # a loaded machine (two cores, four engineers) can be slow; polled, never slept

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Chromium is not installed at {CHROMIUM} "
                                "(apt-get install chromium); the browser tests need a real browser")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Seat:
    """One browser page open on one seat's link, recording every message
    its WebSocket receives."""

    def __init__(self, browser, link: str, width: int = 1280, height: int = 900):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.frames: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: self.frames.append(payload)))
        self.page.goto(link)
        self.page.wait_for_function("document.body.dataset.steps !== undefined", timeout=WAIT_MS)

    def steps(self) -> int:
        return int(self.page.evaluate("document.body.dataset.steps"))

    def over(self) -> bool:
        return self.page.evaluate("document.body.dataset.over") == "yes"

    def has_decision(self) -> bool:
        return self.page.locator("#decision button.option").count() > 0

    def wait_turn_or_end(self) -> None:
        self.page.wait_for_function(
            "document.body.dataset.over === 'yes' || document.querySelector('#decision button.option') !== null",
            timeout=WAIT_MS)

    def click_once(self, prefer_target: bool) -> None:
        """Answer the pending decision with clicks: a highlighted component,
        space or player when ``prefer_target`` (the staged choice goes on
        until an option is sent), else the first option's button."""
        page = self.page
        before = self.steps()
        sent_before = page.evaluate("document.body.dataset.sent || '0'")
        for _ in range(6):
            targets = page.locator("#board-area .target")
            if prefer_target and targets.count():
                targets.first.click()
            elif page.locator("#decision button.option").count():
                page.locator("#decision button.option").first.click()
            elif self.steps() != before or self.over():
                return  # the table moved on meanwhile (another seat's answer, a time-out)
            else:
                raise AssertionError("no option to click; the decision: "
                                     + page.evaluate("JSON.stringify([table.decision, picked, table.steps])"))
            if page.evaluate("document.body.dataset.sent || '0'") != sent_before:
                break
        else:
            raise AssertionError("six clicks sent no option")
        page.wait_for_function(f"document.body.dataset.steps !== '{before}' || document.body.dataset.over === 'yes'",
                               timeout=WAIT_MS)

    def close(self) -> None:
        self.context.close()


def author_state(browser, table: Table) -> dict:
    page = browser.new_page()
    try:
        page.goto(table.links["author"])
        page.wait_for_function("typeof author !== 'undefined' && author !== null", timeout=WAIT_MS)
        return page.evaluate("author.state")
    finally:
        page.close()


def play_whole_game(seats: dict[int, Seat], replay_args, browser, table: Table, limit: int = 2000) -> Replay:
    """Click through a whole game on every human seat; then check every
    message each seat received, and the page at each of its decisions."""
    pages_at: dict[int, list[tuple[int, str]]] = {s: [] for s in seats}
    clicks = 0
    while not all(s.over() for s in seats.values()):
        moved = False
        for seat, s in seats.items():
            if s.over() or not s.has_decision():
                continue
            pages_at[seat].append((s.steps(), s.page.content()))
            s.click_once(prefer_target=clicks % 2 == 0)
            clicks += 1
            moved = True
        if not moved:  # nobody here has a decision yet: poll every seat, with a deadline
            end = time.monotonic() + WAIT_MS / 1000
            while not any(s.over() or s.has_decision() for s in seats.values()):
                assert time.monotonic() < end, "no seat got a decision and the game did not end"
                time.sleep(0.05)
        assert clicks < limit, "the game did not end"
    replay = Replay(*replay_args, state=author_state(browser, table))
    assert replay.snapshots[-1].over, "the replayed game is not over: the served game went differently"
    for seat, s in seats.items():
        assert not s.errors, f"the page of seat {seat + 1} had errors: {s.errors}"
        steps = [replay.check_frame(seat, raw) for raw in s.frames]
        assert any(x is not None for x in steps), "no table was received"
        for step, html in pages_at[seat]:
            assert_no_names(html, replay.unseen_names(seat, step), f"the page of seat {seat + 1} at step {step}")
    return replay


# ------------------------------------------------------------------ the tests
def test_a_whole_game_of_dead_mans_draw_by_clicking(serve, browser):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "7", "--author")
    seat = Seat(browser, table.links["seat 1"])
    try:
        replay = play_whole_game({0: seat}, ("dead-mans-draw",), browser, table)
        page = seat.page
        assert "Game over" in page.locator("#final").inner_text()
        scores = [int(x) for x in page.locator(".player .score").all_inner_texts()]
        assert scores == replay.game.scores(replay.snapshots[-1]), "the page's final scores are not the game's"
    finally:
        seat.close()


def test_a_whole_game_of_get_bit_by_clicking(serve, browser):
    table = serve("get-bit", "--human", "1", "--seed", "3", "--author")
    seat = Seat(browser, table.links["seat 1"])
    try:
        replay = play_whole_game({0: seat}, ("get-bit",), browser, table)
        winners = [f"P{p + 1}" for p in replay.snapshots[-1].winners]
        text = seat.page.locator("#final").inner_text()
        assert "Game over" in text and all(w in text for w in winners)
    finally:
        seat.close()


def test_two_browsers_play_one_lifeboat_game_and_keep_their_loyalties(serve, browser):
    """Seats 1 and 2 in two browsers (bots on 3 and 4): neither is ever sent
    the other's friend or enemy card, nor shows it, until the end reveals them."""
    table = serve("lifeboat", "--players", "4", "--human", "1", "--human", "2", "--seed", "11", "--author",
                  "--param", "max_days=2")
    one, two = Seat(browser, table.links["seat 1"]), Seat(browser, table.links["seat 2"])
    try:
        replay = play_whole_game({0: one, 1: two}, ("lifeboat", {"max_days": 2}), browser, table)
        from rulebook.interpreter.labels import comp_name

        start = replay.snapshots[0]
        fam = start.cat.zone_base
        loyalty = {p: [comp_name(start, c) for z in ("friend", "enemy") for c in start.zones[fam[z] + p]]
                   for p in (0, 1)}
        for me, other, seat in ((0, 1, one), (1, 0, two)):
            secret = set(loyalty[other]) - set(loyalty[me])
            assert secret, "the test needs a loyalty card the other seat does not share"
            for raw in seat.frames:
                msg = json.loads(raw)
                if msg.get("type") == "table" and not msg["table"]["over"]:
                    assert_no_names(raw, secret, f"a message to seat {me + 1}")
            # the page shows the seat's own loyalty (its friend and enemy cards) at the end
            assert all(name in seat.page.content() for name in loyalty[me])
    finally:
        one.close()
        two.close()


def test_a_wrong_token_is_refused(serve, browser):
    table = serve("lifeboat", "--players", "4", "--human", "1", "--human", "2", "--seed", "1", "--author")
    one_token = table.token("seat 1")
    for path in ("/seat/1?t=wrong", f"/seat/2?t={one_token}", "/seat/1", "/author?t=" + one_token,
                 "/author/graph.svg?t=" + one_token):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(table.base + path, timeout=30)
        assert err.value.code == 403, path
    seat = Seat(browser, table.links["seat 1"])
    try:
        page = seat.page
        page.wait_for_function("typeof table !== 'undefined' && table !== null", timeout=WAIT_MS)
        # a WebSocket with another seat's token, or none, or the seat token as the author's, is refused
        for query in (f"role=seat&seat=2&t={one_token}", "role=seat&seat=1&t=nope", f"role=author&t={one_token}",
                      "role=seat&seat=1"):
            outcome = page.evaluate("""(q) => new Promise(done => {
                const ws = new WebSocket("ws://" + location.host + "/ws?" + q);
                let opened = false;
                ws.onopen = () => { opened = true; };
                ws.onmessage = ev => done("message: " + ev.data.slice(0, 80));
                ws.onclose = () => done(opened ? "opened" : "refused");
            })""", query)
            assert outcome == "refused", (query, outcome)
        # a decision sent by seat 1 is only ever seat 1's: out of turn it is refused, and nothing changes
        steps = seat.steps()
        me = page.evaluate("table.players.find(p => p.you).seat")
        assert me == 0
        if page.evaluate("table.decision === null"):
            reply = page.evaluate("""() => new Promise(done => {
                const ws = new WebSocket("ws://" + location.host + "/ws?role=seat&seat=1&t=" +
                                         new URLSearchParams(location.search).get("t"));
                ws.onmessage = ev => { const m = JSON.parse(ev.data);
                    if (m.type === "table")
                        ws.send(JSON.stringify({type: "choose", index: 0, decision: m.table.steps}));
                    else done(m); };
            })""")
            assert reply["type"] == "refused" and "no decision" in reply["message"]
            assert seat.steps() == steps
        page_text = urllib.request.urlopen(table.links["seat 1"], timeout=30).read().decode()
        assert "<script" in page_text  # the right token opens the page
    finally:
        seat.close()


SEED_GAMES = {
    "dead-mans-draw": ("--players", "2", "--seed", "4"),
    "get-bit": ("--players", "4", "--seed", "2"),
    "lifeboat": ("--players", "4", "--seed", "2"),
    "survive": ("--players", "2", "--seed", "2"),
    "young-svintus": ("--players", "3", "--seed", "2"),
}


@pytest.mark.parametrize("game", sorted(SEED_GAMES))
def test_screenshot_of_each_seed_games_table(game, serve, browser):
    """docs/img/table-GAME.png: the table as seat 1 sees it at its first
    decision (docs/play.md shows them)."""
    table = serve(game, "--human", "1", *SEED_GAMES[game])
    seat = Seat(browser, table.links["seat 1"], width=1200, height=800)
    try:
        seat.wait_turn_or_end()
        page = seat.page
        assert page.locator(".player").count() == int(SEED_GAMES[game][1])
        assert page.locator("#decision .prompt").inner_text().strip()
        assert not seat.errors, seat.errors
        shot = page.screenshot(full_page=False)
        assert shot[:8] == b"\x89PNG\r\n\x1a\n"
        out = IMG / f"table-{game}.png"
        if not out.exists() or changed(out.read_bytes(), shot):
            out.write_bytes(shot)
    finally:
        seat.close()


def changed(old: bytes, new: bytes) -> bool:
    """Whether a new screenshot differs from the saved one by more than a
    few pixels (a caret, the shading of text edges, which Chromium does
    not always draw alike), so that running the tests does not rewrite
    pictures that show the same table."""
    import io

    from PIL import Image, ImageChops

    a, b = Image.open(io.BytesIO(old)).convert("RGB"), Image.open(io.BytesIO(new)).convert("RGB")
    if a.size != b.size:
        return True
    # pixels that differ clearly (not by the shading of an edge); a few hundred is a caret, not a new table
    clear = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 60 else 0)
    return clear.histogram()[255] > 400


def test_the_author_panel_shows_the_rule_travels_in_time_and_draws_the_phase_graph(serve, browser):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "4", "--author")
    seat = Seat(browser, table.links["seat 1"])
    author = Seat(browser, table.links["author"], width=1280, height=1100)
    try:
        for _ in range(3):  # a few decisions, so that there is a past to travel to
            seat.wait_turn_or_end()
            seat.click_once(prefer_target=False)
        seat.wait_turn_or_end()
        page = author.page
        page.wait_for_function(f"author && author.steps === {seat.steps()} && author.pending !== null",
                               timeout=WAIT_MS)
        rule = page.locator("#pending .rule").inner_text()
        assert re.match(r"ruleset\.yaml:\d+ ", rule), rule  # the rule line behind the question
        assert "P1" in page.locator("#pending").inner_text()
        live = page.evaluate("author.steps")
        page.locator("#t-back").click()
        page.wait_for_function(f"author.step === {live - 1} && !author.live", timeout=WAIT_MS)
        assert "looking back" in page.locator("#t-step").inner_text()
        page.locator("#author-log li[data-step='1']").first.click()
        page.wait_for_function("author.step === 1", timeout=WAIT_MS)
        assert page.evaluate("author.table.steps") == 1  # the table as it was after the first decision
        page.locator("#t-live").click()
        page.wait_for_function("author.live === true", timeout=WAIT_MS)
        page.wait_for_selector("#graph g.node.current", timeout=WAIT_MS)
        assert page.locator("#graph g.node.current title").text_content() == "play"
        assert page.locator("#board-area .comp.down").count() > 0  # the deck's cards, face up for the author
        assert not author.errors, author.errors
        shot = page.screenshot(full_page=True)
        out = IMG / "author-dead-mans-draw.png"
        if not out.exists() or changed(out.read_bytes(), shot):
            out.write_bytes(shot)
    finally:
        seat.close()
        author.close()


# ------------------------------------------------------------------ faults (issue 37, items 4 and 5)
def test_a_whole_game_of_liars_dice_whose_answers_are_public(serve, browser):
    """``choose ... public`` answers (a challenge said aloud) once stopped the table at step 2."""
    table = serve("liars-dice", "--players", "3", "--human", "1", "--seed", "6", "--author")
    seat = Seat(browser, table.links["seat 1"])
    try:
        # clicked to the end (not play_whole_game: dice are named by their faces, "5", which the check by
        # names would find in every number of the message)
        for _ in range(300):
            seat.wait_turn_or_end()
            if seat.over():
                break
            seat.click_once(prefer_target=False)
        assert seat.over() and "Game over" in seat.page.locator("#final").inner_text()
        replay = Replay("liars-dice", state=author_state(browser, table))
        assert replay.snapshots[-1].over and not seat.errors, seat.errors
        assert "Traceback" not in "".join(table.output)
    finally:
        seat.close()


def test_a_click_in_a_second_tab_on_an_answered_decision_is_refused(serve, browser):
    """Two tabs on one seat: a click on the button of a decision the other
    tab has answered is refused, never taken for the next decision."""
    table = serve("dead-mans-draw", "--human", "1", "--seed", "7")
    one, two = Seat(browser, table.links["seat 1"]), Seat(browser, table.links["seat 1"])
    try:
        one.wait_turn_or_end()
        two.wait_turn_or_end()
        before = two.steps()
        two.page.evaluate("window.stale = document.querySelector('#decision button.option')")
        one.click_once(prefer_target=False)
        two.page.wait_for_function(f"document.body.dataset.steps !== '{before}'", timeout=WAIT_MS)
        two.wait_turn_or_end()
        if two.over():
            pytest.skip("the game ended on the first answer")
        now = two.steps()
        two.page.evaluate("window.stale.click()")  # the old table's button, still in the hand of a slow click
        two.page.wait_for_function("!document.getElementById('banner').hidden", timeout=WAIT_MS)
        text = two.page.locator("#banner").inner_text()
        assert f"that answer was for decision {before}, and this is decision {now}" in text, text
        assert one.steps() == two.steps() == now  # nothing was applied
        assert not one.errors and not two.errors
    finally:
        one.close()
        two.close()


def test_a_rule_error_is_shown_on_the_page_in_one_line(serve, browser):
    rules = str(ROOT / "tests" / "data" / "serve" / "fails-on-the-fourth-move.yaml")
    table = serve(rules, "--human", "1", "--seed", "1")
    seat = Seat(browser, table.links["seat 1"])
    try:
        for _ in range(2):  # moves 1 and 3; the bot's move 4 divides by zero
            seat.wait_turn_or_end()
            seat.click_once(prefer_target=False)
        seat.page.wait_for_function("!document.getElementById('failure').hidden", timeout=WAIT_MS)
        text = seat.page.locator("#failure").inner_text()
        assert text.startswith("The game stopped: ") and "fails-on-the-fourth-move.yaml:26:22: error[R104]" in text
        assert "\n" not in text.strip() and seat.steps() == 3
        assert not seat.errors, seat.errors
    finally:
        seat.close()
