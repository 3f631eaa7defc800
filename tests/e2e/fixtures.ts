import { test as base, expect } from "@playwright/test";

/**
 * Every journey fails on a script error or a console error (a Content-Security-Policy
 * violation, a hydration mismatch), except the expected ones a test names.
 */
export const test = base.extend<{ allowConsoleErrors: RegExp[]; consoleGuard: void }>({
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
});

export { expect };
