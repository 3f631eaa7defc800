import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * A slow phone: the page is shown and used for seconds before its scripts arrive. Every script
 * of the store is a module under /assets (the entry, the route modules and their chunks);
 * holding those requests holds hydration back, while the server's HTML is fully usable.
 * (With a route set, Playwright also bypasses the browser cache, so every page asks again.)
 */
const SCRIPT_ASSETS = /\/assets\/[^?#]+\.js(?:[?#].*)?$/;

export type HeldScripts = {
  /**
   * Lets the held scripts through (and every later one), then waits until the page has
   * hydrated: checks first that it had not, so the person's actions really came before it.
   */
  release(): Promise<void>;
  /** Holds the scripts of the next pages again, after a release. */
  holdAgain(): void;
};

/**
 * Holds every script of the page until `release()`: a journey opens a page with
 * `page.goto(url, { waitUntil: "domcontentloaded" })` (the load event waits for the scripts),
 * acts, releases, and then checks what the person expected.
 */
export async function holdScripts(page: Page): Promise<HeldScripts> {
  let open = () => {};
  let gate = new Promise<void>((resolve) => (open = resolve));
  let held = 0;
  await page.route(SCRIPT_ASSETS, async (route) => {
    held += 1;
    await gate;
    // Also for a page that is gone meanwhile (a form posted before its scripts came): the browser
    // has dropped the request, and Playwright lets it go quietly.
    await route.continue();
  });
  return {
    async release() {
      await expect.poll(() => held, { message: "the page asked for its scripts" }).toBeGreaterThan(0);
      await expect(page.locator("html"), "the page must not hydrate while its scripts are held").not.toHaveAttribute(
        "data-hydrated",
      );
      open();
      await waitForHydration(page);
    },
    holdAgain() {
      held = 0;
      gate = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

/** The page has hydrated and every enhanced control has taken over (app/root.tsx sets the mark). */
export async function waitForHydration(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true", { timeout: 20_000 });
}
