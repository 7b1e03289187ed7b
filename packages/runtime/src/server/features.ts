import type { Catalog } from "./catalog.ts";
import type { complete } from "./completions.ts";
import type * as contextSupport from "./context-support.ts";
import type { ServerManifest } from "./manifest.ts";
import type { ParkedCalls, parkedCalls } from "./parked.ts";
import type { getPrompt } from "./prompts.ts";
import type { ResourceCatalog } from "./resource-catalog.ts";
import type { readResource } from "./resources.ts";
import type { scopedListing } from "./scoped-listing.ts";
import type { ServerTaskOptions, Tasks } from "./tasks.ts";

/** What a server serves beyond tools, loaded only when its manifest or options use it. */
export interface Features {
  /** The manifest's resources, its templates compiled (a malformed template fails the load). */
  resources?: ResourceCatalog;
  readResource?: typeof readResource;
  getPrompt?: typeof getPrompt;
  complete?: typeof complete;
  scopedListing?: typeof scopedListing;
  /** The task service: one per server factory, kept across `update()`. */
  tasks?: Tasks;
  /** Tool contexts and the 2025 request channel: for a manifest with a target that takes a context. */
  context?: typeof contextSupport;
}

/**
 * Loads the modules a catalog needs (dynamic `import()` at server creation and at `update()`),
 * so a server of plain tools loads the SDK server, the validators and the tools, little else:
 * resources (with the URI template matcher), prompts, completions, scoped listings, tasks and tool
 * contexts each come in only when used.
 */
export async function loadFeatures(options: {
  catalog: Catalog;
  /** The manifest of `catalog`: its resources and templates. */
  manifest: ServerManifest;
  filterToolsByScope: boolean;
  tasks: ServerTaskOptions | undefined;
  /** The features of the catalog before (`update()`): a task service lives on. */
  previous?: Features;
}): Promise<Features> {
  const { uses } = options.catalog;
  const [resourceCatalog, resources, prompts, completions, scoped, tasks, context] = await Promise.all([
    uses.resources ? import("./resource-catalog.ts") : undefined,
    uses.resources ? import("./resources.ts") : undefined,
    uses.prompts ? import("./prompts.ts") : undefined,
    uses.completions ? import("./completions.ts") : undefined,
    options.filterToolsByScope ? import("./scoped-listing.ts") : undefined,
    uses.tasks && !options.previous?.tasks ? import("./tasks.ts") : undefined,
    uses.context ? import("./context-support.ts") : undefined,
  ]);
  const service = options.previous?.tasks ?? tasks?.createTasks(options.tasks);
  return {
    ...(resourceCatalog ? { resources: resourceCatalog.resourceCatalog(options.manifest) } : {}),
    ...(resources ? { readResource: resources.readResource } : {}),
    ...(prompts ? { getPrompt: prompts.getPrompt } : {}),
    ...(completions ? { complete: completions.complete } : {}),
    ...(scoped ? { scopedListing: scoped.scopedListing } : {}),
    ...(service ? { tasks: service } : {}),
    ...(context ? { context } : {}),
  };
}

/** `ParkedCalls` whose module (and the 2026-07-28 input machinery behind it) loads on first use. */
export interface LazyParkedCalls extends ParkedCalls {
  /** Starts loading now (a manifest with a tool, resource or prompt that takes a context). */
  preload(): void;
}

/**
 * The calls parked for their 2026-07-28 client's input, loaded only when a call can park or
 * resume: one of a target that takes a context, or a retry carrying a `requestState`. A server of
 * plain tools never loads `parked.ts`, `input/*` or the continuation store.
 */
export function lazyParkedCalls(options: Parameters<typeof parkedCalls>[0]): LazyParkedCalls {
  let loaded: ParkedCalls | undefined;
  let loading: Promise<ParkedCalls> | undefined;
  const load = () => {
    loading ??= import("./parked.ts").then((parked) => {
      loaded = parked.parkedCalls(options);
      return loaded;
    });
    return loading;
  };
  return {
    get size() {
      return loaded?.size ?? 0;
    },
    run: async (call) => (await load()).run(call),
    resume: async (call) => (await load()).resume(call),
    channel(invocation) {
      // Only a call run by `run()` or `resume()` builds this channel, so the module is there.
      if (!loaded) throw new Error("mcp-gen: the 2026-07-28 input channel was asked for before it loaded");
      return loaded.channel(invocation);
    },
    // a failure to load shows at the call that needs the module (it awaits the same promise)
    preload: () => void load().catch(() => {}),
  };
}
