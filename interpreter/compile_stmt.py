"""Compile statements into the flat instruction lists that the VM runs.

Control flow becomes jumps; ``choose`` and ``simultaneous for`` become
instructions that suspend the VM with a pending decision. Every instruction
remembers its source position so that a runtime error names its rule.
"""

from __future__ import annotations

from dsl import ast as A
from dsl.parser import VALUE_WORDS
from interpreter import ops
from interpreter.builtins import charge
from interpreter.compile_expr import CompileError, Cx, as_list_fn
from interpreter.errors import BAD_VALUE, EMPTY_ZONE, NO_OPTIONS, RuleError
from interpreter.labels import HIDDEN, HiddenInText, comp_name, describe, literal
from interpreter.program import (
    ANY,
    BOOL,
    COMP,
    ERR,
    INT,
    LIST,
    PLAYER,
    STR,
    Code,
    Type,
    compatible,
    elem_type,
    is_listy,
    join,
)
from interpreter.program import NONE as NONE_T

SUSPEND = 1
STOP = 2


class Emitter:
    def __init__(self, code: Code, file: str):
        self.code = code
        self.file = file

    def emit(self, ins, where: str) -> int:
        self.code.ins.append(ins)
        self.code.where.append(where)
        return len(self.code.ins) - 1

    @property
    def here(self) -> int:
        return len(self.code.ins)


def jump(cell):
    def ins(st, fr):
        fr[1] = cell[0]

    return ins


def jump_if_not(cond, cell):
    def ins(st, fr):
        if not cond(st, fr[2]):
            fr[1] = cell[0]

    return ins


class StmtCompiler:
    """Mixed into the ruleset compiler: ``block(stmts, cx, em)``."""

    def block(self, stmts, cx: Cx, em: Emitter) -> None:
        for s in stmts:
            for name in (getattr(s, "name", None), getattr(s, "var", None)):
                if isinstance(name, str) and name.startswith("_"):
                    self.report("E014", f"'{name}': names starting with '_' are reserved", cx.path, cx.at(s.pos))
                if isinstance(name, str) and name in VALUE_WORDS:
                    self.report("E043", f"'{name}' is a word of the language: rule text would never read it as "
                                "a name", cx.path, cx.at(s.pos), "choose another name")
            try:
                getattr(self, "_s_" + type(s).__name__)(s, cx, em)
            except CompileError:
                # already reported; declare what the statement would have named, with the
                # error type, so that later statements do not report the same mistake again
                for attr in ("name", "var"):
                    name = getattr(s, attr, None)
                    if isinstance(name, str) and cx.scope.lookup(name) is None:
                        cx.scope.declare(name, ERR)
                if isinstance(s, A.SimultaneousStmt) and s.body and isinstance(s.body[0], A.ChooseStmt):
                    cx.scope.declare(s.body[0].name, ERR)

    # ------------------------------------------------------------ simple
    def _s_PassStmt(self, s, cx, em):
        pass

    def _s_LetStmt(self, s, cx, em):
        fn, t = self.expr(s.value, cx)
        if s.type is not None:  # let name: type = value
            from interpreter.compile_ruleset import parse_type
            from validator.diagnostics import did_you_mean

            declared = parse_type(s.type, self.comp_types)
            if declared is None:
                known = ["int", "bool", "str", "player", "zone", "component", "any", *self.comp_types]
                cx.error("E039", f"unknown type '{s.type}'", s.pos,
                         did_you_mean(s.type.split()[-1], known) or f"types: {', '.join(known)}, list of <type>")
            fits = (
                declared.kind in ("list", "any") if t == LIST(NONE_T)  # [] fits a list
                else declared.kind in ("comp", "player", "zone", "any") if t.kind == "none"  # none: no component
                else compatible(declared, t)
            )
            if not fits:
                cx.error("E041", f"'{s.name}' is declared {declared}, and this is {t}", s.value.pos)
            if declared.kind == "list" and t.kind == "zone":
                fn = as_list_fn(fn, t)  # a zone's components, as a list
            t = declared
        elif t == LIST(NONE_T):
            t = LIST(ANY)  # an empty list to be filled: its items may be of any type
        slot = cx.scope.declare(s.name, t)

        def let(st, fr):
            fr[2][slot] = fn(st, fr[2])

        em.emit(let, cx.where(s.pos))

    def _s_SetStmt(self, s, cx, em):
        value, vt = self.expr(s.value, cx)
        op = s.op
        get, put, tt = self.target(s.target, cx)
        if s.target.obj is None and s.target.name == "direction" and cx.scope.lookup("direction") is None:
            put = _direction_put(put, cx.where(s.pos))
        if op != "=" and tt.kind not in ("int", "any", "error"):
            cx.error("E041", f"'{op}' needs a number, and this is {tt}", s.pos)
        if op == "=" and not compatible(tt, vt) and vt.kind != "none":
            cx.error("E041", f"cannot set {tt} to {vt}", s.value.pos)
        if op == "=" and vt.kind == "none" and tt.kind in ("int", "bool", "list"):  # as 'let x: int = none' is refused
            cx.error("E041", f"cannot set {tt} to none", s.value.pos,
                     "use a value of its type that stands for 'nothing' (0, -1, false, [])")
        if op == "=":

            def setter(st, fr):
                put(st, fr[2], value(st, fr[2]))
        elif op == "+=":

            def setter(st, fr):
                L = fr[2]
                put(st, L, get(st, L) + value(st, L))
        elif op == "-=":

            def setter(st, fr):
                L = fr[2]
                put(st, L, get(st, L) - value(st, L))
        else:

            def setter(st, fr):
                L = fr[2]
                put(st, L, get(st, L) * value(st, L))

        em.emit(setter, cx.where(s.pos))

    def target(self, t: A.Target, cx: Cx):
        """(getter, putter, type) for an assignable place."""
        name = t.name
        if t.obj is None:
            local = cx.scope.lookup(name)
            if local is not None and name != "player":
                slot, lt = local

                def put_local(st, L, v):
                    L[slot] = v

                return (lambda st, L: L[slot]), put_local, lt
            if name in self.var_types:

                def put_var(st, L, v):
                    st.vars[name] = v

                return (lambda st, L: st.vars[name]), put_var, self.var_types[name]
            if name in self.param_types:
                cx.error(
                    "E042",
                    f"'{name}' is a parameter and cannot change during a game",
                    t.pos,
                    "declare a variable under vars instead",
                )
            from validator.diagnostics import did_you_mean

            cx.error(
                "E030",
                f"unknown variable '{name}'",
                t.pos,
                did_you_mean(name, list(self.var_types) + list(cx.scope.names)) or "declare it under vars",
                len(name),
            )
        obj, ot = self.expr(t.obj, cx)
        if ot.kind == "player":
            if name not in self.pvar_types:
                from validator.diagnostics import did_you_mean

                cx.error(
                    "E032",
                    f"players have no variable '{name}'",
                    t.pos,
                    did_you_mean(name, self.pvar_types) or "declare it under player_vars",
                    len(name),
                )

            def put_pvar(st, L, v):
                st.pvars[obj(st, L)][name] = v

            return (lambda st, L: st.pvars[obj(st, L)][name]), put_pvar, self.pvar_types[name]
        if ot.kind == "comp":
            types = [self.comp_types[ot.arg]] if ot.arg else list(self.comp_types.values())
            if name == "owner":

                def put_owner(st, L, v):
                    st.owner[obj(st, L)] = v

                return (lambda st, L: st.owner[obj(st, L)]), put_owner, PLAYER
            for ct in types:
                if name in ct.dynamic:

                    def put_prop(st, L, v):
                        st.props[obj(st, L)][name] = v

                    return (lambda st, L: st.props[obj(st, L)][name]), put_prop, ct.dynamic[name]
            for ct in types:
                if name in ct.static:
                    cx.error(
                        "E042",
                        f"'{name}' is a fixed property of '{ct.name}'",
                        t.pos,
                        "properties that change during a game are declared under the type's 'state'",
                    )
            cx.error("E032", f"'{ot.arg or 'component'}' has no property '{name}'", t.pos)
        if ot.kind == "error":  # already reported where the value went wrong
            raise CompileError("")
        hint = None
        if ot.kind == "zone" or (ot.kind == "list" and ot.arg and ot.arg.kind == "comp"):
            hint = f"set it on each component: for c in ...: set c.{name} = ..."
        cx.error("E042", f"cannot assign to a property of {ot}", t.pos, hint)

    def _s_AppendStmt(self, s, cx, em):
        value, _ = self.expr(s.value, cx)
        get, put, tt = self.target(s.target, cx)
        if tt.kind not in ("list", "any", "error"):
            cx.error("E041", f"append needs a list, and this is {tt}", s.target.pos)

        def append(st, fr):
            L = fr[2]
            put(st, L, get(st, L) + [value(st, L)])  # a new list: stored lists are never mutated

        em.emit(append, cx.where(s.pos))

    def _s_DiscardStmt(self, s, cx, em):
        value, _ = self.expr(s.value, cx)
        get, put, tt = self.target(s.target, cx)
        if tt.kind not in ("list", "any", "error"):
            cx.error("E041", f"discard needs a list, and this is {tt}", s.target.pos)

        def discard(st, fr):
            L = fr[2]
            items = list(get(st, L))
            v = value(st, L)
            if v in items:
                items.remove(v)
            put(st, L, items)

        em.emit(discard, cx.where(s.pos))

    # ------------------------------------------------------------ components
    def comps(self, node, cx, what):
        fn, t = self.expr(node, cx)
        if t.kind == "zone":
            return (lambda st, L: list(st.zones[fn(st, L)])), COMP(t.arg)
        if t.kind == "list":
            if t.arg.kind not in ("comp", "any", "error"):
                cx.error("E041", f"{what} needs components, not {t}", node.pos)
            return (lambda st, L: list(fn(st, L))), t.arg
        if t.kind in ("comp", "any", "error", "none"):
            return (lambda st, L: ops.as_list(fn(st, L))), t
        cx.error("E041", f"{what} needs a component or a list of them, not {t}", node.pos)

    def zone_arg(self, node, cx, what):
        fn, t = self.expr(node, cx)
        if t.kind == "family":
            cx.error(
                "E045",
                f"zone '{t.arg}' is one per {self.families[t.arg].per}: say whose, e.g. {t.arg}[player]",
                node.pos,
            )
        if t.kind not in ("zone", "any", "error"):
            cx.error("E041", f"{what} must be a zone, not {t}", node.pos)
        return fn, t

    def _s_MoveStmt(self, s, cx, em):
        what, _ = self.comps(s.what, cx, "move")
        dest, _ = self.zone_arg(s.dest, cx, "the destination of move")
        position, face = s.position, s.face

        def move(st, fr):
            L = fr[2]
            z = dest(st, L)
            items = what(st, L)
            if len(items) == 1:
                if items[0] is not None:
                    ops.move(st, items[0], z, position, face)
                return
            moved = [ops.move(st, c, z, position, face, fire_now=False) for c in items if c is not None]
            if "moved" in st.prog.triggers:
                ops.fire_in_order(st, moved)

        em.emit(move, cx.where(s.pos))

    def _s_DrawStmt(self, s, cx, em):
        count = self.expect(s.count, cx, INT, "the number of cards to draw") if s.count else None
        src, _ = self.zone_arg(s.source, cx, "draw ... from")
        dest, _ = self.zone_arg(s.dest, cx, "draw ... to")
        face = s.face

        def draw(st, fr):
            L = fr[2]
            z = src(st, L)
            d = dest(st, L)
            k = count(st, L) if count else 1
            moved = []
            if d == z:  # top to bottom of the same zone: a card can come round again, so count the work
                charge(st, max(k, 0))
            for _ in range(k):
                zone = st.zones[z]
                if not zone:
                    break  # drawing from an empty zone draws nothing
                moved.append(ops.move(st, zone[0], d, "top" if d != z else "bottom", face, fire_now=False))
            if moved and "moved" in st.prog.triggers:
                ops.fire_in_order(st, moved)

        em.emit(draw, cx.where(s.pos))

    def _s_DealStmt(self, s, cx, em):
        count = self.expect(s.count, cx, INT, "the number of cards to deal")
        src, _ = self.zone_arg(s.source, cx, "deal ... from")
        fam = self.families.get(s.family)
        if fam is None:
            from validator.diagnostics import did_you_mean

            cx.error(
                "E031", f"unknown zone '{s.family}'", s.family_pos, did_you_mean(s.family, self.families), len(s.family)
            )
        self.used_zones.add(s.family)
        if fam.per is None:
            cx.error(
                "E041",
                f"deal gives each player (or component) a share; '{s.family}' is one shared zone",
                s.family_pos,
                f"to put cards in '{s.family}', write: draw N from ... to {s.family}",
            )
        if fam.per != "player" and s.recipients is None:
            cx.error(
                "E041",
                f"deal goes to a zone kept one per player; '{s.family}' is not",
                s.family_pos,
                "add 'for <list of components>' to deal to one zone per component",
            )
        if s.recipients is not None:
            recips, rt = self.listy(s.recipients, cx, "deal ... for")
        else:
            recips, rt = (lambda st, L: ops.seat_order(st, 0)), PLAYER  # noqa: E731
        # each recipient's zone is found as 'family[recipient]' is, with the same checks: the
        # recipients' type at load (E041), a seat or component that is not one at run time (R104)
        held = " deal recipient"  # a name rule text cannot write
        slot = cx.scope.fresh(held, rt)
        try:
            zone_of, _ = self.zone_of_family(s.family, A.Name(held, (s.recipients or s).pos), s, cx)
        finally:
            del cx.scope.names[held]

        def deal(st, fr):
            L = fr[2]
            z = src(st, L)
            who = recips(st, L)
            moved = []
            targets = []
            for r in who:
                L[slot] = r
                targets.append(zone_of(st, L))
            rounds = count(st, L) if targets else 0
            if z in targets:  # dealing from one of the receiving zones: cards can come round again
                charge(st, max(rounds, 0) * len(targets))
            for _ in range(rounds):
                for target in targets:
                    zone = st.zones[z]
                    if not zone:
                        break
                    moved.append(ops.move(st, zone[0], target, fire_now=False))
                if not st.zones[z]:
                    break  # the source is empty: the deal is over, however many rounds were asked for
            if moved and "moved" in st.prog.triggers:
                ops.fire_in_order(st, moved)

        em.emit(deal, cx.where(s.pos))

    def _s_ShuffleStmt(self, s, cx, em):
        z, _ = self.zone_arg(s.zone, cx, "shuffle")

        def shuffle(st, fr):
            ops.shuffle(st, z(st, fr[2]))

        em.emit(shuffle, cx.where(s.pos))

    def _s_RevealStmt(self, s, cx, em):
        what, _ = self.comps(s.what, cx, "reveal")
        if s.to is None:

            def reveal(st, fr):
                for c in what(st, fr[2]):
                    if st.record and not st.face[c]:  # named now: its face may change once hidden again
                        st.events.append(("reveal", c, None, comp_name(st, c)))
                    st.face[c] = True
                    if st.prog.top_piles:  # a face-up pile keeps only its top face up
                        ops.show_top(st, st.loc[c])

            em.emit(reveal, cx.where(s.pos))
            return
        to_fn, tt = self.expr(s.to, cx)
        if tt.kind in ("player", "int"):
            to = lambda st, L: [to_fn(st, L)]  # noqa: E731
        elif tt.kind in ("list", "any", "error") and elem_type(tt).kind in ("player", "int", "any", "error", "none"):
            to = to_fn
        else:
            cx.error("E041", f"reveal ... to needs a player or a list of players, not {tt}", s.to.pos)

        def reveal_to(st, fr):
            L = fr[2]
            who = to(st, L)
            for c in what(st, L):
                known = st.known.get(c, [])
                st.known[c] = known + [p for p in who if p not in known]
                if st.record:
                    st.events.append(("reveal", c, list(who), comp_name(st, c)))

        em.emit(reveal_to, cx.where(s.pos))

    def _s_HideStmt(self, s, cx, em):
        what, _ = self.comps(s.what, cx, "hide")

        def hide(st, fr):
            for c in what(st, fr[2]):
                st.face[c] = False
                st.known.pop(c, None)
                if st.prog.top_piles:  # a face-up pile keeps only its top face up
                    ops.show_top(st, st.loc[c])

        em.emit(hide, cx.where(s.pos))

    def _s_RemoveStmt(self, s, cx, em):
        what, _ = self.comps(s.what, cx, "remove")

        def remove(st, fr):
            moved = [ops.move(st, c, ops.BOX, fire_now=False) for c in what(st, fr[2]) if c is not None]
            if moved and "moved" in st.prog.triggers:
                ops.fire_in_order(st, moved)

        em.emit(remove, cx.where(s.pos))

    def _s_CreateStmt(self, s, cx, em):
        ct = self.comp_types.get(s.type_name)
        if ct is None:
            from validator.diagnostics import did_you_mean

            cx.error(
                "E039",
                f"unknown component type '{s.type_name}'",
                s.type_pos,
                did_you_mean(s.type_name, self.comp_types),
                len(s.type_name),
            )
        zone, _ = self.zone_arg(s.zone, cx, "create ... in")
        props = []
        for kw in s.props:
            if kw.name not in ct.static:
                cx.error("E032", f"'{ct.name}' has no property '{kw.name}'", kw.pos, None)
            fn, t = self.expr(kw.value, cx)
            want = ct.static[kw.name]
            if not compatible(want, t) and t.kind != "none":  # as 'set' checks a value against its place
                cx.error("E041", f"'{ct.name}' property '{kw.name}' is {want}, and this is {t}", kw.value.pos)
            props.append((kw.name, fn))
        missing = set(ct.static) - {k for k, _ in props}
        if missing:
            cx.error("E046", f"create {ct.name} needs {', '.join(sorted(missing))}", s.pos)
        slot = cx.scope.declare(s.name, COMP(ct.name)) if s.name else None
        initial = ct.initial
        type_name = ct.name
        limit = self.limits["max_components"]
        where = cx.where(s.pos)

        def create(st, fr):
            L = fr[2]
            c = len(st.static)
            if c >= limit:
                raise RuleError("R107", f"more than {limit} components", where)
            static = {k: f(st, L) for k, f in props}
            static["type"] = type_name
            st.static = st.static + [static]  # copy on write: clones share the old list
            st.props.append({k: f(st, static) for k, f in initial.items()} if initial else None)
            st.owner.append(None)
            st.loc.append(ops.BOX)
            st.face.append(True)
            ops.add_comp_zones(st, c, type_name)
            ops.move(st, c, zone(st, L))
            if slot is not None:
                L[slot] = c

        em.emit(create, cx.where(s.pos))

    def _s_SwapStmt(self, s, cx, em):
        a, at = self.expr(s.first, cx)
        b, bt = self.expr(s.second, cx)
        for node, t in ((s.first, at), (s.second, bt)):
            if t.kind not in ("comp", "any", "error"):
                cx.error("E041", f"swap exchanges the places of two components, not {t}", node.pos)

        def swap(st, fr):
            L = fr[2]
            x, y = a(st, L), b(st, L)
            zx, zy = st.loc[x], st.loc[y]
            ix, iy = st.zones[zx].index(x), st.zones[zy].index(y)
            st.zones[zx][ix], st.zones[zy][iy] = y, x
            st.loc[x], st.loc[y] = zy, zx
            if st.prog.top_piles:
                ops.show_top(st, zx)
                ops.show_top(st, zy)

        em.emit(swap, cx.where(s.pos))

    # ------------------------------------------------------------ decisions
    def _s_ChooseStmt(self, s, cx, em):
        opts, et = self.listy(s.options, cx, "choose ... from")
        chooser = self.expect(s.chooser, cx, PLAYER, "choose ... by") if s.chooser else (lambda st, L: L[0])
        slot = cx.scope.declare(s.name, et)
        optional = s.optional
        prompt = s.prompt or f"choose {s.name}"
        where = cx.where(s.pos)
        etype = et
        label = None
        if s.label is not None:
            label = self.template_parts(s.label, cx, s.label_pos[0], s.label_pos[1] + 1, "the label of choose")
        prompt_parts = None
        if s.prompt is not None and "{" in s.prompt:
            prompt_parts = self.template_parts(s.prompt, cx, s.prompt_pos[0], s.prompt_pos[1] + 1, "the prompt")
        within = self.expect(s.within, cx, INT, "choose ... within") if s.within is not None else None

        def choose(st, fr):
            L = fr[2]
            options = list(opts(st, L))
            if optional:
                options.append(None)
            if not options:
                if game_ended(st):
                    return STOP
                raise RuleError(
                    NO_OPTIONS,
                    f"nothing to choose from for '{s.name}'",
                    where,
                    "guard the choice with an if, or add 'optional'",
                )
            who = deciding_player(st, chooser(st, L), s.name, where)
            text = prompt
            if prompt_parts is not None:
                text = render(st, L, prompt_parts)
            pend = {
                "kind": "choose",
                "players": [who],
                "options": [options],
                "answers": [None],
                "done": [False],
                "slot": slot,
                "prompt": text,
                "type": _type_tag(etype),
            }
            if label is not None:
                pend["labels"] = [option_labels(st, L, slot, options, label)]
            if within is not None:
                seconds = within(st, L)
                if seconds:
                    pend["time_limit"] = seconds
            st.pending = pend
            return SUSPEND

        em.emit(choose, where)

    def _s_SimultaneousStmt(self, s, cx, em):
        if not s.body or not isinstance(s.body[0], A.ChooseStmt):
            cx.error(
                "E044",
                "the body of 'simultaneous for' must start with a choose",
                s.pos,
                "simultaneous for p in players:\n    choose c from hand[p] by p",
            )
        items, it = self.listy(s.iterable, cx, "simultaneous for ... in")
        var = cx.scope.declare(s.var, it)
        first: A.ChooseStmt = s.body[0]
        opts, et = self.listy(first.options, cx, "choose ... from")
        chooser = self.expect(first.chooser, cx, PLAYER, "choose ... by") if first.chooser else (lambda st, L: L[0])
        choice = cx.scope.declare(first.name, et)
        list_slot, answers, idx = cx.scope.temp(), cx.scope.temp(), cx.scope.temp()
        optional = first.optional
        prompt = first.prompt or f"choose {first.name}"
        where = cx.where(s.pos)
        label = prompt_parts = None
        if first.label is not None:
            label = self.template_parts(
                first.label, cx, first.label_pos[0], first.label_pos[1] + 1, "the label of choose"
            )
        if first.prompt is not None and "{" in first.prompt:
            prompt_parts = self.template_parts(
                first.prompt, cx, first.prompt_pos[0], first.prompt_pos[1] + 1, "the prompt"
            )
        within = self.expect(first.within, cx, INT, "choose ... within") if first.within is not None else None

        def collect(st, fr):
            L = fr[2]
            values = list(items(st, L))
            L[list_slot] = values
            L[idx] = 0
            players, options, labels, prompts, limits = [], [], [], [], []
            for v in values:
                L[var] = v
                o = list(opts(st, L))
                if within is not None:
                    limits.append(within(st, L) or None)
                if prompt_parts is not None:
                    prompts.append(render(st, L, prompt_parts))
                if optional:
                    o.append(None)
                if not o:
                    if game_ended(st):
                        return STOP
                    raise RuleError(NO_OPTIONS, f"nothing to choose from for '{first.name}'", where)
                players.append(deciding_player(st, chooser(st, L), first.name, where))
                options.append(o)
                if label is not None:
                    labels.append(option_labels(st, L, choice, o, label))
            if not values:
                L[answers] = []
                return None
            pend = {
                "kind": "simul",
                "players": players,
                "options": options,
                "answers": [None] * len(values),
                "done": [False] * len(values),
                "slot": answers,
                "prompt": prompt,
                "type": _type_tag(et),
            }
            if labels:
                pend["labels"] = labels
            if prompts:
                pend["prompts"] = prompts
            if any(limits):  # each chooser's own seconds
                pend["time_limits"] = limits
            st.pending = pend
            return SUSPEND

        em.emit(collect, where)
        end = [0]
        head = em.here

        def next_item(st, fr):
            L = fr[2]
            i = L[idx]
            if i >= len(L[list_slot]):
                fr[1] = end[0]
                return
            L[var] = L[list_slot][i]
            L[choice] = L[answers][i]
            L[idx] = i + 1

        em.emit(next_item, where)
        self.block(s.body[1:], cx, em)
        em.emit(jump([head]), where)
        end[0] = em.here

    # ------------------------------------------------------------ flow
    def _s_IfStmt(self, s, cx, em):
        ends = []
        for cond_node, body in s.branches:
            cond = self.cond(cond_node, cx)
            skip = [0]
            em.emit(jump_if_not(cond, skip), cx.where(cond_node.pos))
            self.block(body, cx, em)
            out = [0]
            ends.append(out)
            em.emit(jump(out), cx.where(s.pos))
            skip[0] = em.here
        self.block(s.orelse, cx, em)
        for out in ends:
            out[0] = em.here

    def _s_ForStmt(self, s, cx, em):
        items, it = self.listy(s.iterable, cx, "for ... in")
        var = cx.scope.declare(s.var, it)
        list_slot, idx = cx.scope.temp(), cx.scope.temp()
        where = cx.where(s.pos)

        def init(st, fr):
            L = fr[2]
            L[list_slot] = list(items(st, L))  # a snapshot: the loop is not disturbed by moves
            L[idx] = 0

        em.emit(init, where)
        end = [0]
        head = em.here

        def step(st, fr):
            L = fr[2]
            i = L[idx]
            values = L[list_slot]
            if i >= len(values):
                fr[1] = end[0]
                return
            L[var] = values[i]
            L[idx] = i + 1

        em.emit(step, where)
        self.block(s.body, cx, em)
        em.emit(jump([head]), where)
        end[0] = em.here

    def _s_RepeatStmt(self, s, cx, em):
        count = self.expect(s.count, cx, INT, "repeat")
        left = cx.scope.temp()
        where = cx.where(s.pos)

        def init(st, fr):
            fr[2][left] = count(st, fr[2])

        em.emit(init, where)
        end = [0]
        head = em.here

        def step(st, fr):
            L = fr[2]
            if L[left] <= 0:
                fr[1] = end[0]
                return
            L[left] -= 1

        em.emit(step, where)
        self.block(s.body, cx, em)
        em.emit(jump([head]), where)
        end[0] = em.here

    def _s_WhileStmt(self, s, cx, em):
        cond = self.cond(s.cond, cx)
        end = [0]
        head = em.here
        em.emit(jump_if_not(cond, end), cx.where(s.pos))
        self.block(s.body, cx, em)
        em.emit(jump([head]), cx.where(s.pos))
        end[0] = em.here

    def _s_ReturnStmt(self, s, cx, em):
        def ret(st, fr):
            fr[1] = 1 << 30

        em.emit(ret, cx.where(s.pos))

    def _s_CallStmt(self, s, cx, em):
        proc = self.procedures.get(s.func)
        if proc is None:
            if s.func in self.functions:
                cx.error("E044", f"'{s.func}' is a function: use its value, e.g. let x = {s.func}(...)", s.pos)
            from interpreter.builtins import BUILTINS
            from validator.diagnostics import did_you_mean

            cx.error(
                "E037",
                f"unknown procedure '{s.func}'",
                s.pos,
                did_you_mean(s.func, self.procedures)
                if s.func not in BUILTINS
                else f"'{s.func}' is a function and gives a value; use it inside an expression",
                len(s.func),
            )
        self.used_procs.add(s.func)
        code, params = proc
        self.unit_calls.setdefault(cx.scope.code.name, set()).add(code.name)
        if len(s.args) != len(params):
            cx.error(
                "E040",
                f"{s.func}() takes {len(params)} argument{'s' if len(params) != 1 else ''}, {len(s.args)} given",
                s.pos,
                length=len(s.func),
            )
        args = [self.expect(a, cx, pt, f"argument '{pn}' of {s.func}()") for (pn, pt), a in zip(params, s.args)]
        where = cx.where(s.pos)
        limit = self.limits["max_stack"]

        def call(st, fr):
            L = fr[2]
            if len(st.stack) >= limit:
                raise RuleError(
                    "R105",
                    f"procedures nested more than {limit} deep",
                    where,
                    "a procedure probably calls itself without end",
                )
            new = [L[0]] + [f(st, L) for f in args] + [None] * (code.nlocals - 1 - len(args))
            st.stack.append([code.id, 0, new])

        em.emit(call, where)

    def _s_EmitStmt(self, s, cx, em):
        fields = self.events.get(s.event)
        if fields is None:
            from validator.diagnostics import did_you_mean

            cx.error(
                "E038",
                f"unknown event '{s.event}'",
                s.event_pos,
                did_you_mean(s.event, self.events) or "declare it under events",
                len(s.event),
            )
        self.emitted.add(s.event)
        args = []
        given = set()
        for kw in s.args:
            if kw.name not in fields:
                from validator.diagnostics import did_you_mean

                cx.error("E046", f"event '{s.event}' has no field '{kw.name}'", kw.pos, did_you_mean(kw.name, fields))
            args.append((kw.name, self.expect(kw.value, cx, fields[kw.name], f"field '{kw.name}'")))
            given.add(kw.name)
        missing = set(fields) - given
        if missing:
            cx.error("E046", f"emit {s.event} needs {', '.join(sorted(missing))}", s.pos)
        name = s.event

        def emit(st, fr):
            L = fr[2]
            ops.fire(st, name, {k: f(st, L) for k, f in args})

        em.emit(emit, cx.where(s.pos))

    def _s_EndGameStmt(self, s, cx, em):
        winners = self.expect(s.winners, cx, LIST(PLAYER), "end game winners") if s.winners else None
        self.unit_ends.add(cx.scope.code.name)

        where = cx.where(s.pos)

        def end_game(st, fr):
            from interpreter.vm import finish

            if winners:
                named = winners(st, fr[2])
                for w in named:
                    seat_of(st, w, "end game winners", where, none=True)
                finish(st, named)
            else:
                finish(st, None)
            return STOP

        em.emit(end_game, cx.where(s.pos))

    def _s_EndTurnStmt(self, s, cx, em):
        def end_turn(st, fr):
            st.end_turn = True

        em.emit(end_turn, cx.where(s.pos))

    def _s_EndPhaseStmt(self, s, cx, em):
        def end_phase(st, fr):
            st.end_phase = True
            st.end_turn = True

        em.emit(end_phase, cx.where(s.pos))

    def _s_PassTurnStmt(self, s, cx, em):
        p = self.expect(s.player, cx, PLAYER, "pass turn to")

        where = cx.where(s.pos)

        def pass_turn(st, fr):
            st.pass_to = seat_of(st, p(st, fr[2]), "pass turn to", where, none=True)
            st.end_turn = True

        em.emit(pass_turn, cx.where(s.pos))

    def _s_EliminateStmt(self, s, cx, em):
        p = self.expect(s.player, cx, PLAYER, "eliminate")

        where = cx.where(s.pos)

        def eliminate(st, fr):
            q = seat_of(st, p(st, fr[2]), "eliminate", where, none=True)
            if q is not None:
                st.eliminated[q] = True
                if st.record:
                    st.events.append(("eliminate", q))

        em.emit(eliminate, cx.where(s.pos))

    def _s_SayStmt(self, s, cx, em):
        pieces = self.template_parts(s.template, cx, s.text_pos[0], s.text_pos[1] + 1, "the text of say", public=True)

        def say(st, fr):
            if st.record:
                L = fr[2]
                text = render(st, L, pieces, public=True)
                st.events.append(("say", text))

        em.emit(say, cx.where(s.pos))


def _direction_put(put, where: str):
    """The built-in ``direction`` steers the turn order: only 1 and -1 mean
    something (2 would skip seats, 0 would stop the order)."""

    def put_direction(st, L, v):
        if v not in (1, -1) or isinstance(v, bool):
            raise RuleError(BAD_VALUE, f"direction is 1 or -1, not {literal(v)}", where)
        put(st, L, v)

    return put_direction


def seat_of(st, p, what: str, where: str, none: bool = False):
    """``p`` when it is a seat of this game (or ``none``, where that means
    nobody); anything else is the ruleset's error: a seat number outside the
    game would otherwise count from the end of a list (-1) or name nobody."""
    if p is None and none:
        return None
    if type(p) is not int or not 0 <= p < st.n:
        raise RuleError(BAD_VALUE, f"{what} {literal(p)}: there is no such player in a game of {st.n}", where)
    return p


def deciding_player(st, who, name: str, where: str) -> int:
    """The player who must make a choice; a choice with nobody to make it
    (no 'by' where there is no current player) is the ruleset's error."""
    if who is None or not 0 <= who < st.n:
        raise RuleError(NO_OPTIONS, f"no player to make the choice '{name}' (it would be made by {literal(who)})",
                        where, "say who chooses: choose ... by <player>")
    return who


def render(st, L, pieces, public: bool = False) -> str:
    """A compiled text template: literal pieces and (closure, type) pairs.
    ``public``: said to everybody; a piece that reads what a face-down
    component hides (its pieces were compiled in a public context) reads
    "[hidden]"."""
    if not public:
        return "".join(p if t is None else describe(st, p(st, L), t) for p, t in pieces)
    out = []
    for p, t in pieces:
        if t is None:
            out.append(p)
            continue
        try:
            out.append(describe(st, p(st, L), t, True))
        except HiddenInText:
            out.append(HIDDEN)
    return "".join(out)


def option_labels(st, L, slot: int, options: list, pieces) -> list[str]:
    """The label of each option, the chosen name bound to each in turn."""
    out = []
    for v in options:
        if v is None:
            out.append("pass")
            continue
        L[slot] = v
        out.append(render(st, L, pieces))
    return out


def game_ended(st) -> bool:
    """Whether an ``end`` rule ends the game now. They are checked before
    every decision is offered, so a decision with nothing to choose from
    first gives them their chance (e.g. the last stick was just taken)."""
    if not st.prog.end_rules:
        return False
    from interpreter.vm import check_end

    return check_end(st)


def _type_tag(t: Type) -> str:
    """How options of a decision are shown: 'comp', 'player', 'list:comp', ..."""
    if t.kind == "list":
        return "list:" + _type_tag(t.arg)
    return t.kind


__all__ = [
    "StmtCompiler",
    "Emitter",
    "SUSPEND",
    "STOP",
    "jump",
    "jump_if_not",
    "ANY",
    "BOOL",
    "STR",
    "is_listy",
    "as_list_fn",
    "join",
    "EMPTY_ZONE",
    "BAD_VALUE",
    "Type",
]
