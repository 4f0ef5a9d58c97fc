"""Runtime operations used by compiled instructions: moving components,
visibility, events, turn order. They work on ``State`` only and know no game.
"""

from __future__ import annotations

from bisect import insort

from rulebook.interpreter import rng
from rulebook.interpreter.budget import over_budget
from rulebook.interpreter.errors import RECURSION, SCRIPT, RuleError
from rulebook.interpreter.events import moved
from rulebook.interpreter.labels import comp_name
from rulebook.interpreter.zones import (  # noqa: F401 - the zone helpers, also under their old home
    add_comp_zones,
    can_see,
    comp_zone,
    zone_family,
    zone_key,
    zone_label,
    zone_owner,
)

BOX = -1  # location of a component that is out of the game
MAX_STACK = 200  # frames: nested procedure calls and triggers


def move(st, c: int, dest: int, position: str = "top", face: str | None = None, fire_now: bool = True):
    src = st.loc[c]
    if src != BOX:
        zone = st.zones[src]
        was_top = zone[0] == c
        zone.remove(c)
        if was_top and zone and st.prog.top_piles:
            fams = st.cat.zone_family  # zone_family(st, src) written out, as for dest below
            if st.prog.families[fams[src] if src < len(fams) else st.extra_zones[src - len(fams)][0]].visibility \
                    == "top":
                st.face[zone[0]] = True  # a face-up pile shows its new top
    if dest == BOX:
        st.loc[c] = BOX
    else:
        zone = st.zones[dest]
        fams = st.cat.zone_family  # zone_family(st, dest) written out: this is the game loop's hottest path
        fam = st.prog.families[fams[dest] if dest < len(fams) else st.extra_zones[dest - len(fams)][0]]
        if not fam.ordered:
            insort(zone, c)  # unordered zones keep a canonical order: by component
        elif position == "top":
            zone.insert(0, c)
        elif position == "bottom":
            zone.append(c)
        else:
            zone.insert(random_index(st, len(zone) + 1), c)
            if st.track:  # nobody can say where in the zone it went
                lose(st, (c,))
        st.loc[c] = dest
        st.face[c] = (face or fam.face) == "up"
        if fam.visibility == "top":  # a face-up pile: only its top is face up (so it was before)
            st.face[c] = zone[0] == c
            if zone[0] == c and len(zone) > 1:
                st.face[zone[1]] = False
    if st.track and src != BOX:
        blur(st, c, src)
    if c in st.known:
        del st.known[c]
    if st.record:  # a face-up component is named now: what it shows may change once it is hidden
        st.events.append(moved(c, src, dest, st.face[c], comp_name(st, c) if st.face[c] else None))
    if "moved" in st.prog.triggers:
        fields = {"component": c, "from_zone": src if src != BOX else None, "to_zone": dest if dest != BOX else None}
        if not fire_now:
            return fields
        fire(st, "moved", fields)
    return None


def show_top(st, z: int) -> None:
    """In a zone of a family with visibility 'top' (a face-up pile), only the
    top component is face up: set again after a change that can reorder or
    re-face the whole pile (shuffle, swap, reveal, hide); ``move`` keeps it by
    turning two cards."""
    if z == BOX or st.prog.families[zone_family(st, z)].visibility != "top":
        return
    face = st.face
    for i, c in enumerate(st.zones[z]):
        face[c] = i == 0


def fire_in_order(st, events: list) -> None:
    """Fire several 'moved' events so that their triggers run in the events'
    order. Every trigger's condition is tested first, the last event's
    first (as frames are pushed), then the effects run."""
    if "moved" in st.prog.framed_events:
        for fields in reversed(events):  # frames run last-pushed first, so push them in reverse
            if fields is not None:
                fire(st, "moved", fields)
        return
    batches = [(fields, _chosen(st, "moved", fields)) for fields in reversed(events) if fields is not None]
    for fields, chosen in reversed(batches):
        _run_direct(st, "moved", fields, chosen)
        if st.over:
            return


def as_list(value) -> list:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    return [value]


def fire(st, event: str, fields: dict) -> None:
    """Run the triggers of ``event``, in declaration order, before the
    statement after the one that fired it: every trigger's condition is
    tested first, then the effects run. Effects that can stop at a decision
    go on the stack as frames (the firing code then returns to the run
    loop); the others are called at once."""
    chosen = _chosen(st, event, fields)
    if not chosen:
        return
    if event in st.prog.framed_events:
        frames = []
        for trig in chosen:
            L = [st.current] + [None] * (trig.nlocals - 1)
            L[trig.event_slot] = fields
            frames.append([trig.unit, 0, L])
        _check_depth(st, event, len(frames))
        st.stack.extend(reversed(frames))
        return
    _run_direct(st, event, fields, chosen)


def _chosen(st, event: str, fields: dict) -> list:
    if st.record:
        st.events.append(("event", event, fields))
    triggers = st.prog.triggers.get(event)
    if not triggers:
        return []
    p = st.current
    chosen = [t for t in triggers if t.cond is None or t.cond(st, p, fields)]
    st.work += len(chosen)  # a trigger run is work: triggers firing events for triggers have no loop to count
    if st.work > st.prog.max_work:
        over_budget(st, "runs")
    return chosen


def _run_direct(st, event: str, fields: dict, chosen: list) -> None:
    if not chosen:
        return
    _check_depth(st, event, len(chosen))
    st.depth += 1
    p = st.current
    for trig in chosen:
        trig.run(st, p, fields)
        if st.over:
            break
    st.depth -= 1


def _check_depth(st, event: str, more: int) -> None:
    limit = st.prog.limits.get("max_stack", MAX_STACK)
    if len(st.stack) + st.depth + more > limit:
        triggers = st.prog.triggers.get(event) or ()
        raise RuleError(
            RECURSION,
            f"triggers and procedures nested more than {limit} deep (event '{event}')",
            triggers[0].where if triggers else "",
            "a trigger probably causes its own event again",
        )


def live(st) -> list[int]:
    return [p for p in range(st.n) if not st.eliminated[p]]


def next_player(st, p: int, steps: int = 1):
    """The live player ``steps`` seats after ``p`` in the play direction."""
    direction = st.vars.get("direction", 1) or 1
    n = st.n
    if all(st.eliminated):
        return None
    q = p
    moved = 0
    while moved < steps:
        q = (q + direction) % n
        if not st.eliminated[q]:
            moved += 1
    return q


def seat_order(st, p: int) -> list[int]:
    """Live players starting at ``p`` and going round in the play direction."""
    direction = st.vars.get("direction", 1) or 1
    return [q for q in ((p + direction * i) % st.n for i in range(st.n)) if not st.eliminated[q]]


def shuffle(st, z: int) -> None:
    """Shuffle zone ``z``: one of the two kinds of chance event (with
    ``random_index``), so that a scenario can script both (``st.script``)."""
    if st.script:
        _scripted_shuffle(st, z)
    else:
        st.rng = rng.shuffle(st.rng, st.zones[z])
    if st.track:
        lose(st, st.zones[z])
    if st.prog.top_piles:
        show_top(st, z)
    if st.record:
        st.events.append(("shuffle", z))


# ------------------------------------------------------------ what players lose track of
# A player who saw a component's face remembers it while it can follow the
# component (agents.determinize.Memory). The engine counts, per player and
# component, the times it was mixed out of that player's sight: shuffled,
# put at a random place, or taken face down out of an unordered zone the
# player cannot see into while look-alikes (same type and public fixed
# properties) stayed there face down, so that the player cannot say which
# one left. Kept only when ``st.track`` (the real game, not a search's samples).


def lose(st, comps, players=None) -> None:
    """Count ``comps`` as mixed for ``players`` (None: everyone)."""
    n_comps = len(st.static)
    rows = [list(r) + [0] * (n_comps - len(r)) for r in st.lost] if st.lost else [[0] * n_comps for _ in range(st.n)]
    for p in range(st.n) if players is None else players:
        row = rows[p]
        for c in comps:
            row[c] += 1
    st.lost = tuple(tuple(r) for r in rows)


def lost_count(st, p: int, c: int) -> int:
    """How often ``c`` was mixed out of player ``p``'s sight so far."""
    lost = st.lost
    if not lost:
        return 0
    row = lost[p]
    return row[c] if c < len(row) else 0


def blur(st, c: int, src: int) -> None:
    """``c`` has just left zone ``src``: if ``src`` is unordered and
    look-alikes of ``c`` stay there face down, the players who could not
    see into ``src`` cannot tell which one left (nor which stayed)."""
    fam = st.prog.families[zone_family(st, src)]
    if fam.ordered:
        return
    key = _look(st, c)
    mates = [d for d in st.zones[src] if not st.face[d] and _look(st, d) == key]
    if not mates:
        return
    owner = zone_owner(st, src) if fam.visibility == "owner" else None
    knew = st.known.get(c) or ()
    blind = [p for p in range(st.n) if p != owner and p not in knew]
    if blind:
        lose(st, [c] + mates, blind)


def _look(st, c: int) -> tuple:
    """What a face-down component shows: its type and public fixed properties."""
    row = st.static[c]
    t = st.cat.types[c] if c < st.cat.n else row.get("type")
    ct = st.prog.comp_types.get(t)
    public = ct.public if ct is not None else ()
    return (t,) + tuple(repr(row.get(p)) for p in public)


def random_index(st, n: int) -> int:
    """A random number from 0 to n-1: every roll, random pick and ``move ...
    at random`` draws it here (the other kind of chance event is ``shuffle``)."""
    if st.script:
        if st.script[0][0] == STOP:
            raise ChanceStop("index", n)
        entry = next_scripted(st, "index", f"a random number from 0 to {n - 1}")
        if not 0 <= entry[1] < n:
            raise script_error(entry, f"the scripted {entry[2]} is not possible: the rules draw one of {n} outcomes "
                                      f"here (a roll from 1 to {n}, a pick from 0 to {n - 1})")
        return entry[1]
    st.rng, i = rng.below(st.rng, n)
    return i


# ------------------------------------------------------------ scripted chance (scenario files)
# ``st.script`` is a tuple of entries a scenario imposes, used first to last:
# ("index", k, text, ...) gives random_index's next number; ("shuffle", wanted,
# text, ...) puts the components ``wanted`` (a list, or a function of the state
# giving one) on top of the next shuffled zone, in that order, the rest shuffled
# below them. ``text`` names the entry in messages; more items are the caller's.
# (STOP,) stops the run at the next chance event with ``ChanceStop``, which
# names the event and its possible outcomes: a caller that resolves chance
# itself (an OpenSpiel chance node) runs the game again from its last
# decision with the outcome scripted.
STOP = "stop"


class ChanceStop(BaseException):
    """The run reached a chance event where the script says ``(STOP,)``.
    ``kind`` is "index" (a number from 0 to ``n`` - 1: a roll or a random
    pick) or "shuffle" (of zone ``zone``, whose components are ``items``).
    The state it leaves is half-way through a rule: throw it away. A
    BaseException, so that no rule-level ``except Exception`` swallows it."""

    def __init__(self, kind: str, n: int, zone: int | None = None, items: tuple = ()):
        super().__init__(kind, n, zone, items)
        self.kind, self.n, self.zone, self.items = kind, n, zone, items


def next_scripted(st, kind: str, happening: str) -> tuple:
    """Take the script's next entry, which must be of ``kind``."""
    entry = st.script[0]
    if entry[0] != kind:
        raise script_error(entry, f"the scripted {entry[2]} is not possible: the next chance event is {happening}")
    st.script = st.script[1:]
    return entry


def script_error(entry: tuple, message: str) -> RuleError:
    err = RuleError(SCRIPT, message, hint="a scenario's chance outcomes are used in the order the rules draw them")
    err.entry = entry  # the scenario names the step that scripted it
    return err


def _scripted_shuffle(st, z: int) -> None:
    zone = st.zones[z]
    if st.script[0][0] == STOP:
        raise ChanceStop("shuffle", len(zone), z, tuple(zone))
    entry = next_scripted(st, "shuffle", f"a shuffle of {zone_label(st, z)}")
    wanted = entry[1](st) if callable(entry[1]) else entry[1]
    wanted = as_list(wanted)
    for c in wanted:
        if not isinstance(c, int) or isinstance(c, bool):
            raise script_error(entry, f"the scripted {entry[2]} is not possible: it gives {c!r}, not a component "
                                      f"of the shuffled {zone_label(st, z)}")
        if c not in zone or wanted.count(c) > 1:
            where = f"it is not in {zone_label(st, z)}" if c not in zone else "it is listed twice"
            raise script_error(entry, f"the scripted {entry[2]} is not possible: it puts {comp_name(st, c)} on top "
                                      f"of the shuffled {zone_label(st, z)}, but {where}")
    rest = [c for c in zone if c not in wanted]
    st.rng = rng.shuffle(st.rng, rest)
    zone[:] = wanted + rest
