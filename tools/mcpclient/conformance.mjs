// conformance.mjs drives `smith mcp` with the official MCP TypeScript SDK
// client over stdio, as an MCP host would: initialize, list the tools,
// call read and bash (with progress), list and read a session resource,
// and cancel a long bash. It prints one JSON object with what it saw to
// stdout and exits 1, saying why on stderr, at the first deviation.
// smith/internal/mcp's TestConformanceTypeScript runs it:
//
//	node tools/mcpclient/conformance.mjs SMITH_BINARY PROJECT_DIR SESSION
//
// The binary's environment (SMITH_HOME and the rest) is this process's.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [bin, project, sessionName] = process.argv.slice(2);
if (!bin || !project || !sessionName) {
  console.error("usage: node conformance.mjs SMITH_BINARY PROJECT_DIR SESSION");
  process.exit(2);
}

function check(cond, what) {
  if (!cond) {
    throw new Error(what);
  }
}

function text(result) {
  return (result.content ?? []).filter((c) => c.type === "text").map((c) => c.text).join("");
}

const summary = {};
const transport = new StdioClientTransport({
  command: bin,
  args: ["mcp", "--session", sessionName],
  cwd: project,
  env: { ...process.env },
  stderr: "pipe",
});
let stderr = "";
transport.stderr?.on("data", (b) => {
  stderr += b.toString();
});
const client = new Client({ name: "smith-conformance", version: "1.0.0" });

try {
  await client.connect(transport);
  const server = client.getServerVersion();
  check(server?.name === "smith", `server name ${JSON.stringify(server)}`);
  summary.instructions = client.getInstructions();
  check(summary.instructions?.includes(`session ${sessionName} (`), `instructions ${summary.instructions} do not name the session`);

  const { tools } = await client.listTools();
  summary.tools = tools.map((t) => t.name);
  for (const name of ["read", "bash"]) {
    const t = tools.find((t) => t.name === name);
    check(t && t.inputSchema?.type === "object" && t.description, `tool ${name}: ${JSON.stringify(t)}`);
  }

  const read = await client.callTool({ name: "read", arguments: { path: "hello.txt" } });
  summary.read = text(read);
  check(!read.isError && summary.read.includes("hello from the project"), `read: ${JSON.stringify(read)}`);

  const progress = [];
  const bash = await client.callTool({ name: "bash", arguments: { command: "echo one; sleep 0.2; echo two" } }, undefined, {
    onprogress: (p) => progress.push(p.message),
  });
  summary.bash = text(bash);
  summary.bashProgress = progress;
  check(!bash.isError && summary.bash.includes("one\ntwo\n"), `bash: ${JSON.stringify(bash)}`);
  // The SDK handles notifications a microtask later than responses and drops
  // the call's progress handler at its response, so a last update that
  // arrives in the same read as the response can be lost on this side.
  const got = progress.join("");
  check(got !== "" && "one\ntwo\n".startsWith(got), `bash progress ${JSON.stringify(progress)}`);

  const bad = await client.callTool({ name: "read", arguments: { paht: "x" } });
  summary.badArguments = text(bad);
  check(bad.isError && summary.badArguments.includes("do not match the schema"), `bad arguments: ${JSON.stringify(bad)}`);
  const outside = await client.callTool({ name: "read", arguments: { path: "/etc/passwd" } });
  summary.outside = text(outside);
  check(outside.isError && summary.outside.includes("outside the allowed project directories"), `outside: ${JSON.stringify(outside)}`);
  try {
    await client.callTool({ name: "nope", arguments: {} });
    check(false, "an unknown tool was answered");
  } catch (e) {
    summary.unknownTool = e.message;
    check(e.message.includes("available tools"), `unknown tool: ${e.message}`);
  }

  const { resources } = await client.listResources();
  summary.resources = resources.map((r) => `${r.uri} ${r.mimeType}`);
  const md = resources.find((r) => r.name.startsWith(`${sessionName} (`) && r.mimeType === "text/markdown");
  const jsonl = resources.find((r) => r.name.startsWith(`${sessionName} (`) && r.mimeType === "application/jsonl");
  check(md && jsonl, `no resources of session ${sessionName}: ${JSON.stringify(resources)}`);
  const mdText = (await client.readResource({ uri: md.uri })).contents[0].text;
  check(mdText.startsWith(`# Session ${sessionName} (`), `markdown resource: ${mdText}`);
  const jsonlText = (await client.readResource({ uri: jsonl.uri })).contents[0].text;
  check(jsonlText.includes('"parent":"mcp:1"'), `jsonl resource lacks the read's effect: ${jsonlText}`);
  summary.jsonlLines = jsonlText.trim().split("\n").length;

  // Cancel a long command once it has started (its first output).
  const ac = new AbortController();
  const started = Date.now();
  let cancelledAt = 0;
  const long = client.callTool({ name: "bash", arguments: { command: "echo sleeping; sleep 30; echo woke" } }, undefined, {
    signal: ac.signal,
    onprogress: () => {
      if (!cancelledAt) {
        cancelledAt = Date.now();
        ac.abort("the conformance test cancels it");
      }
    },
    timeout: 60000,
  });
  try {
    await long;
    check(false, "the cancelled bash was answered as if it had not been cancelled");
  } catch (e) {
    summary.cancelError = String(e.message ?? e);
  }
  summary.cancelMs = Date.now() - started;
  // The server is still serving after the cancellation.
  const after = await client.callTool({ name: "bash", arguments: { command: "echo after" } });
  check(text(after).includes("after"), `call after the cancellation: ${JSON.stringify(after)}`);
  await client.close();
  summary.stderr = stderr;
  console.log(JSON.stringify(summary));
} catch (e) {
  console.error(`conformance: ${e.message}\nsmith stderr:\n${stderr}`);
  try {
    await client.close();
  } catch {}
  process.exit(1);
}
