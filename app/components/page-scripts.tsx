import { Children, Fragment, isValidElement, type ReactNode } from "react";
import { Scripts } from "react-router";
import { HELD_MODULE_TYPE } from "../../server/http/page-scripts.shared";

/**
 * React Router's `<Scripts>`, asked for once the page has painted.
 *
 * Every page works before its scripts run (docs/decisions/2026-11-23-before-hydration.md), so
 * what a shopper on a slow link needs first is the page and its stylesheet. React puts the
 * module preloads of `<Scripts>` at the top of the head, and at their high priority the 117 kB
 * of modules were fetched before and beside the 6 kB stylesheet: the first paint waited for both
 * (Lighthouse's slow 4G: 2.1 s, and 0.8 s without them). Here the module script and its preloads
 * are held in the page as inert data and started by a small script after the first contentful
 * paint; the context script runs as React Router renders it. Decision record:
 * docs/decisions/2026-11-23-scripts-after-first-paint.md.
 *
 * `<Scripts>` takes no option for this, so it is called here as the hook it is (the same hooks
 * in the same order on every render, on the server and in the browser alike) and its answer is
 * rearranged: the same elements, so hydration sees what the server sent.
 */
export function PageScripts({ nonce }: { nonce: string | undefined }) {
  const rendered = Scripts({ nonce });
  const held = heldModules(rendered);
  // Nothing to hold (after hydration `<Scripts>` renders nothing): what it rendered, as it is.
  if (!held) return rendered;
  const { preloads, moduleScript, others } = held;
  return (
    <>
      {others}
      <script
        type={HELD_MODULE_TYPE}
        id={HELD_MODULE_ID}
        nonce={nonce}
        data-preloads={JSON.stringify(preloads)}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: moduleScript }}
      />
      <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: START_AFTER_FIRST_PAINT }} />
    </>
  );
}

const HELD_MODULE_ID = "held-module-script";

/**
 * Starts the held module script (with its preloads, so the modules still come in parallel) when
 * the first contentful paint has been presented. A page opened in a hidden tab paints nothing
 * until shown, so there it starts at once, as it does when the tab is hidden before the paint.
 * A browser without paint timing (or without PerformanceObserver) starts after its first frame.
 */
const START_AFTER_FIRST_PAINT = `(() => {
  const held = document.getElementById(${JSON.stringify(HELD_MODULE_ID)});
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of JSON.parse(held.dataset.preloads)) {
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement("script");
    script.type = "module";
    script.nonce = held.nonce;
    script.textContent = held.textContent;
    document.head.append(script);
  };
  if (document.visibilityState === "hidden") return start();
  document.addEventListener("visibilitychange", start, { once: true });
  try {
    if (!(PerformanceObserver.supportedEntryTypes || []).includes("paint")) throw new Error("no paint timing");
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName("first-contentful-paint").length === 0) return;
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
  } catch {
    requestAnimationFrame(() => setTimeout(start));
  }
})();`;

type ScriptsElementProps = {
  rel?: string;
  href?: string;
  type?: string;
  children?: ReactNode;
  dangerouslySetInnerHTML?: { __html: string };
};

/**
 * What `<Scripts>` rendered, sorted: its module preloads' addresses, its module script's text
 * and everything else (the context script, an import map), in order. Null when it rendered no
 * module script.
 */
function heldModules(tree: ReactNode): { preloads: string[]; moduleScript: string; others: ReactNode[] } | null {
  const preloads: string[] = [];
  const others: ReactNode[] = [];
  let moduleScript: string | null = null;
  const sort = (node: ReactNode) => {
    if (!isValidElement<ScriptsElementProps>(node)) return;
    if (node.type === Fragment) Children.forEach(node.props.children, sort);
    else if (node.type === "link" && node.props.rel === "modulepreload" && node.props.href)
      preloads.push(node.props.href);
    else if (node.type === "script" && node.props.type === "module" && node.props.dangerouslySetInnerHTML)
      moduleScript = node.props.dangerouslySetInnerHTML.__html;
    else others.push(node);
  };
  sort(tree);
  if (moduleScript === null) return null;
  return { preloads, moduleScript, others: Children.toArray(others) };
}
