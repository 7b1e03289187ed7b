import { createHash } from "node:crypto";
import type { Dialect } from "./model.ts";
import { TOOL_NAME_RULES } from "./rules.ts";

/** Which tool-name rule of `TOOL_NAME_RULES` each dialect follows. */
export const NAME_RULE = {
  anthropic: "anthropic",
  openai: "openai",
  "openai-strict": "openai",
  gemini: "gemini",
  "gemini-json-schema": "gemini",
} as const satisfies Record<Dialect, keyof typeof TOOL_NAME_RULES>;

const MAX_LENGTH = 64;

/**
 * The name a tool is sent under in a dialect: its own when the dialect's rule accepts it, else
 * one it accepts — other characters become `_` (Gemini: a leading digit or `-` gets a `_` before
 * it), and a name over 64 characters keeps its start and ends with a short hash of the whole
 * name, so different long names stay different. The same name always gives the same result, so
 * the build and the runtime agree on it without a table.
 *
 * @example
 * providerToolName("anthropic", "read.file"); // → "read_file"
 * providerToolName("gemini", "read.file");    // → "read.file"
 */
export function providerToolName(dialect: Dialect, name: string): string {
  const rule = NAME_RULE[dialect];
  if (TOOL_NAME_RULES[rule].test(name)) return name;
  let safe = name.replace(rule === "gemini" ? /[^a-zA-Z0-9_.-]/g : /[^a-zA-Z0-9_-]/g, "_") || "_";
  if (rule === "gemini" && !/^[a-zA-Z_]/.test(safe)) safe = `_${safe}`;
  if (safe.length > MAX_LENGTH) {
    const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
    safe = `${safe.slice(0, MAX_LENGTH - hash.length - 1)}_${hash}`;
  }
  return safe;
}
