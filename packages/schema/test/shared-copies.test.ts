import { describe, expect, it } from "vitest";
import { canonicalSchema, canonicalShared } from "../src/canonical.ts";
import { bareSchema, metaSchemaErrors, withoutAnnotations } from "../src/meta-schema.ts";

describe("copies the build shares instead of making again", () => {
  it("canonicalShared gives canonicalSchema's bytes, and the very object when it is canonical already", () => {
    const unordered = JSON.parse(
      '{"zeta":1,"properties":{"b":{"maxLength":2,"type":"string"},"a":{"type":"number"}},"alpha":true,"required":["b","a"],"type":"object","$defs":{"Y":{"type":"null"},"X":{"type":"null"}},"anyOf":[{"type":"string"},{"minimum":1,"type":"number"}]}',
    );
    const shared = canonicalShared(unordered) as Record<string, unknown>;
    expect(JSON.stringify(shared)).toBe(JSON.stringify(canonicalSchema(unordered)));
    // an unchanged subschema is kept, a reordered one copied, the input left as it was
    const properties = shared.properties as Record<string, unknown>;
    expect(properties).not.toBe(unordered.properties);
    expect(properties.a).toBe(unordered.properties.a);
    expect((shared.anyOf as unknown[])[0]).toBe(unordered.anyOf[0]);
    expect(Object.keys(unordered)[0]).toBe("zeta");
    const canonical = canonicalSchema(unordered);
    expect(canonicalShared(canonical)).toBe(canonical);
  });

  it("a property named __proto__ stays a property when canonicalShared copies its map", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"maxLength":1,"type":"string"}}}');
    expect(JSON.stringify(canonicalShared(schema))).toBe(
      '{"type":"object","properties":{"__proto__":{"type":"string","maxLength":1}}}',
    );
  });

  it("bareSchema hands over the copy the meta-schema check made of a valid schema, once", () => {
    const schema = { type: "object", description: "d", properties: { a: { type: "string", title: "A" } } };
    expect(metaSchemaErrors(schema)).toStrictEqual([]);
    const first = bareSchema(schema);
    expect(first).toStrictEqual(withoutAnnotations(schema));
    const second = bareSchema(schema);
    expect(second).toStrictEqual(first);
    expect(second).not.toBe(first);
    // still remembered as valid
    expect(metaSchemaErrors(schema)).toStrictEqual([]);
  });

  it("annotation problems are found in the same walk that copies the schema, with their pointers", () => {
    const schema = { type: "object", properties: { "a/b": { type: "string", title: 3 } }, description: 1 };
    expect(metaSchemaErrors(schema)).toStrictEqual([
      { instancePath: "/description", message: "must be string" },
      { instancePath: "/properties/a~1b/title", message: "must be string" },
    ]);
    expect(bareSchema(schema)).toStrictEqual(withoutAnnotations(schema));
  });
});
