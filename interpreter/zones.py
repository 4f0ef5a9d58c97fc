"""Zones: what each zone instance is (its family, whose it is, its name)
and who may see a component in it. Used by the runtime and by everything
that names or shows the table; it imports nothing else of the engine."""

from __future__ import annotations

BOX = -1  # location of a component that is out of the game


def zone_family(st, z: int) -> str:
    """The family of zone instance ``z``: the catalogue's zones, then those
    made in play for created components (``st.extra_zones``)."""
    fams = st.cat.zone_family
    return fams[z] if z < len(fams) else st.extra_zones[z - len(fams)][0]


def zone_key(st, z: int):
    """The player or component a zone instance is kept for (None: a shared zone)."""
    keys = st.cat.zone_key
    return keys[z] if z < len(keys) else st.extra_zones[z - len(keys)][1]


def zone_label(st, z: int) -> str:
    """A zone instance's name in views: ``family`` or ``family[key]``."""
    names = st.cat.zone_names
    if z < len(names):
        return names[z]
    fam, key = st.extra_zones[z - len(names)]
    return f"{fam}[{key}]"


def comp_zone(st, family: str, c) -> int | None:
    """The zone of ``family`` (kept per component) that belongs to component ``c``."""
    z = st.cat.zone_of_comp[family].get(c)
    if z is None and st.extra_zones:
        base = len(st.cat.zone_family)
        for i, (fam, key) in enumerate(st.extra_zones):
            if key == c and fam == family:
                return base + i
    return z


def add_comp_zones(st, c: int, type_name: str) -> None:
    """Give a component created in play its zones of every family kept per
    component of its type, as the catalogue gives those it starts with."""
    for name, fam in st.prog.families.items():
        if fam.per == type_name:
            st.zones.append([])
            st.extra_zones.append([name, c])


def zone_owner(st, z: int):
    """The player who owns zone instance ``z`` (None for shared zones, and
    for none: the zone of a component out of the game)."""
    if z is None:
        return None
    fam = st.prog.families[zone_family(st, z)]
    if fam.per is None:
        return None
    key = zone_key(st, z)
    if fam.per == "player":
        return key
    return st.owner[key]


def can_see(st, c: int, p) -> bool:
    """Whether player ``p`` (None: a spectator) sees component ``c``'s face."""
    if st.face[c]:
        return True
    if p is None:
        return False
    known = st.known.get(c)
    if known and p in known:
        return True
    return zone_shows(st, st.loc[c], p)


def zone_shows(st, z: int, p) -> bool:
    """Whether player ``p`` sees the faces of what lies face down in zone
    ``z`` (its own zone of a family whose visibility is ``owner``)."""
    if z == BOX or p is None:
        return False
    fams = st.cat.zone_family  # zone_family(st, z) written out: called for every component of every view
    fam = st.prog.families[fams[z] if z < len(fams) else st.extra_zones[z - len(fams)][0]]
    return fam.visibility == "owner" and zone_owner(st, z) == p
