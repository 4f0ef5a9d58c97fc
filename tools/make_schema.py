"""Write validator/ruleset.schema.json (run after changing the format).

The schema is written here as Python data so that shared pieces are defined
once; the JSON file is what editors and the validator read.
"""

import json
from pathlib import Path

EXPR = {
    "type": ["string", "integer", "boolean", "null"],
    "description": "An expression of the rule language (see docs/language.md).",
    "examples": ["count(hand[player]) > 0"],
}
BLOCK = {
    "type": "string",
    "description": "Effect code of the rule language: statements, one per line, blocks indented as in Python.",
    "examples": ["draw 1 from deck to hand[player]"],
}
NAME = {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}
TYPE = {
    "type": "string",
    "description": "A type: int, bool, str, player, zone, any, a component type name, or 'list of <type>'.",
    "examples": ["player", "card", "list of int"],
}
PARAMS = {
    "type": "object",
    "description": "Parameters: name -> type.",
    "additionalProperties": TYPE,
    "propertyNames": NAME,
}
VAR = {
    "description": "A variable: a literal initial value, an expression (a string), or {initial, type, visibility}.",
    "oneOf": [
        {"type": ["integer", "boolean", "null", "array"]},
        {"type": "string"},
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "initial": EXPR,
                "type": TYPE,
                "visibility": {
                    "enum": ["public", "owner"],
                    "description": "owner: only the player sees this per-player variable.",
                },
                "description": {"type": "string"},
            },
        },
    ],
}
HOOKS = {
    "on_begin": dict(BLOCK, description="Effects run when this begins."),
    "on_end": dict(BLOCK, description="Effects run when this ends."),
    "end_if": dict(EXPR, description="Ends this early when true (checked before each turn / after each action)."),
}

schema = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://rulebook.invalid/ruleset.schema.json",
    "title": "Rulebook ruleset",
    "description": "A board or card game written as data. See docs/format.md.",
    "type": "object",
    "required": ["rulebook", "id", "players", "phases"],
    "additionalProperties": False,
    "properties": {
        "rulebook": {"const": 1, "description": "Version of the ruleset format; always 1."},
        "id": {
            "type": "string",
            "pattern": "^[a-z0-9][a-z0-9-]*$",
            "description": "Short identifier used on the command line.",
            "examples": ["high-card"],
        },
        "title": {"type": "string", "description": "The game's name as printed."},
        "version": {"type": ["string", "number"], "description": "Version of this ruleset."},
        "description": {"type": "string", "description": "What the game is, in a sentence or two."},
        "source": {"type": "string", "description": "Where the rules come from (rulebook, edition)."},
        "notes": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Readings of unclear rules and what could not be modelled.",
        },
        "players": {
            "type": "object",
            "required": ["min", "max"],
            "additionalProperties": False,
            "description": "How many players the game takes.",
            "properties": {
                "min": {"type": "integer", "minimum": 1, "maximum": 64},
                "max": {"type": "integer", "minimum": 1, "maximum": 64},
                "default": {"type": "integer", "minimum": 1},
                "name": {"type": "string", "description": "Template naming player p, e.g. 'Player {seat(p)}'."},
            },
        },
        "params": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Named settings with defaults, changed by variants or on the command line.",
            "additionalProperties": {
                "oneOf": [
                    {"type": ["integer", "boolean", "string", "null", "array"]},
                    {
                        "type": "object",
                        "required": ["default"],
                        "additionalProperties": False,
                        "properties": {
                            "default": {},
                            "type": TYPE,
                            "description": {"type": "string"},
                            "choices": {"type": "array"},
                        },
                    },
                ]
            },
        },
        "define": {
            "type": "object",
            "propertyNames": NAME,
            "additionalProperties": EXPR,
            "description": "Values computed once at the start of a game from parameters and the player count.",
        },
        "vars": {
            "type": "object",
            "propertyNames": NAME,
            "additionalProperties": VAR,
            "description": "Global game variables.",
        },
        "player_vars": {
            "type": "object",
            "propertyNames": NAME,
            "additionalProperties": VAR,
            "description": "Variables every player has; read as p.name.",
        },
        "components": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Component types (cards, pieces, tokens) and how many of each are made.",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "description": {"type": "string"},
                    "for_each": {
                        "type": "object",
                        "propertyNames": NAME,
                        "additionalProperties": EXPR,
                        "description": "One component for every combination of these values; "
                        "each name becomes a fixed property.",
                        "examples": [{"suit": "suits", "value": "range(2, 8)"}],
                    },
                    "items": {
                        "type": "array",
                        "items": {"type": "object"},
                        "description": "Explicit components, one mapping of fixed properties each.",
                    },
                    "count": dict(EXPR, description="Make this many plain components."),
                    "copies": dict(EXPR, description="Copies of each generated component."),
                    "props": {
                        "type": "object",
                        "propertyNames": NAME,
                        "additionalProperties": EXPR,
                        "description": "More fixed properties computed from the others.",
                    },
                    "state": {
                        "type": "object",
                        "propertyNames": NAME,
                        "additionalProperties": VAR,
                        "description": "Properties that change during a game, with initial values.",
                    },
                    "public": {
                        "type": "array",
                        "items": NAME,
                        "description": "Properties seen even when the component is face down (its back).",
                    },
                    "label": {
                        "type": "string",
                        "description": "Template naming a component, e.g. '{self.suit} {self.value}'.",
                    },
                    "board": {
                        "type": "object",
                        "additionalProperties": False,
                        "required": ["grid"],
                        "description": "These components are the spaces of a board: adjacency and distance "
                        "for neighbours(), distance(), space_at(), within().",
                        "properties": {
                            "grid": {
                                "enum": ["hex", "square", "graph"],
                                "description": "hex and square grids use the fixed properties col and row.",
                            },
                            "layout": {
                                "enum": ["odd-r", "even-r", "odd-q", "even-q"],
                                "description": "Hex offset layout: -r pointy tops with shifted rows, -q flat tops with shifted columns.",
                            },
                            "diagonal": {
                                "type": "boolean",
                                "description": "Square grids: diagonal squares are adjacent.",
                            },
                            "key": {"type": "string", "description": "Graph boards: the property naming a space."},
                            "edges": {
                                "type": "array",
                                "items": {"type": "array", "minItems": 2, "maxItems": 2},
                                "description": "Graph boards: pairs of adjacent spaces, by key.",
                            },
                            "directed": {"type": "boolean", "description": "Graph boards: edges go one way only."},
                            "show": {
                                "type": "object",
                                "additionalProperties": False,
                                "description": "How the terminal draws this board as a map.",
                                "properties": {
                                    "terrain": {
                                        "type": "string",
                                        "description": "The space property that picks a terrain glyph.",
                                    },
                                    "glyphs": {
                                        "type": "object",
                                        "additionalProperties": {"type": "string", "maxLength": 3},
                                        "description": "Terrain value -> glyph (1-3 characters).",
                                    },
                                    "pieces": {
                                        "type": "string",
                                        "description": "The zone (one per space) whose pieces are drawn on the map.",
                                    },
                                    "legend": {
                                        "type": "object",
                                        "additionalProperties": {"type": "string"},
                                        "description": "Glyph -> meaning, printed under the map.",
                                    },
                                },
                            },
                        },
                    },
                    "back_label": {
                        "type": "string",
                        "description": "Template naming a face-down component to a player "
                        "who cannot see it; use only 'public' properties, e.g. '{self.suit} card'.",
                    },
                    "glyph": {
                        "type": "string",
                        "maxLength": 12,
                        "description": "How a piece is drawn on a board map: up to 3 characters; {prop} is replaced by "
                        "a property the viewer can see (e.g. 'b{owner}').",
                    },
                },
            },
        },
        "zones": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Places components can be: decks, hands, piles, a line, spaces.",
            "additionalProperties": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "properties": {
                    "description": {"type": "string"},
                    "per": {
                        "type": "string",
                        "description": "'player' for one zone per player, or a component "
                        "type for one zone per component (e.g. the pieces standing on each space of a board).",
                    },
                    "of": {"type": "string", "description": "The component type this zone holds."},
                    "visibility": {
                        "enum": ["public", "owner", "hidden"],
                        "description": "Who sees face-down contents: everyone sees face-up components; "
                        "'owner' lets the zone's owner see the rest. Counts are always public.",
                    },
                    "face": {"enum": ["up", "down"], "description": "How components enter this zone by default."},
                    "ordered": {"type": "boolean", "description": "Whether order matters (decks, lines)."},
                },
            },
        },
        "events": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Custom events: name -> field types. Emitted with 'emit', handled by triggers.",
            "additionalProperties": {"type": ["object", "null"], "additionalProperties": TYPE},
        },
        "functions": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Named expressions with parameters.",
            "additionalProperties": {
                "type": "object",
                "required": ["value"],
                "additionalProperties": False,
                "properties": {"params": PARAMS, "value": EXPR, "description": {"type": "string"}},
            },
        },
        "procedures": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Named effect blocks with parameters, called as statements.",
            "additionalProperties": {
                "type": "object",
                "required": ["effect"],
                "additionalProperties": False,
                "properties": {"params": PARAMS, "effect": BLOCK, "description": {"type": "string"}},
            },
        },
        "setup": dict(BLOCK, description="Effects run once before the first phase."),
        "start": dict(NAME, description="The first phase (default: the first one listed)."),
        "actions": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Player decisions offered on a turn.",
            "additionalProperties": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "properties": {
                    "description": {"type": "string"},
                    "label": {"type": "string", "description": "Template shown for the option, e.g. 'Play {card}'."},
                    "if": dict(EXPR, description="The action is offered only when this holds."),
                    "params": {
                        "type": "object",
                        "propertyNames": NAME,
                        "additionalProperties": EXPR,
                        "description": "Parameters and the list (or zone) of their possible values; "
                        "later ones may use earlier ones.",
                    },
                    "require": dict(EXPR, description="Keeps only the parameter combinations for which this holds."),
                    "effect": BLOCK,
                },
            },
        },
        "phases": {
            "type": "object",
            "propertyNames": NAME,
            "minProperties": 1,
            "description": "The phases of play and the transitions between them.",
            "additionalProperties": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "properties": dict(
                    HOOKS,
                    **{
                        "description": {"type": "string"},
                        "turn": {
                            "type": "object",
                            "additionalProperties": False,
                            "description": "Players take turns in this phase, choosing actions.",
                            "properties": dict(
                                HOOKS,
                                **{
                                    "first": dict(
                                        EXPR,
                                        description="Who takes the first turn (default: the current player, else seat 0).",
                                    ),
                                    "next": dict(
                                        EXPR,
                                        description="Who plays next (default: the next live player in the play direction); none ends the phase.",
                                    ),
                                    "actions": {
                                        "type": "array",
                                        "items": NAME,
                                        "description": "Actions offered on a turn.",
                                    },
                                    "repeat": {
                                        "type": "boolean",
                                        "description": "Keep offering actions until 'end turn' (default: one action per turn).",
                                    },
                                    "time_limit": dict(
                                        EXPR,
                                        description="Seconds a human seat has to choose an action (0 or none: no limit). Enforced by 'rulebook play' only; bots answer at once.",
                                        examples=["dawdle_seconds", 30],
                                    ),
                                    "on_time_out": dict(
                                        BLOCK,
                                        description="Effects run when a turn's time_limit runs out; the turn then ends without an action.",
                                        examples=["draw 2 from deck to hand[player]"],
                                    ),
                                },
                            ),
                        },
                        "next": {
                            "description": "Where to go when this phase ends: a phase name, or a list of {to, if} tried in order.",
                            "oneOf": [
                                NAME,
                                {
                                    "type": "array",
                                    "items": {
                                        "oneOf": [
                                            NAME,
                                            {
                                                "type": "object",
                                                "required": ["to"],
                                                "additionalProperties": False,
                                                "properties": {"to": NAME, "if": EXPR},
                                            },
                                        ]
                                    },
                                },
                            ],
                        },
                    },
                ),
            },
        },
        "triggers": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Named effects that run when an event happens (named, so variants can add, replace or remove one).",
            "additionalProperties": {
                "type": "object",
                "required": ["on", "effect"],
                "additionalProperties": False,
                "properties": {
                    "on": dict(
                        NAME, description="The event: 'moved', 'phase_begin', 'phase_end' or one declared under events."
                    ),
                    "if": EXPR,
                    "effect": BLOCK,
                    "description": {"type": "string"},
                },
            },
        },
        "end": {
            "type": "object",
            "propertyNames": NAME,
            "description": "Named conditions that end the game, checked at every decision.",
            "additionalProperties": {
                "type": "object",
                "required": ["if"],
                "additionalProperties": False,
                "properties": {
                    "if": EXPR,
                    "winners": dict(EXPR, description="List of winning players (default: by score)."),
                    "description": {"type": "string"},
                },
            },
        },
        "scoring": {
            "type": "object",
            "additionalProperties": False,
            "required": ["score"],
            "description": "How winners are found when the game ends without naming them.",
            "properties": {
                "score": dict(EXPR, description="A player's score; 'player' is the player scored."),
                "tie_breaks": {"type": "array", "items": EXPR, "description": "Compared in order when scores tie."},
                "lowest_wins": {"type": "boolean"},
            },
        },
        "variants": {
            "type": "object",
            "propertyNames": {"pattern": "^[a-z0-9][a-z0-9-]*$"},
            "description": "Variants as overlays on the base ruleset; data only.",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "title": {"type": "string"},
                    "description": {"type": "string"},
                    "players": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "min": {"type": "integer", "minimum": 1},
                            "max": {"type": "integer", "minimum": 1},
                        },
                    },
                    "params": {"type": "object", "description": "New parameter defaults."},
                    "patch": {
                        "type": "object",
                        "description": "A JSON Merge Patch (RFC 7396) over the ruleset: "
                        "mappings merge, null removes, anything else replaces.",
                    },
                    "excludes": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Variants that cannot be combined with this one.",
                    },
                    "requires": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Variants this one needs.",
                    },
                },
            },
        },
    },
}

Path(__file__).resolve().parent.parent.joinpath("validator", "ruleset.schema.json").write_text(
    json.dumps(schema, indent=2) + "\n"
)
