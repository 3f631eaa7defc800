/**
 * The store's job queue on a real PostgreSQL (docs/decisions/2026-11-25-job-queue.md): a job
 * written in a transaction exists only if it commits; two runners on one database run each job
 * once; a job due later waits for its time; a failed attempt is tried again.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/test-database";
import { enqueueJob } from "./enqueue-job";
import { startJobRunner, type JobHandlers, type JobRunner } from "./job-runner";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** Handlers that record what they ran (the mail's task carries the message's id). */
function recordingHandlers(ran: string[], failFirst = new Set<string>()): JobHandlers {
  return {
    "send-mail": async ({ outboxId }, { attempt }) => {
      if (failFirst.has(outboxId) && attempt === 1) throw new Error(`first attempt of ${outboxId} fails`);
      // Long enough that two runners would both be in it if each took the job.
      await new Promise((resolve) => setTimeout(resolve, 5));
      ran.push(outboxId);
    },
    "stock-alerts-due": async () => {},
    "base-backup": async () => {},
    "send-text": async () => {},
    "confirmation-deadlines": async () => {},
    "courier-sync": async () => {},
    "unpaid-transfers": async () => {},
    "report-rollups": async () => {},
  };
}

async function runner(handlers: JobHandlers, pollMs = 50): Promise<JobRunner> {
  return startJobRunner({ connectionString: database.url, handlers, logger: pino({ level: "silent" }), pollMs });
}

const waitingJobs = async (task: string) =>
  (await database.db.raw("SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = ?", [task])).rows[0]
    .n as number;

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("enqueueJob", () => {
  it("writes a job only when the caller's transaction commits", async () => {
    await database.db
      .transaction(async (trx) => {
        await enqueueJob(trx, "send-mail", { outboxId: "rolled-back" });
        throw new Error("the order failed");
      })
      .catch(() => {});
    await database.db.transaction((trx) => enqueueJob(trx, "send-mail", { outboxId: "committed" }));
    const ran: string[] = [];
    const first = await runner(recordingHandlers(ran));
    try {
      await until(async () => (await waitingJobs("send-mail")) === 0, "the committed job run");
      expect(ran).toEqual(["committed"]);
    } finally {
      await first.stop();
    }
  });

  it("keeps one waiting job per key, and holds a job until its time", async () => {
    for (const id of ["keyed-1", "keyed-2"]) {
      await enqueueJob(database.db, "send-mail", { outboxId: id }, { jobKey: "one-per-key" });
    }
    await enqueueJob(database.db, "send-mail", { outboxId: "later" }, { runAt: new Date(Date.now() + 60 * 60_000) });
    const ran: string[] = [];
    const first = await runner(recordingHandlers(ran));
    try {
      await first.runDueJobs();
      expect(ran).toEqual(["keyed-2"]);
      expect(await waitingJobs("send-mail")).toBe(1);
    } finally {
      await first.stop();
      await database.db.raw("DELETE FROM graphile_worker._private_jobs");
    }
  });
});

describe("two runners on one database", () => {
  it("run each job exactly once, woken by the commit, and try a failed attempt again", async () => {
    const ran: string[] = [];
    const failFirst = new Set(["flaky"]);
    // Long polls: the jobs must be found through the commit's NOTIFY, not by looking.
    const [first, second] = await Promise.all([
      runner(recordingHandlers(ran, failFirst), 60_000),
      runner(recordingHandlers(ran, failFirst), 60_000),
    ]);
    try {
      const ids = Array.from({ length: 40 }, (_, i) => `job-${i}`);
      await database.db.transaction(async (trx) => {
        for (const id of ids) await enqueueJob(trx, "send-mail", { outboxId: id });
      });
      await until(() => ran.length >= ids.length, "40 jobs run");
      await Promise.all([first.runDueJobs(), second.runDueJobs()]);
      expect([...ran].sort()).toEqual([...ids].sort());

      // The queue's retry comes exp(1) ≈ 2.7 s later.
      await enqueueJob(database.db, "send-mail", { outboxId: "flaky" });
      await until(async () => {
        await first.runDueJobs();
        return ran.includes("flaky");
      }, "the flaky job's second attempt");
      expect(ran.filter((id) => id === "flaky")).toHaveLength(1);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  }, 60_000);
});
