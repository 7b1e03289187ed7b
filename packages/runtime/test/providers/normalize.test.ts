import { type ArgumentPlan, applyArgumentPlan, DIALECTS } from "@mcp-gen/runtime/providers";
import { describe, expect, it } from "vitest";

describe("applyArgumentPlan", () => {
  it("drops nulls of optional properties at any depth, keeps other nulls, and does not modify its input", () => {
    const plan: ArgumentPlan = {
      properties: {
        limit: { nullMeansAbsent: true },
        items: { items: { properties: { note: { nullMeansAbsent: true } } } },
      },
    };
    const input = {
      limit: null,
      keep: null,
      items: [
        { note: null, id: 1 },
        { note: "x", id: 2 },
      ],
    };
    expect(applyArgumentPlan(plan, input)).toStrictEqual({
      keep: null,
      items: [{ id: 1 }, { note: "x", id: 2 }],
    });
    expect(input.limit).toBe(null);
  });

  it("parses JSON text, and leaves text that is not JSON for the validator to report", () => {
    const plan: ArgumentPlan = {
      properties: { state: { json: true }, tuple: { prefixItems: [{}, { json: true }] } },
    };
    expect(applyArgumentPlan(plan, { state: '{"level":3}', tuple: ["a", "[1,2]"] })).toStrictEqual({
      state: { level: 3 },
      tuple: ["a", [1, 2]],
    });
    expect(applyArgumentPlan(plan, { state: "{not json" })).toStrictEqual({ state: "{not json" });
  });

  it("applies the union branch whose keys hold the value", () => {
    const plan: ArgumentPlan = {
      anyOf: [
        { keys: ["kind", "radius"], properties: { radius: { nullMeansAbsent: true } } },
        { keys: ["kind", "side"], properties: { side: { json: true } } },
      ],
    };
    expect(applyArgumentPlan(plan, { kind: "circle", radius: null })).toStrictEqual({ kind: "circle" });
    expect(applyArgumentPlan(plan, { kind: "square", side: "2" })).toStrictEqual({ kind: "square", side: 2 });
  });

  it("names the dialects mcp-gen emits", () => {
    expect(DIALECTS).toStrictEqual(["anthropic", "openai", "openai-strict", "gemini", "gemini-json-schema"]);
  });
});
