import { describe, expect, it } from "vitest";
import { validators } from "../../../generated/smart-home/index.ts";

describe("validation feedback", () => {
  it("accepts valid arguments", () => {
    expect(validators.search_devices.input.check({ query: "客厅 灯", limit: 5 })).toStrictEqual({
      ok: true,
      value: { query: "客厅 灯", limit: 5 },
    });
  });

  it("names pointer, expectation and received value for each problem", () => {
    const result = validators.search_devices.input.check({ limit: "5", extra: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toBe(
      [
        'Invalid arguments of tool "search_devices": 3 problems',
        "- /query: expected this required property, received nothing",
        '- /extra: expected no property "extra" (unknown properties are not allowed: remove it), received boolean true',
        '- /limit: expected an integer, received string "5"',
      ].join("\n"),
    );
  });
});
