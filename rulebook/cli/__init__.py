"""The `rulebook` command: each command's options, its one-line failures and
exit codes."""
