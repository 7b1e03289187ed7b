import type { ModelProvider } from "@mcp-gen/runtime/agent";
import { anthropicModel } from "@mcp-gen/runtime/anthropic";
import { openaiModel } from "@mcp-gen/runtime/openai";
import { diagnostic, McpGenError } from "@mcp-gen/schema";

export type ChatProvider = "anthropic" | "openai";

/** Models used when `--model` is not given. */
export const DEFAULT_MODELS: Record<ChatProvider, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-5.4",
};

const KEYS: Record<ChatProvider, string[]> = {
  anthropic: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"],
  openai: ["OPENAI_API_KEY"],
};

const has = (env: NodeJS.ProcessEnv, name: string) => (env[name] ?? "") !== "";

/**
 * The model of `mcp-gen chat`: the provider named by `--provider`, else the one whose API key
 * is set (Anthropic first). The SDKs read the keys and `ANTHROPIC_BASE_URL` / `OPENAI_BASE_URL`
 * themselves; without a key this says exactly what to set.
 */
export function chatModel(options: {
  provider?: ChatProvider;
  model?: string;
  env?: NodeJS.ProcessEnv;
}): ModelProvider {
  const env = options.env ?? process.env;
  const provider =
    options.provider ??
    (KEYS.anthropic.some((k) => has(env, k))
      ? "anthropic"
      : KEYS.openai.some((k) => has(env, k))
        ? "openai"
        : undefined);
  if (!provider || !KEYS[provider].some((k) => has(env, k))) {
    const which = provider ?? "a model provider";
    throw new McpGenError(
      diagnostic("MCPG080", `no API key for ${which}`, {
        fix:
          provider === "openai"
            ? "set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible endpoint)"
            : provider === "anthropic"
              ? "set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for a Messages-compatible endpoint)"
              : "set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for a compatible endpoint) or OPENAI_API_KEY (and OPENAI_BASE_URL); --provider chooses when both are set",
      }),
    );
  }
  const model = options.model ?? DEFAULT_MODELS[provider];
  return provider === "anthropic" ? anthropicModel({ model }) : openaiModel({ model });
}
