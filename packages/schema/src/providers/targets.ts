/**
 * `@mcp-gen/schema/targets`: the provider targets and dialects by name, without the dialects' code
 * (what the config and the CLI check names against).
 */

/** Providers mcp-gen emits tool definitions for (`openai` covers strict and non-strict, `gemini` both forms). */
export const PROVIDER_TARGETS = ["anthropic", "openai", "gemini"] as const;
export type ProviderTarget = (typeof PROVIDER_TARGETS)[number];

/** Providers a project can target (`targets` in the config); each emits one or two dialects. */
export const TARGETS = PROVIDER_TARGETS;
export type Target = ProviderTarget;

/** Tool-definition dialects, as in `@mcp-gen/runtime` (`DIALECTS`). */
export const DIALECTS = ["anthropic", "openai", "openai-strict", "gemini", "gemini-json-schema"] as const;
export type Dialect = (typeof DIALECTS)[number];

export const TARGET_DIALECTS: Record<Target, readonly Dialect[]> = {
  anthropic: ["anthropic"],
  openai: ["openai", "openai-strict"],
  gemini: ["gemini", "gemini-json-schema"],
};
