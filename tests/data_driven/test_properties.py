"""Property tests of the engine over every ruleset and every variant.

The rulesets are discovered when the tests are collected: each
``rulesets/*/ruleset.yaml`` and ``examples/*/ruleset.yaml``, its base game and
each of its variants (together with the variants it ``requires``). Hypothesis
draws a ``Plan``: the player count (within the compiled min..max), the game
seed and a script of option indices. A game is played by reading the script
(an index modulo the number of options, and the same to pick the player when
several must decide) and, once the script is used up, from a generator seeded
by the plan. ``moves``, a list of ``(player, index)``, reproduces a game
exactly: ``st = game.new(players, seed)`` then ``game.apply(st, p, k)`` for
each move; a failing example notes it.

Properties: games end and somebody can always decide (1, 2), components are
conserved (3), clone (4) and save/load (5) round-trip, determinism (6, also
across hash seeds), views hide what a player cannot see (7) and who must
decide tells no secret (7b), typed failures (8), tampered saves are refused.

Engine bugs found by these properties are strict xfails: a reproduction with
an inline ruleset each, and the (test, ruleset) parameters that run into them
(KNOWN_ENGINE_BUGS, KNOWN_ENGINE_BUG_CONDITIONS).

Run time: every (test, ruleset variant) pair gets as many examples as fit in
``DECISION_BUDGET`` decisions, judged by the length of a typical random game
of that variant (at least one, at most ``EXAMPLES``); both shrink as rulesets
are added, so the file stays fast. The budget counts decisions, not seconds,
so the examples run are the same on every machine. Shrinking is off (it
replays whole games, for minutes); RULEBOOK_SHRINK=1 turns it on.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as hst
from rulebook.interpreter import ops, rng
from rulebook.interpreter.errors import GameOverError, IllegalOptionError, NotYourTurnError, SaveFileError
from rulebook.interpreter.game import Game, Option
from rulebook.interpreter.state import FIELD_KINDS
from rulebook.interpreter.view import view

from rulebook.testing.properties import (  # noqa: F401 - the checks these properties run, some used by other test files
    SECRET,
    _type,
    back_of,
    check_components,
    check_decision,
    check_view,
    check_who_is_asked,
    dicts_in,
    perturb,
    sampled,
)

ROOT = Path(__file__).resolve().parents[2]
MAX_DECISIONS = 20_000  # a random game must end within this many decisions
HORIZON = 600  # clone, save, tamper and determinism tests use the first HORIZON decisions of a game
CONTINUATION = 300  # decisions replayed in lockstep after a clone or a load
SHRINK = os.environ.get("RULEBOOK_SHRINK", "") not in ("", "0")


# ----------------------------------------------------------------- discovery
@dataclass(frozen=True)
class Combo:
    path: str  # relative to ROOT
    variants: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{Path(self.path).parent.name}[{'+'.join(self.variants) or 'base'}]"


def _with_requires(variants: dict, name: str, trail: tuple = ()) -> list[str]:
    """``name`` after everything it requires (transitively), no repeats."""
    out: list[str] = []
    spec = variants.get(name)
    requires = spec.get("requires") if isinstance(spec, dict) else None
    for req in requires or []:
        if req in trail or req == name:
            continue  # a cycle: the compiler reports it
        for r in _with_requires(variants, req, trail + (name,)):
            if r not in out:
                out.append(r)
    if name not in out:
        out.append(name)
    return out


def discover() -> list[Combo]:
    combos = []
    for base in ("rulesets", "examples"):
        for path in sorted((ROOT / base).glob("*/ruleset.yaml")):
            rel = path.relative_to(ROOT).as_posix()
            combos.append(Combo(rel, ()))
            try:
                data = yaml.safe_load(path.read_text(encoding="utf-8"))
            except Exception:  # a broken file: its base game fails to compile in the tests
                continue
            variants = data.get("variants") if isinstance(data, dict) else None
            if isinstance(variants, dict):
                for name in variants:
                    combos.append(Combo(rel, tuple(_with_requires(variants, str(name)))))
    return combos


COMBOS = discover()
IDS = [c.id for c in COMBOS]

EXAMPLES = max(2, min(12, 120 // max(1, len(COMBOS))))
DECISION_BUDGET = max(1_000, min(8_000, 45_000 // max(1, len(COMBOS))))

PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, print_blob=False,
                    phases=[Phase.explicit, Phase.generate] + ([Phase.shrink] if SHRINK else []),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example, HealthCheck.filter_too_much])

# Engine bugs that some rulesets run into: (test, ruleset folder) -> reason.
# Those parameters are strict xfails; each bug also has a strict-xfail
# reproduction below that does not depend on any ruleset (an inline one).
LEAKY_OPTIONS = (
    "engine bug: a decision's options are raw component ids (Options.plain, Option.value and "
    "view()['decision']['options']) even when the chooser cannot see those components, so the ids (and the "
    "default labels, comp_name) identify them: here people whose values are hidden from everyone "
    "(survive, P17) are offered as 'Dolphin: choose one of your swimmers' and as 'move' action arguments; "
    "see test_options_do_not_identify_face_down_components")
SEAT_NAME = (
    "engine bug: Game._slot formats NotYourTurnError's message with player_name(st, player), which "
    "evaluates the ruleset's players.name template; for a seat that does not exist (player == player count) "
    "a template like '{player_names[p]}' fails, so apply/options raise RuleError R104 ('index 4 is outside a "
    "list of 4') instead of NotYourTurnError; see test_a_seat_out_of_range_is_not_to_move_with_seat_names")
OUT_OF_RANGE = lambda n: (n, n + 3, -1)  # noqa: E731 - seats that do not exist
KNOWN_ENGINE_BUGS: dict = {}


@cache
def _compile(path: str, variants: tuple[str, ...]):
    from rulebook.compiler.build import compile_path
    result = compile_path(ROOT / path, variants)
    return result.program, "\n".join(d.render() for d in result.report.errors)


def get_game(combo: Combo) -> Game:
    program, errors = _compile(combo.path, combo.variants)
    assert program is not None, f"{combo.id} does not compile:\n{errors}"
    return Game(program)


def _seat_names_break(c: Combo) -> bool:
    """Whether the ruleset's player names fail for a seat that does not exist
    (the condition of the SEAT_NAME bug)."""
    from rulebook.interpreter.labels import player_name
    try:
        game = get_game(c)
        states = [game.new(players=n, seed=1) for n in sorted({game.program.min_players, game.program.max_players})]
    except Exception:
        return False  # the tests report it
    for st in states:
        for q in OUT_OF_RANGE(st.n):
            try:
                player_name(st, q)
            except Exception:
                return True
    return False


KNOWN_ENGINE_BUG_CONDITIONS = {

}


def combos(test):
    """Parametrize ``test`` over every (ruleset, variants), known engine bugs as strict xfails."""
    params = []
    for c in COMBOS:
        reason = KNOWN_ENGINE_BUGS.get((test.__name__, Path(c.path).parent.name))
        condition = KNOWN_ENGINE_BUG_CONDITIONS.get(test.__name__)
        if reason is None and condition is not None and condition[0](c):
            reason = condition[1]
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(c, id=c.id, marks=marks))
    return pytest.mark.parametrize("combo", params)(test)


@cache
def typical_length(combo: Combo) -> int:
    """Decisions in a random game with the fewest and with the most players (the longer)."""
    game = get_game(combo)
    prog = game.program
    return max(len(play(game, Plan(n, 0, (), 0), combo, limit=DECISION_BUDGET)[1])
               for n in {prog.min_players, prog.max_players})


def check_property(combo: Combo, body, passes: float = 1.0) -> None:
    """Run ``body(game, combo, data)`` as a Hypothesis test with as many
    examples as fit in DECISION_BUDGET decisions (at most EXAMPLES, at least
    one), ``passes`` being the games an example plays, in units of a typical game."""
    game = get_game(combo)
    cost = max(1.0, typical_length(combo) * passes)
    examples = max(1, min(EXAMPLES, int(DECISION_BUDGET // cost)))

    def inner(data):
        body(game, combo, data)

    inner.__qualname__ = inner.__name__ = body.__name__
    settings(PROPERTY, max_examples=examples)(given(data=hst.data())(inner))()


# ----------------------------------------------------------------- plans
@dataclass(frozen=True)
class Plan:
    players: int
    seed: int
    script: tuple[int, ...]
    tail: int  # seeds the choices once the script is used up


def plans(game: Game):
    prog = game.program
    return hst.builds(Plan,
                      players=hst.integers(prog.min_players, prog.max_players),
                      seed=hst.integers(0, 2 ** 32 - 1),
                      script=hst.lists(hst.integers(0, 2 ** 16 - 1), max_size=120).map(tuple),
                      tail=hst.integers(0, 2 ** 32 - 1))


class Chooser:
    def __init__(self, plan: Plan):
        self.script = plan.script
        self.pos = 0
        self.rng = random.Random(plan.tail)

    def pick(self, n: int) -> int:
        if n <= 1:
            return 0
        if self.pos < len(self.script):
            self.pos += 1
            return self.script[self.pos - 1] % n
        return self.rng.randrange(n)


def norm(x):
    """As JSON sees it (tuples become lists): how a save stores it."""
    return json.loads(json.dumps(x))


def repro(combo: Combo, plan: Plan, moves) -> str:
    return (f"reproduce: game = Game(compile_path({combo.path!r}, {combo.variants!r}).program); "
            f"st = game.new(players={plan.players}, seed={plan.seed}); "
            f"for p, k in {list(moves)!r}: game.apply(st, p, k)")


def play(game: Game, plan: Plan, combo: Combo, check=None, limit: int = MAX_DECISIONS, record: bool = True):
    """Play a game by the plan for at most ``limit`` decisions, calling
    ``check(st, moves)`` after setup and after every decision. Returns the
    state and the moves."""
    st = game.new(players=plan.players, seed=plan.seed, record=record)
    chooser = Chooser(plan)
    moves: list[tuple[int, int]] = []
    try:
        if check:
            check(st, moves)
        while not game.is_over(st) and len(moves) < limit:
            tm = game.to_move(st)
            p = tm[chooser.pick(len(tm))]
            k = chooser.pick(len(game.options(st, p)))
            moves.append((p, k))
            game.apply(st, p, k)
            if check:
                check(st, moves)
    except BaseException:
        try:
            note(repro(combo, plan, moves))
        except Exception:  # not inside a Hypothesis test
            pass
        raise
    return st, moves


def replay(game: Game, plan: Plan, moves, record: bool = True):
    st = game.new(players=plan.players, seed=plan.seed, record=record)
    for p, k in moves:
        game.apply(st, p, k)
    return st


def lockstep(game: Game, a, b, moves) -> None:
    """Apply the same moves to two states, checking that they offer the same
    decisions before each one."""
    for i, (p, k) in enumerate(moves):
        assert game.to_move(a) == game.to_move(b), f"to_move differs before continuation move {i}"
        la, lb = game.options(a, p), game.options(b, p)
        assert norm([o.value for o in la]) == norm([o.value for o in lb]), f"options differ before move {i}"
        assert [o.label for o in la] == [o.label for o in lb], f"option labels differ before move {i}"
        assert game.prompt(a, p) == game.prompt(b, p)
        game.apply(a, p, k)
        game.apply(b, p, k)
    assert game.is_over(a) == game.is_over(b)


# ----------------------------------------------------------------- invariants
# ----------------------------------------------------------------- 1, 2, 3
@combos
def test_random_games_end_with_a_decider_and_conserve_components(combo):
    """1. a random game ends within MAX_DECISIONS decisions and never raises;
    2. while not over somebody is to move and has a legal option, and is_over
    implies to_move == []; 3. after every decision each component is in
    exactly one zone or in the box, loc agrees, and none disappears."""
    check_property(combo, _random_games_end_with_a_decider_and_conserve_components, passes=1)


def _random_games_end_with_a_decider_and_conserve_components(game, combo, data):
    plan = data.draw(plans(game), label="plan")
    count = [0]

    def check(st, moves):
        check_decision(game, st)
        check_components(st, count)

    st, moves = play(game, plan, combo, check)
    assert game.is_over(st), f"no end after {MAX_DECISIONS} decisions with {plan.players} players, seed {plan.seed}"
    assert len(st.history) == len(moves)


# ----------------------------------------------------------------- 4
def _cut(game, plan, combo, data):
    """A state somewhere in the first HORIZON decisions of a game (or at its
    end), with the moves that follow it."""
    _, moves = play(game, plan, combo, limit=HORIZON)
    cut = data.draw(hst.integers(0, len(moves)), label="cut")
    return moves[:cut], moves[cut:cut + CONTINUATION]


@combos
def test_clone_round_trip(combo):
    """4. a clone plays on like its original, and moves on either leave the
    other untouched."""
    check_property(combo, _clone_round_trip, passes=1.5)


def _clone_round_trip(game, combo, data):
    plan = data.draw(plans(game), label="plan")
    before_moves, after = _cut(game, plan, combo, data)
    note(repro(combo, plan, before_moves) + f"; then clone and continue with {after}")
    st = replay(game, plan, before_moves)
    before = json.dumps(st.to_data())
    seen = len(st.events)

    a = game.clone(st)
    b = game.clone(st)
    assert a.to_data() == st.to_data()
    for p, k in after:
        game.apply(a, p, k)
    assert json.dumps(st.to_data()) == before, "playing on a clone changed the original"
    assert json.dumps(b.to_data()) == before, "playing on a clone changed another clone"

    lockstep(game, st, b, after)  # the original and a clone made before, in step
    assert st.to_data() == a.to_data() == b.to_data()
    assert norm(st.events[seen:]) == norm(a.events) == norm(b.events)
    for s in (st, a, b):
        check_field_kinds(s)


def check_field_kinds(st) -> None:
    """Each field ``FIELD_KINDS`` names holds its one kind (native code types
    the state by that table, and would fail where Python code broke it)."""
    kinds = {"list": (list, type(None)), "dict": (dict, type(None)), "int": (int,)}
    for name, kind in FIELD_KINDS.items():
        value = getattr(st, name)
        assert isinstance(value, kinds[kind]) and type(value) is not bool, (name, value)


# ----------------------------------------------------------------- 5
@combos
def test_save_and_resume_round_trip(combo):
    """5. json.dumps(save) then load gives the same state, which plays on
    exactly like the original: same decisions, events and final state."""
    check_property(combo, _save_and_resume_round_trip, passes=1.5)


def _save_and_resume_round_trip(game, combo, data):
    plan = data.draw(plans(game), label="plan")
    before_moves, after = _cut(game, plan, combo, data)
    note(repro(combo, plan, before_moves) + f"; then save, load and continue with {after}")
    st = replay(game, plan, before_moves)
    seen = len(st.events)

    text = json.dumps(game.save(st))
    loaded = game.load(json.loads(text))
    assert norm(loaded.to_data()) == norm(st.to_data())
    assert json.dumps(game.save(loaded)) == text, "saving a loaded game gives a different save"
    assert game.is_over(loaded) == game.is_over(st)
    assert game.to_move(loaded) == game.to_move(st)

    lockstep(game, st, loaded, after)
    assert game.winners(loaded) == game.winners(st)
    assert norm(loaded.to_data()) == norm(st.to_data())
    assert norm(loaded.events) == norm(st.events[seen:]), "the resumed game recorded different events"


# ----------------------------------------------------------------- 6
@combos
def test_same_seed_and_choices_give_the_same_game(combo):
    """6. same ruleset, seed and choices: the same history, events and final
    state; recording events does not change the game."""
    check_property(combo, _same_seed_and_choices_give_the_same_game, passes=1.5)


def _same_seed_and_choices_give_the_same_game(game, combo, data):
    plan = data.draw(plans(game), label="plan")
    a, moves_a = play(game, plan, combo, limit=HORIZON)
    b, moves_b = play(Game(game.program), plan, combo, limit=HORIZON)
    assert moves_a == moves_b
    assert a.history == b.history
    assert a.events == b.events
    assert a.to_data() == b.to_data()
    c = replay(game, plan, moves_a, record=False)
    assert c.events == []
    assert c.to_data() == a.to_data()


DETERMINISM_CODE = r'''
import hashlib, json, random, sys
from rulebook.compiler.build import compile_path
from rulebook.interpreter.game import Game

def fingerprints(root, combos, limit):
    out = {}
    for path, variants in combos:
        key = path + ":" + "+".join(variants)
        try:
            prog = compile_path(root + "/" + path, tuple(variants)).program
        except Exception as err:
            out[key] = "compile raised " + type(err).__name__
            continue
        if prog is None:
            out[key] = "does not compile"
            continue
        out[key] = prog.digest
        game = Game(prog)
        for players in sorted({prog.min_players, prog.max_players}):
            r = random.Random(1000 + players)
            try:
                st = game.new(players=players, seed=3)
                while not st.over and len(st.history) < limit:
                    tm = game.to_move(st)
                    p = tm[r.randrange(len(tm))]
                    game.apply(st, p, r.randrange(len(game.options(st, p))))
                blob = json.dumps({"state": st.to_data(), "events": st.events}, default=repr)
                fp = hashlib.sha256(blob.encode()).hexdigest()
            except Exception as err:
                fp = "raised " + type(err).__name__
            out[f"{key}/{players}"] = fp
    return out
'''


def test_games_do_not_depend_on_the_hash_seed():
    """6. set and dict orders of strings change with PYTHONHASHSEED; a game
    (so a save, a replay, a scenario) and a ruleset's digest (which a save
    names) must not."""
    combos_data = json.dumps([[c.path, list(c.variants)] for c in COMBOS])
    limit = 300
    runner = DETERMINISM_CODE + (
        "\nprint(json.dumps(fingerprints(sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]))))\n")
    other = "4321" if os.environ.get("PYTHONHASHSEED") == "1234" else "1234"  # differs from this process's
    procs = {seed: subprocess.Popen([sys.executable, "-c", runner, str(ROOT), combos_data, str(limit)], cwd=ROOT,
                                    env=dict(os.environ, PYTHONHASHSEED=seed), stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
             for seed in (other,)}
    scope: dict = {}
    exec(DETERMINISM_CODE, scope)
    here = scope["fingerprints"](str(ROOT), json.loads(combos_data), limit)
    for hash_seed, proc in procs.items():
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        there = json.loads(out)
        differ = sorted(k for k in here if here[k] != there.get(k))
        assert not differ, f"games differ with PYTHONHASHSEED={hash_seed}: {differ}"


# ----------------------------------------------------------------- sanity
@combos
def test_different_seeds_usually_give_different_games(combo):
    game = get_game(combo)
    prog = game.program
    games = set()
    used_randomness = False
    for seed in range(8):
        plan = Plan(prog.min_players, seed, (), tail=12345)  # the same choice stream for every seed
        st0 = game.new(players=plan.players, seed=seed)
        start = st0.to_data()
        start.pop("rng")
        st, _ = play(game, plan, combo, limit=200)
        used_randomness |= st.rng != rng.seed_state(seed)
        games.add(json.dumps([start, st.history, norm(st.events)], default=repr))
    if not used_randomness:
        pytest.skip(f"{combo.id} draws no random numbers")
    assert len(games) > 1, f"{combo.id}: 8 seeds gave the same game"


def test_rulesets_are_discovered():
    assert COMBOS, "no rulesets/*/ruleset.yaml or examples/*/ruleset.yaml found"
    assert len(set(IDS)) == len(IDS)


# ----------------------------------------------------------------- greedy players
@combos
def test_greedy_games_end_with_a_decider_and_conserve_components(combo):
    """Properties 1-3 again between greedy agents (``agents.greedy``),
    which play towards the rules' own endings (a target reached, a hand
    emptied) where random play rarely gets: every seat greedy, one seeded
    game at the fewest players (greedy costs a lookahead per option)."""
    from rulebook.agents.base import decide
    from rulebook.agents.greedy import GreedyAgent

    game = get_game(combo)
    prog = game.program
    for n in [prog.min_players]:
        st = game.new(players=n, seed=n, record=False)
        agents = [GreedyAgent(seed=100 * n + p).decide for p in range(n)]
        count = [0]
        check_components(st, count)
        decisions = 0
        while not game.is_over(st) and decisions < MAX_DECISIONS:
            check_decision(game, st)
            for p in game.to_move(st):
                game.apply(st, p, decide(game, st, p, agents[p], view_fn=False))
                decisions += 1
            check_components(st, count)
        check_decision(game, st)
        assert game.is_over(st), f"{combo.id}: no end after {MAX_DECISIONS} greedy decisions with {n} players"


# ----------------------------------------------------------------- 7
@combos
def test_views_hide_what_a_player_cannot_see(combo):
    """7. states that differ only in what p cannot see give p equal views, and
    a view never holds the id of a component p cannot see. Checked at
    sampled states, for the players to move, one other player and a spectator."""
    check_property(combo, _views_hide_what_a_player_cannot_see, passes=2)


def _views_hide_what_a_player_cannot_see(game, combo, data):
    plan = data.draw(plans(game), label="plan")
    rnd = random.Random(plan.seed)

    def check(st, moves):
        if sampled(len(moves)) or st.over:
            viewers = [*game.to_move(st), rnd.randrange(st.n), None]
            for p in dict.fromkeys(viewers):
                check_view(game, st, p, rnd)

    play(game, plan, combo, check)


@combos
def test_who_is_asked_does_not_tell_secrets(combo):
    """7b. who must decide next depends only on what the players watching can
    see: checked at sampled states against a world with the components that
    neither the decider nor an observer sees dealt out again."""
    check_property(combo, _who_is_asked_does_not_tell_secrets, passes=1.5)


def _who_is_asked_does_not_tell_secrets(game, combo, data):
    plan = data.draw(plans(game), label="plan")
    rnd = random.Random(plan.seed)

    def check(st, moves):
        if not st.over and sampled(len(moves)):
            check_who_is_asked(game, st, rnd)

    play(game, plan, combo, check)


@combos
def test_decisions_do_not_name_components_the_chooser_cannot_see(combo):
    """7. options go to the player who decides (in the view and as labels):
    a choice among components must be among components that player can see,
    otherwise option ids and labels identify hidden components."""
    check_property(combo, _decisions_do_not_name_components_the_chooser_cannot_see, passes=1)


def hidden_option_components(game: Game, st, p) -> list:
    """Components named by ``p``'s options (choices of components, component
    arguments of actions) that ``p`` cannot see."""
    # what agents get: options whose identity is hidden carry no component at all
    options = [o.value for o in game.options(st, p) if not (isinstance(o.value, dict) and o.value.get("hidden"))]
    decision = view(st, p).get("decision") or {}
    shown = [o for o in decision.get("options", []) if not (isinstance(o, dict) and o.get("hidden"))]
    assert len(shown) == len(options), "view() and legal() hide different options"
    pend = st.pending
    named = []
    if pend["kind"] == "action":
        for ai, args in options:
            types = getattr(st.prog.actions[ai], "param_types", None) or []
            for v, t in zip(args, types, strict=False):
                if t.kind == "comp":
                    named.append(v)
                elif t.kind == "list" and getattr(t.arg, "kind", None) == "comp":
                    named.extend(v or [])
    elif pend.get("type") == "comp":
        named = list(options)
    elif pend.get("type") == "list:comp":
        named = [c for o in options for c in (o or [])]
    return sorted({c for c in named if isinstance(c, int) and not ops.can_see(st, c, p)})


def _decisions_do_not_name_components_the_chooser_cannot_see(game, combo, data):
    plan = data.draw(plans(game), label="plan")

    def check(st, moves):
        if not st.over:
            for p in game.to_move(st):
                hidden = hidden_option_components(game, st, p)
                assert not hidden, (f"player {p}'s options name components {hidden} that {p} cannot see "
                                    f"(prompt {game.prompt(st, p)!r})")

    play(game, plan, combo, check)


BLIND_PICK = """
rulebook: 1
id: blind-pick
title: Blind pick
players: {min: 2, max: 2}
components:
  card:
    for_each: {value: "range(1, 4)"}
zones:
  table: {visibility: hidden}
  taken: {per: player}
setup: |
  move components(card) to table
  shuffle table
phases:
  pick:
    on_begin: |
      choose c from table by 0 prompt "pick a face-down card"
      move c to taken[0]
      end game
"""


def test_options_do_not_identify_face_down_components():
    game = _inline_game(BLIND_PICK)
    st = game.new(players=2, seed=5)
    assert all(not ops.can_see(st, c, 0) for c in st.zones[st.cat.zone_base["table"]])
    labels = {o.label for o in game.options(st, 0)}
    assert len(labels) == 1, f"the labels tell the face-down cards apart: {sorted(labels)}"
    assert not hidden_option_components(game, st, 0), f"the options are the ids {view(st, 0)['decision']}"


def _inline_game(text: str) -> Game:
    from rulebook.compiler.build import compile_text
    result = compile_text(textwrap.dedent(text), "inline.yaml")
    assert result.program is not None, "\n".join(d.render() for d in result.report.errors)
    return Game(result.program)


ORDER_LEAK = """
rulebook: 1
id: order-leak
title: Order leak
players: {min: 2, max: 2}
components:
  card:
    for_each: {value: "range(1, 5)"}
zones:
  deck: {visibility: hidden}
  hand: {per: player, visibility: owner, ordered: false}
setup: |
  move components(card) to deck
  move filter(components(card), c => c.value == 3) to hand[0]
  reveal hand[0]
  shuffle deck
  draw 1 from deck to hand[0]
actions:
  wait:
    effect: |
      end game
phases:
  play:
    turn:
      actions: [wait]
"""


def test_unordered_zone_order_does_not_leak_hidden_identities():
    game = _inline_game(ORDER_LEAK)
    views = {}
    for seed in range(12):
        st = game.new(players=2, seed=seed)
        hidden = [c for c in st.zones[st.cat.zone_base["hand"]] if not ops.can_see(st, c, 1)]
        views.setdefault(json.dumps(view(st, 1), sort_keys=True), []).append(
            (seed, st.static[hidden[0]]["value"]))
    assert len(views) == 1, f"P2's view tells the hidden card apart: {list(views.values())}"


# ----------------------------------------------------------------- 8
BAD_INDICES = (-1, "len", "len+7", True, False, "0", 0.0, None, "option")


def _bad(index, n):
    if index == "len":
        return n
    if index == "len+7":
        return n + 7
    if index == "option":
        return Option(n, None, "not an option")
    return index


@combos
def test_typed_failures(combo):
    """8. an out-of-range option raises IllegalOptionError, a player not to
    move NotYourTurnError, anything after the end GameOverError; a refused
    apply changes nothing. Checked at sampled states and at the end."""
    check_property(combo, _typed_failures, passes=1.5)


def _typed_failures(game, combo, data):
    plan = data.draw(plans(game), label="plan")

    def check(st, moves):
        if not (sampled(len(moves)) or st.over):
            return
        before = json.dumps(st.to_data())
        events = len(st.events)
        if game.is_over(st):
            for p in [*range(st.n), st.n, None]:
                with pytest.raises(GameOverError):
                    game.apply(st, p, 0)
                with pytest.raises(GameOverError):
                    game.options(st, p)
                with pytest.raises(GameOverError):
                    game.prompt(st, p)
        else:
            tm = game.to_move(st)
            for p in tm:
                n = len(game.options(st, p))
                for bad in BAD_INDICES:
                    with pytest.raises(IllegalOptionError):
                        game.apply(st, p, _bad(bad, n))
            for q in [*(q for q in range(st.n) if q not in tm), None]:  # seats out of range: below
                with pytest.raises(NotYourTurnError):
                    game.apply(st, q, 0)
                with pytest.raises(NotYourTurnError):
                    game.options(st, q)
        assert json.dumps(st.to_data()) == before, "a refused apply changed the state"
        assert len(st.events) == events, "a refused apply recorded events"

    play(game, plan, combo, check)


@combos
def test_seats_out_of_range_are_not_to_move(combo):
    """8. a seat that does not exist is not to move: NotYourTurnError."""
    game = get_game(combo)
    for n in sorted({game.program.min_players, game.program.max_players}):
        st = next((s for s in (game.new(players=n, seed=seed) for seed in range(1, 21)) if not s.over), None)
        if st is None:
            continue  # every game of 20 ended in its setup
        before = json.dumps(st.to_data())
        for q in OUT_OF_RANGE(n):
            with pytest.raises(NotYourTurnError):
                game.apply(st, q, 0)
            with pytest.raises(NotYourTurnError):
                game.options(st, q)
        assert json.dumps(st.to_data()) == before


SEAT_NAMES = """
rulebook: 1
id: seat-names
title: Seat names
players: {min: 2, max: 2, name: "{seat_names[p]}"}
define:
  seat_names: "['North', 'South']"
actions:
  wait:
    effect: |
      end game
phases:
  play:
    turn:
      actions: [wait]
"""


def test_a_seat_out_of_range_is_not_to_move_with_seat_names():
    game = _inline_game(SEAT_NAMES)
    st = game.new(players=2)
    with pytest.raises(NotYourTurnError):
        game.apply(st, 2, 0)


def test_options_after_the_end_raises_game_over():
    for combo in COMBOS:
        program, _ = _compile(combo.path, combo.variants)
        if program is None:
            continue
        game = Game(program)
        st, _ = play(game, Plan(program.min_players, 1, (), 1), combo, limit=3_000)
        if game.is_over(st):
            with pytest.raises(GameOverError):
                game.options(st, 0)


# ----------------------------------------------------------------- tampered saves
def _first_nonempty(state):
    return next((z for z, zone in enumerate(state["zones"]) if zone), None)


def t_duplicate_in_zone(d):
    z = _first_nonempty(d["state"])
    if z is None:
        return None
    d["state"]["zones"][z].append(d["state"]["zones"][z][0])
    return d


def t_in_two_zones(d):
    s = d["state"]
    z = _first_nonempty(s)
    if z is None or len(s["zones"]) < 2:
        return None
    s["zones"][(z + 1) % len(s["zones"])].append(s["zones"][z][0])
    return d


def t_lost_component(d):
    s = d["state"]
    z = _first_nonempty(s)
    if z is None:
        return None
    s["zones"][z].pop(0)  # loc still names the zone
    return d


def t_boxed_but_in_zone(d):
    s = d["state"]
    z = _first_nonempty(s)
    if z is None:
        return None
    s["loc"][s["zones"][z][0]] = ops.BOX
    return d


def t_loc_names_another_zone(d):
    s = d["state"]
    z = _first_nonempty(s)
    if z is None or len(s["zones"]) < 2:
        return None
    s["loc"][s["zones"][z][0]] = (z + 1) % len(s["zones"])
    return d


def t_unknown_component(d):
    if not d["state"]["zones"]:
        return None
    d["state"]["zones"][0].append(len(d["state"]["loc"]) + 5)
    return d


def t_negative_component(d):
    if not d["state"]["zones"]:
        return None
    d["state"]["zones"][0].append(-2)
    return d


def t_short_face_table(d):
    if not d["state"]["face"]:
        return None
    d["state"]["face"].pop()
    return d


def t_digest(d):
    d["digest"] = "0" * len(str(d["digest"]))
    return d


def t_ruleset(d):
    d["ruleset"] = str(d["ruleset"]) + "-other"
    return d


def t_variants(d):
    d["variants"] = list(d["variants"]) + ["no-such-variant"]
    return d


def t_format(d):
    d["format"] = 999
    return d


def t_not_a_dict(d):
    return [d]


def t_missing_state_key(d):
    del d["state"]["zones"]
    return d


def t_players_out_of_range(d):
    d["players"] = 1000
    return d


def t_unknown_param(d):
    d["params"] = dict(d.get("params") or {}, no_such_param_xyz=1)
    return d


def t_stack_frame(d):
    s = d["state"]
    if not s["stack"]:
        return None
    s["stack"][-1][0] = 10 ** 6
    return d


def t_in_progress_without_decision(d):
    s = d["state"]
    if s["over"]:
        return None
    s["pending"] = None
    return d


TAMPERINGS = [t_duplicate_in_zone, t_in_two_zones, t_lost_component, t_boxed_but_in_zone,
              t_loc_names_another_zone, t_unknown_component, t_negative_component, t_short_face_table,
              t_digest, t_ruleset, t_variants, t_format, t_not_a_dict, t_missing_state_key,
              t_players_out_of_range, t_unknown_param, t_stack_frame, t_in_progress_without_decision]


@combos
def test_tampered_saves_are_refused(combo):
    """A save edited by hand (a component twice, a lost component, another
    ruleset digest, ...) is refused with SaveFileError; the untouched save loads."""
    check_property(combo, _tampered_saves_are_refused, passes=1.5)


def _tampered_saves_are_refused(game, combo, data):
    plan = data.draw(plans(game), label="plan")
    before_moves, _ = _cut(game, plan, combo, data)
    note(repro(combo, plan, before_moves))
    st = replay(game, plan, before_moves)
    text = json.dumps(game.save(st))
    game.load(json.loads(text))
    for tamper in TAMPERINGS:
        tampered = tamper(json.loads(text))
        if tampered is None:
            continue
        try:
            game.load(tampered)
        except SaveFileError:
            continue
        pytest.fail(f"{tamper.__name__[2:]}: the tampered save was accepted")
