"""``import minimcp``: the core alone (minimcp.py), the full bundle, and an older single file.

Where no bytecode can be written (a read-only vendor directory, PYTHONDONTWRITEBYTECODE),
every start compiles the file again; elsewhere the second start reads its .pyc. This times,
interleaved in one run, a bare interpreter start and ``import minimcp`` from each file, in a
fresh ``python -S`` process with its own copy of the file, without .pyc (``-B``) and with it
(compiled first), and reports medians and the import's own cost (the start subtracted).
``--baseline REV`` adds the minimcp.py of an older commit (``git show REV:minimcp.py``: before
the split, the one file that held every component).

    python3 bench/import_core.py [--rounds 21] [--baseline REV] [--markdown bench/import_core.md]
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


def start_time(directory: str, code: str, cached: bool = False) -> float:
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    environment.pop("PYTHONPATH", None)
    flags = ["-S"] if cached else ["-B", "-S"]
    begun = time.perf_counter()
    subprocess.run([sys.executable] + flags + ["-c", code], cwd=directory, env=environment, check=True)
    return time.perf_counter() - begun


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--baseline", help="also time the minimcp.py of this commit")
    parser.add_argument("--markdown", help="also write the report to this file")
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="minimcp-import-")
    try:
        directories = {}
        for name in ["core", "bundle"] + (["baseline"] if options.baseline else []):
            directories[name] = os.path.join(work, name)
            os.mkdir(directories[name])
        shutil.copy(MINIMCP, os.path.join(directories["core"], "minimcp.py"))
        subprocess.run([sys.executable, MINIMCP, "bundle", "-o", os.path.join(directories["bundle"], "minimcp.py")],
                       check=True, stderr=subprocess.DEVNULL)
        if options.baseline:
            with open(os.path.join(directories["baseline"], "minimcp.py"), "wb") as out:
                subprocess.run(["git", "show", options.baseline + ":minimcp.py"], cwd=os.path.dirname(MINIMCP),
                               stdout=out, check=True)
        sizes = {name: os.path.getsize(os.path.join(directory, "minimcp.py")) for name, directory in directories.items()}
        code = "import sys; sys.path.insert(0, '.'); import minimcp"
        compiled = {}
        for name, directory in directories.items():          # a copy with the .pyc a second start reads
            compiled[name] = directory + "-pyc"
            shutil.copytree(directory, compiled[name])
            writing = dict(os.environ)
            writing.pop("PYTHONDONTWRITEBYTECODE", None)
            subprocess.run([sys.executable, "-S", "-c", code], cwd=compiled[name], env=writing, check=True)
            assert os.path.isdir(os.path.join(compiled[name], "__pycache__")), "no .pyc was written"
        times = {"start": []}
        for _ in range(options.rounds):                      # interleaved: the machine's drift hits all alike
            times["start"].append(start_time(work, "pass"))
            for name, directory in directories.items():
                times.setdefault(name, []).append(start_time(directory, code))
                times.setdefault(name + " .pyc", []).append(start_time(compiled[name], code, cached=True))
        for directory in directories.values():
            assert not os.path.isdir(os.path.join(directory, "__pycache__")), "a .pyc was written where none may be"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    median = {name: statistics.median(values) * 1000 for name, values in times.items()}
    own = {name: median[name] - median["start"] for name in median if name != "start"}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    labels = {"core": "minimcp.py (the core alone)", "bundle": "`bundle -o FILE` (every component)",
              "baseline": "minimcp.py at `%s`" % options.baseline}
    lines = [
        "# `import minimcp`: the core alone, the full bundle%s" % (" and `%s`" % options.baseline
                                                                  if options.baseline else ""),
        "",
        "`python3 bench/import_core.py --rounds %d%s` on Python %s, load average %.1f at the end; each"
        % (options.rounds, " --baseline %s" % options.baseline if options.baseline else "",
           sys.version.split()[0], load),
        "figure is the median of %d fresh `python -S` processes, all kinds interleaved." % options.rounds,
        "",
        "| file | bytes | import without .pyc, ms | import with its .pyc, ms |",
        "|---|---:|---:|---:|",
    ] + ["| %s | %d | %.1f | %.1f |" % (labels[name], sizes[name], own[name], own[name + " .pyc"])
         for name in directories] + [
        "",
        "(the interpreter's own start, `pass`: %.1f ms, subtracted)" % median["start"],
        "",
        "Without .pyc the core alone costs %.2fx the bundle's import (%.0f%% of its bytes)."
        % (own["core"] / own["bundle"], 100.0 * sizes["core"] / sizes["bundle"]),
    ]
    if options.baseline:
        lines.append("Against `%s`: the core alone %.2fx without .pyc (%.2fx with it), the bundle %.2fx." % (
            options.baseline, own["core"] / own["baseline"], own["core .pyc"] / own["baseline .pyc"],
            own["bundle"] / own["baseline"]))
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    if options.markdown:
        with open(options.markdown, "w", encoding="utf-8") as out:
            out.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
