"""A zone's ``when_empty`` (docs/format.md, zones): what a ``draw`` or
``deal`` does when its zone is empty and a component is still wanted.

Each part on its own: the validator's checks of the key, the refill (its
order, its shuffle, its events, per player), ``error`` (R106 at the draw's
place), ``nothing``, and what ``rulebook check`` hears where a zone declares
nothing (W108, each place once, partial draws included).
"""

from __future__ import annotations

import textwrap
from contextlib import contextmanager

import pytest
from click.testing import CliRunner
from rulebook.compiler import native
from rulebook.compiler.build import compile_text
from rulebook.interpreter.errors import RuleError
from rulebook.interpreter.game import Game

from rulebook.cli.main import cli
from rulebook.testing.random_games import empty_draw_warnings, run_checks
from tests.helpers import HEAD, compile_ok, diagnostics

# deck holds the card of value 5 and discard 1 to 4 (top first) when the phase begins
BODY = """
components:
  card:
    for_each: {value: "range(1, 6)"}
zones:
  deck: {of: card, visibility: hidden WHEN}
  discard: {of: card}
  hand: {per: player, of: card}
vars:
  moves: 0
setup: |
  move components(card) to deck at bottom
  move top(deck, 4) to discard at bottom
TRIGGERS
phases:
  p:
    on_begin: |
      DRAW
      end game
"""
COUNT_MOVES = """triggers:
  counted:
    on: moved
    effect: set moves += 1"""


def game(when: str = "", draw: str = "draw 3 from deck to hand[0]", triggers: str = ""):
    body = BODY.replace(" WHEN", f", when_empty: {when}" if when else "").replace("TRIGGERS", triggers)
    return compile_ok(body.replace("DRAW", draw))


def values(g, st, family: str, key: int = 0) -> list[int]:
    fam = g.program.families[family]
    z = st.cat.zone_base[family] + (key if fam.per is not None else 0)
    return [st.static[c]["value"] for c in st.zones[z]]


@contextmanager
def listening(g):
    """What the draws tell ``rulebook check``, as it listens (place -> zone family)."""
    heard: dict = {}
    g.program.empty_draws = heard
    try:
        yield heard
    finally:
        g.program.empty_draws = None


# ------------------------------------------------------------------ the validator
def test_a_refill_from_an_unknown_zone_is_E031_at_its_name_with_did_you_mean():
    ds = diagnostics(BODY.replace(" WHEN", ", when_empty: {refill_from: discrad}").replace("TRIGGERS", "")
                     .replace("DRAW", "draw from deck to hand[0]"))
    d = next(d for d in ds if d.is_error)
    column = "  deck: {of: card, visibility: hidden, when_empty: {refill_from: discrad}}".index("discrad") + 1
    assert (d.code, d.line, d.column) == ("E031", 11, column) and "discrad" in d.message and "discard" in d.hint


def test_a_zone_refilled_from_itself_is_E014():
    ds = diagnostics(BODY.replace(" WHEN", ", when_empty: {refill_from: deck}").replace("TRIGGERS", "")
                     .replace("DRAW", "draw from deck to hand[0]"))
    assert [(d.code, d.line) for d in ds if d.is_error] == [("E014", 11)]
    assert "itself" in ds[0].message


def test_a_shared_zone_refilled_from_a_zone_per_player_is_E014():
    ds = diagnostics(BODY.replace(" WHEN", ", when_empty: {refill_from: hand}").replace("TRIGGERS", "")
                     .replace("DRAW", "draw from deck to hand[0]"))
    errors = [d for d in ds if d.is_error]
    assert [(d.code, d.line) for d in errors] == [("E014", 11)] and "whose 'hand'" in errors[0].message


@pytest.mark.parametrize("value, code, said", [
    ("sometimes", "E013", "allowed: nothing, error"),  # the words, not "expected a mapping"
    ("{refill_from: discard, shufle: true}", "E012", "did you mean 'shuffle'?"),
    ("{shuffle: true}", "E011", "'refill_from'"),
])
def test_a_when_empty_of_the_wrong_shape_is_refused_by_the_schema(value, code, said):
    ds = diagnostics(BODY.replace(" WHEN", f", when_empty: {value}").replace("TRIGGERS", "")
                     .replace("DRAW", "draw from deck to hand[0]"))
    (d,) = [d for d in ds if d.is_error]
    assert d.code == code and said in d.message + str(d.hint) and d.line == 11, d.render()


# ------------------------------------------------------------------ a refill
@pytest.mark.parametrize("triggers", ["", COUNT_MOVES], ids=["written-out", "general"])
def test_a_refill_moves_the_refill_zone_in_keeping_its_order_and_the_draw_goes_on(triggers):
    """Both ways a draw is compiled: written out for known families (nothing
    listens to 'moved'), and the general one."""
    g = game("{refill_from: discard}", triggers=triggers)
    st = g.new(players=2, seed=1, record=True)
    assert values(g, st, "hand") == [2, 1, 5]  # 5, then the refill's top two
    assert values(g, st, "deck") == [3, 4] and values(g, st, "discard") == []
    assert not any(e[0] == "shuffle" for e in st.events)


def test_the_refills_moves_fire_moved_after_the_draws_own():
    g = game("{refill_from: discard}", triggers=COUNT_MOVES)
    st = g.new(players=2, seed=1, record=True)
    assert st.vars["moves"] == 9 + 3 + 4  # setup, the draw, the refill
    moved = [e for e in st.events if e[0] == "move"][9:]
    refill = st.cat.zone_base["discard"], st.cat.zone_base["deck"]
    assert [(e[2], e[3]) for e in moved].count(refill) == 4


def test_a_refill_with_shuffle_shuffles_the_zone_once_and_a_scenario_can_script_it():
    g = game("{refill_from: discard, shuffle: true}")
    st = g.new(players=2, seed=1, record=True)
    assert [e for e in st.events if e[0] == "shuffle"] == [("shuffle", st.cat.zone_base["deck"])]
    assert sorted(values(g, st, "hand") + values(g, st, "deck")) == [1, 2, 3, 4, 5]
    card = {st.static[c]["value"]: c for c in range(st.cat.n)}
    scripted = g.new(players=2, seed=1, chance=[("shuffle", [card[4], card[3]], "the refill")])
    assert values(g, scripted, "hand") == [3, 4, 5] and sorted(values(g, scripted, "deck")) == [1, 2]


def test_a_refill_from_an_empty_zone_stops_the_draw():
    g = game("{refill_from: discard}", draw="move discard to hand[1]\n      draw 3 from deck to hand[0]")
    st = g.new(players=2, seed=1)
    assert values(g, st, "hand") == [5] and values(g, st, "deck") == []


def test_a_zone_per_player_refills_from_the_same_players_zone():
    g = compile_ok("""
    components:
      card:
        for_each: {value: "range(1, 7)"}
    zones:
      deck: {per: player, of: card, when_empty: {refill_from: used}}
      used: {per: player, of: card}
      hand: {per: player, of: card}
    setup: |
      for p in players:
          move filter(components(card), c => c.value % 2 == p) to used[p] at bottom
    phases:
      p:
        on_begin: |
          draw 2 from deck[1] to hand[1]
          end game
    """)
    st = g.new(players=2, seed=1)
    assert values(g, st, "hand", 1) == [3, 1] and values(g, st, "deck", 1) == [5]
    assert values(g, st, "used", 0) == [2, 4, 6] and values(g, st, "hand", 0) == []


def test_a_deal_refills_too_and_goes_on():
    g = game("{refill_from: discard}", draw="deal 2 from deck to hand")
    st = g.new(players=2, seed=1)
    assert values(g, st, "hand", 0) == [2, 5] and values(g, st, "hand", 1) == [3, 1]
    assert values(g, st, "deck") == [4]


def test_a_draw_that_keeps_refilling_its_zone_is_bounded_by_the_work_budget():
    """The budget is made small (the limits a host passes): the default one
    stops the same draw after about a hundred times the work."""
    body = BODY.replace(" WHEN", ", when_empty: {refill_from: discard}").replace("TRIGGERS", "")
    text = textwrap.dedent(HEAD) + textwrap.dedent(body.replace("DRAW", "draw 1000000000 from deck to discard"))
    g = Game(compile_text(text, "unit.yaml", limits={"max_work": 20_000}).program)
    with pytest.raises(RuleError) as err:
        g.new(players=2, seed=1)
    assert err.value.code == "R100" and err.value.where.startswith("unit.yaml:"), err.value
    assert "20000" in err.value.message


# ------------------------------------------------------------------ error and nothing
def test_error_stops_the_game_with_R106_at_the_draws_place():
    g = game("error")
    with pytest.raises(Exception) as err:
        g.new(players=2, seed=1)
    assert err.value.code == "R106" and err.value.where == "unit.yaml:23:7", err.value
    assert "deck is empty" in err.value.message


def test_error_is_not_raised_while_the_zone_has_enough():
    st = (g := game("error", draw="draw 1 from deck to hand[0]")).new(players=2, seed=1)
    assert values(g, st, "hand") == [5]


@pytest.mark.parametrize("when", ["", "nothing"])
def test_nothing_and_no_declaration_draw_what_there_is(when):
    g = game(when)
    st = g.new(players=2, seed=1)
    assert values(g, st, "hand") == [5] and values(g, st, "discard") == [1, 2, 3, 4]


# ------------------------------------------------------------------ what rulebook check hears
def test_an_undeclared_zone_met_empty_is_heard_once_at_the_draws_place():
    g = game()
    with listening(g) as heard:
        g.new(players=2, seed=1)
        g.new(players=2, seed=2)
    assert heard == {"unit.yaml:23:7": "deck"}


@pytest.mark.parametrize("when", ["nothing", "error", "{refill_from: discard}"])
def test_a_declared_zone_is_never_heard(when):
    g = game(when)
    with listening(g) as heard:
        try:
            g.new(players=2, seed=1)
        except Exception as err:  # noqa: BLE001 - 'error' stops the game: still nothing heard
            assert err.code == "R106"
    assert heard == {}


@pytest.mark.parametrize("draw, heard", [
    ("draw 1 from deck to hand[0]", False),  # the last card: enough
    ("draw 2 from deck to hand[0]", True),  # a partial draw counts: it took less than it asked for
    ("move top(deck) to hand[0]\n      draw 0 from deck to hand[0]", False),  # nothing wanted
    ("deal 1 from discard to hand", False),  # 4 cards, 2 wanted
    ("deal 2 from discard to hand", False),  # exactly enough: the deal ends with the zone
    ("deal 3 from discard to hand", True),
])
def test_only_a_draw_or_deal_that_still_wants_a_component_is_heard(draw, heard):
    g = game(draw=draw)
    with listening(g) as got:
        g.new(players=2, seed=1)
    assert bool(got) is heard


def test_rulebook_check_warns_W108_with_the_place_and_listens_no_more(tmp_path):
    from tests.helpers import ruleset

    path = tmp_path / "short.yaml"
    path.write_text(ruleset(BODY.replace(" WHEN", "").replace("TRIGGERS", "").replace(
        "DRAW", "draw 3 from deck to hand[0]")))
    result = CliRunner().invoke(cli, ["check", str(path), "-n", "2"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{path}:23:7: warning[W108]: a draw or deal here met zone 'deck' empty and took less " \
                       "than it asked for"
    assert "draw 3 from deck to hand[0]" in lines[1] and "when_empty" in result.output
    assert result.output.count("warning[W108]") == 1 and lines[-1].endswith("; 0 failures")
    declared = tmp_path / "declared.yaml"
    declared.write_text(path.read_text().replace("visibility: hidden", "visibility: hidden, when_empty: nothing"))
    result = CliRunner().invoke(cli, ["check", str(declared), "-n", "2"], catch_exceptions=False)
    assert result.exit_code == 0 and "warning[W108]" not in result.output
    assert result.output.strip().endswith("0 failures")


def test_run_checks_reports_the_places_and_leaves_the_program_as_it_was():
    g = game()
    report = run_checks(g, [2], 2, 0)
    assert report.empty_draws == {"unit.yaml:23:7": "deck"} and g.program.empty_draws is None
    (w,) = empty_draw_warnings(report)
    assert (w.code, w.file, w.line, w.column, w.severity) == ("W108", "unit.yaml", 23, 7, "warning")


@pytest.mark.skipif(native.missing() is not None, reason=str(native.missing()))
def test_native_code_refills_as_the_python_module_does():
    """The draw written out for known families is in the native library too."""
    g = game("{refill_from: discard, shuffle: true}", draw="draw 7 from deck to hand[0]")
    fast = Game(native.native_program(g.program))
    for seed in range(4):
        a, b = g.new(players=2, seed=seed, record=True), fast.new(players=2, seed=seed, record=True)
        assert a.to_data() == b.to_data() and a.events == b.events
        assert len(values(g, a, "hand")) == 5  # all five, then the refill zone is empty too: the draw stops


def test_a_place_is_split_at_its_last_two_colons():
    from rulebook.testing.random_games import _place

    assert _place("C:/games/my:deck.yaml:23:7") == ("C:/games/my:deck.yaml", 23, 7)
    assert _place("") == ("<ruleset>", 1, 1) and _place("unit.yaml") == ("unit.yaml", 1, 1)
