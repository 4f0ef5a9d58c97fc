"""Stage 2: check the document's shape against the JSON Schema.

Each schema error becomes one diagnostic at the place of the offending value
(or key), with a stable code by kind of error. For ``oneOf`` failures the
most relevant sub-error is shown (jsonschema's ``best_match``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match, relevance

from validator.diagnostics import Diagnostic, did_you_mean
from validator.loader import Document

SCHEMA_PATH = Path(__file__).with_name("ruleset.schema.json")


@lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_PATH.read_text())


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


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


def _fraction_hint(value) -> str | None:
    if isinstance(value, float):
        return "numbers in a ruleset are whole (rule text divides with //, rounding down)"
    return None


def _to_diag(doc: Document, err) -> Diagnostic:
    if err.validator in ("oneOf", "anyOf") and err.context:
        # an alternative whose type does not fit says nothing useful: show the error
        # from the alternative that fits, the deepest first
        fitting = [e for e in err.context if e.validator not in ("type", "const", "enum")]
        if fitting:
            deepest = max(len(e.absolute_path) for e in fitting)
            return _to_diag(doc, best_match([e for e in fitting if len(e.absolute_path) == deepest], key=relevance))
        wanted = []
        for e in err.context:
            if e.validator == "type":
                wanted += [e.validator_value] if isinstance(e.validator_value, str) else list(e.validator_value)
        if wanted:
            names = {
                "string": "text",
                "array": "a list",
                "object": "a mapping",
                "integer": "a number",
                "boolean": "true/false",
                "null": "nothing",
            }
            want = " or ".join(dict.fromkeys(names.get(w, w) for w in wanted))
            return doc.diag("E010", f"expected {want}, found {_type_name(err.instance)}", tuple(err.absolute_path),
                            _fraction_hint(err.instance))
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
        return doc.diag("E012", f"unknown field '{key}'", path + (key,), hint, key=True, length=len(str(key)))
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        where = "the ruleset" if not path else f"'{path[-1]}'"
        return doc.diag("E011", f"{where} needs the field '{missing}'", path, key=True)
    if v == "type":
        want = err.validator_value if isinstance(err.validator_value, str) else " or ".join(err.validator_value)
        hint = None
        if isinstance(err.instance, bool) and "string" in want:
            line, col = doc.where(path)
            lines = doc.source.splitlines()
            word = lines[line - 1][col - 1 :].split()[0].strip(",}]") if 0 < line <= len(lines) else ""
            if word.lower() in ("on", "off", "yes", "no", "y", "n", "true", "false"):
                hint = f"YAML reads {word} as true/false; write '{word}' in quotes"
        return doc.diag("E010", f"expected {want}, found {_type_name(err.instance)}", path,
                        hint or _fraction_hint(err.instance))
    if v in ("enum", "const"):
        allowed = err.validator_value if v == "enum" else [err.validator_value]
        hint = did_you_mean(str(err.instance), [str(a) for a in allowed]) or f"allowed: {', '.join(map(str, allowed))}"
        return doc.diag("E013", f"{err.instance!r} is not allowed here", path, hint)
    if v == "pattern":
        return doc.diag(
            "E014",
            f"{err.instance!r} is not a valid name here (letters, digits, '_'; ids use lower case and '-')",
            path,
            key=isinstance(err.instance, str) and path and path[-1] == err.instance,
        )
    if v == "propertyNames":
        return doc.diag("E014", f"{err.instance!r} is not a valid name", path)
    return doc.diag("E014", err.message, path)


def check(doc: Document) -> list[Diagnostic]:
    if not isinstance(doc.data, dict):
        return [doc.diag("E010", f"a ruleset is a mapping of fields, found {_type_name(doc.data)}", ())]
    out = []
    for err in _validator().iter_errors(doc.data):
        out.append(_to_diag(doc, err))
    return out
