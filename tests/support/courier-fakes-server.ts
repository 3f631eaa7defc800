import { FakeLeopards, FakePostex } from "./courier-fakes";

/**
 * The couriers' fakes (tests/support/courier-fakes/) as a process of their own, for an e2e
 * worker's store (tests/e2e/worker-store.ts starts it before the store, and points the store's
 * PostEx and Leopards settings at it): `node --import tsx tests/support/courier-fakes-server.ts
 * <postex port> <leopards port>`. Journeys move parcels through the fakes' control paths (CourierFake.control).
 *
 * It must not outlive the run that started it: it stops on SIGTERM or SIGINT, and by itself when
 * its parent goes (the launcher killed outright leaves it to init, which a changed parent id shows).
 */
const [postexPort, leopardsPort] = process.argv.slice(2).map(Number);
if (!isPort(postexPort) || !isPort(leopardsPort)) {
  console.error("usage: courier-fakes-server.ts <postex port> <leopards port>");
  process.exit(2);
}

const postex = await new FakePostex().start(postexPort);
// Started last: its control path's "ready" is the launcher's readiness URL, so both are listening then.
const leopards = await new FakeLeopards().start(leopardsPort);
console.log(`courier fakes: PostEx on ${postex.apiUrl}, Leopards on ${leopards.apiUrl}`);

const parent = process.ppid;
let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  clearInterval(parentWatch);
  await Promise.all([postex.stop(), leopards.stop()]);
  process.exit(0);
}
const parentWatch = setInterval(() => {
  if (process.ppid !== parent) void stop();
}, 1000);
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());

function isPort(value: number | undefined): value is number {
  return Number.isInteger(value) && value! > 0 && value! < 65_536;
}
