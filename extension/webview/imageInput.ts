// Images the user pastes or drops into the composer: read as base64 in the page and checked
// here first (type, size: the same rule the host and the built-in agent apply, extension/common/images.ts),
// so a file past the limit is refused with a message before megabytes cross to the host.
import { imageProblem } from "../common/images";
import { post } from "./vscodeApi";

/** The image files a paste or drop carries (nothing when it carries only text). */
export function imageFiles(dt: DataTransfer | null): File[] {
  if (!dt) return [];
  return Array.from(dt.files).filter((f) => f.type.startsWith("image/"));
}

function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
    reader.readAsDataURL(file);
  });
}

/** Sends each acceptable image to the host; returns what was refused, one sentence each. */
export async function sendImages(files: readonly File[]): Promise<string[]> {
  const problems: string[] = [];
  for (const [i, f] of files.entries()) {
    // A pasted screenshot has no real name ("image.png"): number them so the chips can be told apart.
    const name = f.name && f.name !== "image.png" ? f.name : `pasted-${Date.now().toString(36)}-${i + 1}.${f.type.split("/")[1] ?? "img"}`;
    const problem = imageProblem(name, f.type, f.size);
    if (problem) {
      problems.push(problem);
      continue;
    }
    try {
      post({ type: "composer/image", name, mimeType: f.type, data: await base64Of(f) });
    } catch {
      problems.push(`${name} could not be read.`);
    }
  }
  return problems;
}
