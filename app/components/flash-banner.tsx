import { useEffect, useState } from "react";

/** Success banners fade after three seconds (with JavaScript; without it they stay on this page). */
const FADE_AFTER_MS = 3000;

/**
 * A success message that came with the page (after a redirect). A new message is a new banner:
 * the caller gives each one its own `key`.
 */
export function FlashBanner({ message }: { message: string }) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(false), FADE_AFTER_MS);
    return () => clearTimeout(timer);
  }, []);
  if (!visible) return null;
  return (
    <div className="alert alert--success" role="status">
      {message}
    </div>
  );
}

/**
 * A message carried across a redirect (e.g. "Added to cart"): a success fades like any banner; a
 * problem stays until the next page.
 */
export function SessionFlash({ flash }: { flash: { tone: "success" | "error"; message: string } }) {
  if (flash.tone === "success") return <FlashBanner message={flash.message} />;
  return (
    <div className="alert alert--error" role="alert">
      {flash.message}
    </div>
  );
}
