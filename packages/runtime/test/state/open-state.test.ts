import { describe, expect, it } from "vitest";
import { openState } from "../../src/state/index.ts";
import { importClient, redactUrl } from "../../src/state/records.ts";

/** What `openState` says about URLs and packages it cannot use (no engine needed). */
describe("openState's errors", () => {
  it("names the schemes it knows for an unknown one, without the password", async () => {
    await expect(openState("mongodb://app:s3cret@db:27017/x")).rejects.toThrow(
      'Unsupported state URL "mongodb://app:***@db:27017/x": use memory:, redis://host:port or postgres://user@host:port/database',
    );
  });

  it("refuses a namespace no engine takes unquoted", async () => {
    await expect(openState("redis://127.0.0.1:1?namespace=drop%20table")).rejects.toThrow(
      'Invalid state namespace "drop table": use up to 41 letters, digits and "_", not starting with a digit',
    );
  });

  it("says which package to install when the engine's client is missing", async () => {
    const missing = importClient("mcp-gen-no-such-client", "redis://127.0.0.1:6379");
    await expect(missing).rejects.toThrow(
      'The state URL redis://127.0.0.1:6379 needs the "mcp-gen-no-such-client" package: npm install mcp-gen-no-such-client',
    );
  });

  it("hides passwords in the URLs it shows", () => {
    expect(redactUrl("postgres://app:pa%40ss@db.internal:5432/prod")).toBe(
      "postgres://app:***@db.internal:5432/prod",
    );
    expect(redactUrl("redis://:only-password@127.0.0.1:6379")).toBe("redis://:***@127.0.0.1:6379");
    expect(redactUrl("redis://127.0.0.1:6379")).toBe("redis://127.0.0.1:6379");
  });
});
