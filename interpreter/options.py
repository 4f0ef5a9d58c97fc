"""The options of one pending decision, as one object: ``Game.options``.

A decision has one space of options, numbered 0.. in a stable order, as
OpenSpiel has one action id space and python-chess one list of legal moves.
``Options`` is that list for one player: a read-only sequence of ``Option``
with their labels, their values, a lookup by value (for replays, which
record values) and, for a turn whose actions are staged, ``flat``: every
whole action at once. ``Game.apply`` takes one of these ``Option`` (or its
index) and checks that it belongs to the decision being asked.

Labels and option objects are made on first use: a random playout asks only
``len(options)`` and applies an index, and must not pay for labels.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from typing import Any

from rulebook.interpreter import ops
from rulebook.interpreter.errors import IllegalOptionError
from rulebook.interpreter.labels import back_name, chosen_words, comp_names, describe, player_name
from rulebook.interpreter.program import Type
from rulebook.interpreter.state import State
from rulebook.interpreter.zones import zone_shows


class Option:
    """One legal option: its index in its ``Options``, its value as the
    chooser may see it (a face-down component it cannot see is
    ``{"hidden": True, "index": k}``) and its label. ``whole`` marks an
    option of ``Options.flat`` (a whole staged action). ``_source`` ties the
    option to the decision that listed it, so that ``Game.apply`` can refuse
    one taken from another decision; it is not part of the option's value.

    A plain class with slots, not a frozen dataclass: every decision makes
    one per option, and a frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``. Treat it as read-only."""

    __slots__ = ("index", "value", "label", "whole", "_source")

    def __init__(self, index: int, value: Any, label: str, whole: bool = False, _source: Any = None):
        self.index, self.value, self.label, self.whole, self._source = index, value, label, whole, _source

    def _key(self) -> tuple:
        return (self.index, self.value, self.label, self.whole)

    def __eq__(self, other) -> bool:
        return type(other) is Option and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.index, self.label, self.whole))

    def __repr__(self) -> str:
        return f"Option(index={self.index!r}, value={self.value!r}, label={self.label!r})"


class Options(Sequence):
    """The legal options of ``player`` at the pending decision, in order.

    ``len``, indexing and iteration give ``Option`` objects; ``labels`` and
    ``values`` are the same options' labels and (chooser's) values;
    ``plain`` the engine's own values, as the history records them (the
    engine's tools and replays: an agent reads ``Option.value``, which
    hides what it cannot see); ``index_of``/``by_value`` find an option by
    its plain value; ``staged`` and ``flat`` tell and give the whole
    options of a staged action. Labels are made on first use, from the
    state as it is then: read them before the next ``apply``."""

    __slots__ = ("player", "_st", "_pend", "_slot", "_plain", "_whole", "_labels", "_items", "_hidden")

    def __init__(self, st: State, player: int, slot: int, plain: list, whole: bool = False):
        self.player = player
        self._st = st
        self._pend = st.pending
        self._slot = slot
        self._plain = plain  # the pending decision's own list: read, never changed
        self._whole = whole
        self._labels: list[str] | None = None
        self._items: list[Option] | None = None
        self._hidden: list[int] | None = None

    # ------------------------------------------------------------ the sequence
    def __len__(self) -> int:
        return len(self._plain)

    def __getitem__(self, k):
        return self._all()[k]

    def __iter__(self) -> Iterator[Option]:
        return iter(self._all())

    def __repr__(self) -> str:
        return f"Options(player={self.player}, {self.labels!r})"

    def _all(self) -> list[Option]:
        if self._items is None:
            plain, labels, source, whole = self._plain, self.labels, self._plain, self._whole
            items = [Option(k, v, label, whole, source) for k, (v, label) in enumerate(zip(plain, labels, strict=True))]
            for k in self._hidden_ones():  # a face-down component the chooser cannot see: its back only
                items[k] = Option(k, {"hidden": True, "index": k}, labels[k], False, source)
            self._items = items
        return self._items

    # ------------------------------------------------------------ what they say
    @property
    def labels(self) -> list[str]:
        """The label of each option, in order (a search agent keys its
        statistics by them): made once, without the ``Option`` objects."""
        if self._labels is None:
            st, pend = self._st, self._pend
            if self._whole:
                self._labels = [option_label(st, pend, v) for v in self._plain]
            else:
                out = slot_labels(st, pend, self._slot)
                for k in self._hidden_ones():
                    out[k] = back_name(st, self._plain[k])
                self._labels = out
        return list(self._labels)

    def _hidden_ones(self) -> list[int]:
        """The options the chooser may not identify. Whole options (``flat``)
        are not masked: they name every parameter, as they always did."""
        if self._hidden is None:
            self._hidden = [] if self._whole else hidden_options(self._st, self._pend, self._slot, self.player)
        return self._hidden

    @property
    def values(self) -> list:
        """Each option's value as the chooser may see it (``Option.value``)."""
        return [o.value for o in self._all()]

    @property
    def plain(self) -> tuple:
        """The engine's values, hidden components included: what
        ``Game.apply`` records in the history and replays look up."""
        return tuple(self._plain)

    def index_of(self, value) -> int:
        """The index of the option whose plain value is ``value``."""
        try:
            return self._plain.index(value)
        except ValueError:
            who = player_name(self._st, self.player)
            raise IllegalOptionError(f"{value!r} is not a legal option for {who}") from None

    def by_value(self, value) -> Option:
        """The option whose plain value is ``value`` (a replay's record)."""
        return self._all()[self.index_of(value)]

    # ------------------------------------------------------------ staged actions
    @property
    def staged(self) -> bool:
        """Whether this decision is a stage of a turn with staged actions
        (``staged: true``): each option is an action's next parameter."""
        return not self._whole and self._pend.get("flat") is not None

    @property
    def flat(self) -> Options:
        """The whole options: for a staged decision every combination of the
        actions' parameters, as if they were not staged (``Game.apply`` of one
        answers each stage in turn); for any other decision, these options."""
        if not self.staged:
            return self
        return Options(self._st, self.player, self._slot, self._pend["flat"], whole=True)


def is_from(option: Option, pend: dict, slot: int) -> bool:
    """Whether ``option`` was listed by this pending decision for this slot
    (or, a whole option, by its staged turn), not by an earlier one."""
    source = pend.get("flat") if option.whole else pend["options"][slot]
    return source is not None and option._source is source


# ------------------------------------------------------------ labels
def slot_labels(st: State, pend: dict, i: int) -> list[str]:
    """The label of each option of slot ``i``: the rules' own, else ``option_label``'s."""
    labels = pend.get("labels")
    if labels:
        return list(labels[i])
    values = pend["options"][i]
    if pend["kind"] != "action":  # option_label, its type read once
        t = tag_type(pend.get("type", "any"))
        if t.kind == "comp":  # describe's answer for a component, without the call
            return comp_names(st, values, t)
        return ["pass" if v is None else describe(st, v, t) for v in values]
    return [option_label(st, pend, v) for v in values]


def option_label(st: State, pend: dict, value) -> str:
    """The label of one option value of the pending decision ``pend``."""
    if pend["kind"] != "action":
        if value is None:
            return "pass"
        return describe(st, value, tag_type(pend.get("type", "any")))
    ai, args = value
    act = st.prog.actions[ai]
    if len(args) < len(act.params):  # a staged action's first parameters: the rest is asked next
        return f"{act.name} {chosen_words(st, act, args)} ..."
    if act.label:
        try:
            return act.label(st, st.current, *args)
        except Exception:  # a broken label must not hide the option
            pass
    if not args:
        return act.name
    return act.name + " " + ", ".join(describe(st, v, t) for v, t in zip(args, act.param_types or [None] * len(args)))


@functools.lru_cache(maxsize=256)
def tag_type(tag: str) -> Type:
    """The type a pending decision's ``type`` tag names (cached: asked at every decision)."""
    from rulebook.validator.types import tag_type as parse

    return parse(tag)


def hidden_options(st: State, pend: dict, i: int, player: int) -> list[int]:
    """Indexes of options that are components the chooser cannot see. A
    type that declares ``public`` properties (pieces whose backs show
    something) names its face-down components through its own label, which
    must use only those; other face-down components are offered unnamed."""
    can_see = ops.can_see
    if pend.get("type") == "action":
        out = []
        for k, (ai, args) in enumerate(pend["options"][i]):
            types = st.prog.actions[ai].param_types
            if any(
                getattr(t, "kind", None) == "comp" and isinstance(v, int) and not can_see(st, v, player)
                for v, t in zip(args, types)
            ):
                out.append(k)
        return out
    if pend.get("type") != "comp":
        return []
    # can_see for each option, the zone's part asked once per zone (zones.zone_shows), and
    # what the chooser knows of a component only where its zone hides it
    face, known, loc = st.face, st.known, st.loc
    n = len(face)
    zone_sees: dict = {}
    out = []
    for k, v in enumerate(pend["options"][i]):
        if v.__class__ is not int or not 0 <= v < n or face[v]:  # (a bool is not a component)
            continue
        z = loc[v]
        sees = zone_sees.get(z)
        if sees is None:
            sees = zone_sees[z] = zone_shows(st, z, player)
        if sees:
            continue
        who = known.get(v) if player is not None else None
        if not (who and player in who):
            out.append(k)
    return out
