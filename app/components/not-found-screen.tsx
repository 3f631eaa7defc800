import { Link } from "react-router";

export function NotFoundScreen({ message }: { message?: string }) {
  return (
    <section className="error-screen">
      <p className="error-code">404</p>
      <h1>{message ?? "Page not found"}</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <Link className="button" to="/">
        Go Home
      </Link>
    </section>
  );
}
