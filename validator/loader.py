"""Stage 1: read a YAML file into plain data, remembering where every value
came from.

PyYAML composes the document into nodes that carry marks; this module turns
them into dicts, lists and scalars while recording each value's line and
column (``positions``) and, for strings, how to map a position inside the
string back to the file (``spans``). Duplicate keys, alias bombs and
documents nested too deeply are diagnostics, not crashes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from validator.diagnostics import Diagnostic

try:  # the C loader is much faster when PyYAML was built with it
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader

MAX_NODES = 200_000  # values after alias expansion
MAX_DEPTH = 64  # nested mappings and sequences
MAX_BYTES = 5_000_000

Path_ = tuple  # a path into the document: keys and indexes


@dataclass(frozen=True)
class TextSpan:
    """Where a string value sits in its file, so that a (line, column)
    inside the string maps back to the file's own line and column.

    Literal blocks (``|``) map by formula. Other styles (plain, quoted,
    folded ``>``) may fold lines and unescape quotes, so each character of
    the string carries its own file position (``chars``)."""

    line: int  # 1-based file line of the string's first character
    column: int  # 1-based file column of the string's first character
    block: bool  # a literal block scalar: text line i is file line ``line + i - 1``
    indent: int  # for block scalars, the column where content starts
    chars: tuple = ()  # per character of the string: (file line, file column)
    text_lines: tuple = (0,)  # offsets in the string where its lines start

    def to_file(self, text_line: int, text_col: int) -> tuple[int, int]:
        if self.block:
            return self.line + text_line - 1, self.indent + text_col - 1
        if self.chars:
            start = self.text_lines[min(text_line, len(self.text_lines)) - 1]
            offset = min(start + text_col - 1, len(self.chars) - 1)
            if offset >= 0:
                line, col = self.chars[offset]
                return line, col + max(0, start + text_col - 1 - offset)
        return self.line, self.column + text_col - 1


@dataclass
class Document:
    file: str
    source: str
    data: object = None
    positions: dict = field(default_factory=dict)  # path -> (line, col) of the value
    key_positions: dict = field(default_factory=dict)  # path -> (line, col) of its key
    spans: dict = field(default_factory=dict)  # path -> TextSpan for strings

    def where(self, path: Path_, key: bool = False) -> tuple[int, int]:
        """The position of the value at ``path`` (or of its key), falling
        back to the nearest enclosing value that has one."""
        path = tuple(path)
        table = self.key_positions if key else self.positions
        while path:
            if path in table:
                return table[path]
            if key and path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (1, 1))

    def diag(
        self,
        code: str,
        message: str,
        path: Path_ = (),
        hint: str | None = None,
        key: bool = False,
        at: tuple[int, int] | None = None,
        length: int = 1,
    ) -> Diagnostic:
        line, col = at if at else self.where(path, key=key)
        return Diagnostic(code, message, self.file, line, col, hint, path_str(path), length)


def path_str(path: Path_) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out


class _TooLarge(Exception):
    def __init__(self, message: str, mark=None, hint: str | None = None):
        super().__init__(message)
        self.mark = mark
        self.hint = hint


class _Builder:
    def __init__(self, doc: Document):
        self.doc = doc
        self.count = 0
        self.diags: list[Diagnostic] = []
        self.line_starts = [0]
        for i, ch in enumerate(doc.source):
            if ch == "\n":
                self.line_starts.append(i + 1)

    def build(self, node, path: Path_, depth: int):
        self.count += 1
        if self.count > MAX_NODES:
            raise _TooLarge(
                f"the document expands to more than {MAX_NODES} values (an alias bomb?)",
                None,
                "aliases (*name) that refer to each other repeatedly multiply the document",
            )
        if depth > MAX_DEPTH:
            raise _TooLarge(
                f"the document is nested more than {MAX_DEPTH} levels deep",
                node.start_mark,
                "flatten the data: split it into named parts",
            )
        mark = node.start_mark
        self.doc.positions[path] = (mark.line + 1, mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            out = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    self.diags.append(
                        Diagnostic(
                            "E010",
                            "mapping keys must be plain names",
                            self.doc.file,
                            key_node.start_mark.line + 1,
                            key_node.start_mark.column + 1,
                        )
                    )
                    continue
                key = _scalar(key_node)
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    key = str(key_node.value)
                kpos = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                if key in out:
                    first = self.doc.key_positions.get(path + (key,), kpos)
                    self.diags.append(
                        Diagnostic(
                            "E002",
                            f"duplicate key '{key}' (first defined on line {first[0]})",
                            self.doc.file,
                            kpos[0],
                            kpos[1],
                            "YAML keeps only the last one; remove or rename one of them",
                            path_str(path + (key,)),
                            len(str(key)),
                        )
                    )
                    continue
                self.doc.key_positions[path + (key,)] = kpos
                out[key] = self.build(value_node, path + (key,), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        value = _scalar(node)
        if isinstance(value, str):
            self.doc.spans[path] = _span(node, self.doc.source, value, self.line_starts)
        return value


def _scalar(node):
    """Resolve a scalar the way YAML's safe loader does (ints, bools, null, floats, strings)."""
    tag = node.tag
    if tag.endswith(":str"):
        return node.value
    try:
        value = _CONSTRUCTOR.construct_object(node, deep=True)
    except (yaml.YAMLError, ValueError):
        return node.value
    finally:
        _CONSTRUCTOR.constructed_objects.clear()
    if not isinstance(value, (str, int, float, bool, type(None))):
        return str(node.value)  # timestamps, binary: keep the text
    return value


_CONSTRUCTOR = yaml.constructor.SafeConstructor()


def _span(node, source: str, text: str = "", line_starts=None) -> TextSpan:
    mark = node.start_mark
    style = node.style
    if style not in ("|",) and line_starts and getattr(mark, "index", None) is not None:
        return _aligned(node, source, text, line_starts)
    if style in ("|", ">"):
        lines = source.splitlines()
        first = mark.line + 1  # 0-based index of the first content line
        indent = 0
        for i in range(first, min(len(lines), first + 200)):
            if lines[i].strip():
                indent = len(lines[i]) - len(lines[i].lstrip(" "))
                break
        return TextSpan(mark.line + 2, indent + 1, True, indent + 1)
    shift = 1 if style in ("'", '"') else 0
    return TextSpan(mark.line + 1, mark.column + 1 + shift, False, 0)


def _aligned(node, source: str, text: str, line_starts) -> TextSpan:
    """Give each character of a scalar's value the file position it came
    from, walking the value and its source text side by side: folded line
    breaks, indentation and doubled quotes are skipped in the source."""
    import bisect

    mark = node.start_mark
    j = mark.index
    end = node.end_mark.index if node.end_mark is not None else len(source)
    if node.style == ">":
        j = source.find("\n", j) + 1 if source.find("\n", j) >= 0 else j
    elif node.style in ("'", '"'):
        j += 1
    chars = []
    for ch in text:
        k = j
        while k < end and source[k] != ch and source[k] in " \t\r\n'\"\\":
            k += 1
        if k < end and source[k] == ch:
            j = k
        pos = min(j, max(end - 1, 0))
        line = bisect.bisect_right(line_starts, pos)
        chars.append((line, pos - line_starts[line - 1] + 1))
        if j < end and source[j] == ch:
            j += 1
    text_lines = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    first = chars[0] if chars else (mark.line + 1, mark.column + 1)
    return TextSpan(first[0], first[1], False, 0, tuple(chars), tuple(text_lines))


def _too_deep(source: str):
    """A cheap scan for nesting far beyond MAX_DEPTH (flow brackets, or
    '- ' markers on one line), before the YAML composer recurses on it."""
    depth = 0
    quote = None
    line, col = 1, 0
    limit = MAX_DEPTH * 2
    for i, ch in enumerate(source):
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
            quote = None if quote == "'" or quote == '"' else quote
            continue
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "'\"" and (col == 1 or source[i - 1] in " \t[{,:"):
            quote = ch
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return line, col
        elif ch in "]}":
            depth = max(0, depth - 1)
    for i, text in enumerate(source.splitlines(), 1):
        stripped = text.lstrip()
        markers = 0
        while stripped.startswith(("- ", "? ")):
            markers += 1
            stripped = stripped[2:].lstrip()
        if markers > limit:
            return i, 1
    return None


def load_text(source: str, file: str = "<ruleset>") -> tuple[Document, list[Diagnostic]]:
    doc = Document(file=file, source=source)
    if len(source.encode("utf-8", "replace")) > MAX_BYTES:
        return doc, [Diagnostic("E003", f"file is larger than {MAX_BYTES} bytes", file, 1, 1)]
    deep = _too_deep(source)
    if deep is not None:
        return doc, [Diagnostic("E003", f"the document is nested more than {MAX_DEPTH} levels deep", file,
                                deep[0], deep[1], "flatten the data: split it into named parts")]
    try:
        node = yaml.compose(source, Loader=_Loader)
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        message = (err.problem or "invalid YAML").strip()
        if err.context:
            message = f"{message} ({err.context.strip()})"
        hint = None
        lines = source.splitlines()
        if "tab" in message or (0 < line <= len(lines) and "\t" in lines[line - 1][: max(col, 1)]):
            hint = "indent with spaces, not tabs"
        elif "mapping values are not allowed" in message:
            hint = "a value containing ': ' must be quoted, or written as a block with '|'"
        return doc, [Diagnostic("E001", message, file, line, col, hint)]
    except yaml.YAMLError as err:
        return doc, [Diagnostic("E001", str(err).splitlines()[0], file, 1, 1)]
    except RecursionError:
        return doc, [Diagnostic("E003", f"the document is nested more than {MAX_DEPTH} levels deep", file, 1, 1)]
    if node is None:
        doc.data = None
        return doc, []
    builder = _Builder(doc)
    try:
        doc.data = builder.build(node, (), 0)
    except _TooLarge as err:
        line, col = (err.mark.line + 1, err.mark.column + 1) if err.mark is not None else (1, 1)
        return doc, [Diagnostic("E003", str(err), file, line, col, err.hint)]
    except RecursionError:
        return doc, [Diagnostic("E003", f"the document is nested more than {MAX_DEPTH} levels deep", file, 1, 1)]
    return doc, builder.diags


def load_file(path: str | Path) -> tuple[Document, list[Diagnostic]]:
    path = Path(path)
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        return Document(file=str(path), source=""), [Diagnostic("E004", f"cannot read file: {err}", str(path), 1, 1)]
    return load_text(source, str(path))
