"""The corpus of broken rulesets (tests/broken/): each file has exactly one
realistic mistake and states in its first comment lines what the validator
must say about it:

    # expect: E031 26:23          a diagnostic code at line:column (1-based, in the file)
    # hint: did you mean 'hand'?  a substring its hint must contain (for the expect above)
    # allow: W101                 codes that may appear besides the expected ones
    # mistake: ...                what is wrong, in words (any other comment is ignored)

A file passes when every expected (code, line, column) is among the
diagnostics of ``validate_path``, each given hint matches, and nothing else is
reported (no other error, and no other warning unless allowed).

Files that show an engine bug (a wrong position, a wrong code, a missing or
misleading hint, a cascade, a missing diagnostic) are listed in ENGINE_BUGS
and marked ``xfail(strict=True)``: they document the bug, and start failing
(XPASS) once it is fixed, so that the mark gets removed.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulebook.compiler.build import validate_path
from rulebook.validator.diagnostics import CODES

from rulebook.cli.main import cli

BROKEN = Path(__file__).resolve().parents[1] / "broken"
FILES = sorted(BROKEN.glob("*.yaml"))

# Codes the corpus does not have to cover, and why.
NOT_FROM_ONE_FILE = {
    "E004": "file cannot be read: about the file system, not about the content of a ruleset",
    "E070": "scenario file invalid: about scenario files, not rulesets",
    "W108": "draw from an empty zone that declares no when_empty: 'rulebook check' reports it from games "
            "played (tests/unit/test_when_empty.py), not 'rulebook validate' from the file",
}

# file name -> what the engine gets wrong (see the file's own comments).
ENGINE_BUGS: dict[str, str] = {}

# Bugs where the engine reports no error at all, so 'rulebook validate' exits 0.
SILENT: set[str] = set()


# --------------------------------------------------------------------------- the header


@dataclass
class Expect:
    code: str
    line: int
    column: int
    hint: str | None = None


@dataclass
class Spec:
    expects: list[Expect] = field(default_factory=list)
    allow: set[str] = field(default_factory=set)

    @property
    def has_error(self) -> bool:
        return any(CODES[e.code][0] == "error" for e in self.expects)


_EXPECT = re.compile(r"#\s*expect:\s*([EW]\d{3})\s+(\d+):(\d+)\s*$")
_HINT = re.compile(r"#\s*hint:\s*(.*?)\s*$")
_ALLOW = re.compile(r"#\s*allow:\s*(.*?)\s*$")


def parse_header(text: str) -> Spec:
    spec = Spec()
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        if m := _EXPECT.match(line):
            spec.expects.append(Expect(m[1], int(m[2]), int(m[3])))
        elif m := _HINT.match(line):
            assert spec.expects, "a '# hint:' line must follow an '# expect:' line"
            spec.expects[-1].hint = m[1]
        elif m := _ALLOW.match(line):
            spec.allow |= set(m[1].replace(",", " ").split())
        elif line.startswith("# expect") or line.startswith("# hint") or line.startswith("# allow"):
            raise AssertionError(f"malformed header line: {line!r}")
    return spec


@cache
def spec_of(path: Path) -> Spec:
    return parse_header(path.read_text(encoding="utf-8"))


@cache
def report_of(path: Path):
    return validate_path(path)


def _params(bug_filter=None):
    out = []
    for p in FILES:
        marks = []
        if p.name in ENGINE_BUGS and (bug_filter is None or bug_filter(p.name)):
            marks.append(pytest.mark.xfail(reason=ENGINE_BUGS[p.name], strict=True))
        out.append(pytest.param(p, id=p.stem, marks=marks))
    return out


def _show(diags, source) -> str:
    return "\n".join(d.render(source) for d in diags) or "(no diagnostics)"


# --------------------------------------------------------------------------- the corpus


@pytest.mark.parametrize("path", _params())
def test_broken_file(path: Path):
    spec = spec_of(path)
    source = path.read_text(encoding="utf-8")
    diags = report_of(path).sorted()
    shown = _show(diags, source)
    for e in spec.expects:
        found = [d for d in diags if (d.code, d.line, d.column) == (e.code, e.line, e.column)]
        assert found, f"expected {e.code} at {e.line}:{e.column}; got:\n{shown}"
        if e.hint is not None:
            assert any(d.hint and e.hint in d.hint for d in found), \
                f"expected a hint containing {e.hint!r} for {e.code} at {e.line}:{e.column}; got:\n{shown}"
    wanted = {(e.code, e.line, e.column) for e in spec.expects}
    unexpected = [d for d in diags if (d.code, d.line, d.column) not in wanted and d.code not in spec.allow]
    assert not unexpected, f"unexpected diagnostics:\n{_show(unexpected, source)}"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in FILES])
def test_rendering_shows_line_and_caret(path: Path):
    """Every diagnostic renders as 'file:line:col: severity[code]: message',
    the source line it points into and a caret under its column."""
    source = path.read_text(encoding="utf-8")
    src_lines = source.splitlines()
    for d in report_of(path).sorted():
        text = d.render(source)
        lines = text.splitlines()
        assert lines[0] == f"{d.file}:{d.line}:{d.column}: {d.severity}[{d.code}]: {d.message}"
        assert 1 <= d.line <= len(src_lines), f"{d.code} points past the end of the file: {d.line}"
        gutter = f"{d.line:>4} | "
        assert lines[1] == gutter + src_lines[d.line - 1].replace("\t", " "), text
        caret = lines[2]
        assert caret.strip() and set(caret.strip()) == {"^"}, text
        assert caret.index("^") == len(gutter) + d.column - 1, text
        if d.hint:
            assert f"  = hint: {d.hint}" in text
        else:
            assert "= hint:" not in text


@pytest.mark.parametrize("path", _params(lambda name: name in SILENT))
def test_cli_validate(path: Path, monkeypatch):
    """'rulebook validate FILE' exits 1 when the file has an error (0 for
    warnings only) and prints diagnostics, never a Python traceback."""
    import rulebook.compiler.build
    # the command's own validate_path call, answered from this module's cache (the alias bomb
    # takes seconds); an exception inside validation is not cached and still reaches the command
    monkeypatch.setattr(rulebook.compiler.build, "validate_path", lambda p: report_of(Path(p)))
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"crashed: {result.exception!r}"
    assert "Traceback" not in result.output
    want = 1 if spec_of(path).has_error else 0
    assert result.exit_code == want, result.output
    assert ("FAILED" in result.output) == (want == 1), result.output
    as_json = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    assert as_json.exception is None or isinstance(as_json.exception, SystemExit), repr(as_json.exception)
    assert as_json.exit_code == want
    listed = {(d["code"], d["line"], d["column"]) for d in json.loads(as_json.stdout)}
    assert listed == {(d.code, d.line, d.column) for d in report_of(path).diagnostics}


# --------------------------------------------------------------------------- the corpus itself


def test_corpus_is_large_enough():
    assert len(FILES) >= 35


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in FILES])
def test_header_is_well_formed(path: Path):
    spec = spec_of(path)
    assert spec.expects, f"{path.name} has no '# expect:' line"
    for e in spec.expects:
        assert e.code in CODES, f"{path.name}: unknown code {e.code}"
    for code in spec.allow:
        assert code in CODES, f"{path.name}: unknown code {code} in '# allow:'"
    # the file name starts with the first expected code, so the corpus reads as an index
    assert path.name.lower().startswith(spec.expects[0].code.lower() + "_"), path.name


def test_every_code_is_covered():
    covered = {e.code for p in FILES for e in spec_of(p).expects}
    missing = sorted(set(CODES) - covered - set(NOT_FROM_ONE_FILE))
    assert not missing, f"no broken ruleset expects {', '.join(missing)}"


def test_known_bugs_name_real_files():
    names = {p.name for p in FILES}
    assert set(ENGINE_BUGS) <= names
    assert SILENT <= set(ENGINE_BUGS)


def test_depth_error_hint_does_not_blame_aliases():
    (d,) = report_of(BROKEN / "e003_nested_too_deep.yaml").errors
    assert d.code == "E003"
    assert not (d.hint and "alias" in d.hint), d.hint
