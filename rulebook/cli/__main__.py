"""``python -m rulebook.cli``: the ``rulebook`` command."""

from rulebook.cli.main import main

main()
