"""The language server driven the way an editor drives it (pytest-lsp: the
server runs in a subprocess and talks LSP over stdio): diagnostics of a
dozen typical mistakes with their exact ranges, the did-you-mean quick fix,
hover, definition and references on names of every kind, completion, the
outline, and an edit sequence that breaks and repairs a ruleset."""

from __future__ import annotations

import itertools

import pytest
import pytest_lsp
from lsprotocol import types as T

from tests.lsp_client import ROOT, SERVER, diagnostics_now, line_of, open_document, position, replace_text, uri_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

GET_BIT = ROOT / "rulesets" / "get-bit" / "ruleset.yaml"
DRAW = ROOT / "rulesets" / "dead-mans-draw" / "ruleset.yaml"
BASE = GET_BIT.read_text(encoding="utf-8")
URI = uri_of(GET_BIT)
versions = itertools.count(2)


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: pytest_lsp.LanguageClient):
    capabilities = pytest_lsp.client_capabilities("visual-studio-code")
    await lsp_client.initialize_session(T.InitializeParams(capabilities=capabilities))
    open_document(lsp_client, URI, BASE)
    open_document(lsp_client, uri_of(DRAW), DRAW.read_text(encoding="utf-8"))
    yield
    await lsp_client.shutdown_session()


async def check(client, text: str) -> list[T.Diagnostic]:
    replace_text(client, URI, text, next(versions))
    return await diagnostics_now(client, URI)


# (what the author typed instead, the typo, the word, the code): each a mistake in one place of get-bit
MISTAKES = [
    ("misspelt zone", "      move r to line\n", "      move r to lien\n", "lien", "E030"),
    ("misspelt property", "if count(victim.limbs) == 0:", "if count(victim.limbz) == 0:", "limbz", "E032"),
    ("misspelt builtin", "for c in filter(components(card)", "for c in filtr(components(card)", "filtr", "E037"),
    ("misspelt component type", "components(shark_card)", "components(shark_cart)", "shark_cart", "E039"),
    ("misspelt procedure", "          eat(victim)\n          check_end", "          eet(victim)\n          check_end",
     "eet", "E037"),
    ("misspelt parameter", 'within choice_seconds prompt "choose a card', 'within choice_second prompt "choose a card',
     "choice_second", "E030"),
    ("misspelt local", "      move victim to line at top\n", "      move victm to line at top\n", "victm", "E030"),
    ("wrong argument count", 'value: "top(played[r]).value"', 'value: "top(played[r], 1, 2).value"', "top", "E040"),
    ("unknown phase in next", "    next: swim\n", "    next: swimm\n", "swimm", "E050"),
    ("unknown phase in a next list", "      - to: choose\n", "      - to: chose\n", "chose", "E050"),
]


@pytest.mark.parametrize("what, right, wrong, word, code", MISTAKES, ids=[m[0] for m in MISTAKES])
async def test_a_mistake_is_one_diagnostic_under_exactly_its_word(client, what, right, wrong, word, code):
    text = BASE.replace(right, wrong)
    (d,) = await check(client, text)
    line = line_of(text, wrong)
    start = position(text, line, word)
    assert d.code == code and d.source == "rulebook"
    assert d.range == T.Range(start=start, end=T.Position(line=start.line, character=start.character + len(word)))


async def test_a_type_mismatch_is_under_the_value(client):
    text = BASE.replace("      set round += 1\n", "      set round += 'one'\n")
    (d,) = await check(client, text)
    start = position(text, line_of(text, "set round += 'one'"), "'one'")
    assert d.code == "E041" and d.range.start == start
    assert d.severity == T.DiagnosticSeverity.Error


async def test_bad_indentation_in_a_rule_block_is_at_the_line_that_goes_back(client):
    text = BASE.replace("              hide played[r]\n          hide shark_played",
                        "              hide played[r]\n            hide shark_played")
    (d,) = await check(client, text)
    assert d.code == "E020"
    assert d.range.start == position(text, line_of(text, "            hide shark_played"), "hide")
    assert "indent" in d.related_information[0].message


async def test_a_yaml_syntax_error_is_reported_and_nothing_stale_remains(client):
    text = BASE.replace("players:\n  min: 4", "players:\n  min: 4\n   max: 3")
    diags = await check(client, text)
    assert [d.code for d in diags] == ["E001"]


async def test_the_hint_is_related_information_and_did_you_mean_is_a_quick_fix(client):
    text = BASE.replace("      move r to line\n", "      move r to lien\n")
    (d,) = await check(client, text)
    assert d.related_information[0].message == "hint: did you mean 'line'?"
    assert d.related_information[0].location.range == d.range
    actions = await client.text_document_code_action_async(T.CodeActionParams(
        text_document=T.TextDocumentIdentifier(uri=URI), range=d.range,
        context=T.CodeActionContext(diagnostics=[d])))
    (fix,) = actions
    assert fix.kind == T.CodeActionKind.QuickFix and fix.title == "Replace with 'line'"
    (edit,) = fix.edit.changes[URI]
    assert edit.range == d.range and edit.new_text == "line"


async def test_breaking_and_repairing_returns_to_zero_diagnostics(client):
    broken = BASE.replace("      move r to line\n", "      move r to lien\n").replace("next: swim\n", "next: swimm\n")
    steps = [BASE, broken, broken.replace("lien", "line"), BASE.replace("procedures:", "procedures:\n  oops: ["), BASE]
    counts = [len(await check(client, text)) for text in steps]
    assert counts[0] == 0 and counts[1] >= 1 and counts[2] == 1 and counts[3] >= 1 and counts[4] == 0


async def test_diagnostics_are_published_after_typing_stops(client):
    replace_text(client, URI, BASE.replace("      move r to line\n", "      move r to lien\n"), next(versions))
    while True:  # no request: the debounced check publishes by itself
        await client.wait_for_notification(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        if [d.code for d in client.diagnostics.get(URI, [])] == ["E030"]:
            break
    await check(client, BASE)


async def hover(client, uri, pos) -> str:
    result = await client.text_document_hover_async(T.HoverParams(text_document=T.TextDocumentIdentifier(uri=uri),
                                                                  position=pos))
    assert result is not None, pos
    return result.contents.value


HOVERS = [  # (line fragment, word, what the hover says)
    ("      move r to line\n", "line", ["zone line", "one shared zone", "holds robot", "visibility public",
                                        "The robots, front (top) to tail (bottom)."]),
    ("    for c in filter(components(card)", "filter", ["filter(xs, f)", "The items of `xs` for which `f` is true",
                                                         "Example:"]),
    ("    for c in filter(components(card)", "card", ["component card", "colour: int, value: int"]),
    ("if count(victim.limbs) == 0:", "limbs", ["robot.limbs: list of str", "changing"]),
    ('value: "top(played[r]).value"', "value\"", ["card.value: int", "fixed", "range(1, top_value + 1)"]),
    ("          eat(victim)\n          check_end", "eat", ["procedure eat(r: robot)", "The shark eats a robot"]),
    ("      let values = map(line, r => value_of(r))", "value_of", ["function value_of(r: robot) -> int",
                                                                  "The value of the card a robot played"]),
    ('within choice_seconds prompt "choose a card', "choice_seconds", ["param choice_seconds: int", "default `0`",
                                                                      "The optional timer"]),
    ("  if shark_player:\n      set hunger", "shark_player", ["param shark_player: bool",
                                                               "set by the variants: play-the-shark"]),
    ("      move victim to line at top\n", "victim", ["victim: robot", "local"]),
    ("      set hunger -= 1", "hunger", ["var hunger: int"]),
    ("  start_limbs: \"limb_names + limb_names", "limb_names", ["define limb_names: list of str",
                                                               "['left arm', 'right arm', 'left leg', 'right leg']"]),
    ("    next: swim\n", "swim", ["phase swim", "Robots with a unique value move to the front"]),
]


@pytest.mark.parametrize("fragment, word, says", HOVERS, ids=[h[1].strip('"') for h in HOVERS])
async def test_hover_tells_what_a_name_is(client, fragment, word, says):
    await check(client, BASE)
    line = line_of(BASE, fragment)
    text = await hover(client, URI, position(BASE, line, word.strip('"'), nth=1 if word == 'value"' else 0))
    for part in says:
        assert part in text, (part, text)


async def definition(client, uri, pos) -> list[T.Location]:
    return await client.text_document_definition_async(T.DefinitionParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=pos))


DEFINITIONS = [  # (use: line fragment, word), (definition: line fragment, word)
    (("      move r to line\n", "line"), ("  line:\n", "line")),
    (("if count(victim.limbs) == 0:", "limbs"), ("      limbs: start_limbs", "limbs")),
    (("    for c in filter(components(card)", "card"), ("  card:\n    for_each", "card")),
    (("          eat(victim)\n          check_end", "eat"), ("  eat:\n", "eat")),
    (("      let values = map(line, r => value_of(r))", "value_of"), ("  value_of:\n", "value_of")),
    (('within choice_seconds prompt "choose a card', "choice_seconds"), ("  choice_seconds:\n", "choice_seconds")),
    (("      set hunger -= 1", "hunger"), ("  hunger: {initial", "hunger")),
    (("  start_limbs: \"limb_names + limb_names", "limb_names"), ("  limb_names: ", "limb_names")),
    (("      move victim to line at top\n", "victim"), ("    params: {victim: robot, limb: str}", "victim")),
    (("          eat(last)\n", "last"), ("          let last = bottom(line)", "last")),
    (("    next: swim\n", "swim"), ("  swim:\n", "swim")),
]


@pytest.mark.parametrize("use, decl", DEFINITIONS, ids=[d[0][1] for d in DEFINITIONS])
async def test_definition_goes_from_a_use_to_its_declaration(client, use, decl):
    await check(client, BASE)
    (loc,) = await definition(client, URI, position(BASE, line_of(BASE, use[0]), use[1]))
    start = position(BASE, line_of(BASE, decl[0]), decl[1])
    assert loc.uri == URI and loc.range.start == start
    assert loc.range.end.character == start.character + len(decl[1])


async def test_yaml_keys_and_values_name_actions(client):
    uri, text = uri_of(DRAW), DRAW.read_text(encoding="utf-8")
    listed = line_of(text, "      actions: [draw, bank]")
    key = position(text, line_of(text, "  bank:\n    description: Take the loot!"), "bank")  # the action, not the zone
    (loc,) = await definition(client, uri, position(text, listed, "bank"))
    assert loc.range.start == key
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=T.TextDocumentIdentifier(uri=uri), position=key,
        context=T.ReferenceContext(include_declaration=True)))
    assert [r.range.start for r in refs] == [loc.range.start, position(text, listed, "bank")]


async def test_references_of_a_zone_are_its_key_and_every_use(client):
    await check(client, BASE)
    key = position(BASE, line_of(BASE, "  shark_played:\n"), "shark_played")
    refs = await client.text_document_references_async(T.ReferenceParams(
        text_document=T.TextDocumentIdentifier(uri=URI), position=key,
        context=T.ReferenceContext(include_declaration=False)))
    lines = BASE.splitlines()
    expected = [i for i, row in enumerate(lines) if "shark_played" in row.replace("shark_played:", "")
                and not row.lstrip().startswith(("layout", "#"))]
    assert sorted({r.range.start.line for r in refs}) == expected
    assert all(lines[r.range.start.line][r.range.start.character:r.range.end.character] == "shark_played"
               for r in refs)


async def complete(client, text: str, line: int, character: int) -> list[str]:
    replace_text(client, URI, text, next(versions))
    result = await client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=URI), position=T.Position(line=line - 1, character=character)))
    return [item.label for item in result.items]


async def test_completion_after_a_dot_offers_the_components_properties(client):
    await check(client, BASE)
    text = BASE.replace("      if count(victim.limbs) == 0:", "      if count(victim.")
    line = line_of(text, "      if count(victim.")
    labels = await complete(client, text, line, len("      if count(victim."))
    assert labels == ["colour", "limbs", "owner", "type", "id"]


async def test_completion_offers_the_names_in_scope(client):
    await check(client, BASE)
    text = BASE.replace("          eat(last)\n", "          eat(la\n")
    line = line_of(text, "          eat(la\n")
    labels = await complete(client, text, line, len("          eat(la"))
    for name in ("last", "victim", "player", "line", "hunger", "choice_seconds", "robot", "filter", "eat", "value_of"):
        assert name in labels, name
    assert "limb" not in labels  # a parameter of another procedure


async def test_builtins_complete_as_snippets(client):
    await check(client, BASE)
    text = BASE.replace("          eat(last)\n", "          eat(to\n")
    replace_text(client, URI, text, next(versions))
    result = await client.text_document_completion_async(T.CompletionParams(
        text_document=T.TextDocumentIdentifier(uri=URI),
        position=T.Position(line=line_of(text, "          eat(to\n") - 1, character=len("          eat(to"))))
    (top,) = [i for i in result.items if i.label == "top"]
    assert top.insert_text == "top(${1:xs})$0" and top.insert_text_format == T.InsertTextFormat.Snippet


async def test_the_outline_lists_phases_actions_procedures_functions_components_zones(client):
    await check(client, BASE)
    symbols = await client.text_document_document_symbol_async(
        T.DocumentSymbolParams(text_document=T.TextDocumentIdentifier(uri=URI)))
    outline = {s.name: [c.name for c in s.children] for s in symbols}
    assert outline == {
        "phases": ["choose", "swim", "bite"],
        "procedures": ["eat", "bite", "lose", "take_back_single", "check_end", "shark_bite", "miss"],
        "functions": ["shark_done", "value_of"],
        "components": ["robot", "card", "shark_card"],
        "zones": ["line", "eaten", "hand", "played", "shark_hand", "shark_played"],
    }
    robot = next(s for s in symbols if s.name == "components").children[0]
    assert [c.name for c in robot.children] == ["colour", "limbs"]


async def test_a_scenario_file_is_run_on_the_text_in_the_editor(client):
    path = ROOT / "rulesets" / "get-bit" / "scenarios" / "first-round-no-bite.yaml"
    uri, text = uri_of(path), path.read_text(encoding="utf-8")
    open_document(client, uri, text)
    assert list(await diagnostics_now(client, uri)) == []
    wrong = text.replace('"round == 2"', '"round == 3"')
    replace_text(client, uri, wrong, 2)
    (d,) = await diagnostics_now(client, uri)
    assert d.code is not None and d.range.start.line == line_of(wrong, '"round == 3"') - 1
    replace_text(client, uri, text.replace("seed: 7", "sede: 7"), 3)
    (d,) = await diagnostics_now(client, uri)
    assert d.code == "E070" and d.range.start == position(text, line_of(text, "seed: 7"), "seed")


async def test_in_a_statement_given_up_at_a_mistake_names_still_hover_and_jump(client):
    text = BASE.replace("      move r to line\n      for c in filter(components(card)",
                        "      move rr to line\n      for c in filter(components(cart)")
    assert [d.code for d in await check(client, text)] == ["E030", "E039"]
    wrong = line_of(text, "      move rr to line\n")
    assert "filter(xs, f)" in await hover(client, URI, position(text, wrong + 1, "filter"))
    (loc,) = await definition(client, URI, position(text, wrong, "line"))  # given up at 'rr'
    assert loc.range.start == position(text, line_of(text, "  line:\n"), "line")
