/**
 * The authorization matrix's routes of the Express app (the /api/v1 router and the health checks),
 * each asked by a guest, a customer, another customer and an admin with a bearer token, with the
 * answer expected (tests/support/authorization-matrix-rows.ts): each answer as the OpenAPI document
 * gives it, a refusal changes nothing and no answer shows another user's private text.
 */
import { expect } from "vitest";
import { contractOf } from "../support/api-contract";
import {
  credentials,
  expectMatrixAnswer,
  server,
  testEveryRow,
  withMatrixStore,
} from "../support/authorization-matrix";
import { API_PARAMS, EXPRESS_MATRIX } from "../support/authorization-matrix-rows";

withMatrixStore();

testEveryRow(EXPRESS_MATRIX, "%s", API_PARAMS, async (request, matrixRow) => {
  const { role, method, path, context } = request;
  // A token of its own for each request (log-out ends the one it is sent with).
  const token = role === "guest" ? undefined : (await server.services.accounts.issueToken(credentials[role].id!)).token;
  const hasBody = method !== "GET" && method !== "DELETE";
  const send = () =>
    fetch(server.baseUrl + path, {
      method,
      headers: {
        accept: "application/json",
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(hasBody ? { "content-type": "application/json" } : {}),
      },
      body: hasBody ? JSON.stringify(matrixRow.body ?? {}) : undefined,
    });
  await expectMatrixAnswer(request, send, async (response, text) => {
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
  });
});
