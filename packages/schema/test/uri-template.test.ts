import { describe, expect, it } from "vitest";
import {
  compileUriTemplate,
  expandUriTemplate,
  parseUriTemplate,
  type UriTemplateOperator,
} from "../src/uri-template/index.ts";

describe("parseUriTemplate", () => {
  it("reads literals and expressions with their positions and modifiers", () => {
    expect(parseUriTemplate("app://x/{id}{?q,n:3,list*}")).toStrictEqual({
      source: "app://x/{id}{?q,n:3,list*}",
      parts: [
        { kind: "literal", text: "app://x/", at: 0 },
        { kind: "expression", operator: "", variables: [{ name: "id" }], at: 8 },
        {
          kind: "expression",
          operator: "?",
          variables: [{ name: "q" }, { name: "n", prefix: 3 }, { name: "list", explode: true }],
          at: 12,
        },
      ],
      variables: ["id", "q", "n", "list"],
    });
  });

  it.each([
    ["x://{id", `a '{' without its '}' (the expression at 5 is not closed)`, 4],
    ["x://{a{b}", `a '{' without its '}' (the expression at 5 is not closed)`, 4],
    ["x://id}", `a '}' without its '{' at 7 (it closes no expression)`, 6],
    ["x://{}", `an invalid variable "" in {} at 5 (the expression names no variable)`, 4],
    ["x://{a-b}", `an invalid variable "a-b" in {a-b} at 5 (not a variable name)`, 4],
    ["x://{|id}", `the operator "|" of {|id} at 5, reserved by RFC 6570`, 4],
    ["x://a b/{id}", "white space at 6", 5],
  ])("says what is wrong with %s and where", (template, error, at) => {
    expect(parseUriTemplate(template)).toStrictEqual({ error, at });
  });
});

describe("expandUriTemplate and compileUriTemplate().match", () => {
  it("throws on a malformed template instead of skipping a part of it", () => {
    expect(() => expandUriTemplate("x://{a b}", { a: 1 })).toThrow(
      `mcp-gen: the URI template "x://{a b}" has an invalid variable "a b"`,
    );
  });

  it("matches a repeated variable only where its places agree", () => {
    const t = compileUriTemplate("x://{id}/again/{id}");
    expect(t.match("x://7/again/7")).toStrictEqual({ id: "7" });
    expect(t.match("x://7/again/8")).toBeUndefined();
  });
});

/** A small seeded generator (mulberry32): the same cases on every run, many of them. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters a value may hold; every operator encodes what would end its value. */
const ANY = [..."abcXYZ019-._~ /?#[]@!$&'()*+,;=:%é€😀"];
/**
 * What a value of each operator may hold for expansion to be reversible: reserved expansion
 * (`+`, `#`) keeps reserved characters and `%XX` as they are, so its values hold no `%` and, with
 * several variables, no `,`; a label's `.` is unreserved, so it is not encoded and ends a label.
 */
function alphabet(operator: UriTemplateOperator, count: number): string[] {
  if (operator === "+" || operator === "#") return ANY.filter((c) => c !== "%" && (count === 1 || c !== ","));
  if (operator === ".") return ANY.filter((c) => c !== ".");
  return ANY;
}

const OPERATORS: UriTemplateOperator[] = ["", "+", "#", ".", "/", ";", "?", "&"];

describe("property: expanding, then matching, gives the variables back", () => {
  const next = random(6570);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const value = (chars: string[], allowEmpty: boolean) => {
    const length = Math.floor(next() * 6) + (allowEmpty ? 0 : 1);
    return Array.from({ length }, () => pick(chars)).join("");
  };

  it.each(
    OPERATORS.map((operator) => [operator || "simple", operator] as const),
  )("for every operator: %s", (_, operator) => {
    for (let round = 0; round < 300; round++) {
      const count = 1 + Math.floor(next() * 3);
      const names = ["a", "b2", "c_d"].slice(0, count);
      const template = `test://base/x{${operator}${names.join(",")}}`;
      // Named operators (`;`, `?`, `&`) expand an empty value to a name alone; the others to nothing.
      const named = operator === ";" || operator === "?" || operator === "&";
      const values = Object.fromEntries(names.map((n) => [n, value(alphabet(operator, count), named)]));
      const uri = expandUriTemplate(template, values);
      expect({ template, values, matched: compileUriTemplate(template).match(uri) }).toStrictEqual({
        template,
        values,
        matched: values,
      });
    }
  });

  it("for templates of several expressions", () => {
    const template = "test://{a}/{+b}/x{.c}{/d}{;e}{?f,g}{&h}{#i}";
    const t = compileUriTemplate(template);
    for (let round = 0; round < 300; round++) {
      const values = {
        a: value(alphabet("", 1), false),
        b: value(alphabet("+", 1), false).replace(/\/x/g, ""),
        c: value(alphabet(".", 1), false),
        d: value(ANY, false),
        e: value(ANY, true),
        f: value(ANY, true),
        g: value(ANY, true),
        h: value(ANY, true),
        i: value(alphabet("#", 1), false),
      };
      if (values.b === "") values.b = "b";
      const uri = t.expand(values);
      expect({ uri, matched: t.match(uri) }).toStrictEqual({ uri, matched: values });
    }
  });
});
