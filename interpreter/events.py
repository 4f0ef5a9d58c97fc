"""The records of the events a reader takes apart: a decision and a move.

Events are tuples whose first item names their kind (``st.events``, read by
the narration, the terminal, the browser table and the checks). The two
kinds with many fields are ``NamedTuple`` records, so that a reader takes
the field it needs by name: a reader that unpacked a decision by position
broke when ``choose ... public`` added a field. A record is still a tuple
(``ev[0] == "decision"`` holds, JSON writes it as a list), so saves and
replays are unchanged.
"""

from __future__ import annotations

from typing import NamedTuple


class Decision(NamedTuple):
    """A player's answer (``Game.apply``) or a time-out (``Game.time_out``).
    ``asked``: the decision's kind ("action", "choose", "simul", or
    "time_out"); ``tag``: the type of its options; ``public``: the answers
    of a ``choose ... public``, told to everybody."""

    kind: str
    player: int
    value: object
    asked: str
    tag: str
    label: str
    public: bool = False


class Move(NamedTuple):
    """A component moved from zone ``src`` to ``dest`` (-1: out of the
    game); ``name``: what it showed when face up there (None when face
    down), named when it happened since what it shows may change later."""

    kind: str
    comp: int
    src: int
    dest: int
    face_up: bool
    name: str | None


def decision(player: int, value, asked: str, tag: str, label: str, public: bool = False) -> Decision:
    return Decision("decision", player, value, asked, tag, label, public)


def moved(c: int, src: int, dest: int, face_up: bool, name: str | None) -> Move:
    return Move("move", c, src, dest, face_up, name)
