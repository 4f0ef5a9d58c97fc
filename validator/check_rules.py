"""Check the rules that run: actions, phases and their turns, triggers, end
rules, scoring, the bots' heuristic and the players' names; then warn about
what is declared and never used."""

from __future__ import annotations

import json
import re

from rulebook.dsl import ast as A
from rulebook.validator.check_decls import PHASE_EVENTS
from rulebook.validator.check_expr import CheckError, Cx
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import ActionRule, Expr, PhaseRule, Template, TriggerRule, TurnRule, X
from rulebook.validator.scope import Locals, Scope
from rulebook.validator.types import BOOL, COMP, INT, LIST, PLAYER, STR


class RuleChecker:
    """Mixed into the ruleset checker."""

    def place(self, path, key: bool = False) -> str:
        return "{}:{}:{}".format(self.doc.file, *self.doc.where(path, key=key))

    # ------------------------------------------------------------ actions
    def check_actions(self):
        for i, (name, spec) in enumerate((self.data.get("actions") or {}).items()):
            spec = spec or {}
            unit = Locals(f"action {name}")
            scope = Scope(unit)
            params = []
            base = ("actions", name)
            cond = None
            if "if" in spec:
                cond, _ = self.check_expr_at(base + ("if",), scope, BOOL)
            names = list(spec.get("params") or {})
            staged = spec.get("staged") is True
            if staged and len(names) < 2:
                self.report("E013", f"action '{name}' is staged but has {len(names)} parameter"
                            f"{'s' if len(names) != 1 else ''}: stages ask two or more one after another",
                            base + ("staged",), hint="drop 'staged', or give the action its parameters")
            for k, pname in enumerate(names):
                self.later_params = (name, names[k:])  # a domain may read only the parameters above it
                try:
                    x, t = self.check_expr_at(base + ("params", pname), scope)
                finally:
                    self.later_params = None
                if x is not None and t.kind not in ("list", "zone", "any"):
                    self.report(
                        "E041",
                        f"parameter '{pname}' needs a list of possible values, not {t}",
                        base + ("params", pname),
                    )
                    x = None
                et = t.arg if t.kind == "list" else COMP(t.arg) if t.kind == "zone" else ANY_T
                if t.kind == "zone" and x is not None:
                    x = X("zone_items", x)
                params.append((pname, scope.fresh(pname, et), x))
                self.note_params(scope, base + ("params",), [(pname, et)])
            require = None
            if "require" in spec:
                require, _ = self.check_expr_at(base + ("require",), scope, BOOL)
            body = self.check_block_at(base + ("effect",), scope) if "effect" in spec else []
            label = None
            if "label" in spec:
                path = base + ("label",)
                cx = Cx(self, scope, tuple(path), self.doc.spans.get(tuple(path)))
                try:
                    label = Template(self.template_parts(str(self.text_of(path)), cx, 1, 1, "this label"),
                                     slot_names=unit.names)
                except CheckError:
                    label = None
            self.add_unit(unit.name, body, unit, self.place(base, key=True), tuple(s for _, s, _ in params))
            self.out.actions.append(ActionRule(name, i, params, cond, require, label, unit.name, unit.nlocals,
                                               staged and len(names) >= 2))
            self.action_index[name] = i
            self.action_meta.append({"name": name, "param_types": [scope.names[p][1] for p, _, _ in params],
                                     "params": [p for p, _, _ in params], "staged": staged and len(names) >= 2})

    # ------------------------------------------------------------ phases
    def check_flow(self):
        phases = self.data.get("phases") or {}
        self.phase_names = list(phases)
        start = self.data.get("start") or (next(iter(phases)) if phases else None)
        self.out.start_phase = start or ""
        if phases and start not in phases:
            self.report(
                "E053", f"start phase '{start}' is not a phase", ("start",), hint=did_you_mean(str(start), phases)
            )
        for name, spec in phases.items():
            self.out.phases.append(self.check_phase(name, spec or {}, phases))

    def hook(self, path, name) -> str | None:
        if self.text_of_or_none(path) is None:
            return None
        unit = Locals(name)
        body = self.check_block_at(path, Scope(unit))
        self.add_unit(name, body, unit, self.place(path))
        return name

    def text_of_or_none(self, path):
        try:
            return self.text_of(path)
        except (KeyError, TypeError, IndexError):
            return None

    def cond_at(self, path, label):
        if self.text_of_or_none(path) is None:
            return None
        return self.standalone(path, label, BOOL, "a condition")

    def check_phase(self, name, spec, phases) -> PhaseRule:
        base = ("phases", name)
        on_begin = self.hook(base + ("on_begin",), f"phase {name} on_begin")
        on_end = self.hook(base + ("on_end",), f"phase {name} on_end")
        end_if = self.cond_at(base + ("end_if",), f"phase {name} end_if")
        if end_if is not None and spec.get("turn") is None:
            self.report(
                "E044",
                f"phase '{name}' has end_if but no turn: end_if is checked before each turn",
                base + ("end_if",),
                hint="without turns a phase ends after on_begin; use 'next' with 'if'",
                key=True,
            )
        self.hooks[(name, "on_begin")] = on_begin
        self.hooks[(name, "on_end")] = on_end
        turn = None
        if spec.get("turn") is not None:
            turn = self.check_turn(name, spec["turn"], end_if)
        transitions = self.check_transitions(name, spec, phases)
        return PhaseRule(
            name, self.place(base, key=True), on_begin, on_end, end_if, turn, transitions,
            self.place(base + ("on_begin",)), self.place(base + ("on_end",)),
            self.place(("phases", name, "next") if "next" in spec else ("phases", name)),
            isinstance(spec.get("turn"), dict),
            self.place(base + ("next",)),
        )

    def check_turn(self, phase, turn, phase_end_if) -> TurnRule:
        base = ("phases", phase, "turn")
        turn = turn if isinstance(turn, dict) else {}
        first = self.standalone(base + ("first",), "turn first", PLAYER, "turn first") if "first" in turn else None
        nxt = self.standalone(base + ("next",), "turn next", PLAYER, "turn next") if "next" in turn else None
        t_begin = self.hook(base + ("on_begin",), f"phase {phase} turn on_begin")
        t_end = self.hook(base + ("on_end",), f"phase {phase} turn on_end")
        t_end_if = self.cond_at(base + ("end_if",), f"phase {phase} turn end_if")
        time_limit = None
        if self.text_of_or_none(base + ("time_limit",)) is not None:
            time_limit = self.standalone(base + ("time_limit",), f"phase {phase} turn time_limit", INT, "seconds")
        t_time_out = self.hook(base + ("on_time_out",), f"phase {phase} turn on_time_out")
        if t_time_out is not None and "time_limit" not in turn:
            self.report("E044", "on_time_out without a time_limit never runs", base + ("on_time_out",), key=True,
                        hint="add time_limit: SECONDS to this turn")
        action_ids = []
        for i, aname in enumerate(turn.get("actions") or []):
            if aname not in self.action_index:
                self.report(
                    "E034",
                    f"unknown action '{aname}'",
                    base + ("actions", i),
                    hint=did_you_mean(str(aname), self.action_index),
                )
                continue
            action_ids.append(self.action_index[aname])
            self.offered_actions.add(aname)
        self.phase_actions[phase] = action_ids
        w = self.place
        return TurnRule(
            first, nxt, t_begin, t_end, t_end_if, time_limit, t_time_out, bool(turn.get("repeat", False)),
            action_ids,
            where_first=w(base + ("first",)) if "first" in turn else w(base),
            where_head=w(("phases", phase, "end_if")),
            where_actions=w(base + ("actions",)),
            where_repeat=w(base + ("repeat",)) if "repeat" in turn else w(base + ("actions",)),
            where_next=w(base + ("next",)) if "next" in turn else w(base + ("actions",)),
        )

    def check_transitions(self, name, spec, phases) -> list:
        base = ("phases", name, "next")
        edges = spec.get("next")
        if edges is None:
            edges = []
        plain = isinstance(edges, str)
        if plain:
            edges = [{"to": edges}]
        out = []
        for i, edge in enumerate(edges):
            if isinstance(edge, str):
                edge = {"to": edge}
                epath = base + (i,)
            else:
                epath = base + (i, "to")
            target = edge.get("to")
            if plain:
                epath = base
            if target not in phases:
                self.report(
                    "E050", f"transition to unknown phase '{target}'", epath, hint=did_you_mean(str(target), phases)
                )
                continue
            cond = None
            if "if" in edge and not plain:
                cond = self.cond_at(base + (i, "if"), f"phase {name} next")
            out.append((cond, target))
        return out

    # ------------------------------------------------------------ triggers, end
    def check_triggers(self):
        for i, spec in (self.data.get("triggers") or {}).items():
            base = ("triggers", i)
            event = spec.get("on")
            if event not in self.events and event not in PHASE_EVENTS:
                self.report(
                    "E038",
                    f"unknown event '{event}'",
                    base + ("on",),
                    hint=did_you_mean(str(event), list(self.events) + list(PHASE_EVENTS)),
                )
                continue
            if event in PHASE_EVENTS:
                self.events.setdefault(event, {"phase": STR})
                self.emitted.add(event)
            unit = Locals(f"trigger {i}")
            scope = Scope(unit, event=event)
            scope.event_slot = scope.temp()
            cond = None
            if "if" in spec:
                cond, _ = self.check_expr_at(base + ("if",), scope, BOOL)
            body = self.check_block_at(base + ("effect",), scope)
            self.add_unit(unit.name, body, unit, self.place(base + ("effect",)), event_slot=scope.event_slot)
            self.out.triggers.append(TriggerRule(str(i), event, cond, unit.name, scope.event_slot, unit.nlocals))
            self.trigger_events.setdefault(event, None)

    def check_end(self):
        for i, spec in (self.data.get("end") or {}).items():
            base = ("end", i)
            cond = self.cond_at(base + ("if",), "end if")
            winners = None
            if "winners" in spec:
                winners = self.standalone(base + ("winners",), "end winners", LIST(PLAYER), "winners")
            if cond is not None:
                self.out.end_rules.append((cond, winners, self.place(base)))
        scoring = self.data.get("scoring")
        if scoring:
            scope = self.scratch("scoring")
            score, _ = self.check_expr_at(("scoring", "score"), scope, INT, "score")
            tie_breaks = []
            for i, _tb in enumerate(scoring.get("tie_breaks") or []):
                x, _ = self.check_expr_at(("scoring", "tie_breaks", i), scope, INT, "a tie-break")
                if x is not None:
                    tie_breaks.append(x)
            self.out.score = Expr(score, scope.unit.nlocals, slot_names=scope.unit.names) if score is not None else None
            if score is not None:
                self.out.score_parts = self.score_parts()
            self.out.tie_breaks = [Expr(x, scope.unit.nlocals, slot_names=scope.unit.names) for x in tie_breaks]
            for label in scoring.get("show") or {}:  # the scoreboard's columns, each a number per player
                x, _ = self.check_expr_at(("scoring", "show", label), scope, INT, "a scoreboard column")
                if x is not None:
                    self.out.score_shown.append((str(label), Expr(x, scope.unit.nlocals, slot_names=scope.unit.names)))
            self.lowest_wins = bool(scoring.get("lowest_wins", False))
        bots = self.data.get("bots") or {}
        if "heuristic" in bots:
            self.out.heuristic = self.standalone(("bots", "heuristic"), "heuristic", INT, "the heuristic")
        self.out.search = dict(bots.get("search") or {})  # its names and values checked by the schema
        for section, out in (("vars", self.out.var_shown), ("player_vars", self.out.pvar_shown)):
            for name, spec in (self.data.get(section) or {}).items():  # shown_as: the words for a value
                if isinstance(spec, dict) and "shown_as" in spec:
                    x = self.standalone((section, name, "shown_as"), "shown as", STR, "how the table shows it")
                    if x is not None:
                        out[str(name)] = x

    def score_parts(self) -> list:
        """The parts of the score, for a final breakdown: its top-level
        summands (``a + b + c``); for ``A if C else 0``, the summands of A,
        each counted when C holds. Each is (name, Expr); one part: none."""
        from rulebook.dsl.printer import source

        node, span = self.parse(("scoring", "score"), "expression")
        cond = None
        if isinstance(node, A.IfExpr) and isinstance(node.orelse, A.IntLit) and node.orelse.value == 0:
            node, cond = node.then, node.cond
        terms = []

        def flatten(n):
            if isinstance(n, A.Binary) and n.op == "+":
                flatten(n.left)
                flatten(n.right)
            else:
                terms.append(n)

        flatten(node)
        if len(terms) < 2:
            return []
        out = []
        for term in terms:
            scope = self.scratch("score part")
            cx = Cx(self, scope, ("scoring", "score"), span)
            piece = A.IfExpr(term, cond, A.IntLit(0, term.pos), term.pos) if cond is not None else term
            try:
                x = self.expect(piece, cx, INT, "a part of the score")
            except CheckError:
                return []
            out.append((part_name(source(term)), Expr(x, scope.unit.nlocals, slot_names=scope.unit.names)))
        return out

    def check_player_label(self):
        players = self.data.get("players") or {}
        if "name" in players:
            self.out.player_label = self.template(("players", "name"), {"p": PLAYER})

    # ------------------------------------------------------------ warnings
    def warn_unused(self):
        if any(d.is_error for d in self.diags):
            return  # a failed block hides its uses: unused-warnings would be noise
        variant_text = json.dumps(self.data.get("variants") or {})
        for name in self.params:
            if name not in self.used_params and not re.search(rf"\b{re.escape(name)}\b", variant_text):
                self.report("W105", f"parameter '{name}' is never used", ("params", name), key=True)
        for name in self.families:
            if name not in self.used_zones:
                self.report("W101", f"zone '{name}' is never used", ("zones", name), key=True)
        for act in self.out.actions:
            if act.name not in self.offered_actions:
                self.report(
                    "W102",
                    f"action '{act.name}' is never offered (no phase turn lists it)",
                    ("actions", act.name),
                    key=True,
                )
        for event in self.trigger_events:
            if event not in self.emitted:
                for i, spec in (self.data.get("triggers") or {}).items():
                    if spec.get("on") == event:
                        self.report(
                            "W103", f"no rule emits event '{event}', so this trigger never runs", ("triggers", i, "on")
                        )
        for name in self.procedures:
            if name not in self.used_procs:
                self.report("W104", f"procedure '{name}' is never called", ("procedures", name), key=True)


from rulebook.validator.types import ANY as ANY_T  # noqa: E402

__all__ = ["RuleChecker", "CheckError"]


def part_name(text: str) -> str:
    """A readable name for a part of a score: ``friend_points(player)`` ->
    ``friend points``, ``count(trophies[player])`` -> ``trophies``."""
    name = text.replace("(player)", "").replace("[player]", "").replace("player.", "")
    if name.startswith("count(") and name.endswith(")"):
        name = name[6:-1]
    return " ".join(name.replace("_", " ").split())
