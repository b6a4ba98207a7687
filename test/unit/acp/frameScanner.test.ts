// I-108 (unit): the line scanner judges depth, size, shape, encoding and id without JSON.parse
// recursion, however the bytes are split into chunks.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { paramsProblem } from "../../../agent-server/acp/envelope";
import { FrameScanner, type FrameLimits, type ScannedLine } from "../../../agent-server/acp/frameScanner";

const LIMITS: FrameLimits = { maxDepth: 8, maxLineBytes: 200 };

/** Feeds `text` in chunks of `size` bytes (every split point gets exercised across sizes). */
function scan(text: string | Buffer, size: number, limits = LIMITS): ScannedLine[] {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  const s = new FrameScanner(limits);
  const out: ScannedLine[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...s.push(bytes.subarray(i, i + size)));
  const last = s.end();
  if (last) out.push(last);
  return out;
}

function eachSplit(text: string | Buffer, check: (lines: ScannedLine[]) => void): void {
  for (const size of [1, 2, 3, 7, 64, 100_000]) check(scan(text, size));
}

describe("I-108: frame scanner", () => {
  it("passes well-formed lines unchanged, CRLF stripped, blank lines kept", () => {
    const a = '{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"a\\"}{[b"}}';
    eachSplit(`${a}\r\n\n${a}`, (lines) => {
      assert.equal(lines.length, 3);
      for (const l of [lines[0]!, lines[2]!]) assert.ok(l.ok && l.bytes.toString() === a);
      assert.ok(lines[1]!.ok && lines[1]!.bytes.length === 0);
    });
  });

  it("refuses a line deeper than the limit and still finds its id, before or after the deep part", () => {
    const deep = "[".repeat(9) + "]".repeat(9);
    eachSplit(`{"id":"r1","method":"m","params":${deep}}\n{"method":"m","params":${deep},"id":42}\n`, (lines) => {
      assert.deepEqual(
        lines.map((l) => (l.ok ? "ok" : [l.problem, l.kind, l.id])),
        [
          ["too-deep", "request", "r1"],
          ["too-deep", "request", 42],
        ],
      );
    });
    // Exactly at the limit is fine; brackets inside strings do not count.
    eachSplit(`{"id":1,"a":${"[".repeat(7)}"[[[[[[[[[["${"]".repeat(7)}}`, (lines) => assert.ok(lines[0]!.ok));
  });

  it("refuses an over-long line without keeping its bytes, and knows what it was", () => {
    const big = `{"jsonrpc":"2.0","method":"session/prompt","params":{"t":"${"x".repeat(500)}"},"id":"late"}\n{"id":7,"result":{"t":"${"y".repeat(500)}"}}\n{"method":"n","params":{"t":"${"z".repeat(500)}"}}`;
    eachSplit(big, (lines) => {
      assert.deepEqual(
        lines.map((l) => (l.ok ? "ok" : [l.problem, l.kind, l.id])),
        [
          ["too-large", "request", "late"],
          ["too-large", "response", 7],
          ["too-large", "notification", null],
        ],
      );
    });
  });

  it("answers with id null when the id is not a string or number", () => {
    const cases = [`{"id":{"a":1},"method":"m"}`, `{"id":[1],"method":"m"}`, `{"id":true,"method":"m"}`];
    for (const c of cases) {
      const [line] = scan(c, 3, { maxDepth: 8, maxLineBytes: 1000 });
      assert.ok(line && !line.ok && line.problem === "bad-id" && line.id === null, c);
    }
    const [nullId] = scan(`{"id":null,"method":"m"}`, 1);
    assert.ok(nullId!.ok, "id null passes (the SDK answers it)");
    const [escaped] = scan(`{"id":"a\\"b","method":"m","params":${"[".repeat(9)}${"]".repeat(9)}}`, 2);
    assert.ok(!escaped!.ok && escaped!.id === 'a"b');
  });

  it("I-108: an id of any length the line can carry is kept exactly, escapes and all", () => {
    const limits = { maxDepth: 8, maxLineBytes: 64 * 1024 };
    const id = `${"x".repeat(4096)}\\"é日\\u00e9`; // JSON text of the id's string
    const deep = "[".repeat(9) + "]".repeat(9);
    for (const size of [1, 7, 4097, 100_000]) {
      const lines = scan(`{"jsonrpc":"2.0","id":"${id}","method":"m"}\n{"id":"${id}","method":"m","params":${deep}}`, size, limits);
      assert.ok(lines[0]!.ok, "a long id passes to the SDK, which echoes it");
      const refused = lines[1]!;
      assert.ok(!refused.ok && refused.problem === "too-deep");
      assert.equal(refused.id, JSON.parse(`"${id}"`));
    }
    // An over-long line's bytes are dropped, but its id is still echoed.
    const [big] = scan(`{"id":"${"y".repeat(300)}","method":"m","params":"${"z".repeat(500)}"}`, 64);
    assert.ok(!big!.ok && big!.problem === "too-large" && big!.id === "y".repeat(300));
    const [num] = scan(`{"method":"m","params":${deep},"id":-12.5e3}`, 3);
    assert.ok(!num!.ok && num!.id === -12500);
  });

  it("I-108: a non-UTF-8 frame is answered with its exact id only when the id itself is valid UTF-8, else id null", () => {
    const tail = Buffer.from('"}}');
    const inText = Buffer.concat([Buffer.from('{"id":"ok-ü","method":"m","params":{"t":"'), Buffer.from([0xff, 0xfe]), tail]);
    eachSplit(inText, (lines) => assert.ok(!lines[0]!.ok && lines[0]!.problem === "not-utf8" && lines[0]!.id === "ok-ü"));
    const inId = Buffer.concat([Buffer.from('{"id":"a'), Buffer.from([0xff]), Buffer.from('b","method":"m","params":{"t":"x"}}')]);
    eachSplit(inId, (lines) => {
      const l = lines[0]!;
      assert.ok(!l.ok && l.problem === "not-utf8" && l.kind === "request");
      assert.equal(l.id, null, "never a best-effort id with U+FFFD in it");
    });
  });

  it("I-108: a request-like line broken outside its strings is a parse error for id null; blank lines pass as before", () => {
    const broken = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","i'),
      Buffer.from([0xff]),
      Buffer.from('","d":1,"method":"session/list","params":{}}'),
    ]);
    const outside = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"r",'), Buffer.from([0xc0, 0xaf]), Buffer.from('"method":"m"}')]);
    for (const line of [broken, outside]) {
      eachSplit(line, (lines) => {
        const l = lines[0]!;
        assert.ok(!l.ok && l.problem === "not-utf8" && l.kind === "unknown" && l.id === null, JSON.stringify(l));
      });
    }
    // A broken response to one of our requests still names it, so that request settles (as a failure).
    const response = Buffer.concat([Buffer.from('{"id":3,'), Buffer.from([0xff]), Buffer.from('"result":{}}')]);
    eachSplit(response, (lines) => assert.ok(!lines[0]!.ok && lines[0]!.kind === "response" && lines[0]!.id === 3));
    // A structurally valid notification with bad bytes in a string stays a notification (no answer).
    const note = Buffer.concat([Buffer.from('{"method":"n","params":{"t":"'), Buffer.from([0xff]), Buffer.from('"}}')]);
    eachSplit(note, (lines) => assert.ok(!lines[0]!.ok && lines[0]!.kind === "notification"));
    eachSplit("\n   \n\t\r\n", (lines) => {
      assert.equal(lines.length, 3);
      for (const l of lines) assert.ok(l.ok);
    });
  });

  it("refuses top-level values that are not objects, and invalid UTF-8", () => {
    for (const c of ["5", '"str"', "[1,2]", "null"]) {
      const [line] = scan(c, 1);
      assert.ok(line && !line.ok && line.problem === "not-an-object", c);
    }
    for (const c of ["this is not json", "[1,", "nul"]) {
      const [line] = scan(c, 2);
      assert.ok(line && !line.ok && line.problem === "not-json", c);
    }
    const bad = Buffer.concat([Buffer.from('{"id":"u","method":"m","params":{"t":"'), Buffer.from([0xff, 0xc3, 0x28]), Buffer.from('"}}')]);
    eachSplit(bad, (lines) => assert.ok(!lines[0]!.ok && lines[0]!.problem === "not-utf8" && lines[0]!.id === "u"));
    eachSplit('{"id":"ü","method":"m","params":{"t":"日本語 ✓"}}', (lines) => assert.ok(lines[0]!.ok));
  });

  it("a 100,000-deep line is judged in linear time with no recursion", () => {
    const s = new FrameScanner({ maxDepth: 64, maxLineBytes: 1 << 20 });
    const [line] = s.push(Buffer.from(`{"id":1,"method":"m","params":${"[".repeat(100_000)}${"]".repeat(100_000)}}\n`));
    assert.ok(line && !line.ok && line.problem === "too-deep" && line.id === 1);
  });
});

describe("I-108: envelope checks the SDK's lenient schemas skip", () => {
  it("params must be an object; every _meta must be an object or null", () => {
    assert.equal(paramsProblem(undefined), null);
    assert.equal(
      paramsProblem({ sessionId: "s", prompt: [{ type: "text", text: "x", _meta: { a: { _meta: 5 } } }] }),
      null,
      "inside _meta is free-form",
    );
    assert.equal(paramsProblem({ _meta: null }), null);
    assert.match(paramsProblem([1]) ?? "", /object/);
    assert.match(paramsProblem("s") ?? "", /object/);
    assert.match(paramsProblem(5) ?? "", /object/);
    assert.match(paramsProblem(null) ?? "", /object/);
    assert.match(paramsProblem({ _meta: 5 }) ?? "", /params\._meta/);
    assert.match(paramsProblem({ prompt: [{ type: "text", text: "x", _meta: [1] }] }) ?? "", /params\.prompt\[0\]\._meta/);
    assert.match(paramsProblem({ a: { b: { _meta: "x" } } }) ?? "", /params\.a\.b\._meta/);
  });
});
