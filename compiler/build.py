"""From a ruleset file to a running program: check it (``validator``),
write it as Python (``compiler.module``), load it (``compiler.load``).

``compile_path`` and ``compile_text`` give a ``Compiled``: the program (or
None), the report of diagnostics, the document and the phase graph. A
compiled module is kept in the cache (``compiler/cache.py``) by the digest
of the ruleset's text, its variants, the limits and the engine's own code,
so that the next load of the same ruleset skips checking and writing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rulebook.compiler import cache
from rulebook.compiler.load import load_module, program_from
from rulebook.validator.diagnostics import Diagnostic, Report

# The checker, the schema, YAML with positions and the phase graph are imported
# where they are used: a ruleset loaded from the cache needs none of them.


@dataclass
class Compiled:
    program: object | None
    report: Report
    doc: object | None = None  # validator.loader.Document
    graph: object | None = None
    sources: dict = field(default_factory=dict)
    checker: object | None = None


def compile_document(doc, load_diags, selected: tuple[str, ...] = (), limits=None,
                     text: str | None = None, check_only: bool = False) -> Compiled:
    """Check ``doc`` with the variants ``selected``, compile it, and make its
    components once at the smallest and largest player count (the dry run).
    ``check_only``: compile only what the dry run needs (``validate``); the
    result then has no program."""
    from rulebook.validator.pipeline import check_document, unique

    result = check_document(doc, load_diags, selected, limits)
    if result.checked is None:
        return Compiled(None, result.report, result.doc, result.graph, checker=result.checker)
    if check_only:
        from rulebook.compiler.load import start_program_from
        from rulebook.compiler.module import compile_start

        source, lines = compile_start(result.checked)
        start = start_program_from(load_module(source, lines, f"<rulebook start {result.checked.meta['id']}>"))
        report = unique(result.report)
        report.extend(dry_run(start, result.merged))
        return Compiled(None, unique(report), result.doc, result.graph, checker=result.checker)
    program = build_program(result.checked, result.merged)
    program.checker = result.checker
    program.phase_graph = result.graph
    report = result.report
    report.extend(dry_run(program, result.merged))
    report = unique(report)
    if not report.ok:
        return Compiled(None, report, result.doc, result.graph, checker=result.checker)
    return Compiled(program, report, result.doc, result.graph, checker=result.checker)


def build_program(checked, merged=None):
    """The program of a checked ruleset: its module written and loaded."""
    from rulebook.compiler.module import compile_module

    info: dict = {}
    source, lines = compile_module(checked, info)
    meta = checked.meta
    name = f"<rulebook {meta['id'] or 'ruleset'} {meta['digest']}>"
    program = program_from(load_module(source, lines, name))
    program.source = source
    program.compile_info = info
    program.document = merged
    return program


def load_program(path: str | Path, selected: tuple[str, ...] = (), limits=None, native: bool | None = None) -> Compiled:
    """The program of the ruleset at ``path``, from the cache when it holds
    this exact ruleset (text, variants, limits, engine), else compiled and
    cached. A program from the cache has no checker and no report: tools
    that need them (validate, scenarios) use ``compile_path``. ``native``
    (default: ``$RULEBOOK_NATIVE``): the module built as native code
    (``compiler.native``; raises ``NativeError`` when it cannot be)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return compile_path(path, selected, limits)

    def load():
        from rulebook.validator.loader import load_file

        return load_file(path)

    return _native(_cached(text, str(path), tuple(selected), limits, load), native)


def load_text_program(text: str, file: str, selected: tuple[str, ...] = (), limits=None,
                      native: bool | None = None) -> Compiled:
    """As ``load_program``, for a ruleset given as text (a worker's copy)."""
    def load():
        from rulebook.validator.loader import load_text

        return load_text(text, file)

    return _native(_cached(text, file, tuple(selected), limits, load), native)


def _native(compiled: Compiled, native: bool | None) -> Compiled:
    """``compiled`` with its program as native code, when that is asked for."""
    from rulebook.compiler.native import as_asked

    if compiled.program is not None:
        compiled.program = as_asked(compiled.program, native)
    return compiled


def _cached(text: str, file: str, selected: tuple, limits, loader) -> Compiled:
    entry = cache.key(text, file, selected, limits)
    hit = cache.read(entry)
    if hit is not None:
        source, lines = hit
        meta_name = f"<rulebook cached {entry}>"
        code = cache.read_code(entry, meta_name)
        try:
            program = program_from(load_module(source, lines, meta_name, code))
        except Exception:  # noqa: BLE001 - an entry that does not load is rebuilt below
            program = None
        if program is not None and code is None:
            cache.write_code(entry, program.module["__code__"])
        if program is not None:
            program.source = source

            def document():
                from rulebook.validator import variants

                doc, _ = loader()
                return variants.apply(doc, selected, [])

            program.document = document
            return Compiled(program, Report())
    doc, diags = loader()
    compiled = compile_document(doc, diags, selected, limits)
    if compiled.program is not None:
        cache.write(entry, compiled.program.source, sorted(compiled.program.line_map.items()))
    return compiled


def compile_path(path: str | Path, selected: tuple[str, ...] = (), limits=None) -> Compiled:
    from rulebook.validator.loader import load_file

    doc, diags = load_file(path)
    return compile_document(doc, diags, tuple(selected), limits)


def compile_text(text: str, file: str = "<ruleset>", selected: tuple[str, ...] = (), limits=None) -> Compiled:
    from rulebook.validator.loader import load_text

    doc, diags = load_text(text, file)
    return compile_document(doc, diags, tuple(selected), limits)


def dry_run(program, doc) -> list[Diagnostic]:
    """Make the components and zones of a game at the smallest and largest
    player count with default parameters, so that absurd numbers are found
    at load, not when somebody starts a game."""
    from rulebook.interpreter.errors import RuleError
    from rulebook.interpreter.game import Game

    out = []
    counts = sorted({program.min_players, program.max_players})
    for n in counts:
        try:
            Game(program).catalog_only(n)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError) as err:
            out.append(doc.diag("E041", f"the components cannot be made with {n} players "
                                f"({type(err).__name__}: {err})", ("components",),
                                "a component's properties can only use parameters, definitions and its own values"))
            break
        except RuleError as err:
            if err.code != "R107":
                continue  # other failures show up when the game runs, with their own codes
            at = _place(err.where) if err.message.count("'") < 2 else None
            if at is not None:  # a number (of a definition) too large: at the text that made it
                out.append(doc.diag("E064", f"{err.message} (with {n} players)", at=at,
                                    hint="numbers in a game stay small: a value this large is a mistake in the rule"))
                break
            kind = err.message.split("'")[1] if err.message.count("'") >= 2 else None
            path = (
                ("components", kind, "count")
                if kind and ("components", kind, "count") in doc.positions
                else (("components", kind) if kind else ("components",))
            )
            out.append(
                doc.diag(
                    "E064",
                    f"{err.message} (with {n} players)",
                    path,
                    "use fewer components; limits are listed in docs/security.md",
                )
            )
            break
    return out


def _place(where: str) -> tuple[int, int] | None:
    """The line and column of a run-time error's ``file:line:col``."""
    parts = where.rsplit(":", 2) if where else []
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        return int(parts[1]), int(parts[2])
    return None


def validate_path(path: str | Path) -> Report:
    """Validate the base ruleset and each variant on its own, with the
    variants it requires, directly or through others; all diagnostics of
    the file in one report, each once."""
    from rulebook.validator import variants
    from rulebook.validator.loader import load_file
    from rulebook.validator.pipeline import _in_variant, unique

    doc, diags = load_file(path)
    result = compile_document(doc, diags, (), check_only=True)
    report = result.report
    if (
        result.doc is not None
        and isinstance(result.doc.data, dict)
        and report.ok
        or (not any(d.code.startswith("E0") and d.code < "E020" for d in report.errors))
    ):
        for name in ((doc.data or {}).get("variants") or {}) if isinstance(doc.data, dict) else ():
            spec = doc.data["variants"][name]
            if any(r not in doc.data["variants"] for r in spec.get("requires") or ()):
                continue  # reported by the base run (E035)
            combo = variants.with_requirements(doc.data["variants"], name)
            sub = compile_document(doc, [], combo, check_only=True)
            known = {(x.code, x.line, x.column) for x in report.diagnostics}
            for d in sub.report.diagnostics:
                if (d.code, d.line, d.column) not in known:
                    report.add(d if "variant" in d.message else _in_variant(d, doc, combo))
    return unique(report)


__all__ = ["Compiled", "compile_document", "compile_path", "compile_text", "validate_path", "load_program", "cache"]
