/** Keeps namespaces to names every engine accepts unquoted. */
export function checkNamespace(namespace: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(namespace)) {
    throw new TypeError(
      `Invalid state namespace ${JSON.stringify(namespace)}: use up to 41 letters, digits and "_", not starting with a digit`,
    );
  }
  return namespace;
}

/** `url` without its password (and without `namespace`), for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
  }
}

/**
 * Imports an engine's client package (an optional peer dependency) at run time, with an error that
 * says how to install it when it is missing. The name is not a literal in `import()`, so bundlers
 * (esbuild, Rollup, webpack) leave it to run time instead of failing to resolve a package that a
 * server without that engine never installs.
 */
export async function importClient<T>(name: string, shown: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" || !String((error as Error).message).includes(`'${name}'`))
      throw error;
    throw new Error(`The state URL ${shown} needs the "${name}" package: npm install ${name}`, {
      cause: error,
    });
  }
}
