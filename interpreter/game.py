"""The one decision interface, shared by humans, bots and search agents.

At any moment a game is over, or it names the players who must decide and
their legal options in a stable order. ``apply`` checks an option and records
it. Modelled on OpenSpiel's state API: ``to_move``, ``options`` (one option
space per decision, ``interpreter.options``), ``apply``, ``is_over``,
``returns``, ``view`` (the per-player observation), ``clone`` and
``save``/``load``. There is no second way to list or apply options: the
terminal, the browser, logs, scenarios and the integrations all ask
``options`` and ``apply``.
"""

from __future__ import annotations

import json

from rulebook.interpreter import rng
from rulebook.interpreter.errors import (
    GameOverError,
    IllegalOptionError,
    NotYourTurnError,
    RuleError,
)
from rulebook.interpreter.events import decision
from rulebook.interpreter.labels import player_name
from rulebook.interpreter.options import Option, Options, is_from, option_label
from rulebook.interpreter.program import TIMED_OUT, Catalog, Program
from rulebook.interpreter.run import run, scores
from rulebook.interpreter.saving import SAVE_FORMAT, Saving  # noqa: F401 - the save format is Game's too
from rulebook.interpreter.starting import catalog_only, start_state
from rulebook.interpreter.state import State


class Game(Saving):
    """A compiled ruleset with its variants: makes and drives game states."""

    def __init__(self, program: Program):
        self.program = program
        self._catalogs: dict = {}
        self._templates: dict = {}  # (players, parameters) -> a state before setup, when no draw precedes it

    # ------------------------------------------------------------ new game
    def new(
        self,
        players: int | None = None,
        seed: int = 0,
        params: dict | None = None,
        record: bool = True,
        after_setup: tuple = (),
        chance: tuple = (),
        track: bool = True,
    ) -> State:
        """A new game, run up to its first decision. ``after_setup``: extra
        compiled blocks (a scenario's own setup) run after the ruleset's;
        ``chance``: outcomes a scenario imposes on the first chance events (see
        ``interpreter.ops``); ``track``: count what players lose track of."""
        prog = self.program
        n = (
            players
            if players is not None
            else (
                prog.default_players
                if prog.min_players <= prog.default_players <= prog.max_players
                else prog.min_players
            )
        )
        if not prog.min_players <= n <= prog.max_players:
            raise RuleError("E062", f"{prog.title} plays with {prog.min_players}-{prog.max_players} players, not {n}")
        key = (n, json.dumps(params, sort_keys=True, default=str) if params else None)
        template = self._templates.get(key)
        if template is None:
            st = self._start(n, params, seed, chance)
            if not prog.start_draws:  # the same for every seed: kept, and cloned for each game
                if len(self._templates) > 64:
                    self._templates.pop(next(iter(self._templates)))
                self._templates[key] = kept = st.clone()
                kept.script = ()
        else:
            st = template.clone()
            st.script = tuple(chance)
        st.rng = rng.seed_state(seed) if not prog.start_draws else st.rng
        st.seed = seed
        st.record, st.track, st.lost = record, track, ()
        st.quiet, st.auto = False, None
        st.events = []
        st.history = []
        st.stack = [[0, 0, [None, None]]]  # the flow of phases: its player and the answer to a turn's menu
        first = ([prog.setup_id] if prog.setup_id is not None else []) + list(after_setup)
        for uid in reversed(first):  # the top of the stack runs first
            st.stack.append([uid, 0, [None] * prog.unit_locals.get(_unit_name(prog, uid), 1)])
        run(st)
        return st

    def _start(self, n: int, params: dict | None, seed: int, chance: tuple = ()) -> State:
        return start_state(self.program, self._catalogs, n, params, seed, chance)

    def catalog_only(self, players: int) -> Catalog:
        """Build the components and zones of a game without starting it (the
        validator's dry run)."""
        return catalog_only(self.program, players)

    # ------------------------------------------------------------ decisions
    def to_move(self, st: State) -> list[int]:
        """The players who must decide now, each once, in a stable order."""
        if st.over or st.pending is None:
            return []
        seen = []
        for p, done in zip(st.pending["players"], st.pending["done"]):
            if not done and p not in seen:
                seen.append(p)
        return seen

    def _slot(self, st: State, player: int) -> int:
        if st.over:
            raise GameOverError("the game is over")
        pend = st.pending
        for i, (p, done) in enumerate(zip(pend["players"], pend["done"])):
            if p == player and not done:
                return i
        who = player_name(st, player) if isinstance(player, int) and 0 <= player < st.n else f"seat {player!r}"
        raise NotYourTurnError(
            f"{who} has no decision to make now (waiting for {', '.join(player_name(st, q) for q in self.to_move(st))})"
        )

    def options(self, st: State, player: int) -> Options:
        """The legal options of ``player`` at the pending decision: the one
        option space (see ``interpreter.options``). Its ``flat`` gives the
        whole options of a staged action."""
        i = self._slot(st, player)
        return Options(st, player, i, st.pending["options"][i])

    def asked_at(self, st: State) -> str:
        """Where in the ruleset the pending question is asked
        (``file:line:col``), or "" when nothing is pending."""
        if st.over or st.pending is None or not st.stack:
            return ""
        return st.prog.asks.get((st.stack[-1][0], st.stack[-1][1]), "")

    def reask(self, st: State) -> None:
        """Ask the pending question again, from the state as it is now: a
        scenario's ``run`` step changes the state between two decisions, and
        the options then offered must be those of the changed state. The
        instruction that asked is run again (the game may also go on without
        asking, or end). Answers already given to a simultaneous question are
        kept where the same player is asked at the same place and may still
        give them."""
        if st.over or st.pending is None or not st.stack or st.stack[-1][1] == 0:
            return
        old = st.pending
        st.stack[-1][1] -= 1  # back to the instruction that asked
        st.pending = None
        run(st)
        new = st.pending
        if old["kind"] == "simul" and new is not None and new["kind"] == "simul" and new["players"] == old["players"]:
            answers, done = list(new["answers"]), list(new["done"])
            for i, given in enumerate(old["done"]):
                if given and old["answers"][i] in new["options"][i]:
                    answers[i], done[i] = old["answers"][i], True
            st.pending = dict(new, answers=answers, done=done)  # not all done: the old question was pending

    def prompt(self, st: State, player: int) -> str:
        i = self._slot(st, player)
        prompts = st.pending.get("prompts")
        return prompts[i] if prompts else st.pending.get("prompt", "")

    def apply(self, st: State, player: int, choice) -> None:
        """Apply one option of ``options(st, player)``: an ``Option`` from it
        (or from its ``flat``), or its index (the option's id in this
        decision, as an OpenSpiel action id). An ``Option`` listed by another
        decision, or made by hand, is refused: options are valid until the
        next ``apply`` (in this game or a clone of it)."""
        i = self._slot(st, player)
        pend = st.pending
        options = pend["options"][i]
        if isinstance(choice, Option):
            if not is_from(choice, pend, i):
                raise IllegalOptionError(
                    f"option {choice.label!r} is not an option of this decision of {player_name(st, player)}: "
                    "it was listed for another decision (take it from game.options(state, player) after "
                    "the last apply)")
            if choice.whole:
                self._apply_whole(st, player, pend["flat"][choice.index])
                return
            index = choice.index
        else:
            index = choice
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(options):
            raise IllegalOptionError(f"option {choice!r} is not one of the {len(options)} legal options")
        value = options[index]
        st.history.append([player, value])
        if st.record:
            label = pend["labels"][i][index] if pend.get("labels") else option_label(st, pend, value)
            st.events.append(decision(player, value, pend["kind"], pend.get("type", "any"), label,
                                      bool(pend.get("public"))))  # 'choose ... public': told to all
        if pend["kind"] == "simul":
            answers, done = list(pend["answers"]), list(pend["done"])
            answers[i] = value
            done[i] = True
            if not all(done):
                st.pending = dict(pend, answers=answers, done=done)
                return
            st.stack[-1][2][pend["slot"]] = answers
        else:
            st.stack[-1][2][pend["slot"]] = value
        st.pending = None
        st.since_decision = 0
        st.work = 0
        run(st)

    def time_limit(self, st: State, player: int) -> float | None:
        """Seconds ``player`` has for the pending decision (a turn's
        ``time_limit``), or None when the decision has no limit. Only a
        human's seat is timed (by ``rulebook play``): agents answer at once."""
        i = self._slot(st, player)
        limits = st.pending.get("time_limits")  # a simultaneous choose: one per chooser
        return limits[i] if limits else st.pending.get("time_limit")

    def time_out(self, st: State, player: int) -> None:
        """The pending decision's time ran out: on a turn, the turn ends
        without an action and the turn's ``on_time_out`` effect runs; on a
        ``choose ... within``, the first option is taken. Recorded in the
        history like a decision, so saves and replays reproduce it."""
        pend = st.pending
        if not self.time_limit(st, player):
            raise IllegalOptionError(f"this decision of {player_name(st, player)} has no time limit")
        if pend["kind"] != "action":  # a choose: its first option
            self.apply(st, player, 0)
            st.history[-1] = [player, None, "time_out"]
            return
        st.history.append([player, None, "time_out"])
        if st.record:
            st.events.append(decision(player, None, "time_out", "action", "time ran out"))
        st.stack[-1][2][pend["slot"]] = TIMED_OUT
        st.pending = None
        st.since_decision = 0
        st.work = 0
        run(st)

    def _apply_whole(self, st: State, player: int, whole) -> None:
        """Apply a whole staged action ``(action, arguments)``: its
        parameters are answered one stage after another."""
        ai, args = whole
        while True:
            options = st.pending["options"][self._slot(st, player)]
            step = next((j for j, (a, partial) in enumerate(options) if a == ai and args[:len(partial)] == partial),
                        None)
            if step is None:
                raise IllegalOptionError(f"option {whole!r} is not offered")
            done = len(options[step][1]) == len(args)
            self.apply(st, player, step)
            if done:
                return

    # ------------------------------------------------------------ results
    def is_over(self, st: State) -> bool:
        return st.over

    def winners(self, st: State) -> list[int]:
        return list(st.winners)

    def returns(self, st: State) -> list[float]:
        """1 shared among the winners, 0 for the others (0 for all while playing)."""
        if not st.over or not st.winners:
            return [0.0] * st.n
        share = 1.0 / len(st.winners)
        return [share if p in st.winners else 0.0 for p in range(st.n)]

    def scores(self, st: State) -> list:
        try:
            return scores(st)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as err:
            raise RuleError("R104", f"the score cannot be computed ({type(err).__name__}: {err})",
                            st.prog.source_file) from None

    def clone(self, st: State) -> State:
        return st.clone()


def _unit_name(prog: Program, uid: int) -> str:
    for name, i in prog.unit_ids.items():
        if i == uid:
            return name
    return ""
