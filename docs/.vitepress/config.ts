import { defineConfig } from "vitepress";
import { firstPage, SECTIONS } from "./sections.ts";

/**
 * The mcp-gen documentation site (VitePress). Local search (MiniSearch, built into the pages: no
 * service, no network at build or run time). `docs/design/` holds design notes for contributors and
 * `docs/errors.md` the short table of codes other tests read; neither is a page of the site.
 */
export default defineConfig({
  title: "mcp-gen",
  description: "Schema-first codegen for Model Context Protocol tools in TypeScript",
  cleanUrls: false,
  srcExclude: ["design/**", "errors.md"],
  lastUpdated: false,
  themeConfig: {
    search: { provider: "local" },
    nav: [
      { text: "Guide", link: firstPage("/guide/") },
      { text: "Reference", link: firstPage("/reference/") },
    ],
    sidebar: SECTIONS,
    outline: { level: [2, 3] },
  },
});
