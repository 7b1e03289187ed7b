import { RESULT_WRAPPED_META } from "@mcp-gen/schema/contract";
import type {
  CallToolResult,
  Implementation,
  ProtocolEra,
  ServerCapabilities,
} from "@modelcontextprotocol/server";
import { TASKS_EXTENSION } from "../tasks-extension.ts";
import { type Target, toolTarget } from "./call-tool.ts";
import { type ManifestPrompt, type ManifestTool, type ServerManifest, taskSupportOf } from "./manifest.ts";
import type { McpGenServerOptions } from "./options.ts";

/** The listings of one era, each a ready list result (`tools/list` …). */
export interface Listings {
  tools: object;
  resources: object;
  resourceTemplates: object;
  prompts: object;
}

/** What a factory serves from one manifest, computed once: lookups, listings, capabilities. */
export interface Catalog {
  readonly info: Implementation;
  /** What a 2025 server advertises (`initialize`). */
  readonly capabilities: ServerCapabilities;
  /** What a 2026-07-28 server advertises (`server/discover`): tasks as an extension. */
  readonly modernCapabilities: ServerCapabilities;
  readonly tools: ReadonlyMap<string, ManifestTool>;
  /** Each tool as an invocation target, built once. */
  readonly targets: ReadonlyMap<string, Target<CallToolResult>>;
  /**
   * What the manifest uses beyond plain tools (`features.ts` loads the modules of these only);
   * `context`: a tool, resource or prompt takes a context.
   */
  readonly uses: {
    resources: boolean;
    prompts: boolean;
    completions: boolean;
    tasks: boolean;
    context: boolean;
  };
  readonly prompts: ReadonlyMap<string, ManifestPrompt>;
  readonly listings: { readonly legacy: Listings; readonly modern: Listings };
  /**
   * Whether a request of this method is served to a client of `era` (its capability is
   * advertised; `resources/subscribe` and `unsubscribe` are 2025 methods).
   */
  serves(method: string, era: ProtocolEra): boolean;
}

/**
 * Capabilities are advertised only for what the manifest has: `resources` (with `subscribe`;
 * 2026-07-28 clients use it to ask for updates on `subscriptions/listen`), `prompts`,
 * `completions` (when a prompt argument or template variable has a completer); `listChanged`
 * with the server option.
 */
export function catalogOf(manifest: ServerManifest, options: McpGenServerOptions): Catalog {
  const listChanged = options.listChanged ? { listChanged: true } : {};
  const resources = manifest.resources ?? [];
  const templates = manifest.resourceTemplates ?? [];
  const prompts = manifest.prompts ?? [];
  const hasResources = resources.length > 0 || templates.length > 0;
  const hasPrompts = prompts.length > 0;
  const hasCompletions = hasCompleters([...prompts, ...templates]);
  const capabilities: ServerCapabilities = {
    tools: { ...listChanged },
    logging: {},
    ...(hasResources ? { resources: { subscribe: true, ...listChanged } } : {}),
    ...(hasPrompts ? { prompts: { ...listChanged } } : {}),
    ...(hasCompletions ? { completions: {} } : {}),
  };
  const hasTasks = manifest.tools.some((t) => taskSupportOf(t) !== undefined);
  const served = new Set(["tools/list", "tools/call"]);
  if (hasTasks) for (const m of ["get", "result", "list", "cancel", "update"]) served.add(`tasks/${m}`);
  if (hasResources) {
    for (const m of ["list", "templates/list", "read", "subscribe", "unsubscribe"])
      served.add(`resources/${m}`);
  }
  if (hasPrompts) served.add("prompts/list").add("prompts/get");
  if (hasCompletions) served.add("completion/complete");
  const cache = options.listCache
    ? { ttlMs: options.listCache.ttlMs, cacheScope: options.listCache.scope ?? "private" }
    : {};
  const shared = {
    resources: { resources: resources.map((r) => r.definition) },
    resourceTemplates: { resourceTemplates: templates.map((t) => t.definition) },
    prompts: { prompts: prompts.map((p) => p.definition) },
  };
  return {
    info: {
      name: manifest.server,
      version: options.version ?? manifest.version ?? "0.0.0",
      ...(manifest.title !== undefined ? { title: manifest.title } : {}),
      ...(manifest.icons !== undefined ? { icons: manifest.icons.map((i) => ({ ...i }) as never) } : {}),
    },
    capabilities: hasTasks
      ? { ...capabilities, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }
      : capabilities,
    modernCapabilities: hasTasks ? { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } } : capabilities,
    tools: new Map(manifest.tools.map((t) => [t.definition.name, t])),
    targets: new Map(manifest.tools.map((t) => [t.definition.name, toolTarget(t)])),
    uses: {
      resources: hasResources,
      prompts: hasPrompts,
      completions: hasCompletions,
      tasks: hasTasks,
      context: [...manifest.tools, ...resources, ...templates, ...prompts].some((t) => t.usesContext),
    },
    prompts: new Map(prompts.map((p) => [p.definition.name, p])),
    listings: {
      legacy: { tools: legacyTools(manifest), ...shared },
      modern: {
        tools: { ...modernTools(manifest), ...cache },
        resources: { ...shared.resources, ...cache },
        resourceTemplates: { ...shared.resourceTemplates, ...cache },
        prompts: { ...shared.prompts, ...cache },
      },
    },
    serves: (method, era) =>
      served.has(method) && !(era === "legacy" ? MODERN_ONLY : LEGACY_ONLY).has(method),
  };
}

/** Whether any prompt argument or template variable of these has a completer. */
function hasCompleters(entries: readonly { complete?: { readonly [name: string]: unknown } }[]): boolean {
  return entries.some((e) => e.complete !== undefined && Object.keys(e.complete).length > 0);
}

/** Methods of the 2025 revisions that 2026-07-28 removed (clients listen instead; a task's result is in `tasks/get`). */
const LEGACY_ONLY = new Set(["resources/subscribe", "resources/unsubscribe", "tasks/result", "tasks/list"]);

/** Methods of the 2026-07-28 tasks extension only. */
const MODERN_ONLY = new Set(["tasks/update"]);

/** 2025 clients: structured results of non-object type travel wrapped, as `{ result }`. */
function legacyTools(manifest: ServerManifest): { tools: unknown[] } {
  return {
    tools: manifest.tools.map((t) =>
      t.resultWrapped
        ? {
            ...t.definition,
            // A wrapped result is marked in _meta, so `mcp-gen pull` from this server unwraps it as well.
            _meta: { ...(t.definition._meta as object | undefined), [RESULT_WRAPPED_META]: true },
          }
        : t.definition,
    ),
  };
}

/** 2026-07-28 clients: `structuredContent` may be any JSON value, so results go out as themselves. */
function modernTools(manifest: ServerManifest): { tools: unknown[] } {
  return {
    tools: manifest.tools.map((t) =>
      t.resultWrapped && t.definition.outputSchema
        ? { ...t.definition, outputSchema: unwrapSchema(t.definition.outputSchema) }
        : t.definition,
    ),
  };
}

/**
 * The schema of `result` in a wrapped output schema, as a root schema of its own: definitions
 * of the wrapper (`$defs`, `definitions`) move along so `$ref`s keep resolving.
 */
export function unwrapSchema(wrapped: { readonly [keyword: string]: unknown }): Record<string, unknown> {
  const properties = wrapped.properties as Record<string, Record<string, unknown>> | undefined;
  const inner = properties?.result;
  if (!inner) return { ...wrapped };
  const root: Record<string, unknown> = {};
  if (typeof wrapped.$schema === "string") root.$schema = wrapped.$schema;
  Object.assign(root, unwrapRefs(inner, false) as object);
  for (const key of ["$defs", "definitions"]) {
    if (wrapped[key] !== undefined) root[key] = { ...(wrapped[key] as object), ...(root[key] as object) };
  }
  return root;
}

/** Keywords whose values are data, not schemas: no `$ref` inside them is one. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);
/** Keywords whose values map names to schemas (a property may be named `const`). */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

/**
 * Same-document references into the wrapper's `result` (`#/properties/result/…`, as the SDK's
 * 2025 wrap writes them) pointed at the new root: the inverse of that wrap. A subtree with its
 * own `$id` resolves against it and is left as it is.
 */
function unwrapRefs(node: unknown, nameMap: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => unwrapRefs(item, false));
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node as Record<string, unknown>);
  if (
    !nameMap &&
    typeof (node as { $id?: unknown }).$id === "string" &&
    !(node as { $id: string }).$id.startsWith("#")
  ) {
    return node;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    if (nameMap) out[key] = unwrapRefs(value, false);
    else if ((key === "$ref" || key === "$dynamicRef") && typeof value === "string")
      out[key] = unwrapRef(value);
    else if (DATA_KEYWORDS.has(key)) out[key] = value;
    else out[key] = unwrapRefs(value, NAME_MAPS.has(key));
  }
  return out;
}

function unwrapRef(ref: string): string {
  if (ref === "#/properties/result") return "#";
  return ref.startsWith("#/properties/result/") ? `#${ref.slice("#/properties/result".length)}` : ref;
}
