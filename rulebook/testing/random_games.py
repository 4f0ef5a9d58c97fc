"""``rulebook check``: the engine's property checks (``rulebook.testing.properties``)
on any ruleset, in random games. What a scenario cannot show, because it
needs many positions: that components stay in one place each, that somebody
can always decide, that a clone and a saved game play on like the original,
that views hide what their player cannot see, and that who is asked next
tells no secret. The project's own rulesets get the same checks from the
property tests; this brings them to an author's ruleset.

A failure names the check, the game (its seed) and the decisions that lead
to it, so it can be replayed exactly: ``game.new(players, seed)`` then
``game.apply(st, p, k)`` for each ``(p, k)``.

Besides failures, the games report every place where a ``draw`` or ``deal``
met empty a zone whose family declares no ``when_empty`` (once per place, as
a warning W108): the draw took less than it asked for, silently, and the
author should say whether that is meant (docs/format.md, zones).
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field

from rulebook.interpreter.errors import RulebookError
from rulebook.simulate.run import game_seed
from rulebook.testing.properties import (
    CheckFailed,
    check_components,
    check_decision,
    check_forced_answers,
    check_view,
    check_who_is_asked,
    sampled,
)
from rulebook.validator.diagnostics import Diagnostic

CHECKS = ("components", "decisions", "clones", "saves", "views", "who is asked")
# what a failure outside the checks is called: the rules stopped with an error,
# or the engine itself failed (a bug in Rulebook, reported instead of a traceback)
RULES, ENGINE = "rules", "engine"


@dataclass
class Failure:
    check: str
    index: int
    seed: int
    players: int
    moves: list
    message: str


@dataclass
class Report:
    games: int = 0
    decisions: int = 0
    applied: dict = field(default_factory=lambda: dict.fromkeys(CHECKS, 0))
    failures: list = field(default_factory=list)
    unfinished: int = 0  # games still going at the decision cap
    empty_draws: dict = field(default_factory=dict)  # place (file:line:col) -> zone family (see empty_draw_warnings)


def check_game(game, players: int, index: int, run_seed: int, report: Report, max_decisions: int,
               params: dict | None = None) -> None:
    """One random game with every check at sampled positions; the first
    failure ends it and is added to ``report``."""
    seed = game_seed(run_seed, index)
    rnd = random.Random(seed)
    moves: list = []
    check = RULES
    try:
        st = game.new(players=players, seed=seed, params=params)
        count = [0]
        while True:
            check = "components"
            check_components(st, count)
            report.applied[check] += 1
            check = "decisions"
            check_decision(game, st)
            report.applied[check] += 1
            if sampled(len(moves)) or game.is_over(st):
                _sampled_checks(game, st, moves, rnd, report)
            if game.is_over(st):
                break
            if len(moves) >= max_decisions:
                report.unfinished += 1
                break
            tm = game.to_move(st)
            p = tm[rnd.randrange(len(tm))]
            k = rnd.randrange(len(game.options(st, p)))
            moves.append((p, k))
            check = RULES
            game.apply(st, p, k)
    except _Failed as failed:
        report.failures.append(Failure(failed.check, index, seed, players, list(moves), failed.message))
    except CheckFailed as err:
        report.failures.append(Failure(check, index, seed, players, list(moves), str(err)))
    except RulebookError as err:
        report.failures.append(Failure(RULES, index, seed, players, list(moves), str(err)))
    except Exception as err:  # noqa: BLE001 - a bug in the engine: reported with its game, not as a traceback
        report.failures.append(Failure(ENGINE, index, seed, players, list(moves), f"{type(err).__name__}: {err}"))
    report.games += 1
    report.decisions += len(moves)


class _Failed(Exception):
    def __init__(self, check: str, message: str):
        super().__init__(message)
        self.check, self.message = check, message


def _sampled_checks(game, st, moves, rnd: random.Random, report: Report) -> None:
    def run(check, fn):
        try:
            applied = fn()
        except (CheckFailed, RulebookError) as err:
            raise _Failed(check, str(err)) from None
        except Exception as err:  # noqa: BLE001 - a bug in the engine, found while checking
            raise _Failed(ENGINE, f"{type(err).__name__} while checking {check}: {err}") from None
        if applied is not False:
            report.applied[check] += 1

    over = game.is_over(st)
    viewers = [*game.to_move(st), rnd.randrange(st.n), None]
    run("views", lambda: [check_view(game, st, p, rnd) for p in dict.fromkeys(viewers)])
    if not over:
        run("who is asked", lambda: _who_is_asked(game, st, rnd))
        run("clones", lambda: _clone_plays_on(game, st, rnd))
    if over or len(moves) in (8, 64, 512):
        run("saves", lambda: _save_loads(game, st))


def _who_is_asked(game, st, rnd: random.Random) -> bool:
    """Who is asked next, and who the browser table answers for at once,
    tell no secret. The second check draws from its own generator, so that
    the games checked (their moves come from ``rnd``) stay the same."""
    check_forced_answers(game, st, random.Random(f"{st.seed}:{len(st.history)}"))
    return check_who_is_asked(game, st, rnd)


def _clone_plays_on(game, st, rnd: random.Random) -> None:
    """A clone takes the same next decision to the same state, and leaves
    the original untouched."""
    before = st.to_data()
    a, b = game.clone(st), game.clone(st)
    tm = game.to_move(a)
    p = tm[rnd.randrange(len(tm))]
    k = rnd.randrange(len(game.options(a, p)))
    game.apply(a, p, k)
    game.apply(b, p, k)
    if a.to_data() != b.to_data():
        raise CheckFailed("two clones given the same decision reach different states")
    if st.to_data() != before:
        raise CheckFailed("playing on a clone changed the original")


def _save_loads(game, st) -> None:
    """A save, as a file holds it, loads (by replaying its seed and
    decisions) to the same state."""
    again = game.load(json.loads(json.dumps(game.save(st))))
    if again.to_data() != st.to_data():
        raise CheckFailed("a saved game does not load to the same state")


def failures_json(report: Report) -> str:
    """The failures with every decision that leads to each, for --out."""
    return json.dumps([asdict(f) for f in report.failures], indent=1)


def run_checks(game, player_counts, games: int, run_seed: int, max_decisions: int = 5000,
               params: dict | None = None) -> Report:
    report = Report()
    prog = game.program
    before, prog.empty_draws = prog.empty_draws, report.empty_draws  # the draws tell it where they ran out
    try:
        for n in player_counts:
            for i in range(games):
                check_game(game, n, i, run_seed, report, max_decisions, params)
    finally:
        prog.empty_draws = before
    return report


def empty_draw_warnings(report: Report) -> list[Diagnostic]:
    """W108 at each place where a draw or deal met empty a zone that
    declares no ``when_empty``, in the order the games met them."""
    out = []
    for where, family in report.empty_draws.items():
        file, line, column = _place(where)
        out.append(Diagnostic(
            "W108", f"a draw or deal here met zone '{family}' empty and took less than it asked for", file, line,
            column, f"say what it should do: declare zones.{family}.when_empty: nothing (as now, on purpose), "
            f"error, or {{refill_from: ZONE, shuffle: true}}"))
    return out


def _place(where: str) -> tuple[str, int, int]:
    """``file:line:col`` as its parts (a file name may hold ':'); a place
    that is not one is the file alone, at its first line."""
    file, _, rest = where.rpartition(":")
    head, _, line = file.rpartition(":")
    if head and line.isdigit() and rest.isdigit():
        return head, int(line), int(rest)
    return where or "<ruleset>", 1, 1
