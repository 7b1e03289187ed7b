/**
 * The `_meta` envelope a raw 2026-07-28 request carries (protocol version, client info and
 * capabilities), for tests that speak to the server without an SDK client.
 */
export function modernEnvelope(
  capabilities: Record<string, unknown> = {},
  clientInfo: { name: string; version: string } = { name: "raw", version: "1" },
): Record<string, unknown> {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": clientInfo,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
  };
}
