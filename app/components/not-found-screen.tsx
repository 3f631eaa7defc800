import { Link } from "react-router";

/** The 404 page: "Page not found" with Go Home, or a named thing (e.g. "Product not found"). */
export function NotFoundScreen({
  message,
  explanation = "The page you are looking for does not exist or has moved.",
  link = { to: "/", label: "Go Home" },
}: {
  message?: string;
  explanation?: string;
  link?: { to: string; label: string };
}) {
  return (
    <section className="error-screen">
      {/* The status as a large label above the heading: not a paragraph, nor a heading itself. */}
      <div className="error-code">404</div>
      <h1>{message ?? "Page not found"}</h1>
      <p>{explanation}</p>
      <Link className="button" to={link.to}>
        {link.label}
      </Link>
    </section>
  );
}
