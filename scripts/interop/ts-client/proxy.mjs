// Interop check: the official TypeScript MCP SDK client sees the same server through
// `toolpact proxy`. Usage: node proxy.mjs TOOLPACT NAME -- COMMAND [ARG...], NAME being
// `gift-shop` or `everything` (it chooses the probe), COMMAND starting the server over stdio.
//
// One probe runs against COMMAND directly, through `toolpact proxy -- COMMAND` over stdio, and
// through `toolpact proxy --http 127.0.0.1:0 -- COMMAND` over Streamable HTTP. It records what
// the client sees of each feature the server offers (capabilities, tools, calls, a call with
// progress notifications, resources, resource templates, prompts, completions,
// logging/setLevel); every record taken through the proxy must equal the direct one, except that
// only isError is compared for invalid arguments (the proxy answers them with its own errors);
// over HTTP too, fields of 2025-11-25 (the tasks capability, a tool's execution) included. Prints
// `ok   WHERE` or `FAIL WHERE REASON` for each comparison, then
// `proxy interop (typescript): N passed, M failed`; exits 0 or 1 (2 on bad usage).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const STEP_MS = 30_000;

// Calls whose results are the same on every run.
const CALLS = {
  "gift-shop": [
    ["suggest_gifts", { relationship: "friend", interests: ["cooking"], budget: { max: 60 }, occasion: "birthday" }],
    ["get_gift_details", { giftId: "g-1" }],
    ["get_gift_details", { giftId: "no-such-gift" }],
    ["list_orders", {}],
    ["create_order", { giftId: "g-1", quantity: 0 }],
  ],
  everything: [
    ["echo", { message: "hello through the proxy" }],
    ["get-sum", { a: 2, b: 40 }],
    ["get-tiny-image", {}],
    ["get-annotated-message", { messageType: "error", includeImage: false }],
    ["get-resource-links", { count: 3 }],
    ["get-resource-reference", { resourceType: "Text", resourceId: 2 }],
    ["get-structured-content", { location: "New York" }],
    ["get-sum", { a: "two", b: 40 }],
  ],
};
// Calls with invalid arguments: the proxy answers them itself, with toolpact's errors, where the
// server answers with its own; both must be an isError result, the texts differ.
const INVALID = new Set(['create_order {"giftId":"g-1","quantity":0}', 'get-sum {"a":"two","b":40}']);
// The everything server writes the time it made a resource into the resource's text.
const CLOCK = /\b\d{1,2}:\d{2}:\d{2}\s?[AP]M\b/g;
const PROGRESS = {
  "gift-shop": null,
  everything: ["trigger-long-running-operation", { duration: 1, steps: 3 }],
};
const PROMPT_ARGUMENTS = {
  "args-prompt": { city: "Lyon", state: "Rhône" },
  "completable-prompt": { department: "Engineering", name: "Bob" },
  "resource-prompt": { resourceType: "Text", resourceId: "1" },
};

const args = process.argv.slice(2);
if (args.length < 4 || args[2] !== "--" || !(args[1] in CALLS)) {
  console.error("usage: node proxy.mjs TOOLPACT gift-shop|everything -- COMMAND [ARG...]");
  process.exit(2);
}
const [toolpact, name] = args;
const command = args.slice(3);

// JSON with the keys of every object sorted, so that records compare as text.
function canonical(value) {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical(value[k])]),
    );
  }
  return value;
}

async function step(promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${STEP_MS} ms`)), STEP_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function probe(client) {
  const record = {};
  const capabilities = client.getServerCapabilities() ?? {};
  record.capabilities = Object.keys(capabilities).sort();
  record.tools = (await step(client.listTools())).tools;
  for (const [tool, toolArgs] of CALLS[name]) {
    const key = `call ${tool} ${JSON.stringify(canonical(toolArgs))}`;
    try {
      const result = await step(client.callTool({ name: tool, arguments: toolArgs }));
      record[key] = INVALID.has(key.slice("call ".length)) ? { isError: result.isError } : result;
    } catch (error) {
      record[key] = { error: error.code ?? String(error) };
    }
  }
  if (PROGRESS[name]) {
    const [tool, toolArgs] = PROGRESS[name];
    const seen = [];
    const result = await step(
      client.callTool({ name: tool, arguments: toolArgs }, undefined, {
        onprogress: (p) => seen.push([p.progress, p.total ?? null]),
      }),
    );
    // Whether the last notification comes before the result or after it (and is then dropped by
    // the client) is a race in the server, directly as through the proxy.
    const steps = toolArgs.steps;
    const inOrder =
      (seen.length === steps || seen.length === steps - 1) &&
      seen.every(([progress, total], i) => progress === i + 1 && total === steps);
    record[`progress ${tool}`] = { result, notifications: inOrder ? "in order" : seen };
  }
  if (capabilities.resources) {
    const resources = (await step(client.listResources())).resources;
    record.resources = resources;
    record["resource templates"] = (await step(client.listResourceTemplates())).resourceTemplates;
    for (const resource of resources.slice(0, 3)) {
      record[`read ${resource.uri}`] = await step(client.readResource({ uri: resource.uri }));
    }
  }
  if (capabilities.prompts) {
    const prompts = (await step(client.listPrompts())).prompts;
    record.prompts = prompts;
    for (const prompt of prompts) {
      record[`prompt ${prompt.name}`] = await step(
        client.getPrompt({ name: prompt.name, arguments: PROMPT_ARGUMENTS[prompt.name] ?? {} }),
      );
    }
  }
  if (capabilities.completions && name === "everything") {
    record["complete department=E"] = await step(
      client.complete({
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "department", value: "E" },
      }),
    );
  }
  if (capabilities.logging) {
    await step(client.setLoggingLevel("debug"));
    record["logging/setLevel"] = "ok";
  }
  return JSON.parse(JSON.stringify(canonical(record)).replace(CLOCK, "TIME"));
}

async function withClient(transport, body) {
  const client = new Client({ name: "toolpact-proxy-interop", version: "1.0.0" });
  await step(client.connect(transport));
  try {
    return await body(client);
  } finally {
    if (transport.terminateSession) await transport.terminateSession().catch(() => {});
    await client.close();
  }
}

function stdio(commandLine) {
  return new StdioClientTransport({ command: commandLine[0], args: commandLine.slice(1), stderr: "ignore" });
}

// `toolpact proxy --http 127.0.0.1:0 -- COMMAND`; resolves once it says where it listens.
function proxyHttp() {
  const child = spawn(toolpact, ["proxy", "--http", "127.0.0.1:0", "--", ...command], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stderr });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error("toolpact proxy --http did not say where it listens within 30 s"));
    }, STEP_MS);
    lines.on("line", (line) => {
      const at = line.indexOf("proxy serving at ");
      if (at >= 0) {
        clearTimeout(timer);
        resolve({ url: line.slice(at + "proxy serving at ".length).trim(), child });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`toolpact proxy --http exited with ${code} before it listened`));
    });
  });
}

function differences(direct, proxied) {
  const out = [];
  const keys = [...new Set([...Object.keys(direct), ...Object.keys(proxied)])].sort();
  for (const key of keys) {
    const want = JSON.stringify(direct[key]);
    const got = JSON.stringify(proxied[key]);
    if (want !== got) {
      out.push(`\n     ${key}: direct ${String(want).slice(0, 600)}, through the proxy ${String(got).slice(0, 600)}`);
    }
  }
  return out;
}

let passed = 0;
let failed = 0;
function report(where, error) {
  if (error) {
    failed += 1;
    console.log(`FAIL ${where} ${error?.message ?? error}`);
  } else {
    passed += 1;
    console.log(`ok   ${where}`);
  }
}

async function main() {
  let direct;
  try {
    direct = await withClient(stdio(command), probe);
    console.log(`     typescript ${name} direct: ${Object.keys(direct).length} records, ${direct.tools.length} tools`);
  } catch (error) {
    report(`typescript ${name} direct`, error);
    return;
  }
  let where = `typescript ${name} through the proxy over stdio`;
  try {
    const proxied = await withClient(stdio([toolpact, "proxy", "--", ...command]), probe);
    const found = differences(direct, proxied);
    report(where, found.length ? new Error(found.join("; ")) : null);
  } catch (error) {
    report(where, error);
  }
  where = `typescript ${name} through the proxy over HTTP`;
  let server;
  try {
    server = await proxyHttp();
    const proxied = await withClient(new StreamableHTTPClientTransport(new URL(server.url)), probe);
    const found = differences(direct, proxied);
    report(where, found.length ? new Error(found.join("; ")) : null);
  } catch (error) {
    report(where, error);
  } finally {
    server?.child.kill();
  }
}

main().then(
  () => {
    console.log(`proxy interop (typescript): ${passed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
  },
  (error) => {
    console.log(`FAIL typescript ${name} ${error?.stack ?? error}`);
    process.exit(1);
  },
);
