/**
 * The request log (server/http/request-log.ts) as an operator reads it: links that carry a secret
 * token (the password reset, the stock-alert unsubscribe, the new email's confirmation, the order confirmation's `/c/{token}`)
 * are written by their route, without the token, however the address is spelled; every other
 * address is written as it came.
 */
import net from "node:net";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClient } from "../support/http-client";
import { startTestServer, type TestServer } from "../support/test-server";

type LogLine = { level: number; msg: string; reqId?: string; url?: string; req?: { method: string; url: string } };

const lines: LogLine[] = [];
const written: string[] = [];
let server: TestServer;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk));
      lines.push(JSON.parse(String(chunk)) as LogLine);
      done();
    },
  });
  server = await startTestServer({ LOG_LEVEL: "info" }, { logger: pino({ level: "info" }, sink) });
});
afterAll(async () => {
  await server?.close();
});

/** The URL the request log wrote for a request (found by its X-Request-Id). */
async function loggedUrl(method: string, path: string, body?: Record<string, string>): Promise<string> {
  const client = new TestClient(server.baseUrl);
  const response = body ? await client.postForm(path, body) : await client.get(path);
  await response.arrayBuffer();
  const id = response.headers.get("x-request-id")!;
  const deadline = Date.now() + 5_000;
  for (;;) {
    const line = lines.find((entry) => entry.reqId === id && entry.req);
    if (line) {
      expect(line.req!.method).toBe(method);
      return line.req!.url;
    }
    if (Date.now() > deadline) throw new Error(`no log line for ${method} ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the request log", () => {
  it("writes token links by their route, never the token, however the address is spelled", async () => {
    const links: [string, string][] = [
      ["/reset-password?token=ResetSecret1", "/reset-password"],
      ["/reset-password/?token=ResetSecret2&utm_source=mail", "/reset-password"],
      ["/Reset-Password?token=ResetSecret3", "/reset-password"],
      ["/%72eset-password?token=ResetSecret4", "/reset-password"],
      ["//reset-password?token=ResetSecret5", "/reset-password"],
      ["/reset-password.data?token=ResetSecret6", "/reset-password.data"],
      ["/unsubscribe?token=UnsubscribeSecret1", "/unsubscribe"],
      ["/UNSUBSCRIBE/?token=UnsubscribeSecret2", "/unsubscribe"],
      ["/confirm-email?token=EmailSecret1", "/confirm-email"],
      ["/Confirm-Email/?token=EmailSecret2", "/confirm-email"],
      ["/c/ConfirmSecret1", "/c/:token"],
      ["/c/ConfirmSecret2/", "/c/:token"],
      ["/c/ConfirmSecret3.data", "/c/:token.data"],
    ];
    for (const [path, logged] of links) expect(await loggedUrl("GET", path), path).toBe(logged);
    // The reset form posts its token back in the body, which is never logged; the address has it too.
    expect(
      await loggedUrl("POST", "/reset-password?token=ResetSecret7", {
        token: "ResetSecret7",
        password: "newpassword1",
        confirmPassword: "newpassword1",
      }),
    ).toBe("/reset-password");
    expect(written.join("")).not.toMatch(/ResetSecret|UnsubscribeSecret|EmailSecret|ConfirmSecret/);
  });

  it("keeps every other address as it came, but for the value of a `token` parameter", async () => {
    expect(await loggedUrl("GET", "/products?search=casio&page=2")).toBe("/products?search=casio&page=2");
    expect(await loggedUrl("GET", "/api/v1/products?limit=1")).toBe("/api/v1/products?limit=1");
    expect(await loggedUrl("GET", "/verify-phone?token=StraySecret1&step=2")).toBe(
      "/verify-phone?token=%5Bremoved%5D&step=2",
    );
    expect(written.join("")).not.toContain("StraySecret");
  });

  it("writes a request the browser cancelled below warning level, as no error of the store's", async () => {
    const { port } = new URL(server.baseUrl);
    // A page asked for, and a form post whose body never comes, each cut off by the browser at once.
    const cancel = (request: string) =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect(Number(port), "127.0.0.1", () => {
          socket.write(request, () => {
            socket.destroy();
            resolve();
          });
        });
        socket.on("error", reject);
      });
    await cancel("GET /products?sort=name&cancelled=1 HTTP/1.1\r\nHost: localhost\r\n\r\n");
    await cancel(
      "POST /contact?cancelled=2 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\nname=Sana",
    );
    const deadline = Date.now() + 10_000;
    const about = (marker: string) =>
      lines.filter((line) => (line.req?.url ?? line.url ?? "").includes(`cancelled=${marker}`));
    while (about("1").length === 0 || about("2").length === 0) {
      if (Date.now() > deadline) throw new Error("no log line for the cancelled requests");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Whatever else the cut-off answers make the store write comes in the moment after.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const marker of ["1", "2"]) {
      expect(about(marker).map((line) => line.msg)).toContain("request cancelled by the client");
      for (const line of about(marker)) expect(line.level, `${line.msg} (${marker})`).toBeLessThan(40);
    }
  });
});
