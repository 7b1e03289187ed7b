import type { ServerManifest } from "../server/manifest.ts";
import type { RunningServer, ServeOptions } from "../server/serve.ts";
import { type WithCodeToolOptions, withCodeTool } from "./code-tool.ts";

/**
 * `serve(manifest, { code })`: the manifest with its code tool, served with the other options; the
 * code tool's sandbox stops when the server does. `update(next)` serves `next` with a code tool of
 * its own once it is built (the declarations follow the new tools; a build that fails leaves the
 * previous tools served, with a process warning).
 */
export async function serveWithCode(input: {
  manifest: ServerManifest;
  code: Omit<WithCodeToolOptions, "manifest">;
  options: ServeOptions;
  serve: (manifest: ServerManifest, options: ServeOptions) => Promise<RunningServer>;
}): Promise<RunningServer> {
  let coded = await withCodeTool({ ...input.code, manifest: input.manifest });
  let running: RunningServer;
  try {
    running = await input.serve(coded.manifest, input.options);
  } catch (error) {
    await coded.close();
    throw error;
  }
  void running.closed.then(() => coded.close());
  return {
    url: running.url,
    closed: running.closed,
    close: () => running.close(),
    drain: (timeoutMs) => running.drain(timeoutMs),
    notifyResourceUpdated: (uri) => running.notifyResourceUpdated(uri),
    update(next) {
      withCodeTool({ ...input.code, manifest: next }).then(
        (replaced) => {
          const previous = coded;
          coded = replaced;
          running.update(replaced.manifest);
          void previous.close();
        },
        (error: unknown) =>
          process.emitWarning(
            `the code tool could not be built for the updated manifest (${error instanceof Error ? error.message : String(error)}); the previous tools are still served`,
          ),
      );
    },
  };
}
