"""The validator's phase graph, variants and the validate command: one test
per fix of the validator audit (a phase named END, chains of 'requires',
counts that match what is shown, end rules that hid E052/E054, variant
patches that change nothing, paths that name no ruleset)."""

from __future__ import annotations

import copy
import json
import pickle
import textwrap
from pathlib import Path

import pytest
from rulebook.compiler.build import compile_text, validate_path
from rulebook.validator import graph

from tests.helpers import run_main

ROOT = Path(__file__).resolve().parents[2]

HEAD = """\
rulebook: 1
id: unit
players: {min: 2, max: 2}
player_vars:
  score: 0
"""


def write(tmp_path: Path, body: str, name: str = "ruleset.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return path


def found(report) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in report.sorted()]


# ----------------------------------------------------------------- 1. a phase named END


def test_a_phase_named_END_is_an_ordinary_phase(tmp_path):
    """The graph's terminal node is a sentinel, so a phase called END keeps
    its own edges and reaches the end through its 'end game'."""
    path = write(tmp_path, """\
        actions:
          bump:
            effect: |
              set player.score += 1
              if player.score >= 3:
                  end game winners [player]
              end turn
        phases:
          END:
            turn:
              actions: [bump]
            next: END
        """)
    assert found(validate_path(path)) == []
    program = compile_text(path.read_text(encoding="utf-8"), str(path)).program
    g = program.phase_graph
    assert graph.END != "END" and str(graph.END) == "END"
    assert g.has_edge("END", graph.END) and g.has_edge("END", "END")
    assert copy.deepcopy(graph.END) is graph.END and pickle.loads(pickle.dumps(graph.END)) is graph.END


# ----------------------------------------------------------------- 2. chains of requires


def test_requires_are_followed_through_chains_and_circles_are_an_error(tmp_path):
    """A requires B requires C validates (each variant is checked with all it
    needs); a circle of requires is one clear E061, never a hang."""
    chain = write(tmp_path, """\
        params:
          goal: 3
        actions:
          bump:
            effect: |
              set player.score += 1
              end turn
        phases:
          main:
            turn:
              actions: [bump]
            next: main
        end:
          done:
            if: "any(players, p => p.score >= goal)"
        variants:
          long:
            params: {goal: 5}
          longer:
            requires: [long]
            params: {goal: 7}
          longest:
            requires: [longer]
            params: {goal: 9}
        """)
    assert found(validate_path(chain)) == []
    circle = tmp_path / "circle.yaml"
    circle.write_text(chain.read_text(encoding="utf-8").replace(
        "  long:\n    params: {goal: 5}", "  long:\n    requires: [longest]\n    params: {goal: 5}"
    ), encoding="utf-8")
    report = validate_path(circle)
    errors = report.errors
    assert [d.code for d in errors] == ["E061"], found(report)
    assert "long -> longest -> longer -> long" in errors[0].message
    assert "--variant" not in (errors[0].hint or "")


# ----------------------------------------------------------------- 3. counts match what is shown


def test_the_summary_counts_each_shown_diagnostic_once(tmp_path, capsys):
    """A function with an unknown name, called from two places, is one error:
    in the text summary, in the JSON list and in validate_path's report."""
    path = write(tmp_path, """\
        functions:
          won:
            params: {p: player}
            value: "has_won(p)"
        actions:
          bump:
            if: "not won(player)"
            effect: |
              set player.score += 1
              end turn
        phases:
          main:
            turn:
              actions: [bump]
            next: main
        end:
          done:
            if: "won(0)"
        """)
    assert len(validate_path(path).errors) == 1
    code, out, _ = run_main(capsys, "validate", path)
    assert code == 1 and out.count("error[E037]") == 1 and "FAILED (1 error, 0 warnings)" in out
    code, out, _ = run_main(capsys, "validate", "--format", "json", path)
    assert code == 1 and [d["code"] for d in json.loads(out)] == ["E037"]


# ----------------------------------------------------------------- 4. end rules and decisions


LOOP = """\
    actions:
      bump:
        effect: set player.score += 1
    phases:
      main:
        turn:
          actions: [bump]
        end_if: "turn_number >= 2"
        next: ping
      ping:
        {ping}
        next: pong
      pong:
        next: ping
    end:
      done:
        if: "any(players, p => p.score >= 10)"
    """


def test_end_rules_count_only_in_phases_that_offer_a_decision(tmp_path):
    """End rules are checked when a decision is offered: a loop of phases
    without one is E052 even with an 'end' rule, and the same loop whose
    phase asks a 'choose' is fine. The shipped games and examples still
    validate without a diagnostic."""
    silent = write(tmp_path, LOOP.replace("{ping}", 'on_begin: say "ping"'), "silent.yaml")
    report = validate_path(silent)
    assert [(d.code, d.line) for d in report.sorted()] == [("E052", 15), ("E052", 18)]
    assert "only when a decision is offered" in report.errors[0].hint
    asking = write(tmp_path, LOOP.replace("{ping}", 'on_begin: "choose n from [1, 2] by 0"'), "asking.yaml")
    assert found(validate_path(asking)) == []
    shipped = sorted(ROOT.glob("rulesets/*/ruleset.yaml")) + sorted(ROOT.glob("examples/*/ruleset.yaml"))
    assert len(shipped) >= 10
    for path in shipped:
        assert found(validate_path(path)) == [], path


# ----------------------------------------------------------------- 5. variant patches and players


PATCHED = """\
    define:
      goal: "3"
    actions:
      bump:
        effect: |
          set player.score += 1
          end turn
    phases:
      main:
        turn:
          actions: [bump]
        next: [{to: round1, if: "turn_number > 5"}, main]
      round1:
        on_begin: end game
    end:
      done:
        if: "any(players, p => p.score >= goal)"
      tie:
        if: "turn_number > 2"
    variants:
      long:
        patch:
          define:
            gaol: "10"
      no-tie:
        patch:
          end:
            tei: null
      extra:
        patch:
          phases:
            main: {next: [{to: round2, if: "turn_number > 9"}, {to: round1, if: "turn_number > 5"}, main]}
            round2:
              on_begin: end game
      solo:
        players: {max: 1}
    """


def test_patches_that_change_nothing_are_w107_and_player_ranges_point_at_the_variant(tmp_path):
    """A removed key that is not there and a new key one slip from an existing
    one (named nowhere else) are W107 at the patch's own key, with a
    did-you-mean; a new name that is used ('round2') is not. A variant that
    breaks the player range gets its E062 on its own line."""
    path = write(tmp_path, PATCHED)
    report = validate_path(path)
    by_code = {}
    for d in report.sorted():
        by_code.setdefault(d.code, []).append(d)
    assert sorted(by_code) == ["E062", "W107"], found(report)
    added, removed = by_code["W107"]
    assert (added.line, added.column, added.hint.split("?")[0]) == (29, 9, "did you mean 'goal'")
    assert "adds a new 'define.gaol'" in added.message
    assert (removed.line, removed.column, removed.hint) == (33, 9, "did you mean 'tie'?")
    assert "removes 'end.tei'" in removed.message
    (e062,) = by_code["E062"]
    assert (e062.line, e062.column) == (41, 14) and "(with variant solo)" in e062.message


# ----------------------------------------------------------------- 6. paths that name no ruleset


def test_validate_goes_on_after_a_missing_path_and_explains_a_folder(tmp_path, capsys):
    """Every path is checked: one that names no ruleset is one E004 and the
    next is still validated; a folder with a near name is told to rename it."""
    good = write(tmp_path, """\
        phases:
          main:
            on_begin: end game
        """)
    near = tmp_path / "near"
    near.mkdir()
    (near / "ruleset.yml").write_text("rulebook: 1\n", encoding="utf-8")
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run_main(capsys, "validate", tmp_path / "nothere", near, empty, good)
    assert code == 1 and "Traceback" not in out + err
    assert f"{good}: ok (0 errors, 0 warnings)" in out
    assert "error[E004]: no ruleset" in out
    assert f"folder {near} has no ruleset.yaml (found ruleset.yml: rename it to ruleset.yaml)" in out
    assert f"folder {empty} has no ruleset.yaml (it is empty)" in out
    assert out.count("FAILED (1 error, 0 warnings)") == 3
    code, out, _ = run_main(capsys, "validate", "--format", "json", tmp_path / "nothere", good)
    assert code == 1 and [d["code"] for d in json.loads(out)] == ["E004"]


@pytest.mark.parametrize("name", ["Ruleset.yaml", "ruleset.yml"])
def test_near_names_are_found_whatever_their_case(tmp_path, name):
    from rulebook.files.locate import locate

    (tmp_path / name).write_text("rulebook: 1\n", encoding="utf-8")
    import os

    if (tmp_path / "ruleset.yaml").exists():  # a case-insensitive file system finds it anyway
        assert os.path.samefile(locate(str(tmp_path)), tmp_path / name)
        return
    with pytest.raises(FileNotFoundError, match=f"found {name}: rename it"):
        locate(str(tmp_path))
