import type { ValidationIssue } from "./describe.ts";

/**
 * Renders issues as text a person or an LLM can act on, one line per issue:
 * `- /limit: expected an integer, received string "5"`.
 */
export function formatIssues(issues: readonly ValidationIssue[], subject: string): string {
  const lines = issues.map(
    (i) => `- ${i.pointer || "(root)"}: expected ${i.expected}, received ${i.received}`,
  );
  const noun = issues.length === 1 ? "problem" : "problems";
  return `${subject}: ${issues.length} ${noun}\n${lines.join("\n")}`;
}
