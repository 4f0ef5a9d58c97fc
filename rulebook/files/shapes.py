"""Saves, logs and scenario files checked against their JSON Schemas.

Why schemas and not tables in Python: the schema that this module checks a
file with is the one an editor completes and checks it with (docs/editor.md),
so the two cannot disagree, and the shape of each file is written down in
one place, beside the ruleset's schema (``validator/*.schema.json``).

A schema error becomes a ``Problem``: plain words (``'players' must be a
whole number from 1 to 64 (the player count), not 0``) at a key path
inside the data; each reader places it in its own file (a line and a
column of the JSON text, the YAML document or the log's line). The words
come from the schema: the ``description`` of the innermost value on the way
to the failing keyword says what the value must be, and a ``title`` names
the items of a list (``decision 3``) and the mappings whose unknown fields
are refused (``unknown step field 'optoin'``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError

import rulebook.validator
from rulebook.validator.diagnostics import did_you_mean
from rulebook.validator.files import describe

FOLDER = Path(rulebook.validator.__file__).parent  # beside ruleset.schema.json (package data: validator/*.json)


@dataclass(frozen=True)
class Problem:
    """One way a file's data is not what its schema says: ``path`` (the keys
    down to the value), the message, a hint, and whether the place is the
    key at ``path`` (an unknown field) rather than its value."""

    path: tuple
    message: str
    hint: str | None = None
    key: bool = False


def schema_path(name: str) -> Path:
    """The file of schema ``name`` (``save``, ``log``, ``scenario``)."""
    return FOLDER / f"{name}.schema.json"


@lru_cache(maxsize=8)
def schema(name: str) -> dict:
    return json.loads(schema_path(name).read_text(encoding="utf-8"))


def _whole_pattern(validator, pattern: str, instance, _schema):
    """``pattern`` matched against the whole text: jsonschema applies a
    pattern with ``re.search``, where ``$`` also matches before a final line
    break (``"nim\\n"`` would pass as an id); the schemas' patterns are all
    anchored, as ECMA-262 reads them."""
    import re

    if validator.is_type(instance, "string") and not re.fullmatch(pattern.removeprefix("^").removesuffix("$"),
                                                                   instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


# JSON Schema counts 2.0 as an integer; a seat, a seed or a count of 2.0 would reach the game as a float
_WholeNumbers = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _checker, v: type(v) is int)
_Checker = validators.extend(Draft202012Validator, {"pattern": _whole_pattern}, type_checker=_WholeNumbers)


@lru_cache(maxsize=16)
def _validator(name: str, part: str | None):
    whole = schema(name)
    return _Checker(whole if part is None else whole["$defs"][part]), (whole if part is None else
                                                                      whole["$defs"][part])


def problems(name: str, data, part: str | None = None) -> list[Problem]:
    """What is wrong with ``data`` by schema ``name`` (or by its definition
    ``part``, such as a log's ``step``), in the schema's order: its required
    fields first, then its fields in the order it lists them."""
    validator, root = _validator(name, part)
    return [_problem(root, data, err) for err in validator.iter_errors(data)]


def _problem(root: dict, data, err: ValidationError) -> Problem:
    path = tuple(err.absolute_path)
    if err.validator == "required":
        missing = next((r for r in err.validator_value if err.message == f"{r!r} is a required property"), "?")
        return Problem(path, f"'{missing}' is missing")
    if err.validator == "additionalProperties" and err.validator_value is False and isinstance(err.instance, dict):
        fields = list(err.schema.get("properties", {}))
        extra = next(k for k in err.instance if k not in fields)
        noun = str(err.schema.get("title", "")).removeprefix("Rulebook ").lower()
        return Problem(path + (extra,), f"unknown {noun + ' ' if noun else ''}field '{extra}'",
                       did_you_mean(str(extra), fields) or f"fields: {', '.join(sorted(fields))}", key=True)
    node, depth = _described(root, err)
    if node is None:
        return Problem(path, err.message)
    where = path[:depth]
    return Problem(where, f"{_name(node, where)} must be {node['description']}, not {describe(_at(data, where))}")


def _described(root: dict, err: ValidationError) -> tuple[dict | None, int]:
    """The innermost schema with a ``description`` on the way from ``root``
    to the failing keyword (the root's own is for editors, not an error), and
    how many keys into the data it is."""
    steps, node, depth, found = list(err.absolute_schema_path)[:-1], root, 0, (None, 0)
    i = 0
    while i < len(steps) and isinstance(node, dict):
        word = steps[i]
        if word in ("properties", "prefixItems", "patternProperties"):
            node, i, depth = node[word][steps[i + 1]], i + 2, depth + 1
        elif word in ("items", "additionalProperties"):
            node, i, depth = node[word], i + 1, depth + 1
        elif word in ("anyOf", "oneOf", "allOf"):
            node, i = node[word][steps[i + 1]], i + 2
        else:
            break
        if isinstance(node, dict) and "description" in node:
            found = (node, depth)
    return found


def _name(node: dict, where: tuple) -> str:
    """How a message names the value: ``decision 3`` (an item of a list
    whose items have a title), ``'players'`` (a field), else ``the value``."""
    if where and type(where[-1]) is int and "title" in node:
        return f"{node['title']} {where[-1] + 1}"
    key = next((k for k in reversed(where) if isinstance(k, str)), None)
    return f"'{key}'" if key is not None else "the value"


def _at(data, path: tuple):
    for key in path:
        data = data[key]
    return data
