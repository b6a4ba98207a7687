// What an MCP row says: a server passed to an agent that reports no status is "passed to the agent;
// connection not reported", never a state that implies it works; a reported ready server counts its
// tools; a passed server none of whose tools a finished turn called gets one note naming the agent; the
// summary counts passed servers apart from those in use.
import assert from "node:assert/strict";
import { test } from "node:test";
import { rowLabel, summaryText, unusedServerNotes, type McpRow } from "../../../extension/common/mcpRows";

const row = (name: string, state: McpRow["state"], tools?: number): McpRow => ({
  name,
  source: "folder",
  state,
  ...(tools !== undefined ? { tools } : {}),
});

test("row labels: passed is not connected; ready counts the reported tools", () => {
  assert.equal(rowLabel(row("docs", "passed")), "passed to the agent; connection not reported");
  assert.equal(rowLabel(row("docs", "ready", 1)), "ready, 1 tool");
  assert.equal(rowLabel(row("docs", "ready", 3)), "ready, 3 tools");
  assert.equal(rowLabel(row("docs", "ready")), "ready");
  assert.equal(rowLabel(row("docs", "starting")), "starting…");
  assert.equal(rowLabel(row("docs", "not-passed")), "not passed");
});

test("unused-server notes: only passed servers, only after a turn, used ones (mcp__name__ or by title) left out", () => {
  const rows = [row("docs", "passed"), row("tracker", "passed"), row("wiki", "passed"), row("live", "ready", 2), row("off", "declined")];
  assert.deepEqual(unusedServerNotes("Claude", rows, [], false), []);
  assert.deepEqual(unusedServerNotes("Claude", rows, ["mcp__docs__search", "tracker: list tickets"], true), [
    "Claude has not reported or used wiki yet",
  ]);
  assert.deepEqual(unusedServerNotes("Claude", rows, [], true), [
    "Claude has not reported or used docs yet",
    "Claude has not reported or used tracker yet",
    "Claude has not reported or used wiki yet",
  ]);
});

test("summary: servers only passed are counted apart from those in use", () => {
  assert.equal(summaryText([row("a", "ready", 1), row("b", "starting")]), "MCP servers: 2 of 2 in use");
  assert.equal(
    summaryText([row("a", "ready", 1), row("b", "passed"), row("c", "failed")]),
    "MCP servers: 1 of 3 in use, 1 passed (connection not reported) (problems)",
  );
});
