#!/usr/bin/env python3
"""How servers from GitHub that no one here has seen fare under `serve`, as a new user finds them.

Reads tests/interop/unseen_servers.txt (REPO@COMMIT, the server's file, its style, its arguments,
its other requirements) and, for each server, takes its directory at that commit from a local git
snapshot of the repository (MIRROR/OWNER+NAME/repo, as the `fetch` tool writes them; their code is
never committed here). Then, with sdk_corpus.py's harness and the official client (mcp 2.3.0):

  1. runs it as its users do, `python FILE ARGUMENTS` from its directory, under the pinned SDK of
     its style (a fastmcp server under fastmcp 4.2.3, then 2.14.7 if that one differs), twice: the
     fields in which the two runs differ (clocks, random draws, process ids) are values of the run;
  2. runs it unchanged as `python3 minimcp.py serve FILE ARGUMENTS` in a venv without any SDK;
  3. records initialize, the listings, every tool with arguments its schema accepts, with none and
     with a wrong type, every listed resource and prompt (sdk_corpus.generated_cases), and compares
     the answers field by field with sdk_generate.py's rules (the README's deliberate differences
     that hold under serve).

Each server starts under serve or not, and answers as under its SDK or not; the run ends with those
counts for the FastMCP servers and the low-level ones. Run by run_sdk_generate.sh with UNSEEN=MIRROR:

    python unseen_servers.py --list unseen_servers.txt --mirror /work/.mirror --sdk mcp1=PY ...
                             --mini-python PY [--only REPO] [-v] [--keep]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sdk_generate  # noqa: E402  (the references, the serve rules, the comparison)

# The pinned SDKs a server of each style runs under; the first is its own.
STYLE_REFERENCES = {"mcp1": ("mcp1",), "fastmcp": ("fastmcp4", "fastmcp2"), "lowlevel1": ("mcp1",)}


def read_list(path: Path) -> list:
    servers, current = [], "gathered first"
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("# Set:"):
            current = line[len("# Set:"):].strip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 5 or "@" not in parts[0] or parts[2] not in STYLE_REFERENCES:
            raise SystemExit(f"{path}:{number}: want 'REPO@COMMIT | FILE | STYLE | ARGUMENTS | REQUIREMENTS'")
        repo, commit = parts[0].split("@")
        servers.append({"repo": repo, "commit": commit, "file": parts[1], "style": parts[2],
                        "args": [] if parts[3] == "-" else parts[3].split(),
                        "requires": [] if parts[4] == "-" else parts[4].split(), "line": number, "set": current})
    return servers


def extract(server: dict, mirror: Path, dest: Path) -> None:
    """The server's directory at its commit, from the snapshot, into dest."""
    git_dir = mirror / server["repo"].replace("/", "+") / "repo"
    if not git_dir.exists():
        raise RuntimeError(f"no snapshot of {server['repo']} in {mirror} (fetch github:{server['repo']})")
    folder = str(Path(server["file"]).parent)
    archive = subprocess.run(["git", "--git-dir", str(git_dir), "archive", server["commit"], "--", folder],
                             capture_output=True)
    if archive.returncode == 0:
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
        return
    # A snapshot may list its largest files without holding them (models, data sets): then
    # the folder is written blob by blob, leaving out the ones it does not hold.
    listing = subprocess.run(["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", server["commit"], "--", folder],
                             capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape")
    for entry in filter(None, listing.split("\0")):
        meta, path = entry.split("\t", 1)
        mode, kind, blob = meta.split()
        if kind != "blob":
            continue
        content = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "blob", blob], capture_output=True)
        if content.returncode:
            continue
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content.stdout)
        if mode == "100755":
            target.chmod(0o755)


def answers_alike(harness, first: dict, second: dict) -> list:
    """The fields in which two runs of the same reference differ: values of the run."""
    return sorted({d["field"] for d in harness.corpus.answer_differences(first, second)})


def invalid_keys(harness, cases: list) -> set:
    """The answers to calls with invalid arguments: every call to a tool after its first (the
    generated cases send valid arguments first, then none, then a wrong type)."""
    seen, invalid = set(), set()
    for index, case in enumerate(cases):
        if case[0] == "tool":
            if case[1] in seen:
                invalid.add(harness.key(index, case))
            seen.add(case[1])
    return invalid


def check(server: dict, harness, args) -> dict:
    name = f"{server['repo']}:{server['file']}"
    base = harness.work / f"unseen-{server['line']}"
    base.mkdir(parents=True, exist_ok=True)
    source = base / "source"
    if not source.exists():
        source.mkdir()
        extract(server, args.mirror, source)
    deps = base / "deps"
    if server["requires"] and not deps.exists():
        done = subprocess.run([args.pip, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                               "--no-compile", "--target", str(deps), *server["requires"]], capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"pip install {' '.join(server['requires'])} failed:\n{done.stderr[-1500:]}")
    folder = str(Path(server["file"]).parent)
    file = Path(server["file"]).name
    env_extra = {"PYTHONPATH": str(deps)} if server["requires"] else {}
    outcome = {"name": name, "style": server["style"], "set": server["set"]}

    def run(label: str, python: list, cases):
        cwd = base / label
        spec = {"name": name, "notifications": True,
                "setup": [f"cp -R '{source}/.' ."]}
        command = ["/bin/sh", "-c", 'cd "$0" && exec "$@"', folder, *python]
        env = dict(harness.env, **env_extra, HOME=str(cwd / "home"), TMPDIR=str(cwd))
        return harness.corpus.run_one(command, cwd, env, spec, base / f"{label}.stderr", cases)

    mini = None
    for reference in STYLE_REFERENCES[server["style"]]:
        real, cases, failure = run(reference, [harness.sdks[reference], file, *server["args"]], None)
        if "initialize" not in real:
            outcome.setdefault("reference_failures", {})[reference] = failure.splitlines()[0] if failure else "?"
            continue
        again, _, _ = run(reference + "-again", [harness.sdks[reference], file, *server["args"]], cases)
        volatile = answers_alike(harness, real, again)
        if mini is None:
            mini, _, mini_failure = run("mini", [harness.mini, harness.minimcp, "serve", file, *server["args"]], cases)
            outcome["started"] = "initialize" in mini
            if not outcome["started"]:
                outcome["why"] = sdk_generate.last_word(base / "mini.stderr", mini_failure)
        differences, used = harness.compare(real, mini, invalid_keys(harness, cases), "fastmcp"
                                            if server["style"] == "fastmcp" else "mcp1")
        remaining = [d for d in differences if not harness.corpus.under(d["field"], volatile)]
        if "differences" not in outcome or len(remaining) < len(outcome["differences"]):
            outcome.update(reference=reference, differences=remaining, used=used, volatile=volatile)
        if not remaining:
            break
    outcome["answered"] = "reference" in outcome
    outcome["identical"] = outcome["answered"] and outcome.get("started", False) and not outcome["differences"]
    return outcome


def checked(server: dict, harness, args) -> dict:
    """check(), with a failure of the harness itself (a snapshot missing, pip failing) as the outcome."""
    try:
        return check(server, harness, args)
    except Exception as exc:  # noqa: BLE001 - reported per server, the others go on
        return {"name": f"{server['repo']}:{server['file']}", "style": server["style"], "set": server["set"],
                "answered": False,
                "identical": False, "reference_failures": {"harness": f"{type(exc).__name__}: {exc}"}}


def report(outcome: dict, verbose: bool) -> None:
    if not outcome["answered"]:
        print(f"REFERENCE FAILED {outcome['name']}: {outcome.get('reference_failures')}")
    elif outcome["identical"]:
        print(f"ok {outcome['name']}  (as under {sdk_generate.PINS[outcome['reference']]})")
    elif not outcome.get("started"):
        print(f"DOES NOT START {outcome['name']}: {outcome.get('why', '?')}")
    else:
        differences = outcome["differences"]
        print(f"DIFFERS {outcome['name']}: {len(differences)} difference(s) from {sdk_generate.PINS[outcome['reference']]}")
        for difference in differences if verbose else differences[:5]:
            print("    " + sdk_generate.describe(difference))
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", type=Path, default=Path(__file__).resolve().parent / "unseen_servers.txt")
    parser.add_argument("--mirror", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--sdk", action="append", default=[], help="REFERENCE=PYTHON (mcp1, fastmcp2, fastmcp4)")
    parser.add_argument("--mini-python", required=True)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--readme", type=Path)
    parser.add_argument("--only", action="append", default=[], help="a repository (OWNER/NAME) to run alone")
    parser.add_argument("--pip", default=sys.executable, help="the interpreter whose pip installs the requirements")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--report", type=Path)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    args.readme = args.readme or args.repo / "README.md"
    args.work = args.work or Path(tempfile.mkdtemp(prefix="minimcp-unseen."))
    harness = sdk_generate.Harness(args)
    servers = [s for s in read_list(args.list) if not args.only or s["repo"] in args.only]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        outcomes = []
        for outcome in pool.map(lambda s: checked(s, harness, args), servers):
            report(outcome, args.verbose)
            outcomes.append(outcome)
    print()
    for group in dict.fromkeys(o["set"] for o in outcomes):
        for title, styles in (("FastMCP", ("mcp1", "fastmcp")), ("low-level Server", ("lowlevel1",))):
            mine = [o for o in outcomes if o["style"] in styles and o["set"] == group]
            answered = [o for o in mine if o["answered"]]
            print(f"# {group}, {title}: {sum(o.get('started', False) for o in answered)} of {len(answered)} start "
                  f"under serve, {sum(o['identical'] for o in answered)} of {len(answered)} answer as under their SDK"
                  + (f" ({len(mine) - len(answered)} do not start under their own SDK here)"
                     if len(answered) < len(mine) else ""))
    if args.report:
        args.report.write_text(json.dumps(outcomes, indent=1, default=str) + "\n", encoding="utf-8")
    if not args.keep:
        import shutil
        shutil.rmtree(args.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
