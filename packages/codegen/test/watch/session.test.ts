import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { build } from "../../src/build.ts";
import { BuildSession } from "../../src/watch/session.ts";
import { tempProject } from "../support/project.ts";

const SHARED = `/** A point. */
export interface Point {
  x: number;
  y: number;
}
`;
const A = `import type { Point } from "./shared.ts";

/**
 * Move a point.
 * @param p Where from
 */
export function move(p: Point, dx = 1): Point {
  return { x: p.x + dx, y: p.y };
}
`;
const B = `/**
 * Say hello.
 * @param name Who
 */
export function hello(name: string): string {
  return \`hello \${name}\`;
}
`;
const CONTRACT = {
  server: "pulled",
  tools: [{ name: "ping", description: "Ping.", inputSchema: { type: "object", properties: {} } }],
};
const CONFIG = `import { defineConfig } from "@mcp-gen/codegen/config";
export default defineConfig({ targets: ["openai"], servers: { a: { tools: ["src/a.ts"] }, b: { tools: ["src/b.ts"] } } });
`;

function project() {
  const dir = tempProject({
    "mcp-gen.config.ts": CONFIG,
    "src/shared.ts": SHARED,
    "src/a.ts": A,
    "src/b.ts": B,
    "schemas/pulled.tools.json": JSON.stringify(CONTRACT),
  });
  const file = (p: string) => path.join(dir, p);
  const edit = (p: string, change: (s: string) => string) => {
    writeFileSync(file(p), change(readFileSync(file(p), "utf8")));
    return file(p);
  };
  /** A full `mcp-gen build --check` of the same project: what watch wrote must be exactly that. */
  const stale = async () => (await build({ cwd: dir, check: true })).stale;
  return { dir, file, edit, stale };
}

function snapshot(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(dir, full)] = statSync(full).mtimeMs;
    }
  };
  walk(path.join(dir, "generated"));
  return out;
}

describe("BuildSession (what mcp-gen build --watch runs)", () => {
  it("rebuilds only what a change reaches, and writes what a full build writes", async () => {
    const p = project();
    const { session, result } = await BuildSession.start({ cwd: p.dir });
    expect({ rebuilt: result?.rebuilt, extracted: result?.extracted }).toStrictEqual({
      rebuilt: ["a", "b", "pulled"],
      extracted: ["src/a.ts", "src/b.ts"],
    });
    expect(await p.stale()).toStrictEqual([]);

    const shared = p.edit("src/shared.ts", (s) =>
      s.replace("  x: number;", "  /** Horizontal. */\n  x: number;"),
    );
    const afterShared = await session.rebuild([shared]);
    expect({ rebuilt: afterShared.rebuilt, extracted: afterShared.extracted }).toStrictEqual({
      rebuilt: ["a"],
      extracted: ["src/a.ts"],
    });
    expect(afterShared.written).toContain("schemas/a.tools.json");
    expect(readFileSync(p.file("schemas/a.tools.json"), "utf8")).toContain('"description": "Horizontal."');
    expect(await p.stale()).toStrictEqual([]);

    const b = p.edit("src/b.ts", (s) => s.replace("Say hello.", "Greet someone."));
    expect((await session.rebuild([b])).rebuilt).toStrictEqual(["b"]);
    expect(await p.stale()).toStrictEqual([]);

    const contract = p.edit("schemas/pulled.tools.json", (s) => s.replace("Ping.", "Ping the server."));
    const afterContract = await session.rebuild([contract]);
    expect({ rebuilt: afterContract.rebuilt, extracted: afterContract.extracted }).toStrictEqual({
      rebuilt: ["pulled"],
      extracted: [],
    });
    expect(await p.stale()).toStrictEqual([]);
  });

  it("writes nothing when a change leaves the contract as it was", async () => {
    const p = project();
    const { session } = await BuildSession.start({ cwd: p.dir });
    const before = snapshot(p.dir);
    const a = p.edit("src/a.ts", (s) => `${s}\n// a comment\n`);
    const result = await session.rebuild([a]);
    expect({ extracted: result.extracted, written: result.written }).toStrictEqual({
      extracted: ["src/a.ts"],
      written: [],
    });
    expect(snapshot(p.dir)).toStrictEqual(before);
  });

  it("restores a generated file edited by hand on the next rebuild, as a full build would", async () => {
    const p = project();
    const { session } = await BuildSession.start({ cwd: p.dir });
    const types = p.edit("generated/b/types.ts", (s) => `${s}// edited by hand\n`);
    const removed = p.file("generated/a/tools.ts");
    rmSync(removed);
    const b = p.edit("src/b.ts", (s) => s.replace("Say hello.", "Greet."));
    const result = await session.rebuild([b]);
    expect(result.written).toEqual(expect.arrayContaining(["generated/a/tools.ts", "generated/b/types.ts"]));
    expect(readFileSync(types, "utf8")).not.toContain("edited by hand");
    expect(await p.stale()).toStrictEqual([]);
  });

  it("reports errors, writes nothing, and retries the failed module on the next change", async () => {
    const p = project();
    const { session } = await BuildSession.start({ cwd: p.dir });
    const before = snapshot(p.dir);
    const broken = p.edit("src/a.ts", (s) => s.replace("return { x: p.x + dx, y: p.y };", 'return "nope";'));
    const error = await session.rebuild([broken]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics.map((d) => [d.code, d.location?.file])).toStrictEqual([
      ["MCPG010", "src/a.ts"],
    ]);
    expect(snapshot(p.dir)).toStrictEqual(before);

    const b = p.edit("src/b.ts", (s) => s.replace("Say hello.", "Greet."));
    await expect(session.rebuild([b])).rejects.toThrow("MCPG010");

    const fixed = p.edit("src/a.ts", (s) =>
      s.replace('return "nope";', "return { x: p.x + dx, y: p.y * 2 };"),
    );
    const result = await session.rebuild([fixed]);
    expect({ rebuilt: result.rebuilt, extracted: result.extracted }).toStrictEqual({
      rebuilt: ["a", "b"],
      extracted: ["src/a.ts", "src/b.ts"],
    });
    expect(await p.stale()).toStrictEqual([]);
  });

  it("extracts a server as a whole when two modules define different recursive types of one name", async () => {
    const tree = (label: string) => `/** A tree. */
export interface Node {
  ${label}: string;
  children: Node[];
}

/** Count ${label}. */
export function count_${label}(root: Node): number {
  return root.children.length;
}
`;
    const dir = tempProject({
      "mcp-gen.config.ts": `import { defineConfig } from "@mcp-gen/codegen/config";
export default defineConfig({ targets: [], servers: { t: { tools: ["src/one.ts", "src/two.ts"] } } });
`,
      "src/one.ts": tree("name"),
      "src/two.ts": tree("title"),
    });
    const { session, error } = await BuildSession.start({ cwd: dir });
    expect(error).toBeUndefined();
    const contract = readFileSync(path.join(dir, "schemas/t.tools.json"), "utf8");
    expect(contract).toContain('"$ref": "#/$defs/Node2"');
    expect((await build({ cwd: dir, check: true })).stale).toStrictEqual([]);
    const two = path.join(dir, "src/two.ts");
    writeFileSync(two, tree("title").replace("Count title.", "Count titles."));
    await session.rebuild([two]);
    expect((await build({ cwd: dir, check: true })).stale).toStrictEqual([]);
  });

  it("follows the JSON file of an @inputSchema: a missing file fails, creating or changing it rebuilds", async () => {
    const dir = tempProject({
      "mcp-gen.config.ts": `import { defineConfig } from "@mcp-gen/codegen/config";
export default defineConfig({ targets: ["openai"], servers: { s: { tools: ["src/tools.ts"] } } });
`,
      "src/tools.ts": `/**
 * Reach someone.
 * @inputSchema ./reach.json
 */
export function reach(phone?: string): string {
  return phone ?? "";
}
`,
    });
    const json = path.join(dir, "src/reach.json");
    const { session, error } = await BuildSession.start({ cwd: dir });
    expect(error?.diagnostics.map((d) => d.code)).toStrictEqual(["MCPG045"]);
    expect(session.watchedPaths().files).toContain(json);
    const schema = { type: "object", properties: { phone: { type: "string" } }, additionalProperties: false };
    writeFileSync(json, JSON.stringify(schema));
    const first = await session.rebuild([json]);
    expect({ rebuilt: first.rebuilt, extracted: first.extracted }).toStrictEqual({
      rebuilt: ["s"],
      extracted: ["src/tools.ts"],
    });
    writeFileSync(json, JSON.stringify({ ...schema, required: ["phone"] }));
    const second = await session.rebuild([json]);
    expect(second.written).toContain("schemas/s.tools.json");
    const contract = JSON.parse(readFileSync(path.join(dir, "schemas/s.tools.json"), "utf8"));
    expect(contract.tools[0].inputSchema.required).toStrictEqual(["phone"]);
    expect((await build({ cwd: dir, check: true })).stale).toStrictEqual([]);
  });
});
