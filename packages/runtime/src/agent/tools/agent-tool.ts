import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Dialect } from "../../providers/dialects.ts";
import type { ToolDefinition } from "../../server/manifest.ts";
import type { Validator } from "../../validation/validator.ts";
import type { SourceContext } from "../context/source-context.ts";

/** What a tool execution may report while it runs (in-process tools with a `ToolContext`). */
export type ToolNotice =
  | { kind: "progress"; progress: number; total?: number; message?: string }
  | { kind: "log"; level: string; data: unknown }
  | { kind: "warning"; message: string };

/** How one call runs. */
export interface AgentToolExecution {
  /** Call id from the model. */
  callId: string;
  /** Aborted when the run is cancelled. */
  signal: AbortSignal;
  /** Time limit in milliseconds; `undefined` for none. */
  timeoutMs: number | undefined;
  notify(notice: ToolNotice): void;
  /**
   * Ends the model's turn with `text` as its answer once this call's step is over (code mode's
   * `final: true`); the model sees this call's result only in a later turn.
   */
  answer?(text: string): void;
}

/** A tool as the agent uses it, whatever its source (in-process manifest, MCP client, submit tool). */
export interface AgentTool {
  /** The tool's own name in its source. */
  readonly name: string;
  readonly definition: ToolDefinition;
  /** Validates canonical arguments; invalid ones never reach `execute`. */
  readonly input: Validator<unknown>;
  /** Checks `structuredContent` (code mode checks results inside programs with it). */
  readonly output?: Validator<unknown>;
  /** A non-object result `T` travels as `structuredContent: { result: T }` (mcp-gen's `resultWrapped`). */
  readonly resultWrapped?: boolean;
  /** The definition in a provider dialect (under the tool's own name), or why the dialect cannot express it. */
  offer(dialect: Dialect): { definition: Record<string, unknown> } | { problem: string };
  /** Maps arguments produced under a dialect back to the canonical input. */
  normalize(dialect: Dialect, args: unknown): unknown;
  /** Runs the tool with validated arguments; failures come back as `isError` results. */
  execute(args: Record<string, unknown>, execution: AgentToolExecution): Promise<CallToolResult>;
}

/** The tools of one source, once loaded. */
export interface LoadedTools {
  tools: AgentTool[];
  /** Problems worth showing (tools a dialect cannot express, schemas that do not compile …). */
  warnings: string[];
  /** What the source says about itself (MCP `instructions`), for router descriptions. */
  description?: string;
}

/**
 * A named set of tools: `localTools(manifest)` (in-process), `mcpTools({ name, … })` (any MCP
 * server). The name is the namespace (`<name>__<tool>`) and the router's `resource`.
 */
export interface ToolSource {
  readonly name: string;
  load(): Promise<LoadedTools>;
  /** Ends what the source opened (child processes, HTTP sessions). */
  close?(): Promise<void>;
  /** Its resources, resource templates and prompts (absent: none), for `attachResource`/`usePrompt`. */
  context?(): Promise<SourceContext>;
}
