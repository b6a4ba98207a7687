// A log read in chunks (LogParser, as store.ts reads a file through one reused buffer) gives the
// verdict of one pass over the whole text, wherever the chunks are cut: inside a line, inside a
// multi-byte character, right after a newline. Each case below states that verdict; then every cut
// into two or three chunks, and byte by byte, must give the same one.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CorruptSessionError, UnsupportedVersionError } from "../../../agent-server/session/errors";
import { LogParser, parseLog, type ParsedLog } from "../../../agent-server/session/parse";

const at = "2026-12-01T00:00:00.000Z";
const header = JSON.stringify({ type: "header", version: 1, id: "s", cwd: "/w", createdAt: at });
const ev = (seq: number, text = `line ${seq}`): string => JSON.stringify({ seq, at, type: "assistant/text", messageId: "m", text });

type Verdict =
  | { entries: string[]; goodLength: number; torn: boolean }
  | { throws: typeof CorruptSessionError | typeof UnsupportedVersionError; message?: RegExp };

/** Bytes of `s` in UTF-8. */
const len = (s: string): number => Buffer.byteLength(s);

const cases: [string, Buffer, Verdict][] = [
  [
    "a balanced log",
    Buffer.from(`${header}\n${ev(1)}\n${ev(2)}\n`),
    { entries: ["line 1", "line 2"], goodLength: len(`${header}\n${ev(1)}\n${ev(2)}\n`), torn: false },
  ],
  [
    "multi-byte text (é, €, 😀)",
    Buffer.from(`${header}\n${ev(1, "é € 😀")}\n`),
    { entries: ["é € 😀"], goodLength: len(`${header}\n${ev(1, "é € 😀")}\n`), torn: false },
  ],
  ["a header with no newline", Buffer.from(header), { entries: [], goodLength: len(header), torn: false }],
  ["a header and its newline", Buffer.from(`${header}\n`), { entries: [], goodLength: len(`${header}\n`), torn: false }],
  [
    "blank lines skipped (spaces, CR, a no-break space)",
    Buffer.from(`${header}\n\n  \r\n${ev(1)}\n\u00a0\n${ev(2)}\r\n`),
    { entries: ["line 1", "line 2"], goodLength: len(`${header}\n\n  \r\n${ev(1)}\n\u00a0\n${ev(2)}\r\n`), torn: false },
  ],
  [
    "a last line with no newline is torn, however it parses",
    Buffer.from(`${header}\n${ev(1)}\n${ev(2)}`),
    { entries: ["line 1"], goodLength: len(`${header}\n${ev(1)}\n`), torn: true },
  ],
  [
    "a last line cut short is torn",
    Buffer.from(`${header}\n${ev(1)}\n${ev(2).slice(0, 20)}`),
    { entries: ["line 1"], goodLength: len(`${header}\n${ev(1)}\n`), torn: true },
  ],
  [
    "a last whole line that is not an event is torn",
    Buffer.from(`${header}\n${ev(1)}\n{"seq":2}\n`),
    { entries: ["line 1"], goodLength: len(`${header}\n${ev(1)}\n`), torn: true },
  ],
  [
    "whitespace after the last newline is not torn",
    Buffer.from(`${header}\n${ev(1)}\n  `),
    { entries: ["line 1"], goodLength: len(`${header}\n${ev(1)}\n  `), torn: false },
  ],
  [
    "a bad line in the middle",
    Buffer.from(`${header}\n${ev(1)}\nnot json\n${ev(2)}\n`),
    { throws: CorruptSessionError, message: /line 3 is not a valid event/ },
  ],
  [
    "a bad whole line followed by a blank one",
    Buffer.from(`${header}\n${ev(1)}\nnot json\n\n`),
    { throws: CorruptSessionError, message: /line 3 is not a valid event/ },
  ],
  [
    "a gap in seq",
    Buffer.from(`${header}\n${ev(1)}\n${ev(3)}\n`),
    { throws: CorruptSessionError, message: /event seq 3 where 2 was expected/ },
  ],
  [
    "a header that is not JSON",
    Buffer.from(`{"type":"hea\n${ev(1)}\n`),
    { throws: CorruptSessionError, message: /header line is not valid JSON/ },
  ],
  [
    "a header of another session",
    Buffer.from(`${header.replace('"id":"s"', '"id":"t"')}\n`),
    { throws: CorruptSessionError, message: /names a different session/ },
  ],
  [
    "a header of another format version",
    Buffer.from(`${header.replace('"version":1', '"version":99')}\n`),
    { throws: UnsupportedVersionError },
  ],
  ["nothing at all", Buffer.alloc(0), { throws: CorruptSessionError, message: /header line is not valid JSON/ }],
  // Invalid UTF-8 decodes to U+FFFD as in the whole text; offsets stay the file's own bytes.
  [
    "invalid UTF-8 inside a string",
    Buffer.concat([
      Buffer.from(`${header}\n{"seq":1,"at":"${at}","type":"assistant/text","messageId":"m","text":"a`),
      Buffer.from([0xe2, 0x82]),
      Buffer.from(`b"}\n`),
    ]),
    {
      entries: ["a\ufffdb"],
      goodLength: len(`${header}\n{"seq":1,"at":"${at}","type":"assistant/text","messageId":"m","text":"ab"}\n`) + 2,
      torn: false,
    },
  ],
];

function outcome(run: () => ParsedLog): ParsedLog | Error {
  try {
    return run();
  } catch (err) {
    return err as Error;
  }
}

function check(got: ParsedLog | Error, want: Verdict, how: string): void {
  if ("throws" in want) {
    assert.ok(got instanceof want.throws, `${how}: expected ${want.throws.name}, got ${got instanceof Error ? got.message : "a log"}`);
    if (want.message) assert.match(got.message, want.message, how);
    return;
  }
  assert.ok(!(got instanceof Error), `${how}: ${got instanceof Error ? got.message : ""}`);
  assert.deepEqual(
    { entries: got.entries.map((e) => (e.type === "assistant/text" ? e.text : e.type)), goodLength: got.goodLength, torn: got.torn },
    want,
    how,
  );
}

function chunked(bytes: Buffer, cuts: number[]): ParsedLog {
  const parser = new LogParser("s");
  // One buffer, reused for every chunk, as the store reads: the parser must copy what it keeps.
  const scratch = Buffer.alloc(bytes.length + 1);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    bytes.copy(scratch, 0, from, to);
    parser.push(scratch.subarray(0, to - from));
    scratch.fill(0x7b);
    from = to;
  }
  return parser.end();
}

describe("session log read in chunks: the verdict of one pass over the whole text", () => {
  for (const [name, bytes, want] of cases) {
    it(`${name}: whole, cut once anywhere, cut twice, byte by byte`, () => {
      check(
        outcome(() => parseLog("s", bytes)),
        want,
        "whole",
      );
      for (let i = 0; i <= bytes.length; i++)
        check(
          outcome(() => chunked(bytes, [i])),
          want,
          `cut at ${i}`,
        );
      for (let i = 0; i <= bytes.length; i += 7)
        for (let j = i; j <= bytes.length; j += 5)
          check(
            outcome(() => chunked(bytes, [i, j])),
            want,
            `cut at ${i}, ${j}`,
          );
      check(
        outcome(() =>
          chunked(
            bytes,
            Array.from({ length: bytes.length }, (_, k) => k),
          ),
        ),
        want,
        "byte by byte",
      );
    });
  }

  it("a line longer than many chunks is whole once its newline comes", () => {
    const long = "x".repeat(200_000) + "é";
    const bytes = Buffer.from(`${header}\n${ev(1, long)}\n${ev(2)}\n`);
    const cuts = Array.from({ length: Math.floor(bytes.length / 4096) }, (_, k) => (k + 1) * 4096);
    const got = chunked(bytes, cuts);
    assert.deepEqual(
      got.entries.map((e) => (e.type === "assistant/text" ? e.text : "")),
      [long, "line 2"],
    );
    assert.equal(got.goodLength, bytes.length);
  });
});
