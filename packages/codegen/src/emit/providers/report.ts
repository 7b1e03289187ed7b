import type { MovedConstraint, RenamedTool } from "@mcp-gen/schema";
import { type BuiltFile, textOf } from "../../write/outputs.ts";

/**
 * One line per server saying what the provider conversion moved or renamed, from the emitted
 * `providers/report.json` files; empty when nothing changed.
 *
 * @example
 * providerSummary(result.outputs.files); // ["smart-home: 4 constraints moved into provider descriptions, 1 tool not strict for OpenAI (generated/smart-home/providers/report.json)"]
 */
export function providerSummary(files: readonly BuiltFile[]): string[] {
  const lines: string[] = [];
  for (const file of files) {
    if (!file.path.endsWith("/providers/report.json")) continue;
    const report = JSON.parse(textOf(file)) as {
      moved: MovedConstraint[];
      strictFallbacks: unknown[];
      renamed: RenamedTool[];
    };
    if (report.moved.length + report.strictFallbacks.length + report.renamed.length === 0) continue;
    const server = file.path.split("/").slice(-3, -2)[0];
    const parts = [];
    if (report.moved.length > 0)
      parts.push(
        `${report.moved.length} constraint${report.moved.length === 1 ? "" : "s"} moved into provider descriptions`,
      );
    if (report.strictFallbacks.length > 0)
      parts.push(
        `${report.strictFallbacks.length} tool${report.strictFallbacks.length === 1 ? "" : "s"} not strict for OpenAI`,
      );
    if (report.renamed.length > 0) {
      const tools = new Set(report.renamed.map((r) => r.tool)).size;
      const dialects = [...new Set(report.renamed.map((r) => r.dialect))].join(", ");
      parts.push(`${tools} tool${tools === 1 ? "" : "s"} renamed for ${dialects}`);
    }
    lines.push(`${server}: ${parts.join(", ")} (${file.path})`);
  }
  return lines;
}
