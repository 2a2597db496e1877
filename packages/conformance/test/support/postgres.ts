/**
 * A PostgreSQL server of the test's own: a fresh cluster in a temporary folder, on a free loopback port,
 * stopped and removed when the test ends. The server programs are found in `STUDIO_PG_BINDIR`, else in
 * Debian's `/usr/lib/postgresql/<version>/bin`; PostgreSQL refuses to run as root, so a root process runs
 * them as the `postgres` user. A machine without them fails the test, saying what is missing.
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./freePort.js"

/**
 * A running server: its connection URL (of the database `postgres`), the URL of a database of that name
 * (created on first use), a query's rows in a database (`psql`'s unaligned lines), and how to stop it.
 */
export interface Postgres {
  readonly url: string
  readonly database: (name: string) => string
  readonly query: (sql: string, database?: string) => ReadonlyArray<string>
  readonly stop: () => void
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
  const run = (program: string, args: ReadonlyArray<string>) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", join(bin, program), ...args], { stdio: "pipe" })
      : execFileSync(join(bin, program), args, { stdio: "pipe" })
  const directory = mkdtempSync(join(tmpdir(), "studio-pg-"))
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim())
    chownSync(directory, uid, gid)
  }
  const data = join(directory, "data")
  run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"])
  const port = await freePort()
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  run("pg_ctl", ["-D", data, "-o", options, "-l", join(directory, "log"), "-w", "-t", "60", "start"])
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`
  const query = (sql: string, database = "postgres") =>
    execFileSync(join(bin, "psql"), ["-d", urlOf(database), "-At", "-v", "ON_ERROR_STOP=1", "-c", sql]).toString()
      .split("\n").filter((line) => line !== "")
  const databases = new Set(["postgres"])
  return {
    url: urlOf("postgres"),
    database: (name) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a database name: ${name}`)
      if (!databases.has(name)) query(`create database ${name}`)
      databases.add(name)
      return urlOf(name)
    },
    query,
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
      } finally {
        rmSync(directory, { recursive: true, force: true })
      }
    }
  }
}
