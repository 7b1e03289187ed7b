import type { ToolAnnotations } from "@modelcontextprotocol/client";
import type { Dialect } from "../../providers/dialects.ts";
import type { ValidationIssue } from "../../validation/describe.ts";
import { AgentError } from "../errors.ts";
import type { AskPolicy, CanUseTool } from "../permission.ts";
import type { AgentTool, ToolSource } from "./agent-tool.ts";
import { type CodeToolOptions, type CodeTools, createCodeTools } from "./code-tool.ts";
import { renamed } from "./dialects.ts";
import { exposedName } from "./names.ts";
import { createRouter, type Router } from "./router.ts";

/** MCP tool annotations (hints): the SDK's type. */
export type { ToolAnnotations };

/** A tool as offered to the model. */
export interface OfferedTool {
  /** The name the model calls it by. */
  readonly exposed: string;
  /** Name of its source (namespace, router `resource`). */
  readonly source: string;
  readonly tool: AgentTool;
  readonly annotations: ToolAnnotations;
  /** A valid call ends the run (the submit tool of `extract()`). */
  readonly terminal?: boolean;
}

/** A call resolved to the tool it targets, with canonical (not yet validated) arguments. */
export type Routed =
  | { ok: true; target: OfferedTool; args: unknown; feedbackPrefix?: string }
  | {
      ok: false;
      reason: "unknown-tool" | "invalid";
      key: string;
      message: string;
      issues: ValidationIssue[];
    };

/** How tools are named and offered. */
export interface ToolsetOptions {
  dialect: Dialect;
  /** `auto`: `<source>__<tool>` when there is more than one source. Default `auto`. */
  namespace?: "auto" | "always" | "never";
  /** Offer one `mcp_query {resource, operation, params}` tool instead of every tool (seed 002). */
  router?: boolean | { name?: string };
  /**
   * Code mode: offer one tool that runs a type-checked program against every tool instead of the
   * tools themselves; destructive calls inside it ask `canUseTool` under the `ask` policy.
   */
  code?: CodeToolOptions & { canUseTool: CanUseTool | undefined; ask: AskPolicy };
  /** Tools offered as they are, outside namespaces and the router (the submit tool). */
  extra?: readonly Omit<OfferedTool, "exposed">[];
}

/** The tools of a run: what the model is offered and how its calls resolve. */
export interface Toolset {
  readonly tools: readonly OfferedTool[];
  /** Definitions in the dialect, as the request's `tools`. */
  readonly definitions: readonly Record<string, unknown>[];
  /** Tools left out or degraded, with the reason. */
  readonly warnings: readonly string[];
  route(name: string, args: unknown): Routed;
  /** Ends what the toolset started (code mode's sandbox). */
  close(): Promise<void>;
}

/**
 * Loads every source and builds the offer: names namespaced and made provider-safe, collisions
 * reported as an error naming both tools, tools a dialect cannot express left out with a warning.
 */
export async function loadToolset(sources: readonly ToolSource[], options: ToolsetOptions): Promise<Toolset> {
  if (options.router && options.code)
    throw new AgentError(
      "tool-collision",
      "router and code mode both replace the tools with one tool: choose one (router: mcp_query calls, code: one program)",
    );
  const seen = new Set<string>();
  for (const s of sources) {
    if (seen.has(s.name)) throw new AgentError("tool-collision", `two tool sources are named "${s.name}"`);
    seen.add(s.name);
  }
  const loaded = await Promise.all(sources.map(async (s) => ({ source: s, loaded: await s.load() })));
  const namespaced = options.namespace === "always" || (options.namespace !== "never" && sources.length > 1);
  const warnings = loaded.flatMap((l) => l.loaded.warnings);
  const tools: OfferedTool[] = [];
  const byName = new Map<string, OfferedTool>();
  const collisions: string[] = [];
  const add = (offered: OfferedTool) => {
    const other = byName.get(offered.exposed);
    if (other) {
      collisions.push(
        `"${other.source}/${other.tool.name}" and "${offered.source}/${offered.tool.name}" are both offered as "${offered.exposed}"`,
      );
      return;
    }
    byName.set(offered.exposed, offered);
    tools.push(offered);
  };
  for (const { source, loaded: l } of loaded)
    for (const tool of l.tools)
      add({
        exposed: exposedName(source.name, tool.name, namespaced),
        source: source.name,
        tool,
        annotations: (tool.definition.annotations ?? {}) as ToolAnnotations,
      });
  for (const extra of options.extra ?? [])
    add({ ...extra, exposed: exposedName("", extra.tool.name, false) });
  if (collisions.length > 0)
    throw new AgentError(
      "tool-collision",
      `tool names collide: ${collisions.join("; ")}. Give the sources other names, or use namespace: "always".`,
    );

  const offered: OfferedTool[] = [];
  const definitions: Record<string, unknown>[] = [];
  for (const t of tools) {
    if ((options.router || options.code) && !t.terminal) {
      offered.push(t);
      continue;
    }
    const offer = t.tool.offer(options.dialect);
    if ("problem" in offer) {
      warnings.push(`tool "${t.exposed}" is not offered to ${options.dialect}: ${offer.problem}`);
      continue;
    }
    offered.push(t);
    definitions.push(renamed(offer.definition, t.exposed));
  }
  let router: Router | undefined;
  if (options.router) {
    const routed = offered.filter((t) => !t.terminal);
    const descriptions = new Map(loaded.map((l) => [l.source.name, l.loaded.description]));
    router = createRouter({
      name: typeof options.router === "object" ? (options.router.name ?? "mcp_query") : "mcp_query",
      tools: routed,
      descriptions,
    });
    const offer = router.tool.offer(options.dialect);
    if ("problem" in offer) throw new AgentError("tool-collision", `the router tool: ${offer.problem}`);
    definitions.unshift(offer.definition);
  }
  let code: CodeTools | undefined;
  if (options.code) {
    const { canUseTool, ask, ...codeOptions } = options.code;
    code = await createCodeTools({
      options: codeOptions,
      tools: offered.filter((t) => !t.terminal),
      canUseTool,
      ask,
    });
    for (const tool of [...code.tools].reverse()) {
      const offer = tool.offer(options.dialect);
      if ("problem" in offer) throw new AgentError("tool-collision", `the code tool: ${offer.problem}`);
      definitions.unshift(offer.definition);
    }
  }
  const direct = new Map(offered.filter((t) => !(router || code) || t.terminal).map((t) => [t.exposed, t]));
  for (const tool of code?.tools ?? [])
    direct.set(tool.name, { exposed: tool.name, source: "code", tool, annotations: {} });
  return {
    tools: offered,
    definitions,
    warnings,
    close: async () => {
      await code?.close();
    },
    route(name, args) {
      const target = direct.get(name);
      if (target) return { ok: true, target, args: target.tool.normalize(options.dialect, args) };
      if (router && name === router.tool.name) return router.route(args);
      const known = [...(router ? [router.tool.name] : []), ...direct.keys()];
      return {
        ok: false,
        reason: "unknown-tool",
        key: name,
        message: `Unknown tool "${name}". Available tools: ${known.join(", ")}.`,
        issues: [],
      };
    },
  };
}
