/**
 * `npm run start:fakes`: the store on a laptop, with local fakes of the outside services it
 * speaks, so that booking and following parcels can be tried without any account: PostEx's and
 * Leopards' merchant APIs (tests/support/courier-fakes/, the ones the e2e journeys use), each on a
 * free loopback port, and the store (as `npm start` runs it, or `-- --dev` as `npm run dev` does)
 * with the settings that point at them. Ctrl-C or SIGTERM to this process stops the store (one
 * SIGINT, as a terminal's Ctrl-C: the development server's Vite exits at once on SIGTERM, before
 * the store has stopped its PostgreSQL), then the fakes; when the store stops by itself, the fakes
 * stop too. Never part of the build: a tool of the repository, like the tests.
 *
 * The store keeps its own data, `./data-fakes` unless DATA_DIR says otherwise: the parcels booked
 * with a fake live only as long as the fake, and do not belong in the store of `npm start`.
 */
import { spawn, spawnSync } from "node:child_process";
import { FakeLeopards, FakePostex } from "./courier-fakes";

/** A local fake of an outside service: it listens on loopback, and names the store's settings that point at it. */
type LocalFake = {
  readonly url: string;
  start(port?: number): Promise<unknown>;
  settings(): Record<string, string>;
  stop(): Promise<void>;
};

/**
 * The fakes started, in order; each one's settings are given to the store. The payment gateways'
 * fakes (JazzCash, Safepay, with PAYMENTS_FAKE=on among their settings) join this list.
 */
const FAKES: { name: string; fake: LocalFake }[] = [
  { name: "PostEx", fake: new FakePostex() },
  { name: "Leopards", fake: new FakeLeopards() },
];

const dev = process.argv.includes("--dev");

if (!dev) {
  // As `npm start`: build first when there is no build or a source is newer.
  const build = spawnSync(process.execPath, ["--import", "tsx", "server/cli/ensure-build.ts"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

for (const { fake } of FAKES) await fake.start(0);
const stopFakes = () => Promise.all(FAKES.map(({ fake }) => fake.stop()));
console.log(
  `local fakes: ${FAKES.map(({ name, fake }) => `${name} on ${fake.url}`).join(", ")}; the store's settings point at them (tests/support/start-with-fakes.ts)`,
);

const store = spawn(
  process.execPath,
  dev ? ["--import", "tsx", "server/main.ts"] : ["--enable-source-maps", "build/node/main.js"],
  {
    stdio: "inherit",
    // A process group of its own: a terminal's Ctrl-C reaches this process only, which passes one
    // signal on (the store takes a second one as "stop now").
    detached: true,
    env: {
      ...process.env,
      NODE_ENV: dev ? "development" : "production",
      DATA_DIR: process.env.DATA_DIR || "data-fakes",
      // A parcel moved on a fake shows in the store within a minute (30 by default).
      COURIER_SYNC_MINUTES: process.env.COURIER_SYNC_MINUTES || "1",
      ...Object.assign({}, ...FAKES.map(({ fake }) => fake.settings())),
    },
  },
);

let stopping = false;
const stop = (signal: string) => {
  if (stopping) {
    console.log(`${signal}: still stopping (the store finishes its requests in flight, at most 10 s)`);
    return;
  }
  stopping = true;
  store.kill("SIGINT");
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => stop(signal));
// Whatever ends this process, the store is told to stop.
process.on("exit", () => {
  if (store.exitCode === null && store.signalCode === null) store.kill("SIGINT");
});

store.on("exit", (code, signal) => {
  void stopFakes().finally(() => {
    console.log(`store stopped (${signal ?? `exit code ${code}`}); local fakes stopped`);
    process.exit(code ?? (signal ? 1 : 0));
  });
});
