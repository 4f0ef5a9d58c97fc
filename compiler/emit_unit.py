"""Write a unit that can stop at a decision as an explicit state machine.

The unit becomes ``def name(st, fr)`` over its frame ``fr = [unit id, pc,
L]``: ``L`` holds its rule locals, ``pc`` the block to run next. The body is
cut into blocks at its resume points (a ``choose``, a call of a procedure
that can stop, an event whose triggers can); the code between them is plain
Python with native ``if``/``for``/``while``. Because the frame is plain
data, a state stopped at a decision clones, saves and resumes.

Conventions the engine relies on (``interpreter/run.py``, ``Game.reask``):
a question is asked by a block of its own, ``ask``, and answered at
``ask + 1``; the answer is written to ``L[slot]`` by the decision interface.
A block returns ``SUSPEND`` to wait for a decision, ``STOP`` when the game
ended, None when the frame stack changed (a call, a return).
"""

from __future__ import annotations

from rulebook.compiler.emit_blocks import Label, StateMachine
from rulebook.compiler.emit_stmt import charge_run
from rulebook.compiler.unit_locals import in_nested_scope
from rulebook.validator.ir import S, Template, walk

DIRECT_DEPTH = 64  # frames on the stack below which a unit runs the frame it pushes itself


class UnitWriter:
    """Writes one framed unit's statements into ``code`` (a
    ``compiler.code.Code``), its blocks counted by ``machine``."""

    def __init__(self, code, an):
        self.c = code
        self.an = an
        self.machine = StateMachine(code)

    # ------------------------------------------------------------ statements
    def seq(self, body) -> None:
        for s in body:
            with self.c.at(s.where):
                if self.an.stmt_susp(s):
                    getattr(self, "u_" + s.op)(*s.a)
                else:
                    self.c.stmts([s])

    def resume_after(self) -> None:
        """The current statement may have pushed frames (a call, triggers as
        frames): run them, and go on here after them."""
        lab = self.machine.label()
        self.run_pushed(lab)
        self.machine.jump(lab)
        self.machine.start(lab)

    def call_frame(self, uid: int, frame: str) -> None:
        """Push the frame of unit ``uid`` (its source ``frame``) and run it
        here (see ``run_pushed``); go on after it."""
        c = self.c
        lab = self.machine.label()
        c.line(f"_top = {frame}")
        c.line("st.stack.append(_top)")
        c.line(f"fr[1] = {self.machine.ref(lab)}")
        c.line(f"if len(st.stack) > {DIRECT_DEPTH}: return None")
        c.line(f"_r = UNITS[{uid}](st, _top)")
        c.line("if _r is not None or (st.stack or NONE1)[-1] is not fr: return _r")
        self.machine.jump(lab)
        self.machine.start(lab)

    def run_pushed(self, lab: Label) -> None:
        """Run the frame just pushed, if any, here rather than from the run
        loop: when it finishes without a decision, this unit goes on at
        ``lab`` with no return to the loop (the common case in playouts,
        where questions are answered where they are asked). When it stops
        at a decision, ends the game or leaves other frames on the stack,
        this unit returns as a unit does, to resume at ``lab`` from the loop.
        Below ``DIRECT_DEPTH`` frames only: deeper, the run loop runs them,
        so Python's own stack stays shallow whatever ``max_stack`` allows."""
        c = self.c
        c.line(f"fr[1] = {self.machine.ref(lab)}")
        c.line("_top = st.stack[-1]")
        c.line("if _top is not fr:")
        with c.block():
            c.line(f"if len(st.stack) > {DIRECT_DEPTH}: return None")
            c.line("_r = UNITS[_top[0]](st, _top)")
            c.line("if _r is not None or (st.stack or NONE1)[-1] is not fr: return _r")

    def u_call(self, unit, args, result=None):
        c = self.c
        uid = c.m.unit_ids[unit]
        u = c.m.checked.units[unit]
        c.line(f"if len(st.stack) + st.depth >= {c.limit('max_stack')}: too_deep(st, {c.const(c.where)})")
        charge_run(c, unit)
        new = ["L[0]"] + [c.ex(a) for a in args]
        if u.ret_slot >= 0:  # it returns a value: the slot it goes to (None: not wanted)
            new.append(repr(result))
        self.call_frame(uid, f"[{uid}, 0, {frame_locals(new, u.nlocals)}]")
        if u.ret_slot >= 0 and result is not None:  # the callee wrote it into this frame: read it from there
            c.line(f"L[{result}] = fr[2][{result}]")

    def u_emit(self, event, fields):
        self.c.s_emit(event, fields)
        self.resume_after()

    def u_move(self, *a):
        self.c.s_move(*a)
        self.resume_after()

    def u_draw(self, *a):
        self.c.s_draw(*a)
        self.resume_after()

    def u_deal(self, *a):
        self.c.s_deal(*a)
        self.resume_after()

    def u_remove(self, *a):
        self.c.s_remove(*a)
        self.resume_after()

    def u_create(self, *a):
        self.c.s_create(*a)
        self.resume_after()

    def u_if(self, branches, orelse):
        c = self.c
        join = self.machine.label()
        targets = []
        for i, (cond, _body, where) in enumerate(branches):
            lab = self.machine.label()
            targets.append(lab)
            c.line(f"{'if' if i == 0 else 'elif'} {c.ex(cond)}:", where)
            with c.block():
                self.machine.jump(lab)  # the branches end the block
        other = self.machine.label()
        c.line("else:")
        with c.block():
            self.machine.jump(other)
        for lab, (_c, body, _w) in zip(targets, branches):
            self.machine.start(lab)
            self.seq(body)
            self.machine.jump(join)
        self.machine.start(other)
        self.seq(orelse)
        self.machine.jump(join)
        self.machine.start(join)

    def u_for(self, var, items, body, list_slot, idx):
        c = self.c
        c.line(f"L[{list_slot}] = {c.snapshot(items)}")  # a snapshot: the loop is not disturbed by moves
        c.loop_charge(body, f"len(L[{list_slot}])")
        c.line(f"L[{idx}] = 0")
        head, end = self.machine.loop_head(), self.machine.label()
        c.line(f"if L[{idx}] >= len(L[{list_slot}]):")
        with c.block():
            c.line(f"pc = {self.machine.ref(end)}; continue")
        c.line(f"L[{var}] = L[{list_slot}][L[{idx}]]")
        c.line(f"L[{idx}] += 1")
        self.seq(body)
        c.line(f"pc = {self.machine.ref(head)}; continue")
        self.machine.start(end)

    def u_repeat(self, count, body, left):
        c = self.c
        c.line(f"L[{left}] = {c.ex(count)}")
        head, end = self.machine.loop_head(), self.machine.label()
        c.line(f"if L[{left}] <= 0:")
        with c.block():
            c.line(f"pc = {self.machine.ref(end)}; continue")
        c.line(f"L[{left}] -= 1")
        c.loop_charge(body)
        self.seq(body)
        c.line(f"pc = {self.machine.ref(head)}; continue")
        self.machine.start(end)

    def u_while(self, cond, body):
        c = self.c
        head, end = self.machine.loop_head(), self.machine.label()
        c.line(f"if not {c.ex(cond)}:")
        with c.block():
            c.line(f"pc = {self.machine.ref(end)}; continue")
        c.loop_charge(body)
        self.seq(body)
        c.line(f"pc = {self.machine.ref(head)}; continue")
        self.machine.start(end)

    # ------------------------------------------------------------ decisions
    def ask(self) -> Label:
        """Start the block that asks a question (its own block, so that the
        question can be asked again); return the label of its answer."""
        self.machine.goto_new()
        return self.machine.label()

    def suspend(self, answer: Label) -> None:
        self.machine.questions.append((answer, self.c.where))
        self.c.line(f"fr[1] = {self.machine.ref(answer)}")
        self.c.line("return SUSPEND")
        self.machine.start(answer)

    def auto_answer(self, target: str, answer: Label, call: str, memo: bool = False) -> None:
        """In an engine playout (``st.auto``, interpreter/playout.py) the
        question is answered here, without suspending: the end rules are
        tried as the run loop tries them before every decision, the answer
        is drawn and recorded, and the unit goes on at ``answer``. With
        ``memo``, the values kept while the decision was made are dropped
        before the answer (interpreter/memo.py)."""
        c = self.c
        c.line("if st.auto is not None:")
        with c.block():
            c.end_rules_first()
            if memo:
                c.line("st.memo = None")
            c.line(f"{target} = {call}")
            c.line(f"pc = {self.machine.ref(answer)}; continue")

    def labels_of(self, label: Template, slot: int, options: str) -> str:
        """Source of the list of option labels: the template with the chosen
        name bound to each option, the parameter of a lambda (the unit's
        locals are not touched: the answer sets the name)."""
        c = self.c
        outer = c.bound.get(slot)
        name = c.local(slot, bind=True)
        try:
            return f"option_labels({options}, lambda {name}: {c.render(label)})"
        finally:
            if outer is None:
                del c.bound[slot]
            else:
                c.bound[slot] = outer

    def u_choose(self, slot, opts, chooser, optional, prompt, prompt_tpl, label, within, tag, name, public=False):
        c = self.c
        answer = self.ask()
        w = c.const(c.where)
        c.line(f"options = {c.snapshot(opts)}")
        if optional:
            c.line("options.append(None)")
        c.line("if not options:")
        with c.block():
            c.end_rules_first()
            c.line(f"raise no_options({name!r}, {w})")
        who = c.ex(chooser) if chooser is not None else "L[0]"
        c.line(f"who = {who}")
        c.line(f"if who.__class__ is not int or not 0 <= who < st.n: deciding_player(st, who, {name!r}, {w})")
        self.auto_answer(f"L[{slot}]", answer, "auto_pick(st, who, options)")
        text = c.render(prompt_tpl) if prompt_tpl is not None else repr(prompt)
        c.line(f"pend = {{'kind': 'choose', 'players': [who], 'options': [options], 'answers': [None], "
               f"'done': [False], 'slot': {slot}, 'prompt': {text}, 'type': {tag!r}{public_key(public)}}}")
        if label is not None:  # an engine playout reads no labels (st.quiet): not made there
            c.line(f"if not st.quiet: pend['labels'] = [{self.labels_of(label, slot, 'options')}]")
        if within is not None:
            c.line(f"seconds = {c.ex(within)}")
            c.line("if seconds: pend['time_limit'] = seconds")
        c.line("st.pending = pend")
        self.suspend(answer)

    def u_simultaneous(self, var, items, opts, chooser, choice, optional, prompt, prompt_tpl, label, within, tag,
                       name, public, list_slot, answers, idx, rest):
        c = self.c
        answer = self.ask()
        w = c.const(c.where)
        c.line(f"values = {c.snapshot(items)}")
        c.line(f"L[{list_slot}] = values")
        c.line(f"L[{idx}] = 0")
        same_limit = within is not None and not any(n.op == "local" for n in walk(within))
        lists = ["players", "options"] + (["labels"] if label is not None else []) \
            + (["prompts"] if prompt_tpl is not None else []) \
            + (["limits"] if within is not None and not same_limit else [])
        c.line(f"{', '.join(lists)} = {', '.join('[]' for _ in lists)}")
        if same_limit:  # one time limit for every seat: computed once
            c.line(f"limit = {c.ex(within)} or None")
        c.line("for v in values:")
        with c.block():
            c.line(f"L[{var}] = v")
            c.line(f"o = {c.snapshot(opts)}")
            if within is not None and not same_limit:
                c.line(f"limits.append({c.ex(within)} or None)")
            if prompt_tpl is not None:
                c.line(f"prompts.append({c.render(prompt_tpl)})")
            if optional:
                c.line("o.append(None)")
            c.line("if not o:")
            with c.block():
                c.end_rules_first()
                c.line(f"raise no_options({name!r}, {w})")
            who = c.ex(chooser) if chooser is not None else "L[0]"
            c.line(f"who = {who}")
            c.line(f"if who.__class__ is not int or not 0 <= who < st.n: deciding_player(st, who, {name!r}, {w})")
            c.line("players.append(who)")
            c.line("options.append(o)")
            if label is not None:
                c.line(f"if not st.quiet: labels.append({self.labels_of(label, choice, 'o')})")
        c.line("if not values:")
        with c.block():
            c.line(f"L[{answers}] = []")
            c.line(f"pc = {self.machine.ref(answer)}; continue")
        self.auto_answer(f"L[{answers}]", answer, "auto_all(st, players, options)")
        c.line(f"pend = {{'kind': 'simul', 'players': players, 'options': options, 'answers': [None] * len(values), "
               f"'done': [False] * len(values), 'slot': {answers}, 'prompt': {prompt!r}, 'type': {tag!r}"
               f"{public_key(public)}}}")
        if label is not None:
            c.line("if labels: pend['labels'] = labels")
        if prompt_tpl is not None:
            c.line("pend['prompts'] = prompts")
        if same_limit:
            c.line("if limit: pend['time_limits'] = [limit] * len(values)")
        elif within is not None:
            c.line("if any(limits): pend['time_limits'] = limits")
        c.line("st.pending = pend")
        self.suspend(answer)
        if not self.an.block_susp(rest):  # the rest of the body runs straight through: a Python loop
            c.line(f"answers = L[{answers}]")
            c.line(f"for i, v in enumerate(L[{list_slot}]):")
            with c.block():
                c.line(f"L[{var}] = v")
                c.line(f"L[{choice}] = answers[i]")
                c.line(f"L[{idx}] = i + 1")
                if rest:
                    c.stmts(rest)
            return
        head, end = self.machine.loop_head(), self.machine.label()
        c.line(f"i = L[{idx}]")
        c.line(f"if i >= len(L[{list_slot}]):")
        with c.block():
            c.line(f"pc = {self.machine.ref(end)}; continue")
        c.line(f"L[{var}] = L[{list_slot}][i]")
        c.line(f"L[{choice}] = L[{answers}][i]")
        c.line(f"L[{idx}] = i + 1")
        self.seq(rest)
        c.line(f"pc = {self.machine.ref(head)}; continue")
        self.machine.start(end)

def public_key(public: bool) -> str:
    """The entry of a question's pending dict that makes its answers public (``choose ... public``)."""
    return ", 'public': True" if public else ""


__all__ = ["Label", "UnitWriter", "S", "in_nested_scope"]


def frame_locals(first: list[str], nlocals: int) -> str:
    """Source of a new frame's locals: ``first``, then None up to ``nlocals``,
    written as one list (no list made to be added to another, for a few)."""
    pad = nlocals - len(first)
    if pad > 16:
        return f"[{', '.join(first)}] + [None] * {pad}"
    return "[" + ", ".join(first + ["None"] * max(pad, 0)) + "]"
