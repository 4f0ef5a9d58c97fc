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
            _, p, value, dkind, tag = ev
            if dkind == "simul" and p != viewer:
                if viewer is not None:
                    out.append(f"{player_name(st, p)} has chosen.")
            elif dkind == "action" and isinstance(value, list):
                from interpreter.game import Game
                label = Game(st.prog).option_label(st, {"kind": "action"}, value)
                out.append(f"{player_name(st, p)}: {label}.")
            else:
                out.append(f"{player_name(st, p)} chose {_value(st, value, tag, viewer)}.")
        elif kind == "reveal":
            _, c, who = ev
            if who is None:
                out.append(f"Revealed: {comp_name(st, c)}.")
            elif viewer in who:
                out.append(f"You see {comp_name(st, c)}.")
        elif kind == "move" and verbose:
            _, c, src, dest, face_up = ev
            what = comp_name(st, c) if (face_up or can_see(st, c, viewer)) else f"a {st.cat.types[c] if c < st.cat.n else 'component'}"
            out.append(f"  {what}: {zone_name(st, src)} -> {zone_name(st, dest)}")
        elif kind == "shuffle" and verbose:
            out.append(f"  {zone_name(st, ev[1])} is shuffled.")
        elif kind == "eliminate":
            out.append(f"{player_name(st, ev[1])} is out of the game.")
        elif kind == "end":
            names = ", ".join(player_name(st, p) for p in ev[1]) or "nobody"
            out.append(f"Game over. Winner{'s' if len(ev[1]) != 1 else ''}: {names}.")
    return out


def _value(st, value, tag, viewer) -> str:
    from interpreter.game import _tag_type
    from interpreter.labels import describe
    if value is None:
        return "to pass"
    if tag == "comp" and isinstance(value, int) and not can_see(st, value, viewer):
        return "a hidden component"
    return describe(st, value, _tag_type(tag))
