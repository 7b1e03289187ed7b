import path from "node:path";
import { type ConversionCache, convertContract, TARGETS } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/contracts");

describe("the provider conversion cache (watch keeps one; a one-off build has none)", () => {
  const contract = readContract(path.join(FIXTURES, "recursive.tools.json"));
  const dialects = convertContract(contract, TARGETS).dialects.length;

  it("converts alike with and without a cache, and takes unchanged tools from it", () => {
    const cache: ConversionCache = new Map();
    const uncached = convertContract(contract, TARGETS);
    const first = convertContract(contract, TARGETS, { cache });
    expect(first).toStrictEqual(uncached);
    expect(cache.size).toBe(contract.tools.length * dialects);
    const again = convertContract(contract, TARGETS, { cache });
    expect(again).toStrictEqual(uncached);
    // the same outcome objects: nothing was converted again
    expect(again.definitions.anthropic?.[0]).toBe(first.definitions.anthropic?.[0]);
  });

  it("converts an edited tool again, under every dialect", () => {
    const cache: ConversionCache = new Map();
    convertContract(contract, TARGETS, { cache });
    const edited = structuredClone(contract);
    edited.tools[0]!.description = "Edited.";
    const result = convertContract(edited, TARGETS, { cache });
    expect(cache.size).toBe((contract.tools.length + 1) * dialects);
    expect(result).toStrictEqual(convertContract(edited, TARGETS));
    expect(result.definitions.anthropic?.[0]?.description).toBe("Edited.");
  });

  it("expands each tool's references once for every dialect and leaves the contract unchanged", () => {
    const before = structuredClone(contract);
    const one = convertContract(contract, TARGETS);
    const two = convertContract(structuredClone(contract), TARGETS);
    expect(one).toStrictEqual(two);
    expect(contract).toStrictEqual(before);
  });
});
