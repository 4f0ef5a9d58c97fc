"""Variants as overlays: apply a variant's JSON Merge Patch (RFC 7396) to the
ruleset, carrying source positions along so that diagnostics in patched
rule text still point into the variant's own lines."""

from __future__ import annotations

import copy

from interpreter.labels import literal
from validator.diagnostics import Diagnostic, did_you_mean
from validator.loader import Document


def check_declarations(doc: Document) -> list[Diagnostic]:
    """Every variant named in 'requires' or 'excludes' exists; every
    parameter a variant sets exists and keeps its type."""
    variants = doc.data.get("variants") or {}
    params = doc.data.get("params") or {}
    out = []
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


def apply(doc: Document, names: tuple[str, ...]) -> Document:
    """A new document: the base with each named variant applied in order."""
    if not names:
        return doc
    out = Document(
        doc.file, doc.source, copy.deepcopy(doc.data), dict(doc.positions), dict(doc.key_positions), dict(doc.spans)
    )
    for name in names:
        spec = doc.data["variants"][name]
        base = ("variants", name)
        if spec.get("patch"):
            out.data = _merge(out, out.data, spec["patch"], (), base + ("patch",), doc)
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
    return out


def _merge(out: Document, target, patch, tpath, ppath, src: Document):
    if not isinstance(patch, dict):
        _copy_positions(out, src, ppath, tpath)
        return copy.deepcopy(patch)
    if not isinstance(target, dict):
        _drop_positions(out, tpath)  # a value replaced by a mapping: forget where the old one was
        target = {}
    else:
        target = dict(target)
    if ppath in src.positions:
        out.positions[tpath] = src.positions[ppath]
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
            continue
        target[key] = _merge(out, target.get(key), value, tpath + (key,), ppath + (key,), src)
        if (ppath + (key,)) in src.key_positions:
            out.key_positions[tpath + (key,)] = src.key_positions[ppath + (key,)]
    return target


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
