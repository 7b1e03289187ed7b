import type { Contract } from "@mcp-gen/schema";
import { expect, it } from "vitest";
import { diffContracts } from "../../src/diff/diff.ts";

const withScopes = (scopes?: string[]): Contract => ({
  server: "s",
  tools: [{ name: "write_note", inputSchema: { type: "object" } }],
  "x-mcp-gen": { tools: { write_note: scopes ? { scopes } : {} } },
});

it("a scope a tool now needs breaks callers; a scope it no longer needs does not", () => {
  expect(diffContracts(withScopes(), withScopes(["notes:write"]))).toStrictEqual([
    {
      tool: "write_note",
      breaking: true,
      pointer: "/x-mcp-gen/tools/write_note/scopes",
      message: 'now needs scope "notes:write": callers whose tokens lack it are refused (403)',
    },
  ]);
  expect(diffContracts(withScopes(["notes:read", "notes:write"]), withScopes(["notes:write"]))).toStrictEqual(
    [
      {
        tool: "write_note",
        breaking: false,
        pointer: "/x-mcp-gen/tools/write_note/scopes",
        message: 'no longer needs scope "notes:read"',
      },
    ],
  );
  expect(diffContracts(withScopes(["a", "b"]), withScopes(["b", "a"]))).toStrictEqual([]);
});
