"""The presentation hints of issue 41 item 7: the names they use are
checked when a ruleset loads, the page gets them as plain data, and the
colours a ruleset declares for the values of one property stay apart."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
import yaml
from rulebook.compiler.build import compile_path

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted([*ROOT.glob("rulesets/*/ruleset.yaml"), *ROOT.glob("examples/*/ruleset.yaml")])
MIN_DELTA_E = 30

BASE = """rulebook: 1
id: hints
players: {min: 2, max: 2}
components:
  cell:
    for_each: {row: "range(2)", col: "range(2)"}
    props: {terrain: "'land'"}
    board: {grid: square}
  card:
    for_each: {suit: "['cups', 'coins']", value: "range(1, 3)"}
zones:
  pile: {of: card}
setup: move components(card) to pile
phases:
  main:
    on_begin: end game
"""


def errors(tmp_path, hints: str) -> list[tuple[str, str]]:
    path = tmp_path / "ruleset.yaml"
    path.write_text(BASE + "presentation:\n" + hints)
    return [(d.code, d.message) for d in compile_path(path).report.errors]


def test_good_hints_load(tmp_path):
    assert errors(tmp_path, """  components:
    card: {about_by: suit, about: {cups: heal}, shape: diamond}
  boards:
    cell: {colour_by: terrain, colours: {land: "#f7dc6f"}, symbols: {land: "^"}, labels: none}
  zones:
    pile: {group_by: suit, top: highest, top_by: value}
""") == []


@pytest.mark.parametrize("hints,code,words", [
    ("  boards:\n    card: {colour_by: suit}\n", "E039", "not a component type with a board"),
    ("  boards:\n    cell: {colour_by: height}\n", "E032", "'cell' has no property 'height' to colour by"),
    ("  zones:\n    piles: {group_by: suit}\n", "E031", "the zone 'piles'"),
    ("  zones:\n    pile: {group_by: colour}\n", "E032", "'card' has no property 'colour' to group by"),
    ("  zones:\n    pile: {group_by: suit, top: highest, top_by: rank}\n", "E032",
     "no property 'rank' to find a stack's top by"),
    ("  components:\n    card: {about_by: colour}\n", "E032", "no property 'colour' to pick its 'about' text by"),
    ("  components:\n    card: {shape: blob}\n", "E013", "'blob' is not allowed here"),
])
def test_a_hint_naming_what_the_ruleset_lacks_is_an_error(tmp_path, hints, code, words):
    found = errors(tmp_path, hints)
    assert any(c == code and words in m for c, m in found), found


def test_the_page_gets_the_hints_as_data():
    from rulebook.interpreter.game import Game

    from rulebook.web.layout import seat_table

    game = Game(compile_path(ROOT / "rulesets" / "survive" / "ruleset.yaml").program)
    st = game.new(players=2, seed=2)
    t = seat_table(game, st, 0, [], set())
    board = t["boards"][0]
    assert board["labels"] == "edges" and board["swatches"]["sea"] == "#5dade2"
    colours = {s["colour_value"]: s["colour"] for s in board["spaces"]}
    assert colours["sea"] == "#5dade2" and colours["safe"] == "#f5eef8" and "beach" in colours
    assert t["types"]["creature"]["shape"] == "diamond" and t["types"]["tile"]["shape"] == "none"
    game = Game(compile_path(ROOT / "rulesets" / "dead-mans-draw" / "ruleset.yaml").program)
    st, draw = game.new(players=2, seed=1), random.Random(3)
    for _ in range(30):  # a few banked cards
        p = game.to_move(st)[0]
        game.apply(st, p, draw.randrange(len(game.options(st, p))))
    t = seat_table(game, st, 0, [], set())
    stacks = next(z for z in t["zones"] if z["id"] == "bank[0]")["stacks"]  # grouped by suit, as the ruleset says
    assert stacks and len({s["value"] for s in stacks}) == len(stacks)
    assert all(c["props"]["suit"] == s["value"] for s in stacks for c in s["items"])
    assert t["types"]["card"]["about"]["anchor"].startswith("Cards that entered")
    assert t["texts"]["zones"]["bank"].startswith("A player's bank")


def delta_e(a: str, b: str) -> float:
    """CIE76: the distance of two sRGB colours in CIELAB (D65)."""
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b), strict=True)) ** 0.5


def _lab(colour: str) -> tuple[float, float, float]:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(ch * 2 for ch in h)

    def linear(c: float) -> float:
        return ((c + 0.055) / 1.055) ** 2.4 if c > 0.04045 else c / 12.92

    r, g, b = (linear(int(h[i:i + 2], 16) / 255) for i in (0, 2, 4))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v: float) -> float:
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_delta_e_measures_what_the_eye_sees():
    assert delta_e("#ffffff", "#000000") == pytest.approx(100, abs=0.5)
    assert delta_e("#a04000", "#935116") < 20  # the old hook and chest, which players mixed up
    assert delta_e("#c0281c", "#1f5fa8") > 60


def palettes():
    for path in RULESETS:
        spec = (yaml.safe_load(path.read_text()) or {}).get("presentation") or {}
        for section in ("components", "boards"):
            for name, hint in (spec.get(section) or {}).items():
                colours = {k: v for k, v in ((hint or {}).get("colours") or {}).items() if str(v).startswith("#")}
                if len(colours) > 1:
                    yield pytest.param(colours, id=f"{path.parent.name}-{section}-{name}")


@pytest.mark.parametrize("colours", list(palettes()))
def test_declared_colours_stay_apart(colours):
    close = [(a, b, round(delta_e(colours[a], colours[b]), 1)) for a, b in itertools.combinations(colours, 2)
             if delta_e(colours[a], colours[b]) < MIN_DELTA_E]
    assert not close, f"colours too alike (CIE76 delta E under {MIN_DELTA_E}): {close}"
