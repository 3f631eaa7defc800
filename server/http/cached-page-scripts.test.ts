import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { pageForEveryGuest } from "./cached-page-scripts";

const sha256 = (text: string) => `'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`;
const NONCE = "Zm9yLXRoaXMtZ3Vlc3Qtb25seQ==";

describe("a kept page made fit for every guest", () => {
  it("loses its nonce attributes, byte for byte otherwise, and names each script it runs by the hash of its text", () => {
    const page = [
      `<!DOCTYPE html><html><head><link rel="modulepreload" href="/assets/a.js" nonce="${NONCE}"/>`,
      `<script type="application/ld+json">{"name":"Diver &amp; <b>"}</script></head><body>`,
      `<p data-note="nonce">Text that says nonce="x"</p>`,
      `<script nonce="${NONCE}">window.__context = {"a":"</p>"};</script>`,
      `<script type="text/x-held-module" id="held" nonce="${NONCE}" data-preloads="[]">import "/assets/a.js";</script>`,
      `<SCRIPT NONCE="${NONCE}" type="module">\r\nconsole.log("é")\r</SCRIPT>`,
      `<script src="/assets/b.js" nonce="${NONCE}"></script>`,
      `<template><script nonce="${NONCE}">inTemplate()</script></template>`,
      `</body></html>`,
    ].join("");
    const shared = pageForEveryGuest(page, NONCE)!;
    expect(shared.html).not.toContain(NONCE);
    expect(shared.html).toBe(page.replace(new RegExp(` (nonce|NONCE)="${NONCE.replace(/[+=]/g, "\\$&")}"`, "g"), ""));
    // Newlines as the browser reads them (CR LF and a lone CR become LF); JSON-LD and src scripts run no text of the page.
    expect(shared.scriptHashes.sort()).toEqual(
      [
        sha256('window.__context = {"a":"</p>"};'),
        sha256('import "/assets/a.js";'),
        sha256('\nconsole.log("é")\n'),
        sha256("inTemplate()"),
      ].sort(),
    );
  });

  it("is not shared when the nonce would still be in it", () => {
    // A repeated attribute: the parser keeps the first, the second stays in the bytes.
    expect(pageForEveryGuest(`<script nonce="${NONCE}" nonce="${NONCE}">go()</script>`, NONCE)).toBeNull();
    expect(pageForEveryGuest(`<p>${NONCE}</p><script nonce="${NONCE}">go()</script>`, NONCE)).toBeNull();
  });
});
