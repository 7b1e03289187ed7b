import { describe, expect, it } from "vitest";
import { canonicalSchema } from "../src/canonical.ts";
import { escapeToken, mapSubschemas } from "../src/schema-utils.ts";

describe("schema helpers on the build's hot path", () => {
  it("canonicalSchema orders keywords, then unknown ones by name, keeping property and data order", () => {
    const schema = JSON.parse(
      '{"zeta":1,"properties":{"b":{"maxLength":2,"type":"string"},"a":{"type":"number"}},"alpha":true,"required":["b","a"],"type":"object","$defs":{"Y":{"type":"null"},"X":{"type":"null"}}}',
    );
    expect(JSON.stringify(canonicalSchema(schema))).toBe(
      '{"type":"object","properties":{"b":{"type":"string","maxLength":2},"a":{"type":"number"}},"required":["b","a"],"$defs":{"X":{"type":"null"},"Y":{"type":"null"}},"alpha":true,"zeta":1}',
    );
  });

  it("a property named __proto__ stays a property", () => {
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"x":{}}}');
    expect(JSON.stringify(canonicalSchema(schema))).toBe(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"x":{}}}',
    );
    const suffixes: string[] = [];
    const mapped = mapSubschemas(schema.properties ? schema : {}, (sub, suffix) => {
      suffixes.push(suffix);
      return sub;
    });
    expect(JSON.stringify(mapped)).toBe(JSON.stringify(schema));
    expect(suffixes).toStrictEqual(["/properties/__proto__", "/properties/x"]);
  });

  it("escapeToken escapes ~ and / only", () => {
    expect([escapeToken("plain"), escapeToken("a/b~c")]).toStrictEqual(["plain", "a~1b~0c"]);
  });
});
