// A small MCP Apps host for the browser stage, written here: an MCP client of minimcp over
// Streamable HTTP (the official TypeScript SDK client), and the official host-side bridge
// (AppBridge + PostMessageTransport from @modelcontextprotocol/ext-apps) to the tool's page,
// which runs in a sandboxed iframe (srcdoc, sandbox="allow-scripts": an opaque origin).
// Progress and findings go to window.hostReport, which drive.mjs reads.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const MIME = "text/html;profile=mcp-app";
const report = (window.hostReport = { steps: [], calls: [], ready: false, error: null });
const step = (text) => { report.steps.push(text); console.log("[host] " + text); };

async function connect(server, capabilities) {
  const client = new Client({ name: "minimcp-apps-test-host", version: "1.0.0" }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(server)));
  return client;
}

async function main() {
  const server = new URLSearchParams(location.search).get("server");
  const sql = new URLSearchParams(location.search).get("sql");

  // 1. A client without the extension: the page's own tool is not listed for it.
  const plain = await connect(server, {});
  report.toolsWithoutApps = (await plain.listTools()).tools.map((t) => t.name).sort();
  await plain.close();

  // 2. The host's client declares MCP Apps, finds the tool's page and reads it.
  const client = await connect(server, { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME] } } });
  const tools = (await client.listTools()).tools;
  report.toolsWithApps = tools.map((t) => t.name).sort();
  const tool = tools.find((t) => t.name === "query");
  const uri = tool && tool._meta && tool._meta.ui && tool._meta.ui.resourceUri;
  if (!uri) throw new Error("the query tool has no _meta.ui.resourceUri: " + JSON.stringify(tool));
  report.flatUri = tool._meta["ui/resourceUri"];
  const contents = (await client.readResource({ uri })).contents;
  report.page = { uri, count: contents.length, mimeType: contents[0].mimeType, meta: contents[0]._meta || null };
  if (contents.length !== 1 || contents[0].mimeType !== MIME) throw new Error("not one " + MIME + " document");
  step("read " + uri + " (" + contents[0].text.length + " characters)");

  // 3. The page in a sandboxed iframe, talking to the host through the official bridge.
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts");
  iframe.setAttribute("title", "sqlite explorer");
  document.body.appendChild(iframe);
  const bridge = new AppBridge(client, { name: "minimcp-apps-test-host", version: "1.0.0" },
    { serverTools: {}, logging: {} },
    { hostContext: { theme: "light", displayMode: "inline", platform: "web",
                     containerDimensions: { width: 760, maxHeight: 900 } } });
  bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = Math.min(height, 900) + "px"; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  // connect() forwards the page's tools/call to the client; forward them ourselves instead,
  // to see each round trip.
  bridge.oncalltool = async (params) => {
    report.calls.push(params.name);
    step("the page calls " + params.name);
    return client.callTool(params);
  };
  iframe.srcdoc = contents[0].text;
  await initialized;
  step("the page sent ui/notifications/initialized");

  // 4. The model "calls" the tool: its input, then its result, go to the page.
  const args = { sql };
  await bridge.sendToolInput({ arguments: args });
  const result = await client.callTool({ name: "query", arguments: args });
  report.resultText = result.content && result.content[0] && result.content[0].text;
  await bridge.sendToolResult(result);
  step("sent the tool result");
  report.ready = true;
}

main().catch((error) => {
  report.error = String((error && error.stack) || error);
  console.error("[host] " + report.error);
});
