import { diagnostic, McpGenError } from "@mcp-gen/schema";
import { checkMcpRules } from "../lint/rules/mcp.ts";
import type { EmitContext } from "./context.ts";
import type { OutputFile } from "./writer.ts";

/** Rules other steps already report with their own codes (contract shape, schema compilation). */
const REPORTED_ELSEWHERE = new Set([
  "mcp/json-schema",
  "mcp/input-schema-object",
  "mcp/output-schema-object",
]);

/**
 * The MCP tool rules `mcp-gen lint` checks, run by the build before anything is emitted: a
 * broken rule (unresolvable `$ref`, annotation of the wrong type, duplicate name …) stops the build.
 * Emits no file.
 */
export function checkRules(ctx: EmitContext): OutputFile[] {
  // A server in the field may declare headers wrongly: its pulled contract is still recorded as
  // is, with a warning (2026-07-28 clients leave such a tool out); one built here must be fixed.
  const fromTypeScript = Object.values(ctx.contract["x-mcp-gen"]?.tools ?? {}).some((t) => t.binding);
  const violations = checkMcpRules(ctx.contract);
  for (const v of violations) {
    if (v.rule === "mcp/x-mcp-header" && !fromTypeScript) {
      ctx.warnings.push(
        diagnostic("MCPG061", `[${v.rule}] ${v.message}; 2026-07-28 clients leave this tool out`, {
          file: ctx.contractFile,
          pointer: v.pointer,
          severity: "warning",
        }),
      );
    }
  }
  const errors = violations.filter(
    (v) =>
      v.severity === "error" &&
      !REPORTED_ELSEWHERE.has(v.rule) &&
      (fromTypeScript || v.rule !== "mcp/x-mcp-header"),
  );
  if (errors.length > 0) {
    throw new McpGenError(
      errors.map((v) =>
        diagnostic("MCPG061", `[${v.rule}] ${v.message}`, { file: ctx.contractFile, pointer: v.pointer }),
      ),
    );
  }
  return [];
}
