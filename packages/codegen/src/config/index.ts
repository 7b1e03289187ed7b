export { defineConfig, type McpGenConfig, type NamingStyle, type ServerConfig } from "./define.ts";
