/**
 * The authorization matrix's pages: every page of app/routes.ts (GET, and POST where the page has
 * an action), asked by a guest, a customer, another customer and an admin, with the answer
 * expected (tests/support/authorization-matrix-rows.ts); a refusal changes nothing and no page
 * shows another user's private text.
 */
import { clients, expectMatrixAnswer, signedIn, testEveryRow, withMatrixStore } from "../support/authorization-matrix";
import { PAGE_MATRIX, PAGE_PARAMS } from "../support/authorization-matrix-rows";

withMatrixStore();

testEveryRow(PAGE_MATRIX, "page %s", PAGE_PARAMS, async (request, matrixRow) => {
  const { role, method, template, path } = request;
  // Logging out ends the session: that one gets a session of its own.
  const client = method === "POST" && template === "/logout" && role !== "guest" ? await signedIn(role) : clients[role];
  await expectMatrixAnswer(request, () =>
    method === "GET" ? client.get(path) : client.postForm(path, (matrixRow.body ?? {}) as Record<string, string>),
  );
});
