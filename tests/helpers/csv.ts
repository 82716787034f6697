/**
 * A strict RFC 4180 reader for the tests: records end in CRLF, quoted fields may hold commas,
 * CRLF and doubled quotes. Anything else (a bare LF, a quote inside an unquoted field, text after
 * a closing quote) throws, so a sloppy writer fails the round trip instead of passing it.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string) => {
    throw new Error(`CSV: ${why} at offset ${i}`);
  };
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) fail("unterminated quoted field");
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n") {
        if (text[i] === '"') fail("quote inside an unquoted field");
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === ",") {
      i++;
    } else if (text.startsWith("\r\n", i)) {
      records.push(record);
      record = [];
      i += 2;
    } else {
      fail(i >= text.length ? "last record without CRLF" : "unexpected character after a field");
    }
  }
  return records;
}
