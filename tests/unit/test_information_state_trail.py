"""rulebook.integrations.trail: a view's JSON built from its parts is the
text ``json.dumps`` gives, and a history written as changes expands to the
history of whole views (the string the OpenSpiel adapter gave before)."""

import json

from rulebook.integrations.trail import Trail, Tree, changes, expand


class Odd:
    """A value JSON cannot write: the adapter writes its ``repr``."""

    def __repr__(self):
        return "Odd()"


def whole(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=repr)


VIEWS = [
    {"turn": 1, "zones": {"deck": {"count": 3, "items": [{"hidden": True}, {"hidden": True}, {"hidden": True}]},
                          "hand": {"count": 0, "items": []}}, "vars": {"flag": 1, "name": "é"}},
    # a card moves from the deck to the hand; the int 1 becomes the bool True (equal in Python, not in JSON)
    {"turn": 2, "zones": {"deck": {"count": 2, "items": [{"hidden": True}, {"hidden": True}]},
                          "hand": {"count": 1, "items": [{"id": 4, "name": "red 7"}]}}, "vars": {"flag": True,
                                                                                            "name": "é"}},
    # a key appears, a key goes, a dict with number keys, a tuple, a float, a value JSON cannot write
    {"turn": 2, "decision": {"options": [(0, []), (1, [4])]}, "zones": {"deck": {"count": 2, "items": [
        {"hidden": True}, {"hidden": True}]}, "hand": {"count": 1, "items": [{"id": 4, "name": "red 7"}]}},
     "vars": {"flag": True, "name": "é", "scores": {10: 1.5, 2: 0}, "odd": Odd()}},
    # the list's middle item changes, one is put in front
    {"turn": 3, "zones": {"deck": {"count": 3, "items": [{"id": 9}, {"hidden": True}, {"hidden": False}]},
                          "hand": {"count": 1, "items": [{"id": 4, "name": "red 7"}]}}, "vars": {}},
    [1, 2, 3],  # a view of another shape altogether
]


def test_a_tree_writes_the_text_json_dumps_writes():
    for v in VIEWS:
        assert Tree(v).text == whole(v)


def test_changes_are_only_what_changed():
    a, b = Tree(VIEWS[0]), Tree(VIEWS[1])
    found = [json.loads(c) for c in changes(a, b)]
    assert ["=", ["turn"], 2] in found and ["=", ["vars", "flag"], True] in found
    assert ["~", ["zones", "deck", "items"], 2, 1, []] in found  # the last hidden card, not the whole deck
    assert changes(a, Tree(json.loads(whole(VIEWS[0])))) == []


def test_a_history_of_changes_expands_to_the_history_of_whole_views():
    trail, old = Trail(), []
    for k, v in enumerate(VIEWS + VIEWS[:2]):
        trail = trail.seen(Tree(v))
        if not old or old[-1] != whole(v):
            old.append(whole(v))
        if k % 2:  # the player acts: the next view is written even when nothing changed
            trail = trail.played(k)
            old.append(f"played {k}")
    trail = trail.played(99).seen(Tree(VIEWS[1]))  # after an action, the same view again
    old += ["played 99", whole(VIEWS[1])]
    assert expand(trail.text) == "\n".join(old)
    assert len(trail.text) < len("\n".join(old))


def test_a_trail_is_never_changed_by_a_step():
    first = Trail().seen(Tree(VIEWS[0]))
    second = first.seen(Tree(VIEWS[1]))
    assert first.text == whole(VIEWS[0]) and second.text != first.text
    assert first.seen(Tree(VIEWS[0])) is first  # nothing new: the same trail
