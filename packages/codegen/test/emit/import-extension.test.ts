import path from "node:path";
import type { Contract } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";
import { type ImportExtension, importSpecifier } from "../../src/emit/imports.ts";
import { emitServer } from "../../src/emit/index.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");
const contract = readContract(path.join(FIXTURES, "class-tools/expected/contract.json"));

/** The relative import lines (and specifiers in doc examples) of every emitted code file, by file. */
function relativeImports(c: Contract, importExtension: ImportExtension): Record<string, string[]> {
  const { files } = emitServer(c, { contractFile: "c.json", outDir: "generated/shop", importExtension });
  return Object.fromEntries(
    files
      .filter((f) => /\.(ts|js)$/.test(f.path))
      .map((f) => [
        f.path.slice("generated/shop/".length),
        f.content.split("\n").filter((l) => /from "\.\.?\//.test(l) && !l.includes(".json")),
      ]),
  );
}

describe("import specifiers of generated code", () => {
  it.each([
    [".ts", ".ts"],
    [".js", ".js"],
    ["", ""],
  ] as const)("follow importExtension %j", (mode, ext) => {
    expect(relativeImports(contract, mode)).toStrictEqual({
      "api.d.ts": [],
      "client.ts": [
        `import { validators } from "./index${ext}";`,
        `import type * as T from "./types${ext}";`,
      ],
      "index.ts": [
        `import type * as T from "./types${ext}";`,
        `import * as raw from "./validators${ext}";`,
        `export type * from "./types${ext}";`,
        `export { tools } from "./tools${ext}";`,
      ],
      "normalize.ts": [],
      "providers/index.ts": [
        ` * \`normalizeArguments\` from "../normalize${ext}" before validating them.`,
        ` * import { providerTools } from "./providers/index${ext}";`,
      ],
      "server.ts": [
        `import * as classToolsTools from "../../class-tools/tools${ext}";`,
        `import { validators } from "./index${ext}";`,
        `import { tools } from "./tools${ext}";`,
      ],
      "tools.ts": [],
      "types.ts": [],
      "validators.ts": [],
    });
  });

  it("default to .js in emitServer", () => {
    const { files } = emitServer(contract, { contractFile: "c.json", outDir: "generated/shop" });
    expect(files.find((f) => f.path === "generated/shop/client.ts")!.content).toContain(
      'import { validators } from "./index.js";',
    );
  });

  it("map each TypeScript extension of a tool module", () => {
    const specifiers = [
      "../../src/a.ts",
      "../../src/b.tsx",
      "../../src/c.mts",
      "../../src/d.cts",
      "./x.json",
    ];
    const under = (importExtension: ImportExtension) =>
      specifiers.map((s) => importSpecifier({ importExtension }, s));
    expect(under(".ts")).toStrictEqual(specifiers);
    expect(under(".js")).toStrictEqual([
      "../../src/a.js",
      "../../src/b.js",
      "../../src/c.mjs",
      "../../src/d.cjs",
      "./x.json",
    ]);
    expect(under("")).toStrictEqual([
      "../../src/a",
      "../../src/b",
      "../../src/c.mjs",
      "../../src/d.cjs",
      "./x.json",
    ]);
  });
});
