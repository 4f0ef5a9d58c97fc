"""A player's information-state string, kept as the changes of its view.

The OpenSpiel adapter's ``information_state_string`` is a player's history:
its view at each decision (when it changed) and its own actions. Written
out whole, every view again, the string grows by a whole view a step, and
a long game's last strings are megabytes, built and copied at every node.
Here a view that follows another is written as its changes only
(``changes``): the places of the view (a key of a dict, a run of a list's
items) whose JSON text differs, with their new text. The first view is
written whole, so the string still tells every view exactly (``expand``
writes them out again, as the whole-view string had them): two histories
get the same string exactly when their whole-view strings are the same.

A view's JSON is built from the texts of its parts (``Tree``), down to
``DEPTH`` levels, so that comparing two views is comparing the texts of
their parts, and the whole text is the one ``json.dumps`` gives
(``sort_keys``, compact separators, ``repr`` for anything else).

A ``Trail`` is immutable: a step makes a new one that shares the string so
far, so a state's clones share their players' trails and a step costs the
view's changes (and one copy of the string when it is asked for).
"""

from __future__ import annotations

import json

DEPTH = 4  # levels of a view split into parts: its keys, a zone, a zone's keys, a list's items

# made once: ``json.dumps`` with options makes an encoder at every call, and a view has hundreds of parts
_SORTED = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=repr).encode
_AS_IS = json.JSONEncoder(separators=(",", ":")).encode
_KEYS: dict[str, str] = {}  # a dict key -> its JSON text (a view's keys are few and repeat)


def dumps(value, sort: bool = True) -> str:
    """The JSON text of a value, as the adapter writes views (``sort``
    False: a value decoded from such a text, whose dicts keep the text's
    order, written again as it was)."""
    return _SORTED(value) if sort else _AS_IS(value)


def _key(k: str) -> str:
    got = _KEYS.get(k)
    if got is None:
        got = _SORTED(k)
        if len(_KEYS) < 100_000:  # bounded: keys made from data (names of players, zones) could be many
            _KEYS[k] = got
    return got


class Tree:
    """A value's JSON text and, for a dict with text keys or a list, its
    parts' trees (``keys``: the dict's keys in order, or None for a list).
    ``sort`` False: a decoded value, its dicts' keys kept in their order."""

    __slots__ = ("text", "keys", "parts")

    def __init__(self, value, depth: int = DEPTH, sort: bool = True):
        self.keys = self.parts = None
        if depth > 0 and isinstance(value, dict) and value and all(type(k) is str for k in value):
            self.keys = sorted(value) if sort else list(value)
            self.parts = [Tree(value[k], depth - 1, sort) for k in self.keys]
            self.text = "{" + ",".join(f"{_key(k)}:{p.text}" for k, p in zip(self.keys, self.parts)) + "}"
        elif depth > 0 and isinstance(value, (list, tuple)) and value:
            self.parts = [Tree(x, depth - 1, sort) for x in value]
            self.text = "[" + ",".join(p.text for p in self.parts) + "]"
        else:
            self.text = dumps(value, sort)


def changes(old: Tree, new: Tree, path: tuple = ()) -> list[str]:
    """What changed from ``old`` to ``new``, as JSON texts of changes:
    ``["=",path,value]`` (the part at ``path`` is now ``value``; a key new to
    its dict is added), ``["-",path]`` (the key at ``path`` is gone) and
    ``["~",path,start,removed,[items]]`` (in the list at ``path``,
    ``removed`` items from ``start`` are now ``items``). Empty when the texts
    are the same."""
    if old.text == new.text:
        return []
    if old.parts is not None and new.parts is not None:
        if old.keys is not None and new.keys is not None:
            before = dict(zip(old.keys, old.parts))
            out = []
            for k, b in zip(new.keys, new.parts):
                a = before.pop(k, None)
                out += changes(a, b, path + (k,)) if a is not None else [_set(path + (k,), b.text)]
            return out + [f'["-",{dumps(list(path + (k,)))}]' for k in before]
        if old.keys is None and new.keys is None:
            a, b = [p.text for p in old.parts], [p.text for p in new.parts]
            start = 0
            while start < min(len(a), len(b)) and a[start] == b[start]:
                start += 1
            end = 0  # items alike at both ends, after ``start``
            while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
                end += 1
            if len(a) == len(b) and len(a) - start - end == 1:  # one item changed: its own changes
                return changes(old.parts[start], new.parts[start], path + (start,))
            items = ",".join(b[start:len(b) - end])
            return [f'["~",{dumps(list(path))},{start},{len(a) - start - end},[{items}]]']
    return [_set(path, new.text)]


def _set(path: tuple, text: str) -> str:
    return f'["=",{dumps(list(path))},{text}]'


class Trail:
    """One player's history as a string: its first view whole, each later
    view (when it changed, or after the player's own action) as its
    ``changes``, and each own action as ``played <id>``, one a line."""

    __slots__ = ("text", "last", "after_move")

    def __init__(self, text: str = "", last: Tree | None = None, after_move: bool = False):
        self.text, self.last, self.after_move = text, last, after_move

    def seen(self, tree: Tree) -> Trail:
        """The trail after the player saw the view ``tree``."""
        if self.last is None:  # the first view, whole
            return Trail(f"{self.text}\n{tree.text}" if self.text else tree.text, tree)
        if not self.after_move and tree.text == self.last.text:  # nothing new
            return self
        line = "[" + ",".join(changes(self.last, tree)) + "]"
        return Trail(f"{self.text}\n{line}", tree)

    def played(self, action: int) -> Trail:
        """The trail after the player's own action ``action``."""
        line = f"played {action}"
        return Trail(f"{self.text}\n{line}" if self.text else line, self.last, True)


def expand(text: str) -> str:
    """The history with every view written whole (each changes line applied
    to the view before it): the string the adapter gave before views were
    written as their changes. (Decoded JSON keeps each text's key order,
    which is the view's, so every part is written again as it was.)"""
    out, value = [], None
    for line in text.split("\n") if text else []:
        if line.startswith("played "):
            out.append(line)
        elif value is None:
            value = json.loads(line)
            out.append(line)
        else:
            for op in json.loads(line):
                value = _apply(value, op)
            out.append(Tree(value, sort=False).text)
    return "\n".join(out)


def _apply(value, op):
    """``value`` (decoded JSON) with one change of ``changes`` made."""
    kind, path = op[0], op[1]
    if not path:
        return op[2] if kind == "=" else _splice(value, op)
    holder = value
    for key in path[:-1]:
        holder = holder[key]
    last = path[-1]
    if kind == "-":
        del holder[last]
    elif kind == "~":
        holder[last] = _splice(holder[last], op)
    elif isinstance(holder, dict) and last not in holder:  # a new key: the view's dicts are in key order
        holder[last] = op[2]
        ordered = sorted(holder.items())
        holder.clear()
        holder.update(ordered)
    else:
        holder[last] = op[2]
    return value


def _splice(items: list, op) -> list:
    _, _, start, removed, new = op
    return items[:start] + new + items[start + removed:]
