// This machine as a registry binary target (`<os>-<arch>`).
import type { Platform } from "./schema";

export function platformTarget(platform: NodeJS.Platform, arch: string): Platform | undefined {
  const os = platform === "darwin" ? "darwin" : platform === "linux" ? "linux" : platform === "win32" ? "windows" : undefined;
  const cpu = arch === "x64" ? "x86_64" : arch === "arm64" ? "aarch64" : undefined;
  return os && cpu ? (`${os}-${cpu}` as Platform) : undefined;
}
