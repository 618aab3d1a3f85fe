#!/usr/bin/env python3
"""The checks that failed through the bridge, run again straight against the server with the SDK's
own Streamable HTTP client: a check that fails the same way there is the server's, not the bridge's.

    python bridge_sdk_direct.py --url URL CHECK...     (a Python with mcp==2.3.0 and jsonschema)

CHECK is a name from python_sdk_client.py's output, ``2025-11-25.<feature>`` or
``2026-07-28.<feature>``. Prints ``same CHECK: why`` when the check fails directly too, and
``DIFFERS CHECK: passes without the bridge`` otherwise; exits 1 if any differs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from python_sdk_client import (  # noqa: E402  (the checks themselves, unchanged)
    CLIENT_INFO,
    MODERN,
    Client,
    Fixture,
    Peer,
    WireLog,
    anyio,
    describe,
    feature_checks,
)

from mcp.client.streamable_http import streamable_http_client  # noqa: E402


async def run_era(url: str, era: str, wanted: list[str]) -> list[tuple[str, str | None]]:
    prefix = "2025-11-25" if era == "legacy" else MODERN
    peer = Peer()
    fixture = Fixture(None, peer, WireLog(Path("/nonexistent/no-wire-log")), era)  # type: ignore[arg-type]
    checks = dict(feature_checks(fixture))
    outcomes = []
    async with Client(streamable_http_client(url), mode="legacy" if era == "legacy" else "auto",
                      read_timeout_seconds=20, cache=None, client_info=CLIENT_INFO,
                      sampling_callback=peer.sampling_callback, list_roots_callback=peer.list_roots_callback,
                      elicitation_callback=peer.elicitation_callback, logging_callback=peer.logging_callback,
                      message_handler=peer.message_handler) as client:
        fixture.c = client
        await checks["tools/list"]()
        for name in wanted:
            try:
                with anyio.fail_after(30):
                    await checks[name.split(".", 1)[1]]()
            except Exception as exc:  # noqa: BLE001 - every failure is reported
                outcomes.append((name, describe(exc)))
            else:
                outcomes.append((name, None))
    return outcomes


async def amain(url: str, names: list[str]) -> int:
    differs = 0
    for era, prefix in (("legacy", "2025-11-25"), ("modern", MODERN)):
        wanted = [name for name in names if name.startswith(prefix + ".")]
        if not wanted:
            continue
        for name, why in await run_era(url, era, wanted):
            if why is None:
                differs += 1
                print(f"DIFFERS {name}: passes without the bridge", flush=True)
            else:
                print(f"same {name}: {why}", flush=True)
    return 1 if differs else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("checks", nargs="+")
    args = parser.parse_args()
    return anyio.run(amain, args.url, args.checks)


if __name__ == "__main__":
    sys.exit(main())
