"""Playouts inside the engine: a game played to its end by agents that pick
an option by number (random bots, MCTS rollouts), reading the pending
decision directly.

The public interface (``Game.to_move``, ``legal_values``, ``apply``) checks
every answer and labels it; an agent that draws a number below the count
of options needs neither, and a game that records no narration needs no
labels. This loop makes exactly the moves the public loop would make with
the same draws, in the same order (tests/test_playout.py plays both): the
players to move in the order ``to_move`` gives them, each answering the
first of its open questions; the history is kept as ``apply`` keeps it.
"""

from __future__ import annotations

from collections.abc import Callable

from interpreter.run import reask, run


def playout(st, choose: Callable[[int, int], int] | None = None, cap: int | None = None,
            draw: Callable[[], float] | None = None) -> int:
    """Play ``st`` to its end; ``choose(player, count)`` gives the index of
    the option ``player`` takes among ``count`` (or, for uniform choices,
    ``draw()`` a number in [0, 1): the option at ``int(draw() * count)``).
    Returns the number of decisions made; stops (without error) after
    ``cap`` of them."""
    if draw is not None and st.record:
        choose = lambda p, n: int(draw() * n)  # noqa: E731 - the same draws, where the loop needs a call
    if st.record:  # narration wants each answer's label: the public interface gives it
        return _public(st, choose, cap)
    st.quiet = True  # options are picked by number: the questions asked from now on make no labels
    try:
        decisions = _quiet(st, choose, draw, cap)
    finally:
        st.quiet = False
    if decisions and not st.over:  # stopped at the cap: the question is asked again, with its labels
        reask(st)
    return decisions


def _quiet(st, choose, draw, cap) -> int:
    history = st.history
    decisions = 0
    while not st.over:
        pend = st.pending
        players = pend["players"]
        if len(players) != 1:
            decisions += _answer_all(st, pend, choose, draw)
        else:  # the common case, written without a call per decision for uniform draws
            options = pend["options"][0]
            value = options[int(draw() * len(options)) if draw is not None else choose(players[0], len(options))]
            history.append([players[0], value])
            st.stack[-1][2][pend["slot"]] = [value] if pend["kind"] == "simul" else value
            decisions += 1
        st.pending = None
        st.since_decision = 0
        st.work = 0
        run(st)
        if cap is not None and decisions >= cap:
            break
    return decisions


def _answer_all(st, pend, choose, draw=None) -> int:
    """Every answer to a question put to several seats, as the public loop
    gives them: rounds of ``to_move`` (each player's first open question, in
    order); returns how many."""
    players, history = pend["players"], st.history
    if len(set(players)) == len(players):  # one round, in seat order
        answers = []
        for p, o in zip(players, pend["options"]):
            value = o[int(draw() * len(o)) if draw is not None else choose(p, len(o))]
            answers.append(value)
            history.append([p, value])
        st.stack[-1][2][pend["slot"]] = answers
        return len(players)
    if choose is None:
        choose = lambda p, n: int(draw() * n)  # noqa: E731 - the same draws, where the loop needs a call
    answers = list(pend["answers"])
    done = list(pend["done"])
    made = 0
    while False in done:
        seen, answered = set(), []
        for i, (p, d) in enumerate(zip(players, done)):
            if d or p in seen:
                continue
            seen.add(p)
            answered.append(i)
            options = pend["options"][i]
            answers[i] = value = options[choose(p, len(options))]
            history.append([p, value])
            made += 1
        for i in answered:
            done[i] = True
    st.stack[-1][2][pend["slot"]] = answers
    return made


def _public(st, choose, cap) -> int:
    from interpreter.game import Game

    game = Game(st.prog)
    decisions = 0
    while not st.over:
        for p in game.to_move(st):
            game.apply(st, p, choose(p, len(game.legal_values(st, p))))
            decisions += 1
        if cap is not None and decisions >= cap:
            break
    return decisions
