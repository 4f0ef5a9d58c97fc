"""Turn interpreter events into sentences a given viewer may read.

A spectator (viewer None) learns only public things; a player also learns
what is visible to them. Secret simultaneous choices are narrated as
"has chosen" until they are revealed by the rules; the answers of a
``choose ... public`` are told as they are given (components in them only
when the viewer can see them).

``narrate_lines`` keeps what kind of event each sentence tells and which
player it is about, so the terminal can style and condense them without
parsing its own text; ``narrate`` is the plain sentences (logs, tests).
"""

from __future__ import annotations

from typing import NamedTuple

from rulebook.interpreter.events import Decision
from rulebook.interpreter.labels import comp_name, player_name, zone_name
from rulebook.interpreter.ops import can_see, zone_family, zone_owner


class Line(NamedTuple):
    """One narrated sentence. ``kind``: say, phase, turn, decision, secret,
    time_out, reveal, private (only this viewer learns it), move, shuffle,
    eliminate or end. ``player``: the seat it is about, or None."""

    kind: str
    player: int | None
    text: str


def narrate(st, events, viewer=None, verbose: bool = False) -> list[str]:
    return [line.text for line in narrate_lines(st, events, viewer, verbose)]


def narrate_lines(st, events, viewer=None, verbose: bool = False, forced: frozenset = frozenset()) -> list[Line]:
    """The sentences ``viewer`` may read of ``events``, which happened since
    the last decision narrated; ``st`` is the state after them. What a
    component showed is taken from the event (named when it happened), since
    a component shown and hidden again may since show something else.
    ``forced``: the indexes of decision events that had one option, told as
    "(the only option)" so that nobody reads them as a choice."""
    out: list[Line] = []
    told = -1  # the last event already told (with a reveal before it, in one sentence)
    for i, ev in enumerate(events):
        if i <= told:
            continue
        kind = ev[0]
        if kind == "say":
            out.append(Line("say", None, ev[1]))
        elif kind == "phase" and verbose:
            out.append(Line("phase", None, f"-- {ev[1]} --"))
        elif kind == "turn":
            out.append(Line("turn", ev[1], f"{player_name(st, ev[1])}'s turn."))
        elif kind == "action":
            pass  # the decision event below says it
        elif kind == "decision":
            line = _decision(st, ev, viewer, _shown(st, events, i + 1, viewer))
            if line is not None and i in forced and line.kind == "decision":
                line = line._replace(text=line.text[:-1] + " (the only option).")
            if line is not None:
                out.append(line)
        elif kind == "reveal":
            who = ev[2]
            names = [ev[3]]
            j = i + 1
            while len(ev) > 4 and ev[4] == "first" and j < len(events) and _same_reveal(ev, events[j]):
                names.append(events[j][3])
                j += 1
            told = j - 1
            if who is None:
                out.append(Line("reveal", None, f"Revealed: {_listed(names)}."))
            elif viewer in who:
                out.append(Line("private", viewer, f"You see {_listed(names)}."))
        elif kind == "move" and verbose:
            c = ev.comp
            what = (
                ev.name if ev.face_up
                else comp_name(st, c) if _sees_in(st, ev.dest, viewer) and can_see(st, c, viewer)
                else f"a {st.cat.types[c] if c < st.cat.n else 'component'}"
            )
            out.append(Line("move", None, f"  {what}: {zone_name(st, ev.src)} -> {zone_name(st, ev.dest)}"))
        elif kind == "shuffle" and verbose:
            out.append(Line("shuffle", None, f"  {zone_name(st, ev[1])} is shuffled."))
        elif kind == "eliminate":
            until = (f" until the end of the {ev[3]} phase" if ev[2] == "phase" else "") if len(ev) > 2 else None
            out.append(Line("eliminate", ev[1], f"{player_name(st, ev[1])} is out"
                            + (" of the game." if until is None else f"{until}.")))
        elif kind == "restore":
            out.append(Line("eliminate", ev[1], f"{player_name(st, ev[1])} is back in."))
        elif kind == "end":
            names = ", ".join(player_name(st, p) for p in ev[1]) or "nobody"
            out.append(Line("end", None, f"Game over. Winner{'s' if len(ev[1]) != 1 else ''}: {names}."))
    return out


def _same_reveal(ev, nxt) -> bool:
    """Whether event ``nxt`` is revealed by the same statement as ``ev``
    (the first reveal of a statement showing several is marked "first", the
    others "more")."""
    return nxt[0] == "reveal" and len(nxt) > 4 and nxt[4] == "more" and nxt[2] == ev[2]


def _listed(names: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _sees_in(st, z: int, viewer) -> bool:
    """Whether ``viewer`` sees face-down components in zone ``z`` (their own
    hand): a card that went face down elsewhere (the deck) is not named,
    even if it has reached their hand by the time it is narrated."""
    if viewer is None or z < 0:
        return False
    fam = st.prog.families[zone_family(st, z)]
    return fam.visibility == "owner" and zone_owner(st, z) == viewer


def _shown(st, events, start: int, viewer) -> set[int]:
    """The components ``viewer`` saw after a decision (``events[start:]``,
    up to the next decision): moved face up, or revealed to all or to them.
    A card played face up and put away face down in the same action was
    seen by everybody, though it is hidden by the time it is narrated."""
    shown: set[int] = set()
    for ev in events[start:]:
        if ev[0] == "decision":
            break
        if (ev[0] == "move" and ev.face_up) or (ev[0] == "reveal" and (ev[2] is None or viewer in ev[2])):
            shown.add(ev[1])
    return shown


def _decision(st, ev: Decision, viewer, shown: set[int]) -> Line | None:
    p, value, dkind, tag, label = ev.player, ev.value, ev.asked, ev.tag, ev.label
    public = ev.public  # 'choose ... public': the answer is told to everybody
    who = player_name(st, p)
    if dkind == "time_out":  # Game.time_out: nothing was chosen, so nothing is secret
        return Line("time_out", p, f"{who} ran out of time.")
    if dkind == "action" and len(value[1]) < len(st.prog.actions[value[0]].params):
        return None  # the first parameters of a staged action: told with the whole action
    if p == viewer or _public(st, value, "choose" if public else dkind, tag, viewer, shown):
        if dkind == "action":
            return Line("decision", p, f"{who}: {label}.")
        return Line("decision", p, f"{who} chose {label if value is not None else 'to pass'}.")
    if dkind == "simul":
        # players see the others "have chosen"; a spectator waits for the reveal
        return Line("secret", p, f"{who} has chosen.") if viewer is not None else None
    if dkind == "action":
        return Line("secret", p, f"{who}: {st.prog.actions[value[0]].name}.")
    return Line("secret", p, f"{who} made a secret choice.")


def _public(st, value, dkind, tag, viewer, shown: set[int]) -> bool:
    """Whether ``viewer`` may learn the chosen value: components in it must
    be visible to them now or have been shown to them since the decision;
    a simultaneous choice is secret to others."""
    if dkind == "simul":
        return False
    if dkind == "action":
        ai, args = value
        types = st.prog.actions[ai].param_types
        return all(_visible(st, v, _item_kind(t), viewer, shown) for v, t in zip(args, types))
    kind = tag.rsplit(":", 1)[-1]  # 'list:comp' (at any depth): its items' kind
    values = value if isinstance(value, list) else [value]
    return all(_visible(st, v, kind, viewer, shown) for v in values)


def _item_kind(t) -> str:
    """The kind of a parameter's values, through lists (a list of cards is
    as secret as a card)."""
    while getattr(t, "kind", None) == "list":
        t = t.arg
    return getattr(t, "kind", "any")


def _visible(st, v, kind, viewer, shown: set[int]) -> bool:
    if kind in ("comp", "any", "error") and isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(st.face):
        if v in shown:
            return True
        return can_see(st, v, viewer) if kind == "comp" else st.face[v] or can_see(st, v, viewer)
    if isinstance(v, list):
        return all(_visible(st, x, kind, viewer, shown) for x in v)
    return True
