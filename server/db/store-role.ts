import pg from "pg";
import { scramVerifier } from "./cluster-credentials";

/**
 * The store's role in the embedded cluster: it logs in, owns the store's database and everything
 * in it (so migrations run as it: tables, functions, the trusted extensions pg_trgm and citext,
 * schemas of its own), and may run the three backup functions the store calls. Nothing more: not
 * superuser, no CREATEDB or CREATEROLE, no pg_execute_server_program or pg_read_server_files, so
 * `COPY … FROM PROGRAM` and reading the server's files are refused to it.
 */
export const BACKUP_FUNCTIONS = ["pg_backup_start(text, boolean)", "pg_backup_stop(boolean)", "pg_switch_wal()"];

/**
 * Creates the role, or brings it back to exactly this (its password from the cluster's file):
 * run by the superuser at every start. The password is changed only when it differs, as a SCRAM
 * verifier, never in clear.
 */
export async function ensureStoreRole(superuser: pg.Client, store: { role: string; password: string }) {
  const role = superuser.escapeIdentifier(store.role);
  const { rows } = await superuser.query<{ rolpassword: string | null }>(
    "SELECT rolpassword FROM pg_authid WHERE rolname = $1",
    [store.role],
  );
  const attributes = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS";
  if (rows.length === 0) {
    await superuser.query(
      `CREATE ROLE ${role} ${attributes} PASSWORD ${superuser.escapeLiteral(scramVerifier(store.password))}`,
    );
    return;
  }
  const password = verifierMatches(rows[0]!.rolpassword, store.password)
    ? ""
    : ` PASSWORD ${superuser.escapeLiteral(scramVerifier(store.password))}`;
  await superuser.query(`ALTER ROLE ${role} ${attributes}${password}`);
}

/** Whether a stored SCRAM verifier is this password's (computed again with its salt and iterations). */
export function verifierMatches(stored: string | null, password: string): boolean {
  const match = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(stored ?? "");
  if (!match) return false;
  return scramVerifier(password, Buffer.from(match[2]!, "base64"), Number(match[1])) === stored;
}

type UrlFor = (database: string) => string;

/**
 * Creates the database (owned by the store's role) when asked and missing; then hands the store's
 * role whatever in it another role still owns, and the right to run the backup functions (rights
 * on functions are kept per database). For a database made by the code before 2026-11-25, where
 * the superuser owned everything, this is the upgrade; afterwards it finds nothing to do.
 * One transaction: a start cut short leaves the database as it was, and the next start does it all.
 */
export async function prepareStoreDatabase(
  superuserUrlFor: UrlFor,
  storeRole: string,
  database: string,
  options: { create: boolean; template?: string },
) {
  const maintenance = new pg.Client({ connectionString: superuserUrlFor("postgres") });
  await maintenance.connect();
  try {
    const { rowCount } = await maintenance.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) {
      if (!options.create) throw new Error(`The embedded cluster holds no database "${database}"`);
      const template = options.template ? ` TEMPLATE ${maintenance.escapeIdentifier(options.template)}` : "";
      await maintenance.query(
        `CREATE DATABASE ${maintenance.escapeIdentifier(database)}${template} OWNER ${maintenance.escapeIdentifier(storeRole)}`,
      );
    }
  } finally {
    await maintenance.end().catch(() => {});
  }

  const client = new pg.Client({ connectionString: superuserUrlFor(database) });
  await client.connect();
  try {
    await client.query("BEGIN");
    const role = client.escapeIdentifier(storeRole);
    await client.query(`ALTER DATABASE ${client.escapeIdentifier(database)} OWNER TO ${role}`);
    for (const statement of await ownershipStatements(client, storeRole)) await client.query(statement);
    await client.query(
      `GRANT EXECUTE ON FUNCTION ${BACKUP_FUNCTIONS.map((fn) => `pg_catalog.${fn}`).join(", ")} TO ${role}`,
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * ALTER … OWNER TO statements for every object of the database's own schemas that another role
 * owns: schemas, tables, views, sequences not owned by a column, functions, procedures,
 * aggregates and types. PostgreSQL's REASSIGN OWNED refuses to move what the bootstrap superuser
 * owns, hence one by one. Members of an extension stay as they are (they belong to it), and so do
 * indexes, a column's sequence and a table's row type, which follow their table.
 */
async function ownershipStatements(client: pg.Client, storeRole: string): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>(
    `WITH store AS (SELECT oid FROM pg_roles WHERE rolname = $1),
     own_schemas AS (
       SELECT oid, nspname, nspowner FROM pg_namespace
        WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema'),
     extension_members AS (
       SELECT classid, objid FROM pg_depend WHERE deptype = 'e')
     SELECT format('ALTER SCHEMA %I OWNER TO %I', s.nspname, $1) AS statement
       FROM own_schemas s
      WHERE s.nspowner NOT IN ((SELECT oid FROM store), 'pg_database_owner'::regrole)
        AND NOT EXISTS (SELECT 1 FROM extension_members e WHERE e.classid = 'pg_namespace'::regclass AND e.objid = s.oid)
     UNION ALL
     SELECT format('ALTER %s %s OWNER TO %I',
                   CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE'
                                  WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'c' THEN 'TYPE' ELSE 'TABLE' END,
                   c.oid::regclass, $1)
       FROM pg_class c JOIN own_schemas s ON s.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f', 'c')
        AND c.relowner <> (SELECT oid FROM store)
        AND NOT EXISTS (SELECT 1 FROM extension_members e WHERE e.classid = 'pg_class'::regclass AND e.objid = c.oid)
        AND NOT (c.relkind = 'S' AND EXISTS (
              SELECT 1 FROM pg_depend d
               WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                 AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')))
     UNION ALL
     SELECT format('ALTER %s %s OWNER TO %I',
                   CASE p.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END,
                   p.oid::regprocedure, $1)
       FROM pg_proc p JOIN own_schemas s ON s.oid = p.pronamespace
      WHERE p.proowner <> (SELECT oid FROM store)
        AND NOT EXISTS (SELECT 1 FROM extension_members e WHERE e.classid = 'pg_proc'::regclass AND e.objid = p.oid)
     UNION ALL
     SELECT format('ALTER TYPE %s OWNER TO %I', t.oid::regtype, $1)
       FROM pg_type t JOIN own_schemas s ON s.oid = t.typnamespace
      WHERE t.typtype IN ('d', 'e', 'r')
        AND t.typowner <> (SELECT oid FROM store)
        AND NOT EXISTS (SELECT 1 FROM extension_members e WHERE e.classid = 'pg_type'::regclass AND e.objid = t.oid)`,
    [storeRole],
  );
  return rows.map((row) => row.statement);
}
