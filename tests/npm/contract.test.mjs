// The contract: every question asked three ways — `hwfit … --json`, the npm package (in node) and
// `hwfit serve` over HTTP — gives the same answer, modulo key case (snake_case from the CLI and HTTP,
// camelCase from JS). Run by scripts/test-npm in the throwaway project, with HWFIT_BIN naming the CLI.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import * as hwfit from "hwfit";

const require = createRequire(import.meta.url);
hwfit.initSync({ module: readFileSync(join(dirname(require.resolve("hwfit/package.json")), "hwfit_bg.wasm")) });

const bin = process.env.HWFIT_BIN;
if (!bin) throw new Error("set HWFIT_BIN to the hwfit binary");
const repo = process.env.HWFIT_REPO;
if (!repo) throw new Error("set HWFIT_REPO to the repository root (the detection fixture)");

// The core's one list of questions: each one's name in the CLI, JS and Python, its route, and
// whether it runs on local devices when the request names no hardware.
const LIST = JSON.parse(execFileSync(bin, ["questions", "--json"], { encoding: "utf8" }));

// Local devices, the same in every face: a recorded detection report (a 2-core CI machine, its CPU
// measured), given to the CLI and the server as `--detection FILE` and to the package through
// `configure({ detection })`. A second report with no devices stands for an empty detection.
const DETECTION = join(repo, "crates/hwfit-cli/tests/fixtures/detection_ci_2core_llvmpipe.json");
const report = JSON.parse(readFileSync(DETECTION, "utf8"));
const EMPTY = join(mkdtempSync(join(tmpdir(), "hwfit-contract-")), "empty-detection.json");
writeFileSync(EMPTY, JSON.stringify({ ...report, devices: [] }));

// Rows: a question (by its one name), the request (IPFS Accelerate's field names) and the CLI's
// arguments after the subcommand. `local` rows name no hardware: they run on the detection report's
// devices (`"report"`) or on none (`"empty"`: every hardware type with a reference device).
// `alias` rows ask through a former name (the CLI's; `jsAlias`: the package's).
const ROWS = [
  { q: "classify", body: { model_name: "gpt2", tasks: ["text-generation"] }, cli: ["gpt2", "--task", "text-generation"] },
  { q: "models", body: { family: "vision" }, cli: ["--family", "vision"] },
  { q: "model", body: { model_name: "t5-small" }, cli: ["t5-small"] },
  { q: "model", alias: "models", body: { model_name: "t5-small" }, cli: ["t5-small"] },
  { q: "resources", body: { model_name: "gpt2", hardware: "cuda", precision: "fp16", batch_size: 4, sequence_length: 256 },
    cli: ["gpt2", "--hardware", "cuda", "--precision", "fp16", "--batch-size", "4", "--sequence-length", "256"] },
  { q: "compatibility", body: undefined, cli: [] },
  { q: "compatibility", alias: "compat", jsAlias: "compat", body: undefined, cli: [] },
  { q: "devices", body: { hardware: "rocm" }, cli: ["--hardware", "rocm"] },
  { q: "predict", body: { model_name: "Llama 3 8B", hardware: ["cuda", "webgpu"], devices: ["rtx 4090"], precision: "q4_k_m", batch_size: 2 },
    cli: ["Llama 3 8B", "--hardware", "cuda,webgpu", "--device", "rtx 4090", "--precision", "q4_k_m", "--batch-size", "2"] },
  { q: "predict", body: { model_name: "bert-base-uncased", hardware: ["cuda"], mode: "training", precision: "bf16", batch_size: 16 },
    cli: ["bert-base-uncased", "--hardware", "cuda", "--mode", "training", "--precision", "bf16", "--batch-size", "16"] },
  { q: "predict", body: { model_name: "Llama 3 8B", devices: ["EPYC 9654", "rtx 4090"], precision: "q4_k_m", threads: 8 },
    cli: ["Llama 3 8B", "--device", "EPYC 9654,rtx 4090", "--precision", "q4_k_m", "--threads", "8"] },
  { q: "predict", local: "report", body: { model_name: "gpt2", batch_size: 4 }, cli: ["gpt2", "--batch-size", "4"] },
  { q: "predict", local: "empty", body: { model_name: "gpt2" }, cli: ["gpt2"] },
  { q: "select", body: { model_name: "bert-base-uncased", hardware: ["cpu", "cuda", "rocm", "mps"], batch_size: 8 },
    cli: ["bert-base-uncased", "--hardware", "cpu,cuda,rocm,mps", "--batch-size", "8"] },
  { q: "select", body: { model_name: "gpt2", hardware: ["cuda"], mode: "training", distributed: true, gpu_count: 4, batch_size: 8 },
    cli: ["gpt2", "--hardware", "cuda", "--mode", "training", "--distributed", "4", "--batch-size", "8"] },
  { q: "select", body: { model_name: "gpt2", devices: ["EPYC 9654", "Ryzen 9 7950X"], threads: 4 },
    cli: ["gpt2", "--device", "EPYC 9654,Ryzen 9 7950X", "--threads", "4"] },
  { q: "predict", body: { model_name: "sentence-transformers/all-MiniLM-L6-v2", browser: "firefox, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16, webnn=gpu", batch_size: 8 },
    cli: ["sentence-transformers/all-MiniLM-L6-v2", "--browser", "firefox, gpu=NVIDIA GeForce RTX 3080, isolated, cores=16, webnn=gpu", "--batch-size", "8"] },
  { q: "select", body: { model_name: "bert-base-uncased", browser: { engine: "webkit", wasm: true, webgpu: { vendor: "apple", architecture: "metal-3", device: "applem2pro" }, hardware_concurrency: 12 }, hardware: ["cpu"] },
    cli: ["bert-base-uncased", "--browser", '{"engine": "webkit", "wasm": true, "webgpu": {"vendor": "apple", "architecture": "metal-3", "device": "applem2pro"}, "hardware_concurrency": 12}', "--hardware", "cpu"] },
  { q: "select", local: "report", body: { model_name: "bert-base-uncased" }, cli: ["bert-base-uncased"] },
  { q: "select", local: "empty", body: { model_name: "bert-base-uncased" }, cli: ["bert-base-uncased"] },
  { q: "batch-select", body: { models: [{ name: "gpt2" }, { name: "vit-base-patch16-224" }], hardware: ["cpu", "cuda"] },
    cli: ["gpt2", "vit-base-patch16-224", "--hardware", "cpu,cuda"] },
  { q: "batch-select", body: { models: [{ name: "gpt2" }, { name: "no-such-model-xyz" }], hardware: ["cpu"] },
    cli: ["gpt2", "no-such-model-xyz", "--hardware", "cpu"] },
  { q: "batch-select", alias: "batch", body: { models: [{ name: "gpt2" }], hardware: ["cpu"] }, cli: ["gpt2", "--hardware", "cpu"] },
  { q: "batch-select", local: "report", body: { models: [{ name: "gpt2" }, { name: "t5-small" }] }, cli: ["gpt2", "t5-small"] },
  { q: "analyze", body: { model_name: "bert-base-uncased", hardware: ["cpu", "cuda"], batch_sizes: [1, 16] },
    cli: ["bert-base-uncased", "--hardware", "cpu,cuda", "--batch-sizes", "1,16"] },
  { q: "analyze", local: "report", body: { model_name: "bert-base-uncased", batch_sizes: [1, 16] }, cli: ["bert-base-uncased", "--batch-sizes", "1,16"] },
  { q: "matrix", body: { models: ["gpt2", "bert-base-uncased"], hardware: ["cpu", "cuda"], batch_sizes: [1, 8], precisions: ["fp32", "int8"] },
    cli: ["--models", "gpt2,bert-base-uncased", "--hardware", "cpu,cuda", "--batch-sizes", "1,8", "--precision", "fp32,int8"] },
  { q: "matrix", local: "report", body: { models: ["gpt2"], batch_sizes: [1] }, cli: ["--models", "gpt2", "--batch-sizes", "1"] },
  { q: "matrix", local: "empty", body: { models: ["gpt2"], batch_sizes: [1] }, cli: ["--models", "gpt2", "--batch-sizes", "1"] },
  { q: "map", body: { hardware: ["cpu", "cuda", "mps"], model_families: ["embedding", "vision"], batch_sizes: [1, 32] },
    cli: ["--hardware", "cpu,cuda,mps", "--families", "embedding,vision", "--batch-sizes", "1,32"] },
  { q: "map", local: "report", body: { model_families: ["embedding"], batch_sizes: [1] }, cli: ["--families", "embedding", "--batch-sizes", "1"] },
  { q: "distributed", body: { model_name: "gpt2", gpu_count: 8, batch_size: 16, max_memory_gb: 16 },
    cli: ["gpt2", "--gpu-count", "8", "--batch-size", "16", "--max-memory-gb", "16"] },
  { q: "resource-pool", body: { models: ["gpt2", "bert-base-uncased"], hardware: ["cuda", "cpu"] },
    cli: ["gpt2", "bert-base-uncased", "--hardware", "cuda,cpu"] },
  { q: "resource-pool", alias: "resource-config", body: { models: ["gpt2"], hardware: ["cpu"] }, cli: ["gpt2", "--hardware", "cpu"] },
  { q: "resource-pool", local: "report", body: { models: ["gpt2", "bert-base-uncased"] }, cli: ["gpt2", "bert-base-uncased"] },
  { q: "recommend", body: { task: "text-classification", hardware: ["cpu"] }, cli: ["--task", "text-classification", "--hardware", "cpu"] },
  { q: "recommend", local: "report", body: { task: "text-classification" }, cli: ["--task", "text-classification"] },
  { q: "compatible-models", body: { models: ["gpt2", "Llama 3 8B"], device: "rtx 3090" }, cli: ["gpt2", "Llama 3 8B", "--device", "rtx 3090"] },
  { q: "compatible-models", alias: "compatible", jsAlias: "compatible", body: { models: ["gpt2"], hardware: "cpu" }, cli: ["gpt2", "--hardware", "cpu"] },
  { q: "template", body: { model_name: "bert-base-uncased", runtime: "transformers.js", hardware: ["webgpu", "wasm"], batch_size: 4 },
    cli: ["bert-base-uncased", "--runtime", "transformers.js", "--hardware", "webgpu,wasm", "--batch-size", "4"] },
  { q: "template", local: "report", body: { model_name: "bert-base-uncased" }, cli: ["bert-base-uncased"] },
];

const camel = (k) => k.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const snake = (k) => k.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());
/** Renames the keys of a request (field names only: the contract's requests carry no data maps). */
const toCamel = (v) =>
  Array.isArray(v) ? v.map(toCamel)
  : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [camel(k), toCamel(x)]))
  : v;
/** Renames every key of an answer; data keys (ids, hardware types, precisions) have no capitals. */
const toSnake = (v) =>
  Array.isArray(v) ? v.map(toSnake)
  : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [snake(k), toSnake(x)]))
  : v;

const servers = {};

/** Starts `hwfit serve` on a free port; resolves to its base URL. */
function serve(args) {
  const server = spawn(bin, ["serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const base = new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    server.on("exit", (code) => reject(new Error(`hwfit serve exited with ${code}: ${out}`)));
  });
  return { server, base };
}

before(async () => {
  // The CLI and the server know the device database and the learned predictor; the package loads
  // them apart (the asynchronous questions would on first use).
  await hwfit.loadDeviceDatabase();
  await hwfit.loadPredictor();
  for (const [local, file] of [["report", DETECTION], ["empty", EMPTY]]) {
    const s = serve(["--detection", file]);
    servers[local] = { server: s.server, base: await s.base };
  }
});

after(() => Object.values(servers).forEach((s) => s.server.kill("SIGTERM")));

/** Asks over HTTP: a POST body, or a GET query string. */
async function http(base, { method, path }, body) {
  const query = method === "GET" && body ? "?" + new URLSearchParams(body) : "";
  const res = await fetch(base + path + query, {
    method,
    headers: method === "POST" ? { "content-type": "application/json" } : {},
    body: method === "POST" ? JSON.stringify(body ?? {}) : undefined,
  });
  const json = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json;
}

function cli(args) {
  return JSON.parse(execFileSync(bin, [...args, "--json"], { encoding: "utf8" }));
}

test("every question has a row, with hardware named and (where it may run on local devices) without; every alias has one", () => {
  for (const q of LIST) {
    const rows = ROWS.filter((r) => r.q === q.name);
    assert.ok(rows.some((r) => !r.local && !r.alias), `${q.name}: no row`);
    assert.equal(rows.some((r) => r.local === "report"), q.targeted, `${q.name}: a no-hardware row exactly when targeted`);
    for (const alias of q.aliases) assert.ok(rows.some((r) => r.alias === alias), `${q.name}: no row for its alias ${alias}`);
  }
  for (const r of ROWS) assert.ok(LIST.some((q) => q.name === r.q), `${r.q} is not a question`);
});

for (const row of ROWS) {
  const q = LIST.find((x) => x.name === row.q);
  const label = `${row.alias ?? row.q}${row.local ? ` (no hardware named, ${row.local} detection)` : ""}`;
  test(`${label}: CLI = npm package = HTTP`, async () => {
    const local = row.local ?? "report";
    const overHttp = await http(servers[local].base, q, row.body);
    hwfit.configure({ detection: local === "report" ? report : { ...report, devices: [] } });
    const js = row.jsAlias ?? q.js;
    const fromJs = toSnake(await hwfit[js](row.body === undefined ? undefined : toCamel(row.body)));
    const detection = q.targeted ? ["--detection", local === "report" ? DETECTION : EMPTY] : [];
    const fromCli = cli([row.alias ?? q.name, ...row.cli, ...detection]);
    if (q.name === "template") {
      // The CLI also renders the file from the decision.
      assert.equal(typeof fromCli.content, "string");
      delete fromCli.content;
    }
    assert.deepEqual(fromJs, overHttp, "npm package vs HTTP");
    assert.deepEqual(fromCli, overHttp, "CLI vs HTTP");
    if (row.local === "empty") {
      // Nothing detected: every hardware type with a reference device.
      assert.ok(JSON.stringify(overHttp).includes("cuda"), "the fallback covers every type");
    }
  });
}

test("an unknown model is the same error everywhere", async () => {
  const res = await fetch(servers.report.base + "/hardware/select", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model_name: "no-such-model-xyz", hardware: ["cpu"] }),
  });
  const overHttp = await res.json();
  assert.equal(res.status, 404);
  const js = await hwfit.select({ modelName: "no-such-model-xyz", hardware: ["cpu"] }).then(
    () => assert.fail("no error"),
    (e) => e.message,
  );
  assert.equal(js, overHttp.message);
  let stderr = "";
  try {
    execFileSync(bin, ["select", "no-such-model-xyz", "--hardware", "cpu", "--json"], { encoding: "utf8", stdio: "pipe" });
    assert.fail("no error");
  } catch (e) {
    stderr = String(e.stderr);
  }
  assert.ok(stderr.includes(overHttp.message), stderr);
});
