"""Property checks of a game in play, for any ruleset: the engine's own
tests run them over every ruleset (tests/data_driven/test_properties.py), and
``rulebook check`` runs them over an author's (rulebook/testing/random_games.py).

Each check raises ``CheckFailed`` with what it saw:

- ``check_components``: every component is in exactly one zone (or out of
  the game), as its location says; unordered zones keep their order; the
  number of components never goes down;
- ``check_decision``: a game not over has somebody to decide, with legal
  options; a game over has winners among the players and returns that add up;
- ``check_view``: a view never shows the id or hidden properties of a
  component its player cannot see, and states that differ only in what the
  player cannot see (``perturb``) give equal views;
- ``check_who_is_asked``: who must decide next, and what the narration
  tells, does not depend on what the decider and an observer cannot see.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

from rulebook.interpreter import indexes, ops
from rulebook.interpreter.view import view

if TYPE_CHECKING:
    from rulebook.interpreter.game import Game


def sampled(i: int) -> bool:
    """Whether to check the position after ``i`` decisions: the first 8,
    then about 8 per doubling of the game's length."""
    return i < 8 or i % (1 + i // 8) == 0


class CheckFailed(AssertionError):
    """A property of the game does not hold (an AssertionError, so that tests
    report it as a failed assertion)."""


def check_components(st, prev_count: list) -> None:
    n = len(st.static)
    if n < prev_count[0]:
        raise CheckFailed(f"the number of components went down from {prev_count[0]} to {n}")
    prev_count[0] = n
    if n < st.cat.n:
        raise CheckFailed(f"fewer components ({n}) than the catalogue holds ({st.cat.n})")
    if not len(st.loc) == len(st.face) == len(st.owner) == len(st.props) == n:
        raise CheckFailed("component tables differ in length")
    where: dict[int, int] = {}
    for z, zone in enumerate(st.zones):
        for c in zone:
            if not (isinstance(c, int) and not isinstance(c, bool) and 0 <= c < n):
                raise CheckFailed(f"zone {z} holds {c!r}")
            if c in where:
                raise CheckFailed(f"component {c} is in zone {where[c]} and in zone {z}")
            where[c] = z
            if st.loc[c] != z:
                raise CheckFailed(f"component {c} is in zone {z} but loc says {st.loc[c]}")
    for c in range(n):
        if c not in where:
            if st.loc[c] != ops.BOX:
                raise CheckFailed(f"component {c} is in no zone but loc says {st.loc[c]}")
    for z, zone in enumerate(st.zones):
        if not st.prog.families[ops.zone_family(st, z)].ordered:
            if zone != sorted(zone):
                raise CheckFailed(f"unordered zone {ops.zone_label(st, z)} lost its canonical order: {zone}")
    if st.index and st.index != indexes.build(st):  # the filters that read them would miss or keep components
        raise CheckFailed("an index of changing properties by value differs from the properties")


def check_decision(game: Game, st) -> None:
    tm = game.to_move(st)
    if game.is_over(st):
        if tm:
            raise CheckFailed(f"the game is over but to_move is {tm}")
        if not all(isinstance(w, int) and 0 <= w < st.n for w in game.winners(st)):
            raise CheckFailed(f"the winners are not players: {game.winners(st)}")
        ret = game.returns(st)
        if len(ret) != st.n:
            raise CheckFailed(f"returns for {len(ret)} players in a game of {st.n}")
        if abs(sum(ret) - (1.0 if game.winners(st) else 0.0)) >= 1e-9:
            raise CheckFailed(f"the returns {ret} do not add up to 1")
        return
    if not tm:
        raise CheckFailed("the game is not over but nobody is to move")
    if len(set(tm)) != len(tm):
        raise CheckFailed(f"to_move repeats a player: {tm}")
    for p in tm:
        if not (isinstance(p, int) and 0 <= p < st.n):
            raise CheckFailed(f"to_move names {p!r}")
        if st.eliminated[p]:
            raise CheckFailed(f"eliminated player {p} is asked to decide")
        opts = game.options(st, p)
        if not opts:
            raise CheckFailed(f"player {p} is to move with no legal option")
        if [o.index for o in opts] != list(range(len(opts))):
            raise CheckFailed(f"the options of player {p} are not numbered in order")
        raw = opts.plain  # values hide components the chooser cannot see, nothing else
        if not all(o.value == v or (isinstance(o.value, dict) and o.value.get("hidden")) for o, v in zip(opts, raw)):
            raise CheckFailed(f"the options of player {p} change more than the components they may not see")
        if len(opts) != len(raw):
            raise CheckFailed(f"player {p} has {len(opts)} options but {len(raw)} values")
        if not all(isinstance(o.label, str) for o in opts):
            raise CheckFailed(f"an option of player {p} has no text label")


def _type(st, c: int) -> str:
    return st.cat.types[c] if c < st.cat.n else st.static[c]["type"]


def back_of(st, c: int):
    """What anybody sees of a component's back: type, public properties, owner."""
    ct = st.prog.comp_types[_type(st, c)]
    props = st.props[c] or {}
    public = tuple((k, json.dumps(st.static[c].get(k, props.get(k)), sort_keys=True, default=repr))
                   for k in ct.public)
    return _type(st, c), public, st.owner[c]


SECRET = "\u27c2 changed by the test \u27c2"


def perturb(st, p, rnd: random.Random):
    """A state that differs from ``st`` only in what player ``p`` (None: a
    spectator) cannot see, or None if there is nothing to change:

    - components ``p`` cannot see are exchanged with others that have the
      same back (type, public properties, owner), within a zone and across
      zones. An unordered zone keeps its canonical order, so it takes part
      only when ``p`` sees none of its components and they all have the same
      back (see test_unordered_zone_order_does_not_leak_hidden_identities);
    - the non-public properties of components ``p`` cannot see change;
    - components ``p`` cannot see are shown to another player;
    - the other players' secret variables change.
    """
    st2 = st.clone()
    changed = False
    hidden = {c for zone in st.zones for c in zone if not ops.can_see(st, c, p)}
    groups: dict = {}
    for z, zone in enumerate(st.zones):
        if not st.prog.families[ops.zone_family(st, z)].ordered:
            if any(c not in hidden for c in zone) or len({back_of(st, c) for c in zone}) > 1:
                continue
        for i, c in enumerate(zone):
            if c in hidden:
                groups.setdefault(back_of(st, c), []).append((z, i))
    moved = []
    for places in groups.values():
        if len(places) < 2:
            continue
        comps = [st.zones[z][i] for z, i in places]
        shuffled = comps[:]
        rnd.shuffle(shuffled)
        if shuffled == comps:
            shuffled = comps[1:] + comps[:1]
        for (z, i), c in zip(places, shuffled, strict=True):
            st2.zones[z][i] = c
            st2.loc[c] = z
        moved += comps
        changed = True
    for z, zone in enumerate(st2.zones):
        if not st2.prog.families[ops.zone_family(st2, z)].ordered:
            zone.sort()
    others = [q for q in range(st.n) if q != p]
    for c in sorted(hidden):
        public = st.prog.comp_types[_type(st, c)].public
        if st2.props[c]:
            for k in list(st2.props[c]):
                if k not in public:
                    st2.props[c][k] = SECRET
                    changed = True
        if others and p is not None:
            q = rnd.choice(others)
            known = st2.known.get(c, [])
            if q not in known:
                st2.known[c] = known + [q]
                changed = True
    for c in hidden:
        if ops.can_see(st2, c, p):
            raise CheckFailed("check error: a perturbed component became visible")
    for q in others:
        for k in st.prog.secret_pvars:
            if k in st2.pvars[q]:
                st2.pvars[q][k] = SECRET
                changed = True
    if st2.index:  # properties rewritten here, not by the rules: their indexes made again
        st2.index = indexes.build(st2)
    return st2 if changed else None


def dicts_in(x):
    if isinstance(x, dict):
        yield x
        for v in x.values():
            yield from dicts_in(v)
    elif isinstance(x, (list, tuple)):
        for v in x:
            yield from dicts_in(v)


def check_view(game: Game, st, p, rnd: random.Random) -> None:
    v = view(st, p)
    for d in dicts_in(v):
        if "id" in d and not ops.can_see(st, d["id"], p):
            raise CheckFailed(f"the view of {p} shows the id of hidden component {d['id']}")
    for name, zone in v["zones"].items():
        if zone["count"] != len(zone["items"]):
            raise CheckFailed(f"zone {name} counts {zone['count']} but lists {len(zone['items'])}")
        for item in zone["items"]:
            if item.get("hidden"):
                ct = st.prog.comp_types[item["type"]]
                # its back_label's words: read only through what the back shows (compiled as public text)
                allowed = {"hidden", "type", "owner"} | set(ct.public) | ({"name"} if ct.back_label else set())
                if not set(item) <= allowed:
                    raise CheckFailed(f"a hidden component in {name} shows {set(item) - allowed}")
    if v["to_move"] != sorted(game.to_move(st)):
        raise CheckFailed(f"the view of {p} names {v['to_move']} to move")
    if ("decision" in v) != (p is not None and p in game.to_move(st)):
        raise CheckFailed(f"the view of {p} has a decision when it should not, or none when it should")
    st2 = perturb(st, p, rnd)
    if st2 is not None and view(st2, p) != v:
        raise CheckFailed(f"the view of {p} changes with things {p} cannot see")


def shown_to(events, q) -> set[int]:
    """The components events show player ``q``: revealed to everybody or to
    ``q``, or moved face up."""
    return {ev[1] for ev in events
            if (ev[0] == "reveal" and (ev[2] is None or q in ev[2])) or (ev[0] == "move" and ev.face_up)}


def check_who_is_asked(game: Game, st, rnd: random.Random) -> bool:
    """One decision from ``st`` in two worlds that neither the decider nor an
    observer can tell apart (``exchange_unseen``). When the observer sees the
    same components after it (nothing was revealed, nothing moved
    differently), it must see the same game: the same players to decide, the
    same turn and phase, the same public variables. Otherwise the flow of the
    rules tells the observer a secret (e.g. only the players holding some
    card are asked whether to play it, or a question is skipped when a drawn
    card cannot be played). The components the rules show the observer
    during the decision are the same in both worlds (a card revealed and
    then reshuffled away was seen by everybody: naming it tells nothing).
    Returns whether the check applied."""
    from rulebook.agents.determinize import exchange_unseen
    from rulebook.interpreter.errors import RuleError
    from rulebook.interpreter.narrate import narrate

    pend = st.pending or {}
    if pend.get("kind") == "simul" and any(pend["done"]):
        return False  # answers already given were made in the real world: the other one may not allow them
    tm = game.to_move(st)
    if not tm:
        return False
    d = tm[rnd.randrange(len(tm))]
    observers = [q for q in range(st.n) if q != d]
    if not observers:
        return False
    q = rnd.choice(observers)
    k = rnd.randrange(len(game.options(st, d)))
    real = st.clone()
    since = len(real.events)
    game.apply(real, d, k)
    # what the rules show the observer during the decision (a public reveal, a card played face up, even if
    # it is hidden again at once by a reshuffle or a re-roll) is the same component in both worlds: the
    # observer learns it by the rules' own doing, so it is no secret the narration could tell
    other = exchange_unseen(st, [d, q], rnd, keep=shown_to(real.events[since:], q))
    if game.options(other, d).labels != game.options(st, d).labels:
        return False  # the decider's own options differ: not the same decision
    since = since, len(other.events)
    try:
        game.apply(other, d, k)
    except RuleError:
        return False  # a value computed earlier from a face the exchange changed (kept in a local)
    v_real, v_other = view(real, q), view(other, q)
    if v_real["zones"] != v_other["zones"]:
        return False  # something was revealed or moved: the worlds are told apart by the rules' own doing
    told = narrate(real, real.events[since[0]:], q), narrate(other, other.events[since[1]:], q)
    if told[0] != told[1]:
        lines = [(a, b) for a, b in zip(*told) if a != b] or [(told[0][len(told[1]):], told[1][len(told[0]):])]
        raise CheckFailed(
            f"after P{d + 1}'s option {k}, P{q + 1} sees the same components in two worlds it cannot tell apart, "
            f"but is told {lines[0][0]!r} in one and {lines[0][1]!r} in the other: the narration tells a secret "
            "(a value read from a face-down component and kept in a variable before a 'say', or a label)")
    v_real.pop("decision", None)
    v_other.pop("decision", None)
    differ = sorted(key for key in v_real if v_real[key] != v_other.get(key))
    if differ:
        raise CheckFailed(
            f"after P{d + 1}'s option {k}, P{q + 1} sees the same components in two worlds it cannot tell apart, "
            f"but not the same {', '.join(differ)} ({[v_real[key] for key in differ]} against "
            f"{[v_other[key] for key in differ]}): the rules' flow tells a secret (a question put only to those "
            "who can answer it, or skipped when nothing can be done: ask everyone who might, with an optional choice)")
    return True


def check_forced_answers(game: Game, st, rnd: random.Random) -> bool:
    """The browser table answers a question with one option itself
    (``rulebook.display.forced.answered_by_table``), and every seat sees who is
    still to decide: so whether the table answered another seat's question
    must not depend on what a seat cannot see (an optional play of a card
    above 3 is forced only for a hand without one). In a world the
    observer cannot tell from this one (``exchange_unseen``, the question
    asked again there with ``Game.reask``), with every seat played by a
    human, the table must answer the same seats at once. Returns whether
    the check applied."""
    from rulebook.agents.determinize import exchange_unseen
    from rulebook.interpreter.errors import RuleError

    pend = st.pending or {}
    if st.over or not pend or (pend.get("kind") == "simul" and any(pend["done"])):
        return False  # answers already given were made in this world: the other may not allow them
    q = rnd.randrange(st.n)
    if not [p for p in game.to_move(st) if p != q]:
        return False
    worlds = [st.clone(), exchange_unseen(st, [q], rnd)]
    try:
        for w in worlds:
            game.reask(w)  # the options of the question as that world's cards give them
    except RuleError:
        return False  # a value computed earlier from a face the exchange changed (kept in a local)
    if any(w.over or w.pending is None for w in worlds):
        return False
    own = [game.options(w, q).labels if q in game.to_move(w) else None for w in worlds]
    if own[0] != own[1]:
        return False  # the observer's own options differ: it could tell the worlds apart
    answered = [answered_at_once(game, w, q) for w in worlds]
    if answered[0] != answered[1]:
        shown = [", ".join(f"P{p + 1}" for p in a) or "nobody" for a in answered]
        raise CheckFailed(
            f"with every seat at the browser table, the table answers the one-option question of {shown[0]} itself in "
            f"one world and of {shown[1]} in another that P{q + 1} cannot tell apart: P{q + 1} would see who has "
            "only one option (rulebook.display.forced.answered_by_table must ask each seat as usual when several "
            "are human)")
    return True


def answered_at_once(game: Game, st, observer: int) -> list[int]:
    """The seats other than ``observer`` whose questions the browser table,
    every seat human, answers itself from ``st`` before anybody is asked."""
    from rulebook.display.forced import answered_by_table

    s, out = st.clone(), []
    humans = tuple(range(st.n))
    while not s.over and s.pending is not None:
        p = answered_by_table(game, s, humans)
        if p is None or p == observer:
            break
        out.append(p)
        game.apply(s, p, 0)
    return out
