#!/usr/bin/env node
// Interop check over Streamable HTTP: drive minimcp's HTTP transport with the official TypeScript
// SDK client (npm @modelcontextprotocol/sdk 1.x, its StreamableHTTPClientTransport).
//
// Usage (run_http_ts_sdk.sh installs the SDK, starts the server and sets the environment):
//
//   MINIMCP_HTTP_URL=http://127.0.0.1:PORT/mcp node ts_sdk_http_client.mjs [-v] --logs DIR
//
// The server is tests/interop/http_server.py serving examples/everything.py; it records every
// JSON-RPC message of each HTTP exchange to DIR/<X-Interop-Log header>.jsonl in the format of the
// stdio tee, so the checks of ts_sdk_client.mjs (imported from there, not copied) run unchanged on
// the HTTP wire and schema_check.py can validate it afterwards.
//
// Stages (those of the stdio stage; the 1.x SDK speaks the handshake era only):
//   handshake.<rev>   initialize at 2024-11-05 .. 2025-11-25 (and an unknown version) over HTTP.
//   2025-11-25.*      the legacy feature set over one HTTP session, then the HTTP layer itself
//                     (http-framing: statuses, content types, one Mcp-Session-Id issued at
//                     initialize and sent on every later POST, the MCP-Protocol-Version header)
//                     and the DELETE that ends the session.
//
// Output: `ok <name>` / `FAIL <name>: why`, then `N passed, N failed`; exit status 1 on any failure.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

import {
  Client, T, SDK_VERSION, LATEST_LEGACY, HANDSHAKE_REVISIONS, FEATURE_CHECKS, logsDir, sdk,
  need, describe, sleep, J, results, fail, run, WireLog, checkWire, RevisionTransport, Peer,
  openClient, handshakeAt, Fixture,
} from './ts_sdk_client.mjs';

const URL_ = process.env.MINIMCP_HTTP_URL;
const LOG_HEADER = 'X-Interop-Log';
const { StreamableHTTPClientTransport } = await sdk('client/streamableHttp.js');

class HTTPRevisionTransport extends RevisionTransport {
  // The stdio wrapper, plus what HTTP needs of the inner transport: the negotiated version goes on
  // as the MCP-Protocol-Version header, and the session id is the inner transport's.
  setProtocolVersion(v) {
    this.negotiated = v;
    this.inner.setProtocolVersion(v);
  }
  get sessionId() { return this.inner?.sessionId; }
  set sessionId(_) { /* RevisionTransport's constructor assigns it */ }
}

function httpTransport(logPath, peer, offer) {
  const name = logPath.split('/').pop().replace(/\.jsonl$/, '');
  const inner = new StreamableHTTPClientTransport(new URL(URL_), { requestInit: { headers: { [LOG_HEADER]: name } } });
  return new HTTPRevisionTransport(inner, offer);
}

function streamProblems(log) {
  // Each server message on the stream the transport spec assigns it: a response on the POST that
  // carried its request; progress (with that request's progressToken), log messages and the
  // server's requests on the POST of the request they belong to; resource updates and list
  // changes, which belong to no request, on the GET stream.
  const sent = new Map(log.messages('c2s').filter(([, m]) => m && 'method' in m).map(([, m]) => [J(m.id), m]));
  const problems = [];
  for (const r of log.records()) {
    const m = r.msg;
    const http = r.http || {};
    if (r.d !== 's2c' || !m) continue;
    const carrier = http.method === 'POST' ? sent.get(J(http.for)) : undefined;
    const what = m.method || `response ${J(m.id)}`;
    if (!m.method) {
      if (!carrier || carrier.id !== m.id) problems.push(`${what} on the stream of ${http.method} ${J(http.for)}`);
    } else if (m.method === 'notifications/resources/updated' || m.method.endsWith('/list_changed')) {
      if (carrier) problems.push(`${what} on the stream of ${carrier.method} ${J(carrier.id)}`);
    } else if (!carrier) {
      problems.push(`${what} on the ${http.method} stream, not on a request's`);
    } else if (m.method === 'notifications/progress' && m.params?.progressToken !== carrier.params?._meta?.progressToken) {
      problems.push(`progress for another request on the stream of ${J(carrier.id)}`);
    }
  }
  return problems;
}

function checkHttp(log) {
  // The handshake-era HTTP layer, as the server answered it.
  const problems = [];
  const issued = new Set();
  let negotiated = null;
  let posts = 0;
  for (const r of log.records()) {
    if (r.d !== 'c2s' && r.d !== 's2c') continue;
    const http = r.http || {};
    const m = r.msg;
    if (r.d === 's2c') {
      if (http.status !== '200 OK') problems.push(`status ${J(http.status)} for ${J(r.raw.slice(0, 80))}`);
      const type = (http.type || '').split(';')[0];
      if (!['application/json', 'text/event-stream'].includes(type)) problems.push(`Content-Type ${J(type)}`);
      if (http.session) issued.add(http.session);
      if (m && m.result && typeof m.result.protocolVersion === 'string') negotiated = m.result.protocolVersion;
      continue;
    }
    posts++;
    const what = (m && m.method) || 'answer';
    if (what === 'initialize') {
      if (http.session) problems.push('initialize carried an Mcp-Session-Id');
      continue;
    }
    if (!issued.size) problems.push(`${what} sent before any Mcp-Session-Id was issued`);
    else if (!issued.has(http.session)) problems.push(`${what} carried an Mcp-Session-Id the server never issued`);
    if (negotiated && http.version !== negotiated) problems.push(`${what} carried MCP-Protocol-Version ${J(http.version)}, negotiated ${negotiated}`);
  }
  problems.push(...streamProblems(log));
  need(issued.size === 1, `expected one Mcp-Session-Id issued at initialize, saw ${issued.size}`);
  need(problems.length === 0, () => `${problems.length} problem(s): ${problems.slice(0, 5).join(' ; ')}`);
  return `${posts} POSTs, one session id`;
}

async function handshakeOverHttp(workdir, requested, expect) {
  const detail = await handshakeAt(workdir, requested, expect, httpTransport);
  checkHttp(new WireLog(join(workdir, `handshake-${requested}.jsonl`)));
  return `${detail} over HTTP`;
}

async function stageFeatures(workdir) {
  const prefix = LATEST_LEGACY;
  const logPath = join(workdir, 'legacy.jsonl');
  const log = new WireLog(logPath);
  const peer = new Peer();
  let conn;
  try {
    conn = await openClient(logPath, peer, undefined, httpTransport);
  } catch (e) {
    fail(`${prefix}.connect`, describe(e));
    for (const [name] of FEATURE_CHECKS) fail(`${prefix}.${name}`, 'not run (connection failed)');
    return;
  }
  const fx = new Fixture(conn.client, conn.transport, peer, log);
  await run(`${prefix}.connect`, () => fx.connect());
  for (const [name, fn] of FEATURE_CHECKS) await run(`${prefix}.${name}`, () => fx[fn]());
  await run(`${prefix}.http-is-jsonrpc`, async () => checkWire(log));
  await run(`${prefix}.http-framing`, async () => checkHttp(log));
  await run(`${prefix}.session-delete`, async () => {
    const sid = conn.transport.sessionId;
    need(sid, 'the SDK holds no Mcp-Session-Id');
    await conn.transport.inner.terminateSession();
    need(conn.transport.sessionId === undefined, 'the SDK kept the session id after DELETE');
    // the server must now refuse the ended session: 404, per the transport spec
    const res = await fetch(URL_, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': LATEST_LEGACY },
      body: J({ jsonrpc: '2.0', id: 'after-delete', method: 'ping' }),
    });
    need(res.status === 404, `POST on the deleted session answered ${res.status}, not 404`);
    return 'DELETE ended the session; the old id gets 404';
  });
  await conn.client.close();
}

async function main() {
  need(URL_, 'MINIMCP_HTTP_URL is not set (run run_http_ts_sdk.sh)');
  need(logsDir, '--logs DIR is required (the directory the server records to)');
  mkdirSync(logsDir, { recursive: true });
  console.log(`# TS SDK ${SDK_VERSION} (StreamableHTTPClientTransport); server: ${URL_}; wire logs in ${logsDir}`);
  for (const rev of HANDSHAKE_REVISIONS) await run(`handshake.${rev}`, () => handshakeOverHttp(logsDir, rev, rev));
  await run('handshake.unknown-version-counter-offer', () => handshakeOverHttp(logsDir, '2023-01-01', LATEST_LEGACY));
  await stageFeatures(logsDir);
  console.log(`${results.passed} passed, ${results.failed} failed`);
  process.exitCode = results.failed ? 1 : 0;
}

main().catch((e) => {
  console.log(`FAIL internal: ${describe(e)}`);
  console.log(`${results.passed} passed, ${results.failed + 1} failed`);
  process.exitCode = 1;
});
