"""``import minimcp`` with no .pyc: the full file beside the core-only build (vendor --without all).

Where no bytecode can be written (a read-only vendor directory, PYTHONDONTWRITEBYTECODE),
every start compiles the file again. This times, interleaved in one run, a bare
interpreter start, ``import minimcp`` from the full file and from the core-only file, each
in a fresh ``python -B`` process with its own copy of the file, and reports medians, the
import's own cost (the start subtracted) and the ratio.

    python3 bench/import_core.py [--rounds 21] [--markdown bench/import_core.md]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MINIMCP = os.path.join(os.path.dirname(HERE), "minimcp.py")


def start_time(directory: str, code: str) -> float:
    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    environment.pop("PYTHONPATH", None)
    begun = time.perf_counter()
    subprocess.run([sys.executable, "-B", "-S", "-c", code], cwd=directory, env=environment, check=True)
    return time.perf_counter() - begun


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--markdown", help="also write the report to this file")
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="minimcp-import-")
    try:
        full, core = os.path.join(work, "full"), os.path.join(work, "core")
        os.mkdir(full)
        os.mkdir(core)
        shutil.copy(MINIMCP, os.path.join(full, "minimcp.py"))
        with open(os.path.join(core, "minimcp.py"), "wb") as out:
            subprocess.run([sys.executable, MINIMCP, "vendor", "--without", "all"], stdout=out, check=True)
        sizes = {name: os.path.getsize(os.path.join(directory, "minimcp.py")) for name, directory
                 in (("full", full), ("core", core))}
        code = "import sys; sys.path.insert(0, '.'); import minimcp"
        times = {"start": [], "full": [], "core": []}
        for _ in range(options.rounds):                      # interleaved: the machine's drift hits all three
            times["start"].append(start_time(work, "pass"))
            times["full"].append(start_time(full, code))
            times["core"].append(start_time(core, code))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    median = {name: statistics.median(values) * 1000 for name, values in times.items()}
    own = {name: median[name] - median["start"] for name in ("full", "core")}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# `import minimcp` without .pyc: the full file and the core-only build",
        "",
        "`python3 bench/import_core.py --rounds %d` on Python %s, load average %.1f at the end; each"
        % (options.rounds, sys.version.split()[0], load),
        "figure is the median of %d fresh `python -B -S` processes, the three kinds interleaved." % options.rounds,
        "",
        "| file | bytes | process, ms | import alone, ms |",
        "|---|---:|---:|---:|",
        "| (interpreter start, `pass`) | | %.1f | |" % median["start"],
        "| minimcp.py (full) | %d | %.1f | %.1f |" % (sizes["full"], median["full"], own["full"]),
        "| `vendor --without all` (core only) | %d | %.1f | %.1f |" % (sizes["core"], median["core"], own["core"]),
        "",
        "The core-only import costs %.2fx the full file's (%.0f%% of its bytes)."
        % (own["core"] / own["full"], 100.0 * sizes["core"] / sizes["full"]),
    ]
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    if options.markdown:
        with open(options.markdown, "w", encoding="utf-8") as out:
            out.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
