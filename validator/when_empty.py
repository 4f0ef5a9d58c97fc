"""A zone's ``when_empty``: what a ``draw`` or ``deal`` from it does when
the zone is empty and a component is still wanted (docs/format.md, zones).

The schema has already checked its shape (``nothing``, ``error``, or a
mapping with ``refill_from`` and an optional ``shuffle``); what is checked
here needs every zone family: the refill zone exists, is another family,
and can be found from the empty zone alone while the game runs (a shared
zone, or a zone kept per the same thing, whose key is the empty zone's).
"""

from __future__ import annotations

from collections.abc import Callable

from rulebook.validator.diagnostics import did_you_mean


def checked_when_empty(name: str, value, families: dict, report: Callable) -> str | dict | None:
    """The ``when_empty`` of zone family ``name`` as the runtime reads it:
    None (not declared), ``"nothing"``, ``"error"``, or ``{"refill_from":
    family, "shuffle": bool}``. ``families`` maps each declared family to
    its ``per`` (None, "player" or a component type); ``report(code,
    message, path, hint=..., length=...)`` takes each mistake, and a refill with a
    mistake is read as not declared."""
    if not isinstance(value, dict):
        return value if value in ("nothing", "error") else None
    refill = value.get("refill_from")
    path = ("zones", name, "when_empty", "refill_from")
    if refill not in families:
        report("E031", f"unknown zone '{refill}': zone '{name}' cannot be refilled from it", path,
               hint=did_you_mean(str(refill), [f for f in families if f != name]), length=len(str(refill)))
        return None
    if refill == name:
        report("E014", f"zone '{name}' cannot be refilled from itself", path,
               hint="name the zone whose components refill it, such as a discard pile", length=len(refill))
        return None
    per, refill_per = families[name], families[refill]
    if refill_per is not None and refill_per != per:
        whose = "one shared zone" if per is None else f"kept one per {per}"
        report("E014", f"zone '{name}' is {whose}, so it cannot be refilled from '{refill}', kept one per "
                       f"{refill_per}: nothing says whose '{refill}' to take", path,
               hint="refill from a shared zone, or from a zone kept per the same thing (the same player's)",
               length=len(refill))
        return None
    return {"refill_from": refill, "shuffle": bool(value.get("shuffle", False))}
