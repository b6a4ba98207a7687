// Types of clean-env.mjs (plain JS so that shell scripts can run it with any Node, no tsx).
export { isDroppedName, cleanPath, cleanEnv } from "../../sandbox/scrubEnv.mjs";
