"""Determinization: a full game state consistent with what one player sees.

``determinize(st, player, rng)`` returns a clone of ``st`` in which every
fact ``player`` cannot observe is re-drawn, so that a search agent can play
the game forward without ever reading hidden information. The information
set is the player's *view* (``interpreter.view``): two states with equal
views for ``player`` are indistinguishable to it, and a determinization
keeps that view unchanged while randomising everything else.

What is re-drawn, and how:

* **Hidden components.** A component ``player`` cannot see now
  (``ops.can_see``) shows only its back: its type and the properties its type
  declares ``public``, plus its owner. Such components are grouped by what
  their backs show that belongs to the card itself (type and public *fixed*
  properties) and, within a group, their *identities* are dealt out again at
  random. An identity is the face: the fixed-property row (``st.static[c]``)
  and the changing properties that are not public. Everything that describes
  where the physical object is or how it lies stays with the component id:
  zone and position, face, owner, who else knows it (``st.known``), public
  changing properties (a piece's ``at``), and the zones kept per component.
  Swapping identities instead of moving components keeps every reference
  in the frame stack, variables, history and pending options pointing at the
  same *place* ("the top card of the deck", "the card P2 just played face
  down"), which is what such a reference means to a player who cannot see
  the face. Fixed rows are shared with the catalogue (``st.cat.static``), so
  the sample gets its own row list; the rows themselves are never mutated.
  Board spaces (types with a ``board``) are never re-drawn: boards are
  built from their rows.
* **Chance.** The state's generator is re-seeded from ``rng``: future
  shuffles, rolls and random insertions are unknown.
* **A pending decision.** The instruction that asked for it is run again on
  the sample, so other players' options, labels and prompts are those of
  the re-drawn state (stale labels would name the real hidden cards). The
  player's own options, labels and prompts are kept exactly (they are part of
  what it sees). In a simultaneous decision the answers other players have
  already given are secret: they are re-drawn uniformly from their options
  (the answers of a ``choose ... public`` are kept: everybody saw them).
* **The past.** The sample's ``history`` is empty: the real one lists every
  player's answers, secret ones included, and nothing in play reads it.
* **Secret player variables** (``visibility: owner``) of other players are
  reset to their declared initial value. Nothing better is honest without a
  model of the game: the engine has no prior over a number or a list, and
  keeping the real value would leak it. A ruleset that needs better
  determinizations should keep secrets as face-down components, whose
  identities the determinizer can re-deal.

Known limits (see docs/agents.md): the information set is the *current*
view, so a player's memory (a card it saw before it was shuffled away) is not
used; facts the rules imply but the view does not show (a zone that only
ever holds cards of one kind, a local variable computed from a hidden face)
are not enforced. A ruleset makes those visible by declaring the property
``public`` (what the card's back shows).
"""

from __future__ import annotations

import json
import random

from rulebook.interpreter import indexes
from rulebook.interpreter import rng as srng
from rulebook.interpreter.ops import BOX, can_see, lost_count, zone_family, zone_owner
from rulebook.interpreter.program import Columns
from rulebook.interpreter.rows import per_row
from rulebook.interpreter.run import reask
from rulebook.interpreter.state import State


def determinize(st: State, player: int, rng: random.Random) -> State:
    """A clone of ``st`` with everything ``player`` cannot see re-drawn from
    ``rng``; the same view for ``player``, the same component counts."""
    return Sampler(st, player).sample(rng)


class Sampler:
    """Determinizations of one state for one player (``Decision.sample``
    keeps one per decision). What every sample shares is worked out once,
    with the first: the hidden groups (they depend only on the view) and
    each group's faces in their canonical order. A sample then clones the
    state, shuffles each group's faces and deals them, with the same draws
    as ``determinize``. A state changed since (another pending decision,
    another history or rows) is planned again."""

    __slots__ = ("st", "player", "_plan", "_made_for", "remembered")

    def __init__(self, st: State, player: int, remembered: frozenset = frozenset()):
        self.st = st
        self.player = player
        self.remembered = remembered  # hidden components whose faces the player remembers: kept as they are
        self._plan = None
        self._made_for = None  # (pending, decisions made, rows) of the state the plan was made for

    def sample(self, rng: random.Random) -> State:
        st, player = self.st, self.player
        made_for = self._made_for
        if (made_for is None or made_for[0] is not st.pending or made_for[1] != len(st.history)
                or made_for[2] is not st.static):
            self._plan = _plan(st, player, self.remembered)
            self._made_for = (st.pending, len(st.history), st.static)
        s = st.clone()
        s.history = []  # the real decisions include other players' secret answers
        s.track = False  # a search's sample: nobody's memory is kept from it
        if self._plan is not None:
            _deal(s, self._plan, rng)
        s.rng = srng.seed_state(rng.getrandbits(64))
        _reset_secret_pvars(s, player)
        if s.pending is not None and not s.over:
            _redraw_pending(s, st.pending, player, rng)
        return s


class Memory:
    """What one player remembers of the faces it has seen: a player with
    perfect recall, as board-game players are assumed to be (the rules may
    forbid looking again, not remembering).

    ``observe(st, player)`` is called at each of the player's decisions
    (``Decision.remember``): every component whose face the player sees then
    is noted with its face (fixed row, changing properties that are not
    public) and how often it had been mixed out of the player's sight
    (``interpreter.ops.lost_count``). It returns the components hidden now
    whose faces the player still knows: seen before and not mixed since
    (shuffled, put at a random place, taken out of an unordered zone the
    player cannot see into among look-alikes), with the face it saw. A
    determinization keeps those as they are and re-deals the rest.

    The memory follows one game (a new seed or a shorter history starts it
    afresh), and remembers nothing when the game does not keep count of
    what players lose track of (``Game.new(track=False)``)."""

    __slots__ = ("seen", "_game")

    def __init__(self):
        self.seen: dict[int, tuple] = {}  # component -> (fixed row, hidden changing properties, lost count)
        self._game = None

    def observe(self, st: State, player: int) -> frozenset:
        if not st.track:
            return frozenset()
        game = (st.seed, st.n, st.cat)
        if self._game is None or self._game[0] != game or self._game[1] > len(st.history):
            self.seen = {}
        self._game = (game, len(st.history))
        seen = self.seen
        static = st.static
        remembered = []
        for c in range(len(static)):
            if _back_key(st, c) is None:
                continue  # board spaces are never re-drawn
            face = (static[c], _hidden_props(st, c), lost_count(st, player, c))
            if can_see(st, c, player):
                seen[c] = face
            elif seen.get(c) == face:
                remembered.append(c)
            elif c in seen:
                del seen[c]  # mixed since, or its hidden face changed where the player could not see
        return frozenset(remembered)


def _hidden_props(st: State, c: int) -> tuple | None:
    """The changing properties of ``c`` that its back does not show."""
    p = st.props[c]
    if not p:
        return None
    t = st.cat.types[c] if c < st.cat.n else st.static[c].get("type")
    public = st.prog.comp_types[t].public
    return tuple(sorted((k, repr(v)) for k, v in p.items() if k not in public))


def hidden_groups(st: State, player: int, remembered=frozenset()) -> list[list[int]]:
    """The components ``player`` cannot see, grouped by what their backs show
    of the card itself (type, public fixed properties); only groups of two
    or more, whose identities can be exchanged. Sorted, so deterministic.
    Components in ``remembered`` (faces the player saw and could follow
    since: ``Memory``) count as seen."""
    static = st.static
    face = st.face
    known = st.known
    loc = st.loc
    zone_sees: dict[int, bool] = {}  # zone -> whether player sees the face-down components in it
    groups: dict[tuple, list[int]] = {}
    for c in range(len(static)):
        if face[c] or c in remembered:
            continue  # ops.can_see, with the zone's answer computed once per zone
        if player is not None:
            k = known.get(c)
            if k and player in k:
                continue
            z = loc[c]
            if z != BOX:
                sees = zone_sees.get(z)
                if sees is None:
                    fam = st.prog.families[zone_family(st, z)]
                    sees = zone_sees[z] = fam.visibility == "owner" and zone_owner(st, z) == player
                if sees:
                    continue
        row = static[c]  # _back_key's cache read here: this loop runs for every hidden card of every sample
        hit = _BACK_KEYS.get(id(row))
        key = hit[1] if hit is not None and hit[0] is row else _back_key(st, c)
        if key is not None:
            groups.setdefault(key, []).append(c)
    return [g for g in groups.values() if len(g) > 1]


def _back_key(st: State, c: int) -> tuple | None:
    """What a component's back shows of the card itself: its type and public
    fixed properties (None for board spaces, which are never re-drawn)."""
    row = st.static[c]

    def compute():
        t = st.cat.types[c] if c < st.cat.n else row.get("type")
        ct = st.prog.comp_types.get(t)
        if ct is None or ct.board:
            return None
        return (t,) + tuple(_freeze(row.get(p)) for p in ct.public if p in ct.static or p in row)

    return per_row(_BACK_KEYS, row, compute)



# id(static row) -> (row, value): the back key and the face key of each row
_BACK_KEYS: dict[int, tuple] = {}
_ROW_KEYS: dict[int, tuple] = {}


def exchange_unseen(st: State, players, rng: random.Random, keep=()) -> State:
    """A clone of ``st`` in which the components that none of ``players`` can
    see exchange identities at random within their groups (as
    ``determinize`` deals them), and nothing else changes: the same chance,
    the same pending decision. None of ``players`` can tell it from ``st``.
    Used to check that the rules' flow (who is asked next) never depends on
    what the players who watch it cannot see. Components in ``keep`` keep
    their identities (those the rules are about to show the players)."""
    from rulebook.interpreter.ops import can_see

    s = st.clone()
    groups: dict[tuple, list[int]] = {}
    for c in range(len(s.static)):
        if c in keep or any(can_see(s, c, p) for p in players):
            continue
        key = _back_key(s, c)
        if key is not None:
            groups.setdefault(key, []).append(c)
    _deal_identities(s, [g for g in groups.values() if len(g) > 1], rng)
    return s


def _deal_identities(s: State, groups: list[list[int]], rng: random.Random) -> None:
    """Deal the identities (fixed row, hidden changing properties) of each
    group's components out again at random."""
    _deal(s, _faces(s, groups), rng)


def _plan(st: State, player: int, remembered=frozenset()) -> tuple | None:
    """What every sample of ``st`` for ``player`` deals: its hidden groups
    with their faces in canonical order (None when nothing can be dealt)."""
    groups = hidden_groups(st, player, remembered)
    return _faces(st, groups) if groups else None


def _faces(st: State, groups: list[list[int]]) -> tuple:
    """Each group's components with their identities, the identities in
    canonical order: (ids, [(row, hidden changing properties, where the row
    was), ...]) for each group; the columns the rows were read from (None
    when they are not the state's rows'), and which of them dealing keeps."""
    prog = st.prog
    cat = st.cat
    static = st.static
    props = st.props
    dealt = []
    for ids in groups:
        c0 = ids[0]
        t = cat.types[c0] if c0 < cat.n else static[c0].get("type")
        public = set(prog.comp_types[t].public)
        faces = []
        for c in ids:
            hidden_props = {k: v for k, v in props[c].items() if k not in public} if props[c] else None
            faces.append((static[c], hidden_props, c))
        # canonical order first, so the sample depends on the multiset of hidden faces
        # and on ``rng`` only, not on where the real faces happen to lie
        keys = [_face_key(face[:2]) for face in faces]
        order = sorted(range(len(faces)), key=keys.__getitem__)  # stable: as sorting the faces
        dealt.append((ids, [faces[i] for i in order]))
    columns = cat.columns if getattr(cat.columns, "rows", None) is static else None
    return dealt, columns, _Kept(columns, groups) if columns is not None else None


class _Kept(dict):
    """Column name -> whether dealing the groups' rows leaves the column as
    it is (every group has one value there: a public fixed property, one
    shared by the whole group), worked out once per plan for all its samples."""

    def __init__(self, columns, groups: list[list[int]]):
        super().__init__()
        self.columns, self.groups = columns, groups
        self.shared: dict = {}  # the kept columns read so far: a new sample starts with them

    def __missing__(self, name):
        column = self.columns[name]
        kept = self[name] = all(_same(column[c], column[ids[0]]) for ids in self.groups for c in ids)
        if kept:
            self.shared[name] = column
        return kept


def _same(a, b) -> bool:
    return a is b or (type(a) is type(b) and a == b)


def _deal(s: State, plan: tuple, rng: random.Random) -> None:
    """Shuffle each group's faces and deal them to its components: the sample
    gets its own row list (the catalogue's is shared by every game) and
    columns of those rows, read from the columns of the rows they came
    from (a row dealt to component ``c`` from ``k`` gives column[k])."""
    groups, columns, kept = plan
    static = list(s.static)
    props = s.props  # the clone's own dicts
    where = list(range(len(static))) if columns is not None else None
    shuffle = rng.shuffle
    for ids, faces in groups:
        faces = faces[:]
        shuffle(faces)
        for c, (row, hidden_props, k) in zip(ids, faces):
            static[c] = row
            if hidden_props is not None:
                props[c].update(hidden_props)  # the clone's own dict: public changing properties stay in place
            if where is not None:
                where[c] = k
    s.static = static
    if s.index:  # hidden changing properties dealt anew: the indexes of properties made again
        s.index = indexes.build(s)
    # compiled rules read fixed properties by column (interpreter.program.Catalog.columns):
    # the sample's catalogue is the same but for columns read from its own rows
    cat = s.cat = _shallow_copy(s.cat)
    cat.columns = Columns(static, columns, where, kept)
    if kept is not None:
        cat.columns.update(kept.shared)


def _shallow_copy(obj):
    """``copy.copy`` of a plain object (the catalogue), without its generic protocol."""
    new = object.__new__(obj.__class__)
    new.__dict__.update(obj.__dict__)
    return new


def _face_key(face) -> str:
    row, hidden_props = face
    if hidden_props is None:  # the common case: a catalogue row, the same object game after game
        hit = _ROW_KEYS.get(id(row))
        if hit is not None and hit[0] is row:
            return hit[1]
        return per_row(_ROW_KEYS, row, lambda: json.dumps(face, sort_keys=True, default=str))
    return json.dumps(face, sort_keys=True, default=str)


def _freeze(v):
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    return v


def _reset_secret_pvars(s: State, player: int) -> None:
    secret = s.prog.secret_pvars
    if not secret:
        return
    saved = s.current
    for q in range(s.n):
        if q == player:
            continue
        s.current = q
        for name in secret:
            init = s.prog.pvars.get(name)
            try:
                s.pvars[q][name] = init(s) if init is not None else None
            except Exception:  # an initial value that needs the game's start: nothing honest to keep
                s.pvars[q][name] = None
    s.current = saved


def _redraw_pending(s: State, real: dict, player: int, rng: random.Random) -> None:
    """Ask the pending question again in the re-drawn state; keep the
    player's own part; re-draw the secret answers others already gave."""
    fr = s.stack[-1] if s.stack else None
    fresh = None
    if fr is not None and fr[1] > 0:
        saved_locals, saved_pc = fr[2][:], fr[1]
        try:
            fresh = reask(s)
        except Exception:  # the sample cannot even ask the question: fall back below
            fresh = None
        if fresh is None or fresh.get("players") != real["players"] or fresh.get("kind") != real["kind"]:
            fresh = None
            fr[2][:] = saved_locals
            fr[1] = saved_pc
    if fresh is None:
        fresh = _relabelled(s, real, player)
    options = list(fresh["options"])
    labels = list(fresh["labels"]) if fresh.get("labels") is not None else None
    prompts = list(fresh["prompts"]) if fresh.get("prompts") is not None else None
    answers = list(real["answers"])
    for i, q in enumerate(real["players"]):
        if q == player:
            options[i] = real["options"][i]
            if labels is not None:
                labels[i] = real["labels"][i] if real.get("labels") else _labels(s, real, real["options"][i])
            if prompts is not None and real.get("prompts"):
                prompts[i] = real["prompts"][i]
        elif real["done"][i] and not real.get("public"):  # a public answer is known to all: kept
            answers[i] = options[i][rng.randrange(len(options[i]))]
    pend = dict(fresh, options=options, answers=answers, done=list(real["done"]))
    if labels is not None:
        pend["labels"] = labels
    if prompts is not None:
        pend["prompts"] = prompts
    if "prompt" in real and (real["kind"] == "simul" or player in real["players"]):
        pend["prompt"] = real["prompt"]  # shared text, or the player's own question
    s.pending = pend


def _relabelled(s: State, real: dict, player: int) -> dict:
    """The real pending decision with other players' labels recomputed from
    the sample (used only when the question cannot be asked again)."""
    pend = dict(real)
    if real.get("labels"):
        pend["labels"] = [
            real["labels"][i] if q == player else _labels(s, real, real["options"][i])
            for i, q in enumerate(real["players"])
        ]
    return pend


def _labels(s: State, pend: dict, options: list) -> list[str]:
    from rulebook.interpreter.options import option_label

    return [option_label(s, pend, v) for v in options]
