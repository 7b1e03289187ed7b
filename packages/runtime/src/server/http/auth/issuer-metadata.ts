/** What the server reads of its authorization server's metadata (RFC 8414 / OpenID Connect Discovery). */
export interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
}

/**
 * The authorization server's metadata, fetched when first needed and kept; a failed fetch is
 * tried again on the next request. Discovery (RFC 8414 and OpenID Connect paths, in the order
 * MCP gives them, with the issuer check) is the SDK client's.
 */
export function issuerMetadata(issuer: string): () => Promise<IssuerMetadata> {
  let pending: Promise<IssuerMetadata> | undefined;
  return () => {
    pending ??= discover(issuer).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

async function discover(issuer: string): Promise<IssuerMetadata> {
  const { discoverAuthorizationServerMetadata } = await import("@modelcontextprotocol/client");
  const metadata = await discoverAuthorizationServerMetadata(issuer);
  if (!metadata) {
    throw new Error(
      `mcp-gen: no authorization server metadata at ${issuer} (tried RFC 8414 and OpenID Connect discovery); check --auth-issuer, or give --auth-jwks / --auth-introspection`,
    );
  }
  return metadata as IssuerMetadata;
}
