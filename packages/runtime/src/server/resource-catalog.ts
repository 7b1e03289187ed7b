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

/** Compiles the templates once (a malformed template fails here, when the server is built). */
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
