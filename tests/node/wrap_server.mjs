// An MCP server written with the TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0), for the
// `elicit-tray wrap` end-to-end tests (tests/integration/test_wrap_e2e_ts.py). Its handlers are
// written once with `inputRequired(...)`: under 2026-07-28 the client gets `input_required`
// results; under 2025-11-25 the SDK's legacy shim sends real `elicitation/create` requests and
// re-enters the handler with the answers. Each tool answers with one text: `accept <content JSON>`,
// `accept`, `decline` or `cancel` (URL tools: `accept after N round(s)`).
//
//   every_field     one form with every field kind of the elicitation schema subset
//   connect         one URL elicitation
//   connect_rounds  a URL elicitation that is not done yet: an accepted round is answered with
//                   another input_required holding the same URL elicitation until the file named
//                   by ELICIT_TEST_DONE_FLAG exists (the out-of-band step is finished)
//   too_long        a form whose message is over the tray's limit (10,000 characters): the tray
//                   refuses it with -32602, which must reach the server as an error
import { existsSync } from "node:fs";
import { McpServer, inputRequired, inputResponse } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

export const EVERY_FIELD = {
  message: "Tell us about yourself",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", minLength: 1, maxLength: 40 },
      email: { type: "string", title: "Email", format: "email" },
      homepage: { type: "string", title: "Homepage", format: "uri" },
      birthday: { type: "string", title: "Birthday", format: "date", default: "1990-12-10" },
      meeting: { type: "string", title: "Meeting", format: "date-time", default: "2026-12-02T10:30:00+02:00" },
      age: { type: "integer", title: "Age", minimum: 0, maximum: 150 },
      height: { type: "number", title: "Height (m)", minimum: 0.5, maximum: 2.5 },
      subscribe: { type: "boolean", title: "Subscribe", default: false },
      size: { type: "string", title: "Size", enum: ["s", "m", "l"] },
      plan: {
        type: "string",
        title: "Plan",
        oneOf: [
          { const: "free", title: "Free" },
          { const: "pro", title: "Pro" },
        ],
      },
      pet: { type: "string", title: "Pet", enum: ["p1", "p2"], enumNames: ["Cats", "Dogs"] },
      toppings: { type: "array", title: "Toppings", items: { type: "string", enum: ["cheese", "ham", "olives"] } },
      colors: {
        type: "array",
        title: "Colors",
        items: {
          anyOf: [
            { const: "r", title: "Red" },
            { const: "g", title: "Green" },
          ],
        },
      },
    },
    required: ["name", "email", "age"],
  },
};
export const CONNECT = { message: "Connect your example.com account", url: "https://auth.example.com/connect?session=4711" };

const text = (value) => ({ content: [{ type: "text", text: value }] });

function answered(view) {
  if (view.kind !== "elicit") return undefined;
  if (view.action !== "accept") return view.action;
  return view.content === undefined ? "accept" : `accept ${JSON.stringify(view.content)}`;
}

function build() {
  const server = new McpServer({ name: "ts-v2-server", version: "2.4.0" }, { capabilities: { tools: {} } });
  server.registerTool("every_field", { description: "A form with every field kind" }, async (ctx) => {
    const done = answered(inputResponse(ctx.mcpReq.inputResponses, "form"));
    if (done !== undefined) return text(done);
    return inputRequired({ inputRequests: { form: inputRequired.elicit(EVERY_FIELD) } });
  });
  server.registerTool("too_long", { description: "A message over the tray's limit" }, async (ctx) => {
    const done = answered(inputResponse(ctx.mcpReq.inputResponses, "form"));
    if (done !== undefined) return text(done);
    const params = { message: "x".repeat(10001), requestedSchema: { type: "object", properties: {} } };
    return inputRequired({ inputRequests: { form: inputRequired.elicit(params) } });
  });
  server.registerTool("connect", { description: "One URL elicitation" }, async (ctx) => {
    const done = answered(inputResponse(ctx.mcpReq.inputResponses, "connect"));
    if (done !== undefined) return text(done);
    return inputRequired({ inputRequests: { connect: inputRequired.elicitUrl(CONNECT) } });
  });
  server.registerTool("connect_rounds", { description: "A URL step that takes several rounds" }, async (ctx) => {
    const rounds = Number(ctx.mcpReq.requestState() ?? "0") + 1;
    const done = answered(inputResponse(ctx.mcpReq.inputResponses, "connect"));
    if (done === "accept" && existsSync(process.env.ELICIT_TEST_DONE_FLAG ?? "")) {
      return text(`accept after ${rounds - 1} round(s)`);
    }
    if (done !== undefined && done !== "accept") return text(done);
    return inputRequired({
      inputRequests: { connect: inputRequired.elicitUrl(CONNECT) },
      requestState: String(rounds),
    });
  });
  return server;
}

serveStdio(build);
