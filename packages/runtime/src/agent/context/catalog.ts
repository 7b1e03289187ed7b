import { compileUriTemplate } from "@mcp-gen/schema/uri-template";
import type { Prompt, Resource, ResourceTemplateType } from "@modelcontextprotocol/client";
import { AgentError } from "../errors.ts";
import type { ToolSource } from "../tools/agent-tool.ts";
import { exposedName } from "../tools/names.ts";
import type { SourceContext } from "./source-context.ts";

/** A resource as a source lists it. */
export interface ListedResource {
  readonly source: string;
  readonly resource: Resource;
}

/** A resource template as a source lists it. */
export interface ListedResourceTemplate {
  readonly source: string;
  readonly template: ResourceTemplateType;
}

/** A prompt as the agent offers it: under the name tools of its source would have (`<source>__<prompt>`). */
export interface OfferedPrompt {
  /** The name `usePrompt()` takes. */
  readonly name: string;
  readonly source: string;
  /** The prompt as its source lists it (its own `name`, `description`, `arguments`). */
  readonly prompt: Prompt;
}

/** What the agent's sources offer besides tools, and where each piece is read. */
export interface ContextCatalog {
  readonly resources: readonly ListedResource[];
  readonly resourceTemplates: readonly ListedResourceTemplate[];
  readonly prompts: readonly OfferedPrompt[];
  /** The source serving a URI: the first listing it, else the first with a matching template. */
  resource(uri: string): { source: string; context: SourceContext };
  prompt(name: string): { offered: OfferedPrompt; context: SourceContext };
}

/** How many listed names an error shows before "… and N more". */
const SHOWN = 20;

/**
 * Lists the resources, templates and prompts of every source that has them. Prompts are named as
 * tools are (`namespace`: `<source>__<prompt>` when there is more than one source); names that
 * collide are an error naming both. Resources keep their URIs.
 */
export async function loadContextCatalog(
  sources: readonly ToolSource[],
  options: { namespace?: "auto" | "always" | "never" },
): Promise<ContextCatalog> {
  const namespaced = options.namespace === "always" || (options.namespace !== "never" && sources.length > 1);
  const loaded = await Promise.all(
    sources.map(async (source) => {
      try {
        return { source: source.name, context: source.context ? await source.context() : undefined };
      } catch (error) {
        throw new AgentError(
          "resource-failed",
          `listing the resources and prompts of "${source.name}" failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }),
  );
  const contexts = new Map<string, SourceContext>();
  const resources: ListedResource[] = [];
  const templates: (ListedResourceTemplate & { match: (uri: string) => boolean })[] = [];
  const prompts = new Map<string, OfferedPrompt>();
  const collisions: string[] = [];
  for (const { source, context } of loaded) {
    if (!context) continue;
    contexts.set(source, context);
    for (const resource of context.resources) resources.push({ source, resource });
    for (const template of context.resourceTemplates)
      templates.push({ source, template, match: matcher(template) });
    for (const prompt of context.prompts) {
      const name = exposedName(source, prompt.name, namespaced);
      const other = prompts.get(name);
      if (other)
        collisions.push(
          `"${other.source}/${other.prompt.name}" and "${source}/${prompt.name}" are both offered as "${name}"`,
        );
      else prompts.set(name, { name, source, prompt });
    }
  }
  if (collisions.length > 0)
    throw new AgentError(
      "prompt-collision",
      `prompt names collide: ${collisions.join("; ")}. Give the sources other names, or use namespace: "always".`,
    );
  return {
    resources,
    resourceTemplates: templates.map(({ source, template }) => ({ source, template })),
    prompts: [...prompts.values()],
    resource(uri) {
      const source =
        resources.find((r) => r.resource.uri === uri)?.source ?? templates.find((t) => t.match(uri))?.source;
      if (source === undefined)
        throw new AgentError("unknown-resource", unknownResource(uri, resources, templates));
      return { source, context: contexts.get(source)! };
    },
    prompt(name) {
      const offered = prompts.get(name);
      if (!offered) {
        const known = [...prompts.keys()];
        throw new AgentError(
          "unknown-prompt",
          known.length === 0
            ? `unknown prompt "${name}": no source offers prompts`
            : `unknown prompt "${name}". Prompts: ${shown(known)}`,
        );
      }
      return { offered, context: contexts.get(offered.source)! };
    },
  };
}

function matcher(template: ResourceTemplateType): (uri: string) => boolean {
  try {
    const compiled = compileUriTemplate(template.uriTemplate);
    return (uri) => compiled.match(uri) !== undefined;
  } catch {
    // A template the runtime cannot read matches nothing; its URIs stay unknown.
    return () => false;
  }
}

function unknownResource(
  uri: string,
  resources: readonly ListedResource[],
  templates: readonly ListedResourceTemplate[],
): string {
  if (resources.length === 0 && templates.length === 0)
    return `unknown resource "${uri}": no source offers resources`;
  const parts = [`unknown resource "${uri}": no source lists it or a template matching it.`];
  if (resources.length > 0)
    parts.push(`Resources: ${shown(resources.map((r) => `${r.resource.uri} (${r.source})`))}.`);
  if (templates.length > 0)
    parts.push(`Templates: ${shown(templates.map((t) => `${t.template.uriTemplate} (${t.source})`))}.`);
  return parts.join(" ");
}

function shown(names: readonly string[]): string {
  const listed = names.slice(0, SHOWN).join(", ");
  return names.length > SHOWN ? `${listed} … and ${names.length - SHOWN} more` : listed;
}
