"""Text said to everybody (``say``) never tells what a face-down component
hides: a face-down component is named by its back, and a piece of the text
that reads a hidden property, its id or ``str`` of it reads "[hidden]".
Checked by saying the same text over every deal of a small deck: what is
said may depend only on what everybody sees."""

from __future__ import annotations

from helpers import compile_ok

DECK = """
components:
  card:
    for_each: {colour: "['red', 'blue']", value: "range(1, 4)"}
    public: [colour]
    label: "{self.colour} {self.value}"
  tile:
    for_each: {kind: "['sea', 'land']"}
    back_label: "a tile"
zones:
  deck: {of: card}
  table: {of: card}
  tiles: {of: tile}
  hand: {per: player, of: card, visibility: owner}
functions:
  worth:
    params: {c: card}
    value: "c.value * 10"
setup: |
  move components(card) to deck face down
  shuffle deck
  move components(tile) to tiles face down
  shuffle tiles
  move top(deck) to hand[0]
actions:
  tell:
    effect: |
      let c = top(deck)
      let t = top(tiles)
      say "{c} / {name(c)} / {c.colour} / {c.value} / {worth(c)} / {str(c)} / {c.owner}"
      say "{'high' if c.value > 1 else 'low'} / {t} / {t.kind} / {hand[0]}"
      say "{count(filter(deck, d => d.value == 1))} / {first(hand[0]).value}"
      move c to table face up
      say "{c} / {c.value} / {worth(c)}"
      end game
phases:
  play:
    turn:
      actions: [tell]
"""


def said(seed: int) -> list[str]:
    g = compile_ok(DECK)
    st = g.new(players=2, seed=seed)
    g.apply(st, g.to_move(st)[0], 0)
    return [e[1] for e in st.events if e[0] == "say"]


def test_a_face_down_component_is_named_by_its_back_and_what_it_hides_reads_hidden():
    lines = said(0)
    colour = lines[0].split(" / ")[2]
    assert lines[0] == (f"a face-down card (colour {colour}) / a face-down card (colour {colour}) / {colour} / "
                        "[hidden] / [hidden] / [hidden] / [hidden]")  # its owner too: who holds which card
    assert lines[1] == "[hidden] / a tile / [hidden] / [a face-down component]"
    assert lines[2] == "[hidden] / [hidden]"  # a count over face-down cards, and the hand's card, say which they are


def test_a_face_up_component_is_said_in_full():
    lines = said(0)
    value = lines[3].split(" / ")[1]
    assert lines[3].split(" / ")[0].endswith(f" {value}") and lines[3].split(" / ")[2] == f"{int(value) * 10}"


def test_what_is_said_of_face_down_cards_depends_only_on_what_everybody_sees():
    by_colour: dict[str, set] = {}
    for seed in range(40):
        lines = said(seed)
        colour = lines[0].split(" / ")[2]
        by_colour.setdefault(colour, set()).add(tuple(lines[:3]))
    assert set(by_colour) == {"red", "blue"}, "the deals did not vary"
    assert all(len(texts) == 1 for texts in by_colour.values()), by_colour



_LAST_SAY = '      say "{count(filter(deck, d => d.value == 1))} / {first(hand[0]).value}"'
_MORE = """
      say "{str(top(deck, 2))} / {str([c])} / {str(map(deck, d => d.value))}"
      emit told(what=c)"""
_TRIGGERS = """events:
  told: {what: card}
triggers:
  on_told:
    on: told
    effect: |
      say "{event} / {name(event)}"
  on_moved:
    on: moved
    effect: |
      if event.to_zone == table:
          say "moved: {event}"
functions:"""
EVENTS = DECK.replace("functions:", _TRIGGERS).replace(_LAST_SAY, _LAST_SAY + _MORE)

def test_lists_and_event_fields_do_not_tell_face_down_cards():
    g = compile_ok(EVENTS)
    st = g.new(players=2, seed=0)
    g.apply(st, g.to_move(st)[0], 0)
    lines = [e[1] for e in st.events if e[0] == "say"]
    assert lines[3] == "[hidden] / [hidden] / [hidden]"  # ids in a list, and values read from face-down cards
    colour = lines[0].split(" / ")[2]
    back = f"a face-down card (colour {colour})"
    assert lines[4] == f"what {back} / what {back}"
    assert lines[5].startswith("moved: component ") and "[hidden]" not in lines[5]  # face up by then: named


def _said_with(says: str) -> list[str]:
    """What DECK's action says with more say lines after its own, where
    ``red1`` is the first card by id (face down in the deck or a hand)."""
    g = compile_ok(DECK.replace(_LAST_SAY, _LAST_SAY + "\n      let red1 = first(components(card))" + says))
    st = g.new(players=2, seed=0)
    g.apply(st, g.to_move(st)[0], 0)
    return [e[1] for e in st.events if e[0] == "say"]


def test_comparing_components_by_id_does_not_tell_face_down_cards():
    """==, in, index_of, count_of and sorting go by ids, which say which card
    is which: with a face-down card among them the piece reads [hidden]."""
    lines = _said_with("""
      say "{red1 in deck} / {top(deck) == red1} / {index_of(components(card), top(deck))} / {count_of(deck, red1)}"
      say "{index_of(sort(deck), top(deck))} / {max(deck) == top(deck)} / {red1 in table} / {c == c}\"""")
    assert lines[3] == "[hidden] / [hidden] / [hidden] / [hidden]"
    assert lines[4] == "[hidden] / [hidden] / [hidden] / [hidden]"  # red 1 and c are face down


def test_where_a_face_down_card_is_and_lists_by_id_read_hidden_but_none_tests_do_not():
    lines = _said_with("""
      say "{top(deck) == none} / {'empty' if top(deck) == none else 'more'} / {max(top(deck), red1)} / {zone(red1)}"
      say "{sees(0, red1)} / {owner(red1)} / {components(card)} / {min(deck, d => d.value)} / {max(3, 4)}\"""")
    assert lines[3] == "no / more / [hidden] / [hidden]"
    assert lines[4] == "[hidden] / [hidden] / [hidden] / [hidden] / 4"
