"""The user's cache folder: one place and one policy for everything
Rulebook keeps between runs (the parser's tables, ``dsl/parser.py``; the
compiled modules and native libraries, ``compiler/cache.py``).

What is kept there is loaded as code (a pickle, Python source, a shared
library), so another local user who could write in the folder, or swap it,
could make Rulebook run their code. Hence:

* the folder is used only if it belongs to the user running Rulebook and
  nobody else may write in it (not group- or other-writable); otherwise
  nothing is cached (it is only slower);
* the folder is opened without following a link (the folders above it
  may be links), the check is made on the open folder (``fstat`` of its
  descriptor), and every entry is then opened, written and renamed relative to that
  descriptor, so a folder (or a symbolic link to one) swapped after the
  check is never used; an entry is opened with ``O_NOFOLLOW`` and used
  only if it is a regular file of the same owner;
* an entry is written to a new private file (mode 0600, ``O_EXCL``) and
  renamed into place, so a reader never sees half of one.

Where: ``$RULEBOOK_CACHE`` if set (``off``, ``0``, ``no``, ``false`` or
empty turn the cache off; ``RULEBOOK_NO_CACHE=1``, the parser's old
setting, is an alias of ``RULEBOOK_CACHE=off``); else the platform's cache
folder, as ``platformdirs`` names it: ``%LOCALAPPDATA%\\rulebook\\Cache`` on
Windows, ``~/Library/Caches/rulebook`` on macOS, ``$XDG_CACHE_HOME/rulebook``
elsewhere (an absolute ``XDG_CACHE_HOME`` only, as the XDG specification
says: a relative one would put the cache in whatever folder Rulebook runs
in), by default ``~/.cache/rulebook``.
"""

from __future__ import annotations

import ntpath
import os
import posixpath
import secrets
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

SETTING = "RULEBOOK_CACHE"
OLD_SETTING = "RULEBOOK_NO_CACHE"  # the parser's setting before there was one for both: kept as an alias
OFF = ("off", "0", "no", "false", "")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# entries by the folder's descriptor: not on Windows (os.replace takes dir_fd where os.rename does)
_BY_DESCRIPTOR = {os.open, os.rename, os.unlink} <= os.supports_dir_fd


def location() -> Path | None:
    """Where the cache folder is (not yet checked), or None when it is turned off."""
    if os.environ.get(OLD_SETTING):
        return None
    setting = os.environ.get(SETTING)
    if setting is not None and setting.strip().lower() in OFF:
        return None
    if setting:
        return Path(setting).expanduser()
    return platform_folder(sys.platform, os.environ, Path.home())


def platform_folder(platform: str, environ, home: Path) -> Path:
    """Rulebook's cache folder where each platform keeps users' caches
    (platformdirs' ``user_cache_dir("rulebook", appauthor=False)``)."""
    if platform == "win32":
        local = environ.get("LOCALAPPDATA", "")
        return (Path(local) if ntpath.isabs(local) else home / "AppData" / "Local") / "rulebook" / "Cache"
    if platform == "darwin":
        return home / "Library" / "Caches" / "rulebook"
    xdg = environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(xdg) if posixpath.isabs(xdg) else home / ".cache") / "rulebook"


def private(info: os.stat_result) -> bool:
    """A folder (or file) of the user running Rulebook that nobody else may write to."""
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


class CacheFolder:
    """The cache folder, open and checked: entries are read, written and
    removed by name relative to it (see the module's docstring). On a
    system without ``dir_fd`` (Windows) names are joined to the path that
    was checked."""

    def __init__(self, path: Path, fd: int | None):
        self.path, self.fd = path, fd

    def _name(self, name: str) -> str:
        if "/" in name or os.sep in name or name in ("", ".", ".."):
            raise ValueError(f"not a cache entry's name: {name!r}")
        return name if self.fd is not None else str(self.path / name)

    def read(self, name: str, limit: int = 1 << 30) -> bytes | None:
        """The entry's bytes, or None when there is none or it is not a
        regular file of this user (a symbolic link is not followed)."""
        try:
            fd = os.open(self._name(name), os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0)
                         | getattr(os, "O_BINARY", 0), dir_fd=self.fd)
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or not private(info) or info.st_size > limit:
                return None
            with os.fdopen(fd, "rb", closefd=False) as f:
                return f.read(info.st_size + 1)  # the size it has, not the limit: no buffer of the limit's size
        except OSError:
            return None
        finally:
            os.close(fd)

    def write(self, name: str, content: bytes) -> bool:
        """Write the entry whole or not at all: a new private file, renamed
        over the old entry. False when it could not be written."""
        tmp = self._name(f".tmp-{secrets.token_hex(8)}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_BINARY", 0),
                         0o600, dir_fd=self.fd)
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(content)
            os.replace(tmp, self._name(name), src_dir_fd=self.fd, dst_dir_fd=self.fd)
            return True
        except OSError:
            self.remove(os.path.basename(tmp))
            return False

    def remove(self, name: str) -> None:
        try:
            os.unlink(self._name(name), dir_fd=self.fd)
        except OSError:
            pass

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self) -> CacheFolder:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def open_folder() -> CacheFolder | None:
    """The cache folder, made if needed (mode 0700), opened and checked; or
    None when it is turned off or must not be used. Close it after use (it
    is a context manager)."""
    path = location()
    if path is None:
        return None
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _BY_DESCRIPTOR:
            info = os.stat(path)
            return CacheFolder(path, None) if stat.S_ISDIR(info.st_mode) and private(info) else None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW)  # the folder itself: no link
    except OSError:
        return None
    try:
        info = os.fstat(fd)
    except OSError:
        info = None
    if info is None or not stat.S_ISDIR(info.st_mode) or not private(info):
        os.close(fd)
        return None
    return CacheFolder(path, fd)


@contextmanager
def opened() -> Iterator[CacheFolder | None]:
    """``open_folder()``, closed after the ``with`` block."""
    folder = open_folder()
    try:
        yield folder
    finally:
        if folder is not None:
            folder.close()


def checked_folder() -> Path | None:
    """The cache folder's path, if it may be used now (for what must be
    given a path, such as a build folder for the C compiler)."""
    folder = open_folder()
    if folder is None:
        return None
    folder.close()
    return folder.path
