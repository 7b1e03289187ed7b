import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createValidator, type RawValidate } from "@mcp-gen/runtime/validation";
import { formatDiagnostic } from "@mcp-gen/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/build.ts";
import { fixtureNaming, fixturesConfig } from "./support/project.ts";

/**
 * Golden tests: each folder of `fixtures/` holds a `tools.ts` and its expected contract,
 * types and warnings (refresh with `npx vitest run -u`). Every schema is then run, through
 * the emitted standalone validators, against the valid and invalid samples of `samples.json`.
 */
const FIXTURES = path.join(import.meta.dirname, "fixtures");
const TMP = path.join(import.meta.dirname, ".tmp", "golden");
const cases = readdirSync(FIXTURES).filter((d) => existsSync(path.join(FIXTURES, d, "tools.ts")));

// Extraction goldens; provider output has its own tests (Anthropic and Gemini reject the recursive fixture).
const config = fixturesConfig(FIXTURES, cases, {
  naming: (name) => fixtureNaming(FIXTURES, name),
  targets: ["openai"],
});

let result: Awaited<ReturnType<typeof generate>>;
beforeAll(async () => {
  result = await generate(config);
});

const output = (p: string) => {
  const file = result.outputs.files.find((f) => f.path === p);
  if (!file) throw new Error(`no output ${p}`);
  return file.content;
};

describe.each(cases)("fixture %s", (name) => {
  it("emits the golden contract", async () => {
    await expect(output(`schemas/${name}.tools.json`)).toMatchFileSnapshot(
      `fixtures/${name}/expected/contract.json`,
    );
  });

  it("emits the golden types", async () => {
    await expect(output(`generated/${name}/types.ts`)).toMatchFileSnapshot(
      `fixtures/${name}/expected/types.ts`,
    );
  });

  it("emits the golden code-mode declarations", async () => {
    await expect(output(`generated/${name}/api.d.ts`)).toMatchFileSnapshot(
      `fixtures/${name}/expected/api.d.ts`,
    );
  });

  it("reports the golden warnings", async () => {
    const warnings = result.warnings
      .filter((w) => w.location?.file.startsWith(`${name}/`))
      .map(formatDiagnostic);
    await expect(`${warnings.join("\n\n")}\n`).toMatchFileSnapshot(`fixtures/${name}/expected/warnings.txt`);
  });

  const samplesFile = path.join(FIXTURES, name, "samples.json");
  it.runIf(existsSync(samplesFile))("validates samples with the emitted standalone validators", async () => {
    const dir = path.join(TMP, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "validators.ts"), output(`generated/${name}/validators.ts`));
    const raw = (await import(pathToFileURL(path.join(dir, "validators.ts")).href)) as Record<
      string,
      RawValidate
    >;
    const samples = JSON.parse(readFileSync(samplesFile, "utf8")) as Record<
      string,
      { valid: unknown[]; invalid: unknown[] }
    >;
    const feedback: string[] = [];
    for (const [key, { valid, invalid }] of Object.entries(samples)) {
      const [tool, slot = "input"] = key.split("#");
      const fn = raw[`${tool!.replace(/[^A-Za-z0-9_$]/g, "_")}_${slot}`];
      expect(fn, `validator for ${key}`).toBeTypeOf("function");
      const validator = createValidator(fn!, `${slot} of ${tool}`);
      for (const sample of valid)
        expect(validator.check(sample), JSON.stringify(sample)).toStrictEqual({ ok: true, value: sample });
      for (const sample of invalid) {
        const checked = validator.check(sample);
        expect(checked.ok, `should reject ${JSON.stringify(sample)}`).toBe(false);
        if (!checked.ok) feedback.push(`${JSON.stringify(sample)}\n${checked.message}`);
      }
    }
    await expect(`${feedback.join("\n\n")}\n`).toMatchFileSnapshot(`fixtures/${name}/expected/feedback.txt`);
  });
});
