import type { ServerManifest } from "@mcp-gen/runtime/server";
import { createValidator } from "@mcp-gen/runtime/validation";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { naturalTree, tree, wrappedTree } from "./fixtures/wrapped-tree.ts";
import { connectCatalog, ERAS } from "./support/catalog.ts";

// A contract holds a non-object result wrapped as `{ result }`; when its schema came from a live
// 2026-07-28 server (`mcp-gen pull`), references point into the wrapper's result
// (fixtures/wrapped-tree.ts). Each era must get a listing whose references resolve and a result
// that validates against it: the 2025 client the wrapped form as the contract holds it, the
// 2026-07-28 client the result's own schema with the references moved to its root
// (docs/design/sdk-v2-migration.md §4.4 says why this projection is ours, not the SDK's).

function manifest(): ServerManifest {
  const ajv = new Ajv2020({ strict: false });
  return {
    server: "projection",
    tools: [
      {
        definition: { name: "tree", inputSchema: { type: "object" }, outputSchema: wrappedTree },
        input: createValidator(ajv.compile({ type: "object" }), "arguments"),
        output: createValidator(ajv.compile(wrappedTree), "result"),
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
    expect(listed).toStrictEqual(era === "legacy" ? wrappedTree : naturalTree);
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
