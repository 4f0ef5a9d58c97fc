"""Many games between agents: one game, where the games run, and the report."""
