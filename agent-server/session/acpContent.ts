// The ACP content the log stores as it is (prompt blocks, tool-call content), checked when a log is
// read back from disk. Only what the SDK's types require is checked; every other field (annotations,
// `_meta`, fields of a newer protocol) is kept verbatim, so a replay sends back what was received.
import type { ContentBlock, ToolCallContent } from "@agentclientprotocol/sdk";
import * as z from "zod/v4";

const meta = z.record(z.string(), z.unknown()).nullish();
const annotations = z
  .looseObject({
    audience: z.array(z.enum(["assistant", "user"])).nullish(),
    lastModified: z.string().nullish(),
    priority: z.number().nullish(),
    _meta: meta,
  })
  .nullish();
const common = { annotations, _meta: meta };

const resourceContents = z.union([
  z.looseObject({ uri: z.string(), text: z.string(), mimeType: z.string().nullish(), _meta: meta }),
  z.looseObject({ uri: z.string(), blob: z.string(), mimeType: z.string().nullish(), _meta: meta }),
]);

export const ContentBlockSchema: z.ZodType<ContentBlock> = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("text"), text: z.string(), ...common }),
  z.looseObject({ type: z.literal("image"), data: z.string(), mimeType: z.string(), uri: z.string().nullish(), ...common }),
  z.looseObject({ type: z.literal("audio"), data: z.string(), mimeType: z.string(), ...common }),
  z.looseObject({
    type: z.literal("resource_link"),
    uri: z.string(),
    name: z.string(),
    title: z.string().nullish(),
    description: z.string().nullish(),
    mimeType: z.string().nullish(),
    size: z.number().nullish(),
    ...common,
  }),
  z.looseObject({ type: z.literal("resource"), resource: resourceContents, ...common }),
]);

export const ToolCallContentSchema: z.ZodType<ToolCallContent> = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("content"), content: ContentBlockSchema, _meta: meta }),
  z.looseObject({ type: z.literal("diff"), path: z.string(), oldText: z.string().nullish(), newText: z.string(), _meta: meta }),
  z.looseObject({ type: z.literal("terminal"), terminalId: z.string(), _meta: meta }),
]);
