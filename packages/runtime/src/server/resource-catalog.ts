import { type CompiledUriTemplate, compileUriTemplate } from "@mcp-gen/schema/uri-template";
import type { ManifestResource, ManifestResourceTemplate, ServerManifest } from "./manifest.ts";

/** The resources of a manifest: static ones by URI, templates in order with their matchers. */
export interface ResourceCatalog {
  readonly byUri: ReadonlyMap<string, ManifestResource>;
  readonly templates: readonly {
    readonly entry: ManifestResourceTemplate;
    readonly matcher: CompiledUriTemplate;
  }[];
  /** Templates by their `uriTemplate` (what `completion/complete` names with `ref/resource`). */
  readonly byTemplate: ReadonlyMap<string, ManifestResourceTemplate>;
}

/**
 * Compiles the templates once, when a server of a manifest with resources loads its features
 * (`features.ts`): a malformed template fails that load, and the requests that wait for it answer
 * with its error. A server of tools alone never loads this module or the URI template matcher.
 */
export function resourceCatalog(manifest: ServerManifest): ResourceCatalog {
  const templates = (manifest.resourceTemplates ?? []).map((entry) => ({
    entry,
    matcher: compileUriTemplate(entry.definition.uriTemplate),
  }));
  return {
    byUri: new Map((manifest.resources ?? []).map((r) => [r.definition.uri, r])),
    templates,
    byTemplate: new Map(templates.map((t) => [t.entry.definition.uriTemplate, t.entry])),
  };
}
