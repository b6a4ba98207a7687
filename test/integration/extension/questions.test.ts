// Agent questions on the client side (ACP `elicitation/create`, form and URL modes): the extension's
// AcpClient and two FolderSessions against an in-process SDK agent. I-46: a question is routed only to
// the owning session and obeys the asker's abort signal; I-45: teardown resolves pending questions;
// a URL question opens its http(s) page only after the user chose to.
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import * as acp from "@agentclientprotocol/sdk";
import type { AgentContext, CreateElicitationRequest, CreateElicitationResponse, InitializeRequest } from "@agentclientprotocol/sdk";
import { questionRequest } from "../../../agent-server/acp/questions";
import { AcpClient } from "../../../extension/agent/acpClient";
import { noEditor } from "../../../extension/client/fileService";
import type { PendingQuestion } from "../../../extension/questions/questionBroker";
import type { QuestionEntry } from "../../../extension/common/transcript";
import { FolderSession } from "../../../extension/sessions/folderSession";
import type { TranscriptState } from "../../../extension/common/transcript";
import { createFakeAgent, type FakeAgent } from "./fakeAgent";
import { stateWaiters } from "./stateWaiters";
import { createNoSandbox } from "../../../sandbox/none";
import { ensureNoDisposablesAreLeaked } from "../../support/disposableLeaks";

const editor = noEditor;

/** Every FolderSession a test makes; disposed after it, before the leak check. */
const made: FolderSession[] = [];
ensureNoDisposablesAreLeaked({ cleanup: () => Promise.all(made.splice(0).map((s) => s.shutdown())) });

interface Harness {
  fake: FakeAgent;
  client: AcpClient;
  alpha: FolderSession;
  beta: FolderSession;
  surfaced: { folder: string; q: PendingQuestion }[];
  /** The pages the sessions asked the editor to open. */
  opened: string[];
  when(s: FolderSession, pred: (st: TranscriptState) => boolean): Promise<void>;
}

async function setup(): Promise<Harness> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "manifold-q-")));
  const fake = createFakeAgent();
  const client = new AcpClient(fake.app);
  await client.initialize();
  const waiters = stateWaiters();
  const ids = new Map<string, string>();
  const surfaced: Harness["surfaced"] = [];
  const opened: string[] = [];
  const make = (name: string) =>
    new FolderSession(join(base, name), name, {
      bindings: { get: (f) => ids.get(f), set: (f, id) => void (id ? ids.set(f, id) : ids.delete(f)) },
      editor,
      terminalSandbox: async () => createNoSandbox({}, "no terminals in this test"),
      onQuestionRequested: (s, q) => surfaced.push({ folder: s.folderName, q }),
      openExternal: (href) => opened.push(href),
    });
  const alpha = make("alpha");
  const beta = make("beta");
  made.push(alpha, beta);
  for (const s of [alpha, beta]) s.onDidEmit(() => waiters.changed(s));
  await alpha.attach(client, { restart: false });
  await beta.attach(client, { restart: false });
  return {
    fake,
    client,
    alpha,
    beta,
    surfaced,
    opened,
    when: waiters.when,
  };
}

const questions = (st: TranscriptState): QuestionEntry[] => st.entries.filter((e): e is QuestionEntry => e.kind === "question");
const pendingIn = (s: FolderSession) => (st: TranscriptState) =>
  questions(st).some((q) => q.outcome.state === "pending") && s.pendingQuestions.length > 0;

/** The agent asks; resolves with the client's answer. */
function ask(h: Harness, req: CreateElicitationRequest, signal?: AbortSignal): Promise<CreateElicitationResponse> {
  const ctx: AgentContext = h.fake.client();
  return ctx.request(acp.methods.client.elicitation.create, req, signal ? { cancellationSignal: signal } : undefined);
}

const choice = (sessionId: string) =>
  questionRequest(sessionId, "call-1", { question: "Which <b>colour</b>?", choices: ["blue", "green"] });

test("the client advertises form and URL elicitation", async () => {
  let seen: InitializeRequest | undefined;
  const app = acp.agent({ name: "caps" }).onRequest(acp.methods.agent.initialize, ({ params }) => {
    seen = params;
    return { protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: {} };
  });
  const client = new AcpClient(app);
  await client.initialize();
  assert.deepEqual(seen?.clientCapabilities?.elicitation, { form: {}, url: {} });
  client.close();
});

test("I-46: a question is shown only in the owning session's panel, and the typed answer goes back to the asker", async () => {
  const h = await setup();
  const betaBefore = h.beta.state;
  const answer = ask(h, choice(h.alpha.sessionId!));
  await h.when(h.alpha, pendingIn(h.alpha));
  const [card] = questions(h.alpha.state);
  assert.deepEqual(card && { ...card, id: "x", questionId: "x" }, {
    kind: "question",
    id: "x",
    questionId: "x",
    toolCallId: "call-1",
    message: "Which <b>colour</b>?",
    form: {
      fields: [
        {
          name: "answer",
          title: "Answer",
          required: true,
          kind: "select",
          options: [
            { value: "blue", title: "blue" },
            { value: "green", title: "green" },
          ],
        },
      ],
    },
    outcome: { state: "pending" },
  });
  assert.equal(h.alpha.activity, "needs-answer");
  assert.deepEqual(
    h.surfaced.map((x) => x.folder),
    ["alpha"],
  );
  // beta saw nothing, and cannot answer alpha's question.
  assert.deepEqual(h.beta.state, betaBefore);
  assert.equal(h.beta.pendingQuestions.length, 0);
  assert.equal(h.beta.answerQuestion(card!.questionId, { answer: "green" }), false);
  // An invalid answer (not an option) settles nothing.
  assert.equal(h.alpha.answerQuestion(card!.questionId, { answer: "purple" }), false);
  assert.equal(h.alpha.answerQuestion(card!.questionId, { answer: "green" }), true);
  assert.deepEqual(await answer, { action: "accept", content: { answer: "green" } });
  assert.deepEqual(
    questions(h.alpha.state).map((q) => q.outcome),
    [{ state: "answered", summary: "green" }],
  );
  // A second answer to a settled question is ignored.
  assert.equal(h.alpha.answerQuestion(card!.questionId, { answer: "blue" }), false);
  assert.deepEqual(h.beta.state, betaBefore);
});

test("I-46: concurrent questions of two sessions stay apart; Decline answers `decline`", async () => {
  const h = await setup();
  const a = ask(h, questionRequest(h.alpha.sessionId!, "ta", { question: "alpha?" }));
  const b = ask(h, questionRequest(h.beta.sessionId!, "tb", { question: "beta?" }));
  await h.when(h.alpha, pendingIn(h.alpha));
  await h.when(h.beta, pendingIn(h.beta));
  assert.deepEqual(
    questions(h.alpha.state).map((q) => q.message),
    ["alpha?"],
  );
  assert.deepEqual(
    questions(h.beta.state).map((q) => q.message),
    ["beta?"],
  );
  const qa = questions(h.alpha.state)[0]!.questionId;
  const qb = questions(h.beta.state)[0]!.questionId;
  assert.notEqual(qa, qb);
  assert.equal(h.beta.declineQuestion(qa), false);
  assert.equal(h.alpha.declineQuestion(qa), true);
  assert.equal(h.beta.answerQuestion(qb, { answer: "sure" }), true);
  assert.deepEqual([await a, await b], [{ action: "decline" }, { action: "accept", content: { answer: "sure" } }]);
  assert.deepEqual(
    questions(h.alpha.state).map((q) => q.outcome),
    [{ state: "declined" }],
  );
});

test("I-46: a question for an unknown session id is answered `cancel` and shown nowhere", async () => {
  const h = await setup();
  const before = [h.alpha.state, h.beta.state];
  assert.deepEqual(await ask(h, choice("no-such-session")), { action: "cancel" });
  assert.deepEqual([h.alpha.state, h.beta.state], before);
  assert.deepEqual(h.surfaced, []);
});

test("a request-scoped question (no session) is declined and shown nowhere; an unknown mode or a URL question without its URL is invalid params", async () => {
  const h = await setup();
  const before = [h.alpha.state, h.beta.state];
  const scoped = {
    requestId: 7,
    mode: "form",
    message: "setup?",
    requestedSchema: { type: "object", properties: { a: { type: "string" } } },
  } as CreateElicitationRequest;
  assert.deepEqual(await ask(h, scoped), { action: "decline" });
  const url = {
    sessionId: h.alpha.sessionId!,
    mode: "url",
    message: "log in",
    elicitationId: "e1",
  } as unknown as CreateElicitationRequest;
  await assert.rejects(ask(h, url), (err: unknown) => (err as { code?: unknown }).code === -32602);
  const custom = { sessionId: h.alpha.sessionId!, mode: "_custom", message: "?" } as CreateElicitationRequest;
  await assert.rejects(ask(h, custom), (err: unknown) => (err as { code?: unknown }).code === -32602);
  assert.deepEqual([h.alpha.state, h.beta.state], before);
  assert.deepEqual(h.surfaced, []);
});

test("a question whose form cannot be rendered is declined with a notice in that panel only", async () => {
  const h = await setup();
  const betaBefore = h.beta.state;
  const req = {
    sessionId: h.alpha.sessionId!,
    mode: "form",
    message: "Pick <i>a</i> point",
    requestedSchema: { type: "object", properties: { p: { type: "_point" } } },
  } as CreateElicitationRequest;
  assert.deepEqual(await ask(h, req), { action: "decline" });
  const notices = h.alpha.state.entries.filter((e) => e.kind === "notice");
  assert.equal(notices.length, 1);
  assert.match(notices[0]!.kind === "notice" ? notices[0]!.text : "", /cannot show .*declined: "Pick <i>a<\/i> point"/);
  assert.deepEqual(questions(h.alpha.state), []);
  assert.deepEqual(h.beta.state, betaBefore);
  assert.deepEqual(h.surfaced, []);
});

test("I-46: when the agent withdraws its question ($/cancel_request) the card shows cancelled; the other session's question is untouched", async () => {
  const h = await setup();
  const ac = new AbortController();
  const a = ask(h, choice(h.alpha.sessionId!), ac.signal);
  const b = ask(h, choice(h.beta.sessionId!));
  await h.when(h.alpha, pendingIn(h.alpha));
  await h.when(h.beta, pendingIn(h.beta));
  ac.abort();
  // The SDK sends $/cancel_request and (without stopWaitingOnCancel) waits for the client's answer.
  assert.deepEqual(await a, { action: "cancel" });
  assert.deepEqual(
    questions(h.alpha.state).map((q) => q.outcome),
    [{ state: "cancelled" }],
  );
  assert.equal(h.alpha.pendingQuestions.length, 0);
  assert.deepEqual(
    questions(h.beta.state).map((q) => q.outcome),
    [{ state: "pending" }],
  );
  assert.equal(h.beta.answerQuestion(questions(h.beta.state)[0]!.questionId, { answer: "blue" }), true);
  assert.deepEqual(await b, { action: "accept", content: { answer: "blue" } });
});

test("I-46: cancelling the turn answers the session's pending question `cancel` and leaves the other session's pending", async () => {
  const h = await setup();
  const answers: CreateElicitationResponse[] = [];
  h.fake.onPrompt = async ({ params, client }) => {
    answers.push(await client.request(acp.methods.client.elicitation.create, choice(params.sessionId)));
    return "cancelled";
  };
  const turn = h.alpha.prompt([{ type: "text", text: "ask me" }], { text: "ask me", attachments: [] });
  const other = ask(h, choice(h.beta.sessionId!));
  await h.when(h.alpha, pendingIn(h.alpha));
  await h.when(h.beta, pendingIn(h.beta));
  await h.alpha.cancel();
  // Checked before awaiting the agent, so a regression fails here instead of hanging.
  assert.deepEqual(
    questions(h.alpha.state).map((q) => q.outcome),
    [{ state: "cancelled" }],
  );
  await turn;
  assert.deepEqual(answers, [{ action: "cancel" }]);
  assert.deepEqual(
    questions(h.beta.state).map((q) => q.outcome),
    [{ state: "pending" }],
  );
  assert.equal(h.beta.declineQuestion(questions(h.beta.state)[0]!.questionId), true);
  assert.deepEqual(await other, { action: "decline" });
});

test("I-45: closing the panel's session, or the agent dying, answers pending questions `cancel` and marks the cards cancelled", async () => {
  const h = await setup();
  const a = ask(h, choice(h.alpha.sessionId!));
  const b = ask(h, choice(h.beta.sessionId!));
  await h.when(h.alpha, pendingIn(h.alpha));
  await h.when(h.beta, pendingIn(h.beta));
  await h.alpha.close();
  // Checked before awaiting the agent, so a regression fails here instead of hanging.
  assert.deepEqual(
    questions(h.alpha.state).map((q) => q.outcome),
    [{ state: "cancelled" }],
  );
  assert.deepEqual(
    questions(h.beta.state).map((q) => q.outcome),
    [{ state: "pending" }],
  );
  assert.deepEqual(await a, { action: "cancel" });
  h.beta.agentDied("killed");
  assert.deepEqual(
    questions(h.beta.state).map((q) => q.outcome),
    [{ state: "cancelled" }],
  );
  assert.equal(h.beta.pendingQuestions.length, 0);
  assert.deepEqual(await b, { action: "cancel" });
});

const urlAsk = (sessionId: string, url: string): CreateElicitationRequest => ({
  sessionId,
  mode: "url",
  message: "Sign in to <b>Example</b> to continue",
  elicitationId: "elic-1",
  url,
});

test("a URL question shows its host in the owning panel and opens the page only after the user chose Open", async () => {
  const h = await setup();
  const betaBefore = h.beta.state;
  const answer = ask(h, urlAsk(h.alpha.sessionId!, "https://login.example.com:8443/device?code=ABCD"));
  await h.when(h.alpha, pendingIn(h.alpha));
  const [card] = questions(h.alpha.state);
  assert.deepEqual(card?.url, { href: "https://login.example.com:8443/device?code=ABCD", host: "login.example.com:8443" });
  assert.equal(card?.message, "Sign in to <b>Example</b> to continue");
  assert.deepEqual(h.opened, [], "nothing opens before the user chooses");
  assert.deepEqual(h.beta.state, betaBefore);
  assert.equal(h.beta.answerQuestion(card!.questionId, {}), false);
  assert.equal(h.alpha.answerQuestion(card!.questionId, {}), true);
  assert.deepEqual(await answer, { action: "accept" });
  assert.deepEqual(h.opened, ["https://login.example.com:8443/device?code=ABCD"]);
  assert.deepEqual(
    questions(h.alpha.state).map((q) => q.outcome),
    [{ state: "answered", summary: "Opened login.example.com:8443" }],
  );
  // Settled: a second Open opens nothing.
  assert.equal(h.alpha.answerQuestion(card!.questionId, {}), false);
  assert.equal(h.opened.length, 1);
});

test("Decline answers `decline`, a withdrawn URL question `cancel`; neither opens anything", async () => {
  const h = await setup();
  const declined = ask(h, urlAsk(h.alpha.sessionId!, "https://example.com/a"));
  await h.when(h.alpha, pendingIn(h.alpha));
  assert.equal(h.alpha.declineQuestion(questions(h.alpha.state)[0]!.questionId), true);
  assert.deepEqual(await declined, { action: "decline" });
  const ac = new AbortController();
  const withdrawn = ask(h, urlAsk(h.beta.sessionId!, "http://example.org/b"), ac.signal);
  await h.when(h.beta, pendingIn(h.beta));
  ac.abort();
  await h.when(h.beta, (st) => questions(st).every((q) => q.outcome.state === "cancelled"));
  await withdrawn.catch(() => undefined);
  assert.deepEqual(h.opened, []);
});

test("a URL question for anything but http(s) is declined unasked, with a notice, and opens nothing", async () => {
  const h = await setup();
  for (const url of [
    "file:///etc/passwd",
    "javascript:alert(1)",
    "vscode://settings/x",
    "command:workbench.action.quit",
    "https://u:p@example.com/",
  ])
    // Shown instead of refused: the race ends with "shown" and the test fails (rather than waiting on an answer).
    assert.deepEqual(
      await Promise.race([ask(h, urlAsk(h.alpha.sessionId!, url)), h.when(h.alpha, pendingIn(h.alpha)).then(() => "shown")]),
      { action: "decline" },
      url,
    );
  assert.equal(questions(h.alpha.state).length, 0);
  assert.equal(h.alpha.state.entries.filter((e) => e.kind === "notice").length, 5);
  assert.deepEqual(h.opened, []);
  assert.deepEqual(h.surfaced, []);
});
