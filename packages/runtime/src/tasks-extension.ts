/**
 * The id of the 2026-07-28 tasks extension (SEP-2663), under `capabilities.extensions`. Declared
 * here, once, for server and client: `@modelcontextprotocol/ext-tasks` declares it too
 * (`TASKS_EXTENSION_ID_V2`), but its entry loads the extension's zod schemas, which a server
 * answering from generated validators has no use for.
 */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";
