import { Link } from "react-router";
import { requestContext } from "../context";
import { routeMeta } from "../lib/meta";
import { FeatureGrid } from "./feature-grid";
import { RETURNS_PROMISE, STORE_FEATURES } from "./store-promises";
import type { Route } from "./+types/about";

export function loader({ context }: Route.LoaderArgs) {
  const { store } = context.get(requestContext);
  return { storeName: store.name, city: store.address.city };
}

export const meta: Route.MetaFunction = routeMeta({
  title: "About Us",
  description:
    "Who we are: a Lahore watch store selling 100% authentic watches with a certificate of authenticity and manufacturer warranty, delivered free across Pakistan, cash on delivery.",
  keywords: "about, authentic watches Pakistan, Lahore watch store",
  path: "/about",
});

const PROMISES = [...STORE_FEATURES, RETURNS_PROMISE];

export default function About({ loaderData }: Route.ComponentProps) {
  const { storeName, city } = loaderData;
  return (
    <>
      <header className="page-intro">
        <h1>About {storeName}</h1>
        <p>
          {storeName} is a watch store in {city} that brings genuine watches from the world's brands to your door,
          anywhere in Pakistan.
        </p>
      </header>
      <section className="section prose">
        <h2>Our story</h2>
        <p>
          Buying a good watch in Pakistan too often meant a long trip to a big-city market, or a gamble on a listing
          that might be a copy. {storeName} started in {city} to end that: a store that sells only authentic watches,
          shows honest prices in rupees, and delivers free to every city and town.
        </p>
        <p>
          We choose each model ourselves, from everyday field watches and divers to dress watches for a wedding season,
          for men and for women. Each one arrives with its certificate of authenticity and the manufacturer's warranty,
          and you pay only when it is in your hands.
        </p>
      </section>
      <section className="section">
        <h2>What we promise</h2>
        <FeatureGrid features={PROMISES} />
      </section>
      <section className="section cta-band">
        <h2>Find your watch</h2>
        <p>Browse the collection, or ask us anything: we answer within one business day.</p>
        <div className="hero__actions">
          <Link className="button" to="/products">
            Browse Watches
          </Link>
          <Link className="button button--ghost" to="/contact">
            Contact Us
          </Link>
        </div>
      </section>
    </>
  );
}
