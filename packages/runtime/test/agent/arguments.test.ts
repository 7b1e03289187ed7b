import { parseToolArguments } from "@mcp-gen/runtime/agent";
import { describe, expect, it } from "vitest";

describe("parseToolArguments", () => {
  it.each([
    ['{"a": 1}', { a: 1 }, []],
    ["", {}, []],
    ["  ", {}, []],
    ['```json\n{"a": 1}\n```', { a: 1 }, ["code fence"]],
    ['```\n{"a": [1, 2,],}\n```', { a: [1, 2] }, ["code fence", "trailing comma"]],
    ['Here you go: {"a": "x, }"} hope that helps', { a: "x, }" }, ["surrounding text"]],
    ['{"a": "keeps ,} inside strings",}', { a: "keeps ,} inside strings" }, ["trailing comma"]],
    ['{"q": "say \\"hi\\",",}', { q: 'say "hi",' }, ["trailing comma"]],
  ])("parses %j", (raw, value, repairs) => {
    expect(parseToolArguments(raw)).toStrictEqual({ ok: true, value, repairs });
  });

  it("passes objects through and treats a missing value as no arguments", () => {
    expect(parseToolArguments({ a: 1 })).toStrictEqual({ ok: true, value: { a: 1 }, repairs: [] });
    expect(parseToolArguments(undefined)).toStrictEqual({ ok: true, value: {}, repairs: [] });
  });

  it("reports what it cannot repair", () => {
    const parsed = parseToolArguments("{a: 1}");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.message).toMatch(
      /^The arguments are not valid JSON \(.+\)\. Send the arguments as one JSON object\.$/,
    );
  });
});
