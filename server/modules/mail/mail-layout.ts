import type { StoreDetails } from "../../settings/store-details";

/**
 * What every mail is made from: the store's brand and contact details (server/settings/store-details.ts)
 * and its public address, from which every link is made absolute (docs/product.md, "Mail").
 */
export type MailContext = { store: StoreDetails; publicUrl: string };

/** The parts of a mail's body, written once and rendered as plain text and as simple HTML. */
export type MailBlock =
  | { kind: "heading"; text: string }
  | { kind: "paragraph"; text: string }
  /** A button in HTML, "label: url" in text. */
  | { kind: "link"; label: string; url: string }
  /** Two columns: items and their prices, or a label and its value. */
  | { kind: "table"; rows: [string, string][]; total?: [string, string] }
  /** Lines kept together, e.g. an address. */
  | { kind: "lines"; lines: string[] };

export type RenderedMail = { subject: string; text: string; html: string };

/** A site path made absolute with the public address (links in mails are always absolute). */
export function siteLink(context: MailContext, path: string): string {
  return context.publicUrl + (path.startsWith("/") ? path : `/${path}`);
}

export function renderMail(
  context: MailContext,
  mail: { subject: string; greeting?: string; blocks: MailBlock[]; footnote?: string },
): RenderedMail {
  const { store } = context;
  const signature = `${store.name}\n${store.email} · ${store.phone}\n${store.address.street}, ${store.address.city}\n${context.publicUrl}`;
  const textParts = [
    ...(mail.greeting ? [mail.greeting] : []),
    ...mail.blocks.map(blockText),
    ...(mail.footnote ? [mail.footnote] : []),
    `-- \n${signature}`,
  ];
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(mail.subject)}</title></head>
<body style="margin:0;padding:0;background:#f6f4ef;font-family:Arial,Helvetica,sans-serif;color:#1f2933;">
<div style="max-width:560px;margin:0 auto;padding:24px;background:#ffffff;">
<p style="margin:0 0 24px;font-size:22px;font-weight:bold;letter-spacing:1px;"><a href="${escapeHtml(context.publicUrl)}" style="color:#1f2933;text-decoration:none;">${escapeHtml(store.name)}</a></p>
${mail.greeting ? `<p>${escapeHtml(mail.greeting)}</p>\n` : ""}${mail.blocks.map(blockHtml).join("\n")}
${mail.footnote ? `<p style="color:#52606d;font-size:13px;">${escapeHtml(mail.footnote)}</p>\n` : ""}<hr style="border:none;border-top:1px solid #e4e7eb;margin:24px 0;">
<p style="color:#52606d;font-size:13px;line-height:1.5;">${escapeHtml(store.name)}<br>${escapeHtml(store.email)} · ${escapeHtml(store.phone)}<br>${escapeHtml(`${store.address.street}, ${store.address.city}`)}</p>
</div>
</body>
</html>
`;
  return { subject: mail.subject, text: textParts.join("\n\n") + "\n", html };
}

function blockText(block: MailBlock): string {
  switch (block.kind) {
    case "heading":
      return `${block.text}\n${"-".repeat(Math.min(block.text.length, 60))}`;
    case "paragraph":
      return block.text;
    case "link":
      return `${block.label}: ${block.url}`;
    case "lines":
      return block.lines.join("\n");
    case "table": {
      const rows = block.total ? [...block.rows, block.total] : block.rows;
      return rows.map(([left, right]) => `${left}  ${right}`).join("\n");
    }
  }
}

function blockHtml(block: MailBlock): string {
  switch (block.kind) {
    case "heading":
      return `<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(block.text)}</h1>`;
    case "paragraph":
      return `<p style="line-height:1.5;">${escapeHtml(block.text)}</p>`;
    case "link":
      return `<p style="margin:24px 0;"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:12px 20px;background:#1f2933;color:#ffffff;text-decoration:none;border-radius:4px;">${escapeHtml(block.label)}</a></p>
<p style="color:#52606d;font-size:13px;word-break:break-all;">${escapeHtml(block.url)}</p>`;
    case "lines":
      return `<p style="line-height:1.5;">${block.lines.map(escapeHtml).join("<br>")}</p>`;
    case "table": {
      const row = ([left, right]: [string, string], bold = false) =>
        `<tr><td style="padding:6px 0;border-bottom:1px solid #e4e7eb;${bold ? "font-weight:bold;" : ""}">${escapeHtml(left)}</td><td style="padding:6px 0 6px 12px;border-bottom:1px solid #e4e7eb;text-align:right;white-space:nowrap;${bold ? "font-weight:bold;" : ""}">${escapeHtml(right)}</td></tr>`;
      return `<table role="presentation" style="width:100%;border-collapse:collapse;margin:16px 0;">${block.rows.map((cells) => row(cells)).join("")}${block.total ? row(block.total, true) : ""}</table>`;
    }
  }
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}
