import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSandbox, type ProgramApi, type Sandbox } from "../../src/code/index.ts";

/**
 * What crosses the bridge arrives as it left, both ways: arguments the program writes, answers
 * the host writes (small ones through the bridge's scratch buffer, larger ones in memory of their
 * own), while the engine's heap grows between calls, and batches of answers and refusals.
 */
let sandbox: Sandbox;
const api: ProgramApi = {
  t: {
    echo: {
      call: async (args) => ({ content: [], structuredContent: { args } }),
    },
    text: {
      call: async (args) => {
        const { unit, times } = args as { unit: string; times: number };
        return { content: [], structuredContent: { text: unit.repeat(times) } };
      },
    },
    fail: {
      call: async () => ({ content: [{ type: "text", text: "broken on purpose" }], isError: true }),
    },
  },
};
const tricky = {
  quotes: 'say "hi" \\ back\\slash',
  lines: "one\ntwo\r\nthree\ttab",
  nul: "a\u0000b",
  wide: "客厅吸顶灯 😀 ä",
  nested: { list: [1, -2.5, 1e21, null, true, { deep: ["x"] }] },
};

describe.each(["caller", "worker"] as const)("the bridge's crossings (engine in the %s thread)", (thread) => {
  beforeAll(() => {
    sandbox = createSandbox({ thread });
  });
  afterAll(() => sandbox.close());

  it("hands arguments and answers over intact, with escapes and characters of every width", async () => {
    const result = await sandbox.run(`return (await t.echo(${JSON.stringify(tricky)})).args;`, { api });
    expect(result).toMatchObject({ ok: true, value: tricky });
    expect(result.ok && result.calls[0]?.arguments).toStrictEqual(tricky);
  });

  it("takes answers larger than its scratch buffer, then small ones again", async () => {
    const program = [
      "const sizes = [];",
      "for (const times of [10, 3000, 40000, 10, 200000, 5]) {",
      '  const { text } = await t.text({ unit: "客😀", times });',
      '  if (text !== "客😀".repeat(times)) throw new Error("changed at " + times);',
      "  sizes.push(text.length);",
      "}",
      "return sizes;",
    ].join("\n");
    const result = await sandbox.run(program, { api });
    expect(result).toMatchObject({ ok: true, value: [30, 9000, 120000, 30, 600000, 15] });
  });

  it("keeps crossing after the engine's heap grew between calls", async () => {
    const program = [
      "const keep = [];",
      "let n = 0;",
      "for (let i = 0; i < 6; i++) {",
      "  keep.push(new Array(400000).fill(i));",
      '  n += (await t.echo({ i, s: "客".repeat(100) })).args.i;',
      "}",
      "return [n, keep.length];",
    ].join("\n");
    const result = await sandbox.run(program, { api });
    expect(result).toMatchObject({ ok: true, value: [15, 6] });
  });

  it("settles a batch of answers and refusals, each to its own call", async () => {
    const program = [
      "const settled = await Promise.allSettled([",
      "  t.echo({ k: 1 }), t.fail({}), t.echo({ k: 2 }), t.nothing ? 0 : t.echo({ k: 3 }),",
      "]);",
      "return settled.map((s) => s.status === 'fulfilled' ? s.value.args.k : s.reason.name + ': ' + s.reason.message);",
    ].join("\n");
    const result = await sandbox.run(program, { api });
    expect(result).toMatchObject({
      ok: true,
      value: [1, "ToolError: t.fail failed: broken on purpose", 2, 3],
    });
  });
});
