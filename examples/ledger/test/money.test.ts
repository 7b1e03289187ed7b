import { describe, expect, it } from "vitest";
import { formatEth, LedgerError, MAX_WEI, parseEth } from "../service/index.ts";
import { createRandom } from "./support/random.ts";

describe("exact ETH amounts", () => {
  it.each([
    ["1", 10n ** 18n],
    ["0.5", 5n * 10n ** 17n],
    ["0.000000000000000001", 1n],
    ["007.10", 7_100_000_000_000_000_000n],
    ["123456789012345678901234567890.123456789012345678", 123456789012345678901234567890123456789012345678n],
    ["115792089237316195423570985008687907853269984665640564039457.584007913129639935", MAX_WEI],
  ])("parses %s into wei", (amount, wei) => {
    expect(parseEth(amount)).toBe(wei);
  });

  it.each([
    ["-1", "negative"],
    ["0", "zero"],
    ["0.000000000000000000", "zero"],
    ["1.0000000000000000001", "has 19 decimals"],
    ["1e18", "not a decimal number"],
    ["1.", "not a decimal number"],
    [".5", "not a decimal number"],
    ["+1", "not a decimal number"],
    ["1_000", "not a decimal number"],
    ["１", "not a decimal number"],
    ["NaN", "not a decimal number"],
    [
      "115792089237316195423570985008687907853269984665640564039457.584007913129639936",
      "larger than uint256",
    ],
  ])("refuses %s (%s)", (amount, reason) => {
    expect(() => parseEth(amount)).toThrow(LedgerError);
    expect(() => parseEth(amount)).toThrow(reason);
  });

  it("formats wei back without trailing zeros", () => {
    expect([0n, 1n, 10n ** 18n, 15n * 10n ** 17n, -25n * 10n ** 16n, MAX_WEI].map(formatEth)).toStrictEqual([
      "0",
      "0.000000000000000001",
      "1",
      "1.5",
      "-0.25",
      "115792089237316195423570985008687907853269984665640564039457.584007913129639935",
    ]);
  });

  it("round-trips random wei values exactly", () => {
    const random = createRandom(7);
    for (let i = 0; i < 1000; i++) {
      const digits = 1 + random.int(60);
      const wei = BigInt(Array.from({ length: digits }, () => random.int(10)).join("")) + 1n;
      expect(parseEth(formatEth(wei))).toBe(wei);
    }
  });
});
