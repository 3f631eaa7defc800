/**
 * Preloaded (`node --import <this file> build/node/main.js`) into a store that a test run starts
 * (tests/e2e/worker-store.ts): when the process that started it is gone (a Playwright worker
 * ended outright leaves it to init, which a changed parent id shows), the store is sent SIGTERM
 * and stops as it does on a terminal's: it finishes its requests and stops its PostgreSQL. The
 * store itself is the production build, unchanged.
 */
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, "SIGTERM");
}, 1000);
watch.unref();
