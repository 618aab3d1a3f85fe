"""The generative differential's instrument (tests/interop/sdk_generate.py), without an SDK.

The stage itself (tests/interop/run_sdk_generate.sh) runs the servers under the real SDKs and
under serve; here: the generator is a pure function of the seed, covers the six styles, writes
servers that compile and calls that name what the server defines, and the README's table of
deliberate differences stays in step with the rules that implement it and the scopes the
differential applies under serve.
"""

import ast
import os
import subprocess
import sys

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "tests", "interop"))

import deliberate  # noqa: E402
import sdk_generate  # noqa: E402
from pathlib import Path  # noqa: E402

SDK_DIFF = os.path.join(ROOT, "tests", "interop", "sdk_diff.py")


def rules_in_sdk_diff():
    """The keys of sdk_diff.RULES, read from its source (importing it needs the SDK client)."""
    tree = ast.parse(open(SDK_DIFF, encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "RULES" for t in node.targets):
            return [key.value for key in node.value.keys]
    raise AssertionError("sdk_diff.py has no RULES table")


def test_every_row_of_the_readme_table_has_a_rule_and_a_scope_under_serve():
    table = deliberate.readme_table(Path(ROOT) / "README.md")
    assert list(table) == [f"D{n}" for n in range(1, len(table) + 1)]
    assert list(table) == rules_in_sdk_diff()
    assert set(table.values()) <= set(deliberate.SCOPES), table
    scopes = deliberate.serve_scopes(Path(ROOT) / "README.md", rules_in_sdk_diff())
    assert scopes["D1"] == "all" and scopes["D3"] == "invalid" and "D9" not in scopes


def test_a_row_without_a_rule_or_with_an_unknown_scope_stops_the_differential(tmp_path):
    readme = tmp_path / "README.md"
    head = "## Migrating from the official SDK\n\n| # | Under `serve` | Difference | Why |\n|---|---|---|---|\n"
    readme.write_text(head + "| D1 | yes | a | b |\n| D2 | sometimes | c | d |\n")
    try:
        deliberate.serve_scopes(readme, ["D1", "D2"])
    except SystemExit as exc:
        assert "D2" in str(exc) and "sometimes" in str(exc)
    else:
        raise AssertionError("an unknown scope was accepted")
    readme.write_text(head + "| D1 | yes | a | b |\n| D2 | no | c | d |\n")
    try:
        deliberate.serve_scopes(readme, ["D1"])
    except SystemExit as exc:
        assert "D2" in str(exc)
    else:
        raise AssertionError("a row without a rule was accepted")


def test_a_seed_always_writes_the_same_server_and_six_seeds_cover_the_six_styles():
    assert [sdk_generate.draw(seed).style for seed in range(6)] == list(sdk_generate.STYLES)
    for seed in (0, 7, 41, 1234):
        assert sdk_generate.render(sdk_generate.draw(seed)) == sdk_generate.render(sdk_generate.draw(seed))
        assert sdk_generate.cases_for(sdk_generate.draw(seed)) == sdk_generate.cases_for(sdk_generate.draw(seed))
    assert sdk_generate.render(sdk_generate.draw(0)) != sdk_generate.render(sdk_generate.draw(6))


def test_every_server_of_the_ci_range_compiles_and_its_calls_name_what_it_defines():
    seen = {"kinds": set(), "results": set(), "bodies": set(), "docs": set()}
    for seed in range(0, 240):
        server = sdk_generate.draw(seed)
        source = sdk_generate.render(server)
        compile(source, f"gen_{seed}.py", "exec")
        for (kind, name, *_), label in sdk_generate.cases_for(server):
            if kind == "tool" and name != "no_such_tool":
                assert f'"{name}"' in source or f"def {name}(" in source, (seed, name)
            elif kind == "prompt" and name != "no_such_prompt":
                assert name in source, (seed, name)
        for tool in server.tools:
            seen["kinds"].update(p.kind for p in tool.params)
            seen["results"].add(tool.result)
            seen["bodies"].add(tool.body)
            seen["docs"].add(tool.doc)
    # The range draws every parameter kind, result kind, body and docstring style.
    assert seen["kinds"] == set(sdk_generate.KINDS)
    assert seen["results"] == set(sdk_generate.RESULTS)
    assert seen["bodies"] == {"ok", "value_error", "tool_error", "mcp_error", "wrong_result"}
    assert seen["docs"] == {"none", "line", "google", "numpy", "rest"}


def test_show_prints_the_server_of_a_seed_with_the_standard_library_alone():
    done = subprocess.run([sys.executable, "-I", os.path.join(ROOT, "tests", "interop", "sdk_generate.py"),
                           "--show", "5"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == sdk_generate.render(sdk_generate.draw(5))
    assert "on_call_tool=handle_call_tool" in done.stdout        # seed 5 is the low-level 2.x form


def test_a_fastmcp_server_runs_under_the_other_fastmcp_in_that_versions_idioms():
    spec = sdk_generate.draw(14)                                   # fastmcp2: fastmcp.prompts.prompt.Message
    assert spec.style == "fastmcp2" and "from fastmcp.prompts.prompt import Message" in sdk_generate.render(spec)
    assert sdk_generate.source_for(spec, "fastmcp2") == sdk_generate.render(spec)
    other = sdk_generate.source_for(spec, "fastmcp4")
    assert "from fastmcp.prompts import Message" in other and "fastmcp.prompts.prompt" not in other
    assert sdk_generate.source_for(spec, "fastmcp4").count("@") == sdk_generate.render(spec).count("@")
    mcp1 = sdk_generate.draw(0)
    assert sdk_generate.source_for(mcp1, "mcp1") == sdk_generate.render(mcp1)


def test_a_refused_result_is_compared_by_what_was_refused_not_by_the_order_the_schema_is_quoted_in():
    # seed 161: mcp 2.3.0 writes an outputSchema's keys in its wire model's order, minimcp in the
    # server's; the client quotes the listed schema in its refusal, in the order it came
    def refusal(schema, instance="{'summary': 5}"):
        return {"client_error": "RuntimeError: Invalid structured content returned by tool t: 'text' is a required "
                "property\n\nFailed validating 'required' in schema:\n    %s\n\nOn instance:\n    %s" % (schema, instance)}
    real = refusal("{'properties': {'text': {'type': 'string'}},\n     'required': ['text'],\n     'type': 'object'}")
    mini = refusal("{'type': 'object',\n     'properties': {'text': {'type': 'string'}},\n     'required': ['text']}")
    assert sdk_generate._schema_unquoted({"06 tool t {}": real}) == sdk_generate._schema_unquoted({"06 tool t {}": mini})
    other = refusal("{'type': 'object'}", instance="{'summary': 6}")
    assert sdk_generate._schema_unquoted({"06 tool t {}": real}) != sdk_generate._schema_unquoted({"06 tool t {}": other})


def test_a_run_that_compared_too_few_servers_or_none_of_a_style_fails():
    def outcome(style, status):
        return {"style": style, "status": status}
    every = [outcome(style, "pass") for style in sdk_generate.STYLES]
    assert sdk_generate.too_few_compared(every, 6) is None
    assert "only 6 of 6" in sdk_generate.too_few_compared(every, 7)
    skipped = every[:4] + [outcome("lowlevel1", "skip"), outcome("lowlevel2", "fail")]
    assert "none in the styles lowlevel1" in sdk_generate.too_few_compared(skipped, 5)
    assert sdk_generate.too_few_compared(skipped, 0) is None          # without --require, as before
