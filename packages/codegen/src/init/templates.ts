import { clientNames } from "../emit/client.ts";
import { propertyKey } from "../emit/names.ts";

/**
 * The files `mcp-gen init` writes for a server, by path relative to the project folder.
 * `package.json` is planned apart (it is merged into an existing one).
 *
 * @example
 * initTemplates("calc")["src/server.ts"]; // the three-line production entry
 */
export function initTemplates(server: string): Record<string, string> {
  return {
    "mcp-gen.config.ts": configFile(server),
    "src/tools.ts": TOOLS_FILE,
    "src/server.ts": serverFile(server),
    "test/tools.test.ts": testFile(server),
    "tsconfig.json": TSCONFIG_FILE,
    ".gitignore": "node_modules/\ndist/\n",
  };
}

/** The example tool module; the test of `testFile` calls its tool. */
export const TOOLS_FILE = `import type { Int, Maximum, Minimum } from "@mcp-gen/runtime";

// Every exported function of this module is a tool of the server. Its JSDoc summary is the
// description models choose tools by, each @param text describes an argument, and the types
// (with the constraint tags of @mcp-gen/runtime) become the tool's JSON Schema.
// Run \`npm run build\` after a change: it regenerates schemas/ and generated/.

/**
 * Add two numbers and round the sum to a number of decimal places, e.g. 0.1 + 0.2 = 0.3.
 *
 * @param a The first number
 * @param b The second number
 * @param decimals Decimal places to round the sum to
 * @returns The rounded sum
 * @readOnly
 */
export function add(a: number, b: number, decimals: Int & Minimum<0> & Maximum<10> = 2): number {
  const scale = 10 ** decimals;
  return Math.round((a + b) * scale) / scale;
}
`;

/** The tsconfig of a new project: NodeNext ESM, compiled into dist/ (`npm start` runs dist/src/server.js). */
export const TSCONFIG_FILE = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "outDir": "dist",
    "rootDir": ".",
    "types": ["node"],
    "skipLibCheck": true
  },
  "include": ["src", "generated", "test"]
}
`;

function configFile(server: string): string {
  return `import { defineConfig } from "@mcp-gen/codegen/config";

export default defineConfig({
  servers: {
    ${propertyKey(server)}: { tools: ["src/tools.ts"] },
  },
});
`;
}

function serverFile(server: string): string {
  return `import { serve } from "@mcp-gen/runtime/server";
import { manifest } from "../generated/${server}/server.js";

await serve(manifest); // stdio; or serve(manifest, { transport: "http", http: { port: 3000 } })
`;
}

/** Names the test file declares or imports: the client's variable must not shadow one. */
const TEST_NAMES = new Set(
  "afterEach connect connectInMemory connections createServer describe expect expectOk it manifest".split(
    " ",
  ),
);

function testFile(server: string): string {
  const { factory, variable: preferred } = clientNames(server);
  const v = TEST_NAMES.has(preferred) ? "tools" : preferred;
  return `import { type Connection, connectInMemory, expectOk, type TypedClientOptions } from "@mcp-gen/runtime/client";
import { createServer } from "@mcp-gen/runtime/server";
import { afterEach, describe, expect, it } from "vitest";
import { ${factory} } from "../generated/${server}/client.js";
import { manifest } from "../generated/${server}/server.js";

// The tools run in this process behind the MCP server \`npm start\` serves over stdio, and are
// called through the typed client \`npm run build\` generates.
const connections: Connection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) await connection.close();
});

async function connect(options: TypedClientOptions = {}) {
  const connection = await connectInMemory(createServer(manifest));
  connections.push(connection);
  return ${factory}(connection.client, options);
}

describe(${JSON.stringify(`${server} tools`)}, () => {
  it("adds, rounding to 2 decimal places unless told otherwise", async () => {
    const ${v} = await connect();
    expect(expectOk(await ${v}.add({ a: 0.1, b: 0.2 }))).toBe(0.3);
    expect(expectOk(await ${v}.add({ a: 1, b: 2.5, decimals: 0 }))).toBe(4);
  });

  it("refuses invalid arguments before sending them", async () => {
    const ${v} = await connect();
    await expect(${v}.add({ a: 1, b: 2, decimals: 11 })).rejects.toThrow(
      'Invalid arguments of tool "add": 1 problem\\n- /decimals: expected a number <= 10, received number 11',
    );
  });

  it("is refused by the server too: the tool never runs on invalid arguments", async () => {
    const ${v} = await connect({ validateArguments: false });
    expect(await ${v}.add({ a: 1, b: 2, decimals: 1.5 })).toMatchObject({
      ok: false,
      message: expect.stringContaining("/decimals: expected an integer, received number 1.5"),
    });
  });
});
`;
}
