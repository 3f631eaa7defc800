/**
 * The authorization matrix's routes of the Express app (the /api/v1 router and the health checks),
 * each asked by a guest, a customer, another customer and an admin with a bearer token, with the
 * answer expected (tests/support/authorization-matrix-rows.ts): each answer as the OpenAPI document
 * gives it, a refusal changes nothing and no answer shows another user's private text.
 */
import { describe, expect, it } from "vitest";
import { contractOf } from "../support/api-contract";
import {
  concretePath,
  credentials,
  expectAnswer,
  expectNoLeak,
  fixtures,
  isRefusal,
  ROLES,
  server,
  withMatrixStore,
} from "../support/authorization-matrix";
import { API_PARAMS, EXPRESS_MATRIX } from "../support/authorization-matrix-rows";
import { databaseFingerprint } from "../support/db-fingerprint";

withMatrixStore();

describe("the authorization matrix", () => {
  describe.each(Object.entries(EXPRESS_MATRIX))("%s", (key, matrixRow) => {
    it.each(ROLES)("as %s", async (role) => {
      const [method, template] = key.split(" ") as [string, string];
      const params = { ...API_PARAMS(fixtures), ...(await matrixRow.params?.(fixtures)) };
      const path = concretePath(template, params);
      const answer = matrixRow.answers[role];
      // A token of its own for each request (log-out ends the one it is sent with).
      const token =
        role === "guest" ? undefined : (await server.services.accounts.issueToken(credentials[role].id!)).token;
      const before = method !== "GET" && isRefusal(answer) ? await databaseFingerprint(server) : null;
      const response = await fetch(server.baseUrl + path, {
        method,
        headers: {
          accept: "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" }),
        },
        body: method === "GET" || method === "DELETE" ? undefined : JSON.stringify(matrixRow.body ?? {}),
      });
      const context = `${role} ${method} ${path}`;
      expectAnswer(context, response, answer, path);
      const text = await response.text();
      if (path.startsWith("/api/v1/")) {
        const reply = {
          method,
          path: path.slice("/api/v1".length),
          status: response.status,
          headers: response.headers,
          text,
        };
        // Each answer as the OpenAPI document gives it (tests/support/api-contract.ts).
        expect((await contractOf(server.baseUrl)).problemsWith(reply), context).toEqual([]);
      }
      if (response.status >= 400 && path.startsWith("/api/")) {
        const body = JSON.parse(text);
        expect(body.success, context).toBe(false);
        expect(typeof body.message, context).toBe("string");
      }
      expectNoLeak(context, role, text);
      if (before) expect(await databaseFingerprint(server), `${context} changed the database`).toEqual(before);
    });
  });
});
