// Drives a json-contracts MCP server with the official TypeScript SDK client, as agent hosts do.
//
// Usage: node driver.mjs < scenario.json   (the scenario arrives on stdin, the report leaves on stdout)
//
// A scenario names a transport and a list of steps:
//   {"transport": "stdio", "command": "...", "args": [...], "env": {...}}
//   {"transport": "http", "url": "http://127.0.0.1:PORT/mcp", "headers": {...}}
//   "offer": "2025-03-26"   the protocol version to offer in initialize (default: the SDK's latest)
//   "steps": [{"op": "callTool", "name": "status", "arguments": {}}, ...]
// The report says what the client saw: the negotiated version, the server's capabilities, one
// outcome per step ({"ok": true, "value"} or {"ok": false, "error": {name, code, message}}), and
// every notification the server sent. The driver never judges; the pytest tests do.

import { readFileSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

// Generous: a server starting on a loaded machine is slow, not broken (pytest bounds the whole run).
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * A transport that passes everything through, records what crosses it, and can offer a chosen
 * protocol version: SDK 1.32's Client always offers its latest, and hosts pinned to an older SDK
 * offer older ones, so the driver rewrites the one field of the initialize request.
 */
class RecordingTransport {
  constructor(inner, offer) {
    this.inner = inner;
    this.offer = offer;
    this.sent = [];
    this.received = [];
    this.initializeId = undefined;
    this.initializeResult = undefined;
  }

  get sessionId() {
    return this.inner.sessionId;
  }

  setProtocolVersion(version) {
    this.inner.setProtocolVersion?.(version);
  }

  async start() {
    this.inner.onmessage = (message, extra) => {
      this.received.push(message);
      if (message.id !== undefined && message.id === this.initializeId && message.result) {
        this.initializeResult = message.result;
      }
      this.onmessage?.(message, extra);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  async send(message, options) {
    if (message.method === "initialize") {
      this.initializeId = message.id;
      if (this.offer) {
        message = { ...message, params: { ...message.params, protocolVersion: this.offer } };
      }
    }
    this.sent.push(message);
    await this.inner.send(message, options);
  }

  async close() {
    await this.inner.close();
  }

  /** Whether any answer (result or error) to request `id` arrived. */
  answered(id) {
    return this.received.some((message) => message.id === id && !("method" in message));
  }
}

function describeError(error) {
  return {
    name: error?.name ?? "Error",
    code: error?.code ?? null,
    message: String(error?.message ?? error),
    data: error?.data ?? null,
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One step: what the client does, and what it got back. */
async function run(step, client, transport) {
  const options = { timeout: REQUEST_TIMEOUT_MS };
  switch (step.op) {
    case "listTools":
      return client.listTools({}, options);
    case "listResources":
      return client.listResources({}, options);
    case "listResourceTemplates":
      return client.listResourceTemplates({}, options);
    case "listPrompts":
      return client.listPrompts({}, options);
    case "readResource":
      return client.readResource({ uri: step.uri }, options);
    case "getPrompt":
      return client.getPrompt({ name: step.name, arguments: step.arguments ?? {} }, options);
    case "callTool":
      return client.callTool({ name: step.name, arguments: step.arguments ?? {} }, undefined, options);
    case "ping":
      return client.ping(options);
    case "sleep":
      await sleep(step.ms);
      return null;
    case "writeFile":
      writeFileSync(step.path, step.text);
      return null;
    case "waitNotification": {
      // Wait until the server has sent `count` notifications of `method`, or the time is up.
      const count = () => transport.received.filter((m) => m.method === step.method && m.id === undefined).length;
      const deadline = Date.now() + step.timeoutMs;
      while (count() < (step.count ?? 1) && Date.now() < deadline) {
        await sleep(25);
      }
      return { heard: count() };
    }
    case "abortedCall": {
      // Start a call, abort it after `abortAfterMs` (the SDK sends notifications/cancelled), then
      // watch for `watchMs` whether the server answers the cancelled request anyway.
      const controller = new AbortController();
      const pending = client.callTool({ name: step.name, arguments: step.arguments ?? {} }, undefined, {
        ...options,
        signal: controller.signal,
      });
      const id = transport.sent.at(-1)?.id;
      await sleep(step.abortAfterMs);
      controller.abort("the user gave up");
      let outcome;
      try {
        outcome = { settled: "resolved", value: await pending };
      } catch (error) {
        outcome = { settled: "rejected", error: describeError(error) };
      }
      await sleep(step.watchMs);
      const cancelled = transport.sent.some((m) => m.method === "notifications/cancelled" && m.params?.requestId === id);
      return { ...outcome, requestId: id, cancelSent: cancelled, answered: transport.answered(id) };
    }
    default:
      throw new Error(`unknown step op: ${step.op}`);
  }
}

function makeTransport(scenario) {
  if (scenario.transport === "stdio") {
    return new StdioClientTransport({
      command: scenario.command,
      args: scenario.args ?? [],
      env: { ...process.env, ...(scenario.env ?? {}) },
      cwd: scenario.cwd,
      stderr: "pipe",
    });
  }
  if (scenario.transport === "http") {
    return new StreamableHTTPClientTransport(new URL(scenario.url), {
      requestInit: { headers: scenario.headers ?? {} },
    });
  }
  throw new Error(`unknown transport: ${scenario.transport}`);
}

async function main() {
  const scenario = JSON.parse(readFileSync(0, "utf8"));
  const inner = makeTransport(scenario);
  let stderr = "";
  inner.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const transport = new RecordingTransport(inner, scenario.offer);
  const client = new Client({ name: "json-contracts-interop", version: "1.0.0" }, { capabilities: {} });
  const report = { connected: false, steps: [] };
  try {
    await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
    report.connected = true;
    report.offered = transport.sent.find((m) => m.method === "initialize")?.params?.protocolVersion ?? null;
    report.protocolVersion = transport.initializeResult?.protocolVersion ?? null;
    report.capabilities = client.getServerCapabilities() ?? null;
    report.serverInfo = client.getServerVersion() ?? null;
    // Hosts list the tools before calling one, which also arms the SDK's outputSchema check.
    report.tools = (await client.listTools({}, { timeout: REQUEST_TIMEOUT_MS })).tools;
    for (const step of scenario.steps ?? []) {
      try {
        report.steps.push({ ok: true, value: (await run(step, client, transport)) ?? null });
      } catch (error) {
        report.steps.push({ ok: false, error: describeError(error) });
      }
    }
  } catch (error) {
    report.error = describeError(error);
  }
  report.notifications = transport.received.filter((m) => m.method && m.id === undefined);
  try {
    await client.close();
  } catch (error) {
    report.closeError = describeError(error);
  }
  report.stderr = stderr;
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

await main();
