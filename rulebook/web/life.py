"""What lets a table outlive its game (``rulebook serve``): a rematch at
the same seats and links, a takeback the other humans accept, the author's
branch from a past step, seats turned human or bot, and the names players
choose. A mixin of ``serve.Host``, which holds the state these change.

Going back is determinism at work: the state kept after step N is what
replaying the seed and the first N answers gives, so a takeback or a
branch restores it and the game goes on from there as a new line.
"""

from __future__ import annotations

import secrets

from rulebook.interpreter.labels import player_name
from rulebook.interpreter.ops import zone_family


class TableLife:
    """The table's own requests; ``self`` is a ``serve.Host``."""

    def rewind(self, step: int, why: str) -> None:
        """Put the game back at ``step`` decisions: the state kept after that
        step is the one replaying the log to it gives (same seed, same
        answers), so the game goes on from there as a new line; every log
        forgets what came after, and says why it went back."""
        step = max(0, min(step, len(self.snapshots) - 1))
        self.st = self.snapshots[step].clone()
        del self.snapshots[step + 1:]
        for lines in self.logs.values():
            lines[:] = [ln for ln in lines if ln["step"] <= step]
            lines.append({"step": step, "kind": "turn", "player": None, "text": why})
        self.takeback = None
        self.failure = None
        self.saved()

    def restart(self, seed: int) -> None:
        """A rematch: a new game from ``seed`` at the same seats, links and names."""
        from rulebook.terminal.play import _bots

        self.st = self.game.new(players=self.st.n, seed=seed, params=self.params)
        self.bots = _bots(self.bot_spec, self.st.n, seed)
        self.snapshots = []
        self.takeback = None
        self.failure = None
        self.games += 1
        for lines in self.logs.values():
            lines.clear()
            lines.append({"step": 0, "kind": "turn", "player": None, "text": f"Game {self.games}: seed {seed}."})
        self.seen = {zone_family(self.st, z) for z, zone in enumerate(self.st.zones) if zone}
        self.record()
        self.snapshots.append(self.st.clone())
        self.saved()

    def takeback_step(self, seat: int) -> int | None:
        """The step of ``seat``'s last real decision (one with a choice:
        a forced answer would be given again at once), or None."""
        for k in range(len(self.st.history) - 1, -1, -1):
            entry = self.st.history[k]
            if entry[0] == seat and len(entry) == 2 and k < len(self.snapshots):
                before = self.snapshots[k]
                if seat in self.game.to_move(before) and len(self.game.options(before, seat)) > 1:
                    return k
        return None

    def ask_takeback(self, seat: int) -> str | None:
        """A seat asks to take back its last decision: at once when no other
        human plays, else when every other human has accepted."""
        if self.failure is not None or self.takeback_step(seat) is None:
            return "you have no decision to take back"
        if self.takeback is not None:
            return "a takeback is already asked"
        others = [p for p in self.humans if p != seat]
        if not others:
            self.do_takeback(seat)
        else:
            self.takeback = {"by": seat, "waiting": others}
        return None

    def answer_takeback(self, seat: int, yes: bool) -> str | None:
        tb = self.takeback
        if tb is None or seat not in tb["waiting"]:
            return "nobody asks you for a takeback"
        if not yes:
            self.takeback = None
            for key in self.logs:
                self.logs[key].append({"step": len(self.st.history), "kind": "turn", "player": seat,
                                       "text": f"{self.name(seat)} refused the takeback."})
            return None
        tb["waiting"].remove(seat)
        if not tb["waiting"]:
            self.do_takeback(tb["by"])
        return None

    def do_takeback(self, seat: int) -> None:
        step = self.takeback_step(seat)
        if step is not None:
            self.rewind(step, f"{self.name(seat)} took back a decision: the game is back at step {step}.")

    def set_human(self, seat: int, human: bool) -> None:
        """The author turns a seat into a human one (with a link) or a bot."""
        from rulebook.terminal.play import _bots

        if human and seat not in self.humans:
            self.humans = tuple(sorted((*self.humans, seat)))
            self.tokens.setdefault(seat, secrets.token_urlsafe(18))
            self.logs.setdefault(seat, [])
        elif not human and seat in self.humans:
            self.humans = tuple(p for p in self.humans if p != seat)
            if seat not in self.bots:
                self.bots[seat] = _bots(self.bot_spec, self.st.n, self.st.seed)[seat]
            if self.takeback is not None and seat in self.takeback["waiting"]:
                self.takeback["waiting"].remove(seat)
                if not self.takeback["waiting"]:
                    self.do_takeback(self.takeback["by"])
        self.saved()

    def rename(self, seat: int, name) -> str | None:
        """The name a seat's player chose, shown instead of P1, P2 (only in a
        ruleset that does not name its players: its own names stay)."""
        if self.game.program.player_label is not None:
            return "this game names its players itself"
        if not isinstance(name, str):
            return "a name is text"
        name = " ".join("".join(ch for ch in name if ch.isprintable()).split())[:24]
        if name:
            self.names[seat] = name
        else:
            self.names.pop(seat, None)
        self.saved()
        return None

    def name(self, seat: int) -> str:
        return self.names.get(seat) or player_name(self.st, seat)
