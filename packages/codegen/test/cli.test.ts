import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/cli.ts";
import { tempProject } from "./support/project.ts";

const TOOLS = `import type { Int } from "@mcp-gen/runtime";

/**
 * Add two integers.
 * @param a First
 * @param b Second
 */
export function add(a: Int, b: Int = 1): Int {
  return a + b;
}
`;

const CONFIG = `import { defineConfig } from "@mcp-gen/codegen/config";
export default defineConfig({ servers: { calc: { tools: ["src/*.ts"] } } });
`;

/**
 * Every file under a folder with its content, to prove a failed build changed nothing. Links are
 * not followed: the project's `node_modules` links to the repository's (reading all of it, four
 * times a test, ran vitest's worker out of heap).
 */
function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      const stat = lstatSync(full);
      if (stat.isSymbolicLink()) out[path.relative(dir, full)] = `-> ${readlinkSync(full)}`;
      else if (stat.isDirectory()) walk(full);
      else out[path.relative(dir, full)] = readFileSync(full, "utf8");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

describe("mcp-gen build (real CLI on a temporary project)", { timeout: 300_000 }, () => {
  it("builds, stays up to date, reports stale files, and never half-writes on errors", async () => {
    const dir = tempProject({ "mcp-gen.config.ts": CONFIG, "src/calc.ts": TOOLS });

    const first = await runCli(["build"], dir);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      [
        "✓ calc: 1 tool (from TypeScript)",
        "  calc: 2 constraints moved into provider descriptions (generated/calc/providers/report.json)",
        "mcp-gen: wrote 17 files",
        "",
      ].join("\n"),
    );
    expect(readdirSync(path.join(dir, "generated/calc")).sort()).toStrictEqual([
      "TOOLS.md",
      "api.d.ts",
      "client.ts",
      "index.ts",
      "normalize.ts",
      "providers",
      "server.ts",
      "tools.ts",
      "types.ts",
      "validators.ts",
    ]);
    const contract = JSON.parse(readFileSync(path.join(dir, "schemas/calc.tools.json"), "utf8"));
    expect(contract.tools[0].inputSchema).toStrictEqual({
      type: "object",
      properties: {
        a: { type: "integer", description: "First" },
        b: { type: "integer", description: "Second", default: 1 },
      },
      required: ["a"],
      additionalProperties: false,
    });
    const built = snapshotDir(dir);

    const again = await runCli(["build"], dir);
    expect(again.stdout).toContain("mcp-gen: up to date, nothing written\n");
    expect(snapshotDir(dir)).toStrictEqual(built);

    const check = await runCli(["build", "--check"], dir);
    expect({ code: check.code, stdout: check.stdout }).toStrictEqual({
      code: 0,
      stdout: "mcp-gen: up to date (1 server, 1 tool)\n",
    });

    writeFileSync(
      path.join(dir, "src/calc.ts"),
      TOOLS.replace("Add two integers.", "Add two whole numbers."),
    );
    writeFileSync(path.join(dir, "generated/calc/stray.txt"), "not ours");
    const stale = await runCli(["build", "--check"], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(
      [
        "error MCPG050: generated files are stale:",
        "  changed generated/calc/TOOLS.md",
        "  changed generated/calc/api.d.ts",
        "  changed generated/calc/client.ts",
        "  changed generated/calc/providers/anthropic.json",
        "  changed generated/calc/providers/gemini-json-schema.json",
        "  changed generated/calc/providers/gemini.json",
        "  changed generated/calc/providers/openai-strict.json",
        "  changed generated/calc/providers/openai.json",
        "  extra   generated/calc/stray.txt",
        "  changed generated/calc/tools.ts",
        "  changed schemas/calc.tools.json",
        "  fix: run `npx mcp-gen build` and commit the result",
        "",
      ].join("\n"),
    );

    writeFileSync(path.join(dir, "src/calc.ts"), TOOLS.replace("return a + b;", 'return "nope";'));
    const before = snapshotDir(dir);
    const broken = await runCli(["build"], dir);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("error MCPG010: TS2322: Type 'string' is not assignable to type 'Int'.");
    expect(broken.stderr).toContain("  at src/calc.ts:9:3\n");
    expect(broken.stderr).toContain("mcp-gen: 1 error; nothing was written\n");
    expect(snapshotDir(dir)).toStrictEqual(before);

    writeFileSync(
      path.join(dir, "src/calc.ts"),
      TOOLS.replace("Add two integers.", "Add two whole numbers."),
    );
    const fixed = await runCli(["build"], dir);
    expect(fixed.code).toBe(0);
    expect(existsSync(path.join(dir, "generated/calc/stray.txt"))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes("mcp-gen-tmp"))).toStrictEqual([]);
    expect(readdirSync(path.join(dir, "generated")).sort()).toStrictEqual(["calc"]);
  });

  it("removes the output of a server that left the config, and flags its leftover contract", async () => {
    const dir = tempProject({ "mcp-gen.config.ts": CONFIG, "src/calc.ts": TOOLS });
    expect((await runCli(["build"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "mcp-gen.config.ts"), CONFIG.replace("calc:", "calculator:"));

    const leftover = await runCli(["build"], dir);
    expect(leftover.code).toBe(1);
    expect(leftover.stderr).toContain(
      'error MCPG040: contract was built from TypeScript server "calc", which the config no longer has\n  at schemas/calc.tools.json /x-mcp-gen\n  fix: delete schemas/calc.tools.json (and generated/calc/), or add the server "calc" back to the config\n',
    );

    rmSync(path.join(dir, "schemas/calc.tools.json"));
    const check = await runCli(["build", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain("  extra   generated/calc/index.ts\n");
    expect(check.stderr).toContain("  missing schemas/calculator.tools.json\n");

    expect((await runCli(["build"], dir)).code).toBe(0);
    expect(readdirSync(path.join(dir, "generated"))).toStrictEqual(["calculator"]);
    expect(readdirSync(path.join(dir, "schemas"))).toStrictEqual(["calculator.tools.json"]);
  });

  it("prints the IR with --dump-ir and writes nothing", async () => {
    const dir = tempProject({ "mcp-gen.config.ts": CONFIG, "src/calc.ts": TOOLS });
    const result = await runCli(["build", "--dump-ir"], dir);
    expect(result.code).toBe(0);
    const ir = JSON.parse(result.stdout);
    expect(
      ir.servers[0].tools[0].params.map((p: { name: string; required: boolean }) => [p.name, p.required]),
    ).toStrictEqual([
      ["a", true],
      ["b", false],
    ]);
    expect(ir.servers[0].tools[0].location).toStrictEqual({ file: "src/calc.ts", line: 8, column: 1 });
    expect(existsSync(path.join(dir, "schemas"))).toBe(false);
  });

  it.each([
    ["mcp-gen.config.mjs", 'export default { servers: { calc: { tools: ["src/calc.ts"] } } };\n'],
    ["mcp-gen.config.js", 'export default { servers: { calc: { tools: ["src/calc.ts"] } } };\n'],
    ["mcp-gen.config.json", '{ "servers": { "calc": { "tools": ["src/calc.ts"] } } }\n'],
  ])("loads %s, found from a subfolder", async (name, content) => {
    const dir = tempProject({
      [name]: content,
      "package.json": '{ "type": "module" }\n',
      "src/calc.ts": TOOLS,
    });
    const result = await runCli(["build"], path.join(dir, "src"));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(existsSync(path.join(dir, "schemas/calc.tools.json"))).toBe(true);
  });

  it("takes --config and resolves paths from the config's folder", async () => {
    const dir = tempProject({
      "conf/mcp.json":
        '{ "schemas": "../out/s", "generated": "../out/g", "servers": { "calc": { "tools": ["../src/calc.ts"] } } }\n',
      "src/calc.ts": TOOLS,
    });
    const result = await runCli(["build", "--config", "conf/mcp.json"], dir);
    expect(result.code).toBe(0);
    expect(readdirSync(path.join(dir, "out")).sort()).toStrictEqual(["g", "s"]);
  });

  it("reports config problems with their JSON pointer and exits 1", async () => {
    const missing = tempProject({ "src/calc.ts": TOOLS });
    const none = await runCli(["build"], missing);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /^error MCPG001: no mcp-gen\.config\.\{ts,mjs,js,json\} found in .* or any folder above it\n/,
    );

    const bad = tempProject({
      "mcp-gen.config.json":
        '{ "server": {}, "servers": { "calc": { "tools": ["src/missing.ts", "lib/*.ts"], "nam": 1 } } }\n',
    });
    const result = await runCli(["build"], bad);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      [
        'error MCPG002: unknown config key "server" (known: schemas, generated, tsconfig, importExtension, naming, targets, servers, state)',
        "  at mcp-gen.config.json /server",
        "  fix: correct the config value named in the message",
        "",
        'error MCPG002: unknown server key "nam" (known: tools, naming, title, version, icons)',
        "  at mcp-gen.config.json /servers/calc/nam",
        "  fix: correct the config value named in the message",
        "",
        "mcp-gen: 2 errors; nothing was written",
        "",
      ].join("\n"),
    );

    const noModule = tempProject({
      "mcp-gen.config.json": '{ "servers": { "calc": { "tools": ["src/missing.ts", "lib/*.ts"] } } }\n',
    });
    const missingModule = await runCli(["build"], noModule);
    expect(missingModule.code).toBe(1);
    expect(missingModule.stderr).toContain(
      'error MCPG003: tool module "src/missing.ts" of server "calc" does not exist\n  at mcp-gen.config.json /servers/calc/tools/0\n',
    );
    expect(missingModule.stderr).toContain(
      'error MCPG003: tools glob "lib/*.ts" of server "calc" matches no file\n  at mcp-gen.config.json /servers/calc/tools/1\n',
    );
  });

  it("builds hand-written contracts placed in schemas/ and rejects malformed ones", async () => {
    const handWritten = {
      server: "weather",
      tools: [
        {
          name: "get-forecast",
          description: "Forecast for a city.",
          inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        },
      ],
    };
    const dir = tempProject({
      "mcp-gen.config.json": "{}\n",
      "schemas/weather.tools.json": `${JSON.stringify(handWritten, null, 2)}\n`,
    });
    const ok = await runCli(["build"], dir);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("✓ weather: 1 tool (from contract)\n");
    expect(readFileSync(path.join(dir, "generated/weather/types.ts"), "utf8")).toContain(
      "export interface GetForecastInput {\n  city: string;\n  [key: string]: unknown;\n}\n",
    );

    mkdirSync(path.join(dir, "schemas"), { recursive: true });
    writeFileSync(
      path.join(dir, "schemas/weather.tools.json"),
      JSON.stringify({
        server: "weather",
        tools: [{ name: "x", inputSchema: { type: "object", properties: { a: { type: "strin" } } } }],
      }),
    );
    const bad = await runCli(["build"], dir);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(
      "error MCPG040: invalid JSON Schema: must be equal to one of the allowed values\n  at schemas/weather.tools.json /tools/0/inputSchema/properties/a/type\n",
    );
  });
});
