import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createAjv } from "@mcp-gen/schema";
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { AJV_HELPER_ENTRIES, ajvRequire } from "../../src/validation/ajv-runtime.ts";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as typeof import("ajv/dist/standalone/index.js").default;

/** A schema whose standalone code needs every helper a tool schema can: lengths, formats, enum/const/uniqueItems. */
const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2, maxLength: 4 },
    day: { type: "string", format: "date" },
    tags: {
      type: "array",
      items: { type: "object", properties: { a: { type: "number" } } },
      uniqueItems: true,
    },
    shape: { enum: [{ a: 1 }, { b: 2 }] },
  },
  required: ["name"],
};

/** The standalone code of SCHEMA, its `require` bound to `ajvRequire`, as a function of the data. */
function compileWithAjvRequire(): (data: unknown) => boolean {
  const ajv = createAjv({ source: true });
  ajv.addSchema(SCHEMA, "s");
  const esm = standaloneCode(ajv, { validate: "s" }).replace(/^"use strict";/, "");
  expect(esm).toContain('require("ajv/dist/runtime/ucs2length")');
  expect(esm).toContain('require("ajv-formats/dist/formats")');
  expect(esm).toContain('require("ajv/dist/runtime/equal")');
  const body = esm.replace(/export const (\w+) = (\w+);/g, "exports.$1 = $2;");
  const exports: { validate?: (data: unknown) => boolean } = {};
  new Function("require", "exports", body)(ajvRequire, exports);
  return exports.validate!;
}

describe("ajvRequire: the helpers of Ajv's standalone code, from the runtime's own dependencies", () => {
  it("runs standalone validators that use lengths, function formats and deep equality", () => {
    const validate = compileWithAjvRequire();
    expect(validate({ name: "abc", day: "2026-02-28", tags: [{ a: 1 }, { a: 2 }], shape: { a: 1 } })).toBe(
      true,
    );
    expect(validate({ name: "😀😀😀😀😀" })).toBe(false); // five code points: maxLength counts them, not UTF-16 units
    expect(validate({ name: "😀😀" })).toBe(true);
    expect(validate({ name: "abc", day: "2026-02-30" })).toBe(false); // a function format: no such day
    expect(validate({ name: "abc", tags: [{ a: 1 }, { a: 1 }] })).toBe(false);
    expect(validate({ name: "abc", shape: { a: 2 } })).toBe(false);
  });

  it("gives the module shapes require() would, under this test runner's interop too", () => {
    expect(typeof (ajvRequire("ajv/dist/runtime/ucs2length") as { default: unknown }).default).toBe(
      "function",
    );
    expect(typeof (ajvRequire("ajv/dist/runtime/uri") as { default: { parse: unknown } }).default.parse).toBe(
      "function",
    );
    const formats = ajvRequire("ajv-formats/dist/formats") as {
      fullFormats: { date: { validate: unknown } };
    };
    expect(typeof formats.fullFormats.date.validate).toBe("function");
  });

  it("has an entry of its own for each helper, giving what ajvRequire gives (what generated code imports)", async () => {
    const ids = Object.keys(AJV_HELPER_ENTRIES).sort();
    expect(ids).toStrictEqual([
      "ajv-formats/dist/formats",
      "ajv/dist/runtime/equal",
      "ajv/dist/runtime/timestamp",
      "ajv/dist/runtime/ucs2length",
      "ajv/dist/runtime/uri",
      "ajv/dist/runtime/validation_error",
    ]);
    for (const id of ids) {
      const entry = (await import(AJV_HELPER_ENTRIES[id]!)) as { default: unknown };
      expect({ id, same: entry.default === ajvRequire(id) }).toStrictEqual({ id, same: true });
    }
  });

  it("names the module and the fix for one it does not provide", () => {
    expect(() => ajvRequire("ajv/dist/runtime/re2")).toThrow(
      'generated validators need "ajv/dist/runtime/re2", which @mcp-gen/runtime does not provide: rebuild them with the @mcp-gen/codegen of the same version (npx mcp-gen build)',
    );
  });

  it("gives plain Node the same module shapes (the compiled package, outside any test runner)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-ajv-runtime-"));
    const script = path.join(dir, "probe.mjs");
    const entry = path.join(import.meta.dirname, "../../dist/validation/ajv-runtime.js");
    writeFileSync(
      script,
      `import { ajvRequire } from ${JSON.stringify(entry)};
const shapes = {
  ucs2length: typeof ajvRequire("ajv/dist/runtime/ucs2length").default,
  equal: typeof ajvRequire("ajv/dist/runtime/equal").default,
  uri: typeof ajvRequire("ajv/dist/runtime/uri").default.parse,
  validationError: typeof ajvRequire("ajv/dist/runtime/validation_error").default,
  date: typeof ajvRequire("ajv-formats/dist/formats").fullFormats.date.validate,
};
console.log(JSON.stringify(shapes));
`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toStrictEqual({
      ucs2length: "function",
      equal: "function",
      uri: "function",
      validationError: "function",
      date: "function",
    });
  });
});
