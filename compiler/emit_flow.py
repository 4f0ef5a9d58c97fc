"""Write the flow of phases and turns as the unit ``flow``.

The flow is a state machine like any unit that can stop (``emit_unit``):
entering a phase (its ``on_begin``), the turns (who plays first, each
turn's hooks, the action menu the turn's player answers, the chosen
action's effect, who plays next), the phase's end (``on_end``) and its
transitions. Hooks and actions that cannot stop are called as plain
functions; those that can are pushed as frames. The vocabulary is
boardgame.io's: the same hooks at every level, and a guard against phases
that loop without a decision.
"""

from __future__ import annotations

from rulebook.compiler.emit_unit import Label, UnitWriter, frame_locals
from rulebook.validator.ir import walk

ANSWER = 1  # the flow frame's slot for the answer to a turn's action menu


class FlowWriter(UnitWriter):
    def write(self, checked) -> None:
        c = self.c
        phases = checked.phases
        self.entry = {p.name: self.label() for p in phases}
        if not phases:
            c.line("raise RuleError('R103', 'the ruleset has no phases', " + c.const(checked.file + ":phases") + ")")
        elif checked.start_phase in self.entry:
            self.jump(self.entry[checked.start_phase])
        for phase in phases:
            self.start(self.entry[phase.name])
            self.phase(phase)

    # ------------------------------------------------------------ pieces
    def hook(self, unit: str | None, where: str) -> None:
        """Run a hook with ``player`` the current player."""
        if unit is None:
            return
        c = self.c
        with c.at(where):
            if unit in self.an.susp:
                u = c.m.checked.units[unit]
                uid = c.m.unit_ids[unit]
                self.call_frame(uid, f"[{uid}, 0, {frame_locals(['st.current'], u.nlocals)}]")
            else:
                c.line(f"{c.m.plain_names[unit]}(st, st.current)")
                if unit in self.an.can_end:
                    c.line("if st.over: return STOP")

    def expr_call(self, expr, player: str = "st.current") -> str:
        """An expression of the flow: written in place when it reads no
        local (not even the player, so ``player`` does not matter), else a
        call of its own function."""
        if not any(n.op == "local" for n in walk(expr.x)):
            return f"({self.c.ex(expr.x)})"
        return f"{self.c.m.expr_function(expr)}(st, {player})"

    def fire_phase(self, event: str, phase: str) -> None:
        c = self.c
        if event not in self.an.listened:  # no trigger listens: nothing to fire
            return
        c.line(f"if {event!r} in st.prog.triggers:")
        with c.block():
            c.line(f"fire(st, {event!r}, {{'phase': {phase!r}}})")
            if event in self.an.ending_events:
                c.line("if st.over: return STOP")
        if event in self.an.framed_events:
            self.resume_after()

    # ------------------------------------------------------------ a phase
    def phase(self, p) -> None:
        c = self.c
        with c.at(p.where):
            hint = (f"phase '{p.name}' has turns but nobody to play them (its turn's 'first' gives none, or every "
                    "player is eliminated)") if p.has_turns else None
            c.line(f"st.phase = {p.name!r}")
            c.line("st.end_phase = st.end_turn = False")
            c.line("st.since_decision += 1")
            c.line(f"if st.since_decision > {c.limit('max_phase_entries')}: phases_loop(st, {p.name!r}, "
                   f"{c.const(p.where_loop)}, {c.const(hint)})")
            c.line(f"if st.record: st.events.append(('phase', {p.name!r}))")
            self.fire_phase("phase_begin", p.name)
        self.hook(p.on_begin, p.where_on_begin)
        end = Label()
        if p.turn is not None:
            self.turn(p, p.turn, end)
        self.jump(end)
        self.start(end)
        self.hook(p.on_end, p.where_on_end)
        if "phase" in self.c.m.meta.get("out_until", ()):  # 'eliminate ... until phase': back in now
            c.line("back_in(st, 'phase')")
        self.transitions(p)

    def turn(self, p, t, end: Label) -> None:
        c = self.c
        with c.at(t.where_first):
            c.line("if st.pass_to is not None:")  # 'pass turn to p' before the turns (in on_begin): p plays first
            with c.block():
                c.line("st.current = live(st, st.pass_to)")
            if t.first is not None:
                c.line("else:")
                with c.block():
                    c.line(f"st.current = live(st, {self.expr_call(t.first)})")
            else:
                c.line("elif st.current is None:")
                with c.block():
                    c.line("st.current = seat_order(st, 0)[0] if not all(st.eliminated) else None")
                c.line("else:")
                with c.block():
                    c.line("st.current = live(st, st.current)")
            c.line("st.pass_to = None")
        head = self.loop_head()
        with c.at(t.where_head):
            c.line("L[0] = st.current")
            stop = "st.end_phase or st.current is None"
            if p.end_if is not None:
                stop += f" or {self.expr_call(p.end_if)}"
            c.line(f"if {stop}:")
            with c.block():
                c.line(f"pc = {self.ref(end)}; continue")
            c.line("st.end_turn = False")
            c.line("st.turn += 1")
            c.line("if st.record: st.events.append(('turn', st.current))")
        self.hook(t.on_begin, t.where_actions)
        turn_end = Label()
        action_loop = self.goto_new()  # the block that asks, its own so that the question can be asked again
        answer = self.label()
        with c.at(t.where_actions):
            c.line("if st.end_turn or st.end_phase:")
            with c.block():
                c.line(f"pc = {self.ref(turn_end)}; continue")
            c.line("p = st.current")
            c.line(f"options = {c.m.menu_function(p.name, t.actions)}(st, p)")
            staged = self.staged(t.actions)
            if staged:  # staged actions: the first of their parameters only (the others are asked next)
                staged = c.const(staged)
                c.line(f"flat, options = options, staged_menu(options, {staged})")
            c.line("if not options:")
            with c.block():
                c.end_rules_first()
                c.line(f"raise no_action(st, p, {p.name!r}, {c.m.why_function(t.actions)}, "
                       f"{c.const(t.where_actions)})")
            if not staged:  # a staged action's parameters are asked one by one: the playout answers each
                self.auto_answer(f"L[{ANSWER}]", answer, "auto_pick(st, p, options)")
            c.line(f"pend = {{'kind': 'action', 'players': [p], 'options': [options], 'answers': [None], "
                   f"'done': [False], 'slot': {ANSWER}, 'prompt': {p.name + ': your move'!r}, 'type': 'action'}}")
            if staged:
                c.line("pend['flat'] = flat")
            if t.time_limit is not None:
                c.line(f"seconds = {self.expr_call(t.time_limit, 'p')}")
                c.line("if seconds is not None and seconds > 0: pend['time_limit'] = seconds")
            c.line("st.pending = pend")
        with c.at(t.where_actions):
            self.suspend(answer)
        after = Label()
        with c.at(t.where_actions):
            c.line(f"if L[{ANSWER}] == TIMED_OUT:")  # Game.time_out: the turn's time ran out
            with c.block():
                c.line("st.end_turn = True")
                if t.on_time_out is not None:
                    u = c.m.checked.units[t.on_time_out]
                    c.line(f"st.stack.append([{c.m.unit_ids[t.on_time_out]}, 0, [st.current] + [None] * "
                           f"{u.nlocals - 1}])")
                    self.run_pushed(after)
                    c.line(f"pc = {self.ref(after)}; continue")
                else:
                    c.line(f"pc = {self.ref(after)}; continue")
            c.line(f"ai, args = L[{ANSWER}]")
            stage = Label()
            if staged:  # part of a staged action's parameters: its next one is asked, narrowed by them
                c.line(f"if ai in {staged} and len(args) < len({staged}[ai][1]):")
                with c.block():
                    c.line(f"pc = {self.ref(stage)}; continue")
            c.line("if st.record: st.events.append(('action', st.current, ACTION_NAMES[ai], args))")
            c.line("act = ACTION_RUN[ai]")
            c.line("if act is None:")
            with c.block():
                c.line("st.stack.append(ACTION_FRAME[ai](st.current, args))")
                self.run_pushed(after)
                c.line(f"pc = {self.ref(after)}; continue")
            c.line("act(st, st.current, *args)")
            c.line("if st.over: return STOP")
        self.jump(after)
        if staged:  # the next stage's question, asked by a block of its own (so that it can be asked again)
            self.start(stage)
            with c.at(t.where_actions):
                c.line(f"ai, args = L[{ANSWER}]")
                menu = c.m.menu_function(p.name, t.actions)
                c.line(f"pend = stage_question(st, st.current, {menu}(st, st.current), ai, args, {staged}[ai], "
                       f"{ANSWER})")
                self.auto_answer(f"L[{ANSWER}]", answer, "auto_pick(st, st.current, pend['options'][0])")
                c.line("st.pending = pend")
                if t.time_limit is not None:  # each stage has the turn's time
                    c.line(f"seconds = {self.expr_call(t.time_limit, 'st.current')}")
                    c.line("if seconds is not None and seconds > 0: st.pending['time_limit'] = seconds")
                stage_answer = self.label()
                self.suspend(stage_answer)
                c.line(f"pc = {self.ref(answer)}; continue")
        self.start(after)
        with c.at(t.where_repeat):
            if not t.repeat:
                c.line(f"pc = {self.ref(turn_end)}; continue")
            else:
                stop = "st.end_turn or st.end_phase"
                if t.end_if is not None:
                    stop += f" or {self.expr_call(t.end_if)}"
                c.line(f"if {stop}:")
                with c.block():
                    c.line(f"pc = {self.ref(turn_end)}; continue")
                c.line(f"pc = {self.ref(action_loop)}; continue")
        self.start(turn_end)
        self.hook(t.on_end, t.where_actions)
        with c.at(t.where_next):
            c.line("if st.pass_to is not None:")
            with c.block():
                c.line("st.current = live(st, st.pass_to)")
            if t.next is not None:
                c.line("else:")
                with c.block():
                    c.line(f"st.current = live(st, {self.expr_call(t.next)})")
            else:
                c.line("else:")
                with c.block():
                    c.line("st.current = next_player(st, st.current, 1)")
            c.line("st.pass_to = None")
            c.line("st.end_turn = False")
            c.line(f"pc = {self.ref(head)}; continue")

    def staged(self, actions: list) -> dict:
        """The staged actions among a turn's: action index -> (name, its parameters' names)."""
        out = {}
        for i in actions:
            act = self.c.m.checked.actions[i]
            if act.staged:
                out[i] = (act.name, [name for name, _, _ in act.params])
        return out

    def transitions(self, p) -> None:
        c = self.c
        with c.at(p.where_next):
            for cond, target in p.transitions:
                test = "True" if cond is None else self.expr_call(cond)
                c.line(f"if {test}:")
                with c.block():
                    framed = "phase_end" in self.an.framed_events
                    if "phase_end" not in self.an.listened:  # no trigger listens: nothing to fire
                        c.line(f"pc = {self.ref(self.entry[target])}; continue")
                        continue
                    c.line("if 'phase_end' in st.prog.triggers:")
                    with c.block():
                        c.line(f"fire(st, 'phase_end', {{'phase': {p.name!r}}})")
                        if framed:
                            self.run_pushed(self.entry[target])
                        elif "phase_end" in self.an.ending_events:
                            c.line("if st.over: return STOP")
                    c.line(f"pc = {self.ref(self.entry[target])}; continue")
            c.line(f"raise no_transition({p.name!r}, {c.const(p.where_next)})")
