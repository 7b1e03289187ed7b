import { defineConfig } from "vitepress";

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
      { text: "Guide", link: "/guide/getting-started" },
      { text: "Reference", link: "/reference/cli" },
    ],
    sidebar: [
      {
        text: "Introduction",
        items: [
          { text: "Getting started", link: "/guide/getting-started" },
          { text: "Examples", link: "/guide/examples" },
        ],
      },
      {
        text: "Writing tools",
        items: [
          { text: "Types and JSDoc", link: "/guide/writing-tools" },
          { text: "Constraints", link: "/guide/constraints" },
          { text: "Input schemas written by hand", link: "/guide/hand-written-schemas" },
          { text: "Resources, templates, prompts", link: "/guide/resources-prompts" },
          { text: "Tasks", link: "/guide/tasks" },
          { text: "Structured output", link: "/guide/structured-output" },
        ],
      },
      {
        text: "Generated code",
        items: [
          { text: "Contract and artifacts", link: "/guide/contract" },
          { text: "Configuration", link: "/guide/configuration" },
          { text: "Typed clients", link: "/guide/typed-clients" },
          { text: "Provider definitions and lint", link: "/guide/providers" },
          { text: "Pulling other servers", link: "/guide/pulling" },
          { text: "Watch mode", link: "/guide/watch" },
          { text: "CI: check and diff", link: "/guide/ci" },
        ],
      },
      {
        text: "Running",
        items: [
          { text: "Serving", link: "/guide/serving" },
          { text: "Authorization (OAuth)", link: "/guide/authorization" },
          { text: "Deploying", link: "/guide/deploying" },
          { text: "The agent and chat", link: "/guide/agent" },
          { text: "Code mode", link: "/guide/code-mode" },
          { text: "Shared state", link: "/guide/shared-state" },
          { text: "Migrating from zod + McpServer", link: "/guide/migrating" },
        ],
      },
      {
        text: "Reference",
        items: [
          { text: "CLI", link: "/reference/cli" },
          { text: "Configuration file", link: "/reference/config" },
          { text: "Runtime API", link: "/reference/runtime" },
          { text: "Diagnostics", link: "/reference/diagnostics" },
        ],
      },
    ],
    outline: { level: [2, 3] },
  },
});
