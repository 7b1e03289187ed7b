import { type Diagnostic, diagnostic } from "@mcp-gen/schema";
import type {
  IrCompleter,
  IrPrompt,
  IrResource,
  IrResourceTemplate,
  IrServer,
  SourceLocation,
} from "../../ir/types.ts";

/** The resources, templates, prompts and completers of a server's modules. */
export interface ServerParts {
  resources: IrResource[];
  resourceTemplates: IrResourceTemplate[];
  prompts: IrPrompt[];
  completers: IrCompleter[];
}

const at = (l: SourceLocation) => `${l.file}:${l.line}:${l.column}`;
const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Puts a server's resources, templates and prompts together: attaches every completer to its
 * prompt or template argument, refuses duplicate URIs and names, and sorts each list by name (like
 * the tools). Only non-empty lists are set, so servers without them keep their IR.
 */
export function assembleServerParts(given: ServerParts): {
  ir: Pick<IrServer, "resources" | "resourceTemplates" | "prompts">;
  errors: Diagnostic[];
} {
  const errors: Diagnostic[] = [];
  // copies: watch keeps the modules' IR between rebuilds, and completers are attached here
  const parts: ServerParts = {
    ...given,
    resourceTemplates: given.resourceTemplates.map((t) => ({ ...t, complete: { ...t.complete } })),
    prompts: given.prompts.map((p) => ({ ...p, complete: { ...p.complete } })),
  };
  const duplicate = <T extends { location: SourceLocation }>(
    items: readonly T[],
    key: (item: T) => string,
    what: (item: T) => string,
  ) => {
    const seen = new Map<string, T>();
    for (const item of items) {
      const first = seen.get(key(item));
      if (first) {
        errors.push(
          diagnostic("MCPG038", `${what(item)} is already used by the one at ${at(first.location)}`, {
            location: item.location,
          }),
        );
      } else seen.set(key(item), item);
    }
  };
  duplicate(
    parts.resources,
    (r) => r.uri,
    (r) => `resource URI "${r.uri}"`,
  );
  duplicate(
    parts.resourceTemplates,
    (r) => r.uriTemplate,
    (r) => `URI template "${r.uriTemplate}"`,
  );
  duplicate(
    [...parts.resources, ...parts.resourceTemplates],
    (r) => r.name,
    (r) => `resource name "${r.name}"`,
  );
  duplicate(
    parts.prompts,
    (p) => p.name,
    (p) => `prompt name "${p.name}"`,
  );

  const owners = new Map<string, IrCompleter>();
  for (const completer of parts.completers) {
    const target =
      parts.prompts.find((p) => p.name === completer.target) ??
      parts.resourceTemplates.find((t) => t.uriTemplate === completer.target);
    const fail = (message: string, fix?: string) =>
      errors.push(
        diagnostic("MCPG036", `completer "${completer.binding.export}": ${message}`, {
          location: completer.location,
          ...(fix ? { fix } : {}),
        }),
      );
    if (!target) {
      fail(
        `"${completer.target}" is neither a prompt nor the URI template of a resource template of this server`,
      );
      continue;
    }
    const what = "uriTemplate" in target ? `template "${target.uriTemplate}"` : `prompt "${target.name}"`;
    if (!target.params.some((p) => p.name === completer.argument)) {
      const names = target.params.map((p) => p.name);
      fail(
        `${what} has no argument "${completer.argument}"${names.length > 0 ? ` (it has: ${names.join(", ")})` : ""}`,
      );
      continue;
    }
    const key = `${what}\u0000${completer.argument}`;
    const first = owners.get(key);
    if (first) {
      fail(
        `the argument "${completer.argument}" of ${what} is already completed by the completer at ${at(first.location)}`,
        "keep one completer per argument",
      );
      continue;
    }
    owners.set(key, completer);
    target.complete[completer.argument] = { binding: completer.binding };
  }
  for (const item of [...parts.resourceTemplates, ...parts.prompts]) {
    const order = item.params.map((p) => p.name);
    item.complete = Object.fromEntries(
      Object.entries(item.complete).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)),
    );
  }
  const ir: Pick<IrServer, "resources" | "resourceTemplates" | "prompts"> = {};
  if (parts.resources.length > 0) ir.resources = [...parts.resources].sort(byName);
  if (parts.resourceTemplates.length > 0) ir.resourceTemplates = [...parts.resourceTemplates].sort(byName);
  if (parts.prompts.length > 0) ir.prompts = [...parts.prompts].sort(byName);
  return { ir, errors };
}
