"""Runtime operations used by compiled instructions: moving components,
visibility, events, turn order. They work on ``State`` only and know no game.
"""

from __future__ import annotations

from bisect import insort

from interpreter import rng
from interpreter.errors import RECURSION, SCRIPT, RuleError
from interpreter.labels import comp_name

BOX = -1  # location of a component that is out of the game
MAX_STACK = 200  # frames: nested procedure calls and triggers


def zone_family(st, z: int) -> str:
    """The family of zone instance ``z``: the catalogue's zones, then those
    made in play for created components (``st.extra_zones``)."""
    fams = st.cat.zone_family
    return fams[z] if z < len(fams) else st.extra_zones[z - len(fams)][0]


def zone_key(st, z: int):
    """The player or component a zone instance is kept for (None: a shared zone)."""
    keys = st.cat.zone_key
    return keys[z] if z < len(keys) else st.extra_zones[z - len(keys)][1]


def zone_label(st, z: int) -> str:
    """A zone instance's name in views: ``family`` or ``family[key]``."""
    names = st.cat.zone_names
    if z < len(names):
        return names[z]
    fam, key = st.extra_zones[z - len(names)]
    return f"{fam}[{key}]"


def comp_zone(st, family: str, c) -> int | None:
    """The zone of ``family`` (kept per component) that belongs to component ``c``."""
    z = st.cat.zone_of_comp[family].get(c)
    if z is None and st.extra_zones:
        base = len(st.cat.zone_family)
        for i, (fam, key) in enumerate(st.extra_zones):
            if key == c and fam == family:
                return base + i
    return z


def add_comp_zones(st, c: int, type_name: str) -> None:
    """Give a component created in play its zones of every family kept per
    component of its type, as the catalogue gives those it starts with."""
    for name, fam in st.prog.families.items():
        if fam.per == type_name:
            st.zones.append([])
            st.extra_zones.append([name, c])


def zone_owner(st, z: int):
    """The player who owns zone instance ``z`` (None for shared zones, and
    for none: the zone of a component out of the game)."""
    if z is None:
        return None
    fam = st.prog.families[zone_family(st, z)]
    if fam.per is None:
        return None
    key = zone_key(st, z)
    if fam.per == "player":
        return key
    return st.owner[key]


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
        st.loc[c] = dest
        st.face[c] = (face or fam.face) == "up"
        if fam.visibility == "top":  # a face-up pile: only its top is face up (so it was before)
            st.face[c] = zone[0] == c
            if zone[0] == c and len(zone) > 1:
                st.face[zone[1]] = False
    if c in st.known:
        del st.known[c]
    if st.record:  # a face-up component is named now: what it shows may change once it is hidden
        st.events.append(("move", c, src, dest, st.face[c], comp_name(st, c) if st.face[c] else None))
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
    """Fire several events so that their triggers run in the events' order
    (frames run last-pushed first, so push them in reverse)."""
    for fields in reversed(events):
        if fields is not None:
            fire(st, "moved", fields)


def as_list(value) -> list:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    return [value]


def can_see(st, c: int, p) -> bool:
    """Whether player ``p`` (None: a spectator) sees component ``c``'s face."""
    if st.face[c]:
        return True
    if p is None:
        return False
    known = st.known.get(c)
    if known and p in known:
        return True
    z = st.loc[c]
    if z == BOX:
        return False
    fams = st.cat.zone_family  # zone_family(st, z) written out: called for every component of every view
    fam = st.prog.families[fams[z] if z < len(fams) else st.extra_zones[z - len(fams)][0]]
    return fam.visibility == "owner" and zone_owner(st, z) == p


def fire(st, event: str, fields: dict) -> None:
    """Run the triggers of ``event``: their frames go on the stack so that
    they run, in declaration order, before the statement after the emit."""
    if st.record:
        st.events.append(("event", event, fields))
    triggers = st.prog.triggers.get(event)
    if not triggers:
        return
    frames = []
    for trig in triggers:
        L = [st.current] + [None] * (trig.code.nlocals - 1)
        L[trig.event_slot] = fields
        if trig.cond is None or trig.cond(st, L):
            frames.append([trig.code.id, 0, L])
    if len(st.stack) + len(frames) > st.prog.limits.get("max_stack", MAX_STACK):
        raise RuleError(
            RECURSION,
            f"triggers and procedures nested more than "
            f"{st.prog.limits.get('max_stack', MAX_STACK)} deep (event '{event}')",
            triggers[0].code.where[0] if triggers[0].code.where else "",
            "a trigger probably causes its own event again",
        )
    st.stack.extend(reversed(frames))


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
    if st.prog.top_piles:
        show_top(st, z)
    if st.record:
        st.events.append(("shuffle", z))


def random_index(st, n: int) -> int:
    """A random number from 0 to n-1: every roll, random pick and ``move ...
    at random`` draws it here (the other kind of chance event is ``shuffle``)."""
    if st.script:
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
