import { RESULT_WRAPPED_META } from "@mcp-gen/schema/contract";
import type { ApiTool } from "@mcp-gen/schema/declarations";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { CodeMode, CodeModeServer } from "../../code/code-mode.ts";
import type { PermissionRequest, ProgramTool, RunLimits } from "../../code/sandbox/types.ts";
import type { ToolDefinition } from "../../server/manifest.ts";
import { type AskPolicy, type CanUseTool, needsPermission, noHookDecision } from "../permission.ts";
import type { AgentTool, AgentToolExecution } from "./agent-tool.ts";
import { createSchemaCompiler } from "./compile-schema.ts";
import { convertedDialects, offerOf } from "./dialects.ts";
import type { OfferedTool } from "./toolset.ts";

/** Options of the agent's code mode (`createAgent({ code })`). */
export interface CodeToolOptions {
  /** Name of the code tool; default `run_program`. */
  name?: string;
  /** Name of the lookup tool offered when the declarations are over budget; default `describe_api`. */
  lookupName?: string;
  /** Longest declarations the description carries whole (default 24,000 characters); past it, the index. */
  maxDeclarationChars?: number;
  /** The TypeScript compiler API to check with (see `createChecker`); default `import("typescript")`. */
  typescript?: unknown;
  /** Reads a library file when the compiler has none on disk (see `createChecker`). */
  readLib?: (fileName: string) => string | undefined;
  /** Limits of every program. */
  limits?: Partial<RunLimits>;
  /** Where programs run (see `SandboxOptions.thread`); default `"caller"`: no thread hop per call. */
  thread?: "caller" | "worker";
  /**
   * Let the model end its turn from a program (default `false`): the code tool takes `final: true`,
   * and a program sent with it that runs to completion delivers its return value as the turn's
   * answer (a string as it is, other JSON as text) — the model is not asked again, so a whole
   * task takes one model round trip. The model chooses per program; the description says how.
   */
  finalAnswer?: boolean;
}

/** What the code tool's description adds when the model may end its turn from a program. */
export const FINAL_ANSWER_NOTE =
  "Optional \"final\": true — when the program's return value is your complete answer to the user, send it with final: true: the value (a string as it is, other JSON as text) is then delivered as your reply and your turn ends, without seeing it first. Leave it out to get the value back as this tool's result. A program that fails is never delivered: you get the error as usual.";

/** The code tool (and, for a large API, its lookup) and what they own. */
export interface CodeTools {
  tools: AgentTool[];
  close(): Promise<void>;
}

/**
 * Wraps the offered tools into one code tool whose description carries their declarations (or,
 * over budget, the index and a `describe_api` tool): the model's program is type-checked, then
 * run with the tools as its only capabilities. Type errors, runtime errors and permission
 * refusals come back as the tool's error result; destructive calls inside the program ask
 * `canUseTool`, as plain calls do.
 */
export async function createCodeTools(input: {
  options: CodeToolOptions;
  tools: readonly OfferedTool[];
  canUseTool: CanUseTool | undefined;
  ask: AskPolicy;
}): Promise<CodeTools> {
  const { codeMode, codeResultText } = await import("../../code/code-mode.ts");
  const { options } = input;
  const name = options.name ?? "run_program";
  const lookupName = options.lookupName ?? "describe_api";
  const bySource = new Map<string, OfferedTool[]>();
  for (const t of input.tools) bySource.set(t.source, [...(bySource.get(t.source) ?? []), t]);
  const byCall = new Map<string, OfferedTool>();
  const servers: CodeModeServer[] = [...bySource].map(([source, tools]) => ({
    name: source,
    // a local tool's definition does not carry the wrap its manifest entry does: the declarations need it
    tools: tools.map((t) => ({
      ...(t.tool.definition as unknown as ApiTool),
      ...(isWrapped(t) ? { resultWrapped: true } : {}),
    })),
    bindings: Object.fromEntries(tools.map((t) => [t.tool.name, binding(t, input.ask)])),
  }));
  const code: CodeMode = await codeMode({
    servers,
    ...(options.typescript ? { typescript: options.typescript } : {}),
    ...(options.readLib ? { readLib: options.readLib } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.thread ? { thread: options.thread } : {}),
    ...(options.maxDeclarationChars !== undefined
      ? { maxDeclarationChars: options.maxDeclarationChars }
      : {}),
    lookup: lookupName,
  });
  // the sandbox's `namespace.fn` back to the offered tool, by the identifier rule's names
  const { apiNames } = await import("@mcp-gen/schema/declarations");
  const names = apiNames(code.servers);
  for (const [source, tools] of bySource) {
    const n = names.get(source)!;
    for (const t of tools) byCall.set(`${n.namespace}.${n.tools.get(t.tool.name)}`, t);
  }
  const permission = (execution: AgentToolExecution) => async (request: PermissionRequest) => {
    const target = byCall.get(`${request.namespace}.${request.fn}`)!;
    const decision = input.canUseTool
      ? await input.canUseTool(target.exposed, request.arguments, target.annotations, {
          callId: execution.callId,
          source: target.source,
          tool: target.tool.name,
          signal: execution.signal,
        })
      : noHookDecision(target.exposed);
    if (decision.behavior === "deny") throw new Error(decision.reason);
    if ("args" in decision)
      throw new Error("the permission hook changed the arguments, which a program's call cannot take");
    return true;
  };
  const described =
    code.description.form === "index"
      ? `${code.description.text}\n${lookupName} is a tool beside this one, not a function of the program: call it first.`
      : code.description.text;
  const programTool = agentTool({
    name,
    description: options.finalAnswer ? `${described}\n${FINAL_ANSWER_NOTE}` : described,
    properties: {
      program: {
        type: "string",
        description: "The program: the body of an async function, TypeScript or JavaScript.",
      },
      ...(options.finalAnswer
        ? {
            final: {
              type: "boolean",
              description:
                "true: the program's return value is your final answer to the user and ends your turn.",
            },
          }
        : {}),
    },
    required: ["program"],
    execute: async (args, execution) => {
      const result = await code.run(String(args.program), {
        permission: permission(execution),
        signal: execution.signal,
        // the agent's time limit of the code tool bounds the whole program
        ...(execution.timeoutMs !== undefined
          ? { limits: { timeMs: Math.min(execution.timeoutMs, options.limits?.timeMs ?? Infinity) } }
          : {}),
      });
      // each call the program made, for the trace (`tool-log` events of the code tool's call)
      for (const c of result.calls)
        execution.notify({
          kind: "log",
          level: c.outcome === "ok" ? "info" : "warning",
          data: `${c.tool} ${JSON.stringify(c.arguments)} → ${c.outcome} (${Math.round(c.ms)} ms)`,
        });
      if (result.ok && options.finalAnswer && args.final === true)
        execution.answer?.(
          typeof result.value === "string" ? result.value : JSON.stringify(result.value ?? null, null, 2),
        );
      return { content: [{ type: "text", text: codeResultText(result) }], isError: !result.ok };
    },
  });
  const tools = [programTool];
  if (code.description.form === "index")
    tools.push(
      agentTool({
        name: lookupName,
        description:
          `The TypeScript declarations of the functions ${name} programs can call: query "namespace" for a ` +
          `server's, "namespace.function" for one, "namespace.prefix*" for those starting with prefix.`,
        properties: { query: { type: "string", description: 'e.g. "ledger" or "ledger.transfer_eth"' } },
        required: ["query"],
        execute: async (args) => {
          const found = code.describe(String(args.query));
          return found.ok
            ? { content: [{ type: "text", text: found.declarations }] }
            : { content: [{ type: "text", text: found.error }], isError: true };
        },
      }),
    );
  return { tools, close: () => code.close() };
}

/** The tool sends a non-object result as `{ result }`: its manifest says so, or its listing's `_meta`. */
function isWrapped(t: OfferedTool): boolean {
  const meta = t.tool.definition._meta as Record<string, unknown> | undefined;
  return t.tool.resultWrapped ?? meta?.[RESULT_WRAPPED_META] === true;
}

/** How a program's call of an offered tool runs: its validator, the agent's policy, its execute. */
function binding(t: OfferedTool, ask: AskPolicy): ProgramTool {
  let calls = 0;
  return {
    input: t.tool.input,
    ...(t.tool.output ? { output: t.tool.output } : {}),
    ...(isWrapped(t) ? { resultWrapped: true } : {}),
    destructive: needsPermission(t.annotations, ask),
    call: (args, { signal }) =>
      t.tool.execute(args, {
        callId: `code-${t.exposed}-${++calls}`,
        signal,
        timeoutMs: undefined,
        notify: () => {},
      }),
  };
}

function agentTool(spec: {
  name: string;
  description: string;
  properties: Record<string, unknown>;
  required: string[];
  execute(args: Record<string, unknown>, execution: AgentToolExecution): Promise<CallToolResult>;
}): AgentTool {
  const definition: ToolDefinition = {
    name: spec.name,
    description: spec.description,
    inputSchema: {
      type: "object",
      properties: spec.properties,
      required: spec.required,
      additionalProperties: false,
    },
  };
  const input = createSchemaCompiler()(definition.inputSchema, `arguments of tool "${spec.name}"`).validator;
  const dialects = convertedDialects("code", [definition]);
  return {
    name: spec.name,
    definition,
    input,
    offer: (dialect) => offerOf(dialects, dialect, spec.name),
    normalize: (dialect, args) => dialects.normalize(dialect, spec.name, args),
    execute: spec.execute,
  };
}
