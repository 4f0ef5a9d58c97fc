"""Small helpers for unit tests: compile a ruleset from text and play it."""

from __future__ import annotations

import textwrap

from rulebook.compiler.build import compile_text
from rulebook.interpreter.game import Game

HEAD = """
rulebook: 1
id: unit
title: Unit
players: {min: 2, max: 2}
"""


def ruleset(body: str, players: tuple[int, int] = (2, 2)) -> str:
    """A whole ruleset's text: the unit test head, then ``body``."""
    head = textwrap.dedent(HEAD).replace("{min: 2, max: 2}", f"{{min: {players[0]}, max: {players[1]}}}")
    return head + textwrap.dedent(body)


# A rule that fails when the game starts (a component's property of nothing), in
# a procedure: run-time errors must name this line, whatever runs the module.
FAILS_AT_START = """
components:
  card:
    for_each: {value: "range(3)"}
zones:
  deck: {}
procedures:
  read:
    params: {c: card}
    effect: |
      let v = c.value + 1
phases:
  p:
    on_begin: |
      read(top(deck))
      end game
"""


def compile_ok(body: str, head: str = HEAD):
    result = compile_text(textwrap.dedent(head) + textwrap.dedent(body), "unit.yaml")
    assert result.program is not None, "\n".join(d.render() for d in result.report.errors)
    return Game(result.program)


def diagnostics(body: str, head: str = HEAD):
    return compile_text(textwrap.dedent(head) + textwrap.dedent(body), "unit.yaml").report.sorted()


def codes(body: str, head: str = HEAD) -> list[str]:
    return [d.code for d in diagnostics(body, head)]


def run_main(capsys, *args):
    """Run the command line as a user does (``rulebook.cli.main``): its exit
    code and what it printed on standard output and standard error."""
    from rulebook.cli.main import main

    try:
        main([str(a) for a in args])
    except SystemExit as exit:
        code = exit.code
    else:  # pragma: no cover - main always exits
        code = 0
    out = capsys.readouterr()
    return code, out.out, out.err


def blind_decision(game, player, view, options, real):
    """A decision that holds no state (for agent tests): sampling goes
    through a closure over the real state, so an agent that read the real
    state instead of sampling would fail."""
    from rulebook.agents.base import Decision
    from rulebook.agents.determinize import determinize

    d = Decision(game, player, view, options, "", None)
    d.sample = lambda rng: determinize(real, player, rng)
    return d


def position_with_choice(game, players: int, seed: int, options: int):
    """A state of ``game`` where the player to move has at least ``options``
    options (playing the first option until then): (state, that player)."""
    st = game.new(players=players, seed=seed, record=False)
    p = game.to_move(st)[0]
    while len(game.options(st, p)) < options:
        game.apply(st, p, 0)
        p = game.to_move(st)[0]
    return st, p


def agent_package(tmp_path, monkeypatch, name: str, source: str) -> str:
    """A package ``name`` in ``tmp_path/pkg`` holding ``agents.py`` with
    ``source``, importable here and by worker processes (spawn passes
    ``sys.path`` on); returns the module's name, ``name.agents``."""
    package = tmp_path / "pkg" / name
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "agents.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path / "pkg"))
    return f"{name}.agents"
