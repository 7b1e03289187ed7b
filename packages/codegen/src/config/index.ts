export {
  defineConfig,
  type ImportExtension,
  type McpGenConfig,
  type NamingStyle,
  type ProviderTarget,
  type ServerConfig,
} from "./define.ts";
