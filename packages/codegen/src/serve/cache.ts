import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "esbuild";
import { ownCacheDir } from "../../bin/build-cache.js";
import { serveCacheDir } from "../../bin/serve-cache.js";
import { bundleOwnPackages } from "./bundle-packages.ts";
import type { ServerLocation } from "./load-manifest.ts";

const ENTRY = path.join(import.meta.dirname, "entry.ts");
/** Name of the bundle's virtual entry module. */
const STDIN = "mcp-gen-serve.ts";
const REQUIRE_BANNER =
  'import { createRequire as __mcpGenRequire } from "node:module"; const require = __mcpGenRequire(import.meta.url);';

/**
 * Bundles what `mcp-gen serve` ran (the CLI's serve command, the generated server and the tool
 * modules it imports, the runtime, and the installed packages these need: see
 * `bundle-packages.ts`) into plain JavaScript for the next start of the same command line:
 * `bin/serve-cache.js` runs it without a TypeScript loader while none of its sources changed.
 * `import.meta.url` of each bundled source keeps its original value.
 */
export async function writeServeCache(options: { argv: string[]; location: ServerLocation }): Promise<void> {
  const esbuild = await import("esbuild");
  const dir = serveCacheDir(options.argv);
  const tmp = `${dir}.tmp-${process.pid}`;
  try {
    const result = await bundleOwnPackages({
      esbuild,
      build: (plugin) => {
        rmSync(tmp, { recursive: true, force: true });
        return esbuild.build({
          stdin: {
            contents: [
              `import * as server from ${JSON.stringify(options.location.file)};`,
              `import { serveBundled } from ${JSON.stringify(ENTRY)};`,
              "export default (argv) => serveBundled(argv, server);",
            ].join("\n"),
            resolveDir: path.dirname(options.location.file),
            sourcefile: STDIN,
            loader: "ts",
          },
          bundle: true,
          splitting: true,
          format: "esm",
          platform: "node",
          target: "node20",
          outdir: tmp,
          outExtension: { ".js": ".mjs" },
          entryNames: "entry",
          // Bundled CommonJS packages require Node's built-in modules.
          banner: { js: REQUIRE_BANNER },
          metafile: true,
          logLevel: "silent",
          plugins: [plugin, keepImportMeta()],
        });
      },
    });
    const inputs = [
      options.location.configFile,
      ...Object.keys(result.metafile.inputs)
        .map((input) => path.resolve(input))
        .filter((input) => input !== path.join(path.dirname(options.location.file), STDIN)),
    ].map((file) => {
      const stat = statSync(file);
      // The inode too: a file replaced by one with the same size and a preserved mtime (an
      // install that keeps the tarball's times, `cp -p`) is a different file.
      return { path: file, mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino };
    });
    writeFileSync(path.join(tmp, "meta.json"), JSON.stringify({ entry: "entry.mjs", inputs }));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    if (!ownCacheDir(path.dirname(dir))) throw new Error(`${path.dirname(dir)} is not only this user's`);
    renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await esbuild.stop();
  }
}

/** Bundled sources (TypeScript and JavaScript) keep their own `import.meta.url`, `dirname` and `filename`. */
function keepImportMeta(): Plugin {
  return {
    name: "keep-import-meta",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, (args) => {
        const ts = /\.[cm]?tsx?$/.test(args.path);
        // Installed JavaScript that uses import.meta is not bundled at all (bundle-packages.ts).
        if (!ts && args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, "utf8");
        if (!source.includes("import.meta")) return undefined;
        const values: Record<string, string> = {
          url: pathToFileURL(args.path).href,
          dirname: path.dirname(args.path),
          filename: args.path,
        };
        // Not inside quotes: a string that mentions `import.meta.url` stays as it is.
        const contents = source.replace(
          /(?<!["'`])\bimport\.meta\.(url|dirname|filename)\b/g,
          (_, key: string) => JSON.stringify(values[key]),
        );
        // Generated validators are JavaScript, and `require` Ajv's runtime through createRequire(import.meta.url).
        const loader = args.path.endsWith("x") ? (ts ? "tsx" : "jsx") : ts ? "ts" : "js";
        return { contents, loader };
      });
    },
  };
}
