import { Link, useLocation } from "react-router";
import type { StoreDetails } from "../../server/settings/store-details";
import { StoreAddress, telHref } from "../content/store-contact-details";

export function SiteFooter({ store, lite }: { store: StoreDetails; lite: boolean }) {
  const location = useLocation();
  const here = location.pathname + location.search;
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <section>
          <h2 className="footer-brand">{store.name}</h2>
          <p>{store.tagline}</p>
        </section>
        <section>
          <h2>Quick Links</h2>
          <ul>
            <li>
              <Link to="/">Home</Link>
            </li>
            <li>
              <Link to="/products">Products</Link>
            </li>
            <li>
              <Link to="/about">About Us</Link>
            </li>
            <li>
              <Link to="/cart">Cart</Link>
            </li>
          </ul>
        </section>
        <section>
          <h2>Customer Service</h2>
          <ul>
            <li>
              <Link to="/my-orders">My Orders</Link>
            </li>
            <li>
              <Link to="/contact">Contact Us</Link>
            </li>
            <li>
              <Link to="/faq">FAQs</Link>
            </li>
          </ul>
        </section>
        <section>
          <h2>Contact</h2>
          <address>
            <StoreAddress store={store} />
            <br />
            <a href={`mailto:${store.email}`}>{store.email}</a>
            <br />
            <a href={telHref(store.phone)}>{store.phone}</a>
          </address>
        </section>
      </div>
      <p className="site-footer__legal">
        © {new Date().getFullYear()} {store.name}. All rights reserved. Cash on Delivery · Free shipping across
        Pakistan.
      </p>
      <p className="site-footer__legal">
        {/* A plain link, answered by a redirect: the switch works the same with and without scripts. */}
        <a href={`/lite-mode?mode=${lite ? "off" : "on"}&returnTo=${encodeURIComponent(here)}`} rel="nofollow">
          {lite ? "Full mode" : "Lite mode"}
        </a>{" "}
        <span className="muted">
          {lite ? "(pages without scripts: on)" : "(pages without scripts, for slow connections)"}
        </span>
      </p>
    </footer>
  );
}
