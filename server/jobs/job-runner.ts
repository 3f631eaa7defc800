import {
  Logger as WorkerLogger,
  parseCronItems,
  run,
  runMigrations,
  runOnce,
  type LogFunctionFactory,
  type TaskList,
} from "graphile-worker";
import pg from "pg";
import type { Logger } from "../logging/logger";
import type { JobName, JobPayloads } from "./enqueue-job";

/** What a task's handler knows of the job it runs. */
export type JobContext = {
  /** Aborted when the store stops and the job has not finished within the grace period: give up cleanly. */
  signal: AbortSignal;
  /** 1 on the first attempt. */
  attempt: number;
  maxAttempts: number;
};

/**
 * A task's work. Throwing fails this attempt: the queue tries again after exp(attempts) seconds,
 * up to the job's maxAttempts. Tasks whose failures have a policy of their own (the outbox's)
 * record them and return.
 */
export type JobHandler<Name extends JobName> = (payload: JobPayloads[Name], context: JobContext) => Promise<void>;

/** Every task the store knows, each with its handler: a job is never left without one. */
export type JobHandlers = { [Name in JobName]: JobHandler<Name> };

/** A job the crontab adds on a schedule, once per slot however many runners share the database. */
export type ScheduledJob = {
  task: JobName;
  /** Five cron fields, in the server's time zone (e.g. "*\/10 * * * *"). */
  schedule: string;
  /** A slot missed while no runner ran (the store stopped) is still run at start when it is this recent. */
  catchUpMs?: number;
  /** At most one waiting job (enqueueJob's jobKey). */
  jobKey?: string;
};

/** Work each app server does for itself (its own disk), on a timer: at start, then every `everyMs`. */
export type LocalRecurringTask = { name: string; everyMs: number; run: () => Promise<void> };

export type JobRunnerOptions = {
  /** The store's database, as the store's role. */
  connectionString: string;
  handlers: JobHandlers;
  schedule?: ScheduledJob[];
  local?: LocalRecurringTask[];
  logger: Logger;
  /** Jobs run at once by this server (default 4: mail keeps flowing while a backup runs). */
  concurrency?: number;
  /** How often jobs due later (retries, runAt) are looked for; new jobs wake the runner at once. */
  pollMs?: number;
  /**
   * This is the only server on the database (the embedded cluster): locks left by an earlier run
   * killed mid-job are let go at start instead of after the queue's four hours.
   */
  soleServer?: boolean;
};

export type JobRunner = {
  /** The task names this runner handles, for the start-up log. */
  readonly tasks: string[];
  /**
   * Runs the jobs due now in this process, and waits for those another runner has in hand, until
   * nothing due is left (tests call it instead of waiting). A job tried again later is not waited for.
   */
  runDueJobs(): Promise<void>;
  /** Stops taking jobs and finishes those in hand (their signal aborts after the grace period). */
  stop(): Promise<void>;
};

/** How long a stop lets the jobs in hand finish before their signal aborts (a send in progress, a backup). */
const STOP_GRACE_MS = 5_000;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_POLL_MS = 2_000;

/**
 * Installs or upgrades the queue's schema (graphile_worker) as the store's role, which owns the
 * database. Idempotent and safe when several servers start at once (the library holds a lock).
 * Runs before the store's migrations, whose triggers add jobs.
 */
export async function installJobQueue(connectionString: string): Promise<void> {
  const pool = new pg.Pool({ connectionString, max: 1 });
  quietOnLostConnections(pool, () => {});
  try {
    await runMigrations({ pgPool: pool, logger: silentWorkerLogger, noHandleSignals: true });
  } finally {
    await pool.end();
  }
}

/**
 * The store's job runner in this process (docs/decisions/2026-11-25-job-queue.md): graphile-worker
 * on the store's database, woken by NOTIFY when a job is committed, running each job on exactly
 * one of the app servers, and the crontab's slots once across them.
 */
export async function startJobRunner(options: JobRunnerOptions): Promise<JobRunner> {
  const { logger } = options;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  // Each job in hand holds a connection, the runner listens on one more, and the crontab uses another.
  const pool = new pg.Pool({ connectionString: options.connectionString, max: concurrency + 3 });
  quietOnLostConnections(pool, (error) => logger.warn({ err: error }, "job queue connection lost"));
  const taskList = toTaskList(options.handlers);
  const workerLogger = toWorkerLogger(logger);

  if (options.soleServer) {
    await pool.query(
      `SELECT graphile_worker.force_unlock_workers(
         ARRAY(SELECT DISTINCT locked_by FROM graphile_worker.jobs WHERE locked_by IS NOT NULL))`,
    );
  }

  let runner;
  try {
    runner = await run({
      pgPool: pool,
      taskList,
      parsedCronItems: parseCronItems(
        (options.schedule ?? []).map((item) => ({
          task: item.task,
          match: item.schedule,
          identifier: item.task,
          options: {
            backfillPeriod: item.catchUpMs ?? 0,
            ...(item.jobKey ? { jobKey: item.jobKey, jobKeyMode: "replace" as const } : {}),
          },
        })),
      ),
      concurrency,
      pollInterval: options.pollMs ?? DEFAULT_POLL_MS,
      noHandleSignals: true,
      gracefulShutdownAbortTimeout: STOP_GRACE_MS,
      logger: workerLogger,
    });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }

  // The runner ends early only on a fault it cannot get over (its connections keep being retried).
  runner.promise.catch((error: unknown) => logger.error({ err: error }, "job runner stopped on an error"));

  const timers = (options.local ?? []).map((task) => {
    const runTask = () =>
      task.run().catch((error) => logger.error({ err: error, task: task.name }, "recurring task failed"));
    void runTask();
    const timer = setInterval(() => void runTask(), task.everyMs);
    timer.unref();
    return timer;
  });

  let stopped: Promise<void> | null = null;
  return {
    tasks: Object.keys(options.handlers),
    async runDueJobs() {
      for (;;) {
        await runOnce({ pgPool: pool, taskList, noHandleSignals: true, logger: workerLogger });
        if (!(await anythingDue(pool))) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    stop() {
      stopped ??= (async () => {
        for (const timer of timers) clearInterval(timer);
        await runner.stop().catch((error: unknown) => logger.warn({ err: error }, "job runner stopped with an error"));
        await pool.end().catch(() => {});
      })();
      return stopped;
    },
  };
}

/**
 * Whether a job is due and not given up: waiting, or in a runner's hands (a lock older than the
 * queue's four hours is a dead runner's, and not waited for).
 */
async function anythingDue(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ due: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM graphile_worker.jobs
                     WHERE run_at <= now()
                       AND (locked_at IS NULL AND attempts < max_attempts
                            OR locked_at > now() - interval '4 hours')) AS due`,
  );
  return rows[0]!.due;
}

function toTaskList(handlers: JobHandlers): TaskList {
  const list: TaskList = {};
  for (const [name, handler] of Object.entries(handlers) as [JobName, JobHandler<JobName>][]) {
    // A failure is logged by the queue with the task, the attempt and the error.
    list[name] = (payload, helpers) =>
      handler(payload as never, {
        signal: helpers.abortSignal,
        attempt: helpers.job.attempts,
        maxAttempts: helpers.job.max_attempts,
      });
  }
  return list;
}

/**
 * graphile-worker's own lines go to the store's log: its warnings and errors as such, its news of
 * every job (started, completed) at debug, which would otherwise fill the log.
 */
function toWorkerLogger(logger: Logger): WorkerLogger {
  const factory: LogFunctionFactory = () => (level, message, meta) => {
    const line = { jobQueue: true, ...(meta ?? {}) };
    if (level === "error") logger.error(line, message);
    else if (level === "warning") logger.warn(line, message);
    else logger.debug(line, message);
  };
  return new WorkerLogger(factory);
}

/** A connection lost while idle or in use is the queue's to retry, never a crash of the process. */
function quietOnLostConnections(pool: pg.Pool, report: (error: Error) => void) {
  pool.on("error", report);
  pool.on("connect", (client) => client.on("error", report));
}

const silentWorkerLogger = new WorkerLogger(() => () => {});
