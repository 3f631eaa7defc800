import net from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressKey } from "./client-address";

/** Eight 16-bit groups: any IPv6 address. */
const groups = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });

/** The ways an address may be written: full, without leading zeros, compressed (any run of zeros), in capitals, with a zone. */
function spellings(address: number[]): string[] {
  const full = address.map((group) => group.toString(16).padStart(4, "0")).join(":");
  const short = address.map((group) => group.toString(16));
  const compressed: string[] = [];
  for (let start = 0; start < 8; start += 1) {
    for (let end = start + 1; end <= 8; end += 1) {
      if (address.slice(start, end).some((group) => group !== 0)) continue;
      compressed.push(`${short.slice(0, start).join(":")}::${short.slice(end).join(":")}`);
    }
  }
  const forms = [full, short.join(":"), ...compressed];
  return [...forms, ...forms.map((form) => form.toUpperCase()), ...forms.map((form) => `${form}%eth0`)];
}

describe("addressKey", () => {
  it("keys every spelling of an IPv6 address by its /64, which holds the address (node:net's BlockList agrees)", () => {
    fc.assert(
      fc.property(groups, (address) => {
        // The IPv4-mapped range has its own rule, below.
        fc.pre(!(address.slice(0, 5).every((group) => group === 0) && address[5] === 0xffff));
        const keys = new Set(spellings(address).map(addressKey));
        expect(keys.size).toBe(1);
        const [key] = [...keys] as [string];
        expect(key).toMatch(/^[0-9a-f]{1,4}(:[0-9a-f]{1,4}){3}::\/64$/);
        const network = new net.BlockList();
        network.addSubnet(key.slice(0, -"/64".length), 64, "ipv6");
        for (const spelling of spellings(address)) {
          if (!spelling.includes("%")) expect(network.check(spelling, "ipv6")).toBe(true);
        }
      }),
    );
  });

  it("gives two addresses the same key exactly when their first 64 bits agree", () => {
    fc.assert(
      fc.property(groups, groups, fc.boolean(), (first, other, sameNetwork) => {
        const second = sameNetwork ? [...first.slice(0, 4), ...other.slice(4)] : other;
        const mapped = (address: number[]) =>
          address.slice(0, 5).every((group) => group === 0) && address[5] === 0xffff;
        fc.pre(!mapped(first) && !mapped(second));
        const same = first.slice(0, 4).every((group, index) => group === second[index]);
        const [a, b] = [first, second].map((address) =>
          addressKey(address.map((group) => group.toString(16)).join(":")),
        );
        expect(a === b).toBe(same);
      }),
    );
  });

  it("keys an IPv4-mapped address, dotted or in hex, as its IPv4 address", () => {
    fc.assert(
      fc.property(fc.ipV4(), (ipv4) => {
        const [a, b, c, d] = ipv4.split(".").map(Number) as [number, number, number, number];
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        for (const spelling of [
          ipv4,
          `::ffff:${ipv4}`,
          `::FFFF:${ipv4}`,
          `::ffff:${hex}`,
          `0:0:0:0:0:ffff:${hex}`,
          `0000:0000:0000:0000:0000:FFFF:${ipv4}`,
        ]) {
          expect(addressKey(spelling), spelling).toBe(ipv4);
        }
        // node:net's BlockList reads the mapped address as the IPv4 one, too.
        const list = new net.BlockList();
        list.addAddress(ipv4, "ipv4");
        expect(list.check(`::ffff:${hex}`, "ipv6")).toBe(true);
      }),
    );
  });

  it("keeps IPv4 addresses apart, and anything that is not an address as it is", () => {
    expect(addressKey("203.0.113.7")).not.toBe(addressKey("203.0.113.8"));
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("[2001:db8::1]")).toBe("2001:db8:0:0::/64");
    expect(addressKey("")).toBe("");
    expect(addressKey("unknown")).toBe("unknown");
  });
});
