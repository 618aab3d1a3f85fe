// Echo server on the official TypeScript SDK (@modelcontextprotocol/sdk 1.x, McpServer).
//
// run.py copies this file next to the node_modules it installed, so the bare
// package specifiers below resolve.  One text block per reply, no outputSchema.
// The stdio transport's read buffer defaults to 10 MiB, which rejects the
// 10 MiB echo line outright; MCPBENCH_TS_MAXBUF (bytes) raises it for the
// payload figures (run.py sets 256 MiB and says so in the report).
//
// Environment: MCPBENCH_TOOLS=N (filler tools), MCPBENCH_EXTRA=1 (`slow`:
// setTimeout; `spin`: polls extra.signal every 10 ms, writes "MCPBENCH <event> <ns>"
// marker to stderr when it leaves).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'ts-sdk-echo', version: '0' });
const text = (s) => ({ content: [{ type: 'text', text: s }] });

server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string() } },
  async ({ text: t }) => text(t));

const nTools = parseInt(process.env.MCPBENCH_TOOLS || '0', 10) || 0;
for (let i = 0; i < nTools; i++) {
  const name = 'filler_' + String(i).padStart(5, '0');
  server.registerTool(name, { description: `Filler tool number ${i}.`, inputSchema: { x: z.string() } },
    async ({ x }) => text(x));
}

if (process.env.MCPBENCH_EXTRA) {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  server.registerTool('slow', { description: 'Sleep, then answer.', inputSchema: { seconds: z.number() } },
    async ({ seconds }) => { await sleep(seconds * 1000); return text('slept'); });
  server.registerTool('spin', { description: 'Poll for cancellation every 10 ms.', inputSchema: { seconds: z.number() } },
    async ({ seconds }, extra) => {
      process.stderr.write(`MCPBENCH enter ${process.hrtime.bigint()}\n`);
      let reason = 'cancelled';
      try {
        const deadline = Date.now() + seconds * 1000;
        while (Date.now() < deadline) {
          if (extra.signal.aborted) return text('cancelled');
          await sleep(10);
        }
        reason = 'finished';
        return text('done');
      } finally {
        process.stderr.write(`MCPBENCH ${reason} ${process.hrtime.bigint()}\n`);
      }
    });
}

const maxBufferSize = parseInt(process.env.MCPBENCH_TS_MAXBUF || '0', 10) || undefined;
await server.connect(new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize }));
