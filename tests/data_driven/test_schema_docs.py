"""The JSON Schema documents every field, and is the one tools/make_schema.py generates.

Editors with the yaml-language-server show a field's ``description`` on hover
and offer its ``examples`` as completions, so a field without them is a field
an author gets no help with. An example that does not fit its own field would
teach a mistake, so each one is validated against the field's subschema. And
the schema is generated: an edit made to the JSON by hand would be lost the
next time someone runs the generator, so the checked-in file must match it.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "validator" / "ruleset.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text())


def _fields(node: dict, path: str = ""):
    """Every field of the schema: each entry of a ``properties`` mapping, and the
    schema of the entries of each named mapping (``additionalProperties``: each
    phase, each zone...), found through lists and oneOf/anyOf alternatives."""
    for name, sub in (node.get("properties") or {}).items():
        here = f"{path}.{name}" if path else name
        yield here, sub
        yield from _fields(sub, here)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        here = f"{path}.*"
        yield here, extra
        yield from _fields(extra, here)
    if isinstance(node.get("items"), dict):
        yield from _fields(node["items"], f"{path}.[]")
    for key in ("oneOf", "anyOf"):
        for alt in node.get(key) or []:
            yield from _fields(alt, path)


FIELDS = list(_fields(SCHEMA))


def test_the_walk_finds_the_fields():
    """Guards the walk itself: an empty or shallow walk would make the other tests vacuous."""
    names = {p for p, _ in FIELDS}
    assert len(FIELDS) > 100
    for expected in ("id", "players.min", "params.*.default", "vars.*.initial", "phases.*.turn.repeat",
                     "phases.*.next.[].to", "components.*.board.show.legend.*"):
        assert expected in names


@pytest.mark.parametrize("path,sub", FIELDS, ids=[p for p, _ in FIELDS])
def test_every_field_has_a_description_and_examples(path, sub):
    assert isinstance(sub.get("description"), str) and sub["description"].strip(), f"{path}: no description"
    assert isinstance(sub.get("examples"), list) and sub["examples"], f"{path}: no examples"


def _validator(sub: dict) -> Draft202012Validator:
    """A validator for one subschema, resolving any reference against the whole schema."""
    resource = Resource.from_contents(SCHEMA)
    registry = Registry().with_resource(SCHEMA["$id"], resource)
    return Draft202012Validator(sub, registry=registry)


@pytest.mark.parametrize("path,sub", FIELDS, ids=[p for p, _ in FIELDS])
def test_every_example_fits_its_field(path, sub):
    v = _validator(sub)
    for example in sub.get("examples") or []:
        errors = [e.message for e in v.iter_errors(example)]
        assert not errors, f"{path}: example {example!r} does not fit: {errors}"


def test_a_bad_value_is_caught_by_the_check():
    """The example check is real: a value of the wrong kind fails the same way."""
    sub = dict(FIELDS)["players.min"]
    assert list(_validator(sub).iter_errors("two"))
    assert not list(_validator(sub).iter_errors(2))


def _make_schema():
    spec = importlib.util.spec_from_file_location("make_schema", ROOT / "tools" / "make_schema.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # guarded by __main__: importing writes nothing
    return module


def test_the_checked_in_schema_is_the_generated_one():
    assert SCHEMA_PATH.read_text() == _make_schema().render(), (
        "validator/ruleset.schema.json differs from tools/make_schema.py: run python tools/make_schema.py"
    )


def test_every_documented_path_names_a_field():
    """A FIELD_DOCS entry for a field that was renamed or removed is an error, not silently ignored."""
    module = _make_schema()
    for path in module.FIELD_DOCS:
        assert module._field(module.build(), path) is not None
    with pytest.raises(KeyError):
        module._field(module.build(), "phases.*.no_such_field")



# Keywords that mean the same in JSON Schema draft-07 and 2020-12. The yaml-language-server
# (VS Code's YAML extension and the editors using the same server) implements draft-07, so a
# schema kept to these works there although it declares 2020-12, the draft the validator uses.
PORTABLE = {
    "$schema", "$id", "title", "description", "examples", "default", "type", "enum", "const",
    "properties", "required", "additionalProperties", "propertyNames", "minProperties", "maxProperties",
    "items", "minItems", "maxItems", "pattern", "minLength", "maxLength", "minimum", "maximum",
    "oneOf", "anyOf", "allOf", "not",
}


def _keywords(node, out: set):
    if isinstance(node, dict):
        for key, value in node.items():
            out.add(key)
            if key == "properties":
                for sub in value.values():
                    _keywords(sub, out)
            elif key == "items":
                assert isinstance(value, dict), "items as a list means different things in draft-07 and 2020-12"
                _keywords(value, out)
            elif key not in ("examples", "enum", "const", "default", "required"):
                _keywords(value, out)
    elif isinstance(node, list):
        for sub in node:
            _keywords(sub, out)
    return out


def test_the_schema_uses_only_keywords_editors_understand():
    used = _keywords(SCHEMA, set())
    unknown = used - PORTABLE
    assert not unknown, f"keywords the yaml-language-server (draft-07) may not understand: {unknown}"
    assert {"oneOf", "propertyNames", "examples"} <= used  # the walk reached the nested schemas


def _editor_block(kind: str) -> str:
    """The ```json KIND block of docs/editor.md."""
    import re

    text = (ROOT / "docs" / "editor.md").read_text(encoding="utf-8")
    m = re.search(rf"^```json {kind}\n(.*?)^```", text, re.M | re.S)
    assert m, f"docs/editor.md has no ```json {kind} block"
    return m.group(1)


def test_the_vscode_settings_in_editor_md_name_the_schema_and_every_ruleset():
    from fnmatch import fnmatch

    settings = json.loads(_editor_block("settings"))
    ((schema_path, globs), (scenario_schema, scenario_globs)) = settings["yaml.schemas"].items()
    assert (ROOT / schema_path).resolve() == SCHEMA_PATH.resolve()
    assert (ROOT / scenario_schema).resolve() == (ROOT / "validator" / "scenario.schema.json").resolve()
    rulesets = sorted(ROOT.glob("*/*/ruleset.yaml"))
    scenarios = sorted(ROOT.glob("*/*/scenarios/*.yaml"))
    assert rulesets and scenarios
    for path in rulesets:
        rel = path.relative_to(ROOT).as_posix()
        assert any(fnmatch(rel, g) for g in globs), rel
    for path in scenarios:
        rel = path.relative_to(ROOT).as_posix()
        assert any(fnmatch(rel, g) for g in scenario_globs) and not any(fnmatch(rel, g) for g in globs), rel


def test_the_problem_matcher_in_editor_md_reads_validate_output(tmp_path, capsys):
    """The VS Code task's pattern picks file, line, column, severity, code and message out of
    every diagnostic ``rulebook validate`` prints, and nothing out of the other lines."""
    import re

    from rulebook.cli.main import main

    task = json.loads(_editor_block("tasks"))["tasks"][0]
    pattern = task["problemMatcher"]["pattern"]
    regexp = re.compile(pattern["regexp"])  # the JavaScript pattern is also a Python one
    head = "rulebook: 1\nid: bad\nplayers: {min: 2, max: 2}\nzones:\n  spare: {}\nphases:\n  main:\n"
    broken, warned = tmp_path / "broken.yaml", tmp_path / "warned.yaml"
    broken.write_text(head + "    on_begin: say \"{heep}\"\n    next: main\n", encoding="utf-8")
    warned.write_text(head + "    on_begin: end game\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["validate", str(broken), str(warned)])
    printed = capsys.readouterr()
    lines = (printed.out + printed.err).splitlines()
    found = [m for line in lines if (m := regexp.match(line))]
    assert {(m.group(pattern["severity"]), m.group(pattern["code"])) for m in found} == {
        ("error", "E030"),
        ("warning", "W101"),
    }
    assert {Path(m.group(pattern["file"])) for m in found} == {broken, warned}
    assert [(m.group(pattern["line"]), m.group(pattern["column"])) for m in found] == [("8", "21"), ("5", "3")]
    assert all(m.group(pattern["message"]) for m in found)
    # as many matches as the summary lines count diagnostics
    counts = [re.search(r"\((\d+) errors?, (\d+) warnings?\)", line) for line in lines]
    assert len(found) == sum(int(c.group(1)) + int(c.group(2)) for c in counts if c)
