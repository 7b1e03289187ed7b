import { readFileSync } from "node:fs";
import path from "node:path";
import { CODES } from "@mcp-gen/schema";
import { expect, it } from "vitest";
import { REPO_ROOT } from "./support/project.ts";

it("docs/errors.md lists every diagnostic code with its name, and no other", () => {
  const doc = readFileSync(path.join(REPO_ROOT, "docs/errors.md"), "utf8");
  const rows = [...doc.matchAll(/^\| (MCPG\d{3}) \| ([a-z-]+) \|/gm)].map((m) => [m[1], m[2]]);
  expect(rows).toStrictEqual(Object.entries(CODES).map(([code, { title }]) => [code, title]));
});
