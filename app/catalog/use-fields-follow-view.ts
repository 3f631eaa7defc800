import { useEffect, useRef } from "react";

/**
 * For the catalogue's GET form, whose fields are uncontrolled (so what a shopper ticks before the
 * scripts run stays ticked): with JavaScript the page changes in place, and its fields would keep
 * what the page before showed — Back after an option applied, or a link to every watch, would
 * leave options ticked that the list no longer applies. Each new view sets every field to what its
 * URL says (`href`, the view's canonical address), as a new document would; not at hydration. A
 * field being typed in keeps its text, and the fields are not replaced, so focus stays where it is.
 */
export function useFieldsFollowView(href: string) {
  const form = useRef<HTMLFormElement>(null);
  const shownHref = useRef(href);
  useEffect(() => {
    if (shownHref.current === href || !form.current) return;
    shownHref.current = href;
    const params = new URL(href, window.location.origin).searchParams;
    for (const field of form.current.elements) {
      if (field instanceof HTMLInputElement && (field.type === "checkbox" || field.type === "radio")) {
        // A radio with no value ("Any") is the choice when the URL names none.
        field.checked = field.value === "" ? !params.has(field.name) : params.getAll(field.name).includes(field.value);
      } else if (
        (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) &&
        field.name &&
        field !== document.activeElement
      ) {
        field.value = params.get(field.name) ?? "";
      }
    }
  }, [href]);
  return form;
}
