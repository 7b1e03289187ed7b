import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempProject } from "../support/project.ts";

const contract = (required: string[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    server: "calc",
    tools: [
      {
        name: "add",
        inputSchema: {
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" }, ...extra },
          required,
        },
      },
    ],
  });

describe("mcp-gen diff", () => {
  const dir = tempProject({
    "old.json": contract(["a"]),
    "new.json": contract(["a", "b"], { round: { type: "boolean" } }),
    "broken.json": '{ "server": "calc", "tools": [ { "name": "add" } ] }',
    "not-json.json": "{ server: calc }",
  });

  it("lists breaking changes first and exits 1 on them", async () => {
    const r = await runCli(["diff", "old.json", "new.json"], dir);
    expect(r).toStrictEqual({
      code: 1,
      stdout:
        'breaking      add  /inputSchema/properties/b  parameter "b" is now required\n' +
        'non-breaking  add  /inputSchema/properties/round  new optional parameter "round"\n' +
        "mcp-gen: 1 breaking change, 1 non-breaking change\n",
      stderr: "",
    });
  });

  it("exits 0 with --report-only, or when nothing breaks; --json for machines", async () => {
    expect((await runCli(["diff", "old.json", "new.json", "--report-only"], dir)).code).toBe(0);
    const reverse = await runCli(["diff", "new.json", "old.json"], dir);
    expect(reverse.code).toBe(0);
    expect(JSON.parse((await runCli(["diff", "old.json", "old.json", "--json"], dir)).stdout)).toStrictEqual(
      [],
    );
    expect((await runCli(["diff", "old.json", "old.json"], dir)).stdout).toBe("mcp-gen: no changes\n");
  });

  it("names the problem of a malformed or unreadable contract", async () => {
    const broken = await runCli(["diff", "old.json", "broken.json"], dir);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(
      'error MCPG040: "inputSchema" must be a JSON Schema object\n  at broken.json /tools/0/inputSchema\n',
    );
    const notJson = await runCli(["diff", "not-json.json", "old.json"], dir);
    expect(notJson.stderr).toMatch(/^error MCPG041: contract is not valid JSON: .*\n {2}at not-json.json\n/);
    const missing = await runCli(["diff", "nowhere.json", "old.json"], dir);
    expect(missing.stderr).toMatch(/^error MCPG041: cannot read contract: ENOENT.*\n {2}at nowhere.json\n/);
  });
});

describe("mcp-gen build --check", () => {
  it("reports breaking changes of TypeScript-built contracts against the committed ones", async () => {
    const tools = (params: string) =>
      `/** Add. */\nexport function add(${params}): number {\n  return a + b;\n}\n`;
    const dir = tempProject({
      "mcp-gen.config.json": '{ "servers": { "calc": { "tools": ["tools.ts"] } } }\n',
      "tools.ts": tools("a: number, b = 1"),
    });
    expect((await runCli(["build"], dir)).code).toBe(0);
    writeFileSync(path.join(dir, "tools.ts"), tools("a: number, b: number"));
    const check = await runCli(["build", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain(
      "error MCPG095: the new schemas/calc.tools.json breaks clients of the committed one:\n" +
        '  breaking      add  /inputSchema/properties/b  parameter "b" is now required\n' +
        "  fix: keep the old shape (add, don't remove or narrow), or release the change as breaking for every client\n",
    );
  });
});
