"""The Rulebook validator: YAML -> JSON Schema -> rule text -> names and
types -> phase graph. Each stage returns diagnostics; a stage with errors
stops the ones after it."""
