// The webview's HTML shell. URIs and the CSP source come in as strings.
// CSP: nothing by default; our script by nonce only; styles, fonts and images from our own
// resources (images also as data:); no remote loads, no inline script, no eval.
import { randomBytes } from "node:crypto";

export interface ShellOptions {
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  /** Folder path, stored in the webview state so a restored panel finds its folder. */
  folder: string;
  title: string;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);
}

export function newNonce(): string {
  return randomBytes(18)
    .toString("base64")
    .replace(/[^a-zA-Z0-9]/g, "");
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
}

export function renderShell(o: ShellOptions, nonce = newNonce()): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta name="manifold-folder" content="${escapeHtml(o.folder)}">
<link rel="stylesheet" href="${escapeHtml(o.codiconUri)}">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}
