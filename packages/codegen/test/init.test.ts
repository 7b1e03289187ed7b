import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { connectStdio } from "@mcp-gen/runtime/client";
import { describe, expect, it } from "vitest";
import { toServerName } from "../src/init/names.ts";
import { NPM_DEFAULT_TEST } from "../src/init/package-json.ts";
import { initTemplates } from "../src/init/templates.ts";
import { TOOL_VERSIONS } from "../src/init/versions.ts";
import { runCli, runNode } from "./support/cli.ts";
import { REPO_ROOT, tempProject } from "./support/project.ts";
import { COMPILERS } from "./support/tsc.ts";

const CODEGEN = JSON.parse(readFileSync(path.join(REPO_ROOT, "packages/codegen/package.json"), "utf8"));
const ROOT = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
const MCP_GEN = `^${CODEGEN.version}`;

const SCRIPTS = {
  build: "mcp-gen build && tsc",
  check: "mcp-gen build --check && tsc --noEmit",
  serve: "mcp-gen serve calc",
  start: "node dist/src/server.js",
  test: "vitest run --dir test",
};
const DEPENDENCIES = { "@mcp-gen/runtime": MCP_GEN };
const DEV_DEPENDENCIES = {
  "@mcp-gen/codegen": MCP_GEN,
  "@types/node": ROOT.devDependencies["@types/node"],
  typescript: CODEGEN.dependencies.typescript,
  vitest: ROOT.devDependencies.vitest,
};
const devDependencyList = Object.entries(DEV_DEPENDENCIES)
  .map(([name, version]) => `${name} ${version}`)
  .join(", ");
const WRITTEN = ["mcp-gen.config.ts", "src/tools.ts", "src/server.ts", "test/tools.test.ts", "package.json"];

/** Every file of a project but node_modules (a link to the repository's) with its content. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (name === "node_modules") continue;
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(dir, full)] = readFileSync(full, "utf8");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

describe("mcp-gen init (real CLI on a temporary folder)", { timeout: 300_000 }, () => {
  it("sets up a folder that builds, compiles, passes its test and serves; a second run changes nothing", async () => {
    const root = realpathSync(tempProject({}));
    const dir = path.join(root, "calc");
    const first = await runCli(["init", "--dir", "calc"], root);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(
      [
        `mcp-gen init: server "calc" in ${dir}`,
        ...[...WRITTEN, "tsconfig.json", ".gitignore"].map((f) => `  written  ${f}`),
        "next:",
        "  cd calc",
        "  npm install",
        "  npm run build",
        "  npm test",
        "",
      ].join("\n"),
    );
    expect(readJson(path.join(dir, "package.json"))).toStrictEqual({
      name: "calc",
      private: true,
      type: "module",
      scripts: SCRIPTS,
      dependencies: DEPENDENCIES,
      devDependencies: DEV_DEPENDENCIES,
    });
    const files = snapshot(dir);
    expect(files).toStrictEqual({ ...initTemplates("calc"), "package.json": files["package.json"] });
    expect(files["src/server.ts"]).toContain('import { manifest } from "../generated/calc/server.js";\n');

    // what `npm run build` and `npm test` run (the scripts are asserted above)
    const build = await runCli(["build"], dir);
    expect(build.stderr).toBe("");
    expect(build.stdout).toContain("✓ calc: 1 tool (from TypeScript)\n");
    const tsc = await runNode(COMPILERS["typescript 7"], ["--pretty", "false"], dir);
    expect(tsc).toStrictEqual({ code: 0, stdout: "", stderr: "" });
    expect(existsSync(path.join(dir, "dist/src/server.js"))).toBe(true);
    const vitest = await runNode(
      path.join(REPO_ROOT, "node_modules/vitest/vitest.mjs"),
      ["run", "--dir", "test"],
      dir,
    );
    expect(vitest.stdout).toMatch(/Tests {2}3 passed \(3\)/);
    expect(vitest.code).toBe(0);

    // `npm start`: the compiled entry serves the tool over stdio
    const served = await connectStdio({ command: process.execPath, args: ["dist/src/server.js"], cwd: dir });
    try {
      const result = await served.client.callTool({ name: "add", arguments: { a: 0.1, b: 0.2 } });
      // A 2026-07-28 connection: the number goes out as itself (2025 clients get { result: 0.3 }).
      expect([served.era, result.structuredContent]).toStrictEqual(["modern", 0.3]);
    } finally {
      await served.close();
    }

    const built = snapshot(dir);
    const again = await runCli(["init"], dir);
    expect(again.code).toBe(0);
    expect(again.stdout.split("\n").slice(1, 8)).toStrictEqual(
      [...WRITTEN, "tsconfig.json", ".gitignore"].map((f) => `  skipped  ${f} (exists)`),
    );
    expect(snapshot(dir)).toStrictEqual(built);
  });

  it("merges into npm init's package.json and keeps an existing src/tools.ts", async () => {
    const npmInit = {
      name: "@acme/Calc",
      version: "1.0.0",
      main: "index.js",
      scripts: { test: NPM_DEFAULT_TEST },
      license: "ISC",
      type: "commonjs",
    };
    const tools = "/** Say hi. */\nexport function hi(): string {\n  return 'hi';\n}\n";
    const dir = tempProject({ "package.json": JSON.stringify(npmInit, null, 2), "src/tools.ts": tools });
    const result = await runCli(["init"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").slice(1, 12)).toStrictEqual([
      "  written  mcp-gen.config.ts",
      "  skipped  src/tools.ts (exists)",
      "  written  src/server.ts",
      "  skipped  test/tools.test.ts (it tests the example tool; src/tools.ts is yours)",
      "  merged   package.json",
      `             changed "type": "commonjs" (npm init's default) to "module": the generated code is ESM`,
      `             replaced npm init's placeholder test script with "vitest run --dir test"`,
      "             added scripts build, check, serve, start",
      `             added dependencies @mcp-gen/runtime ${MCP_GEN}`,
      `             added devDependencies ${devDependencyList}`,
      "  written  tsconfig.json",
    ]);
    const merged = readJson(path.join(dir, "package.json"));
    expect(Object.keys(merged)).toStrictEqual([...Object.keys(npmInit), "dependencies", "devDependencies"]);
    expect(Object.keys(merged.scripts)).toStrictEqual(["test", "build", "check", "serve", "start"]);
    expect(readFileSync(path.join(dir, "src/tools.ts"), "utf8")).toBe(tools);
    expect(existsSync(path.join(dir, "test"))).toBe(false);
    expect(merged).toStrictEqual({
      ...npmInit,
      scripts: {
        test: SCRIPTS.test,
        build: SCRIPTS.build,
        check: SCRIPTS.check,
        serve: SCRIPTS.serve,
        start: SCRIPTS.start,
      },
      type: "module",
      dependencies: DEPENDENCIES,
      devDependencies: DEV_DEPENDENCIES,
    });
    expect(readFileSync(path.join(dir, "mcp-gen.config.ts"), "utf8")).toContain(
      '    calc: { tools: ["src/tools.ts"] },\n',
    );
  });

  it("keeps every value of a CommonJS package, its scripts and its indentation, and warns", async () => {
    const pkg = {
      name: "weather",
      type: "commonjs",
      main: "index.js",
      scripts: { test: "jest", build: "tsc -p ." },
      devDependencies: { zod: "3.25.76", "@mcp-gen/runtime": "file:../runtime" },
    };
    const text = `${JSON.stringify(pkg, null, "\t")}\n`;
    const dir = tempProject({
      "package.json": text,
      "index.js": "module.exports = {};\n",
      "tsconfig.json": "{}\n",
    });
    const result = await runCli(["init", "--name", "forecast"], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        "  merged   package.json",
        '             skipped script "build" (exists: "tsc -p ."; init\'s: "mcp-gen build && tsc")',
        '             skipped script "test" (exists: "jest"; init\'s: "vitest run --dir test")',
        "             added scripts check, serve, start",
        `             added devDependencies ${devDependencyList}`,
        "  skipped  tsconfig.json (exists)",
        "             generated imports follow its settings; `npm start` runs what tsc emits as dist/src/server.js",
        "  written  .gitignore",
        "next:",
        "  npm install",
        "  npx mcp-gen build && npx tsc",
        "  npx vitest run --dir test",
        "",
      ].join("\n"),
    );
    expect(result.stderr).toBe(
      [
        'warning: package.json has "type": "commonjs", but src/server.ts and the generated code are ES modules (top-level await, import.meta): tsc would compile them to CommonJS, which fails',
        "  at package.json",
        '  fix: set "type": "module" in package.json',
        "",
      ].join("\n"),
    );
    const merged = readFileSync(path.join(dir, "package.json"), "utf8");
    expect(merged.startsWith('{\n\t"name": "weather",\n\t"type": "commonjs",\n')).toBe(true);
    expect(JSON.parse(merged)).toStrictEqual({
      ...pkg,
      scripts: {
        ...pkg.scripts,
        check: SCRIPTS.check,
        serve: "mcp-gen serve forecast",
        start: SCRIPTS.start,
      },
      devDependencies: { ...pkg.devDependencies, ...DEV_DEPENDENCIES },
    });
    expect(Object.keys(JSON.parse(merged))).toStrictEqual([
      "name",
      "type",
      "main",
      "scripts",
      "devDependencies",
    ]);
    expect(readFileSync(path.join(dir, "tsconfig.json"), "utf8")).toBe("{}\n");
  });

  it("refuses an invalid --name, a --dir that is a file and a broken package.json, writing nothing", async () => {
    const dir = tempProject({ "notes.txt": "x\n" });
    const cases: [string[], string][] = [
      [
        ["init", "--name", "my server!"],
        'error MCPG096: --name "my server!" is not a valid server name: use letters, digits, "-" and "_", starting with a letter or digit\n  fix: pass a name such as --name my-server\n',
      ],
      [
        ["init", "--dir", "notes.txt"],
        "error MCPG096: --dir names a file, not a folder\n  at notes.txt\n  fix: pass the folder to set up (a missing one is created), or leave --dir out to use the working directory\n",
      ],
    ];
    const before = snapshot(dir);
    for (const [args, message] of cases) {
      const result = await runCli(args, dir);
      expect({ code: result.code, stdout: result.stdout }).toStrictEqual({ code: 1, stdout: "" });
      expect(result.stderr).toBe(`${message}\nmcp-gen: 1 error; nothing was written\n`);
      expect(snapshot(dir)).toStrictEqual(before);
    }

    mkdirSync(path.join(dir, "app"));
    writeFileSync(path.join(dir, "app/package.json"), '{\n  "name": "app",\n}\n');
    const broken = await runCli(["init", "--dir", "app"], dir);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(
      /^error MCPG096: package\.json is not valid JSON: .+\n {2}at app\/package\.json:3:1\n {2}fix: correct package\.json/,
    );
    expect(readdirSync(path.join(dir, "app"))).toStrictEqual(["package.json"]);
  });
});

describe("init's names and versions", () => {
  it("derives valid server names from package and folder names", () => {
    expect(["@acme/Weather Tools", "my.app", "--x--", "2fa", "日本"].map(toServerName)).toStrictEqual([
      "weather-tools",
      "my-app",
      "x",
      "2fa",
      "mcp-server",
    ]);
    expect(initTemplates("2fa")["mcp-gen.config.ts"]).toContain('    "2fa": { tools: ["src/tools.ts"] },\n');
    expect(initTemplates("expect")["test/tools.test.ts"]).toContain("const tools = await connect();\n");
  });

  it("pins vitest and @types/node to the versions of the root package.json", () => {
    expect(TOOL_VERSIONS).toStrictEqual({
      vitest: ROOT.devDependencies.vitest,
      "@types/node": ROOT.devDependencies["@types/node"],
    });
  });
});
