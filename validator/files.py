"""Reading files nobody vouches for: rulesets, scenario files, saves, logs.

Every such file is read here, the same way: only a regular file (a folder,
a FIFO or a device such as ``/dev/zero`` is refused before a byte is read,
from the open file's own ``fstat``, so a name swapped after a check cannot
slip one in), at most ``limit`` bytes (one more byte is read to tell a file
that is too large), and as UTF-8. JSON is parsed with limits too: nesting
depth, the digits of an integer, no ``NaN`` or ``Infinity``, no control
character in a text (they are printed on terminals). A problem is an
``UnsafeFile`` with a line and a column, which each caller turns into its
own located error (``E004``/``E003`` for YAML, ``R020`` for saves and logs).

The shapes of saves, logs and scenario files are their JSON Schemas
(``validator/*.schema.json``, checked by ``rulebook.files.shapes``); a
``Field`` is what remains for values inside a text, such as the options of
a bot a save names.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from rulebook.dsl.chars import CONTROL

MAX_JSON_DEPTH = 64  # nested lists and objects in a save or a log record
MAX_INT_DIGITS = 100  # digits of one integer in a save, a log or a YAML file
MAX_LINE = 1_000_000  # bytes of one line of a log


class UnsafeFile(Exception):
    """A file that cannot be read as it is, with where (1-based)."""

    def __init__(self, message: str, line: int = 1, column: int = 1, code: str | None = None):
        super().__init__(message)
        self.message, self.line, self.column, self.code = message, line, column, code


def _open_regular(path: str | Path, what: str):
    """The file open for reading, if it is a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise UnsafeFile(f"cannot read {what}: {err.strerror or err}", code="E004") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a device, a pipe or a socket"
            raise UnsafeFile(f"cannot read {what}: it is {kind}, not a regular file", code="E004")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, limit: int, what: str = "the file") -> bytes:
    """At most ``limit`` bytes of a regular file; larger files are refused."""
    with _open_regular(path, what) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise UnsafeFile(f"{what} is larger than {limit} bytes", code="E003")
    return data


def read_head(path: str | Path, size: int, what: str = "the file") -> str:
    """The first ``size`` bytes of a regular file, as text (to tell what it is)."""
    with _open_regular(path, what) as f:
        return f.read(size).decode("utf-8", "replace")


def decode(data: bytes, what: str = "the file") -> str:
    """UTF-8 text; the place of the first byte that is not is the error's."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        raise UnsafeFile(f"{what} is not UTF-8 text (byte 0x{data[err.start]:02x})", line, column,
                         code="E004") from None


def read_text(path: str | Path, limit: int, what: str = "the file") -> str:
    return decode(read_bytes(path, limit, what), what)


def read_lines(path: str | Path, limit: int, what: str = "the file") -> Iterator[tuple[int, str]]:
    """The lines of a regular file with their numbers (1-based), at most
    ``limit`` bytes in all and ``MAX_LINE`` bytes a line."""
    total = 0
    with _open_regular(path, what) as f:
        for number, raw in enumerate(iter(lambda: f.readline(MAX_LINE + 1), b""), 1):
            total += len(raw)
            if total > limit:
                raise UnsafeFile(f"{what} is larger than {limit} bytes", number, 1, code="E003")
            if len(raw) > MAX_LINE and not raw.endswith(b"\n"):
                raise UnsafeFile(f"line {number} of {what} is longer than {MAX_LINE} bytes", number, 1,
                                 code="E003")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise UnsafeFile(f"{what} is not UTF-8 text (byte 0x{raw[err.start]:02x})", number, err.start + 1,
                                 code="E004") from None
            yield number, line.rstrip("\r\n")


# ------------------------------------------------------------ JSON with limits


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {digits} digits (the limit is {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def _constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


_BAD_NUMBER = re.compile(rf"-?\d{{{MAX_INT_DIGITS + 1},}}|NaN|-?Infinity|-?\d[\d.]*[eE][+-]?\d{{3,}}")
_DECODER = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)


def parse_json(text: str, line: int = 1) -> object:
    """JSON with limits; ``line``: the file line the text starts on."""
    try:
        value, end = _DECODER.raw_decode(text, _skip_space(text, 0))
    except json.JSONDecodeError as err:
        raise UnsafeFile(f"not JSON: {err.msg}", line + err.lineno - 1, err.colno) from None
    except ValueError as err:  # a limit of the hooks above, at the first number that breaks it
        found = _BAD_NUMBER.search(text)
        raise UnsafeFile(str(err), *_line_col(text, found.start() if found else 0, line)) from None
    except RecursionError:
        raise UnsafeFile(f"JSON nested more than {MAX_JSON_DEPTH} levels deep",
                         *_line_col(text, _too_deep_at(text), line)) from None
    rest = _skip_space(text, end)
    if rest < len(text):
        raise UnsafeFile("not JSON: text after the value", *_line_col(text, rest, line))
    if too_deep(value) is not None:
        raise UnsafeFile(f"JSON nested more than {MAX_JSON_DEPTH} levels deep",
                         *_line_col(text, _too_deep_at(text), line))
    bad = _control_at(value)
    if bad is not None:  # every text of a save or a log is game text, printed on terminals
        at = locate(text, bad)
        raise UnsafeFile("a control character in a text (texts are printed on terminals)", line + at[0] - 1, at[1])
    return value


def _control_at(value) -> tuple | None:
    """The path to a text (or key) holding a control character, or None."""
    todo = [(value, ())]
    while todo:
        node, path = todo.pop()
        if isinstance(node, str):
            if CONTROL.search(node):
                return path
        elif isinstance(node, dict):
            for k, v in node.items():
                if CONTROL.search(k):
                    return path + (k,)
                todo.append((v, path + (k,)))
        elif isinstance(node, list):
            todo.extend((v, path + (i,)) for i, v in enumerate(node))
    return None


def _line_col(text: str, offset: int, first_line: int = 1) -> tuple[int, int]:
    before = text[:offset]
    return first_line + before.count("\n"), offset - (before.rfind("\n") + 1) + 1


def _too_deep_at(text: str) -> int:
    """Where the brackets of a JSON text first nest deeper than the limit."""
    depth, i = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _end_of_string(text, i)
            continue
        if ch in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return i
        elif ch in "]}":
            depth -= 1
        i += 1
    return 0


def _skip_space(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


def too_deep(value, limit: int = MAX_JSON_DEPTH) -> tuple | None:
    """The path to a value nested deeper than ``limit``, or None (no recursion)."""
    todo = [(value, ())]
    while todo:
        node, path = todo.pop()
        if len(path) > limit:
            return path
        if isinstance(node, dict):
            todo.extend((v, path + (k,)) for k, v in node.items())
        elif isinstance(node, list):
            todo.extend((v, path + (i,)) for i, v in enumerate(node))
    return None


def locate(text: str, path: tuple) -> tuple[int, int]:
    """The line and column (1-based) of the value at ``path`` in the JSON
    ``text`` (its nearest enclosing value that is there). A small scanner
    that runs only to place an error, so it need not be fast."""
    i, found = _skip_space(text, 0), 0
    for step in path:
        start = i
        i = _child(text, i, step)
        if i is None:
            i = start
            break
        found += 1
    return _line_col(text, i)


def _child(text: str, i: int, step) -> int | None:
    """Where the value of key (or index) ``step`` starts, inside the object
    (or list) starting at ``i``."""
    if i >= len(text) or text[i] not in "[{":
        return None
    is_object, index = text[i] == "{", 0
    i = _skip_space(text, i + 1)
    while i < len(text) and text[i] not in "]}":
        if is_object:
            key_end = _end_of_string(text, i)
            key = json.loads(text[i:key_end])
            i = _skip_space(text, _skip_space(text, key_end) + 1)  # past ':'
            hit = key == step
        else:
            hit = index == step
        if hit:
            return i
        i = _skip_space(text, _end_of_value(text, i))
        if i < len(text) and text[i] == ",":
            i = _skip_space(text, i + 1)
        index += 1
    return None


def _end_of_string(text: str, i: int) -> int:
    j = i + 1
    while j < len(text) and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _end_of_value(text: str, i: int) -> int:
    depth = 0
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = _end_of_string(text, i)
            if depth == 0:
                return i
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            if depth == 0:
                return i
            depth -= 1
            if depth == 0:
                return i + 1
        elif depth == 0 and ch in ", \t\r\n":
            return i
        i += 1
    return i


# ------------------------------------------------------------ shapes


@dataclass(frozen=True)
class Field:
    """What one value must be: ``test(value)`` is True when it is, and
    ``says`` says what it must be, for the error (``'humans' must be ...``)."""

    says: str
    test: Callable[[object], bool]


def integer(low: int, high: int, says: str | None = None) -> Field:
    return Field(says or f"a whole number from {low} to {high}",
                 lambda v: type(v) is int and low <= v <= high)


def describe(value) -> str:
    """A short, printable account of a value of unknown origin."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        digits = int(value.bit_length() * 0.30103) + 1  # str() of a huge integer is refused by Python
        return str(value) if value.bit_length() <= 64 else f"an integer of about {digits} digits"
    if isinstance(value, str):
        shown = escape(value[:40]) + ("..." if len(value) > 40 else "")
        return f"the text '{shown}'" + (f" ({len(value)} characters)" if len(value) > 40 else "")
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return f"a mapping of {len(value)} entries"
    return type(value).__name__


# ------------------------------------------------------------ control characters


def printable(value: str) -> bool:
    """True when ``value`` holds no control character a terminal would act
    on (escape sequences, bells, carriage returns); tabs and line breaks
    are fine."""
    return CONTROL.search(value) is None


def escape(value: str) -> str:
    """``value`` with every control character but tab and line break shown
    as an escape (``\\x1b``): what is printed from a ruleset, a save, a log
    or a scenario file can then never drive the terminal."""
    return CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", value)
