import { readFileSync } from "node:fs";
import path from "node:path";
import { type ContractTool, formatDiagnostic, McpGenError, scanMcpHeaders } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { build as runBuild } from "../src/build.ts";
import { diffContracts } from "../src/diff/diff.ts";
import { tempProject } from "./support/project.ts";

// `Header<"Name">` (MCP 2026-07-28, SEP-2243): an argument a client mirrors into `Mcp-Param-Name`.

const CONFIG = JSON.stringify({
  schemas: "schemas",
  generated: "generated",
  servers: { db: { tools: ["tools.ts"] } },
});

async function build(source: string) {
  const dir = tempProject({ "mcp-gen.config.json": CONFIG, "tools.ts": source });
  const outcome = await runBuild({ configFile: path.join(dir, "mcp-gen.config.json") }).then(
    () => undefined,
    (e: unknown) => e,
  );
  const read = (file: string) => readFileSync(path.join(dir, file), "utf8");
  return { dir, error: outcome, read };
}

describe("Header<> in tool signatures", () => {
  it("marks string, Int, boolean and literal-union arguments, and nested properties of inline objects", async () => {
    const { error, read } = await build(`
      import type { Header, Int } from "@mcp-gen/runtime";
      /**
       * Runs a query.
       * @param region Where
       */
      export function run_query(
        region: string & Header<"Region">,
        sql: string,
        shard?: Int & Header<"Shard">,
        dry: boolean & Header<"Dry-Run"> = false,
        tier: ("gold" | "free") & Header<"Tier"> = "free",
        route: { zone: string & Header<"Zone"> } = { zone: "a" },
      ): string {
        return [region, sql, shard, dry, tier, route.zone].join();
      }
    `);
    expect(error).toBeUndefined();
    const contract = JSON.parse(read("schemas/db.tools.json"));
    const input = contract.tools[0].inputSchema;
    expect(scanMcpHeaders(input)).toStrictEqual({
      headers: [
        { name: "Region", path: ["region"], type: "string" },
        { name: "Shard", path: ["shard"], type: "integer" },
        { name: "Dry-Run", path: ["dry"], type: "boolean" },
        { name: "Tier", path: ["tier"], type: "string" },
        { name: "Zone", path: ["route", "zone"], type: "string" },
      ],
      problems: [],
    });
    expect(input.properties.tier).toStrictEqual({
      type: "string",
      enum: ["gold", "free"],
      default: "free",
      "x-mcp-header": "Tier",
    });
    // Models have no use for transport annotations: provider definitions leave them out.
    for (const file of ["anthropic", "openai", "openai-strict", "gemini"]) {
      expect(read(`generated/db/providers/${file}.json`)).not.toContain("x-mcp-header");
    }
  });

  it("refuses a header reached through items, or repeated by a reused type, with the contract pointers", async () => {
    const { error } = await build(`
      import type { Header } from "@mcp-gen/runtime";
      /** Where a query runs. */
      export interface Target { region: string & Header<"Region"> }
      /**
       * Runs a query.
       * @param target Where
       */
      export function run_query(target: Target, others: Target[], also: Target): string {
        return target.region + others.length + also.region;
      }
    `);
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics.map(formatDiagnostic).join("\n\n")).toBe(
      [
        'error MCPG061: [mcp/x-mcp-header] x-mcp-header "Region" is not reachable from the arguments through "properties" alone (not under items, anyOf/oneOf/allOf, additionalProperties or a $ref)',
        "  at schemas/db.tools.json /tools/0/inputSchema/properties/others/items/properties/region/x-mcp-header",
        "  fix: correct the tool at the JSON pointer named in the message",
        "",
        'error MCPG061: [mcp/x-mcp-header] x-mcp-header "Region" repeats "Region" (header names ignore case)',
        "  at schemas/db.tools.json /tools/0/inputSchema/properties/also/properties/region/x-mcp-header",
        "  fix: correct the tool at the JSON pointer named in the message",
      ].join("\n"),
    );
  });
});

describe("scanMcpHeaders: MCP 2026-07-28's rules for x-mcp-header", () => {
  it("reports names that are no HTTP token, repeat ignoring case, sit on other types or under items", () => {
    const { headers, problems } = scanMcpHeaders({
      type: "object",
      properties: {
        a: { type: "string", "x-mcp-header": "Region" },
        b: { type: "string", "x-mcp-header": "region" },
        c: { type: "number", "x-mcp-header": "Amount" },
        d: { type: "string", "x-mcp-header": "two words" },
        e: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
        f: { anyOf: [{ type: "string", "x-mcp-header": "Choice" }] },
      },
    });
    expect(headers).toStrictEqual([{ name: "Region", path: ["a"], type: "string" }]);
    expect(problems.map((p) => p.pointer)).toStrictEqual([
      "/properties/b/x-mcp-header",
      "/properties/c/x-mcp-header",
      "/properties/d/x-mcp-header",
      "/properties/e/items/x-mcp-header",
      "/properties/f/anyOf/0/x-mcp-header",
    ]);
    expect(problems[0]!.message).toBe('x-mcp-header "region" repeats "Region" (header names ignore case)');
    expect(problems[1]!.message).toBe(
      'x-mcp-header "Amount" is on a "number" value; only string, integer and boolean arguments can travel in a header',
    );
  });

  it("finds a header on a property named like a data keyword, and none inside data", () => {
    const { headers } = scanMcpHeaders({
      type: "object",
      properties: {
        enum: { type: "string", "x-mcp-header": "Kind" },
        mode: { type: "string", default: { "x-mcp-header": "NotOne" }, enum: [{ "x-mcp-header": "No" }] },
      },
    });
    expect(headers).toStrictEqual([{ name: "Kind", path: ["enum"], type: "string" }]);
    expect(scanMcpHeaders({ type: "object", properties: { a: { type: "string" } } })).toStrictEqual({
      headers: [],
      problems: [],
    });
  });
});

describe("mcp-gen diff and headers", () => {
  const tool = (header?: string): ContractTool => ({
    name: "q",
    inputSchema: {
      type: "object",
      properties: { region: { type: "string", ...(header ? { "x-mcp-header": header } : {}) } },
    },
  });
  const diff = (a: ContractTool, b: ContractTool) =>
    diffContracts({ server: "s", tools: [a] }, { server: "s", tools: [b] }).map(
      (c) => `${c.breaking ? "breaking" : "ok"} ${c.pointer} ${c.message}`,
    );

  it("calls adding, removing and renaming a header breaking", () => {
    expect(diff(tool(), tool("Region"))).toStrictEqual([
      'breaking /inputSchema/properties/region/x-mcp-header argument "region" now also travels as header Mcp-Param-Region; servers refuse 2026-07-28 calls without it',
    ]);
    expect(diff(tool("Region"), tool())).toStrictEqual([
      'breaking /inputSchema/properties/region/x-mcp-header argument "region" no longer travels as header Mcp-Param-Region',
    ]);
    expect(diff(tool("Region"), tool("Zone"))).toStrictEqual([
      'breaking /inputSchema/properties/region/x-mcp-header argument "region" now travels as header Mcp-Param-Zone instead of Mcp-Param-Region',
    ]);
    expect(diff(tool("Region"), tool("Region"))).toStrictEqual([]);
  });
});
