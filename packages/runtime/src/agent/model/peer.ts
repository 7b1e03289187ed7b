/** The `code` of the error `importPeer` throws when the package is not installed. */
export const MISSING_PEER = "ERR_MCP_GEN_MISSING_PEER";

/**
 * Imports an optional peer dependency (an LLM provider's SDK) on first use. When it is not
 * installed, the error names the package and how to install it instead of Node's bare
 * `ERR_MODULE_NOT_FOUND`.
 *
 * @example
 * const { default: OpenAI } = await importPeer("openai", "openaiModel", () => import("openai"));
 */
export async function importPeer<T>(pkg: string, user: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code !== "ERR_MODULE_NOT_FOUND" || !message.includes(`'${pkg}'`)) throw error;
    throw Object.assign(
      new Error(
        `${user}() needs the package "${pkg}", an optional peer dependency of @mcp-gen/runtime that is not installed: npm install ${pkg}`,
        { cause: error },
      ),
      { code: MISSING_PEER },
    );
  }
}
