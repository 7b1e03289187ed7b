import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { tempProject } from "../support/project.ts";

/** A hand-written draft-07 contract in schemas/ builds like a pulled one; untypeable parts warn. */
const CONTRACT = {
  server: "legacy",
  tools: [
    {
      name: "lookup",
      description: "Look a customer up.",
      inputSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: {
          customer: { $ref: "#/definitions/Customer" },
          notCode: { not: { type: "string", pattern: "^C" } },
        },
        required: ["customer"],
        definitions: {
          Customer: {
            type: "object",
            properties: {
              id: { type: "string" },
              tier: { type: "string", enum: ["gold", "silver"], nullable: true },
            },
            required: ["id"],
          },
        },
      },
    },
  ],
};

it("builds a hand-written draft-07 contract, warning about what it cannot type with tool and pointer", async () => {
  const dir = tempProject({
    "mcp-gen.config.json": '{ "servers": {} }\n',
    "schemas/legacy.tools.json": `${JSON.stringify(CONTRACT, null, 2)}\n`,
  });
  const build = await runCli(["build"], dir);
  expect(build.code).toBe(0);
  expect(build.stderr).toBe(
    'warning MCPG100: tool "lookup": cannot type keyword(s) not; typed as unknown\n' +
      "  at schemas/legacy.tools.json /tools/0/inputSchema/properties/notCode\n" +
      "  fix: give the value a concrete type so clients and models know what to send\n\n",
  );
  const types = readFileSync(path.join(dir, "generated/legacy/types.ts"), "utf8");
  expect(types).toContain("  customer: Customer;\n  notCode?: unknown;\n");
  expect(types).toContain('  tier?: "gold" | "silver" | null;\n');
  expect(readFileSync(path.join(dir, "schemas/legacy.tools.json"), "utf8")).toBe(
    `${JSON.stringify(CONTRACT, null, 2)}\n`,
  );
});

it("reports Ajv strict-mode notes as warnings with the tool and the pointer, and still builds", async () => {
  const loose = {
    server: "loose",
    tools: [
      {
        name: "t",
        inputSchema: {
          type: "object",
          properties: {
            p: { properties: { x: { type: "string" } } },
            pair: { type: "array", prefixItems: [{ type: "string" }] },
          },
        },
      },
    ],
  };
  const dir = tempProject({
    "mcp-gen.config.json": '{ "targets": ["openai"], "servers": {} }\n',
    "schemas/loose.tools.json": JSON.stringify(loose),
  });
  const build = await runCli(["build"], dir);
  expect(build.code).toBe(0);
  expect(build.stderr).toBe(
    'warning MCPG124: tool "t": missing type "object" for keyword "properties"\n' +
      "  at schemas/loose.tools.json /tools/0/inputSchema/properties/p\n" +
      "  fix: make the schema say what it means (e.g. add the type the keyword applies to)\n\n" +
      'warning MCPG124: tool "t": "prefixItems" is 1-tuple, but minItems or maxItems/items are not specified or different\n' +
      "  at schemas/loose.tools.json /tools/0/inputSchema/properties/pair\n" +
      "  fix: make the schema say what it means (e.g. add the type the keyword applies to)\n\n",
  );
});
