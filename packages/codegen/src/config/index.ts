export {
  defineConfig,
  type McpGenConfig,
  type NamingStyle,
  type ProviderTarget,
  type ServerConfig,
} from "./define.ts";
