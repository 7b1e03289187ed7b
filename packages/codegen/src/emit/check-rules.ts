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
  const errors = checkMcpRules(ctx.contract).filter(
    (v) => v.severity === "error" && !REPORTED_ELSEWHERE.has(v.rule),
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
