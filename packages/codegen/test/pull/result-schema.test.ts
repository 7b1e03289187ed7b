import { describe, expect, it } from "vitest";
import { unprojectResult, wrapResult } from "../../src/pull/result-schema.ts";

/**
 * The two listed forms of a non-object result schema — as it is (MCP 2026-07-28) and the SDK's
 * `{ result }` projection for 2025 clients — both become mcp-gen's recorded wrapper, references
 * included. (eras.test.ts pulls them from a live SDK v2 server.)
 */
const natural = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "array",
  items: {
    anyOf: [
      { $ref: "#/$defs/Leaf" },
      { $ref: "#" },
      { $ref: "#/definitions/Old" },
      { $ref: "https://example.com/remote.json#/x" },
    ],
  },
  $defs: { Leaf: { type: "string", const: { $ref: "#/not-a-reference" }, default: { $ref: "#" } } },
  definitions: { Old: { $ref: "#/items" } },
};

/** What the SDK v2's 2025 codec lists for `natural` (`legacyWrap.ts`: references moved, definitions in place). */
const projected = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    result: {
      ...natural,
      items: {
        anyOf: [
          { $ref: "#/properties/result/$defs/Leaf" },
          { $ref: "#/properties/result" },
          { $ref: "#/properties/result/definitions/Old" },
          { $ref: "https://example.com/remote.json#/x" },
        ],
      },
      definitions: { Old: { $ref: "#/properties/result/items" } },
    },
  },
  required: ["result"],
};

const recorded = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    result: {
      type: "array",
      items: {
        anyOf: [
          { $ref: "#/$defs/Leaf" },
          { $ref: "#/properties/result" },
          { $ref: "#/definitions/Old" },
          { $ref: "https://example.com/remote.json#/x" },
        ],
      },
    },
  },
  required: ["result"],
  additionalProperties: false,
  // Values of const and default are data, not references: they stay as they are.
  $defs: natural.$defs,
  definitions: { Old: { $ref: "#/properties/result/items" } },
};

describe("the recorded form of a non-object result schema", () => {
  it("wraps the natural schema, definitions at the root, other references under result", () => {
    expect(wrapResult(natural)).toStrictEqual(recorded);
  });

  it("is the same from the SDK's 2025 projection", () => {
    const back = unprojectResult(projected);
    expect(back).toStrictEqual(natural);
    expect(wrapResult(back!)).toStrictEqual(recorded);
  });

  it("moves a schema with its own $id as it is (its references resolve against the id)", () => {
    const own = {
      $id: "https://example.com/list.json",
      type: "array",
      items: { $ref: "#/$defs/X" },
      $defs: { X: {} },
    };
    expect(wrapResult(own)).toStrictEqual({
      type: "object",
      properties: { result: own },
      required: ["result"],
      additionalProperties: false,
    });
    expect(unprojectResult({ type: "object", properties: { result: own }, required: ["result"] })).toBe(own);
  });

  it("takes only the exact projection of a non-object schema for one", () => {
    const result = { type: "array" };
    const wrapper = { type: "object", properties: { result }, required: ["result"] };
    expect(unprojectResult(wrapper)).toStrictEqual(result);
    expect(unprojectResult({ ...wrapper, additionalProperties: false })).toBeUndefined();
    expect(unprojectResult({ ...wrapper, required: [] })).toBeUndefined();
    expect(unprojectResult({ ...wrapper, properties: { result, more: {} } })).toBeUndefined();
    expect(unprojectResult({ ...wrapper, properties: { result: { type: "object" } } })).toBeUndefined();
    expect(
      unprojectResult({ ...wrapper, properties: { value: result }, required: ["value"] }),
    ).toBeUndefined();
  });
});
