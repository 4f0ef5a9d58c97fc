"""The runtime: the game state, the run loop, the decision interface."""
