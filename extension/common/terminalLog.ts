// A terminal's recent commands and their output (the `@` mention "Terminal output"): what
// shell integration reported, bounded to the newest `maxChars` characters in all. Each run keeps its
// cwd, so a mention can offer only the runs whose folder is the session's. Pure: the vscode half
// (extension/chat/vscode/terminalOutputs.ts) feeds it.

export interface TerminalRun {
  readonly command: string;
  /** Where the command ran (a file-system path), when shell integration said so. */
  readonly cwd: string | undefined;
  output: string;
  exitCode: number | undefined;
  ended: boolean;
  /** The start of the output was dropped to stay within the bound. */
  truncated: boolean;
}

export class TerminalLog {
  readonly #runs: TerminalRun[] = [];
  #size = 0;

  constructor(
    readonly maxChars = 16_384,
    readonly maxRuns = 50,
  ) {}

  start(command: string, cwd: string | undefined): TerminalRun {
    const run: TerminalRun = { command, cwd, output: "", exitCode: undefined, ended: false, truncated: false };
    this.#runs.push(run);
    this.#size += command.length;
    this.#trim();
    return run;
  }

  append(run: TerminalRun, data: string): void {
    if (!this.#runs.includes(run)) return; // dropped meanwhile: its output is no longer wanted
    run.output += data;
    this.#size += data.length;
    this.#trim();
  }

  end(run: TerminalRun, exitCode: number | undefined): void {
    run.ended = true;
    run.exitCode = exitCode;
  }

  /** The runs kept, oldest first. */
  runs(): readonly TerminalRun[] {
    return this.#runs;
  }

  /** Oldest first: the oldest run loses the start of its output, or goes once it has none left. */
  #trim(): void {
    while (this.#runs.length > this.maxRuns) this.#dropOldest();
    while (this.#size > this.maxChars) {
      const oldest = this.#runs[0];
      if (!oldest) return;
      const excess = this.#size - this.maxChars;
      if (oldest.output.length > excess || this.#runs.length === 1) {
        const cut = Math.min(excess, oldest.output.length);
        oldest.output = oldest.output.slice(cut);
        oldest.truncated = true;
        this.#size -= cut;
        return;
      }
      this.#dropOldest();
    }
  }

  #dropOldest(): void {
    const old = this.#runs.shift();
    if (old) this.#size -= old.command.length + old.output.length;
  }
}

// CSI sequences, OSC sequences (shell integration's own 633/133 marks among them), other escapes.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

// Other control characters (bell, backspace, …) but tab and newline.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Terminal output as plain text: escape sequences removed, line ends normalised. */
export function plainTerminalText(raw: string): string {
  return raw
    .replace(ANSI, "")
    .replace(/\r+\n/g, "\n")
    .replace(/[^\n]*\r(?!\n)/g, "") // a carriage return redraws its line: keep what was drawn last
    .replace(CONTROL, "");
}

/** The runs as one text block: `$ command`, its output, its exit code; a cut start is marked. */
export function formatTerminalRuns(name: string, runs: readonly TerminalRun[]): string {
  const parts = runs.map((r) => {
    let out = plainTerminalText(r.output);
    if (r.truncated) out = `[… earlier output dropped]\n${out.slice(out.indexOf("\n") + 1)}`;
    const tail = r.ended ? (r.exitCode === undefined ? "" : `\n[exit code ${r.exitCode}]`) : "\n[still running]";
    return `$ ${r.command}\n${out.replace(/\n+$/, "")}${tail}`;
  });
  return `Recent output of terminal "${name}":\n\n${parts.join("\n\n")}`;
}
