import knexFactory, { type Knex } from "knex";
import { Model, knexSnakeCaseMappers } from "objection";
import pg from "pg";
import { migrationSource } from "../../migrations/index";

// COUNT(*) and other bigints arrive as strings; every count here fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));
// Money is numeric(12, 2), which pg returns as a string. It becomes a JSON number here, the one
// place for every query (docs/api.md, "Values"); 12 digits are exact in a double. Sums are computed
// in paisa (integers) wherever the store adds money up.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number.parseFloat(value));

export type Database = Knex;

/** Each database's connection string, for the job queue's own connections (server/jobs/migrate.ts). */
const urls = new WeakMap<Database, string>();

type DatabaseLog = (level: "warn" | "error" | "debug", message: unknown) => void;

export function connectDatabase(url: string, options: { poolMax?: number; log?: DatabaseLog } = {}): Database {
  const log: DatabaseLog = options.log ?? (() => {});
  const knex = knexFactory({
    client: "pg",
    connection: { connectionString: url, connectionTimeoutMillis: 5_000 },
    pool: {
      min: 0,
      max: options.poolMax ?? 10,
      // A request waiting longer than this for a connection fails as "database unavailable"
      // rather than piling up behind a dead database.
      acquireTimeoutMillis: 10_000,
    },
    migrations: { migrationSource, tableName: "knex_migrations" },
    // Knex would print to the console; its messages go to the process's log instead.
    log: {
      warn: (message) => log("warn", message),
      error: (message) => log("error", message),
      debug: (message) => log("debug", message),
      deprecate: (message) => log("debug", message),
    },
    ...knexSnakeCaseMappers(),
  });
  Model.knex(knex);
  urls.set(knex, url);
  return knex;
}

/** The connection string a database was opened with (the job queue opens connections of its own). */
export function connectionUrlOf(knex: Database): string {
  const url = urls.get(knex);
  if (!url) throw new Error("The database was not opened with connectDatabase");
  return url;
}

/** Waits until the database answers, so a slow-starting server is not mistaken for bad config. */
export async function checkDatabase(knex: Database): Promise<void> {
  await knex.raw("select 1");
}

/** Whether the connection's role is a superuser (docs/operations.md, "The database": the store needs less). */
export async function connectsAsSuperuser(knex: Database): Promise<boolean> {
  const { rows } = await knex.raw("SELECT rolsuper FROM pg_roles WHERE rolname = current_user");
  return rows[0]?.rolsuper === true;
}
