"""A framed unit's state machine: its blocks, the labels that name them, and
the questions it asks; joined into the function's lines at the end.

A label is a block not numbered yet: jumps are written as references
(``\x00k\x00``) and resolved once every block is known, after the blocks
that only jump on are left out (``finish``). ``UnitWriter`` and the flow's
writer (``emit_flow``) write the blocks' statements; this object only
keeps count of them, so the two share it without sharing a ``self``.
"""

from __future__ import annotations

import re

from rulebook.compiler.unit_locals import ENTRY, python_locals

_REF = re.compile("\x00(\\d+)\x00(\x01?)")
_COMPOUND = re.compile(r"(if|elif|else|for|while|with|try|except|finally|def)\b")
_ENDS = re.compile(r"(?:^|; )(?:continue|break|return\b[^;]*)$|^(?:return|raise)\b")
GROUP = 8  # a unit of more than twice as many blocks tests pc by groups of this many first


class Label:
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = None


class StateMachine:
    """The blocks of one framed unit being written into ``code`` (a ``compiler.code.Code``)."""

    def __init__(self, code):
        self.c = code
        self.blocks: list[tuple[Label, list]] = []
        self.labels: list[Label] = []
        self.questions: list[tuple[Label, str]] = []  # (answer, the rule that asks)
        self.start(Label())

    def label(self) -> Label:
        lab = Label()
        self.labels.append(lab)
        return lab

    def ref(self, lab: Label) -> str:
        if lab not in self.labels:
            self.labels.append(lab)
        return f"\x00{self.labels.index(lab)}\x00"

    def start(self, lab: Label) -> None:
        """Begin the block that ``lab`` names."""
        if lab not in self.labels:
            self.labels.append(lab)
        lab.pc = len(self.blocks)
        lines: list = []
        self.blocks.append((lab, lines))
        self.c.lines = lines
        self.c.depth = 3

    def jump(self, lab: Label) -> None:
        """Go to ``lab`` (falls through when it is the next block)."""
        self.c.line(f"pc = {self.ref(lab)}\x01")

    def goto_new(self) -> Label:
        """End the current block by falling into a new one; return its label."""
        lab = self.label()
        self.jump(lab)
        self.start(lab)
        return lab

    def loop_head(self) -> Label:
        head = self.label()
        self.jump(head)
        self.start(head)
        return head

    def finish(self, header: list[str], where: str) -> list:
        """The function's lines: header, then the blocks with their jumps
        resolved. A block that only jumps on is left out (its label names
        the block it jumps to), so a resume point costs no empty blocks."""
        self.c.line("st.stack.pop()")
        self.c.line("return None")
        self._drop_empty_blocks()
        out = [(0, h, where) for h in header]
        out.append((1, ENTRY, where))
        out.append((1, "pc = fr[1]", where))
        out.append((1, "while True:", where))
        n = len(self.blocks)
        shift = 1 if n > 2 * GROUP else 0  # many blocks: a test per group of them, then the block's own
        for k, (_lab, lines) in enumerate(self.blocks):
            if shift and k % GROUP == 0:
                last = k + GROUP >= n
                guard = f"pc >= {k}" if last else f"pc < {k + GROUP}" if k == 0 else f"{k} <= pc < {k + GROUP}"
                out.append((2, f"if {guard}:", where))
            out.append((2 + shift, f"if pc == {k}:", where))
            if not lines:
                lines.append((3, "pass", where))
            for depth, text, w in lines:
                out.append((depth + shift, self._resolve(text, k), w))
        return python_locals(drop_dead_lines(out), self.c.slot_names)

    def _drop_empty_blocks(self) -> None:
        alias: dict[int, Label] = {}  # label index -> the label it jumps to
        kept = []
        answers = {answer for answer, _ in self.questions}  # asked at pc - 1: they stay (Game.reask)
        for k, (lab, lines) in enumerate(self.blocks):
            m = _REF.fullmatch(lines[0][1][len("pc = "):]) if len(lines) == 1 and lines[0][1].startswith("pc = ") \
                else None
            if k > 0 and m is not None and m.group(2) and lab not in answers:
                alias[self.labels.index(lab)] = self.labels[int(m.group(1))]
            else:
                kept.append((lab, lines))
        self.blocks = kept
        for k, (lab, _lines) in enumerate(kept):
            lab.pc = k
        for lab in self.labels:
            seen = set()
            target = lab
            while self.labels.index(target) in alias and target not in seen:
                seen.add(target)
                target = alias[self.labels.index(target)]
            if target is not lab:
                lab.pc = target.pc

    def asks(self) -> dict:
        """pc of each answer -> the place of the rule that asks (after ``finish``)."""
        return {answer.pc: where for answer, where in self.questions}

    def _resolve(self, text: str, block: int) -> str:
        def sub(m):
            pc = self.labels[int(m.group(1))].pc
            if m.group(2):  # a jump that ends its block, forward: falls through the tests of the blocks between
                return str(pc) if pc > block else f"{pc}; continue"
            return str(pc)

        return _REF.sub(sub, text)


def ends_block(text: str) -> bool:
    """Whether a generated line leaves its block (``continue``, ``return``,
    ``raise``, as its last statement): what follows it at its depth is dead."""
    return _COMPOUND.match(text) is None and _ENDS.search(text) is not None


def drop_dead_lines(out: list) -> list:
    """``out`` without the lines after one that leaves its block, until the
    block ends (a jump written after a ``continue``, the function's ``return``
    after a ``raise``): what a reader would take for code that runs."""
    kept, dead = [], None
    for line in out:
        depth, text = line[0], line[1]
        if dead is not None and depth >= dead:
            continue
        dead = depth if ends_block(text) else None
        kept.append(line)
    return kept
