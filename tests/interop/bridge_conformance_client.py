#!/usr/bin/env python3
"""Plays the host of the official conformance suite's client scenarios, through minimcp's bridge.

    bridge_conformance_client.py [--host handshake|2026-07-28] [--bridge-option OPTION]... URL

The suite starts a scenario's server, then runs this command with the server's URL appended
(and MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_PROTOCOL_VERSION, MCP_CONFORMANCE_CONTEXT in
the environment). This script starts the bridge on that URL, exactly as a host starts a
stdio server, and speaks to it over its stdin and stdout only: the suite's checks judge
what the bridge sends over HTTP.

- ``--host handshake`` (the default): a host that speaks only the handshake era
  (``initialize``); ``--host 2026-07-28``: a host that speaks 2026-07-28 itself
  (``server/discover``, the ``_meta`` envelope, its own input_required rounds).
- ``--bridge-option``: passed to the bridge (``--bridge-option=--protocol=2026-07-28``).

The auth scenarios: the bridge signs in by itself (issue 40), with ``BROWSER`` set to
oauth_browser.py (the person at the browser), its sign-ins kept in a folder of this run's
(``MINIMCP_OAUTH_DIR``), a client ID metadata document URL offered (``--client-metadata-url``),
and the scenario's pre-registered client, when it names one, given as ``--client-id`` with
``--client-secret '${...}'`` (the secret in the environment, never in argv). Where the
scenario expects the bridge to refuse (a mismatched resource or issuer, endless step-ups),
the play checks that the host gets a JSON-RPC error that says why.

Standard library only. Exits 0 when every exchange the scenario needs went through, else 1
(with what went wrong on stderr); the suite's own checks are the verdict.
"""

import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
#: How the bridge is started, as users start it: `python3 minimcp.py bridge URL`.
BRIDGE = [sys.executable, os.path.join(REPO, "minimcp.py"), "bridge"]
MODERN = "2026-07-28"
CLIENT_INFO = {"name": "minimcp-bridge-conformance-host", "version": "1.0.0"}
CAPABILITIES = {"sampling": {}, "elicitation": {"form": {}}, "roots": {}}
TIMEOUT = 20.0
BROWSER = os.path.join(HERE, "oauth_browser.py")
#: The client ID metadata document URL the suite's scenarios accept (it need not resolve).
CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json"
SECRET_VARIABLE = "MINIMCP_CONFORMANCE_CLIENT_SECRET"


class Failed(Exception):
    pass


class Host:
    """A host on the bridge's stdio: requests and their answers, and answers to the server's questions."""

    def __init__(self, url: str, era: str, bridge_options: list, env: dict = None) -> None:
        self.era = era
        self.version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION") or "2025-11-25"
        if era == MODERN:
            self.version = MODERN
        self.process = subprocess.Popen(BRIDGE + bridge_options + [url], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, env=env)
        self.answers = {}
        self.cond = threading.Condition()
        self.next_id = 0
        self.lock = threading.Lock()
        self.notifications = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    # -- the wire ------------------------------------------------------------------------------
    def _write(self, message: dict) -> None:
        with self.lock:
            self.process.stdin.write(json.dumps(message).encode("utf-8") + b"\n")
            self.process.stdin.flush()

    def _read(self) -> None:
        for line in self.process.stdout:
            message = json.loads(line)
            if "method" in message and "id" in message:
                threading.Thread(target=self._answer_question, args=(message,), daemon=True).start()
            elif "method" in message:
                self.notifications.put(message)
            else:
                with self.cond:
                    self.answers[json.dumps(message.get("id"))] = message
                    self.cond.notify_all()
        with self.cond:
            self.answers["closed"] = True
            self.cond.notify_all()

    def _answer_question(self, message: dict) -> None:
        """The server's questions (the handshake era): answered as a person at the host would."""
        try:
            result = answer_question(message["method"], message.get("params") or {})
            self._write({"jsonrpc": "2.0", "id": message["id"], "result": result})
        except Failed as exc:
            self._write({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": str(exc)}})

    def send(self, method: str, params: dict = None) -> dict:
        """A request; its answer (a response message)."""
        with self.cond:
            self.next_id += 1
            request_id = self.next_id
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)
        with self.cond:
            key = json.dumps(request_id)
            if not self.cond.wait_for(lambda: key in self.answers or "closed" in self.answers, TIMEOUT):
                raise Failed("no answer to %s within %s s" % (method, TIMEOUT))
            if key not in self.answers:
                raise Failed("the bridge closed its stdout before answering %s" % method)
            return self.answers.pop(key)

    def notify(self, method: str, params: dict = None) -> None:
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)

    # -- MCP ---------------------------------------------------------------------------------
    def envelope(self, params: dict = None) -> dict:
        params = dict(params or {})
        params["_meta"] = dict(params.get("_meta") or {}, **{
            "io.modelcontextprotocol/protocolVersion": self.version,
            "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
            "io.modelcontextprotocol/clientInfo": CLIENT_INFO})
        return params

    def connect(self) -> dict:
        """initialize + initialized, or server/discover (retried with a version the server names)."""
        if self.era != MODERN:
            answer = self.send("initialize", {"protocolVersion": self.version, "clientInfo": CLIENT_INFO,
                                              "capabilities": dict(CAPABILITIES, roots={"listChanged": True})})
            result = need_result("initialize", answer)
            self.notify("notifications/initialized")
            return result
        for _ in range(2):
            answer = self.send("server/discover", self.envelope())
            error = answer.get("error") or {}
            supported = (error.get("data") or {}).get("supported") if isinstance(error.get("data"), dict) else None
            if error.get("code") == -32022 and supported and self.version not in supported:
                self.version = supported[0]
                continue
            if error.get("code") == -32022 and supported:
                continue                          # refused once, as the scenario does: the same again
            return need_result("server/discover", answer)
        raise Failed("server/discover was refused twice: %r" % answer)

    def call(self, method: str, params: dict = None) -> dict:
        """A request in the host's era; a 2026-07-28 host answers input_required rounds itself."""
        if self.era != MODERN:
            return self.send(method, params)
        params = self.envelope(params)
        for _ in range(8):
            answer = self.send(method, params)
            result = answer.get("result")
            if not (isinstance(result, dict) and result.get("resultType") == "input_required"):
                return answer
            params = {k: v for k, v in params.items() if k not in ("inputResponses", "requestState")}
            if result.get("inputRequests"):
                params["inputResponses"] = {key: answer_question(q["method"], q.get("params") or {})
                                            for key, q in result["inputRequests"].items()}
            if "requestState" in result:
                params["requestState"] = result["requestState"]
        raise Failed("%s asked for input 8 times" % method)

    def close(self) -> int:
        self.process.stdin.close()
        try:
            return self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return -9


def need_result(what: str, answer: dict) -> dict:
    if "result" not in answer:
        raise Failed("%s: %r" % (what, answer.get("error")))
    return answer["result"]


def answer_question(method: str, params: dict) -> dict:
    """What a person at the host answers: accept forms with their defaults filled in (SEP-1034)."""
    if method == "elicitation/create":
        schema = params.get("requestedSchema") or {}
        content = {name: spec["default"] for name, spec in (schema.get("properties") or {}).items()
                   if isinstance(spec, dict) and "default" in spec}
        for name, spec in (schema.get("properties") or {}).items():
            if name not in content and isinstance(spec, dict) and spec.get("type") == "boolean":
                content[name] = True
        return {"action": "accept", "content": content}
    if method == "sampling/createMessage":
        return {"role": "assistant", "content": {"type": "text", "text": "sampled"}, "model": "conformance"}
    if method == "roots/list":
        return {"roots": [{"uri": "file:///tmp/conformance-root", "name": "root"}]}
    if method == "ping":
        return {}
    raise Failed("this host does not answer %s" % method)


def arguments_for(tool: dict) -> dict:
    """Arguments a tool's schema accepts: its required properties, each with a plain value."""
    schema = tool.get("inputSchema") or {}
    properties = schema.get("properties") or {}
    values = {"string": "conformance", "integer": 1, "number": 1.5, "boolean": True, "object": {}, "array": []}
    arguments = {}
    for name in schema.get("required") or []:
        kind = (properties.get(name) or {}).get("type", "string")
        arguments[name] = values.get(kind if isinstance(kind, str) else kind[0], "conformance")
    return arguments


def tools(host: Host) -> list:
    return need_result("tools/list", host.call("tools/list", {}))["tools"]


# -- each scenario's host -----------------------------------------------------------------------

def play_every_tool(host: Host, context: dict) -> None:
    """List the tools and call each: with the scenario's arguments when it names them."""
    listed = tools(host)
    planned = context.get("toolCalls")
    if planned:
        for call in planned:
            need_result("tools/call %s" % call["name"], host.call("tools/call", {"name": call["name"],
                                                                                  "arguments": call["arguments"]}))
        return
    for tool in listed:
        need_result("tools/call %s" % tool["name"], host.call("tools/call", {"name": tool["name"],
                                                                              "arguments": arguments_for(tool)}))


def play_tools_call(host: Host, context: dict) -> None:
    names = [tool["name"] for tool in tools(host)]
    if "add_numbers" not in names:
        raise Failed("add_numbers is not listed: %r" % names)
    result = need_result("tools/call", host.call("tools/call", {"name": "add_numbers", "arguments": {"a": 5, "b": 3}}))
    if "8" not in json.dumps(result):
        raise Failed("add_numbers(5, 3): %r" % result)


def play_everything(host: Host, context: dict, capabilities: dict) -> None:
    """Every kind the server offers: tools called, resources read, prompts got (their headers are the checks)."""
    play_every_tool(host, context)
    if "resources" in capabilities:
        for resource in need_result("resources/list", host.call("resources/list", {}))["resources"]:
            need_result("resources/read", host.call("resources/read", {"uri": resource["uri"]}))
    if "prompts" in capabilities:
        for prompt in need_result("prompts/list", host.call("prompts/list", {}))["prompts"]:
            need_result("prompts/get", host.call("prompts/get", {"name": prompt["name"], "arguments": {}}))


def play_schema_echo(host: Host, context: dict) -> None:
    listed = {tool["name"]: tool for tool in tools(host)}
    focal = listed["json_schema_2020_12_tool"]["inputSchema"]
    need_result("tools/call", host.call("tools/call", {"name": "json_schema_echo", "arguments": {"schema": focal}}))


def play_listing(host: Host, context: dict) -> None:
    tools(host)


def play_mrtr(host: Host, context: dict) -> None:
    for name in ("test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"):
        result = need_result(name, host.call("tools/call", {"name": name, "arguments": {}}))
        if result.get("resultType", "complete") != "complete" and host.era == MODERN:
            raise Failed("%s did not complete: %r" % (name, result))
    tools(host)


def play_signed_in(host: Host, context: dict) -> None:
    """An auth scenario the bridge passes: it signs in, then the host lists and calls the tools."""
    play_every_tool(host, context)


PLAYS = {
    "initialize": play_listing,
    "tools_call": play_tools_call,
    "elicitation-sep1034-client-defaults": play_every_tool,
    "sse-retry": play_every_tool,
    "request-metadata": lambda host, context: (tools(host), host.call("tools/call", {"name": "any", "arguments": {}})),
    "sep-2322-client-request-state": play_mrtr,
    "http-standard-headers": None,              # play_everything, with the server's capabilities
    "http-custom-headers": play_every_tool,
    "http-invalid-tool-headers": play_every_tool,
    "json-schema-ref-no-deref": play_listing,
    "json-schema-2020-12-preservation": play_schema_echo,
}
for _name in ("metadata-default", "metadata-var1", "metadata-var2", "metadata-var3", "basic-cimd",
              "scope-from-www-authenticate", "scope-from-scopes-supported", "scope-omitted-when-undefined",
              "scope-step-up", "token-endpoint-auth-basic", "token-endpoint-auth-post", "token-endpoint-auth-none",
              "pre-registration", "2025-03-26-oauth-metadata-backcompat", "2025-03-26-oauth-endpoint-fallback",
              "offline-access-scope", "offline-access-not-supported", "authorization-server-migration",
              "iss-supported", "iss-not-advertised", "client-credentials-basic"):
    PLAYS["auth/" + _name] = play_signed_in
#: The auth scenarios where the bridge must refuse to go on, and a word its error must say.
REFUSALS = {
    "auth/resource-mismatch": "resource",
    "auth/iss-supported-missing": "iss",
    "auth/iss-wrong-issuer": "issuer",
    "auth/iss-unexpected": "issuer",
    "auth/iss-normalized": "issuer",
    "auth/metadata-issuer-mismatch": "issuer",
    "auth/scope-retry-limit": "scope",
}


def play_refused(host: Host, word: str) -> None:
    """The host connects and lists the tools: one of the two must get a JSON-RPC error that names
    ``word`` (within the driver's timeout: refusing is no reason to hang)."""
    if host.era != MODERN:
        answer = host.send("initialize", {"protocolVersion": host.version, "clientInfo": CLIENT_INFO,
                                          "capabilities": CAPABILITIES})
        if "result" in answer:
            host.notify("notifications/initialized")
            answer = host.send("tools/list", {})
    else:
        answer = host.send("server/discover", host.envelope())
        if "result" in answer:
            answer = host.send("tools/list", host.envelope())
    message = (answer.get("error") or {}).get("message") or ""
    if "error" not in answer or word not in message:
        raise Failed("the bridge should refuse with an error naming %r: %r" % (word, answer))


def sign_in_options(scenario: str, context: dict) -> tuple:
    """(bridge options, environment) for an auth scenario: the stand-in browser, a sign-in folder
    of this run's, the client the scenario names."""
    folder = tempfile.mkdtemp(prefix="minimcp-conformance-oauth-")
    env = dict(os.environ, BROWSER=BROWSER, MINIMCP_OAUTH_DIR=folder)
    options = ["--client-metadata-url", CLIENT_METADATA_URL]
    if context.get("client_id"):
        options = ["--client-id", context["client_id"]]
        if context.get("client_secret"):
            env[SECRET_VARIABLE] = context["client_secret"]
            options += ["--client-secret", "${%s}" % SECRET_VARIABLE]
    if scenario == "auth/client-credentials-basic":
        options.append("--client-credentials")
    return options, env, folder


def main(argv: list) -> int:
    era, bridge_options, rest = "handshake", [], []
    index = 0
    while index < len(argv):
        word = argv[index]
        if word.startswith("--host"):
            era = word.split("=", 1)[1] if "=" in word else argv[index + 1]
            index += 0 if "=" in word else 1
        elif word.startswith("--bridge-option"):
            bridge_options.append(word.split("=", 1)[1] if "=" in word else argv[index + 1])
            index += 0 if "=" in word else 1
        else:
            rest.append(word)
        index += 1
    if len(rest) != 1 or era not in ("handshake", MODERN):
        sys.stderr.write(__doc__)
        return 2
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    if scenario not in PLAYS and scenario not in REFUSALS:
        sys.stderr.write("bridge_conformance_client: no play for scenario %r\n" % scenario)
        return 2
    env, folder = None, None
    if scenario.startswith("auth/"):
        options, env, folder = sign_in_options(scenario, context)
        bridge_options = bridge_options + options
    try:
        return play_scenario(Host(rest[0], era, bridge_options, env), scenario, context)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def play_scenario(host: Host, scenario: str, context: dict) -> int:
    try:
        if scenario in REFUSALS:
            play_refused(host, REFUSALS[scenario])
        else:
            opened = host.connect()
            play = PLAYS[scenario]
            if play is None:
                play_everything(host, context, opened.get("capabilities") or {})
            else:
                play(host, context)
    except Failed as exc:
        sys.stderr.write("bridge_conformance_client: %s: %s\n" % (scenario, exc))
        host.close()
        return 1
    status = host.close()
    if status != 0:
        sys.stderr.write("bridge_conformance_client: the bridge exited with status %s\n" % status)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
