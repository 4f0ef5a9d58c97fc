"""Variants as overlays: apply a variant's JSON Merge Patch (RFC 7396) to the
ruleset, carrying source positions along so that diagnostics in patched
rule text still point into the variant's own lines."""

from __future__ import annotations

import copy
import re

from rulebook.validator.diagnostics import Diagnostic, did_you_mean
from rulebook.validator.loader import Document, path_str
from rulebook.validator.values import literal


def check_declarations(doc: Document) -> list[Diagnostic]:
    """Every variant named in 'requires' or 'excludes' exists; every
    parameter a variant sets exists and keeps its type."""
    variants = doc.data.get("variants") or {}
    params = doc.data.get("params") or {}
    out = _requires_cycles(doc, variants)
    for name, spec in variants.items():
        for field in ("requires", "excludes"):
            for i, other in enumerate(spec.get(field) or []):
                if other not in variants:
                    out.append(
                        doc.diag(
                            "E035",
                            f"unknown variant '{other}' in {field} of '{name}'",
                            ("variants", name, field, i),
                            did_you_mean(str(other), variants),
                        )
                    )
        for k, v in (spec.get("params") or {}).items():
            if k not in params:
                out.append(
                    doc.diag(
                        "E036",
                        f"variant '{name}' sets unknown parameter '{k}'",
                        ("variants", name, "params", k),
                        did_you_mean(k, params),
                        key=True,
                    )
                )
                continue
            default = params[k].get("default") if isinstance(params[k], dict) else params[k]
            if default is not None and v is not None and _kind(v) != _kind(default):
                out.append(
                    doc.diag(
                        "E063",
                        f"variant '{name}' sets parameter '{k}' to {literal(v)}, "
                        f"but it is {_kind(default)} (default {literal(default)})",
                        ("variants", name, "params", k),
                    )
                )
            choices = params[k].get("choices") if isinstance(params[k], dict) else None
            if choices and v not in choices:
                out.append(
                    doc.diag(
                        "E063",
                        f"variant '{name}' sets parameter '{k}' to {literal(v)}, not one of {literal(choices)}",
                        ("variants", name, "params", k),
                    )
                )
    return out


def _requires_cycles(doc: Document, variants: dict) -> list[Diagnostic]:
    """One E061 per circle of 'requires' (a variant that needs itself, directly
    or through others): such variants can only ever be chosen all together,
    which is one variant written as several, and almost always a slip."""
    import networkx as nx

    g = nx.DiGraph()
    for name, spec in variants.items():
        g.add_node(name)
        for other in spec.get("requires") or []:
            if other in variants:
                g.add_edge(name, other)
    out = []
    for group in nx.strongly_connected_components(g):
        first = next(n for n in variants if n in group)
        if len(group) == 1 and not g.has_edge(first, first):
            continue
        requires = variants[first].get("requires") or []
        i, nxt = next((i, o) for i, o in enumerate(requires) if o in group)
        circle = [first] + nx.shortest_path(g.subgraph(group), nxt, first)
        if len(circle) == 2:
            message = f"variant '{first}' requires itself"
            hint = f"remove '{first}' from its own requires"
        else:
            message = f"variants require each other in a circle: {' -> '.join(circle)}"
            hint = "variants that always go together are one variant: merge them, or drop one of the requires"
        out.append(doc.diag("E061", message, ("variants", first, "requires", i), hint))
    return out


def with_requirements(variants: dict, name: str) -> tuple[str, ...]:
    """``name`` with every variant it requires, directly or through others,
    each once and before the variants that need it (the order ``apply``
    wants). Unknown names are left out (E035) and circles are cut (E061)."""
    order: list[str] = []
    seen: set[str] = set()

    def visit(n: str) -> None:
        if n in seen or n not in variants:
            return
        seen.add(n)
        for other in (variants[n] or {}).get("requires") or []:
            visit(other)
        order.append(n)

    visit(name)
    return tuple(order)


def _kind(v) -> str:
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, float):
        return "a fraction"
    if isinstance(v, int):
        return "a number"
    if isinstance(v, str):
        return "text"
    if isinstance(v, list):
        return "a list"
    return "a mapping" if isinstance(v, dict) else type(v).__name__


def check_selection(doc: Document, names: tuple[str, ...]) -> list[Diagnostic]:
    variants = doc.data.get("variants") or {}
    out = []
    for name in names:
        if name not in variants:
            out.append(
                Diagnostic(
                    "E035",
                    f"unknown variant '{name}'",
                    doc.file,
                    1,
                    1,
                    did_you_mean(name, variants)
                    or (f"variants: {', '.join(variants)}" if variants else "this ruleset has no variants"),
                )
            )
    if out:
        return out
    for name in names:
        spec = variants[name]
        for i, other in enumerate(spec.get("excludes") or []):
            if other in names:
                line, col = doc.where(("variants", name, "excludes", i))
                out.append(
                    Diagnostic("E061", f"variants '{name}' and '{other}' cannot be combined", doc.file, line, col)
                )
        for i, other in enumerate(spec.get("requires") or []):
            if other not in names:
                line, col = doc.where(("variants", name, "requires", i))
                out.append(
                    Diagnostic(
                        "E061",
                        f"variant '{name}' needs variant '{other}'",
                        doc.file,
                        line,
                        col,
                        f"add --variant {other}",
                    )
                )
    return out


def apply(doc: Document, names: tuple[str, ...], notes: list[Diagnostic] | None = None) -> Document:
    """A new document: the base with each named variant applied in order.
    Patch entries that change nothing (W107) are added to ``notes`` if given."""
    if not names:
        return doc
    out = Document(
        doc.file, doc.source, copy.deepcopy(doc.data), dict(doc.positions), dict(doc.key_positions), dict(doc.spans)
    )
    for name in names:
        spec = doc.data["variants"][name]
        base = ("variants", name)
        if spec.get("patch"):
            out.data = _merge(out, out.data, spec["patch"], (), base + ("patch",), doc, notes)
            if isinstance(spec["patch"].get("players"), dict):
                _players_from(out, doc, base + ("patch", "players"))
        if spec.get("params"):
            params = out.data.setdefault("params", {})
            for k, v in spec["params"].items():
                if k not in params:
                    continue  # reported by check_params
                if isinstance(params[k], dict):
                    params[k] = dict(params[k], default=v)
                else:
                    params[k] = v
        if spec.get("players"):
            out.data["players"] = dict(out.data.get("players", {}), **spec["players"])
            _players_from(out, doc, base + ("players",))
    return out


def _players_from(out: Document, src: Document, vpath: tuple) -> None:
    """The variant at ``vpath`` changed the player range: point every bound
    at its lines. A range that no longer holds (E062) is the variant's doing,
    and the variant's line is the one its author has to change."""
    if vpath not in src.positions:
        return
    for k in ("min", "max", "default"):
        where = src.positions.get(vpath + (k,), src.positions[vpath])
        out.positions[("players", k)] = where
        out.key_positions[("players", k)] = src.key_positions.get(vpath + (k,), where)


def _merge(out: Document, target, patch, tpath, ppath, src: Document, notes: list[Diagnostic] | None = None):
    if not isinstance(patch, dict):
        _copy_positions(out, src, ppath, tpath)
        return copy.deepcopy(patch)
    existed = isinstance(target, dict)
    if not existed:
        _drop_positions(out, tpath)  # a value replaced by a mapping: forget where the old one was
        target = {}
    else:
        target = dict(target)
    if ppath in src.positions:
        out.positions[tpath] = src.positions[ppath]
    for key, value in patch.items():
        if value is None:
            if key not in target and notes is not None:
                notes.append(_removes_nothing(src, ppath, tpath, key, target if existed else None))
            target.pop(key, None)
            continue
        if key not in target and notes is not None and existed:
            note = _added_next_to(src, ppath, tpath, key, target)
            if note is not None:
                notes.append(note)
        target[key] = _merge(out, target.get(key), value, tpath + (key,), ppath + (key,), src, notes)
        if (ppath + (key,)) in src.key_positions:
            out.key_positions[tpath + (key,)] = src.key_positions[ppath + (key,)]
    return target


def _note(src: Document, ppath: tuple, key, message: str, hint: str | None) -> Diagnostic:
    """W107 at the patch entry's own key, where the author wrote it."""
    line, col = src.where(ppath + (key,), key=True)
    return Diagnostic("W107", message, src.file, line, col, hint, path_str(ppath + (key,)), len(str(key)))


def _removes_nothing(src: Document, ppath: tuple, tpath: tuple, key, target: dict | None) -> Diagnostic:
    """A ``key: null`` whose key is not there: the removal does nothing, so
    the rule the author meant to drop is still in force."""
    name = ppath[1]
    where = path_str(tpath + (key,))
    if target is None:
        hint = f"the ruleset has no '{path_str(tpath)}'" if tpath else None
    else:
        hint = did_you_mean(str(key), [str(k) for k in target]) or (
            f"'{path_str(tpath)}' has: {', '.join(map(str, list(target)[:8]))}{', ...' if len(target) > 8 else ''}"
            if tpath and target
            else None
        )
    return _note(src, ppath, key, f"variant '{name}' removes '{where}', which is not there: this changes nothing", hint)


def _added_next_to(src: Document, ppath: tuple, tpath: tuple, key, target: dict) -> Diagnostic | None:
    """A new key one slip away from an existing one (``gaol`` next to
    ``goal``), and named nowhere else in the ruleset: almost surely a
    misspelt key, so the patch adds an entry nobody reads and leaves the
    one it meant to change as it was. A new name that other rules use, or
    that differs only in digits (``round2`` next to ``round1``), is taken
    as meant."""
    if not isinstance(key, str) or len(key) < 3:
        return None
    near = [k for k in target if isinstance(k, str) and _slip(key, k)]
    if not near or _named_elsewhere(src.data, key, ppath + (key,)):
        return None
    name = ppath[1]
    return _note(
        src,
        ppath,
        key,
        f"variant '{name}' adds a new '{path_str(tpath + (key,))}' and leaves '{near[0]}' as it was",
        f"did you mean '{near[0]}'? a patch merges by name, so a new name adds an entry",
    )


def _slip(a: str, b: str) -> bool:
    """One typing slip apart (a letter added, dropped, changed or two letters
    swapped; two slips in long names), not counting names told apart by digits."""
    if re.sub(r"\d", "", a) == re.sub(r"\d", "", b):
        return False
    limit = 2 if min(len(a), len(b)) >= 8 else 1
    if abs(len(a) - len(b)) > limit:
        return False
    # optimal string alignment distance (Damerau-Levenshtein without repeated edits)
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1] <= limit


def _named_elsewhere(data, word: str, skip: tuple, path: tuple = ()) -> bool:
    """Whether ``word`` appears as a name in any text of the document outside
    the subtree at ``skip`` (the patch entry itself)."""
    if path == skip:
        return False
    if isinstance(data, str):
        return re.search(rf"(?<![A-Za-z0-9_]){re.escape(word)}(?![A-Za-z0-9_])", data) is not None
    if isinstance(data, dict):
        return any(_named_elsewhere(v, word, skip, path + (k,)) for k, v in data.items())
    if isinstance(data, list):
        return any(_named_elsewhere(v, word, skip, path + (i,)) for i, v in enumerate(data))
    return False


def _drop_positions(out: Document, tpath):
    for table_name in ("positions", "key_positions", "spans"):
        dst = getattr(out, table_name)
        for path in [p for p in dst if p[: len(tpath)] == tpath]:
            del dst[path]


def _copy_positions(out: Document, src: Document, ppath, tpath):
    n = len(ppath)
    for table_name in ("positions", "key_positions", "spans"):
        dst = getattr(out, table_name)
        for path in [p for p in dst if p[: len(tpath)] == tpath]:
            del dst[path]
        for path, value in getattr(src, table_name).items():
            if path[:n] == ppath:
                dst[tpath + path[n:]] = value
