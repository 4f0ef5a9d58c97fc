"""Any ruleset as an OpenSpiel game (``pip install -e ".[openspiel]"``).

``load_game("rulebook:<id>", players=N, variants=..., params=...)`` gives a
``pyspiel.Game`` that OpenSpiel's C++ and Python algorithms accept (CFR,
MCTS, exploitability, ``random_sim_test``); importing this module registers
every ruleset on the search path under ``rulebook:<id>``, so
``pyspiel.load_game("rulebook:nim", {"players": 3})`` works too. It knows no
game: everything is read from the ruleset through ``interpreter.game.Game``.

* **Game type.** Simultaneous-move when the checked rules have a
  ``simultaneous for`` statement (several players answer one node at once;
  ``rulebook.integrations.features``); else sequential. Perfect information
  only when nothing can be hidden (no zone with ``visibility`` owner or
  hidden, no face-down zone, no secret player variable, no ``hide``
  statement, no simultaneous question); else imperfect.
  Returns are terminal. By default (``returns=zero_sum``) they are the
  engine's (1 shared among the winners) centred and scaled so that they sum
  to 0 and a lone winner gets 1: zero-sum by construction, so declared so
  (one player: the engine's returns, general-sum). ``returns=shares`` gives
  ``Game.returns`` as they are, declared general-sum (nobody winning sums
  to 0, a win to 1).
* **Chance.** ``chance=explicit`` (default): every roll, random pick and
  shuffle is a chance node with its outcomes and their probabilities
  (``rulebook.integrations.chance``; a shuffle is a draw without
  replacement, one position after another), so CFR and exact solvers work.
  ``chance=sampled``: the engine draws from its own generator (one seed per
  new game, from the ``seed`` parameter), declared ``SAMPLED_STOCHASTIC``.
* **Actions.** Canonical ids from each option's value, with a table built
  per game (``rulebook.integrations.actions``): ``num_distinct_actions`` is
  the table's size.
* **Observations.** ``observation_string`` is the player's view
  (``interpreter.view``, the one place hidden information is filtered) as
  JSON; ``observation_tensor`` is the same view encoded as in the PettingZoo
  env (``rulebook.pettingzoo_env.Encoder``). ``information_state_string`` is
  the player's own history: its views, each when it changed, and its own
  actions, a view after the first written as its changes
  (``rulebook.integrations.trail``: a long game's string would otherwise
  grow by a whole view a step; ``information_state=views`` writes every
  view whole, as ``trail.expand`` does); ``information_state_tensor`` is
  the observation tensor and the player's last ``history`` own actions,
  one-hot (fixed size, so perfect recall only where those tell the past;
  the string is exact).
* **Length.** A game is cut (terminal, every return 0) after
  ``max_game_length`` decisions: by default four times the longest explored
  game, at least 1000.
"""

from __future__ import annotations

import copy
import json
import random
from functools import lru_cache

from rulebook.integrations.actions import ActionTable, explore, option_keys, stated_keys
from rulebook.integrations.chance import Event, Origin, resume
from rulebook.integrations.features import of_game
from rulebook.integrations.trail import Trail, Tree
from rulebook.interpreter.game import Game
from rulebook.interpreter.view import view

try:
    import numpy as np
    import pyspiel
except ImportError as err:  # the optional extra is not installed
    np = pyspiel = None
    _MISSING: ImportError | None = err
else:
    _MISSING = None

PREFIX = "rulebook:"


def _require() -> None:
    if _MISSING is not None:
        raise ImportError(f"the OpenSpiel adapter needs open_spiel and numpy ({_MISSING}); "
                          'install them with: pip install -e ".[openspiel]"') from _MISSING


def is_simultaneous(game: Game) -> bool:
    """Whether the rules ask several players one question at once (a
    ``simultaneous for`` statement of the checked rules)."""
    return of_game(game).simultaneous


def hides_anything(game: Game) -> bool:
    """Whether a player can ever be kept from seeing something: a zone that
    hides or deals face down, a secret player variable, or a ``hide`` or
    ``simultaneous for`` statement in the checked rules (a simultaneous
    answer is hidden until all have answered)."""
    prog = game.program
    if any(f.visibility in ("owner", "hidden") or f.face == "down" for f in prog.families.values()):
        return True
    pvars = (prog.data or {}).get("player_vars") or {}
    if any(isinstance(v, dict) and v.get("visibility") == "owner" for v in pvars.values()):
        return True
    found = of_game(game)
    return found.hides or found.simultaneous


@lru_cache(maxsize=64)
def _compiled(ruleset: str, variants: tuple) -> Game:
    from rulebook.integrations.pettingzoo import load

    return load(ruleset, variants)


_SPEC = {"players": 0, "variants": "", "params": "", "chance": "explicit", "returns": "zero_sum",
         "explore_games": 20, "spare_actions": 64, "max_game_length": 0, "seed": 0,
         "history": 16, "information_state": "changes"}


def _settings(params: dict) -> dict:
    got = dict(_SPEC)
    got.update({k: v for k, v in (params or {}).items()})
    unknown = set(got) - set(_SPEC)
    if unknown:
        raise ValueError(f"unknown parameter(s) {sorted(unknown)}; known: {sorted(_SPEC)}")
    if got["chance"] not in ("explicit", "sampled"):
        raise ValueError(f"chance must be 'explicit' or 'sampled', not {got['chance']!r}")
    if got["information_state"] not in ("changes", "views"):
        raise ValueError(f"information_state must be 'changes' or 'views', not {got['information_state']!r}")
    if got["returns"] not in ("zero_sum", "shares"):
        raise ValueError(f"returns must be 'zero_sum' or 'shares', not {got['returns']!r}")
    return got


if pyspiel is not None:

    class RulebookGame(pyspiel.Game):
        """A ruleset with its variants, player count and parameters."""

        def __init__(self, ruleset: str, params: dict | None = None):
            self.ruleset, self.raw_params = ruleset, dict(params or {})
            s = self.settings = _settings(params)
            variants = tuple(v for v in s["variants"].split(",") if v)
            self.engine = game = _compiled(ruleset, variants)
            prog = game.program
            n = s["players"] or (prog.default_players if prog.min_players <= prog.default_players <= prog.max_players
                                 else prog.min_players)
            self.n = n
            self.engine_params = json.loads(s["params"]) if s["params"] else None
            first = game.new(players=n, seed=0, params=self.engine_params, record=False)  # checks players, params
            found = self.exploration = explore(game, n, self.engine_params, s["explore_games"], 200_000)
            self.table = ActionTable(stated_keys(game, first), found.keys, s["spare_actions"])
            self.sampled = s["chance"] == "sampled"
            self.simultaneous = is_simultaneous(game)
            self.zero_sum = s["returns"] == "zero_sum" and n > 1
            self.max_length = s["max_game_length"] or max(1000, 4 * found.longest)
            self._seeds = random.Random(s["seed"])
            self._encoder = None
            # with explicit chance every game starts alike: the progress up to the first chance event
            # or decision, made once (the setup replays up to each of its chance events) and copied
            self._start = None
            components = len(first.cat.types) + 64  # room for components made in play
            G = pyspiel.GameType
            game_type = G(
                short_name=PREFIX + prog.id, long_name=f"Rulebook {prog.title}",
                dynamics=G.Dynamics.SIMULTANEOUS if self.simultaneous else G.Dynamics.SEQUENTIAL,
                chance_mode=G.ChanceMode.SAMPLED_STOCHASTIC if self.sampled else G.ChanceMode.EXPLICIT_STOCHASTIC,
                information=G.Information.IMPERFECT_INFORMATION if hides_anything(game)
                else G.Information.PERFECT_INFORMATION,
                utility=G.Utility.ZERO_SUM if self.zero_sum else G.Utility.GENERAL_SUM,
                reward_model=G.RewardModel.TERMINAL,
                max_num_players=prog.max_players, min_num_players=prog.min_players,
                provides_information_state_string=True, provides_information_state_tensor=True,
                provides_observation_string=True, provides_observation_tensor=True,
                parameter_specification=dict(_SPEC))
            info = pyspiel.GameInfo(
                num_distinct_actions=self.table.size,
                max_chance_outcomes=max(components, 2 * found.most_outcomes),
                num_players=n,
                min_utility=-1.0 / (n - 1) if self.zero_sum else 0.0,
                max_utility=1.0,
                utility_sum=0.0 if self.zero_sum else None,
                max_game_length=self.max_length)
            # only the parameters that differ from the defaults: a game loaded again from its name
            # (OpenSpiel's serialization) gets every default filled in, and must print the same name
            super().__init__(game_type, info, {k: v for k, v in (params or {}).items() if _SPEC.get(k) != v})

        def new_initial_state(self):
            return RulebookState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return RulebookObserver(self, iig_obs_type, params)

        def encoder(self):
            """The observation tensor's layout (built on first use: it plays a game)."""
            if self._encoder is None:
                from rulebook.integrations.pettingzoo import Encoder, action_bound, created_types, vocabulary

                game, prog = self.engine, self.engine.program
                st = game.new(players=self.n, seed=0, params=self.engine_params, record=False)
                data = prog.data or {}  # its strings are the vocabulary of string values
                self._encoder = Encoder(game, self.n, self.engine_params, vocabulary(data, st),
                                        max(self.table.size, action_bound(self.exploration.most_options)),
                                        created_types(game), 32)
            return self._encoder

    class Progress:
        """A game's progress, apart from the ``pyspiel.State`` around it:
        OpenSpiel clones a Python state by deep-copying its attributes, and
        this copy shares what is never changed once made (the game, the
        engine states, which every move clones first) and copies the rest."""

        def __init__(self, game: RulebookGame):
            self.g = game
            self.st = None  # the engine state at the last decision
            self.event: Event | None = None
            self.origin = Origin(game.n, game.engine_params)
            self.entries: tuple = ()
            self.decisions = 0
            self.cut = False
            # what each player has seen and done, in order: ("state", Decision) at each decision,
            # ("move", player, action id); views are computed from it only when a player's history is asked
            self.log: list = []
            # each player's history so far (information_state_string): a Trail, immutable and shared by
            # clones, or with ``information_state=views`` the list of its whole views and actions
            self.trail = [Trail() for _ in range(game.n)] if game.settings["information_state"] == "changes" \
                else [[] for _ in range(game.n)]
            self.upto = [0] * game.n  # how much of ``log`` each trail holds
            self.own = [[] for _ in range(game.n)]  # each player's own action ids (information_state_tensor)
            self.at: Decision | None = None  # what is read of ``st`` (replaced at each decision)
            self.seed = None  # the engine's seed, with sampled chance
            self.moves: list = []  # every action and joint action applied, in order (for pickling)

        def view_of(self, player: int) -> str:
            """The player's view of the state at the last decision, as JSON."""
            return self.at.string(player)

        def history(self, player: int) -> str:
            """The player's history, one line each: its views, each when it changed or after its own
            action, and its own actions ("played <id>"); a view after the first as its changes
            (``rulebook.integrations.trail``), or whole with ``information_state=views``."""
            trail = self.trail[player]
            if isinstance(trail, list):
                return "\n".join(self._whole_views(player))
            for k in range(self.upto[player], len(self.log)):
                item = self.log[k]
                if item[0] == "move":
                    if item[1] == player:
                        trail = trail.played(item[2])
                    continue
                trail = trail.seen(item[1].tree(player))
            self.trail[player] = trail
            self.upto[player] = len(self.log)
            return trail.text

        def _whole_views(self, player: int) -> list[str]:
            """The history as it was written before views were written as their changes: every view
            whole (``information_state=views``; ``trail.expand`` of the default string gives the same)."""
            trail = self.trail[player]
            for k in range(self.upto[player], len(self.log)):
                item = self.log[k]
                if item[0] == "move":
                    if item[1] == player:
                        trail.append(f"played {item[2]}")
                    continue
                seen = item[1].string(player)
                if not trail or trail[-1] != seen:
                    trail.append(seen)
            self.upto[player] = len(self.log)
            return trail

        def __reduce__(self):
            """Pickled as its game and its moves, replayed when loaded (the
            engine's compiled rules are not pickled)."""
            return _replayed, (self.g.ruleset, self.g.raw_params, self.seed, list(self.moves))

        def __deepcopy__(self, memo):
            other = Progress.__new__(Progress)  # not copy.copy: it would go through __reduce__ and replay the game
            other.__dict__.update(self.__dict__)
            other.log = list(self.log)
            other.trail = [t if isinstance(t, Trail) else list(t) for t in self.trail]  # a Trail is never changed
            other.upto = list(self.upto)
            other.own = [list(t) for t in self.own]
            other.moves = list(self.moves)
            return other

    class RulebookState(pyspiel.State):
        """A game in progress: an engine state at a decision (or its end), or
        a chance event being resolved after one."""

        def __init__(self, game: RulebookGame, seed: int | None = None):
            super().__init__(game)
            d = self._d = Progress(game)
            if game.sampled:
                d.seed = game._seeds.randrange(2**31) if seed is None else seed
                d.st = game.engine.new(players=game.n, seed=d.seed, params=game.engine_params, record=False)
                self._observed()
            elif game._start is not None:
                self._d = copy.deepcopy(game._start)
            else:
                self._advance()
                game._start = copy.deepcopy(d)

        # -------------------------------------------------------- moving on
        def _advance(self) -> None:
            d = self._d
            got = resume(d.g.engine, d.origin, d.entries)
            if isinstance(got, Event):
                d.event = got
                return
            d.event, d.st = None, got
            self._observed()

        def _observed(self) -> None:
            d = self._d
            if d.decisions >= d.g.max_length and not d.st.over:
                d.cut = True
            d.at = Decision(d.st)
            d.log.append(("state", d.at))

        def _options(self, player: int) -> dict[int, int]:
            """This decision's action ids -> option indexes (the first option of each id)."""
            d = self._d
            got = d.at.ids.get(player)
            if got is None:
                got = {}
                for k, key in enumerate(option_keys(d.g.engine, d.st, player)):
                    got.setdefault(d.g.table.id_of(key), k)
                d.at.ids[player] = got
            return got

        def _to_move(self) -> list[int]:
            return self._d.g.engine.to_move(self._d.st)

        def current_player(self):
            if self.is_terminal():
                return pyspiel.PlayerId.TERMINAL
            if self._d.event is not None:
                return pyspiel.PlayerId.CHANCE
            movers = self._to_move()
            if self._d.g.simultaneous and len(movers) > 1:
                return pyspiel.PlayerId.SIMULTANEOUS
            return movers[0]

        def _legal_actions(self, player):
            if self.is_terminal() or self._d.event is not None:
                return []
            movers = self._to_move()
            asked = movers if self._d.g.simultaneous and len(movers) > 1 else movers[:1]
            return sorted(self._options(player)) if player in asked else []

        def chance_outcomes(self):
            outcomes = self._d.event.outcomes()
            return [(o, 1.0 / len(outcomes)) for o in outcomes]

        def _apply_action(self, action):
            d = self._d
            d.moves.append(action)
            if d.event is not None:
                before = d.event.before
                d.event, entry = d.event.choose(action)
                if entry is not None:
                    d.entries = before + (entry,)
                    self._advance()
                return
            self._move([(self.current_player(), action)])

        def _apply_actions(self, actions):
            self._d.moves.append(list(actions))
            self._move([(p, actions[p]) for p in self._to_move()])

        def _move(self, pairs) -> None:
            d = self._d
            moves = []
            for p, action in pairs:
                index = self._options(p).get(action)
                if index is None:
                    raise ValueError(f"action {action} is not legal for player {p} now")
                moves.append((p, index))
                d.log.append(("move", p, action))
                d.own[p].append(action)
            d.decisions += 1
            if d.g.sampled:
                st = d.st.clone()
                for p, index in moves:
                    d.g.engine.apply(st, p, index)
                d.st = st
                self._observed()
                return
            d.origin, d.entries = Origin(d.g.n, d.g.engine_params, d.st, tuple(moves)), ()
            self._advance()

        # -------------------------------------------------------- results
        def is_terminal(self):
            d = self._d
            return d.event is None and (d.st.over or d.cut)

        def returns(self):
            d = self._d
            n = d.g.n
            if not self.is_terminal() or d.cut:
                return [0.0] * n
            shares = d.g.engine.returns(d.st)
            if not d.g.zero_sum:
                return shares
            if not any(shares):
                return [0.0] * n
            return [(r - 1.0 / n) * n / (n - 1) for r in shares]

        # -------------------------------------------------------- words
        def _action_to_string(self, player, action):
            d = self._d
            if player == pyspiel.PlayerId.CHANCE:
                return f"chance outcome {action}"
            if d.st is not None and d.event is None and not self.is_terminal() and player in self._to_move():
                index = self._options(player).get(action)
                if index is not None:
                    labels = d.at.labels.get(player)
                    if labels is None:
                        labels = d.at.labels[player] = d.g.engine.options(d.st, player).labels
                    label = labels[index]
                    # two options may read the same (two cards alike): the id tells them apart
                    return label if labels.count(label) == 1 else f"{label} [{action}]"
            return d.g.table.key_of(action) or f"action {action}"

        def __str__(self):
            d = self._d
            if d.st is None:
                return "setting up: resolving chance"
            if d.at.text is None:
                d.at.text = json.dumps(view(d.st, None), sort_keys=True, default=repr)
            return f"decisions {d.decisions}; " + ("chance next; " if d.event else "") + d.at.text

        def __deepcopy__(self, memo):
            other = RulebookState.__new__(RulebookState)
            pyspiel.State.__init__(other, self._d.g)
            other._d = copy.deepcopy(self._d, memo)
            return other

        def clone(self):
            return copy.deepcopy(self)

    class RulebookObserver:
        """Observations for OpenSpiel: the player's view (and, with perfect
        recall, its history of views and own actions)."""

        def __init__(self, game: RulebookGame, iig_obs_type=None, params=None):
            if params:
                raise ValueError(f"observation parameters are not supported; passed {params}")
            obs = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
            if obs.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not obs.public_info:
                raise ValueError("Rulebook observes as one player sees the game (its view): public and "
                                 "single-player private information only")
            self.game = game
            self.perfect_recall = obs.perfect_recall
            self.view_size = game.encoder().size
            self.history = int(game.settings["history"]) if obs.perfect_recall else 0
            self.tensor = np.zeros(self.view_size + self.history * game.table.size, np.float32)
            self.dict = {"observation": self.tensor}

        def set_from(self, state, player):
            """The player's view encoded; with perfect recall, then its last
            ``history`` own actions, one-hot, the most recent last."""
            st = state._d.st
            self.tensor.fill(0)
            if st is not None:
                at = state._d.at
                got = at.encoded.get(player)
                if got is None:
                    got = at.encoded[player] = self.game.encoder().encode(st, player, at.view(player))
                self.tensor[:self.view_size] = got
            if self.history:
                size = self.game.table.size
                recent = state._d.own[player][-self.history:]
                first = self.view_size + (self.history - len(recent)) * size
                for k, action in enumerate(recent):
                    self.tensor[first + k * size + action] = 1

        def string_from(self, state, player):
            d = state._d
            if self.perfect_recall:
                return d.history(player)
            if d.st is None:
                return "setting up"
            return d.view_of(player) + ("\nchance next" if d.event else "")


def _replayed(ruleset: str, params: dict, seed: int | None, moves: list):
    """A pickled game's progress, replayed from its moves (``Progress.__reduce__``)."""
    key = (ruleset, json.dumps(params, sort_keys=True))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = RulebookGame(ruleset, params)
    state = RulebookState(game, seed)
    for move in moves:
        if isinstance(move, list):
            state.apply_actions(move)
        else:
            state.apply_action(move)
    return state._d


_GAMES: dict = {}  # games made to load pickled states, by ruleset and parameters


class Decision:
    """An engine state at a decision and what is read of it, each made once: OpenSpiel's tests and
    algorithms ask the same views, tensors and labels at every chance node after the decision and of
    every clone, and clones share this (the state is never changed once made, so neither is what is
    read of it)."""

    __slots__ = ("st", "views", "trees", "encoded", "labels", "ids", "text")

    def __init__(self, st):
        self.st = st
        self.views: dict = {}  # player -> its view (``interpreter.view``)
        self.trees: dict = {}  # player -> that view's JSON, by its parts (``trail.Tree``)
        self.encoded: dict = {}  # player -> its observation tensor (never written once made)
        self.labels: dict = {}  # player -> its options' labels
        self.ids: dict = {}  # player -> action id -> option index
        self.text: str | None = None  # the full view as JSON (``str(state)``)

    def view(self, player: int) -> dict:
        got = self.views.get(player)
        if got is None:
            got = self.views[player] = view(self.st, player)
        return got

    def tree(self, player: int) -> Tree:
        got = self.trees.get(player)
        if got is None:
            got = self.trees[player] = Tree(self.view(player))
        return got

    def string(self, player: int) -> str:
        """The player's view as JSON (sorted keys, compact separators, ``repr`` for anything else)."""
        return self.tree(player).text


# ------------------------------------------------------------------ registration
_REGISTERED: dict[str, str] = {}


def register(ruleset: str, name: str | None = None) -> str:
    """Register one ruleset (an id, folder or file) with OpenSpiel as
    ``rulebook:<id>`` (or ``name``); returns the name."""
    _require()
    from rulebook.files.locate import locate

    path = str(locate(ruleset))
    name = name or PREFIX + _compiled(path, ()).program.id
    if name in _REGISTERED:
        return name
    prog = _compiled(path, ()).program
    G = pyspiel.GameType
    declared = G(  # what the registry shows; each loaded game declares its own type from its settings
        short_name=name, long_name=f"Rulebook {prog.title}", dynamics=G.Dynamics.SEQUENTIAL,
        chance_mode=G.ChanceMode.EXPLICIT_STOCHASTIC, information=G.Information.IMPERFECT_INFORMATION,
        utility=G.Utility.GENERAL_SUM, reward_model=G.RewardModel.TERMINAL,
        max_num_players=prog.max_players, min_num_players=prog.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(_SPEC))
    # a class, as OpenSpiel's own Python games register (a registered function crashes the interpreter's exit)
    factory = type(f"RulebookGame_{len(_REGISTERED)}", (RulebookGame,), {"RULESET": path, "__init__": _init_registered})
    pyspiel.register_game(declared, factory)
    _REGISTERED[name] = path
    return name


def _init_registered(self, params=None):
    RulebookGame.__init__(self, type(self).RULESET, params)


def register_all() -> list[str]:
    """Register every ruleset on the search path (``rulesets/``, ``examples/``, ``$RULEBOOK_PATH``)."""
    from rulebook.files.locate import all_rulesets

    names = []
    for path in all_rulesets():
        try:
            names.append(register(str(path.parent)))
        except (ValueError, OSError):  # a ruleset that does not compile is not offered
            continue
    return names


def load_game(name: str, players: int | None = None, variants=(), params: dict | None = None, **options):
    """A ruleset as a ``pyspiel.Game``: ``name`` is ``rulebook:<id>`` (or an
    id, folder or file); ``players``, ``variants`` and ``params`` as on the
    command line; ``options``: the adapter's own parameters (``chance``,
    ``returns``, ``explore_games``, ``spare_actions``, ``max_game_length``,
    ``seed``, ``history``, ``information_state``; see the module's docstring)."""
    _require()
    ruleset = name[len(PREFIX):] if name.startswith(PREFIX) else name
    settings = dict(options)
    if players:
        settings["players"] = int(players)
    if variants:
        settings["variants"] = ",".join([variants] if isinstance(variants, str) else variants)
    if params:
        settings["params"] = json.dumps(params, sort_keys=True)
    return RulebookGame(_REGISTERED.get(name) or ruleset, settings)


if pyspiel is not None:
    register_all()
