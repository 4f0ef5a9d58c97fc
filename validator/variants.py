"""Variants as overlays: apply a variant's JSON Merge Patch (RFC 7396) to the
ruleset, carrying source positions along so that diagnostics in patched
rule text still point into the variant's own lines."""
from __future__ import annotations

import copy

from validator.diagnostics import Diagnostic, did_you_mean
from validator.loader import Document


def check_selection(doc: Document, names: tuple[str, ...]) -> list[Diagnostic]:
    variants = doc.data.get("variants") or {}
    out = []
    for name in names:
        if name not in variants:
            out.append(Diagnostic("E035", f"unknown variant '{name}'", doc.file, 1, 1,
                                  did_you_mean(name, variants) or
                                  (f"variants: {', '.join(variants)}" if variants else "this ruleset has no variants")))
    if out:
        return out
    for name in names:
        spec = variants[name]
        for other in spec.get("excludes") or []:
            if other in names:
                line, col = doc.where(("variants", name, "excludes"))
                out.append(Diagnostic("E061", f"variants '{name}' and '{other}' cannot be combined", doc.file, line, col))
        for other in spec.get("requires") or []:
            if other not in names:
                line, col = doc.where(("variants", name, "requires"))
                out.append(Diagnostic("E061", f"variant '{name}' needs variant '{other}'", doc.file, line, col,
                                      f"add --variant {other}"))
    return out


def apply(doc: Document, names: tuple[str, ...]) -> Document:
    """A new document: the base with each named variant applied in order."""
    if not names:
        return doc
    out = Document(doc.file, doc.source, copy.deepcopy(doc.data), dict(doc.positions),
                   dict(doc.key_positions), dict(doc.spans))
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


def check_params(doc: Document, names) -> list[Diagnostic]:
    params = doc.data.get("params") or {}
    out = []
    for name in names:
        for k in ((doc.data["variants"][name].get("params")) or {}):
            if k not in params:
                out.append(doc.diag("E036", f"variant '{name}' sets unknown parameter '{k}'",
                                    ("variants", name, "params", k), did_you_mean(k, params), key=True))
    return out


def _merge(out: Document, target, patch, tpath, ppath, src: Document):
    if not isinstance(patch, dict):
        _copy_positions(out, src, ppath, tpath)
        return copy.deepcopy(patch)
    if not isinstance(target, dict):
        target = {}
    else:
        target = dict(target)
    for key, value in patch.items():
        if value is None:
            target.pop(key, None)
            continue
        target[key] = _merge(out, target.get(key), value, tpath + (key,), ppath + (key,), src)
        if (ppath + (key,)) in src.key_positions:
            out.key_positions[tpath + (key,)] = src.key_positions[ppath + (key,)]
    return target


def _copy_positions(out: Document, src: Document, ppath, tpath):
    n = len(ppath)
    for table_name in ("positions", "key_positions", "spans"):
        dst = getattr(out, table_name)
        for path in [p for p in dst if p[:len(tpath)] == tpath]:
            del dst[path]
        for path, value in getattr(src, table_name).items():
            if path[:n] == ppath:
                dst[tpath + path[n:]] = value
