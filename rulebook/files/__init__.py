"""The user's files: finding and loading a ruleset from what was typed, saved
games and game logs."""
