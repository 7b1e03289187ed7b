import { spawnSync } from "node:child_process";
import path from "node:path";
import { expect, it } from "vitest";
import { build } from "../../src/build.ts";
import { REPO_ROOT, tempProject } from "../support/project.ts";

const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");

/**
 * A hand-written input schema (`@inputSchema`) is not read from the parameters, but the generated
 * server manifest types the arguments of such a tool with the generated input type: the project's
 * `tsc` reports parameters the schema does not fit, positional or one arguments object.
 */
it("tsc checks the parameters of an @inputSchema tool against the schema's generated type", async () => {
  const dir = tempProject({
    "package.json": '{ "type": "module", "private": true }\n',
    "mcp-gen.config.ts": `import { defineConfig } from "@mcp-gen/codegen/config";
export default defineConfig({ targets: ["openai"], servers: { s: { tools: ["src/tools.ts"] } } });
`,
    "src/reach.json": JSON.stringify({
      type: "object",
      properties: { phone: { type: "string" }, name: { type: "string" } },
      required: ["phone"],
      additionalProperties: false,
    }),
    "src/tools.ts": `/**
 * Positional parameters, one of the wrong type.
 * @inputSchema ./reach.json
 */
export function reach(phone: number, name?: string): string {
  return \`\${name}\${phone}\`;
}

/**
 * One arguments object, one property of the wrong type.
 * @inputSchema ./reach.json
 */
export function whole(args: { phone: string; name?: number }): string {
  return \`\${args.name}\${args.phone}\`;
}

/**
 * Fits the schema.
 * @inputSchema ./reach.json
 */
export function fits(phone: string, name?: string): string {
  return \`\${name}\${phone}\`;
}
`,
    "tsconfig.json": JSON.stringify({
      extends: path.join(REPO_ROOT, "tsconfig.base.json"),
      compilerOptions: { noEmit: true },
      include: ["src", "generated"],
    }),
  });
  await build({ cwd: dir });
  const tsc = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json", "--pretty", "false"], {
    cwd: dir,
    encoding: "utf8",
  });
  const errors = tsc.stdout
    .split("\n")
    .filter((l) => /^\S.*error TS/.test(l))
    .map((l) => l.replace(/\(\d+,\d+\)/, ""));
  expect(errors).toStrictEqual([
    "generated/s/server.ts: error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
    "generated/s/server.ts: error TS2345: Argument of type 'WholeInput' is not assignable to parameter of type '{ phone: string; name?: number | undefined; }'.",
  ]);
}, 60_000);
