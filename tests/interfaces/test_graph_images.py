"""Pictures of the phase graphs: ``rulebook graph --format svg|png`` and docs/img.

Drawing needs Graphviz's ``dot``; the tests that draw are skipped, saying
so, on a machine without it. The error path (no ``dot`` on PATH) and the
pictures checked into docs/img are tested everywhere.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import pytest
import yaml
from click.testing import CliRunner

from rulebook.cli.main import cli, main
from rulebook.display import graphs

ROOT = Path(__file__).resolve().parents[2]
SEED_GAMES = sorted(p.parent.name for p in (ROOT / "rulesets").glob("*/ruleset.yaml"))
IMG = ROOT / "docs" / "img"
SVG_NS = "{http://www.w3.org/2000/svg}"

needs_dot = pytest.mark.skipif(
    shutil.which("dot") is None,
    reason="Graphviz's 'dot' is not installed (apt-get install graphviz); drawing is not tested",
)


def phases_of(game_dir: Path) -> list[str]:
    """The phase names, read from the YAML itself (not from the graph under test)."""
    return list(yaml.safe_load((game_dir / "ruleset.yaml").read_text(encoding="utf-8"))["phases"])


def node_titles(svg_text: str) -> set[str]:
    """The names of the nodes Graphviz drew (each node is a <g class="node"> with a <title>)."""
    root = ET.fromstring(svg_text)
    return {
        g.find(f"{SVG_NS}title").text
        for g in root.iter(f"{SVG_NS}g")
        if g.get("class") == "node" and g.find(f"{SVG_NS}title") is not None
    }


def edge_titles(svg_text: str) -> set[tuple[str, str]]:
    """The arrows Graphviz drew (each a <g class="edge"> titled "a->b"), without the start marker's."""
    root = ET.fromstring(svg_text)
    out = set()
    for g in root.iter(f"{SVG_NS}g"):
        title = g.find(f"{SVG_NS}title")
        if g.get("class") == "edge" and title is not None and "->" in title.text:
            a, b = title.text.split("->", 1)
            if a != "(start)":
                out.add((a, b))
    return out


def graph_edges(folder: Path) -> set[tuple[str, str]]:
    """The phase graph's transitions, as the validator builds them from the ruleset."""
    from rulebook.compiler.build import compile_path

    return {(str(a), str(b)) for a, b in compile_path(folder / "ruleset.yaml").program.phase_graph.edges()}


def run_main(*args: str) -> tuple[int, str]:
    """Run the real entry point; its exit code and everything it printed."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        try:
            main(list(args))
            code = 0
        except SystemExit as done:
            code = done.code
    return code, buf.getvalue()


def test_there_are_seed_games():
    assert len(SEED_GAMES) >= 5


@needs_dot
@pytest.mark.parametrize("game", SEED_GAMES)
def test_svg_names_every_phase(game, tmp_path):
    out = tmp_path / f"{game}.svg"
    result = CliRunner().invoke(cli, ["graph", game, "--format", "svg", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "<svg" in svg
    titles = node_titles(svg)
    for phase in phases_of(ROOT / "rulesets" / game):
        assert phase in titles, f"{game}: phase {phase!r} missing from the picture"
    assert "END" in titles
    assert edge_titles(svg) == graph_edges(ROOT / "rulesets" / game), f"{game}: the arrows are not the graph's"


@needs_dot
def test_svg_to_standard_output_and_png_bytes():
    runner = CliRunner()
    svg = runner.invoke(cli, ["graph", "get-bit", "--format", "svg"], catch_exceptions=False)
    assert svg.exit_code == 0 and {"choose", "swim", "bite"} <= node_titles(svg.stdout)
    png = runner.invoke(cli, ["graph", "get-bit", "--format", "png"], catch_exceptions=False)
    assert png.exit_code == 0 and png.stdout_bytes.startswith(b"\x89PNG\r\n\x1a\n")


@needs_dot
def test_a_variant_changes_the_picture(tmp_path):
    """The picture is of the ruleset with its variants applied, like the text formats."""
    game = tmp_path / "ruleset.yaml"
    game.write_text(
        "rulebook: 1\nid: two-phase\nplayers: {min: 2, max: 2}\n"
        "phases:\n  first:\n    on_begin: say 'hi'\n    next: last\n  last:\n    on_begin: end game\n"
        "variants:\n  extra:\n    patch:\n      phases:\n        first: {next: middle}\n"
        "        middle: {on_begin: say 'more', next: last}\n",
        encoding="utf-8",
    )
    base = CliRunner().invoke(cli, ["graph", str(game), "--format", "svg"], catch_exceptions=False)
    extra = CliRunner().invoke(cli, ["graph", str(game), "-v", "extra", "--format", "svg"], catch_exceptions=False)
    assert "middle" not in node_titles(base.stdout)
    assert "middle" in node_titles(extra.stdout)


@needs_dot
def test_dot_rejecting_its_input_is_one_clear_error():
    with pytest.raises(graphs.GraphvizFailed, match="Graphviz's dot failed"):
        graphs.render("digraph { this is not dot", "svg")


def test_without_dot_the_error_is_one_line_and_exit_1(tmp_path, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    for fmt in ("svg", "png"):
        code, output = run_main("graph", "get-bit", "--format", fmt, "--out", str(tmp_path / f"g.{fmt}"))
        assert code == 1
        lines = output.strip().splitlines()
        assert len(lines) == 1, output
        assert f"--format {fmt} needs Graphviz's 'dot' program" in lines[0] and "install Graphviz" in lines[0]
        assert not (tmp_path / f"g.{fmt}").exists()
    # the text formats need nothing installed
    code, output = run_main("graph", "get-bit", "--format", "dot")
    assert code == 0 and '"swim" -> "bite"' in output


def test_text_formats_can_go_to_a_file(tmp_path):
    out = tmp_path / "g.mmd"
    code, output = run_main("graph", "get-bit", "--format", "mermaid", "--out", str(out))
    assert code == 0 and output.strip() == f"wrote {out}"
    assert out.read_text(encoding="utf-8").startswith("flowchart LR")


def test_dot_declares_every_phase_and_marks_the_start():
    """A phase with no edge at all is still drawn; the start phase gets an arrow from a point."""
    g = nx.DiGraph()
    g.add_nodes_from(["END", "lonely", "main"])
    g.add_edge("main", "END", condition='say "x" \\ y')
    dot = graphs.to_dot(g, 'A "quoted" title', start="main")
    assert '  "lonely";' in dot and '  "main";' in dot
    assert '"(start)" -> "main";' in dot
    assert 'digraph "A \'quoted\' title"' in dot
    assert '[label="say \'x\' \\\\ y"]' in dot


@pytest.mark.parametrize("folder", [ROOT / "rulesets" / g for g in SEED_GAMES] + [ROOT / "examples" / "nim"],
                         ids=lambda p: p.name)
def test_docs_img_has_an_up_to_date_picture_of_each_game(folder):
    """docs/img/GAME-phases.svg exists for each seed game and the tutorial's, names exactly
    the game's phases, draws exactly its transitions (those to the end included), and
    docs/graphs.md shows it."""
    game = folder.name
    path = IMG / f"{game}-phases.svg"
    rel = path.relative_to(ROOT)
    assert path.is_file(), f"no {rel}: rulebook graph {game} --format svg --out {rel}"
    svg = path.read_text(encoding="utf-8")
    titles = node_titles(svg) - {"END", "(start)"}
    assert titles == set(phases_of(folder)), f"{path.name} is out of date: draw it again"
    assert edge_titles(svg) == graph_edges(folder), f"{path.name} draws other arrows than the graph's: draw it again"
    assert f"img/{game}-phases.svg" in (ROOT / "docs" / "graphs.md").read_text(encoding="utf-8")
