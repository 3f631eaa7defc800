import { useLocation } from "react-router";

/**
 * "Oops! Something went wrong" with the message, or "An unexpected error occurred". Try Again
 * reloads the page the shopper was on; it is a plain link, so it works without JavaScript too.
 */
export function ErrorScreen({ message }: { message?: string }) {
  const location = useLocation();
  return (
    <section className="error-screen" role="alert">
      <h1>Oops! Something went wrong</h1>
      <p>{message || "An unexpected error occurred"}</p>
      <a className="button" href={location.pathname + location.search}>
        Try Again
      </a>
    </section>
  );
}
