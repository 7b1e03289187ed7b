/**
 * The floor of any server on the SDK v2's entries: a low-level SDK `Server` whose fallback handler
 * answers `tools/list` and every `tools/call` with a fixed result, the same bytes the peers send
 * (no validation, no tool, no context), served the way the baseline is — `serveStdio(factory)` over stdio,
 * `createMcpHandler(factory)` with `toNodeHandler` on `node:http` behind the localhost guards over
 * HTTP. What a server on these entries does per call can only add to this.
 * With `stdio tool`, the floor of a server that runs the tool: the same `Server` calling
 * `search_devices` for every call and sending its JSON as the text (no validation, no context).
 *   node --import tsx/esm bench/server/sdk-floor-server.ts stdio [tool] | http [port]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, type JSONRPCRequest, type Result, Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { search_devices } from "../../examples/smart-home/tools.ts";

// The bytes the peers send: what the tool returns for the benchmark's call (`protocol.ts`), as
// the SDK's `McpServer` answers it (text: the array's JSON; structured: the array in 2026-07-28,
// `{ result }` in 2025), computed once.
const DEVICES = await search_devices("客厅 灯", 2);
const TEXT = JSON.stringify(DEVICES);

/** With `tool` (`sdk-floor-server.ts stdio tool`): the tool runs for every call, and its text is its JSON. */
const WITH_TOOL = process.argv[2] === "stdio" && process.argv[3] === "tool";

async function answer(request: JSONRPCRequest, modern: boolean): Promise<Result> {
  if (request.method === "tools/list") return { tools: [] };
  let devices = DEVICES;
  let text = TEXT;
  if (WITH_TOOL) {
    const { query, limit } = (request.params as { arguments: { query: string; limit: number } }).arguments;
    devices = await search_devices(query, limit);
    text = JSON.stringify(devices);
  }
  return {
    content: [{ type: "text", text }],
    structuredContent: (modern ? devices : { result: devices }) as unknown as Record<string, unknown>,
  };
}

function factory(context?: { era?: "legacy" | "modern" }): Server {
  const modern = context?.era === "modern";
  const server = new Server({ name: "smart-home", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.fallbackRequestHandler = (request: JSONRPCRequest) => answer(request, modern);
  return server;
}

const mode = process.argv[2];
if (mode === "stdio") {
  serveStdio(factory);
} else if (mode === "http") {
  const handler = toNodeHandler(createMcpHandler(factory));
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void handler(req, res);
  });
  http.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => {
    process.stderr.write(`sdk: listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
  });
}
