import { text } from "../content.ts";
import type { ToolContext } from "../context.ts";
import type { ManifestTool, ServerManifest } from "../server/manifest.ts";
import { ToolError } from "../tool-error.ts";
import type { Validator } from "../validation/validator.ts";
import { type CodeMode, type CodeModeServer, codeMode, codeResultText } from "./code-mode.ts";
import type { PermissionRequest, RunLimits } from "./sandbox/types.ts";

/** Options of `withCodeTool()`. */
export interface WithCodeToolOptions {
  /** The server whose tools the program calls (and that serves the code tool). */
  manifest: ServerManifest;
  /** More servers the program can call (MCP clients of `--mcp` servers, other manifests). */
  servers?: readonly CodeModeServer[];
  /** Serve only the code tool (`true`), or the code tool beside the manifest's own tools (default). */
  only?: boolean;
  /**
   * Run destructive calls inside programs without asking when the client cannot be asked (no
   * elicitation). Default `false`: such calls are refused inside the program.
   */
  allowDestructive?: boolean;
  /** Name of the code tool; default `run_program`. */
  name?: string;
  /** The TypeScript compiler API to check with (see `createChecker`). */
  typescript?: unknown;
  /** Reads a library file when the compiler has none on disk (see `createChecker`). */
  readLib?: (fileName: string) => string | undefined;
  limits?: Partial<RunLimits>;
  /**
   * Where programs run (see `SandboxOptions.thread`). Default `"worker"` here: a server must keep
   * answering other requests (and its health check) while a program computes, which a program in
   * the calling thread would hold up to its time limit.
   */
  thread?: "caller" | "worker";
}

/** The manifest with its code tool, and what it owns. */
export interface WithCodeTool {
  manifest: ServerManifest;
  /** Stops the sandbox's worker. */
  close(): Promise<void>;
}

/**
 * A manifest that also serves a code tool: any MCP client sends one program (the tool's
 * description declares every tool of the manifest and of `servers`), which is type-checked and run
 * in the sandbox. The client is the permission hook: a destructive call inside the program asks the
 * user through elicitation; a client that cannot be asked gets it refused unless `allowDestructive`.
 *
 * @example
 * const { manifest: served } = await withCodeTool({ manifest, only: true });
 * await serve(served);
 */
export async function withCodeTool(options: WithCodeToolOptions): Promise<WithCodeTool> {
  const name = options.name ?? "run_program";
  const code = await codeMode({
    servers: [{ manifest: options.manifest }, ...(options.servers ?? [])],
    ...(options.typescript ? { typescript: options.typescript } : {}),
    ...(options.readLib ? { readLib: options.readLib } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    thread: options.thread ?? "worker",
  });
  // a program may call any tool: over HTTP with auth, its caller needs every scope they need
  const scopes = [...new Set(options.manifest.tools.flatMap((t) => t.scopes ?? []))].sort();
  const tool: ManifestTool = {
    ...codeManifestTool({ name, code, allowDestructive: options.allowDestructive === true }),
    ...(scopes.length > 0 ? { scopes } : {}),
  };
  const own = options.only ? [] : options.manifest.tools;
  if (own.some((t) => t.definition.name === name))
    throw new Error(
      `the server "${options.manifest.server}" already has a tool "${name}": give the code tool another name`,
    );
  return {
    manifest: { ...options.manifest, tools: [...own, tool] },
    close: () => code.close(),
  };
}

function codeManifestTool(input: { name: string; code: CodeMode; allowDestructive: boolean }): ManifestTool {
  const { code } = input;
  const destructive = code.servers.some((s) =>
    s.tools.some((t) => t.annotations?.readOnlyHint !== true && t.annotations?.destructiveHint !== false),
  );
  return {
    definition: {
      name: input.name,
      title: "Run a program against the server's tools",
      description: code.description.text,
      inputSchema: {
        type: "object",
        properties: {
          program: {
            type: "string",
            description: "The program: the body of an async function, TypeScript or JavaScript.",
          },
        },
        required: ["program"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: !destructive, destructiveHint: destructive, openWorldHint: true },
    },
    input: programValidator(input.name),
    resultWrapped: false,
    usesContext: true,
    async invoke(args: { program: string }, ctx: ToolContext | undefined) {
      const result = await code.run(args.program, {
        permission: (request) => askClient({ request, ctx, allowDestructive: input.allowDestructive }),
        ...(ctx ? { signal: ctx.signal, context: ctx } : {}),
      });
      if (!result.ok) throw new ToolError(codeResultText(result));
      return text(codeResultText(result));
    },
  };
}

/** The client decides: elicitation where it can ask the user, else the server's `allowDestructive`. */
async function askClient(input: {
  request: PermissionRequest;
  ctx: ToolContext | undefined;
  allowDestructive: boolean;
}): Promise<boolean> {
  const { request, ctx } = input;
  const call = `${request.namespace}.${request.fn}`;
  if (!ctx?.client.capabilities?.elicitation) {
    if (input.allowDestructive) return true;
    throw new Error(
      "the client cannot ask the user (it does not support elicitation) and the server was not started to allow destructive calls (--code-allow-destructive)",
    );
  }
  const answer = await ctx.elicit({
    message: `A program wants to call ${call}, which is destructive, with ${JSON.stringify(request.arguments)}. Allow it?`,
    requestedSchema: {
      type: "object",
      properties: { allow: { type: "boolean", title: `Allow ${call}`, default: false } },
      required: ["allow"],
    },
  });
  if (answer.action === "accept" && answer.content?.allow === true) return true;
  throw new Error(
    answer.action === "accept" ? "the user did not allow it" : `the user answered ${answer.action}`,
  );
}

function programValidator(tool: string): Validator<{ program: string }> {
  const subject = `arguments of tool "${tool}"`;
  const problem = (data: unknown): string | undefined => {
    if (data === null || typeof data !== "object" || Array.isArray(data)) return "must be an object";
    const keys = Object.keys(data);
    if (typeof (data as { program?: unknown }).program !== "string")
      return '"program" is required and must be a string (the program\'s text)';
    const extra = keys.filter((k) => k !== "program");
    return extra.length > 0 ? `has unknown properties ${extra.join(", ")}: send only "program"` : undefined;
  };
  return {
    subject,
    is: (data): data is { program: string } => problem(data) === undefined,
    check(data) {
      const p = problem(data);
      return p === undefined
        ? { ok: true, value: data as { program: string } }
        : { ok: false, issues: [], message: `Invalid ${subject}: ${p}` };
    },
  };
}
