import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  bindManifest,
  createSandbox,
  type ProgramApi,
  type ProgramTool,
  type Sandbox,
} from "../../src/code/index.ts";
import { content, text } from "../../src/content.ts";
import type { ManifestTool } from "../../src/server/manifest.ts";
import { ToolError } from "../../src/tool-error.ts";
import { createValidator, type RawValidate } from "../../src/validation/validator.ts";

/**
 * The in-process fast path of the bridge (`ProgramTool.answer`, which `bindManifest` provides):
 * the program sees what it saw through `call` — values, failures and call records — and the
 * bridge trusts an answer's own check only when it was made by the binding's own validator.
 */

/** A validator of "an object whose `n` is a number" (`{ result: … }` with `wrapped`). */
function numberValidator(wrapped: boolean) {
  const raw: RawValidate = (data) => {
    const value = wrapped ? (data as { result?: unknown } | null)?.result : data;
    const ok = typeof (value as { n?: unknown } | null)?.n === "number";
    raw.errors = ok
      ? null
      : [
          {
            instancePath: wrapped ? "/result/n" : "/n",
            schemaPath: "#/properties/n/type",
            keyword: "type",
            params: { type: "number" },
            message: "must be number",
          },
        ];
    return ok;
  };
  return createValidator<unknown>(raw, "result");
}

const anyArgs = createValidator<unknown>(
  ((data: unknown) => typeof data === "object" && data !== null) as RawValidate,
  "arguments",
);

function tool(
  name: string,
  invoke: (args: Record<string, unknown>) => unknown,
  shape: { output?: "plain" | "wrapped"; destructive?: boolean } = {},
): ManifestTool {
  return {
    definition: {
      name,
      inputSchema: { type: "object" },
      annotations: shape.destructive ? {} : { readOnlyHint: true },
    },
    input: anyArgs,
    ...(shape.output ? { output: numberValidator(shape.output === "wrapped") } : {}),
    resultWrapped: shape.output === "wrapped",
    usesContext: false,
    invoke,
  };
}

const tools: ManifestTool[] = [
  tool("sync_plain", (args) => ({ n: Number(args.n ?? 1) }), { output: "plain" }),
  tool("async_wrapped", async (args) => ({ n: Number(args.n ?? 2) }), { output: "wrapped" }),
  tool("dated", () => ({ n: 3, at: new Date(0) }), { output: "plain" }),
  tool("lies", () => ({ n: "four" }), { output: "plain" }),
  tool("no_schema", () => ({ free: [1, "two"] })),
  tool("no_schema_text", () => "just text"),
  tool("nothing", () => undefined),
  tool("blocks", () => text("line one")),
  tool("mixed_blocks", () => content("a", { type: "image", data: "AAAA", mimeType: "image/png" })),
  tool("throws", () => {
    throw new ToolError("refused on purpose");
  }),
  tool("rejects", async () => {
    throw new Error("rejected on purpose");
  }),
  tool("not_json", () => ({ n: 5, big: 5n }), { output: "plain" }),
  tool("wipe", () => ({ n: 6 }), { output: "plain", destructive: true }),
];

const PROGRAM = `
const out = {};
const names = ${JSON.stringify(tools.map((t) => t.definition.name))};
for (const name of names) {
  try { out[name] = { value: await t[name]({ n: 7 }) }; }
  catch (e) { out[name] = { error: e.name + ": " + e.message }; }
}
try { await t.sync_plain("not an object"); } catch (e) { out.invalid = e.name; }
t.sync_plain({ n: 8 });
return out;`;

let sandbox: Sandbox;
beforeAll(() => {
  sandbox = createSandbox();
});
afterAll(() => sandbox.close());

describe("bindManifest's answers", () => {
  it("give the program what its tools/call results gave: values, failures and records", async () => {
    const fast = bindManifest({ server: "t", tools });
    const slow = Object.fromEntries(
      Object.entries(fast).map(([name, binding]) => {
        const { answer: _, ...rest } = binding;
        return [name, rest];
      }),
    );
    expect(Object.values(fast).every((b) => typeof b.answer === "function")).toBe(true);
    const permission = () => false;
    const viaAnswer = await sandbox.run(PROGRAM, { api: { t: fast }, permission });
    const viaCall = await sandbox.run(PROGRAM, { api: { t: slow }, permission });
    expect(viaAnswer.ok).toBe(true);
    const strip = (calls: typeof viaAnswer.calls) => calls.map(({ ms: _, ...rest }) => rest);
    expect(viaAnswer.ok && viaAnswer.value).toStrictEqual(viaCall.ok && viaCall.value);
    expect(strip(viaAnswer.calls)).toStrictEqual(strip(viaCall.calls));
    expect(viaAnswer.ok && viaAnswer.value).toMatchObject({
      sync_plain: { value: { n: 7 } },
      async_wrapped: { value: { n: 7 } },
      dated: { value: { n: 3, at: "1970-01-01T00:00:00.000Z" } },
      lies: { error: expect.stringContaining("does not match its output schema") },
      no_schema: { value: '{"free":[1,"two"]}' },
      no_schema_text: { value: "just text" },
      nothing: { value: "" },
      blocks: { value: "line one" },
      mixed_blocks: { value: [{ type: "text", text: "a" }, { type: "image" }] },
      throws: { error: "ToolError: t.throws failed: refused on purpose" },
      rejects: { error: "ToolError: t.rejects failed: rejected on purpose" },
      not_json: { error: expect.stringContaining("does not match its output schema") },
      wipe: { error: expect.stringContaining("PermissionError: t.wipe was not run") },
      invalid: "ValidationError",
    });
  });

  it("log a result that breaks its schema on stderr, as serve() does, the same on both paths", async () => {
    const fast = bindManifest({ server: "t", tools });
    const slow = Object.fromEntries(
      Object.entries(fast).map(([name, { answer: _, ...rest }]) => [name, rest]),
    );
    const program = `for (const name of ["lies", "not_json", "sync_plain"]) { try { await t[name]({}); } catch {} }`;
    const logged = async (api: Record<string, ProgramTool>) => {
      const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      try {
        await sandbox.run(program, { api: { t: api } });
        return write.mock.calls.map(([chunk]) => String(chunk));
      } finally {
        write.mockRestore();
      }
    };
    const viaAnswer = await logged(fast);
    expect(viaAnswer).toStrictEqual(await logged(slow));
    expect(viaAnswer).toStrictEqual([
      expect.stringMatching(/^mcp-gen: tool "lies" returned an invalid result: .*\/n: expected a number/s),
      expect.stringMatching(
        /^mcp-gen: tool "not_json" returned an invalid result: result is not JSON: .*BigInt/,
      ),
    ]);
  });

  it("records every call, complete, when the result is read (and the same list when read again)", async () => {
    const result = await sandbox.run(PROGRAM, { api: { t: bindManifest({ server: "t", tools }) } });
    const outcomes = result.calls.map((c) => [c.tool, c.outcome]);
    expect(outcomes).toStrictEqual([
      ["t.sync_plain", "ok"],
      ["t.async_wrapped", "ok"],
      ["t.dated", "ok"],
      ["t.lies", "tool-error"],
      ["t.no_schema", "ok"],
      ["t.no_schema_text", "ok"],
      ["t.nothing", "ok"],
      ["t.blocks", "ok"],
      ["t.mixed_blocks", "ok"],
      ["t.throws", "tool-error"],
      ["t.rejects", "tool-error"],
      ["t.not_json", "tool-error"],
      ["t.wipe", "denied"],
      ["t.sync_plain", "invalid-arguments"],
      ["t.sync_plain", "cancelled"],
    ]);
    expect(result.calls.every((c) => typeof c.ms === "number" && c.ms >= 0)).toBe(true);
    expect(result.calls[0]).toStrictEqual({
      tool: "t.sync_plain",
      arguments: { n: 7 },
      outcome: "ok",
      ms: result.calls[0]?.ms,
    });
    expect(result.calls.at(-1)?.error).toBe("not run: the program ended without awaiting it");
    expect(result.calls).toBe(result.calls);
    expect(JSON.parse(JSON.stringify(result)).calls).toHaveLength(15);
    expect({ ...result }.calls).toBe(result.calls);
    result.calls = [];
    expect(result.calls).toStrictEqual([]);
  });

  it("runs a long loop of synchronous tools without nesting the engine in itself", async () => {
    const api = { t: bindManifest({ server: "t", tools }) };
    const program =
      "let n = 0; for (let i = 0; i < 1000; i++) n += (await t.sync_plain({ n: i })).n; return n;";
    const result = await sandbox.run(program, { api, limits: { maxCalls: 1000 } });
    expect(result).toMatchObject({ ok: true, value: 499500 });
    expect(result.calls).toHaveLength(1000);
  });
});

describe("an answer the binding says is checked", () => {
  const output = numberValidator(false);
  const lying = (checkedBy?: unknown): ProgramApi => ({
    t: {
      f: {
        output,
        call: async () => ({ content: [], structuredContent: { n: "no" } }),
        answer: () => ({ ok: true, json: '{"n":"no"}', ...(checkedBy ? { checkedBy } : {}) }),
      } as ProgramTool,
    },
  });
  const program = 'try { return await t.f({}); } catch (e) { return e.name + ": " + e.message; }';

  it("is checked again when no validator vouches for it", async () => {
    const result = await sandbox.run(program, { api: lying() });
    expect(result.ok && result.value).toMatch(
      /^ToolError: t\.f returned a result that breaks its own output schema/,
    );
    expect(result.calls[0]?.outcome).toBe("invalid-result");
  });

  it("is checked again when another validator checked it", async () => {
    const result = await sandbox.run(program, { api: lying(numberValidator(false)) });
    expect(result.calls[0]?.outcome).toBe("invalid-result");
  });

  it("is trusted when the binding's own output validator checked it (the binding is the host's code)", async () => {
    const result = await sandbox.run(program, { api: lying(output) });
    expect(result).toMatchObject({ ok: true, value: { n: "no" } });
  });

  it("is refused when it is not JSON and nothing vouches for it", async () => {
    const api: ProgramApi = {
      t: { f: { output, call: async () => ({ content: [] }), answer: () => ({ ok: true, json: "{n:" }) } },
    };
    const result = await sandbox.run(program, { api });
    expect(result.ok && result.value).toMatch(/its answer is not JSON/);
  });
});
