import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import knexFactory from "knex";
import { ensureBuild } from "../../server/cli/ensure-build";
import { connectDatabase } from "../../server/db/database";
import { migrateToLatest } from "../../server/jobs/migrate";
import { createDatabaseIfMissing } from "../../server/start-up/open-database";
import { runningPostmaster, startEmbeddedPostgres, type EmbeddedDatabase } from "../../server/db/embedded-postgres";

export const TEMPLATE_DATABASE = "waqt_test_template";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection string of the maintenance database of the test cluster, as its superuser (CREATE and DROP DATABASE). */
    testDatabaseAdminUrl: string;
    /**
     * The same database as the role the test files' databases belong to: on the embedded cluster the
     * store's own role (server/db/store-role.ts), so the suite runs the store without superuser
     * rights; with TEST_DATABASE_URL, that URL's role.
     */
    testDatabaseStoreUrl: string;
    testTemplateDatabase: string;
    /** The seed of every property-based test in this run (tests/support/fast-check-seed.ts). */
    fastCheckSeed: number;
  }
}

let embedded: EmbeddedDatabase | null = null;
let tempDir: string | null = null;

export async function setup(project: TestProject) {
  // Pages are tested through the real build; make it when a source is newer (or none exists).
  if (ensureBuild() !== 0) throw new Error("The build failed; pages cannot be tested");

  let adminUrl = process.env.TEST_DATABASE_URL;
  let storeUrl = adminUrl;
  if (!adminUrl) {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "waqt-test-"));
    embedded = await startEmbeddedPostgres(path.join(tempDir, "postgres"));
    // Vitest stopped by Ctrl-C leaves without running the teardown, and PostgreSQL runs in a
    // process group of its own: it would outlive the run. It is stopped as the process ends.
    process.once("exit", stopWhenVitestEnds);
    adminUrl = embedded.adminUrl;
    storeUrl = embedded.storeUrlFor("postgres");
  }

  // A migrated template (the job queue's schema and the store's), owned by the store's role and
  // migrated as it: each test file's database is a fast copy of it.
  const dropper = knexFactory({ client: "pg", connection: adminUrl });
  await dropper.raw(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await dropper.destroy();
  if (embedded) await embedded.prepareStoreDatabase(TEMPLATE_DATABASE, { create: true });
  else await createDatabaseIfMissing(adminUrl, TEMPLATE_DATABASE);
  const templateUrl = new URL(storeUrl!);
  templateUrl.pathname = `/${TEMPLATE_DATABASE}`;
  const template = connectDatabase(templateUrl.href);
  await migrateToLatest(template);
  // The tests' stores start without cash-on-delivery rules, as a merchant may set them: the
  // migration turns them on for a new store, and most tests place orders that a first-time limit
  // or the open orders of one phone would refuse. The rules' own tests turn them on
  // (tests/integration/cod-rules.test.ts, server/flows/checkout.test.ts).
  await template("order_rules").update({
    blockAfterReturns: null,
    firstTimeCodLimit: null,
    codLimit: null,
    openCodOrders: null,
  });
  await template.destroy();

  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : crypto.randomInt(2 ** 31);
  if (!Number.isSafeInteger(seed)) throw new Error(`FC_SEED must be an integer, not ${process.env.FC_SEED}`);
  console.log(`Property-based tests use seed ${seed} (FC_SEED=${seed} npm test repeats them).`);
  project.provide("fastCheckSeed", seed);
  project.provide("testDatabaseAdminUrl", adminUrl);
  project.provide("testDatabaseStoreUrl", storeUrl!);
  project.provide("testTemplateDatabase", TEMPLATE_DATABASE);
}

export async function teardown() {
  process.off("exit", stopWhenVitestEnds);
  // The cluster is thrown away: an immediate shutdown, without the fast shutdown's checkpoint
  // (seconds, after a run's hundred databases); stop() then only tidies up.
  stopWhenVitestEnds();
  await embedded?.stop();
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
}

/** An immediate shutdown (the cluster is thrown away), then its folder goes: at the teardown, or at exit without it. */
function stopWhenVitestEnds() {
  const postmaster = embedded ? runningPostmaster(embedded.clusterDir) : null;
  if (postmaster) {
    process.kill(postmaster.pid, "SIGQUIT");
    // Synchronously (an exit handler cannot wait otherwise), for at most five seconds.
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (let waited = 0; waited < 5_000 && runningPostmaster(embedded!.clusterDir); waited += 100) {
      Atomics.wait(pause, 0, 0, 100);
    }
  }
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
}
