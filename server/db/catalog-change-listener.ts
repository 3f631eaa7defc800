import pg from "pg";
import type { Logger } from "../logging/logger";

/** The channel the products trigger notifies (migration 6). */
export const CATALOG_CHANGED_CHANNEL = "catalog_changed";

const RECONNECT_DELAYS_MS = [250, 1_000, 2_000, 5_000];

/**
 * Listens, on a connection of its own, for product changes made by any app server. `onLost` is
 * called as soon as the connection fails (whoever relies on it must stop trusting what it knows),
 * `onListening` once LISTEN is in place again, after which nothing is missed.
 */
export function listenForCatalogChanges(options: {
  connectionString: string;
  logger: Logger;
  /** `productIds` null: anything may have changed; otherwise only these products' stock. */
  onChange: (productIds: string[] | null) => void;
  onListening: () => void;
  onLost: () => void;
}): { close(): Promise<void> } {
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | null = null;

  /** Called once per failed connection (its error and end events, or a failed LISTEN). */
  const lost = (failed: pg.Client, error?: Error) => {
    if (closed || client !== failed) return;
    client = null;
    options.onLost();
    failed.removeAllListeners();
    failed.on("error", () => {});
    void failed.end().catch(() => {});
    const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;
    attempt++;
    if (attempt === 1)
      options.logger.warn({ err: error }, "catalog change listener lost; page cache off until it is back");
    timer = setTimeout(() => void connect(), delay);
  };

  const connect = async () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: options.connectionString, connectionTimeoutMillis: 5_000 });
    client = next;
    next.on("notification", (message) => {
      if (message.channel !== CATALOG_CHANGED_CHANNEL) return;
      const payload = message.payload ?? "";
      // "*" (or anything unexpected) means everything; a list of ids, only those products.
      const ids = payload.split(",");
      options.onChange(payload && payload !== "*" && ids.every((id) => /^[0-9a-f-]{36}$/.test(id)) ? ids : null);
    });
    next.on("error", (error) => lost(next, error));
    next.on("end", () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${CATALOG_CHANGED_CHANNEL}`);
      if (closed || client !== next) return;
      if (attempt > 0) options.logger.info("catalog change listener back; page cache on");
      attempt = 0;
      options.onListening();
    } catch (error) {
      lost(next, error as Error);
    }
  };

  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners();
        current.on("error", () => {});
        await current.end().catch(() => {});
      }
    },
  };
}
