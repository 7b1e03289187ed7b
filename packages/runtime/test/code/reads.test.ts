import { readFileSync } from "node:fs";
import { apiServer } from "@mcp-gen/schema";
import ts from "typescript-5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manifest as conformance } from "../../../../generated/conformance/server.ts";
import { manifest as economics } from "../../../../generated/economics/server.ts";
import { connectInMemory } from "../../src/client/index.ts";
import { type CodeMode, codeMode } from "../../src/code/index.ts";
import { serve } from "../../src/server/index.ts";

/**
 * Resources, resource templates and prompts as functions of the program: declared, type-checked,
 * and read in process (`bindManifestReads`) or through an MCP client (`resources/read`, `prompts/get`).
 */
const PROGRAM = `const text = await conformance.read_static_text();
const png = await conformance.read_static_binary();
const data = await conformance.read_template_data({ id: "7" });
const messages = await conformance.prompt_test_prompt_with_arguments({ arg1: "a", arg2: "b" });
const first = messages[0]?.content;
const labor = await economics.read_parameters_of_category({ category: "labor" });
return { text, png: png.slice(0, 8), data, role: messages[0]?.role, said: first?.type === "text" ? first.text : null, labor: Object.keys(labor).length > 0 };`;

const EXPECTED = {
  text: "This is the content of the static text resource.",
  png: "iVBORw0K",
  data: { id: "7", templateTest: true, data: "Data for ID: 7" },
  role: "user",
  said: "Prompt with arguments: arg1='a', arg2='b'",
  labor: true,
};

describe("read functions in process", () => {
  let code: CodeMode;
  beforeAll(async () => {
    code = await codeMode({ servers: [{ manifest: conformance }, { manifest: economics }], typescript: ts });
  });
  afterAll(() => code.close());

  it("declares them from the manifest's definitions", () => {
    expect(code.description.text).toContain(
      "// Reads resource test://template/{id}/data (application/json).\nread_template_data(args:{id:string}):unknown;",
    );
    expect(code.describe("conformance.prompt_test_simple_prompt")).toMatchObject({ ok: true });
    expect(code.describe("conformance.read_*")).toMatchObject({ ok: true });
  });

  it("reads a resource, a template and a prompt, each one call", async () => {
    // a manifest's definitions do not type a value that is not text: the program narrows it
    const result = await code.run(
      PROGRAM.replace("png.slice", "(png as string).slice").replace("keys(labor)", "keys(labor as object)"),
    );
    expect(result).toMatchObject({ ok: true, value: EXPECTED });
    expect(result.calls.map((c) => `${c.tool} ${c.outcome}`)).toStrictEqual([
      "conformance.read_static_text ok",
      "conformance.read_static_binary ok",
      "conformance.read_template_data ok",
      "conformance.prompt_test_prompt_with_arguments ok",
      "economics.read_parameters_of_category ok",
    ]);
  });

  it("refuses invalid variables with the validator's message, as a catchable error", async () => {
    const result = await code.run(
      'try { await economics.read_parameters_of_category({ category: "sports" as never }); return "read"; } catch (e) { return String(e); }',
    );
    expect(result).toMatchObject({ ok: true });
    expect(String((result as { value: unknown }).value)).toMatch(/category/);
  });

  it("type-checks the arguments and the value", async () => {
    const result = await code.run("const n: number = await conformance.read_static_text();\nreturn n;");
    expect(result.ok).toBe(false);
    expect(result.calls).toStrictEqual([]);
    expect(result.diagnostics.map((d) => d.line)).toStrictEqual([1]);
  });
});

describe.each(["legacy", "2026-07-28"] as const)("read functions through an MCP client (%s)", (era) => {
  it("declares them from the contracts and reads them over resources/read and prompts/get", async () => {
    const contract = (n: string) =>
      apiServer(
        JSON.parse(readFileSync(new URL(`../../../../schemas/${n}.tools.json`, import.meta.url), "utf8")),
      );
    const connect = (manifest: typeof conformance) =>
      connectInMemory(
        { connect: async (transport) => void (await serve(manifest, { transport })) },
        { protocol: era },
      );
    const [c1, c2] = await Promise.all([connect(conformance), connect(economics)]);
    const code = await codeMode({
      servers: [
        { ...contract("conformance"), client: c1.client },
        { ...contract("economics"), client: c2.client },
      ],
      typescript: ts,
    });
    try {
      expect(code.description.text).toContain(
        "read_template_data(args:{\n// The id to look up\nid:string}):{id:string;templateTest:boolean;data:string};",
      );
      const result = await code.run(PROGRAM);
      expect(result).toMatchObject({ ok: true, value: EXPECTED });
      expect(result.calls).toHaveLength(5);
    } finally {
      await code.close();
      await Promise.all([c1.close(), c2.close()]);
    }
  });
});
