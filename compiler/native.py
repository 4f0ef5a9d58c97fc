"""A compiled ruleset as native code: its module built into a C extension
with Cython (optional: ``pip install 'rulebook[native]'``, and a C compiler).

Why: the module the compiler writes is plain Python, and CPython spends
much of a game interpreting its bytecode. The same source translated by
Cython (the same Python semantics, the same objects) plays the seed
games' random playouts faster, and faster still with what follows
(``benchmarks/side_by_side.py``; the measures are in docs/performance.md,
"Measures once quoted in the code"). Typed for
it: the game state, whose fields are those of ``interpreter.state.State``
but as an extension type (``state_source``) that the compiled functions
take typed (``typed_source``), so a field is a C struct member and not a
generic attribute lookup (a large share of a native game's instructions);
the module's own calls of its functions, made in C where a function holds
no closure (``_direct``); lists indexed with C integers; and
the generator's shuffle (``RNG_SHUFFLE``). Nothing else changes: the
engine and the games are the same, event for event (tests/unit/test_native.py
plays the same games both ways).

The runtime's smallest helpers, those the rules call at every query and
decision (``charged``, ``auto_pick``...), are written again at the end of
the module's source (``runtime_tail``: their own source, read from the
engine) and built with it: a call from native code into a Python function
costs more than such a helper's work.

How: ``native_program(program)`` writes the module's source as
``rb_native_<key>.py`` in a build folder, has Cython translate it and the C
compiler Python was built with compile it, and loads the library as an
extension module. A run-time error inside it is still placed at its rule:
Cython's traceback entries carry the module's own line numbers under the
file name ``rb_native_<key>.py``, which gets the program's line map.

Trust: a library is code that will run, so it is kept as the cache keeps
source (``compiler/cache.py``): only in the user's own private cache
folder, beside a digest of its bytes and of the source it was built from;
a library that does not match is built again, never loaded. Without a
usable cache folder it is built in a private temporary folder each run.

Turned on by ``rulebook --native COMMAND`` or ``RULEBOOK_NATIVE=1``
(worker processes inherit it).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
from pathlib import Path

from rulebook.compiler import cache
from rulebook.compiler.load import places, program_from
from rulebook.interpreter.state import FIELD_KINDS

ENV = "RULEBOOK_NATIVE"
_LOADED: dict[str, dict] = {}  # key -> namespace: an extension module initialises once per process
on_build = None  # called with the program's title before a build (the CLI says it may take a minute)


class NativeError(Exception):
    """Why a ruleset could not be built as native code (a sentence for the user)."""


def wanted() -> bool:
    """Whether native code was asked for (``RULEBOOK_NATIVE=1``)."""
    return os.environ.get(ENV, "").strip().lower() in ("1", "yes", "true", "on")


def missing() -> str | None:
    """What this machine lacks to build native code, or None."""
    if importlib.util.find_spec("Cython") is None:
        return "native code needs Cython: pip install 'rulebook[native]'"
    if not _compiler():
        return "native code needs a C compiler (the one Python was built with, or $CC)"
    if not sysconfig.get_config_var("EXT_SUFFIX"):
        return "this Python cannot load extension modules"
    return None


def as_asked(program, native: bool | None = None):
    """``program`` as native code when that is asked for (``native``, else
    ``$RULEBOOK_NATIVE``), else ``program`` itself."""
    return native_program(program) if (wanted() if native is None else native) else program


def native_program(program):
    """``program`` as native code: a new Program whose units are the
    library's functions, built from ``program.source`` (or found built)."""
    why = missing()
    if why:
        raise NativeError(why)
    import Cython

    source = typed_source(program.source) + runtime_tail()
    parts = [source, Cython.__version__, sys.version, _ext(), " ".join(_compiler() + CYTHON_FLAGS + c_flags())]
    key = hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    name = f"rb_native_{key}"
    ns = _LOADED.get(key)
    if ns is None:
        ns = _LOADED[key] = _load_or_build(name, source, program.title, places(program.line_map))
    ns["PLACE"] = places(program.line_map)  # the rule places of this program (compiler/load.places)
    ns["__line_map__"] = dict(program.line_map)
    ns["__file_name__"] = f"{name}.py"
    native = program_from(ns)
    native.source = program.source
    native.document = program.document
    native.compile_info, native.checker, native.graph = program.compile_info, program.checker, program.graph
    native.native = True
    native.state_type = ns["State"]
    return native


def typed_source(source: str) -> str:
    """The compiled module's source with its functions' state argument typed
    as the native ``State`` (and a frame as a list): Cython then reads a
    field of the state as a C struct member where an untyped object would
    take a generic attribute lookup (about a quarter of a native game's
    instructions). Functions that hold no closure are made ``cython.ccall``
    (``_direct``), so that the module's calls of them are C calls. Only
    annotations, decorators on the blank line before a ``def`` and words
    within a line are changed, so the line map holds."""
    source = _direct(source)
    source = re.sub(r"^def (\w+)\(st, fr\):", r"def \1(st: State, fr: list):", source, flags=re.M)
    source = re.sub(r"^def (\w+)\(st([,)])", r"def \1(st: State\2", source, flags=re.M)
    # ``type(x) is int``: a C comparison of type pointers, where ``x.__class__`` (the
    # faster of the two in CPython's bytecode) is a generic attribute lookup
    source = re.sub(r"(\b\w+|\([^()]*\))\.__class__ is\b", r"type(\1) is", source)
    source = source.replace("list(dict.fromkeys(", "DISTINCT((")  # the language's distinct (emit_expr)
    source = _C_INDEX.sub(lambda m: f"{m[1]}[cython.cast(cython.Py_ssize_t, {m[2]})]", source)
    return _ZONE_METHOD.sub(lambda m: f"LIST_{m[3].upper()}({m[1]}[{m[2]}], ", source)


def _direct(source: str) -> str:
    """Each top-level function that takes the state first and holds no
    closure, marked ``@cython.ccall`` on the blank line before it: a call
    of it by name from the module is then a C call, not Python's calling
    protocol (fewer instructions in a native random game). The names
    the runtime's helpers define again at the end of the module
    (``runtime_tail``) are no longer imported by name, as Cython requires of
    a ``ccall`` function; ``cython`` is imported on the first import line."""
    lines = source.split("\n")
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and _plain(node) and node.args.args and node.args.args[0].arg == "st":
            if node.lineno >= 2 and not lines[node.lineno - 2].strip():
                lines[node.lineno - 2] = "@cython.ccall"
    tail = {fn.__name__ for fn in _helpers()}
    first = True
    for i, line in enumerate(lines):
        m = re.fullmatch(r"from (\S+) import ([\w, ]+)", line)
        if m:
            names = [n.strip() for n in m[2].split(",") if n.strip() not in tail]
            lines[i] = f"from {m[1]} import {', '.join(names)}" if names else "pass"
        if line.startswith(("import ", "from ")) and first:  # (a module may import nothing but by name)
            lines[i], first = "import cython; " + lines[i], False
        if line.startswith("def "):
            break
    return "\n".join(lines)


def _plain(fn: ast.FunctionDef) -> bool:
    """Whether Cython can make ``fn`` a ``ccall`` function: no closure inside
    (a lambda, a generator expression, a nested function), no ``*args``."""
    closures = (ast.Lambda, ast.GeneratorExp, ast.FunctionDef, ast.AsyncFunctionDef, ast.Yield, ast.YieldFrom,
                ast.Nonlocal, ast.Global)
    inner = (n for n in ast.walk(fn) if n is not fn)
    return not fn.args.vararg and not fn.args.kwarg and not any(isinstance(n, closures) for n in inner)


# A list of the state or a column of fixed properties indexed by a name (or by a
# name's entry in a table: ``s_zones[zoc_hand[r]]``): the index as a C integer,
# which Cython reads from the list directly, where a Python object as index goes
# through the generic protocol (PyObject_GetItem, PyNumber_AsSsize_t...). The same
# values and errors: a component's or a zone's number is an int; none is a TypeError.
_LISTS = "|".join(k for k, v in FIELD_KINDS.items() if v == "list")
_C_INDEX = re.compile(rf"\b((?:s_|st\.)(?:{_LISTS})|col_\w+)\[([A-Za-z_][\w.]*(?:\[[A-Za-z_][\w.]*\])?)\]")


# A zone's list method called by name (``s_zones[z].remove(c)``, as the move
# writers emit it): Cython looks a method of an untyped object up by name at
# each call; the method of ``list`` kept in a global (``runtime_tail``) is
# called directly.
_ZONE_METHOD = re.compile(r"\b(s_zones|st\.zones)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\.(remove|insert|append)\(")


def runtime_tail() -> str:
    """The runtime's small helpers that compiled rules call at every query
    and decision, written again at the end of the module so that they are
    built into the library with it: a call from native code to a Python
    function costs more than the helper's work. The same source, read from
    the engine (``inspect.getsource``), so nothing is kept twice; the names
    they use are imported from their own modules (``_helper_globals``), as
    the module imports the runtime's names by name. Appended after the module's last line, it
    leaves the line map as it is."""
    import inspect

    out = ["", "", "# The runtime's helpers compiled with the module (compiler/native.runtime_tail)",
           "import cython", "from rulebook.interpreter import indexes, rng",
           "from rulebook.interpreter.ops import _scripted_shuffle, blur, lose, random_index",
           "from rulebook.interpreter.events import moved as _moved",
           "LIST_REMOVE, LIST_INSERT, LIST_APPEND = list.remove, list.insert, list.append  # typed_source calls these",
           "MAX_WORK = cython.declare(cython.Py_ssize_t, min(META['limits']['max_work'], 1 << 62))  # st.prog.max_work"]
    out += _helper_globals()
    for fn in _helpers():
        out += ["", "", _typed(inspect.getsource(fn), direct=True)]
    return "\n".join(out) + "\n" + DISTINCT + RNG_SHUFFLE + state_source()


def _helper_globals() -> list[str]:
    """Imports of the names the helpers read from their own modules (the
    module imports only the runtime names its rules read, by name)."""
    import builtins
    import types

    def names_in(code) -> set:
        return set(code.co_names).union(*(names_in(c) for c in code.co_consts if isinstance(c, types.CodeType)))

    helpers = _helpers()
    tail = {fn.__name__ for fn in helpers}
    wanted: dict[str, set] = {}
    for fn in helpers:
        for name in names_in(fn.__code__):
            if name in fn.__globals__ and name not in tail and not hasattr(builtins, name):
                wanted.setdefault(fn.__module__, set()).add(name)
    return [f"from {module} import {', '.join(sorted(names))}" for module, names in wanted.items()]


def _helpers() -> tuple:
    """The runtime's functions that ``runtime_tail`` builds into the library."""
    from rulebook.interpreter import lib, ops, playout, zones

    return (lib.charge, lib.charged, lib.attempt, lib.anylist, lib.index_in, lib.minus_one, lib.best_each,
            lib.best_each_of, lib.components_in, lib.leave_pile, playout.auto_pick, playout.auto_all, zones.zone_family,
            ops.show_top, ops.shuffle, ops.seat_order, lib.opponents, lib.flatten, lib.reveal_to, lib.reveal,
            lib.hide, lib.remove, lib.components_of, playout.answer_rounds,
            # the checked arithmetic, indexing and ranges every query calls (mul, number... were calls back
            # into Python: most of a native game's time in rules written with functions over a board)
            lib.number, lib.mul, lib.add, lib.divide, lib.item_of, lib.text_item, lib.numbers, lib.sized,
            lib.joined, lib.player_zone, lib.deciding_player, lib.contains, lib.same, lib.live, lib.after_move,
            lib.zone_item)


# The language's ``distinct`` (``list(dict.fromkeys(items))`` in the Python
# module) for native code: a short list of numbers or texts by comparison,
# where building a dict costs several times as much in a native game.
DISTINCT = """

@cython.ccall
def DISTINCT(items) -> list:
    out: list
    if type(items) is list and len(items) <= 16:
        out = []
        for x in items:
            if type(x) is not int and type(x) is not str:
                return list(dict.fromkeys(items))
            if x not in out:
                out.append(x)
        return out
    return list(dict.fromkeys(items))
"""


# The game generator's shuffle (``interpreter.rng.shuffle``, SplitMix64) in
# C integers: the same numbers (tests/unit/test_native.py compares them), where
# Python computes each draw with 64-bit multiplications of big integers (a
# third of a native game that shuffles its deck about seven times). The high
# word of ``bits * (i + 1)`` is made of 32-bit halves, exact while a list has
# fewer than 2**31 items (a longer one is shuffled by ``rng.shuffle``).
RNG_SHUFFLE = """

_GOLDEN = cython.declare(cython.ulonglong, 0x9E3779B97F4A7C15)
_MIX1 = cython.declare(cython.ulonglong, 0xBF58476D1CE4E5B9)
_MIX2 = cython.declare(cython.ulonglong, 0x94D049BB133111EB)
_LOW = cython.declare(cython.ulonglong, 0xFFFFFFFF)


def rng_shuffle(state_in, items: list):
    n: cython.Py_ssize_t = len(items)
    if n >= 1 << 31:
        return rng.shuffle(state_in, items)
    state: cython.ulonglong = state_in
    z: cython.ulonglong
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    for i in range(n - 1, 0, -1):
        state += _GOLDEN
        z = (state ^ (state >> 30)) * _MIX1
        z = (z ^ (z >> 27)) * _MIX2
        z = z ^ (z >> 31)
        j = ((z >> 32) * (i + 1) + (((z & _LOW) * (i + 1)) >> 32)) >> 32
        items[i], items[j] = items[j], items[i]
    return state
"""


def state_source() -> str:
    """The game state as an extension type: ``interpreter.state.State``'s
    fields, typed by ``FIELD_KINDS`` (a list, a dict, a C integer; anything
    else an object), and its methods from their own source. A native program
    makes its games' states of this type (``Program.state_type``); Python
    code reads and writes its fields as before."""
    import inspect

    from rulebook.interpreter.state import FIELD_KINDS, State

    kinds = {"list": "list", "dict": "dict", "int": "cython.Py_ssize_t"}
    out = ["", "", "@cython.cclass", "class State:"]
    for name in State.__slots__:
        out.append(f"    {name} = cython.declare({kinds.get(FIELD_KINDS.get(name), 'object')}, visibility='public')")
    for value in vars(State).values():
        if inspect.isfunction(value):
            out += ["", textwrap.indent(_typed(inspect.getsource(value)), "    ")]
    return "\n".join(out) + "\n"


def _typed(source: str, direct: bool = False) -> str:
    """A runtime function's source for the native module: annotations
    dropped (Cython would enforce them as exact types), but ``st`` typed as
    the native ``State``; with ``direct``, made ``cython.ccall`` when it holds
    no closure (see ``_direct``)."""
    tree = _Local().visit(ast.parse(textwrap.dedent(source)))
    fn = tree.body[0]
    fn.returns = None
    if direct and isinstance(fn, ast.FunctionDef) and _plain(fn):
        fn.decorator_list.append(ast.Attribute(ast.Name("cython", ast.Load()), "ccall", ast.Load()))
    for arg in fn.args.args + fn.args.kwonlyargs:
        arg.annotation = ast.Name("State") if arg.arg == "st" else None
    return ast.unparse(tree)


class _Local(ast.NodeTransformer):
    """A runtime helper calls the module's own copy of another (``ops.show_top``
    as ``show_top``), and the generator's shuffle in C (``RNG_SHUFFLE``); it
    reads the work budget (``st.prog.max_work``, from the module's own limits)
    as a C integer, ``MAX_WORK`` (``runtime_tail``), not from the program
    object at every query."""

    NAMES = {("rng", "shuffle"): "rng_shuffle", ("ops", "show_top"): "show_top", ("ops", "seat_order"): "seat_order",
             ("ops", "zone_family"): "zone_family"}

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if node.attr == "max_work" and ast.unparse(node.value) == "st.prog":
            return ast.copy_location(ast.Name("MAX_WORK", ast.Load()), node)
        if isinstance(node.value, ast.Name) and (node.value.id, node.attr) in self.NAMES:
            return ast.copy_location(ast.Name(self.NAMES[node.value.id, node.attr], ast.Load()), node)
        return self.generic_visit(node)


def _load_or_build(name: str, source: str, title: str, place: tuple = ()) -> dict:
    where = cache.folder()
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    if where is not None:
        lib, sig = where / f"{name}{_ext()}", where / f"{name}.sha256"
        if _matches(lib, sig, digest):
            return _import(name, lib, place)
    if on_build is not None:
        on_build(title)
    if where is not None:
        try:
            with tempfile.TemporaryDirectory(dir=where, prefix=".build-") as tmp:
                data = _build(name, source, Path(tmp)).read_bytes()
                _write(sig, f"{hashlib.sha256(data).hexdigest()} {digest}\n".encode())
                _write(lib, data)
        except OSError:
            pass  # a cache that cannot be written: built for this run only, below
        else:
            if _matches(lib, sig, digest):
                return _import(name, lib, place)
    with tempfile.TemporaryDirectory(prefix="rulebook-native-") as tmp:  # no cache: built for this run only
        return _import(name, _build(name, source, Path(tmp)), place)


def _matches(lib: Path, sig: Path, digest: str) -> bool:
    """The library is there, a plain file, and its bytes and source are the ones recorded."""
    try:
        if lib.is_symlink() or sig.is_symlink() or not lib.is_file():
            return False
        recorded = sig.read_text(encoding="ascii").split()
        return recorded == [hashlib.sha256(lib.read_bytes()).hexdigest(), digest]
    except (OSError, UnicodeDecodeError):
        return False


# How the library is built. The C file without the source quoted in comments
# is a fifth smaller. The C compiler's level stays -O2: -O1 halves its time but
# plays slower, and a build is made once and cached while games are played many
# times (docs/performance.md, "third stop"). Both are part of the library's
# key: a library built otherwise is built again.
CYTHON_FLAGS = ["-3", "--fast-fail", "-X", "binding=False", "-X", "emit_code_comments=False"]
C_FLAGS = ["-fPIC", "-O2", "-w"]
# ``RULEBOOK_NATIVE_BUILD=quick``: the C compiler does not optimise (-O0).
# Several times quicker to build, the same games, but slower to play than the
# Python module itself: for checking that native code plays the same (the
# test suite, whose builds play a few games each), not for speed. The level
# is part of the library's key, so a quick library is never loaded where an
# optimised one is asked for.
BUILD_ENV = "RULEBOOK_NATIVE_BUILD"
QUICK_C_FLAGS = ["-fPIC", "-O0", "-w"]


def c_flags() -> list[str]:
    """The C compiler's flags for this build: ``QUICK_C_FLAGS`` when
    ``$RULEBOOK_NATIVE_BUILD`` is ``quick``, else ``C_FLAGS``."""
    quick = os.environ.get(BUILD_ENV, "").strip().lower() == "quick"
    return QUICK_C_FLAGS if quick else C_FLAGS


def _build(name: str, source: str, folder: Path) -> Path:
    """Translate and compile ``source`` in ``folder``; the library's path."""
    (folder / f"{name}.py").write_text(source, encoding="utf-8")
    cython = [sys.executable, "-m", "cython", *CYTHON_FLAGS, f"{name}.py"]
    _run(cython, folder, "Cython could not translate the compiled ruleset")
    include = sysconfig.get_paths()["include"]
    out = folder / f"{name}{_ext()}"
    cc = _compiler() + [*c_flags(), "-I", include, f"{name}.c", "-o", str(out)]
    _run(cc, folder, "the C compiler failed on the compiled ruleset")
    return out


def _run(argv: list[str], folder: Path, what: str) -> None:
    try:
        done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise NativeError(f"{what}: {err}") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise NativeError(f"{what}: " + " / ".join(tail))


def _compiler() -> list[str]:
    """The command that links a shared library: $CC, else Python's own LDSHARED."""
    cc = os.environ.get("CC")
    shared = sysconfig.get_config_var("LDSHARED") or ""
    argv = shlex.split(shared) if shared else []
    if cc:
        argv = [cc, *argv[1:]] if argv else [cc, "-shared"]
    if not argv or shutil.which(argv[0]) is None:
        return []
    return argv


def _ext() -> str:
    return sysconfig.get_config_var("EXT_SUFFIX") or ".so"


def _import(name: str, path: Path, place: tuple = ()) -> dict:
    """The extension module's namespace; ``place``: its table ``PLACE``,
    which its constants read as it starts."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise NativeError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    module.PLACE = place
    try:
        spec.loader.exec_module(module)
    except ImportError as err:
        raise NativeError(f"cannot load {path}: {err}") from None
    return module.__dict__


def _write(path: Path, content: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "wb") as f:
        f.write(content)
    os.replace(tmp, path)
