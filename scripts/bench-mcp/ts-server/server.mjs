// The official TypeScript SDK's MCP server with one `add` tool: the baseline the load client
// in crates/toolpact-mcp/benches/mcp_load.rs measures toolpact against.
//   node server.mjs stdio
//   node server.mjs http [--stateless]   (prints its URL on the first line of standard output)
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { randomUUID } from "node:crypto";
import { z } from "zod";

function addServer() {
  const server = new McpServer({ name: "ts-add", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Adds two numbers.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  return server;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

const [mode, flag] = process.argv.slice(2);
if (mode === "stdio") {
  await addServer().connect(new StdioServerTransport());
} else if (mode === "http") {
  const stateless = flag === "--stateless";
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    try {
      const body = req.method === "POST" ? await readBody(req) : undefined;
      if (stateless) {
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const server = addServer();
        res.on("close", () => { transport.close(); server.close(); });
        await server.connect(transport);
        await transport.handleRequest(req, res, body);
        return;
      }
      const id = req.headers["mcp-session-id"];
      let transport = id ? sessions.get(id) : undefined;
      if (!transport) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => sessions.set(sid, transport),
        });
        transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
        await addServer().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (e) {
      if (!res.headersSent) { res.writeHead(500); res.end(String(e)); }
    }
  });
  http.listen(0, "127.0.0.1", () => {
    console.log(`http://127.0.0.1:${http.address().port}/mcp`);
  });
} else {
  console.error("usage: node server.mjs stdio | http [--stateless]");
  process.exit(2);
}
