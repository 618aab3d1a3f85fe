#!/usr/bin/env node
// Interop check: drive an MCP stdio server with the official TypeScript SDK client
// (npm @modelcontextprotocol/sdk, 1.x).
//
// Usage (run_ts_sdk.sh installs the SDK and sets MINIMCP_NODE_MODULES):
//
//   node ts_sdk_client.mjs [-v] [--logs DIR] [-- SERVER_CMD...]
//
// MINIMCP_NODE_MODULES: the node_modules directory holding @modelcontextprotocol/sdk.
// The default server is `python3 examples/everything.py`, started in the repository root,
// through `python3 tests/interop/python_sdk_client.py --tee LOG -- SERVER_CMD` (a stdlib relay
// that records every line in both directions), so checks can look at the raw wire and
// schema_check.py can validate every server message afterwards.
//
// Stages:
//   handshake.<rev>   initialize at 2024-11-05 / 2025-03-26 / 2025-06-18 / 2025-11-25 (and an
//                     unknown version): the server must answer with the same revision (or its
//                     latest for an unknown one) and the connection must then work.
//   2025-11-25.*      the legacy feature set over Client.connect() (the SDK's default handshake).
//
// Output: `ok <name>` / `FAIL <name>: why`, then `N passed, N failed`; exit status 1 on any failure.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(HERE, '..', '..');
const TEE = join(HERE, 'python_sdk_client.py');
const HANDSHAKE_REVISIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const LATEST_LEGACY = '2025-11-25';
const EXPECTED_TOOLS = ['echo', 'add', 'fail', 'log', 'slow', 'sample', 'ask_roots', 'elicit', 'touch', 'print_stdout', 'long_job'];
const ROOTS = ['file:///tmp/minimcp-interop/root-one', 'file:///tmp/minimcp-interop/root-two'];
const ELICIT_NAME = 'Zoë Interop';
const CLIENT_INFO = { name: 'minimcp-interop-ts-sdk', version: '1.0.0' };
const CHECK_TIMEOUT_MS = 30000;

// ---------------------------------------------------------------------------
// arguments, SDK import
// ---------------------------------------------------------------------------

const argv = process.argv.slice(2);
let serverCmd = [];
const dd = argv.indexOf('--');
const opts = dd >= 0 ? argv.slice(0, dd) : argv;
if (dd >= 0) serverCmd = argv.slice(dd + 1);
if (serverCmd.length === 0) serverCmd = ['python3', 'examples/everything.py'];
let verbose = false;
let logsDir = null;
for (let i = 0; i < opts.length; i++) {
  if (opts[i] === '-v' || opts[i] === '--verbose') verbose = true;
  else if (opts[i] === '--logs') logsDir = opts[++i];
  else {
    console.error(`usage: node ts_sdk_client.mjs [-v] [--logs DIR] [-- SERVER_CMD...] (unknown argument ${opts[i]})`);
    process.exit(2);
  }
}
const TEE_PYTHON = process.env.MINIMCP_TEE_PYTHON || 'python3';

const NM = process.env.MINIMCP_NODE_MODULES;
async function sdk(sub) {
  if (!NM) throw new Error('MINIMCP_NODE_MODULES is not set (run run_ts_sdk.sh)');
  return import(pathToFileURL(join(NM, '@modelcontextprotocol', 'sdk', 'dist', 'esm', sub)).href);
}

let Client, StdioClientTransport, T, SDK_VERSION;
try {
  ({ Client } = await sdk('client/index.js'));
  ({ StdioClientTransport } = await sdk('client/stdio.js'));
  T = await sdk('types.js');
  SDK_VERSION = JSON.parse(readFileSync(join(NM, '@modelcontextprotocol', 'sdk', 'package.json'), 'utf8')).version;
} catch (e) {
  console.log(`FAIL environment: cannot load @modelcontextprotocol/sdk (${e.message})`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// ---------------------------------------------------------------------------
// results
// ---------------------------------------------------------------------------

class CheckFailed extends Error {}
function need(cond, why) {
  if (!cond) throw new CheckFailed(typeof why === 'function' ? why() : why);
}
function describe(e) {
  if (e instanceof CheckFailed) return e.message;
  if (e instanceof T.McpError) return `McpError ${e.code}: ${e.message}` + (e.data !== undefined ? ` (data=${JSON.stringify(e.data)})` : '');
  return `${e?.name || 'Error'}: ${String(e?.message ?? e).replace(/\n/g, ' | ').slice(0, 400)}`;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const J = (v) => JSON.stringify(v);

const results = { passed: 0, failed: 0 };
function ok(name, detail) {
  results.passed++;
  console.log(`ok ${name}` + (detail ? `  (${detail})` : ''));
}
function fail(name, why) {
  results.failed++;
  console.log(`FAIL ${name}: ${why}`);
}
async function run(name, fn, timeoutMs = CHECK_TIMEOUT_MS) {
  let timer;
  try {
    const detail = await Promise.race([
      fn(),
      new Promise((_, rej) => { timer = setTimeout(() => rej(new CheckFailed(`timed out after ${timeoutMs / 1000} s`)), timeoutMs); }),
    ]);
    ok(name, typeof detail === 'string' ? detail : '');
    return true;
  } catch (e) {
    if (verbose && !(e instanceof CheckFailed)) console.error(e);
    fail(name, describe(e));
    return false;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------
// wire log (written by python_sdk_client.py --tee)
// ---------------------------------------------------------------------------

class WireLog {
  constructor(path) { this.path = path; }
  records() {
    if (!existsSync(this.path)) return [];
    const out = [];
    for (const line of readFileSync(this.path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const r = JSON.parse(line);
      if (r.d === 'c2s' || r.d === 's2c') {
        try { r.msg = JSON.parse(r.raw); } catch { r.msg = null; }
      }
      out.push(r);
    }
    return out;
  }
  messages(dir) { return this.records().filter((r) => r.d === dir).map((r) => [r.t, r.msg]); }
  exitNote() {
    const codes = this.records().filter((r) => r.d === 'exit').map((r) => r.code);
    return codes.length ? ` [server exited with code ${codes[codes.length - 1]}]` : '';
  }
  requests(method, pred = () => true) {
    return this.messages('c2s').filter(([, m]) => m && m.method === method && 'id' in m && pred(m.params || {}));
  }
  responsesFor(id) {
    return this.messages('s2c').filter(([, m]) => m && !('method' in m) && m.id === id);
  }
}

function checkWire(log) {
  // Every line the server wrote must be one valid JSON-RPC 2.0 message.
  const sent = new Set();
  const answered = new Set();
  const problems = [];
  let count = 0;
  for (const r of log.records()) {
    if (r.d === 'c2s' && r.msg && typeof r.msg === 'object' && 'method' in r.msg && 'id' in r.msg) sent.add(J(r.msg.id));
    if (r.d !== 's2c') continue;
    count++;
    const where = `line ${count} ${J(r.raw.slice(0, 100))}`;
    if (!r.utf8) problems.push(`${where}: not UTF-8`);
    if (!r.nl) problems.push(`${where}: not newline-terminated`);
    const m = r.msg;
    if (m === null) { problems.push(`${where}: not JSON`); continue; }
    if (typeof m !== 'object' || Array.isArray(m)) { problems.push(`${where}: not a JSON object`); continue; }
    if (m.jsonrpc !== '2.0') problems.push(`${where}: jsonrpc != "2.0"`);
    if ('method' in m) {
      if (typeof m.method !== 'string') problems.push(`${where}: method not a string`);
      if ('params' in m && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) problems.push(`${where}: params not an object`);
      if ('id' in m && !(typeof m.id === 'string' || Number.isInteger(m.id))) problems.push(`${where}: bad request id`);
      const extra = Object.keys(m).filter((k) => !['jsonrpc', 'method', 'params', 'id'].includes(k));
      if (extra.length) problems.push(`${where}: unexpected members ${extra}`);
      continue;
    }
    if (!('id' in m)) { problems.push(`${where}: neither request, notification nor response`); continue; }
    if (('result' in m) === ('error' in m)) problems.push(`${where}: response must have exactly one of result/error`);
    const extra = Object.keys(m).filter((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k));
    if (extra.length) problems.push(`${where}: unexpected members ${extra}`);
    if ('result' in m && (typeof m.result !== 'object' || m.result === null || Array.isArray(m.result))) problems.push(`${where}: result is not an object`);
    if ('error' in m && !(m.error && Number.isInteger(m.error.code) && typeof m.error.message === 'string')) problems.push(`${where}: malformed error object`);
    if (m.id !== null) {
      if (!sent.has(J(m.id))) problems.push(`${where}: response to an id the client never sent`);
      if (answered.has(J(m.id))) problems.push(`${where}: second response for the same id`);
      answered.add(J(m.id));
    }
  }
  need(count > 0, 'the server wrote nothing to stdout');
  need(problems.length === 0, () => `${problems.length} bad line(s): ${problems.slice(0, 5).join(' ; ')}`);
  return `${count} server lines checked`;
}

// ---------------------------------------------------------------------------
// transport: the SDK's StdioClientTransport, spawning the server through the tee,
// wrapped so the initialize request can ask for an older revision.
// ---------------------------------------------------------------------------

class RevisionTransport {
  // Client.connect() (1.x) always offers LATEST_PROTOCOL_VERSION (2025-11-25) and has no option to
  // offer another one; this wrapper rewrites only `params.protocolVersion` of the outgoing
  // initialize request. Everything else -- sending notifications/initialized, checking the answer
  // against SUPPORTED_PROTOCOL_VERSIONS, validating every result with its zod schemas -- is the SDK's
  // own code path. The SDK reports the negotiated version through setProtocolVersion().
  constructor(inner, offer) {
    this.inner = inner;
    this.offer = offer;
    this.negotiated = undefined;
    this.sessionId = undefined;
  }
  async start() {
    this.inner.onmessage = (m, extra) => this.onmessage?.(m, extra);
    this.inner.onerror = (e) => this.onerror?.(e);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start();
  }
  async send(message, options) {
    if (this.offer && message.method === 'initialize' && message.params) {
      message = { ...message, params: { ...message.params, protocolVersion: this.offer } };
    }
    return this.inner.send(message, options);
  }
  async close() { return this.inner.close(); }
  setProtocolVersion(v) { this.negotiated = v; }
}

function serverEnv() {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && (k.startsWith('PYTHON') || k.startsWith('LANG') || k.startsWith('LC_') || k === 'PYENV_VERSION')) env[k] = v;
  }
  return env;
}

class Peer {
  constructor() {
    this.notifications = [];
    this.logs = [];
    this.updated = [];
    this.samplingCalls = [];
    this.elicitCalls = [];
    this.rootsCalls = 0;
    this.errors = [];
    this.explained = new Set();
    this.stderr = '';
  }
}

function stdioTransport(logPath, peer, offer) {
  const inner = new StdioClientTransport({
    command: TEE_PYTHON,
    args: [TEE, '--tee', logPath, '--', ...serverCmd],
    cwd: REPO_ROOT,
    env: serverEnv(),
    stderr: 'pipe',
  });
  inner.stderr?.on('data', (chunk) => {
    peer.stderr = (peer.stderr + chunk.toString('utf8')).slice(-4000);
    if (verbose) process.stderr.write(chunk);
  });
  return new RevisionTransport(inner, offer);
}

// makeTransport(logPath, peer, offer): the stdio tee by default; ts_sdk_http_client.mjs passes
// the SDK's Streamable HTTP transport.
async function openClient(logPath, peer, offer, makeTransport = stdioTransport) {
  rmSync(logPath, { force: true }); // the tee appends; a kept log directory may hold an older run
  const transport = makeTransport(logPath, peer, offer);
  const client = new Client(CLIENT_INFO, {
    capabilities: { sampling: {}, roots: { listChanged: true }, elicitation: { form: {} } },
  });
  client.onerror = (e) => peer.errors.push(e);
  client.setRequestHandler(T.CreateMessageRequestSchema, async (req) => {
    peer.samplingCalls.push(req.params);
    return {
      role: 'assistant',
      content: { type: 'text', text: `TS-SAMPLED-REPLY-${peer.samplingCalls.length}` },
      model: 'interop-model',
      stopReason: 'endTurn',
    };
  });
  client.setRequestHandler(T.ListRootsRequestSchema, async () => {
    peer.rootsCalls++;
    return { roots: [{ uri: ROOTS[0], name: 'one' }, { uri: ROOTS[1], name: 'two' }] };
  });
  client.setRequestHandler(T.ElicitRequestSchema, async (req) => {
    peer.elicitCalls.push(req.params);
    if ((req.params.message || '').toLowerCase().includes('decline')) return { action: 'decline' };
    return { action: 'accept', content: { name: ELICIT_NAME } };
  });
  client.setNotificationHandler(T.LoggingMessageNotificationSchema, (n) => { peer.logs.push(n.params); });
  client.setNotificationHandler(T.ResourceUpdatedNotificationSchema, (n) => { peer.updated.push(n.params); });
  client.fallbackNotificationHandler = async (n) => { peer.notifications.push(n); };
  try {
    await client.connect(transport);
  } catch (e) {
    try { await client.close(); } catch { /* ignore */ }
    throw e;
  }
  return { client, transport };
}

// ---------------------------------------------------------------------------
// stage 1: handshakes
// ---------------------------------------------------------------------------

async function handshakeAt(workdir, requested, expect, makeTransport = stdioTransport) {
  const logPath = join(workdir, `handshake-${requested}.jsonl`);
  const log = new WireLog(logPath);
  const peer = new Peer();
  let conn;
  try {
    conn = await openClient(logPath, peer, requested, makeTransport);
  } catch (e) {
    throw new CheckFailed(`connect: ${describe(e)}${log.exitNote()}`);
  }
  const { client, transport } = conn;
  let info;
  try {
    need(transport.negotiated === expect, `requested ${requested}, negotiated ${J(transport.negotiated)} (expected ${expect})`);
    info = client.getServerVersion();
    need(info && info.name, 'initialize result has no serverInfo.name');
    need(client.getServerCapabilities()?.tools, 'server capabilities lack tools');
    const tools = await client.listTools();
    need(tools.tools.some((t) => t.name === 'echo'), "tools/list lacks 'echo'");
    const res = await client.callTool({ name: 'echo', arguments: { text: `at ${requested}` } });
    need(J(res.content) === J([{ type: 'text', text: `at ${requested}` }]), () => `echo at ${requested} returned ${J(res.content)}`);
  } finally {
    await client.close();
  }
  checkWire(log);
  const init = log.requests('initialize');
  need(init.length === 1, 'initialize request not found on the wire');
  need(init[0][1].params.protocolVersion === requested, `the wire shows protocolVersion ${J(init[0][1].params.protocolVersion)} offered`);
  const resp = log.responsesFor(init[0][1].id);
  need(resp.length === 1 && resp[0][1].result, 'initialize response not found on the wire');
  const r = resp[0][1].result;
  need(r.protocolVersion === expect, `initialize result protocolVersion ${J(r.protocolVersion)}`);
  need(!('resultType' in r), "initialize result carries the 2026-only 'resultType'");
  need(log.messages('c2s').some(([, m]) => m && m.method === 'notifications/initialized'), 'the SDK sent no notifications/initialized');
  return `server ${info.name} ${info.version}, protocolVersion ${r.protocolVersion}`;
}

// ---------------------------------------------------------------------------
// stage 2: the legacy feature set
// ---------------------------------------------------------------------------

function textBlocks(res) { return (res.content || []).filter((c) => c.type === 'text').map((c) => c.text); }
function onlyText(res) {
  need(!res.isError, () => `isError result: ${J(textBlocks(res))}`);
  const blocks = textBlocks(res);
  need(res.content.length === 1 && blocks.length === 1, () => `expected exactly one text block, got ${J(res.content)}`);
  return blocks[0];
}
async function expectMcpError(promise, code, what) {
  try {
    const r = await promise;
    return { result: r };
  } catch (e) {
    need(e instanceof T.McpError, () => `${what}: ${describe(e)} (not a JSON-RPC error)`);
    need(e.code === code, `${what}: error code ${e.code} (expected ${code})`);
    return { error: e };
  }
}

class Fixture {
  constructor(client, transport, peer, log) {
    Object.assign(this, { c: client, transport, peer, log });
    this.tools = {};
  }
  call(name, args = {}, options) { return this.c.callTool({ name, arguments: args }, undefined, options); }

  // TS SDK 1.x race (typescript-sdk#2580, see README): notifications are dispatched in a microtask but
  // responses synchronously, so when the final notifications/progress and the response arrive in the same
  // read, the response retires the progress handler first and the SDK reports the notification through
  // onerror ("Received a progress notification for an unknown token") instead of the onprogress callback.
  // Tolerated only for notifications the server wrote *before* the response.
  lateProgressErrors(token) {
    return this.peer.errors.filter((e) => {
      const m = /Received a progress notification for an unknown token: (\{.*\})$/s.exec(String(e?.message));
      if (!m) return false;
      try { return JSON.parse(m[1]).params.progressToken === token; } catch { return false; }
    });
  }

  progressDelivery(req, seen, expected) {
    const token = req.params._meta?.progressToken;
    need(token !== undefined, 'the SDK sent no progressToken');
    const wire = this.log.messages('s2c').filter(([, m]) => m?.method === 'notifications/progress' && m.params.progressToken === token);
    const resp = this.log.responsesFor(req.id);
    need(resp.length === 1, `no single response for id ${J(req.id)} on the wire`);
    const tResp = resp[0][0];
    need(wire.every(([t]) => t <= tResp), 'the server sent progress after the response');
    need(J(wire.map(([, m]) => m.params.progress)) === J(expected), () => `progress on the wire ${J(wire.map(([, m]) => m.params.progress))} != ${J(expected)}`);
    need(J(seen) === J(expected.slice(0, seen.length)), `onprogress saw ${J(seen)}, wire had ${J(expected)}`);
    const missing = expected.slice(seen.length);
    const late = this.lateProgressErrors(token);
    need(J(late.map((e) => JSON.parse(/(\{.*\})$/s.exec(e.message)[1]).params.progress)) === J(missing),
      () => `onprogress saw ${J(seen)} of ${J(expected)}; SDK errors for the rest: ${late.length}`);
    // only the tail that was written back-to-back with the response may be lost this way
    need(missing.length <= 1, `the SDK lost ${missing.length} progress notifications (${J(missing)})`);
    for (const e of late) this.peer.explained.add(e);
    return missing.length ? `; SDK dropped ${J(missing)} arriving with the response (typescript-sdk#2580)` : '';
  }

  async connect() {
    need(this.transport.negotiated === LATEST_LEGACY, `negotiated ${J(this.transport.negotiated)}, wanted ${LATEST_LEGACY}`);
    const caps = this.c.getServerCapabilities() || {};
    for (const k of ['tools', 'resources', 'prompts', 'logging', 'completions']) need(caps[k], `capability ${k} missing: ${J(caps)}`);
    need(caps.resources.subscribe === true, 'resources.subscribe is not advertised');
    const info = this.c.getServerVersion();
    need(this.c.getInstructions(), 'no instructions');
    return `server ${info.name} ${info.version}, SDK ${SDK_VERSION}`;
  }

  async ping() {
    const r = await this.c.ping();
    need(r && typeof r === 'object' && Object.keys(r).filter((k) => k !== '_meta').length === 0, `ping result ${J(r)}`);
  }

  async toolsList() {
    const res = await this.c.listTools();
    this.tools = Object.fromEntries(res.tools.map((t) => [t.name, t]));
    const missing = EXPECTED_TOOLS.filter((n) => !this.tools[n]);
    need(missing.length === 0, `missing tools ${missing}`);
    for (const t of res.tools) need(t.inputSchema?.type === 'object', `tool ${t.name}: inputSchema.type != object`);
    const echo = this.tools.echo.inputSchema;
    need(echo.properties?.text?.type === 'string', 'echo.text is not a string property');
    need((echo.required || []).includes('text'), 'echo.text is not required');
    need(this.tools.add.outputSchema?.type === 'object', 'add has no object outputSchema');
    need(this.c.getToolOutputValidator('add'), 'the SDK compiled no output validator for add');
    for (const [tool, arg] of [['sample', 'prompt'], ['touch', 'uri'], ['log', 'message']]) {
      need((this.tools[tool].inputSchema.required || []).includes(arg), `${tool}.${arg} is not required`);
    }
    need(!(this.tools.fail.inputSchema.required || []).includes('message'), 'fail.message must be optional');
    need(this.tools.long_job.execution?.taskSupport === 'optional', () => `long_job execution ${J(this.tools.long_job.execution)}`);
    return `${res.tools.length} tools`;
  }

  async echo() {
    const samples = [
      'hello',
      'double "quotes", single \'quotes\' and a back\\slash',
      'line one\nline two\r\nline three\n',
      'tab\there, control \u0001 char',
      'unicode: Zoë ☃ 日本語 🎉 \u2028 separator',
      '{"looks": ["like", "json"]}',
      '',
    ];
    for (const s of samples) {
      const got = onlyText(await this.call('echo', { text: s }));
      need(got === s, `echo round-trip mismatch: sent ${J(s)}, got ${J(got)}`);
    }
    return `${samples.length} strings round-tripped`;
  }

  async add() {
    need(this.c.getToolOutputValidator('add'), 'no outputSchema validator (tools/list failed?)');
    const validator = this.c.getToolOutputValidator('add');
    for (const [a, b] of [[2, 3], [0.5, 0.25], [-7, 7]]) {
      // callTool() itself rejects a result whose structuredContent fails the outputSchema
      const res = await this.call('add', { a, b });
      const text = onlyText(res);
      need(Number(text) === a + b, `add(${a}, ${b}) text ${J(text)} != ${a + b}`);
      if (a === 2) need(text === '5', `2+3 rendered as ${J(text)}`);
      const sc = res.structuredContent;
      need(sc && J(Object.keys(sc)) === '["result"]' && sc.result === a + b, `structuredContent ${J(sc)}`);
      need(validator(sc).valid, 'structuredContent fails outputSchema');
    }
    return 'structuredContent validated by the SDK (ajv)';
  }

  async fail() {
    let res = await this.call('fail', {});
    need(res.isError === true, `isError is ${J(res.isError)}`);
    need(textBlocks(res).some((t) => t.includes('boom')), () => `default message missing from ${J(res.content)}`);
    res = await this.call('fail', { message: 'kaputt ✗ 42' });
    need(res.isError === true, 'fail(message): isError is not true');
    need(textBlocks(res).some((t) => t.includes('kaputt ✗ 42')), () => `message missing from ${J(res.content)}`);
  }

  async unknownTool() {
    const { result, error } = await expectMcpError(this.call('no_such_tool_xyz', {}), -32602, 'unknown tool');
    if (error) return `JSON-RPC error ${error.code}`;
    need(result.isError === true, 'unknown tool returned a successful result');
    return 'isError result';
  }

  async printStdout() {
    need(onlyText(await this.call('print_stdout', { text: 'ts-stray-output' })) === 'printed', 'print_stdout result');
    need(onlyText(await this.call('echo', { text: 'after print' })) === 'after print', 'echo after print_stdout');
    const stray = this.log.records().filter((r) => r.d === 's2c' && r.raw.includes('ts-stray-output'));
    need(stray.length === 0, () => `stray output reached the protocol stream: ${J(stray[0].raw.slice(0, 80))}`);
  }

  async progress() {
    const seen = [];
    const res = await this.call('slow', { seconds: 0.5, steps: 5 }, { onprogress: (p) => seen.push(p) });
    need(onlyText(res) === 'done', "slow did not return 'done'");
    await sleep(100);
    const values = seen.map((p) => p.progress);
    need(values.every((v, i) => i === 0 || v > values[i - 1]), `progress not strictly increasing: ${J(values)}`);
    need(seen.every((p) => p.total === 5 && typeof p.message === 'string'), `total/message: ${J(seen)}`);
    const reqs = this.log.requests('tools/call', (p) => p.name === 'slow' && J(p.arguments) === J({ seconds: 0.5, steps: 5 }));
    need(reqs.length === 1, 'slow request not found on the wire');
    const note = this.progressDelivery(reqs[0][1], values, [1, 2, 3, 4, 5]);
    return `progress ${J(values)}, total 5${note}`;
  }

  async cancellation() {
    const args = { seconds: 2.2, steps: 11 };
    const got = [];
    const ac = new AbortController();
    const start = Date.now();
    setTimeout(() => ac.abort('interop cancel'), 700);
    try {
      await this.call('slow', args, { signal: ac.signal, onprogress: (p) => got.push(p.progress) });
      throw new CheckFailed('slow(2.2 s) finished before the client cancelled it');
    } catch (e) {
      if (e instanceof CheckFailed) throw e;
      need(ac.signal.aborted, `call failed before the abort: ${describe(e)}`);
    }
    await sleep(Math.max(0, 3000 - (Date.now() - start)));
    const reqs = this.log.requests('tools/call', (p) => J(p.arguments) === J(args));
    need(reqs.length === 1, `expected one cancelled slow request on the wire, found ${reqs.length}`);
    const rid = reqs[0][1].id;
    const cancels = this.log.messages('c2s').filter(([, m]) => m?.method === 'notifications/cancelled' && m.params?.requestId === rid);
    need(cancels.length === 1, `the SDK did not send notifications/cancelled for id ${J(rid)}`);
    const resp = this.log.responsesFor(rid);
    need(resp.length === 0, () => `server answered the cancelled request ${J(rid)}: ${J(resp[0][1]).slice(0, 200)}`);
    const token = reqs[0][1].params._meta?.progressToken;
    const tCancel = cancels[0][0];
    const late = this.log.messages('s2c').filter(([t, m]) => t > tCancel + 0.25 && m?.method === 'notifications/progress' && m.params?.progressToken === token);
    need(late.length === 0, `${late.length} progress notification(s) after the cancel`);
    // progress the server wrote before it saw the cancel reaches an SDK that already retired the token
    // (the spec expects such in-flight messages; the SDK reports them through onerror)
    for (const e of this.lateProgressErrors(token)) this.peer.explained.add(e);
    need(onlyText(await this.call('echo', { text: 'still alive' })) === 'still alive', 'echo after cancel failed');
    return `request ${J(rid)} cancelled after ${got.length} progress step(s), no response`;
  }

  async concurrency() {
    const start = Date.now();
    const outs = await Promise.all([0, 1, 2].map(() => this.call('slow', { seconds: 1, steps: 2 }).then(onlyText)));
    const elapsed = (Date.now() - start) / 1000;
    need(J(outs) === J(['done', 'done', 'done']), `results ${J(outs)}`);
    need(elapsed < 2.5, `three 1 s calls took ${elapsed.toFixed(2)} s (not concurrent)`);
    return `${elapsed.toFixed(2)} s`;
  }

  serverRequests(method) {
    return this.log.messages('s2c').filter(([, m]) => m && m.method === method && 'id' in m);
  }

  async sampling() {
    const before = this.peer.samplingCalls.length;
    const prompt = 'Say hi to the interop test ✓';
    const text = onlyText(await this.call('sample', { prompt }));
    const calls = this.peer.samplingCalls.slice(before);
    need(calls.length === 1, `sampling handler ran ${calls.length} times`);
    const p = calls[0];
    need(p.messages.length === 1 && p.messages[0].role === 'user', () => `messages ${J(p.messages)}`);
    const content = Array.isArray(p.messages[0].content) ? p.messages[0].content[0] : p.messages[0].content;
    need(content.type === 'text' && content.text === prompt, () => `content ${J(content)}`);
    need(p.maxTokens <= 100, `maxTokens ${p.maxTokens}`);
    const reply = `TS-SAMPLED-REPLY-${this.peer.samplingCalls.length}`;
    need(text.includes(reply), `tool result ${J(text)} lacks ${reply}`);
    need(this.serverRequests('sampling/createMessage').length >= 1, 'no sampling/createMessage request on the wire');
    return 'server->client sampling/createMessage';
  }

  async roots() {
    const before = this.peer.rootsCalls;
    const text = onlyText(await this.call('ask_roots', {}));
    need(this.peer.rootsCalls === before + 1, 'roots handler did not run exactly once');
    need(text === ROOTS.join('\n'), `ask_roots returned ${J(text)}`);
    need(this.serverRequests('roots/list').length >= 1, 'no roots/list request on the wire');
    return 'server->client roots/list';
  }

  async elicitation() {
    const before = this.peer.elicitCalls.length;
    let text = onlyText(await this.call('elicit', { message: 'What is your name?' }));
    const calls = this.peer.elicitCalls.slice(before);
    need(calls.length === 1, `elicitation handler ran ${calls.length} times`);
    const p = calls[0];
    need((p.mode ?? 'form') === 'form', `mode ${J(p.mode)}`);
    need(p.message === 'What is your name?', `message ${J(p.message)}`);
    need(p.requestedSchema?.type === 'object' && p.requestedSchema.properties?.name?.type === 'string', () => `requestedSchema ${J(p.requestedSchema)}`);
    need(text === `accept: ${ELICIT_NAME}`, `accept result ${J(text)}`);
    text = onlyText(await this.call('elicit', { message: 'Please decline this' }));
    need(text === 'decline', `decline result ${J(text)}`);
    need(this.serverRequests('elicitation/create').length >= 2, 'elicitation/create requests missing on the wire');
    return 'accept + decline';
  }

  async resourcesList() {
    const res = await this.c.listResources();
    const hello = res.resources.filter((r) => r.uri === 'fixture://hello');
    need(hello.length === 1, () => `fixture://hello not listed: ${J(res.resources.map((r) => r.uri))}`);
    need(hello[0].mimeType === 'text/plain', `mimeType ${J(hello[0].mimeType)}`);
    need(typeof hello[0].name === 'string' && hello[0].name, 'resource has no name');
  }

  async resourcesRead() {
    const res = await this.c.readResource({ uri: 'fixture://hello' });
    need(J(res.contents) === J([{ uri: 'fixture://hello', mimeType: 'text/plain', text: 'Hello, world!' }]) ||
      (res.contents.length === 1 && res.contents[0].text === 'Hello, world!' && res.contents[0].uri === 'fixture://hello'),
    () => `contents ${J(res.contents)}`);
  }

  async templates() {
    const res = await this.c.listResourceTemplates();
    const uts = res.resourceTemplates.map((t) => t.uriTemplate);
    need(uts.includes('fixture://greeting/{name}'), `template not listed: ${J(uts)}`);
    for (const name of ['Ada', 'bob-42']) {
      const got = await this.c.readResource({ uri: `fixture://greeting/${name}` });
      need(got.contents.length === 1 && got.contents[0].text === `Hello, ${name}!`, () => `greeting/${name} -> ${J(got.contents)}`);
    }
  }

  async unknownResource() {
    const { error } = await expectMcpError(this.c.readResource({ uri: 'fixture://does-not-exist' }), -32002, 'unknown resource');
    need(error, 'read of an unknown resource succeeded');
    return `${error.code} ${error.message}`;
  }

  async subscriptions() {
    const uri = 'fixture://hello';
    await this.c.subscribeResource({ uri });
    const n = this.peer.updated.length;
    need(onlyText(await this.call('touch', { uri })) === 'touched', 'touch result');
    const deadline = Date.now() + 3000;
    while (this.peer.updated.length === n && Date.now() < deadline) await sleep(20);
    const ups = this.peer.updated.slice(n);
    need(ups.length === 1 && ups[0].uri === uri, `updated notifications ${J(ups)}`);
    // touching a resource nobody subscribed to must not notify
    need(onlyText(await this.call('touch', { uri: 'fixture://greeting/nobody' })) === 'touched', 'touch result');
    await sleep(300);
    need(this.peer.updated.length === n + 1, () => `updated for an unsubscribed URI: ${J(this.peer.updated.slice(n + 1))}`);
    await this.c.unsubscribeResource({ uri });
    need(onlyText(await this.call('touch', { uri })) === 'touched', 'touch result after unsubscribe');
    await sleep(500);
    need(this.peer.updated.length === n + 1, 'updated sent after unsubscribe');
  }

  async prompts() {
    const res = await this.c.listPrompts();
    const greet = res.prompts.find((p) => p.name === 'greet');
    need(greet, () => `greet not listed: ${J(res.prompts.map((p) => p.name))}`);
    const arg = (greet.arguments || []).find((a) => a.name === 'name');
    need(arg && arg.required === true, 'greet.name is not a required argument');
    const got = await this.c.getPrompt({ name: 'greet', arguments: { name: 'Ada Lovelace ✓' } });
    need(got.messages.length >= 1, 'no messages');
    const m = got.messages[0];
    need(m.role === 'user' && m.content.type === 'text' && m.content.text.includes('Ada Lovelace ✓'), () => `message ${J(m)}`);
  }

  async promptMissingArgument() {
    const { error } = await expectMcpError(this.c.getPrompt({ name: 'greet', arguments: {} }), -32602, 'missing required argument');
    need(error, 'prompts/get without the required argument succeeded');
  }

  async completion() {
    const ref = { type: 'ref/prompt', name: 'greet' };
    for (const [prefix, want] of [['a', ['alice', 'anna']], ['b', ['bob']], ['an', ['anna']], ['z', []]]) {
      const res = await this.c.complete({ ref, argument: { name: 'name', value: prefix } });
      need(J([...res.completion.values].sort()) === J(want), `prompt prefix ${J(prefix)}: ${J(res.completion.values)} != ${J(want)}`);
    }
    const tref = { type: 'ref/resource', uri: 'fixture://greeting/{name}' };
    const res = await this.c.complete({ ref: tref, argument: { name: 'name', value: 'a' } });
    need(J([...res.completion.values].sort()) === J(['alice', 'anna']), `template completion ${J(res.completion.values)}`);
    return 'prompt argument + resource template';
  }

  async logCall(level, message) {
    const n = this.peer.logs.length;
    need(onlyText(await this.call('log', { message, level })) === 'logged', 'log result');
    await sleep(300);
    return this.peer.logs.slice(n);
  }

  async logging() {
    await this.c.setLoggingLevel('debug');
    const msg = 'log line ✓ with "quotes"\nand a newline';
    let got = await this.logCall('info', msg);
    need(got.length === 1 && got[0].level === 'info' && got[0].data === msg, `got ${J(got)}`);
    got = await this.logCall('debug', 'debug-msg');
    need(got.length === 1 && got[0].level === 'debug' && got[0].data === 'debug-msg', `debug: ${J(got)}`);
  }

  async setLevel() {
    await this.c.setLoggingLevel('warning');
    let got = await this.logCall('info', 'filtered-out');
    need(got.length === 0, `info delivered below threshold 'warning': ${J(got)}`);
    got = await this.logCall('warning', 'at-threshold');
    need(got.length === 1 && got[0].level === 'warning', `warning: ${J(got)}`);
    got = await this.logCall('error', 'passes-filter');
    need(got.length === 1 && got[0].level === 'error' && got[0].data === 'passes-filter', `error: ${J(got)}`);
    const { error } = await expectMcpError(this.c.setLoggingLevel('loud'), -32602, 'invalid level');
    need(error, "logging/setLevel 'loud' succeeded");
    await this.c.setLoggingLevel('debug');
    return 'warning threshold; invalid level -> -32602';
  }

  async unknownMethod() {
    const { error } = await expectMcpError(this.c.request({ method: 'interop/no-such-method', params: {} }, T.EmptyResultSchema), -32601, 'unknown method');
    need(error, 'unknown method returned a result');
    return `${error.code} ${error.message}`;
  }

  async longJob() {
    // long_job supports tasks (taskSupport "optional"); called plainly it must return a CallToolResult.
    const seen = [];
    const res = await this.call('long_job', { seconds: 0.5 }, { onprogress: (p) => seen.push(p.progress) });
    need(onlyText(res) === 'finished after 0.5 seconds', () => `long_job returned ${J(res.content)}`);
    const reqs = this.log.requests('tools/call', (p) => p.name === 'long_job');
    need(reqs.length === 1 && !('task' in reqs[0][1].params), 'the SDK task-augmented the call');
    const resp = this.log.responsesFor(reqs[0][1].id);
    need(resp.length === 1 && resp[0][1].result && !('task' in resp[0][1].result), () => `response ${J(resp[0] && resp[0][1]).slice(0, 200)}`);
    need(seen.every((v, i) => i === 0 || v > seen[i - 1]), `progress not strictly increasing: ${J(seen)}`);
    const note = this.progressDelivery(reqs[0][1], seen, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    return `plain CallToolResult, 10 progress steps${note}`;
  }

  async transportClean() {
    const errors = this.peer.errors.filter((e) => !this.peer.explained.has(e));
    need(errors.length === 0, () => `client errors: ${errors.map(describe).join(' ; ')}`);
    const stray = this.peer.notifications.map((n) => n.method);
    need(stray.length === 0, `unexpected notifications: ${J(stray)}`);
    const n = this.peer.explained.size;
    return n ? `${n} late-progress onerror report(s) explained (typescript-sdk#2580)` : '';
  }
}

const FEATURE_CHECKS = [
    ['ping', 'ping'], ['tools/list', 'toolsList'], ['tool.echo', 'echo'], ['tool.add+outputSchema', 'add'],
    ['tool.fail', 'fail'], ['tool.unknown', 'unknownTool'], ['tool.print_stdout', 'printStdout'],
    ['progress', 'progress'], ['cancellation', 'cancellation'], ['concurrency', 'concurrency'],
    ['sampling', 'sampling'], ['roots', 'roots'], ['elicitation', 'elicitation'],
    ['resources/list', 'resourcesList'], ['resources/read', 'resourcesRead'], ['resources/templates', 'templates'],
    ['resources/read-unknown', 'unknownResource'], ['subscribe-touch-unsubscribe', 'subscriptions'],
    ['prompts', 'prompts'], ['prompts.missing-argument', 'promptMissingArgument'], ['completion', 'completion'],
    ['notifications/message', 'logging'], ['logging/setLevel-filter', 'setLevel'], ['unknown-method', 'unknownMethod'],
    ['tool.long_job-plain', 'longJob'], ['no-transport-errors', 'transportClean'],
];

async function stageFeatures(workdir) {
  const prefix = LATEST_LEGACY;
  const logPath = join(workdir, 'legacy.jsonl');
  const log = new WireLog(logPath);
  const peer = new Peer();
  const checks = FEATURE_CHECKS;
  let conn;
  try {
    conn = await openClient(logPath, peer);
  } catch (e) {
    fail(`${prefix}.connect`, describe(e) + log.exitNote() + (peer.stderr ? ` stderr: ${peer.stderr.slice(-300)}` : ''));
    for (const [name] of checks) fail(`${prefix}.${name}`, 'not run (connection failed)');
    return;
  }
  const fx = new Fixture(conn.client, conn.transport, peer, log);
  await run(`${prefix}.connect`, () => fx.connect());
  for (const [name, fn] of checks) await run(`${prefix}.${name}`, () => fx[fn]());
  await conn.client.close();
  await sleep(200);
  await run(`${prefix}.stdout-is-jsonrpc`, async () => checkWire(log));
  await run(`${prefix}.server-exit`, async () => {
    const codes = log.records().filter((r) => r.d === 'exit').map((r) => r.code);
    need(codes.length === 1, 'no exit record (server still running?)');
    need(codes[0] === 0, `server exited with code ${codes[0]} after stdin closed` + (peer.stderr ? `; stderr: ${peer.stderr.slice(-300)}` : ''));
    return 'exit 0 on stdin EOF';
  });
}

// ---------------------------------------------------------------------------

async function main() {
  let workdir = logsDir;
  let tmp = null;
  if (workdir) mkdirSync(workdir, { recursive: true });
  else workdir = tmp = mkdtempSync(join(tmpdir(), 'minimcp-ts-interop-'));
  console.log(`# TS SDK ${SDK_VERSION}; server: ${serverCmd.join(' ')} (cwd ${REPO_ROOT}); wire logs in ${workdir}`);
  for (const rev of HANDSHAKE_REVISIONS) await run(`handshake.${rev}`, () => handshakeAt(workdir, rev, rev));
  await run('handshake.unknown-version-counter-offer', () => handshakeAt(workdir, '2023-01-01', LATEST_LEGACY));
  await stageFeatures(workdir);
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  console.log(`${results.passed} passed, ${results.failed} failed`);
  process.exitCode = results.failed ? 1 : 0;
}

// ts_sdk_http_client.mjs imports this file for its checks; only a direct run runs the stdio stages.
export {
  Client, T, SDK_VERSION, LATEST_LEGACY, HANDSHAKE_REVISIONS, FEATURE_CHECKS, verbose, logsDir, sdk,
  CheckFailed, need, describe, sleep, J, results, ok, fail, run, WireLog, checkWire, RevisionTransport,
  Peer, openClient, handshakeAt, onlyText, textBlocks, Fixture,
};

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.log(`FAIL internal: ${describe(e)}`);
    console.log(`${results.passed} passed, ${results.failed + 1} failed`);
    process.exitCode = 1;
  });
}
