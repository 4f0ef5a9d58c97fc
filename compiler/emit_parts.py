"""The parts of a compiled module besides rule blocks: how components are
made, the starting values of variables, definitions, the end rules and the
scoring, and the tables that tell the engine where everything is."""

from __future__ import annotations

import re

from rulebook.compiler.code import Code, without_texts
from rulebook.validator.ir import ROW_COPIES, ComponentRules, Template, walk
from rulebook.validator.types import Type as _Type


def write_component(m, r: ComponentRules) -> None:
    """``make_<type>(st) -> rows``: the fixed properties of each component of
    the type, from its items, its ``for_each`` product or its count, with
    ``props`` computed per row and ``copies`` of each."""
    limit = m.limits["max_components"]
    code = m.add(Code(m, m.name(f"make_{r.name}"), f"components {r.name}", r.slot_names))
    r.make = code.name
    code.line(f"def {code.name}(st):", r.where)
    with code.block():
        locals_ = [code.local(s) for s in range(1, r.nlocals) if s in r.slot_names]
        code.line(f"player = {' = '.join(locals_ + ['None'])}")
        chain = len(code.lines) - 1
        code.line("rows = []")
        if r.items:
            code.line(f"base_rows = [dict(row) for row in {m.const(list(r.items))}]")
        elif r.loops:
            values = [code.ex(x) if x is not None else "[]" for _, _, x in r.loops]
            code.line(f"values = [{', '.join(values)}]")
            code.line("total = 1")
            code.line("for vs in values: total *= max(len(vs), 1)")
            code.line(f"if total > {limit}: raise RuleError('R107', f\"'{r.name}' would make {{total}} components; "
                      f"the limit is {limit}\", {m.const(r.where)})")
            names = [v for v, _, _ in r.loops]
            code.line(f"base_rows = [dict(zip({names!r}, combo)) for combo in itertools.product(*values)]")
        elif r.count is not None:
            code.line(f"n = {code.ex(r.count)}")
            code.line(f"if n < 0: raise RuleError('R104', f\"'{r.name}' count {{n}} is negative\", "
                      f"{m.const(r.count_where or r.where)})")
            code.line(f"if n > {limit}: raise RuleError('R107', f\"'{r.name}' count {{n}} is over the limit of "
                      f"{limit} components\", {m.const(r.where)})")
            code.line("base_rows = [{} for _ in range(n)]")
        else:
            code.line("base_rows = [{}]")
        code.line("for row in base_rows:")
        with code.block():
            for var, slot, _ in r.loops:
                code.line(f"{code.local(slot)} = row.get({var!r})")
            for key, slot in r.item_keys:  # props and copies may read an item's own fields
                code.line(f"{code.local(slot)} = row.get({key!r})")
            for pname, slot, x in r.props:
                code.line(f"{code.local(slot)} = row[{pname!r}] = {code.ex(x) if x is not None else 'None'}")
            if any(isinstance(row, dict) and ROW_COPIES in row for row in r.items):
                # an item that says how many of it there are (a number the validator checked) beats the type's
                code.line(f"k = row.pop({ROW_COPIES!r}, None)")
                code.line("if k is None:")
                with code.block():
                    _type_copies(code, m, r)
                code.line(f"if len(rows) + k > {limit}: raise RuleError('R107', f\"'{r.name}': {{len(rows) + k}} "
                          f"components is over the limit of {limit}\", {m.const(r.where)})")
            else:
                _type_copies(code, m, r)
                code.line(f"if k * len(base_rows) > {limit}: raise RuleError('R107', f\"'{r.name}': {{k}} copies of "
                          f"{{len(base_rows)}} components is over the limit of {limit}\", {m.const(r.where)})")
            code.line("rows.extend(dict(row) for _ in range(k))")
        code.line("return rows")
    if not reads_player(code.lines, chain):  # the chain of locals set to None: without player
        depth, _text, where = code.lines[chain]
        if locals_:
            code.lines[chain] = (depth, f"{' = '.join(locals_ + ['None'])}", where)
        else:
            del code.lines[chain]
    # changing properties: initial values, which may read the fixed ones by name
    r.init_fns = {}
    init = r.initial
    for prop, spec in init["props"].items():
        fname = m.name(f"start_{r.name}_{prop}")
        r.init_fns[prop] = fname
        icode = m.add(Code(m, fname, f"components {r.name} state", init["names"]))
        icode.line(f"def {fname}(st, props):", r.where)
        with icode.block():
            if spec[0] == "value":
                icode.line(f"return {m.const(spec[1])}")
                continue
            icode.line("player = None")
            for k, s in init["slots"].items():
                icode.line(f"{icode.local(s)} = props.get({k!r})")
            icode.line(f"return {icode.ex(spec[1])}")
            drop_unread_player(icode, 1)
    r.fixed_names = fixed_template(r.label) and (r.back_label is None or fixed_template(r.back_label))
    r.label_fn = m.template_function(r.label, f"label_{r.name}", f"components {r.name} label")
    r.back_fn = m.template_function(r.back_label, f"back_{r.name}", f"components {r.name} back_label")
    r.status_fn = m.template_function(r.status, f"status_{r.name}", f"components {r.name} status")


# what a component's name may read and still be the same all game: its fixed properties, constants, the
# game's parameters, and what is made of them
FIXED_OPS = frozenset({"const", "local", "static", "param", "player_count", "list_item", "arith", "neg", "abs",
                       "str_plus", "str", "ifexpr", "return_if", "cmp", "not", "and", "or", "bool", "len"})


def _type_copies(code, m, r: ComponentRules) -> None:
    """``k``: the type's ``copies`` for this row (1 without one); a negative one is R104 at its value."""
    if r.copies is not None:
        code.line(f"k = {code.ex(r.copies)}")
        code.line(f"if k < 0: raise RuleError('R104', f\"'{r.name}': copies {{k}} is negative\", "
                  f"{m.const(r.copies_where or r.where)}, 'a number of components is 0 or more')")
    else:
        code.line("k = 1")


_PLAYER = re.compile(r"\bplayer\b")


def reads_player(lines: list, skip: int) -> bool:
    """Whether a function's ``lines`` other than line ``skip`` (the one that
    sets it) read the name ``player``, outside comments and text literals."""
    return any(_PLAYER.search(without_texts(text)) for k, (_d, text, _w) in enumerate(lines)
               if k != skip and not text.lstrip().startswith("#"))


def drop_unread_player(code, at: int) -> None:
    """Leave out line ``at`` (``player = ...``: a function of the game's start
    or of a text has no player of its own) when nothing reads it."""
    if not reads_player(code.lines, at):
        del code.lines[at]


def fixed_template(t: Template | None) -> bool:
    """Whether a label reads nothing that changes in play: the engine then
    names each component once per catalogue (``labels.comp_name``), a search
    that keys its statistics by labels renders none twice."""
    if t is None:
        return False
    return all(n.op in FIXED_OPS for piece in t.pieces if isinstance(piece, tuple) for n in walk(piece[0]))


def write_values(m) -> None:
    """Definitions (computed once per game, before the components), and the
    starting values of variables and player variables."""
    ch = m.checked
    m.define_fns = []
    for name, expr in ch.defines:
        m.define_fns.append((name, _standalone(m, expr, f"define_{name}", player="None")))
    m.var_fns, m.pvar_fns = {}, {}
    for table, target, prefix in ((ch.vars, m.var_fns, "start_var_"), (ch.pvars, m.pvar_fns, "start_pvar_")):
        for name, spec in table.items():
            if spec[0] == "value":
                target[name] = ("value", spec[1])
            else:
                target[name] = ("fn", _standalone(m, spec[1], prefix + name, player="st.current"))


def _standalone(m, expr, name: str, player: str) -> str:
    fname = m.name(name)
    code = m.add(Code(m, fname, name, expr.slot_names))
    code.line(f"def {fname}(st):", m.checked.file)
    with code.block():
        code.line(f"player = {player}")
        code.line(f"return {code.ex(expr.x)}")
    drop_unread_player(code, 1)
    return fname


def write_end(m) -> None:
    """``check_end(st)``: the end rules, tried before every decision; the
    score and tie-breaks; the bots' heuristic; players' names."""
    ch = m.checked
    code = m.add(Code(m, "check_end", "end", {}))
    code.line("def check_end(st):", ch.file)
    with code.block():
        for cond, winners, where in ch.end_rules:
            with code.at(where):
                code.line(f"if {m.expr_function(cond, 'end_if')}(st, st.current):")
                with code.block():
                    w = f"{m.expr_function(winners, 'end_winners')}(st, st.current)" if winners else "None"
                    code.line(f"finish(st, {w})")
                    code.line("return True")
        code.line("return False")
    m.score_fn = m.expr_function(ch.score, "score") if ch.score is not None else "None"
    m.tie_fns = [m.expr_function(tb, "tie_break") for tb in ch.tie_breaks]
    m.part_fns = [(name, m.expr_function(e, "score_part")) for name, e in ch.score_parts]
    m.shown_fns = [(label, m.expr_function(e, "score_shown")) for label, e in ch.score_shown]
    m.var_shown_fns = {n: m.expr_function(e, "shown_as") for n, e in ch.var_shown.items()}
    m.pvar_shown_fns = {n: m.expr_function(e, "shown_as") for n, e in ch.pvar_shown.items()}
    m.heuristic_fn = m.expr_function(ch.heuristic, "heuristic") if ch.heuristic is not None else "None"
    m.player_label_fn = m.template_function(ch.player_label, "player_name", "players name")


def components_table(m) -> str:
    """``COMPONENTS``: each type's maker, starting values, label, status, back label, and fixed names."""
    comps = []
    for r in m.checked.components.values():
        inits = "{" + ", ".join(f"{k!r}: {v}" for k, v in r.init_fns.items()) + "}"
        comps.append(f"{r.name!r}: ({r.make}, {inits}, {r.label_fn}, {r.status_fn}, {r.back_fn}, {r.fixed_names})")
    return "COMPONENTS = {" + ", ".join(comps) + "}"


def without_file(meta: dict) -> dict:
    """The module's ``META`` without the ruleset file's path: the path goes
    in the line map beside the rule places (``SOURCE_LINE``), so that a
    module's text does not depend on the folder it was built in."""
    return {k: v for k, v in meta.items() if k != "source_file"}


def write_start_tables(m) -> None:
    """The tables of a module that only makes a game's start (``write_start``)."""
    t = m.tail
    t.append(components_table(m))
    t.append("DEFINES = [" + ", ".join(f"({n!r}, {fn})" for n, fn in m.define_fns) + "]")
    t.append("META = " + m.const(without_file(m.checked.meta)))


def write_tables(m) -> None:
    ch = m.checked
    t = m.tail
    units = sorted(m.unit_ids.items(), key=lambda kv: kv[1])
    t.append("# every unit that runs as a frame [id, pc, locals], by id (0 is the flow of phases)")
    t.append("UNITS = [" + ", ".join(m.frame_fns[name] for name, _ in units) + "]")
    t.append("UNIT_IDS = {" + ", ".join(f"{name!r}: {i}" for name, i in units) + "}")
    t.append("UNIT_LOCALS = {" + ", ".join(f"{name!r}: {ch.units[name].nlocals}" for name, _ in units
                                           if name in ch.units) + "}")
    t.append("PLAIN = {" + ", ".join(f"{name!r}: {fn}" for name, fn in m.plain_names.items()) + "}")
    t.append(f"SETUP = {m.unit_ids['setup'] if ch.setup else None}")
    t.append("ASKS = " + m.const(m.asks))
    acts = []
    for act in ch.actions:
        base = m.action_names[act.index]
        unit = ch.units[act.unit]
        plain = m.plain_names.get(act.unit)
        slots = [s for _, s, _ in act.params]
        if unit.nlocals <= 24 and len(set(slots)) == len(slots) and all(0 < s < unit.nlocals for s in slots):
            # the arguments written in their slots (an answer is one of the options, with all of them)
            at = {s: f"args[{k}]" for k, s in enumerate(slots)}
            cells = ["p"] + [at.get(i, "None") for i in range(1, unit.nlocals)]
            frame = f"lambda p, args: [{m.unit_ids[act.unit]}, 0, [{', '.join(cells)}]]"
        else:
            frame = f"lambda p, args: [{m.unit_ids[act.unit]}, 0, _frame(p, {slots!r}, args, {unit.nlocals})]"

        acts.append(
            f"Action({act.name!r}, {act.index}, {plain or 'None'}, {frame}, "
            f"{base + '_if' if act.cond is not None else 'None'}, "
            f"[{', '.join(f'{base}_domain{k}' for k in range(len(act.params)))}], "
            f"{base + '_require' if act.require is not None else 'None'}, "
            f"{base + '_label' if act.label is not None else 'None'})")
    t.append("ACTIONS = [" + ", ".join(acts) + "]")
    t.append("ACTION_NAMES = [a.name for a in ACTIONS]")
    t.append("ACTION_RUN = [a.run for a in ACTIONS]")
    t.append("ACTION_FRAME = [a.frame for a in ACTIONS]")
    trigs = []
    for tr in ch.triggers:
        unit = ch.units[tr.unit]
        trigs.append(f"Trigger({tr.name!r}, {tr.event!r}, {getattr(tr, 'cond_name', None) or 'None'}, "
                     f"{m.plain_names.get(tr.unit) or 'None'}, {m.unit_ids[tr.unit]}, {unit.nlocals}, "
                     f"{tr.event_slot}, {m.const(unit.where)})")
    t.append("TRIGGERS = [" + ", ".join(trigs) + "]")
    t.append(f"FRAMED_EVENTS = {sorted(m.an.framed_events)!r}")
    t.append(components_table(m))
    t.append("DEFINES = [" + ", ".join(f"({n!r}, {fn})" for n, fn in m.define_fns) + "]")
    for label, table in (("VARS", m.var_fns), ("PVARS", m.pvar_fns)):
        items = []
        for name, (kind, v) in table.items():
            items.append(f"{name!r}: " + (f"_value({m.const(v)})" if kind == "value" else v))
        t.append(f"{label} = {{" + ", ".join(items) + "}")
    t.append(f"SCORE = {m.score_fn}")
    t.append(f"TIE_BREAKS = [{', '.join(m.tie_fns)}]")
    t.append("SCORE_PARTS = [" + ", ".join(f"({name!r}, {fn})" for name, fn in m.part_fns) + "]")
    t.append("SCORE_SHOWN = [" + ", ".join(f"({label!r}, {fn})" for label, fn in m.shown_fns) + "]")
    t.append("VAR_SHOWN = {" + ", ".join(f"{n!r}: {fn}" for n, fn in m.var_shown_fns.items()) + "}")
    t.append("PVAR_SHOWN = {" + ", ".join(f"{n!r}: {fn}" for n, fn in m.pvar_shown_fns.items()) + "}")
    t.append(f"HEURISTIC = {m.heuristic_fn}")
    t.append(f"SEARCH = {dict(sorted(m.checked.search.items()))!r}")
    t.append(f"PLAYER_NAME = {m.player_label_fn}")
    t.append(f"HAS_END_RULES = {bool(ch.end_rules)}")
    t.append("# the functions kept in tables of their values by arguments (compiler/tabling.py)")
    t.append(f"TABLED = {sorted({key[0] for key in m.tabled()})!r}")
    t.append(f"INDEXES = {sorted(m.index_plan())!r}")
    import pprint

    from rulebook.compiler.code import _source

    t.append("# what the engine needs to know beside the functions: names, types, visibility")
    t.append("META = " + pprint.pformat(eval(_source(without_file(ch.meta)), {"Type": _Type}), width=118,
                                        sort_dicts=False))
