"""Every command and every option of the command line says what it is for
(``rulebook CMD --help``)."""

import click

from rulebook.cli.main import cli


def walk(group: click.Group, prefix=()):
    for name, command in group.commands.items():
        yield prefix + (name,), command
        if isinstance(command, click.Group):
            yield from walk(command, prefix + (name,))


def test_every_command_has_help():
    missing = [" ".join(path) for path, command in walk(cli) if not (command.help or "").strip()]
    assert missing == []


def test_every_option_has_help():
    missing = [f"{' '.join(path)} {'/'.join(p.opts)}" for path, command in [((), cli), *walk(cli)]
               for p in command.params if isinstance(p, click.Option) and not (p.help or "").strip()]
    assert missing == []


def test_the_walk_sees_the_commands():
    names = {path[-1] for path, _ in walk(cli)}
    assert {"validate", "test", "check", "lsp", "play"} <= names


def test_lsp_without_pygls_is_one_line_saying_what_to_install(capsys, monkeypatch):
    import sys

    from tests.helpers import run_main

    monkeypatch.setitem(sys.modules, "pygls", None)  # as if the lsp extra were not installed
    code, out, err = run_main(capsys, "lsp")
    assert code == 1 and out == ""
    assert err.strip().endswith("pip install 'rulebook[lsp]'") and "Traceback" not in err


def test_the_command_line_does_not_load_pygls():
    import subprocess
    import sys

    code = "import sys; import rulebook.cli.main; print('pygls' in sys.modules, 'lsprotocol' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
