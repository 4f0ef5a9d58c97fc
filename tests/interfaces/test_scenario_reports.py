"""``rulebook test --format json`` and ``--junit-xml FILE``: scenario
results for CI, each failure with its file, line and the expected and
actual values."""

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.helpers import run_main

ROOT = Path(__file__).parents[2]
GET_BIT = ROOT / "rulesets" / "get-bit"
SCENARIO = "first-round-no-bite.yaml"


def game_with_scenarios(tmp_path, change=None) -> Path:
    """A copy of get-bit with two of its scenarios, the first one changed by ``change``."""
    folder = tmp_path / "get-bit"
    (folder / "scenarios").mkdir(parents=True)
    shutil.copy(GET_BIT / "ruleset.yaml", folder / "ruleset.yaml")
    text = (GET_BIT / "scenarios" / SCENARIO).read_text(encoding="utf-8")
    (folder / "scenarios" / SCENARIO).write_text(change(text) if change else text, encoding="utf-8")
    shutil.copy(GET_BIT / "scenarios" / "bite-owner-chooses-limb.yaml", folder / "scenarios")
    return folder


def wrong_round(text: str) -> str:
    assert '"round == 2"' in text
    return text.replace('"round == 2"', '"round == 3"')


def test_json_lists_every_scenario_and_passes(tmp_path, capsys):
    folder = game_with_scenarios(tmp_path)
    code, out, _ = run_main(capsys, "test", folder, "--format", "json")
    data = json.loads(out)
    assert code == 0 and (data["passed"], data["failed"]) == (2, 0)
    assert sorted(Path(s["file"]).name for s in data["scenarios"]) == ["bite-owner-chooses-limb.yaml", SCENARIO]
    assert all(s["passed"] and s["failures"] == [] and s["decisions"] > 0 for s in data["scenarios"])


def test_json_gives_a_failed_expectation_its_line_and_values(tmp_path, capsys):
    folder = game_with_scenarios(tmp_path, wrong_round)
    code, out, _ = run_main(capsys, "test", folder, "--format", "json")
    data = json.loads(out)
    assert code == 1 and (data["passed"], data["failed"]) == (1, 1)
    (failed,) = [s for s in data["scenarios"] if not s["passed"]]
    (f,) = failed["failures"]
    text = (folder / "scenarios" / SCENARIO).read_text(encoding="utf-8")
    assert f["file"] == failed["file"] and Path(f["file"]).name == SCENARIO
    assert text.splitlines()[f["line"] - 1].strip() == '- "round == 3"'
    assert f["code"] == "E070" and f["expected"] == "round == 3 is true" and f["actual"].startswith("it is False")
    assert "2" in f["actual"]  # the explanation says what round is


def test_a_wrong_option_has_its_expected_and_actual_values(tmp_path, capsys):
    folder = game_with_scenarios(tmp_path, lambda t: t.replace("option: blue 5}", "option: blue 9}"))
    _, out, _ = run_main(capsys, "test", folder, "--format", "json")
    (f,) = [f for s in json.loads(out)["scenarios"] for f in s["failures"]]
    assert f["expected"] == "a legal option 'blue 9'" and "'blue 5'" in f["actual"]


def test_junit_xml_has_a_testcase_per_scenario_and_a_failure_with_its_place(tmp_path, capsys):
    folder = game_with_scenarios(tmp_path, wrong_round)
    report = tmp_path / "results.xml"
    code, out, _ = run_main(capsys, "test", folder, "--junit-xml", report)
    assert code == 1 and "1 passed, 1 failed" in out  # the text report is still printed
    suite = ET.fromstring(report.read_text(encoding="utf-8"))
    assert suite.tag == "testsuite" and (suite.get("tests"), suite.get("failures")) == ("2", "1")
    cases = suite.findall("testcase")
    (failure,) = [f for case in cases for f in case.findall("failure")]
    text = (folder / "scenarios" / SCENARIO).read_text(encoding="utf-8")
    line = int(failure.get("line"))
    assert text.splitlines()[line - 1].strip() == '- "round == 3"'
    assert failure.get("type") == "E070" and f":{line}: expectation failed" in failure.get("message")
    assert "expected: round == 3 is true" in failure.text and "actual: it is False" in failure.text
