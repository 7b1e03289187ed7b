import { existsSync } from "node:fs";
import path from "node:path";
import type { Contract } from "@mcp-gen/schema";
import { readContract } from "../contract/read.ts";
import type { ContractChange } from "./diff.ts";
import { diffContracts } from "./diff.ts";

/**
 * One line per change: `breaking      get_sum  /inputSchema/properties/c  new required parameter "c"`.
 * Breaking changes come first.
 */
export function formatChanges(changes: readonly ContractChange[], indent = ""): string {
  const ordered = [...changes.filter((c) => c.breaking), ...changes.filter((c) => !c.breaking)];
  const width = Math.max(0, ...ordered.map((c) => c.tool.length));
  return ordered
    .map((c) => {
      const label = (c.breaking ? "breaking" : "non-breaking").padEnd(12);
      const where = c.pointer ? `${c.pointer}  ` : "";
      return `${indent}${label}  ${c.tool.padEnd(width)}  ${where}${c.message}\n`;
    })
    .join("");
}

/** `2 breaking changes, 1 non-breaking change`. */
export function summarizeChanges(changes: readonly ContractChange[]): string {
  const breaking = changes.filter((c) => c.breaking).length;
  const other = changes.length - breaking;
  const plural = (n: number, word: string) => `${n} ${word} change${n === 1 ? "" : "s"}`;
  return `${plural(breaking, "breaking")}, ${plural(other, "non-breaking")}`;
}

/**
 * The changes of freshly generated contracts against the committed ones (files that do not
 * exist yet, or cannot be read, compare as nothing), for `build --check`.
 */
export function changesAgainstCommitted(
  contracts: readonly { file: string; contract: Contract }[],
  root: string,
): { file: string; changes: ContractChange[] }[] {
  const result: { file: string; changes: ContractChange[] }[] = [];
  for (const { file, contract } of contracts) {
    if (!existsSync(file)) continue;
    let committed: Contract;
    try {
      committed = readContract(file);
    } catch {
      continue;
    }
    const changes = diffContracts(committed, contract);
    if (changes.length > 0)
      result.push({ file: path.relative(root, file).split(path.sep).join("/"), changes });
  }
  return result;
}
