"""Stage 2: check the document's shape against the JSON Schema.

Each schema error becomes one diagnostic at the place of the offending value
(or key), with a stable code by kind of error. For ``oneOf`` failures the
most relevant sub-error is shown (jsonschema's ``best_match``).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match, relevance
from rulebook.validator.diagnostics import Diagnostic, did_you_mean
from rulebook.validator.loader import Document

SCHEMA_PATH = Path(__file__).with_name("ruleset.schema.json")


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


def whole(pattern: str) -> re.Pattern:
    """A schema pattern (``^...$``) as a Python pattern for ``fullmatch``:
    jsonschema applies patterns with ``re.search``, where ``$`` also matches
    before a final newline, so a name ``"misere\\n"`` would pass and end a
    line of generated code (issue 37). Every pattern of the schema is
    anchored at both ends (tests/hostile/test_full_names.py checks)."""
    return _whole(pattern)


@lru_cache(maxsize=64)
def _whole(pattern: str) -> re.Pattern:
    return re.compile(pattern.removeprefix("^").removesuffix("$"))


def _pattern(validator, pattern: str, instance, schema):
    """The ``pattern`` keyword with the value matched whole (ECMA-262's ``$``, the schema's own dialect)."""
    if validator.is_type(instance, "string") and not whole(pattern).fullmatch(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


_FullMatch = validators.extend(Draft202012Validator, {"pattern": _pattern})


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return _FullMatch(schema())


def _type_name(v) -> str:
    return {
        dict: "a mapping",
        list: "a list",
        str: "text",
        bool: "true/false",
        int: "a number",
        float: "a fraction",
        type(None): "nothing (null)",
    }.get(type(v), type(v).__name__)


# JSON Schema's names of types, in the words of docs/format.md
_TYPE_WORDS = {
    "string": "text",
    "array": "a list",
    "object": "a mapping",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true/false",
    "null": "nothing",
}
_EXPRESSION_TYPES = {"string", "integer", "boolean", "null"}  # an expression (tools/make_schema.py EXPR)


def _types(value) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _wanted(types: list[str]) -> str:
    if set(types) == _EXPRESSION_TYPES:
        return "an expression"
    return " or ".join(dict.fromkeys(_TYPE_WORDS.get(t, t) for t in types))


def _fraction_hint(value) -> str | None:
    if isinstance(value, float):
        return "numbers in a ruleset are whole (rule text divides with //, rounding down)"
    return None


def _list_hint(value: list) -> str:
    """A YAML list where an expression belongs: the same list as rule text."""
    items = []
    for x in value:
        if isinstance(x, bool):
            items.append("true" if x else "false")
        elif isinstance(x, (int, float)):
            items.append(str(x))
        elif isinstance(x, str) and "'" not in x and '"' not in x:
            items.append(f"'{x}'")
        else:
            return "write the list as an expression in quotes, e.g. \"['clubs', 'hearts']\""
    return f"write the list as an expression in quotes: \"[{', '.join(items)}]\""


def _type_diag(doc: Document, instance, types: list[str], path: tuple) -> Diagnostic:
    """E010 for a value of the wrong type, with a hint for the usual YAML slips."""
    hint = _fraction_hint(instance)
    line, col = doc.where(path)
    lines = doc.source.splitlines()
    here = lines[line - 1][col - 1 :] if 0 < line <= len(lines) else ""
    if isinstance(instance, bool) and "string" in types:
        word = here.split()[0].strip(",}]") if here.split() else ""
        if word.lower() in ("on", "off", "yes", "no", "y", "n", "true", "false"):
            hint = f"YAML reads {word} as true/false; write '{word}' in quotes"
    elif isinstance(instance, list) and _EXPRESSION_TYPES <= set(types):
        hint = _list_hint(instance)
    elif isinstance(instance, dict) and "string" in types and here.startswith("{"):
        hint = "a value that starts with '{' must be quoted: YAML reads { } as a mapping"
    return doc.diag("E010", f"expected {_wanted(types)}, found {_type_name(instance)}", path, hint)


def _to_diag(doc: Document, err) -> Diagnostic:
    if err.validator in ("oneOf", "anyOf") and err.context:
        # an alternative whose type does not fit says nothing useful: show the error from the
        # alternative that fits (an error inside the value comes from one), the deepest first
        own = len(err.absolute_path)
        fitting = [
            e for e in err.context if len(e.absolute_path) > own or e.validator not in ("type", "const", "enum")
        ]
        if fitting:
            deepest = max(len(e.absolute_path) for e in fitting)
            return _to_diag(doc, best_match([e for e in fitting if len(e.absolute_path) == deepest], key=relevance))
        # a word where the alternatives are some words or a mapping: the words are what was meant
        words = [e for e in err.context if e.validator == "enum" and len(e.absolute_path) == own
                 and any(type(a) is type(err.instance) for a in e.validator_value)]
        if words:
            return _to_diag(doc, words[0])
        wanted = [t for e in err.context if e.validator == "type" for t in _types(e.validator_value)]
        if wanted:
            return _type_diag(doc, err.instance, wanted, tuple(err.absolute_path))
    path = tuple(err.absolute_path)
    v = err.validator
    if v == "additionalProperties":
        extra = (
            [k for k in err.instance if k not in err.schema.get("properties", {})]
            if isinstance(err.instance, dict)
            else []
        )
        key = extra[0] if extra else "?"
        allowed = list(err.schema.get("properties", {}))
        hint = did_you_mean(str(key), allowed) or (f"allowed here: {', '.join(allowed)}" if allowed else None)
        if _split_by_comma(doc, path, str(key)):
            hint = "inside { } a ',' separates fields: quote the expression"
        return doc.diag("E012", f"unknown field '{key}'", path + (key,), hint, key=True, length=len(str(key)))
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        where = "the ruleset" if not path else f"'{path[-1]}'"
        return doc.diag("E011", f"{where} needs the field '{missing}'", path, key=True)
    if v == "type":
        return _type_diag(doc, err.instance, _types(err.validator_value), path)
    if v in ("enum", "const"):
        allowed = err.validator_value if v == "enum" else [err.validator_value]
        hint = did_you_mean(str(err.instance), [str(a) for a in allowed]) or f"allowed: {', '.join(map(str, allowed))}"
        return doc.diag("E013", f"{err.instance!r} is not allowed here", path, hint)
    if v == "pattern":
        a_key = "propertyNames" in err.relative_schema_path  # the name of an entry: placed at that entry's key
        if a_key:
            path += (err.instance,)
        return doc.diag(
            "E014",
            f"{err.instance!r} is not a valid name here (letters, digits, '_'; ids use lower case and '-')",
            path,
            key=a_key or (isinstance(err.instance, str) and path and path[-1] == err.instance),
        )
    if v == "propertyNames":
        return doc.diag("E014", f"{err.instance!r} is not a valid name", path)
    return doc.diag("E014", _limit_message(err, path), path)


def _limit_message(err, path: tuple) -> str:
    """jsonschema's own wording ("{} should be non-empty") in plain words."""
    v, limit = err.validator, err.validator_value
    what = f"'{path[-1]}'" if path and isinstance(path[-1], str) else "this"
    if v == "minProperties":
        return f"{what} needs at least {'one entry' if limit == 1 else f'{limit} entries'}"
    if v == "minItems":
        return f"{what} needs at least {'one item' if limit == 1 else f'{limit} items'}"
    if v == "maxItems":
        return f"{what} has more than {limit} {'item' if limit == 1 else 'items'}"
    if v == "minimum":
        return f"{what} must be at least {limit}, not {err.instance}"
    if v == "maximum":
        return f"{what} must be at most {limit}, not {err.instance}"
    if v == "maxLength":
        return f"{what} is longer than {limit} characters"
    return err.message


def _split_by_comma(doc: Document, path: tuple, key: str) -> bool:
    """An unknown field that looks like the rest of an expression cut at a
    ',' of a flow mapping: ``{if: any(players, p => p.score >= 3)}``."""
    line, col = doc.where(path)
    lines = doc.source.splitlines()
    in_flow = 0 < line <= len(lines) and lines[line - 1][col - 1 : col] == "{"
    return in_flow and any(s in key for s in (" ", "(", ")", "=>", "[", "]"))


def check(doc: Document) -> list[Diagnostic]:
    if not isinstance(doc.data, dict):
        return [doc.diag("E010", f"a ruleset is a mapping of fields, found {_type_name(doc.data)}", ())]
    out = []
    for err in _validator().iter_errors(doc.data):
        out.append(_to_diag(doc, err))
    return out
