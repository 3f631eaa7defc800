import crypto from "node:crypto";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { HELD_MODULE_TYPE } from "./page-scripts.shared";

type ParentNode = DefaultTreeAdapterMap["parentNode"];
type Element = DefaultTreeAdapterMap["element"];

/** A page as every guest is sent it: no nonce, and the hashes of the inline scripts it runs, as CSP sources. */
export type PageForEveryGuest = { html: string; scriptHashes: string[] };

/**
 * A page rendered for one guest, made fit to send to every guest from the page cache
 * (server/http/page-cache.ts; docs/decisions/2026-11-29-cached-page-scripts.md): a nonce sent to
 * every guest is no nonce at all, so the page loses its `nonce` attributes and its policy names
 * each inline script by the SHA-256 of its text instead.
 *
 * The page is read by parse5, which follows the HTML standard's parsing algorithm as browsers do:
 * the script elements it finds, their texts (after the standard's newline normalisation) and the
 * places of their `nonce` attributes are those the browser finds, not a pattern's guess at them.
 * The attributes are cut out at the offsets the parser gives; the rest of the page is the
 * rendered bytes, untouched. Null when the nonce still appears anywhere after that (an attribute
 * the parser dropped as a duplicate, the nonce in a text): such a page is not shared.
 */
export function pageForEveryGuest(html: string, nonce: string): PageForEveryGuest | null {
  const document = parse(html, { sourceCodeLocationInfo: true });
  const cuts: { start: number; end: number }[] = [];
  const hashes = new Set<string>();
  let readable = true;
  visitElements(document, (element) => {
    if (element.attrs.some((attribute) => attribute.name === "nonce")) {
      const span = element.sourceCodeLocation?.attrs?.nonce;
      if (!span) readable = false;
      else cuts.push({ start: span.startOffset, end: span.endOffset });
    }
    if (element.nodeName === "script" && runsItsText(element)) {
      const text = element.childNodes.map((node) => ("value" in node ? node.value : "")).join("");
      if (text) hashes.add(`'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`);
    }
  });
  if (!readable) return null;
  let shared = "";
  let from = 0;
  for (const { start, end } of cuts.sort((a, b) => a.start - b.start)) {
    // The space before the attribute goes with it.
    const cutFrom = /\s/.test(html[start - 1] ?? "") ? start - 1 : start;
    shared += html.slice(from, cutFrom);
    from = end;
  }
  shared += html.slice(from);
  if (nonce && shared.includes(nonce)) return null;
  return { html: shared, scriptHashes: [...hashes] };
}

/**
 * An inline script whose text the browser runs: a classic or module script without `src`, or the
 * held module script, whose text page-scripts.tsx runs as a module. Data blocks (JSON-LD) run
 * nothing and are not allowed as scripts.
 */
function runsItsText(element: Element): boolean {
  const attribute = (name: string) => element.attrs.find((attr) => attr.name === name)?.value;
  if (attribute("src") !== undefined) return false;
  const type = (attribute("type") ?? "").trim().toLowerCase();
  return type === "" || type === "module" || JAVASCRIPT_TYPES.has(type) || type === HELD_MODULE_TYPE;
}

/** The HTML standard's JavaScript MIME type essences. */
const JAVASCRIPT_TYPES = new Set([
  "application/ecmascript",
  "application/javascript",
  "application/x-ecmascript",
  "application/x-javascript",
  "text/ecmascript",
  "text/javascript",
  "text/javascript1.0",
  "text/javascript1.1",
  "text/javascript1.2",
  "text/javascript1.3",
  "text/javascript1.4",
  "text/javascript1.5",
  "text/jscript",
  "text/livescript",
  "text/x-ecmascript",
  "text/x-javascript",
]);

function visitElements(node: ParentNode, visit: (element: Element) => void): void {
  for (const child of node.childNodes) {
    if (!("tagName" in child)) continue;
    visit(child);
    visitElements(child, visit);
    if (child.nodeName === "template" && "content" in child) visitElements(child.content as ParentNode, visit);
  }
}
