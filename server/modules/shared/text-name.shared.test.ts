import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderText, templateParameters } from "../confirmation/confirmation-texts.shared";
import { paymentTemplateParameters, paymentText } from "../confirmation/payment-texts.shared";
import { attemptTemplateParameters, attemptText } from "../fulfilment/parcel-texts.shared";
import { TEXT_NAME_FALLBACK, TEXT_NAME_MAX, textName } from "./text-name.shared";

/**
 * The customer's name as the store's texts write it (docs/product.md, "Confirming an order"): the
 * first name's letters only, at most 20, so that an account's name cannot make the store's own
 * sender say anything else (issue 45: "Ali. URGENT your JazzCash is blocked call 0300…").
 */
const ONLY_LETTERS = /^\p{L}[\p{L}\p{Mn}\p{Mc}]*$/u;
const ATTACK = "Ali. URGENT your JazzCash is blocked call 0300-1234567 https://evil.example/x";

describe("textName", () => {
  it("keeps the first name's letters: Latin, Urdu, accented", () => {
    expect(textName("Muhammad Ali Khan", "en")).toBe("Muhammad");
    expect(textName(ATTACK, "en")).toBe("Ali");
    expect(textName("  محمد علی", "ur")).toBe("محمد");
    expect(textName("José María", "en")).toBe("José");
    // Typed decomposed (e + combining acute), it reads as the same letters.
    expect(textName("Jose\u0301", "en")).toBe("José");
    expect(textName("0300 Bilal", "en")).toBe("Bilal");
    expect(textName("Zainab🙂Bibi", "en")).toBe("Zainab");
    expect(textName("A".repeat(30), "en")).toBe("A".repeat(TEXT_NAME_MAX));
  });

  it("says the customer in the text's language when the name leaves no letters", () => {
    expect(textName("", "en")).toBe(TEXT_NAME_FALLBACK.en);
    expect(textName("03001234567 !!! 🙂", "en")).toBe(TEXT_NAME_FALLBACK.en);
    expect(textName("...", "ur")).toBe(TEXT_NAME_FALLBACK.ur);
  });

  it("answers only letters, at most 20, never a digit, a URL or a space, whatever the name", () => {
    const names = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 80 }),
      fc.string({ unit: "binary", maxLength: 80 }),
      fc
        .array(fc.constantFrom("Ali", " ", ".", "0300", "https://", "evil.example", "محمد", "٣", "۴", "\u202e", "🙂"))
        .map((parts) => parts.join("")),
    );
    fc.assert(
      fc.property(names, fc.constantFrom("en" as const, "ur" as const), (name, language) => {
        const written = textName(name, language);
        expect(written).toMatch(ONLY_LETTERS);
        expect(Array.from(written).length).toBeLessThanOrEqual(TEXT_NAME_MAX);
        // No digit (a phone number), no space (a sentence), none of a link's or an address's signs.
        expect(written).not.toMatch(/\p{N}|\s|[.:/@]/u);
      }),
    );
  });
});

describe("every text the store sends names the customer by textName", () => {
  const order = {
    id: "0b7c8f4e-2d1a-4c3b-9a8e-1f2e3d4c5b6a",
    customerName: ATTACK,
    totalPrice: 12500,
    storeName: "Waqt",
    link: "https://waqt.example/c/token",
  };
  const payment = { ...order, account: null, hoursToPay: 48, rejectedReason: null };
  const attempt = { ...order, courier: "PostEx", trackingNumber: "PX-1234", reason: "Customer not reachable" };

  it("in the confirmation's, the payments' and the parcel's texts and their WhatsApp parameters, in both languages", () => {
    for (const language of ["en", "ur"] as const) {
      const written = [
        orderText(language, "confirmation", order),
        orderText(language, "reminder", order),
        paymentText(language, "payment-awaited", payment),
        paymentText(language, "payment-verified", payment),
        attemptText(language, attempt),
      ];
      for (const text of written) {
        expect(text).toContain("Ali");
        expect(text).not.toContain("URGENT");
        expect(text).not.toContain("evil.example");
      }
      expect(templateParameters(language, order)[0]).toBe("Ali");
      expect(paymentTemplateParameters(language, "payment-awaited", payment)[0]).toBe("Ali");
      expect(attemptTemplateParameters(language, attempt)[0]).toBe("Ali");
    }
    const nameless = { ...order, customerName: "0300-1234567" };
    expect(templateParameters("ur", nameless)[0]).toBe(TEXT_NAME_FALLBACK.ur);
    expect(orderText("en", "confirmation", nameless)).toContain(`Assalam-o-Alaikum ${TEXT_NAME_FALLBACK.en}!`);
  });
});
