"""Scores as a player may see them: live during play, and the final
breakdown by the parts of the scoring section.

A score is computed from the whole state, so it can read what a player
cannot see (a face-down treasure, a secret loyalty card). ``live_scores``
therefore never computes a score from the real state for a seat while the
game goes on: it computes it on a few determinizations of that seat's view
(``agents.determinize``: every fact the seat cannot see drawn again at
random), and shows a player's score only when they all agree. What is shown
depends on the seat's information alone, so it tells no secret; a score that
reads hidden facts shows as unknown (None) until the game is over, when
every score is shown. Secret player variables are reset, not re-drawn, by
determinization, so while a ruleset has any, only the viewer's own score is
shown.

The breakdown is the score's parts as the compiler found them: its
top-level summands (``survival_points(player) + friend_points(player)`` has
two parts; in ``A if C else 0`` those of A, counted when C holds); one part
means no breakdown.
"""

from __future__ import annotations

import random

SAMPLES = 4  # determinizations compared; a score must agree in all of them to be shown


def score_of_all(game, st) -> list | None:
    """Every player's score on ``st`` itself (None without a scoring section)."""
    if game.program.score is None:
        return None
    return game.scores(st)


def live_scores(game, st, viewer) -> list | None:
    """The scores ``viewer`` (a seat, or None for a spectator) may know now:
    a number, or None for a score that depends on what they cannot see.
    None (the whole list) when the ruleset has no scoring section."""
    if game.program.score is None:
        return None
    return _live(game, st, viewer, lambda s: game.scores(s))


def live_board(game, st, viewer) -> list[tuple[str, list]] | None:
    """The scoreboard ``viewer`` may know now: each column of the scoring
    section's ``show`` (a label, and a value per player, None where it
    depends on what the viewer cannot see), else the score alone under
    the label "score"; None without a scoring section. A ruleset whose
    score is not what decides the winner (the first to empty a hand) shows
    what does."""
    prog = game.program
    if prog.score is None and not prog.score_shown:
        return None
    if not prog.score_shown:
        return [("score", live_scores(game, st, viewer))]
    return [(label, _live(game, st, viewer, lambda s, fn=fn: [fn(s, q) for q in range(s.n)]))
            for label, fn in prog.score_shown]


def _live(game, st, viewer, values) -> list:
    """``values(state)`` (one per player) as ``viewer`` may know them: on
    the state itself once the game is over, else each player's value when
    it is the same on every determinization of the viewer's view."""
    from rulebook.agents.determinize import determinize
    from rulebook.interpreter.errors import RulebookError

    prog = game.program
    try:
        if st.over:
            return values(st)
        rng = random.Random(f"{len(st.history)}:{st.turn}:{viewer}")  # chance drawn from public facts only
        samples = [values(determinize(st, viewer, rng)) for _ in range(SAMPLES)]
    except (RulebookError, TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError):
        return [None] * st.n  # a value that cannot be computed mid-game is shown as unknown
    out = []
    for q in range(st.n):
        seen = {repr(s[q]) for s in samples}
        secret = bool(prog.secret_pvars) and q != viewer
        out.append(samples[0][q] if len(seen) == 1 and not secret else None)
    return out


def score_parts(game) -> list[tuple[str, object]]:
    """The scoring section's parts (compiled with the ruleset: the score's
    summands), each (name, fn(st, player)); empty for a score of one part."""
    return list(game.program.score_parts)


def breakdown(game, st) -> list[dict] | None:
    """The final scores by part: ``[{"player": p, "parts": [(name, value)],
    "total": n}]``; None without a scoring section. Meant for the end of
    the game, when every score is public."""
    totals = score_of_all(game, st)
    if totals is None:
        return None
    parts = score_parts(game)
    rows = []
    for p in range(st.n):
        values = []
        for name, fn in parts:
            try:
                values.append((name, fn(st, p)))
            except Exception:  # a part that fails is left out; the total is the engine's own
                values = []
                break
        rows.append({"player": p, "parts": values, "total": totals[p]})
    return rows
