import {
  type ApiPrompt,
  type ApiResource,
  type ApiResourceTemplate,
  readKey,
} from "@mcp-gen/schema/declarations";
import { expandUriTemplate } from "@mcp-gen/schema/uri-template";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { localToolContext } from "../../agent/tools/local-context.ts";
import { coerceAndCheck } from "../../server/coerce.ts";
import type { ServerManifest } from "../../server/manifest.ts";
import type { ProgramTool } from "./types.ts";

/**
 * Resources, resource templates and prompts as functions of the program (`read_<name>`,
 * `prompt_<name>`; see `ApiResource` in `@mcp-gen/schema/declarations`): bindings keyed by
 * `readKey` (`resource:<name>`, `template:<name>`, `prompt:<name>`). Nothing they do is destructive.
 * A resource resolves to its text (parsed when its MIME type is JSON), its blob as base64, or, in
 * process, the value its function returns; a prompt to its messages.
 */
const value = (v: unknown): CallToolResult => ({ content: [], structuredContent: { result: v ?? null } });

const bound = (call: ProgramTool["call"]): ProgramTool => ({ resultWrapped: true, destructive: false, call });

/** Template variables and prompt arguments travel as strings (a typed value is written as text). */
const strings = (args: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(args)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );

/** What a resource function of a manifest resolves to: a string, a blob as base64, else the value. */
function resourceValue(read: unknown): unknown {
  if (read instanceof Uint8Array)
    return Buffer.from(read.buffer, read.byteOffset, read.byteLength).toString("base64");
  return read;
}

/** A prompt function's result as messages: a string is one user message. */
function promptMessages(got: unknown): unknown {
  return typeof got === "string" ? [{ role: "user", content: { type: "text", text: got } }] : got;
}

/** The read functions of a generated manifest, run in this process (variables and arguments validated first). */
export function bindManifestReads(manifest: ServerManifest): Record<string, ProgramTool> {
  const bindings: Record<string, ProgramTool> = {};
  let calls = 0;
  const context = (name: string, signal: AbortSignal) =>
    localToolContext({
      toolName: name,
      execution: { callId: `code-read-${++calls}`, signal, timeoutMs: undefined, notify: () => {} },
      signal,
    });
  for (const r of manifest.resources ?? []) {
    const { name } = r.definition;
    bindings[readKey({ kind: "resource", name })] = bound(async (_, { signal }) =>
      value(resourceValue(await r.read(r.usesContext ? context(name, signal) : undefined))),
    );
  }
  for (const t of manifest.resourceTemplates ?? []) {
    const { name } = t.definition;
    bindings[readKey({ kind: "template", name })] = bound(async (args, { signal }) => {
      const checked = coerceAndCheck(strings(args), t.coerce, t.variables, `variables of ${name}`);
      if (!checked.ok) throw new Error(checked.message);
      return value(
        resourceValue(await t.read(checked.value, t.usesContext ? context(name, signal) : undefined)),
      );
    });
  }
  for (const p of manifest.prompts ?? []) {
    const { name } = p.definition;
    bindings[readKey({ kind: "prompt", name })] = bound(async (args, { signal }) => {
      const checked = coerceAndCheck(strings(args), p.coerce, p.input, `arguments of prompt ${name}`);
      if (!checked.ok) throw new Error(checked.message);
      return value(
        promptMessages(await p.get(checked.value, p.usesContext ? context(name, signal) : undefined)),
      );
    });
  }
  return bindings;
}

/** The part of an SDK `Client` the read bindings use. */
export interface ReadingPeer {
  readResource(params: { uri: string }, options?: { signal?: AbortSignal }): Promise<unknown>;
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
}

/** Options of `bindClientReads()`. */
export interface BindClientReadsOptions {
  client: ReadingPeer;
  /** The server's `resources/list`, `resources/templates/list` and `prompts/list` (or its contract's). */
  resources?: readonly ApiResource[];
  resourceTemplates?: readonly ApiResourceTemplate[];
  prompts?: readonly ApiPrompt[];
}

type Contents = { contents?: { mimeType?: string; text?: string; blob?: string }[] };

/** The value of a `resources/read` result: its first content's text (JSON parsed) or blob. */
function contentsValue(result: unknown, declaredMime: string | undefined): unknown {
  const first = (result as Contents).contents?.[0];
  if (!first) throw new Error("the server sent no contents");
  if (typeof first.blob === "string") return first.blob;
  const mime = first.mimeType ?? declaredMime ?? "";
  const text = first.text ?? "";
  return /^application\/(?:.+\+)?json\b/.test(mime) ? JSON.parse(text) : text;
}

/**
 * The read functions of an MCP server reached through a client: `resources/read` (a template's
 * URI expanded from the arguments) and `prompts/get`.
 *
 * @example
 * const { resources } = await client.listResources();
 * const reads = bindClientReads({ client, resources });
 */
export function bindClientReads(options: BindClientReadsOptions): Record<string, ProgramTool> {
  const { client } = options;
  const bindings: Record<string, ProgramTool> = {};
  const needs = (what: string, method: keyof ReadingPeer, count: number) => {
    if (count > 0 && typeof client[method] !== "function")
      throw new TypeError(
        `code mode was given ${what} but its client has no ${method}(): pass an MCP Client`,
      );
  };
  needs(
    "resources",
    "readResource",
    (options.resources?.length ?? 0) + (options.resourceTemplates?.length ?? 0),
  );
  needs("prompts", "getPrompt", options.prompts?.length ?? 0);
  for (const r of options.resources ?? [])
    bindings[readKey({ kind: "resource", name: r.name })] = bound(async (_, { signal }) =>
      value(contentsValue(await client.readResource({ uri: r.uri }, { signal }), r.mimeType)),
    );
  for (const t of options.resourceTemplates ?? [])
    bindings[readKey({ kind: "template", name: t.name })] = bound(async (args, { signal }) => {
      const uri = expandUriTemplate(t.uriTemplate, strings(args));
      return value(contentsValue(await client.readResource({ uri }, { signal }), t.mimeType));
    });
  for (const p of options.prompts ?? [])
    bindings[readKey({ kind: "prompt", name: p.name })] = bound(async (args, { signal }) => {
      const got = (await client.getPrompt({ name: p.name, arguments: strings(args) }, { signal })) as {
        messages?: unknown;
      };
      return value(got.messages ?? []);
    });
  return bindings;
}
