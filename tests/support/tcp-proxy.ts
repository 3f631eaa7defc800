import net from "node:net";

/**
 * A loopback TCP proxy in front of PostgreSQL that a test can cut and restore: `stop` refuses new
 * connections and cuts every open one (what the app sees when PostgreSQL shuts down), `start`
 * listens again on the same port. The shared test cluster itself is never touched.
 */
export type TcpProxy = { port: number; stop(): Promise<void>; start(): Promise<void>; close(): Promise<void> };

/**
 * Where a connection string's server listens: the embedded cluster's Unix socket (`?host=<folder>`,
 * server/db/embedded-postgres.ts) or a TCP address (TEST_DATABASE_URL).
 */
export function serverAddress(connectionString: string): net.NetConnectOpts {
  const url = new URL(connectionString);
  const port = Number(url.port || 5432);
  const socketDir = url.searchParams.get("host");
  if (socketDir?.startsWith("/")) return { path: `${socketDir}/.s.PGSQL.${port}` };
  return { host: socketDir ?? url.hostname, port };
}

export async function startTcpProxy(target: net.NetConnectOpts): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = net.createServer((client) => {
        const upstream = net.connect(target);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      next.once("error", reject);
      next.listen(port, "127.0.0.1", () => {
        port = (next.address() as net.AddressInfo).port;
        server = next;
        resolve();
      });
    });

  const stop = async () => {
    const current = server;
    server = null;
    if (!current) return;
    const closed = new Promise<void>((resolve) => current.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  await listen();
  return { port, stop, start: listen, close: stop };
}
