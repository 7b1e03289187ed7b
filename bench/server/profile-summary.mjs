// Sums a V8 CPU profile (node --cpu-prof) of a server by where the time goes.
//   node bench/server/profile-summary.mjs <profile folder>
import { readdirSync, readFileSync } from "node:fs";

const dir = process.argv[2];
// The main thread's profile (".0.001."); the TypeScript loader's worker writes another.
const file = readdirSync(dir).find((f) => f.includes(".0.001.")) ?? readdirSync(dir)[0];
const p = JSON.parse(readFileSync(`${dir}/${file}`, "utf8"));
const dt = new Map();
for (let i = 0; i < p.samples.length; i++)
  dt.set(p.samples[i], (dt.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0));
const cat = (url, fn) => {
  if (fn === "(idle)") return "idle";
  if (fn === "(garbage collector)") return "garbage collection";
  if (url.includes("zod")) return "zod (SDK message schemas)";
  if (url.includes("@hono")) return "@hono/node-server (Node ↔ Web Request/Response)";
  if (url.includes("@modelcontextprotocol/node")) return "SDK node adapter (toNodeHandler, Node transport)";
  if (url.includes("webStandardStreamableHttp") || url.includes("streamableHttp"))
    return "SDK Streamable HTTP transport";
  if (url.includes("@modelcontextprotocol")) return "SDK (Server/Protocol, createMcpHandler, codecs)";
  if (url.includes("webstreams") || url.includes("internal/streams"))
    return "node streams (SSE ReadableStream, pipes)";
  if (url.includes("packages/runtime") || url.includes("generated/") || url.includes("examples/"))
    return "mcp-gen runtime + validators + tool";
  if (
    url.includes("deps/undici") ||
    url.includes("internal/url") ||
    url.includes("blob") ||
    url.includes("encoding")
  )
    return "Web Fetch API objects (Request, Response, Headers, URL, TextEncoder)";
  if (url === "") return "engine natives (JSON, RegExp, Promise …)";
  if (url.startsWith("node:")) return "node core (http, sockets, timers)";
  return "other";
};
const sums = new Map();
let total = 0;
for (const n of p.nodes) {
  const t = dt.get(n.id) ?? 0;
  const c = cat(n.callFrame.url, n.callFrame.functionName);
  sums.set(c, (sums.get(c) ?? 0) + t);
  if (c !== "idle") total += t;
}
for (const [k, v] of [...sums].filter(([k]) => k !== "idle").sort((a, b) => b[1] - a[1]))
  console.log(`${((100 * v) / total).toFixed(0).padStart(3)}% ${k}`);
