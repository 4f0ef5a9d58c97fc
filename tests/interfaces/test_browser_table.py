"""The browser table of issue 41 in headless Chromium (the launch and the
Seat helper of tests/interfaces/test_browser.py): changed cards marked after a bot's
move, the rules help, a rematch, a takeback the other human accepts, a
server restart that resumes with the same links, and a branch from the
author's panel. The pictures of docs/images/*-after.png are taken here."""

from __future__ import annotations

import pytest
from serving import ROOT
from test_browser import ARGS, CHROMIUM, WAIT_MS, Seat, changed

IMAGES = ROOT / "docs" / "images"

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=f"Chromium is not installed at {CHROMIUM}")


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def zone_of(table: dict) -> dict[int, str]:
    """Each component the seat sees: the zone it is in."""
    return {i["id"]: z["id"] for z in table["zones"] for i in z["items"] if "id" in i}


def answer_first(seat: Seat, label_part: str | None = None) -> None:
    """Click an option (the first whose label has ``label_part``, else the first) and wait for the table to move."""
    page = seat.page
    before = seat.steps()
    buttons = page.locator("#decision button.option")
    labels = buttons.all_inner_texts()
    k = next((i for i, text in enumerate(labels) if label_part and label_part in text), 0)
    buttons.nth(k).click()
    page.wait_for_function(f"document.body.dataset.steps !== '{before}' || document.body.dataset.over === 'yes'",
                           timeout=WAIT_MS)


def save_picture(page, selector: str, name: str) -> None:
    page.wait_for_timeout(500)  # the moves' transition is over
    shot = page.locator(selector).first.screenshot()
    out = IMAGES / name
    if not out.exists() or changed(out.read_bytes(), shot):
        out.write_bytes(shot)


def test_what_a_bot_changed_is_marked_and_the_rules_help_reads_the_ruleset(serve, browser):
    table = serve("dead-mans-draw", "--human", "1", "--players", "2", "--seed", "4")
    seat = Seat(browser, table.links["seat 1"], height=900)
    page = seat.page
    try:
        marked_after_bot = False
        for turn in range(40):
            seat.wait_turn_or_end()
            if seat.over():
                break
            before = page.evaluate("table")
            answer_first(seat, "ank" if turn % 3 == 2 else None)  # bank now and then, so that banks fill
            seat.wait_turn_or_end()
            if seat.over():
                break
            now = page.evaluate("table")
            old, new = zone_of(before), zone_of(now)
            moved = {c for c in new if old.get(c) != new[c]}
            shown = {int(x) for x in page.locator("#board-area .comp.changed").evaluate_all(
                "els => els.map(e => e.dataset.cid)")}
            assert shown == moved, (shown, moved)  # exactly the cards that moved since the seat answered
            bot_moved = any(ln["player"] == 1 for ln in now["log"] if ln["step"] > before["steps"])
            marked_after_bot |= bot_moved and bool(moved)
            bank = next((z for z in now["zones"] if z["family"] == "bank" and z["owner"] == 0), None)
            suits = [i["props"].get("suit") for i in (bank or {"items": []})["items"]]
            stacked = len(suits) >= 4 and len(set(suits)) < len(suits)  # a stack of two cards, for the picture
            if marked_after_bot and (stacked or (turn >= 20 and len(suits) >= 3)):
                break
        assert marked_after_bot, "no bot move was followed by a marked card"
        # rules help: the decision in the ruleset's words, then what a bank card's suit does
        page.locator("#decision .help-button").click()
        text = page.locator("#help").inner_text()
        assert "Your decision" in text and "ruleset.yaml:" in text
        if page.evaluate("extra.help.kind") == "action":
            assert "Draw if you dare!" in text  # the action's own description
        else:
            assert "A choice the rules ask you to make" in text and page.evaluate("extra.help.prompt") in text
        card = page.locator("#board-area .comp:not(.target):not(.hidden)").first  # a click on a target answers
        name = card.locator(".nm").inner_text()
        card.click()
        suit = name.split()[0]
        about = page.evaluate(f"table.types.card.about[{suit!r}]")
        assert about and page.locator("#help .about").inner_text().strip() == about  # the ruleset's own text
        assert "A loot card" in page.locator("#help").inner_text()  # the type's description
        assert page.locator("#own .stack").count() >= 2  # the bank in stacks by suit, each with its top
        assert page.locator("#own .stack").count() == page.locator("#own .stack .comp.top").count()
        page.keyboard.press("Escape")
        assert page.locator("#help").is_hidden()
        save_picture(page, "#own .group", "dmd-bank-after.png")
        assert not seat.errors, seat.errors
    finally:
        seat.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_moves_slide_unless_reduced_motion_is_asked(motion, serve, browser):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "4")
    context = browser.new_context(reduced_motion=motion)
    page = context.new_page()
    try:
        page.goto(table.links["seat 1"])
        page.wait_for_selector("#decision button.option", timeout=WAIT_MS)
        page.evaluate("""() => { window.animated = 0; const real = Element.prototype.animate;
            Element.prototype.animate = function (...a) { window.animated++; return real.apply(this, a); }; }""")
        for _ in range(2):  # the card drawn moves from the deck to the play area
            steps = page.evaluate("table.steps")
            page.locator("#decision button.option").first.click()
            page.wait_for_function(f"table.steps !== {steps}", timeout=WAIT_MS)
            page.wait_for_function("table.over || document.querySelector('#decision button.option')", timeout=WAIT_MS)
        animated = page.evaluate("window.animated")
        assert animated == 0 if motion == "reduce" else animated > 0
    finally:
        context.close()


def test_the_survive_board_is_drawn_from_the_presentation_hints(serve, browser):
    table = serve("survive", "--human", "1", "--players", "2", "--seed", "2")
    seat = Seat(browser, table.links["seat 1"], width=1200, height=800)
    try:
        seat.wait_turn_or_end()
        page = seat.page
        fills = page.locator("svg.board g[data-value] > .space").evaluate_all(
            "els => [...new Set(els.map(e => e.closest('g').dataset.value + '=' + e.getAttribute('fill')))]")
        assert {"sea=#5dade2", "beach=#f7dc6f", "forest=#1e8449", "mountain=#8d6e63", "safe=#f5eef8"} <= set(fills)
        assert page.locator("svg.board .piece polygon").count() >= 5  # the serpents: diamonds
        assert page.locator("svg.board text.coord").count() == 26  # 13 columns and 13 rows, along the edges
        for _ in range(30):  # people and boats placed, so that the picture shows pieces of each kind
            seat.wait_turn_or_end()
            if seat.over() or page.evaluate("table.phase") not in ("place_people", "place_boats"):
                break
            answer_first(seat)
        assert page.locator("svg.board .piece path").count() >= 2  # boats: hulls
        assert page.locator("svg.board .piece circle").count() >= 10  # people: circles in their owner's colour
        save_picture(page, ".board-wrap", "survive-board-after.png")
        assert not seat.errors, seat.errors
    finally:
        seat.close()


def test_a_rematch_at_the_same_link_with_the_same_seed(serve, browser):
    table = serve("nim", "--human", "1", "--seed", "5")
    seat = Seat(browser, table.links["seat 1"])
    page = seat.page
    try:
        seat.wait_turn_or_end()
        first = page.evaluate("table")
        assert page.locator("#controls .rematch").count() == 0  # offered once the game is over
        while not seat.over():
            seat.wait_turn_or_end()
            if not seat.over():
                answer_first(seat)
        assert page.locator(".player .tag", has_text="turn").count() == 0  # no "turn" tag after the end
        assert page.title().startswith("Game over")
        page.locator("#controls .rematch-same").click()
        page.wait_for_function("document.body.dataset.over === 'no' && table.steps === 0", timeout=WAIT_MS)
        again = page.evaluate("table")
        assert again["zones"] == first["zones"] and again["vars"] == first["vars"]
        assert page.url == table.links["seat 1"]
        assert "Game 2: seed 5." in page.locator("#log").inner_text()
        page.locator("#controls .rename input").fill("Ann")  # a name of one's own (nim names no characters)
        page.locator("#controls .set-name").click()
        page.wait_for_function("table.players[0].name === 'Ann'", timeout=WAIT_MS)
        assert "Ann" in page.locator("#players").inner_text() and "P1" not in page.locator("#players").inner_text()
        assert not seat.errors, seat.errors
    finally:
        seat.close()


def test_a_takeback_accepted_by_the_other_human(serve, browser):
    table = serve("dead-mans-draw", "--human", "1", "--human", "2", "--seed", "3")
    one, two = Seat(browser, table.links["seat 1"]), Seat(browser, table.links["seat 2"])
    try:
        for s in (one, two):
            s.page.wait_for_function("table !== null", timeout=WAIT_MS)
        mover, other = (one, two) if one.has_decision() else (two, one)
        while mover.page.locator("#decision button.option").count() == 1:  # the forced first draw
            answer_first(mover)
            mover.wait_turn_or_end()
        before = mover.steps()
        options = mover.page.locator("#decision button.option").all_inner_texts()
        answer_first(mover)
        mover.page.locator("#controls .takeback").click()
        other.page.wait_for_selector("#controls .accept", timeout=WAIT_MS)
        assert "asks to take back" in other.page.locator("#controls").inner_text()
        assert "waiting for the other" in mover.page.locator("#controls").inner_text()
        other.page.locator("#controls .accept").click()
        mover.page.wait_for_function(f"table.steps === {before} && table.decision !== null", timeout=WAIT_MS)
        assert mover.page.locator("#decision button.option").all_inner_texts() == options
        assert "took back a decision" in other.page.locator("#log").inner_text()
        assert not one.errors and not two.errors
    finally:
        one.close()
        two.close()


def test_a_restarted_server_resumes_the_table_at_the_same_links(serve, browser, tmp_path):
    folder = str(tmp_path / "saved")
    table = serve("dead-mans-draw", "--human", "1", "--seed", "8", "--save", folder)
    seat = Seat(browser, table.links["seat 1"])
    page = seat.page
    try:
        for _ in range(3):
            seat.wait_turn_or_end()
            answer_first(seat)
        seat.wait_turn_or_end()
        steps, zones = seat.steps(), page.evaluate("table.zones")
        table.stop()
        page.wait_for_function("document.body.classList.contains('offline')", timeout=WAIT_MS)
        assert page.locator("#decision button.option:enabled").count() == 0  # no live-looking buttons
        assert page.locator("#banner").is_visible()
        again = serve("dead-mans-draw", "--save", folder, port=None)
        assert again.links == table.links
        page.wait_for_function("!document.body.classList.contains('offline') && "
                               "document.querySelector('#decision button.option:enabled') !== null", timeout=WAIT_MS)
        assert seat.steps() == steps and page.evaluate("table.zones") == zones
        answer_first(seat)  # and the game goes on
        assert seat.steps() > steps
    finally:
        seat.close()


def test_the_author_branches_from_a_past_step(serve, browser):
    table = serve("dead-mans-draw", "--human", "1", "--seed", "4", "--author")
    seat = Seat(browser, table.links["seat 1"])
    author = Seat(browser, table.links["author"], width=1280, height=1100)
    try:
        for _ in range(3):
            seat.wait_turn_or_end()
            answer_first(seat)
        seat.wait_turn_or_end()
        page = author.page
        live = seat.steps()
        page.wait_for_function(f"author && author.steps === {live}", timeout=WAIT_MS)
        page.locator("#t-first").click()
        page.wait_for_function("author.step === 0 && !author.live", timeout=WAIT_MS)
        page.locator("#t-fwd").click()
        page.wait_for_function("author.step === 1", timeout=WAIT_MS)
        assert page.locator("#author-log li.current").count() > 0 and page.locator("#author-log li.future").count() > 0
        page.locator("#t-branch").click()
        page.wait_for_function("author.live && author.steps <= 2", timeout=WAIT_MS)
        assert "branched from step 1" in page.locator("#author-log").inner_text()
        seat.page.wait_for_function(f"table.steps < {live}", timeout=WAIT_MS)
        assert "branched from step 1" in seat.page.locator("#log").inner_text()
        # the author answers for seat 1 from the panel
        seat.wait_turn_or_end()
        now = seat.steps()
        page.wait_for_function(f"author.live && author.steps === {now} && author.pending !== null", timeout=WAIT_MS)
        page.locator("#pending button.act-option[data-seat='0']").first.click()
        seat.page.wait_for_function(f"table.steps > {now}", timeout=WAIT_MS)
        assert not author.errors and not seat.errors
    finally:
        seat.close()
        author.close()
