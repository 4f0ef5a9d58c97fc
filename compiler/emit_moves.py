"""Write the statements that move, make and show components (``move``,
``draw``, ``deal``, ``remove``, ``create``, ``reveal``...) as Python.

Where nothing listens to 'moved' and the destination's zone family is
known, each move is written out for that family (as ``interpreter.ops.move``
makes it) instead of a call per component. Each function is given the
``compiler.code.Code`` it writes into (``code``); ``compiler/emit_stmt.py``'s
table ``STMT`` dispatches to them.
"""

from __future__ import annotations

from rulebook.compiler.emit_expr import ex, snapshot


# ------------------------------------------------------------ components
def s_move(code, what, dest, position, face, family):
    z = code.temp("z")
    code.line(f"{z} = {ex(code, dest)}")
    mover = mover_of(code, family, position)
    if mover is not None:  # the destination's kind is known: a move written for it
        fam = code.m.meta["families"][family]
        up = (face or fam["face"]) == "up"
        if what.op == "as_list":  # one component: the move written out
            c = code.temp("c")
            code.line(f"{c} = {ex(code, what.a[0])}")
            code.line(f"if {c} is not None:")
            with code.block():
                one_move(code, c, z, mover, fam, up)
        else:  # a list: each move written out (no call of a mover per component)
            c = code.temp("c")
            code.line(f"for {c} in {snapshot(code, what)}:")
            with code.block():
                code.line(f"if {c} is None: continue")
                one_move(code, c, z, mover, fam, up)
    elif what.op == "as_list":  # one component: no list to build
        c = code.temp("c")
        code.line(f"{c} = {ex(code, what.a[0])}")
        code.line(f"if {c} is not None: move(st, {c}, {z}, {position!r}, {face!r})")
    else:
        code.line(f"move_list(st, {ex(code, what)}, {z}, {position!r}, {face!r}, {code.m.an.moved_fires})")


def one_move(code, c: str, z: str, mover: str, fam: dict, up: bool, top_of: tuple | None = None) -> None:
    """The move of component ``c`` (not none) to zone ``z``, written out
    for the destination's family (as ``ops.move`` makes it when no
    trigger listens to 'moved'). ``top_of``: (zone, its list, its family)
    when ``c`` is known to be that zone's top (a draw)."""
    src = code.temp("src")
    if top_of is not None and code.m.meta["families"][top_of[2]]["visibility"] != "top":
        code.line(f"{src} = {top_of[0]}")
        code.line(f"del {top_of[1]}[0]")  # not a face-up pile: nothing below turns up
    else:
        code.line(f"{src} = st.loc[{c}]")
        leave(code, c, src)
    code.line({"move_top": f"st.zones[{z}].insert(0, {c})", "move_bottom": f"st.zones[{z}].append({c})",
               "move_sorted": f"insort(st.zones[{z}], {c})"}[mover])
    code.line(f"st.loc[{c}] = {z}")
    if fam["visibility"] != "top":
        code.line(f"st.face[{c}] = {up}")
    elif mover == "move_top":  # onto a face-up pile: the new top shows, the one below turns down
        code.line(f"st.face[{c}] = True")
        code.line(f"if len(st.zones[{z}]) > 1: st.face[st.zones[{z}][1]] = False")
    else:  # under a face-up pile: face up only when the pile was empty
        code.line(f"st.face[{c}] = st.zones[{z}][0] == {c}")
    code.line(f"if st.known or st.record or st.track: after_move(st, {c}, {src}, {z})")


def leave(code, c: str, src: str) -> None:
    """``c`` taken out of zone ``src`` (-1: out of the game, in no zone)."""
    if code.m.an.top_piles:  # the source may be a face-up pile, whose new top turns up
        code.line(f"if {src} != -1: leave_pile(st, {c}, {src})")
    else:
        code.line(f"if {src} != -1: st.zones[{src}].remove({c})")


def mover_of(code, family: str | None, position: str) -> str | None:
    """The move written for a destination of ``family`` (None: the general one)."""
    an = code.m.an
    if family is None or an.moved_fires or position not in ("top", "bottom"):
        return None
    if not code.m.meta["families"][family]["ordered"]:
        return "move_sorted"
    return "move_top" if position == "top" else "move_bottom"


def s_draw(code, count, src, dest, face, src_family=None, family=None):
    k = ex(code, count) if count is not None else "1"
    where = code.const(code.where)  # where a draw that meets its zone empty names (interpreter/drawing.py)
    mover = mover_of(code, family, "top") if src_family is not None and src_family != family else None
    if mover is None:
        code.line(f"draw(st, {ex(code, src)}, {ex(code, dest)}, {k}, {face!r}, {code.m.an.moved_fires}, {where})")
        return
    # from one zone family to another whose kind is known: each move written out (as drawing.draw makes it)
    fam = code.m.meta["families"][family]
    z, d, pile, c = code.temp("z"), code.temp("d"), code.temp("pile"), code.temp("c")
    code.line(f"{z} = {ex(code, src)}")
    code.line(f"{d} = {ex(code, dest)}")
    one = count is None or count.op == "const" and count.a[0] == 1
    if one:
        code.line(f"{pile} = st.zones[{z}]")
    # a refill keeps the zone's list, so the pile read before it is the one refilled
    code.line(f"if {pile} or ran_out(st, {z}, {where}, None):" if one else f"for _ in range({k}):")
    with code.block():
        if not one:
            code.line(f"{pile} = st.zones[{z}]")
            code.line(f"if not {pile} and not ran_out(st, {z}, {where}, None): break")
        code.line(f"{c} = {pile}[0]")
        one_move(code, c, d, mover, fam, (face or fam["face"]) == "up", (z, pile, src_family))


def s_deal(code, count, src, recips, slot, zone_of):
    z, targets = code.temp("z"), code.temp("targets")
    code.line(f"{z} = {ex(code, src)}")
    who = code.local(slot)
    code.line(f"{targets} = []")
    code.line(f"for {who} in {ex(code, recips)}:")
    with code.block():
        code.line(f"{targets}.append({ex(code, zone_of)})")
    code.line(f"deal(st, {z}, {targets}, ({ex(code, count)}) if {targets} else 0, {code.m.an.moved_fires}, "
              f"{code.const(code.where)})")


def s_shuffle(code, z):
    code.line(f"shuffle(st, {ex(code, z)})")


def s_reveal(code, what, to):
    if to is None and what.op == "as_list" and not code.m.an.top_piles:  # one component, no face-up piles
        c = code.temp("c")
        code.line(f"{c} = {ex(code, what.a[0])}")
        code.line(f"if {c} is not None:")
        with code.block():
            code.line(f"if st.record and not st.face[{c}]: st.events.append(('reveal', {c}, None, "
                      f"comp_name(st, {c})))")
            code.line(f"st.face[{c}] = True")
        return
    if to is None:
        code.line(f"reveal(st, {ex(code, what)})")
        return
    who = code.temp("who")
    code.line(f"{who} = {ex(code, to)}")
    code.line(f"reveal_to(st, {who}, {ex(code, what)})")


def s_hide(code, what):
    code.line(f"hide(st, {ex(code, what)})")


def s_remove(code, what):
    if code.m.an.moved_fires:
        code.line(f"remove(st, {ex(code, what)}, True)")
        return
    # nothing listens to 'moved': each component out of the game written out (as ops.move makes it)
    c, src = code.temp("c"), code.temp("src")
    code.line(f"for {c} in {snapshot(code, what)}:")
    with code.block():
        code.line(f"if {c} is None: continue")
        code.line(f"{src} = st.loc[{c}]")
        leave(code, c, src)
        code.line(f"st.loc[{c}] = -1")
        code.line(f"if st.known or st.record or st.track: after_move(st, {c}, {src}, -1)")


def s_create(code, type_name, zone, props, slot):
    static = "{" + ", ".join(f"{k!r}: {ex(code, v)}" for k, v in props) + "}"
    s = code.temp("s")
    code.line(f"{s} = {static}")
    c = f"create(st, {type_name!r}, {s}, {ex(code, zone)}, {code.const(code.where)})"
    code.line(f"{code.local(slot)} = {c}" if slot is not None else c)


def s_swap(code, a, b):
    code.line(f"swap(st, {ex(code, a)}, {ex(code, b)})")
