"""A small seeded random generator whose whole state is one integer.

Python's ``random.Random`` carries 625 words of state: slow to clone and
bulky in a saved game. SplitMix64 is tiny, fast enough in pure Python and
fully determined by its 64-bit state, which lives inside the game state.
"""

from __future__ import annotations

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
    ``below`` written out in the loop (the same numbers, without two calls
    per item: a 60-card deck is 59 draws)."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
