"""Every command and every option of the command line says what it is for
(``rulebook CMD --help``)."""

import click

from rulebook.cli import cli


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
