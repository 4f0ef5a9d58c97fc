"""The parser's LALR tables kept in the user's cache folder between runs.

Building them takes about half a second. Lark's own ``cache=`` option is
not used: it opens its file by name (following a link, and a name that may
have been swapped since any check), unpickles part of it before checking
the grammar's hash, and writes in place (a reader can see half a file).
Here the file is read and written through ``dsl.cache_folder`` (the folder
checked once, open; the entry opened without following links; written
whole and renamed), and it carries the digest of its own bytes, checked
before the pickle is loaded, so a damaged or cut entry is built again,
never unpickled. The folder's policy keeps other users out: loading a
pickle runs code.
"""

from __future__ import annotations

import hashlib
import io
import pickle
import sys

from lark import Lark
from lark import __version__ as lark_version
from lark.lark import _LOAD_ALLOWED_OPTIONS  # the options Lark itself gives again when it loads its cache
from rulebook.dsl.cache_folder import opened


def entry_name(grammar: str, options: dict) -> str:
    """The entry's name: a digest of the grammar, the options that shape
    the tables, Lark's version and Python's."""
    shaping = sorted((k, repr(v)) for k, v in options.items() if k not in _LOAD_ALLOWED_OPTIONS)
    key = "\0".join([grammar, lark_version, sys.version, repr(shaping)])
    return f"rules-grammar-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:32]}.lark"


def cached_lark(grammar: str, **options) -> Lark:
    """``Lark(grammar, **options)``, its tables loaded from the cache when an
    intact entry is there, else built and kept there."""
    name = entry_name(grammar, options)
    given_again = {k: v for k, v in options.items() if k in _LOAD_ALLOWED_OPTIONS}
    with opened() as folder:
        raw = folder.read(name) if folder else None
        if raw is not None:
            head, _, body = raw.partition(b"\n")
            if head == hashlib.sha256(body).hexdigest().encode():
                try:
                    return Lark.__new__(Lark)._load(pickle.loads(body), **given_again)  # noqa: S301 - checked above
                except Exception:  # noqa: BLE001 - tables of another Lark: built again below
                    pass
            folder.remove(name)
        parser = Lark(grammar, cache=False, **options)
        if folder:
            out = io.BytesIO()
            parser.save(out, exclude_options=_LOAD_ALLOWED_OPTIONS)
            body = out.getvalue()
            folder.write(name, hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
        return parser
