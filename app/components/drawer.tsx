import type { ReactNode } from "react";
import { useClosedOnNavigation } from "../lib/use-closed-on-navigation";

/**
 * A panel that folds into a drawer on a phone and is simply open on wider screens (the admin
 * menu, the catalogue's filters). It is a <details>, so it opens and closes without JavaScript;
 * from 821px the stylesheet hides its summary and shows its content (app.css, ".drawer"). With
 * JavaScript it closes when the page changes, as a new document's would be closed.
 */
export function Drawer({ summary, className, children }: { summary: string; className?: string; children: ReactNode }) {
  const details = useClosedOnNavigation();
  return (
    <details className={className ? `drawer ${className}` : "drawer"} ref={details}>
      <summary className="drawer__summary">
        <span className="menu-icon" aria-hidden="true" />
        {summary}
      </summary>
      <div className="drawer__body">{children}</div>
    </details>
  );
}
