/**
 * The site's sections, defined once: the sidebar is this list, the top navigation links the first
 * page of its "Guide" and "Reference" groups, and packages/codegen/test/docs/sections.test.ts checks
 * that every page of docs/guide and docs/reference is in it exactly once (and every link has a page).
 */
export interface Section {
  text: string;
  items: { text: string; link: string }[];
}

export const SECTIONS: Section[] = [
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
];

/** The first page under `prefix` (`/guide/`, `/reference/`): where the top navigation's link goes. */
export function firstPage(prefix: string): string {
  const link = SECTIONS.flatMap((s) => s.items).find((i) => i.link.startsWith(prefix))?.link;
  if (!link) throw new Error(`no page under ${prefix} in docs/.vitepress/sections.ts`);
  return link;
}
