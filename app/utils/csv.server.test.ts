import { describe, expect, it } from "vitest";
import { csvResponse, escapeCsvCell, toCsv } from "./csv.server";

describe("CSV export escaping", () => {
  it("neutralises formulas and quotes special characters", () => {
    expect(escapeCsvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(escapeCsvCell("+1 555")).toBe("'+1 555");
    expect(escapeCsvCell("-2+3")).toBe("'-2+3");
    expect(escapeCsvCell("-")).toBe("'-");
    expect(escapeCsvCell("\0=1+2")).toBe("'\0=1+2");
    // signed plain numbers stay readable (docs/decisions/154)
    expect(escapeCsvCell("-2")).toBe("-2");
    expect(escapeCsvCell("-12.5")).toBe("-12.5");
    expect(escapeCsvCell("+15551234567")).toBe("+15551234567");
    expect(escapeCsvCell("-1.2.3")).toBe("'-1.2.3");
    expect(escapeCsvCell("-1e5")).toBe("'-1e5");
    expect(escapeCsvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(escapeCsvCell("\tx")).toBe("'\tx");
    expect(escapeCsvCell("\rx")).toBe(`"'\rx"`);
    expect(escapeCsvCell("a,b")).toBe(`"a,b"`);
    expect(escapeCsvCell("line\nbreak")).toBe(`"line\nbreak"`);
    expect(escapeCsvCell('say "hi"')).toBe(`"say ""hi"""`);
    expect(escapeCsvCell("plain")).toBe("plain");
    expect(escapeCsvCell(-5)).toBe("-5");
    expect(escapeCsvCell(12n)).toBe("12");
    expect(escapeCsvCell(null)).toBe("");
    expect(escapeCsvCell(undefined)).toBe("");
  });

  it("builds CRLF rows and a download response", async () => {
    expect(
      toCsv(
        ["A", "B"],
        [
          ["1", 2],
          ["=x", null],
        ],
      ),
    ).toBe("A,B\r\n1,2\r\n'=x,\r\n");
    const res = csvResponse("A\r\n", 'bad"name.csv');
    expect(res.headers.get("Content-Disposition")).toBe('attachment; filename="bad_name.csv"');
    expect(res.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(await res.text()).toBe("A\r\n");
  });
});
