import { Form, Link, NavLink } from "react-router";
import { useClosedOnNavigation } from "../lib/use-closed-on-navigation";

type HeaderUser = { name: string; role: "customer" | "admin" } | null;

const MAIN_LINKS = [
  { to: "/", label: "Home", end: true },
  { to: "/products", label: "Products", end: false },
  { to: "/about", label: "About", end: false },
  { to: "/contact", label: "Contact", end: false },
];

/**
 * The top bar. On small screens the links fold into a menu that is a native <details>
 * element, so it opens and closes without JavaScript.
 */
export function SiteHeader({
  user,
  cartCount,
  comparedCount,
  brand,
}: {
  user: HeaderUser;
  cartCount: number;
  /** Watches in the shopper's comparison: the Compare link shows only when there are some. */
  comparedCount: number;
  brand: string;
}) {
  // Without JavaScript a link followed from the open menu loads a new page, with the menu closed;
  // with it the header stays, so the menu is closed when the page changes.
  const menu = useClosedOnNavigation();
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to="/" className="brand" aria-label={`${brand} home`}>
          <img src="/favicon.svg" alt="" width="28" height="28" />
          <span>{brand}</span>
        </Link>
        <nav className="nav-desktop" aria-label="Main">
          <NavLinks />
        </nav>
        <div className="header-actions">
          {comparedCount > 0 ? (
            <Link to="/compare" className="compare-link">
              Compare <span className="badge badge--count">{comparedCount}</span>
            </Link>
          ) : null}
          <CartLink count={cartCount} />
          <div className="nav-desktop">
            <AccountLinks user={user} />
          </div>
        </div>
        <details className="nav-mobile" ref={menu}>
          <summary aria-label="Menu">
            <span className="menu-icon" aria-hidden="true" />
            Menu
          </summary>
          <nav aria-label="Mobile">
            <NavLinks />
            <NavLink to="/faq">FAQ</NavLink>
            <AccountLinks user={user} />
          </nav>
        </details>
      </div>
    </header>
  );
}

function NavLinks() {
  return (
    <>
      {MAIN_LINKS.map((link) => (
        <NavLink key={link.to} to={link.to} end={link.end}>
          {link.label}
        </NavLink>
      ))}
    </>
  );
}

function CartLink({ count }: { count: number }) {
  // Named by what it shows ("Cart", the count), then what the count is: "Cart 2 items".
  return (
    <Link to="/cart" className="cart-link">
      <svg
        aria-hidden="true"
        width="22"
        height="22"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <circle cx="9" cy="21" r="1" />
        <circle cx="20" cy="21" r="1" />
        <path d="M1 1h4l2.7 13.4a2 2 0 0 0 2 1.6h9.7a2 2 0 0 0 2-1.6L23 6H6" />
      </svg>
      <span className="cart-link__label">Cart</span>
      {count > 0 ? (
        <>
          <span className="badge badge--count" data-testid="cart-badge">
            {count}
          </span>
          <span className="visually-hidden">{count === 1 ? " item" : " items"}</span>
        </>
      ) : null}
    </Link>
  );
}

function AccountLinks({ user }: { user: HeaderUser }) {
  if (!user) {
    return (
      <>
        <NavLink to="/login">Login</NavLink>
        <NavLink to="/signup" className="button button--small">
          Sign Up
        </NavLink>
      </>
    );
  }
  return (
    <>
      {user.role === "admin" ? <NavLink to="/admin">Admin</NavLink> : null}
      <NavLink to="/profile">My Profile</NavLink>
      <NavLink to="/my-orders">My Orders</NavLink>
      <Form method="post" action="/logout" className="inline-form">
        <button type="submit" className="link-button">
          Logout
        </button>
      </Form>
    </>
  );
}
