import { useEffect, useState } from "react";

/**
 * A success message that came with the page (after a redirect). With JavaScript it fades after
 * three seconds, as the spec says; without it, it simply stays on this page.
 */
export function FlashBanner({ message }: { message: string | null }) {
  const [visible, setVisible] = useState(Boolean(message));
  useEffect(() => {
    setVisible(Boolean(message));
    if (!message) return;
    const timer = setTimeout(() => setVisible(false), 3000);
    return () => clearTimeout(timer);
  }, [message]);
  if (!message || !visible) return null;
  return (
    <div className="alert alert--success" role="status">
      {message}
    </div>
  );
}

/**
 * A message carried by the session across a redirect (e.g. "Added to cart"): a success fades
 * like any banner; a problem stays until the next page.
 */
export function SessionFlash({ flash }: { flash: { tone: "success" | "error"; message: string } }) {
  if (flash.tone === "success") return <FlashBanner message={flash.message} />;
  return (
    <div className="alert alert--error" role="alert">
      {flash.message}
    </div>
  );
}
