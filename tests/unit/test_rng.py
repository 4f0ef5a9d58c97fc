"""The game generator (interpreter/rng.py): SplitMix64, and the shuffle
that draws all its numbers at once (``_shuffle_lanes``) gives the same
order and state as the shuffle drawn one number at a time, which is the
definition (``below`` for each index from the last down)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rulebook.interpreter import rng


def shuffle_by_definition(state: int, items: list) -> int:
    for i in range(len(items) - 1, 0, -1):
        state, j = rng.below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


@settings(max_examples=300, deadline=None)
@given(st.integers(0, rng.MASK), st.integers(0, 400))
def test_the_shuffle_draws_the_numbers_the_definition_draws(state, n):
    mine, defined, one_by_one = list(range(n)), list(range(n)), list(range(n))
    after = rng.shuffle(state, mine)
    assert after == shuffle_by_definition(state, defined) == rng.shuffle_one_by_one(state, one_by_one)
    assert mine == defined == one_by_one


def test_states_at_the_edges_of_64_bits_and_every_length_around_the_switch():
    for state in (0, 1, rng.MASK, rng.MASK - 1, 1 << 63, (1 << 63) - 1, rng.seed_state(0), 0x9E3779B97F4A7C15):
        for n in range(0, 40):
            mine, defined = list(range(n)), list(range(n))
            assert (rng.shuffle(state, mine), mine) == (shuffle_by_definition(state, defined), defined), (state, n)


def test_long_lists_and_lengths_seen_again():
    """Lanes are kept per length (the second shuffle of a length reuses
    them) and lists past the lanes' bound are shuffled one by one: the same
    numbers either way."""
    for n in (13, 60, 60, 4096, 4097, 6000):
        for state in (5, rng.MASK):
            mine, defined = list(range(n)), list(range(n))
            assert (rng.shuffle(state, mine), mine) == (rng.shuffle_one_by_one(state, defined), defined), n


def test_a_known_order():
    """Pinned, so that a change of the generator shows (saved games and
    the same-games hashes depend on these numbers)."""
    deck = list(range(20))
    assert rng.shuffle(rng.seed_state(7), deck) == 0x74ce4272c7457a3b
    assert deck == KNOWN


KNOWN = [7, 15, 14, 8, 17, 4, 6, 13, 0, 10, 9, 1, 19, 16, 3, 12, 2, 18, 5, 11]
