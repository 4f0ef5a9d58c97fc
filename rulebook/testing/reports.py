"""``rulebook test --format json`` and ``--junit-xml FILE``: scenario
results for CI systems. Each failure keeps its file, line, column, code and,
where a value was compared, what was expected and what the game had
(``rulebook.scenario.ScenarioFailure``)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

# what XML 1.0 cannot hold at all, even escaped (a scenario's texts are input like any other)
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text) -> str:
    return _NOT_XML.sub("\ufffd", str(text))


def _failure(d) -> dict:
    out = {"file": d.file, "line": d.line, "column": d.column, "code": d.code, "message": d.message}
    if d.hint:
        out["hint"] = d.hint
    for field in ("expected", "actual"):
        value = getattr(d, field, None)
        if value is not None:
            out[field] = value
    return out


def results(outcomes) -> dict:
    failed = sum(1 for o in outcomes if not o.passed)
    return {
        "passed": len(outcomes) - failed,
        "failed": failed,
        "scenarios": [{"file": o.file, "name": o.name, "passed": o.passed, "decisions": o.decisions,
                       "failures": [_failure(d) for d in o.failures]} for o in outcomes],
    }


def to_json(outcomes) -> str:
    return json.dumps(results(outcomes), indent=2)


def to_junit_xml(outcomes) -> str:
    """One <testcase> per scenario file, in one <testsuite>; a failed one has
    a <failure> per problem: its place and code in the message, the expected
    and actual values in the text."""
    data = results(outcomes)
    suite = ET.Element("testsuite", name="rulebook scenarios", tests=str(len(outcomes)), failures=str(data["failed"]),
                       errors="0", skipped="0")
    for o in data["scenarios"]:
        case = ET.SubElement(suite, "testcase", name=_xml(o["name"]), classname=_xml(o["file"]), file=_xml(o["file"]))
        for f in o["failures"]:
            text = [f"{f['file']}:{f['line']}:{f['column']}: {f['code']}: {f['message']}"]
            text += [f"{k}: {f[k]}" for k in ("expected", "actual", "hint") if k in f]
            failure = ET.SubElement(case, "failure", message=_xml(f"{f['file']}:{f['line']}: {f['message']}"),
                                    type=_xml(f["code"]))
            failure.text = _xml("\n".join(text))
            if f["line"]:
                failure.set("line", str(f["line"]))
    ET.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"
