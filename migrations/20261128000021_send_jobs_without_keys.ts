import type { Knex } from "knex";

/**
 * A new message's send job carries no job key (bench/README.md, "Checkout's cost"). Migrations
 * 20261125000026 and 20261125000029 gave each job for a new outbox mail or order text the key
 * `outbox:<id>` or `text:<id>`; with a key, graphile_worker.add_jobs first looks for running jobs
 * of those keys to set aside (an UPDATE of its jobs table) and inserts on conflict of the key:
 * the larger part of the 10 ms of PostgreSQL wall time per order that checkout's two add_jobs
 * calls took under the bench's load. A new message's id is new, so no job can hold its key yet.
 * What makes each message go out once is the sender's, not the key: it takes the row FOR UPDATE
 * SKIP LOCKED while it is still queued (server/mail/outbox-sender.ts, server/flows/order-texts.ts),
 * so a second job for it finds nothing to do. A message queued again (a retry, an admin's Retry)
 * keeps its keyed job (outbox_send_job_for_requeued_row), one waiting per message.
 */
const TEXT_SEND_ATTEMPTS = 10;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(jobsForNewRows(null));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(jobsForNewRows({ outbox: "'outbox:' || id", text: "'text:' || id" }));
}

function jobsForNewRows(keys: { outbox: string; text: string } | null): string {
  return `
    CREATE OR REPLACE FUNCTION outbox_send_jobs_for_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM graphile_worker.add_jobs(ARRAY(
        SELECT ROW('send-mail', json_build_object('outboxId', id), NULL, next_attempt_at, NULL,
                   ${keys?.outbox ?? "NULL"}, NULL, NULL)::graphile_worker.job_spec
          FROM new_rows WHERE state = 'queued'));
      RETURN NULL;
    END
    $$;
    CREATE OR REPLACE FUNCTION order_messages_send_jobs_for_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM graphile_worker.add_jobs(ARRAY(
        SELECT ROW('send-text', json_build_object('messageId', id), NULL, NULL, ${TEXT_SEND_ATTEMPTS},
                   ${keys?.text ?? "NULL"}, NULL, NULL)::graphile_worker.job_spec
          FROM new_rows WHERE status = 'queued'));
      RETURN NULL;
    END
    $$;`;
}
