"""What a bigger minimcp.py costs at start, idle and exit, apart from what its code does.

Three servers run the same echo script (servers/minimcp_echo.py), interleaved, in one run:

* ``baseline``: an older minimcp.py (``--baseline DIR``, e.g. a checkout of 106df7c);
* ``baseline + ballast``: the same file with code appended that is compiled but never run:
  the current minimcp.py from the banner ``--from`` to its end, nested in one function that
  nobody calls. Its .pyc is about as big as the current one's, so this server pays for the
  size alone (reading and unmarshalling the code objects, keeping them, freeing them at exit);
* ``current``: the current minimcp.py (``--minimcp DIR``, default: the repository).

For each: spawn -> initialize answer, VmRSS once idle, and stdin EOF -> exit (medians).
The .pyc of each is written first (into a temporary copy), as a host's second start would find it,
and the servers run in a venv without packages, as run.py's bare loop and minimcp do.

    python3 bench/size_cost.py --baseline /path/to/old --reps 30 --tools 10000

``--tools N`` also times tools/list with N registered tools on the baseline and the current
file, both servers running at once and listed in turn (one list each, ``--reps`` times), so the
two share the machine's state; run.py's sweep lists each server apart, 5 times.
"""
import argparse
import json
import os
import py_compile
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ECHO = os.path.join(HERE, "servers", "minimcp_echo.py")
INIT = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "size_cost", "version": "1"}}}).encode() + b"\n"


def with_ballast(baseline_source: str, current_source: str, banner: str) -> str:
    """The baseline with the current file's tail (from ``banner``) compiled into an uncalled function."""
    lines = current_source.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(banner))
    body = "\n".join("    " + line if line.strip() else "" for line in lines[start:])
    ballast = "\n\ndef _ballast():  # never called: its code objects are loaded, never run\n" + body + "\n"
    main_block = baseline_source.rfind('\nif __name__ == "__main__":')
    cut = main_block if main_block >= 0 else len(baseline_source)
    return baseline_source[:cut] + ballast + baseline_source[cut:]


def place(directory: str, source: str) -> int:
    """Write minimcp.py and its .pyc into ``directory``; return the .pyc's size."""
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "minimcp.py")
    with open(path, "w") as handle:
        handle.write(source)
    return os.path.getsize(py_compile.compile(path, doraise=True))


def measure(python: str, directory: str) -> tuple:
    env = dict(os.environ, MINIMCP_PATH=directory)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    started = time.perf_counter()
    process = subprocess.Popen([python, ECHO], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    process.stdin.write(INIT)
    process.stdin.flush()
    process.stdout.readline()
    spawn = time.perf_counter() - started
    time.sleep(0.05)                              # idle: the first answer's work is done
    with open("/proc/%d/status" % process.pid) as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024
    closed = time.perf_counter()
    process.stdin.close()
    process.wait()
    return spawn * 1000, rss, (time.perf_counter() - closed) * 1000


def list_times(python: str, directories: dict, tools: int, reps: int) -> dict:
    """Median tools/list round trip (ms) per label, the servers up together and listed in turn."""
    sys.path.insert(0, HERE)
    from client import Server
    servers = {}
    try:
        for label, directory in directories.items():
            env = dict(os.environ, MINIMCP_PATH=directory, MCPBENCH_TOOLS=str(tools - 1))
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            servers[label] = Server([python, ECHO], env, None, "legacy").__enter__()
            servers[label].open(120)
            servers[label].list_tools(120)             # the first list shapes and caches
        times = {label: [] for label in servers}
        for _ in range(reps):
            for label, server in servers.items():
                started = time.perf_counter()
                server.list_tools(120)
                times[label].append((time.perf_counter() - started) * 1000)
        return {label: statistics.median(values) for label, values in times.items()}
    finally:
        for server in servers.values():
            server.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", required=True, help="directory holding the older minimcp.py")
    parser.add_argument("--minimcp", default=os.path.dirname(HERE), help="directory holding the current one")
    parser.add_argument("--from", dest="banner", default="# The server: the worker pool",
                        help="first line of the current file's tail used as ballast")
    parser.add_argument("--reps", type=int, default=30)
    parser.add_argument("--tools", type=int, default=0, help="also time tools/list with this many tools")
    options = parser.parse_args()
    if not os.path.exists("/proc/self/status"):
        raise SystemExit("size_cost.py reads VmRSS from /proc: Linux only")
    with open(os.path.join(options.baseline, "minimcp.py")) as handle:
        baseline = handle.read()
    with open(os.path.join(options.minimcp, "minimcp.py")) as handle:
        current = handle.read()
    work = tempfile.mkdtemp(prefix="minimcp-size-")
    try:
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", os.path.join(work, "venv")], check=True)
        python = os.path.join(work, "venv", "bin", "python")
        servers = [("baseline", baseline), ("baseline + ballast", with_ballast(baseline, current, options.banner)),
                   ("current", current)]
        sizes, results = {}, {}
        for index, (label, source) in enumerate(servers):
            sizes[label] = place(os.path.join(work, str(index)), source)
        for _ in range(options.reps):
            for index, (label, _source) in enumerate(servers):
                results.setdefault(label, []).append(measure(python, os.path.join(work, str(index))))
        listed = list_times(python, {"baseline": os.path.join(work, "0"), "current": os.path.join(work, "2")},
                            options.tools, options.reps) if options.tools else {}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("| server | .pyc | spawn → initialize answer | RSS idle | stdin EOF → exit |")
    print("|---|---|---|---|---|")
    for label, _source in servers:
        spawn, rss, exit_ms = (statistics.median(column) for column in zip(*results[label]))
        print("| %s | %d KB | %.1f ms | %.2f MiB | %.2f ms |" % (label, sizes[label] // 1000, spawn, rss, exit_ms))
    for label, median in listed.items():
        print("\ntools/list with %d tools, %s: %.1f ms" % (options.tools, label, median), end="")
    print("\n\n(medians of %d interleaved runs; python %s)" % (options.reps, sys.version.split()[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
