#!/usr/bin/env python3
"""One command for the whole minimcp comparison.

    python3 bench/run.py                 # install pinned competitors, compare, print Markdown
    python3 bench/run.py --sweeps        # ... plus the scaling sweeps (slow: ~15 min more)
    python3 bench/run.py --quick --servers bare,minimcp   # CI smoke, well under a minute

Competitors go into throwaway venvs / a node dir under the cache directory
(--cache, default $MCPBENCH_CACHE or ~/.cache/minimcp-bench), pinned, each
verified after install; a failed install stops the run with the installer's
output.  Every Python server (the bare loop and minimcp included) runs from a
venv of the same base interpreter, so no server pays for another's
site-packages.  Repetitions are interleaved across servers (round-robin, order
rotated each round) so that drift on a noisy machine hits all of them alike;
each figure is the median over repetitions and is also shown as a ratio
against the bare loop measured in the same run.
"""
import argparse
import datetime
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import client  # noqa: E402

MCP_VERSION = "2.3.0"
FASTMCP_VERSION = "4.1.6"
TS_SDK_VERSION = "1.32.2"
ZOD_VERSION = "4.6.7"          # the SDK's own zod range is ^3.25 || ^4.0; pinned for repeatability
TS_MAXBUF = 256 * client.MiB   # the TS stdio transport rejects lines over 10 MiB by default
MAXMSG = 256 * client.MiB      # minimcp's max_message_size (16 MiB default), payload sweep only

MiB, KiB = client.MiB, client.KiB


# ---------------------------------------------------------------------------
# Installs
# ---------------------------------------------------------------------------

def log(msg):
    sys.stderr.write("[bench %s] %s\n" % (time.strftime("%H:%M:%S"), msg))
    sys.stderr.flush()


def _run_logged(cmd, logfile, cwd=None, env=None):
    with open(logfile, "ab") as f:
        f.write(("\n$ %s\n" % " ".join(cmd)).encode())
        f.flush()
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd, env=env)
    if rc != 0:
        with open(logfile, "rb") as f:
            tail = f.read()[-3000:].decode("utf-8", "replace")
        raise SystemExit("\nINSTALL FAILED: `%s` exited %d (log: %s)\n%s"
                         % (" ".join(cmd), rc, logfile, tail))


def ensure_venv(cache, base_python, pyver, label, packages, check):
    """A venv with ``packages`` installed; ``check`` maps dist name -> pinned version."""
    d = os.path.join(cache, "py%s-%s" % (pyver, label))
    ok = os.path.join(d, ".mcpbench-ok")
    py = os.path.join(d, "bin", "python")
    if os.path.exists(ok):
        with open(ok) as f:
            return py, json.load(f)
    if os.path.exists(d):
        shutil.rmtree(d)
    logfile = d + ".log"
    if os.path.exists(logfile):
        os.remove(logfile)
    log("creating venv %s" % d)
    _run_logged([base_python, "-m", "venv"] + ([] if packages else ["--without-pip"]) + [d],
                logfile)
    if packages:
        log("pip install %s" % " ".join(packages))
        _run_logged([py, "-m", "pip", "install", "--disable-pip-version-check", "-q"] + packages,
                    logfile)
    code = ("import importlib.metadata as m, json, sys\n"   # a venv without mcp (gunicorn's) says null
            "def v(n):\n"
            "    try:\n        return m.version(n)\n"
            "    except m.PackageNotFoundError:\n        return None\n"
            "print(json.dumps({n: v(n) for n in sys.argv[1:]}))")
    names = sorted(set(check) | ({"mcp"} if packages else set()))
    out = subprocess.run([py, "-c", code] + names, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit("\nINSTALL FAILED: cannot read versions in %s:\n%s" % (d, out.stderr))
    versions = json.loads(out.stdout)
    for name, want in check.items():
        if versions.get(name) != want:
            raise SystemExit("\nINSTALL FAILED: %s is %s in %s, wanted %s"
                             % (name, versions.get(name), d, want))
    with open(ok, "w") as f:
        json.dump(versions, f)
    return py, versions


def ensure_node(cache, node):
    d = os.path.join(cache, "node-sdk-%s" % TS_SDK_VERSION)
    ok = os.path.join(d, ".mcpbench-ok")
    if not os.path.exists(ok):
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(d)
        with open(os.path.join(d, "package.json"), "w") as f:
            json.dump({"name": "mcpbench-ts", "private": True, "type": "module"}, f)
        npm = shutil.which("npm")
        if not npm:
            raise SystemExit("\nINSTALL FAILED: npm not found on PATH")
        log("npm install @modelcontextprotocol/sdk@%s zod@%s" % (TS_SDK_VERSION, ZOD_VERSION))
        _run_logged([npm, "install", "--no-audit", "--no-fund", "--save-exact",
                     "@modelcontextprotocol/sdk@" + TS_SDK_VERSION, "zod@" + ZOD_VERSION],
                    d + ".log", cwd=d)
        with open(os.path.join(d, "node_modules", "@modelcontextprotocol", "sdk",
                               "package.json")) as f:
            got = json.load(f)["version"]
        if got != TS_SDK_VERSION:
            raise SystemExit("\nINSTALL FAILED: TS SDK is %s, wanted %s" % (got, TS_SDK_VERSION))
        with open(ok, "w") as f:
            json.dump({"@modelcontextprotocol/sdk": got, "zod": ZOD_VERSION}, f)
    # the server file must sit next to node_modules for its imports to resolve
    shutil.copyfile(os.path.join(HERE, "servers", "ts_sdk_echo.mjs"),
                    os.path.join(d, "ts_sdk_echo.mjs"))
    with open(ok) as f:
        return d, json.load(f)


# ---------------------------------------------------------------------------
# Servers
# ---------------------------------------------------------------------------

class Spec:
    def __init__(self, key, label, cmd, env=None, cwd=None, import_stmt=None, python=None,
                 node_imports=None, payload_env=None):
        self.key, self.label, self.cmd = key, label, cmd
        self.payload_env = dict(env or {}, **(payload_env or {}))
        self.env = env or {}
        self.cwd = cwd
        self.import_stmt, self.python, self.node_imports = import_stmt, python, node_imports


ALL_SERVERS = ["bare", "minimcp", "mcp", "mcp-lowlevel", "fastmcp", "ts-sdk"]


def build_specs(a, wanted):
    cache = a.cache
    os.makedirs(cache, exist_ok=True)
    base = a.python
    pyver = subprocess.run([base, "-c", "import platform; print(platform.python_version())"],
                           capture_output=True, text=True, check=True).stdout.strip()
    versions = {"python": pyver}
    specs = []
    srv = lambda name: os.path.join(HERE, "servers", name)
    stdlib_py, _ = ensure_venv(cache, base, pyver, "stdlib", [], {})
    if "bare" in wanted:
        specs.append(Spec("bare", "bare loop", [stdlib_py, srv("bare_echo.py")],
                          import_stmt="import json, os, sys", python=stdlib_py))
    if "minimcp" in wanted and os.path.exists(os.path.join(a.minimcp, "minimcp.py")):
        snap = snapshot_minimcp(cache, stdlib_py, a.minimcp)
        mm_env = {"MINIMCP_PATH": snap}
        specs.append(Spec("minimcp", "minimcp", [stdlib_py, srv("minimcp_echo.py")], env=mm_env,
                          import_stmt="import minimcp", python=stdlib_py,
                          payload_env={"MCPBENCH_MAXMSG": str(MAXMSG)}))
        versions["minimcp"] = minimcp_version(stdlib_py, a.minimcp, snap)
        if a.baseline:          # the same server on an older minimcp.py, measured in the same run
            base_snap = snapshot_minimcp(cache, stdlib_py, a.baseline, keep=(os.path.basename(snap),))
            specs.append(Spec("minimcp-base", "minimcp (baseline)", [stdlib_py, srv("minimcp_echo.py")],
                              env={"MINIMCP_PATH": base_snap}, import_stmt="import minimcp", python=stdlib_py,
                              payload_env={"MCPBENCH_MAXMSG": str(MAXMSG)}))
            versions["minimcp (baseline)"] = minimcp_version(stdlib_py, a.baseline, base_snap)
    if "mcp" in wanted or "mcp-lowlevel" in wanted:
        py, v = ensure_venv(cache, base, pyver, "mcp-" + MCP_VERSION, ["mcp==" + MCP_VERSION],
                            {"mcp": MCP_VERSION})
        versions["mcp"] = v["mcp"]
        if "mcp" in wanted:
            specs.append(Spec("mcp", "mcp %s MCPServer" % MCP_VERSION,
                              [py, srv("mcp_sdk_echo.py")], python=py,
                              import_stmt="from mcp.server.mcpserver import MCPServer"))
        if "mcp-lowlevel" in wanted:
            specs.append(Spec("mcp-lowlevel", "mcp %s low-level" % MCP_VERSION,
                              [py, srv("mcp_lowlevel_echo.py")], python=py,
                              import_stmt="from mcp.server import Server; "
                                          "from mcp.server.stdio import stdio_server"))
    if "fastmcp" in wanted:
        py, v = ensure_venv(cache, base, pyver, "fastmcp-" + FASTMCP_VERSION,
                            ["fastmcp==" + FASTMCP_VERSION], {"fastmcp": FASTMCP_VERSION})
        versions["fastmcp"] = "%s (on mcp %s)" % (v["fastmcp"], v.get("mcp"))
        specs.append(Spec("fastmcp", "fastmcp %s" % FASTMCP_VERSION, [py, srv("fastmcp_echo.py")],
                          env={"FASTMCP_CHECK_FOR_UPDATES": "off",
                               "FASTMCP_SHOW_SERVER_BANNER": "false"},
                          python=py, import_stmt="from fastmcp import FastMCP"))
    if "ts-sdk" in wanted:
        node = shutil.which("node")
        if not node:
            raise SystemExit("node not found on PATH (needed for ts-sdk; or drop it with --servers)")
        d, v = ensure_node(cache, node)
        versions["@modelcontextprotocol/sdk"] = v["@modelcontextprotocol/sdk"]
        versions["node"] = subprocess.run([node, "--version"], capture_output=True,
                                          text=True).stdout.strip()
        specs.append(Spec("ts-sdk", "TS SDK %s" % TS_SDK_VERSION,
                          [node, os.path.join(d, "ts_sdk_echo.mjs")],
                          env={"MCPBENCH_TS_MAXBUF": str(TS_MAXBUF)}, cwd=d, python=node,
                          node_imports=["@modelcontextprotocol/sdk/server/mcp.js",
                                        "@modelcontextprotocol/sdk/server/stdio.js", "zod"]))
    return specs, versions


def snapshot_minimcp(cache, py, repo_dir, keep=()):
    """Copy minimcp.py (and the component files beside it) aside and compile it once, so the
    whole run measures one version (the file may be edited while the benchmark runs, and
    every edit would cost the next spawn a recompile)."""
    import glob
    import hashlib
    parts = {}
    for path in sorted(glob.glob(os.path.join(repo_dir, "minimcp*.py"))):
        with open(path, "rb") as f:
            parts[os.path.basename(path)] = f.read()
    data = parts["minimcp.py"]
    digest = hashlib.sha256(b"".join(parts[name] for name in sorted(parts))).hexdigest()[:12]
    snap = os.path.join(cache, "minimcp-snapshot-" + digest)
    for old in os.listdir(cache):                 # keep only the snapshots in use
        if old.startswith("minimcp-snapshot-") and old != os.path.basename(snap) and old not in keep:
            shutil.rmtree(os.path.join(cache, old), ignore_errors=True)
    if not os.path.exists(os.path.join(snap, "minimcp.py")):
        os.makedirs(snap, exist_ok=True)
        for name, data in parts.items():
            with open(os.path.join(snap, name), "wb") as f:
                f.write(data)
    subprocess.run([py, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)",
                    os.path.join(snap, "minimcp.py")], check=True, env=client.server_env())
    return snap


def minimcp_version(py, path, snap):
    out = subprocess.run([py, "-c", "import minimcp; print(getattr(minimcp, '__version__', '?'))"],
                         capture_output=True, text=True, env=client.server_env({"PYTHONPATH": snap}))
    if out.returncode != 0:
        return "not importable"
    version = out.stdout.strip()
    try:
        head = subprocess.run(["git", "-C", path, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", path, "status", "--porcelain", "--", "minimcp.py"],
                               capture_output=True, text=True).stdout.strip()
        if head:
            version += " (git %s%s; sha256 %s)" % (
                head, " + uncommitted changes" if dirty else "", snap.rsplit("-", 1)[-1])
    except OSError:
        pass
    return version


# ---------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------

def profile(a):
    p = client.profile(a.quick)
    if a.spawn_reps:
        p["spawn_reps"] = a.spawn_reps
    if a.load_reps:
        p["load_reps"] = a.load_reps
    if a.quick:
        p["sweeps"] = {"tools": (10, 1000), "concurrency": (1, 8, 64),
                       "payload": (KiB, MiB, 16 * MiB), "cancel": 3}
    else:
        p["sweeps"] = {"tools": (10, 100, 1000, 10000), "concurrency": (1, 2, 4, 8, 16, 32, 64),
                       "payload": (KiB, 16 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB, 64 * MiB),
                       "cancel": 10}
    return p


def _attempt(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except client.NotSupported as exc:
        return {"n/a": str(exc)}
    except (client.BenchError, OSError) as exc:
        return {"error": str(exc)}


def rotated(seq, r):
    r %= len(seq)
    return seq[r:] + seq[:r]


def compare(specs, p, eras):
    res = {s.key: {"eras": {e: {"spawn": [], "load": []} for e in eras}} for s in specs}
    # warm-up (pyc caches, page cache) and era detection
    for s in specs:
        for era in eras:
            log("warm-up %s (%s)" % (s.key, era))
            r = _attempt(client.measure_spawn, s.cmd, s.env, s.cwd, era)
            if "n/a" in r or "error" in r:
                res[s.key]["eras"][era]["status"] = r
    live = lambda era: [s for s in specs if "status" not in res[s.key]["eras"][era]]
    for s in specs:
        log("import cost %s" % s.key)
        if s.node_imports:
            res[s.key]["import_us"] = _attempt(client.node_import_cost_us, s.python,
                                               s.node_imports, s.cwd)
        else:
            env = dict(s.env, PYTHONPATH=s.env.get("MINIMCP_PATH", ""))
            res[s.key]["import_us"] = _attempt(client.import_cost_us, s.python, s.import_stmt, env)
    for r in range(p["spawn_reps"]):
        log("spawn round %d/%d" % (r + 1, p["spawn_reps"]))
        for era in eras:
            for s in rotated(live(era), r):
                res[s.key]["eras"][era]["spawn"].append(
                    _attempt(client.measure_spawn, s.cmd, s.env, s.cwd, era))
    for r in range(p["load_reps"]):
        for era in eras:
            for s in rotated(live(era), r):
                log("load round %d/%d %s %s" % (r + 1, p["load_reps"], era, s.key))
                res[s.key]["eras"][era]["load"].append(
                    _attempt(client.measure_load, s.cmd, s.env, s.cwd, era, n_seq=p["n_seq"],
                             n_pipe=p["n_pipe"], big=p["big"]))
    # medians
    for s in specs:
        for era in eras:
            e = res[s.key]["eras"][era]
            med = {}
            for kind in ("spawn", "load"):
                rows = e[kind]
                errs = [row["error"] for row in rows if "error" in row]
                if errs:
                    e.setdefault("errors", []).extend(errs)
                good = [row for row in rows if "error" not in row and "n/a" not in row]
                for key in (good[0] if good else {}):
                    vals = [row[key] for row in good]
                    if key.endswith("_code"):
                        med[key] = sorted(set(map(str, vals)))
                    else:
                        med[key] = client.median(vals)
            e["median"] = med
    return res


def run_sweeps(specs, p, res):
    sw = p["sweeps"]
    for s in specs:
        out = res[s.key].setdefault("sweeps", {})
        log("sweep tools %s" % s.key)
        out["tools"] = _attempt(client.sweep_tools, s.cmd, s.env, s.cwd, counts=sw["tools"])
        if s.key != "bare":
            log("sweep concurrency %s" % s.key)
            out["concurrency"] = _attempt(client.sweep_concurrency, s.cmd, s.env, s.cwd,
                                          levels=sw["concurrency"])
            log("sweep cancel %s" % s.key)
            out["cancel"] = _attempt(client.sweep_cancel, s.cmd, s.env, s.cwd, reps=sw["cancel"])
        log("sweep payload %s" % s.key)
        out["payload"] = _attempt(client.sweep_payload, s.cmd, s.payload_env, s.cwd,
                                  sizes=sw["payload"])


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------

ROWS = [
    # key, label, scale, digits, higher_is_better
    ("open_ms", None, 1, 0, False),
    ("list_ms", "spawn → first tools/list answer (ms)", 1, 0, False),
    ("seq_p50_us", "sequential echo p50 (µs)", 1, 0, False),
    ("seq_p90_us", "sequential echo p90 (µs)", 1, 0, False),
    ("seq_p99_us", "sequential echo p99 (µs)", 1, 0, False),
    ("pipe_rps", "pipelined throughput (req/s) ↑", 1, 0, True),
    ("big_%d_ms" % MiB, "1 MiB echo round trip (ms)", 1, 1, False),
    ("big_%d_ms" % (10 * MiB), "10 MiB echo round trip (ms)", 1, 0, False),
    ("rss_idle_kb", "RSS idle (MiB, VmRSS)", 1 / 1024.0, 1, False),
    ("hwm_load_kb", "peak RSS after the calls (MiB, VmHWM)", 1 / 1024.0, 1, False),
    ("hwm_big_kb", "peak RSS after 1+10 MiB payloads (MiB)", 1 / 1024.0, 1, False),
    ("exit_idle_ms", "stdin EOF → exit, idle (ms)", 1, 1, False),
    ("exit_load_ms", "stdin EOF → exit, after load (ms)", 1, 1, False),
    ("reply_bytes", "bytes of one echo reply (sanity)", 1, 0, None),
]


def fmt(v, digits):
    if v is None:
        return "–"
    if abs(v) >= 1000 and digits == 0:
        return "{:,.0f}".format(v)
    return ("%%.%df" % digits) % v


def cell(v, base, scale, digits, ratio=True):
    if not isinstance(v, (int, float)):
        return "–"
    txt = fmt(v * scale, digits)
    if ratio and isinstance(base, (int, float)) and base:
        txt += " (%.2f×)" % (v / base)
    return txt


def era_table(specs, res, era, p):
    lines = []
    head = ["figure (median)"] + [s.label for s in specs]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    base = res.get("bare", {}).get("eras", {}).get(era, {}).get("median", {}) \
        if "bare" in res else {}
    for key, label, scale, digits, _better in ROWS:
        if key == "open_ms":
            label = ("spawn → initialize answer (ms)" if era == "legacy"
                     else "spawn → server/discover answer (ms)")
        if key == "hwm_load_kb":
            label = "peak RSS after %s seq + %s pipelined calls (MiB, VmHWM)" % (
                "{:,}".format(p["n_seq"]), "{:,}".format(p["n_pipe"]))
        row = [label]
        for s in specs:
            e = res[s.key]["eras"][era]
            if "status" in e:
                row.append("n/a" if "n/a" in e["status"] else "error")
                continue
            v = e["median"].get(key)
            row.append(cell(v, base.get(key), scale, digits, ratio=key != "reply_bytes"))
        lines.append("| " + " | ".join(row) + " |")
    codes = ["exit codes"]
    for s in specs:
        e = res[s.key]["eras"][era]
        m = e.get("median", {})
        c = sorted(set(m.get("exit_idle_code", []) + m.get("exit_load_code", [])))
        codes.append(",".join(c) if c else ("n/a" if "status" in e else "–"))
    lines.append("| " + " | ".join(codes) + " |")
    if era == "legacy":
        imp = ["import cost (ms, -X importtime cumulative; node: dynamic import)"]
        bimp = res.get("bare", {}).get("import_us")
        for s in specs:
            v = res[s.key].get("import_us")
            imp.append(cell(v, bimp, 1e-3, 1) if isinstance(v, (int, float)) else "error")
        lines.append("| " + " | ".join(imp) + " |")
    return "\n".join(lines)


def sweep_tables(specs, res):
    out = []
    have = [s for s in specs if "sweeps" in res[s.key]]
    if not have:
        return ""
    base = res.get("bare", {}).get("sweeps", {})

    def rows_of(s, name):
        r = res[s.key]["sweeps"].get(name)
        return r if isinstance(r, list) else None

    def status_of(s, name):
        r = res[s.key]["sweeps"].get(name)
        if isinstance(r, dict):
            return "n/a" if "n/a" in r else "error"
        return "–"

    # tools
    counts = sorted({row["tools"] for s in have for row in (rows_of(s, "tools") or [])})
    if counts:
        out.append("#### tools/list time vs. registered tools (ms, median of 5 lists; "
                   "ratio vs. bare loop at the same count)\n")
        out.append("| tools | " + " | ".join(s.label for s in have) + " |")
        out.append("|" + "---|" * (len(have) + 1))
        bmap = {row["tools"]: row for row in (base.get("tools") or [])} \
            if isinstance(base.get("tools"), list) else {}
        for n in counts:
            row = ["{:,}".format(n)]
            for s in have:
                rs = {x["tools"]: x for x in (rows_of(s, "tools") or [])}
                if n in rs:
                    b = bmap.get(n, {}).get("list_ms")
                    row.append(cell(rs[n]["list_ms"], b, 1, 1) + " / spawn→list " +
                               fmt(rs[n]["spawn_to_list_ms"], 0))
                else:
                    row.append(status_of(s, "tools"))
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    # concurrency
    levels = sorted({row["concurrent"] for s in have for row in (rows_of(s, "concurrency") or [])})
    if levels:
        out.append("#### k concurrent calls of a tool sleeping 0.2 s: wall time until the last "
                   "answer (ms)\n")
        out.append("| concurrent | " + " | ".join(s.label for s in have) + " |")
        out.append("|" + "---|" * (len(have) + 1))
        for k in levels:
            row = [str(k)]
            for s in have:
                rs = {x["concurrent"]: x for x in (rows_of(s, "concurrency") or [])}
                row.append(fmt(rs[k]["wall_ms"], 0) if k in rs else status_of(s, "concurrency"))
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    # payload
    sizes = sorted({row["bytes"] for s in have for row in (rows_of(s, "payload") or [])})
    if sizes:
        out.append("#### echo round trip by payload size: time (ms) / peak RSS (MiB); ratio of "
                   "time vs. bare loop\n")
        out.append("| payload | " + " | ".join(s.label for s in have) + " |")
        out.append("|" + "---|" * (len(have) + 1))
        bmap = {row["bytes"]: row for row in (base.get("payload") or [])} \
            if isinstance(base.get("payload"), list) else {}
        for size in sizes:
            name = ("%d MiB" % (size // MiB)) if size >= MiB else ("%d KiB" % (size // KiB))
            row = [name]
            for s in have:
                rs = {x["bytes"]: x for x in (rows_of(s, "payload") or [])}
                x = rs.get(size)
                if x is None:
                    row.append(status_of(s, "payload"))
                elif x.get("ms") is None:
                    row.append("failed: " + x.get("error", "?").replace("|", "/")[:60])
                else:
                    row.append(cell(x["ms"], bmap.get(size, {}).get("ms"), 1, 1) + " / " +
                               fmt((x["hwm_kb"] or 0) / 1024.0, 0))
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    # cancel
    if any(rows_of(s, "cancel") for s in have):
        out.append("#### cancel-to-stop: `notifications/cancelled` written → the tool's own "
                   "exit marker (ms)\n")
        out.append("| | " + " | ".join(s.label for s in have) + " |")
        out.append("|" + "---|" * (len(have) + 1))
        for label, f in (("median", lambda r: fmt(statistics.median([x["stop_ms"] for x in r]), 1)),
                         ("max", lambda r: fmt(max(x["stop_ms"] for x in r), 1)),
                         ("stopped by cancel", lambda r: "%d/%d" % (
                             sum(x["how"] == "cancelled" for x in r), len(r))),
                         ("replied after cancel", lambda r: "%d/%d" % (
                             sum(bool(x["replied"]) for x in r), len(r)))):
            row = [label]
            for s in have:
                r = rows_of(s, "cancel")
                row.append(f(r) if r else status_of(s, "cancel"))
            out.append("| " + " | ".join(row) + " |")
        out.append("")
    return "\n".join(out)


def check_targets(res, eras):
    """The project's targets, for minimcp, against the same run."""
    if "minimcp" not in res:
        return []
    m = res["minimcp"]
    out = []

    def med(key, who="minimcp", era="legacy"):
        e = res.get(who, {}).get("eras", {}).get(era, {})
        return e.get("median", {}).get(key) if "status" not in e else None

    def ratio_check(name, key, limit, era, higher=False):
        v, b = med(key, era=era), med(key, "bare", era)
        if v is None or not b:
            out.append((name + " [%s]" % era, "not measured", None))
            return
        r = v / b
        ok = r >= limit if higher else r <= limit
        scale, unit = (1 / 1024.0, "MiB") if key.endswith("_kb") else \
            (1, {"_us": "µs", "_ms": "ms", "_rps": "req/s"}.get(key[key.rfind("_"):], ""))
        out.append((name + " [%s]" % era, "%.2f× bare (%s vs %s %s)" % (
            r, fmt(v * scale, 1), fmt(b * scale, 1), unit), ok))

    for era in eras:
        ratio_check("spawn→first tools/list ≤ 1.5× bare", "list_ms", 1.5, era)
        ratio_check("sequential p50 ≤ 1.8× bare", "seq_p50_us", 1.8, era)      # issue 17's targets
        ts = med("seq_p50_us", "ts-sdk", era)
        v = med("seq_p50_us", era=era)
        if ts is not None and v is not None:
            out.append(("sequential p50 below TS SDK [%s]" % era,
                        "%.0f µs vs %.0f µs" % (v, ts), v < ts))
        ratio_check("pipelined ≥ 0.5× bare", "pipe_rps", 0.5, era, higher=True)
        ts = med("pipe_rps", "ts-sdk", era)
        v = med("pipe_rps", era=era)
        if ts is not None and v is not None:
            out.append(("pipelined ≥ 1.3× TS SDK [%s]" % era, "%.0f vs %.0f req/s (%.2f×)" % (v, ts, v / ts),
                        v >= 1.3 * ts))
        ratio_check("10 MiB echo ≤ 1.3× bare", "big_%d_ms" % (10 * MiB), 1.3, era)
        ratio_check("RSS idle ≤ 1.3× bare", "rss_idle_kb", 1.3, era)
        ratio_check("peak RSS after the calls ≤ 1.5× bare", "hwm_load_kb", 1.5, era)
        v = med("exit_idle_ms", era=era)
        out.append(("exit after stdin EOF ≤ 50 ms idle [%s]" % era,
                    "not measured" if v is None else "%.1f ms" % v,
                    None if v is None else v <= 50))
    imp = m.get("import_us")
    out.append(("import minimcp ≤ 15 ms",
                "%.1f ms" % (imp / 1000) if isinstance(imp, (int, float)) else "not measured",
                imp / 1000 <= 15 if isinstance(imp, (int, float)) else None))
    c = m.get("sweeps", {}).get("cancel")
    if isinstance(c, list) and c:
        worst = max(x["stop_ms"] for x in c)
        medv = statistics.median(x["stop_ms"] for x in c)
        allc = all(x["how"] == "cancelled" for x in c)
        out.append(("cancel-to-stop ≤ 50 ms", "median %.1f ms, max %.1f ms%s" % (
            medv, worst, "" if allc else " (some calls were not stopped by the cancel)"),
            worst <= 50 and allc))
    else:
        out.append(("cancel-to-stop ≤ 50 ms", "not measured (run with --sweeps)", None))
    return out


def machine_info():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            mem = "%.0f GiB" % (int(f.readline().split()[1]) / 1024 / 1024)
    except (OSError, ValueError, IndexError):
        pass
    return "%s, %d cores, %s RAM, Linux %s" % (cpu, os.cpu_count() or 0, mem, platform.release())


def render(specs, res, versions, p, eras, started, load_before, load_after, a):
    out = []
    out.append("### minimcp benchmark — %s" % started.strftime("%Y-%m-%d %H:%M UTC"))
    out.append("")
    out.append("- machine: %s; load average %s before, %s after" % (
        machine_info(), load_before, load_after))
    out.append("- versions: " + ", ".join("%s %s" % kv for kv in versions.items()))
    out.append("- profile: %s; %d spawn repetitions, %d load repetitions (%s sequential + %s "
               "pipelined echo calls, 1 MiB ×%d, 10 MiB ×%d each); medians over repetitions, "
               "(×) = ratio to the bare loop in this run" % (
                   "quick" if a.quick else "full", p["spawn_reps"], p["load_reps"],
                   "{:,}".format(p["n_seq"]), "{:,}".format(p["n_pipe"]),
                   p["big"][0][1], p["big"][1][1]))
    out.append("- command: `python3 bench/run.py%s`" % (" " + " ".join(a.argv) if a.argv else ""))
    if any(s.key == "ts-sdk" for s in specs):
        out.append("- TS SDK runs with `maxBufferSize` raised to %d MiB (its default, 10 MiB, "
                   "rejects the 10 MiB echo line)" % (TS_MAXBUF // MiB))
    if any(s.key == "minimcp" for s in specs) and (a.sweeps or a.sweeps_only):
        out.append("- payload sweep only: minimcp runs with `max_message_size` = %d MiB (its "
                   "default, 16 MiB, rejects the 16 and 64 MiB lines)" % (MAXMSG // MiB))
    out.append("")
    for era in eras:
        out.append("#### %s era%s\n" % (era, " (initialize 2025-11-25 + notifications/initialized)"
                                        if era == "legacy" else
                                        " (2026-07-28: server/discover + per-request _meta)"))
        out.append(era_table(specs, res, era, p))
        out.append("")
    errs = []
    for s in specs:
        for era in eras:
            e = res[s.key]["eras"][era]
            if "status" in e:
                st = e["status"]
                errs.append("- %s, %s era: %s" % (s.label, era, (
                    "n/a — " + st["n/a"]) if "n/a" in st else "error — " +
                    st["error"].splitlines()[0][:300]))
            for x in e.get("errors", [])[:2]:
                errs.append("- %s, %s era, a repetition failed: %s" % (
                    s.label, era, x.splitlines()[0][:300]))
    if errs:
        out.append("Notes:\n")
        out.extend(errs)
        out.append("")
    sw = sweep_tables(specs, res)
    if sw:
        out.append("### Scaling sweeps (legacy era)\n")
        out.append(sw)
    targets = check_targets(res, eras)
    if targets:
        out.append("### Targets (minimcp)\n")
        out.append("| target | measured | holds |")
        out.append("|---|---|---|")
        for name, val, ok in targets:
            out.append("| %s | %s | %s |" % (name, val, "–" if ok is None else
                                              ("yes" if ok else "**no**")))
        out.append("")
    return "\n".join(out)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="few repetitions (CI smoke)")
    ap.add_argument("--sweeps", action="store_true", help="also run the scaling sweeps")
    ap.add_argument("--sweeps-only", action="store_true", help="only the scaling sweeps")
    ap.add_argument("--servers", default=",".join(ALL_SERVERS),
                    help="comma list out of: %s (default: all)" % ",".join(ALL_SERVERS))
    ap.add_argument("--era", choices=("legacy", "modern", "both"), default="both")
    ap.add_argument("--spawn-reps", type=int)
    ap.add_argument("--load-reps", type=int)
    ap.add_argument("--cache", default=os.environ.get("MCPBENCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "minimcp-bench"))
    ap.add_argument("--fresh", action="store_true", help="delete the cache first (reinstall)")
    ap.add_argument("--python", default=sys.executable,
                    help="base interpreter for every Python server's venv (default: this one)")
    ap.add_argument("--minimcp", default=REPO, help="directory holding minimcp.py")
    ap.add_argument("--baseline", help="a directory holding an older minimcp.py to measure beside the current one")
    ap.add_argument("--out", help="also write the Markdown here (and the raw JSON beside it)")
    a = ap.parse_args()
    a.argv = sys.argv[1:]
    wanted = [x.strip() for x in a.servers.split(",") if x.strip()]
    bad = [x for x in wanted if x not in ALL_SERVERS]
    if bad:
        ap.error("unknown server(s): %s" % ", ".join(bad))
    if a.fresh and os.path.isdir(a.cache):
        shutil.rmtree(a.cache)
    started = datetime.datetime.now(datetime.timezone.utc)
    specs, versions = build_specs(a, wanted)
    if "minimcp" in wanted and not os.path.exists(os.path.join(a.minimcp, "minimcp.py")):
        log("no minimcp.py in %s: minimcp is left out" % a.minimcp)
        specs = [s for s in specs if s.key != "minimcp"]
    p = profile(a)
    eras = client.ERAS if a.era == "both" else (a.era,)
    load_before = loadavg()
    t0 = time.time()
    if a.sweeps_only:
        res = {s.key: {"eras": {e: {"status": {"n/a": "not run (--sweeps-only)"}} for e in eras}}
               for s in specs}
    else:
        res = compare(specs, p, eras)
    if a.sweeps or a.sweeps_only:
        run_sweeps(specs, p, res)
    load_after = loadavg()
    md = render(specs, res, versions, p, eras, started, load_before, load_after, a)
    md += "\n_(run took %.0f s)_\n" % (time.time() - t0)
    print(md)
    if a.out:
        with open(a.out, "w") as f:
            f.write(md)
        with open(os.path.splitext(a.out)[0] + ".json", "w") as f:
            json.dump({"versions": versions, "results": res}, f, indent=1, default=str)
    failed = any("error" in res[s.key]["eras"][e].get("status", {}) or
                 res[s.key]["eras"][e].get("errors") for s in specs for e in eras)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
