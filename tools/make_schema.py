"""Write validator/ruleset.schema.json (run after changing the format).

The schema is written here as Python data so that shared pieces are defined
once; the JSON file is what editors and the validator read. Every field
carries a description and examples (the FIELD_DOCS table below) because
editors with the yaml-language-server show them as hover help and offer them
as completions. ``python tools/make_schema.py --check`` exits non-zero when
the checked-in file is out of date; tests/data_driven/test_schema_docs.py checks the same.
"""

import json
import sys
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
COLOUR = "^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-z]+)$"
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
FOR_TESTS = {
    "type": "boolean",
    "description": "A helper for scenarios' run: steps: no 'never called' warning (W104), and W109 where a rule "
    "calls it.",
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
                "show": {
                    "enum": [True, False, "nonzero"],
                    "description": "false: bookkeeping of the rules, left off the table rulebook play draws "
                    "(still public, in every view); nonzero: shown only while it is not 0, false or empty.",
                },
                "description": {"type": "string"},
            },
        },
    ],
}


def _shown_as(var: dict) -> dict:
    """VAR with ``shown_as``, for the variables the tables draw (vars and player_vars, not component state)."""
    import copy

    out = copy.deepcopy(var)
    out["oneOf"][2]["properties"]["shown_as"] = dict(
        EXPR, description="The words the tables show for the variable's value (a text; in a player variable "
        "'player' is its player), e.g. a function of it.")
    return out


TABLE_VAR = _shown_as(VAR)
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
            "additionalProperties": TABLE_VAR,
            "description": "Global game variables.",
        },
        "player_vars": {
            "type": "object",
            "propertyNames": NAME,
            "additionalProperties": TABLE_VAR,
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
                        "items": {
                            "type": "object",
                            "properties": {
                                "copies": {"description": "How many components this item makes (a whole number, "
                                           "0 or more; default: the type's copies): not a property."},
                            },
                        },
                        "description": "Explicit components, one mapping of fixed properties each "
                        "(its 'copies': how many of it).",
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
                    "status": {
                        "type": "string",
                        "description": "Template shown beside a face-up component's name on the table (views, "
                        "rulebook play), for what changes during a game, e.g. '{self.wounds} wounds'.",
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
                            "per": {
                                "type": "string",
                                "description": "One board per value of this fixed property of the spaces (a seat: "
                                "each player's own board), each with its own coordinates, neighbours and map; "
                                "space_at(type[value], col, row) finds a space on one.",
                            },
                            "axes": {
                                "type": "object",
                                "additionalProperties": False,
                                "description": "Hex and square grids: the names the map gives the columns and rows.",
                                "properties": {
                                    "col": {
                                        "type": "array",
                                        "items": {"type": ["string", "integer"]},
                                        "description": "Column names, from the smallest col (the left) on.",
                                    },
                                    "row": {
                                        "type": "array",
                                        "items": {"type": ["string", "integer"]},
                                        "description": "Row names, from the smallest row (the top) on.",
                                    },
                                },
                            },
                            "show": {
                                "description": "How the terminal draws this board as a map; false: the board is "
                                "left off the tables rulebook play and rulebook serve draw (a display choice: its "
                                "spaces and pieces are still in the state and in each seat's view).",
                                "oneOf": [
                                    {"const": False},
                                    {
                                        "type": "object",
                                        "additionalProperties": False,
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
                                ],
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
                        "enum": ["public", "owner", "hidden", "top"],
                        "description": "Who sees face-down contents: everyone sees face-up components; "
                        "'owner' lets the zone's owner see the rest; 'top' is a face-up pile: only its top "
                        "component is face up. Counts are always public.",
                    },
                    "face": {"enum": ["up", "down"], "description": "How components enter this zone by default."},
                    "ordered": {"type": "boolean", "description": "Whether order matters (decks, lines)."},
                    "show": {
                        "type": "boolean",
                        "description": "false: left off the tables rulebook play and rulebook serve draw (a display "
                        "choice, not a secret: the zone is still in the state and in each seat's view).",
                    },
                    "when_empty": {
                        "description": "What a draw or deal from this zone does when the zone is empty and a "
                        "component is still wanted: 'nothing' (it stops), 'error' (the game stops with R106), or "
                        "a refill (another zone's components are moved in and the draw goes on). Without it the "
                        "draw stops, and 'rulebook check' warns (W108) at each draw that meets the zone empty.",
                        "oneOf": [
                            {"enum": ["nothing", "error"]},
                            {
                                "type": "object",
                                "additionalProperties": False,
                                "required": ["refill_from"],
                                "properties": {
                                    "refill_from": {
                                        "type": "string",
                                        "description": "The zone family whose components refill this zone: a "
                                        "shared zone, or one kept per the same thing as this one (the same "
                                        "player's or component's).",
                                    },
                                    "shuffle": {
                                        "type": "boolean",
                                        "description": "Whether the refilled zone is shuffled (default false: "
                                        "the refill zone's components keep their order, its top on top).",
                                    },
                                },
                            },
                        ],
                    },
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
                "properties": {"params": PARAMS, "value": EXPR, "description": {"type": "string"},
                               "for_tests": FOR_TESTS},
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
                "properties": {"params": PARAMS, "returns": TYPE, "effect": BLOCK, "description": {"type": "string"},
                               "for_tests": FOR_TESTS},
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
                    "param_labels": {
                        "type": "object",
                        "propertyNames": NAME,
                        "additionalProperties": {"type": "string"},
                        "description": "Parameter name -> the words naming it where a staged action asks it and "
                        "shows it chosen (default: the parameter's name).",
                    },
                    "staged": {"type": "boolean", "description": "true: the parameters are asked one after another, "
                               "each narrowed by the ones before (a bid: its quantity, then its face)."},
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
                "show": {"type": "object", "additionalProperties": EXPR,
                         "description": "The scoreboard's columns: a label and a number per player ('player'), "
                                        "shown instead of the score (what decides the winner)."},
                "lowest_wins": {"type": "boolean"},
            },
        },
        "bots": {
            "type": "object",
            "additionalProperties": False,
            "description": "Hints for computer players; they never change the rules.",
            "properties": {
                "heuristic": dict(EXPR, description="How good the position is for 'player' (higher is better); "
                                  "the greedy agent plays the option that leads to its best lead over the others."),
                "search": {
                    "type": "object",
                    "additionalProperties": False,
                    "description": "How the MCTS agent searches this game unless its spec says otherwise "
                    "(docs/agents.md): options of mcts.",
                    "properties": {
                        "c": {"type": "number", "minimum": 0, "description": "The exploration constant of UCB."},
                        "widen": {"type": "number", "minimum": 0,
                                  "description": "Progressive widening of the agent's own options (0: none)."},
                        "baseline": {"enum": [0, 1, 2],
                                     "description": "A leaf valued by the lead's change in its own sample: 0 no, "
                                     "1 whole, 2 weighted by its estimated coefficient."},
                        "centre": {"enum": [0, 1],
                                   "description": "1: a leaf valued by the lead's change from the decision's root, "
                                   "on the scale of the decision's changes (for heuristics whose level is large "
                                   "against what one move changes)."},
                        "normalize": {"enum": [0, 1], "description": "1: UCB on values scaled to [0, 1] by the "
                                      "tree's lowest and highest means."},
                        "epsilon": {"type": "number", "minimum": 0, "maximum": 1,
                                    "description": "The share of random choices in greedy rollouts."},
                    },
                },
            },
        },
        "presentation": {
            "type": "object",
            "additionalProperties": False,
            "description": "Hints for drawing the table (rulebook serve, rulebook play); they never change the rules, "
            "and the table looks right without them.",
            "properties": {
                "layout": {
                    "type": "array",
                    "items": NAME,
                    "description": "Zone families in the order the table draws them; the others follow in the "
                    "order they are declared.",
                },
                "components": {
                    "type": "object",
                    "propertyNames": NAME,
                    "description": "How components of a type look: component type -> hints.",
                    "additionalProperties": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "colour": {
                                "type": "string",
                                "pattern": COLOUR,
                                "description": "The colour of this type's components: a CSS colour name or #rgb/#rrggbb.",
                            },
                            "colour_by": dict(NAME, description="A property whose value picks each component's "
                                              "colour: from 'colours', else a colour of its own per value."),
                            "colours": {
                                "type": "object",
                                "additionalProperties": {"type": "string", "pattern": COLOUR},
                                "description": "colour_by's value -> colour.",
                            },
                            "short": {
                                "type": "string",
                                "maxLength": 12,
                                "description": "A short label drawn on the component, with {property} for the "
                                "properties the viewer sees (plain substitution).",
                            },
                            "shape": {
                                "enum": ["circle", "square", "diamond", "triangle", "hull", "none"],
                                "description": "How a component of this type is drawn on a board space "
                                "(default circle); none: not drawn there (the space's colour shows it).",
                            },
                            "about_by": dict(NAME, description="A property whose value picks the 'about' text "
                                             "shown when a player opens a component of this type."),
                            "about": {
                                "type": "object",
                                "additionalProperties": {"type": "string", "maxLength": 2000},
                                "description": "about_by's value -> what a component with that value does, in "
                                "the ruleset's words (the browser's rules help shows it).",
                            },
                        },
                    },
                },
                "boards": {
                    "type": "object",
                    "propertyNames": NAME,
                    "description": "How a board's spaces look: board component type -> hints.",
                    "additionalProperties": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "colour_by": dict(NAME, description="A property of the spaces (fixed or changing) "
                                              "whose value picks each space's colour (default: the board's "
                                              "show.terrain)."),
                            "colours": {
                                "type": "object",
                                "additionalProperties": {"type": "string", "pattern": COLOUR},
                                "description": "colour_by's value -> the space's colour.",
                            },
                            "symbols": {
                                "type": "object",
                                "additionalProperties": {"type": "string", "maxLength": 3},
                                "description": "colour_by's value -> a symbol drawn on the space.",
                            },
                            "title": {
                                "type": "string",
                                "maxLength": 60,
                                "description": "The board's name as players read it, over its map (default: "
                                "the type's name and 'map', as in 'square map').",
                            },
                            "labels": {
                                "enum": ["edges", "spaces", "none"],
                                "description": "Where coordinates are written: along the board's edges "
                                "(default), on every space, or nowhere.",
                            },
                        },
                    },
                },
                "zones": {
                    "type": "object",
                    "propertyNames": NAME,
                    "description": "How a zone's components are laid out: zone family -> hints.",
                    "additionalProperties": {
                        "type": "object",
                        "additionalProperties": False,
                        "properties": {
                            "group_by": dict(NAME, description="A property whose value groups the zone's "
                                             "components into stacks, one per value."),
                            "top": {
                                "enum": ["first", "last", "highest", "lowest"],
                                "description": "Which component of each stack is its top, marked as such: the "
                                "first or last in the zone's order, or the highest or lowest top_by.",
                            },
                            "top_by": dict(NAME, description="The property compared by top: highest and lowest."),
                            "title": {
                                "type": "string",
                                "maxLength": 60,
                                "description": "The zone's name as players read it on the table (default: the "
                                "family's name, its underscores as spaces).",
                            },
                        },
                    },
                },
                "phases": {
                    "type": "object",
                    "propertyNames": NAME,
                    "description": "Phase -> its name as players read it in the table's header (default: the "
                    "phase's name, its underscores as spaces).",
                    "additionalProperties": {"type": "string", "maxLength": 60},
                },
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

# Help for every field, shown by editors (hover, completion) through the
# yaml-language-server. Kept in one table, keyed by the field's path, so that
# the help is easy to review and a new field without help fails
# tests/data_driven/test_schema_docs.py. Path segments: a field name, '*' for the entries
# of a named mapping (each phase, each zone...), '[]' for the items of a list;
# alternatives (oneOf) are searched for the field. An entry's description
# replaces the one above only when given; its examples always replace (the
# shared EXPR and BLOCK pieces carry examples that fit no field in particular).
# Examples follow the rulesets in examples/ and docs/format.md, with generic
# names: the schema belongs to the validator, which never names a game.
_PIG_HOLD = "set player.score += turn_total\nsay \"{player} banks {turn_total}: score {player.score}.\"\nend turn"
FIELD_DOCS: dict[str, dict] = {
    "rulebook": {"examples": [1]},
    "id": {"description": "Short identifier used on the command line: lower case letters, digits and '-'.", "examples": ["crazy-eights", "tic-tac-toe", "pig"]},
    "title": {"description": "The game's name as printed (default: the id).", "examples": ["Crazy eights", "Rock, paper, scissors"]},
    "version": {"description": "Version of this ruleset (documentation only).", "examples": ["1.0"]},
    "description": {"examples": ["Roll a die as often as you like; hold to bank the turn total, roll a 1 and lose it."]},
    "source": {"examples": ["The traditional folk dice game, as described by John Scarne (1945)."]},
    "notes": {"description": "Readings of unclear rules and what could not be modelled; 'rulebook explain' prints them.", "examples": [["The first roll of a turn is compulsory: hold is offered only once the turn total is above zero."]]},
    "players": {"examples": [{"min": 4, "max": 6}, {"min": 4, "max": 8, "default": 6}, {"min": 2, "max": 4, "name": "{player_names[p]}"}]},
    "players.min": {"description": "The smallest player count (1 to 64).", "examples": [2, 4]},
    "players.max": {"description": "The largest player count (1 to 64).", "examples": [4, 6]},
    "players.default": {"description": "The player count used when none is given (play, simulate, scenarios); default: min.", "examples": [4, 6]},
    "players.name": {"description": "Template naming player p (default P1, P2, ...).", "examples": ["Player {seat(p)}", "{player_names[p]}"]},
    "params": {"examples": [{"target": {"default": 100, "type": "int", "description": "The score that wins the game."}}, {"hand_size": 7, "colours": ["red", "green", "blue"]}]},
    "params.*": {"description": "A setting: its value, or a mapping {default, type, description, choices}.", "examples": [100, {"default": "most_points", "choices": ["most_points", "first_out", "last_standing"]}, {"default": False, "description": "Quick game: the deck is dealt out and play stops when it is empty."}]},
    "params.*.default": {"description": "The value used unless a variant, a scenario or --param NAME=VALUE changes it.", "examples": [100, "last_two", False]},
    "params.*.type": {"description": "The parameter's type (default: the type of default); a component type is refused.", "examples": ["int", "bool", "list of str"]},
    "params.*.description": {"description": "What the setting means ('rulebook explain' prints it).", "examples": ["The score that wins the game."]},
    "params.*.choices": {"description": "The values the setting may take; the default must be one of them.", "examples": [["most_points", "first_out", "last_standing"]]},
    "define": {"examples": [{"colours": "['red', 'blue', 'green', 'yellow', 'purple', 'orange']", "pawn_count": "player_count * pawns_per_player"}]},
    "define.*": {"description": "An expression computed once when a game starts; it may read parameters, player_count and earlier defines.", "examples": ["player_count - 1 if dealer_seat else player_count", "['red', 'blue', 'green', 'yellow']", 13]},
    "vars": {"examples": [{"round": 0, "tie": False, "pot": 0}, {"first_player": {"type": "player", "initial": 0}}]},
    "vars.*": {"examples": [0, False, "'sea'", {"type": "player", "initial": 0}]},
    "vars.*.initial": {"description": "An expression for the initial value (default: none).", "examples": [0, "[]", "player_count * 5"]},
    "vars.*.type": {"description": "The variable's type (default: the type of the initial value).", "examples": ["player", "list of int", "card"]},
    "vars.*.visibility": {"examples": ["owner"]},
    "vars.*.show": {"examples": [False, "nonzero"]},
    "vars.*.description": {"description": "What the variable means.", "examples": ["Cards that must still enter the play area before the player may bank."]},
    "player_vars": {"examples": [{"score": 0}, {"character": {"type": "character", "description": "The player's character."}}]},
    "player_vars.*": {"examples": [0, False, "seat(player) * 10", {"initial": 0, "visibility": "owner"}]},
    "player_vars.*.initial": {"description": "An expression for the initial value (default: none); player is the player whose variable it is.", "examples": [3, "seat(player) * 10"]},
    "player_vars.*.type": {"description": "The variable's type (default: the type of the initial value).", "examples": ["int", "character", "player"]},
    "player_vars.*.visibility": {"examples": ["owner", "public"]},
    "player_vars.*.show": {"examples": [False, "nonzero"]},
    "player_vars.*.description": {"description": "What the variable means.", "examples": ["The player's character."]},
    "components": {"examples": [{"card": {"for_each": {"suit": "suits", "step": "range(cards_per_suit)"}, "props": {"value": "lowest[index_of(suits, suit)] + step"}, "label": "{self.suit} {self.value}"}}]},
    "components.*": {"description": "A component type: how many components are made and their properties.", "examples": [{"count": "player_count + 1"}, {"items": [{"name": "rock"}, {"name": "paper"}, {"name": "scissors"}], "label": "{self.name}"}]},
    "components.*.description": {"description": "What this component is.", "examples": ["A loot card; step 0 is the lowest card of its suit."]},
    "components.*.for_each": {"examples": [{"colour": "range(pawn_count)", "value": "range(1, top_value + 1)"}, {"suit": "suits", "step": "range(cards_per_suit)"}]},
    "components.*.for_each.*": {"description": "An expression giving the list of values this property takes (the last name varies fastest).", "examples": ["range(1, 11)", "suits", "people_values"]},
    "components.*.items": {"examples": [[{"target": "right arm"}, {"target": "left arm"}, {"target": "head"}], [{"colour": "red", "worth": 3}, {"colour": "blue", "worth": 5}]]},
    "components.*.items.[].copies": {"examples": [3, 0]},
    "components.*.count": {"examples": ["player_count + 1", 2]},
    "components.*.copies": {"examples": [2, "back_counts[b][index_of(tile_kinds, kind)]"]},
    "components.*.props": {"examples": [{"value": "lowest[index_of(suits, suit)] + step"}, {"mark": "'p' + str(colour + 1)"}]},
    "components.*.props.*": {"description": "An expression computed from the for_each values, the item's fields and earlier props.", "examples": ["lowest[index_of(suits, suit)] + step", "'p' + str(colour + 1)"]},
    "components.*.state": {"examples": [{"strength": "start_strength"}, {"at": {"type": "hex"}, "moved": -1, "peek": False}]},
    "components.*.state.*": {"description": "A changing property: a literal, an expression (a string) or {initial, type, visibility, description}; it may read the fixed properties.", "examples": ["start_strength", -1, False, {"type": "hex"}]},
    "components.*.state.*.initial": {"description": "An expression for the initial value (default: none); it may read the fixed properties by name.", "examples": [0, "not rare", "worth * 10"]},
    "components.*.state.*.type": {"description": "The property's type (default: the type of the initial value).", "examples": ["hex", "boat", "list of str"]},
    "components.*.state.*.visibility": {"examples": ["owner"]},
    "components.*.state.*.show": {"examples": [False]},
    "components.*.state.*.description": {"description": "What the property means.", "examples": ["The space this piece stands on."]},
    "components.*.public": {"examples": [["colour"], ["kind", "mark", "reach", "at"]]},
    "components.*.label": {"examples": ["{colours[self.colour]} {self.value}", "{self.kind} tile ({self.back})"]},
    "components.*.status": {"examples": ["{self.wounds} wounds", "{count(self.tokens)} tokens"]},
    "components.*.board": {"examples": [{"grid": "hex", "layout": "odd-r"}, {"grid": "square", "diagonal": True}, {"grid": "graph", "key": "name", "edges": [["a", "b"], ["b", "c"]]}]},
    "components.*.board.grid": {"examples": ["hex", "square", "graph"]},
    "components.*.board.layout": {"examples": ["odd-r"]},
    "components.*.board.diagonal": {"examples": [True]},
    "components.*.board.key": {"examples": ["name"]},
    "components.*.board.edges": {"examples": [[["a", "b"], ["b", "c"], ["a", "d"], ["d", "c"]]]},
    "components.*.board.directed": {"examples": [True]},
    "components.*.board.per": {"examples": ["seat"]},
    "components.*.board.axes": {"examples": [{"col": ["a", "b", "c"], "row": ["1", "2", "3"]}]},
    "components.*.board.axes.col": {"examples": [["a", "b", "c"], ["left", "centre", "right"]]},
    "components.*.board.axes.col.[]": {"description": "A column's name (1 to 8 characters).", "examples": ["a"]},
    "components.*.board.axes.row": {"examples": [["1", "2", "3"], ["top", "middle", "bottom"]]},
    "components.*.board.axes.row.[]": {"description": "A row's name (1 to 8 characters).", "examples": ["1"]},
    "components.*.board.show": {"examples": [{"terrain": "base", "glyphs": {"sea": ".", "island": ".", "safe": "#"}, "pieces": "on", "legend": {"#": "safe island"}}]},
    "components.*.board.show.terrain": {"examples": ["base"]},
    "components.*.board.show.glyphs": {"examples": [{"sea": ".", "island": ".", "safe": "#"}]},
    "components.*.board.show.glyphs.*": {"description": "The glyph drawn for spaces of this terrain (1-3 characters).", "examples": [".", "#"]},
    "components.*.board.show.pieces": {"examples": ["on"]},
    "components.*.board.show.legend": {"examples": [{".": "sea", "#": "land", "M": "mountain"}]},
    "components.*.board.show.legend.*": {"description": "What the glyph means.", "examples": ["safe island"]},
    "components.*.back_label": {"examples": ["{self.kind} tile", "{colour_names[self.colour]} person"]},
    "components.*.glyph": {"examples": ["{mark}", "b{owner}"]},
    "zones": {"examples": [{"deck": {"of": "card", "visibility": "hidden"}, "bank": {"per": "player", "of": "card", "ordered": False}}]},
    "zones.*": {"description": "A zone, or one zone per player or per component (per); empty or null: one shared public zone.", "examples": [{"of": "card", "visibility": "hidden"}, {"per": "player", "of": "card", "visibility": "owner"}, None]},
    "zones.*.description": {"description": "What the zone is.", "examples": ["The draw deck, face down; its top is the first card."]},
    "zones.*.per": {"examples": ["player", "pawn", "hex"]},
    "zones.*.of": {"examples": ["card", "person"]},
    "zones.*.visibility": {"examples": ["hidden", "owner"]},
    "zones.*.face": {"examples": ["down"]},
    "zones.*.ordered": {"examples": [False]},
    "zones.*.show": {"examples": [False]},
    "zones.*.when_empty": {"examples": ["error", "nothing", {"refill_from": "discard", "shuffle": True}]},
    "zones.*.when_empty.refill_from": {"examples": ["discard", "used"]},
    "zones.*.when_empty.shuffle": {"examples": [True]},
    "events": {"examples": [{"bust": {"who": "player"}}, {"scored": {"who": "player", "points": "int"}}]},
    "events.*": {"description": "An event: its fields and their types; triggers read them as event.<field>.", "examples": [{"who": "player"}, {"who": "player", "points": "int"}]},
    "events.*.*": {"description": "The type of this field of the event.", "examples": ["player", "int", "card"]},
    "functions": {"examples": [{"score_of": {"description": "The sum of the top card of each suit stack in p's bank.", "params": {"p": "player"}, "value": "sum(stack_tops(p), c => c.value)"}}]},
    "functions.*": {"description": "A named expression, called like a built-in: score_of(player).", "examples": [{"params": {"c": "card"}, "value": "c.value * 10"}]},
    "functions.*.params": {"description": "Parameters: name -> type, in call order.", "examples": [{"p": "player"}, {"s": "str", "v": "int"}]},
    "functions.*.params.*": {"description": "The parameter's type.", "examples": ["player", "card", "str"]},
    "functions.*.value": {"description": "The expression computed; the parameters are names in it.", "examples": ["sum(stack_tops(p), c => c.value)", "any(play, x => x.suit == s)"]},
    "functions.*.description": {"description": "What the function computes.", "examples": ["Whether a card of suit s is in the play area."]},
    "functions.*.for_tests": {"examples": [True]},
    "procedures": {"examples": [{"throw_die": {"description": "Sets last_roll to a fresh roll.", "effect": "set last_roll = roll(6)"}}]},
    "procedures.*": {"description": "Named effects, called as a statement: pay(player, 2).", "examples": [{"params": {"p": "player", "n": "int"}, "effect": "set p.coins -= n\nset total += n"}]},
    "procedures.*.for_tests": {"examples": [True]},
    "procedures.*.params": {"description": "Parameters: name -> type, in call order.", "examples": [{"c": "card"}, {"p": "player", "n": "int"}]},
    "procedures.*.params.*": {"description": "The parameter's type.", "examples": ["card", "player", "int"]},
    "procedures.*.returns": {"description": "The type of the value the procedure gives with 'return <value>'; it is then called in the values of statements: let n = bid_of(player).", "examples": ["int", "player", "bool"]},
    "procedures.*.effect": {"description": "The statements run when the procedure is called; the parameters are locals.", "examples": ["if is_empty(loaded_die):\n    set last_roll = roll(6)\nelse:\n    set last_roll = loaded_die[0]\n    discard last_roll from loaded_die"]},
    "procedures.*.description": {"description": "What the procedure does.", "examples": ["A card enters the play area; bust check first, then its ability."]},
    "setup": {"examples": ["move filter(components(card), c => c.step == 0) to discard\nshuffle discard\nmove filter(components(card), c => c.step > 0) to deck\nshuffle deck", "move components(card) to deck\nshuffle deck\ndeal 1 from deck to hand"]},
    "start": {"examples": ["choose", "deal"]},
    "actions": {"examples": [{"roll": {"label": "roll the die", "effect": "throw_die()"}, "hold": {"label": "hold and bank {turn_total}", "if": "turn_total > 0", "effect": _PIG_HOLD}}]},
    "actions.*": {"description": "An action: offered to the current player when its if holds, once per combination of its params; empty or null: an action that does nothing (a pass).", "examples": [{"label": "hold and bank {turn_total}", "if": "turn_total > 0", "effect": _PIG_HOLD}, None]},
    "actions.*.description": {"description": "What the action does.", "examples": ["Draw if you dare! The top card of the deck enters the play area."]},
    "actions.*.label": {"examples": ["hold and bank {turn_total}", "Swap seats with {target}"]},
    "actions.*.if": {"examples": ["turn_total > 0", "count(deck) > 0"]},
    "actions.*.params": {"examples": [{"target": "others(player)"}, {"g": "stall", "h": "filter(stall, x => x.price > g.price)"}]},
    "actions.*.params.*": {"description": "An expression giving the list (or zone) of the parameter's possible values.", "examples": ["others(player)", "stall", "filter(stall, x => x.price > g.price)"]},
    "actions.*.require": {"examples": ["g.price + h.price <= player.coins"]},
    "actions.*.staged": {"examples": [True]},
    "actions.*.param_labels": {"examples": [{"s": "space", "n": "workers"}]},
    "actions.*.param_labels.*": {"description": "The words naming the parameter.", "examples": ["space"]},
    "actions.*.effect": {"description": "The statements run when the action is chosen; player is who chose it, the parameters are locals.", "examples": [_PIG_HOLD, "enter(top(deck))"]},
    "phases": {"examples": [{"play": {"turn": {"repeat": True, "on_begin": "set turn_total = 0", "actions": ["roll", "hold"]}}}]},
    "phases.*": {"description": "A phase: hooks run as it begins and ends, an optional turn structure, and where play goes next.", "examples": [{"on_begin": "set round += 1", "next": "swim"}, {"turn": {"actions": ["draw", "bank"], "repeat": True}}]},
    "phases.*.on_begin": {"description": "Effects run when the phase begins.", "examples": ["set round += 1\nsay \"Round {round}. The line, front to tail: {line}.\""]},
    "phases.*.on_end": {"description": "Effects run when the phase ends.", "examples": ["say \"The deck is empty.\""]},
    "phases.*.end_if": {"description": "Ends the phase early when true (checked before each turn).", "examples": ["turn_number >= 6", "count(live_players) == 1"]},
    "phases.*.description": {"description": "What happens in this phase.", "examples": ["Each player in turn plays a card or draws one."]},
    "phases.*.turn": {"examples": [{"repeat": True, "on_begin": "set turn_total = 0", "actions": ["roll", "hold"]}, {"first": "first_player", "actions": ["draw", "bank"]}]},
    "phases.*.turn.on_begin": {"description": "Effects run when each turn begins; player is whose turn it is.", "examples": ["set turn_total = 0"]},
    "phases.*.turn.on_end": {"description": "Effects run when each turn ends.", "examples": ["set bonus_left = 0\nif count(deck) == 0:\n    end game"]},
    "phases.*.turn.end_if": {"description": "Ends the turn early when true (checked after each action).", "examples": ["is_empty(hand[player])"]},
    "phases.*.turn.first": {"examples": ["first_player", "players[0]"]},
    "phases.*.turn.next": {"examples": ["first(seat_order(next_player(player)), q => not q.stopped)"]},
    "phases.*.turn.actions": {"examples": [["roll", "hold"], ["draw", "bank"]]},
    "phases.*.turn.repeat": {"examples": [True]},
    "phases.*.next": {"examples": ["swim", [{"to": "bite", "if": "round > 1"}, {"to": "choose"}]]},
    "phases.*.next.[].to": {"description": "The phase to go to.", "examples": ["bite"]},
    "phases.*.next.[].if": {"description": "This transition is taken only when it holds; the first that holds wins.", "examples": ["round > 1"]},
    "triggers": {"examples": [{"busted": {"on": "bust", "effect": "say \"{event.who} is bust\"\neliminate event.who"}}]},
    "triggers.*": {"description": "A trigger: when its event happens (and its if holds) its effect runs.", "examples": [{"on": "bust", "effect": "eliminate event.who"}, {"on": "moved", "if": "event.component.value == 1", "effect": "say \"an ace moved\""}]},
    "triggers.*.on": {"examples": ["bust", "moved", "phase_begin"]},
    "triggers.*.if": {"description": "The trigger runs only when this holds; event is the event.", "examples": ["event.phase == 'bite'"]},
    "triggers.*.effect": {"description": "The statements run; event is the event and its fields are event.<field>.", "examples": ["say \"{event.who} is bust with {points(event.who)}\"\neliminate event.who"]},
    "triggers.*.description": {"description": "What the trigger does.", "examples": ["A player over the target is out."]},
    "end": {"examples": [{"last_standing": {"description": "All pawns but one are out, their owner wins.", "if": "ending == 'last_standing' and count(board_pawns) <= 1", "winners": "[owner(first(board_pawns))]"}}]},
    "end.*": {"description": "An end rule: when its if holds the game ends, with its winners or by scoring.", "examples": [{"if": "passes >= count(live_players)"}, {"if": "any(players, p => p.steps >= 3)", "winners": "filter(players, p => p.steps >= 3)"}]},
    "end.*.if": {"description": "The game ends when this holds (checked before each decision).", "examples": ["ending == 'first_out' and any(players, p => is_empty(hand[p]))", "passes >= count(live_players)"]},
    "end.*.winners": {"examples": ["[dealer_seat]", "filter(players, p => p.steps >= 3)"]},
    "end.*.description": {"description": "What the end rule means.", "examples": ["Everybody passed in a row; the fewest penalty points win."]},
    "scoring": {"examples": [{"score": "player.score"}, {"score": "sum(hand[player], c => c.penalty)", "lowest_wins": True}]},
    "scoring.score": {"examples": ["player.score", "score_of(player)"]},
    "scoring.tie_breaks": {"examples": [["0 - count(hand[player]) if not big_game else 0"], ["-count(shown[player])"]]},
    "scoring.show": {"examples": [{"cards in hand": "count(hand[player])", "trophies": "count(trophies[player])"}]},
    "scoring.lowest_wins": {"description": "true: the lowest score wins (and the lowest tie breaks).", "examples": [True]},
    "bots": {"examples": [{"heuristic": "player.score - count(hand[player])"}]},
    "bots.heuristic": {"examples": ["player.score - count(hand[player])", "10 * count(won[player]) + player.coins"]},
    "bots.search": {"examples": [{"centre": 1}, {"c": 1.0, "widen": 2}]},
    "bots.search.c": {"examples": [1.4, 0.7]},
    "bots.search.widen": {"examples": [1, 0]},
    "bots.search.baseline": {"examples": [2, 0]},
    "bots.search.centre": {"examples": [1]},
    "bots.search.normalize": {"examples": [1]},
    "bots.search.epsilon": {"examples": [0.2]},
    "presentation": {"examples": [{"layout": ["table", "hand"], "components": {"card": {"colour_by": "suit", "short": "{value}"}}}]},
    "presentation.layout": {"examples": [["board", "deck", "discard", "hand"]]},
    "presentation.layout.[]": {"description": "A zone family.", "examples": ["hand"]},
    "presentation.components": {"examples": [{"card": {"colour_by": "suit"}, "pawn": {"colour": "#c0392b", "short": "P"}}]},
    "presentation.components.*": {"description": "How this component type looks on the table.", "examples": [{"colour": "teal", "short": "{value}"}, {"colour_by": "suit", "colours": {"hearts": "red", "spades": "black"}}]},
    "presentation.components.*.colour": {"examples": ["teal", "#c0392b"]},
    "presentation.components.*.colour_by": {"examples": ["suit", "colour"]},
    "presentation.components.*.colours": {"examples": [{"hearts": "red", "spades": "black"}]},
    "presentation.components.*.colours.*": {"description": "The colour of components with this value.", "examples": ["red", "#2e86de"]},
    "presentation.components.*.short": {"examples": ["{value}", "P{owner}"]},
    "presentation.components.*.shape": {"examples": ["diamond", "hull"]},
    "presentation.components.*.about_by": {"examples": ["suit", "kind"]},
    "presentation.components.*.about": {"examples": [{"anchor": "Cards played before it are safe if you bust."}]},
    "presentation.components.*.about.*": {"description": "What a component with this value does.", "examples": ["Draw the top card of the discard pile."]},
    "presentation.boards": {"examples": [{"hex": {"colour_by": "terrain", "colours": {"sea": "#5dade2", "land": "#f4d03f"}}}]},
    "presentation.boards.*": {"description": "How this board's spaces look.", "examples": [{"colour_by": "terrain", "colours": {"sea": "#5dade2"}, "symbols": {"safe": "#"}, "labels": "edges"}]},
    "presentation.boards.*.colour_by": {"examples": ["terrain", "base"]},
    "presentation.boards.*.colours": {"examples": [{"sea": "#5dade2", "forest": "#1e8449"}]},
    "presentation.boards.*.colours.*": {"description": "The colour of spaces with this value.", "examples": ["#5dade2"]},
    "presentation.boards.*.symbols": {"examples": [{"safe": "#", "sea": "~"}]},
    "presentation.boards.*.symbols.*": {"description": "The symbol drawn on spaces with this value.", "examples": ["#"]},
    "presentation.boards.*.labels": {"examples": ["edges", "none"]},
    "presentation.boards.*.title": {"examples": ["the island", "the board"]},
    "presentation.zones": {"examples": [{"bank": {"group_by": "suit", "top": "highest", "top_by": "value"}}]},
    "presentation.zones.*": {"description": "How this zone's components are laid out.", "examples": [{"group_by": "suit", "top": "last"}]},
    "presentation.zones.*.group_by": {"examples": ["suit", "colour"]},
    "presentation.zones.*.top": {"examples": ["highest", "last"]},
    "presentation.zones.*.top_by": {"examples": ["value", "rank"]},
    "presentation.zones.*.title": {"examples": ["creatures in the supply", "prize on offer"]},
    "presentation.phases": {"examples": [{"place_people": "placing people"}]},
    "presentation.phases.*": {"description": "The phase's name as players read it.", "examples": ["placing people"]},
    "variants": {"examples": [{"quick": {"title": "Quick game", "description": "Play to 50 points.", "params": {"target": 50}}}]},
    "variants.*": {"description": "A variant: new parameter values, player counts and a merge patch over the ruleset.", "examples": [{"title": "2 players", "players": {"min": 2, "max": 2}, "params": {"pawns_per_player": 2, "ending": "first_out"}, "excludes": ["three-players", "team-game"]}]},
    "variants.*.title": {"description": "The variant's name as printed.", "examples": ["Quick game", "Team game (expansion)"]},
    "variants.*.description": {"description": "What the variant changes.", "examples": ["In the bite phase every played card is turned face down."]},
    "variants.*.players": {"description": "New smallest and/or largest player counts.", "examples": [{"min": 2, "max": 2}, {"min": 5, "max": 7}]},
    "variants.*.players.min": {"description": "The smallest player count with this variant.", "examples": [5]},
    "variants.*.players.max": {"description": "The largest player count with this variant.", "examples": [7]},
    "variants.*.params": {"examples": [{"target": 50}, {"pawns_per_player": 2, "ending": "first_out"}]},
    "variants.*.patch": {"examples": [{"scoring": {"lowest_wins": True}}, {"triggers": {"noisy": None}}]},
    "variants.*.excludes": {"examples": [["three-players", "team-game"]]},
    "variants.*.requires": {"examples": [["quiet", "big"]]},
}


def _field(root: dict, path: str) -> dict:
    """The subschema at a FIELD_DOCS path, looking through oneOf/anyOf alternatives."""
    node = root
    for seg in path.split("."):
        key, sub = ("additionalProperties", None) if seg == "*" else ("items", None) if seg == "[]" else ("properties", seg)
        found = _step(node, key, sub)
        if found is None:
            raise KeyError(f"FIELD_DOCS: no field {path!r} in the schema (at {seg!r})")
        node = found
    return node


def _step(node: dict, key: str, sub: str | None):
    val = node.get(key)
    if sub is not None:
        val = val.get(sub) if isinstance(val, dict) else None
    if isinstance(val, dict):
        return val
    for alt in (node.get("oneOf") or []) + (node.get("anyOf") or []):
        found = _step(alt, key, sub) if isinstance(alt, dict) else None
        if found is not None:
            return found
    return None


def build() -> dict:
    """The schema with the help of FIELD_DOCS, every shared piece copied so each field has its own."""
    out = json.loads(json.dumps(schema))
    for path, docs in FIELD_DOCS.items():
        node = _field(out, path)
        node.update(docs)
    return out


def render() -> str:
    """The text of validator/ruleset.schema.json."""
    return json.dumps(build(), indent=2) + "\n"


OUT = Path(__file__).resolve().parent.parent / "validator" / "ruleset.schema.json"

if __name__ == "__main__":
    if sys.argv[1:] == ["--check"]:
        if OUT.read_text() != render():
            sys.exit(f"{OUT} is out of date: run python tools/make_schema.py")
    else:
        OUT.write_text(render())
