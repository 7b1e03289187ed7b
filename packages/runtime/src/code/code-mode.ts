import {
  type ApiPrompt,
  type ApiResource,
  type ApiResourceTemplate,
  type ApiServer,
  type ApiTool,
  apiNames,
  type CodeToolDescription,
  codeToolDescription,
  type Described,
  describeApi,
} from "@mcp-gen/schema/declarations";
import type { ToolContext } from "../context.ts";
import type { ServerManifest } from "../server/manifest.ts";
import { type CheckDiagnostic, createChecker } from "./check/checker.ts";
import { type BindClientToolsOptions, bindClientTools, bindManifest } from "./sandbox/bindings.ts";
import { type BindClientReadsOptions, bindClientReads, bindManifestReads } from "./sandbox/read-bindings.ts";
import { createSandbox } from "./sandbox/sandbox.ts";
import type {
  LogEntry,
  PermissionRequest,
  ProgramApi,
  ProgramCallRecord,
  ProgramTool,
  RunError,
  RunLimits,
} from "./sandbox/types.ts";

/**
 * One server of a code-mode API: a generated manifest run in this process, an MCP client, or
 * bindings of your own (by the tools' original names) with the tools they bind.
 */
export type CodeModeServer =
  | { manifest: ServerManifest; name?: string }
  | { name: string; tools: readonly ApiTool[]; bindings: Readonly<Record<string, ProgramTool>> }
  | (BindClientToolsOptions &
      Omit<BindClientReadsOptions, "client"> & {
        /** The namespace's source name (a server name such as `smart-home` or `memory`). */
        name: string;
        /** Its `tools/list` (with input and output schemas: they become the declarations). */
        tools: readonly ApiTool[];
      });

/** Options of `codeMode()`. */
export interface CodeModeOptions {
  servers: readonly CodeModeServer[];
  /** The TypeScript compiler API to check with (see `createChecker`); default `import("typescript")`. */
  typescript?: unknown;
  /** Reads a library file by name when the compiler has none on disk (see `createChecker`). */
  readLib?: (fileName: string) => string | undefined;
  /** Limits of every run. */
  limits?: Partial<RunLimits>;
  /** Where the sandbox's engine runs (see `SandboxOptions.thread`); default `"caller"`. */
  thread?: "caller" | "worker";
  /** Longest declarations the tool description carries whole (see `codeToolDescription`). */
  maxDeclarationChars?: number;
  /** The lookup the index names (a tool beside the code tool); default `describe_api`. */
  lookup?: string;
}

/** Options of one `run`. */
export interface CodeModeRunOptions {
  /** Asked before each destructive call; without it, destructive calls are refused inside the program. */
  permission?: (request: PermissionRequest) => boolean | Promise<boolean>;
  signal?: AbortSignal;
  limits?: Partial<RunLimits>;
  /** The context of the call that runs the program (see `ProgramRunOptions.context`). */
  context?: ToolContext;
}

/** What a program did: checked and run (`ok`), refused by the check (`diagnostics`), or failed while running. */
export type CodeModeResult =
  | { ok: true; value: unknown; logs: LogEntry[]; calls: ProgramCallRecord[]; diagnostics: [] }
  | {
      ok: false;
      /** Type errors: the program never ran, so `calls` is empty. */
      diagnostics: CheckDiagnostic[];
      /** Why the run failed (absent when the check refused the program). */
      error?: RunError;
      /** What went wrong, worded for the model that wrote the program. */
      message: string;
      logs: LogEntry[];
      calls: ProgramCallRecord[];
    };

/** A warm code mode over a set of servers: one checker and one sandbox for every program. */
export interface CodeMode {
  /** The code tool's description: the program's form and the declarations (or the index). */
  readonly description: CodeToolDescription;
  /** The servers as the declarations show them. */
  readonly servers: readonly ApiServer[];
  /** Type-checks the program, then (only when it checks) runs it in the sandbox. */
  run(program: string, options?: CodeModeRunOptions): Promise<CodeModeResult>;
  /** The declarations of one server or tool (`"ledger"`, `"ledger.transfer_eth"`), for the index form. */
  describe(query: string): Described;
  /** Stops the sandbox's worker. */
  close(): Promise<void>;
}

/**
 * Check-then-run in one call for a set of servers (manifests in process, MCP clients), with one
 * warm checker and sandbox. An ill-typed program makes no call.
 *
 * @example
 * const code = await codeMode({ servers: [{ manifest: createManifest({ LedgerTools: tools }) }] });
 * const r = await code.run('return await ledger.get_balance({ address: "alice" });');
 * if (r.ok) console.log(r.value); else console.log(r.message); // "1:… " for a type error
 */
export async function codeMode(options: CodeModeOptions): Promise<CodeMode> {
  const servers = options.servers.map(apiServerOf);
  const names = apiNames(servers);
  const api: Record<string, Record<string, ProgramTool>> = {};
  options.servers.forEach((server, i) => {
    const apiServer = servers[i]!;
    const n = names.get(apiServer.name)!;
    const bound =
      "manifest" in server
        ? { ...bindManifest(server.manifest), ...bindManifestReads(server.manifest) }
        : "bindings" in server
          ? server.bindings
          : {
              ...bindClientTools({
                client: server.client,
                tools: server.tools,
                ...(server.specs ? { specs: server.specs } : {}),
                ...(server.relay ? { relay: server.relay } : {}),
              }),
              ...bindClientReads({
                ...apiServer,
                client: server.client as unknown as BindClientReadsOptions["client"],
              }),
            };
    // tools by name, resources and prompts by `readKey`
    api[n.namespace] = Object.fromEntries(
      Object.entries(bound).map(([key, binding]) => [n.tools.get(key) ?? n.reads.get(key) ?? key, binding]),
    );
  });
  const checker = await createChecker({
    servers,
    ...(options.typescript ? { typescript: options.typescript } : {}),
    ...(options.readLib ? { readLib: options.readLib } : {}),
  });
  const sandbox = createSandbox({
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.thread ? { thread: options.thread } : {}),
  });
  const description = codeToolDescription(servers, {
    ...(options.maxDeclarationChars !== undefined
      ? { maxDeclarationChars: options.maxDeclarationChars }
      : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
  return {
    description,
    servers,
    describe: (query) => describeApi(servers, query),
    close: () => sandbox.close(),
    async run(program, runOptions = {}) {
      const checked = checker.check(program);
      if (!checked.ok)
        return {
          ok: false,
          diagnostics: checked.diagnostics,
          message: `The program did not type-check, so nothing ran:\n${checked.message}`,
          logs: [],
          calls: [],
        };
      const result = await sandbox.run(checked.js, {
        api: api as ProgramApi,
        ...(runOptions.permission ? { permission: runOptions.permission } : {}),
        ...(runOptions.signal ? { signal: runOptions.signal } : {}),
        ...(runOptions.context ? { context: runOptions.context } : {}),
        ...(runOptions.limits ? { limits: runOptions.limits } : {}),
      });
      if (result.ok) return { ...result, diagnostics: [] };
      const at =
        result.error.line !== undefined ? ` at ${result.error.line}:${result.error.column ?? 1}` : "";
      const name = result.error.name ? `${result.error.name}: ` : "";
      return {
        ok: false,
        diagnostics: [],
        error: result.error,
        message: `The program failed${at}: ${name}${result.error.message}`,
        logs: result.logs,
        calls: result.calls,
      };
    },
  };
}

function apiServerOf(server: CodeModeServer): ApiServer {
  if ("manifest" in server) {
    const m = server.manifest;
    return {
      name: server.name ?? m.server,
      tools: m.tools.map((t) => ({
        ...(t.definition as unknown as ApiTool),
        ...(t.resultWrapped ? { resultWrapped: true } : {}),
      })),
      ...readsOf(m),
    };
  }
  const { name, tools, resources, resourceTemplates, prompts } = server as ApiServer;
  return {
    name,
    tools,
    ...(resources ? { resources } : {}),
    ...(resourceTemplates ? { resourceTemplates } : {}),
    ...(prompts ? { prompts } : {}),
  };
}

/** A manifest's resources, templates and prompts as their definitions declare them (variables as strings). */
function readsOf(m: ServerManifest): Pick<ApiServer, "resources" | "resourceTemplates" | "prompts"> {
  const list = <T>(items: readonly { definition: unknown }[] | undefined) =>
    items && items.length > 0 ? items.map((i) => i.definition as T) : undefined;
  const resources = list<ApiResource>(m.resources);
  const resourceTemplates = list<ApiResourceTemplate>(m.resourceTemplates);
  const prompts = list<ApiPrompt>(m.prompts);
  return {
    ...(resources ? { resources } : {}),
    ...(resourceTemplates ? { resourceTemplates } : {}),
    ...(prompts ? { prompts } : {}),
  };
}

/**
 * A result as the model reads it: the value as JSON, the logs, each call that did not succeed, and
 * the message of a failure.
 */
export function codeResultText(result: CodeModeResult): string {
  const parts: string[] = [];
  if (result.ok) parts.push(JSON.stringify(result.value ?? null));
  else parts.push(result.message);
  if (result.logs.length > 0)
    parts.push(
      `console:\n${result.logs.map((l) => (l.level === "log" ? l.text : `[${l.level}] ${l.text}`)).join("\n")}`,
    );
  const failed = result.calls.filter((c) => c.outcome !== "ok");
  if (failed.length > 0)
    parts.push(
      `calls that failed:\n${failed.map((c) => `${c.tool} (${c.outcome}): ${c.error ?? ""}`).join("\n")}`,
    );
  return parts.join("\n\n");
}
