import { expect } from "vitest";
import { TestClient } from "./http-client";

/** A browser without JavaScript, signed in through the log-in form (its session cookie kept). */
export async function signedInClient(baseUrl: string, email: string, password: string): Promise<TestClient> {
  const client = new TestClient(baseUrl);
  const response = await client.postForm("/login", { email, password, redirectTo: "" });
  expect(response.status, `log in as ${email}`).toBe(303);
  return client;
}

/** A page as a browser gets it: its status, where a redirect goes, and its HTML. */
export async function pageOf(client: TestClient, path: string) {
  const response = await client.get(path);
  return { status: response.status, location: response.headers.get("location"), text: await response.text() };
}
