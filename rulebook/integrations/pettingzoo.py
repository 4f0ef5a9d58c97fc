"""Any ruleset as a PettingZoo AEC environment (``pip install -e ".[pettingzoo]"``).

Reinforcement-learning libraries speak PettingZoo, not Rulebook; this module
translates the one decision interface (``to_move``, ``legal``, ``apply``,
``view``) into PettingZoo's agent-environment-cycle API, for any valid
ruleset and without knowing any game:

* agents ``player_0`` .. ``player_{n-1}`` are the seats; the agent to act is
  the first of ``Game.to_move``. A simultaneous decision is asked of its
  players one after another: the engine keeps each answer hidden until all
  have answered, so asking in turn reveals nothing.
* the observation is the acting player's ``view`` (interpreter.view, the one
  place hidden information is filtered) encoded as a fixed-length float32
  vector whose layout depends only on (ruleset, variants, players, params);
  see ``Encoder`` and docs/pettingzoo.md.
* an action is an index into ``Game.options``; the action space is a fixed
  ``Discrete(A)`` with an action mask. No general static bound on the number
  of options exists (an action's options are the product of its parameters'
  domains, computed at run time), so ``A`` comes from exploring seeded random
  games at load, with a margin; ``max_actions=`` sets it by hand, and a
  decision with more options than ``A`` stops with ``ActionSpaceTooSmall``
  naming the cap.

PettingZoo, Gymnasium and NumPy are optional: the rest of Rulebook never
imports this module, and importing it without them works; making an
environment then raises an ImportError that says what to install.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

from rulebook.integrations.actions import explore_sampled
from rulebook.integrations.features import of_game
from rulebook.interpreter.game import Game
from rulebook.interpreter.ops import can_see, zone_family, zone_key
from rulebook.interpreter.options import tag_type
from rulebook.interpreter.program import ANY, Type
from rulebook.interpreter.view import view

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # the optional extra is not installed
    np = spaces = wrappers = None
    AECEnv = object
    _MISSING: ImportError | None = err
else:
    _MISSING = None

BOUND = float(2**24)  # float32 holds every integer up to 2**24 exactly; values beyond are clipped
DECISION_KINDS = ("choose", "action", "simul")
ITEM_COLS = ("known", "zone", "family", "zone_key", "position", "face_up", "owner")
BACK_COLS = ("present", "zone", "family", "zone_key", "position", "owner")
OPTION_COLS = ("present", "hidden", "action", "count")
_QUOTED = re.compile(r'"([^"\\\n]*)"|\'([^\'\\\n]*)\'')
_BOUND_CACHE: dict = {}  # exploring games is the slow part of making an env: once per configuration


class ActionSpaceTooSmall(RuntimeError):
    """A decision offers more options than the fixed action space holds."""


class ObservationTooSmall(RuntimeError):
    """More components were created during play than the observation has room for."""


def _require() -> None:
    if _MISSING is not None:
        raise ImportError(
            f"the PettingZoo environment needs pettingzoo, gymnasium and numpy ({_MISSING}); "
            'install them with: pip install -e ".[pettingzoo]"'
        ) from _MISSING


# --------------------------------------------------------------------------- loading
def load(game: str, variants=()) -> Game:
    """Find a ruleset by id, folder or file (as the command line does) and
    compile it with its variants."""
    from rulebook.compiler.build import load_program
    from rulebook.files.locate import locate

    path = locate(game)
    compiled = load_program(path, tuple(variants))
    if compiled.program is None:
        errors = compiled.report.errors
        detail = f": {errors[0].message}" if errors else ""
        raise ValueError(f"{path} does not compile ({len(errors)} error(s){detail}); run `rulebook validate {path}`")
    return Game(compiled.program)


def _strings(data, out: set) -> None:
    """Every short string of the ruleset's data and every quoted literal of
    its rule text: the words string-valued variables and properties take."""
    if isinstance(data, dict):
        for k, v in data.items():
            _strings(k, out)
            _strings(v, out)
    elif isinstance(data, (list, tuple)):
        for v in data:
            _strings(v, out)
    elif isinstance(data, str):
        if "\n" not in data and len(data) <= 64:
            out.add(data)
        for m in _QUOTED.finditer(data):
            out.add(m.group(1) if m.group(1) is not None else m.group(2))


def vocabulary(data, st) -> dict[str, int]:
    """Strings to small integers (1-based, sorted, so the same ruleset always
    gives the same codes); the empty string codes as 0, like none."""
    words: set = set()
    _strings(data, words)
    _strings(st.params, words)
    _strings(st.static, words)
    words.discard("")
    return {w: i + 1 for i, w in enumerate(sorted(words))}


def created_types(game: Game) -> list[str]:
    """Component types the checked rules ``create`` (their number can grow
    during play, so the observation keeps a capped pool for them)."""
    found = of_game(game).created
    return [t for t in game.program.comp_types if t in found]


def explore_options(game: Game, players: int, params: dict | None, games: int = 20,
                    max_decisions: int = 20_000) -> int:
    """The largest option count seen in ``games`` seeded random games (fixed
    seeds, so the same configuration always gives the same answer)."""
    prog = game.program
    key = (prog.id, prog.digest, prog.variants, players, json.dumps(params or {}, sort_keys=True, default=str), games)
    if key in _BOUND_CACHE:
        return _BOUND_CACHE[key]
    most = max(1, explore_sampled(game, players, params, games, max_decisions).most_options)
    _BOUND_CACHE[key] = most
    return most


def action_bound(seen: int) -> int:
    """Twice the most options seen, rounded up to a multiple of 8: random
    play rarely meets the largest decisions (Survive's grew from 40 to 126
    options between seeds), and a spare slot costs only a masked zero."""
    return max(8, -(-2 * seen // 8) * 8)


# --------------------------------------------------------------------------- encoding
@dataclass(frozen=True)
class Segment:
    """A named slice of the observation vector: ``rows`` x ``cols`` values
    starting at ``start`` (``columns`` names the columns of a table)."""

    name: str
    start: int
    rows: int
    cols: int
    columns: tuple = ()

    @property
    def size(self) -> int:
        return self.rows * self.cols


class Encoder:
    """The player's view as a fixed-length vector.

    Built only from ``view(st, p)`` (plus the face-up flag of components the
    view already names), so it can never show more than the view does. The
    layout depends on the ruleset, its variants, the player count and the
    parameters, never on the state: the same index always means the same
    thing. ``segments`` lists the parts; docs/pettingzoo.md explains them.
    """

    def __init__(self, game: Game, players: int, params: dict | None, vocab: dict[str, int], actions: int,
                 created: list[str] = (), max_created: int = 0, list_cap: int = 8, option_values: int = 4):
        self.game = game
        prog = self.prog = game.program
        st = game.new(players=players, seed=0, params=params, record=False)
        self.cat = cat = st.cat
        self.n = n = players
        self.vocab = vocab
        self.actions = actions
        self.list_cap = list_cap
        self.option_values = option_values
        self.created = list(created)
        self.max_created = max_created if self.created else 0
        self.families = {f: i + 1 for i, f in enumerate(prog.families)}
        self.phases = {ph: i for i, ph in enumerate(prog.phases)}
        self.var_types = {"direction": Type("int"), **prog.var_types}
        self.pvar_types = dict(prog.pvar_types)
        self.props = {t: self._type_props(ct) for t, ct in prog.comp_types.items()}
        self.public = {t: [(k, self.props[t].get(k, ANY)) for k in ct.public] for t, ct in prog.comp_types.items()}
        pool: dict[str, Type] = {}
        for t in self.created:
            for k, ty in self.props[t].items():
                pool[k] = ty if pool.get(k, ty) == ty else ANY
        self.pool_props = pool
        self.type_index = {t: i + 1 for i, t in enumerate(prog.comp_types)}

        self.segments: dict[str, Segment] = {}
        self.size = 0
        add = self._add
        add("viewer", 1, n)
        add("current", 1, n + 1)
        add("to_move", 1, n)
        add("eliminated", 1, n)
        add("phase", 1, len(self.phases) + 1)
        add("turn", 1, 1)
        add("over", 1, 1)
        add("decision", 1, len(DECISION_KINDS))
        add("vars", 1, sum(self._width(t) for t in self.var_types.values()), tuple(self.var_types))
        add("player_vars", n, sum(self._width(t) for t in self.pvar_types.values()), tuple(self.pvar_types))
        add("zones", len(cat.zone_family), 2, ("count", "hidden"))
        for t in prog.comp_types:
            rows = len(cat.by_type.get(t, []))
            if rows:
                add(f"items:{t}", rows, len(ITEM_COLS) + self._widths(self.props[t]), ITEM_COLS + tuple(self.props[t]))
        if self.max_created:
            add("items:created", self.max_created, len(ITEM_COLS) + 1 + self._widths(pool),
                ITEM_COLS + ("type",) + tuple(pool))
        for t in prog.comp_types:
            rows = len(cat.by_type.get(t, [])) + (self.max_created if t in self.created else 0)
            if rows:
                pub = dict(self.public[t])
                add(f"backs:{t}", rows, len(BACK_COLS) + self._widths(pub), BACK_COLS + tuple(pub))
        add("options", actions, 3 + 1 + option_values, OPTION_COLS
            + tuple(f"value{i}" for i in range(option_values)))

    # ------------------------------------------------------------ layout
    def _add(self, name: str, rows: int, cols: int, columns: tuple = ()) -> None:
        self.segments[name] = Segment(name, self.size, rows, cols, columns)
        self.size += rows * cols

    @staticmethod
    def _type_props(ct) -> dict[str, Type]:
        out = dict(ct.static)
        out.update(ct.dynamic)
        out.pop("type", None)
        return out

    def _width(self, t: Type) -> int:
        return 2 + self.list_cap if t.kind == "list" else 2

    def _widths(self, props: dict) -> int:
        return sum(self._width(t) for t in props.values())

    # ------------------------------------------------------------ values
    def code(self, v, t: Type = ANY) -> float:
        """One number for one value: players, components and zones as their
        index + 1 (0: none), strings by the vocabulary (unknown words share
        the code after the last word), lists and maps by their length."""
        if v is None:
            return 0.0
        if isinstance(v, bool):
            return 1.0 if v else 0.0
        if isinstance(v, int):
            return float(v + 1) if t.kind in ("comp", "player", "zone") else float(v)
        if isinstance(v, str):
            return float(self.vocab.get(v, len(self.vocab) + 1)) if v else 0.0
        if isinstance(v, (list, tuple, dict)):
            return float(len(v))
        if isinstance(v, float):
            return v
        return 1.0

    def _put(self, out, i: int, v, t: Type, present: bool = True) -> int:
        """Write one variable or property at ``i``: a status (1 a value,
        0 none, -1 hidden from this player), then its code; a list also
        gets its first ``list_cap`` elements. Returns the next index."""
        w = self._width(t)
        if not present:
            out[i] = -1.0
            return i + w
        out[i] = 0.0 if v is None else 1.0
        out[i + 1] = self.code(v, t)
        if t.kind == "list" and isinstance(v, (list, tuple)):
            et = t.arg if isinstance(t.arg, Type) else ANY
            for k, x in enumerate(v[: self.list_cap]):
                out[i + 2 + k] = self.code(x, et)
        return i + w

    def _where(self, st, z: int) -> tuple[float, float, float]:
        key = zone_key(st, z)
        return float(z + 1), float(self.families[zone_family(st, z)]), 0.0 if key is None else float(key + 1)

    # ------------------------------------------------------------ encode
    def encode(self, st, p: int, seen: dict | None = None) -> np.ndarray:
        """Player ``p``'s observation of ``st`` (a float32 vector of ``size``); ``seen``: its view of
        ``st`` when the caller has made it already."""
        v = view(st, p) if seen is None else seen
        out = np.zeros(self.size, dtype=np.float32)
        seg = self.segments
        n = self.n
        out[seg["viewer"].start + p] = 1
        cur = v["current"]
        out[seg["current"].start + (cur if isinstance(cur, int) and 0 <= cur < n else n)] = 1
        for q in v["to_move"]:
            out[seg["to_move"].start + q] = 1
        for q, info in enumerate(v["players"]):
            out[seg["eliminated"].start + q] = 1 if info["eliminated"] else 0
        out[seg["phase"].start + self.phases.get(v["phase"], len(self.phases))] = 1
        out[seg["turn"].start] = v["turn"]
        out[seg["over"].start] = 1 if v["over"] else 0
        decision = v.get("decision")
        if decision is not None and decision["kind"] in DECISION_KINDS:
            out[seg["decision"].start + DECISION_KINDS.index(decision["kind"])] = 1
        i = seg["vars"].start
        for name, t in self.var_types.items():
            i = self._put(out, i, v["vars"].get(name), t, name in v["vars"])
        i = seg["player_vars"].start
        for info in v["players"]:
            for name, t in self.pvar_types.items():
                i = self._put(out, i, info["vars"].get(name), t, name in info["vars"])
        self._components(st, v, out)
        if decision is not None:
            self._options(st, p, out)
        np.clip(out, -BOUND, BOUND, out=out)
        return out

    def _components(self, st, v: dict, out) -> None:
        seg = self.segments
        zones = seg["zones"].start
        backs_used: dict[str, int] = {}
        counted = len(self.cat.zone_family)  # zones made in play (for created components) have no count row
        for z, zd in enumerate(v["zones"].values()):
            items = zd["items"]
            if z < counted:
                out[zones + 2 * z] = zd["count"]
            where = self._where(st, z)
            hidden = 0
            for pos, item in enumerate(items):
                if item.get("hidden"):
                    hidden += 1
                    self._back(item, where, pos, backs_used, out)
                else:
                    self._item(st, item, where, pos, out)
            if z < counted:
                out[zones + 2 * z + 1] = hidden

    def _item(self, st, item: dict, where, pos: int, out) -> None:
        c = item["id"]
        t = item["type"]
        if c < self.cat.n:
            s = self.segments[f"items:{t}"]
            i = s.start + self.cat.ordinal[c] * s.cols
            props = self.props[t]
        else:
            k = c - self.cat.n
            if t not in self.created or k >= self.max_created:
                raise ObservationTooSmall(
                    f"component {c} ({t}) is number {k + 1} of those made with `create`, but the observation holds "
                    f"{self.max_created} created components{'' if t in self.created else f' and none of type {t}'}; "
                    "make the env with a larger max_created="
                )
            s = self.segments["items:created"]
            i = s.start + k * s.cols
            props = self.pool_props
        owner = item.get("owner")
        out[i: i + len(ITEM_COLS)] = (1.0, *where, pos, 1.0 if st.face[c] else 0.0,
                                      0.0 if owner is None else owner + 1.0)
        i += len(ITEM_COLS)
        if c >= self.cat.n:
            out[i] = self.type_index[t]
            i += 1
        for k, ty in props.items():
            i = self._put(out, i, item.get(k), ty, k in item)

    def _back(self, item: dict, where, pos: int, used: dict, out) -> None:
        """A component the player cannot identify: its back goes in the next
        free row of its type, in view order (which the view already makes
        independent of which component it is)."""
        t = item["type"]
        s = self.segments[f"backs:{t}"]
        row = used.get(t, 0)
        if row >= s.rows:
            raise ObservationTooSmall(f"more face-down {t} components than the observation holds ({s.rows}); "
                                      "components of this type are created during play: make the env with "
                                      "a larger max_created=")
        used[t] = row + 1
        i = s.start + row * s.cols
        owner = item.get("owner")
        out[i: i + len(BACK_COLS)] = (1.0, *where, pos, 0.0 if owner is None else owner + 1.0)
        i += len(BACK_COLS)
        for k, ty in self.public[t]:
            i = self._put(out, i, item.get(k), ty, k in item)

    def _options(self, st, p: int, out) -> None:
        """The options of ``p``'s decision: each one's action (for a turn
        action) and its values; a component ``p`` cannot see codes as -1,
        and the option is marked hidden (as ``Game.options`` hides it)."""
        pend = st.pending
        slot = next(i for i, (q, done) in enumerate(zip(pend["players"], pend["done"])) if q == p and not done)
        options = pend["options"][slot]
        s = self.segments["options"]
        if len(options) > s.rows:
            raise self.too_many(len(options), p)
        for k, value in enumerate(options):
            i = s.start + k * s.cols
            if pend["kind"] == "action":
                ai, args = value
                action = ai + 1.0
                types = self.prog.actions[ai].param_types or [ANY] * len(args)
            else:
                action = 0.0
                t = tag_type(pend.get("type", "any"))
                if isinstance(value, list):
                    args, types = value, [t.arg if t.kind == "list" and isinstance(t.arg, Type) else ANY] * len(value)
                else:
                    args, types = [value], [t]
            codes, hidden = [], False
            for x, ty in zip(args, types):
                ty = ty if isinstance(ty, Type) else ANY
                if ty.kind == "comp" and isinstance(x, int) and not isinstance(x, bool) and not can_see(st, x, p):
                    codes.append(-1.0)
                    hidden = True
                else:
                    codes.append(self.code(x, ty))
            out[i: i + 4] = (1.0, 1.0 if hidden else 0.0, action, len(args))
            vals = codes[: self.option_values]
            out[i + 4: i + 4 + len(vals)] = vals

    def too_many(self, count: int, p: int) -> ActionSpaceTooSmall:
        return ActionSpaceTooSmall(
            f"{self.prog.id}: player_{p} has {count} options, more than the action space's {self.actions} "
            "(by default twice the most options seen in random games at load); make the env with "
            f"max_actions={2 * count} or more"
        )


# --------------------------------------------------------------------------- the environment
class raw_env(AECEnv):
    """A ruleset as an AEC environment (unwrapped; ``env()`` adds PettingZoo's
    order-enforcing and bounds-checking wrappers).

    ``game``: a ruleset id, folder or file, or a compiled ``Game``;
    ``players``: the seat count (default: the ruleset's); ``variants``,
    ``params``: as on the command line; ``seed``: the first game's seed
    (each ``reset()`` without a seed takes the next one); ``max_actions``:
    the action space size (default: explored, see ``action_bound``);
    ``max_decisions``: decisions before the game is truncated;
    ``reward``: ``"win_loss"`` (+1 winners, -1 the others, 0 for all when
    everybody or nobody wins) or ``"returns"`` (``Game.returns``: 1 shared
    among the winners); ``max_created``: room for components made with
    ``create`` (default 32 when the checked rules create any, else 0);
    ``list_cap``: list elements kept per variable or property;
    ``option_values``: values kept per option.
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "rulebook_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game, players: int | None = None, variants=(), seed: int | None = None,
                 params: dict | None = None, render_mode: str | None = None, max_actions: int | None = None,
                 max_decisions: int = 100_000, reward: str = "win_loss", max_created: int | None = None,
                 list_cap: int = 8, option_values: int = 4, explore_games: int = 20):
        _require()
        super().__init__()
        self.game = game if isinstance(game, Game) else load(game, variants)
        prog = self.game.program
        data = prog.data or {}  # the ruleset with its variants applied
        n = players or (prog.default_players if prog.min_players <= prog.default_players <= prog.max_players
                        else prog.min_players)
        if not prog.min_players <= n <= prog.max_players:
            raise ValueError(f"{prog.title} plays with {prog.min_players}-{prog.max_players} players, not {n}")
        if reward not in ("win_loss", "returns"):
            raise ValueError(f"reward must be 'win_loss' or 'returns', not {reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.n = n
        self.params = dict(params or {})
        self.reward_mode = reward
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"rulebook_{prog.id}_v0")
        st = self.game.new(players=n, seed=0, params=self.params, record=False)  # checks the parameters too
        if max_actions is None:
            max_actions = action_bound(explore_options(self.game, n, self.params, explore_games))
        created = created_types(self.game)
        self.encoder = Encoder(self.game, n, self.params, vocabulary(data, st), max_actions, created,
                               32 if max_created is None else max_created, list_cap, option_values)
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        obs = spaces.Box(-BOUND, BOUND, (self.encoder.size,), np.float32)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": spaces.Box(0, 1, (max_actions,), np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}
        self._next_seed = seed
        self.st = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ------------------------------------------------------------ cycle
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._next_seed = seed
        if self._next_seed is None:
            self._next_seed = random.SystemRandom().randrange(2**31)
        self.game_seed = self._next_seed
        self._next_seed += 1
        self.st = self.game.new(players=self.n, seed=self.game_seed, params=self.params, record=False)
        self.decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]
        self._after_move()
        if self.render_mode == "human":
            self.render()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self._seat[agent]
        count = len(self.game.options(self.st, p))
        index = _as_index(action)
        if index is None or not 0 <= index < count:
            raise ValueError(f"{agent} cannot play {action!r}: the action mask allows 0..{count - 1}")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game.apply(self.st, p, index)
        self.decisions += 1
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_move(self) -> None:
        """Pick the next agent, or end the game for everyone."""
        st = self.st
        if st.over:
            self.rewards = dict(zip(self.possible_agents, self._final_rewards()))
            self.terminations = dict.fromkeys(self.agents, True)
            winners = [self.possible_agents[w] for w in st.winners]
            self.infos = {a: {"winners": winners} for a in self.agents}
        elif self.decisions >= self.max_decisions:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            p = self.game.to_move(st)[0]
            count = len(self.game.options(st, p))
            if count > self.encoder.actions:
                raise self.encoder.too_many(count, p)
            self.agent_selection = self.possible_agents[p]

    def _final_rewards(self) -> list[float]:
        st = self.st
        if self.reward_mode == "returns":
            return self.game.returns(st)
        won = set(st.winners)
        if not won or len(won) == self.n:
            return [0.0] * self.n
        return [1.0 if p in won else -1.0 for p in range(self.n)]

    # ------------------------------------------------------------ observations
    def observe(self, agent):
        p = self._seat[agent]
        mask = np.zeros(self.encoder.actions, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations.get(agent) or self.truncations.get(agent)):
            mask[: len(self.game.options(self.st, p))] = 1
        return {"observation": self.encoder.encode(self.st, p), "action_mask": mask}

    def legal_labels(self, agent) -> list[str]:
        """What each unmasked action means, as ``Game.options`` words it for
        this player (face-down components unnamed): for people and logs.
        This environment's own method (docs/pettingzoo.md), not one of
        ``Game``'s: an agent holding only the environment needs it."""
        p = self._seat[agent]
        if p not in self.game.to_move(self.st):
            return []
        return self.game.options(self.st, p).labels

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        from rulebook.terminal.screen import render_view

        st = self.st
        if st is None:
            return None
        if st.over:
            names = ", ".join(self.possible_agents[w] for w in st.winners) or "nobody"
            text = f"game over after {self.decisions} decisions; winners: {names}"
        else:
            p = self._seat[self.agent_selection]
            text = render_view(st, p) + "\n" + "\n".join(
                f"  {k}. {label}" for k, label in enumerate(self.legal_labels(self.agent_selection)))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        self.st = None


def _as_index(action) -> int | None:
    """An integer action (Python or NumPy, not a bool), else None."""
    if isinstance(action, bool) or action is None:
        return None
    if isinstance(action, int):
        return action
    if np is not None and isinstance(action, np.integer):
        return int(action)
    if np is not None and isinstance(action, np.ndarray) and action.shape in ((), (1,)) and action.dtype.kind in "iu":
        return int(action.reshape(()))
    return None


def env(game: str | Game, players: int | None = None, variants=(), seed: int | None = None,
        params: dict | None = None, render_mode: str | None = None, **options) -> AECEnv:
    """A ruleset as a PettingZoo AEC environment, wrapped as PettingZoo
    recommends (bounds-checked actions, calls in the right order). Other
    keyword options go to ``raw_env``."""
    _require()
    e = raw_env(game, players, variants, seed, params, render_mode, **options)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
