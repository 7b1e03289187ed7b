/** The cache folders of this CLI on this Node: the bundle, and the code cache of large files. */
export declare function buildCacheDirs(): { bundle: string; code: string };
/** Runs the cached bundle when it is fresh; resolves false (nothing started) otherwise. */
export declare function runCachedBuild(argv: string[]): Promise<boolean>;
