/**
 * A PostgreSQL server of the test's own: a fresh cluster in a temporary folder, on a free loopback port,
 * stopped and removed when the test ends. The server programs are found in `STUDIO_PG_BINDIR`, else in
 * Debian's `/usr/lib/postgresql/<version>/bin`; PostgreSQL refuses to run as root, so a root process runs
 * them as the `postgres` user. A machine without them fails the test, saying what is missing.
 */
import { execFile } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { freePort } from "./freePort.js"

// the programs run asynchronously: a test worker blocked for long cannot answer its runner
const run = promisify(execFile)

/**
 * A running server: its connection URL (of the database `postgres`), the URL of a database of that name
 * (created on first use), a query's rows in a database (`psql`'s unaligned lines), and how to stop it.
 */
export interface Postgres {
  readonly url: string
  readonly database: (name: string) => Promise<string>
  readonly query: (sql: string, database?: string) => Promise<ReadonlyArray<string>>
  readonly stop: () => Promise<void>
}

const binDir = (): string => {
  const configured = process.env["STUDIO_PG_BINDIR"]
  if (configured !== undefined && configured !== "") return configured
  const debian = "/usr/lib/postgresql"
  const versions = existsSync(debian)
    ? readdirSync(debian).filter((version) => existsSync(join(debian, version, "bin", "initdb"))).sort(
      (a, b) => Number(b) - Number(a)
    )
    : []
  if (versions.length === 0) {
    throw new Error(
      "PostgreSQL's server programs were not found: install PostgreSQL 15 (Debian: apt-get install postgresql-15) " +
        "or set STUDIO_PG_BINDIR to the folder holding initdb and pg_ctl"
    )
  }
  return join(debian, versions[0]!, "bin")
}

/** Starts a server; its database `postgres` is reachable at `url` with no password (trust on loopback). */
export const startPostgres = async (): Promise<Postgres> => {
  const bin = binDir()
  const asRoot = process.getuid?.() === 0
  const server = (program: string, args: ReadonlyArray<string>) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(bin, program), ...args])
      : run(join(bin, program), args)
  const directory = mkdtempSync(join(tmpdir(), "studio-pg-"))
  if (asRoot) {
    const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim())
    const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim())
    chownSync(directory, uid, gid)
  }
  const data = join(directory, "data")
  await server("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"])
  const port = await freePort()
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  await server("pg_ctl", ["-D", data, "-o", options, "-l", join(directory, "log"), "-w", "-t", "60", "start"])
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
  const query = async (sql: string, database = "postgres") =>
    (await run(join(bin, "psql"), ["-d", urlOf(database), "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])).stdout
      .split("\n").filter((line) => line !== "")
  const databases = new Set(["postgres"])
  return {
    url: urlOf("postgres"),
    database: async (name) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`)
      if (!databases.has(name)) {
        databases.add(name)
        await query(`create database ${name}`)
      }
      return urlOf(name)
    },
    query,
    stop: async () => {
      try {
        await server("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
      } finally {
        rmSync(directory, { recursive: true, force: true })
      }
    }
  }
}
