import { describe, expect, it } from "vitest";
import { importPeer, MISSING_PEER } from "../../src/agent/model/peer.js";

describe("importPeer", () => {
  it("names the missing package and how to install it, with a code a CLI can recognise", async () => {
    // A package that is installed nowhere: Node's own ERR_MODULE_NOT_FOUND, as for a provider SDK left out.
    const missing = "mcp-gen-test-no-such-package";
    const error = await importPeer(missing, "fooModel", () => import(missing)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `fooModel() needs the package "${missing}", an optional peer dependency of @mcp-gen/runtime that is not installed: npm install ${missing}`,
    );
    expect((error as { code?: string }).code).toBe(MISSING_PEER);
  });

  it("passes on any other failure of the import unchanged", async () => {
    const broken = new Error("the package's own top level threw");
    await expect(importPeer("openai", "openaiModel", () => Promise.reject(broken))).rejects.toBe(broken);
  });
});
