"""Stage 1: read a YAML file into plain data, remembering where every value
came from.

PyYAML composes the document into nodes that carry marks; this module turns
them into dicts, lists and scalars while recording each value's line and
column (``positions``) and, for strings, how to map a position inside the
string back to the file (``spans``). Duplicate keys, alias bombs and
documents nested too deeply are diagnostics, not crashes.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from rulebook.dsl.chars import CONTROL
from rulebook.validator import files
from rulebook.validator.diagnostics import Diagnostic

try:  # the C loader is much faster when PyYAML was built with it
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader

MAX_NODES = 200_000  # values after alias expansion
MAX_EXPANDED = 10_000_000  # characters of keys and texts after alias expansion (twice MAX_BYTES)
MAX_DEPTH = 64  # nested mappings and sequences
MAX_BYTES = 5_000_000
MAX_INT_DIGITS = files.MAX_INT_DIGITS  # digits of an integer

# the tags of plain data: anything else (!!python/name:os.system, !custom, !!set) is E005
_CORE = "tag:yaml.org,2002:"
DATA_TAGS = frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp",
                                          "binary", "merge"))
# plain values YAML 1.1 reads as true or false, where YAML 1.2 (and a reader's eye) sees a word: E006.
# A key is always read as the word it is (``on:`` is a trigger's field; a zone may be called ``on``).
_YAML11_BOOLS = frozenset(w for word in ("yes", "no", "on", "off") for w in (word, word.title(), word.upper()))

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
    style: str = ""  # YAML's scalar style: "" (plain), "'", '"', "|" or ">" (a folded block)

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
        self.size = 0  # characters of keys and texts, aliases expanded
        self.spans: dict[int, TextSpan] = {}  # by node: an aliased text is mapped once
        self.diags: list[Diagnostic] = []
        # YAML's marks do not count a byte order mark: neither do the columns of line 1
        self.bom = 1 if doc.source.startswith("\ufeff") else 0
        self.line_starts = [self.bom] + [m.end() for m in re.finditer("\n", doc.source)]
        self.lines = doc.source.splitlines()

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
        if node.tag not in DATA_TAGS:
            self._diag("E005", f"the YAML tag '{_short_tag(node.tag)}' is not allowed", node, path,
                       "a ruleset is plain data: remove the tag (quote the text if it is meant as text)")
            node = _untagged(node)
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
                self._count_text(key_node)
                if key_node.tag not in DATA_TAGS:
                    self._diag("E005", f"the YAML tag '{_short_tag(key_node.tag)}' is not allowed", key_node, path,
                               "a key is a plain name: remove the tag")
                key = _scalar(key_node)
                if not isinstance(key, (str, int)) or isinstance(key, bool):
                    key = str(key_node.value)
                self._check_text(key_node, key_node.value, path)
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
        self._count_text(node)
        if node.tag == _CORE + "int" and len(node.value.lstrip("+-0_")) > MAX_INT_DIGITS:
            self._diag("E003", f"a number of {len(node.value)} digits; the limit is {MAX_INT_DIGITS}", node, path,
                       "no game needs such a number: did a value get pasted twice?")
            return 0
        if node.tag == _CORE + "bool" and not node.style and node.value in _YAML11_BOOLS:
            meaning = node.value.lower() in ("yes", "on")
            self._diag("E006", f"YAML 1.1 reads '{node.value}' as {str(meaning).lower()}, not as the word",
                       node, path, f"write {str(meaning).lower()} for a yes/no value, or '{node.value}' in quotes "
                       "for the word", len(node.value))
        value = _scalar(node)
        if isinstance(value, str):
            self._check_text(node, value, path)
            span = self.spans.get(id(node))
            if span is None:
                span = self.spans[id(node)] = _span(node, self.doc.source, value, self.line_starts, self.bom,
                                                       self.lines)
            self.doc.spans[path] = span
        return value

    def _count_text(self, node) -> None:
        """Count a text against MAX_EXPANDED; past it, the error is at the
        text that crossed it (with aliases, the anchored text)."""
        self.size += len(node.value)
        if self.size > MAX_EXPANDED:
            raise _TooLarge(
                f"the document expands to more than {MAX_EXPANDED} characters of text (an alias bomb?)",
                node.start_mark,
                "an alias (*name) of a long text repeats the whole text each time it is used",
            )

    def _check_text(self, node, value: str, path: Path_) -> None:
        """Texts are shown on terminals: a control character (an escape
        sequence, a bell, a carriage return) could drive the terminal."""
        bad = CONTROL.search(value)
        if bad is None:
            return
        self._diag("E007", f"a control character (U+{ord(bad.group()):04X}) in a text", node, path,
                   "texts are shown on terminals, which act on control characters: remove it "
                   "(\\t and line breaks are fine)")

    def _diag(self, code: str, message: str, node, path: Path_, hint: str, length: int = 1) -> None:
        mark = node.start_mark
        self.diags.append(Diagnostic(code, message, self.doc.file, mark.line + 1, mark.column + 1, hint,
                                     path_str(path), length))


def _short_tag(tag: str) -> str:
    return files.escape("!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag)[:80]


def _untagged(node):
    """The node as plain data, its tag dropped (it has been reported)."""
    kind = {yaml.MappingNode: "map", yaml.SequenceNode: "seq"}.get(type(node), "str")
    return type(node)(_CORE + kind, node.value, node.start_mark, node.end_mark,
                      **({"style": node.style} if isinstance(node, yaml.ScalarNode) else {}))


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


MAX_MAPPED = 100_000  # characters of a text whose every character gets its file position


def _span(node, source: str, text: str = "", line_starts=None, bom: int = 0, lines=None) -> TextSpan:
    mark = node.start_mark
    style = node.style
    if style not in ("|",) and line_starts and getattr(mark, "index", None) is not None and len(text) <= MAX_MAPPED:
        return _aligned(node, source, text, line_starts, bom)
    if style in ("|", ">"):
        lines = source.splitlines() if lines is None else lines
        indent = _block_indent(lines, mark.line + 1, text)
        return TextSpan(mark.line + 2, indent + 1, True, indent + 1, style=style)
    shift = 1 if style in ("'", '"') else 0
    return TextSpan(mark.line + 1, mark.column + 1 + shift, False, 0, style=style or "")


def _block_indent(lines: list[str], first: int, text: str) -> int:
    """The column (0-based) where a block scalar's content starts.

    Compared line by line with the value: with an indentation indicator
    (``|2``) the first line may be indented further than the content, so
    the indentation of the first non-blank line is not always the answer."""
    for i, text_line in enumerate(text.split("\n")):
        if text_line.strip() and first + i < len(lines) and lines[first + i].endswith(text_line):
            return len(lines[first + i]) - len(text_line)
    for i in range(first, min(len(lines), first + 200)):  # the value and the file disagree: guess
        if lines[i].strip():
            return len(lines[i]) - len(lines[i].lstrip(" "))
    return 0


def _aligned(node, source: str, text: str, line_starts, bom: int = 0) -> TextSpan:
    """Give each character of a scalar's value the file position it came
    from. Quoted scalars are read again exactly (``_quoted``: escapes, '',
    folded line breaks); for the others, and if that read disagrees with
    YAML, the value and its source text are walked side by side: folded line
    breaks, indentation and doubled quotes are skipped in the source."""
    mark = node.start_mark
    j = mark.index + bom
    end = node.end_mark.index + bom if node.end_mark is not None else len(source)
    at = _verbatim(node, source, text, j, end)
    if at is not None:  # one line, as written: each character is where the first one is, plus its offset
        line = max(1, bisect.bisect_right(line_starts, at))
        return TextSpan(line, at - line_starts[line - 1] + 1, False, 0, style=node.style or "")
    indexes = None
    if node.style in ("'", '"'):
        try:
            value, indexes = _quoted(source, j, end)
        except (ValueError, LookupError):  # not read as YAML reads it: walk instead
            value = None
        if value != text:
            indexes = None
    if indexes is None:
        indexes = _walk(node, source, text, j, end)
    chars = []
    for pos in indexes:
        line = max(1, bisect.bisect_right(line_starts, pos))
        chars.append((line, pos - line_starts[line - 1] + 1))
    text_lines = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    first = chars[0] if chars else (mark.line + 1, mark.column + 1)
    return TextSpan(first[0], first[1], False, 0, tuple(chars), tuple(text_lines), node.style or "")


def _verbatim(node, source: str, text: str, j: int, end: int) -> int | None:
    """Where a one-line value starts in the source, when the source holds it
    exactly as it is (no escape, no doubled quote): most values, whose
    positions then need no table of their own."""
    if not text or "\n" in text or node.style not in (None, "", "'", '"'):
        return None
    k = source.find(text, j, end)
    if k < 0 or source[j:k].strip(" ") not in ("", node.style) and not _ANCHOR.fullmatch(source[j:k]):
        return None
    return k


_ANCHOR = re.compile(r"(?:[&!]\S*[ \t]+)+['\"]?")  # anchors and tags written before a value


def _walk(node, source: str, text: str, j: int, end: int) -> list[int]:
    """The source index of each character of ``text``, found by skipping
    what YAML drops (spaces, line breaks, quotes, backslashes) until the
    next character matches: good enough for plain and folded scalars."""
    if node.style == ">":
        j = source.find("\n", j) + 1 if source.find("\n", j) >= 0 else j
    elif node.style in ("'", '"'):
        j += 1
    out = []
    for ch in text:
        k = j
        while k < end and source[k] != ch and source[k] in " \t\r\n'\"\\":
            k += 1
        if k < end and source[k] == ch:
            j = k
        out.append(min(j, max(end - 1, 0)))
        if j < end and source[j] == ch:
            j += 1
    return out


# YAML's escapes in double-quoted scalars: one character after the backslash ...
_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
    "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}  # ... or a character code of so many hex digits


def _quoted(source: str, start: int, end: int) -> tuple[str, list[int]]:
    """Read a quoted scalar again, from its opening quote at ``start`` to
    its closing quote at ``end - 1``: its value, and the source index of
    each character of the value. An escape (``\\u2660``, ``\\t``) or a
    doubled quote is one character of the value but several of the source,
    so every later column depends on reading them exactly as YAML does;
    line breaks fold to a space (or to the blank lines after them) and the
    indentation of the next line is dropped."""
    quote = source[start]
    out: list[str] = []
    at: list[int] = []
    i, stop = start + 1, end - 1
    while i < stop:
        ch = source[i]
        if quote == "'" and source.startswith("''", i):
            out.append("'")
            at.append(i)
            i += 2
        elif quote == '"' and ch == "\\" and source[i + 1] in "\r\n":  # a line continuation: no space
            i, breaks = _line_breaks(source, i + 1, stop)
            out += "\n" * len(breaks)
            at += breaks
        elif quote == '"' and ch == "\\":
            code = source[i + 1]
            at.append(i)  # the character an escape stands for is placed at its backslash
            if code in _HEX_ESCAPES:
                digits = _HEX_ESCAPES[code]
                out.append(chr(int(source[i + 2 : i + 2 + digits], 16)))
                i += 2 + digits
            else:
                out.append(_ESCAPES[code])  # KeyError: not an escape YAML knows; the caller falls back
                i += 2
        elif ch in " \t\r\n":
            j = i
            while j < stop and source[j] in " \t":
                j += 1
            if j < stop and source[j] in "\r\n":  # spaces before a line break are dropped
                first_break = j
                i, breaks = _line_breaks(source, j, stop)
                out += "\n" * len(breaks) if breaks else " "
                at += breaks or [first_break]
            else:
                out += source[i:j]
                at += range(i, j)
                i = j
        else:
            out.append(ch)
            at.append(i)
            i += 1
    return "".join(out), at


def _line_breaks(source: str, i: int, stop: int) -> tuple[int, list[int]]:
    """Skip the line break at ``i`` and the indentation after it; each
    further (blank) line is one line break of the value: return where the
    text goes on and the source index of each such break."""
    breaks = []
    i += 2 if source.startswith("\r\n", i) else 1
    while True:
        while i < stop and source[i] in " \t":
            i += 1
        if i < stop and source[i] in "\r\n":
            breaks.append(i)
            i += 2 if source.startswith("\r\n", i) else 1
        else:
            return i, breaks


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


def _yaml_error(err: yaml.MarkedYAMLError, source: str, file: str) -> Diagnostic:
    """E001 for a YAML syntax error. YAML notices a quote or bracket that is
    never closed only lines later (or at the end of the file), so those are
    reported where they were opened; the place is always inside the file."""
    lines = source.splitlines()
    mark = err.problem_mark or err.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    message = (err.problem or "invalid YAML").strip()
    if err.context:
        message = f"{message} ({err.context.strip()})"
    if "tab" in message or (0 < line <= len(lines) and "\t" in lines[line - 1][: max(col, 1)]):
        return Diagnostic("E001", message, file, *_inside(lines, line, col), "indent with spaces, not tabs")
    if "mapping values are not allowed" in message:
        hint = "a value containing ': ' must be quoted, or written as a block with '|'"
        return Diagnostic("E001", message, file, *_inside(lines, line, col), hint)
    better = _unclosed(err, source, lines, file) or _after_flow_value(err, source, lines, file)
    return better or Diagnostic("E001", message, file, *_inside(lines, line, col))


def _inside(lines: list[str], line: int, col: int) -> tuple[int, int]:
    """A place past the end of the file (YAML's end of stream) moves to the
    end of the last line, so that the diagnostic can show a source line."""
    if not lines:
        return 1, 1
    if line > len(lines):
        return len(lines), len(lines[-1]) + 1
    return max(line, 1), max(col, 1)


def _unclosed(err: yaml.MarkedYAMLError, source: str, lines: list[str], file: str) -> Diagnostic | None:
    """A string, list or mapping that is never closed, at its opening quote
    or bracket: YAML's context mark when it says so, or else the quoted
    string that runs over several lines up to where YAML stumbled."""
    problem, context = err.problem_mark, err.context_mark
    if problem is None:
        return None
    at_end = problem.line >= len(lines) or (problem.line == len(lines) - 1 and problem.column >= len(lines[-1]))
    until = "the end of the file" if at_end else f"line {problem.line + 1}"
    if context is not None and err.context and "quoted scalar" in err.context:
        quote = _char_at(lines, context.line, context.column) or '"'
        return Diagnostic("E001", "this string is never closed", file, context.line + 1, context.column + 1,
                          f"add the closing {quote} where the string ends (YAML looked for it up to {until})")
    flows = {"flow sequence": ("list", "]"), "flow mapping": ("mapping", "}")}
    kind = next((flows[k] for k in flows if err.context and k in err.context), None)
    if kind and context is not None and problem.line > context.line and context.line < len(lines):
        if problem.line >= len(lines) or _indent(lines[problem.line]) <= _indent(lines[context.line]):
            return Diagnostic("E001", f"this {kind[0]} is never closed", file, context.line + 1, context.column + 1,
                              f"add the closing '{kind[1]}' (YAML looked for it up to {until})")
    if not isinstance(err, yaml.parser.ParserError):
        return None
    for token in reversed(_tokens_before(source, problem)):
        if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"'):
            start, end = token.start_mark, token.end_mark
            if start.line < end.line == problem.line:
                return Diagnostic("E001", "this string is never closed", file, start.line + 1, start.column + 1,
                                  f"add the closing {token.style} at the end of this line (YAML read on to the "
                                  f"{token.style} on line {end.line + 1})")
            return None
    return None


def _after_flow_value(err: yaml.MarkedYAMLError, source: str, lines: list[str], file: str) -> Diagnostic | None:
    """Text after a value that starts with '{' or '[' (``label: {q} x {f}``):
    YAML read the braces as a mapping (or a list) and stumbles on the rest."""
    problem = err.problem_mark
    if problem is None or not isinstance(err, yaml.parser.ParserError):
        return None
    tokens = _tokens_before(source, problem)
    if not tokens or not isinstance(tokens[-1], (yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)):
        return None
    if tokens[-1].end_mark.line != problem.line:
        return None
    depth = 0
    for i in range(len(tokens) - 1, -1, -1):
        if isinstance(tokens[i], (yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)):
            depth += 1
        elif isinstance(tokens[i], (yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken)):
            depth -= 1
            if depth == 0:
                break
    else:
        return None
    start = tokens[i].start_mark
    if start.line != problem.line:
        return None
    opener, kind = ("{", "mapping") if isinstance(tokens[i], yaml.FlowMappingStartToken) else ("[", "list")
    hint = f"a value that starts with '{opener}' must be quoted"
    if i > 0 and isinstance(tokens[i - 1], (yaml.ValueToken, yaml.BlockEntryToken)):
        value = lines[start.line][start.column :].split(" #")[0].rstrip()
        quoted = f'"{value}"' if '"' not in value else "'" + value.replace("'", "''") + "'"
        hint = f"{hint}: {quoted}"
    return Diagnostic("E001", f"this value starts with '{opener}', so YAML reads it as a {kind}", file,
                      start.line + 1, start.column + 1, hint)


def _tokens_before(source: str, mark) -> list:
    """YAML's tokens up to ``mark`` (with PyYAML's own scanner, which keeps
    each token's style; only run to explain an error, on files of sensible size)."""
    out: list = []
    if len(source) > 1_000_000:
        return out
    try:
        for token in yaml.scan(source, Loader=yaml.SafeLoader):
            if (token.start_mark.line, token.start_mark.column) >= (mark.line, mark.column):
                break
            out.append(token)
    except yaml.YAMLError:
        pass
    return out


def _char_at(lines: list[str], line: int, col: int) -> str:
    return lines[line][col] if 0 <= line < len(lines) and 0 <= col < len(lines[line]) else ""


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))



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
        return doc, [_yaml_error(err, source, file)]
    except yaml.reader.ReaderError as err:  # a character YAML does not allow anywhere, comments included
        line = source.count("\n", 0, err.position) + 1
        column = err.position - (source.rfind("\n", 0, err.position) + 1) + 1
        code = "E007" if CONTROL.match(chr(err.character)) else "E001"
        return doc, [Diagnostic(code, f"a control character (U+{err.character:04X}) in the file", file, line, column,
                                "YAML allows no control character but tab and line breaks, even in a comment")]
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
    """Read a YAML file (only a regular file, at most MAX_BYTES: see
    ``validator.files``) and load it."""
    path = Path(path)
    try:
        source = files.read_text(path, MAX_BYTES, "the file")
    except files.UnsafeFile as err:
        code = err.code or "E004"
        return Document(file=str(path), source=""), [Diagnostic(code, err.message, str(path), err.line, err.column)]
    return load_text(source, str(path))
