/**
 * CPU per call of the servers of `run.ts` in one process, on linked in-memory transports
 * (no pipe, no JSON text, no second process): what a call costs in the SDK's `Protocol` and the
 * server's handler alone — mcp-gen's `serve(manifest)`, the SDK v2 `McpServer` (`sdk-server.ts`)
 * and the floor, a low-level `Server` answering the peers' bytes (as `sdk-floor-server.ts`), all
 * through the SDK's `serveStdio` — and `floor + tool`, the floor running the tool. The client's
 * share (a raw JSON-RPC channel) is the same for all; rounds interleave, the median is printed
 * with every round.
 *   node --import tsx/esm bench/server/handler-cpu.ts [--era 2025|2026] [--inflight 1]
 *   [--calls 20000] [--rounds 5] [--only mcp-gen|sdk|floor] [--base <checkout>]
 * (`--only` takes a prefix: `--only floor` runs both floors, `--only mcp-gen` both builds)
 * `--base`: another built checkout whose `@mcp-gen/runtime/server` serves the same manifest as
 * `mcp-gen before`, interleaved in the same process (before/after of a runtime change).
 */
import os from "node:os";
import path from "node:path";
import { serve } from "@mcp-gen/runtime/server";
import { InMemoryTransport, type JSONRPCRequest, type Result, Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { search_devices } from "../../examples/smart-home/tools.ts";
import { manifest } from "../../generated/smart-home/server.ts";
import { memoryChannel } from "./channels.ts";
import { checkCall, type Era, openCalls, option } from "./protocol.ts";
import { createSdkServer } from "./sdk-server.ts";

const ERA = option("era", "2026") as Era;
const INFLIGHT = Number(option("inflight", "1"));
const CALLS = Number(option("calls", "20000"));
const ROUNDS = Number(option("rounds", "5"));
const ONLY = option("only", "");
const BASE = option("base", "");
const before: typeof serve | undefined = BASE
  ? (await import(path.join(BASE, "packages/runtime/dist/server/index.js"))).serve
  : undefined;

const DEVICES = await search_devices("客厅 灯", 2);
const TEXT = JSON.stringify(DEVICES);
function floor(context?: { era?: string }): Server {
  const modern = context?.era === "modern";
  const server = new Server({ name: "smart-home", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.fallbackRequestHandler = async (request: JSONRPCRequest): Promise<Result> =>
    request.method === "tools/list"
      ? { tools: [] }
      : {
          content: [{ type: "text", text: TEXT }],
          structuredContent: (modern ? DEVICES : { result: DEVICES }) as unknown as Record<string, unknown>,
        };
  return server;
}

/** The floor running the tool for every call, its text the JSON (as `sdk-floor-server.ts stdio tool`). */
function floorTool(context?: { era?: string }): Server {
  const modern = context?.era === "modern";
  const server = new Server({ name: "smart-home", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.fallbackRequestHandler = async (request: JSONRPCRequest): Promise<Result> => {
    if (request.method === "tools/list") return { tools: [] };
    const { query, limit } = (request.params as { arguments: { query: string; limit: number } }).arguments;
    const devices = await search_devices(query, limit);
    return {
      content: [{ type: "text", text: JSON.stringify(devices) }],
      structuredContent: (modern ? devices : { result: devices }) as unknown as Record<string, unknown>,
    };
  };
  return server;
}

type Transport = ReturnType<typeof InMemoryTransport.createLinkedPair>[1];
const SERVERS: Record<string, (transport: Transport) => Promise<{ close(): Promise<void> }>> = {
  ...(before ? { "mcp-gen before": (transport: Transport) => before(manifest, { transport }) } : {}),
  "mcp-gen": (transport) => serve(manifest, { transport }),
  sdk: async (transport) => serveStdio(createSdkServer, { transport }),
  floor: async (transport) => serveStdio(floor, { transport }),
  "floor + tool": async (transport) => serveStdio(floorTool, { transport }),
};

const rounds = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, open] of Object.entries(SERVERS)) {
    if (ONLY && !name.startsWith(ONLY)) continue;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const running = await open(serverSide);
    const channel = await memoryChannel(clientSide);
    const driver = await openCalls(channel, ERA, INFLIGHT);
    await driver.calls(3000);
    const before = process.cpuUsage();
    await driver.calls(CALLS);
    const spent = process.cpuUsage(before);
    checkCall(ERA, await driver.one());
    await channel.close();
    await running.close();
    rounds.set(name, [...(rounds.get(name) ?? []), (spent.user + spent.system) / CALLS]);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `Node ${process.version}, in process, era ${ERA}, ${INFLIGHT} in flight, ${CALLS} calls × ${ROUNDS} rounds, load ${os.loadavg()[0]!.toFixed(1)}`,
);
for (const [name, all] of rounds)
  console.log(
    `${name.padEnd(14)} ${median(all).toFixed(1)} µs CPU/call (client + server) [${all.map((x) => x.toFixed(1)).join(" ")}]`,
  );
process.exit(0);
