// A small glob → RegExp (`**`, `*`, `?`, `[...]`, `{a,b}`), matched against `/`-separated relative paths.
export function globToRegExp(glob: string): RegExp {
  let re = "";
  let i = 0;
  let braces = 0;
  while (i < glob.length) {
    const c = glob[i] as string;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        re += slash ? "(?:.*/)?" : ".*";
        i += slash ? 3 : 2;
        continue;
      }
      re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) re += "\\[";
      else {
        re += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "{") {
      braces++;
      re += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      re += ")";
    } else if (c === "," && braces > 0) re += "|";
    else re += c.replace(/[.+^$|\\()]/g, "\\$&");
    i++;
  }
  return new RegExp(`^${re}$`);
}

/** A pattern without a slash matches the base name anywhere (like .gitignore / ripgrep -g). */
export function globMatcher(glob: string): (rel: string) => boolean {
  const re = globToRegExp(glob);
  if (glob.includes("/")) return (rel) => re.test(rel);
  return (rel) => re.test(rel.slice(rel.lastIndexOf("/") + 1));
}

export const SKIP_DIRS = new Set([".git", "node_modules", ".hg", ".svn"]);
