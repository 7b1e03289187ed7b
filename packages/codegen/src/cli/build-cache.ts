import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin, transform } from "esbuild";
import { buildCacheDirs, ownCacheDir } from "../../bin/build-cache.js";

const ENTRY = path.join(import.meta.dirname, "main.ts");
/** The modules whose imports on use are bundled: the build's. Other commands' stay external (never run). */
const BUILD_COMMAND = path.join(import.meta.dirname, "build-command.ts");
/** Required from where they are installed: ts-morph's TypeScript gets the code cache; tsx and esbuild run their own files. */
const EXTERNAL = /^(?:ts-morph|typescript|esbuild|tsx)(?:\/|$)/;
/** Code that resolves files from the bundle's location instead of its own: it must not be bundled. */
const RESOLVES = /\brequire\.resolve\b/;
/** Each source keeps its own location, as it has when it runs from source. */
const LOCATION = /\b(?:import\.meta|__dirname|__filename)\b/;
/** The TypeScript settings of the sources that change how esbuild compiles them. */
const TSCONFIG = { compilerOptions: { verbatimModuleSyntax: true } };

/**
 * Bundles the CLI (`main.ts`: mcp-gen's sources and the pure-JavaScript packages they use) into one
 * CommonJS file, which `bin/build-cache.js` runs for later builds while none of its inputs changed.
 * Only from the second build from source on: the first notes that it ran (`"noted"`), so a one-off
 * build (a CI job) does not pay for esbuild. ts-morph, TypeScript, tsx and esbuild stay external,
 * `require`d (or imported) from where they are installed; so does what other commands import on use
 * (see `externals`). Throws when the bundle cannot be made to behave as the sources do (nothing is
 * cached then), or when the cache folder is not only this user's.
 */
export async function writeBuildCache(): Promise<"noted" | "cached"> {
  const { base, bundle: dir, seen } = buildCacheDirs();
  mkdirSync(base, { recursive: true, mode: 0o700 });
  if (!ownCacheDir(base)) throw new Error(`${base} is not only this user's`);
  if (!existsSync(seen)) {
    writeFileSync(seen, "");
    return "noted";
  }
  const esbuild = await import("esbuild");
  const tmp = `${dir}.tmp-${process.pid}`;
  const external = new Set<string>();
  try {
    rmSync(tmp, { recursive: true, force: true });
    const result = await esbuild.build({
      entryPoints: [ENTRY],
      bundle: true,
      format: "cjs",
      platform: "node",
      target: "node20",
      outfile: path.join(tmp, "main.cjs"),
      tsconfigRaw: TSCONFIG,
      metafile: true,
      logLevel: "silent",
      plugins: [externals(external), ownLocation(esbuild)],
    });
    if (result.warnings.length > 0) throw new Error(result.warnings.map((w) => w.text).join("; "));
    const bundled = Object.keys(result.metafile.inputs).map((input) => path.resolve(input));
    const resolving = bundled.filter(
      (file) =>
        file.includes(`${path.sep}node_modules${path.sep}`) && RESOLVES.test(readFileSync(file, "utf8")),
    );
    if (resolving.length > 0) throw new Error(`bundled code resolves files itself: ${resolving.join(", ")}`);
    const files = [...bundled, ...external];
    const inputs = [...new Set([...files, ...files.flatMap(packageJson)])].map((file) => {
      const stat = statSync(file);
      return { path: file, mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino };
    });
    const codeCache = [...new Set([...external].map(nodeModulesDir).filter((d) => d !== undefined))];
    writeFileSync(path.join(tmp, "meta.json"), JSON.stringify({ entry: "main.cjs", inputs, codeCache }));
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(path.dirname(dir), { recursive: true });
    renameSync(tmp, dir);
    return "cached";
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await esbuild.stop();
  }
}

/**
 * External, by absolute path (`require`) or file URL (`import()`): the packages EXTERNAL names, and
 * what is imported on use, except the build command's own imports (other commands' never run from
 * the bundle; if they did, tsx would load them as from source). Their files are collected in `files`.
 */
function externals(files: Set<string>): Plugin {
  return {
    name: "mcp-gen-externals",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === "resolving" || isBuiltin(args.path)) return undefined;
        const dynamic = args.kind === "dynamic-import";
        const bare = /^[^./]/.test(args.path);
        if (dynamic ? !bare && args.importer === BUILD_COMMAND : !(bare && EXTERNAL.test(args.path))) {
          return undefined;
        }
        const resolved = await build.resolve(args.path, {
          kind: dynamic ? "dynamic-import" : "require-call",
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: "resolving",
        });
        if (resolved.errors.length > 0) return { errors: resolved.errors };
        files.add(resolved.path);
        return { path: dynamic ? pathToFileURL(resolved.path).href : resolved.path, external: true };
      });
    },
  };
}

/**
 * `import.meta.url`, `import.meta.dirname`, `import.meta.filename`, `__dirname` and `__filename` keep
 * the values they have in the file itself (esbuild's `define` replaces only real references).
 */
function ownLocation(esbuild: { transform: typeof transform }): Plugin {
  return {
    name: "mcp-gen-own-location",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
        const source = readFileSync(args.path, "utf8");
        if (!LOCATION.test(source)) return undefined;
        const url = JSON.stringify(pathToFileURL(args.path).href);
        const dirname = JSON.stringify(path.dirname(args.path));
        const filename = JSON.stringify(args.path);
        const ts = /\.[cm]?ts$/.test(args.path);
        const { code } = await esbuild.transform(source, {
          loader: ts ? "ts" : "js",
          sourcefile: args.path,
          tsconfigRaw: TSCONFIG,
          define: {
            "import.meta.url": url,
            "import.meta.dirname": dirname,
            "import.meta.filename": filename,
            // In a CommonJS package file these are the module wrapper's, never globals.
            ...(args.path.endsWith(".mjs") || (ts && !args.path.endsWith(".cts"))
              ? {}
              : { __dirname: dirname, __filename: filename }),
          },
        });
        return { contents: code, loader: "js" };
      });
    },
  };
}

/** The package.json files that decide how a file resolves (its package's, up to the nearest). */
function packageJson(file: string): string[] {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, "package.json");
    if (existsSync(candidate)) return [candidate];
  }
  return [];
}

function nodeModulesDir(file: string): string | undefined {
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = file.lastIndexOf(marker);
  return at === -1 ? undefined : file.slice(0, at + marker.length);
}
