import type { Knex } from "knex";

/**
 * Mail and stock alerts move onto the job queue (docs/decisions/2026-11-25-job-queue.md); its
 * schema, graphile_worker, is installed before the store's migrations (server/db/database.ts).
 *
 * - A message written to the outbox, by any path (a service, checkout's one statement, SQL by
 *   hand), gets its send job in the same statement: one add_jobs call per INSERT statement,
 *   whatever the number of rows, so checkout keeps its round trips.
 * - A message queued again (a retry after a failure, at its next_attempt_at; an admin's retry of
 *   a failed one) gets a job at that time. The job key `outbox:<id>` keeps one waiting job per
 *   message.
 * - Stock alerts made due by a restock (migration 20261123000015's trigger) get one keyed job that
 *   turns them into mails once the restock commits, whatever made it.
 * - Messages already queued when this runs get their jobs, and the index the old sender polled
 *   goes (the job names its message).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION outbox_send_jobs_for_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM graphile_worker.add_jobs(ARRAY(
        SELECT ROW('send-mail', json_build_object('outboxId', id), NULL, next_attempt_at, NULL,
                   'outbox:' || id, NULL, NULL)::graphile_worker.job_spec
          FROM new_rows WHERE state = 'queued'));
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER outbox_send_jobs AFTER INSERT ON outbox
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_send_jobs_for_new_rows()`);
  await knex.raw(`
    CREATE FUNCTION outbox_send_job_for_requeued_row() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM graphile_worker.add_job('send-mail', json_build_object('outboxId', NEW.id),
                                      run_at => NEW.next_attempt_at, job_key => 'outbox:' || NEW.id);
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER outbox_send_job_again AFTER UPDATE OF state, next_attempt_at ON outbox
    FOR EACH ROW WHEN (NEW.state = 'queued' AND (OLD.state <> 'queued' OR OLD.next_attempt_at <> NEW.next_attempt_at))
    EXECUTE FUNCTION outbox_send_job_for_requeued_row()`);
  await knex.raw(`
    SELECT graphile_worker.add_jobs(ARRAY(
      SELECT ROW('send-mail', json_build_object('outboxId', id), NULL, next_attempt_at, NULL,
                 'outbox:' || id, NULL, NULL)::graphile_worker.job_spec
        FROM outbox WHERE state = 'queued'))`);

  await knex.raw("DROP INDEX outbox_due_idx");

  await knex.raw(`
    CREATE OR REPLACE FUNCTION stock_alerts_due() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE stock_alerts SET state = 'due' WHERE product_id = NEW.id AND state = 'waiting';
      IF FOUND THEN
        PERFORM graphile_worker.add_job('stock-alerts-due', '{}'::json, job_key => 'stock-alerts-due');
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    SELECT graphile_worker.add_job('stock-alerts-due', '{}'::json, job_key => 'stock-alerts-due')
     WHERE EXISTS (SELECT 1 FROM stock_alerts WHERE state = 'due')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE OR REPLACE FUNCTION stock_alerts_due() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE stock_alerts SET state = 'due' WHERE product_id = NEW.id AND state = 'waiting';
      RETURN NULL;
    END
    $$`);
  await knex.raw("CREATE INDEX outbox_due_idx ON outbox (next_attempt_at, id) WHERE state = 'queued'");
  await knex.raw("DROP TRIGGER outbox_send_job_again ON outbox");
  await knex.raw("DROP FUNCTION outbox_send_job_for_requeued_row()");
  await knex.raw("DROP TRIGGER outbox_send_jobs ON outbox");
  await knex.raw("DROP FUNCTION outbox_send_jobs_for_new_rows()");
}
