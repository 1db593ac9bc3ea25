// An agent runner on the TypeScript SDK v2 (@modelcontextprotocol/client 2.4.x) that hands its
// elicitation UI to elicit-tray: every `elicitation/create` goes to `elicit-tray ask`, whose
// answer (the user's decision in the tray's dialog) goes back to the server unchanged.
// Runs on Node 22.18 or later as it is (type stripping), or compiled with tsc.
//
//   node runner.ts [--modern] TOOL... -- SERVER_COMMAND [ARG...]
//
// connects to the stdio server (2025-11-25 `initialize`, or 2026-07-28 with --modern, where the
// SDK fulfils `input_required` rounds through the same handler), calls each TOOL with {} and
// prints one line per call: the tool's text content (after `tool error: ` when the result is an
// error result), or `error <code> <message>` when the call got a JSON-RPC error.
// `elicit-tray` is looked up on PATH; ELICIT_TRAY names another command.
import { spawn } from "node:child_process";
import { Client, ProtocolError } from "@modelcontextprotocol/client";
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

/** Runs `elicit-tray ask` with the request's params on stdin. Exit 0: the ElicitResult JSON on
 * stdout (accept, decline or cancel: the user's decision). Every other outcome becomes a JSON-RPC
 * error, never a decision: 1 the tray answered an error (its {code, message, data} on stderr,
 * e.g. -32602 with data.violations for a schema outside the subset), 2 the params cannot be sent
 * (not a JSON object, over the tray's framing limits), 5 no tray could answer (not running and
 * not startable, or the socket is not the user's own). */
function askTray(params: ElicitRequest["params"], serverName: string | undefined): Promise<ElicitResult> {
  const args = ["ask", ...(serverName ? ["--server-name", serverName] : [])];
  const child = spawn(process.env.ELICIT_TRAY ?? "elicit-tray", args, { stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  child.stdin.end(JSON.stringify(params));
  return new Promise((resolve, reject) => {
    child.on("error", (e) => reject(new ProtocolError(INTERNAL_ERROR, `elicit-tray could not be run: ${e.message}`)));
    child.on("close", (code) => {
      if (code === 0) return resolve(JSON.parse(out) as ElicitResult);
      if (code === 1) {
        const e = JSON.parse(err) as { code: number; message: string; data?: unknown };
        return reject(new ProtocolError(e.code, e.message, e.data ?? undefined));
      }
      const why = err.trim() || `elicit-tray ask exited with ${code}`;
      reject(new ProtocolError(code === 2 ? INVALID_PARAMS : INTERNAL_ERROR, why));
    });
  });
}

async function main(argv: string[]): Promise<void> {
  const split = argv.indexOf("--");
  const modern = argv.slice(0, split).includes("--modern");
  const tools = argv.slice(0, split).filter((a) => a !== "--modern");
  const [command, ...args] = argv.slice(split + 1);
  const client = new Client(
    { name: "ts-agent-runner", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {}, url: {} } },
      versionNegotiation: { mode: modern ? { pin: "2026-07-28" } : "legacy" },
    },
  );
  client.setRequestHandler("elicitation/create", (request) =>
    askTray(request.params, client.getServerVersion()?.name),
  );
  await client.connect(new StdioClientTransport({ command, args }));
  console.error(`connected: protocol ${client.getNegotiatedProtocolVersion()}`);
  for (const name of tools) {
    try {
      const result = await client.callTool({ name, arguments: {} });
      const text = result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join(" ");
      console.log(result.isError ? `tool error: ${text}` : text);
    } catch (e) {
      console.log(e instanceof ProtocolError ? `error ${e.code} ${e.message}` : `error ${String(e)}`);
    }
  }
  await client.close();
}

await main(process.argv.slice(2));
