import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Records every module a Node process resolves through ESM (`--import` of a resolve hook that
 * appends each URL to a log as it resolves): what a served server loads, read once it answered.
 */
export function moduleTrace(dir: string, name: string): { args: string[]; resolved(): string[] } {
  const log = path.join(dir, `${name}.resolved.log`);
  const hooks = path.join(dir, `${name}.hooks.mjs`);
  const register = path.join(dir, `${name}.register.mjs`);
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
  return result;
}
`,
  );
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  writeFileSync(log, "");
  return {
    args: ["--import", pathToFileURL(register).href],
    resolved: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
  };
}

/**
 * Records the CommonJS modules a Node process loaded with `require` (which the resolve hook above
 * does not see): a `--require` preload writes `require.cache`'s files when the process exits.
 */
export function requireTrace(dir: string, name: string): { args: string[]; required(): string[] } {
  const log = path.join(dir, `${name}.required.log`);
  const preload = path.join(dir, `${name}.required.cjs`);
  writeFileSync(
    preload,
    `const { writeFileSync } = require("node:fs");
process.on("exit", () => writeFileSync(${JSON.stringify(log)}, Object.keys(require.cache).join("\\n")));
`,
  );
  writeFileSync(log, "");
  return {
    args: ["--require", preload],
    required: () => readFileSync(log, "utf8").split("\n").filter(Boolean),
  };
}
