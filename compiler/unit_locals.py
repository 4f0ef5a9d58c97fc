"""A framed unit's rule locals as Python locals of its function.

A unit that can stop keeps its locals in its frame's list ``L`` (plain data,
so a stopped game clones and saves); between two stops its function reads
them into Python locals and writes them back where it returns with its
frame still on the stack (``python_locals``).
"""

from __future__ import annotations

import re

ENTRY = "L = fr[2]"
_SLOT = re.compile(r"\bL\[(\d+)\]")
_BARE = re.compile(r"\bL\b(?!\[\d+\])")  # the frame's list itself: handed to a helper
_EXIT = re.compile(r"^(if .*: )?(return (?:SUSPEND|STOP|None|_r))$")
_COMPREHENSION = re.compile(r" for [\w, ()]+ in ")  # (a for statement starts its line)


def in_nested_scope(text: str) -> bool:
    """Whether a generated line holds a lambda or a comprehension, where a
    local of the function read is a cell (every read of it dearer)."""
    return "lambda" in text or _COMPREHENSION.search(text) is not None


_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")  # with fullmatch, as compiler/code.checked_name
_LAMBDA = re.compile(r"(?<=[(=,] )lambda\b([^:]*):|(?<=[(=])lambda\b([^:]*):")


def local_name(slot: int, names: dict) -> str:
    """The Python local of a frame slot: ``l_1_tops`` after the rule's name
    when it is a plain identifier (only checked names enter code), else
    ``l_1``. A name ending in a digit gets the short form: the names Code
    gives bound slots end in their slot number (``tops_1``), so the two
    never meet."""
    name = names.get(slot, "")
    if _IDENT.fullmatch(name) and not name[-1].isdigit():
        return f"l_{slot}_{name}"
    return f"l_{slot}"


def python_locals(out: list, slot_names: dict) -> list:
    """A unit's locals as Python locals (``l_3_hand``, ``local_name``), not items of its frame's
    list (``L[3]``): read from the frame when the function starts (or
    resumes), written back to it where the function returns with its frame
    still on the stack (a question, a frame it pushed that stopped, the end
    of the game). A frame is plain data only where a unit can stop, and
    there it is whole. A lambda reads them through its defaults (it is
    called where it is made: a key, a say's piece, a label), not as cells
    of the function; a slot a comprehension reads stays in the list (a
    comprehension is a function of its own here: a cell would cost every
    read). Nothing changes when the list itself is handed to a helper."""
    texts = [t for _d, t, _w in out if not t.lstrip().startswith("#")]
    if any(_BARE.search(t) for t in texts if t != ENTRY):
        return out
    kept = {int(k) for t in texts if _COMPREHENSION.search(t) for k in _SLOT.findall(t)}
    slots = sorted({int(k) for t in texts for k in _SLOT.findall(t)} - kept)
    if not slots:
        return out
    py = {k: local_name(k, slot_names) for k in slots}
    names = ", ".join(py[k] for k in slots)
    items = ", ".join(f"L[{k}]" for k in slots)
    save = f"{items} = {names}"
    local = set(slots)

    def to_local(m):
        k = int(m.group(1))
        return py[k] if k in local else m.group(0)

    new, prev = [], ""
    for depth, text, w in out:
        if text == ENTRY:
            text = f"{ENTRY}; {names} = {items}"
        elif not text.lstrip().startswith("#"):
            read = sorted({int(k) for k in _SLOT.findall(text)} & local)
            text = _SLOT.sub(to_local, text)
            if read and "lambda" in text:  # (a lambda the pattern misses reads them as cells: slower, not wrong)
                defaults = ", ".join(f"{py[k]}={py[k]}" for k in read)
                text = _LAMBDA.sub(lambda m: _with_defaults(m.group(1) or m.group(2) or "", defaults), text)
            m = _EXIT.match(text)
            if m and not (m.group(1) is None and prev == "st.stack.pop()"):  # a popped frame is not read again
                text = f"{m.group(1) or ''}{save}; {m.group(2)}"
        new.append((depth, text, w))
        prev = text
    return new


def _with_defaults(params: str, defaults: str) -> str:
    """``lambda PARAMS:`` with ``defaults`` after its own parameters."""
    params = params.strip()
    return f"lambda {params + ', ' if params else ''}{defaults}:"

