import { readFileSync, realpathSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Metafile, Plugin, transform } from "esbuild";

/**
 * Which installed packages (from node_modules) the fast-start bundle compiles in. Loading the
 * SDK, zod and Ajv as a couple of bundled files instead of some 200 modules, each resolved and
 * read on its own, is most of what makes the cached start faster than a plain one.
 *
 * Only the packages mcp-gen's own code needs (and what they need) are bundled: a package the
 * tool modules import stays external, imported by Node from where it is installed, and so does
 * one imported from both sides (one instance), or one that finds its files at run time
 * (`__dirname`, `require.resolve`, `import.meta`: addons, assets), which a bundle would break.
 */
interface PackagePolicy {
  /** The esbuild plugin that applies the policy. */
  plugin: Plugin;
  /** Package folders the last build must not have bundled; empty when it is consistent. */
  violations(metafile: Metafile, esbuild: { transform: typeof transform }): Promise<string[]>;
}

const OWN_PACKAGES = ["@mcp-gen/runtime/package.json", "@mcp-gen/schema/package.json"];
/** Code that looks for files next to itself: it cannot run from a bundle somewhere else. */
const FINDS_ITS_FILES = /(?:__dirname|__filename|require\.resolve|import\.meta)\b/;

/**
 * Runs `build` with the policy's plugin until the result is consistent with the policy: each
 * round keeps what the last one should not have bundled external. When that does not settle, or
 * bundling fails (an addon, say), the last build bundles no installed package, as the plain
 * TypeScript start would load them.
 *
 * @example
 * const result = await bundleOwnPackages({ esbuild, build: (plugin) => esbuild.build({ …, plugins: [plugin] }) });
 */
export async function bundleOwnPackages<R extends { metafile: Metafile }>(options: {
  esbuild: { transform: typeof transform };
  build: (plugin: Plugin) => Promise<R>;
  /** Folders of mcp-gen's own code (default: the codegen, runtime and schema packages). */
  own?: string[];
}): Promise<R> {
  const own = options.own ?? ownPackages();
  const external = new Set<string>();
  try {
    for (let round = 0; round < 4; round++) {
      const policy = packagePolicy({ external, bundle: true, own });
      const result = await options.build(policy.plugin);
      const violations = await policy.violations(result.metafile, options.esbuild);
      if (violations.length === 0) return result;
      for (const pkg of violations) external.add(pkg);
    }
  } catch {
    // Fall through: bundle none.
  }
  return options.build(packagePolicy({ external, bundle: false, own }).plugin);
}

function ownPackages(): string[] {
  const require = createRequire(import.meta.url);
  return [
    path.resolve(import.meta.dirname, "../.."),
    ...OWN_PACKAGES.map((p) => path.dirname(realpathSync(require.resolve(p)))),
  ];
}

/**
 * @param options.external package folders to keep external (the violations of an earlier attempt).
 * @param options.bundle false: no installed package is bundled (the fallback when bundling fails).
 */
function packagePolicy(options: {
  external: ReadonlySet<string>;
  bundle: boolean;
  own: string[];
}): PackagePolicy {
  const own = options.own.map((dir) => dir + path.sep);
  const isOwn = (file: string) => own.some((dir) => file.startsWith(dir));
  const bundled = new Set<string>();
  const importedByTools = new Set<string>();

  const plugin: Plugin = {
    name: "bundle-own-packages",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === "resolving" || isBuiltin(args.path)) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: "resolving",
        });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        // TypeScript packages (mcp-gen's own, when installed) and workspace links are sources.
        const pkg = packageDir(resolved.path);
        if (/\.[cm]?tsx?$/.test(resolved.path) || pkg === undefined) return undefined;
        const importer = packageDir(args.importer);
        const fromOwn = importer === undefined ? isOwn(args.importer) : bundled.has(importer);
        if (fromOwn && options.bundle && !options.external.has(pkg)) {
          bundled.add(pkg);
          return undefined;
        }
        if (importer === undefined && !isOwn(args.importer)) importedByTools.add(pkg);
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
    },
  };

  return {
    plugin,
    async violations(metafile, esbuild) {
      const bad = new Set([...importedByTools].filter((pkg) => bundled.has(pkg)));
      for (const input of Object.keys(metafile.inputs)) {
        const file = path.resolve(input);
        const pkg = packageDir(file);
        if (!pkg || !bundled.has(pkg) || bad.has(pkg)) continue;
        const source = readFileSync(file, "utf8");
        // A mention in a comment does not count: look again without comments.
        if (!FINDS_ITS_FILES.test(source)) continue;
        const code = await esbuild
          .transform(source, { loader: file.endsWith(".json") ? "json" : "js", minifyWhitespace: true })
          .then(
            (out) => out.code,
            () => source,
          );
        if (FINDS_ITS_FILES.test(code)) bad.add(pkg);
      }
      return [...bad];
    },
  };
}

/** The folder of the installed package a file belongs to (`…/node_modules/@scope/name`), if any. */
function packageDir(file: string): string | undefined {
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = file.lastIndexOf(marker);
  if (at === -1) return undefined;
  const rest = file.slice(at + marker.length).split(path.sep);
  const name = rest[0]?.startsWith("@") ? rest.slice(0, 2) : rest.slice(0, 1);
  return file.slice(0, at + marker.length) + name.join(path.sep);
}
