"""Time to the first answer of each command form ``minimcp config`` writes (issue 30, point 4).

A host starts the server with the command its configuration holds. This times each
form, from spawn to the answer to ``tools/list`` (initialize, initialized and tools/list
are written at once), against the native script ``python3 server.py``, and gives every
figure as a ratio to the native script's median in the same run. Runs are interleaved
(one of each form per round), so load on the machine falls on every form alike.

    python3 bench/config_start.py [--rounds 21] [--out bench/config_start.md]

The forms:
  native            python3 server.py             (the script calls app.run() itself)
  minimcp.py serve  python3 minimcp.py serve X    (what config wrote before: minimcp.py is
                                                   compiled at every start, a script is
                                                   never cached)
  -m minimcp serve  python3 -m minimcp serve X    (what config writes now for a file with no
                    PYTHONPATH=<minimcp's folder>  `if __name__ == "__main__"`, for a file written
                                                   for the SDK where the SDK is missing, and for
                                                   `config minimcp.py serve ...`)
  ... --functions   python3 -m minimcp serve --functions X
"""

import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

NATIVE = '''from minimcp import MCPServer
app = MCPServer("notes")

@app.tool()
def save(title: str, text: str) -> str:
    """Save a note."""
    return "saved " + title

if __name__ == "__main__":
    app.run()
'''
SDK = '''from mcp.server.fastmcp import FastMCP
mcp = FastMCP("notes")

@mcp.tool()
def save(title: str, text: str) -> str:
    """Save a note."""
    return "saved " + title

if __name__ == "__main__":
    mcp.run()
'''
FUNCTIONS = '''def save(title: str, text: str) -> str:
    """Save a note."""
    return "saved " + title
'''
REQUESTS = b"".join(json.dumps(m).encode() + b"\n" for m in (
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))


def first_answer(command, env, cwd):
    """Seconds from spawn to the tools/list answer."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env, cwd=cwd)
    process.stdin.write(REQUESTS)
    process.stdin.flush()
    for line in process.stdout:
        if json.loads(line).get("id") == 2:
            elapsed = time.perf_counter() - started
            break
    else:
        raise SystemExit("no tools/list answer from %s" % " ".join(command))
    process.stdin.close()
    process.wait(10)
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--out", default=None, help="write the Markdown table here")
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="minimcp-config-start-")
    try:
        lib = os.path.join(work, "lib")                  # minimcp.py's folder, as the host finds it
        os.mkdir(lib)
        for part in glob.glob(os.path.join(ROOT, "minimcp*.py")):      # the core and the files beside it
            shutil.copy(part, lib)
        subprocess.run([sys.executable, "-m", "compileall", "-q", lib], check=True)   # as after a first start
        for name, text in (("native.py", NATIVE), ("sdk.py", SDK), ("functions.py", FUNCTIONS)):
            with open(os.path.join(work, name), "w") as handle:
                handle.write(text)
        python, minimcp_py = sys.executable, os.path.join(lib, "minimcp.py")
        plain = dict(os.environ, PYTHONPATH=lib)         # native.py imports minimcp from lib
        module = dict(os.environ, PYTHONPATH=lib)        # what config writes for the -m forms
        forms = [
            ("native script", "`python3 server.py`", [python, os.path.join(work, "native.py")], plain),
            ("before: minimcp.py serve", "`python3 /path/minimcp.py serve server.py`",
             [python, minimcp_py, "serve", os.path.join(work, "native.py")], plain),
            ("-m minimcp serve", "`python3 -m minimcp serve server.py`, `PYTHONPATH`",
             [python, "-m", "minimcp", "serve", os.path.join(work, "native.py")], module),
            ("-m minimcp serve, SDK file", "`python3 -m minimcp serve sdk_server.py` (no SDK installed)",
             [python, "-m", "minimcp", "serve", os.path.join(work, "sdk.py")], module),
            ("-m minimcp serve --functions", "`python3 -m minimcp serve --functions tools.py`",
             [python, "-m", "minimcp", "serve", "--functions", os.path.join(work, "functions.py")], module),
        ]
        cwd = tempfile.gettempdir()                      # a host's working directory, not the files'
        for _, _, command, env in forms:                 # warm the OS cache; not counted
            first_answer(command, env, cwd)
        times = {label: [] for label, _, _, _ in forms}
        for _ in range(options.rounds):
            for label, _, command, env in forms:
                times[label].append(first_answer(command, env, cwd))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    native = statistics.median(times["native script"])
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    rows = ["| form | command | median to first answer | vs native |", "|---|---|---|---|"]
    for label, shown, _, _ in forms:
        median = statistics.median(times[label])
        rows.append("| %s | %s | %.1f ms | %.2f× |" % (label, shown, median * 1000, median / native))
    table = "\n".join(rows)
    print(table)
    if options.out:
        with open(options.out, "w", encoding="utf-8") as handle:
            handle.write("# Time to the first answer of the commands `minimcp config` writes\n\n"
                         "`python3 bench/config_start.py --rounds %d` on %s, Python %s, load average %.1f "
                         "(%d shared cores). Spawn to the `tools/list` answer, median of %d interleaved "
                         "rounds; the ratio is to the native script's median in the same run.\n\n%s\n\n"
                         "The target (issue 30): every form `config` writes within 1.3× of the native script. "
                         "`python3 minimcp.py serve` is the form it wrote before, shown for comparison: "
                         "the whole of minimcp.py is compiled at every start, because a file run as a "
                         "script is never cached. `-m minimcp` loads the cached bytecode.\n"
                         % (options.rounds, time.strftime("%Y-%m-%d"), sys.version.split()[0], load,
                            os.cpu_count() or 0, options.rounds, table))


if __name__ == "__main__":
    main()
