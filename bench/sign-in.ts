import type { Started } from "./processes";

/** The seeded shoppers signed in before the measuring: page sessions for GET /cart, API tokens for checkout. */

export async function pageLogin(server: Started, email: string, password: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.baseUrl },
    body: new URLSearchParams({ email, password, redirectTo: "/" }).toString(),
  });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("waqt.sid="));
  if (response.status !== 303 || !cookie) throw new Error(`page log-in of ${email} failed: ${response.status}`);
  return cookie.split(";")[0]!;
}

export async function apiLogin(server: Started, email: string, password: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { data?: { token?: string } };
  if (response.status !== 200 || !body.data?.token)
    throw new Error(`API log-in of ${email} failed: ${response.status}`);
  return body.data.token;
}

export async function inBatches<T, R>(items: T[], work: (item: T) => Promise<R>, size = 8): Promise<R[]> {
  const results: R[] = [];
  for (let index = 0; index < items.length; index += size) {
    results.push(...(await Promise.all(items.slice(index, index + size).map(work))));
  }
  return results;
}
