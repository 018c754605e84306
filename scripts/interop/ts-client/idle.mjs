// Interop check: the official TypeScript MCP SDK keeps a Streamable HTTP session through a long
// idle. Usage: node idle.mjs URL TOKEN SECONDS. Lists the tools, stays idle for SECONDS with
// the session open, lists them again and calls one; prints `ok   typescript idle Ns` or
// `FAIL typescript idle Ns REASON` and exits 0 or 1.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, seconds] = process.argv.slice(2);
if (!url || !token || !seconds) {
  console.error("usage: node idle.mjs URL TOKEN SECONDS");
  process.exit(2);
}
const where = `typescript idle ${Number(seconds).toFixed(0)}s`;

async function check() {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "toolpact-idle-check", version: "1.0.0" });
  await client.connect(transport);
  const before = await client.listTools();
  await new Promise((resolve) => setTimeout(resolve, Number(seconds) * 1000));
  const after = await client.listTools();
  const names = (list) => list.tools.map((t) => t.name).join(",");
  if (names(after) !== names(before)) {
    throw new Error("the tools listed after the idle differ from those before");
  }
  const result = await client.callTool({ name: "create_order", arguments: { giftId: "g-1", quantity: 0 } });
  if (!result.isError) {
    throw new Error(`an invalid call after the idle was not refused: ${JSON.stringify(result)}`);
  }
  await transport.terminateSession();
  await client.close();
}

check().then(
  () => {
    console.log(`ok   ${where}`);
    process.exit(0);
  },
  (error) => {
    console.log(`FAIL ${where} ${error?.stack ?? error}`);
    process.exit(1);
  },
);
