"""Helpers of run_hosts_cli.sh: what `minimcp.py config` wrote, used as each host uses it.

    python3 hosts_cli.py start HOST ENTRY_FILE TOOL ARGUMENTS_JSON EXPECTED_TEXT
        ENTRY_FILE holds what `config --client HOST` printed (a JSON entry, or Goose's YAML).
        Start exactly its command and args, from / with a bare environment (only the entry's
        env), answer initialize, then call TOOL and find EXPECTED_TEXT in its result.

    python3 hosts_cli.py merge-json SETTINGS_FILE ENTRY_FILE
        Merge a JSON entry into a host's settings file (Gemini CLI's ~/.gemini/settings.json).

    python3 hosts_cli.py codex-status CODEX_BINARY NAME:TOOL...
        Ask `codex app-server` (JSON-RPC on stdio, no login needed) for mcpServerStatus/list:
        Codex starts each configured server; each NAME must have answered initialize
        (serverInfo) and list TOOL, with no startup error.

Standard library only; prints one `ok ...` or `FAIL ...` line per check, exits 1 on a failure.
"""

import json
import os
import select
import subprocess
import sys
import time

HANDSHAKE = "2025-11-25"


def fail(message: str) -> None:
    print("FAIL " + message)
    sys.exit(1)


def read_entry(host: str, path: str) -> tuple:
    """(command, args, env) of the one server in what config printed."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if text.startswith("extensions:"):       # Goose's YAML: config writes each value as JSON
        fields = {}
        for line in text.splitlines():
            key, _, value = line.strip().partition(": ")
            try:
                fields[key] = json.loads(value)
            except ValueError:
                fields[key] = value
        return fields["cmd"], fields["args"], fields.get("envs", {})
    document = json.loads(text)
    if len(document) != 1:
        fail("%s: the entry has %d top-level keys, not one" % (host, len(document)))
    (servers,) = document.values()
    if len(servers) != 1:
        fail("%s: the entry has %d servers, not one" % (host, len(servers)))
    (entry,) = servers.values()
    return entry["command"], entry["args"], entry.get("env", {})


class Pipe:
    """A started process spoken to in JSON lines, each read within a deadline."""

    def __init__(self, words: list, **popen) -> None:
        self.process = subprocess.Popen(words, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, **popen)
        self.pending = b""

    def send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def answer(self, request_id, seconds: float) -> dict:
        """The response to ``request_id``; notifications and requests before it are skipped."""
        deadline = time.monotonic() + seconds
        fd = self.process.stdout.fileno()
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                message = json.loads(line)
                if message.get("id") == request_id and "method" not in message:
                    return message
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError("no answer to request %r within %.0f s" % (request_id, seconds))
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise EOFError("the process closed its stdout before answering request %r" % request_id)
            self.pending += chunk

    def close(self) -> str:
        """Close stdin, wait for the exit (killed after 10 s), and return its stderr."""
        self.process.stdin.close()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.process.stderr.read().decode("utf-8", "replace")


def start(host: str, entry_file: str, tool: str, arguments: str, expected: str) -> None:
    command, args, env = read_entry(host, entry_file)
    label = "%s: %s" % (host, " ".join([command] + args))
    if not os.path.isabs(command):
        fail("%s: the command is not an absolute path" % label)
    pipe = Pipe([command] + args, cwd="/", env=dict(env))        # bare: the entry's env and nothing else
    try:
        pipe.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": HANDSHAKE, "capabilities": {}, "clientInfo": {"name": "hosts_cli", "version": "1"}}})
        opened = pipe.answer(1, 30)
        if opened.get("result", {}).get("protocolVersion") != HANDSHAKE:
            fail("%s: initialize answered %s" % (label, json.dumps(opened)[:300]))
        pipe.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        pipe.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                   "params": {"name": tool, "arguments": json.loads(arguments)}})
        called = pipe.answer(2, 30)
    except (TimeoutError, EOFError, ValueError) as exc:
        fail("%s: %s; its stderr: %s" % (label, exc, pipe.close()[-1500:]))
    stderr = pipe.close()
    texts = [block.get("text", "") for block in called.get("result", {}).get("content", [])]
    if called.get("result", {}).get("isError") or expected not in " ".join(texts):
        fail("%s: %s answered %s; its stderr: %s" % (label, tool, json.dumps(called)[:300], stderr[-1500:]))
    print("ok %s: started from / with a bare environment, answered initialize and %s" % (host, tool))


def merge_json(settings_file: str, entry_file: str) -> None:
    settings = {}
    if os.path.exists(settings_file):
        with open(settings_file, encoding="utf-8") as handle:
            settings = json.load(handle)
    with open(entry_file, encoding="utf-8") as handle:
        entry = json.load(handle)
    for key, servers in entry.items():
        settings.setdefault(key, {}).update(servers)
    with open(settings_file, "w", encoding="utf-8") as handle:
        json.dump(settings, handle, indent=2)


def codex_status(codex: str, expected: list) -> None:
    pipe = Pipe([codex, "app-server"])
    try:
        pipe.send({"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "hosts_cli", "version": "1"}}})
        pipe.answer(1, 60)
        pipe.send({"method": "initialized"})
        pipe.send({"id": 2, "method": "mcpServerStatus/list", "params": {}})
        listed = pipe.answer(2, 90)           # Codex waits up to 30 s for each server's handshake
    except (TimeoutError, EOFError, ValueError) as exc:
        fail("codex app-server: %s; its stderr: %s" % (exc, pipe.close()[-1500:]))
    pipe.close()
    servers = {server.get("name"): server for server in listed.get("result", {}).get("data", [])}
    failed = False
    for item in expected:
        name, _, tool = item.partition(":")
        server = servers.get(name)
        if server is None:
            print("FAIL codex: no server %r in mcpServerStatus/list (it has %s)" % (name, ", ".join(servers)))
            failed = True
        elif not server.get("serverInfo") or server.get("toolsError") or tool not in (server.get("tools") or {}):
            print("FAIL codex: %s did not connect: serverInfo %s, toolsError %s, tools %s" % (
                name, server.get("serverInfo"), server.get("toolsError"), sorted(server.get("tools") or {})))
            failed = True
        else:
            print("ok codex: %s connected (%s %s), lists %s" % (name, server["serverInfo"].get("name"),
                                                                server["serverInfo"].get("version"), tool))
    if failed:
        sys.exit(1)


def main(argv: list) -> None:
    if argv[:1] == ["start"] and len(argv) == 6:
        start(*argv[1:])
    elif argv[:1] == ["merge-json"] and len(argv) == 3:
        merge_json(*argv[1:])
    elif argv[:1] == ["codex-status"] and len(argv) >= 3:
        codex_status(argv[1], argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
