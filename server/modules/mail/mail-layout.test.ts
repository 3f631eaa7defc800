import { describe, expect, it } from "vitest";
import { storeDetails } from "../../settings/store-details";
import { orderPlacedMail } from "../orders/order-mails";
import { renderMail } from "./mail-layout";

const context = { store: storeDetails({}), publicUrl: "https://waqt.pk" };

describe("the mails' layout", () => {
  it("writes every block as plain text and as HTML, with the store's name and contact details", () => {
    const mail = renderMail(context, {
      subject: "Hello",
      greeting: "Dear Sana,",
      blocks: [
        { kind: "heading", text: "Title" },
        { kind: "paragraph", text: "A paragraph." },
        { kind: "table", rows: [["Watch × 2", "Rs. 2,000"]], total: ["Total", "Rs. 2,000"] },
        { kind: "link", label: "Open", url: "https://waqt.pk/x" },
      ],
    });
    expect(mail.text).toContain("Dear Sana,\n\nTitle\n-----\n\nA paragraph.");
    expect(mail.text).toContain("Open: https://waqt.pk/x");
    expect(mail.text).toContain("support@waqt.pk");
    expect(mail.html).toContain('<a href="https://waqt.pk/x"');
    expect(mail.html).toContain("Watch × 2");
    expect(mail.html).toContain("+92 42 3578 1234");
  });

  it("escapes what customers typed in the HTML part", () => {
    const mail = orderPlacedMail(context, {
      id: "00000000-0000-4000-8000-0000abcdef12",
      customerName: '<script>alert(1)</script> "Sana"',
      customerEmail: "sana@example.com",
      items: [{ name: "<b>Watch</b>", quantity: 1, unitPrice: 100 }],
      totalPrice: 100,
      address: { street: "<img src=x onerror=alert(1)>", city: "Lahore", state: "", zipCode: "", country: "Pakistan" },
      phone: null,
      paymentMethod: "Cash on Delivery",
    });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img src=x");
    expect(mail.html).not.toContain("<b>Watch</b>");
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &quot;Sana&quot;");
    expect(mail.text).toContain('<script>alert(1)</script> "Sana"');
    expect(mail.subject).toBe("Your Waqt order #ABCDEF12 is placed");
  });
});
