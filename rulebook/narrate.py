"""Turn interpreter events into sentences a given viewer may read.

A spectator (viewer None) learns only public things; a player also learns
what is visible to them. Secret simultaneous choices are narrated as
"has chosen" until they are revealed by the rules.
"""

from __future__ import annotations

from interpreter.labels import comp_name, player_name, zone_name
from interpreter.ops import can_see


def narrate(st, events, viewer=None, verbose: bool = False) -> list[str]:
    out = []
    for ev in events:
        kind = ev[0]
        if kind == "say":
            out.append(ev[1])
        elif kind == "phase" and verbose:
            out.append(f"-- {ev[1]} --")
        elif kind == "turn":
            out.append(f"{player_name(st, ev[1])}'s turn.")
        elif kind == "action":
            pass  # the decision event below says it
        elif kind == "decision":
            _, p, value, dkind, tag, label = ev
            if p == viewer or _public(st, value, dkind, tag, viewer):
                if dkind == "action":
                    out.append(f"{player_name(st, p)}: {label}.")
                else:
                    out.append(f"{player_name(st, p)} chose {label if value is not None else 'to pass'}.")
            elif dkind == "simul":
                if viewer is not None:
                    out.append(f"{player_name(st, p)} has chosen.")
            elif dkind == "action":
                out.append(f"{player_name(st, p)}: {st.prog.actions[value[0]].name}.")
            else:
                out.append(f"{player_name(st, p)} made a secret choice.")
        elif kind == "reveal":
            _, c, who = ev
            if who is None:
                out.append(f"Revealed: {comp_name(st, c)}.")
            elif viewer in who:
                out.append(f"You see {comp_name(st, c)}.")
        elif kind == "move" and verbose:
            _, c, src, dest, face_up = ev
            what = (
                comp_name(st, c)
                if (face_up or can_see(st, c, viewer))
                else f"a {st.cat.types[c] if c < st.cat.n else 'component'}"
            )
            out.append(f"  {what}: {zone_name(st, src)} -> {zone_name(st, dest)}")
        elif kind == "shuffle" and verbose:
            out.append(f"  {zone_name(st, ev[1])} is shuffled.")
        elif kind == "eliminate":
            out.append(f"{player_name(st, ev[1])} is out of the game.")
        elif kind == "end":
            names = ", ".join(player_name(st, p) for p in ev[1]) or "nobody"
            out.append(f"Game over. Winner{'s' if len(ev[1]) != 1 else ''}: {names}.")
    return out


def _public(st, value, dkind, tag, viewer) -> bool:
    """Whether ``viewer`` may learn the chosen value: components in it must
    be visible to them now; a simultaneous choice is secret to others."""
    if dkind == "simul":
        return False
    if dkind == "action":
        ai, args = value
        types = st.prog.actions[ai].param_types
        return all(_visible(st, v, getattr(t, "kind", "any"), viewer) for v, t in zip(args, types))
    kind = tag[5:] if tag.startswith("list:") else tag
    values = value if isinstance(value, list) else [value]
    return all(_visible(st, v, kind, viewer) for v in values)


def _visible(st, v, kind, viewer) -> bool:
    if kind in ("comp", "any", "error") and isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(st.face):
        return can_see(st, v, viewer) if kind == "comp" else st.face[v] or can_see(st, v, viewer)
    if isinstance(v, list):
        return all(_visible(st, x, kind, viewer) for x in v)
    return True
