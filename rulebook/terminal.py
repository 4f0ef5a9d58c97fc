"""The terminal seat: shows a human their view and asks for a numbered option."""

from __future__ import annotations

import click

from interpreter.labels import player_name
from interpreter.view import view


def render_view(st, p) -> str:
    v = view(st, p)
    lines = [f"== {player_name(st, p)} to decide | phase {v['phase']} =="]
    from rulebook.boardmap import render as render_map

    board_lines = render_map(st, v)
    lines += board_lines
    board_zones = {(ct.board or {}).get("show", {}).get("pieces") for ct in st.prog.comp_types.values() if ct.board}
    for name, z in v["zones"].items():
        if not z["count"] or (board_lines and name.split("[")[0] in board_zones):
            continue
        shown = [i.get("name") if not i.get("hidden") else "[hidden]" for i in z["items"]]
        lines.append(f"  {name:<18} {', '.join(shown)}")
    public_vars = {k: val for k, val in v["vars"].items() if not k.startswith("_")}
    if public_vars:
        lines.append("  " + "  ".join(f"{k}={val}" for k, val in public_vars.items()))
    return "\n".join(lines)


SAVE = -1  # ask_human's answer when the player wants to save and stop


def ask_human(game, st, p, options):
    click.echo(render_view(st, p))
    click.echo(f"{player_name(st, p)}: {game.prompt(st, p)}")
    for o in options:
        click.echo(f"  {o.index + 1:>2}. {o.label}")
    while True:
        answer = click.prompt(
            "choice (number, ? for help, s to save, q to quit)", default="", show_default=False
        ).strip()
        if answer.lower() in ("q", "quit"):
            return None
        if answer.lower() in ("s", "save"):
            return SAVE
        if answer == "?":
            click.echo(
                "Type the number of an option. Only legal options are listed; what you see is your own "
                "view of the table. 's' saves the game so that 'rulebook play GAME --resume FILE' goes on "
                "from here; 'q' stops without saving."
            )
            continue
        if answer.isdigit() and 1 <= int(answer) <= len(options):
            return int(answer) - 1
        click.echo(f"Please type a number from 1 to {len(options)}.")
