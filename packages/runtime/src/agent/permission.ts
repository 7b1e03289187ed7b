import type { ToolAnnotations } from "./tools/toolset.ts";

/** What the permission hook decides for one call. */
export type PermissionDecision =
  | { behavior: "allow" }
  /** Run with these arguments instead (they are validated again). */
  | { behavior: "allow"; args: Record<string, unknown> }
  /** Do not run; the model reads the reason as the tool's error result. */
  | { behavior: "deny"; reason: string };

/** Details of the call a permission is asked for. */
export interface PermissionContext {
  callId: string;
  /** Source (server) of the tool and its own name there. */
  source: string;
  tool: string;
  signal: AbortSignal;
}

/**
 * Seed 003's control channel as a hook: asked before a tool runs (by default only for tools
 * annotated `destructiveHint: true`), with validated arguments. May take as long as it needs —
 * a web page can wait for the user's click.
 *
 * @example
 * const canUseTool: CanUseTool = (name, args) =>
 *   name === "transfer_eth" && Number(args.amount) > 100
 *     ? { behavior: "deny", reason: "transfers above 100 need a human" }
 *     : { behavior: "allow" };
 */
export type CanUseTool = (
  name: string,
  args: Record<string, unknown>,
  annotations: ToolAnnotations,
  context: PermissionContext,
) => PermissionDecision | Promise<PermissionDecision>;

/** Which calls ask the hook: destructive tools (default), every tool, or none. */
export type AskPolicy = "destructive" | "all" | "never";

/** Whether a call of a tool with these annotations asks first. */
export function needsPermission(annotations: ToolAnnotations, policy: AskPolicy): boolean {
  if (policy === "all") return true;
  if (policy === "never") return false;
  return annotations.destructiveHint === true && annotations.readOnlyHint !== true;
}

/** Allows every call (what `mcp-gen chat --yes` uses). */
export const allowAll: CanUseTool = () => ({ behavior: "allow" });

/** The decision when a call needs permission and no hook is configured. */
export function noHookDecision(name: string): PermissionDecision {
  return {
    behavior: "deny",
    reason: `Tool "${name}" is destructive and needs the user's permission, and no permission hook (canUseTool) is configured, so it was not run.`,
  };
}
