import { contractOf } from "./api-contract";

/**
 * A small browser-like HTTP client for integration tests: it keeps cookies, sends forms the way
 * a browser without JavaScript does, and never follows redirects, so tests see each 303.
 */
export class TestClient {
  private readonly cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async get(path: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.send(path, { method: "GET", headers });
  }

  /** A form post from one of the store's own pages (same origin); URLSearchParams for a name sent more than once (checkboxes). */
  async postForm(path: string, fields: Record<string, string> | URLSearchParams, headers: Record<string, string> = {}) {
    return this.send(path, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: this.baseUrl,
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /** A multipart form post from one of the store's own pages (a form with a file, as a browser sends it). */
  async postMultipart(path: string, form: FormData, headers: Record<string, string> = {}) {
    return this.send(path, { method: "POST", headers: { origin: this.baseUrl, ...headers }, body: form });
  }

  /**
   * A JSON API call, with a bearer token when given. Its answer must match the OpenAPI document
   * the server serves (tests/support/api-contract.ts): a status the document lists for the call,
   * the headers it requires, a body of its schema; else the call throws, saying what differs.
   */
  async api(
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    // A FormData body is sent as multipart/form-data, its boundary set by fetch.
    const form = options.body instanceof FormData;
    if (options.body !== undefined && !form) headers["content-type"] ??= "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(this.baseUrl + "/api/v1" + path, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : form || typeof options.body === "string"
            ? (options.body as BodyInit)
            : JSON.stringify(options.body),
    });
    const text = await response.text();
    const contract = await contractOf(this.baseUrl);
    const problems = contract.problemsWith({ method, path, status: response.status, headers: response.headers, text });
    if (problems.length > 0) throw new Error(`The API's answer breaks its OpenAPI document:\n${problems.join("\n")}`);
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: response.status, headers: response.headers, body: json, text };
  }

  /** The Cookie header this client would send (for requests made without it). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  private async send(path: string, init: RequestInit & { headers?: Record<string, string> }) {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    }
    const response = await fetch(this.baseUrl + path, { ...init, headers, redirect: "manual" });
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (/expires=Thu, 01 Jan 1970/i.test(setCookie) || value === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    return response;
  }
}
