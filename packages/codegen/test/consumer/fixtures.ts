import { STRICT_FLAGS } from "../support/tsc.ts";

/**
 * The files of the base consumer project: a tool module as a user writes one (plain TypeScript,
 * JSDoc, no import from mcp-gen), the configs and tsconfigs of each way to use the output, the
 * three-line server entry and a client script that reports a typed round trip as JSON.
 */
export const TOOLS = `/** A point on the plane. */
export interface Point {
  /** Horizontal position */
  x: number;
  /** Vertical position */
  y: number;
  /**
   * A name for it
   * @minLength 1
   * @maxLength 20
   */
  name?: string;
  /**
   * The day it was marked
   * @format date
   */
  day?: string;
}

let calls = 0;

/**
 * Add two numbers.
 *
 * @param a The first number
 * @param b The second number
 * @readOnly
 */
export function add(a: number, b = 1): number {
  calls++;
  return a + b;
}

/**
 * Greet someone.
 *
 * @param name Who to greet
 * @param tone How formal the greeting is
 */
export function greet(name: string, tone: "casual" | "formal" = "casual"): string {
  calls++;
  return tone === "formal" ? \`Good day, \${name}.\` : \`Hi \${name}!\`;
}

/**
 * Move a point to the right.
 *
 * @param point Where it starts
 * @param dx How far to move it
 */
export function move(point: Point, dx: number): Point {
  calls++;
  return { x: point.x + dx, y: point.y };
}

/**
 * Describe a label that may be missing.
 *
 * @param label The label, or null when there is none
 */
export function describe_label(label: string | null): { label: string | null; length: number } {
  calls++;
  return { label, length: label === null ? 0 : label.length };
}

/** How many tool calls this server process has run. */
export function call_count(): number {
  return calls;
}
`;

/** An `mcp-gen.config.ts` serving `src/tools.ts` as "calc", with extra options (JSON values). */
export function configFile(options: Record<string, string> = {}): string {
  const lines = Object.entries(options).map(([k, v]) => `  ${k}: ${JSON.stringify(v)},\n`);
  return `import { defineConfig } from "@mcp-gen/codegen/config";

export default defineConfig({
${lines.join("")}  servers: { calc: { tools: ["src/tools.ts"] } },
});
`;
}

/**
 * A strict tsconfig. \`skipLibCheck\` is off, so the declarations of every package are checked too;
 * "DOM" is in \`lib\` because the MCP SDK's declarations name \`HeadersInit\`, a DOM type that
 * @types/node 20 does not declare globally (TS2304 in sdk/dist/esm/shared/transport.d.ts without it).
 */
export function tsconfigFile(options: Record<string, unknown>, include: string[]): string {
  const compilerOptions = {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    types: ["node"],
    ...STRICT_FLAGS,
    skipLibCheck: false,
    ...options,
  };
  return `${JSON.stringify({ compilerOptions, include }, null, 2)}\n`;
}

/** The production entry of the README: serve the generated manifest over stdio. */
export function serverEntry(generated: string, ext: string): string {
  return `import { serve } from "@mcp-gen/runtime/server";
import { manifest } from "${generated}/server${ext}";
await serve(manifest);
`;
}

/** The stdio entry of the README's single-file deployment ("Deploying"), bundled by esbuild. */
export const STDIO_ENTRY = `import { serveOverStdio } from "@mcp-gen/runtime/server/stdio";
import { manifest } from "../generated/calc/server.js";
await serveOverStdio(manifest);
`;

/**
 * Serves the compiled manifest over HTTP without authorization, sends one `initialize` through
 * it, stops, and prints `{ status, server }`: what an HTTP server resolves, traced from outside.
 */
export const HTTP_ONCE = `import { serve } from "@mcp-gen/runtime/server";
import { manifest } from "./dist/generated/calc/server.js";
const running = await serve(manifest, { transport: "http", http: { port: 0 } });
const response = await fetch(running.url, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "trace", version: "1" } },
  }),
});
const text = await response.text();
const message = JSON.parse(text.startsWith("{") ? text : text.split("\\n").find((l) => l.startsWith("data: ")).slice(6));
await running.close();
console.log(JSON.stringify({ status: response.status, server: message.result.serverInfo.name }));
`;

/**
 * A client script: \`<script> <command> <args…>\` starts the server \`command args…\` over stdio and
 * calls it through the generated typed client; then it serves the same manifest over HTTP on a
 * free port and does the same through \`connectHttp\`. It prints one JSON line: \`{ stdio, http, url }\`.
 */
export function clientScript(generated: string, ext: string): string {
  return `import { type Connection, connectHttp, connectStdio } from "@mcp-gen/runtime/client";
import { serve } from "@mcp-gen/runtime/server";
import { ValidationError } from "@mcp-gen/runtime/validation";
import { createCalcClient } from "${generated}/client${ext}";
import { manifest } from "${generated}/server${ext}";

async function roundTrip(connection: Connection) {
  const calc = createCalcClient(connection.client);
  const added = await calc.add({ a: 2, b: 3 });
  const sum: number | undefined = added.ok ? added.value : undefined;
  const defaulted = await calc.add({ a: 2 });
  const greeted = await calc.greet({ name: "Ada", tone: "formal" });
  const moved = await calc.move({ point: { x: 1, y: 2, name: "P", day: "2026-11-25" }, dx: 3 });
  // string lengths and function formats: helpers of Ajv's standalone code (@mcp-gen/runtime/ajv-runtime/ucs2length, /formats)
  let constrained = "nothing thrown";
  try {
    await calc.move({ point: { x: 1, y: 2, name: "", day: "2026-02-30" }, dx: 1 });
  } catch (error) {
    constrained = error instanceof ValidationError ? \`ValidationError: \${error.message}\` : String(error);
  }
  const described = await calc.describeLabel({ label: null });
  let clientSide = "nothing thrown";
  try {
    // @ts-expect-error: a is a number
    await calc.add({ a: "two" });
  } catch (error) {
    clientSide = error instanceof ValidationError ? \`ValidationError: \${error.message}\` : String(error);
  }
  const before = await calc.callCount();
  const raw = await connection.client.callTool({ name: "add", arguments: { a: "two" } });
  const after = await calc.callCount();
  await connection.close();
  const value = <T>(r: { ok: true; value: T } | { ok: false; message: string }) => (r.ok ? r.value : r);
  return {
    sum,
    defaulted: value(defaulted),
    greeted: value(greeted),
    moved: value(moved),
    described: value(described),
    clientSide,
    constrained,
    serverSide: { isError: raw.isError, content: raw.content, callsBefore: value(before), callsAfter: value(after) },
  };
}

const [command, ...args] = process.argv.slice(2);
if (command === undefined) throw new Error("usage: client <server command> <args…>");
const stdio = await roundTrip(await connectStdio({ command, args }));
const running = await serve(manifest, { transport: "http", http: { port: 0 } });
if (running.url === undefined) throw new Error("serve() over HTTP returned no url");
const http = await roundTrip(await connectHttp(running.url));
await running.close();
console.log(JSON.stringify({ stdio, http, url: running.url }));
`;
}

const INVALID = 'Invalid arguments of tool "add": 1 problem\n- /a: expected a number, received string "two"';

/** What one round trip reports, over any transport and however the code was compiled or run. */
export const ROUND_TRIP = {
  sum: 5,
  defaulted: 3,
  greeted: "Good day, Ada.",
  moved: { x: 4, y: 2 },
  described: { label: null, length: 0 },
  clientSide: `ValidationError: ${INVALID}`,
  constrained: [
    'ValidationError: Invalid arguments of tool "move": 2 problems',
    '- /point/name: expected a string of at least 1 character, received string ""',
    '- /point/day: expected a string in "date" format, received string "2026-02-30"',
  ].join("\n"),
  // the server refuses the raw call itself: the tool never ran (five calls before and after)
  serverSide: { isError: true, content: [{ type: "text", text: INVALID }], callsBefore: 5, callsAfter: 5 },
};
