import path from "node:path";
import { Project, type PropertySignature } from "ts-morph";
import { inline } from "./markdown.ts";

/** The JSDoc text of a property, on one line (empty when it has none). */
function docOf(property: PropertySignature): string {
  return property
    .getJsDocs()
    .map((doc) => doc.getDescription().trim())
    .join(" ")
    .replace(/\s+/g, " ");
}

function table(project: Project, file: string, name: string): string[] {
  const declaration = project.getSourceFileOrThrow(file).getInterfaceOrThrow(name);
  return [
    "| key | type | description |",
    "| --- | --- | --- |",
    ...declaration.getProperties().map((p) => {
      const type = (p.getTypeNode()?.getText() ?? "").replace(/\s+/g, " ").replaceAll("|", "\\|");
      const key = `\`${p.getName()}${p.hasQuestionToken() ? "?" : ""}\``;
      return `| ${key} | \`${type}\` | ${inline(docOf(p))} |`;
    }),
  ];
}

/**
 * The configuration file reference, read from the config's types (`McpGenConfig`, `ServerConfig` in
 * packages/codegen/src/config/define.ts) and their JSDoc.
 */
export function configReference(root: string): string {
  const file = path.join(root, "packages/codegen/src/config/define.ts");
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  project.addSourceFileAtPath(file);
  return [
    "# Configuration file",
    "",
    "`mcp-gen.config.ts` (or `.mts`, `.mjs`, `.js`, `.json`), found in the working directory or a folder",
    "above it, or named by `--config`. Paths are relative to the config file. In TypeScript,",
    "`defineConfig` from `@mcp-gen/codegen/config` types it:",
    "",
    "```ts",
    'import { defineConfig } from "@mcp-gen/codegen/config";',
    "",
    "export default defineConfig({",
    '  servers: { calc: { tools: ["src/tools.ts"] } },',
    "});",
    "```",
    "",
    "A key the config does not know, or a wrong value, is `MCPG002` naming its JSON pointer. The",
    "[configuration guide](../guide/configuration.md) explains import extensions and type-checking.",
    "",
    "## Top level (`McpGenConfig`)",
    "",
    ...table(project, file, "McpGenConfig"),
    "",
    "## A server (`ServerConfig`)",
    "",
    ...table(project, file, "ServerConfig"),
    "",
  ].join("\n");
}
