#!/usr/bin/env python3
"""Slow clients (issue 28, point 9): 300 slow-loris connections, against the README's two setups.

    python3 tests/interop/slow_clients.py --gunicorn PATH --nginx PATH --workdir DIR --pidfile FILE

Started by tests/interop/run_slow_clients.sh (which installs gunicorn, pinned). The gunicorn
commands and the nginx config are read from the README, not copied here. Only their ports are
changed to free ones, and the nginx block is wrapped in the lines a whole nginx.conf needs. The
two setups:

- the recommended one ("Slow clients: nginx in front of gunicorn"): nginx, then gunicorn on
  loopback. While 300 connections trickle a request's head a byte at a time, 4 requests sent
  through nginx must all be answered. This is the check: the stage fails otherwise;
- plain gunicorn ("Serving over HTTP"): the same attack on it directly. The stage prints how
  many of 4 requests it answered, for information only (the README says it answers none);
- the stdlib server (``python3 minimcp.py serve --http``, as "Serving over HTTP" runs it), alone
  (issue 41): while the 300 connections trickle, at least 18 of 20 requests must be answered
  (it answered none when 256 connection threads were all it had).

Each setup first answers 4 of 4 with no attack (so a refusal later is the attack's doing). Bounded:
every request has a timeout, the attack a fixed length, and the processes are stopped by PID
(process group).
"""
import argparse
import http.client
import json
import os
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SLOW = 300                           # slow-loris connections
PROBES = 4                           # requests sent while they are open
STDLIB_PROBES, STDLIB_ANSWERED = 20, 18   # the stdlib server's: how many, and how many must be answered
PROBE_TIMEOUT = 5.0                  # seconds each probe may take
ACCEPT = "application/json, text/event-stream"
APP = '''
import sys
sys.path.insert(0, %(repo)r)
from minimcp import MCPServer

app = MCPServer("slow-clients")

@app.tool()
def echo(text: str) -> str:
    """Say it back."""
    return text
'''
NGINX_CONF = """\
worker_processes 1;
daemon off;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {dir}/tmp-body;
    proxy_temp_path {dir}/tmp-proxy;
    fastcgi_temp_path {dir}/tmp-fastcgi;
    uwsgi_temp_path {dir}/tmp-uwsgi;
    scgi_temp_path {dir}/tmp-scgi;
{readme}
}}
"""


def log(message: str) -> None:
    sys.stdout.write("[slow-clients %s] %s\n" % (time.strftime("%H:%M:%S"), message))
    sys.stdout.flush()


class Check(Exception):
    """A check that failed, or a README block this stage cannot run."""


def expect(condition, message: str) -> None:
    if not condition:
        raise Check(message)


# -- the README's blocks -------------------------------------------------------------------

def readme_section(title: str) -> str:
    with open(os.path.join(REPO, "README.md"), encoding="utf-8") as f:
        text = f.read()
    start = text.find("\n### %s\n" % title)
    expect(start >= 0, "the README has no section %r" % title)
    end = min(i for i in (text.find("\n### ", start + 1), text.find("\n## ", start + 1), len(text)) if i > 0)
    return text[start:end]


def blocks(section: str, language: str) -> list:
    return re.findall(r"^```%s\n(.*?)^```" % language, section, flags=re.S | re.M)


def gunicorn_command(section_title: str, gunicorn: str, port: int) -> list:
    """The section's gunicorn command line, as words, bound to 127.0.0.1:port."""
    for body in blocks(readme_section(section_title), "console"):
        for line in body.replace("\\\n", " ").splitlines():
            if "gunicorn '" in line:
                words = shlex.split(line[line.index("gunicorn '"):])
                bind = words.index("--bind")
                expect(words[bind + 1].startswith("127.0.0.1:"), "the README binds %s" % words[bind + 1])
                words[bind + 1] = "127.0.0.1:%d" % port
                return [gunicorn] + words[1:]
    raise Check("no gunicorn command in the README's %r" % section_title)


def nginx_config(workdir: str, listen: int, upstream: int) -> str:
    """The recommended section's nginx block, its two addresses changed, in a whole nginx.conf."""
    (block,) = blocks(readme_section("Slow clients: nginx in front of gunicorn"), "nginx")
    for old, new in (("listen 127.0.0.1:8000;", "listen 127.0.0.1:%d;" % listen),
                     ("server 127.0.0.1:8001;", "server 127.0.0.1:%d;" % upstream)):
        expect(block.count(old) == 1, "the README's nginx block has no single %r" % old)
        block = block.replace(old, new)
    return NGINX_CONF.format(dir=workdir, readme="\n".join("    " + line for line in block.splitlines()))


# -- processes ------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    def __init__(self, name, argv, workdir, pidfile, env):
        self.name, self.logfile = name, os.path.join(workdir, name + ".log")
        with open(self.logfile, "wb") as out:
            self.proc = subprocess.Popen(argv, cwd=workdir, stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=subprocess.STDOUT, env=env, start_new_session=True)
        with open(pidfile, "a") as f:
            f.write("%d\n" % self.proc.pid)

    def tail(self) -> str:
        with open(self.logfile, "rb") as f:
            return f.read()[-1500:].decode("utf-8", "replace")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


def initialize(port: int, timeout: float) -> int:
    """One initialize POST on a fresh connection: its status (0: no answer within the timeout)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", "/mcp", body=json.dumps({
            "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "slow-clients", "version": "1"}}}).encode(),
            headers={"Content-Type": "application/json", "Accept": ACCEPT})
        response = connection.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        connection.close()


def wait_ready(port: int, process: Process) -> None:
    deadline = time.monotonic() + 60
    while initialize(port, 2.0) != 200:
        expect(process.proc.poll() is None, "%s exited: %s" % (process.name, process.tail()))
        expect(time.monotonic() < deadline, "%s did not answer within 60 s: %s" % (process.name, process.tail()))
        time.sleep(0.2)


def probe(port: int, count: int = PROBES) -> list:
    """``count`` initialize requests at once, each on its own connection: their statuses."""
    statuses = [0] * count

    def one(i):
        statuses[i] = initialize(port, PROBE_TIMEOUT)
    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(PROBE_TIMEOUT + 5)
    return statuses


# -- the attack -----------------------------------------------------------------------------

class SlowLoris:
    """``count`` connections (SLOW) that send a request's head one byte every half second, never finishing it.

    tests/http/test_http_faults.py runs the same attack against the stdlib server.
    """

    def __init__(self, port: int, count: int = SLOW) -> None:
        self.socks, self.stop = [], threading.Event()
        for i in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            sock.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow-%d: " % i)
            self.socks.append(sock)
        self.thread = threading.Thread(target=self.trickle, daemon=True)
        self.thread.start()

    def trickle(self) -> None:
        while not self.stop.wait(0.5):       # the pace of the attack, not a wait for anything
            for sock in self.socks:
                try:
                    sock.send(b"a")
                except OSError:              # cut off by the server: that is its defence working
                    pass

    def open(self) -> int:
        """How many of the connections the server has not closed."""
        import select
        readable = select.select(self.socks, [], [], 0)[0] if self.socks else []
        closed = 0
        for sock in readable:
            try:
                closed += sock.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                closed += 1
        return len(self.socks) - closed

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for sock in self.socks:
            sock.close()


def under_attack(port: int, name: str, count: int = PROBES) -> list:
    """``count`` requests to port with no attack (all must be answered), then while SLOW connections trickle."""
    calm = probe(port, count)
    expect(calm == [200] * count, "%s, no attack: %s" % (name, calm))
    loris = SlowLoris(port)
    try:
        statuses = probe(port, count)
        log("%s: %d slow-loris connections open (%d not closed by the server), answered %d of %d requests"
            % (name, SLOW, loris.open(), statuses.count(200), count))
        return statuses
    finally:
        loris.close()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--gunicorn", required=True)
    parser.add_argument("--nginx", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--pidfile", required=True)
    a = parser.parse_args()
    os.chmod(a.workdir, 0o755)            # nginx's workers (user nobody) reach their temp paths
    with open(os.path.join(a.workdir, "server.py"), "w") as f:
        f.write(APP % {"repo": REPO})
    env = dict(os.environ, MINIMCP_STATE_KEY=secrets.token_hex(32), TMPDIR=a.workdir)   # (the key's session store)
    env.pop("MINIMCP_HTTP_TOKEN", None)
    running = []
    try:
        backend, front = free_port(), free_port()
        recommended = "Slow clients: nginx in front of gunicorn"
        gunicorn = Process("gunicorn-behind-nginx", gunicorn_command(recommended, a.gunicorn, backend),
                           a.workdir, a.pidfile, env)
        running.append(gunicorn)
        conf = os.path.join(a.workdir, "nginx.conf")
        with open(conf, "w") as f:
            f.write(nginx_config(a.workdir, front, backend))
        checked = subprocess.run([a.nginx, "-t", "-q", "-p", a.workdir, "-e", os.path.join(a.workdir, "nginx-t.log"),
                                  "-c", conf], capture_output=True, text=True, timeout=30)
        expect(checked.returncode == 0, "nginx refused the README's config:\n%s%s" % (checked.stdout, checked.stderr))
        nginx = Process("nginx", [a.nginx, "-p", a.workdir, "-e", os.path.join(a.workdir, "nginx-error.log"),
                                  "-c", conf], a.workdir, a.pidfile, env)
        running.append(nginx)
        wait_ready(backend, gunicorn)
        wait_ready(front, nginx)
        statuses = under_attack(front, "nginx in front of gunicorn (the README's recommended setup)")
        expect(statuses == [200] * PROBES, "behind nginx, with %d slow clients, the requests got %s"
               % (SLOW, statuses))
        for process in running:
            process.stop()
        running = []

        plain_port = free_port()
        plain = Process("gunicorn-plain", gunicorn_command("Serving over HTTP", a.gunicorn, plain_port),
                        a.workdir, a.pidfile, env)
        running.append(plain)
        wait_ready(plain_port, plain)
        statuses = under_attack(plain_port, "plain gunicorn (informational)")
        if statuses.count(200) < PROBES:
            log("   as the README says: gunicorn alone does not survive slow clients")
        plain.stop()
        running = []

        stdlib_port = free_port()
        stdlib = Process("stdlib-server", [sys.executable, os.path.join(REPO, "minimcp.py"), "serve", "--http",
                                           "127.0.0.1:%d" % stdlib_port, "server.py"], a.workdir, a.pidfile, env)
        running.append(stdlib)
        wait_ready(stdlib_port, stdlib)
        statuses = under_attack(stdlib_port, "the stdlib server (serve --http)", STDLIB_PROBES)
        expect(statuses.count(200) >= STDLIB_ANSWERED, "the stdlib server, with %d slow clients, answered %s"
               % (SLOW, statuses))
    except Check as failed:
        log("FAILED: %s" % failed)
        for process in running:
            log("%s log: %s" % (process.name, process.tail()))
        return 1
    finally:
        for process in running:
            process.stop()
    log("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
