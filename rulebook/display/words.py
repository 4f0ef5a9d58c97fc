"""Small pieces of English the interfaces share, so that a count reads
right ("2 players", "2-4 players", "seats 2 and 3", "no seat")."""

from __future__ import annotations


def players_range(low, high) -> str:
    """``2 players`` when a game takes one count, else ``2-4 players``."""
    return f"{low} players" if low == high else f"{low}-{high} players"


def seats_text(seats: list[int]) -> str:
    """1-based seats as words: ``no seat``, ``seat 2``, ``seats 2 and 3``, ``seats 1, 2 and 4``."""
    if not seats:
        return "no seat"
    names = [str(s) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return f"seats {', '.join(names[:-1])} and {names[-1]}"
