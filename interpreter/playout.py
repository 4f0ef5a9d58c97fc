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

from interpreter.run import run


def playout(st, choose: Callable[[int, int], int], cap: int | None = None) -> int:
    """Play ``st`` to its end; ``choose(player, count)`` gives the index of
    the option ``player`` takes among ``count``. Returns the number of
    decisions made; stops (without error) after ``cap`` of them."""
    if st.record:  # narration wants each answer's label: the public interface gives it
        return _public(st, choose, cap)
    history = st.history
    decisions = 0
    while not st.over:
        pend = st.pending
        players = pend["players"]
        if len(players) == 1:
            p = players[0]
            options = pend["options"][0]
            value = options[choose(p, len(options))]
            history.append([p, value])
            st.stack[-1][2][pend["slot"]] = [value] if pend["kind"] == "simul" else value
            decisions += 1
        elif len(set(players)) == len(players):  # everybody answers one question: one round, in seat order
            options = pend["options"]
            answers = []
            for p, o in zip(players, options):
                value = o[choose(p, len(o))]
                answers.append(value)
                history.append([p, value])
            decisions += len(players)
            st.stack[-1][2][pend["slot"]] = answers
        else:
            answers = list(pend["answers"])
            done = list(pend["done"])
            while False in done:  # rounds of to_move: each player's first open question, in order
                seen, answered = set(), []
                for i, (p, d) in enumerate(zip(players, done)):
                    if d or p in seen:
                        continue
                    seen.add(p)
                    answered.append(i)
                    options = pend["options"][i]
                    answers[i] = value = options[choose(p, len(options))]
                    history.append([p, value])
                    decisions += 1
                for i in answered:
                    done[i] = True
            st.stack[-1][2][pend["slot"]] = answers
        st.pending = None
        st.since_decision = 0
        st.work = 0
        run(st)
        if cap is not None and decisions >= cap:
            break
    return decisions


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
