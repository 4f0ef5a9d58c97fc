"""Values spelt as rule text writes them, for messages: users never see
Python's spellings (``True``, ``None``, ``['a']``)."""

from __future__ import annotations


def literal(value, quoted: bool = True) -> str:
    """A plain value as rule text writes it (``true``, ``none``, ``"text"``,
    ``[1, 2]``). ``quoted=False`` leaves text unquoted: what ``str(x)`` gives."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace('"', '\\"') + '"' if quoted else value
    if isinstance(value, list):
        return "[" + ", ".join(literal(v, quoted) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {literal(v, quoted)}" for k, v in value.items()) + "}"
    return str(value)
