import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import os from "node:os";
import path from "node:path";

/** The shared engines of the suite (.ci/redis.sh and .ci/postgres.sh export them). */
export const REDIS_URL = process.env.MCP_GEN_REDIS_URL;
export const PG_URL = process.env.LEDGER_PG_URL;
export const ENGINES_MISSING =
  "The shared state tests need Redis and PostgreSQL: `source .ci/redis.sh` and `source .ci/postgres.sh` " +
  "(scripts/test.sh does) export MCP_GEN_REDIS_URL and LEDGER_PG_URL; MCP_GEN_STATE_SKIP=1 skips them locally.";
export const ENGINES_SKIP = process.env.MCP_GEN_STATE_SKIP === "1";

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

/** Resolves once something accepts connections on `port`. */
async function listening(port: number, exited: () => boolean): Promise<void> {
  for (;;) {
    if (exited()) throw new Error(`the engine on port ${port} exited`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An engine of its own, which a test may stop and start again (same data, same port). */
export interface OwnEngine {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** A redis-server with the append-only file on, in a temp dir. */
export async function ownRedis(): Promise<OwnEngine> {
  const binary = process.env.MCP_GEN_REDIS_SERVER ?? "redis-server";
  const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-redis-"));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      binary,
      [
        "--bind",
        "127.0.0.1",
        "--port",
        String(port),
        "--dir",
        dir,
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--save",
        "",
      ],
      { stdio: "ignore" },
    );
    child = started;
    await listening(port, () => started.exitCode !== null);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    // SIGKILL: a crash, not a shutdown — what the append-only file must survive.
    running.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A PostgreSQL cluster of its own (Debian's binaries), trusting local connections. */
export async function ownPostgres(): Promise<OwnEngine> {
  const root = "/usr/lib/postgresql";
  const version = existsSync(root)
    ? readdirSync(root)
        .sort((a, b) => Number(a) - Number(b))
        .at(-1)
    : undefined;
  if (!version) throw new Error("PostgreSQL is not installed: `source .ci/postgres.sh` installs it");
  const bin = path.join(root, version, "bin");
  const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-pg-"));
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args], {
          cwd: "/",
          stdio: "pipe",
        })
      : execFileSync(path.join(bin, tool), args, { stdio: "pipe" });
  run("initdb", ["-D", `${dir}/data`, "-U", "state", "-A", "trust", "--no-sync"]);
  const port = await freePort();
  const start = async () => {
    run("pg_ctl", [
      "-D",
      `${dir}/data`,
      "-l",
      `${dir}/log`,
      "-w",
      "-o",
      `-h 127.0.0.1 -p ${port} -k ${dir} -c fsync=off`,
      "start",
    ]);
  };
  const stop = async () => {
    // Immediate: a crash of the server (recovery from the WAL on the next start).
    run("pg_ctl", ["-D", `${dir}/data`, "-m", "immediate", "stop"]);
  };
  await start();
  return {
    url: `postgres://state@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async dispose() {
      await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
