import { describe, expect, it } from "vitest";
import { plainLogLine } from "./log-lines";
import { createLogger } from "./logger";

/** An output as the process's standard output is, in a terminal or not. */
function output(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) } };
}

const at = new Date(2026, 10, 25, 19, 29, 3).getTime();

describe("the log in a terminal", () => {
  it("writes a record as one plain line: time, level, message, other fields", () => {
    expect(
      plainLogLine(
        JSON.stringify({
          level: 30,
          time: at,
          pid: 7,
          hostname: "vm",
          msg: "Waqt is running at http://localhost:3000",
        }),
      ),
    ).toBe("19:29:03 INFO  Waqt is running at http://localhost:3000\n");
    expect(
      plainLogLine(JSON.stringify({ level: 40, time: at, msg: "database migrated", migrations: ["a", "b"] })),
    ).toBe('19:29:03 WARN  database migrated migrations=["a","b"]\n');
  });

  it("writes a request by what was asked, the answer and the time it took; an error with its stack", () => {
    const request = { reqId: "r1", req: { method: "GET", url: "/products?page=2" }, res: { statusCode: 200 } };
    expect(
      plainLogLine(JSON.stringify({ level: 30, time: at, ...request, responseTime: 12, msg: "request completed" })),
    ).toBe("19:29:03 INFO  GET /products?page=2 200 in 12 ms\n");
    expect(
      plainLogLine(
        JSON.stringify({ level: 30, time: at, ...request, responseTime: 3, msg: "request cancelled by the client" }),
      ),
    ).toBe("19:29:03 INFO  GET /products?page=2 200 in 3 ms (request cancelled by the client)\n");
    expect(
      plainLogLine(
        JSON.stringify({
          level: 50,
          time: at,
          msg: "page request failed",
          err: { message: "boom", stack: "Error: boom\n    at render (app.js:1:1)" },
        }),
      ),
    ).toBe("19:29:03 ERROR page request failed\n    Error: boom\n        at render (app.js:1:1)\n");
  });

  it("writes plain lines only to a terminal, and JSON lines anywhere else (files, log shippers)", () => {
    const terminal = output(true);
    createLogger("info", terminal.stream).info("mail goes to .eml files under ./data/outbox");
    expect(terminal.written).toHaveLength(1);
    expect(terminal.written[0]).toMatch(
      /^\d{2}:\d{2}:\d{2} INFO {2}mail goes to \.eml files under \.\/data\/outbox\n$/,
    );

    const file = output(false);
    createLogger("info", file.stream).info("mail goes to .eml files under ./data/outbox");
    expect(JSON.parse(file.written.join(""))).toMatchObject({
      level: 30,
      msg: "mail goes to .eml files under ./data/outbox",
    });
  });
});
