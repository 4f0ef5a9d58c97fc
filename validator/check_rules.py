"""Check the rules that run: actions, phases and their turns, triggers, end
rules, scoring, the bots' heuristic and the players' names; then warn about
what is declared and never used."""

from __future__ import annotations

import json
import re

from rulebook.dsl import ast as A
from rulebook.validator.check_components import template
from rulebook.validator.check_decls import PHASE_EVENTS
from rulebook.validator.check_expr import CheckError, Cx, expect
from rulebook.validator.check_texts import template_parts
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.ir import ActionRule, Expr, PhaseRule, Template, TriggerRule, TurnRule, X
from rulebook.validator.scope import Locals, Scope
from rulebook.validator.types import BOOL, COMP, INT, LIST, PLAYER, STR


# ------------------------------------------------------------ actions
def check_actions(ck):
    for i, (name, spec) in enumerate((ck.data.get("actions") or {}).items()):
        spec = spec or {}
        unit = Locals(f"action {name}")
        scope = Scope(unit)
        params = []
        base = ("actions", name)
        cond = None
        if "if" in spec:
            cond, _ = ck.check_expr_at(base + ("if",), scope, BOOL)
        names = list(spec.get("params") or {})
        staged = spec.get("staged") is True
        if staged and len(names) < 2:
            ck.report("E013", f"action '{name}' is staged but has {len(names)} parameter"
                      f"{'s' if len(names) != 1 else ''}: stages ask two or more one after another",
                      base + ("staged",), hint="drop 'staged', or give the action its parameters")
        plabels = spec.get("param_labels") or {}
        for pname in plabels:
            if pname not in names:
                ck.report("E036", f"action '{name}' has no parameter '{pname}' to label",
                          base + ("param_labels", pname), key=True,
                          hint=f"its parameters: {', '.join(names) or 'none'}")
        for k, pname in enumerate(names):
            ck.later_params = (name, names[k:])  # a domain may read only the parameters above it
            try:
                x, t = ck.check_expr_at(base + ("params", pname), scope)
            finally:
                ck.later_params = None
            if x is not None and t.kind not in ("list", "zone", "any"):
                ck.report(
                    "E041",
                    f"parameter '{pname}' needs a list of possible values, not {t}",
                    base + ("params", pname),
                )
                x = None
            et = t.arg if t.kind == "list" else COMP(t.arg) if t.kind == "zone" else ANY_T
            if t.kind == "zone" and x is not None:
                x = X("zone_items", x)
            params.append((pname, scope.fresh(pname, et), x))
            ck.note_params(scope, base + ("params",), [(pname, et)])
        require = None
        if "require" in spec:
            require, _ = ck.check_expr_at(base + ("require",), scope, BOOL)
        body = ck.check_block_at(base + ("effect",), scope) if "effect" in spec else []
        label = None
        if "label" in spec:
            path = base + ("label",)
            cx = Cx(ck, scope, tuple(path), ck.doc.spans.get(tuple(path)))
            try:
                label = Template(template_parts(ck, str(ck.text_of(path)), cx, 1, 1, "this label"),
                                 slot_names=unit.names)
            except CheckError:
                label = None
        ck.add_unit(unit.name, body, unit, ck.place(base, key=True), tuple(s for _, s, _ in params))
        ck.out.actions.append(ActionRule(name, i, params, cond, require, label, unit.name, unit.nlocals,
                                         staged and len(names) >= 2))
        ck.action_index[name] = i
        ck.action_meta.append({"name": name, "param_types": [scope.names[p][1] for p, _, _ in params],
                               "params": [p for p, _, _ in params], "staged": staged and len(names) >= 2,
                               "param_labels": [str(plabels.get(p, p)) for p, _, _ in params]})


# ------------------------------------------------------------ phases
def check_flow(ck):
    phases = ck.data.get("phases") or {}
    ck.phase_names = list(phases)
    start = ck.data.get("start") or (next(iter(phases)) if phases else None)
    ck.out.start_phase = start or ""
    if phases and start not in phases:
        ck.report(
            "E053", f"start phase '{start}' is not a phase", ("start",), hint=did_you_mean(str(start), phases)
        )
    for name, spec in phases.items():
        ck.out.phases.append(check_phase(ck, name, spec or {}, phases))


def hook(ck, path, name) -> str | None:
    if text_of_or_none(ck, path) is None:
        return None
    unit = Locals(name)
    body = ck.check_block_at(path, Scope(unit))
    ck.add_unit(name, body, unit, ck.place(path))
    return name


def text_of_or_none(ck, path):
    try:
        return ck.text_of(path)
    except (KeyError, TypeError, IndexError):
        return None


def cond_at(ck, path, label):
    if text_of_or_none(ck, path) is None:
        return None
    return ck.standalone(path, label, BOOL, "a condition")


def check_phase(ck, name, spec, phases) -> PhaseRule:
    base = ("phases", name)
    on_begin = hook(ck, base + ("on_begin",), f"phase {name} on_begin")
    on_end = hook(ck, base + ("on_end",), f"phase {name} on_end")
    end_if = cond_at(ck, base + ("end_if",), f"phase {name} end_if")
    if end_if is not None and spec.get("turn") is None:
        ck.report(
            "E044",
            f"phase '{name}' has end_if but no turn: end_if is checked before each turn",
            base + ("end_if",),
            hint="without turns a phase ends after on_begin; use 'next' with 'if'",
            key=True,
        )
    ck.hooks[(name, "on_begin")] = on_begin
    ck.hooks[(name, "on_end")] = on_end
    turn = None
    if spec.get("turn") is not None:
        turn = check_turn(ck, name, spec["turn"], end_if)
    transitions = check_transitions(ck, name, spec, phases)
    return PhaseRule(
        name, ck.place(base, key=True), on_begin, on_end, end_if, turn, transitions,
        ck.place(base + ("on_begin",)), ck.place(base + ("on_end",)),
        ck.place(("phases", name, "next") if "next" in spec else ("phases", name)),
        isinstance(spec.get("turn"), dict),
        ck.place(base + ("next",)),
    )


def check_turn(ck, phase, turn, phase_end_if) -> TurnRule:
    base = ("phases", phase, "turn")
    turn = turn if isinstance(turn, dict) else {}
    first = ck.standalone(base + ("first",), "turn first", PLAYER, "turn first") if "first" in turn else None
    nxt = ck.standalone(base + ("next",), "turn next", PLAYER, "turn next") if "next" in turn else None
    t_begin = hook(ck, base + ("on_begin",), f"phase {phase} turn on_begin")
    t_end = hook(ck, base + ("on_end",), f"phase {phase} turn on_end")
    t_end_if = cond_at(ck, base + ("end_if",), f"phase {phase} turn end_if")
    time_limit = None
    if text_of_or_none(ck, base + ("time_limit",)) is not None:
        time_limit = ck.standalone(base + ("time_limit",), f"phase {phase} turn time_limit", INT, "seconds")
    t_time_out = hook(ck, base + ("on_time_out",), f"phase {phase} turn on_time_out")
    if t_time_out is not None and "time_limit" not in turn:
        ck.report("E044", "on_time_out without a time_limit never runs", base + ("on_time_out",), key=True,
                  hint="add time_limit: SECONDS to this turn")
    action_ids = []
    for i, aname in enumerate(turn.get("actions") or []):
        if aname not in ck.action_index:
            ck.report(
                "E034",
                f"unknown action '{aname}'",
                base + ("actions", i),
                hint=did_you_mean(str(aname), ck.action_index),
            )
            continue
        action_ids.append(ck.action_index[aname])
        ck.offered_actions.add(aname)
    ck.phase_actions[phase] = action_ids
    w = ck.place
    return TurnRule(
        first, nxt, t_begin, t_end, t_end_if, time_limit, t_time_out, bool(turn.get("repeat", False)),
        action_ids,
        where_first=w(base + ("first",)) if "first" in turn else w(base),
        where_head=w(("phases", phase, "end_if")),
        where_actions=w(base + ("actions",)),
        where_repeat=w(base + ("repeat",)) if "repeat" in turn else w(base + ("actions",)),
        where_next=w(base + ("next",)) if "next" in turn else w(base + ("actions",)),
    )


def check_transitions(ck, name, spec, phases) -> list:
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
            ck.report(
                "E050", f"transition to unknown phase '{target}'", epath, hint=did_you_mean(str(target), phases)
            )
            continue
        cond = None
        if "if" in edge and not plain:
            cond = cond_at(ck, base + (i, "if"), f"phase {name} next")
        out.append((cond, target))
    return out


# ------------------------------------------------------------ triggers, end
def check_triggers(ck):
    for i, spec in (ck.data.get("triggers") or {}).items():
        base = ("triggers", i)
        event = spec.get("on")
        if event not in ck.events and event not in PHASE_EVENTS:
            ck.report(
                "E038",
                f"unknown event '{event}'",
                base + ("on",),
                hint=did_you_mean(str(event), list(ck.events) + list(PHASE_EVENTS)),
            )
            continue
        if event in PHASE_EVENTS:
            ck.events.setdefault(event, {"phase": STR})
            ck.emitted.add(event)
        unit = Locals(f"trigger {i}")
        scope = Scope(unit, event=event)
        scope.event_slot = scope.temp()
        cond = None
        if "if" in spec:
            cond, _ = ck.check_expr_at(base + ("if",), scope, BOOL)
        body = ck.check_block_at(base + ("effect",), scope)
        ck.add_unit(unit.name, body, unit, ck.place(base + ("effect",)), event_slot=scope.event_slot)
        ck.out.triggers.append(TriggerRule(str(i), event, cond, unit.name, scope.event_slot, unit.nlocals))
        ck.trigger_events.setdefault(event, None)


def check_end(ck):
    for i, spec in (ck.data.get("end") or {}).items():
        base = ("end", i)
        cond = cond_at(ck, base + ("if",), "end if")
        winners = None
        if "winners" in spec:
            winners = ck.standalone(base + ("winners",), "end winners", LIST(PLAYER), "winners")
        if cond is not None:
            ck.out.end_rules.append((cond, winners, ck.place(base)))
    scoring = ck.data.get("scoring")
    if scoring:
        scope = ck.scratch("scoring")
        score, _ = ck.check_expr_at(("scoring", "score"), scope, INT, "score")
        tie_breaks = []
        for i, _tb in enumerate(scoring.get("tie_breaks") or []):
            x, _ = ck.check_expr_at(("scoring", "tie_breaks", i), scope, INT, "a tie-break")
            if x is not None:
                tie_breaks.append(x)
        ck.out.score = Expr(score, scope.unit.nlocals, slot_names=scope.unit.names) if score is not None else None
        if score is not None:
            ck.out.score_parts = score_parts(ck)
        ck.out.tie_breaks = [Expr(x, scope.unit.nlocals, slot_names=scope.unit.names) for x in tie_breaks]
        for label in scoring.get("show") or {}:  # the scoreboard's columns, each a number per player
            x, _ = ck.check_expr_at(("scoring", "show", label), scope, INT, "a scoreboard column")
            if x is not None:
                ck.out.score_shown.append((str(label), Expr(x, scope.unit.nlocals, slot_names=scope.unit.names)))
        ck.lowest_wins = bool(scoring.get("lowest_wins", False))
    bots = ck.data.get("bots") or {}
    if "heuristic" in bots:
        ck.out.heuristic = ck.standalone(("bots", "heuristic"), "heuristic", INT, "the heuristic")
    ck.out.search = dict(bots.get("search") or {})  # its names and values checked by the schema
    for section, out in (("vars", ck.out.var_shown), ("player_vars", ck.out.pvar_shown)):
        for name, spec in (ck.data.get(section) or {}).items():  # shown_as: the words for a value
            if isinstance(spec, dict) and "shown_as" in spec:
                x = ck.standalone((section, name, "shown_as"), "shown as", STR, "how the table shows it")
                if x is not None:
                    out[str(name)] = x


def score_parts(ck) -> list:
    """The parts of the score, for a final breakdown: its top-level
    summands (``a + b + c``); for ``A if C else 0``, the summands of A,
    each counted when C holds. Each is (name, Expr); one part: none."""
    from rulebook.dsl.printer import source

    node, span = ck.parse(("scoring", "score"), "expression")
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
        scope = ck.scratch("score part")
        cx = Cx(ck, scope, ("scoring", "score"), span)
        piece = A.IfExpr(term, cond, A.IntLit(0, term.pos), term.pos) if cond is not None else term
        try:
            x = expect(ck, piece, cx, INT, "a part of the score")
        except CheckError:
            return []
        out.append((part_name(source(term)), Expr(x, scope.unit.nlocals, slot_names=scope.unit.names)))
    return out


def check_player_label(ck):
    players = ck.data.get("players") or {}
    if "name" in players:
        ck.out.player_label = template(ck, ("players", "name"), {"p": PLAYER})


# ------------------------------------------------------------ warnings
def warn_unused(ck):
    if any(d.is_error for d in ck.diags):
        return  # a failed block hides its uses: unused-warnings would be noise
    variant_text = json.dumps(ck.data.get("variants") or {})
    for name in ck.params:
        if name not in ck.used_params and not re.search(rf"\b{re.escape(name)}\b", variant_text):
            ck.report("W105", f"parameter '{name}' is never used", ("params", name), key=True)
    for name in ck.families:
        if name not in ck.used_zones:
            ck.report("W101", f"zone '{name}' is never used", ("zones", name), key=True)
    for act in ck.out.actions:
        if act.name not in ck.offered_actions:
            ck.report(
                "W102",
                f"action '{act.name}' is never offered (no phase turn lists it)",
                ("actions", act.name),
                key=True,
            )
    for event in ck.trigger_events:
        if event not in ck.emitted:
            for i, spec in (ck.data.get("triggers") or {}).items():
                if spec.get("on") == event:
                    ck.report(
                        "W103", f"no rule emits event '{event}', so this trigger never runs", ("triggers", i, "on")
                    )
    for name in ck.procedures:
        if name not in ck.used_procs and ("procedures", name) not in ck.test_helpers:
            ck.report("W104", f"procedure '{name}' is never called", ("procedures", name), key=True,
                      hint="a helper that only scenarios' run: steps call says 'for_tests: true'")
    warn_test_helpers_in_rules(ck)


def warn_test_helpers_in_rules(ck):
    """W109: a rule calls a helper marked for tests. Calls from other helpers
    for tests are what such helpers are for; each place is reported once
    (a function's body is checked once per kind of place it is called from)."""
    seen = set()
    for (section, name), calls in ck.test_helpers.items():
        for path, line, col in calls:
            if tuple(path[:2]) in ck.test_helpers or (path, line, col) in seen:
                continue
            seen.add((path, line, col))
            kind = "procedure" if section == "procedures" else "function"
            ck.report("W109", f"{kind} '{name}' is marked for_tests, and a rule calls it", path, (line, col),
                      hint=f"remove 'for_tests: true' from {section}.{name} if the rules need it",
                      length=len(name))


from rulebook.validator.types import ANY as ANY_T  # noqa: E402

__all__ = ["CheckError"]


def part_name(text: str) -> str:
    """A readable name for a part of a score: ``friend_points(player)`` ->
    ``friend points``, ``count(trophies[player])`` -> ``trophies``."""
    name = text.replace("(player)", "").replace("[player]", "").replace("player.", "")
    if name.startswith("count(") and name.endswith(")"):
        name = name[6:-1]
    return " ".join(name.replace("_", " ").split())
