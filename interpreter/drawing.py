"""``draw`` and ``deal``: components taken one at a time from the top of a
zone, and what happens when that zone is empty and a component is still
wanted: what the zone's family declares (``when_empty``, docs/format.md).

``ran_out`` is called only then (a draw of 3 from a zone holding 1 meets it
empty at its second card), so the usual path pays nothing for it. Compiled
rules call these (compiler/emit_stmt.py), and a draw written out for known
zone families calls ``ran_out`` itself.
"""

from __future__ import annotations

from rulebook.interpreter import ops
from rulebook.interpreter.errors import EMPTY_ZONE, RuleError
from rulebook.interpreter.lib import charge
from rulebook.interpreter.zones import comp_zone, zone_family, zone_key, zone_label


def draw(st, z: int, d: int, k: int, face, fire: bool, where: str = ""):
    """``draw k from z to d``: the top component of ``z`` onto ``d``, ``k``
    times; into ``z`` itself, to its bottom."""
    moved: list = []
    if d == z:  # top to bottom of the same zone: a card can come round again, so count the work
        charge(st, max(k, 0))
    for _ in range(k):
        zone = st.zones[z]
        if not zone and not ran_out(st, z, where, moved):
            break
        moved.append(ops.move(st, zone[0], d, "top" if d != z else "bottom", face, fire_now=False))
    if moved and fire:
        ops.fire_in_order(st, moved)


def deal(st, z: int, targets: list, rounds: int, fire: bool, where: str = ""):
    """``deal rounds from z to ...``: one component to each zone of ``targets``
    per round, from the top of ``z``; over once ``z`` runs out for good."""
    moved: list = []
    if z in targets:  # dealing from one of the receiving zones: cards can come round again
        charge(st, max(rounds, 0) * len(targets))
    for _ in range(rounds):
        for target in targets:
            zone = st.zones[z]
            if not zone and not ran_out(st, z, where, moved):
                break
            moved.append(ops.move(st, zone[0], target, fire_now=False))
        else:
            continue
        break  # the source ran out: the deal is over, however many rounds were asked for
    if moved and fire:
        ops.fire_in_order(st, moved)


def ran_out(st, z: int, where: str, moved: list | None) -> bool:
    """Zone ``z`` is empty and the draw at ``where`` wants a component from
    it. True when the zone was refilled and the draw goes on; False when it
    stops. ``moved``: the draw's 'moved' fields so far, which the refill's
    moves join (their triggers run after the draw's moves, in order)."""
    family = zone_family(st, z)
    rule = st.prog.families[family].when_empty
    if rule is None:
        heard = st.prog.empty_draws
        if heard is not None and where not in heard:  # rulebook check listens: each place once
            heard[where] = family
        return False
    if rule == "nothing":
        return False
    if rule == "error":
        raise RuleError(EMPTY_ZONE, f"{zone_label(st, z)} is empty: there is nothing to draw or deal from it", where,
                        f"the zone '{family}' says when_empty: error; guard the draw with "
                        f"'if not is_empty(...)', or declare a refill")
    return _refill(st, z, refill_zone(st, z, rule["refill_from"]), rule["shuffle"], moved)


def refill_zone(st, z: int, family: str) -> int:
    """The zone of ``family`` that refills zone ``z``: the shared one, or the
    one kept for the same player or component (the validator allows no other)."""
    fam = st.prog.families[family]
    if fam.per is None:
        return st.cat.zone_base[family]
    key = zone_key(st, z)
    if fam.per == "player":
        return st.cat.zone_base[family] + key
    return comp_zone(st, family, key)


def _refill(st, z: int, src: int, shuffled: bool, moved: list | None) -> bool:
    """Move every component of ``src`` into the empty zone ``z``, keeping
    their order (``src``'s top becomes ``z``'s top), then shuffle ``z`` if
    asked. The moves and the shuffle are recorded as any others."""
    items = list(st.zones[src])
    if not items:
        return False  # nothing to refill with: the draw stops
    charge(st, len(items))  # a draw that keeps refilling its zone is bounded by the work budget
    for c in items:
        fields = ops.move(st, c, z, "bottom", None, fire_now=False)
        if moved is not None:
            moved.append(fields)
    if shuffled:
        ops.shuffle(st, z)
    return True
