import type { ServerManifest } from "@mcp-gen/runtime/server";
import { createValidator } from "@mcp-gen/runtime/validation";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { connectCatalog, ERAS } from "./support/catalog.ts";

// A contract holds a non-object result wrapped as `{ result }`. When its schema came from a live
// 2026-07-28 server (`mcp-gen pull`), references into the result point under the wrapper
// (`#/properties/result/$defs/Node`), as the SDK's 2025 wrap writes them. Each era must get a
// listing whose references resolve, and a result that validates against it: the 2025 client gets
// the wrapped form as the contract holds it, the 2026-07-28 client the result's own schema with
// the references moved to its root (docs/design/sdk-v2-migration.md §4.4 says why this is ours).

const wrapped = {
  type: "object" as const,
  properties: {
    result: {
      type: "array",
      items: { $ref: "#/properties/result/$defs/Node" },
      $defs: {
        Node: {
          type: "object",
          properties: { name: { type: "string" }, children: { $ref: "#/properties/result" } },
          required: ["name"],
          additionalProperties: false,
        },
      },
    },
  },
  required: ["result"],
};

const tree = [{ name: "a", children: [{ name: "b", children: [] }] }, { name: "c" }];

function manifest(): ServerManifest {
  const ajv = new Ajv2020({ strict: false });
  return {
    server: "projection",
    tools: [
      {
        definition: { name: "tree", inputSchema: { type: "object" }, outputSchema: wrapped },
        input: createValidator(ajv.compile({ type: "object" }), "arguments"),
        output: createValidator(ajv.compile(wrapped), "result"),
        resultWrapped: true,
        usesContext: false,
        invoke: () => tree,
      },
    ],
  };
}

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

describe.each(ERAS)("a wrapped output schema with references into its result, %s client", (era) => {
  it("is listed with references that resolve, and the call's result validates against it", async () => {
    const { client, events } = await connectCatalog(era, open, { manifest: manifest() });
    const { tools } = await client.listTools();
    const listed = tools[0]?.outputSchema as Record<string, unknown>;
    if (era === "legacy") {
      expect(listed).toStrictEqual(wrapped);
    } else {
      expect(listed).toStrictEqual({
        type: "array",
        items: { $ref: "#/$defs/Node" },
        $defs: {
          Node: {
            type: "object",
            properties: { name: { type: "string" }, children: { $ref: "#" } },
            required: ["name"],
            additionalProperties: false,
          },
        },
      });
    }
    // The SDK client validates structuredContent against the listed schema, so a reference
    // that did not resolve would fail this call.
    const result = await client.callTool({ name: "tree", arguments: {} });
    expect(result.isError).not.toBe(true);
    const expected = era === "legacy" ? { result: tree } : tree;
    expect(result.structuredContent).toStrictEqual(expected);
    const validate = new Ajv2020({ strict: false }).compile(listed);
    expect(validate(result.structuredContent)).toBe(true);
    expect(validate(era === "legacy" ? { result: [{ name: 1 }] } : [{ name: "x", extra: true }])).toBe(false);
    expect(events).toStrictEqual([]);
  });
});
