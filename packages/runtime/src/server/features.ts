import type { Catalog } from "./catalog.ts";
import type { complete } from "./completions.ts";
import type * as contextSupport from "./context-support.ts";
import type { getPrompt } from "./prompts.ts";
import type { readResource } from "./resources.ts";
import type { scopedListing } from "./scoped-listing.ts";
import type { ServerTaskOptions, Tasks } from "./tasks.ts";

/** What a server serves beyond tools, loaded only when its manifest or options use it. */
export interface Features {
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
 * resources, prompts, completions, scoped listings, tasks and tool contexts each come in only
 * when used.
 */
export async function loadFeatures(options: {
  catalog: Catalog;
  filterToolsByScope: boolean;
  tasks: ServerTaskOptions | undefined;
  /** The features of the catalog before (`update()`): a task service lives on. */
  previous?: Features;
}): Promise<Features> {
  const { uses } = options.catalog;
  const [resources, prompts, completions, scoped, tasks, context] = await Promise.all([
    uses.resources ? import("./resources.ts") : undefined,
    uses.prompts ? import("./prompts.ts") : undefined,
    uses.completions ? import("./completions.ts") : undefined,
    options.filterToolsByScope ? import("./scoped-listing.ts") : undefined,
    uses.tasks && !options.previous?.tasks ? import("./tasks.ts") : undefined,
    uses.context ? import("./context-support.ts") : undefined,
  ]);
  const service = options.previous?.tasks ?? tasks?.createTasks(options.tasks);
  return {
    ...(resources ? { readResource: resources.readResource } : {}),
    ...(prompts ? { getPrompt: prompts.getPrompt } : {}),
    ...(completions ? { complete: completions.complete } : {}),
    ...(scoped ? { scopedListing: scoped.scopedListing } : {}),
    ...(service ? { tasks: service } : {}),
    ...(context ? { context } : {}),
  };
}
