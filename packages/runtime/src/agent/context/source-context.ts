import type {
  Client,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
} from "@modelcontextprotocol/client";

/** Per-request options of reads and prompt gets. */
export interface ContextRequestOptions {
  signal?: AbortSignal;
}

/**
 * The resources, resource templates and prompts of one tool source, listed, and how to read and
 * get them. MCP sources list them over their client; in-process manifests serve them in memory.
 */
export interface SourceContext {
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplateType[];
  readonly prompts: readonly Prompt[];
  readResource(uri: string, options?: ContextRequestOptions): Promise<ReadResourceResult>;
  getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    options?: ContextRequestOptions,
  ): Promise<GetPromptResult>;
}

/** No resources, templates or prompts (a server that advertises none). */
export const EMPTY_CONTEXT: SourceContext = {
  resources: [],
  resourceTemplates: [],
  prompts: [],
  readResource: (uri) => Promise.reject(new Error(`no resource ${uri}`)),
  getPrompt: (name) => Promise.reject(new Error(`no prompt ${name}`)),
};

/**
 * Lists what a connected SDK client's server offers (every page; a server without the
 * capability lists nothing) and reads and gets through the client.
 *
 * @example
 * const context = await clientContext(connection.client);
 * const { contents } = await context.readResource("test://static-text");
 */
export async function clientContext(client: Client): Promise<SourceContext> {
  const [{ resources }, { resourceTemplates }, { prompts }] = await Promise.all([
    client.listResources(),
    client.listResourceTemplates(),
    client.listPrompts(),
  ]);
  return {
    resources,
    resourceTemplates,
    prompts,
    readResource: (uri, options = {}) => client.readResource({ uri }, requestOptions(options)),
    getPrompt: (name, args, options = {}) =>
      client.getPrompt({ name, arguments: { ...args } }, requestOptions(options)),
  };
}

function requestOptions(options: ContextRequestOptions) {
  return options.signal ? { signal: options.signal } : {};
}
