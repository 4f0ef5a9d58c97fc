"""A small seeded random generator whose whole state is one integer.

Python's ``random.Random`` carries 625 words of state: slow to clone and
bulky in a saved game. SplitMix64 is tiny, fast enough in pure Python and
fully determined by its 64-bit state, which lives inside the game state.
"""

from __future__ import annotations

import sys
from array import array

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, 64 random bits)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, a number in 0..n-1); the multiply-shift bias is
    below 2**-50 for every n a game uses."""
    state, bits = next_u64(state)
    return state, (bits * n) >> 64


def shuffle(state: int, items: list) -> int:
    """Fisher-Yates shuffle in place; returns the new generator state.
    A list of a dozen to a few thousand items draws all its numbers at
    once (``_shuffle_lanes``); a shorter or longer one, one by one (a long
    one gains nothing: building its lanes costs what it saves)."""
    if 12 < len(items) <= 4096 and _LANES_FIT:
        return _shuffle_lanes(state, items)
    return shuffle_one_by_one(state, items)


def shuffle_one_by_one(state: int, items: list) -> int:
    """The shuffle as it is defined: ``below(state, i + 1)`` for i from the
    last index down to 1, each swapping item i with the one drawn; ``below``
    written out (the same numbers, without two calls per item)."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


# Python computes each draw above with a dozen operations on 64-bit and
# 128-bit integers, each a new object: a visible share of a Python game of
# a ruleset that shuffles a large pile several times a game.
# The draws of one shuffle depend only on the state they start from
# (SplitMix64 steps its state by a constant), so ``_shuffle_lanes``
# computes them all at once: the n states packed into one integer, 128 bits
# apart (a 64-bit lane, and room above it for a product with a 64-bit
# constant), mixed by the same few operations on the whole integer, then
# unpacked (``array``): the same numbers (tests/unit/test_rng.py), faster from a
# dozen items to thousands (docs/performance.md).
_LANES: dict = {}
_LANES_FIT = array("Q").itemsize == 8  # C's unsigned long long: 64 bits everywhere Python runs, checked
_BIG_ENDIAN = sys.byteorder == "big"
_CACHED_LANES = 1 << 16  # lanes kept for lengths seen again (48 bytes a lane: 3 MB at most)


def _lanes(n: int) -> tuple:
    """For n draws: the integer with 1 in each lane, the lanes' steps
    (k + 1) * golden mod 2**64 for lane k, and the mask of the lanes' low
    64 bits; built from bytes, in time linear in n."""
    global _CACHED_LANES
    got = _LANES.get(n)
    if got is None:
        ones = int.from_bytes((1).to_bytes(16, "little") * n, "little")
        steps = int.from_bytes(b"".join((((k + 1) * 0x9E3779B97F4A7C15) & MASK).to_bytes(16, "little")
                                        for k in range(n)), "little")
        got = (ones, steps, ones * MASK, range(n, 0, -1))
        if n <= _CACHED_LANES:
            _CACHED_LANES -= n
            _LANES[n] = got
    return got


def _shuffle_lanes(state: int, items: list) -> int:
    n = len(items) - 1  # draws; lane k is the (k + 1)th, for index n - k
    ones, steps, low, indexes = _lanes(n)
    z = (state * ones + steps) & low  # each lane: state + (k + 1) * golden, mod 2**64 (under 2**65 unmasked)
    # a right shift brings the next lane's low bits into this lane's upper half, where the mask clears them
    z = ((z ^ ((z >> 30) & low)) * 0xBF58476D1CE4E5B9) & low
    z = ((z ^ ((z >> 27) & low)) * 0x94D049BB133111EB) & low
    z ^= (z >> 31) & low
    bits = array("Q", z.to_bytes(16 * n, "little"))
    if _BIG_ENDIAN:
        bits.byteswap()  # the words were written little-endian
    bits = bits[0::2]  # each lane's low word
    for i, b in zip(indexes, bits):
        j = (b * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return (state + n * 0x9E3779B97F4A7C15) & MASK
