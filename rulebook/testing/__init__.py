"""Tests written as data: scenario files, and the property checks run in random
games."""
