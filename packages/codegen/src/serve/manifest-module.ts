import type { ServerManifest } from "@mcp-gen/runtime/server";
import { diagnostic, McpGenError } from "@mcp-gen/schema/diagnostics";

// Apart from load-manifest.ts (which reads the config) so that the fast-start bundle, which has
// its server module compiled in, does not carry the config loader.

/** What a generated `server.ts` exports: a manifest, or a factory plus the tool classes it needs. */
export interface ServerModule {
  manifest?: ServerManifest;
  createManifest?: (instances: Record<string, unknown>) => ServerManifest;
  classes?: Record<string, ToolClass>;
}

type ToolClass = (new () => unknown) & { create?: () => unknown };

/** The manifest of a loaded `server.ts`, building the instances of its tool classes. */
export async function manifestFromModule(module: ServerModule, file: string): Promise<ServerManifest> {
  if (module.manifest) return module.manifest;
  const where = { file };
  if (!module.createManifest || !module.classes) {
    throw new McpGenError(
      diagnostic("MCPG070", "the file exports neither manifest nor createManifest", where),
    );
  }
  const instances: Record<string, unknown> = {};
  for (const [name, cls] of Object.entries(module.classes))
    instances[name] = await instantiate(name, cls, where);
  return module.createManifest(instances);
}

async function instantiate(name: string, cls: ToolClass, where: { file: string }): Promise<unknown> {
  if (typeof cls.create === "function") return await cls.create();
  if (cls.length === 0) return new cls();
  throw new McpGenError(
    diagnostic(
      "MCPG071",
      `tool class ${name} takes constructor arguments and has no static create(), so mcp-gen serve cannot build it`,
      where,
    ),
  );
}
