/**
 * The authorization matrix's pages: every page of app/routes.ts (GET, and POST where the page has
 * an action), asked by a guest, a customer, another customer and an admin, with the answer
 * expected (tests/support/authorization-matrix-rows.ts); a refusal changes nothing and no page
 * shows another user's private text.
 */
import { describe, expect, it } from "vitest";
import {
  clients,
  expectAnswer,
  expectNoLeak,
  fixtures,
  isRefusal,
  ROLES,
  server,
  signedIn,
  withMatrixStore,
  concretePath,
} from "../support/authorization-matrix";
import { PAGE_MATRIX, PAGE_PARAMS } from "../support/authorization-matrix-rows";
import { databaseFingerprint } from "../support/db-fingerprint";

withMatrixStore();

describe("the authorization matrix", () => {
  describe.each(Object.entries(PAGE_MATRIX))("page %s", (key, matrixRow) => {
    it.each(ROLES)("as %s", async (role) => {
      const [method, template] = key.split(" ") as [string, string];
      const params = { ...PAGE_PARAMS(fixtures), ...(await matrixRow.params?.(fixtures)) };
      const path = concretePath(template, params);
      const answer = matrixRow.answers[role];
      // Logging out ends the session: that one gets a session of its own.
      const client =
        method === "POST" && template === "/logout" && role !== "guest" ? await signedIn(role) : clients[role];
      const before = method !== "GET" && isRefusal(answer) ? await databaseFingerprint(server) : null;
      const response =
        method === "GET"
          ? await client.get(path)
          : await client.postForm(path, (matrixRow.body ?? {}) as Record<string, string>);
      const context = `${role} ${method} ${path}`;
      expectAnswer(context, response, answer, path);
      expectNoLeak(context, role, await response.text());
      if (before) expect(await databaseFingerprint(server), `${context} changed the database`).toEqual(before);
    });
  });
});
