import { createValidator, type RawValidate } from "@mcp-gen/runtime/validation";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { coerceAndCheck } from "../../src/server/coerce.ts";

const acceptAll = createValidator((() => true) as RawValidate, "anything");
const coercions = { n: "number", i: "integer", b: "boolean" } as const;
const read = (strings: Record<string, string>) => coerceAndCheck(strings, coercions, acceptAll, "values");

describe("coerceAndCheck: strings of URI variables and prompt arguments as typed values", () => {
  it("converts numbers, integers and booleans, and leaves other names strings", () => {
    expect(read({ n: "-2.5", i: "1e3", b: "false", s: "42" })).toStrictEqual({
      ok: true,
      value: { n: -2.5, i: 1000, b: false, s: "42" },
    });
    expect(read({ b: "true", i: "-0" })).toStrictEqual({ ok: true, value: { b: true, i: -0 } });
  });

  it("refuses blank text, non-finite numbers, fractions for integers and other booleans, naming each", () => {
    expect(read({ n: "", i: "2.5", b: "TRUE" })).toStrictEqual({
      ok: false,
      message:
        'Invalid values: 3 problems\n- /n: expected a number, received string ""\n' +
        '- /i: expected an integer, received string "2.5"\n- /b: expected "true" or "false", received string "TRUE"',
    });
    for (const text of ["Infinity", "NaN", "1/2", "  "]) {
      expect(read({ n: text }).ok).toBe(false);
    }
  });

  it("then checks the values with the validator, whose message is returned", () => {
    const raw = new Ajv2020({ allErrors: true }).compile({
      type: "object",
      properties: { i: { type: "integer", minimum: 1 } },
      additionalProperties: false,
    }) as RawValidate;
    const validator = createValidator(raw, 'variables of resource template "t"');
    expect(coerceAndCheck({ i: "3" }, coercions, validator, "x")).toStrictEqual({
      ok: true,
      value: { i: 3 },
    });
    const refused = coerceAndCheck({ i: "0" }, coercions, validator, "x");
    expect(refused).toStrictEqual({
      ok: false,
      message: validator.check({ i: 0 }).ok ? "" : (validator.check({ i: 0 }) as { message: string }).message,
    });
    expect(refused.ok ? "" : refused.message).toMatch(
      /^Invalid variables of resource template "t": 1 problem\n- \/i: /,
    );
  });
});
