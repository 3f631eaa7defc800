import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { startWorkerStore, workerStore, type WorkerStore } from "./worker-store";

/**
 * Every journey fails on a script error or a console error (a Content-Security-Policy
 * violation, a hydration mismatch), except the expected ones a test names.
 *
 * With JavaScript on, a page opened by `goto` or `reload` is used once it has hydrated, as a
 * person with JavaScript uses it: a page asks for its scripts only after its first paint
 * (app/components/page-scripts.tsx), so the load event does not say they have run. A journey
 * that acts before hydration says so with `waitUntil: "domcontentloaded"`
 * (tests/e2e/before-hydration.spec.ts).
 */
export const test = base.extend<{ allowConsoleErrors: RegExp[]; consoleGuard: void }, { store: WorkerStore }>({
  /**
   * This worker's own store (tests/e2e/worker-store.ts): started before the worker's first journey
   * and stopped after its last; every page, context and request of a journey goes to it (baseURL).
   *
   * It starts with the cash-on-delivery rules off, as a merchant may set them: a new store has
   * them on (docs/product.md, "Cash-on-delivery rules"), and the journeys order with one mobile
   * number again and again, and watch over a first-time limit. The rules' own journey turns them
   * on and off again (tests/e2e/parcel-outcome-and-cod-rules.spec.ts).
   */
  store: [
    async ({ playwright }, provide, workerInfo) => {
      // Module-level constants of the journeys (the fakes' ports, the outbox) read the worker's index.
      expect(process.env.TEST_PARALLEL_INDEX, "the worker's parallel index").toBe(String(workerInfo.parallelIndex));
      const store = workerStore(workerInfo.parallelIndex);
      const running = await startWorkerStore(store);
      try {
        const api = await playwright.request.newContext({ baseURL: store.baseURL });
        const login = await api.post("/api/v1/auth/login", {
          data: { email: "admin@waqt.pk", password: "admin12345" },
        });
        expect(login.status()).toBe(200);
        const { token } = (await login.json()).data as { token: string };
        const off = await api.put("/api/v1/settings/orders", {
          headers: { authorization: `Bearer ${token}` },
          data: { blockAfterReturns: null, firstTimeCodLimit: null, codLimit: null, openCodOrders: null },
        });
        expect(off.status()).toBe(200);
        await api.dispose();
        await provide(store);
      } finally {
        await running.stop();
      }
    },
    // A fresh database with the demo data and the production build's start, on a busy machine.
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ store }, provide) => {
    await provide(store.baseURL);
  },
  allowConsoleErrors: [[], { option: true }],
  consoleGuard: [
    async ({ page, allowConsoleErrors }, use) => {
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`page error: ${error.message} at ${page.url()}`));
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        const text = message.text();
        // A 404 page or a refused form answers with its status; the browser logs the status.
        if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
        if (allowConsoleErrors.some((pattern) => pattern.test(text))) return;
        problems.push(`console error: ${text}`);
      });
      await use();
      expect(problems, "no script or console errors").toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context, javaScriptEnabled }, provide) => {
    if (javaScriptEnabled !== false) hydrateEveryPageOf(context);
    await provide(context);
  },
  browser: [
    async ({ browser }, provide) => {
      // The contexts a journey opens itself (a second person, an admin beside a customer) say
      // whether they run JavaScript; the test's own context is the `context` fixture above.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        if (options?.javaScriptEnabled === true) hydrateEveryPageOf(context);
        return context;
      };
      await provide(browser);
    },
    { scope: "worker" },
  ],
});

/** Every page of the context, present and future, waits for hydration after `goto` and `reload`. */
function hydrateEveryPageOf(context: BrowserContext) {
  for (const page of context.pages()) waitForHydrationAfterLoad(page);
  context.on("page", waitForHydrationAfterLoad);
}

function waitForHydrationAfterLoad(page: Page) {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if ((options?.waitUntil ?? "load") === "load") await untilHydrated(page);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if ((options?.waitUntil ?? "load") === "load") await untilHydrated(page);
    return response;
  };
}

/**
 * Hydrated (app/root.tsx sets the mark), or a document with no scripts to start (lite mode, a
 * file): the held module script (app/components/page-scripts.tsx) is what a page starts.
 */
async function untilHydrated(page: Page) {
  await page.waitForFunction(
    () => document.documentElement?.dataset.hydrated === "true" || !document.getElementById("held-module-script"),
    undefined,
    { timeout: 20_000 },
  );
}

export { expect };
