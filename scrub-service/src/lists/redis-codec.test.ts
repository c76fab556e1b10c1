/**
 * The DUMP payload's CRC-64 (redis-codec.ts): read eight bytes at a time, it must equal the CRC-64/Jones that Redis
 * checks on RESTORE, byte for byte — against the standard check value and a bit-at-a-time reference.
 */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../test/random";
import { crc64, memberCommands, restoreCommands, unlinkAreaCommand } from "./redis-codec";

/** CRC-64/Jones bit by bit (reflected polynomial 0x95ac9329ac4bc9b5, init 0, no final xor). */
function reference(b: Uint8Array): bigint {
  let crc = 0n;
  for (const byte of b) {
    crc ^= BigInt(byte);
    for (let k = 0; k < 8; k++) crc = crc & 1n ? (crc >> 1n) ^ 0x95ac9329ac4bc9b5n : crc >> 1n;
  }
  return crc;
}

const joined = ([lo, hi]: [number, number]) => (BigInt(hi) << 32n) | BigInt(lo);

describe("DUMP payload CRC-64", () => {
  it("gives the standard check value (Redis's own crc64 test)", () => {
    expect(joined(crc64(Buffer.from("123456789"), 0, 9))).toBe(0xe9c6d914c4b8d9can);
  });

  it("equals the bit-at-a-time CRC for every length and offset around the 8-byte steps", () => {
    const r = seededRandom(64);
    const data = Uint8Array.from({ length: 400 }, () => Math.floor(r() * 256));
    for (let from = 0; from < 9; from++) {
      for (let to = from; to <= 300; to += to < from + 40 ? 1 : 37) {
        expect(joined(crc64(data, from, to)), `${from}..${to}`).toBe(reference(data.subarray(from, to)));
      }
    }
  });
});

describe("restoreCommands and memberCommands", () => {
  it("take one area code's numbers only (their buffers have room for that area code's 1,000 exchanges)", () => {
    const one = Float64Array.of(2_125_550_001, 2_125_560_002, 2_129_990_003);
    expect(restoreCommands(one, 0, one.length, 212, 9, "p:").commands).toBe(3);
    const two = Float64Array.of(2_125_550_001, 2_135_550_001);
    expect(() => restoreCommands(two, 0, two.length, 212, 9, "p:")).toThrow(RangeError);
    expect(restoreCommands(two, 0, 0, 212, 9, "p:").commands).toBe(0);
    expect(() => memberCommands("SADD", two, 0, two.length, 212, "p:")).toThrow(RangeError);
    // every exchange of the area code, one of them whole (10,000 lines: three commands), fits the buffer
    const all = Float64Array.from({ length: 1000 + 9999 }, (_, i) => (i < 10_000 ? 2_120_000_000 + i : 2_120_000_000 + (i - 9999) * 10_000));
    const m = memberCommands("SADD", all, 0, all.length, 212, "p:");
    expect(m.commands).toBe(3 + 999);
    expect(m.buf.toString("latin1").split("\r\nSADD\r\n").length - 1).toBe(1002);
  });
});

describe("unlinkAreaCommand", () => {
  /** The bulk strings of one RESP command, checked against its own lengths. */
  function parts(buf: Buffer): string[] {
    const text = buf.toString("latin1");
    const m = /^\*(\d+)\r\n/.exec(text)!;
    const out: string[] = [];
    let o = m[0].length;
    for (let i = 0; i < Number(m[1]); i++) {
      const len = /^\$(\d+)\r\n/.exec(text.slice(o))!;
      o += len[0].length;
      out.push(text.slice(o, o + Number(len[1])));
      expect(text.slice(o + Number(len[1]), o + Number(len[1]) + 2)).toBe("\r\n");
      o += Number(len[1]) + 2;
    }
    expect(o, "nothing after the command").toBe(text.length);
    return out;
  }

  it("names every NPA-NXX set an area code can have under the prefix, and nothing else", () => {
    for (const npa of [0, 7, 99, 212, 999]) {
      const { buf, commands } = unlinkAreaCommand("dps:n:3:12:", npa);
      expect(commands).toBe(1);
      const [op, ...names] = parts(buf);
      expect(op).toBe("UNLINK");
      expect(names).toEqual(Array.from({ length: 1000 }, (_, nxx) => `dps:n:3:12:{${String(npa).padStart(3, "0")}}${String(nxx).padStart(3, "0")}`));
    }
  });
});
