"""Draft tests/sdk_corpus/expected_differences.txt from a run of the corpus stage, by cause.

    tests/interop/run_sdk_corpus.sh --report /tmp/report.json      (it may fail: that is the point)
    python3 tests/interop/sdk_corpus_classify.py /tmp/report.json tests/sdk_corpus/published.json OUT.txt

A development aid, not part of the stage: it sorts every difference of the report into a cause
(by the field's shape, the two values and a few server-specific rules written after reading
those servers) and writes one `SERVER | FIELD-GLOB | REASON` line per difference. The draft must
be read line by line before it replaces the file; a cause it cannot tell lands in "other" or
"answers: other", with both values, to be written by hand.
"""
import json, re, sys, collections

report = json.load(open(sys.argv[1]))
corpus = {s["name"]: s for s in json.load(open(sys.argv[2]))["servers"]}


def sdk_name(pin):
    """'fastmcp==4.2.3' -> 'fastmcp 4.2.3': the SDK the reference ran (the report's "reference")."""
    return pin.replace("==", " ")


def parse(d):
    if isinstance(d, dict):
        if "text" in d:
            return d["field"], "text", d["text"], None
        if d["only"]:
            return d["field"], d["only"], json.dumps(d["real"] if d["only"] == "real" else d["minimcp"], ensure_ascii=False), None
        return d["field"], "both", json.dumps(d["real"], ensure_ascii=False), json.dumps(d["minimcp"], ensure_ascii=False)
    field, _, rest = d.partition(": ")
    m = re.match(r"^real (.*) != minimcp (.*)$", rest, re.S)
    if m:
        return field, "both", m.group(1), m.group(2)
    m = re.match(r"^only in (real|minimcp): (.*)$", rest, re.S)
    if m:
        return field, m.group(1), m.group(2), None
    return field, "text", rest, None


def loads(text):
    try:
        return json.loads(text)
    except Exception:
        return None


def short(v, n=90):
    v = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    v = v.replace("\n", "\\n")
    return v if len(v) <= n else v[:n] + "..."


def generalise(field):
    f = re.sub(r"^/(\d\d) (tool|resource|prompt) (\S+) \{.*?\}(?=/|$)", r"/\1 \2 \3 *", field)
    f = re.sub(r"^/(\d\d) (tool|resource|prompt) (\S+) \{.*$", r"/\1 \2 \3 *", f)
    for shape in (r"/tools/list/tools\[[^\]]+\]/inputSchema/properties/[^/]+/description$",
                  r"/tools/list/tools\[[^\]]+\]/_meta$", r"/tools/list/tools\[[^\]]+\]/title$",
                  r"/tools/list/tools\[[^\]]+\]/inputSchema/additionalProperties$",
                  r"/tools/list/tools\[[^\]]+\]/outputSchema/x-fastmcp-wrap-result$",
                  r"/tools/list/tools\[[^\]]+\]/outputSchema/description$"):
        if re.search(shape, f):
            f = re.sub(r"tools\[[^\]]+\]", "tools[*]", f)
            f = re.sub(r"properties/[^/]+/description", "properties/*/description", f)
    if re.match(r"^/\d\d tool \S+ \*/_meta$", f):
        f = "/?? tool * */_meta"
    return f


def cause(name, sdk, pin, d):
    S = sdk_name(pin)
    field, how, a, b = parse(d)
    if field in ("startup", "aborted"):
        err = a.split("  [")[0]
        if "relative import" in err:
            return "startup: relative imports", "serve loads the file as a top-level module: " + short(err, 120)
        if "found no MCPServer" in err:
            return "startup: app built in a function", "the app is built inside a function (create_server()/build_server()/a class); serve finds no MCPServer object at module level"
        if "does not cover" in err:
            m = re.search(r"does not cover ([\w.]+)", err)
            return "startup: import not covered", f"ImportError: minimcp's stand-in for the SDK does not cover {m.group(1)}"
        if "unknown annotation" in err:
            return "startup: tool annotations", short(err, 160)
        return "startup: other", short(err, 160)
    if field.startswith("/initialize/capabilities"):
        sub = field[len("/initialize/capabilities/"):]
        if how == "real":
            return "capabilities", f"{S} declares capabilities.{sub} = {short(a)}; minimcp declares none"
        if how == "minimcp":
            return "capabilities", f"minimcp declares capabilities.{sub} = {short(a)}; {S} does not"
        return "capabilities", f"capabilities.{sub}: {S} {short(a)}, minimcp {short(b)}"
    if field in ("/resources/list", "/resources/templates/list", "/prompts/list", "/tools/list"):
        ra, rb = loads(a), loads(b)
        listed = [k for k in ("resources", "resourceTemplates", "prompts", "tools") if isinstance(ra, dict) and k in ra]
        empty = listed and ra[listed[0]] == []
        if empty and isinstance(rb, dict) and rb.get("error", {}).get("code") == -32601:
            return "empty lists", f"{field[1:]}: {S} answers an empty list, minimcp -32601 (it declares no such capability)"
        if isinstance(rb, dict) and "error" in rb:
            return "registered on another instance", f"{field[1:]}: {S} lists them, minimcp answers {short(rb['error'].get('message'), 80)}: the tools and prompts register on the package module's instance, serve serves its own copy of the file"
        return "lists: other", f"{field[1:]}: {S} {short(a)} / minimcp {short(b)}"
    if name == "csv2json-mcp" and (re.match(r"^/\d\d tool ", field) or "/outputSchema" in field) and "description" not in field:
        return "dict results", f"a -> Dict[str, Any] tool: {S} declares outputSchema {{type: object, additionalProperties: true}} and sends the dict itself as structuredContent, with no wrap mark; minimcp wraps it in {{result: ...}} (outputSchema properties.result, x-fastmcp-wrap-result, _meta.fastmcp.wrap_result)"
    if name == "mcp-mathematics" and field.endswith("/_meta"):
        return "meta", "the resource and prompt decorators' meta= is sent by fastmcp on the read's contents and the prompt's result; minimcp sends it on the listing only"
    if "/arguments[" in field and field.endswith("/description") and how == "real":
        return "descriptions", f"{S} describes a prompt argument from its Annotated[T, \"text\"] and appends 'Provide a value matching the following JSON schema: {{...}}. Encode non-string values as JSON.'; minimcp sends no description"
    if name == "mcp-abacus" and " tool info " in field:
        return "abacus", "tool info reads importlib.metadata.version('mcp'); the mini venv has no mcp distribution: 'No package metadata was found for mcp'"
    if "/inputSchema/properties/" in field and field.endswith("/description") and how == "minimcp":
        return "descriptions", "minimcp turns the docstring's Args: entries into parameter descriptions; " + S + " sends none"
    if re.search(r"/tools\[[^\]]+\]/description$|/prompts\[[^\]]+\]/description$", field) or re.match(r"^/\d\d prompt \S+ .*/description$", field):
        ra, rb = loads(a), loads(b)
        if isinstance(ra, str) and isinstance(rb, str):
            if "Args:" in ra and "Args:" not in rb:
                return "descriptions", f"{S} sends the raw docstring (indented, with its Args: section); minimcp its cleaned summary"
            if len(ra) < len(rb):
                return "descriptions", f"{S} sends only the docstring's summary ({short(ra, 50)}); minimcp the whole cleaned docstring with its Parameters/Returns sections"
            return "descriptions", f"{S} sends the raw docstring (indentation and trailing whitespace kept); minimcp dedents and trims it"
        return "descriptions", f"description: {S} {short(a)} / minimcp {short(b)}"
    if "/arguments[" in field and field.endswith("/description") and how == "minimcp":
        return "descriptions", "minimcp turns the docstring's Args: entries into prompt argument descriptions; " + S + " sends none"
    if field.endswith("/_meta") and how == "real":
        return "fastmcp extras", f"{S} adds _meta {short(a, 60)}; minimcp sends none"
    if re.search(r"/tools\[[^\]]+\]/title$", field) and how == "real":
        return "fastmcp extras", f"{S} derives a title from the function name ({short(a, 40)}); minimcp sends none"
    if field.endswith("/inputSchema/additionalProperties") and how == "real" and sdk == "mcp2":
        return "schemas", f"{S} sends additionalProperties: false (the server's argument model, built on func_metadata's ArgModelBase, forbids extra fields); minimcp leaves the schema open"
    if field.endswith("/inputSchema/additionalProperties") and how == "real":
        return "fastmcp extras", f"{S} closes input schemas (additionalProperties: false); minimcp leaves them open"
    if field.endswith("/outputSchema/x-fastmcp-wrap-result"):
        return "outputSchema", f"{S} marks wrapped results (x-fastmcp-wrap-result: true) in outputSchema; minimcp does not"
    if field.endswith("/outputSchema/description"):
        return "outputSchema", f"{S} describes the wrapper outputSchema ({short(a, 50)}); minimcp does not"
    if "/outputSchema" in field or field.endswith("/outputSchema"):
        return "outputSchema", f"outputSchema: {S} {short(a)} / minimcp {short(b)}"
    if re.search(r"/mimeType$", field):
        return "mime types", f"mimeType: {S} {short(a) if how != 'minimcp' else '(none)'}, minimcp {short(b) if how == 'both' else ('(none)' if how == 'real' else short(a))}"
    blob = (a or "") + " " + (b or "")
    if re.search(r"/inputSchema/properties/[^/]+/description$", field) and how == "both" \
            and a.replace("\\n", " ") == b:
        return "descriptions", f"{S} keeps the line breaks of a multi-line Args: entry; minimcp joins its lines with spaces"
    if name == "mcp-sequential-thinking" and re.match(r"^/\d\d tool ", field):
        return "call_tool overridden", "the server subclasses MCPServer and overrides call_tool() to rewrite every ToolError (bad arguments included) as 'CODE: hint'; minimcp never calls a subclass's call_tool, so its own texts come out ('Error executing tool NAME: ...')"
    if name == "mcp-mathematics" and "response_type" in blob:
        return "elicitation", "the tool calls ctx.elicit(message, response_type=...), fastmcp's signature; minimcp's ctx.elicit takes a schema, so it raises TypeError where fastmcp answers 'Elicitation not supported' (the client has no elicitation)"
    if name == "mcp-mathematics" and "non-finite" in blob:
        return "error texts", "a result holding inf: fastmcp 4.2.3 says 'Tool result contains a non-finite float (inf) at $.constants.inf'; minimcp's fastmcp dialect says the value cannot be sent as JSON"
    if name == "mcp-mathematics" and "validation error" in blob:
        return "error texts", "an array parameter with an items schema: minimcp words pydantic's errors only for parameters of plain types, and falls back to its validator's words here"
    if name == "mcp-abacus" and re.match(r"^/\d\d tool ", field):
        if "No package metadata" in blob:
            return "abacus", "tool info reads importlib.metadata.version('mcp'); the mini venv has no mcp distribution: 'No package metadata was found for mcp'"
        return "abacus", "the package runs its own stdio loop around the SDK session (JSON repair and its own 'Invalid arguments for tool ...' texts); serve runs the app on minimcp's loop, so the mcp1 dialect's texts come out"
    if name == "mcp-csv-database" and ("SQLite objects created in a thread" in blob or "Available tables" in blob):
        return "threads", "minimcp runs sync tools on worker threads; mcp 1.30.0 runs them on one thread, so the sqlite connection that load_csv_folder opened fails in later calls ('SQLite objects created in a thread can only be used in that same thread')"
    if "SQLite objects created in a thread" in blob:
        return "threads", "minimcp runs sync tools on worker threads; mcp 1.30.0 runs them on one thread, so the sqlite connection that load_csv_folder opened fails in later calls ('SQLite objects created in a thread can only be used in that same thread')"
    if re.search(r"/inputSchema/properties/[^/]+/type$", field) and how == "real":
        return "schemas", f"an unannotated parameter: {S} types it {short(a)} in inputSchema; minimcp leaves it untyped"
    # call answers
    m = re.match(r"^/\d\d (tool|resource|prompt) ", field)
    if m:
        kind = m.group(1)
        if how == "both":
            ra, rb = loads(a), loads(b)
            if isinstance(ra, str) and isinstance(rb, str):
                m1 = re.match(r"^(Error executing tool \S+: \d+ validation errors? for )(\w+)Arguments", ra)
                m2 = re.match(r"^(Error executing tool \S+: \d+ validation errors? for )(\w+)Arguments", rb)
                if m1 and m2 and m1.group(2) != m2.group(2) and ra.replace(m1.group(2) + "Arguments", m2.group(2) + "Arguments", 1) == rb:
                    return "error texts", f"bad arguments: the same pydantic report, but {S} names the model after the function ({m1.group(2)}Arguments), minimcp after the tool ({m2.group(2)}Arguments)"
                if "validation error" in ra and "validation error" not in rb:
                    mine = "'Error executing tool NAME: ' + " if rb.startswith("Error executing tool ") else ""
                    theirs = "'Error executing tool NAME: ' + " if ra.startswith("Error executing tool ") else ""
                    return "error texts", f"bad arguments: {S} sends {theirs}pydantic's validation report ('N validation error(s) for ...'); minimcp {mine}its own one-line message (e.g. {short(rb, 70)})"
                if ra.startswith("Error calling tool '") and ra.endswith(": " + rb):
                    return "error texts", f"a raising tool: {S} prefixes the message with \"Error calling tool 'NAME': \"; minimcp sends the message alone"
                if ra.startswith("Error executing tool ") and ra.endswith(rb):
                    return "error texts", f"a raising tool: {S} prefixes the message with 'Error executing tool NAME: '; minimcp sends the message alone"
                ja, jb = loads(ra), loads(rb)
                if ja is not None and ja == jb:
                    if "\n" not in ra and "\n" in rb:
                        return "content blocks", f"a dict/list result: {S} writes compact JSON text; minimcp indents it by 2"
                    return "content blocks", f"the same JSON written differently: {S} {short(ra, 50)} / minimcp {short(rb, 50)}"
            if field.endswith("/error/code") or field.endswith("/error/message"):
                return "error texts", f"a prompt without a required argument: {S} answers error {field.rsplit('/', 1)[-1]} {short(ra, 60)}; minimcp {short(rb, 70)}"
            kinds = []
            for v in (ra, rb):
                if isinstance(v, dict) and "error" in v:
                    kinds.append("JSON-RPC error %s %s" % (v["error"].get("code"), short(v["error"].get("message"), 70)))
                elif isinstance(v, dict) and "client_error" in v:
                    kinds.append("client refused: " + short(v["client_error"], 70))
                elif isinstance(v, dict) and v.get("isError"):
                    kinds.append("isError result " + short((v.get("content") or [{}])[0].get("text", ""), 70))
                elif isinstance(v, dict):
                    kinds.append("result " + short(v, 70))
                else:
                    kinds.append(short(v, 70))
            if isinstance(rb, dict) and "error" in rb and "offers no tools" in str(rb):
                return "registered on another instance", f"{kind} call: {S} answers, minimcp has no tools: the tools register on the package module's instance, serve serves its own copy of the file"
            if isinstance(rb, dict) and "error" in rb and "offers no prompts" in str(rb):
                return "registered on another instance", f"{kind} call: {S} answers, minimcp has no prompts: registered on the package module's instance"
            return "answers: other", f"{S}: {kinds[0]} / minimcp: {kinds[1]}"
        if how == "real":
            return "answers: other", f"only {S} sends {field.rsplit('/', 1)[-1]} = {short(a, 80)}"
        if how == "minimcp":
            return "answers: other", f"only minimcp sends {field.rsplit('/', 1)[-1]} = {short(a, 80)}"
    return "other", f"{how}: {short(a)} / {short(b)}"


entries = collections.OrderedDict()
for name, x in report.items():
    for d in x["differences"]:
        c, reason = cause(name, x["sdk"], x["reference"], d)
        field = generalise(parse(d)[0])
        if c == "dict results":            # the same wrap, whatever the dict's keys
            field = re.sub(r"^/\d\d tool \S+ \*/structuredContent/.*$", "/?? tool * */structuredContent/*", field)
            field = re.sub(r"^/tools/list/tools\[[^\]]+\]/outputSchema/.*$", "/tools/list/tools[*]/outputSchema/*", field)
        key = (c, name, field)
        entries.setdefault(key, reason)

ORDER = ["elicitation", "meta", "threads", "dict results", "call_tool overridden", "abacus", "schemas", "startup: relative imports", "startup: app built in a function", "startup: import not covered",
         "startup: tool annotations", "startup: other", "registered on another instance", "capabilities",
         "empty lists", "descriptions", "fastmcp extras", "outputSchema", "mime types", "error texts",
         "content blocks", "answers: other", "lists: other", "other"]
out = ["# Differences between each published server under the pin of the dialect minimcp serves it in (mcp==1.30.0,",
       "# mcp==2.3.0, fastmcp==4.2.3: not the server's own SDK range) and unchanged under `python3 minimcp.py serve`",
       "# (--entry SCRIPT ARGS, as its users start it), as tests/interop/run_sdk_corpus.sh measures them; values that",
       "# differ between two runs of the reference are ignored there. One line per difference: SERVER | FIELD-GLOB | REASON.",
       "# SERVER is a corpus name (or a glob, or sdk=GROUP); FIELD-GLOB is an fnmatch pattern over the field path",
       "# the stage prints ('/NN tool NAME *' is the NNth call of the server's script, whatever its arguments).",
       "# The stage fails on a difference not listed here and on a line that no longer matches any difference.",
       "# Grouped by cause. Generated from a run of the stage, then read line by line.", ""]
for c in ORDER:
    group = [(k, r) for k, r in entries.items() if k[0] == c]
    if not group:
        continue
    out.append(f"# ---- {c} ({len(group)}, {len({k[1] for k, _ in group})} servers)")
    for (cc, name, field), reason in sorted(group, key=lambda t: (t[0][1], t[0][2])):
        out.append(f"{name} | {field} | {reason}")
    out.append("")
left = [k for k in entries if k[0] not in ORDER]
assert not left, left
open(sys.argv[3], "w").write("\n".join(out))
print(collections.Counter(k[0] for k in entries))
