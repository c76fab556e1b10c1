import { describe, expect, it } from "vitest";
import { lookupInputOf, MAX_LOOKUP_BODY_BYTES } from "./lookup.server";
import { scanLookupBody } from "./lookup-body";
import { MAX_LOOKUP_NUMBERS } from "scrub-service";
import { SUPPRESSION_TYPE_NAMES } from "scrub-service/domain";
import { seededRandom } from "scrub-service/testing";

/*
 * The lookup body's byte reader against the general one (JSON.parse and the zod schema): on every body the byte
 * reader takes, both give the same entries (codes, echoed JSON), suppression type and container; every body it
 * declines is read the general way, so its answer or its error is the schema's.
 */

type Read = { codes: number[]; echo: string[]; suppressionType: string; containerId: number | null | undefined } | { error: string };

function read(body: string, scan: boolean): Read {
  try {
    const input = lookupInputOf(Buffer.from(body), { scan });
    const e = input.entries;
    return {
      codes: [...e.codes],
      echo: [...e.codes].map((_, i) => Buffer.from(e.echo.subarray(e.echoStarts[i], e.echoEnds[i])).toString()),
      suppressionType: input.suppressionType,
      containerId: input.containerId,
    };
  } catch (err) {
    return { error: `${(err as { status?: number }).status} ${(err as Error).message}` };
  }
}

const taken = (body: string) => scanLookupBody(Buffer.from(body), MAX_LOOKUP_NUMBERS, SUPPRESSION_TYPE_NAMES) !== null;

function expectSame(body: string): void {
  expect(read(body, true), body).toEqual(read(body, false));
}

describe("lookup body: byte reader vs JSON.parse and the schema", () => {
  it("takes the dialer's shapes and reads them as the schema does", () => {
    const bodies = [
      '{"numbers":["2125550100"]}',
      ' { "numbers" : [ "(212) 555-0100" , 2125550101 , "212.555.0102 x12" ] } \n',
      '{"suppression_type":"LitigationOnly","numbers":["+1 212 555 0100"],"container_id":null}',
      '{"numbers":["2125550100"],"container_id":17,"suppression_type":"DNCAndLitigation"}',
      '{"numbers":["", " ", "911", "555", "2125550100", "tel:+1-212-555-0100", "\'2125550100", "2.12555E+09"]}',
      `{"numbers":[${Array.from({ length: MAX_LOOKUP_NUMBERS }, (_, i) => `"${3105550000 + i}"`).join(",")}]}`,
      `{"numbers":["${"1".repeat(40)}"]}`,
      '{"numbers":[0, 12, 999999999999999]}',
    ];
    for (const body of bodies) {
      expect(taken(body), body).toBe(true);
      expectSame(body);
    }
  });

  it("declines what only the general reader may judge, and the answer or error is the schema's", () => {
    const bodies = [
      "",
      "null",
      "[]",
      "{}",
      '{"numbers":[]}',
      '{"numbers":"2125550100"}',
      '{"numbers":[null]}',
      '{"numbers":[true]}',
      '{"numbers":["2125550100"],}',
      '{"numbers":["2125550100",]}',
      '{"numbers":["2125550100"]}x',
      '\uFEFF{"numbers":["2125550100"]}',
      '{"numbers":["\\u0032125550100"]}',
      '{"numbers":["212\\t5550100"]}',
      '{"numbers":["２１２５５５０１００"]}',
      '{"numbers":["212 555 0100 é"]}',
      `{"numbers":["${"1".repeat(41)}"]}`,
      '{"numbers":[-2125550100]}',
      '{"numbers":[2125550100.0]}',
      '{"numbers":[2.1255501e9]}',
      '{"numbers":[02125550100]}',
      '{"numbers":[9999999999999999]}',
      '{"numbers":[90071992547409919]}',
      `{"numbers":[${Array.from({ length: MAX_LOOKUP_NUMBERS + 1 }, () => '"2125550100"').join(",")}]}`,
      '{"numbers":["2125550100"],"numbers":["3105550100"]}',
      '{"numbers":["2125550100"],"extra":1}',
      '{"Numbers":["2125550100"]}',
      '{"numbers":["2125550100"],"suppression_type":"Everything"}',
      '{"numbers":["2125550100"],"suppression_type":null}',
      '{"numbers":["2125550100"],"container_id":0}',
      '{"numbers":["2125550100"],"container_id":-1}',
      '{"numbers":["2125550100"],"container_id":2147483648}',
      '{"numbers":["2125550100"],"container_id":"17"}',
      '{"numbers":["2125550100"],"container_id":1.5}',
      '{"numbers":["2125550100"],"container_id":nul}',
      '{"numbers":["2125550100"',
      '{"numbers":["2125550100]}',
      '{"numbers" "x"}',
    ];
    for (const body of bodies) {
      expect(taken(body), body).toBe(false);
      expectSame(body);
    }
  });

  it("agrees on 5,000 generated bodies of every kind", () => {
    const next = seededRandom(99);
    const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)];
    let plainOnly = false;
    const entry = (): string => {
      const digits = String(2_000_000_000 + Math.floor(next() * 8_000_000_000));
      const plain = [
        () => JSON.stringify(digits),
        () => digits,
        () => JSON.stringify(`(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`),
        () => JSON.stringify(`+1 ${digits}`),
        () => JSON.stringify(`${digits} ext ${Math.floor(next() * 999)}`),
        () => JSON.stringify(digits.slice(0, 1 + Math.floor(next() * 12))),
      ];
      const tricky = [
        () => JSON.stringify(`${digits}\u00a0`),
        () => JSON.stringify(`"${digits}"`),
        () => JSON.stringify(`="${digits}"`),
        () => `"${digits.slice(0, 3)}\\u002d${digits.slice(3)}"`,
        () => String(Math.floor(next() * 1e16)),
        () => pick(["null", "true", "1.5", "-3", "[]", "{}"]),
      ];
      return pick(plainOnly ? plain : [...plain, ...tricky])();
    };
    let fast = 0;
    for (let k = 0; k < 5000; k++) {
      plainOnly = next() < 0.5;
      const n = next() < 0.05 ? 0 : 1 + Math.floor(next() * 30);
      const parts = [`"numbers":[${Array.from({ length: n }, entry).join(pick([",", ", ", " ,\n"]))}]`];
      if (next() < 0.3) parts.push(`"suppression_type":${JSON.stringify(pick([...SUPPRESSION_TYPE_NAMES, "Other"]))}`);
      if (next() < 0.3) parts.push(`"container_id":${pick(["null", "1", "42", "0", "2147483647", "2147483648", '"3"'])}`);
      if (next() < 0.5) parts.reverse();
      const body = pick(["", " ", "\n"]) + `{${parts.join(pick([",", " , "]))}}` + pick(["", " ", "\r\n"]);
      if (taken(body)) fast++;
      expectSame(body);
    }
    expect(fast).toBeGreaterThan(200); // the byte reader was exercised, not only the fallback
  });

  it("the body cap is the one the route states", () => {
    expect(MAX_LOOKUP_BODY_BYTES).toBe(64 * 1024);
  });
});
