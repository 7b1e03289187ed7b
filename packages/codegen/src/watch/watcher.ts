import { existsSync, type FSWatcher, watch } from "node:fs";
import path from "node:path";
import { BuildSession, type RebuildResult } from "./session.ts";

/** What the watcher reports, in order: a build (or failure) per batch of changes. */
export type WatchEvent =
  | { type: "built"; result: RebuildResult; ms: number; initial: boolean }
  | { type: "failed"; error: Error; ms: number; initial: boolean }
  | { type: "watching"; files: number }
  | { type: "changed"; files: string[] };

export interface WatchOptions {
  configFile?: string;
  cwd?: string;
  servers?: string[];
  onEvent(event: WatchEvent): void;
  /** Quiet time before a batch of changes is built (default 40 ms): editors save in several steps. */
  debounceMs?: number;
}

/** A running watcher. */
export interface Watcher {
  close(): void;
}

/**
 * `mcp-gen build --watch`: builds once, then rebuilds on every change of a tool module, a file it
 * imports, a hand-written contract or the config (which restarts the session). Failures are
 * reported and the watcher keeps running; the next change retries.
 *
 * @example
 * const watcher = await watchBuild({ cwd: process.cwd(), onEvent: (e) => console.log(e.type) });
 */
export async function watchBuild(options: WatchOptions): Promise<Watcher> {
  const debounce = options.debounceMs ?? 40;
  let session: BuildSession;
  let watchers: FSWatcher[] = [];
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let closed = false;

  const start = async () => {
    const began = performance.now();
    const started = await BuildSession.start({
      ...(options.configFile ? { configFile: options.configFile } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.servers ? { servers: options.servers } : {}),
    });
    session = started.session;
    const ms = Math.round(performance.now() - began);
    if (started.result) options.onEvent({ type: "built", result: started.result, ms, initial: true });
    else options.onEvent({ type: "failed", error: started.error!, ms, initial: true });
  };

  const rewatch = () => {
    for (const w of watchers) w.close();
    watchers = [];
    const { files, dirs } = session.watchedPaths();
    const watchedFiles = new Set(files);
    const watchedDirs = new Set(dirs);
    for (const dir of new Set([...files.map((f) => path.dirname(f)), ...dirs])) {
      if (!existsSync(dir)) continue;
      const w = watch(dir, (_, name) => {
        if (!name) return;
        const file = path.join(dir, name.toString());
        const relevant =
          watchedFiles.has(file) ||
          (watchedDirs.has(dir) && file.endsWith(".tools.json")) ||
          /\.[cm]?tsx?$/.test(file);
        if (relevant) schedule(file);
      });
      w.on("error", () => {});
      watchers.push(w);
    }
    options.onEvent({ type: "watching", files: files.length });
  };

  const schedule = (file: string) => {
    if (closed) return;
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      running = running.then(flush);
    }, debounce);
  };

  const flush = async () => {
    if (closed || pending.size === 0) return;
    const changed = [...pending].sort();
    pending = new Set();
    options.onEvent({ type: "changed", files: changed });
    const began = performance.now();
    if (changed.includes(session.config.file)) {
      await start();
      rewatch();
      return;
    }
    try {
      const result = await session.rebuild(changed);
      options.onEvent({ type: "built", result, ms: Math.round(performance.now() - began), initial: false });
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      options.onEvent({
        type: "failed",
        error: failure,
        ms: Math.round(performance.now() - began),
        initial: false,
      });
    }
    rewatch();
  };

  await start();
  rewatch();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
