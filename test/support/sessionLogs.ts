// Session log files as the store tests read and write them: a header, and a file's lines parsed.
import { readFileSync } from "node:fs";
import { LOG_FORMAT_VERSION, type SessionHeader } from "../../agent-server/session/events";

export function header(id: string, cwd = "/w/a"): SessionHeader {
  return { type: "header", version: LOG_FORMAT_VERSION, id, cwd, createdAt: "2026-11-30T00:00:00.000Z" };
}

/** Every line of a log file, parsed (the file's last newline ends the last line). */
export function lines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
