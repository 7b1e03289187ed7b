import { LedgerError } from "./errors.ts";

/** ETH has 18 decimals: 1 ETH = 10^18 wei. */
export const DECIMALS = 18;
export const WEI_PER_ETH = 10n ** BigInt(DECIMALS);
/** Upper bound of any amount, balance and of the total supply: the EVM's uint256. */
export const MAX_WEI = 2n ** 256n - 1n;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal ETH amount ("10", "0.5", "1.000000000000000001") into wei, exactly.
 * Refuses anything that is not a plain positive decimal with at most 18 decimals:
 * numbers in exponent notation, signs, spaces, zero, and amounts above uint256.
 *
 * @example
 * parseEth("1.5"); // 1500000000000000000n
 */
export function parseEth(amount: string): bigint {
  if (typeof amount !== "string") {
    throw new LedgerError(
      "INVALID_AMOUNT",
      `amount must be a decimal string such as "10" or "0.5", got ${typeof amount}`,
    );
  }
  const shown = JSON.stringify(amount.length > 40 ? `${amount.slice(0, 40)}…` : amount);
  if (/^\s*-/.test(amount)) {
    throw new LedgerError(
      "INVALID_AMOUNT",
      `amount ${shown} is negative; send a positive amount such as "10"`,
    );
  }
  const match = DECIMAL.exec(amount);
  if (!match) {
    throw new LedgerError(
      "INVALID_AMOUNT",
      `amount ${shown} is not a decimal number; write it with digits and an optional point, such as "10" or "0.25"`,
    );
  }
  const whole = match[1]!;
  const fraction = match[2] ?? "";
  if (fraction.length > DECIMALS) {
    throw new LedgerError(
      "INVALID_AMOUNT",
      `amount ${shown} has ${fraction.length} decimals; ETH has at most ${DECIMALS} (1 wei = 0.000000000000000001)`,
    );
  }
  const wei = BigInt(whole) * WEI_PER_ETH + BigInt(fraction.padEnd(DECIMALS, "0") || "0");
  if (wei === 0n) throw new LedgerError("INVALID_AMOUNT", `amount ${shown} is zero; send more than 0`);
  if (wei > MAX_WEI) throw new LedgerError("INVALID_AMOUNT", `amount ${shown} is larger than uint256 wei`);
  return wei;
}

/**
 * Formats wei as a decimal ETH string without trailing zeros (the inverse of `parseEth`).
 *
 * @example
 * formatEth(1500000000000000000n); // "1.5"
 */
export function formatEth(wei: bigint): string {
  const sign = wei < 0n ? "-" : "";
  const abs = wei < 0n ? -wei : wei;
  const whole = abs / WEI_PER_ETH;
  const fraction = (abs % WEI_PER_ETH).toString().padStart(DECIMALS, "0").replace(/0+$/, "");
  return `${sign}${whole}${fraction ? `.${fraction}` : ""}`;
}
