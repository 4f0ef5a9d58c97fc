"""One cache folder, one policy, one setting (issue 38): the parser's tables
(``dsl.grammar_cache``) and the compiled modules (``compiler.cache``) use
``dsl.cache_folder``: a folder another local user could write to, or swap
after the check, is never used, and a damaged entry is never unpickled."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

import pytest
import rulebook.dsl.parser
from rulebook.compiler import cache
from rulebook.dsl import cache_folder, grammar_cache
from rulebook.dsl.cache_folder import open_folder, platform_folder
from rulebook.dsl.parser import GRAMMAR

OPTIONS = dict(parser="lalr", start=["block", "expression"], maybe_placeholders=False)


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv("RULEBOOK_CACHE", str(path))
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    return path


def _tables(folder: Path):
    return grammar_cache.cached_lark(GRAMMAR.read_text(), **OPTIONS)


@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_the_parsers_tables_are_not_kept_in_a_folder_others_may_write_to(tmp_path, monkeypatch, mode):
    """Before, the parser's pickle went to $XDG_CACHE_HOME/rulebook when that
    folder was only writable by its owner *among others*: a group-writable
    folder, which the compiled modules' cache refused, was used."""

    monkeypatch.delenv("RULEBOOK_CACHE")
    monkeypatch.delenv("RULEBOOK_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shared = tmp_path / "rulebook"
    shared.mkdir()
    shared.chmod(mode)
    rulebook.dsl.parser._lark.cache_clear()
    try:
        assert rulebook.dsl.parser._lark().parse("end game\n", start="block")
    finally:
        rulebook.dsl.parser._lark.cache_clear()
    assert list(shared.iterdir()) == [] and cache.folder() is None


def test_one_setting_turns_both_caches_off_and_the_old_one_is_its_alias(folder, monkeypatch):
    assert cache.folder() == folder
    monkeypatch.setenv("RULEBOOK_NO_CACHE", "1")  # the parser's old setting: the compiled modules' too now
    assert cache.folder() is None and open_folder() is None
    monkeypatch.delenv("RULEBOOK_NO_CACHE")
    monkeypatch.setenv("RULEBOOK_CACHE", "off")
    _tables(folder)
    assert cache.folder() is None and not list(folder.iterdir())


def test_a_folder_of_another_user_is_not_used(folder):
    if os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root")
    folder.mkdir(mode=0o700)
    os.chown(folder, 4242, 4242)
    assert open_folder() is None and cache.folder() is None
    _tables(folder)
    assert list(folder.iterdir()) == []
    os.chown(folder, os.getuid(), os.getgid())
    assert cache.folder() == folder


def test_a_folder_swapped_for_a_link_after_the_check_is_not_written_through(folder, tmp_path):
    """Another user who can rename the folder (its parent is writable)
    swaps it for a link to a folder of theirs between the check and the
    write: the entry still goes to the folder that was checked."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    with open_folder() as checked:
        folder.rename(tmp_path / "moved")
        folder.symlink_to(theirs, target_is_directory=True)
        assert checked.write("entry.py", b"x")
        assert checked.read("entry.py") == b"x"
    assert list(theirs.iterdir()) == [] and (tmp_path / "moved" / "entry.py").read_bytes() == b"x"
    assert not [p for p in (tmp_path / "moved").iterdir() if p.name.startswith(".tmp-")]


def test_an_entry_that_is_a_link_or_not_a_regular_file_is_not_read(folder, tmp_path):
    secret = tmp_path / "secret"
    secret.write_bytes(b"not yours")
    folder.mkdir(mode=0o700)
    (folder / "link.py").symlink_to(secret)
    os.mkfifo(folder / "fifo.py")  # opening it for reading would wait for a writer
    with open_folder() as checked:
        assert checked.read("link.py") is None and checked.read("fifo.py") is None
        with pytest.raises(ValueError):
            checked.read("../secret")


def test_a_cache_folder_that_is_a_link_is_not_used(folder, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    folder.symlink_to(elsewhere, target_is_directory=True)
    assert open_folder() is None and cache.folder() is None


class _Runs:
    def __reduce__(self):
        return (os.mkdir, (str(Path(os.environ["RULEBOOK_CACHE"]) / "pickle-ran"),))


@pytest.mark.parametrize("damage", ["no-digest", "cut", "wrong-digest"])
def test_a_damaged_tables_entry_is_built_again_never_unpickled(folder, damage):
    first = _tables(folder)
    (entry,) = folder.glob("*.lark")
    good = entry.read_bytes()
    evil = pickle.dumps(_Runs())
    entry.write_bytes({"no-digest": evil, "cut": good[: len(good) // 2],
                       "wrong-digest": hashlib.sha256(b"other").hexdigest().encode() + b"\n" + evil}[damage])
    again = _tables(folder)
    assert not (folder / "pickle-ran").exists()
    head, _, body = entry.read_bytes().partition(b"\n")  # built again and kept
    assert head == hashlib.sha256(body).hexdigest().encode() and b"mkdir" not in body
    assert again.parse("end game\n", start="block") == first.parse("end game\n", start="block")


def test_tables_loaded_from_the_cache_parse_as_built_ones(folder):
    from rulebook.dsl.parser import _RuleIndenter

    options = dict(OPTIONS, postlex=_RuleIndenter(), propagate_positions=True)
    built = grammar_cache.cached_lark(GRAMMAR.read_text(), **options)
    loaded = grammar_cache.cached_lark(GRAMMAR.read_text(), **options)
    assert len(list(folder.glob("*.lark"))) == 1
    text = "if x > 1:\n    say \"a {x}\"\nelse:\n    end game\n"
    assert loaded.parse(text, start="block") == built.parse(text, start="block")
    assert loaded.parse(text, start="block").meta.line == 1  # positions still propagated


def test_each_platform_has_its_own_cache_folder():
    home = Path("/home/u")
    local = "C:\\Users\\u\\AppData\\Local"
    assert platform_folder("win32", {"LOCALAPPDATA": local}, home) == Path(local) / "rulebook" / "Cache"
    assert platform_folder("win32", {}, home) == home / "AppData" / "Local" / "rulebook" / "Cache"
    assert platform_folder("darwin", {"XDG_CACHE_HOME": "/x"}, home) == home / "Library" / "Caches" / "rulebook"
    assert platform_folder("linux", {"XDG_CACHE_HOME": "/x"}, home) == Path("/x/rulebook")
    assert platform_folder("linux", {"XDG_CACHE_HOME": "rel"}, home) == home / ".cache" / "rulebook"  # not the cwd's
    assert platform_folder("linux", {}, home) == home / ".cache" / "rulebook"


RACE_SECONDS = float(os.environ.get("RULEBOOK_FUZZ_SECONDS", "1"))
SWAPPER = """
import os, sys, time
folder, theirs, aside, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
swaps, end = 0, time.monotonic() + seconds
while time.monotonic() < end:
    for step in (lambda: os.rename(folder, f"{aside}-{swaps}"), lambda: os.symlink(theirs, folder),
                 lambda: os.unlink(folder)):
        try:
            step()
        except OSError:
            pass
    swaps += 1
print(swaps)
"""


def test_a_folder_swapped_back_and_forth_while_entries_are_written_never_gets_one(folder, tmp_path):
    """Another user's process swaps the folder for a link to a folder of
    theirs and back, as fast as it can, while Rulebook opens the folder and
    writes and reads entries: no entry ever lands in their folder, and
    nothing read is theirs. ``RULEBOOK_FUZZ_SECONDS`` runs it longer. It
    found the folder opened through a link when the link was swapped in
    just before the open (the folder is opened with O_NOFOLLOW now)."""
    import subprocess
    import sys
    import time

    theirs, aside = tmp_path / "theirs", tmp_path / "aside"
    theirs.mkdir()
    (theirs / "entry.py").write_bytes(b"theirs")
    folder.mkdir(mode=0o700)
    attacker = subprocess.Popen([sys.executable, "-c", SWAPPER, str(folder), str(theirs), str(aside),
                                 str(RACE_SECONDS)], stdout=subprocess.PIPE, text=True)
    writes, end = 0, time.monotonic() + RACE_SECONDS
    while time.monotonic() < end:
        with cache_folder.opened() as where:
            if where is not None:
                where.write("entry.py", b"mine")
                assert where.read("entry.py") in (b"mine", None)
                writes += 1
    swaps = int(attacker.communicate(timeout=60)[0])
    assert (theirs / "entry.py").read_bytes() == b"theirs" and sorted(p.name for p in theirs.iterdir()) == ["entry.py"]
    assert writes > 0 and swaps > 0
    print(f"{writes} writes, {swaps} swaps")
