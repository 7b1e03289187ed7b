import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { build } from "../../src/build.ts";
import { BuildSession } from "../../src/watch/session.ts";
import { tempProject } from "../support/project.ts";

/**
 * `mcp-gen build --watch` and `mcp-gen build` run one pipeline: after a change to any golden
 * fixture's tool module, what watch wrote is exactly what a full build writes.
 */
const FIXTURES = path.join(import.meta.dirname, "../fixtures");
const cases = readdirSync(FIXTURES).filter((d) => existsSync(path.join(FIXTURES, d, "tools.ts")));

function naming(name: string): string {
  const file = path.join(FIXTURES, name, "case.json");
  return (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).naming : undefined) ?? "preserve";
}

it("writes what a full build writes after a change to each golden fixture", async () => {
  const config = {
    // Anthropic and Gemini reject the recursive fixture; the provider goldens have their own tests.
    targets: ["openai"],
    servers: Object.fromEntries(cases.map((c) => [c, { tools: [`${c}/tools.ts`], naming: naming(c) }])),
  };
  const dir = tempProject({ "mcp-gen.config.json": JSON.stringify(config) });
  for (const c of cases) cpSync(path.join(FIXTURES, c), path.join(dir, c), { recursive: true });
  const { session, error } = await BuildSession.start({ cwd: dir });
  expect(error).toBeUndefined();
  expect((await build({ cwd: dir, check: true })).stale).toStrictEqual([]);

  const stale: Record<string, unknown> = {};
  for (const c of cases) {
    const file = path.join(dir, c, "tools.ts");
    writeFileSync(
      file,
      `${readFileSync(file, "utf8")}\n/**\n * Added while watching.\n * @param flag A flag\n */\nexport function added_${c.replace(/-/g, "_")}(flag: boolean): boolean {\n  return flag;\n}\n`,
    );
    const result = await session.rebuild([file]);
    expect(result.written).toContain(`schemas/${c}.tools.json`);
    const left = (await build({ cwd: dir, servers: [c], check: true })).stale;
    if (left.length > 0) stale[c] = left;
  }
  expect(stale).toStrictEqual({});
  expect((await build({ cwd: dir, check: true })).stale).toStrictEqual([]);
}, 120_000);
