import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Versions of the development tools `init` adds that `@mcp-gen/codegen` does not depend on:
 * the ones this repository is tested with (a test keeps them equal to the root package.json's).
 */
export const TOOL_VERSIONS = {
  vitest: "4.1.12",
  "@types/node": "20.19.43",
} as const;

/** The version ranges `init` writes into a project's package.json. */
export interface InitVersions {
  /** `^<version>` of this `@mcp-gen/codegen`, for `@mcp-gen/runtime` and `@mcp-gen/codegen`. */
  mcpGen: string;
  /** The exact `typescript` this `@mcp-gen/codegen` depends on. */
  typescript: string;
  vitest: string;
  typesNode: string;
}

interface OwnPackage {
  version?: unknown;
  dependencies?: Record<string, unknown>;
}

/**
 * The versions for a new project, read from this package's own package.json (`src/init/` and
 * `dist/init/` both sit two folders below it).
 *
 * @example
 * initVersions(); // { mcpGen: "^0.1.0", typescript: "7.0.2", vitest: "4.1.12", typesNode: "20.19.43" }
 */
export function initVersions(): InitVersions {
  const file = fileURLToPath(new URL("../../package.json", import.meta.url));
  const own = JSON.parse(readFileSync(file, "utf8")) as OwnPackage;
  const typescript = own.dependencies?.typescript;
  if (typeof own.version !== "string" || typeof typescript !== "string") {
    throw new Error(`${file} lacks "version" or dependencies.typescript`);
  }
  return {
    mcpGen: `^${own.version}`,
    typescript,
    vitest: TOOL_VERSIONS.vitest,
    typesNode: TOOL_VERSIONS["@types/node"],
  };
}
