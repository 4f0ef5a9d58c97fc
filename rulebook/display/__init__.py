"""What a person is shown, whatever the interface: live scores, tidied
narration, what an option points at, phase-graph pictures."""
