/** The cache folder of one command line in one working directory. */
export declare function serveCacheDir(argv: string[], cwd?: string): string;
/** Runs the cached bundle when it is fresh; resolves false (nothing started) otherwise. */
export declare function runCachedServe(argv: string[]): Promise<boolean>;
