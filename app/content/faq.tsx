import type { SyntheticEvent } from "react";
import { Link } from "react-router";
import { requestContext } from "../context";
import { routeMeta } from "../lib/meta";
import { FAQ_CATEGORIES } from "./faq-entries";
import { StoreContactDetails } from "./store-contact-details";
import type { Route } from "./+types/faq";

export function loader({ context }: Route.LoaderArgs) {
  return { store: context.get(requestContext).store };
}

export const meta: Route.MetaFunction = routeMeta({
  title: "Frequently Asked Questions",
  description:
    "Answers about ordering with cash on delivery, free delivery across Pakistan, authenticity and warranty, 7-day returns, your account and caring for your watch.",
  keywords: "watch FAQ, cash on delivery, free delivery Pakistan, watch returns, watch warranty",
  path: "/faq",
});

/** The accordion's group: browsers that know <details name> keep one item open by themselves. */
const ACCORDION_NAME = "faq";

/**
 * One open item at a time. Native <details name> does it in current browsers, with or without
 * JavaScript; this closes the others for browsers that predate it. Without JavaScript in those,
 * every item still opens and closes on its own.
 */
function closeTheOthers(event: SyntheticEvent<HTMLDetailsElement>) {
  const opened = event.currentTarget;
  if (!opened.open) return;
  for (const item of document.querySelectorAll<HTMLDetailsElement>(
    `details[data-accordion="${ACCORDION_NAME}"][open]`,
  )) {
    if (item !== opened) item.open = false;
  }
}

export default function Faq({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <header className="page-intro">
        <h1>Frequently Asked Questions</h1>
        <p>Everything about ordering, delivery, authenticity, returns, your account and looking after your watch.</p>
      </header>
      <nav aria-label="FAQ categories" className="faq-toc">
        <ul>
          {FAQ_CATEGORIES.map((category, index) => (
            <li key={category.title}>
              <a href={`#faq-${index}`}>{category.title}</a>
            </li>
          ))}
        </ul>
      </nav>
      {FAQ_CATEGORIES.map((category, categoryIndex) => (
        <section key={category.title} className="faq-category" aria-labelledby={`faq-${categoryIndex}`}>
          <h2 id={`faq-${categoryIndex}`}>{category.title}</h2>
          {category.entries.map((entry) => (
            <details
              key={entry.question}
              className="faq-item"
              name={ACCORDION_NAME}
              data-accordion={ACCORDION_NAME}
              onToggle={closeTheOthers}
            >
              <summary>{entry.question}</summary>
              <p>{entry.answer}</p>
            </details>
          ))}
        </section>
      ))}
      <section className="section faq-help" aria-labelledby="faq-help">
        <h2 id="faq-help">Still have a question?</h2>
        <p>
          <Link to="/contact">Send us a message</Link> and we will get back to you within one business day, or reach us
          directly:
        </p>
        <StoreContactDetails store={loaderData.store} />
      </section>
    </>
  );
}
