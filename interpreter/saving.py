"""Saving a game and loading it back: a save is the game's players,
parameters, seed and decisions, with the state they lead to; loading plays
the decisions again and checks that they lead to that state, so an edited
or damaged save cannot load."""

from __future__ import annotations

import json

from rulebook.interpreter.errors import RulebookError, SaveFileError
from rulebook.interpreter.program import Program
from rulebook.interpreter.state import State

SAVE_FORMAT = 2  # 2: the state carries its seed, and a save is checked by replaying it


class Saving:
    """Mixed into ``Game``: ``save``, ``load``."""

    def save(self, st: State) -> dict:
        prog = self.program
        return {
            "format": SAVE_FORMAT,
            "ruleset": prog.id,
            "version": prog.version,
            "digest": prog.digest,
            "variants": list(prog.variants),
            "players": st.n,
            "params": st.params_overrides if hasattr(st, "params_overrides") else _overrides(prog, st),
            "state": st.to_data(),
        }

    def load(self, data: dict) -> State:
        prog = self.program
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveFileError("not a Rulebook saved game (or a format this version cannot read)", path=("format",))
        if data.get("ruleset") != prog.id:
            raise SaveFileError(f"this save is for ruleset '{data.get('ruleset')}', not '{prog.id}'", "R021",
                                ("ruleset",))
        variants = data.get("variants", [])
        if not isinstance(variants, list) or variants != list(prog.variants):
            raise SaveFileError(
                f"this save was made with variants {data.get('variants')}, not {list(prog.variants)}", "R021",
                ("variants",),
            )
        if data.get("digest") != prog.digest:
            raise SaveFileError(
                f"the ruleset has changed since this game was saved (digest {data.get('digest')} != {prog.digest})",
                "R022",
                ("digest",),
            )
        saved = data.get("state")
        if not isinstance(saved, dict):
            raise SaveFileError("the save holds no game state", "R023", ("state",))
        st = self._replay(data, saved)
        saved = {k: v for k, v in saved.items() if k != "steps"}  # counted by engines before 0.2; not game state
        if json.loads(json.dumps(st.to_data())) != saved:
            raise SaveFileError(
                "the saved state does not follow from its seed and decisions (the file was edited or damaged)",
                "R023",
                ("state",),
            )
        return st

    def _replay(self, data: dict, saved: dict) -> State:
        """The game a save describes, made again from its players, seed,
        parameters and decisions: what loads is what those give, never
        the saved tables themselves, so an edited state cannot load."""
        seed, history = saved.get("seed"), saved.get("history")
        if type(seed) is not int or not isinstance(history, list):
            raise SaveFileError("the save has no seed or no list of decisions", "R023", ("state",))
        if type(data.get("players")) is not int or not isinstance(data.get("params", {}), dict):
            raise SaveFileError("the save does not say how many players and which parameters", "R023", ("players",))
        at: tuple = ("state",)  # the place in the file of the decision being replayed, for the error
        try:
            st = self.new(players=data.get("players"), seed=seed, params=data.get("params") or {}, record=True)
            for step, entry in enumerate(history, start=1):
                at = ("state", "history", step - 1)
                if not (isinstance(entry, list) and len(entry) in (2, 3) and type(entry[0]) is int):
                    raise SaveFileError(f"decision {step} of the save is damaged", "R023", at)
                if st.over:
                    raise SaveFileError(f"the save has decisions after the end of the game (decision {step})", "R023",
                                        at)
                if len(entry) == 3:
                    if entry[2] != "time_out":
                        raise SaveFileError(f"decision {step} of the save is damaged", "R023", at)
                    self.time_out(st, entry[0])
                else:
                    self.apply(st, entry[0], self.options(st, entry[0]).index_of(entry[1]))
        except SaveFileError:
            raise
        except RulebookError as err:
            raise SaveFileError(f"the saved decisions do not replay: {err}", "R023", at) from None
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            raise SaveFileError(f"the save is damaged: {type(err).__name__}: {err}", "R023", at) from None
        st.events.clear()
        return st




def _overrides(prog: Program, st: State) -> dict:
    return {k: v for k, v in st.params.items() if k in prog.params and prog.params[k] != v}
