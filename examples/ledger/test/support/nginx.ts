import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

/** The shipped config: the test changes only its ports (8080 and 3001-3003). */
export const NGINX_CONF = new URL("../../deploy/nginx.conf", import.meta.url);

/** The nginx binary: `LEDGER_NGINX` (exported by .ci/nginx.sh), else the usual places. */
export function findNginx(): string | undefined {
  const env = process.env.LEDGER_NGINX;
  if (env) return env;
  for (const candidate of ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

export const NGINX_SKIP = process.env.LEDGER_NGINX_SKIP === "1";
export const NGINX_MISSING =
  "nginx is not installed, so the replica test cannot run. `source .ci/nginx.sh` installs Debian's " +
  "nginx when missing (as root) and exports LEDGER_NGINX; set LEDGER_NGINX_SKIP=1 to skip it locally.";

/** A free TCP port on 127.0.0.1 (bound and released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The shipped config with the balancer on `port` and the replicas on `replicaPorts` (three). */
export function nginxConfig(options: { port: number; replicaPorts: readonly number[] }): string {
  if (options.replicaPorts.length !== 3) throw new Error("the shipped nginx.conf balances three replicas");
  const shipped = readFileSync(NGINX_CONF, "utf8");
  const replaced = shipped
    .replaceAll("127.0.0.1:8080", `127.0.0.1:${options.port}`)
    .replace(
      /127\.0\.0\.1:300([123])\b/g,
      (_, n: string) => `127.0.0.1:${options.replicaPorts[Number(n) - 1]}`,
    );
  if (replaced === shipped) throw new Error(`${NGINX_CONF.pathname} has none of the ports the test replaces`);
  return replaced;
}

/** nginx running in the foreground with its own prefix directory. */
export interface RunningNginx {
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts nginx on `config` (checked with `nginx -t` first) and waits until it answers. */
export async function startNginx(options: {
  binary: string;
  config: string;
  port: number;
}): Promise<RunningNginx> {
  const prefix = mkdtempSync(path.join(os.tmpdir(), "ledger-nginx-"));
  const conf = path.join(prefix, "nginx.conf");
  writeFileSync(conf, options.config);
  execFileSync(options.binary, ["-t", "-q", "-p", `${prefix}/`, "-c", conf], { stdio: "pipe" });
  const child: ChildProcess = spawn(options.binary, ["-p", `${prefix}/`, "-c", conf, "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${stderr}`);
    const up = await fetch(`${url}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (attempt === 200) throw new Error(`nginx did not answer on ${url}:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      // SIGQUIT: nginx's graceful shutdown (SIGTERM is its fast one).
      child.kill("SIGQUIT");
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
