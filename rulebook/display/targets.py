"""What an option points at, as the tables tag what they draw: ``c12`` for
a component, ``p1`` for a player. The browser outlines those elements; the
terminal's map finds the option that names the space a player typed."""

from __future__ import annotations

from rulebook.interpreter.ops import can_see


def option_targets(st, value, seat) -> list[str]:
    """``c12`` for a component, ``p1`` for a player: what an option names,
    as the page's elements are tagged. Only components the seat sees."""
    prog = st.prog
    if isinstance(value, dict):  # an option hidden from its chooser
        return []
    pend = st.pending or {}
    if pend.get("kind") == "action" and isinstance(value, list) and len(value) == 2:
        ai, args = value
        types = prog.actions[ai].param_types if isinstance(ai, int) and ai < len(prog.actions) else []
        out = []
        for val, t in zip(args, types):
            out += _target(st, val, getattr(t, "kind", None), seat)
        return out
    tag = pend.get("type", "any")
    return _target(st, value, {"comp": "comp", "player": "player"}.get(tag), seat)


def _target(st, value, kind, seat) -> list[str]:
    if isinstance(value, bool) or not isinstance(value, int):
        return []
    if kind == "comp" and 0 <= value < len(st.face) and can_see(st, value, seat):
        return [f"c{value}"]
    if kind == "player" and 0 <= value < st.n:
        return [f"p{value}"]
    return []
