/**
 * The authorization matrix (tests/support/authorization-matrix-rows.ts) has a line for every page
 * of app/routes.ts and every route mounted on the Express app, and none for routes that are gone;
 * the answers are checked in authorization-matrix-pages.test.ts and authorization-matrix-api.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPRESS_MATRIX, expressRouteKeys, PAGE_MATRIX, pageRouteKeys } from "../support/authorization-matrix-rows";
import { startTestServer, type TestServer } from "../support/test-server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe("the authorization matrix", () => {
  it("has a line for every page of app/routes.ts and every route of the Express app, and none for routes that are gone", async () => {
    const pages = await pageRouteKeys();
    const routes = expressRouteKeys(server.app);
    expect(routes.length).toBeGreaterThan(20);
    expect({
      "pages without a line in PAGE_MATRIX (add one)": pages.filter((key) => !(key in PAGE_MATRIX)),
      "lines of PAGE_MATRIX whose page is no longer in app/routes.ts": Object.keys(PAGE_MATRIX).filter(
        (key) => !pages.includes(key),
      ),
      "Express routes without a line in EXPRESS_MATRIX (add one)": routes.filter((key) => !(key in EXPRESS_MATRIX)),
      "lines of EXPRESS_MATRIX whose route is no longer mounted": Object.keys(EXPRESS_MATRIX).filter(
        (key) => !routes.includes(key),
      ),
    }).toEqual({
      "pages without a line in PAGE_MATRIX (add one)": [],
      "lines of PAGE_MATRIX whose page is no longer in app/routes.ts": [],
      "Express routes without a line in EXPRESS_MATRIX (add one)": [],
      "lines of EXPRESS_MATRIX whose route is no longer mounted": [],
    });
  });
});
