"""The runtime library of compiled rulesets: what generated code calls.

The compiler writes a ruleset as a Python module (``compiler/``); anything
that is more than an expression or two of Python lives here, once, shared by
every ruleset: the checked forms of indexing, list and text operations under
the size limits, the built-in queries, the statements that move components.
Functions take the game ``State`` first where they need it, and the rule's
place (``where``, ``file:line:col``) where they can fail, so a runtime error
names its rule. Nothing here knows a game.
"""

from __future__ import annotations

import itertools
import sys
from bisect import insort  # for compiled rules (__all__), which keep unordered zones sorted

from rulebook.interpreter import ops
from rulebook.interpreter.boards import space_in
from rulebook.interpreter.budget import charge, over_budget  # for compiled rules (__all__)
from rulebook.interpreter.errors import BAD_VALUE, NO_OPTIONS, STEP_LIMIT, RuleError
from rulebook.interpreter.events import moved as _moved  # not exported to compiled rules (a private name)
from rulebook.interpreter.indexes import indexed, set_indexed  # for compiled rules (__all__)
from rulebook.interpreter.labels import HIDDEN, HiddenInText, chosen_words, comp_name, describe, literal

# What compiled rules import from here by name (compiler/code.py, runtime_imports): what this module
# defines, and the few names it passes on from the runtime for them.
__all__ = [
    'MAX_SUBSETS', 'BOX', 'TIMED_OUT', 'FAILED', 'attempt', 'charged', 'loop_round', 'too_deep', 'number',
    'mul', 'add', 'divide', 'item_of', 'text_item', 'sliced', 'formatted', 'zone_item', 'player_zone',
    'comp_zone', 'anylist', 'type_of', 'face_up', 'public_piece', 'text_of', 'words', 'charge_text', 'sized',
    'appended', 'appended_local', 'joined', 'minus_one', 'minus', 'same', 'contains', 'first_of_each',
    'hashable', 'flatten', 'distinct_lists', 'charge_size', 'numbers', 'span', 'best_by', 'best_of', 'best_each',
    'best_each_of', 'sort_by', 'distinct_by', 'distinct_of', 'bottom_n', 'index_in', 'count_in', 'subsets', 'pick',
    'roll',
    'zone_of', 'zone_owner', 'components_of', 'components_in', 'opponents', 'next_player', 'sees', 'board_of',
    'neighbours', 'board_lines', 'distance', 'distance_row', 'within', 'seat_of', 'deciding_player',
    'direction', 'live', 'move_list', 'reveal', 'reveal_to', 'hide', 'remove', 'create', 'swap', 'eliminate',
    'restore', 'back_in', 'staged_menu', 'stage_question', 'no_options', 'option_labels', 'after_move',
    'leave_pile', 'space_at_in', 'charge', 'indexed', 'insort', 'over_budget', 'set_indexed',
]

MAX_SUBSETS = 5000
BOX = ops.BOX
TIMED_OUT = -1  # the answer stored for a turn's action menu when its time limit ran out


# ----------------------------------------------------------------- budgets
class _Failed:
    __slots__ = ()

    def __repr__(self) -> str:
        return "FAILED"


FAILED = _Failed()  # a part of a query that could not be computed before it (compiler/emit_expr.py)


def attempt(compute):
    """The value of a part of a query computed once before the query, or
    FAILED when it raised: the query then computes it where the rule reads
    it, so that it fails where, and only if, the rule would."""
    try:
        return compute()
    except Exception:
        return FAILED


def charged(st, items):
    """``items``, counted against the work budget (for queries written as comprehensions)."""
    st.work += len(items)
    if st.work > st.prog.max_work:
        over_budget(st)
    return items


def loop_round(st, where: str, unit: str) -> None:
    """One more round of a loop: the rules may not loop for ever without a decision."""
    st.loops += 1
    limit = st.prog.limits["max_steps"]
    if st.loops > limit:
        raise RuleError(STEP_LIMIT, f"more than {limit} steps without a decision: the rules loop in '{unit}'",
                        where, "a while loop or a cycle of phases never stops")


def too_deep(st, where: str, what: str = "procedures") -> None:
    limit = st.prog.limits["max_stack"]
    raise RuleError("R105", f"{what} nested more than {limit} deep", where,
                    "a procedure probably calls itself without end")


def number(v, where: str, limit: int):
    """A number computed by the rules, within the size the rules may use."""
    if type(v) is int and not -limit <= v <= limit:
        raise RuleError("R107", f"a number larger than {limit}", where,
                        "numbers in a game stay small; a loop probably multiplies without end")
    return v


def mul(a, b, where: str, limit: int):
    """``a * b`` of two numbers (a text or a list times a number is not a number)."""
    if type(a) not in (int, bool) or type(b) not in (int, bool):
        raise RuleError(BAD_VALUE, f"'*' needs numbers, not {literal(a)} and {literal(b)}", where)
    return number(a * b, where, limit)


def add(a, b, where: str, limit: int):
    return number(a + b, where, limit)


def divide(d, a, where: str, floor: bool):
    """``a // d`` or ``a % d``; the divisor is computed first, as the rules read it."""
    if d == 0:
        raise RuleError(BAD_VALUE, "division by zero", where)
    return a // d if floor else a % d


# ----------------------------------------------------------------- indexing
def item_of(xs, i, where: str):
    try:
        return xs[i]
    except (IndexError, TypeError):
        raise RuleError(BAD_VALUE, f"index {i} is outside a list of {len(xs) if isinstance(xs, list) else 0}",
                        where) from None


def text_item(s, i, where: str):
    if type(i) is not int or not -len(s) <= i < len(s):
        raise RuleError(BAD_VALUE, f"index {literal(i)} is outside a text of {len(s)} characters", where)
    return s[i]


def sliced(xs, lo, hi, where: str):
    """``xs[lo:hi]`` of a list or a text: bounds count from the end when
    negative and stop at its ends, as in Python."""
    for b in (lo, hi):
        if b is not None and type(b) is not int:
            raise RuleError(BAD_VALUE, f"a slice's bound is a number, not {literal(b)}", where)
    if not isinstance(xs, (list, str)):
        raise RuleError(BAD_VALUE, f"{literal(xs)} cannot be sliced", where)
    return xs[lo:hi]


_FORMAT_SPEC = None


def formatted(x, spec, where: str):
    """``format(x, spec)``: a number or a text written by a format such as
    "03", "+", ",", ">5" (Python's, without precision or type)."""
    global _FORMAT_SPEC
    if _FORMAT_SPEC is None:
        import re

        _FORMAT_SPEC = re.compile(r"([^{}]?[<>^])?[+ -]?0?[0-9]{0,2}[,_]?")
    if not isinstance(spec, str) or not _FORMAT_SPEC.fullmatch(spec):
        raise RuleError(BAD_VALUE, f"format(): {literal(spec)} is not a format", where)
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise RuleError(BAD_VALUE, f"format() writes a number or a text, not {literal(x)}", where)
    try:
        return format(x, spec)
    except ValueError as err:  # a sign or ',' for a text
        raise RuleError(BAD_VALUE, f"format({literal(x)}, {literal(spec)}): {err}", where) from None


def zone_item(st, zone, i, where: str):
    z = st.zones[zone]
    if not -len(z) <= i < len(z):
        raise RuleError(BAD_VALUE, f"position {i} is outside a zone of {len(z)}", where)
    return z[i]


def player_zone(st, family: str, p, where: str) -> int:
    if p is None or type(p) is not int or not 0 <= p < st.n:
        raise RuleError(
            BAD_VALUE,
            f"{family}[{'none' if p is None else p}]: there is no player {'none' if p is None else p} in a game "
            f"of {st.n}",
            where,
        )
    return st.cat.zone_base[family] + p


def comp_zone(st, family: str, c, where: str, per: str) -> int:
    try:
        z = st.cat.zone_of_comp[family].get(c)  # not [c]: a miss there is an error without the rule's place
    except TypeError:  # an unhashable index (a list) is no component
        z = None
    if z is None:
        z = ops.comp_zone(st, family, c) if isinstance(c, int) else None  # a component created in play
        if z is None:
            raise RuleError(BAD_VALUE, f"{family}[...]: the index is not a {per}", where) from None
    return z


def anylist(v):
    return v if isinstance(v, list) else ([] if v is None else [v])


def type_of(st, c):
    return st.cat.types[c] if c < st.cat.n else st.static[c]["type"]


def face_up(st, value, depth: int):
    """``value`` read in text said to everybody: a face-down component (at
    any depth of lists) stops the piece of text, which reads "[hidden]"."""
    if depth == 0:
        if value is not None and not st.face[value]:
            raise HiddenInText
    else:
        for item in value or ():
            face_up(st, item, depth - 1)
    return value


def public_piece(st, thunk, t, where: str | None = None) -> str:
    """One piece of text said to everybody: "[hidden]" if it reads a secret.
    With ``where``, the value may be a list or a map: charged as ``words``."""
    try:
        value = thunk()
        if where is not None and (value.__class__ is list or value.__class__ is dict):
            charge_text(st, value, where)
        return describe(st, value, t, True)
    except HiddenInText:
        return HIDDEN


# ----------------------------------------------------------------- values as text
def text_of(st, value, where: str) -> str:
    """``str(x)``: a list or a map is charged by the text it would make
    (``charge_text``) before the text is made."""
    if value.__class__ is list or value.__class__ is dict:
        charge_text(st, value, where)
    return literal(value, False)


def words(st, value, t, public: bool, where: str) -> str:
    """A template's piece (``describe``) whose value may be a list or a map:
    charged by the text it would make before it is made."""
    if value.__class__ is list or value.__class__ is dict:
        charge_text(st, value, where)
    return describe(st, value, t, public)


def charge_text(st, value, where: str) -> None:
    """The text of a list or a map is at most the value limit long and is
    charged to the work budget by its length, both known before it is
    built: a list that holds one long text half a million times (shared
    items cost nothing to hold) would make a text of hundreds of gigabytes.
    The length counted is a lower bound (brackets, separators, texts; a
    number, a name or ``none`` counts one character), summed as the items
    are reached, an item held many times counted each time; the count stops
    as soon as it passes the limit, so it costs no more than the limit."""
    limit = st.prog.limits["max_value"]
    size, todo = 0, [value]
    while todo and size <= limit:
        v = todo.pop()
        cls = v.__class__
        if cls is list:
            size += 2 * len(v) if v else 2  # "[", "]" and ", " between items
            if size <= limit:
                todo += v
        elif cls is dict:  # an event's fields: "name value, ..."
            size += sum(len(k) + 2 for k in v)
            if size <= limit:
                todo += v.values()
        elif cls is str:
            size += len(v)
        else:
            size += 1
    if size > limit:
        raise RuleError("R107", f"the value written as text would be over {limit} characters, the limit of a text",
                        where, "a list written as text holds too much; write a part of it")
    charge(st, size)


# ----------------------------------------------------------------- lists and texts
def sized(xs, where: str, limit: int):
    if len(xs) > limit:
        raise RuleError("R107", f"a list of {len(xs)} items; the limit is {limit}", where)
    return xs


def appended(st, holder, key, item, where: str, limit: int) -> None:
    """``append item to xs`` where ``holder[key]`` is ``xs`` (a variable's
    table, a player's or a component's, or a frame's locals): amortised
    O(1). Lists are values that clones, saves, frames, events and other
    variables may share, so the list is changed in place only when
    ``holder`` is the one thing that holds it (its reference count, read
    the way ``_ALONE`` was measured); otherwise it is copied once, charged
    to the work budget, and the copy, held by ``holder`` alone, takes the
    appends that follow."""
    alone = _refs(holder, key) == _ALONE  # counted before anything here reads the list
    holder[key] = _with_item(st, holder[key], item, alone, where, limit)


def appended_local(st, box: list, item, where: str, limit: int) -> list:
    """``append item to xs`` of a local variable of a Python function:
    ``box`` is ``[xs]``, so the list may change in place when the box and
    the local variable are all that hold it."""
    alone = _refs(box, 0) == _ALONE + 1  # counted before anything here reads the list
    return _with_item(st, box[0], item, alone, where, limit)


def _with_item(st, xs, item, alone: bool, where: str, limit: int):
    if xs.__class__ is not list:
        return sized(xs + [item], where, limit)  # not a list: the error of ``+``
    if len(xs) >= limit:
        raise RuleError("R107", f"a list of {len(xs) + 1} items; the limit is {limit}", where)
    if alone:
        xs.append(item)
        return xs
    charge(st, len(xs))
    return xs + [item]


def _refs(holder, key) -> int:
    """The references to ``holder[key]``, counted the same way each time."""
    return sys.getrefcount(holder[key])


_ALONE = _refs({0: []}, 0)  # the count of a list that one table holds and nothing else


def joined(x, y, where: str, limit: int):
    text = x + y
    if len(text) > limit:
        raise RuleError("R107", f"a text of {len(text)} characters; the limit is {limit}", where)
    return text


def minus_one(st, xs, v):
    xs = list(xs)
    charge(st, len(xs))
    if v in xs:
        xs.remove(v)
    return xs


def minus(st, xs, ys):
    """``xs - ys``: each item of ``ys`` takes out the first copy of it left in
    ``xs``. Counted by key in one pass over each list, so the work is their
    lengths added (as charged), not multiplied; items no set can hold (none
    the rules make) fall back to the quadratic loop, charged as such."""
    xs = list(xs)
    charge(st, len(xs) + len(ys))
    if not ys:
        return xs
    try:
        left: dict = {}
        for v in ys:
            k = hashable(v)
            left[k] = left.get(k, 0) + 1
        out = []
        for v in xs:
            k = hashable(v)
            n = left.get(k)
            if n:
                left[k] = n - 1
            else:
                out.append(v)
        return out
    except TypeError:
        charge(st, len(xs) * len(ys))
        for v in ys:
            if v in xs:
                xs.remove(v)
        return xs


def same(st, a, b, equal: bool):
    """``a == b`` (or !=) of lists, compared item by item: charged by their size."""
    if isinstance(a, list):
        charge(st, len(a))
    return (a == b) if equal else (a != b)


def contains(st, item, coll):
    charge(st, len(coll))
    return item in coll


def first_of_each(items: list, keys: list) -> list:
    """The items whose key has not come before: one pass, so a big hand
    costs its length, not its length squared."""
    out, seen = [], set()
    for x, k in zip(items, keys):
        k = hashable(k)
        if k not in seen:
            seen.add(k)
            out.append(x)
    return out


def hashable(value):
    """A key as a set can hold it: lists (at any depth) as tuples."""
    cls = value.__class__
    if cls is not list and cls is not tuple:
        return value
    for v in value:
        if v.__class__ is list or v.__class__ is tuple:
            return tuple(hashable(x) for x in value)
    return value if cls is tuple else tuple(value)


def flatten(st, lists):
    """The items of each of ``lists``, one list after another (a new list)."""
    out: list = []
    for sub in lists:
        out += sub
    charge(st, len(out))
    return out


def distinct_lists(st, items):
    charge_size(st, items)
    return first_of_each(items, items)


def charge_size(st, value: list) -> None:
    """Charge ``value`` by its size at every depth (one for it and one for
    each item of each list in it), a list it holds many times counted each
    time: comparing lists by what they hold visits them all. Charged list by
    list as they are reached, so a list holding one long row half a million
    times stops at the budget, not after counting every item first."""
    charge(st, 1)
    todo = [value]
    while todo:
        xs = todo.pop()
        charge(st, len(xs))
        for x in xs:
            if x.__class__ is list:
                todo.append(x)


def numbers(lo, hi, where: str, limit: int):
    if hi - lo > limit:
        raise RuleError("R107", f"range({lo}, {hi}) would hold {hi - lo} numbers; the limit is {limit}", where)
    return list(range(lo, hi))


def span(lo, hi, where: str, limit: int):
    """``range(lo, hi)`` read item by item by a loop (compiler/fused.py): the
    same limit as ``numbers``, and the numbers never made into a list."""
    if hi - lo > limit:
        raise RuleError("R107", f"range({lo}, {hi}) would hold {hi - lo} numbers; the limit is {limit}", where)
    return range(lo, hi)


def best_of(pairs, less: bool):
    """``best_by`` of (item, key) pairs, as a fused chain gives them
    (compiler/fused.py): the first item whose key is least (or greatest)."""
    found = best_key = None
    for x, kv in pairs:
        if found is None or (kv < best_key if less else kv > best_key):
            found, best_key = x, kv
    return found


def best_by(items, key, less: bool):
    """The first item whose key is least (or greatest)."""
    found = best_key = None
    for x in items:
        kv = key(x)
        if found is None or (kv < best_key if less else kv > best_key):
            found, best_key = x, kv
    return found


def best_each(items, pair, less: bool):
    """``min_by_group`` / ``max_by_group``: ``pair(x)`` is an item's group
    and value; of each group, the first item whose value is least (greatest).
    The kept items in the order of ``items``: ``best_each_of`` over their
    positions, with each group made hashable (a list as a tuple)."""
    if items.__class__ is not list:
        items = list(items)
    groups, values = [], []
    for x in items:
        g, v = pair(x)
        groups.append(hashable(g))
        values.append(v)
    return [items[i] for i in best_each_of(range(len(items)), groups, values, less)]


def best_each_of(items, groups, values, less: bool):
    """The kept items of ``best_each`` where each item's group and value
    are read from ``groups`` and ``values``, indexed by the item (columns of
    fixed properties, keys of them as ``Columns`` makes them; or lists by
    position): one pass, no function call and no pair per item."""
    if items.__class__ is not list:
        items = list(items)
    best: dict = {}
    for i, x in enumerate(items):
        g = groups[x]
        j = best.get(g)
        if j is None:
            best[g] = i
        else:
            v, w = values[x], values[items[j]]
            if v < w if less else v > w:
                best[g] = i
    return [items[i] for i in sorted(best.values())]


def sort_by(items, key):
    items = list(items)
    keys = [key(x) for x in items]
    order = sorted(range(len(items)), key=keys.__getitem__)  # stable
    return [items[i] for i in order]


def distinct_by(items, key):
    """The first item of each key, in order (keys that are lists compare by what they hold)."""
    out, seen = [], set()
    for x in items:
        k = key(x)
        if k.__class__ is list:
            k = hashable(k)
        try:
            new = k not in seen
        except TypeError:  # a tuple holding lists
            k = hashable(k)
            new = k not in seen
        if new:
            seen.add(k)
            out.append(x)
    return out


def distinct_of(items, keys):
    """``distinct_by`` whose key is made of fixed properties only: each
    item's key read from ``keys``, a column of them (``Columns``): the
    first item of each key, in order."""
    first: dict = {}
    for x in items:
        first.setdefault(keys[x], x)
    return list(first.values())


def bottom_n(xs, k):
    return xs[len(xs) - max(min(k, len(xs)), 0):]


def index_in(st, items, v):
    charge(st, len(items))
    return items.index(v) if v in items else -1


def count_in(st, items, v):
    charge(st, len(items))
    return items.count(v)


def subsets(items, hi, lo, where: str):
    top = len(items) if hi is None else min(hi, len(items))
    out = []
    for k in range(max(lo, 0), top + 1):
        for combo in itertools.combinations(items, k):
            out.append(list(combo))
            if len(out) > MAX_SUBSETS:
                raise RuleError(BAD_VALUE, f"subsets() would give more than {MAX_SUBSETS} options", where)
    return out


# ----------------------------------------------------------------- chance
def pick(st, items):
    if not items:
        return None
    return items[ops.random_index(st, len(items))]


def roll(st, k, where: str):
    if k < 1:
        raise RuleError(BAD_VALUE, f"roll({k}): a die needs at least one side", where)
    return 1 + ops.random_index(st, k)


# ----------------------------------------------------------------- components, players, boards
def zone_of(st, c):
    return st.loc[c] if st.loc[c] >= 0 else None


def zone_owner(st, z):
    """The player who owns zone ``z`` (None for a shared zone, and for none)."""
    if z is None:
        return None
    table = st.cat.zone_player
    if 0 <= z < len(table):
        o = table[z]
        return st.owner[st.cat.zone_key[z]] if o == -2 else o
    return ops.zone_owner(st, z)  # a zone made in play, for a component created in play


def components_of(st, name: str):
    ids = st.cat.by_type[name]
    if len(st.static) == st.cat.n:
        return list(ids)
    return list(ids) + [c for c in range(st.cat.n, len(st.static)) if st.static[c].get("type") == name]


def components_in(st, name: str, family: str) -> list:
    """The components of type ``name`` lying in the zones of ``family``, in
    the order ``components_of`` lists them (by number): what a filter over
    every component reads when its condition requires such a zone
    (compiler/plan.py)."""
    cat = st.cat
    zones = cat.family_zones.get(family)
    if zones is None:
        zones = cat.family_zones[family] = [z for z, f in enumerate(cat.zone_family) if f == family]
    all_zones = st.zones
    out = []
    for z in zones:
        out += all_zones[z]
    if st.extra_zones:  # zones made in play for created components
        first = len(cat.zone_family)
        for i, (fam, _key) in enumerate(st.extra_zones):
            if fam == family:
                out += all_zones[first + i]
    types, n, static = cat.types, cat.n, st.static
    out = [c for c in out if (types[c] if c < n else static[c].get("type")) == name]
    out.sort()
    return out


def opponents(st, p):
    order = ops.seat_order(st, p)
    return order[1:] if not st.eliminated[p] else [q for q in order if q != p]


def next_player(st, p, steps):
    """The live player ``steps`` seats after ``p`` in the play direction;
    counting goes round the live players, so a huge step costs no more."""
    if type(steps) is int and steps > st.n:
        live = st.n - sum(1 for out in st.eliminated if out)
        if live:
            steps = (steps - 1) % live + 1
    return ops.next_player(st, p, steps)


def sees(st, what, p):
    return ops.can_see(st, what, p)


def board_of(st, space):
    board = st.cat.boards.get(st.cat.types[space] if space < st.cat.n else None)
    if board is None:
        raise RuleError(BAD_VALUE, f"component {space} is not a board space")
    return board


def neighbours(st, space):
    table = st.cat.adjacent
    if space.__class__ is int and 0 <= space < len(table) and table[space] is not None:
        return table[space]  # a list nobody changes: rule values are never changed in place
    return list(board_of(st, space).adj.get(space, ()))


def space_at_in(st, type_name: str, index, a, b=None):
    """``space_at(board[index], a, b)``: the space at a key, or at a column
    and row, of one part of a board kept per something (``board: {per:}``)."""
    return space_in(st.cat.boards[type_name], index, a if b is None else (a, b))


def board_lines(st, type_name: str, n, through, where: str):
    """``lines(type, n)``, or with a space only the lines through it."""
    if type(n) is not int or n < 1:
        raise RuleError(BAD_VALUE, f"lines(): a line has at least 1 space, not {literal(n)}", where)
    board = st.cat.boards[type_name]
    if n > len(board.ids):
        return []
    found = board.lines(n)
    if through is None:
        return found
    return [line for line in found if through in line]


def distance(st, a, b):
    """Spaces apart on ``a``'s board (None when ``b`` is not on it): read
    from ``a``'s row of distances, computed the first time it is asked
    (heuristics sum distances at every position a search judges)."""
    table = st.cat.distances
    if a.__class__ is int and 0 <= a < len(table):
        row = table[a]
        if row is None:
            row = table[a] = distance_row(st, a)
        if b.__class__ is int and 0 <= b < len(row):
            return row[b]
    return board_of(st, a).distance(a, b)


def distance_row(st, a) -> list:
    """Space ``a``'s distance to each component (by id; None off its board)."""
    row = [None] * st.cat.n
    for b, d in board_of(st, a).distances_from(a).items():
        row[b] = d
    return row


def within(st, start, k, passable):
    board = board_of(st, start)
    reached = board.bfs(start, passable, k)
    return sorted(x for x, d in reached.items() if d > 0)


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
    if who is None or type(who) is not int or not 0 <= who < st.n:
        raise RuleError(NO_OPTIONS, f"no player to make the choice '{name}' (it would be made by {literal(who)})",
                        where, "say who chooses: choose ... by <player>")
    return who


def direction(v, where: str):
    """The built-in ``direction`` steers the turn order: only 1 and -1 mean
    something (2 would skip seats, 0 would stop the order)."""
    if v not in (1, -1) or isinstance(v, bool):
        raise RuleError(BAD_VALUE, f"direction is 1 or -1, not {literal(v)}", where)
    return v


def live(st, p):
    """``p``, or when ``p`` has been eliminated the next live player after
    them in the play direction: turns skip eliminated players, whoever
    names them (``first``, ``next``, ``pass turn to``)."""
    if p is not None and 0 <= p < st.n and st.eliminated[p]:
        return ops.next_player(st, p)
    return p


# ----------------------------------------------------------------- statements
def move_list(st, items, z, position, face, fire: bool):
    """``move ... to z`` of a list: every move first, then the triggers, in order."""
    if len(items) == 1:
        if items[0] is not None:
            ops.move(st, items[0], z, position, face)
        return
    moved = [ops.move(st, c, z, position, face, fire_now=False) for c in items if c is not None]
    if fire:
        ops.fire_in_order(st, moved)


def reveal(st, items):
    mark = "first" if len(items) > 1 else None  # one statement's reveals: told in one sentence
    for c in items:
        was_up = st.face[c]
        st.face[c] = True
        if st.record and not was_up:  # named now, face up (its label may show what that shows), not later
            ev = ("reveal", c, None, comp_name(st, c))
            st.events.append(ev if mark is None else ev + (mark,))
            mark = mark and "more"
        if st.prog.top_piles:  # a face-up pile keeps only its top face up
            ops.show_top(st, st.loc[c])


def reveal_to(st, who, items):
    mark = "first" if len(items) > 1 else None
    for c in items:
        known = st.known.get(c, [])
        st.known[c] = known + [p for p in who if p not in known]
        if st.record:
            ev = ("reveal", c, list(who), comp_name(st, c))
            st.events.append(ev if mark is None else ev + (mark,))
            mark = mark and "more"


def hide(st, items):
    for c in items:
        st.face[c] = False
        st.known.pop(c, None)
        if st.prog.top_piles:  # a face-up pile keeps only its top face up
            ops.show_top(st, st.loc[c])


def remove(st, items, fire: bool):
    moved = [ops.move(st, c, BOX, fire_now=False) for c in items if c is not None]
    if moved and fire:
        ops.fire_in_order(st, moved)


def create(st, type_name: str, static: dict, zone, where: str):
    c = len(st.static)
    limit = st.prog.limits["max_components"]
    if c >= limit:
        raise RuleError("R107", f"more than {limit} components", where)
    static["type"] = type_name
    st.static = st.static + [static]  # copy on write: clones share the old list
    initial = st.prog.comp_types[type_name].initial
    st.props.append({k: f(st, static) for k, f in initial.items()} if initial else None)
    st.owner.append(None)
    st.loc.append(BOX)
    st.face.append(True)
    ops.add_comp_zones(st, c, type_name)
    ops.move(st, c, zone)
    return c


def swap(st, x, y):
    zx, zy = st.loc[x], st.loc[y]
    ix, iy = st.zones[zx].index(x), st.zones[zy].index(y)
    st.zones[zx][ix], st.zones[zy][iy] = y, x
    st.loc[x], st.loc[y] = zy, zx
    if st.prog.top_piles:
        ops.show_top(st, zx)
        ops.show_top(st, zy)


def eliminate(st, q, until=None):
    """Put ``q`` out: for the game (``st.eliminated[q]`` is True), or until a
    point (the text 'phase' or 'cleared'); out for the game stays so."""
    if q is not None and st.eliminated[q] is not True:
        st.eliminated[q] = True if until is None else until
        if st.record:
            st.events.append(("eliminate", q) if until is None else ("eliminate", q, until, st.phase))


def restore(st, q, where: str):
    """``restore q``: a player out until a point is back in (one in is left as is)."""
    if q is None or not st.eliminated[q]:
        return
    if st.eliminated[q] is True:
        raise RuleError(BAD_VALUE, f"restore: P{q + 1} is out of the game, not out until a point", where,
                        "only 'eliminate ... until phase' or 'until cleared' can be restored")
    st.eliminated[q] = False
    if st.record:
        st.events.append(("restore", q))


def back_in(st, point: str) -> None:
    """The end of a phase: the players out until it are back in."""
    for q, out in enumerate(st.eliminated):
        if out == point:
            st.eliminated[q] = False
            if st.record:
                st.events.append(("restore", q))


# ----------------------------------------------------------------- staged actions
def _grouped(options, depth: int) -> list:
    """Options of staged actions cut to their first ``depth`` parameters,
    each prefix once (in the order of its first option); a prefix that only
    one option has stays that whole option: nothing is left to ask."""
    counts: dict = {}
    for ai, args in options:
        key = (ai, repr(args[:depth]))
        counts[key] = counts.get(key, 0) + 1
    out, seen = [], set()
    for o in options:
        ai, args = o
        key = (ai, repr(args[:depth]))
        if counts[key] == 1 or len(args) <= depth:
            out.append(o)
        elif key not in seen:
            seen.add(key)
            out.append([ai, args[:depth]])
    return out


def staged_menu(options, staged: dict) -> list:
    """A turn's menu with each staged action offered by its first parameter
    (the menu lists each action's options together, in its place)."""
    out, run = [], []
    for o in options + [None]:
        if run and (o is None or o[0] != run[0][0]):
            out += _grouped(run, 1) if run[0][0] in staged else run
            run = []
        if o is not None:
            run.append(o)
    return out


def stage_question(st, p, flat, ai, args, staged, slot: int) -> dict:
    """The next question of a staged action: its options that begin with the
    parameters chosen so far, cut to one parameter more (whole when it is the
    last, or when one option is left). The prompt names the parameters by
    their labels and the values chosen by their names, as the options do."""
    name, params = staged
    k = len(args)
    narrowed = [o for o in flat if o[0] == ai and o[1][:k] == args]
    options = _grouped(narrowed, k + 1) if k + 1 < len(params) else narrowed
    act = st.prog.actions[ai]
    words = act.param_labels or params
    prompt = f"{name} ({chosen_words(st, act, args)}): {words[k]}?"
    return {"kind": "action", "players": [p], "options": [options], "answers": [None], "done": [False],
            "slot": slot, "prompt": prompt, "type": "action", "flat": flat}


def no_options(name: str, where: str):
    return RuleError(NO_OPTIONS, f"nothing to choose from for '{name}'", where,
                     "guard the choice with an if, or add 'optional'")


def option_labels(options: list, render) -> list[str]:
    """The label of each option, ``render`` naming one option."""
    return ["pass" if v is None else render(v) for v in options]


# ----------------------------------------------------------------- moves the compiler specialised
# Used where the compiler knows the destination's kind (its zone family) and
# that the ruleset has no face-up piles and no trigger on 'moved': then a move
# is only taking the component out of its zone and putting it into another.
def after_move(st, c, src, dest) -> None:
    if st.track and src != BOX:
        ops.blur(st, c, src)
    if c in st.known:
        del st.known[c]
    if st.record:  # a face-up component is named now: what it shows may change once it is hidden
        st.events.append(_moved(c, src, dest, st.face[c], comp_name(st, c) if st.face[c] else None))


def leave_pile(st, c, src: int) -> None:
    """Take ``c`` out of zone ``src`` where some zones are face-up piles:
    when it was the top of one, the new top turns face up (as ``ops.move``)."""
    zone = st.zones[src]
    if zone[0] == c:
        del zone[0]
        if zone:
            fams = st.cat.zone_family  # zone_family(st, src) written out, as in ops.move
            if st.prog.families[fams[src] if src < len(fams) else st.extra_zones[src - len(fams)][0]].visibility \
                    == "top":
                st.face[zone[0]] = True
    else:
        zone.remove(c)
