"""Write a ruleset's actions: for each, the function that lists its
options (``act_NAME_options``: nested loops over its parameters' domains),
and its parts on their own (its condition, each domain, its requirement,
its label), which say why an action offers nothing (R101); and the menu
of a turn, every option of its actions (``menu_function``).

Each is a function given the module being written ``m`` (a
``compiler.module.ModuleWriter``), which keeps the menus already written.
"""

from __future__ import annotations

from rulebook.compiler import option_invariants
from rulebook.compiler.code import Code
from rulebook.validator.ir import walk


def menu_function(m, phase: str, actions: list) -> str:
    """``menu(st, p)``: every enabled action of a turn with every legal
    combination of its parameters, in a stable order (actions as listed,
    parameters in their domains' order)."""
    key = tuple(actions)
    hit = m.menus.get(key)
    if hit is not None:
        return hit
    fname = m.menus[key] = m.name(f"menu_{phase}")
    code = m.add(Code(m, fname, f"phase {phase} turn", {}))
    code.line(f"def {fname}(st, p):", m.checked.file)
    with code.block():
        code.line("out = []")
        for i in actions:
            code.line(f"{m.action_names[i]}_options(st, p, out)")
        code.line("return out")
    return fname


def why_function(m, actions: list) -> str:
    key = tuple(actions)
    hit = m.whys.get(key)
    if hit is None:
        hit = m.whys[key] = f"[{', '.join(f'ACTIONS[{i}]' for i in actions)}]"
    return hit


def invariant_domains(m, params) -> list[int]:
    """The parameters (after the first) whose options depend on none of
    the parameters before them and draw nothing at random: an action's
    menu makes them once, not once per option of the earlier ones."""
    pure = m.pure_functions()
    out, earlier = [], set()
    for k, (_name, slot, dom) in enumerate(params):
        if k and dom is not None and not any(
                n.op in ("random", "roll") or (n.op == "local" and n.a[0] in earlier)
                or (n.op == "fn" and n.a[0] not in pure) for n in walk(dom)):
            out.append(k)
        earlier.add(slot)
    return out


def write_actions(m) -> None:
    for act in m.checked.actions:
        base = m.action_names[act.index]
        names = m.slot_names(act.unit)
        where = m.checked.units[act.unit].where
        # options: nested loops over the parameters' domains
        code = m.add(Code(m, base + "_options", f"action {act.name}", names))
        code.line(f"def {base}_options(st, player, out):", where)
        with code.block():
            if act.cond is not None:
                code.line(f"if not {code.ex(act.cond)}: return")
            code.once_plan = option_invariants.plan(m, act.require, act.params)
            for line in option_invariants.starts(code.once_plan.values()):
                code.line(line)
            loops = 0
            once = invariant_domains(m, act.params)
            for k in once:
                code.line(f"_dom{k} = None")
            for k, (_pname, slot, dom) in enumerate(act.params):
                if k in once:  # the same options whatever the earlier parameters: made once, when first needed
                    code.line(f"if _dom{k} is None: _dom{k} = {code.snapshot(dom)}")
                    code.line(f"for {code.local(slot)} in _dom{k}:")
                else:
                    code.line(f"for {code.local(slot)} in {code.snapshot(dom) if dom is not None else '[]'}:")
                code.depth += 1
                loops += 1
            values = "[" + ", ".join(code.local(s) for _, s, _ in act.params) + "]"
            if act.require is not None:
                code.line(f"if {code.ex(act.require)}: out.append([{act.index}, {values}])")
            else:
                code.line(f"out.append([{act.index}, {values}])")
            code.once_plan = {}
            code.depth -= loops
        # its parts on their own, for why an action offers nothing (R101), and its label
        slots = [s for _, s, _ in act.params]
        if act.cond is not None:
            part(m, f"{base}_if", act, [], where, lambda c: c.ex(act.cond))
        for k, (_n, _s, dom) in enumerate(act.params):
            part(m, f"{base}_domain{k}", act, slots[:k], where,
                 lambda c, dom=dom: f"list({c.ex(dom) if dom is not None else '[]'})")
        if act.require is not None:
            part(m, f"{base}_require", act, slots, where, lambda c: c.ex(act.require))
        if act.label is not None:
            part(m, f"{base}_label", act, slots, where, lambda c: c.render(act.label))


def part(m, name: str, act, slots: list, where: str, body) -> None:
    """``name(st, player, *params)``: one part of an action, on its own."""
    code = m.add(Code(m, name, f"action {act.name}", m.slot_names(act.unit)))
    code.line(f"def {name}({', '.join(['st', 'player'] + [code.local(s) for s in slots])}):", where)
    with code.block():
        code.line(f"return {body(code)}", where)
