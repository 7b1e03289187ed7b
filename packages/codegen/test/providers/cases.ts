import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Contract, Target } from "@mcp-gen/schema";
import { readContract } from "../../src/contract/read.ts";

const TEST = path.resolve(import.meta.dirname, "..");
export const CONTRACT_FIXTURES = path.join(TEST, "fixtures/contracts");

/** One contract the provider tests run over. */
export interface ContractCase {
  /** `kitchen-sink` for a hand-written contract, `ts-<case>` for the golden contract of a TypeScript fixture. */
  name: string;
  contract: Contract;
  /** Targets that can express it (the errors are tested elsewhere); absent: all. */
  targets?: Target[];
}

const TARGETS: Record<string, Target[]> = {};

/**
 * The hand-written contracts of `fixtures/contracts/` and the golden contract of every TypeScript
 * fixture (`fixtures/<case>/expected/contract.json`): the fixture corpus of the provider tests.
 */
export function contractCases(): ContractCase[] {
  const handWritten = readdirSync(CONTRACT_FIXTURES)
    .filter((f) => f.endsWith(".tools.json"))
    .sort()
    .map((f) => {
      const name = f.slice(0, -".tools.json".length);
      const targets = TARGETS[name];
      return {
        name,
        contract: readContract(path.join(CONTRACT_FIXTURES, f)),
        ...(targets ? { targets } : {}),
      };
    });
  const fromTypeScript = readdirSync(path.join(TEST, "fixtures"))
    .filter((d) => existsSync(path.join(TEST, "fixtures", d, "expected/contract.json")))
    .sort()
    .map((d) => ({
      name: `ts-${d}`,
      contract: readContract(path.join(TEST, "fixtures", d, "expected/contract.json")),
    }));
  return [...handWritten, ...fromTypeScript];
}
