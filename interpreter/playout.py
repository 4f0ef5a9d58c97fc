"""Playouts inside the engine: a game played to its end by agents that pick
an option by number (random bots, MCTS rollouts), reading the pending
decision directly.

The public interface (``Game.to_move``, ``options``, ``apply``) checks
every answer and labels it; an agent that draws a number below the count
of options needs neither, and a game that records no narration needs no
labels. This loop makes exactly the moves the public loop would make with
the same draws, in the same order (tests/unit/test_compiler.py plays both): the
players to move in the order ``to_move`` gives them, each answering the
first of its open questions; the history is kept as ``apply`` keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from rulebook.interpreter.run import reask, run

_NO_CAP = 1 << 62


class Auto:
    """How an engine playout answers (``st.auto`` while it runs): the
    compiled rules call ``auto_pick``/``auto_all`` where they would ask, and
    go on without suspending, until ``left`` decisions have been made."""

    __slots__ = ("pick", "draw", "left")

    def __init__(self, pick: Callable[[int, int], int], left: int, draw: Callable[[], float] | None = None):
        self.pick = pick
        self.draw = draw  # uniform choices: the option at int(draw() * count), without a call of ``pick``
        self.left = left


def auto_pick(st, who: int, options: list):
    """Answer one player's question in a playout: the option ``pick`` draws,
    recorded as ``Game.apply`` records it, the counters reset as the run
    loop resets them after a decision."""
    a = st.auto
    draw = a.draw
    value = options[int(draw() * len(options)) if draw is not None else a.pick(who, len(options))]
    st.history.append([who, value])
    st.since_decision = st.work = st.loops = st.depth = 0
    a.left -= 1
    if a.left <= 0:  # the cap: the next question is asked as usual
        st.auto = None
    return value


def auto_all(st, players: list, options: list) -> list:
    """Answer a question put to several seats in a playout (as
    ``auto_pick``); the answers in the order of ``players``."""
    a = st.auto
    draw = a.draw
    if draw is not None and len(set(players)) == len(players):  # one round in seat order, uniform draws
        answers = [o[int(draw() * len(o))] for o in options]
        st.history.extend(map(list, zip(players, answers)))
        made = len(players)
    else:
        answers, made = answer_rounds(st.history, players, options, a.pick)
    st.since_decision = st.work = st.loops = st.depth = 0
    a.left -= made
    if a.left <= 0:
        st.auto = None
    return answers


def answer_rounds(history: list, players: list, options: list, pick, answers=None, done=None) -> tuple[list, int]:
    """Every answer to a question put to several seats, as the public loop
    gives them: rounds of ``Game.to_move`` (each player's first open
    question, in order), each answer recorded in ``history``; returns the
    answers and how many. ``answers`` and ``done``: those given already."""
    if done is None and len(set(players)) == len(players):  # one round, in seat order
        answers = []
        for p, o in zip(players, options):
            value = o[pick(p, len(o))]
            answers.append(value)
            history.append([p, value])
        return answers, len(players)
    answers = [None] * len(players) if answers is None else list(answers)
    done = [False] * len(players) if done is None else list(done)
    made = 0
    while False in done:
        seen, answered = set(), []
        for i, (p, d) in enumerate(zip(players, done)):
            if d or p in seen:
                continue
            seen.add(p)
            answered.append(i)
            o = options[i]
            answers[i] = value = o[pick(p, len(o))]
            history.append([p, value])
            made += 1
        for i in answered:
            done[i] = True
    return answers, made


def playout(st, choose: Callable[[int, int], int] | None = None, cap: int | None = None,
            draw: Callable[[], float] | None = None) -> int:
    """Play ``st`` to its end; ``choose(player, count)`` gives the index of
    the option ``player`` takes among ``count`` (or, for uniform choices,
    ``draw()`` a number in [0, 1): the option at ``int(draw() * count)``).
    Returns the number of decisions made; stops (without error) after
    ``cap`` of them."""
    if draw is not None:
        choose = lambda p, n: int(draw() * n)  # noqa: E731 - the same draws, where the loop needs a call
    if st.record:  # narration wants each answer's label: the public interface gives it
        return _public(st, choose, cap)
    auto = Auto(choose, _NO_CAP if cap is None else cap, draw)
    st.quiet = True  # options are picked by number: the questions asked from now on make no labels
    try:
        _quiet(st, auto)
    finally:
        st.quiet = False
        st.auto = None
    decisions = (_NO_CAP if cap is None else cap) - auto.left
    if decisions and not st.over:  # stopped at the cap: the question is asked again, with its labels
        reask(st)
    return decisions


def _quiet(st, auto: Auto) -> None:
    """Answer the pending question as the rules answer theirs (``auto_pick``),
    then run with ``st.auto`` set: the rules answer the questions that follow
    where they are asked, and the run loop returns only at the cap, at the
    end, or at a question put to several seats where a seat answers twice
    (answers in rounds, answered here)."""
    while not st.over and auto.left > 0:
        pend = st.pending
        st.auto = auto
        if len(pend["players"]) == 1:
            value = auto_pick(st, pend["players"][0], pend["options"][0])
            st.stack[-1][2][pend["slot"]] = [value] if pend["kind"] == "simul" else value
        else:
            answers, made = answer_rounds(st.history, pend["players"], pend["options"], auto.pick,
                                          pend["answers"], pend["done"])
            st.stack[-1][2][pend["slot"]] = answers
            auto.left -= made
            st.since_decision = st.work = 0
            st.auto = auto if auto.left > 0 else None
        st.pending = None
        run(st)


def _public(st, choose, cap) -> int:
    from rulebook.interpreter.game import Game

    game = Game(st.prog)
    decisions = 0
    while not st.over:
        for p in game.to_move(st):
            game.apply(st, p, choose(p, len(game.options(st, p))))
            decisions += 1
        if cap is not None and decisions >= cap:
            break
    return decisions
