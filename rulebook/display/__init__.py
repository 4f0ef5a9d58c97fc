"""What a person is shown, whatever the interface: live scores, tidied
narration, what an option points at, phase-graph pictures, and the
ruleset's presentation hints that both tables draw from."""
