"""The Decision an agent is given: its options and prompt are built when
read, and ``count`` answers without naming anything (a forced decision needs
no labels)."""

from __future__ import annotations

from rulebook.agents.base import Decision, decide

from tests.conftest import game


def test_count_options_and_prompt_agree_with_the_game():
    g = game("examples/tic-tac-toe/ruleset.yaml")
    st = g.new(players=2, seed=1)
    p = g.to_move(st)[0]
    seen = {}

    def agent(d: Decision) -> int:
        assert d._options is None and d._prompt is None  # nothing built before it is read
        seen["count"] = d.count
        assert d._options is None  # counting names nothing
        seen["labels"] = [o.label for o in d.options]
        seen["prompt"] = d.prompt
        return 0

    assert decide(g, st, p, agent) == 0
    assert seen["count"] == len(g.options(st, p)) == len(seen["labels"])
    assert seen["labels"] == g.options(st, p).labels and seen["prompt"] == g.prompt(st, p)
