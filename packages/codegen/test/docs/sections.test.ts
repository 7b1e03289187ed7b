import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { SECTIONS } from "../../../../docs/.vitepress/sections.ts";
import { REPO_ROOT } from "../../../../scripts/docs/reference/index.ts";

const links = SECTIONS.flatMap((s) => s.items.map((i) => i.link));

it("every page of docs/guide and docs/reference is in the sidebar exactly once", () => {
  const pages = ["guide", "reference"].flatMap((dir) =>
    readdirSync(path.join(REPO_ROOT, "docs", dir))
      .filter((f) => f.endsWith(".md"))
      .map((f) => `/${dir}/${f.slice(0, -3)}`),
  );
  const counted = pages.map((page) => [page, links.filter((l) => l === page).length]);
  expect(counted.filter(([, n]) => n !== 1)).toStrictEqual([]);
});

it("every sidebar link has its page", () => {
  expect(links.filter((l) => !existsSync(path.join(REPO_ROOT, "docs", `${l}.md`)))).toStrictEqual([]);
});
