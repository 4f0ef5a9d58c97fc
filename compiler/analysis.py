"""What the compiler knows about a ruleset before it writes a line: which
units can stop at a decision, which can end the game, which call
themselves, and where zones sit.

A unit (hook, action, procedure, trigger, setup) *suspends* when it
contains a ``choose``, calls a procedure that suspends, or fires an event
one of whose triggers suspends; such a unit is written as a state machine
whose frame is plain data on the state (``framed``), every other unit as a
plain Python function. The facts are computed to a fixed point over the
calls between units and the events they fire.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook.validator.ir import S

MOVES = ("move", "draw", "deal", "remove", "create")


@dataclass
class Analysis:
    susp: set = field(default_factory=set)  # units that can stop at a decision
    can_end: set = field(default_factory=set)  # units that can end the game
    framed_events: set = field(default_factory=set)  # events whose triggers run as frames
    ending_events: set = field(default_factory=set)  # events whose triggers can end the game
    recursive: set = field(default_factory=set)  # units that can reach themselves
    fans_out: set = field(default_factory=set)  # units that call units or fire events that have triggers
    static_zone_base: dict = field(default_factory=dict)  # shared family -> its zone number, when fixed
    moved_fires: bool = False  # some trigger listens to 'moved'
    top_piles: bool = False  # some zone is a face-up pile (only its top face up)
    listened: set = field(default_factory=set)  # events some trigger listens to
    created: set = field(default_factory=set)  # component types a rule creates in play
    calls: dict = field(default_factory=dict)
    fires: dict = field(default_factory=dict)

    def stmt_susp(self, s: S) -> bool:
        """Whether statement ``s`` can stop at a decision (it needs a resume point)."""
        op = s.op
        if op in ("choose", "simultaneous"):
            return True
        if op == "call":
            return s.a[0] in self.susp
        if op == "emit":
            return s.a[0] in self.framed_events
        if op in MOVES:
            return "moved" in self.framed_events
        if op == "if":
            return any(self.block_susp(body) for _, body, _ in s.a[0]) or self.block_susp(s.a[1])
        if op in ("for", "while"):
            return self.block_susp(s.a[2] if op == "for" else s.a[1])
        if op == "repeat":
            return self.block_susp(s.a[1])
        return False

    def block_susp(self, body) -> bool:
        return any(self.stmt_susp(s) for s in body)


def _scan(body, facts: dict) -> None:
    for s in body:
        op = s.op
        if op in ("choose", "simultaneous"):
            facts["asks"] = True
        elif op == "call":
            facts["calls"].add(s.a[0])
        elif op == "emit":
            facts["fires"].add(s.a[0])
        elif op in MOVES:
            facts["fires"].add("moved")
            if op == "create":
                facts["creates"].setdefault(s.a[0], s.where)
        elif op == "end_game":
            facts["ends"] = True
        if op == "if":
            for _, b, _ in s.a[0]:
                _scan(b, facts)
            _scan(s.a[1], facts)
        elif op == "for":
            _scan(s.a[2], facts)
        elif op in ("while", "repeat"):
            _scan(s.a[1], facts)
        elif op == "simultaneous":
            _scan(s.a[-1], facts)


def created_types(body) -> dict:
    """The component types a block creates, each with where it first does."""
    facts = {"asks": False, "ends": False, "calls": set(), "fires": set(), "creates": {}}
    _scan(body, facts)
    return facts["creates"]


def start_draws(checked) -> bool:
    """Whether making a game's start (definitions, components, starting
    values) draws at random: then it depends on the seed and cannot be
    made once and copied for every game."""
    from rulebook.validator.ir import walk

    roots = [e.x for _, e in checked.defines]
    for table in (checked.vars, checked.pvars):
        roots += [spec[1].x for spec in table.values() if spec[0] == "expr"]
    for r in checked.components.values():
        roots += [x for _, _, x in r.loops if x is not None] + [x for _, _, x in r.props if x is not None]
        roots += [x for x in (r.copies, r.count) if x is not None]
        roots += [spec[1] for spec in r.initial["props"].values() if spec[0] == "expr"]
    seen = set()
    while roots:
        for n in walk(roots.pop()):
            if n.op in ("random", "roll"):
                return True
            if n.op == "fn" and n.a[0] not in seen:
                seen.add(n.a[0])
                roots.append(checked.functions[n.a[0]].body)
    return False


def analyse(checked) -> Analysis:
    an = Analysis()
    facts = {}
    for name, unit in checked.units.items():
        f = {"asks": False, "ends": False, "calls": set(), "fires": set(), "creates": {}}
        _scan(unit.body, f)
        facts[name] = f
        an.created |= set(f["creates"])
    triggers: dict = {}
    for t in checked.triggers:
        triggers.setdefault(t.event, []).append(t.unit)
    an.moved_fires = "moved" in triggers
    an.listened = set(triggers)
    an.top_piles = any(f["visibility"] == "top" for f in checked.meta["families"].values())
    an.calls = {n: f["calls"] for n, f in facts.items()}
    an.fires = {n: f["fires"] for n, f in facts.items()}
    changed = True
    while changed:
        changed = False
        for event, units in triggers.items():
            if event not in an.framed_events and any(u in an.susp for u in units):
                an.framed_events.add(event)
                changed = True
            if event not in an.ending_events and any(u in an.can_end for u in units):
                an.ending_events.add(event)
                changed = True
        for name, f in facts.items():
            if name not in an.susp and (f["asks"] or f["calls"] & an.susp or f["fires"] & an.framed_events):
                an.susp.add(name)
                changed = True
            if name not in an.can_end and (f["ends"] or f["calls"] & an.can_end or f["fires"] & an.ending_events):
                an.can_end.add(name)
                changed = True
    # units that can reach themselves through calls and the triggers of the events they fire
    edges = {n: set(f["calls"]) | {t for e in f["fires"] for t in triggers.get(e, ())} for n, f in facts.items()}
    an.fans_out = {n for n, out in edges.items() if out}
    for start in edges:
        seen, todo = set(), list(edges[start])
        while todo:
            u = todo.pop()
            if u == start:
                an.recursive.add(start)
                break
            if u not in seen:
                seen.add(u)
                todo.extend(edges.get(u, ()))
    base = 0
    for name, fam in checked.meta["families"].items():
        if fam["per"] is not None:
            break
        an.static_zone_base[name] = base
        base += 1
    return an
