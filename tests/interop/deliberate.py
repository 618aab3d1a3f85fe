"""The README's table of deliberate differences, as the differentials read it.

The table (README, "Migrating from the official SDK") has one row per difference minimcp
keeps on purpose: `| D<n> | <under serve> | <difference> | <why> |`. sdk_diff.py implements
each row as a normalising rule; sdk_generate.py applies the rows whose second column says they
hold under `python3 minimcp.py serve`. tests/sdk/test_sdk_generate.py keeps the table, the rules
and the scopes in step. Standard library only, so the tests can read it without an SDK.
"""

from __future__ import annotations

import re
from pathlib import Path

# Where a row holds under serve (its second column): for every answer, only for the answers to
# calls with invalid arguments, or not at all (only with a server's imports changed to minimcp).
SCOPES = {"yes": "all", "invalid arguments": "invalid", "no": None}


def readme_table(readme: Path) -> dict[str, str]:
    """{row: its "Under `serve`" column} of the README's table of deliberate differences."""
    text = readme.read_text(encoding="utf-8")
    start = text.find("## Migrating from the official SDK")
    if start < 0:
        raise SystemExit(f"{readme} has no section 'Migrating from the official SDK'")
    end = text.find("\n## ", start + 1)
    section = text[start:end if end > 0 else len(text)]
    return dict(re.findall(r"^\|\s*(D\d+)\s*\|\s*([^|]*?)\s*\|", section, re.M))


def serve_scopes(readme: Path, implemented) -> dict[str, str]:
    """{row: "all" or "invalid"} for the rows that hold under serve. Fails on a row with an
    unknown scope or that no rule in `implemented` (sdk_diff.RULES) implements."""
    table = readme_table(readme)
    unknown = {row: scope for row, scope in table.items() if scope not in SCOPES}
    if unknown:
        raise SystemExit(f"README rows with an unknown 'Under serve' value: {unknown} (known: {sorted(SCOPES)})")
    missing = [row for row in table if row not in implemented]
    if missing:
        raise SystemExit(f"README rows that no rule of sdk_diff.py implements: {missing}")
    return {row: SCOPES[scope] for row, scope in table.items() if SCOPES[scope]}
