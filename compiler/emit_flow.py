"""Write the flow of phases and turns as the unit ``flow``.

The flow is a state machine like any unit that can stop (``emit_unit``):
entering a phase (its ``on_begin``), the turns (who plays first, each
turn's hooks, the action menu the turn's player answers, the chosen
action's effect, who plays next), the phase's end (``on_end``) and its
transitions. Hooks and actions that cannot stop are called as plain
functions; those that can are pushed as frames. The vocabulary is
boardgame.io's: the same hooks at every level, and a guard against phases
that loop without a decision.

Each part is a function given the unit's writer ``u`` (its code, analysis
and state machine) and the rule it writes; none keeps state of its own.
"""

from __future__ import annotations

from rulebook.compiler.emit_actions import menu_function, why_function
from rulebook.compiler.emit_blocks import Label
from rulebook.compiler.emit_unit import UnitWriter, frame_locals
from rulebook.validator.ir import walk

ANSWER = 1  # the flow frame's slot for the answer to a turn's action menu


def write_flow(u: UnitWriter, checked) -> None:
    """The flow's blocks: a jump to the first phase, then each phase."""
    c, sm = u.c, u.machine
    phases = checked.phases
    entry = {p.name: sm.label() for p in phases}
    if not phases:
        c.line("raise RuleError('R103', 'the ruleset has no phases', " + c.const(checked.file + ":phases") + ")")
    elif checked.start_phase in entry:
        sm.jump(entry[checked.start_phase])
    for phase in phases:
        sm.start(entry[phase.name])
        write_phase(u, phase, entry)


# ------------------------------------------------------------ pieces
def hook(u: UnitWriter, unit: str | None, where: str) -> None:
    """Run a hook with ``player`` the current player."""
    if unit is None:
        return
    c = u.c
    with c.at(where):
        if unit in u.an.susp:
            rules = c.m.checked.units[unit]
            uid = c.m.unit_ids[unit]
            u.call_frame(uid, f"[{uid}, 0, {frame_locals(['st.current'], rules.nlocals)}]")
        else:
            c.line(f"{c.m.plain_names[unit]}(st, st.current)")
            if unit in u.an.can_end:
                c.line("if st.over: return STOP")


def expr_call(c, expr, player: str = "st.current") -> str:
    """An expression of the flow: written in place when it reads no
    local (not even the player, so ``player`` does not matter), else a
    call of its own function."""
    if not any(n.op == "local" for n in walk(expr.x)):
        return f"({c.ex(expr.x)})"
    return f"{c.m.expr_function(expr)}(st, {player})"


def fire_phase(u: UnitWriter, event: str, phase: str) -> None:
    c = u.c
    if event not in u.an.listened:  # no trigger listens: nothing to fire
        return
    c.line(f"if {event!r} in st.prog.triggers:")
    with c.block():
        c.line(f"fire(st, {event!r}, {{'phase': {phase!r}}})")
        if event in u.an.ending_events:
            c.line("if st.over: return STOP")
    if event in u.an.framed_events:
        u.resume_after()


def staged_actions(checked, actions: list) -> dict:
    """The staged actions among a turn's: action index -> (name, its parameters' names)."""
    out = {}
    for i in actions:
        act = checked.actions[i]
        if act.staged:
            out[i] = (act.name, [name for name, _, _ in act.params])
    return out


# ------------------------------------------------------------ a phase
def write_phase(u: UnitWriter, p, entry: dict) -> None:
    c, sm = u.c, u.machine
    with c.at(p.where):
        hint = (f"phase '{p.name}' has turns but nobody to play them (its turn's 'first' gives none, or every "
                "player is eliminated)") if p.has_turns else None
        c.line(f"st.phase = {p.name!r}")
        c.line("st.end_phase = st.end_turn = False")
        c.line("st.since_decision += 1")
        c.line(f"if st.since_decision > {c.limit('max_phase_entries')}: phases_loop(st, {p.name!r}, "
               f"{c.const(p.where_loop)}, {c.const(hint)})")
        c.line(f"if st.record: st.events.append(('phase', {p.name!r}))")
        fire_phase(u, "phase_begin", p.name)
    hook(u, p.on_begin, p.where_on_begin)
    end = Label()
    if p.turn is not None:
        write_turn(u, p, p.turn, end)
    sm.jump(end)
    sm.start(end)
    hook(u, p.on_end, p.where_on_end)
    if "phase" in c.m.meta.get("out_until", ()):  # 'eliminate ... until phase': back in now
        c.line("back_in(st, 'phase')")
    transitions(u, p, entry)


def transitions(u: UnitWriter, p, entry: dict) -> None:
    c, sm = u.c, u.machine
    with c.at(p.where_next):
        for cond, target in p.transitions:
            test = "True" if cond is None else expr_call(c, cond)
            c.line(f"if {test}:")
            with c.block():
                framed = "phase_end" in u.an.framed_events
                if "phase_end" not in u.an.listened:  # no trigger listens: nothing to fire
                    c.line(f"pc = {sm.ref(entry[target])}; continue")
                    continue
                c.line("if 'phase_end' in st.prog.triggers:")
                with c.block():
                    c.line(f"fire(st, 'phase_end', {{'phase': {p.name!r}}})")
                    if framed:
                        u.run_pushed(entry[target])
                    elif "phase_end" in u.an.ending_events:
                        c.line("if st.over: return STOP")
                c.line(f"pc = {sm.ref(entry[target])}; continue")
        c.line(f"raise no_transition({p.name!r}, {c.const(p.where_next)})")


# ------------------------------------------------------------ a phase's turns
def write_turn(u: UnitWriter, p, t, end: Label) -> None:
    """The turns of phase ``p``: who plays first, then a loop over turns
    (its head, the action asked and run, maybe again, who plays next)."""
    sm = u.machine
    first_player(u, t)
    head = turn_head(u, p, t, end)
    hook(u, t.on_begin, t.where_actions)
    turn_end = Label()
    action_loop = sm.goto_new()  # the block that asks, its own so that the question can be asked again
    answer = sm.label()
    staged = ask_action(u, p, t, turn_end, answer)
    after = Label()
    stage = run_answer(u, t, staged, after)
    sm.jump(after)
    if staged:  # the next stage's question, asked by a block of its own (so that it can be asked again)
        sm.start(stage)
        ask_next_stage(u, p, t, staged, answer)
    sm.start(after)
    again_or_end(u, t, turn_end, action_loop)
    sm.start(turn_end)
    hook(u, t.on_end, t.where_actions)
    next_player(u, t, head)


def first_player(u: UnitWriter, t) -> None:
    c = u.c
    with c.at(t.where_first):
        # 'pass turn to p' before the turns (in on_begin): p plays first
        if t.first is not None:
            pass_to_or(c, f"live(st, {expr_call(c, t.first)})")
        else:
            pass_to_or(c, "seat_order(st, 0)[0] if not all(st.eliminated) else None", "st.current is None",
                       "live(st, st.current)")


def pass_to_or(c, current: str, when: str | None = None, otherwise: str | None = None) -> None:
    """Who plays next: the player a rule passed the turn to (``pass turn to
    p``), else ``current`` (only ``when`` that holds, then ``otherwise``)."""
    c.line("if st.pass_to is not None:")
    with c.block():
        c.line("st.current = live(st, st.pass_to)")
    c.line(f"elif {when}:" if when else "else:")
    with c.block():
        c.line(f"st.current = {current}")
    if otherwise is not None:
        c.line("else:")
        with c.block():
            c.line(f"st.current = {otherwise}")
    c.line("st.pass_to = None")


def turn_head(u: UnitWriter, p, t, end: Label) -> Label:
    """A turn's start, where the phase ends when nobody is to play or its end condition holds."""
    c, sm = u.c, u.machine
    head = sm.loop_head()
    with c.at(t.where_head):
        c.line("L[0] = st.current")
        stop = "st.end_phase or st.current is None"
        if p.end_if is not None:
            stop += f" or {expr_call(c, p.end_if)}"
        c.line(f"if {stop}:")
        with c.block():
            c.line(f"pc = {sm.ref(end)}; continue")
        c.line("st.end_turn = False")
        c.line("st.turn += 1")
        c.line("if st.record: st.events.append(('turn', st.current))")
    return head


def ask_action(u: UnitWriter, p, t, turn_end: Label, answer: Label) -> str:
    """The action menu asked of the turn's player; the source of its staged
    actions' table ('' when none is staged)."""
    c, sm = u.c, u.machine
    with c.at(t.where_actions):
        c.line("if st.end_turn or st.end_phase:")
        with c.block():
            c.line(f"pc = {sm.ref(turn_end)}; continue")
        c.line("p = st.current")
        if c.m.memoised():  # from here to the answer, functions keep their values (compiler/per_state.py)
            c.line("st.memo = {}")
        c.line(f"options = {menu_function(c.m, p.name, t.actions)}(st, p)")
        staged = staged_actions(c.m.checked, t.actions)
        if staged:  # staged actions: the first of their parameters only (the others are asked next)
            staged = c.const(staged)
            c.line(f"flat, options = options, staged_menu(options, {staged})")
        c.line("if not options:")
        with c.block():
            c.end_rules_first()
            c.line(f"raise no_action(st, p, {p.name!r}, {why_function(c.m, t.actions)}, "
                   f"{c.const(t.where_actions)})")
        if not staged:  # a staged action's parameters are asked one by one: the playout answers each
            u.auto_answer(f"L[{ANSWER}]", answer, "auto_pick(st, p, options)", bool(c.m.memoised()))
        c.line(f"pend = {{'kind': 'action', 'players': [p], 'options': [options], 'answers': [None], "
               f"'done': [False], 'slot': {ANSWER}, 'prompt': {p.name + ': your move'!r}, 'type': 'action'}}")
        if staged:
            c.line("pend['flat'] = flat")
        if t.time_limit is not None:
            c.line(f"seconds = {expr_call(c, t.time_limit, 'p')}")
            c.line("if seconds is not None and seconds > 0: pend['time_limit'] = seconds")
        c.line("st.pending = pend")
    with c.at(t.where_actions):
        u.suspend(answer)
    return staged or ""


def run_answer(u: UnitWriter, t, staged: str, after: Label) -> Label:
    """The answer: the turn's time ran out, a staged action's next parameter
    is to be asked (at the label returned), or the action runs."""
    c, sm = u.c, u.machine
    with c.at(t.where_actions):
        c.line(f"if L[{ANSWER}] == TIMED_OUT:")  # Game.time_out: the turn's time ran out
        with c.block():
            c.line("st.end_turn = True")
            if t.on_time_out is not None:
                rules = c.m.checked.units[t.on_time_out]
                c.line(f"st.stack.append([{c.m.unit_ids[t.on_time_out]}, 0, [st.current] + [None] * "
                       f"{rules.nlocals - 1}])")
                u.run_pushed(after)
                c.line(f"pc = {sm.ref(after)}; continue")
            else:
                c.line(f"pc = {sm.ref(after)}; continue")
        c.line(f"ai, args = L[{ANSWER}]")
        stage = Label()
        if staged:  # part of a staged action's parameters: its next one is asked, narrowed by them
            c.line(f"if ai in {staged} and len(args) < len({staged}[ai][1]):")
            with c.block():
                c.line(f"pc = {sm.ref(stage)}; continue")
        c.line("if st.record: st.events.append(('action', st.current, ACTION_NAMES[ai], args))")
        c.line("act = ACTION_RUN[ai]")
        c.line("if act is None:")
        with c.block():
            c.line("st.stack.append(ACTION_FRAME[ai](st.current, args))")
            u.run_pushed(after)
            c.line(f"pc = {sm.ref(after)}; continue")
        c.line("act(st, st.current, *args)")
        c.line("if st.over: return STOP")
    return stage


def ask_next_stage(u: UnitWriter, p, t, staged: str, answer: Label) -> None:
    c, sm = u.c, u.machine
    with c.at(t.where_actions):
        c.line(f"ai, args = L[{ANSWER}]")
        menu = menu_function(c.m, p.name, t.actions)
        c.line(f"pend = stage_question(st, st.current, {menu}(st, st.current), ai, args, {staged}[ai], "
               f"{ANSWER})")
        u.auto_answer(f"L[{ANSWER}]", answer, "auto_pick(st, st.current, pend['options'][0])")
        c.line("st.pending = pend")
        if t.time_limit is not None:  # each stage has the turn's time
            c.line(f"seconds = {expr_call(c, t.time_limit, 'st.current')}")
            c.line("if seconds is not None and seconds > 0: st.pending['time_limit'] = seconds")
        stage_answer = sm.label()
        u.suspend(stage_answer)
        c.line(f"pc = {sm.ref(answer)}; continue")


def again_or_end(u: UnitWriter, t, turn_end: Label, action_loop: Label) -> None:
    """After an action: the turn ends, or (``repeat``) its player acts again."""
    c, sm = u.c, u.machine
    with c.at(t.where_repeat):
        if not t.repeat:
            c.line(f"pc = {sm.ref(turn_end)}; continue")
        else:
            stop = "st.end_turn or st.end_phase"
            if t.end_if is not None:
                stop += f" or {expr_call(c, t.end_if)}"
            c.line(f"if {stop}:")
            with c.block():
                c.line(f"pc = {sm.ref(turn_end)}; continue")
            c.line(f"pc = {sm.ref(action_loop)}; continue")


def next_player(u: UnitWriter, t, head: Label) -> None:
    c, sm = u.c, u.machine
    with c.at(t.where_next):
        pass_to_or(c, f"live(st, {expr_call(c, t.next)})" if t.next is not None else "next_player(st, st.current, 1)")
        c.line("st.end_turn = False")
        c.line(f"pc = {sm.ref(head)}; continue")
