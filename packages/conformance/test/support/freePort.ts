/**
 * A loopback port free at the time of asking, for a program of another process that must be told its port
 * before it starts (a PostgreSQL server, a cluster runner): the port a listener on port 0 was given.
 */
import { createServer } from "node:net"

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() =>
        typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))
      )
    })
  })
