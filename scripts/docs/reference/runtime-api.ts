import { readFileSync } from "node:fs";
import path from "node:path";
import { type ExportedDeclarations, Node, Project } from "ts-morph";
import { inline } from "./markdown.ts";

interface ExportTarget {
  "@mcp-gen/source"?: string;
}

/** The first paragraph of a declaration's JSDoc, on one line. */
function summaryOf(declaration: ExportedDeclarations): string {
  const host = Node.isVariableDeclaration(declaration) ? declaration.getVariableStatement() : declaration;
  if (!host || !Node.isJSDocable(host)) return "";
  const text = host.getJsDocs().at(-1)?.getDescription().trim() ?? "";
  return inline((text.split(/\n\s*\n/)[0] ?? "").replace(/\s+/g, " "));
}

function kindOf(declaration: ExportedDeclarations): string {
  if (Node.isFunctionDeclaration(declaration)) return "function";
  if (Node.isClassDeclaration(declaration)) return "class";
  if (Node.isInterfaceDeclaration(declaration)) return "interface";
  if (Node.isTypeAliasDeclaration(declaration)) return "type";
  if (Node.isEnumDeclaration(declaration)) return "enum";
  if (Node.isVariableDeclaration(declaration)) {
    const init = declaration.getInitializer();
    return init && (Node.isArrowFunction(init) || Node.isFunctionExpression(init)) ? "function" : "const";
  }
  return declaration.getKindName();
}

/** Where a declaration comes from when it is not the runtime's own (a re-export of a dependency). */
function originOf(declaration: ExportedDeclarations, packageDir: string): string {
  const file = declaration.getSourceFile().getFilePath();
  if (file.startsWith(`${packageDir}/src/`)) return "";
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return match ? ` (from \`${match[1]}\`)` : "";
}

/**
 * The runtime's public API per entry point (the `exports` map of packages/runtime/package.json):
 * every exported name, its kind and the first paragraph of its TSDoc, read from the sources.
 */
export function runtimeReference(root: string): string {
  const packageDir = path.join(root, "packages/runtime");
  const manifest = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")) as {
    exports: Record<string, ExportTarget | string>;
  };
  const project = new Project({ tsConfigFilePath: path.join(packageDir, "tsconfig.json") });
  const lines = [
    "# Runtime API",
    "",
    "`@mcp-gen/runtime`, entry by entry: what each subpath exports, with the first paragraph of its",
    "TSDoc. A served tool imports only the root entry and `/server`: no LLM SDK is loaded unless you",
    "import `/anthropic` or `/openai`. Generated code imports `/validation`, the `/ajv-runtime/<helper>`",
    "entries its validators call and `/providers`.",
  ];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const source = typeof target === "string" ? undefined : target["@mcp-gen/source"];
    if (!source) continue;
    const entry = project.getSourceFileOrThrow(path.join(packageDir, source));
    const name = `@mcp-gen/runtime${subpath === "." ? "" : subpath.slice(1)}`;
    lines.push("", `## \`${name}\``, "", "| export | kind | description |", "| --- | --- | --- |");
    const exported = [...entry.getExportedDeclarations()].sort(([a], [b]) => a.localeCompare(b));
    for (const [exportName, declarations] of exported) {
      const declaration = declarations[0];
      if (!declaration) continue;
      const summary = summaryOf(declaration) + originOf(declaration, packageDir);
      lines.push(`| \`${exportName}\` | ${kindOf(declaration)} | ${summary.trim()} |`);
    }
  }
  return `${lines.join("\n")}\n`;
}
