import type http from "node:http";
import { connectDatabase } from "../../server/db/database";
import {
  LOAD_DATABASE,
  checkStockBooks,
  connectionRefused,
  missingOrders,
  sleep,
  stockBooks,
  type AppProcess,
  type ControlledPostgres,
  type Store,
} from "./environment";
import { round, send, type Sent } from "./http-load";
import { Recorder, summarizeEntries, type Problem, type Summary } from "./recorder";
import { cleanUnavailable, isExpected, runWorkload, type Shopper, type Workload } from "./workload";

export type ScenarioResult = {
  name: string;
  passed: boolean;
  /** Each check: what it asserts, and whether it held. */
  checks: { check: string; passed: boolean; detail?: string }[];
  summary: Summary;
  figures: Record<string, number | string | boolean>;
  problems: Problem[];
  problemCount: number;
};

type Setup = { app: AppProcess; postgres: ControlledPostgres; store: Store; shoppers: Shopper[]; agent: http.Agent };

function workloadOf(setup: Setup, recorder: Recorder, timeoutMs: number): Workload {
  return {
    target: { host: setup.app.host, port: setup.app.port },
    agent: setup.agent,
    store: setup.store,
    shoppers: setup.shoppers,
    timeoutMs,
    record: recorder.record,
    acknowledged: [],
  };
}

async function ordersSince(store: Store, since: Date): Promise<number> {
  const [{ count }] = await store
    .db("orders")
    .where("created_at", ">=", since)
    .count<{ count: number }[]>("* as count");
  return Number(count);
}

async function databaseNow(store: Store): Promise<Date> {
  const { rows } = await store.db.raw<{ rows: { now: Date }[] }>("select now() as now");
  return rows[0]!.now;
}

async function orderAndStockChecks(
  store: Store,
  load: Workload,
  books: Awaited<ReturnType<typeof stockBooks>>,
  since: Date,
) {
  const missing = await missingOrders(
    store.db,
    load.acknowledged.map((order) => order.id),
  );
  const stock = await checkStockBooks(store.db, books);
  const inDatabase = await ordersSince(store, since);
  return {
    checks: [
      {
        check: "every acknowledged order (201) is in the database",
        passed: missing.length === 0,
        detail: `${load.acknowledged.length} acknowledged, ${missing.length} missing${missing.length ? ` (${missing.slice(0, 5).join(", ")})` : ""}`,
      },
      {
        check: "no oversell: stock never negative, stock + units in non-Cancelled orders unchanged per product",
        passed: stock.ok,
        detail: stock.ok
          ? `${stock.unitsOrdered} units ordered, ${stock.soldOut} products sold out`
          : stock.problems.slice(0, 5).join("; "),
      },
    ],
    figures: {
      ordersAcknowledged: load.acknowledged.length,
      ordersInDatabase: inDatabase,
      unitsOrdered: stock.unitsOrdered,
      productsSoldOut: stock.soldOut,
    },
  };
}

/** A: the mixed workload at full concurrency. No 5xx, no connection error, no oversell. */
export async function mixedWorkload(
  setup: Setup,
  options: { connections: number; seconds: number },
): Promise<ScenarioResult> {
  const books = await stockBooks(setup.store.db);
  const since = await databaseNow(setup.store);
  const started = performance.now();
  const recorder = new Recorder(started, (sent) => {
    if (sent.error) return `connection error or timeout: ${sent.error}`;
    if (sent.status >= 500) return `5xx answer`;
    if (!isExpected(sent)) return `unexpected status`;
    return null;
  });
  const load = workloadOf(setup, recorder, 30_000);
  const deadline = started + options.seconds * 1000;
  await runWorkload(load, options.connections, () => performance.now() < deadline);
  const seconds = (performance.now() - started) / 1000;
  const summary = summarizeEntries(recorder.entries, seconds);
  const fivexx = recorder.entries.filter((entry) => entry.status >= 500).length;
  const errors = recorder.entries.filter((entry) => entry.error).length;
  const unexpected = recorder.entries.filter(
    (entry) => entry.status > 0 && entry.status < 500 && !isExpected(entry as Sent),
  ).length;
  const ordersAndStock = await orderAndStockChecks(setup.store, load, books, since);
  const checks = [
    { check: "no 5xx answer", passed: fivexx === 0, detail: `${fivexx} of ${recorder.entries.length}` },
    { check: "no connection error or timeout (30 s)", passed: errors === 0, detail: `${errors}` },
    {
      check: "only expected statuses (200; 409 for sold out; 201 for orders)",
      passed: unexpected === 0,
      detail: `${unexpected} unexpected`,
    },
    ...ordersAndStock.checks,
    { check: "the server process is still running", passed: setup.app.alive() },
  ];
  return {
    name: `A. Mixed workload: ${options.connections} connections for ${options.seconds} s`,
    passed: checks.every((check) => check.passed),
    checks,
    summary,
    figures: { connections: options.connections, ...ordersAndStock.figures },
    problems: recorder.problems,
    problemCount: recorder.problemCount,
  };
}

/**
 * B: PostgreSQL is shut down under load and started again. While it is away every answer is a
 * clean 503 (or a page the guest cache still had), never another 5xx, a hang or a cut
 * connection; afterwards answers are good again without touching the app, whose process is the
 * same one; and every order acknowledged before or around the fault is still there.
 */
export async function databaseRestart(
  setup: Setup,
  options: {
    connections: number;
    warmSeconds: number;
    downSeconds: number;
    recoveryBoundSeconds: number;
    hangBoundMs: number;
  },
): Promise<ScenarioResult> {
  const books = await stockBooks(setup.store.db);
  const since = await databaseNow(setup.store);
  // The runner's own connections would fail too while PostgreSQL is down; they are let go now.
  await setup.store.db.destroy();
  const pid = setup.app.pid;
  const started = performance.now();
  const marks = { stopAsked: Infinity, stopped: Infinity, startAsked: Infinity, started: Infinity };
  let cleanApi503 = 0;
  let cleanPage503 = 0;
  let pagesServedWhileDown = 0;
  const recorder = new Recorder(started, (sent) => {
    if (sent.error) return `connection error or timeout: ${sent.error}`;
    if (sent.ms > options.hangBoundMs) return `answer took ${round(sent.ms)} ms (bound ${options.hangBoundMs} ms)`;
    if (sent.status === 503) {
      const verdict = cleanUnavailable(sent);
      if (!verdict.clean) return verdict.why!;
      if (sent.endedAt < marks.stopAsked) return "503 while the database was up";
      if (sent.path.startsWith("/api/v1")) cleanApi503++;
      else cleanPage503++;
      return null;
    }
    if (sent.status >= 500) return "5xx other than a clean 503";
    if (!isExpected(sent)) return "unexpected status";
    if (sent.startedAt >= marks.stopped && sent.endedAt <= marks.started && sent.kind.startsWith("page"))
      pagesServedWhileDown++;
    return null;
  });
  const load = workloadOf(setup, recorder, options.hangBoundMs + 5_000);

  let stopLoad = false;
  const running = runWorkload(load, options.connections, () => !stopLoad);
  let pidChanged = false;
  const watchPid = setInterval(() => {
    if (!setup.app.alive() || setup.app.child.pid !== pid) pidChanged = true;
  }, 100);

  await sleep(options.warmSeconds * 1000);
  marks.stopAsked = performance.now();
  await setup.postgres.stop();
  marks.stopped = performance.now();
  await sleep(options.downSeconds * 1000);
  marks.startAsked = performance.now();
  await setup.postgres.start();
  marks.started = performance.now();

  // Recovered: three seconds of answers, all good (none a 503), after the restart.
  const recoveryDeadline = marks.started + options.recoveryBoundSeconds * 1000;
  let recoveredAt = Infinity;
  while (performance.now() < recoveryDeadline) {
    await sleep(250);
    const lastBad = recorder.entries.reduce(
      (latest, entry) => (isExpected(entry as Sent) ? latest : Math.max(latest, entry.endedAt)),
      marks.started,
    );
    if (performance.now() - lastBad >= 3_000) {
      recoveredAt = lastBad;
      break;
    }
  }
  stopLoad = true;
  await running;
  clearInterval(watchPid);
  const ended = performance.now();

  // The guest page cache switched itself off when its NOTIFY listener lost the database; it
  // must be back (the listener reconnects with backoff, at most 5 s apart).
  let pageCacheBackAfter: number | "never" = "never";
  for (const deadline = performance.now() + 15_000; performance.now() < deadline; await sleep(250)) {
    const probe = await send(
      setup.agent,
      { host: setup.app.host, port: setup.app.port },
      { kind: "probe", path: "/about" },
      5_000,
    );
    if (probe.status === 200 && probe.headers["x-page-cache"] === "hit") {
      pageCacheBackAfter = round((performance.now() - marks.started) / 1000, 2);
      break;
    }
  }

  setup.store.db = connectDatabase(setup.postgres.urlFor(LOAD_DATABASE), { poolMax: 4 });
  const ordersAndStock = await orderAndStockChecks(setup.store, load, books, since);
  const afterRestart = recorder.entries.filter((entry) => entry.startedAt >= marks.started);
  const firstGood = afterRestart
    .filter((entry) => isExpected(entry as Sent) && entry.kind.startsWith("api GET /cart"))
    .sort((a, b) => a.endedAt - b.endedAt)[0];
  const duringFault = recorder.between(marks.stopAsked, Number.isFinite(recoveredAt) ? recoveredAt : ended);
  const stillAlive = setup.app.alive() && !pidChanged;
  const recovered = Number.isFinite(recoveredAt);
  const fivexx = recorder.entries.filter((entry) => entry.status >= 500 && entry.status !== 503).length;
  const checks = [
    {
      check: "while the database is away: only clean 503s (API envelope, error page) or good answers",
      passed: recorder.problemCount === 0,
      detail: `${cleanApi503} API 503s, ${cleanPage503} page 503s, ${recorder.problemCount} other`,
    },
    { check: "no other 5xx", passed: fivexx === 0, detail: `${fivexx}` },
    {
      check: `no hang: every answer within ${options.hangBoundMs / 1000} s`,
      passed: recorder.entries.every((entry) => entry.ms <= options.hangBoundMs),
      detail: `slowest during the fault ${round(Math.max(0, ...duringFault.map((entry) => entry.ms)))} ms`,
    },
    {
      check: "no connection refused, reset or cut (the process never crashed)",
      passed: recorder.entries.every((entry) => !entry.error),
      detail: `${recorder.entries.filter((entry) => entry.error).length}`,
    },
    {
      check: "the same server process throughout (pid unchanged, never exited)",
      passed: stillAlive,
      detail: `pid ${pid}`,
    },
    {
      check: `recovers by itself within ${options.recoveryBoundSeconds} s of the restart`,
      passed: recovered,
      detail: recovered ? `${round((recoveredAt - marks.started) / 1000, 2)} s` : "not recovered",
    },
    {
      check: "the guest page cache is serving again (its NOTIFY listener reconnected)",
      passed: pageCacheBackAfter !== "never",
      detail:
        pageCacheBackAfter === "never"
          ? "no cache hit within 15 s after the load"
          : `a hit ${pageCacheBackAfter} s after the restart`,
    },
    ...ordersAndStock.checks,
  ];
  return {
    name: `B. Database stopped and restarted under load (${options.connections} connections)`,
    passed: checks.every((check) => check.passed),
    checks,
    summary: summarizeEntries(recorder.entries, (ended - started) / 1000),
    figures: {
      connections: options.connections,
      databaseStopSeconds: round((marks.stopped - marks.stopAsked) / 1000, 2),
      databaseDownSeconds: round((marks.started - marks.stopped) / 1000, 2),
      databaseStartSeconds: round((marks.started - marks.startAsked) / 1000, 2),
      cleanApi503: cleanApi503,
      cleanPage503: cleanPage503,
      cachedPagesServedWhileDown: pagesServedWhileDown,
      slowestAnswerDuringFaultMs: round(Math.max(0, ...duringFault.map((entry) => entry.ms))),
      firstSignedInApiAnswerAfterRestartSeconds: firstGood
        ? round((firstGood.endedAt - marks.started) / 1000, 2)
        : "none",
      recoverySeconds: recovered ? round((recoveredAt - marks.started) / 1000, 2) : "not recovered",
      ...ordersAndStock.figures,
    },
    problems: recorder.problems,
    problemCount: recorder.problemCount,
  };
}

/**
 * C: SIGTERM under load. Every request sent before the signal gets its whole answer; new
 * connections are refused after it; the process exits 0 within its grace period.
 */
export async function sigtermUnderLoad(
  setup: Setup,
  options: { connections: number; warmSeconds: number; graceSeconds: number },
): Promise<ScenarioResult> {
  const books = await stockBooks(setup.store.db);
  const since = await databaseNow(setup.store);
  const started = performance.now();
  let signalAt = Infinity;
  const outcomes = { inFlightAnswered: 0, racedIdleClose: 0, answeredAfter: 0, notAcceptedAfter: 0 };
  const recorder = new Recorder(started, (sent) => {
    if (sent.startedAt < signalAt) {
      if (!sent.error) {
        if (sent.endedAt >= signalAt) outcomes.inFlightAnswered++;
        return isExpected(sent) ? null : `request sent before the signal answered ${sent.status}`;
      }
      // Written on a kept-alive socket just as the server closed it for being idle: the server
      // never read it (no byte of an answer came). Any client of keep-alive meets this race.
      if (
        sent.reusedSocket &&
        !sent.gotHeaders &&
        sent.endedAt - signalAt < 1_000 &&
        /ECONNRESET|socket hang up|EPIPE/.test(sent.error)
      ) {
        outcomes.racedIdleClose++;
        return null;
      }
      return `request sent before the signal not answered: ${sent.error}`;
    }
    // Sent after the signal: answered whole, or not accepted at all (refused, or reset before
    // any byte of an answer); never cut once its answer began.
    if (!sent.error) {
      outcomes.answeredAfter++;
      return isExpected(sent) ? null : `after the signal: answered ${sent.status}`;
    }
    if (!sent.gotHeaders) {
      outcomes.notAcceptedAfter++;
      return null;
    }
    return `after the signal: answer cut off (${sent.error})`;
  });
  const load = workloadOf(setup, recorder, 30_000);
  let exitedAt = Infinity;
  void setup.app.exited.then((exit) => (exitedAt = exit.at));
  // After the signal the shoppers keep going until the server is gone, then stop.
  const running = runWorkload(load, options.connections, () => performance.now() < exitedAt + 250, {
    stopWhenRefused: true,
  });

  await sleep(options.warmSeconds * 1000);
  signalAt = performance.now();
  setup.app.child.kill("SIGTERM");
  // New connections: refused once the server has taken the signal.
  let refusedAfterMs: number | "never" = "never";
  const probeUntil = signalAt + 5_000;
  while (performance.now() < probeUntil) {
    if (await connectionRefused(setup.app.host, setup.app.port)) {
      refusedAfterMs = round(performance.now() - signalAt);
      break;
    }
    await sleep(25);
  }
  const graceTimer = sleep((options.graceSeconds + 5) * 1000).then(() => null);
  const exit = await Promise.race([setup.app.exited, graceTimer]);
  if (!exit) setup.app.child.kill("SIGKILL");
  await running;
  const ended = performance.now();

  const inFlight = recorder.entries.filter((entry) => entry.startedAt < signalAt && entry.endedAt >= signalAt);
  const ordersAndStock = await orderAndStockChecks(setup.store, load, books, since);
  const exitSeconds = exit ? round((exit.at - signalAt) / 1000, 2) : Infinity;
  const checks = [
    {
      check: "every request sent before the signal got a whole, expected answer",
      passed: recorder.problems.every((problem) => !problem.why.includes("before the signal")),
      detail: `${inFlight.length} in flight at the signal (${outcomes.inFlightAnswered} answered, the last ${round(Math.max(0, ...inFlight.map((entry) => entry.endedAt - signalAt)))} ms after it); ${outcomes.racedIdleClose} sent on an idle kept-alive socket as it was closed`,
    },
    {
      check:
        "after the signal: answered whole, or not accepted (refused, reset before any answer); never cut, never a 5xx",
      passed: recorder.problemCount === 0,
      detail: `${outcomes.answeredAfter} answered, ${outcomes.notAcceptedAfter} not accepted, ${recorder.problemCount} problems`,
    },
    {
      check: "new connections refused after the signal",
      passed: refusedAfterMs !== "never",
      detail: refusedAfterMs === "never" ? "still accepted 5 s after" : `refused ${refusedAfterMs} ms after the signal`,
    },
    {
      check: `exits with code 0 within the grace period (${options.graceSeconds} s)`,
      passed: !!exit && exit.code === 0 && exitSeconds <= options.graceSeconds,
      detail: exit
        ? `code ${exit.code}${exit.signal ? ` signal ${exit.signal}` : ""} after ${exitSeconds} s`
        : "did not exit (killed)",
    },
    ...ordersAndStock.checks,
  ];
  return {
    name: `C. SIGTERM under load (${options.connections} connections)`,
    passed: checks.every((check) => check.passed),
    checks,
    summary: summarizeEntries(recorder.entries, (ended - started) / 1000),
    figures: {
      connections: options.connections,
      inFlightAtSignal: inFlight.length,
      inFlightCheckouts: inFlight.filter((entry) => entry.kind === "api POST /orders").length,
      newConnectionsRefusedAfterMs: refusedAfterMs,
      exitSeconds: exit ? exitSeconds : "killed",
      exitCode: exit ? String(exit.code) : "none",
      inFlightAnswered: outcomes.inFlightAnswered,
      sentAsIdleSocketClosed: outcomes.racedIdleClose,
      answeredAfterSignal: outcomes.answeredAfter,
      notAcceptedAfterSignal: outcomes.notAcceptedAfter,
      ...ordersAndStock.figures,
    },
    problems: recorder.problems,
    problemCount: recorder.problemCount,
  };
}
