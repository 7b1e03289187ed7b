import type { Contract } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { emitServer, type ValidatorsReuse } from "../../src/emit/index.ts";

/** A tool whose `name` property lacks a `type`: Ajv's strict mode notes it (MCPG124). */
const contract = (description: string, nameSchema: object): Contract => ({
  server: "shop",
  tools: [
    {
      name: "find",
      description,
      inputSchema: {
        type: "object",
        properties: { name: { description: "Part of the name", ...nameSchema } },
        required: ["name"],
      },
    },
  ],
});

const emit = (c: Contract, validators: { previous?: ValidatorsReuse }) => {
  const out = emitServer(c, {
    contractFile: "schemas/shop.tools.json",
    outDir: "generated/shop",
    validators,
  });
  return {
    file: out.files.find((f) => f.path.endsWith("/validators.ts"))!,
    warnings: out.warnings.filter((w) => w.code === "MCPG124"),
  };
};

describe("validators.ts reused by watch", () => {
  it("is taken from the last emission while every schema is the same, warnings included", () => {
    const slot: { previous?: ValidatorsReuse } = {};
    const first = emit(contract("Finds parts.", { minLength: 2 }), slot);
    expect(first.warnings.map((w) => w.message)).toStrictEqual([
      expect.stringMatching(/^tool "find": missing type "string" for keyword "minLength"/),
    ]);
    // another description: another contract, the same schemas
    const second = emit(contract("Finds parts by name.", { minLength: 2 }), slot);
    expect(second.file).toBe(first.file);
    expect(second.warnings).toStrictEqual(first.warnings);
  });

  it("is compiled again when a schema changes, and that is what a one-off emission writes", () => {
    const slot: { previous?: ValidatorsReuse } = {};
    const first = emit(contract("Finds parts.", { minLength: 2 }), slot);
    const changed = contract("Finds parts.", { minLength: 3 });
    const second = emit(changed, slot);
    expect(second.file).not.toBe(first.file);
    expect([first.file.content.includes(" < 2"), second.file.content.includes(" < 3")]).toStrictEqual([
      true,
      true,
    ]);
    expect(second.file).toStrictEqual(emit(changed, {}).file);
    expect(slot.previous?.file).toBe(second.file);
  });
});
