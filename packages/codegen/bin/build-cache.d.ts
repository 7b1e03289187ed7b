/** The cache folders of this CLI on this Node: the bundle, and the code cache of large files. */
export declare function buildCacheDirs(): { base: string; bundle: string; code: string; seen: string };
/** True when the cache folder is this user's own and nobody else can write to it. */
export declare function ownCacheDir(dir: string): boolean;
/** Runs the cached bundle when it is fresh; resolves false (nothing started) otherwise. */
export declare function runCachedBuild(argv: string[]): Promise<boolean>;
/** True when every input a cache recorded (path, size, mtime, inode) is still the same file. */
export declare function inputsUnchanged(
  inputs: { path: string; mtimeMs: number; size: number; ino: number }[],
): boolean;
