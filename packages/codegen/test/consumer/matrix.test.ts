import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTTP_ONCE, ROUND_TRIP, STDIO_ENTRY } from "./fixtures.ts";
import { buildAndPack, npmInit, npmInstall, toolSpecs } from "./packages.ts";
import { node22, PROJECT_FILES, writeFiles } from "./project.ts";
import { describeRun, mcpInitialize, ok, REPO_ROOT, refuseNetwork, reportOf, run } from "./run.ts";
import { moduleTrace, requireTrace } from "./trace.ts";

/**
 * mcp-gen as a new user meets it: the three packages packed by `npm pack` and installed from the
 * tarballs (never workspace links, never the repository's node_modules) into projects in the
 * system's temporary folder, with the registry packages at the repository's locked versions,
 * offline (npm's cache; see fill-npm-cache.ts). One base project is built once; each scenario
 * compiles, bundles or runs it another way (project.ts).
 */
/** The modules of mcp-gen a compiled stdio server of plain tools resolves (scenario h). */
const PRODUCTION_STDIO_MODULES = [
  "runtime/dist/content.js",
  "runtime/dist/server/call-log.js",
  "runtime/dist/server/call-observer.js",
  "runtime/dist/server/call-tool.js",
  "runtime/dist/server/catalog.js",
  "runtime/dist/server/connections.js",
  "runtime/dist/server/create-server.js",
  "runtime/dist/server/dates.js",
  "runtime/dist/server/execute.js",
  "runtime/dist/server/features.js",
  "runtime/dist/server/guard.js",
  "runtime/dist/server/index.js",
  "runtime/dist/server/invocation.js",
  "runtime/dist/server/manifest.js",
  "runtime/dist/server/mcp-gen-server.js",
  "runtime/dist/server/options.js",
  "runtime/dist/server/protocol.js",
  "runtime/dist/server/request-handler.js",
  "runtime/dist/server/result.js",
  "runtime/dist/server/serve.js",
  "runtime/dist/server/stdio.js",
  "runtime/dist/server/tracing.js",
  "runtime/dist/tasks-extension.js",
  "runtime/dist/tool-error.js",
  // the two Ajv runtime helpers the calc server's validators call (formats, string lengths), not all six
  "runtime/dist/validation/ajv-runtime/formats.js",
  "runtime/dist/validation/ajv-runtime/ucs2length.js",
  "runtime/dist/validation/common-js.js",
  "runtime/dist/validation/describe.js",
  "runtime/dist/validation/format.js",
  "runtime/dist/validation/index.js",
  "runtime/dist/validation/pointer.js",
  "runtime/dist/validation/validator.js",
  "schema/dist/contract.js",
];

let TMP = "";
let BASE = "";
let tarballs: string[] = [];

/** `npx <command> <args>` from the project's node_modules/.bin (never a download, never the network). */
const npx = (cwd: string, ...args: string[]) => ok("npx", ["--offline", "--no", "--", ...args], { cwd });
const read = (file: string) => readFileSync(file, "utf8");
const importsOf = (file: string) => read(file).match(/^import .*$/gm);
const bothTransports = {
  stdio: ROUND_TRIP,
  http: ROUND_TRIP,
  url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/mcp$/),
};

beforeAll(async () => {
  refuseNetwork();
  TMP = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-consumer-"));
  tarballs = await buildAndPack(path.join(TMP, "tarballs"));
  BASE = path.join(TMP, "calc-project");
  await npmInit(BASE);
  await ok("npm", ["pkg", "set", "type=module"], { cwd: BASE });
  await npmInstall(BASE, [...tarballs, ...toolSpecs()]);
  for (const name of ["schema", "runtime", "codegen"]) {
    expect(lstatSync(path.join(BASE, "node_modules/@mcp-gen", name)).isSymbolicLink()).toBe(false);
  }
  writeFiles(BASE, PROJECT_FILES);
  await npx(BASE, "mcp-gen", "build");
}, 600_000);

afterAll(() => {
  if (TMP) rmSync(TMP, { recursive: true, force: true });
});

describe("mcp-gen in a new user's project, installed from npm pack tarballs", { timeout: 300_000 }, () => {
  it("a. NodeNext with the strictest flags: tsc emits with no error, plain node runs the round trip", async () => {
    expect(importsOf(path.join(BASE, "generated/calc/server.ts"))).toContain(
      'import * as srcTools from "../../src/tools.js";',
    );
    await npx(BASE, "tsc", "-p", "tsconfig.json");
    const ran = await ok(process.execPath, ["dist/src/client.js", process.execPath, "dist/src/server.js"], {
      cwd: BASE,
    });
    expect(reportOf(ran)).toStrictEqual(bothTransports);
  });

  it("b. Bundler resolution: tsc --noEmit passes, esbuild bundles that run anywhere", async () => {
    await npx(BASE, "mcp-gen", "build", "--config", "mcp-gen.bundler.config.ts");
    expect(importsOf(path.join(BASE, "generated-bundler/calc/server.ts"))).toContain(
      'import * as srcTools from "../../src/tools";',
    );
    await npx(BASE, "tsc", "-p", "tsconfig.bundler.json");
    // Everything bundled (the MCP SDK and Ajv too) into a folder without node_modules. Some of the
    // SDK's dependencies are CommonJS and require Node built-ins: esbuild's recipe gives the ESM
    // bundle a `require`.
    const out = path.join(TMP, "bundles");
    await npx(
      BASE,
      "esbuild",
      "bundler/server.ts",
      "bundler/client.ts",
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--target=node20",
      `--outdir=${out}`,
      "--out-extension:.js=.mjs",
      "--log-level=warning",
      '--banner:js=import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
    );
    const ran = await ok(process.execPath, ["client.mjs", process.execPath, "server.mjs"], { cwd: out });
    expect(reportOf(ran)).toStrictEqual(bothTransports);
  });

  it("c. tsx runs the TypeScript directly, vitest runs the project's test", async () => {
    const tsx = ["--import", "tsx"];
    const ran = await ok(
      process.execPath,
      [...tsx, "src/client.ts", process.execPath, ...tsx, "src/server.ts"],
      {
        cwd: BASE,
      },
    );
    expect(reportOf(ran)).toStrictEqual(bothTransports);
    const tested = await npx(BASE, "vitest", "run", "--dir", "test");
    expect(tested.stdout).toMatch(/Tests\s+1 passed \(1\)/);
  });

  it("d. Node 22 strips the types of .ts files that import each other by .ts specifiers", async () => {
    const node = node22();
    const version = (await ok(node, ["--version"], { cwd: BASE })).stdout.trim();
    expect(version).toMatch(/^v22\.(1[89]|[2-9]\d)\./);
    await npx(BASE, "mcp-gen", "build", "--config", "mcp-gen.node22.config.ts");
    expect(importsOf(path.join(BASE, "generated-node22/calc/server.ts"))).toContain(
      'import * as srcTools from "../../src/tools.ts";',
    );
    await npx(BASE, "tsc", "-p", "tsconfig.node22.json");
    const ran = await ok(node, ["node22/client.ts", node, "node22/server.ts"], { cwd: BASE });
    expect(reportOf(ran)).toStrictEqual(bothTransports);
  });

  it("e. mcp-gen init in a new folder, then npm install, build, test and start", async () => {
    const dir = path.join(TMP, "my-tools");
    await npmInit(dir);
    await npmInstall(dir, tarballs);
    await npx(dir, "mcp-gen", "init");
    const written = [
      "mcp-gen.config.ts",
      "src/tools.ts",
      "src/server.ts",
      "test/tools.test.ts",
      "tsconfig.json",
      ".gitignore",
    ];
    expect(written.filter((f) => !existsSync(path.join(dir, f)))).toStrictEqual([]);
    const merged = JSON.parse(read(path.join(dir, "package.json")));
    expect(merged).toMatchObject({
      type: "module",
      scripts: { build: "mcp-gen build && tsc", start: "node dist/src/server.js" },
    });
    // the tarballs' file: specs stay; init adds the tools the project builds and tests with
    expect(Object.keys(merged.devDependencies ?? {})).toEqual(
      expect.arrayContaining(["@types/node", "typescript", "vitest"]),
    );
    await npmInstall(dir, []);
    await ok("npm", ["run", "build"], { cwd: dir });
    const tested = await ok("npm", ["test"], { cwd: dir });
    expect(tested.stdout).toMatch(/Tests\s+\d+ passed/);
    const answer = await mcpInitialize(process.execPath, ["dist/src/server.js"], dir);
    expect(answer).toMatchObject({ id: 1, result: { capabilities: { tools: {} }, serverInfo: {} } });
  });

  it("f. publint and attw (ESM-only profile) find no problem in any tarball", async () => {
    const bin = (name: string) => path.join(REPO_ROOT, "node_modules/.bin", name);
    const checks = tarballs.map(async (tgz) => {
      const lint = await run(bin("publint"), ["run", tgz, "--strict"], { cwd: TMP });
      const types = await run(
        bin("attw"),
        [
          tgz,
          "--profile",
          "esm-only",
          "--no-definitely-typed",
          "--format",
          "ascii",
          "--no-color",
          "--no-emoji",
        ],
        { cwd: TMP },
      );
      return [
        lint.code === 0 && lint.stdout.includes("All good!") ? "" : describeRun(lint, TMP),
        types.code === 0 && types.stdout.includes("node16 (from ESM): OK (ESM)")
          ? ""
          : describeRun(types, TMP),
      ];
    });
    expect((await Promise.all(checks)).flat().filter(Boolean).join("\n\n")).toBe("");
  });

  it("g. a plain SDK client launches `mcp-gen serve` by absolute paths from another folder", async () => {
    const installed = (name: string) =>
      JSON.parse(read(path.join(BASE, "node_modules", name, "package.json"))) as {
        version: string;
        dependencies: Record<string, string>;
      };
    expect(installed("@modelcontextprotocol/client").version).toBe(
      installed("@mcp-gen/runtime").dependencies["@modelcontextprotocol/client"],
    );
    const bin = path.join(BASE, "node_modules/@mcp-gen/codegen/bin/mcp-gen.js");
    const config = path.join(BASE, "mcp-gen.config.ts");
    const ran = await ok(
      process.execPath,
      ["sdk-client.mjs", process.execPath, bin, "serve", "calc", "--config", config],
      { cwd: BASE },
    );
    expect(reportOf(ran)).toMatchObject({
      protocol: "2026-07-28",
      tools: ["add", "call_count", "describe_label", "greet", "move"],
      greeted: {
        content: [{ type: "text", text: "Good day, Ada." }],
        structuredContent: "Good day, Ada.",
      },
    });
  });

  it("h. a served stdio server loads no LLM SDK, ts-morph, TypeScript, MCP SDK v1, code mode's QuickJS, HTTP, auth, tracing, Ajv's compiler, tasks or contexts, compiled or through mcp-gen serve", async () => {
    if (!existsSync(path.join(BASE, "dist/src/server.js"))) await npx(BASE, "tsc", "-p", "tsconfig.json");
    const heavy =
      /\/node_modules\/(@anthropic-ai\/sdk|openai|ts-morph|@ts-morph\/common|typescript|@modelcontextprotocol\/sdk|quickjs-emscripten-core|@jitl\/[^/]+)\//;
    // what the build needs and a server does not: Ajv's compiler, ajv-formats' plugin (the validators use only its formats.js), the schema package's main entry
    const buildOnly =
      /\/node_modules\/ajv-formats\/dist\/index\.js|\/node_modules\/ajv\/dist\/(2020|ajv|core)\.js|\/@mcp-gen\/schema\/dist\/index\.js/;
    // what a stdio server without a registered tracer never runs: HTTP, authorization, the MCP client, tracing
    const unusedByStdio =
      /\/node_modules\/(hono|@hono\/[^/]+|jose|@modelcontextprotocol\/(client|node)|@opentelemetry\/api)\/|\/@mcp-gen\/runtime\/dist\/server\/http\/(serve-http|sessions|auth\/)/;
    // what a server of plain tools (no context, task, resource or prompt) never runs; the URI template matcher among it
    const unusedByPlainTools =
      /\/@mcp-gen\/runtime\/dist\/server\/(http\/|input\/|task|memory-tasks|parked|tool-context|context-support|principal|resource|prompts|completions|scoped-listing|coerce)|\/@mcp-gen\/schema\/dist\/uri-template\//;
    const bin = path.join(BASE, "node_modules/@mcp-gen/codegen/bin/mcp-gen.js");
    const servers = { production: ["dist/src/server.js"], serve: [bin, "serve", "calc"] };
    const ours: Record<string, string[]> = {};
    for (const [name, args] of Object.entries(servers)) {
      const trace = moduleTrace(TMP, name);
      const answer = await mcpInitialize(process.execPath, [...trace.args, ...args], BASE);
      expect(answer).toMatchObject({ id: 1, result: { capabilities: { tools: {} } } });
      const resolved = trace.resolved();
      // The trace sees the server load: the official SDK v2 server package is in it.
      expect(resolved.some((url) => url.includes("/node_modules/@modelcontextprotocol/server/"))).toBe(true);
      const unused = (url: string) =>
        heavy.test(url) || unusedByStdio.test(url) || buildOnly.test(url) || unusedByPlainTools.test(url);
      expect({ [name]: resolved.filter(unused) }).toStrictEqual({ [name]: [] });
      ours[name] = [
        ...new Set(
          resolved
            .filter((url) => url.includes("/node_modules/@mcp-gen/"))
            .map((url) => url.split("/node_modules/@mcp-gen/")[1]!),
        ),
      ].sort();
    }
    // Every module of mcp-gen the production entry loads (each costs start-up time: ~0.5-1 ms on
    // Node 20, bench/README.md "cold start"); a module added here is a module added to every start.
    expect(ours.production).toStrictEqual(PRODUCTION_STDIO_MODULES);
  });

  it("h3. on Node 22, `node --import @mcp-gen/runtime/server/no-sdk-ajv` keeps the SDK's Ajv out of the production entry, which still validates", async () => {
    if (!existsSync(path.join(BASE, "dist/src/server.js"))) await npx(BASE, "tsc", "-p", "tsconfig.json");
    const node = node22();
    const preload = ["--import", "@mcp-gen/runtime/server/no-sdk-ajv"];
    const trace = moduleTrace(TMP, "no-sdk-ajv");
    const answer = await mcpInitialize(node, [...trace.args, ...preload, "dist/src/server.js"], BASE);
    expect(answer).toMatchObject({
      id: 1,
      result: { capabilities: { tools: {} }, serverInfo: { name: "calc" } },
    });
    const resolved = trace.resolved();
    expect(resolved.some((url) => url.endsWith("/@mcp-gen/runtime/dist/server/sdk-shims.js"))).toBe(true);
    expect(
      resolved.filter((url) => /\/@modelcontextprotocol\/server\/dist\/(ajvProvider|shimsNode)/.test(url)),
    ).toStrictEqual([]);
    await expectCalcCalls({ command: node, args: [...preload, "dist/src/server.js"], cwd: BASE });
  });

  it("h2. an HTTP server without authorization loads no auth, no JWT library, no MCP client and no tracing", async () => {
    if (!existsSync(path.join(BASE, "dist/src/server.js"))) await npx(BASE, "tsc", "-p", "tsconfig.json");
    // serves over HTTP, answers one initialize through it, and stops
    writeFileSync(path.join(BASE, "http-once.mjs"), HTTP_ONCE);
    const trace = moduleTrace(TMP, "http");
    const ran = await ok(process.execPath, [...trace.args, "http-once.mjs"], { cwd: BASE });
    expect(reportOf(ran)).toStrictEqual({ status: 200, server: "calc" });
    const resolved = trace.resolved();
    // The trace sees the HTTP transport load.
    expect(resolved.some((url) => url.includes("/node_modules/@modelcontextprotocol/node/"))).toBe(true);
    // authorization and tracing; and, the calc server's tools being plain, tasks, contexts and input rounds
    const unused =
      /\/node_modules\/(jose|@modelcontextprotocol\/client|@opentelemetry\/api)\/|\/@mcp-gen\/runtime\/dist\/server\/(http\/auth\/|input\/|task|memory-tasks|parked|tool-context|context-support)/;
    expect(resolved.filter((url) => unused.test(url))).toStrictEqual([]);
  });

  it("l. a stdio server bundles into one file with esbuild, without warnings, HTTP, auth, the MCP client, OpenTelemetry or the SDK's Ajv, and runs alone", async () => {
    mkdirSync(path.join(BASE, "deploy"), { recursive: true });
    writeFileSync(path.join(BASE, "deploy/server.ts"), STDIO_ENTRY);
    const out = path.join(TMP, "one-file");
    const meta = path.join(TMP, "one-file.meta.json");
    // the README's command ("Deploying"), with a metafile to see what went in
    const bundled = await npx(
      BASE,
      "esbuild",
      "deploy/server.ts",
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--target=node20",
      `--outfile=${path.join(out, "server.mjs")}`,
      `--metafile=${meta}`,
      "--log-level=warning",
      "--alias:@modelcontextprotocol/server/_shims=@mcp-gen/runtime/server/sdk-shims",
    );
    expect({ stdout: bundled.stdout, stderr: bundled.stderr }).toStrictEqual({ stdout: "", stderr: "" });
    const output = Object.values(
      (
        JSON.parse(read(meta)) as {
          outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
        }
      ).outputs,
    )[0]!;
    const inBundle = Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([file]) => file);
    expect(inBundle.some((file) => file.includes("node_modules/@modelcontextprotocol/server/"))).toBe(true);
    // the SDK's default JSON Schema validator (Ajv's compiler) stays out: the alias replaced its
    // shims; Ajv's runtime helpers that the generated validators call are in
    const notForStdio =
      /node_modules\/(hono|@hono\/[^/]+|jose|@modelcontextprotocol\/(client|node)|@opentelemetry\/api)\/|@mcp-gen\/runtime\/dist\/server\/http\/|@modelcontextprotocol\/server\/dist\/(ajvProvider|shimsNode)|node_modules\/ajv\/dist\/(compile\/|(ajv|core|2019|2020)\.js)/;
    expect(inBundle.filter((file) => notForStdio.test(file))).toStrictEqual([]);
    // one file in a folder without node_modules answers an MCP client
    expect(readdirSync(out)).toStrictEqual(["server.mjs"]);
    const answer = await mcpInitialize(process.execPath, ["server.mjs"], out);
    expect(answer).toMatchObject({
      id: 1,
      result: { capabilities: { tools: {} }, serverInfo: { name: "calc" } },
    });
    // the generated validators run in the bundle: a call answers, bad arguments are refused
    await expectCalcCalls({ command: process.execPath, args: ["server.mjs"], cwd: out });
  });

  it("i. mcp-gen build loads no MCP SDK, no LLM SDK and no runtime server (only what a build needs)", async () => {
    const trace = moduleTrace(TMP, "build");
    const cjs = requireTrace(TMP, "build");
    const bin = path.join(BASE, "node_modules/@mcp-gen/codegen/bin/mcp-gen.js");
    await ok(process.execPath, [...trace.args, ...cjs.args, bin, "build", "--check"], { cwd: BASE });
    const resolved = trace.resolved();
    // The trace sees the build: the module through which it requires ts-morph's TypeScript is in it.
    expect(resolved.some((url) => url.endsWith("/node_modules/@mcp-gen/codegen/lib/ts-morph.js"))).toBe(true);
    const unneeded =
      /\/node_modules\/(@modelcontextprotocol\/[^/]+|@anthropic-ai\/sdk|openai|zod)\/|\/@mcp-gen\/runtime\/dist\/server\//;
    expect(resolved.filter((url) => unneeded.test(url))).toStrictEqual([]);
    // Of ts-morph, the build requires its TypeScript alone: not ts-morph itself, nor `@ts-morph/common`'s
    // module with its embedded lib texts (the lib files are read from the cache folder the first build wrote).
    const required = cjs.required();
    expect(required.some((file) => file.endsWith("/@ts-morph/common/dist/typescript.js"))).toBe(true);
    expect(
      required.filter((file) =>
        /\/node_modules\/(ts-morph\/|@ts-morph\/common\/dist\/ts-morph-common\.js)/.test(file),
      ),
    ).toStrictEqual([]);
  });

  it("j. code mode: the packed runtime's sandbox runs a program against the compiled manifest with plain node", async () => {
    if (!existsSync(path.join(BASE, "dist/src/server.js"))) await npx(BASE, "tsc", "-p", "tsconfig.json");
    const ran = await ok(process.execPath, ["code-mode.mjs"], { cwd: BASE });
    expect(reportOf(ran)).toStrictEqual({
      ran: {
        ok: true,
        value: { sum: 3, refused: "ValidationError" },
        logs: [],
        calls: [
          { tool: "calc.add", arguments: { a: 2 }, outcome: "ok", ms: expect.any(Number) },
          {
            tool: "calc.add",
            arguments: { a: "two" },
            outcome: "invalid-arguments",
            error: expect.stringContaining("/a: expected"),
            ms: expect.any(Number),
          },
        ],
      },
      escape: "'process' is not defined",
    });
  });

  it("k. mcp-gen serve --code-only in the fresh project: a program is type-checked (ts-morph's compiler, the project's typescript being native) and run", async () => {
    const { connectStdio } = await import("@mcp-gen/runtime/client");
    const bin = path.join(BASE, "node_modules/@mcp-gen/codegen/bin/mcp-gen.js");
    const connection = await connectStdio(
      { command: process.execPath, args: [bin, "serve", "calc", "--code-only"], cwd: BASE, stderr: "pipe" },
      { protocol: "legacy" },
    );
    try {
      const { tools } = await connection.client.listTools();
      expect(tools.map((t) => t.name)).toStrictEqual(["run_program"]);
      const call = (program: string) =>
        connection.client.callTool({ name: "run_program", arguments: { program } });
      const typed = (await call('return await calc.add({ a: "two" });')) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(typed.isError).toBe(true);
      expect(typed.content[0]!.text).toMatch(/^The program did not type-check, so nothing ran:\n1:\d+ /);
      const ran = (await call("return await calc.add({ a: 2, b: 5 });")) as { content: { text: string }[] };
      expect(ran.content[0]!.text).toBe("7");
    } finally {
      await connection.close();
    }
  });
});

/** The calc server started as given answers `add` over stdio and refuses bad arguments with a pointer. */
async function expectCalcCalls(spawn: { command: string; args: string[]; cwd: string }): Promise<void> {
  const { connectStdio } = await import("@mcp-gen/runtime/client");
  const connection = await connectStdio({ ...spawn, stderr: "pipe" }, { protocol: "legacy" });
  try {
    expect(await connection.client.callTool({ name: "add", arguments: { a: 2, b: 5 } })).toMatchObject({
      structuredContent: { result: 7 },
    });
    const refused = (await connection.client.callTool({ name: "add", arguments: { a: "two" } })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain("/a");
  } finally {
    await connection.close();
  }
}
